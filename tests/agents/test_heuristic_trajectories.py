"""Seeded heuristic games stay the same: the heuristics are the benchmark's fixed opponents, so a
speed-up or a refactor of one must not change a single decision.

For every conformance config of every game, three whole games (seeds 7, 8, 9) are played with the
game's heuristic (``agents/heuristics/<game>.py``) in every seat but one, which plays uniform random
legal actions (seat ``seed % players``, so that the heuristic also meets positions it would not
reach against itself). The heuristic draws its ties from ``numpy.random.default_rng(seed + 1)``,
the random seat from ``default_rng(seed)``. The digest covers every action, each game's returns
and the heuristic's generator state at its end (the same decisions with a different use of the
generator would drift later). The expected digests are in ``tests/data/heuristic_trajectories.json``.

A deliberate change of a heuristic changes its digest: say so in the CHANGELOG (results measured
against the old heuristic no longer compare), then regenerate the file with

    python tests/agents/test_heuristic_trajectories.py

A change of a game's rules changes it too (``tests/test_trajectories.py`` says so first).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import ether_envs
from agents.heuristic import load_heuristic

sys.path.insert(0, str(Path(__file__).parents[1]))
from game_configs import GAME_CONFIG_IDS, GAME_CONFIGS, game_config_id, recorded_digest, write_digests  # noqa: E402

DATA = Path(__file__).parents[1] / "data" / "heuristic_trajectories.json"
SEEDS = (7, 8, 9)


def heuristic_digest(name: str, config: dict, seeds=SEEDS) -> str:
    """SHA-256 of the seeded games of ``name`` at ``config`` played by its heuristic (module docstring)."""
    h = hashlib.sha256()
    for seed in seeds:
        _play(name, config, seed, h)
    return h.hexdigest()


def _play(name: str, config: dict, seed: int, h) -> None:
    game = ether_envs.load_game(name, **config)
    policy = load_heuristic(name)
    rng, tie_rng = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    random_seat = seed % game.num_players
    state = game.new_initial_state(seed=seed)
    for _ in range(game.max_game_length()):
        if state.is_terminal():
            break
        p = state.current_player()
        if p == random_seat:
            legal = state.legal_actions()
            a = int(legal[rng.integers(len(legal))])
        else:
            a = int(policy(state, p, tie_rng))
        h.update(a.to_bytes(4, "little"))
        state.apply_action(a)
    h.update(json.dumps(tie_rng.bit_generator.state, sort_keys=True).encode())
    h.update(np.asarray(state.returns(), dtype=np.float64).tobytes())


@pytest.mark.parametrize("name,config", GAME_CONFIGS, ids=GAME_CONFIG_IDS)
def test_heuristic_trajectory_is_unchanged(name, config):
    key = game_config_id(name, config)
    assert heuristic_digest(name, config) == recorded_digest(DATA, key, __file__), (
        f"{key}: the heuristic's seeded game changed (an action or its use of the generator). "
        f"If the change is deliberate, say so in the CHANGELOG and run: python {__file__}")


if __name__ == "__main__":
    write_digests(DATA, heuristic_digest)
