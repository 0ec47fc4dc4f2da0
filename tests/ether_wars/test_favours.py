"""Rulebook "Favours": played in favour windows (EW-A7), resolved last-in-first-out,
cancellation, costs paid only on resolution; faction cards paid with Charges."""

from ether_envs.ether_wars import codec
from ether_envs.ether_wars import components as C

from .builders import act, at_phase, face, legal_names, new_state, place, start_resolution

F1, F2, F3 = face(1), face(2), face(3)
HERO4 = face(4, C.HERO_FULL)


def at_mercenaries_window(hands):
    """Seat order 0, 1; hands: per seat {favour id: count}; returns the state at the first
    favour-window decision of the Mercenaries phase."""
    s = new_state(2)
    s.first = 0
    s.queue = s.order()
    s.decider = 0
    s.hand = [[h.get(f, 0) for f in range(C.NUM_FAVOURS)] for h in hands]
    act(s, "ABILITY", 0)
    act(s, "ABILITY", 0)
    return s


def test_favours_window_lists_playable_favours_or_pass():
    s = at_mercenaries_window([{C.SUPPLIES: 1}, {}])
    assert s.decision == codec.K_WINDOW and s.decider == 0
    assert legal_names(s) == ["PLAY_FAVOUR(Supplies)", "PASS"]
    act(s, "PASS")
    assert s.decision == codec.K_HIRE  # seat 1 holds no Favour: not asked


def test_favours_window_asks_holders_of_unplayable_favours_too():
    s = at_mercenaries_window([{C.BATTLE_CRY: 1}, {C.CANCEL: 1}])
    assert s.decision == codec.K_WINDOW and s.decider == 0 and legal_names(s) == ["PASS"]
    act(s, "PASS")
    assert s.decision == codec.K_WINDOW and s.decider == 1 and legal_names(s) == ["PASS"]
    act(s, "PASS")
    assert s.decision == codec.K_HIRE


def test_favours_resolve_last_in_first_out_cancel_of_a_cancel():
    s = at_mercenaries_window([{C.SUPPLIES: 1, C.CANCEL: 1}, {C.CANCEL: 1}])
    act(s, "PLAY_FAVOUR", C.SUPPLIES)
    assert s.decision == codec.K_RESPONSE and s.decider == 1
    act(s, "PLAY_FAVOUR", C.CANCEL)
    assert s.decision == codec.K_RESPONSE and s.decider == 0
    act(s, "PLAY_FAVOUR", C.CANCEL)  # cancels seat 1's Cancel
    # seat 1 has no Cancel left: the stack resolves, top first
    assert s.res[0][C.PROTEIN] == 22 and sorted(s.fdiscard) == [C.CANCEL, C.CANCEL, C.SUPPLIES]


def test_favours_cancelled_card_is_discarded_without_effect():
    s = at_mercenaries_window([{C.SUPPLIES: 1}, {C.CANCEL: 1}])
    act(s, "PLAY_FAVOUR", C.SUPPLIES)
    act(s, "PLAY_FAVOUR", C.CANCEL)
    assert s.res[0][C.PROTEIN] == 20 and C.SUPPLIES in s.fdiscard


def test_favours_cost_not_paid_when_cancelled():
    s = at_mercenaries_window([{C.SMUGGLER: 1}, {C.CANCEL: 1}])
    s.res[0][C.COLTAN] = 1
    s.res[1][C.PLASMA] = 2
    act(s, "PLAY_FAVOUR", C.SMUGGLER)
    act(s, "PLAY_FAVOUR", C.CANCEL)
    assert s.res[0][C.COLTAN] == 1 and s.res[1][C.PLASMA] == 2


def test_favours_cost_paid_on_resolution_smuggler_steals_chosen_resource():
    s = at_mercenaries_window([{C.SMUGGLER: 1}, {C.CANCEL: 1}])
    s.res[0][C.COLTAN] = 1
    s.res[1][C.PLASMA] = 2
    act(s, "PLAY_FAVOUR", C.SMUGGLER)
    act(s, "PASS")  # seat 1 does not cancel
    assert s.decision == codec.K_SMUGGLE_SEAT and s.res[0][C.COLTAN] == 0
    act(s, "SEAT", 1)
    assert legal_names(s) == ["RESOURCE(Protein)", "RESOURCE(Plasma)"]
    act(s, "RESOURCE", C.PLASMA)
    assert s.res[0][C.PLASMA] == 1 and s.res[1][C.PLASMA] == 1


def test_favours_contract_makes_the_hire_free():
    s = at_mercenaries_window([{C.CONTRACT: 1}, {}])
    act(s, "PLAY_FAVOUR", C.CONTRACT)
    assert s.decision == codec.K_HIRE and s.decider == 0
    act(s, "HIRE", C.CAPTAIN)
    assert s.res[0][C.PROTEIN] == 20 and s.hired[0] == C.CAPTAIN


