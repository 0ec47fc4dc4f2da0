"""Rulebook "Conflicts": when they happen, Pillage, Assault, Siege, Conflict Resolution,
Retreat and the Clarifications (Booster theft, several conflicts, levels >= 1)."""

import pytest

from ether_envs.etherium import components as C
from ether_envs.etherium import rules as R

from .builders import Dice, act, at, clear_board, make, move_unit, place, set_hand, set_resources, set_season, space

CONFLICTS = R.Task(R.T_CONFLICTS, -1, 0, 0)


def _assault_example():
    """Soldier A (Reces, level 2) and Soldier B (Ertis, level 3) on Forest1 in the Reces
    season: A has the higher initiative, so B rolls first."""
    s = make(("Reces", "Ertis"))
    set_season(s, 0)  # Reces A: Reces 1st, Ertis 2nd; Reces affinity (+3 to its Soldier)
    clear_board(s)
    place(s, 0, soldier=C.forest_box(1))
    place(s, 1, soldier=C.forest_box(1))
    s.lvl[0][C.SOLDIER], s.lvl[0][C.GUIDE] = 2, 0
    s.lvl[1][C.SOLDIER], s.lvl[1][C.GUIDE] = 3, 2
    set_hand(s, 0, plus2=1)
    set_hand(s, 1, plus2=1)
    return s


def test_assault_rulebook_example_lower_initiative_rolls_first_and_wins():
    """Assault example: B rolls 3 dice first, adds Guide and a card (12); A rolls 2 dice, adds
    its season power and a card (8); B wins, takes a Soldier token, A retreats; both lose a level."""
    s = _assault_example()
    s.rng = Dice([3, 3, 2, 2, 1])
    at(s, CONFLICTS)
    assert s.current_player() == 1 and s.decision() == R.D_WINDOW
    assert s.roll_dice == [3, 3, 2]
    assert act("REROLL_DIE", 1) in s.legal_actions()  # Ertis power: re-roll a 2
    s.apply_action(act("PLAY_FLASH", C.F_PLUS2))
    s.apply_action(act("PASS"))
    assert s.battle.totals == [-1, 12]
    assert s.current_player() == 0 and s.roll_dice == [2, 1]
    s.apply_action(act("PLAY_FLASH", C.F_PLUS2))  # its last card: the window closes by itself
    assert s.vt[1][C.VT_SOLDIER] == 1 and s.vt[0][C.VT_SOLDIER] == 0
    assert s.decision() == R.D_RETREAT and s.current_player() == 0
    assert s.lvl[0][C.SOLDIER] == 1 and s.lvl[1][C.SOLDIER] == 2
    s.apply_action(act("RETREAT_TO", C.forest_box(0)))
    assert s.pos[0][C.SOLDIER] == C.forest_box(0) and s.pos[1][C.SOLDIER] == C.forest_box(1)


def test_siege_rulebook_example_soldier_wins_and_returns_to_mountain():
    """Siege example: Guard level 4 (lower initiative) rolls 4 dice first (9 with its Guide);
    the level 2 Soldier rolls 2 dice and plays a card (13) and wins; it chooses a spoil and
    retreats to the Mountain outside the City; both units lose a level."""
    s = make(("Ertis", "Psolos"))
    set_season(s, 2)  # Ertis A: Ertis before Psolos
    clear_board(s)
    place(s, 0, soldier=C.city_box(2))  # seat 1 (Psolos) lives in City 2
    s.lvl[0][C.SOLDIER], s.lvl[0][C.GUIDE] = 2, 0
    s.lvl[1][C.GUARD], s.lvl[1][C.GUIDE] = 4, 1
    set_hand(s, 0, plus2=1)
    set_hand(s, 1)
    set_resources(s, 1, wood=1, ether=3)
    s.rng = Dice([2, 2, 2, 2, 5, 6])
    at(s, CONFLICTS)
    assert s.current_player() == 0 and s.battle.totals == [-1, 9]
    s.apply_action(act("PLAY_FLASH", C.F_PLUS2))  # its last card: the window closes by itself
    assert s.decision() == R.D_SPOIL and s.current_player() == 0
    assert s.legal_actions() == [act("SIEGE_SPOIL", 0), act("SIEGE_SPOIL", 2)]  # no Booster, Guide only 1
    assert s.pos[0][C.SOLDIER] == C.mountain_box(2)
    assert s.lvl[0][C.SOLDIER] == 1 and s.lvl[1][C.GUARD] == 3
    s.apply_action(act("SIEGE_SPOIL", 0))
    assert s.res[0][C.ETHER] == 2 and s.res[1][C.ETHER] == 1


