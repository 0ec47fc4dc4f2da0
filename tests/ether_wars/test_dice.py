"""Rulebook "Dice": Hero Skills, the Ether die, and every Mercenary's rule."""

import numpy as np

from ether_envs.ether_wars import codec
from ether_envs.ether_wars import components as C
from ether_envs.ether_wars import rules as R

from .builders import act, at_phase, face, legal_names, new_state, place, start_resolution

F1, F2, F3 = face(1), face(2), face(3)
HERO1C = 3  # Hero face: 1 pip with a Charge icon


def resolution(n=2, factions=None, abilities=None):
    s = at_phase(new_state(n, factions=factions), codec.RESOLUTION, abilities)
    s.first = 0
    return s


def test_hero_skill_human_returns_a_chosen_unit_that_does_not_count():
    s = resolution(factions=[C.HUMAN, C.DRACON])
    place(s, 0, C.COLTAN_MINE, units=2, hero=True)
    place(s, 1, C.COLTAN_MINE, units=2)
    place(s, 1, C.BIOSPHERE, units=1)  # keeps the phase open after seat 0's turn
    start_resolution(s, [F3, F3, HERO1C, F3, F3])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.decision == codec.K_SKILL and s.decider == 0 and s.charge[0] == 2
    assert legal_names(s) == ["UNIT_DIE(seat+0 face 5)", "UNIT_DIE(seat+1 face 5)", "PASS"]
    act(s, "UNIT_DIE", 6 + F3)  # one of seat 1's 3-pip Units goes back to its sheet
    # 7 vs 3: 2 injuries, but only one Unit of seat 1 is left in the combat
    assert s.home_units[1] == 5 - 3 + 1 and s.reserve[1] == 6
    assert s.res[0][C.COLTAN] == 3


def test_hero_skill_dracon_sends_opponents_lowest_unit_to_reserve():
    s = resolution(factions=[C.DRACON, C.HUMAN])
    place(s, 0, C.COLTAN_MINE, units=2, hero=True)
    place(s, 1, C.COLTAN_MINE, units=2)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F3, F3, HERO1C, F1, F3])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert legal_names(s) == ["SEAT(seat+1)", "PASS"]
    act(s, "SEAT", 1)
    # the 1-pip Unit went to the reserve; 7 vs 3: 2 injuries on the last Unit
    assert s.reserve[1] == 5 + 2 and s.res[0][C.COLTAN] == 3


def test_hero_skill_vai_gains_a_resource_of_choice_after_extraction_without_combat():
    s = resolution(factions=[C.VAI, C.HUMAN])
    place(s, 0, C.BIOSPHERE, units=1, hero=True)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F2, HERO1C, F2])
    act(s, "RESOLVE", C.BIOSPHERE)
    assert s.decision == codec.K_GAIN and s.decider == 0
    act(s, "RESOURCE", C.CRYSTAL)
    assert s.res[0][C.CRYSTAL] == 1 and s.res[0][C.PROTEIN] == 23 and s.charge[0] == 2


def test_hero_skill_vai_may_choose_ether_and_wins_at_once():
    # "obtain one resource of your choice": Ether is a resource (the Thief steals "resources
    # other than Ether"); the VAI skill names no exception (EW-A27)
    s = resolution(factions=[C.VAI, C.HUMAN])
    s.res[0][C.ETHER] = 6  # 2 players: 7 Ether wins
    place(s, 0, C.BIOSPHERE, units=1, hero=True)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F2, HERO1C, F2])
    act(s, "RESOLVE", C.BIOSPHERE)
    assert s.decision == codec.K_GAIN and s.decider == 0
    assert legal_names(s) == ["RESOURCE(Protein)", "RESOURCE(Coltan)", "RESOURCE(Plasma)", "RESOURCE(Crystal)",
                              "RESOURCE(Ether)"]
    act(s, "RESOURCE", C.ETHER)
    assert s.res[0][C.ETHER] == 7 and s.is_terminal() and s.winner == 0
    assert s.returns().tolist() == [1.0, -1.0]


def test_hero_skill_ripper_gains_four_protein_after_extraction_without_combat():
    s = resolution(factions=[C.RIPPER, C.HUMAN])
    place(s, 0, C.BIOSPHERE, units=1, hero=True)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F2, HERO1C, F2])
    act(s, "RESOLVE", C.BIOSPHERE)
    assert s.res[0][C.PROTEIN] == 20 + 3 + 4 and s.decider == 1


def test_hero_skill_human_not_triggered_by_extraction_but_charge_gained():
    s = resolution(factions=[C.HUMAN, C.DRACON])
    place(s, 0, C.BIOSPHERE, units=1, hero=True)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F2, HERO1C, F2])
    act(s, "RESOLVE", C.BIOSPHERE)
    assert s.decision == codec.K_RESOLVE and s.decider == 1 and s.charge[0] == 2


