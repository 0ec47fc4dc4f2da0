"""Rulebook "Resolution": Combat action, Injuries, Shields, Dying, Extraction, Player Silos,
Ether Fault, Channelling; ties per area."""

import pytest

from ether_envs.ether_wars import codec
from ether_envs.ether_wars import components as C

from .builders import A, act, at_phase, face, legal_names, new_state, place, start_resolution

F1, F2, F3 = face(1), face(2), face(3)   # Unit faces with 1, 2, 3 full pips (no hollow for 1 and 2)
HERO4 = face(4, C.HERO_FULL)             # Hero face: 4 pips, no Charge icon
HERO1C = 3                               # Hero face: 1 pip and a Charge icon


def resolution(n=2, abilities=None, event="quiet_day"):
    s = at_phase(new_state(n), codec.RESOLUTION, abilities, event)
    s.first = 0
    return s


def test_extraction_8_pips_plasma_chasm_gives_4_plasma():
    s = resolution()
    place(s, 0, C.PLASMA_CHASM, units=4)
    start_resolution(s, [F2, F2, F2, F2])
    assert s.decision == codec.K_RESOLVE and s.decider == 0
    act(s, "RESOLVE", C.PLASMA_CHASM)
    assert s.res[0][C.PLASMA] == 4


def test_extraction_5_pips_crystal_sea_gives_1_crystal():
    s = resolution()
    place(s, 0, C.CRYSTAL_SEA, units=2)
    start_resolution(s, [F2, F3])
    act(s, "RESOLVE", C.CRYSTAL_SEA)
    assert s.res[0][C.CRYSTAL] == 1


def test_extraction_biosphere_protein_equal_to_roll():
    s = resolution()
    place(s, 0, C.BIOSPHERE, units=3)
    start_resolution(s, [F1, F2, F3])
    act(s, "RESOLVE", C.BIOSPHERE)
    # 6 extracted, then the Maintenance upkeep of the 5 Units back on the sheet
    assert s.res[0][C.PROTEIN] == 20 + 6 - 5


def test_extraction_powered_up_units_count_hollow_pips():
    s = resolution(abilities=[None, None])
    s.faction[0] = C.RIPPER
    s.ability[0] = 0  # Harvest: Units in the Biosphere powered up
    place(s, 0, C.BIOSPHERE, units=1)
    start_resolution(s, [5])  # face 6: 3 full + 3 hollow
    act(s, "RESOLVE", C.BIOSPHERE)
    assert s.res[0][C.PROTEIN] == 20 + 6 - 5


def test_resolution_order_player_chooses_area_order():
    s = resolution()
    place(s, 0, C.BIOSPHERE, units=1)
    place(s, 0, C.PLASMA_CHASM, units=1)
    start_resolution(s, [F2, F2])
    assert legal_names(s) == ["RESOLVE(Biosphere)", "RESOLVE(Plasma Chasm)"]
    act(s, "RESOLVE", C.PLASMA_CHASM)
    assert legal_names(s) == ["RESOLVE(Biosphere)"]


def combat_in_coltan_mine(dice, first_arrival=0):
    s = resolution()
    seats = (0, 1) if first_arrival == 0 else (1, 0)
    for q in seats:
        if q == 0:
            place(s, 0, C.COLTAN_MINE, units=2, hero=True)
        else:
            place(s, 1, C.COLTAN_MINE, units=3)
    return start_resolution(s, dice)


def test_combat_limited_area_with_hero_domination_winner_extracts_and_loser_injured():
    # seat 0: 3+3 Units + Hero 4 = 10; seat 1: 1+1+1 = 3 -> 7 points: 3 injuries
    s = combat_in_coltan_mine([F3, F3, HERO4, F1, F1, F1])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.res[0][C.COLTAN] == 5          # 10 pips / 2
    assert s.reserve[1] == 5 + 3            # no Plasma: all three injured Units die
    assert sum(s.units_at[1]) == 0 and s.res[1][C.COLTAN] == 0