def test_siege_guard_wins_takes_soldier_token():
    s = make(("Ertis", "Psolos"))
    set_season(s, 2)
    clear_board(s)
    place(s, 0, soldier=C.city_box(2))
    set_hand(s, 0)
    set_hand(s, 1)
    s.rng = Dice([6, 6, 1])  # Guard (2 dice) first, then the Soldier
    at(s, CONFLICTS)
    assert s.legal_actions() == [act("PASS"), act("REROLL_DIE", 0)]  # Ertis may re-roll its 1
    s.apply_action(act("PASS"))
    assert s.vt[1][C.VT_SOLDIER] == 1
    assert s.pos[0][C.SOLDIER] == C.mountain_box(2)


def test_siege_reduce_guide_gives_soldier_token():
    s = make(("Ertis", "Reces"))
    set_season(s, 2)
    clear_board(s)
    place(s, 0, soldier=C.city_box(2))
    s.lvl[1][C.GUIDE] = 3
    set_hand(s, 0)
    set_hand(s, 1)
    set_resources(s, 1)
    s.rng = Dice([1, 6])  # Guard 1 die (+ Guide 3 = 4), Soldier 6
    at(s, CONFLICTS)
    assert s.legal_actions() == [act("SIEGE_SPOIL", 3)]
    s.apply_action(act("SIEGE_SPOIL", 3))
    assert s.lvl[1][C.GUIDE] == 2 and s.vt[0][C.VT_SOLDIER] == 1


def test_siege_spoil_always_taken_when_one_is_available():
    """Siege: the winner "can steal the City or reduce the opposing player's Guide". Declining
    never helps the winner (ETM-A31): it picks one of the available spoils, never none; with
    nothing to take (no cube, no Booster, Guide below 2) the siege gives no spoil."""
    for res, guide, spoils in (((1, 0, 0, 2, 1), 2, [0, 1, 2, 3]), ((0, 0, 0, 0, 0), 1, [])):
        s = make(("Ertis", "Reces"))
        set_season(s, 2)
        clear_board(s)
        place(s, 0, soldier=C.city_box(2))
        s.lvl[1][C.GUIDE] = guide
        set_hand(s, 0)
        set_hand(s, 1)
        set_resources(s, 0)
        set_resources(s, 1, *res)
        s.rng = Dice([1, 6])  # Guard 1 die (+ Guide), Soldier 6: the Soldier wins
        at(s, CONFLICTS)
        if spoils:
            assert s.decision() == R.D_SPOIL and act("PASS") not in s.legal_actions()
            assert s.legal_actions() == [act("SIEGE_SPOIL", k) for k in spoils]
        else:
            assert s.decision() == -1 and s.res[0][:4] == [0, 0, 0, 0] and s.vt[0] == [0] * 5


def test_booster_theft_loses_action_token_six_and_takes_pillage_token():
    """Clarifications: losing the 2nd Booster loses token 6 from the next season; the thief
    takes the Pillage token (6 VP)."""
    s = make(("Ertis", "Reces"))
    set_season(s, 2)
    clear_board(s)
    place(s, 0, soldier=C.city_box(2))
    set_hand(s, 0)
    set_hand(s, 1)
    set_resources(s, 1, booster=2)
    s.stack = []
    s._h_program_start(None)
    assert s.ntok[1] == 6
    s.rng = Dice([1, 6])
    s.lvl[1][C.GUIDE] = 1
    at(s, CONFLICTS)
    s.apply_action(act("SIEGE_SPOIL", 1))
    assert s.res[1][C.BOOSTER] == 1 and s.res[0][C.BOOSTER] == 1
    assert s.vt[0][C.VT_PILLAGE] == 1
    assert s.ntok[1] == 6  # this season's tokens are kept
    s.stack = []
    s._h_program_start(None)
    assert s.ntok[1] == 5 and s.ntok[0] == 5


