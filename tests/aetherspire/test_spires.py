"""Rulebook "Complete a spire", "Completing a Spire Summary", win condition, and the
spire adaptations (difficulty 3; ASP-A7)."""

import pickle

import numpy as np

from ether_envs.aetherspire import codec as K
from ether_envs.aetherspire import components as C
from ether_envs.aetherspire import observation as O
from ether_envs.aetherspire import rules as R

from .builders import (AIR, EARTH, FIRE, WATER, a, act, fill_room, floor, fortress_contents, found, give_shards,
                       invaders, legal, next_draws, pillars, reserve, room, scenario, set_dice, sp)


def earth_spire(s, top_side=0):
    """Earth large #28 -> earth divided #29 -> earth small #0 -> earth small #1 (top, level 4)."""
    floor(s, 28, found(0))
    fill_room(s, room(28, 0))
    floor(s, 29, room(28, 0))
    fill_room(s, room(29, 1))
    floor(s, 0, room(29, 1))
    fill_room(s, room(0, 0))
    floor(s, 1, room(0, 0), side=top_side)
    return s


def spire(t, e):
    return a("SPIRE", t * 4 + e)


def test_complete_spire_four_floors_of_one_element():
    s = earth_spire(scenario(num_players=2))
    assert s.level[1] == 4
    assert s.legal_actions().count(spire(1, EARTH)) == 1
    assert [x for x in s.legal_actions() if x >= K.SPIRE0 and x < K.SPIRE0 + 152] == [spire(1, EARTH)]


def test_complete_spire_cannot_with_three_floors():
    s = scenario()
    floor(s, 28, found(0))
    fill_room(s, room(28, 0))
    floor(s, 29, room(28, 0))
    fill_room(s, room(29, 1))
    floor(s, 0, room(29, 1))
    assert not any(K.SPIRE0 <= x < K.SPIRE0 + 152 for x in s.legal_actions())


def test_complete_spire_defeats_fiend_bonus_then_diminish():
    """Summary: 1 defeat the fiend (even dormant), 2 choose an unused bonus, 3 set aside 5
    invaders of the element from the bag."""
    s = earth_spire(scenario(num_players=2))
    act(s, "SPIRE", 1 * 4 + EARTH)
    assert s.defeated[EARTH] and s.topped[1] == EARTH and s.spires() == 1
    assert [s.spire_of[t] for t in (28, 29, 0, 1)] == [EARTH] * 4
    assert sorted(s.legal_actions()) == [a("BONUS", b) for b in range(4)]
    cores = s.cores
    act(s, "BONUS", 0)  # +1 aethercore
    assert s.cores == cores + 1 and s.bonus_used == [True, False, False, False]
    assert s.aside[EARTH] == 5 and s.bag.count(EARTH) == 5 and s.queue == []
    assert not legal(s, "BONUS", 0)


def test_complete_spire_top_floor_must_be_empty():
    """The 4th floor cannot have anything on it: pillars or invaders."""
    s = earth_spire(scenario())
    pillars(s, sp(1, 0))
    assert not legal(s, "SPIRE", 1 * 4 + EARTH)
    s = earth_spire(scenario())
    invaders(s, {sp(1, 1): FIRE})
    assert not legal(s, "SPIRE", 1 * 4 + EARTH)


def test_complete_spire_top_floor_needs_small_room_footprint():
    """A top floor with only a medium room has no small-room footprint."""
    s = scenario()
    floor(s, 36, found(0))  # earth/water: two medium rooms
    fill_room(s, room(36, 0))
    floor(s, 16, room(36, 0))  # earth medium 1 (one medium room)
    fill_room(s, room(16, 0))
    floor(s, 17, room(16, 0))  # earth medium 2
    fill_room(s, room(17, 0))
    floor(s, 18, room(17, 0), side=0)  # earth medium, two small rooms: a footprint
    assert legal(s, "SPIRE", 18 * 4 + EARTH)
    # top = a medium tile with only a medium room
    s2 = scenario()
    floor(s2, 28, found(0))
    fill_room(s2, room(28, 0))
    floor(s2, 29, room(28, 0))
    fill_room(s2, room(29, 0))  # the divided tile's medium room
    floor(s2, 16, room(29, 0))
    fill_room(s2, room(16, 0))
    floor(s2, 17, room(16, 0))  # top: earth medium with one medium room
    assert not legal(s2, "SPIRE", 17 * 4 + EARTH)


