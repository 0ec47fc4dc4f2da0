"""Rulebook "Co-operative Overview", "3- or 4-Player Co-operative", "2-Player Co-operative",
"Co-operative Targets"."""

import numpy as np
import pytest

from ether_envs.aethermon_collect import Game
from ether_envs.aethermon_collect import components as C
from ether_envs.aethermon_collect import rules as R

from .builders import assert_cannot, card, finish, move, moves, play, position, sq

M1, M2, M3 = (card("Moonlit", "trio", k) for k in (1, 2, 3))
MD1, M4 = card("Moonlit", "duo", 1), card("Moonlit", "single")
S4, SD1 = card("Sunstruck", "single"), card("Sunstruck", "duo", 1)
COOP = {"mode": "cooperative"}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_cooperative_no_artefacts_drafted(n):
    """Co-operative Overview: "No Artefacts are used"; 3- or 4-Player Co-operative: "Do not draft
    Artefacts"."""
    s = Game(num_players=n, **COOP).new_initial_state(1)
    if n == 3:
        play(s, R.PLACE0 + 2)
    assert s.phase == R.TURN and s.current_player() == s.first_player
    assert s.groups == [] and s.art_owner == [-1] * C.NUM_ARTEFACTS
    assert not any(R.USE0 <= a < R.USE0 + C.NUM_ARTEFACTS for a in s.legal_actions())
    with pytest.raises(ValueError):
        Game(num_players=n, hidden_artefacts=True, **COOP)


def test_cooperative_three_players_last_player_places_token_on_corner():
    """3- or 4-Player Co-operative: "Set grid and Group Token as usual" (3 players: the LAST player chooses
    a corner)."""
    s = Game(num_players=3, **COOP).new_initial_state(2)
    assert s.phase == R.PLACE_TOKEN and s.current_player() == (s.first_player - 1) % 3
    play(s, R.PLACE0 + 1)
    assert s.token == sq("f1")


def test_set_restriction_other_player_holds_card_of_set_cannot_collect():
    """Co-operative Overview: "Players cannot collect an Aethermon if another player has already collected an
    Aethermon of the same set". Moving there is allowed but collects nothing, so the game ends (AC-A10)."""
    s = position(num_players=3, board={"a3": M2, "f6": S4}, token="a1", collections={1: [M1]}, **COOP)
    assert not s.can_collect(0, M2)
    assert "a3" in moves(s)
    play(s, move("a3"))
    assert s.board[sq("a3")] == M2 and s.owner[M2] == -1
    assert s.is_terminal()


def test_set_restriction_own_started_set_can_collect():
    """Co-operative set restriction: only "another player" holding the set forbids collecting."""
    s = position(num_players=3, board={"a3": M2, "f6": S4}, token="a1", collections={0: [M1]}, **COOP)
    play(s, move("a3"))
    assert s.collections[0] == [M1, M2] and not s.is_terminal()


def test_set_restriction_other_set_or_no_set_of_same_element_can_collect():
    """Co-operative set restriction applies to a *set* (evolution line), not to an Element: the Moonlit duo
    and the Moonlit single may be collected while another player holds a Moonlit trio card."""
    s = position(num_players=4, board={"d1": MD1, "d7": M4, "a1": S4}, token="d4", collections={1: [M1]}, **COOP)
    assert s.can_collect(0, MD1) and s.can_collect(0, M4) and not s.can_collect(0, M3)
    play(s, move("d1"))
    assert s.collections[0] == [MD1]


def test_set_restriction_competitive_game_does_not_apply():
    """The set restriction is a co-operative rule; competitive players may collect any Aethermon."""
    s = position(board={"c1": M2, "e5": S4}, token="c3", collections={1: [M1]})
    play(s, move("c1"))
    assert s.collections[0] == [M2]


def test_two_player_cooperative_grid_and_token_as_four_player_game():
    """2-Player Co-operative: "Set grid and Group Token as a 4-player game" (8 Elements, 7x7, centre)."""
    s = Game(num_players=2, **COOP).new_initial_state(0)
    assert s.game.side == 7 and s.elements == list(range(8))
    assert s.token == sq("d4") and s.board[sq("d4")] == -1
    assert sorted(int(c) for c in s.board if c >= 0) == list(range(48))
    with pytest.raises(ValueError):
        Game(num_players=2, elements=C.ELEMENTS[:4], **COOP)


