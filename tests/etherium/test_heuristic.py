"""The baseline heuristic (agents/heuristics/etherium.py): legal, information-fair, better than random."""

import numpy as np

import ether_envs
from agents.heuristics.etherium import heuristic_action


def test_heuristic_plays_legal_actions_using_only_visible_information():
    """Its choice never changes when what the player cannot see is redrawn."""
    game = ether_envs.load_game("etherium", num_players=3)
    s = game.new_initial_state(5)
    redraw = np.random.default_rng(0)
    while not s.is_terminal():
        p = s.current_player()
        a = heuristic_action(s, p, np.random.default_rng(len(s.history)))
        assert a in s.legal_actions()
        alt = s.resample_hidden(p, redraw)
        assert heuristic_action(alt, p, np.random.default_rng(len(s.history))) == a
        s.apply_action(a)


def test_heuristic_beats_random_players():
    game = ether_envs.load_game("etherium", num_players=2)
    wins = 0
    for seed in range(6):
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            p = s.current_player()
            legal = s.legal_actions()
            s.apply_action(heuristic_action(s, p, rng) if p == seed % 2 else legal[rng.integers(len(legal))])
        wins += s.returns()[seed % 2] > 0
    assert wins >= 5
