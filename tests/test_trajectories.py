"""Seeded trajectories stay the same: a refactor of a rules engine or an encoder must not change
what any seat observes, which actions are legal, or how a game ends.

For every conformance config of every game, three whole games (seeds 7, 8, 9) are played with
uniform random legal actions drawn from ``numpy.random.default_rng(seed)``; the digest covers, at
every step, every seat's observation tensor, the legal-action mask and the action, and at the end
the returns and scores. The expected digests are in ``tests/data/trajectories.json``.

A deliberate change of the rules, of an encoder or of how chance is drawn changes these digests:
document it (the game's RULES.md, the commit message), then regenerate the file with

    python tests/test_trajectories.py

and retrain the game's ``pretrained`` agent if its observation changed (tests/agents/test_pretrained.py).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

import ether_envs
from game_configs import GAME_CONFIG_IDS, GAME_CONFIGS, game_config_id, recorded_digest, write_digests

DATA = Path(__file__).parent / "data" / "trajectories.json"
SEEDS = (7, 8, 9)


def trajectory_digest(name: str, config: dict, seeds=SEEDS) -> str:
    """SHA-256 of the seeded random games of ``name`` at ``config`` (module docstring)."""
    game = ether_envs.load_game(name, **config)
    h = hashlib.sha256()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed=seed)
        for _ in range(game.max_game_length()):
            if state.is_terminal():
                break
            for seat in range(game.num_players):
                h.update(state.observation_tensor(seat).tobytes())
            legal = state.legal_actions()
            a = int(legal[rng.integers(len(legal))])
            h.update(np.asarray(state.legal_actions_mask(), dtype=np.int8).tobytes())
            h.update(a.to_bytes(4, "little"))
            state.apply_action(a)
        h.update(np.asarray(state.returns(), dtype=np.float64).tobytes())
        h.update(np.asarray(state.scores(), dtype=np.float64).tobytes())
    return h.hexdigest()


@pytest.mark.parametrize("name,config", GAME_CONFIGS, ids=GAME_CONFIG_IDS)
def test_seeded_trajectory_is_unchanged(name, config):
    key = game_config_id(name, config)
    assert trajectory_digest(name, config) == recorded_digest(DATA, key, __file__), (
        f"{key}: the seeded trajectory changed (observation, legal actions, action, "
        f"returns or scores). If the change is deliberate, document it and run: python tests/test_trajectories.py")


if __name__ == "__main__":
    write_digests(DATA, trajectory_digest)
