"""Rulebook "Overview", "Determine Turn Order", "Set up the Grid", "Placing the Group Token"."""

import numpy as np
import pytest

from ether_envs.aethermon_collect import Game
from ether_envs.aethermon_collect import rules as R

from .builders import assert_cannot, move, new_state, play, sq


def _grid_cards(s):
    return sorted(int(c) for c in s.board if c >= 0)


def _element_cards(s):
    return sorted(e * 6 + k for e in s.elements for k in range(6))


@pytest.mark.parametrize("n", [1, 5])
def test_players_outside_two_to_four_raises(n):
    """Overview: "a 2-4 player set-collection game"."""
    with pytest.raises(ValueError):
        Game(num_players=n)


def test_mode_unknown_raises():
    """Overview: "played as either a co-operative game or as a competitive game"."""
    with pytest.raises(ValueError):
        Game(mode="solo")
    assert Game(mode="cooperative").config.cooperative
    assert not Game().config.cooperative


def test_grid_two_players_5x5_four_elements_centre_vacant():
    """Set up the Grid: "2 Players, 4 Elements, 5x5 Grid*", "* Leave the centre position vacant";
    "all 6 of these Aethermon must be used"."""
    s = Game(num_players=2).new_initial_state(3)
    assert s.game.side == 5 and len(s.elements) == 4
    assert s.board[sq("c3")] == -1
    in_grid = [r * 7 + c for r in range(5) for c in range(5)]
    assert all(s.board[q] >= 0 for q in in_grid if q != sq("c3"))
    assert all(s.board[q] == -1 for q in range(49) if q not in in_grid)
    assert _grid_cards(s) == _element_cards(s)  # every card of the 4 Elements, once


def test_grid_three_players_6x6_six_elements_no_vacant_square():
    """Set up the Grid: "3 Players, 6 Elements, 6x6 Grid" (no asterisk: every square holds a card)."""
    s = Game(num_players=3).new_initial_state(4)
    assert s.game.side == 6 and len(s.elements) == 6
    in_grid = [r * 7 + c for r in range(6) for c in range(6)]
    assert all(s.board[q] >= 0 for q in in_grid)
    assert _grid_cards(s) == _element_cards(s)


def test_grid_four_players_7x7_eight_elements_centre_vacant():
    """Set up the Grid: "4 Players, 8 Elements, 7x7 Grid*", centre vacant."""
    s = Game(num_players=4).new_initial_state(5)
    assert s.game.side == 7 and s.elements == list(range(8))
    assert s.board[sq("d4")] == -1
    assert _grid_cards(s) == list(range(48))


def test_grid_random_distribution_differs_between_seeds():
    """Set up the Grid: "Randomly distribute all Aethermon face-up in a square grid"."""
    boards = {tuple(Game(num_players=4).new_initial_state(seed).board) for seed in range(5)}
    assert len(boards) == 5


def test_elements_chosen_in_config_are_the_ones_used():
    """Set up the Grid: "any of the 8 available Elements ... may be chosen" (AC-A3)."""
    s = Game(num_players=2, elements=("Fire", "Water", "Nature", "Thunder")).new_initial_state(0)
    assert s.elements == [4, 5, 6, 7]
    assert _grid_cards(s) == list(range(24, 48))


def test_elements_wrong_count_for_players_raises():
    """Set up the Grid: the table fixes the number of Elements (2 players: 4)."""
    with pytest.raises(ValueError):
        Game(num_players=2, elements=("Fire", "Water", "Nature"))
    with pytest.raises(ValueError):
        Game(num_players=2, elements=("Fire", "Fire", "Nature", "Sky"))


def test_turn_order_highest_deal_total_is_first():
    """Determine Turn Order: "dealing each player 3 random Aethermon ... the player with the highest
    total value is first"; "In the case of a tie, continue to draw additional Aethermon" (AC-A4)."""
    saw_tie = False
    for seed in range(40):
        s = Game(num_players=4).new_initial_state(seed)
        first = s.first_player
        base = [sum(d[:3]) for d in s.deal]
        assert all(len(d) >= 3 and all(1 <= v <= 4 for v in d) for d in s.deal)
        assert base[first] == max(base)
        tied = [p for p in range(4) if base[p] == max(base)]
        if len(tied) == 1:
            assert all(len(d) == 3 for d in s.deal)
        else:
            saw_tie = True
            assert all(len(s.deal[p]) == 3 for p in range(4) if p not in tied)  # only tied players draw
            totals = [sum(d) for d in s.deal]
            assert totals[first] == max(totals[p] for p in tied)
            assert sum(totals[p] == totals[first] for p in tied) == 1
    assert saw_tie


def test_turn_order_play_proceeds_clockwise_from_first_player():
    """Determine Turn Order: "Play proceeds clockwise from the player who is first in the turn order"
    (seat + 1 is the player to the left)."""
    s = new_state(2, num_players=4, artefacts="none")
    order = []
    for _ in range(6):
        order.append(s.current_player())
        play(s, s.legal_actions()[0])
    f = s.first_player
    assert order == [(f + i) % 4 for i in range(6)]


def test_group_token_two_players_starts_on_empty_centre():
    """Placing the Group Token: "In a 2-player or 4-player game, place the Group Token in the empty
    centre space"."""
    assert new_state(0).token == sq("c3")
    assert new_state(0, num_players=4).token == sq("d4")


def test_group_token_three_players_last_player_chooses_a_corner():
    """Placing the Group Token: "In a 3-player game, the player who is LAST in the turn order chooses
    one of the four corner squares"."""
    for i, corner in enumerate(("a1", "f1", "a6", "f6")):
        s = new_state(7, num_players=3)
        assert s.phase == R.PLACE_TOKEN
        assert s.current_player() == (s.first_player - 1) % 3
        assert s.legal_actions() == [R.PLACE0 + k for k in range(4)]
        play(s, R.PLACE0 + i)
        assert s.token == sq(corner)
        assert s.board[sq(corner)] >= 0  # the corner card stays under the token


def test_group_token_three_players_other_players_cannot_place():
    """Placing the Group Token: only the LAST player chooses; nobody moves before the token is placed."""
    s = new_state(7, num_players=3)
    last = (s.first_player - 1) % 3
    for p in range(3):
        if p != last:
            assert s.legal_actions(p) == []
    assert_cannot(s, move("a1"))


def test_group_token_three_players_draft_follows_placement():
    """Drafting Artefacts after set-up: the LAST player, who placed the token, drafts first."""
    s = new_state(7, num_players=3)
    last = s.current_player()
    play(s, R.PLACE0 + 3)
    assert s.phase == R.DRAFT and s.current_player() == last


def test_no_hidden_information_base_game_everything_visible():
    """No Hidden Information: "all cards should be visible throughout the game to all players"; the
    Artefacts are face up."""
    g = Game(num_players=3)
    assert not g.has_hidden_information()
    s = g.new_initial_state(1)
    obs = [s.observation_tensor(p) for p in range(3)]
    view = g.layout.views
    for p in range(3):
        v = view(obs[p])
        assert v["draft_groups"].sum() == 6  # every Artefact of the 3 pairs is readable
        assert v["squares"][:, 2].sum() == 36  # every card on the grid
    assert np.array_equal(view(obs[0])["squares"][:, :16], view(obs[1])["squares"][:, :16])
