"""Season card effects (ETM-A4), Ability tokens (ETM-A8) and roll-window Flash cards (ETM-A5, A6)."""

from ether_envs.etherium import components as C
from ether_envs.etherium import rules as R

from .builders import (Dice, act, at, clear_board, gather, make, perform, place, set_hand, set_resources, set_season,
                       space)

CONFLICTS = R.Task(R.T_CONFLICTS, -1, 0, 0)


def test_season_a_cards_add_to_gathering_on_their_terrain():
    """Reces A +2 Metal on Mines; Psolos A +2 Stone on Mountains; Hivalia A +1 Ether on Ether."""
    for card, box, terrain, r, expected in ((0, C.mine_box(0), C.MINE, C.METAL, 3),
                                            (8, C.mountain_box(1), C.MOUNTAIN, C.STONE, 3),
                                            (4, C.ETHER_BOX, C.ETHER_TERRAIN, C.ETHER, 2)):
        s = make(("Hivalia", "Ertis"))  # neither tribe adds anything here
        set_season(s, card)
        clear_board(s)
        place(s, 0, gatherer=box)
        set_resources(s, 0)
        gather(s, 0, terrain)
        assert s.res[0][r] == expected, C.SEASON_NAMES[card]


def test_ertis_b_gatherers_collect_one_less_minimum_one():
    s = make(("Hivalia", "Reces"))
    set_season(s, C.ERTIS_B)
    clear_board(s)
    set_resources(s, 0)
    gather(s, 0, C.MINE)
    assert s.res[0][C.METAL] == 1  # level 1: minimum 1
    s.lvl[0][C.GATHERER] = 3
    set_resources(s, 0)
    gather(s, 0, C.MINE)
    assert s.res[0][C.METAL] == 2


def test_hivalia_b_etherization_costs_one_more_and_psolos_b_guard_one_more_stone():
    s = make(("Ertis", "Reces"))
    set_season(s, C.HIVALIA_B)
    assert s.etherization_rate(0) == 4
    set_season(s, C.PSOLOS_B)
    assert s.upgrade_cost(0, C.GUARD)[C.STONE] == 2 + 1


def test_reces_b_soldiers_minus_one_and_t6_a_first_move_free_step():
    s = make(("Ertis", "Psolos"))
    set_season(s, C.RECES_B)
    assert s.conflict_modifier(0, C.SOLDIER) == 0 - 1
    assert s.conflict_modifier(1, C.GUARD) == 1  # Guards are not Soldiers: Guide only
    set_season(s, C.T6_A)
    clear_board(s)
    assert (C.GATHERER, C.mountain_box(0)) in s.move_options(0, 0)  # Mine0 -> Forest0 -> Mountain0


def test_meinas_a_every_player_draws_one_more():
    s = make(("Ertis", "Psolos"))
    set_season(s, C.MEINAS_A)
    before = [s.hand_size(p) for p in range(2)]
    at(s, R.Task(R.T_DRAW, -1, 0, 0))
    assert [s.hand_size(p) - before[p] for p in range(2)] == [2, 2]


def test_ability_harvester_pathfinder_archivist():
    """Harvester +1 on Gather; Pathfinder a free step on every Move; Archivist one more card a season."""
    s = make(("Hivalia", "Reces"))
    set_season(s, C.MEINAS_B)
    clear_board(s)
    s.ability[0] = C.A_HARVESTER
    set_resources(s, 0)
    gather(s, 0, C.MINE)
    assert s.res[0][C.METAL] == 2
    s.ability[0] = C.A_PATHFINDER
    assert (C.GATHERER, C.mountain_box(0)) in s.move_options(0, 0)
    s.ability[0] = C.A_ARCHIVIST
    before = s.hand_size(0)
    at(s, R.Task(R.T_DRAW, -1, 0, 0))
    assert s.hand_size(0) == before + 2


def test_ability_warlord_pays_metal_for_plus_one_in_conflict_roll():
    s = make(("Psolos", "Hivalia"))
    set_season(s, C.ERTIS_B)
    clear_board(s)
    place(s, 0, soldier=C.forest_box(1))
    place(s, 1, soldier=C.forest_box(1))
    s.ability[1] = C.A_WARLORD
    s.lvl[0][C.GUIDE] = 0
    set_resources(s, 1, metal=1)
    set_hand(s, 0)
    set_hand(s, 1)
    assert s.order == [1, 0]  # Ertis B: Hivalia before Psolos, so Psolos rolls first
    s.rng = Dice([3, 3])
    at(s, CONFLICTS)
    assert s.current_player() == 1 and R.USE_ABILITY in s.legal_actions()
    s.apply_action(R.USE_ABILITY)  # 3 + 1 beats 3
    assert s.res[1][C.METAL] == 0
    assert s.vt[1][C.VT_SOLDIER] == 1


def test_ability_oracle_pays_wood_for_plus_one_on_connect():
    s = make(("Psolos", "Hivalia"))
    set_season(s, C.MEINAS_B)
    s.ability[0] = C.A_ORACLE
    s.lvl[0][C.GUIDE] = 0
    set_resources(s, 0, wood=2)
    set_hand(s, 0)
    s.rng = Dice([5])
    perform(s, 0, space(C.CONNECT, 0))
    s.apply_action(R.USE_ABILITY)
    assert s.decision() == R.D_CONNECT_RESULT  # once per roll: the window closed
    assert s.legal_actions() == [act("CHOOSE_RESULT", 5)]
    assert s.res[0][C.WOOD] == 1


def test_ability_bastion_guard_rolls_one_more_die():
    s = make(("Ertis", "Psolos"))
    set_season(s, 2)
    clear_board(s)
    place(s, 0, soldier=C.city_box(2))
    s.ability[1] = C.A_BASTION
    set_hand(s, 0)
    set_hand(s, 1)
    s.rng = Dice([1, 1, 1, 6])  # Guard level 2 + Bastion = 3 dice (3 + Guide 1), then the Soldier (6)
    at(s, CONFLICTS)
    assert s.rng.faces == []
    assert s.decision() == R.D_SPOIL and s.current_player() == 0


def test_flash_reroll_and_extra_die_in_a_roll_window():
    """Re-roll card: re-roll one of your dice (you pick its face); Extra die: one more die."""
    s = make(("Psolos", "Hivalia"))
    set_season(s, C.MEINAS_B)
    s.lvl[0][C.GUIDE] = 0
    set_hand(s, 0, reroll=1, extra_die=1)
    s.rng = Dice([2, 6, 4])
    perform(s, 0, space(C.CONNECT, 0))
    s.apply_action(act("PLAY_FLASH", C.F_REROLL))
    assert s.decision() == R.D_REROLL and s.legal_actions() == [act("REROLL_DIE", 1)]
    s.apply_action(act("REROLL_DIE", 1))
    assert s.roll_dice == [6]
    s.apply_action(act("PLAY_FLASH", C.F_EXTRA_DIE))
    assert s.roll_dice == [6, 4]
    assert s.legal_actions() == [act("CHOOSE_RESULT", 9)]