def test_pillage_steals_two_basics_gatherer_loses_level_and_retreats():
    """Pillage: no roll; steal any 2 basic resources; the Gatherer loses a level and retreats.
    Reces power: one more basic resource from the reserve."""
    s = make(("Reces", "Ertis"))
    set_season(s, 6)
    clear_board(s)
    place(s, 0, soldier=C.forest_box(1))
    place(s, 1, gatherer=C.forest_box(1))
    set_resources(s, 0)
    set_resources(s, 1, wood=1, metal=3)
    at(s, CONFLICTS)
    assert s.current_player() == 0 and s.decision() == R.D_TAKE
    assert s.legal_actions() == [act("TAKE_RESOURCE", C.WOOD), act("TAKE_RESOURCE", C.METAL)]
    s.apply_action(act("TAKE_RESOURCE", C.METAL))
    s.apply_action(act("TAKE_RESOURCE", C.WOOD))
    assert s.decision() == R.D_GAIN and s.current_player() == 0  # Reces extra resource
    s.apply_action(act("GAIN_RESOURCE", C.STONE))
    assert s.res[0][:3] == [1, 1, 1] and s.res[1][:3] == [0, 0, 2]
    assert s.lvl[1][C.GATHERER] == 1  # Ertis Gatherer 2 -> 1
    assert s.decision() == R.D_RETREAT and s.current_player() == 1
    s.apply_action(s.legal_actions()[0])
    assert s.pos[1][C.GATHERER] != C.forest_box(1)


def test_gatherers_share_a_space_without_conflict():
    """Clarifications: a Gatherer can share a space with an opposing Gatherer."""
    s = make()
    clear_board(s)
    place(s, 0, gatherer=C.forest_box(1))
    place(s, 1, gatherer=C.forest_box(1))
    assert s.conflict_boxes() == []


def test_reces_wins_ties():
    """Reces power: the Barbarians win conflicts if tied."""
    s = make(("Psolos", "Reces"))
    set_season(s, 6)  # Meinas A: Psolos before Reces
    clear_board(s)
    place(s, 0, soldier=C.forest_box(1))
    place(s, 1, soldier=C.forest_box(1))
    s.lvl[0][C.GUIDE] = s.lvl[1][C.GUIDE] = 0
    s.lvl[0][C.SOLDIER] = s.lvl[1][C.SOLDIER] = 1
    set_hand(s, 0)
    set_hand(s, 1)
    s.rng = Dice([4, 4])
    at(s, CONFLICTS)
    assert s.vt[1][C.VT_SOLDIER] == 1
    assert s.current_player() == 0 and s.decision() == R.D_RETREAT


def test_tie_without_reces_rolls_again():
    """Conflict Resolution: in case of tie, roll again."""
    s = make(("Psolos", "Ertis"))
    set_season(s, 6)
    clear_board(s)
    place(s, 0, soldier=C.forest_box(1))
    place(s, 1, soldier=C.forest_box(1))
    s.lvl[0][C.GUIDE] = s.lvl[1][C.GUIDE] = 0
    s.lvl[0][C.SOLDIER] = s.lvl[1][C.SOLDIER] = 1
    set_hand(s, 0)
    set_hand(s, 1)
    s.rng = Dice([4, 4, 3, 5])  # tie 4-4; then the lower initiative rolls 3, the other 5
    at(s, CONFLICTS)
    order = s.order
    assert s.vt[order[0]][C.VT_SOLDIER] == 1


