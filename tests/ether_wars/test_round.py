"""Rulebook "Preparation", "New Day", "Reinforcements", "Mercenaries", "Placement",
"Movement", "Maintenance", component limits."""

import numpy as np
import pytest

import ether_envs
from ether_envs.ether_wars import codec, fast
from ether_envs.ether_wars import components as C
from ether_envs.ether_wars import observation as O

from .builders import A, act, at_phase, legal_names, new_state, place


def obs_piece(s, player, name):
    return s.observation_tensor(player)[O.LAYOUT.slices[name]].reshape(O.SHAPE[name])


# ---- Preparation -------------------------------------------------------------------
def test_preparation_first_player_has_the_highest_ether_die_roll():
    for seed in range(10):
        s = ether_envs.load_game("ether_wars", num_players=4).new_initial_state(seed)
        for rolls in s.first_rolls:  # ties roll again among the tied players
            assert rolls[s.first] == max(rolls)
        assert s.decision == codec.K_FACTION and s.decider == s.first


def test_preparation_factions_chosen_clockwise_from_first_player_each_once():
    s = ether_envs.load_game("ether_wars", num_players=3).new_initial_state(4)
    first = s.first
    act(s, "FACTION", C.VAI)
    assert s.decider == (first + 1) % 3
    assert "FACTION(VAI)" not in legal_names(s)
    with pytest.raises(ValueError):
        s.apply_action(A("FACTION", C.VAI))


def test_preparation_starting_sheet_and_beginner_three_favours():
    s = new_state(4)
    for p in range(4):
        assert s.res[p] == [20, 0, 0, 0, 0] and s.charge[p] == 1
        assert s.home_units[p] == 5 and s.reserve[p] == 5 and s.hero_at[p] == -1
        assert sum(s.hand[p]) == 3
    assert len(s.fdeck) == len(C.FAVOUR_DECK) - 12


def test_preparation_advanced_draft_keeps_five_then_discards_two():
    s = new_state(3, favours="advanced")
    assert s.decision == codec.K_KEEP
    picks = 0
    while s.decision == codec.K_KEEP:
        act(s, "KEEP_FAVOUR", s.packs[s.decider][0])
        picks += 1
    assert picks == 15 and all(sum(h) == 5 for h in s.hand)
    while s.decision == codec.K_DISCARD:
        act(s, "DISCARD_FAVOUR", next(f for f in range(C.NUM_FAVOURS) if s.hand[s.decider][f]))
    assert all(sum(h) == 3 for h in s.hand) and len(s.fdiscard) == 6
    assert s.decision == codec.K_ABILITY


def test_preparation_advanced_draft_packs_are_hidden_and_passed_clockwise():
    s = new_state(3, favours="advanced")
    p = s.decider
    pack = list(s.packs[p])
    act(s, "KEEP_FAVOUR", pack[0])
    rest = sorted(pack[1:])
    while s.decision == codec.K_KEEP and s.draft_round == 0:
        act(s, "KEEP_FAVOUR", s.packs[s.decider][0])
    assert sorted(s.packs[(p + 1) % 3]) == rest
    other = (p + 1) % 3
    own = obs_piece(s, p, "draft_pack")
    assert np.allclose(own * 5, np.bincount(s.packs[p], minlength=C.NUM_FAVOURS))
    del other


# ---- New Day -------------------------------------------------------------------------
def test_new_day_event_drawn_and_ability_cards_secret_until_all_chose():
    s = new_state(3)
    assert s.event >= 0 and s.decision == codec.K_ABILITY
    a, b = s.decider, (s.decider + 1) % 3
    act(s, "ABILITY", 2)
    # seat b (to choose next) sees that a chose, not which card
    ab = obs_piece(s, b, "ability")
    rel_a = (a - b) % 3
    assert ab[rel_a, 4] == 1 and ab[rel_a, :4].sum() == 0
    act(s, "ABILITY", 1)
    act(s, "ABILITY", 0)
    assert s.revealed
    ab = obs_piece(s, b, "ability")
    assert ab[rel_a, 2] == 1


