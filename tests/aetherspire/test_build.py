"""Rulebook "Place a pillar", "Build a floor" and floor tile effects."""

from ether_envs.aetherspire import codec as K

from .builders import (AIR, EARTH, FIRE, STAR, WATER, a, act, fill_room, floor, found, invaders, legal, pillars,
                      reserve, touch, room, scenario, set_dice, sp)

FIRE_LARGE, FIRE_DIVIDED, EARTH_LARGE = 32, 33, 28


def test_place_pillar_element_space_takes_element_or_star_die():
    """Example 1: a die showing fire or a star."""
    s = floor(scenario(), FIRE_LARGE, found(0))
    set_dice(s, fire=1, star=1, water=1)
    assert legal(s, "SPACE", sp(FIRE_LARGE, 0))
    act(s, "SPACE", sp(FIRE_LARGE, 0))
    assert sorted(s.legal_actions()) == [a("DIE", FIRE), a("DIE", STAR)]
    act(s, "DIE", STAR)
    assert s.pillar[sp(FIRE_LARGE, 0)] and s.dice == [0, 0, 1, 1, 0] and s.pillar_supply() == 49


def test_place_pillar_cannot_without_matching_die():
    s = floor(scenario(), FIRE_LARGE, found(0))
    set_dice(s, water=2, earth=1)
    assert not legal(s, "SPACE", sp(FIRE_LARGE, 0))


def test_place_pillar_two_die_space_needs_both_dice():
    """Example 2: fire-or-star AND a second die (space 5 of a large tile: two dice)."""
    s = floor(scenario(), FIRE_LARGE, found(0))
    set_dice(s, fire=1)
    assert not legal(s, "SPACE", sp(FIRE_LARGE, 5))
    set_dice(s, fire=1, star=1)
    act(s, "SPACE", sp(FIRE_LARGE, 5))
    act(s, "DIE", FIRE)  # the second die is forced: resolved automatically
    assert s.pillar[sp(FIRE_LARGE, 5)] and s.dice == [0] * 5


def test_place_pillar_star_only_space_must_use_star():
    """Example 3: the space must take a star die."""
    s = floor(scenario(), FIRE_LARGE, found(0))
    set_dice(s, fire=3)
    assert not legal(s, "SPACE", sp(FIRE_LARGE, 4))
    set_dice(s, fire=3, star=1)
    act(s, "SPACE", sp(FIRE_LARGE, 4))
    assert s.pillar[sp(FIRE_LARGE, 4)] and s.dice[STAR] == 0


def test_place_pillar_cannot_on_pillar_or_invader_or_topped_room():
    """No pillar on a pillar or an invader, nor "in a room that has a spire topper"
    (ASP-A13: that room only; the floor's other room still takes pillars)."""
    s = floor(scenario(), FIRE_DIVIDED, found(0))  # medium room 0 (spaces 0-3) + small room 1 (4-5)
    set_dice(s, star=4)
    pillars(s, sp(FIRE_DIVIDED, 0))
    invaders(s, {sp(FIRE_DIVIDED, 1): FIRE})
    assert not legal(s, "SPACE", sp(FIRE_DIVIDED, 0)) and not legal(s, "SPACE", sp(FIRE_DIVIDED, 1))
    assert legal(s, "SPACE", sp(FIRE_DIVIDED, 2))
    s.topped[FIRE_DIVIDED] = FIRE
    s.topper_room[FIRE_DIVIDED] = room(FIRE_DIVIDED, 1)
    touch(s)
    assert not legal(s, "SPACE", sp(FIRE_DIVIDED, 4)) and not legal(s, "SPACE", sp(FIRE_DIVIDED, 5))
    assert legal(s, "SPACE", sp(FIRE_DIVIDED, 2)) and legal(s, "SPACE", sp(FIRE_DIVIDED, 3))


def test_build_large_floor_on_empty_foundation_only():
    s = scenario()
    reserve(s, FIRE_LARGE)
    reserve(s, 16)  # a medium tile cannot go on a foundation
    assert legal(s, "BUILD", FIRE_LARGE) and not legal(s, "BUILD", 16)
    floor(s, EARTH_LARGE, found(1))
    act(s, "BUILD", FIRE_LARGE)
    assert sorted(s.legal_actions()) == [a("FOUNDATION", 0), a("FOUNDATION", 2)]
    act(s, "FOUNDATION", 2)
    assert s.found_tile[2] == FIRE_LARGE and s.level[FIRE_LARGE] == 1 and FIRE_LARGE not in s.reserve


