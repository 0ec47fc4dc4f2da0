"""The baseline heuristic agent returns legal actions and sees only public information."""

import numpy as np

import ether_envs
from agents.heuristics.aetherspire import heuristic_action


def test_heuristic_plays_legal_actions_to_the_end():
    for cfg in ({"num_players": 1, "difficulty": 1}, {"num_players": 3, "difficulty": 3}):
        g = ether_envs.load_game("aetherspire", **cfg)
        s = g.new_initial_state(seed=5)
        rng = np.random.default_rng(0)
        while not s.is_terminal():
            a = heuristic_action(s, s.current_player(), rng)
            assert a in s.legal_actions()
            s.apply_action(a)


def test_heuristic_ignores_hidden_order():
    """Same public state, bag and stacks redrawn: same action (given the same rng)."""
    g = ether_envs.load_game("aetherspire", num_players=2, difficulty=2)
    s = g.new_initial_state(seed=2)
    for step in range(60):
        if s.is_terminal():
            break
        p = s.current_player()
        alt = s.resample_hidden(p, np.random.default_rng(step))
        assert heuristic_action(s, p, np.random.default_rng(7)) == heuristic_action(alt, p, np.random.default_rng(7))
        s.apply_action(heuristic_action(s, p, np.random.default_rng(step)))
