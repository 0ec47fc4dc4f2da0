"""Rulebook "Special actions": trigger actions (cost, then effect); passives and spell
upgrades are tested with the rule they modify (test_build, test_spells, test_invasion)."""

from .builders import (AIR, FIRE, WATER, a, act, floor, found, give_shards, invaders, legal, pillars,
                      reserve, scenario, set_dice, sp)


def test_trigger_pillar_discard_die_then_pillar_in_own_element_room():
    """Geomancer: discard 1 die -> a pillar in an earth (or multi) room, ignoring its requirement."""
    s = scenario(characters=("Geomancer",))
    floor(s, 28, found(0))  # earth
    floor(s, 32, found(1))  # fire
    set_dice(s, water=1, air=1)
    act(s, "TRIGGER")
    assert sorted(s.legal_actions()) == [a("DIE", AIR), a("DIE", WATER)]
    act(s, "DIE", WATER)
    assert sorted(s.legal_actions()) == [a("SPACE", sp(28, k)) for k in range(6)]
    act(s, "SPACE", sp(28, 4))  # star-only space, no star needed
    assert s.pillar[sp(28, 4)] and s.dice == [0, 1, 0, 0, 0]


def test_trigger_pillar_cannot_without_die():
    s = scenario(characters=("Geomancer",))
    floor(s, 28, found(0))
    assert not legal(s, "TRIGGER")


def test_trigger_demolish_destroy_pillar_then_invader():
    """Pyromancer: destroy 1 pillar (not under a floor) -> destroy 1 invader."""
    s = scenario(characters=("Pyromancer",))
    floor(s, 32, found(0))
    pillars(s, sp(32, 0), sp(32, 1))
    invaders(s, {sp(32, 1): WATER, sp(32, 2): AIR})
    act(s, "TRIGGER")
    act(s, "SPACE", sp(32, 1))  # the pillar under the water invader: the invader stays
    assert not s.pillar[sp(32, 1)] and s.invader[sp(32, 1)] == WATER and s.pillar_supply() == 49
    act(s, "SPACE", sp(32, 2))
    assert s.invader[sp(32, 2)] == -1


def test_trigger_mend_discard_two_dice_restore_wall():
    s = scenario(characters=("Tidebinder",))
    s.walls = [True, False, False, True]
    set_dice(s, star=1, fire=1)
    act(s, "TRIGGER")  # both dice forced
    assert sorted(s.legal_actions()) == [a("ELEMENT", AIR), a("ELEMENT", FIRE)]
    act(s, "ELEMENT", FIRE)
    assert s.walls == [True, False, True, True] and s.dice == [0] * 5
    s.walls = [True] * 4
    set_dice(s, star=2)
    assert not legal(s, "TRIGGER")  # no wall to restore


def test_trigger_swap_discard_die_exchange_reserve_tile():
    s = scenario(characters=("Architect",))
    reserve(s, 0)
    set_dice(s, fire=1)
    act(s, "TRIGGER")  # die and tile forced
    assert s.reserve != [0] and len(s.reserve) == 1 and s.stacks[0][-1] == 0 and s.dice == [0] * 5


def test_trigger_gust_spend_shard_reroll_one_die_even_after_reroll_any():
    s = scenario(characters=("Stormcaller",))
    set_dice(s, water=1, fire=1)
    s.reroll_used = True
    give_shards(s, AIR)
    act(s, "TRIGGER")  # the shard is forced
    act(s, "DIE", WATER)
    assert sum(s.dice) == 2 and s.shards == [0] * 4 and s.queue == []


def test_character_passive_shard_on_floor():
    s = scenario(characters=("Tidebinder",))
    reserve(s, 34)  # water large
    act(s, "BUILD", 34)
    act(s, "FOUNDATION", 0)
    assert sum(s.shards) == 1 and len(s.bag) == 39