def test_hero_skill_ripper_not_triggered_after_combat():
    s = resolution(factions=[C.RIPPER, C.HUMAN])
    place(s, 0, C.COLTAN_MINE, units=1, hero=True)
    place(s, 1, C.COLTAN_MINE, units=1)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F3, HERO1C, F1])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.res[0][C.PROTEIN] == 20 and s.res[0][C.COLTAN] == 2


def test_drone_may_enter_a_limited_area_held_by_two_other_players():
    s = at_phase(new_state(3), codec.PLACEMENT)
    place(s, 0, C.CRYSTAL_SEA, units=1)
    place(s, 1, C.CRYSTAL_SEA, units=1)
    s.hired[2] = C.DRONE
    s.merc_owner[C.DRONE] = 2
    assert s.can_put(2, C.CRYSTAL_SEA, 2) and not s.can_put(2, C.CRYSTAL_SEA, 0)
    assert not s.can_put(2, C.MARKET, 2)  # only the four extraction areas


def test_drone_extracts_its_pips_regardless_of_cost():
    s = resolution()
    place(s, 0, C.CRYSTAL_SEA, merc=C.DRONE)
    start_resolution(s, [4])  # 3 pips
    act(s, "RESOLVE", C.CRYSTAL_SEA)
    assert s.res[0][C.CRYSTAL] == 3


def test_captain_creates_domination_and_gains_charge():
    s = resolution(factions=[C.VAI, C.HUMAN])
    place(s, 0, C.PLASMA_CHASM, units=1, merc=C.CAPTAIN)
    place(s, 1, C.PLASMA_CHASM, units=1)
    place(s, 1, C.BIOSPHERE, units=1)
    start_resolution(s, [F3, 3, F1])  # Captain face 4: 1 pip + Charge
    act(s, "RESOLVE", C.PLASMA_CHASM)
    # a Combat: 4 vs 1 -> seat 1's Unit is injured and dies; seat 0 extracts 4 / 2
    assert s.reserve[1] == 6 and s.res[0][C.PLASMA] == 2 and s.charge[0] == 2


def test_defender_placement_limited_to_own_silo_or_fault_when_controlling_ether_die():
    s = at_phase(new_state(2), codec.PLACEMENT)
    s.hired[0] = C.DEFENDER
    s.merc_owner[C.DEFENDER] = 0
    assert s.can_put(0, C.SILO0, 2) and not s.can_put(0, C.ETHER_FAULT, 2) and not s.can_put(0, C.SILO0 + 1, 2)
    s.ether_ctrl = 0
    assert s.can_put(0, C.ETHER_FAULT, 2)


def test_defender_adds_its_pips_to_the_combat_result():
    s = resolution()
    place(s, 0, C.SILO0, units=1, merc=C.DEFENDER)
    place(s, 1, C.SILO0, units=2)
    start_resolution(s, [F1, 5, F2, F2])  # seat 0: 1 + Defender 4 = 5; seat 1: 4
    act(s, "RESOLVE", C.SILO0 + 1)
    assert s.decision != codec.K_RAID and s.reserve[1] == 5 and s.res[0][C.PROTEIN] == 20 - 5


def test_priestess_rerolls_own_unit_dice_one_at_a_time():
    s = resolution()
    s.hired[0] = C.PRIESTESS
    s.merc_owner[C.PRIESTESS] = 0
    place(s, 0, C.BIOSPHERE, units=2)
    start_resolution(s, [5, F1, F1, F3])  # Priestess 3 rerolls; roll 1, 1; reroll -> 3
    act(s, "RESOLVE", C.BIOSPHERE)
    assert s.decision == codec.K_REROLL and s.rerolls[0] == 3
    assert legal_names(s) == [f"UNIT_DIE(seat+0 face {F1 + 1})", "DONE"]
    act(s, "UNIT_DIE", F1)
    assert s.rerolls[0] == 2 and sorted(s.resolving.faces[0]) == [F1, F3]
    act(s, "DONE")
    assert s.res[0][C.PROTEIN] == 20 + 4 - 5


def test_assassin_rolls_first_and_its_owner_chooses_the_injured_units():
    s = resolution()
    place(s, 0, C.BIOSPHERE, units=3)
    place(s, 1, C.BIOSPHERE, merc=C.ASSASSIN)
    start_resolution(s, [5, F3])  # Assassin 2 pips; then seat 0's last Unit rolls 3
    act(s, "RESOLVE", C.BIOSPHERE)
    assert s.decision == codec.K_ASSASSIN and s.decider == 1 and legal_names(s) == ["SEAT(seat+1)"]
    act(s, "SEAT", 1)
    act(s, "SEAT", 1)
    assert s.reserve[0] == 7 and s.res[0][C.PROTEIN] == 20 + 3 - 3


