"""Rulebook "Actions": Move Unit, Gather Resources, Increase Unit Level, Transform Ether, Connect,
and "an action that cannot be performed gives 1 basic resource"."""

import pytest

from ether_envs.etherium import components as C
from ether_envs.etherium import rules as R

from .builders import (Dice, act, at, clear_board, gather, make, move_unit, perform, place, set_resources, set_season,
                       space)

BLUE, RED, GREEN, YELLOW, CITY = 3, 2, 1, 0, 4


def test_move_forest_to_mine_to_ether_rulebook_example():
    """Move Unit example: Forest (green) -> Mine (red, descending: bonus move) -> Ether (blue)."""
    s = make()
    clear_board(s)
    place(s, 0, gatherer=C.forest_box(0))
    perform(s, 0, space(C.MOVE, BLUE))
    assert s.decision() == R.D_MOVE
    assert move_unit(C.GATHERER, C.ETHER_BOX) in s.legal_actions()
    s.apply_action(move_unit(C.GATHERER, C.ETHER_BOX))
    assert s.pos[0][C.GATHERER] == C.ETHER_BOX


def test_move_unit_chosen_at_execution_changes_destination():
    """Move Unit: the unit is chosen while performing, even if it alters the destination space."""
    s = make()
    clear_board(s)
    place(s, 0, gatherer=C.mountain_box(0), soldier=C.mountain_box(1))
    perform(s, 0, space(C.MOVE, GREEN))
    legal = s.legal_actions()
    assert move_unit(C.GATHERER, C.forest_box(0)) in legal
    assert move_unit(C.SOLDIER, C.forest_box(1)) in legal
    s.apply_action(move_unit(C.SOLDIER, C.forest_box(1)))
    assert s.pos[0] == [C.mountain_box(0), C.forest_box(1)]


def test_move_no_bonus_after_climbing_cannot_reach_two_steps_up():
    """Move Unit: bonus moves only while descending; Mine -> Forest (up) ends the move."""
    s = make()
    clear_board(s)
    place(s, 0, gatherer=C.mine_box(0), soldier=C.mine_box(0))
    perform(s, 0, space(C.MOVE, YELLOW))  # a Mountain is two steps up: unreachable
    assert s.decision() == R.D_GAIN  # cannot perform -> gain 1 basic resource
    assert move_unit(C.GATHERER, C.mountain_box(0)) not in s.legal_actions()
    with pytest.raises(ValueError):
        s.apply_action(move_unit(C.GATHERER, C.mountain_box(0)))


def test_move_bonus_only_after_descending_step():
    """Move Unit: a descending step gives a bonus move; climbing ends the move."""
    s = make()
    clear_board(s)
    place(s, 0, gatherer=C.forest_box(1), soldier=C.forest_box(1))
    opts = s.move_options(0, BLUE)
    assert opts == [(C.GATHERER, C.ETHER_BOX), (C.SOLDIER, C.ETHER_BOX)]  # via Mine1 (down)
    assert (C.GATHERER, C.mine_box(0)) in s.move_options(0, RED)  # down to Mine1, then a bonus step
    yellow = s.move_options(0, YELLOW)
    assert (C.GATHERER, C.mountain_box(1)) in yellow  # up: the move ends there
    assert (C.GATHERER, C.mountain_box(0)) not in yellow


def test_move_soldier_enters_opponent_city_gatherer_cannot():
    """Siege: a Soldier enters an opponent's City (ETM-A2: Gatherers and own Cities never)."""
    s = make()
    clear_board(s)
    place(s, 0, gatherer=C.mountain_box(2), soldier=C.mountain_box(2))
    assert s.move_options(0, CITY) == [(C.SOLDIER, C.city_box(2))]
    place(s, 0, soldier=C.mountain_box(0))
    assert s.move_options(0, CITY) == []


def test_gather_level_two_gatherer_collects_two():
    """Gather Resources example: a level 2 Gatherer gathers 2 resources from its terrain."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 6)  # Meinas A: no gathering bonus
    clear_board(s)
    s.lvl[0][C.GATHERER] = 2
    place(s, 0, gatherer=C.mine_box(0))
    set_resources(s, 0)
    gather(s, 0, C.MINE)
    assert s.res[0] == [0, 0, 2, 0, 0]


def test_gather_limited_by_reserve():
    """Resources: you can't collect more than the reserve holds."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 6)
    clear_board(s)
    s.lvl[0][C.GATHERER] = 3
    place(s, 0, gatherer=C.mine_box(0))
    set_resources(s, 0)
    set_resources(s, 1, metal=15)
    gather(s, 0, C.MINE)
    assert s.res[0][C.METAL] == 1