def test_build_floor_on_completed_invader_free_room_of_matching_size():
    """A floor goes on a completed room (a pillar on every space) of its size with no invaders."""
    s = floor(scenario(), FIRE_DIVIDED, found(0))  # medium room 0 + small room 1
    reserve(s, 8)  # fire small
    reserve(s, 22)  # fire medium
    assert not legal(s, "BUILD", 8) and not legal(s, "BUILD", 22)
    fill_room(s, room(FIRE_DIVIDED, 1))
    assert legal(s, "BUILD", 8) and not legal(s, "BUILD", 22)
    s.invader[sp(FIRE_DIVIDED, 4)] = FIRE  # an invader on the completed small room
    s.bag.remove(FIRE)
    touch(s)
    assert not legal(s, "BUILD", 8)
    s.invader[sp(FIRE_DIVIDED, 4)] = -1
    touch(s)
    act(s, "BUILD", 8)  # the only target: resolved automatically
    assert s.base_of[8] == room(FIRE_DIVIDED, 1) and s.level[8] == 2
    # the covered room is closed: no pillars or invaders there any more
    assert sp(FIRE_DIVIDED, 4) not in s.open_spaces()


def test_build_floor_on_roomless_special_tile_only_same_size():
    """Note: a tile without room outlines takes only a tile of the same size."""
    s = floor(scenario(), 29, found(0))  # earth divided: medium + small rooms
    fill_room(s, room(29, 1))
    floor(s, 3, room(29, 1))  # earth small special tile (no rooms)
    reserve(s, 0)
    reserve(s, 17)
    assert legal(s, "BUILD", 0) and not legal(s, "BUILD", 17)
    act(s, "BUILD", 0)
    assert s.base_of[0] == room(3, 0) and s.level[0] == 3


def test_tile_effect_magma_eruption_destroys_all_invaders():
    """Rulebook example: Magma Eruption destroys all invaders in the fortress (back to the bag)."""
    s = floor(scenario(), 29, found(0))
    fill_room(s, room(29, 1))
    invaders(s, {sp(29, 0): FIRE, sp(29, 1): WATER})
    reserve(s, 11)  # fire special tile: magma eruption
    act(s, "BUILD", 11)
    assert s.invader_spaces() == [] and len(s.bag) == 40


def test_tile_effect_only_once_and_not_on_multi_side():
    s = floor(scenario(), 29, found(0))
    fill_room(s, room(29, 1))
    invaders(s, {sp(29, 0): FIRE})
    reserve(s, 11, side=1)
    act(s, "BUILD", 11)
    assert s.invader_spaces() == [sp(29, 0)]


def test_tile_effect_bedrock_places_two_free_pillars():
    s = floor(scenario(), 29, found(0))
    fill_room(s, room(29, 1))
    reserve(s, 3)  # earth special: bedrock
    act(s, "BUILD", 3)
    assert s.queue[-1][0] == K.K_FREE_PILLAR
    act(s, "SPACE", sp(29, 0))
    act(s, "SPACE", sp(29, 3))  # star-only space, no die needed
    assert s.pillar[sp(29, 0)] and s.pillar[sp(29, 3)] and s.queue == []


def test_tile_effect_tailwind_rolls_two_dice_and_frozen_tide_crystallizes():
    s = floor(scenario(), 29, found(0))
    fill_room(s, room(29, 1))
    reserve(s, 7)  # air special: tailwind
    act(s, "BUILD", 7)
    assert sum(s.dice) == 2
    s = floor(scenario(), 29, found(0))
    fill_room(s, room(29, 1))
    invaders(s, {sp(29, 0): FIRE, sp(29, 1): AIR, sp(29, 2): EARTH})
    reserve(s, 15)  # water special: frozen tide
    act(s, "BUILD", 15)
    act(s, "SPACE", sp(29, 0))
    act(s, "PASS")
    assert s.shards[FIRE] == 1 and sum(s.shards) == 1 and s.invader[sp(29, 1)] == AIR


def test_character_passive_die_on_floor_of_its_element():
    """Geomancer passive (ASP-A5): building an earth floor rolls 1 die."""
    s = scenario(characters=("Geomancer",))
    reserve(s, EARTH_LARGE)
    act(s, "BUILD", EARTH_LARGE)
    act(s, "FOUNDATION", 0)
    assert sum(s.dice) == 1
    reserve(s, FIRE_LARGE)
    act(s, "BUILD", FIRE_LARGE)
    act(s, "FOUNDATION", 1)
    assert sum(s.dice) == 1