def test_complete_spire_special_small_tile_counts_as_footprint():
    """Or the top is a small floor tile with a special effect."""
    s = scenario()
    floor(s, 28, found(0))
    fill_room(s, room(28, 0))
    floor(s, 29, room(28, 0))
    fill_room(s, room(29, 1))
    floor(s, 0, room(29, 1))
    fill_room(s, room(0, 0))
    floor(s, 3, room(0, 0))  # earth special tile (bedrock), no rooms
    assert legal(s, "SPIRE", 3 * 4 + EARTH)


def test_complete_spire_with_multi_floors_player_chooses_element():
    """Multi floors count as all elements; the player decides the spire's element."""
    s = scenario()
    floor(s, 36, found(0))  # earth/water (two-element tile, ASP-A21)
    fill_room(s, room(36, 0))
    floor(s, 18, room(36, 0), side=1)  # multi: two small rooms
    fill_room(s, room(18, 0))
    floor(s, 12, room(18, 0), side=1)  # multi small
    fill_room(s, room(12, 0))
    floor(s, 13, room(12, 0), side=1)  # multi small top
    opts = [x for x in s.legal_actions() if K.SPIRE0 <= x < K.SPIRE0 + 152]
    assert opts == [spire(13, EARTH), spire(13, WATER)]
    act(s, "SPIRE", 13 * 4 + WATER)
    assert s.defeated == [False, False, False, True]


def test_complete_spire_earth_tile_with_one_multi_floor():
    s = scenario()
    earth_spire(s, top_side=1)
    assert [x for x in s.legal_actions() if K.SPIRE0 <= x < K.SPIRE0 + 152] == [spire(1, EARTH)]


def test_complete_spire_starting_above_divided_floor_reaches_level_5():
    """Note: a spire may start above a divided floor; its top is then at level 5+."""
    s = scenario()
    floor(s, 37, found(0))  # fire/air: air medium room is room 1
    fill_room(s, room(37, 1))
    floor(s, 19, room(37, 1))  # air medium 1
    fill_room(s, room(19, 0))
    floor(s, 20, room(19, 0))  # air medium 2
    fill_room(s, room(20, 0))
    floor(s, 21, room(20, 0))  # air medium, two small rooms
    fill_room(s, room(21, 0))
    floor(s, 4, room(21, 0))  # air small
    assert s.level[4] == 5
    assert legal(s, "SPIRE", 4 * 4 + AIR)  # 4, 21, 20, 19 (and 37 would also fit)
    act(s, "SPIRE", 4 * 4 + AIR)
    assert s.spire_of[19] == AIR and s.spire_of[37] == -1


def test_complete_spire_floor_only_part_of_one_spire():
    s = scenario()
    earth_spire(s)
    act(s, "SPIRE", 1 * 4 + EARTH)
    act(s, "BONUS", 1)
    # a small floor on the earth-divided tile's other... (all its floors are taken): no new spire
    assert not any(K.SPIRE0 <= x < K.SPIRE0 + 152 for x in s.legal_actions())
    assert s.spire_floors(1, WATER) is None