def test_assassin_injuries_can_be_shielded():
    s = resolution()
    s.res[0][C.PLASMA] = 2
    place(s, 0, C.BIOSPHERE, units=3)
    place(s, 1, C.BIOSPHERE, merc=C.ASSASSIN)
    start_resolution(s, [5, F1, F1, F1])
    act(s, "RESOLVE", C.BIOSPHERE)
    act(s, "SEAT", 1)
    act(s, "SEAT", 1)
    assert s.decision == codec.K_SHIELD and s.decider == 0
    act(s, "SHIELD", 2)
    assert s.reserve[0] == 5 and s.res[0][C.PLASMA] == 0


def test_assassin_and_thief_may_enter_any_silo_even_with_an_attacker():
    s = at_phase(new_state(3), codec.PLACEMENT)
    place(s, 1, C.SILO0, units=1)
    s.hired[2] = C.THIEF
    s.merc_owner[C.THIEF] = 2
    assert s.can_put(2, C.SILO0, 2) and not s.can_put(2, C.SILO0, 0)
    assert not s.can_put(2, C.SILO0 + 2, 2)  # not its own Silo
    s.hired[2] = C.ASSASSIN
    s.merc_owner[C.ASSASSIN] = 2
    assert s.can_put(2, C.SILO0, 2) and not s.can_put(2, C.MARKET, 2) and not s.can_put(2, C.FACTORY, 2)


def test_thief_steals_resources_other_than_ether():
    s = resolution()
    s.res[0] = [20, 1, 0, 0, 3]
    place(s, 1, C.SILO0, merc=C.THIEF)
    start_resolution(s, [5])  # 3 pips
    assert s.decider == 1
    act(s, "RESOLVE", C.SILO0 + 1)
    assert s.decision == codec.K_THIEF and legal_names(s) == ["RESOURCE(Protein)", "RESOURCE(Coltan)"]
    act(s, "RESOURCE", C.COLTAN)
    assert legal_names(s) == ["RESOURCE(Protein)"]
    act(s, "RESOURCE", C.PROTEIN)
    act(s, "RESOURCE", C.PROTEIN)
    assert s.res[1][C.COLTAN] == 1 and s.res[0][C.ETHER] == 3
    assert s.res[1][C.PROTEIN] == 22 - 5 and s.res[0][C.PROTEIN] == 18 - 5


def test_ether_die_only_in_the_ether_fault_by_its_controller():
    s = at_phase(new_state(2), codec.PLACEMENT)
    assert not s.can_put(0, C.ETHER_FAULT, 3)
    s.ether_ctrl = 0
    assert s.can_put(0, C.ETHER_FAULT, 3) and not s.can_put(0, C.BIOSPHERE, 3)
    assert 3 in s.dice_at_home(0) and 3 not in s.dice_at_home(1)


def test_drone_does_not_take_part_in_combat_and_still_extracts():
    s = resolution()
    place(s, 0, C.COLTAN_MINE, units=1, hero=True, merc=C.DRONE)
    place(s, 1, C.COLTAN_MINE, units=3)
    start_resolution(s, [F1, 2, F3, F3, F3, 4])  # 1 + Hero 4 = 5 vs 9; then the Drone rolls 3
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.res[1][C.COLTAN] == 4           # the winner extracts 9 / 2
    assert s.res[0][C.COLTAN] == 3           # the Drone's own extraction, cost ignored
    assert s.reserve[0] == 6                 # seat 0's Unit injured (2 injuries, 1 Unit) and dead


def test_dice_are_drawn_from_rng_in_batches_in_order_and_dropped_when_rng_is_replaced():
    s = new_state(2)
    s.rng = np.random.default_rng(5)
    assert s.dice == []  # a new generator: nothing drawn from it yet
    drawn = np.random.default_rng(5).integers(0, 6, size=R.DICE_BATCH).tolist()
    assert [s.roll_d6() for _ in range(3)] == drawn[:3]  # first drawn, first rolled
    assert len(s.dice) == R.DICE_BATCH - 3
    c = s.clone()  # a clone rolls the same dice
    assert [c.roll_d6() for _ in range(4)] == [s.roll_d6() for _ in range(4)] == drawn[3:7]
    s.rng = np.random.default_rng(6)  # e.g. resample_hidden: future rolls come from the new generator
    drawn = np.random.default_rng(6).integers(0, 6, size=R.DICE_BATCH + 2).tolist()
    assert s.roll_d6s(2) == drawn[:2] and s.roll_d6() == drawn[2]
    assert all(0 <= d <= 5 for d in s.dice)
