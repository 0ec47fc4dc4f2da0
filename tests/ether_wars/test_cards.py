"""Rulebook "Faction Abilities" and "Events": each card's effect (EW-A5, EW-A6)."""

from ether_envs.ether_wars import codec
from ether_envs.ether_wars import components as C

from .builders import act, at_phase, face, new_state, place, start_resolution

F1, F2, F3 = face(1), face(2), face(3)
HERO4 = face(4, C.HERO_FULL)
FACE_33 = 5  # 3 full + 3 hollow pips


def resolution(factions=None, abilities=None, event="quiet_day", n=2):
    s = at_phase(new_state(n, factions=factions), codec.RESOLUTION, abilities, event)
    s.first = 0
    return s


# ---- Faction ability cards ------------------------------------------------------------
def test_ability_fortified_powers_up_units_in_own_silo():
    s = resolution(factions=[C.HUMAN, C.DRACON], abilities=[0, None])
    place(s, 0, C.SILO0, units=1)
    place(s, 1, C.SILO0, units=2)
    start_resolution(s, [FACE_33, F3, F3])  # powered 6 vs 6: the owner wins the tie (unpowered: 3 vs 6)
    act(s, "RESOLVE", C.SILO0 + 1)
    assert s.reserve[0] == 5 and s.res[1][C.PROTEIN] == 15  # no injury, no raid


def test_ability_aggressive_powers_up_all_units_when_two_attack_a_silo():
    s = resolution(factions=[C.DRACON, C.HUMAN], abilities=[2, None])
    place(s, 0, C.SILO0 + 1, units=2)
    place(s, 0, C.BIOSPHERE, units=1)
    s.aggressive_silo[0] = True  # set at the end of Movement
    start_resolution(s, [FACE_33, F1])
    act(s, "RESOLVE", C.BIOSPHERE)
    assert s.res[0][C.PROTEIN] == 20 + 6


def test_ability_swarm_powers_up_units_in_limited_areas_with_an_opponent():
    s = resolution(factions=[C.DRACON, C.HUMAN], abilities=[3, None])
    place(s, 0, C.PLASMA_CHASM, units=1)
    place(s, 1, C.PLASMA_CHASM, units=1)
    start_resolution(s, [FACE_33, F1])
    act(s, "RESOLVE", C.PLASMA_CHASM)
    assert s.res[0][C.PLASMA] == 3


def test_ability_refinery_lowers_plasma_and_crystal_costs():
    s = resolution(factions=[C.VAI, C.HUMAN], abilities=[0, None])
    place(s, 0, C.CRYSTAL_SEA, units=2)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F2, F2])  # 4 pips at cost 2
    act(s, "RESOLVE", C.CRYSTAL_SEA)
    assert s.res[0][C.CRYSTAL] == 2


def test_ability_overclock_powers_up_units_in_extraction_areas():
    s = resolution(factions=[C.VAI, C.HUMAN], abilities=[2, None])
    place(s, 0, C.COLTAN_MINE, units=1)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [FACE_33])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.res[0][C.COLTAN] == 3


def test_ability_conduit_pays_two_charges_for_one_more_ether():
    s = resolution(factions=[C.HUMAN, C.VAI], abilities=[None, 3])
    s.charge[1] = 2
    place(s, 1, C.ETHER_FAULT, units=1)
    start_resolution(s, [])
    act(s, "RESOLVE", C.ETHER_FAULT)
    assert s.decision == codec.K_CONDUIT
    act(s, "CONDUIT")
    assert s.res[1][C.ETHER] == 2 and s.charge[1] == 0