def test_gather_ether_gives_victory_token_and_hivalia_two_basics():
    """Ether terrain: Ether cubes plus 1 Ether Victory token; Hivalia power: 2 basics when an enemy gathers Ether."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 6)
    clear_board(s)
    place(s, 0, gatherer=C.ETHER_BOX)
    set_resources(s, 0)
    set_resources(s, 1)
    gather(s, 0, C.ETHER_TERRAIN)
    assert s.res[0][C.ETHER] == 1 and s.vt[0][C.VT_ETHER] == 1
    assert s.current_player() == 1 and s.decision() == R.D_GAIN
    s.apply_action(act("GAIN_RESOURCE", C.WOOD))
    s.apply_action(act("GAIN_RESOURCE", C.STONE))
    assert s.res[1][:3] == [1, 1, 0]


def test_gather_tribe_powers_psolos_stone_ertis_wood():
    """Tribes: Psolos +1 Stone on every Gather; Ertis +1 Wood from Forests; Ertis season +2 Wood."""
    s = make(("Psolos", "Ertis"))
    set_season(s, 6)
    clear_board(s)
    place(s, 0, gatherer=C.forest_box(0))
    place(s, 1, gatherer=C.forest_box(2))
    set_resources(s, 0)
    set_resources(s, 1)
    gather(s, 0, C.FOREST)
    assert s.res[0][:3] == [1, 1, 0]
    gather(s, 1, C.FOREST)
    assert s.res[1][:3] == [2 + 1, 0, 0]  # Ertis Gatherer starts at level 2
    set_season(s, 2)  # Ertis A: affinity Ertis (+2 Wood) and the card's +2 Wood on Forests
    set_resources(s, 1)
    gather(s, 1, C.FOREST)
    assert s.res[1][C.WOOD] == 2 + 1 + 2 + 2


def test_gather_up_to_level_player_chooses_how_many():
    """Gather Resources: "They collect resources up to their level, plus any bonuses" (ETM-A30):
    the player takes none (PASS) to all of its level's cubes, no more than the reserve holds;
    the bonuses (here Psolos' extra Stone) are gathered in full first."""
    s = make(("Psolos", "Hivalia"))
    set_season(s, 6)  # Meinas A: no gathering bonus
    clear_board(s)
    s.lvl[0][C.GATHERER] = 3
    place(s, 0, gatherer=C.mine_box(0))
    set_resources(s, 0)
    perform(s, 0, space(C.GATHER, C.MINE))
    assert s.decision() == R.D_GATHER and s.current_player() == 0
    assert s.res[0] == [0, 1, 0, 0, 0]  # Psolos' Stone, a bonus
    assert s.legal_actions() == [R.PASS] + [act("CHOOSE_COUNT", k - 1) for k in (1, 2, 3)]
    with pytest.raises(ValueError):
        s.apply_action(act("CHOOSE_COUNT", 3))  # 4 cubes: more than the level
    s.apply_action(act("CHOOSE_COUNT", 1))  # 2 cubes
    assert s.res[0] == [0, 1, 2, 0, 0]
    gather(s, 0, C.MINE, take=0)  # none of the level's cubes: the bonus still comes
    assert s.res[0] == [0, 2, 2, 0, 0]
    set_resources(s, 1, metal=12)  # 2 Metal left in the reserve
    perform(s, 0, space(C.GATHER, C.MINE))
    assert s.legal_actions() == [R.PASS, act("CHOOSE_COUNT", 0), act("CHOOSE_COUNT", 1)]


def test_gather_taking_none_keeps_cubes_from_a_pillager():
    """Why "up to their level" is a decision (ETM-A30): an enemy Soldier has come onto the
    Gatherer's Mine this step, so the pillage after the step "steals any 2 basic resources" from
    its City; gathering nothing leaves the cubes in the reserve instead of handing them over."""
    for take, stolen in ((None, 2), (0, 0)):
        s = make(("Reces", "Ertis"))
        set_season(s, 6)
        clear_board(s)
        place(s, 1, gatherer=C.mine_box(1))
        place(s, 0, soldier=C.mine_box(1))
        set_resources(s, 0)
        set_resources(s, 1)
        gather(s, 1, C.MINE, take=take)
        assert s.res[1][C.METAL] == stolen
        at(s, R.Task(R.T_CONFLICTS, -1, 0, 0))
        while s.decision() in R.Task(R.D_TAKE, R.D_GAIN):  # Metal is all there is to steal; Reces' extra: Wood
            s.apply_action(s.legal_actions()[0])
        assert s.res[0][C.METAL] == stolen and s.res[1][:3] == [0, 0, 0]
        assert sum(s.res[0][:3]) == stolen + 1  # + Reces' extra basic from the reserve


def test_gather_ether_taking_none_gives_no_token_and_no_hivalia_gift():
    """Victory Tokens: Ether tokens are gained "when gathering Ether"; Hivalia takes its basics
    "each time any enemy gathers Ether": taking no Ether cube gathers no Ether (ETM-A32)."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 6)
    clear_board(s)
    place(s, 0, gatherer=C.ETHER_BOX)
    set_resources(s, 0)
    set_resources(s, 1)
    gather(s, 0, C.ETHER_TERRAIN, take=0)
    assert s.res[0] == [0] * 5 and s.vt[0][C.VT_ETHER] == 0
    assert s.decision() == -1 and s.res[1] == [0] * 5  # no Hivalia gift pending


def test_hivalia_can_take_up_to_two_basics_when_an_enemy_gathers_ether():
    """Hivalia Power: "can take two basic resources from the reserve" (ETM-A33): PASS stops."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 6)
    clear_board(s)
    place(s, 0, gatherer=C.ETHER_BOX)
    set_resources(s, 0)
    set_resources(s, 1)
    gather(s, 0, C.ETHER_TERRAIN)
    assert s.current_player() == 1 and s.decision() == R.D_GAIN
    assert s.legal_actions() == [R.PASS] + [act("GAIN_RESOURCE", r) for r in C.BASIC]
    s.apply_action(act("GAIN_RESOURCE", C.METAL))
    s.apply_action(R.PASS)
    assert s.res[1][:3] == [0, 0, 1] and s.decision() == -1


def test_gather_from_an_empty_reserve_cannot_be_performed():
    """Empty reserve (ETM-A32): the Gatherer "can gather resources from their current space" only
    while the reserve holds its resource ("Resources are limited"). With the Ether reserve
    empty no Ether is gathered: no Ether token, no Hivalia gift, no Psolos Stone ("when
    performing the Gather action"); the action cannot be performed, so the player "may gain
    any 1 basic resource from the reserve" instead. The same on a Mine without Metal."""
    s = make(("Psolos", "Hivalia"))
    set_season(s, C.HIVALIA_A)  # even its +1 Ether on the Ether terrain finds no cube
    clear_board(s)
    place(s, 0, gatherer=C.ETHER_BOX)
    set_resources(s, 0)
    set_resources(s, 1, ether=16)
    supply = s.vt_supply[:]
    perform(s, 0, space(C.GATHER, C.ETHER_TERRAIN))
    assert s.decision() == R.D_GAIN and s.current_player() == 0
    assert s.legal_actions() == [R.PASS] + [act("GAIN_RESOURCE", r) for r in C.BASIC]
    s.apply_action(act("GAIN_RESOURCE", C.WOOD))
    assert s.res[0] == [1, 0, 0, 0, 0] and s.vt[0][C.VT_ETHER] == 0 and s.vt_supply == supply
    assert s.decision() == -1 and s.res[1][:3] == [0, 0, 0]  # no Hivalia gift
    place(s, 0, gatherer=C.mine_box(0))
    set_resources(s, 1, metal=16)
    perform(s, 0, space(C.GATHER, C.MINE))
    assert s.decision() == R.D_GAIN and s.current_player() == 0


def test_cannot_perform_gives_nothing_when_every_basic_reserve_is_empty():
    """"They may gain any 1 basic resource from the reserve"; "You can't collect more than the
    number of resources in the reserve": with no basic cube left there is nothing to gain
    (ETM-A33), and the game goes on."""
    s = make()
    set_season(s, 6)
    clear_board(s)
    set_resources(s, 0)
    set_resources(s, 1, wood=16, stone=16, metal=16)
    perform(s, 0, space(C.GATHER, C.FOREST))  # the Gatherer is on a Mine
    assert s.decision() == -1 and s.res[0] == [0] * 5


def test_gather_wrong_terrain_cannot_perform_gains_one_basic():
    """Reveal and Perform: "If a player cannot perform their programmed action, for any reason,
    they may gain any 1 basic resource from the reserve" (ETM-A33: PASS declines it)."""
    s = make()
    set_season(s, 6)
    clear_board(s)
    set_resources(s, 0)
    perform(s, 0, space(C.GATHER, C.FOREST))  # the Gatherer is on a Mine
    assert s.decision() == R.D_GAIN and s.current_player() == 0
    assert s.legal_actions() == [R.PASS] + [act("GAIN_RESOURCE", r) for r in C.BASIC]
    s.apply_action(act("GAIN_RESOURCE", C.STONE))
    assert s.res[0] == [0, 1, 0, 0, 0]
    perform(s, 0, space(C.GATHER, C.FOREST))
    s.apply_action(R.PASS)  # "may": declined, nothing gained
    assert s.res[0] == [0, 1, 0, 0, 0] and s.decision() == -1


def test_increase_gatherer_two_to_three_costs_three_wood():
    """Increase Unit Level example: Gatherer 2 -> 3 at cost X costs 3 Wood."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 6)
    s.lvl[0][C.GATHERER] = 2
    set_resources(s, 0, wood=4)
    perform(s, 0, space(C.UPGRADE, C.GATHERER))
    assert s.lvl[0][C.GATHERER] == 3 and s.res[0][C.WOOD] == 1


def test_increase_cannot_pay_or_level_four_gains_one_basic():
    s = make(("Reces", "Hivalia"))
    set_season(s, 6)
    s.lvl[0][C.GATHERER] = 2
    set_resources(s, 0, wood=2)
    perform(s, 0, space(C.UPGRADE, C.GATHERER))
    assert s.lvl[0][C.GATHERER] == 2 and s.decision() == R.D_GAIN
    s.lvl[0][C.GUARD] = 4
    set_resources(s, 0, stone=9)
    perform(s, 0, space(C.UPGRADE, C.GUARD))
    assert s.lvl[0][C.GUARD] == 4 and s.decision() == R.D_GAIN


def test_increase_guide_costs_one_of_each_regardless_of_level():
    """Guides: 1 Wood, 1 Metal, 1 Stone, regardless of the new level; a tribe without one buys level 1."""
    s = make(("Ertis", "Reces"))
    set_season(s, 6)
    assert s.lvl[0][C.GUIDE] == 0
    set_resources(s, 0, wood=2, stone=2, metal=2)
    perform(s, 0, space(C.UPGRADE, C.GUIDE))
    perform(s, 0, space(C.UPGRADE, C.GUIDE))
    assert s.lvl[0][C.GUIDE] == 2 and s.res[0][:3] == [0, 0, 0]


def test_etherization_repeated_nine_basics_three_ether():
    """Transform Ether, Etherization example: any 9 basic resources give 3 Ether (rate 3)."""
    s = make(("Ertis", "Reces"))
    set_season(s, 6)
    set_resources(s, 0, wood=4, stone=3, metal=2)
    perform(s, 0, space(C.TRANSFORM, C.ETHERIZATION))
    assert act("PASS") not in s.legal_actions()  # at least one exchange
    for r in (C.WOOD, C.WOOD, C.WOOD, C.WOOD, C.STONE, C.STONE, C.STONE, C.METAL, C.METAL):
        s.apply_action(act("SPEND_RESOURCE", r))
    assert s.res[0] == [0, 0, 0, 3, 0]
    assert s.is_terminal()  # nothing left to pay: the action ended


def test_etherization_may_stop_between_exchanges():
    s = make(("Ertis", "Reces"))
    set_season(s, 6)
    set_resources(s, 0, wood=6)
    perform(s, 0, space(C.TRANSFORM, C.ETHERIZATION))
    for _ in range(3):
        s.apply_action(act("SPEND_RESOURCE", C.WOOD))
    assert act("PASS") in s.legal_actions()
    s.apply_action(act("PASS"))
    assert s.res[0] == [3, 0, 0, 1, 0]


def test_transform_cards_x_ether_for_x_cards():
    s = make(("Ertis", "Reces"))
    set_season(s, 6)
    set_resources(s, 0, ether=2)
    before = s.hand_size(0)
    perform(s, 0, space(C.TRANSFORM, C.CARDS))
    assert s.legal_actions() == [act("CHOOSE_COUNT", 0), act("CHOOSE_COUNT", 1)]
    s.apply_action(act("CHOOSE_COUNT", 1))
    assert s.hand_size(0) == before + 2 and s.res[0][C.ETHER] == 0


def test_transform_ability_only_one_held_and_costs_ether():
    """Ability: X Ether; players hold only one; 2 copies of each."""
    s = make(("Ertis", "Reces"))
    set_season(s, 6)
    set_resources(s, 0, ether=8)
    perform(s, 0, space(C.TRANSFORM, C.ABILITY))
    s.apply_action(act("CHOOSE_ABILITY", C.A_HARVESTER))
    assert s.ability[0] == C.A_HARVESTER and s.res[0][C.ETHER] == 4
    assert s.ability_supply[C.A_HARVESTER] == 1
    perform(s, 0, space(C.TRANSFORM, C.ABILITY))
    assert s.decision() == R.D_GAIN  # already holds one: cannot perform


def test_transform_booster_unlocks_tokens_and_third_takes_booster_token():
    """Booster: 3 Ether each; 1st unlocks token 5, 2nd token 6, 3rd takes the Booster token (4 VP)."""
    s = make(("Ertis", "Reces"))
    set_season(s, 6)
    set_resources(s, 0, ether=9)
    for k in range(3):
        perform(s, 0, space(C.TRANSFORM, C.BOOSTER_T))
    assert s.res[0][C.BOOSTER] == 3 and s.res[0][C.ETHER] == 0
    assert s.vt[0][C.VT_BOOSTER] == 1
    at_program = s
    at_program.stack = [R.Task(R.T_END, -1, 0, 0)]
    at_program._h_program_start(None)
    assert at_program.ntok[0] == 6


def test_hivalia_season_pays_one_fewer_ether():
    """Hivalia Season Bonus: one fewer Ether on Transform Ether."""
    s = make(("Hivalia", "Reces"))
    set_season(s, 4)  # Hivalia A
    set_resources(s, 0, ether=2)
    perform(s, 0, space(C.TRANSFORM, C.BOOSTER_T))
    assert s.res[0][C.BOOSTER] == 1 and s.res[0][C.ETHER] == 0


def test_connect_level_two_guide_roll_four_make_it_six_gains_ether():
    """Connect example: roll 4, Guide level 2 -> may make it 4, 5 or 6; 6 gains 1 Ether."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 6)  # no affinity for Reces
    s.lvl[0][C.GUIDE] = 2
    set_resources(s, 0)
    s.hand[0] = [0] * C.NUM_FLASH_TYPES
    s.rng = Dice([4])
    perform(s, 0, space(C.CONNECT, 0))
    assert s.decision() == R.D_CONNECT_RESULT
    assert s.legal_actions() == [act("CHOOSE_RESULT", r - 1) for r in (4, 5, 6)]
    s.apply_action(act("CHOOSE_RESULT", 5))
    assert s.res[0][C.ETHER] == 1


def test_connect_affinity_rolls_an_additional_die():
    """Connect: with the season's affinity, you may roll an additional die."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 0)  # Reces A: Reces has affinity
    s.hand[0] = [0] * C.NUM_FLASH_TYPES
    s.rng = Dice([6, 6])
    perform(s, 0, space(C.CONNECT, 0))
    assert s.decision() == R.D_CONNECT_DICE
    s.apply_action(act("CHOOSE_COUNT", 1))
    assert s.roll_dice == [6, 6]
    s.apply_action(s.legal_actions()[-1])  # result 12 (Guide 1 cannot go beyond 12)
    assert s.vt[0][C.VT_CONNECTION] == 1


def test_connect_table_lose_resources_and_steal():
    """Connection table: 1 lose any 4 resources; 5 steal 2 resources from 1 player."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 6)
    s.lvl[0][C.GUIDE] = 0
    s.hand[0] = [0] * C.NUM_FLASH_TYPES
    set_resources(s, 0, wood=1, metal=5)
    set_resources(s, 1, stone=3)
    s.rng = Dice([1])
    perform(s, 0, space(C.CONNECT, 0))
    s.apply_action(act("CHOOSE_RESULT", 0))
    for _ in range(4):
        s.apply_action(act("SPEND_RESOURCE", C.METAL))
    assert s.res[0][:3] == [1, 0, 1]
    s.rng = Dice([5])
    perform(s, 0, space(C.CONNECT, 0))
    s.apply_action(act("CHOOSE_RESULT", 4))
    s.apply_action(act("TARGET_PLAYER", 0))
    assert s.legal_actions() == [act("TAKE_RESOURCE", C.STONE)]
    s.apply_action(act("TAKE_RESOURCE", C.STONE))
    s.apply_action(act("TAKE_RESOURCE", C.STONE))
    assert s.res[0][C.STONE] == 2 and s.res[1][C.STONE] == 1


def test_connect_at_most_twice_per_season_and_once_in_t6_b():
    """Connect: only two times per season (ETM-A4: T6 B, once)."""
    s = make()
    set_season(s, 6)
    s.program[0] = [space(C.CONNECT, 0)]
    assert space(C.CONNECT, 1) in s.program_spaces(0)
    s.program[0] = [space(C.CONNECT, 0), space(C.CONNECT, 1)]
    assert all(C.SPACES[x][0] != C.CONNECT for x in s.program_spaces(0))
    set_season(s, C.T6_B)
    s.program[0] = [space(C.CONNECT, 0)]
    assert space(C.CONNECT, 1) not in s.program_spaces(0)


@pytest.mark.parametrize("result", [2, 3, 4, 6, 7, 8, 9, 10, 11, 12])
def test_connection_table_each_result(result):
    """Connection table rows 2-4 and 6-12 (rows 1 and 5: test_connect_table_lose_resources_and_steal)."""
    s = make(("Reces", "Hivalia"))
    set_season(s, 6)
    s.lvl[0][C.GUIDE] = 0
    s.lvl[0][C.SOLDIER] = 2
    s.hand[0] = [0] * C.NUM_FLASH_TYPES
    s.hand[0][C.F_PLUS1] = 1
    set_resources(s, 0, wood=3)
    s.rng = Dice([6, 6] if result > 6 else [result])
    perform(s, 0, space(C.CONNECT, 0))
    if result > 6:  # reach the result with +1 cards: give enough, then play them
        s.hand[0][C.F_PLUS1] = result - 6
        s.apply_action(act("PLAY_FLASH", C.F_PLUS1))
        for _ in range(result - 7):
            s.apply_action(act("PLAY_FLASH", C.F_PLUS1))
    else:
        s.apply_action(act("PASS"))
    assert s.legal_actions() == [act("CHOOSE_RESULT", result - 1)]
    hand = s.hand_size(0)
    s.apply_action(act("CHOOSE_RESULT", result - 1))
    if result == 2:
        s.apply_action(act("DISCARD_FLASH", C.F_PLUS1))
        assert s.hand_size(0) == hand - 1
    elif result == 3:
        s.apply_action(act("SPEND_RESOURCE", C.WOOD))
        s.apply_action(act("SPEND_RESOURCE", C.WOOD))
        assert s.res[0][C.WOOD] == 1
    elif result in (4, 10):
        assert s.hand_size(0) == hand + (1 if result == 4 else 2)
    elif result in (6, 8):
        assert s.res[0][C.ETHER] == (1 if result == 6 else 2)
    elif result == 7:
        for r in (C.STONE, C.STONE, C.METAL, C.WOOD):
            s.apply_action(act("GAIN_RESOURCE", r))
        assert s.res[0][:3] == [4, 2, 1]
    elif result == 9:
        assert s.lvl[0][C.SOLDIER] == 3 and s.res[0][C.METAL] == 0
    elif result == 11:
        assert s.res[0][C.BOOSTER] == 1
    else:
        assert s.vt[0][C.VT_CONNECTION] == 1
    assert s.is_terminal()