def test_diminish_takes_from_fortress_and_wheel_when_bag_short():
    """If fewer than 5 tokens are in the bag, remove invaders from the fortress and/or shards."""
    s = earth_spire(scenario())
    floor(s, 32, found(1))
    invaders(s, {sp(32, 0): EARTH, sp(32, 1): EARTH})
    give_shards(s, EARTH, EARTH, EARTH, EARTH, EARTH)
    # bag now holds 3 earth invaders
    assert s.bag.count(EARTH) == 3
    act(s, "SPIRE", 1 * 4 + EARTH)
    act(s, "BONUS", 0)
    assert s.aside[EARTH] == 3 and s.queue[-1][0] == K.K_DIMINISH
    assert sorted(s.legal_actions()) == [a("SPACE", sp(32, 0)), a("SPACE", sp(32, 1)), a("SHARD", EARTH)]
    act(s, "SHARD", EARTH)
    act(s, "SPACE", sp(32, 1))
    assert s.aside[EARTH] == 5 and s.shards[EARTH] == 4 and s.invader[sp(32, 1)] == -1 and s.queue == []


def test_win_fourth_spire_topper_ends_game_for_everyone():
    """Win condition: the fourth spire topper has been placed (every player +1)."""
    s = earth_spire(scenario(num_players=3))
    s.defeated = [False, True, True, True]
    act(s, "SPIRE", 1 * 4 + EARTH)
    assert s.is_terminal() and s.outcome == 1 and s.current_player() == R.TERMINAL
    assert np.array_equal(s.returns(), [1.0, 1.0, 1.0])
    assert s.legal_actions() == []


def test_bonus_delay_moves_track_back_two_and_supply_draws_two_tiles():
    s = earth_spire(scenario())
    s.track = 1
    act(s, "SPIRE", 1 * 4 + EARTH)
    act(s, "BONUS", 2)
    assert s.track == 0
    s = earth_spire(scenario())
    floor(s, 32, found(1))
    invaders(s, {sp(32, 0): FIRE, sp(32, 1): AIR})
    act(s, "SPIRE", 1 * 4 + EARTH)
    act(s, "BONUS", 3)
    act(s, "DRAW_MULTI", 1)
    act(s, "DRAW", 0)
    act(s, "SPACE", sp(32, 0))
    act(s, "PASS")
    assert len(s.reserve) == 2 and s.shards[FIRE] == 1 and s.invader[sp(32, 1)] == AIR


# ---- adaptations (difficulty 3) -----------------------------------------------------

def adapted(key, **kw):
    s = scenario(**kw)
    s.adaptation = [-1] * 4
    s.adaptation[EARTH] = C.ADAPTATION_BY_KEY[key].adaptation_id
    return s


def test_adaptation_stable_needs_18_pillars_from_base_up_then_extra_core():
    s = earth_spire(adapted("stable"))
    assert s._pillars_from(28) == 6 + 2 + 2  # large room, small room, small room
    assert not legal(s, "SPIRE", 1 * 4 + EARTH)
    fill_room(s, room(29, 0))  # +4
    floor(s, 24, found(1))  # pillars elsewhere do not count
    fill_room(s, room(24, 0))
    assert not legal(s, "SPIRE", 1 * 4 + EARTH)
    # 4 more pillars on a floor above the base (a medium floor on the divided tile's medium room)
    floor(s, 16, room(29, 0))
    fill_room(s, room(16, 0))
    assert s._pillars_from(28) == 18
    s._legal = None
    cores = s.cores
    act(s, "SPIRE", 1 * 4 + EARTH)
    assert s.adapted_done[EARTH] and s.cores == cores + 1


def test_adaptation_stable_spire_may_take_more_floors_to_reach_18():
    """Spires of more than 4 floors are allowed (ASP-A26): a lower base counts more pillars."""
    s = adapted("stable")
    floor(s, 36, found(0))  # earth/water: two medium rooms
    fill_room(s, room(36, 0))
    fill_room(s, room(36, 1))
    floor(s, 16, room(36, 0))  # earth medium, one medium room
    fill_room(s, room(16, 0))
    floor(s, 18, room(16, 0))  # earth medium, two small rooms
    fill_room(s, room(18, 0))
    fill_room(s, room(18, 1))
    floor(s, 0, room(18, 0))
    fill_room(s, room(0, 0))
    floor(s, 1, room(0, 0))  # 1, 0, 18, 16: 2+4+4 = 10 pillars; with 36: 18
    assert s.spire_floors(1, EARTH) == [1, 0, 18, 16, 36]
    act(s, "SPIRE", 1 * 4 + EARTH)
    assert s.spire_of[36] == EARTH