def test_ertis_rerolls_results_of_one_or_two_only():
    """Ertis power: may re-roll a result of 1 or 2 (each die once)."""
    s = make(("Reces", "Ertis"))
    set_season(s, 0)
    clear_board(s)
    place(s, 0, soldier=C.forest_box(1))
    place(s, 1, soldier=C.forest_box(1))
    s.lvl[1][C.SOLDIER] = 3
    set_hand(s, 1)
    s.rng = Dice([1, 5, 2, 6, 6, 6])
    at(s, CONFLICTS)
    assert s.current_player() == 1
    assert s.legal_actions() == [act("PASS"), act("REROLL_DIE", 0), act("REROLL_DIE", 1)]
    s.apply_action(act("REROLL_DIE", 0))
    assert s.roll_dice == [6, 5, 2]
    assert act("REROLL_DIE", 0) not in s.legal_actions()
    with pytest.raises(ValueError):
        s.apply_action(act("REROLL_DIE", 4))


def test_retreat_never_onto_blue_and_further_if_needed():
    """Retreat: to an adjacent terrain (not blue) with no other conflict; else one space further."""
    s = make(("Reces", "Ertis", "Psolos"))
    set_season(s, 6)
    clear_board(s)
    # seat 0's Soldier lost on Mine0; every non-blue neighbour holds an enemy unit
    place(s, 0, gatherer=C.mountain_box(0), soldier=C.mine_box(0))
    place(s, 1, gatherer=C.forest_box(0), soldier=C.mine_box(1))
    place(s, 2, gatherer=C.mine_box(3), soldier=C.mountain_box(2))
    s.stack = [R.Task(R.T_END, -1, 0, 0), R.Task(R.D_RETREAT, 0, C.SOLDIER, 0)]
    s._run()
    opts = [a - R.RETREAT0 for a in s.legal_actions()]
    assert C.ETHER_BOX not in opts
    assert all(b not in opts for b in (C.forest_box(0), C.mine_box(1), C.mine_box(3)))
    assert opts == sorted([C.mountain_box(0), C.forest_box(1), C.mine_box(2), C.forest_box(3)])