def test_new_day_resample_hidden_redraws_unrevealed_cards_only_of_others():
    s = new_state(2)
    a = s.decider
    act(s, "ABILITY", 3)
    rng = np.random.default_rng(0)
    seen = {s.resample_hidden(1 - a, rng).ability[a] for _ in range(30)}
    assert len(seen) > 1
    assert {s.resample_hidden(a, rng).ability[a] for _ in range(5)} == {3}


# ---- Reinforcements ---------------------------------------------------------------------
def test_reinforcements_skipped_in_round_one_then_one_unit_and_two_protein():
    s = new_state(2)
    act(s, "ABILITY", 0)
    act(s, "ABILITY", 0)
    assert s.round == 1 and s.home_units == [5, 5] and s.res[0][0] == 20
    at_phase(s, codec.MAINTENANCE)
    s.queue = []
    s._advance()  # Maintenance (5 upkeep), then New Day of round 2
    assert s.round == 2 and s.res[0][C.PROTEIN] == 15
    act(s, "ABILITY", 0)
    act(s, "ABILITY", 0)
    assert s.home_units == [6, 6] and s.reserve == [4, 4] and s.res[0][C.PROTEIN] == 17


# ---- Mercenaries ---------------------------------------------------------------------------
def hire_state():
    s = new_state(2)
    s.hand = [[0] * C.NUM_FAVOURS for _ in range(2)]
    act(s, "ABILITY", 0)
    act(s, "ABILITY", 0)
    return s


def test_mercenaries_hire_costs_matching_resource_and_one_protein():
    s = hire_state()
    p = s.decider
    assert legal_names(s) == ["PASS"]  # no Crystal, Plasma or Coltan yet
    s.res[p][C.PLASMA] = 1
    assert legal_names(s) == ["HIRE(Defender)", "HIRE(Priestess)", "PASS"]
    act(s, "HIRE", C.PRIESTESS)
    assert s.res[p][C.PLASMA] == 0 and s.res[p][C.PROTEIN] == 19 and s.hired[p] == C.PRIESTESS


def test_mercenaries_each_die_hired_once_and_at_most_one_each():
    s = hire_state()
    p = s.decider
    s.res[0][C.PLASMA] = s.res[1][C.PLASMA] = 2
    act(s, "HIRE", C.DEFENDER)
    assert s.decider == 1 - p and "HIRE(Defender)" not in legal_names(s)
    act(s, "HIRE", C.PRIESTESS)
    assert s.phase == codec.PLACEMENT and s.res[p][C.PLASMA] == 1


# ---- Placement -----------------------------------------------------------------------------
def placement_state(n=2):
    s = at_phase(new_state(n), codec.PLACEMENT)
    s.first = 0
    s.turn = n - 1
    s._next_placer()
    return s


def test_placement_one_area_per_turn_then_next_player():
    s = placement_state()
    act(s, "AREA", C.BIOSPHERE)
    assert s.decision == codec.K_ADD and "DONE" not in legal_names(s)
    act(s, "ADD_DIE", 0)
    act(s, "ADD_DIE", 0)
    act(s, "DONE")
    assert s.decider == 1 and s.units_at[0][C.BIOSPHERE] == 2


def test_placement_cannot_place_again_in_the_same_area():
    s = placement_state()
    act(s, "AREA", C.BIOSPHERE)
    act(s, "ADD_DIE", 0)
    act(s, "DONE")
    act(s, "PASS")  # seat 1 passes
    assert s.decider == 0 and "AREA(Biosphere)" not in legal_names(s)


def test_placement_pass_ends_placement_for_the_round():
    s = placement_state()
    act(s, "PASS")
    act(s, "AREA", C.BIOSPHERE)
    act(s, "ADD_DIE", 0)
    act(s, "DONE")
    assert s.decider == 1 and s.passed[0]


def test_placement_limited_area_holds_two_players_at_most():
    s = placement_state(3)
    place(s, 1, C.PLASMA_CHASM, units=1)
    place(s, 2, C.PLASMA_CHASM, units=1)
    assert "AREA(Plasma Chasm)" not in legal_names(s)
    assert "AREA(Biosphere)" in legal_names(s)


