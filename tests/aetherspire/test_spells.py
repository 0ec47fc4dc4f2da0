"""Rulebook "Cast a spell": the five spells, their shard costs, and the upgrades (ASP-A5)."""

from ether_envs.aetherspire import codec as K
from ether_envs.aetherspire import components as C

from .builders import (AIR, EARTH, FIRE, WATER, a, act, floor, found, give_shards, invaders, legal, pillars,
                      scenario, set_dice, sp)

T = 36  # earth/water large: two medium rooms (spaces 0-3 earth, 4-7 water)


def _spell(k):
    return a("SPELL", k)


def test_spell_mudslide_spends_earth_and_water_rolls_three_dice():
    s = scenario(characters=("Stormcaller",))
    give_shards(s, EARTH, WATER)
    assert _spell(C.MUDSLIDE) in s.legal_actions()
    act(s, "SPELL", C.MUDSLIDE)
    assert sum(s.dice) == 3 and s.shards == [0] * 4 and len(s.bag) == 40  # shards back to the bag


def test_spell_cannot_cast_without_its_shards():
    s = scenario(characters=("Stormcaller",))
    give_shards(s, EARTH, EARTH, FIRE)
    assert not legal(s, "SPELL", C.MUDSLIDE) and not legal(s, "SPELL", C.ICE_BEAM)
    assert not legal(s, "SPELL", C.LAVA_BOMB)  # shards but no invader


def test_spell_mudslide_upgrade_rolls_four():
    s = scenario(characters=("Geomancer",))
    give_shards(s, EARTH, WATER)
    act(s, "SPELL", C.MUDSLIDE)
    assert sum(s.dice) == 4


def test_spell_mudslide_dice_can_be_rerolled_by_reroll_any():
    s = scenario(characters=("Stormcaller",))
    set_dice(s, star=5)
    give_shards(s, EARTH, WATER)
    act(s, "SPELL", C.MUDSLIDE)
    assert sum(s.dice) == 8  # all 8 dice in play
    assert legal(s, "REROLL", 4)


def test_spell_ice_beam_crystallizes_two_invaders_of_one_room():
    s = floor(scenario(characters=("Geomancer",)), T, found(0))
    invaders(s, {sp(T, 0): FIRE, sp(T, 1): EARTH, sp(T, 4): AIR})
    give_shards(s, WATER, AIR)
    act(s, "SPELL", C.ICE_BEAM)
    # only invaders in a room with 2+ invaders can be chosen
    assert sorted(s.legal_actions()) == [a("SPACE", sp(T, 0)), a("SPACE", sp(T, 1))]
    act(s, "SPACE", sp(T, 0))  # the second is forced
    assert s.invader[sp(T, 0)] == s.invader[sp(T, 1)] == -1
    assert s.shards[FIRE] == 1 and s.shards[EARTH] == 1 and s.invader[sp(T, 4)] == AIR


def test_spell_ice_beam_cannot_without_two_invaders_in_a_room():
    s = floor(scenario(characters=("Geomancer",)), T, found(0))
    invaders(s, {sp(T, 0): FIRE, sp(T, 4): AIR})
    give_shards(s, WATER, AIR)
    assert not legal(s, "SPELL", C.ICE_BEAM)


def test_spell_ice_beam_upgrade_up_to_three():
    s = floor(scenario(characters=("Stormcaller",)), T, found(0))
    invaders(s, {sp(T, 0): FIRE, sp(T, 1): EARTH, sp(T, 2): AIR})
    give_shards(s, WATER, AIR)
    act(s, "SPELL", C.ICE_BEAM)
    act(s, "SPACE", sp(T, 0))
    act(s, "SPACE", sp(T, 1))
    assert legal(s, "PASS") and legal(s, "SPACE", sp(T, 2))
    act(s, "SPACE", sp(T, 2))
    assert s.invader_spaces() == [] and s.queue == []


def test_spell_lava_bomb_destroys_two_invaders_anywhere():
    s = floor(scenario(characters=("Geomancer",)), T, found(0))
    invaders(s, {sp(T, 0): FIRE, sp(T, 4): WATER, sp(T, 5): WATER})
    give_shards(s, EARTH, FIRE)
    act(s, "SPELL", C.LAVA_BOMB)
    act(s, "SPACE", sp(T, 0))
    act(s, "SPACE", sp(T, 5))
    assert s.invader_spaces() == [sp(T, 4)] and len(s.bag) == 39 and s.shards == [0] * 4