def test_conflict_at_end_of_action_not_when_units_cross():
    """Reveal and Perform, Ex 1: François goes to the Mountain while Alexis leaves it in the
    same action: no conflict. Ex 2: Alexis stays: the conflict is resolved at the end of that
    action, before the next one."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 4)  # Hivalia A: Hivalia before Reces
    clear_board(s)
    set_hand(s, 0)
    set_hand(s, 1)
    place(s, 0, soldier=C.forest_box(0))   # François
    place(s, 1, soldier=C.mountain_box(0))  # Alexis
    s.program = [[space(C.MOVE, 0)], [space(C.MOVE, 1)]]  # to yellow / to green
    at(s, R.Task(R.T_STEP, -1, 0, 0))
    assert s.current_player() == 1  # Hivalia first
    s.apply_action(move_unit(C.SOLDIER, C.forest_box(0)))  # Alexis leaves (crossing François)
    s.apply_action(move_unit(C.SOLDIER, C.mountain_box(0)))
    assert s.is_terminal() and s.battle is None and s.vt == [[0] * 5, [0] * 5]
    # Ex 2: Alexis does not move; the conflict comes before action 2
    s = make(("Reces", "Hivalia"))
    set_season(s, 4)
    clear_board(s)
    set_hand(s, 0)
    set_hand(s, 1)
    place(s, 0, soldier=C.forest_box(0))
    place(s, 1, soldier=C.mountain_box(0))
    s.program = [[space(C.MOVE, 0), space(C.GATHER, 0)], [space(C.UPGRADE, 3), space(C.GATHER, 1)]]
    set_resources(s, 1)
    s.rng = Dice([1, 1, 6])  # Reces (lower initiative, level 2) rolls first, then Hivalia
    at(s, R.Task(R.T_STEP, -1, 0, 0))
    s.apply_action(act("GAIN_RESOURCE", C.WOOD))  # Alexis cannot pay his Guide: 1 resource
    s.apply_action(move_unit(C.SOLDIER, C.mountain_box(0)))
    assert s.decision() == R.D_RETREAT and s.step == 0  # resolved before action 2
    assert s.vt[0][C.VT_SOLDIER] == 0 and s.vt[1][C.VT_SOLDIER] == 1


def test_several_conflicts_highest_initiative_affected_player_chooses_order():
    """Clarifications: the affected player with the highest initiative decides the order."""
    s = make(("Reces", "Ertis", "Psolos"))
    set_season(s, 0)  # Reces A: Reces, Ertis, ..., Psolos
    clear_board(s)
    set_hand(s, 0)
    set_hand(s, 1)
    set_hand(s, 2)
    place(s, 1, soldier=C.forest_box(0), gatherer=C.forest_box(2))
    place(s, 2, soldier=C.forest_box(2), gatherer=C.forest_box(0))
    set_resources(s, 1, wood=2)
    set_resources(s, 2, wood=2)
    at(s, CONFLICTS)
    assert s.decision() == R.D_CHOOSE_CONFLICT and s.current_player() == 1
    assert s.legal_actions() == [act("CHOOSE_CONFLICT", C.forest_box(0)), act("CHOOSE_CONFLICT", C.forest_box(2))]
    s.apply_action(act("CHOOSE_CONFLICT", C.forest_box(2)))
    assert s.decision() == R.D_TAKE and s.current_player() == 2  # Psolos pillages first


def test_levels_never_below_one_and_shield_keeps_level():
    """Units: levels cannot be reduced below 1; Shield card (ETM-A5): no level loss."""
    s = _assault_example()
    s.lvl[1][C.SOLDIER] = 1
    set_hand(s, 0, shield=1)
    set_hand(s, 1)
    s.rng = Dice([6, 1, 1])  # B: 6 + Guide 2 = 8; A: 1 + 1 + 3 = 5
    at(s, CONFLICTS)
    assert s.current_player() == 0 and act("PLAY_FLASH", C.F_SHIELD) in s.legal_actions()
    s.apply_action(act("PLAY_FLASH", C.F_SHIELD))
    assert s.decision() == R.D_RETREAT and s.current_player() == 0  # lost
    assert s.lvl[0][C.SOLDIER] == 2  # kept its level (Shield)
    assert s.lvl[1][C.SOLDIER] == 1  # level 1 is the minimum


def test_no_conflict_resolved_before_phase_five_then_after_first_action():
    """Clarifications: conflicts are not resolved during phases 1 to 4, only at the end of an action."""
    s = make(("Reces", "Hivalia"))
    clear_board(s)
    place(s, 0, soldier=C.forest_box(1))
    place(s, 1, soldier=C.forest_box(1))
    s.stack = [R.Task(R.T_END, -1, 0, 0), R.Task(R.T_SEASON, -1, 1, 0)]
    s._run()
    not_moves = [R.PROGRAM0 + x for x in range(C.NUM_SPACES) if C.SPACES[x][0] != C.MOVE]
    while s.phase < R.P_PERFORM:
        assert s.battle is None and s.conflict_boxes() == [C.forest_box(1)]
        legal = s.legal_actions()
        s.apply_action(next(a for a in legal if a in not_moves) if s.decision() == R.D_PROGRAM else legal[0])
    while s.battle is None:
        assert s.step == 0
        s.apply_action(s.legal_actions()[0])
    assert s.step == 0 and s.acting[0] == s.order[-1]  # right after the last player's action 1


def test_player_with_more_tokens_acts_alone_in_the_last_step():
    """Reveal and Perform: with more actions (Booster), a player takes its final action(s) alone."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 6)
    clear_board(s)
    set_hand(s, 0)
    set_hand(s, 1)
    set_resources(s, 0)
    set_resources(s, 1)
    s.program = [[space(C.UPGRADE, 0), space(C.UPGRADE, 1)], [space(C.UPGRADE, 0)]]
    at(s, R.Task(R.T_STEP, -1, 1, 0))
    assert s.step == 1 and s.current_player() == 0  # only seat 0 has a second token
    s.apply_action(act("GAIN_RESOURCE", C.WOOD))
    assert s.is_terminal() and s.res[1] == [0] * 5
