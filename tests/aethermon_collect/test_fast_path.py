"""The fast paths of ``fast.py`` against the plain rules of ``rules.py``, at every step of random
games of every conformance configuration (the incremental observation encoder against
``Encoder.encode_uncached``: ``test_observation_cache.py``)."""

import numpy as np
import pytest

from ether_envs import testing
from ether_envs.aethermon_collect import components as C
from ether_envs.aethermon_collect import fast
from ether_envs.aethermon_collect import rules as R
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
        legal = set(state._legal_by_rule())
        for a in range(state.game.num_distinct_actions()):
            assert fast.is_legal(state, a) == (a in legal), (a, state.phase)


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_incremental_scores_equal_the_scoring_rule(config):
    """``score_cache``, kept up to date by each collection, equals rulebook "Scoring" from the collections;
    ``team_score(p)`` equals ``team_scores()[p]``."""
    for state in _random_states(config):
        assert state.score_cache == [state.rescored(p) for p in range(state.num_players)]
        assert [state.team_score(p) for p in range(state.num_players)] == state.team_scores().tolist()


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_fast_use_actions_agree_with_the_rule(config):
    """``State._use_actions`` (``fast.use_actions``) equals ``_use_actions_by_rule`` for both timings."""
    for state in _random_states(config):
        if state.is_terminal():
            continue
        for timing in (C.PRE_MOVE, C.POST_MOVE):
            assert fast.use_actions(state, timing) == state._use_actions_by_rule(timing)


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_fast_legal_actions_agree_with_the_rule(config):
    """``State._legal_actions`` (``fast.legal_actions``) equals ``_legal_by_rule``."""
    for state in _random_states(config):
        if not state.is_terminal():
            assert list(fast.legal_actions(state)) == state._legal_by_rule()


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_fast_apply_action_agrees_with_the_rule(config):
    """``State._apply_action`` (``fast.apply_action``) leaves every field (the encoder's journals
    included) as ``_apply_by_rule`` does, for every legal action."""
    for state in _random_states(config, seeds=range(2)):
        if state.is_terminal():
            continue
        for a in state.legal_actions():
            fast_state, plain_state = state.clone(), state.clone()
            fast.apply_action(fast_state, a)
            plain_state._apply_by_rule(a)
            assert testing.deep_fingerprint(fast_state) == testing.deep_fingerprint(plain_state), a


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_fast_effect_applicable_agrees_with_the_rule(config):
    """``fast.effect_applicable`` equals ``State._effect_applicable`` for every effect, on every turn."""
    for state in _random_states(config, seeds=range(2)):
        if state.phase in (R.TURN, R.POST_MOVE):
            for e in range(C.NUM_ARTEFACTS):
                assert fast.effect_applicable(state, e) == state._effect_applicable(e), e