def test_placement_silo_holds_owner_and_one_other_player():
    s = placement_state(3)
    place(s, 1, C.SILO0 + 2, units=1)
    assert "AREA(Silo +2)" not in legal_names(s)    # seat 2's Silo has an attacker
    place(s, 2, C.SILO0, units=1)
    assert "AREA(own Silo)" in legal_names(s)       # the owner may always defend


def test_placement_market_takes_one_die_then_the_turn_ends():
    s = placement_state()
    act(s, "AREA", C.MARKET)
    act(s, "ADD_DIE", 1)
    assert s.decider == 1 and s.hero_at[0] == C.MARKET


# ---- Movement ------------------------------------------------------------------------------
def movement_state():
    s = at_phase(new_state(3), codec.MOVEMENT)
    s.first = 0
    return s


def test_movement_costs_one_two_three_coltan_by_die_type():
    s = movement_state()
    s.res[0][C.COLTAN] = 6
    place(s, 0, C.BIOSPHERE, units=1, hero=True, merc=C.CAPTAIN)
    s.queue = s.order()
    s._advance()
    assert s.decision == codec.K_MOVE and s.decider == 0
    act(s, "MOVE_DIE", 0 * 11 + C.BIOSPHERE)
    act(s, "AREA", C.MARKET)
    act(s, "MOVE_DIE", 2 * 11 + C.BIOSPHERE)
    act(s, "AREA", C.FACTORY)
    assert s.res[0][C.COLTAN] == 3
    act(s, "MOVE_DIE", 1 * 11 + C.BIOSPHERE)
    act(s, "AREA", C.CRYSTAL_SEA)
    assert s.res[0][C.COLTAN] == 0 and s.hero_at[0] == C.CRYSTAL_SEA
    assert s.units_at[0][C.MARKET] == 1 and s.merc_at[C.CAPTAIN] == C.FACTORY


def test_movement_cannot_enter_limited_area_held_by_two_other_players():
    s = movement_state()
    s.res[0][C.COLTAN] = 1
    place(s, 0, C.BIOSPHERE, units=1)
    place(s, 1, C.COLTAN_MINE, units=1)
    place(s, 2, C.COLTAN_MINE, units=1)
    s.queue = s.order()
    s._advance()
    act(s, "MOVE_DIE", C.BIOSPHERE)
    assert "AREA(Coltan Mine)" not in legal_names(s) and "AREA(Plasma Chasm)" in legal_names(s)


def test_movement_cannot_enter_a_silo_held_by_two_other_players():
    s = movement_state()
    s.res[0][C.COLTAN] = 1
    place(s, 0, C.BIOSPHERE, units=1)
    place(s, 1, C.SILO0 + 1, units=1)
    place(s, 2, C.SILO0 + 1, units=1)
    s.queue = s.order()
    s._advance()
    act(s, "MOVE_DIE", C.BIOSPHERE)
    assert "AREA(Silo +1)" not in legal_names(s)


@pytest.mark.parametrize("merc,start,dests", [
    (C.DRONE, C.BIOSPHERE, ["Coltan Mine", "Plasma Chasm", "Crystal Sea"]),
    (C.ASSASSIN, C.BIOSPHERE, ["Coltan Mine", "Plasma Chasm", "Crystal Sea", "Ether Fault", "own Silo", "Silo +1",
                               "Silo +2"]),
    (C.THIEF, C.SILO0 + 1, ["Silo +2"]),
])
def test_movement_drone_assassin_thief_ignore_area_limits_as_when_placed(merc, start, dests):
    # "can be placed ... even if there are dice from two other players" (rulebook "Mercenary
    # Dice", "Commonly overlooked rules"): "placed" is where a die stands, moved or placed, as
    # in "roll the dice they placed in an area"; each die's own area rules bind moves (EW-A9)
    s = movement_state()
    s.res[0][C.COLTAN] = 3
    place(s, 0, C.BIOSPHERE, units=1)
    place(s, 0, start, merc=merc)
    for q in (1, 2):  # the Coltan Mine and seat 2's Silo each hold dice of two other players
        place(s, q, C.COLTAN_MINE, units=1)
        place(s, q, C.SILO0 + 2, units=1)
    s.queue = s.order()
    s._advance()
    for a in (C.COLTAN_MINE, C.SILO0 + 2):  # a Unit is held back (rulebook "Movement" 4-5)
        assert not s.can_put(0, a, 0, moving=True)
    act(s, "MOVE_DIE", 2 * C.NUM_AREAS + start)
    assert legal_names(s) == [f"AREA({d})" for d in dests]
    mask = fast.put_masks(s, 0, (2,), True)[0] & ~(1 << start)  # the fast path agrees with the plain rule
    assert mask == sum(1 << b for b in range(C.NUM_AREAS) if b != start and s.can_put(0, b, 2, moving=True))
    full = C.COLTAN_MINE if merc == C.DRONE else C.SILO0 + 2
    act(s, "AREA", full)
    assert s.merc_at[merc] == full and s.res[0][C.COLTAN] == 1
    normal, exempt = s.occupancy()
    assert normal[full] == 0b110 and exempt[full] == 0b001  # three players' dice; the limit counts two


