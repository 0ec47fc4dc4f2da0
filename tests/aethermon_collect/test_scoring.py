"""Rulebook "How to read Aethermon Cards", "Scoring", "Competitive Tips" (12 points); Satchel (AC-A6)."""

import numpy as np
import pytest

from ether_envs.aethermon_collect import components as C
from ether_envs.aethermon_collect import rules as R

from .builders import assert_cannot, card, finish, move, play, position

M1, M2, M3 = (card("Moonlit", "trio", k) for k in (1, 2, 3))
MD1, MD2 = card("Moonlit", "duo", 1), card("Moonlit", "duo", 2)
M4 = card("Moonlit", "single")
S4, SD1 = card("Sunstruck", "single"), card("Sunstruck", "duo", 1)
MOON_TRIO, MOON_DUO, SUN_DUO = 0, 1, 3  # set ids: element * 2 + line


def _score(collections, **kw):
    return position(board={}, token="c3", collections=collections, **kw).scores()


def test_card_values_and_sets_match_assumption():
    """How to read Aethermon Cards: a value per card; 2 or 3 portrait circles = a set (AC-A2: per Element a
    trio 1+2+3, a duo 2+3, a single 4)."""
    assert [C.CARDS[c].value for c in (M1, M2, M3, MD1, MD2, M4)] == [1, 2, 3, 2, 3, 4]
    assert C.SET_CARDS[MOON_TRIO] == (M1, M2, M3) and C.SET_CARDS[MOON_DUO] == (MD1, MD2)
    assert C.CARDS[M4].set_id == -1


def test_scoring_tally_of_card_values():
    """Scoring: "Players tally the point value of each Aethermon in their collection"."""
    assert _score({0: [M1, S4, SD1], 1: [M2]}).tolist() == [7, 2]


def test_scoring_complete_trio_doubled_twelve_points():
    """Scoring: "If a player collects all of the Aethermon in a set, double the value of Aethermon in that
    set"; Competitive Tips: "Sets of three Aethermon are worth 12 Points!"."""
    assert _score({0: [M1, M2, M3]}).tolist() == [12, 0]


def test_scoring_complete_duo_doubled():
    """Scoring: a complete 2-card set is doubled (2 + 3 -> 10, AC-A2)."""
    assert _score({1: [MD2, MD1]}).tolist() == [0, 10]


def test_scoring_incomplete_set_not_doubled():
    """Scoring: only a set collected in full is doubled."""
    assert _score({0: [M1, M3]}).tolist() == [4, 0]


def test_scoring_single_aethermon_not_a_set_not_doubled():
    """How to read Aethermon Cards: "If there are two or three circles, the card is part of a set" — a card
    without them is never doubled."""
    assert _score({0: [M4]}).tolist() == [4, 0]


def test_scoring_set_split_between_players_not_doubled():
    """Scoring: "If a player collects all of the Aethermon in a set" — one player, not two together."""
    assert _score({0: [M1, M2], 1: [M3]}).tolist() == [3, 3]


# ---- tie-break -----------------------------------------------------------------

def test_highest_score_wins():
    """Competitive Overview: "The player with the highest score wins" (winners +1, losers -1)."""
    s = finish(position(board={}, token="c3", collections={0: [S4], 1: [M1]}))
    assert s.returns().tolist() == [1.0, -1.0]


@pytest.mark.parametrize("first, winner", [(0, 1), (1, 0)])
def test_tie_break_two_players_last_in_turn_order_wins(first, winner):
    """Scoring: "If playing competitive and there is a tie: The player who acted LAST in the turn order
    wins"."""
    s = finish(position(board={}, token="c3", first=first, turn=first, collections={0: [S4], 1: [M1, M3]}))
    assert s.scores().tolist() == [4, 4]
    assert s.winners() == [winner]
    assert s.returns()[winner] == 1.0 and s.returns()[1 - winner] == -1.0


@pytest.mark.parametrize("first, winner", [(0, 1), (2, 1), (1, 0)])
def test_tie_break_three_players_latest_of_the_tied_players_wins(first, winner):
    """Scoring tie-break: among the tied highest players, the one LAST in turn order wins; a lower-scoring
    player later in turn order does not."""
    s = position(num_players=3, board={}, token="a1", first=first, turn=first,
                 collections={0: [S4], 1: [M1, M3], 2: [SD1]})
    finish(s)
    assert s.scores().tolist() == [4, 4, 2]
    expect = np.full(3, -0.5)
    expect[winner] = 1.0
    assert s.returns().tolist() == expect.tolist()
    assert s.winners() == [winner]


def test_reward_score_returns_each_players_score():
    """Scoring: players score individually (``reward="score"`` returns the scores)."""
    s = finish(position(board={}, token="c3", reward="score", collections={0: [M1, M2, M3], 1: [S4]}))
    assert s.returns().tolist() == [12.0, 4.0]


# ---- Satchel (AC-A6) -------------------------------------------------------------

def test_satchel_incomplete_duo_counts_complete_at_final_scoring():
    """Satchel (AC-A6): at final scoring, one incomplete 2-card set of yours counts as complete."""
    s = position(board={}, token="c3", collections={0: [MD1, M1], 1: [MD2]}, held={0: ["satchel"]})
    play(s, move("c1"), move("a1"))  # two moves without collecting: the game ends
    assert s.phase == R.SATCHEL and s.current_player() == 0
    assert s.legal_actions() == [R.SATCHEL0 + MOON_DUO]
    play(s, R.SATCHEL0 + MOON_DUO)
    assert s.is_terminal() and s.scores().tolist() == [2 * 2 + 1, 3]


def test_satchel_trio_or_complete_duo_cannot_choose():
    """Satchel (AC-A6): only an incomplete 2-card set; never a 3-card set, nor a set already complete."""
    s = position(board={}, token="c3", collections={0: [M1, M2, MD1, MD2, SD1]}, held={0: ["satchel"]})
    play(s, move("c1"), move("a1"))
    assert s.legal_actions() == [R.SATCHEL0 + SUN_DUO]
    assert_cannot(s, R.SATCHEL0 + MOON_TRIO)
    assert_cannot(s, R.SATCHEL0 + MOON_DUO)


def test_satchel_without_incomplete_duo_game_ends_without_choice():
    """Satchel (AC-A6): nothing to choose when the owner holds no incomplete 2-card set."""
    s = position(board={}, token="c3", collections={0: [M1, S4]}, held={0: ["satchel"]})
    play(s, move("c1"), move("a1"))
    assert s.is_terminal() and s.scores().tolist() == [5, 0]