def test_spell_lava_bomb_upgrade_destroys_three():
    s = floor(scenario(characters=("Pyromancer",)), T, found(0))
    invaders(s, {sp(T, 0): FIRE, sp(T, 4): WATER, sp(T, 5): WATER})
    give_shards(s, EARTH, FIRE)
    act(s, "SPELL", C.LAVA_BOMB)
    act(s, "SPACE", sp(T, 0))
    act(s, "SPACE", sp(T, 5))
    assert s.invader_spaces() == []


def test_spell_firestorm_moves_an_invader_then_places_a_pillar():
    s = floor(scenario(characters=("Geomancer",)), T, found(0))
    invaders(s, {sp(T, 0): FIRE})
    give_shards(s, FIRE, AIR)
    act(s, "SPELL", C.FIRESTORM)  # the only invader is chosen automatically
    assert s.queue[-1][:2] == [K.K_FIRE_TO, sp(T, 0)] and not legal(s, "SPACE", sp(T, 0))
    act(s, "SPACE", sp(T, 6))
    assert s.invader[sp(T, 6)] == FIRE and s.invader[sp(T, 0)] == -1
    act(s, "SPACE", sp(T, 3))  # the pillar, no die requirement (star-only space)
    assert s.pillar[sp(T, 3)] and s.queue == []


def test_spell_firestorm_upgrade_places_two_pillars():
    s = floor(scenario(characters=("Tidebinder",)), T, found(0))
    give_shards(s, FIRE, AIR)
    act(s, "SPELL", C.FIRESTORM)  # no invader to move: only the pillars (ASP-A16)
    act(s, "SPACE", sp(T, 0))
    act(s, "SPACE", sp(T, 1))
    assert s.pillars_used == 2 and s.queue == []


def test_spell_floor_crafting_any_two_shards_draw_then_exchange():
    s = scenario(characters=("Geomancer",))
    give_shards(s, FIRE, WATER)
    act(s, "SPELL", C.FLOOR_CRAFTING)
    assert sorted(s.legal_actions()) == [a("SHARD", FIRE), a("SHARD", WATER)]
    act(s, "SHARD", FIRE)  # the water shard is then forced
    assert s.shards == [0] * 4
    assert not legal(s, "DRAW_MULTI", 0)  # no 3rd shard for a multi tile
    act(s, "DRAW", 1)
    assert len(s.reserve) == 1 and s.side[s.reserve[0]] == 0
    assert legal(s, "PASS") and legal(s, "EXCHANGE", s.reserve[0])
    act(s, "PASS")
    assert s.queue == []


def test_spell_floor_crafting_third_shard_draws_multi():
    s = scenario(characters=("Geomancer",))
    give_shards(s, FIRE, FIRE, WATER)
    act(s, "SPELL", C.FLOOR_CRAFTING)
    act(s, "SHARD", WATER)  # then the second is forced (only fire left)
    act(s, "DRAW_MULTI", 2)  # the 3rd shard is forced too
    t = s.reserve[0]
    assert s.side[t] == 1 and s.shards == [0] * 4 and len(s.bag) == 40


def test_spell_floor_crafting_upgrade_costs_one_less():
    s = scenario(characters=("Architect",))
    give_shards(s, AIR)
    assert legal(s, "SPELL", C.FLOOR_CRAFTING)
    act(s, "SPELL", C.FLOOR_CRAFTING)
    assert not legal(s, "DRAW_MULTI", 0)
    act(s, "DRAW", 0)
    assert len(s.reserve) == 1


def test_spell_firestorm_cannot_move_invader_onto_another_invader():
    s = floor(scenario(characters=("Geomancer",)), T, found(0))
    invaders(s, {sp(T, 0): FIRE, sp(T, 1): WATER})
    pillars(s, sp(T, 2))
    give_shards(s, FIRE, AIR)
    set_dice(s)
    act(s, "SPELL", C.FIRESTORM)
    act(s, "SPACE", sp(T, 0))
    assert not legal(s, "SPACE", sp(T, 1)) and legal(s, "SPACE", sp(T, 2))