def test_adaptation_towering_needs_five_floors_then_track_back_one():
    s = earth_spire(adapted("towering"))
    assert not legal(s, "SPIRE", 1 * 4 + EARTH)
    fill_room(s, room(1, 0))
    floor(s, 2, room(1, 0))  # a 5th earth floor
    s.track = 4
    act(s, "SPIRE", 2 * 4 + EARTH)
    assert s.track == 3 and s.spire_of[28] == EARTH


def test_adaptation_pure_forbids_multi_floors_then_extra_supply_draw():
    s = earth_spire(adapted("pure"), top_side=1)
    assert not legal(s, "SPIRE", 1 * 4 + EARTH)
    s = earth_spire(adapted("pure"))
    act(s, "SPIRE", 1 * 4 + EARTH)
    act(s, "BONUS", 0)
    act(s, "END_BUILD")
    act(s, "DRAW", 0)
    act(s, "PASS")
    act(s, "DRAW", 1)  # the extra draw (no exchange after it)
    assert len(s.reserve) == 2 and s.phase == K.BUILD


def test_adaptation_guarded_no_invaders_on_spire_then_walls_restored():
    s = earth_spire(adapted("guarded"))
    invaders(s, {sp(29, 0): FIRE})
    assert not legal(s, "SPIRE", 1 * 4 + EARTH)
    s = earth_spire(adapted("guarded"))
    s.walls = [False, False, True, True]
    act(s, "SPIRE", 1 * 4 + EARTH)
    assert s.walls == [True] * 4


def test_adaptation_anchored_base_on_foundation_then_free_pillar_each_turn():
    s = adapted("anchored")
    floor(s, 36, found(0))
    fill_room(s, room(36, 0))
    floor(s, 18, room(36, 0))
    fill_room(s, room(18, 0))
    floor(s, 0, room(18, 0))
    fill_room(s, room(0, 0))
    floor(s, 1, room(0, 0))
    assert legal(s, "SPIRE", 1 * 4 + EARTH)  # chain 1, 0, 18, 36: base 36 is large on a foundation
    fill_room(s, room(1, 0))
    floor(s, 2, room(1, 0))  # 2, 1, 0, 18: base 18 is not on a foundation ...
    assert s.spire_floors(2, EARTH) == [2, 1, 0, 18, 36]  # ... so the spire takes 5 floors (ASP-A26)
    s2 = adapted("anchored")
    floor(s2, 28, found(0))  # earth large, one large room
    fill_room(s2, room(28, 0))
    floor(s2, 29, room(28, 0), side=0)
    fill_room(s2, room(29, 1))
    floor(s2, 14, room(29, 1))  # a water small floor breaks the earth stack
    fill_room(s2, room(14, 0))
    floor(s2, 0, room(14, 0))
    fill_room(s2, room(0, 0))
    floor(s2, 1, room(0, 0))
    fill_room(s2, room(1, 0))
    floor(s2, 2, room(1, 0))
    fill_room(s2, room(2, 0))
    floor(s2, 3, room(2, 0))  # 3, 2, 1, 0: four earth floors, base not on a foundation
    assert s2.spire_floors(3, EARTH) is None and not legal(s2, "SPIRE", 3 * 4 + EARTH)
    s = earth_spire(adapted("anchored"))
    act(s, "SPIRE", 1 * 4 + EARTH)
    act(s, "BONUS", 0)
    floor(s, 32, found(1))
    assert legal(s, "FREE_PILLAR")
    act(s, "FREE_PILLAR")
    act(s, "SPACE", sp(32, 4))  # star-only space, no die
    assert s.pillar[sp(32, 4)] and not legal(s, "FREE_PILLAR")


