"""Rulebook "Invasion step" (advance the track, awaken fiends, draw new invaders and
place them, attack the core), "Game end" loss conditions, and the fiend effects (ASP-A6)."""

import numpy as np

from ether_envs.aetherspire import codec as K
from ether_envs.aetherspire import components as C

from .builders import (AIR, EARTH, FIRE, WATER, a, act, fill_room, floor, found, invaders, legal, next_draws,
                      pillars, room, scenario, sp, touch)

FIRE_DIVIDED = 33  # medium room (spaces 0-3) + small room (spaces 4-5)
MULTI_LARGE = 36  # multi side: two medium rooms (spaces 0-3, 4-7)
THREE = 7  # the track space before one that draws 3 invaders


def example_fortress(s):
    """Rulebook example: a fire tile whose room has 2 free pillar spaces (its other spaces
    hold invaders) and another room with open spaces; a multi tile with one free pillar
    space and one free open space."""
    floor(s, FIRE_DIVIDED, found(0))
    pillars(s, sp(FIRE_DIVIDED, 0), sp(FIRE_DIVIDED, 1))
    invaders(s, {sp(FIRE_DIVIDED, 2): AIR, sp(FIRE_DIVIDED, 3): AIR})
    floor(s, MULTI_LARGE, found(1), side=1)
    pillars(s, sp(MULTI_LARGE, 0))
    invaders(s, {sp(MULTI_LARGE, k): AIR for k in (2, 3, 4, 5, 6, 7)})
    s.track = THREE
    assert C.TRACK_COUNTS[THREE + 1] == 3
    return touch(s)


def test_invasion_example_three_fire_invaders():
    """Two go to the fire tile's pillar spaces, the last to an open space in its other room."""
    s = example_fortress(scenario(characters=("Geomancer",)))
    next_draws(s, FIRE, FIRE, FIRE)
    act(s, "END_BUILD")
    assert s.track == THREE + 1
    assert s.invader[sp(FIRE_DIVIDED, 0)] == s.invader[sp(FIRE_DIVIDED, 1)] == FIRE
    # the third: either open space of the small room (the active player chooses)
    assert sorted(s.legal_actions()) == [a("SPACE", sp(FIRE_DIVIDED, 4)), a("SPACE", sp(FIRE_DIVIDED, 5))]
    act(s, "SPACE", sp(FIRE_DIVIDED, 5))
    assert s.invader[sp(FIRE_DIVIDED, 5)] == FIRE and s.walls == [True] * 4 and s.phase == K.SUPPLY


def test_invasion_example_one_earth_two_water_active_player_orders():
    """One goes to the multi tile's pillar space, one to its open space, the last attacks
    the core; the active player chooses the order."""
    s = example_fortress(scenario(characters=("Geomancer",)))
    next_draws(s, EARTH, WATER, WATER)
    act(s, "END_BUILD")
    assert sorted(s.legal_actions()) == [a("ELEMENT", EARTH), a("ELEMENT", WATER)]
    act(s, "ELEMENT", WATER)
    assert s.invader[sp(MULTI_LARGE, 0)] == WATER  # pillar space first (it is higher)
    act(s, "ELEMENT", EARTH)
    assert s.invader[sp(MULTI_LARGE, 1)] == EARTH
    # the last water invader attacks the core: the water wall falls
    assert s.walls == [True, True, True, False] and s.cores == 2 and s.phase == K.SUPPLY
    # the other order: the earth invader attacks the core instead
    s = example_fortress(scenario(characters=("Geomancer",)))
    next_draws(s, EARTH, WATER, WATER)
    act(s, "END_BUILD")
    act(s, "ELEMENT", WATER)
    act(s, "ELEMENT", WATER)
    assert s.walls == [False, True, True, True]


def test_invasion_highest_level_first_and_pillar_before_empty():
    s = scenario(characters=("Geomancer",))
    floor(s, 29, found(0))  # earth divided, level 1
    fill_room(s, room(29, 1))
    floor(s, 0, room(29, 1))  # earth small, level 2
    pillars(s, sp(29, 0))
    s.track = 0
    next_draws(s, EARTH)
    act(s, "END_BUILD")
    # level 2 beats the pillar space on level 1 (a tie between the two level-2 spaces)
    assert sorted(s.legal_actions()) == [a("SPACE", sp(0, 0)), a("SPACE", sp(0, 1))]


def test_invasion_pillar_space_before_empty_space_same_level():
    s = scenario(characters=("Geomancer",))
    floor(s, 29, found(0))
    pillars(s, sp(29, 2))
    next_draws(s, EARTH)
    act(s, "END_BUILD")
    assert s.invader[sp(29, 2)] == EARTH


def test_invasion_element_room_before_multi_room():
    s = scenario(characters=("Geomancer",))
    floor(s, MULTI_LARGE, found(0), side=1)
    pillars(s, *[sp(MULTI_LARGE, k) for k in range(8)])
    floor(s, 30, found(1))  # air large, standard
    next_draws(s, AIR)
    act(s, "END_BUILD")
    assert sorted(s.legal_actions()) == [a("SPACE", sp(30, k)) for k in range(6)]