def test_movement_allowed_to_an_area_placed_in_this_round():
    s = movement_state()
    s.res[0][C.COLTAN] = 1
    place(s, 0, C.BIOSPHERE, units=1)
    place(s, 0, C.MARKET, units=1)
    s.placed[0] = (1 << C.BIOSPHERE) | (1 << C.MARKET)
    s.queue = s.order()
    s._advance()
    act(s, "MOVE_DIE", C.MARKET)
    assert "AREA(Biosphere)" in legal_names(s)


def test_movement_human_tactician_pays_a_charge_instead_of_coltan():
    s = movement_state()
    s.ability[0] = 1  # seat 0 is Human: Tactician
    place(s, 0, C.BIOSPHERE, units=1)
    s.queue = s.order()
    s._advance()
    act(s, "MOVE_DIE", C.BIOSPHERE)
    assert all(n.startswith("AREA_CHARGE") for n in legal_names(s))
    act(s, "AREA_CHARGE", C.MARKET)
    assert s.charge[0] == 0 and s.units_at[0][C.MARKET] == 1


# ---- Maintenance ---------------------------------------------------------------------------
def test_maintenance_upkeep_mercenaries_back_first_player_passes_left():
    s = at_phase(new_state(3), codec.MAINTENANCE)
    s.first = 1
    s.hired[0], s.merc_owner[C.DRONE] = C.DRONE, 0
    s.res[2][C.PROTEIN] = 3          # 5 Units, 3 Protein: 2 Units go to the reserve
    s.queue = []
    s._advance()
    assert s.merc_owner == [-1] * 6 and s.hired == [-1] * 3
    assert s.res[0][C.PROTEIN] == 15 and s.res[2][C.PROTEIN] == 0
    assert s.home_units[2] == 3 and s.reserve[2] == 7
    assert s.first == 2 and s.decider == 2 and s.decision == codec.K_ABILITY


def test_maintenance_ripper_devour_pays_no_upkeep():
    s = at_phase(new_state(4), codec.MAINTENANCE, abilities=[None, None, None, 3])
    s.queue = []
    s._advance()
    assert s.res[3][C.PROTEIN] == 20 and s.res[0][C.PROTEIN] == 15


# ---- Components ------------------------------------------------------------------------------
def test_components_are_a_hard_limit_on_resources():
    s = at_phase(new_state(2), codec.RESOLUTION)
    s.res[1][C.CRYSTAL] = 29
    assert s.gain(0, C.CRYSTAL, 5) == 1 and s.res[0][C.CRYSTAL] == 1


def test_components_counts_match_the_rulebook():
    assert C.START_UNITS + C.RESERVE_UNITS == C.MAX_UNITS == 10
    assert len(C.MERCENARIES) == 6 and len(C.FACTIONS) == 4
    assert all(sum(1 for a in C.ABILITIES if a.faction == f) == 4 for f in range(4))
    assert sum(C.HERO_CHARGE) == 3  # three Charge faces (rulebook "Hero Dice")
    assert C.EXTRACTION_COST == (1, 2, 2, 3) and C.ETHER_TO_WIN == {2: 7, 3: 6, 4: 5}
    assert len(C.EVENT_DECK) == 16