def test_adaptation_turbulent_other_element_floor_same_level_then_extra_die():
    s = earth_spire(adapted("turbulent"))
    assert not legal(s, "SPIRE", 1 * 4 + EARTH)
    floor(s, 32, found(1))  # a fire floor at level 1, beside the base
    s._legal = None
    assert legal(s, "SPIRE", 1 * 4 + EARTH)
    act(s, "SPIRE", 1 * 4 + EARTH)
    act(s, "BONUS", 0)
    act(s, "END_BUILD")
    act(s, "DRAW", 0)
    act(s, "PASS")
    assert sum(s.dice) == 6


def test_bonus_walls_restores_every_wall_but_not_under_awake_level3_fiend():
    s = earth_spire(scenario(fiend_level=3))
    s.walls = [False, False, False, True]
    s.awake[AIR] = True
    act(s, "SPIRE", 1 * 4 + EARTH)
    act(s, "BONUS", 1)
    assert s.walls == [True, False, True, True]


# ---- the spire topper occupies one small room footprint (ASP-A13) --------------------

def earth_spire_medium_top(s):
    """Earth large #28 -> earth divided #29 (medium room) -> earth medium #16 -> earth medium
    #18 with two small rooms (top, level 4)."""
    floor(s, 28, found(0))
    fill_room(s, room(28, 0))
    floor(s, 29, room(28, 0))
    fill_room(s, room(29, 0))
    floor(s, 16, room(29, 0))
    fill_room(s, room(16, 0))
    floor(s, 18, room(16, 0))
    return s


def air_spire_divided_top(s):
    """Air large #30 -> earth large #28 and fire large #32, multi side up -> air divided #31
    (three small rooms [A][A], [A][*], [A][A]; top, level 4)."""
    floor(s, 30, found(0))
    fill_room(s, room(30, 0))
    floor(s, 28, room(30, 0), side=1)
    fill_room(s, room(28, 0))
    floor(s, 32, room(28, 0), side=1)
    fill_room(s, room(32, 0))
    floor(s, 31, room(32, 0))
    return s


def test_spire_topper_blocks_its_own_room_not_the_whole_floor():
    """Issue 14 reproducer: "You cannot place a pillar in a room that has a spire topper";
    the topper goes "on the top floor, within a small room 'footprint'". The top floor's
    other small room still takes pillars, and invaders, as any room does."""
    s = earth_spire_medium_top(scenario(num_players=1, difficulty=2, fiend_level=1, characters=("Tidebinder",),
                                        seed=0))
    assert s.level[18] == 4
    act(s, "SPIRE", 18 * 4 + EARTH)
    # two small room footprints: where the topper goes is the player's choice
    assert s.legal_actions() == [a("ROOM", room(18, 0)), a("ROOM", room(18, 1))]
    assert K.STEP_NAMES[s.queue[-1][0]] == "spire_topper" and not s.defeated[EARTH]
    act(s, "ROOM", room(18, 0))
    assert s.defeated[EARTH] and s.topped[18] == EARTH and s.topper_room[18] == room(18, 0)
    act(s, "BONUS", 0)
    set_dice(s, earth=2)
    assert not legal(s, "SPACE", sp(18, 0)) and not legal(s, "SPACE", sp(18, 1))  # the topper's room
    assert legal(s, "SPACE", sp(18, 2)) and legal(s, "SPACE", sp(18, 3))  # the other small room
    assert set(s.pillar_spaces()) >= {sp(18, 2), sp(18, 3)} and sp(18, 0) not in s.open_spaces()
    act(s, "SPACE", sp(18, 2))
    assert s.pillar[sp(18, 2)]
    # invasion: 2 earth invaders go to the highest spaces, a pillar space first: the
    # top floor's open room (level 4), never the topper's room
    s.track = 2  # the next space draws 2
    next_draws(s, EARTH, EARTH)
    act(s, "END_BUILD")
    assert s.invader[sp(18, 2)] == EARTH and s.invader[sp(18, 3)] == EARTH
    assert s.invader[sp(18, 0)] == -1 and s.invader[sp(18, 1)] == -1