def test_combat_limited_area_without_domination_each_player_extracts():
    s = resolution()
    place(s, 0, C.COLTAN_MINE, units=2)
    place(s, 1, C.COLTAN_MINE, units=2)
    start_resolution(s, [F2, F2, F3, F3])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.res[0][C.COLTAN] == 2 and s.reserve[1] == 5
    assert s.decider == 1
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.res[1][C.COLTAN] == 3


def test_combat_tie_in_limited_area_first_placer_wins():
    # seat 1 placed first; both score 6
    s = resolution()
    place(s, 1, C.COLTAN_MINE, units=3)
    place(s, 0, C.COLTAN_MINE, units=1, hero=True)
    start_resolution(s, [F2, HERO4, F2, F2, F2])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.res[1][C.COLTAN] == 3 and s.res[0][C.COLTAN] == 0


def test_injuries_one_per_two_points_of_difference():
    # 10 vs 5: 5 points -> 2 injuries
    s = resolution()
    place(s, 0, C.COLTAN_MINE, units=2, hero=True)
    place(s, 1, C.COLTAN_MINE, units=3)
    start_resolution(s, [F3, F3, HERO4, F1, F1, F3])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.reserve[1] == 5 + 2


def test_shields_plasma_saves_injured_units():
    s = resolution()
    s.res[1][C.PLASMA] = 1
    place(s, 0, C.COLTAN_MINE, units=2, hero=True)
    place(s, 1, C.COLTAN_MINE, units=3)
    start_resolution(s, [F3, F3, HERO4, F1, F1, F1])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.decision == codec.K_SHIELD and s.decider == 1
    assert legal_names(s) == ["SHIELD(0)", "SHIELD(1)"]
    with pytest.raises(ValueError):
        s.apply_action(A("SHIELD", 2))  # only 1 Plasma
    act(s, "SHIELD", 1)
    assert s.res[1][C.PLASMA] == 0 and s.reserve[1] == 5 + 2


def test_dying_unshielded_units_return_to_reserve():
    s = resolution()
    s.res[1][C.PLASMA] = 5
    place(s, 0, C.COLTAN_MINE, units=2, hero=True)
    place(s, 1, C.COLTAN_MINE, units=3)
    start_resolution(s, [F3, F3, HERO4, F1, F1, F1])
    act(s, "RESOLVE", C.COLTAN_MINE)
    act(s, "SHIELD", 0)
    assert s.reserve[1] == 8 and s.res[1][C.PLASMA] == 5


def test_silo_resolved_in_attacker_turn_and_raid_takes_resources():
    s = resolution()
    s.res[0][C.ETHER] = 1
    place(s, 0, C.SILO0 + 0, units=1)
    place(s, 1, C.SILO0 + 0, units=4)
    start_resolution(s, [F1, F3, F3, F3, F3])
    # seat 0 is first but the Silo waits for its attacker's turn
    assert s.decider == 1
    act(s, "RESOLVE", C.SILO0 + 1)  # seat 1's relative index of seat 0's Silo (+1 in a 2p game)
    # 12 - 1 = 11: raid points; Ether costs 8, Protein 2
    assert s.decision == codec.K_RAID
    assert "RESOURCE(Ether)" in legal_names(s)
    act(s, "RESOURCE", C.ETHER)
    assert s.res[1][C.ETHER] == 1 and s.res[0][C.ETHER] == 0
    assert legal_names(s) == ["RESOURCE(Protein)", "DONE"]
    act(s, "RESOURCE", C.PROTEIN)  # 1 point left: the raid ends by itself
    # after Maintenance: seat 1 kept 5 Units (upkeep 5); seat 0 lost its defender (upkeep 4)
    assert s.res[1][C.PROTEIN] == 20 + 1 - 5 and s.res[0][C.PROTEIN] == 20 - 1 - 4
    assert s.reserve[0] == 6


