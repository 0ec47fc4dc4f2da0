"""The encoder's incremental cache (``observation.Encoder``): the view kept up to date
through the journal of changed cards and tallies must equal a view encoded from
scratch, along play, across clones, redraws, pickling and every player count."""

import pickle
import random

import numpy as np
import pytest

from ether_envs.ethnos.rules import Game


def _fresh_view(state, player):
    """``player``'s view encoded from the arrays alone (the state's cache dropped)."""
    s = state.clone()
    s._drop_encoding()
    return s.observation_tensor(player)


def _check_every_seat(state):
    for p in range(state.num_players):
        assert np.array_equal(state.observation_tensor(p), _fresh_view(state, p)), (p, state.history[-3:])


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_observation_incremental_cache_along_random_play_matches_full_encoding(num_players):
    game = Game(num_players=num_players)
    state = game.new_initial_state(seed=num_players)
    rng = random.Random(num_players)
    other = None  # a clone played on separately: the caches must not be shared
    redraw_rng = np.random.default_rng(0)
    while not state.is_terminal():
        _check_every_seat(state)
        if len(state.history) % 97 == 50:
            other = state.clone()
        if len(state.history) % 131 == 70:
            alt = state.resample_hidden(state.current_player(), redraw_rng)
            _check_every_seat(alt)
        if len(state.history) % 211 == 100:
            state = pickle.loads(pickle.dumps(state))
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
        if other is not None and not other.is_terminal():
            legal = other.legal_actions()
            other.apply_action(legal[int(rng.random() * len(legal))])
            _check_every_seat(other)
    _check_every_seat(state)


def test_observation_cache_of_state_played_unobserved_then_observed_matches_full_encoding():
    state = Game(num_players=3).new_initial_state(seed=5)
    state.observation_tensor(0)  # the cache starts, then many unobserved actions fill the journal
    rng = random.Random(5)
    for _ in range(400):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
    _check_every_seat(state)