def test_spire_topper_room_choice_on_three_small_rooms_closes_only_that_room():
    """A top floor with three (different) small rooms: the topper goes in the one the player
    chooses; the other two stay open to pillars, invaders and, once completed, floors."""
    s = air_spire_divided_top(scenario())
    assert s.spire_floors(31, AIR) == [31, 32, 28, 30]
    act(s, "SPIRE", 31 * 4 + AIR)
    assert s.legal_actions() == [a("ROOM", room(31, r)) for r in range(3)]
    act(s, "ROOM", room(31, 1))  # the [A][*] room
    act(s, "BONUS", 0)
    assert s.topper_room[31] == room(31, 1)
    free = s.pillar_spaces()
    assert {sp(31, 0), sp(31, 1), sp(31, 4), sp(31, 5)} <= set(free)
    assert sp(31, 2) not in free and sp(31, 3) not in free
    # a floor on a completed open room of the topped floor; none on the topper's room
    fill_room(s, room(31, 0))
    reserve(s, 6)  # air small 3
    assert s._floor_targets(6) == [a("ROOM", room(31, 0))]
    act(s, "BUILD", 6)  # (its one target: placed at once)
    assert s.base_of[6] == room(31, 0) and s.level[6] == 5 and s.room_tile[room(31, 1)] == -1
    # the observation shows the topper's room: not open, not covered, topper
    v = O.LAYOUT.views(s.observation_tensor(0))
    rf = {n: i for i, n in enumerate(O.ROOM_FEATURES)}
    assert v["rooms"][room(31, 1), rf["topper"]] == 1 and v["rooms"][room(31, 1), rf["open"]] == 0
    assert v["rooms"][room(31, 2), rf["open"]] == 1 and v["rooms"][room(31, 2), rf["topper"]] == 0
    assert v["rooms"][room(31, 0), rf["has_floor"]] == 1 and v["rooms"][:, rf["topper"]].sum() == 1
    assert "TOPPED air (room 1)" in s.render_text()


def test_spire_topper_caches_equal_a_fresh_computation():
    """The fortress cache, pillar spaces, legal actions and encoder blocks kept up to date
    through the topper and later changes on the topped floor equal ones computed anew."""
    s = air_spire_divided_top(scenario())
    set_dice(s, air=3, star=2)
    s.legal_actions()  # fill the caches
    obs = s.observation_tensor(0)

    def check(s):
        fresh = pickle.loads(pickle.dumps(s))  # fresh stamps, empty caches
        fresh._fortress_cache = fresh._structure_cache = fresh._legal = None
        assert fortress_contents(s._fortress()) == fortress_contents(fresh._fortress())
        assert s.spire_options() == fresh.spire_options()
        assert s.legal_actions() == fresh.legal_actions()
        enc = type(s.game.encoder)(s.game)
        assert np.array_equal(s.observation_tensor(0), enc.encode(fresh, 0))

    act(s, "SPIRE", 31 * 4 + AIR)
    check(s)
    act(s, "ROOM", room(31, 2))
    check(s)
    c = s.clone()
    act(s, "BONUS", 3)  # draws, then crystallize up to 2
    act(c, "BONUS", 0)
    check(c)
    while s.queue:
        act(s, "PASS") if K.PASS in s.legal_actions() else s.apply_action(s.legal_actions()[0])
    check(s)
    act(c, "SPACE", sp(31, 0))
    check(c)
    c._set_invader(sp(31, 2), FIRE)
    check(c)
    assert not np.array_equal(obs, c.observation_tensor(0))


def test_spire_fourth_topper_wins_without_a_room_choice():
    """The fourth topper ends the game at once: where it stands cannot matter (ASP-A13)."""
    s = earth_spire_medium_top(scenario(num_players=2))
    s.defeated = [False, True, True, True]
    act(s, "SPIRE", 18 * 4 + EARTH)
    assert s.is_terminal() and s.outcome == 1 and s.topper_room[18] == room(18, 0)