def test_invasion_wall_then_aethercore_invader_destroyed():
    """Attacking the core: the wall of its element if present, else an aethercore token;
    the invader is destroyed (back to the bag)."""
    s = scenario(characters=("Geomancer",))
    next_draws(s, FIRE)
    act(s, "END_BUILD")
    assert s.walls == [True, True, False, True] and s.cores == 2 and len(s.bag) == 40
    act(s, "DRAW", 0)
    act(s, "PASS")
    next_draws(s, FIRE)
    act(s, "END_BUILD")
    assert s.cores == 1


def test_loss_last_aethercore_destroyed():
    s = scenario(num_players=2, characters=("Geomancer", "Architect"))
    s.walls = [False] * 4
    s.cores = 1
    next_draws(s, WATER)
    act(s, "END_BUILD")
    assert s.is_terminal() and s.outcome == -1 and s.loss_reason == "aethercore"
    assert np.array_equal(s.returns(), [-1.0, -1.0])


def test_loss_invader_track_reaches_lose_space():
    s = scenario()
    s.track = C.LOSE_SPACE - 1
    act(s, "END_BUILD")
    assert s.is_terminal() and s.loss_reason == "invader track"


def test_loss_no_pillars_at_start_of_turn():
    s = scenario()
    s.pillars_used = C.NUM_PILLARS
    touch(s)
    act(s, "END_BUILD")
    assert s.is_terminal() and s.loss_reason == "no pillars"


def test_loss_score_reward_counts_spires():
    s = scenario(reward="score")
    s.defeated = [True, False, False, False]
    s.track = C.LOSE_SPACE - 1
    act(s, "END_BUILD")
    assert s.returns().tolist() == [0.25]


def test_invasion_awakens_dormant_fiend_on_its_space():
    s = scenario()
    k = 1
    s.track = C.AWAKEN_SPACES[k] - 1
    e = s.slot_element[k]
    act(s, "END_BUILD")
    assert s.awake[e] and sum(s.awake) == 1


def test_invasion_does_not_awaken_defeated_fiend():
    s = scenario()
    s.track = C.AWAKEN_SPACES[0] - 1
    e = s.slot_element[0]
    s.defeated[e] = True
    act(s, "END_BUILD")
    assert not s.awake[e]


def _fiend(level, e, **kw):
    s = scenario(fiend_level=level, **kw)
    s.awake[e] = True
    return touch(s)


def test_fiend_level1_invaders_first_and_lowest_space():
    s = _fiend(1, FIRE, characters=("Geomancer",))
    floor(s, FIRE_DIVIDED, found(0))
    fill_room(s, room(FIRE_DIVIDED, 1))
    floor(s, 8, room(FIRE_DIVIDED, 1))  # fire small at level 2
    s.track = 2  # the next space draws 2 invaders
    next_draws(s, WATER, FIRE)
    act(s, "END_BUILD")
    # fire enters first (no order choice), at level 1 (the lowest), not level 2
    assert s.queue[-1][:2] == [K.K_INV_SPACE, FIRE]
    assert sorted(s.legal_actions()) == [a("SPACE", sp(FIRE_DIVIDED, k)) for k in range(4)]
    act(s, "SPACE", sp(FIRE_DIVIDED, 3))
    assert s.invader[sp(FIRE_DIVIDED, 3)] == FIRE and s.walls[WATER] is False


def test_fiend_level2_star_no_longer_fits_its_rooms_and_multi_first():
    s = _fiend(2, FIRE)
    floor(s, 32, found(0))
    s.dice = [0, 0, 0, 0, 2]
    touch(s)
    assert not legal(s, "SPACE", sp(32, 0)) and legal(s, "SPACE", sp(32, 4))  # star-only space still fits
    floor(s, MULTI_LARGE, found(1), side=1)
    next_draws(s, FIRE)
    s.dice = [0] * 5
    act(s, "END_BUILD")
    assert sorted(s.legal_actions()) == [a("SPACE", sp(MULTI_LARGE, k)) for k in range(8)]


def test_fiend_level3_wall_and_core_and_no_restore():
    s = _fiend(3, FIRE, characters=("Tidebinder",))
    next_draws(s, FIRE)
    act(s, "END_BUILD")
    assert s.walls[FIRE] is False and s.cores == 1
    assert FIRE not in s._restorable_walls()


def test_fiend_level4_extra_invader_and_double_core_damage():
    s = _fiend(4, FIRE, characters=("Geomancer",))
    s.walls[FIRE] = False
    s.cores = 3
    s.track = 0  # 1 invader drawn + 1 extra fire invader
    next_draws(s, WATER)
    act(s, "END_BUILD")
    assert s.incoming == [FIRE, WATER]
    act(s, "ELEMENT", FIRE)
    assert s.walls[WATER] is False and s.cores == 1  # the extra fire invader: 2 tokens


def test_character_passive_burn_first_destroys_first_invader_of_its_element():
    s = scenario(characters=("Pyromancer",))
    s.track = THREE
    next_draws(s, FIRE, FIRE, WATER)
    act(s, "END_BUILD")
    assert s.incoming == [FIRE, WATER]  # one fire invader was destroyed
    act(s, "ELEMENT", WATER)
    assert s.walls == [True, True, False, False] and len(s.bag) == 40


def test_character_passive_freeze_first_turns_invader_into_shard():
    s = scenario(characters=("Stormcaller",))
    next_draws(s, AIR)
    act(s, "END_BUILD")
    assert s.walls == [True] * 4 and s.shards[AIR] >= 1