def test_silo_tie_owner_wins():
    s = resolution()
    place(s, 0, C.SILO0 + 0, units=2)
    place(s, 1, C.SILO0 + 0, units=2)
    start_resolution(s, [F2, F2, F2, F2])
    act(s, "RESOLVE", C.SILO0 + 1)
    assert s.decision != codec.K_RAID and s.reserve[0] == 5 and s.reserve[1] == 5


def test_ether_fault_resolved_by_first_non_controller_tie_goes_to_controller():
    s = resolution()
    s.ether_ctrl = 0
    place(s, 0, C.ETHER_FAULT, units=1, ether=True)
    place(s, 1, C.ETHER_FAULT, units=2)
    start_resolution(s, [F1, 2, F2, F2])  # seat 0: 1 + Ether die 3 = 4; seat 1: 4
    assert s.decider == 1  # never in the controller's turn
    act(s, "RESOLVE", C.ETHER_FAULT)
    assert s.res[0][C.ETHER] == 1 and s.res[1][C.ETHER] == 0 and s.ether_ctrl == 0


def test_ether_fault_tie_without_controller_has_no_winner():
    s = resolution()
    place(s, 0, C.ETHER_FAULT, units=2)
    place(s, 1, C.ETHER_FAULT, units=2)
    start_resolution(s, [F2, F2, F2, F2])
    act(s, "RESOLVE", C.ETHER_FAULT)
    assert s.res[0][C.ETHER] == 0 and s.res[1][C.ETHER] == 0 and s.ether_ctrl == -1


def test_channelling_alone_in_ether_fault_gives_ether_and_the_ether_die():
    s = resolution()
    place(s, 1, C.ETHER_FAULT, units=1)
    start_resolution(s, [])
    act(s, "RESOLVE", C.ETHER_FAULT)
    assert s.res[1][C.ETHER] == 1 and s.ether_ctrl == 1


def test_channelling_extra_ether_for_two_crystal_once_per_round():
    s = resolution()
    s.res[1][C.CRYSTAL] = 4
    place(s, 1, C.ETHER_FAULT, units=1)
    start_resolution(s, [])
    act(s, "RESOLVE", C.ETHER_FAULT)
    assert s.decision == codec.K_END_ETHER and s.decider == 1 and s.phase == codec.RESOLUTION  # right after Channelling
    act(s, "EXTRA_ETHER")
    assert s.res[1][C.ETHER] == 2 and s.res[1][C.CRYSTAL] == 2
    assert s.decision == codec.K_ABILITY  # once a round: no second offer


def test_channelling_extra_ether_declined_then_offered_at_end_of_round():
    s = resolution()
    s.res[1][C.CRYSTAL] = 2
    place(s, 1, C.ETHER_FAULT, units=1)
    start_resolution(s, [])
    act(s, "RESOLVE", C.ETHER_FAULT)
    act(s, "PASS")
    assert s.decision == codec.K_END_ETHER and s.phase == codec.MAINTENANCE
    act(s, "EXTRA_ETHER")
    assert s.res[1][C.ETHER] == 2 and s.res[1][C.CRYSTAL] == 0


def test_channelling_extra_ether_can_win_at_once():
    s = resolution()
    s.res[1][C.CRYSTAL] = 2
    s.res[1][C.ETHER] = 5
    place(s, 1, C.ETHER_FAULT, units=1)
    start_resolution(s, [])
    act(s, "RESOLVE", C.ETHER_FAULT)
    act(s, "EXTRA_ETHER")
    assert s.is_terminal() and s.winner == 1


def test_objective_reaching_ether_target_wins_immediately():
    s = resolution()
    s.res[1][C.ETHER] = 6  # 2 players: 7 Ether
    place(s, 1, C.ETHER_FAULT, units=1)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [])
    act(s, "RESOLVE", C.ETHER_FAULT)
    assert s.is_terminal() and s.winner == 1 and s.units_at[1][C.BIOSPHERE] == 1  # the rest is never resolved
    assert list(s.returns()) == [-1.0, 1.0]
