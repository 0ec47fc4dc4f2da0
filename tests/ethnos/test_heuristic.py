"""The Ethnos heuristic agent: legal, uses only what its player may see, beats random play."""

import numpy as np
import pytest

import ether_envs
from agents.heuristics.ethnos import heuristic_action


def _play(game, seed, heuristic_seats):
    s = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    while not s.is_terminal():
        p = s.current_player()
        if p in heuristic_seats:
            a = heuristic_action(s, p, rng)
        else:
            legal = s.legal_actions()
            a = legal[rng.integers(len(legal))]
        s.apply_action(a)
    return s


def test_heuristic_always_legal_and_invariant_to_hidden_information():
    game = ether_envs.load_game("ethnos", num_players=4)
    s = game.new_initial_state(seed=2)
    rng = np.random.default_rng(0)
    steps = 0
    while not s.is_terminal() and steps < 400:
        p = s.current_player()
        a = heuristic_action(s, p, np.random.default_rng(steps))
        assert a in s.legal_actions()
        alt = s.resample_hidden(p, rng)  # other hands and the deck redrawn
        assert heuristic_action(alt, p, np.random.default_rng(steps)) == a
        s.apply_action(a)
        steps += 1


def test_heuristic_raises_for_player_not_to_act():
    s = ether_envs.load_game("ethnos", num_players=3).new_initial_state(seed=0)
    with pytest.raises(ValueError):
        heuristic_action(s, (s.current_player() + 1) % 3, np.random.default_rng(0))


def test_heuristic_beats_random_play():
    game = ether_envs.load_game("ethnos", num_players=2)
    wins = 0
    for seed in range(8):
        seat = seed % 2
        s = _play(game, seed, {seat})
        wins += seat in s.winners()
    assert wins >= 6
