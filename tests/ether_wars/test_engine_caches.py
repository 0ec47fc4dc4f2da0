"""The engine's shortcuts agree with the plain rules: decisions posed with precomputed legal
actions (placement, adding dice, movement, resolve, favour windows, purchases), the placement
put-mask memo, the occupancy kept up to date, one-area occupancy and clone()."""

import numpy as np
import pytest

import ether_envs
from ether_envs.core.game import snapshot
from ether_envs.ether_wars import components as C


@pytest.mark.parametrize("n,favours", [(2, "beginner"), (3, "advanced"), (4, "beginner")])
def test_legal_cache_matches_fresh_computation_in_random_games(n, favours):
    game = ether_envs.load_game("ether_wars", num_players=n, favours=favours, max_rounds=3)
    for seed in range(3):
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal == s._legal_by_rule()
            normal, exempt = s.occupancy()
            kept = (normal[:], exempt[:])
            s._recount_occupancy()  # the occupancy kept up to date equals a fresh count
            assert s.occupancy() == kept
            for a in range(C.NUM_AREAS):
                assert s.area_occupancy(a) == (normal[a], exempt[a])
            s.apply_action(legal[rng.integers(len(legal))])


def test_clone_copies_every_mutable_part_and_plays_on_identically():
    game = ether_envs.load_game("ether_wars", num_players=3)
    s = game.new_initial_state(4)
    rng = np.random.default_rng(4)
    for step in range(400):
        if s.is_terminal():
            break
        c = s.clone()
        assert snapshot(c) == snapshot(s)
        legal = s.legal_actions()
        a = legal[rng.integers(len(legal))]
        before = snapshot(s)
        occ_before = [x[:] for x in s.occupancy()]
        c.apply_action(a)  # playing the clone leaves the original untouched
        assert snapshot(s) == before
        assert [x[:] for x in s.occupancy()] == occ_before  # a private field: not in the snapshot
        s.apply_action(a)
        assert snapshot(c) == snapshot(s)  # same rng state: the same chance outcomes


def test_illegal_action_after_env_steps_raises_and_changes_nothing():
    # the env lists the legal actions while observing; an action that was legal at the
    # observed decision but is not at the next one must be refused there
    env = ether_envs.make("ether_wars", num_players=2)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    refused = 0
    for _ in range(300):
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            break
        observed = [int(a) for a in np.flatnonzero(obs["action_mask"])]
        env.step(observed[rng.integers(len(observed))])
        s = env.unwrapped.game_state
        if s.is_terminal():
            break
        stale = sorted(set(observed) - set(s.legal_actions()))
        if stale:  # no observation in between
            before = snapshot(s)
            with pytest.raises(ValueError):
                env.step(stale[0])
            assert snapshot(s) == before
            refused += 1
    assert refused > 0


def test_snapshot_does_not_depend_on_which_legal_lists_were_asked():
    """The legal-action cache is private: a position reached with or without asking for the
    legal actions first has the same snapshot (regression: the cache was a public field)."""
    game = ether_envs.load_game("ether_wars", num_players=2, max_rounds=4)
    s = game.new_initial_state(1)
    rng = np.random.default_rng(1)
    compared = 0
    while not s.is_terminal() and compared < 300:
        legal = s.legal_actions()
        a = legal[int(rng.integers(len(legal)))]
        asked, fresh = s.clone(), s.clone()
        fresh.invalidate_caches()
        asked.apply_action(a)
        fresh.apply_action(a)
        if not asked.is_terminal():
            asked.legal_actions()
        assert snapshot(asked) == snapshot(fresh)
        s.apply_action(a)
        compared += 1
    assert compared > 50
