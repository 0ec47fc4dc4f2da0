"""The fast paths of ``fast.py`` against the plain rules, at every step of random games."""

import numpy as np
import pytest

from ether_envs.etherium import components as C
from ether_envs.etherium import fast
from ether_envs.etherium.codec import MOVE0
from ether_envs.etherium.rules import Game


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_move_tables_equal_the_move_rule(config):
    """``fast.move_table`` (kept per game under seat, colour, free steps and unit boxes) gives
    ``ActionRules.move_options`` of the state at hand, for every seat and Move colour."""
    game = Game(**config)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            if min(state.tribe) >= 0:
                for p in range(game.num_players):
                    for colour in range(5):
                        plain = state.move_options(p, colour)
                        table = fast.move_table(state, p, colour)
                        assert table.options == tuple(plain)
                        assert table.actions == [MOVE0 + u * C.NUM_BOXES + b for u, b in plain]
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    assert game.move_tables  # filled, and reused across states and games
