"""Rulebook "1- Reveal a New Season", "2- Draw a Flash Card", "3- Play Flash Cards",
"4- Program Actions" (windows: ETM-A10)."""

import pytest

from ether_envs.etherium import components as C
from ether_envs.etherium import rules as R

from .builders import (Dice, act, at, clear_board, gather, make, move_unit, perform, place, set_hand, set_resources,
                       set_season, space)


def _to(state, kind):
    """Play the first legal action until the decision ``kind`` is pending."""
    while state.decision() != kind:
        state.apply_action(state.legal_actions()[0])
    return state


def test_draw_phase_each_player_draws_one_flash_card():
    """2- Draw a Flash Card: each player draws one (Ertis also holds its setup card, ETM-A3)."""
    s = make(("Reces", "Psolos"))
    assert [s.hand_size(p) for p in range(2)] == [1, 1]
    assert len(s.deck) == 42
    s = make(("Ertis", "Psolos"))
    assert s.hand_size(0) == 2


def test_phase3_window_plays_season_cards_in_initiative_order():
    """3- Play Flash Cards: Season cards only in phase 3; played in initiative order."""
    s = make(("Reces", "Psolos"))
    set_season(s, 6)
    set_hand(s, 0, two_resources=1, plus1=1)
    set_hand(s, 1, ether=1)
    set_resources(s, 0)
    at(s, R.Task(R.D_WINDOW, 0, R.W_SEASON, 0), R.Task(R.D_WINDOW, 1, R.W_SEASON, 0))
    first = s.order[0]
    assert s.current_player() == first
    s = make(("Reces", "Psolos"))
    set_season(s, 6)
    set_hand(s, 0, two_resources=1, plus1=1)
    set_resources(s, 0)
    at(s, R.Task(R.D_WINDOW, 0, R.W_SEASON, 0))
    assert s.legal_actions() == [act("PASS"), act("PLAY_FLASH", C.S_TWO_RESOURCES)]  # +1 is for rolls
    s.apply_action(act("PLAY_FLASH", C.S_TWO_RESOURCES))
    s.apply_action(act("GAIN_RESOURCE", C.WOOD))
    s.apply_action(act("GAIN_RESOURCE", C.METAL))
    assert s.res[0][:3] == [1, 0, 1] and s.discard[C.S_TWO_RESOURCES] == 1
    assert s.decision() == R.D_WINDOW  # back in the window: may play more or pass
    s.apply_action(act("PASS"))
    assert s.is_terminal()


def test_season_card_not_playable_in_a_roll_window():
    """Season symbol: only playable during phase 3."""
    s = make(("Reces", "Psolos"))
    set_season(s, 6)
    set_hand(s, 0, march=1, plus1=1)
    s.rng = Dice([3])
    perform(s, 0, space(C.CONNECT, 0))
    assert s.decision() == R.D_WINDOW
    assert act("PLAY_FLASH", C.S_MARCH) not in s.legal_actions()
    with pytest.raises(ValueError):
        s.apply_action(act("PLAY_FLASH", C.S_MARCH))
    s.apply_action(act("PLAY_FLASH", C.F_PLUS1))
    assert s.roll_total() == 4


def test_flash_resource_card_before_your_action_makes_it_payable():
    """Flash symbol: playable any time, e.g. in the window before your action (ETM-A10)."""
    s = make(("Reces", "Psolos"))
    set_season(s, 6)
    set_hand(s, 0, resource=1)
    set_resources(s, 0, wood=1)
    s.program = [[space(C.UPGRADE, C.GATHERER)], []]
    at(s, R.Task(R.T_ACT, 0, 0, 0))
    assert s.decision() == R.D_WINDOW and s.stack[-1][2] == R.W_ACTION
    s.apply_action(act("PLAY_FLASH", C.F_RESOURCE))
    s.apply_action(act("GAIN_RESOURCE", C.WOOD))
    assert s.lvl[0][C.GATHERER] == 2 and s.res[0][C.WOOD] == 0


def test_window_offered_to_any_card_holder_even_with_nothing_playable():
    """ETM-A10: a window is offered whenever you hold a Flash card, so that being asked
    reveals nothing about your hand; with no card it is skipped."""
    s = make(("Reces", "Psolos"))
    set_season(s, 6)
    set_hand(s, 0, plus1=1)
    at(s, R.Task(R.D_WINDOW, 0, R.W_SEASON, 0))
    assert s.legal_actions() == [act("PASS")]
    set_hand(s, 0)
    at(s, R.Task(R.D_WINDOW, 0, R.W_SEASON, 0))
    assert s.is_terminal()


def test_window_allows_at_most_six_plays():
    """ETM-A7: at most 6 cards per window (draw effects could otherwise cycle forever)."""
    s = make(("Reces", "Psolos"))
    set_season(s, 6)
    set_hand(s, 0, march=4, harvest=4)
    at(s, R.Task(R.D_WINDOW, 0, R.W_SEASON, 0))
    for _ in range(6):
        s.apply_action(s.legal_actions()[-1])
    assert s.legal_actions() == [act("PASS")]