def test_two_player_cooperative_first_player_horizontal_binds_both_axes():
    """2-Player Co-operative: "The first player may move either vertically or horizontally; in subsequent
    turns that player is limited to movement along that axis. The second player may only move along the
    other axis"."""
    s = position(num_players=2, board={"g4": M1, "g1": S4, "a1": SD1, "a7": M2}, token="d4", first=0, **COOP)
    assert moves(s) >= {"a4", "g4", "d1", "d7"}  # either axis at first
    play(s, move("g4"))
    assert moves(s) == {"g1", "g2", "g3", "g5", "g6", "g7"}  # player 1: vertical only
    assert_cannot(s, move("a4"))
    play(s, move("g1"))
    assert moves(s) == {"a1", "b1", "c1", "d1", "e1", "f1"}  # player 0: horizontal only
    assert_cannot(s, move("g7"))
    play(s, move("a1"))
    assert moves(s) == {"a2", "a3", "a4", "a5", "a6", "a7"}


def test_two_player_cooperative_first_player_vertical_second_player_horizontal():
    """2-Player Co-operative axis rule, the other choice: first vertical, so the second player horizontal."""
    s = position(num_players=2, board={"d1": M1, "e5": S4}, token="d4", first=1, turn=1, **COOP)
    play(s, move("d1"))
    assert s.current_player() == 0
    assert moves(s) == {"a1", "b1", "c1", "e1", "f1", "g1"}
    assert_cannot(s, move("d2"))


def test_three_player_cooperative_no_axis_rule_both_axes():
    """The axis rule is for the 2-player co-operative game only."""
    s = position(num_players=3, board={"a3": M1, "c3": S4}, token="a1", **COOP)
    play(s, move("a3"))
    assert {"c3", "a5"} <= moves(s)


def test_targets_table_values():
    """Co-operative Targets: Great / Impressive / Heroic / Legendary for 2, 3 and 4 players."""
    assert C.COOP_TARGETS == {
        2: {"great": 105, "impressive": 120, "heroic": 135, "legendary": 142},
        3: {"great": 90, "impressive": 105, "heroic": 115, "legendary": 120},
        4: {"great": 120, "impressive": 135, "heroic": 150, "legendary": 160},
    }


def _team_of_120(**cfg):
    """2-player co-op position worth 120 together: player 0 holds four whole Elements (4 x 26), player 1 a
    complete trio (12) and a single (4)."""
    cols = {0: list(range(24)), 1: [24, 25, 26, 29]}
    return finish(position(num_players=2, board={}, token="d4", collections=cols, **COOP, **cfg))


def test_cooperative_scores_combined_team_score():
    """Co-operative Overview: "Players combine scores to achieve a target" (default reward: team score / its
    maximum, the same for every player, AC-A11)."""
    s = _team_of_120()
    assert s.scores().tolist() == [104, 16]
    assert s.team_scores().tolist() == [120, 120]
    assert s.returns().tolist() == [120 / 208] * 2


@pytest.mark.parametrize("target, reward", [("great", 1.0), ("impressive", 1.0), ("heroic", -1.0),
                                            ("legendary", -1.0)])
def test_cooperative_target_reached_win_reward(target, reward):
    """Co-operative Targets (2 players: 105 / 120 / 135 / 142): 120 reaches Impressive, not Heroic
    (``reward="win"``: +1 for reaching the chosen target, else -1, AC-A11)."""
    s = _team_of_120(reward="win", target=target)
    assert s.target_reached() == "impressive"
    assert s.returns().tolist() == [reward, reward]
    info = s.final_info()
    assert info["target_reached"] == "impressive" and info["targets"] == C.COOP_TARGETS[2]


def test_cooperative_below_every_target_reports_none():
    """Co-operative Targets: a team score under "Great" reaches no level."""
    s = finish(position(num_players=4, board={}, token="d4", collections={0: [M1]}, **COOP))
    assert s.target_reached() is None
    assert np.allclose(s.returns(), 1 / 208)
