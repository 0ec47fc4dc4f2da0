"""Whole games: random and heuristic play reach the Ether win before ``max_rounds``; the
heuristic agent plays legal moves using only what its player may see."""

import numpy as np
import pytest

import ether_envs
from ether_envs.ether_wars import codec, fast
from agents.heuristics.ether_wars import heuristic_action


@pytest.mark.parametrize("n", [2, 3, 4])
def test_objective_random_games_end_with_an_ether_win(n):
    game = ether_envs.load_game("ether_wars", num_players=n)
    for seed in range(2):
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            s.apply_action(int(rng.choice(s.legal_actions())))
        assert not s.truncated and s.res[s.winner][4] >= game.ether_to_win
        assert s.returns()[s.winner] == 1.0 and abs(s.returns().sum()) < 1e-9


def test_max_rounds_truncation_ends_without_winner():
    game = ether_envs.load_game("ether_wars", num_players=2, max_rounds=1)
    s = game.new_initial_state(0)
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        s.apply_action(int(rng.choice(s.legal_actions())))
    if s.winner < 0:
        assert s.truncated and s.round == 1 and list(s.returns()) == [0.0, 0.0]


def test_heuristic_agent_legal_and_beats_random_in_two_player_games():
    game = ether_envs.load_game("ether_wars", num_players=2, favours="advanced")
    wins = 0
    for seed in range(3):
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            p = s.current_player()
            a = heuristic_action(s, p, rng) if p == 0 else int(rng.choice(s.legal_actions()))
            assert a in s.legal_actions()
            s.apply_action(a)
        wins += s.winner == 0
    assert wins >= 2


def test_heuristic_agent_ignores_hidden_information():
    game = ether_envs.load_game("ether_wars", num_players=3)
    s = game.new_initial_state(5)
    rng = np.random.default_rng(5)
    for _ in range(300):
        if s.is_terminal():
            break
        p = s.current_player()
        alt = s.resample_hidden(p, np.random.default_rng(1))
        assert heuristic_action(alt, p, np.random.default_rng(2)) == heuristic_action(s, p, np.random.default_rng(2))
        s.apply_action(heuristic_action(s, p, rng))


@pytest.mark.parametrize("n", [2, 4])
def test_components_invariants_hold_in_random_play(n):
    """Ten Unit dice per faction at all times; no resource below 0 or above the box."""
    game = ether_envs.load_game("ether_wars", num_players=n, favours="advanced")
    s = game.new_initial_state(11)
    rng = np.random.default_rng(11)
    while not s.is_terminal():
        for q in range(n):
            assert s.home_units[q] + sum(s.units_at[q]) + s.reserve[q] == 10
            assert min(s.res[q]) >= 0 and s.charge[q] >= 0
        for r in range(5):
            assert s.bank(r) >= 0
        s.apply_action(int(rng.choice(s.legal_actions())))


def test_placement_fast_area_list_matches_can_put_rules():
    """``_place_areas`` and ``_add_kinds`` (and the fast path ``fast.placement_legal``) agree with ``can_put``."""
    game = ether_envs.load_game("ether_wars", num_players=4)
    s = game.new_initial_state(3)
    rng = np.random.default_rng(3)
    checked = 0
    while not s.is_terminal() and checked < 3000:
        if s.decision == 6:  # adding dice: the fast path agrees with can_put
            p, a = s.decider, s.add_area
            s.placed[p] &= ~(1 << a)
            slow = [d for d in s.dice_at_home(p) if s.can_put(p, a, d)]
            s.placed[p] |= 1 << a
            if a not in (5, 6) or not s.add_count:
                assert s._add_kinds(p) == slow
            legal = s.legal_actions()  # as the engine posed it (derived from the previous die's list)
            s.invalidate_caches()
            assert s.legal_actions() == legal == ([codec.ADD0 + d for d in s._add_kinds(p)]
                                                  + [codec.DONE] * (s.add_count > 0))
        if s.phase == 3:  # Placement
            for p in range(4):
                slow = [a for a in range(11) if any(s.can_put(p, a, d) for d in s.dice_at_home(p))]
                assert s._place_areas(p) == slow
                legal = fast.placement_legal(s.clone(), p) or []
                areas = [s.abs_area(p, a - codec.AREA0) for a in legal if a != codec.PASS]
                assert sorted(areas) == slow
                checked += 1
        s.apply_action(int(rng.choice(s.legal_actions())))
    assert checked


def _dest_mask_after_leaving(s, p, kind, a):
    """Movement destinations the plain way: the die leaves ``a``, the occupancy is counted
    afresh, then ``can_put`` (as a move) for every other area."""
    c = s.clone()
    c._lift(p, kind, a, -1)
    c.invalidate_caches()
    return sum(1 << b for b in range(11) if b != a and c.can_put(p, b, kind, moving=True))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_movement_destinations_match_leaving_the_area_first(n):
    """The destinations (``fast.put_masks`` and ``_move_dests``: no lifting, the mover's own dice
    never count against it) and ``_movable`` (and ``fast.movable_dice``) agree with lifting the die
    and checking ``can_put`` (rulebook "Movement")."""
    game = ether_envs.load_game("ether_wars", num_players=n, max_rounds=8)
    checked = 0
    for seed in range(3):
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            if s.phase == 4:  # Movement
                for p in range(n):
                    m = s.hired[p]
                    dice = [(0, a) for a in range(11) if s.units_at[p][a]]
                    dice += [(1, s.hero_at[p])] if s.hero_at[p] >= 0 else []
                    dice += [(2, s.merc_at[m])] if m >= 0 and s.merc_at[m] >= 0 else []
                    for kind, a in dice:
                        dest_mask = fast.put_masks(s, p, (kind,), True)[0] & ~(1 << a)
                        assert dest_mask == _dest_mask_after_leaving(s, p, kind, a)
                        pick = kind * 11 + s.rel_area(p, a)
                        assert sum(1 << b for b in s._move_dests(p, pick)) == dest_mask
                        checked += 1
                    slow = [(k, a) for k, a in dice if (any(s._move_payments(p, k))
                                                        and _dest_mask_after_leaving(s, p, k, a))]
                    assert s._movable(p) == slow == fast.movable_dice(s, p)
            s.apply_action(int(rng.choice(s.legal_actions())))
    assert checked > 100