def test_season_cards_march_harvest_craft_insight():
    """Season cards (ETM-A5): March = free step on the next Move; Harvest = +1 on the next
    Gather; Craft = next upgrade 1 cheaper; Insight = draw 2."""
    s = make(("Reces", "Psolos"))
    set_season(s, 6)
    clear_board(s)
    place(s, 0, gatherer=C.mine_box(0), soldier=C.mine_box(0))
    assert s.move_options(0, 0) == []  # Mountain: two steps up
    s.march[0] = 1
    assert (C.GATHERER, C.mountain_box(0)) in s.move_options(0, 0)
    perform(s, 0, space(C.MOVE, 0))
    s.apply_action(move_unit(C.GATHERER, C.mountain_box(0)))
    assert s.march[0] == 0
    s.harvest[0] = 1
    set_resources(s, 0)
    gather(s, 0, C.MOUNTAIN)
    assert s.res[0][C.STONE] == 2 and s.harvest[0] == 0
    s.craft[0] = 1
    set_resources(s, 0, metal=2)
    perform(s, 0, space(C.UPGRADE, C.SOLDIER))  # Reces Soldier 2 -> 3: X-1 = 2, Craft -1 = 1
    assert s.lvl[0][C.SOLDIER] == 3 and s.res[0][C.METAL] == 1
    set_hand(s, 0, insight=1)
    at(s, R.Task(R.D_WINDOW, 0, R.W_SEASON, 0))
    s.apply_action(act("PLAY_FLASH", C.S_INSIGHT))
    assert s.hand_size(0) == 2


def test_hand_limit_six_discard_at_season_change():
    """Draw a Flash Card: when changing seasons, discard down to six (Archivist: seven, ETM-A8)."""
    s = make(("Reces", "Psolos"))
    set_season(s, 6)
    set_hand(s, 0, plus1=6, plus2=2)
    set_hand(s, 1, plus1=0, shield=3)
    s.stack = [R.Task(R.T_END, -1, 0, 0)]
    s.deck = [C.F_RESOURCE] * 4  # the next season's draws hold no +2 card
    s._h_season_end(R.Task(R.T_SEASON_END, -1, 1, 0))
    s._run()
    assert s.decision() == R.D_DISCARD and s.current_player() == 0 and s.stack[-1][2] == 2
    s.apply_action(act("DISCARD_FLASH", C.F_PLUS2))
    assert s.hand_size(0) == 7 and s.stack[-1][2] == 1
    s.apply_action(act("DISCARD_FLASH", C.F_PLUS2))
    assert s.discard[C.F_PLUS2] == 2 and s.hand[0][C.F_PLUS2] == 0
    assert s.season == 2  # then the next season is revealed and draws its card(s)
    assert s.hand_size(0) == 6 + 1 + (1 if s.seasons[2] == C.MEINAS_A else 0)
    s.ability[0] = C.A_ARCHIVIST
    assert s.hand_limit(0) == 7


def test_empty_deck_reshuffles_discard_pile():
    """Draw: if the deck is empty, shuffle the discard pile to make a new deck."""
    s = make(("Reces", "Psolos"))
    s.deck = []
    s.discard = [0] * C.NUM_FLASH_TYPES
    s.discard[C.F_PLUS1] = 2
    before = s.hand_size(0)
    assert s._draw(0, 3) == 2
    assert s.hand_size(0) == before + 2 and s.deck == [] and not any(s.discard)


def test_resource_ability_and_meinas_b_reveal_action_in_initiative_order():
    """Triggering abilities at the start of the season (Resource ability); Meinas B optional
    reveal action (ETM-A4): discard 1 Flash card to gain 1 basic resource."""
    s = make(("Reces", "Psolos"))
    s.ability[1] = C.A_RESOURCE
    set_hand(s, 0, plus1=1)
    set_hand(s, 1)
    s.seasons[1] = C.MEINAS_B
    s.stack = [R.Task(R.T_END, -1, 0, 0), R.Task(R.T_SEASON, -1, 1, 0)]
    s._run()
    assert s.decision() == R.D_MEINAS and s.current_player() == 0  # seat 1 holds no card
    assert s.legal_actions() == [act("PASS"), act("DISCARD_FLASH", C.F_PLUS1)]
    s.apply_action(act("DISCARD_FLASH", C.F_PLUS1))
    assert s.decision() == R.D_GAIN and s.current_player() == 0
    assert R.PASS not in s.legal_actions()  # the card was discarded "to gain 1 basic resource"
    s.apply_action(act("GAIN_RESOURCE", C.WOOD))
    assert s.decision() == R.D_GAIN and s.current_player() == 1  # Resource ability
    assert R.PASS in s.legal_actions()  # it "lets you take 1 basic resource" (ETM-A33)
    s.apply_action(act("GAIN_RESOURCE", C.WOOD))


def test_program_one_token_per_space_in_order():
    """4- Program Actions: tokens 1..4 placed in order, one per space."""
    s = _to(make(("Reces", "Psolos")), R.D_PROGRAM)
    p = s.current_player()
    s.apply_action(act("PROGRAM", space(C.GATHER, C.MOUNTAIN)))
    assert act("PROGRAM", space(C.GATHER, C.MOUNTAIN)) not in s.legal_actions()
    with pytest.raises(ValueError):
        s.apply_action(act("PROGRAM", space(C.GATHER, C.MOUNTAIN)))
    for sp in (space(C.MOVE, 1), space(C.UPGRADE, 0), space(C.CONNECT, 0)):
        s.apply_action(act("PROGRAM", sp))
    assert s.program[p] == [space(C.GATHER, C.MOUNTAIN), space(C.MOVE, 1), space(C.UPGRADE, 0),
                            space(C.CONNECT, 0)]
    assert s.current_player() != p


def test_token_gained_during_season_not_usable_until_next_season():
    """Program Actions: an Action token gained during the season waits for the next season."""
    s = _to(make(("Reces", "Psolos")), R.D_PROGRAM)
    s.res[0][C.BOOSTER] = 1
    assert s.ntok[0] == 4
    for _ in range(4):
        s.apply_action(s.legal_actions()[0])
    assert len(s.program[s.order[0]]) == 4