def test_ability_assimilate_gains_a_chosen_resource_per_enemy_unit_injured():
    s = resolution(factions=[C.RIPPER, C.HUMAN], abilities=[1, None])
    place(s, 0, C.COLTAN_MINE, units=2, hero=True)
    place(s, 1, C.COLTAN_MINE, units=3)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F3, F3, HERO4, F1, F1, F3])  # 10 vs 5: 2 injuries
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.decision == codec.K_GAIN and s.decider == 0
    act(s, "RESOURCE", C.CRYSTAL)
    act(s, "RESOURCE", C.PLASMA)
    assert s.res[0][C.CRYSTAL] == 1 and s.res[0][C.PLASMA] == 1 and s.res[0][C.COLTAN] == 5


def test_ability_assimilate_never_offers_ether():
    # our card (EW-A5): "Gain 1 resource of your choice (not Ether)"; only the VAI Hero Skill
    # offers Ether (EW-A27)
    s = resolution(factions=[C.RIPPER, C.HUMAN], abilities=[1, None])
    place(s, 0, C.COLTAN_MINE, units=2, hero=True)
    place(s, 1, C.COLTAN_MINE, units=3)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F3, F3, HERO4, F1, F1, F3])  # 10 vs 5: 2 injuries
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.decision == codec.K_GAIN
    s.invalidate_caches()
    assert [s.action_to_string(a) for a in s.legal_actions()] == [
        "RESOURCE(Protein)", "RESOURCE(Coltan)", "RESOURCE(Plasma)", "RESOURCE(Crystal)"]


# ---- Events -------------------------------------------------------------------------------
def test_event_protein_storm_halves_biosphere_yield():
    s = resolution(event="protein_storm")
    place(s, 0, C.BIOSPHERE, units=2)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F3, F2])
    act(s, "RESOLVE", C.BIOSPHERE)
    assert s.res[0][C.PROTEIN] == 22


def test_event_coltan_rush_and_crystal_bloom_lower_costs():
    s = resolution(event="coltan_rush")
    place(s, 0, C.COLTAN_MINE, units=1)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F3])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.res[0][C.COLTAN] == 3
    s = resolution(event="crystal_bloom")
    place(s, 0, C.CRYSTAL_SEA, units=2)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F2, F2])
    act(s, "RESOLVE", C.CRYSTAL_SEA)
    assert s.res[0][C.CRYSTAL] == 2


def test_event_ether_surge_channelling_gives_two():
    s = resolution(event="ether_surge")
    place(s, 1, C.ETHER_FAULT, units=1)
    start_resolution(s, [])
    act(s, "RESOLVE", C.ETHER_FAULT)
    assert s.res[1][C.ETHER] == 2


def test_event_ceasefire_no_combat_in_limited_areas():
    s = resolution(event="ceasefire")
    place(s, 0, C.COLTAN_MINE, units=1, hero=True)
    place(s, 1, C.COLTAN_MINE, units=1)
    start_resolution(s, [F3, HERO4, F1])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.res[0][C.COLTAN] == 3 and s.reserve[1] == 5
    assert s.decider == 1  # seat 1 extracts on its own


def test_event_plague_raises_upkeep():
    s = at_phase(new_state(2), codec.MAINTENANCE, event="plague")
    s.queue = []
    s._advance()
    assert s.res[0][C.PROTEIN] == 20 - 5 - 1


def test_event_black_market_buys_at_extraction_cost():
    s = resolution(event="black_market")
    place(s, 0, C.MARKET, units=1)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F1])
    act(s, "RESOLVE", C.MARKET)
    act(s, "RESOURCE", C.COLTAN)
    act(s, "PAY", C.PROTEIN)
    act(s, "PAY", C.PROTEIN)
    act(s, "DONE")
    assert s.res[0][C.COLTAN] == 1


def test_event_deck_reshuffled_when_empty():
    s = new_state(2)
    s.ediscard = list(s.edeck)
    s.edeck = []
    at_phase(s, codec.MAINTENANCE)
    s.ediscard = [e for e in C.EVENT_DECK][:-1]
    s.queue = []
    s._advance()
    # the 15 discards and the Event in play are reshuffled; one is drawn
    assert s.event >= 0 and len(s.edeck) == len(C.EVENT_DECK) - 1 and s.ediscard == []