def combat(hands, abilities=None, plasma=0):
    s = at_phase(new_state(2), codec.RESOLUTION, abilities)
    s.first = 0
    s.res[1][C.PLASMA] = plasma
    place(s, 0, C.COLTAN_MINE, units=1, hero=True)
    place(s, 1, C.COLTAN_MINE, units=3)
    place(s, 1, C.BIOSPHERE, units=1)
    s.hand = [[h.get(f, 0) for f in range(C.NUM_FAVOURS)] for h in hands]
    return s


def test_favours_battle_cry_adds_two_in_the_combat_window():
    s = combat([{}, {C.BATTLE_CRY: 1}])
    start_resolution(s, [F2, HERO4, F2, F2, F1])  # 6 vs 5
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.decision == codec.K_WINDOW and s.decider == 1
    act(s, "PLAY_FAVOUR", C.BATTLE_CRY)  # 6 vs 7: seat 1 wins
    assert s.res[1][C.COLTAN] == 3 and s.res[0][C.COLTAN] == 0


def test_favours_field_medic_shields_two_for_free():
    s = combat([{}, {C.FIELD_MEDIC: 1}])
    start_resolution(s, [F3, HERO4, F1, F1, F1])  # 7 vs 3: 2 injuries
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.decision == codec.K_WINDOW and legal_names(s) == ["PASS"]  # combat window: Field Medic not playable
    act(s, "PASS")
    assert s.decision == codec.K_WINDOW and s.decider == 1 and "PLAY_FAVOUR(Field Medic)" in legal_names(s)
    act(s, "PLAY_FAVOUR", C.FIELD_MEDIC)
    assert s.decision == codec.K_SHIELD and legal_names(s) == ["SHIELD(0)", "SHIELD(1)", "SHIELD(2)"]
    act(s, "SHIELD", 2)
    assert s.reserve[1] == 5 and s.res[1][C.PLASMA] == 0


def test_faction_card_commander_pays_charges_for_plus_two_each():
    s = combat([{}, {}], abilities=[None, None])
    s.faction[1], s.ability[1] = C.HUMAN, 3  # Commander
    s.faction[0] = C.DRACON
    s.charge[1] = 2
    start_resolution(s, [F2, HERO4, F1, F1, F1])  # 6 vs 3
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.decision == codec.K_WINDOW and s.decider == 1 and legal_names(s) == ["CHARGE_BOOST", "PASS"]
    act(s, "CHARGE_BOOST")
    act(s, "CHARGE_BOOST")  # 6 vs 7
    assert s.charge[1] == 0 and s.res[1][C.COLTAN] == 3


def test_faction_card_medic_first_two_shields_free():
    s = combat([{}, {}], abilities=[None, 2])  # seat 1 is Dracon by default: make it Human Medic
    s.faction[1], s.faction[0] = C.HUMAN, C.DRACON
    s.medic_free[1] = 2
    start_resolution(s, [F3, HERO4, F1, F1, F1])
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert legal_names(s) == ["SHIELD(0)", "SHIELD(1)", "SHIELD(2)"]
    act(s, "SHIELD", 2)
    assert s.reserve[1] == 5 and s.medic_free[1] == 0


def test_faction_card_dracon_hungry_gains_three_protein_per_injury():
    s = combat([{}, {}], abilities=[1, None])  # seat 0 would be Human: make it Dracon Hungry
    s.faction[0], s.faction[1] = C.DRACON, C.HUMAN
    start_resolution(s, [F3, HERO4, F1, F1, F1])  # 2 injuries
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.res[0][C.PROTEIN] == 26 and s.reserve[1] == 7


def test_faction_card_dracon_fertile_puts_reserve_units_before_resolution():
    s = at_phase(new_state(2), codec.MOVEMENT, abilities=[None, 0])  # seat 1 is Dracon: Fertile
    s.first = 0
    s.queue = s.order()
    s._advance()
    assert s.decision == codec.K_FERTILE and s.decider == 1
    act(s, "AREA", C.BIOSPHERE)
    assert s.charge[1] == 0 and s.reserve[1] == 4 and s.units_at[1][C.BIOSPHERE] == 1
    assert s.phase == codec.RESOLUTION


def test_faction_card_dracon_fertile_repeats_per_charge_without_dice_to_move():
    # a Fertile holder with nothing on the board to move may still pay Charge after Charge
    s = at_phase(new_state(2), codec.MOVEMENT, abilities=[None, 0])  # seat 1 is Dracon: Fertile
    s.first = 0
    s.charge[1], s.reserve[1] = 2, 5
    s.res[1][C.COLTAN] = 0  # no Coltan: no die of seat 1 can move
    s.invalidate_caches()
    s.queue = s.order()
    s._advance()
    assert s.decision == codec.K_FERTILE and s.decider == 1
    act(s, "AREA", C.BIOSPHERE)
    assert s.decision == codec.K_FERTILE and s.decider == 1, "the second Charge must be offered too"
    act(s, "AREA", C.BIOSPHERE)
    assert s.charge[1] == 0 and s.reserve[1] == 3 and s.units_at[1][C.BIOSPHERE] == 2
    assert s.phase == codec.RESOLUTION
