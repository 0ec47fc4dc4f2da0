"""The fast paths of ``fast.py`` against the plain rules of ``rules.py``, at every step of random
games of every conformance configuration (the incremental observation encoder against
``Encoder.encode_uncached``: ``test_observation_cache.py``)."""

import numpy as np
import pytest

from ether_envs.aethermon_collect import components as C
from ether_envs.aethermon_collect import fast
from ether_envs.aethermon_collect.rules import Game


def _random_states(config, seeds=range(3)):
    game = Game(**config)
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            yield state
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        yield state


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_fast_is_legal_agrees_with_the_legal_actions(config):
    """``State._is_legal`` (``fast.is_legal``) answers ``action in State._legal_actions()`` for every id."""
    for state in _random_states(config):
        if state.is_terminal():
            continue
        legal = set(state._legal_actions())
        for a in range(state.game.num_distinct_actions()):
            assert fast.is_legal(state, a) == (a in legal), (a, state.phase)


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_incremental_scores_equal_the_scoring_rule(config):
    """``score_cache``, kept up to date by each collection, equals rulebook "Scoring" from the collections."""
    for state in _random_states(config):
        assert state.score_cache == [state.rescored(p) for p in range(state.num_players)]


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_fast_use_actions_agree_with_the_rule(config):
    """``State._use_actions`` (``fast.use_actions``) equals ``_use_actions_by_rule`` for both timings."""
    for state in _random_states(config):
        if state.is_terminal():
            continue
        for timing in (C.PRE_MOVE, C.POST_MOVE):
            assert fast.use_actions(state, timing) == state._use_actions_by_rule(timing)
