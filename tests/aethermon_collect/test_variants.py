"""Rulebook "Alternate Competitive Rules": Hidden Artefacts, 2 vs 2, Play without Artefacts, 3 Artefacts,
Redistribute Artefacts."""

import numpy as np
import pytest

from ether_envs.aethermon_collect import Game
from ether_envs.aethermon_collect import components as C
from ether_envs.aethermon_collect import rules as R
from ether_envs.core import win_loss_returns

from .builders import art, card, finish, move, moves, new_state, play, position, sq, use

M1, M2, M3 = (card("Moonlit", "trio", k) for k in (1, 2, 3))
S4, SD1 = card("Sunstruck", "single"), card("Sunstruck", "duo", 1)


def _drafted(n=4, seed=0, **cfg):
    s = new_state(seed, num_players=n, **cfg)
    if s.phase == R.PLACE_TOKEN:
        play(s, R.PLACE0)
    while s.phase == R.DRAFT:
        play(s, s.legal_actions()[0])
    return s


# ---- Hidden Artefacts ----------------------------------------------------------

def test_hidden_artefacts_game_declares_hidden_information():
    """Hidden Artefacts: the variant hides information; the base game is open ("No Hidden Information")."""
    assert Game(num_players=3, hidden_artefacts=True).has_hidden_information()
    assert not Game(num_players=3).has_hidden_information()


def test_hidden_artefacts_opponents_unused_artefacts_not_in_observation():
    """Hidden Artefacts: "Keep the Artefacts hidden until used". The FIRST player, who only saw the pair it
    was left with, sees its own two Artefacts and only the count of each opponent's."""
    s = _drafted(4, seed=1, hidden_artefacts=True)
    f = s.first_player
    v = s.game.layout.views(s.observation_tensor(f))
    own = [a for a in range(C.NUM_ARTEFACTS) if s.art_owner[a] == f]
    assert sorted(np.flatnonzero(v["artefacts_held"][0])) == own
    assert v["artefacts_held"][1:].sum() == 0
    assert np.allclose(v["artefacts_held_unknown"], [0, 2 / 12, 2 / 12, 2 / 12])
    assert v["leftover_artefacts"].sum() == 0 and np.isclose(v["leftover_unknown"][0], 4 / 12)


def test_hidden_artefacts_used_artefact_revealed_to_everyone():
    """Hidden Artefacts: hidden "until used" — once used, every player knows it."""
    s = position(num_players=2, hidden_artefacts=True, board={"c1": M1, "e5": M2}, token="c3",
                 held={0: ["gloves", "compass"], 1: ["beetle"]})
    s.known = [[False] * C.NUM_ARTEFACTS for _ in range(2)]
    s.known[0][art("gloves")] = s.known[0][art("compass")] = True
    s.known[1][art("beetle")] = True
    v1 = s.game.layout.views(s.observation_tensor(1))
    assert v1["artefacts_held"][1].sum() == 0  # player 0 is relative seat 1 for player 1
    play(s, use("gloves"))
    v1 = s.game.layout.views(s.observation_tensor(1))
    assert v1["artefacts_used"][1, art("gloves")] == 1
    assert v1["artefacts_held"][1].sum() == 0 and np.isclose(v1["artefacts_held_unknown"][1], 1 / 12)


def test_hidden_artefacts_resample_keeps_own_view_redraws_opponents():
    """Hidden Artefacts: a determinization for a player keeps what it saw and redraws the rest."""
    s = _drafted(4, seed=2, hidden_artefacts=True)
    f = s.first_player
    obs = s.observation_tensor(f)
    rng = np.random.default_rng(0)
    changed = False
    for _ in range(10):
        r = s.resample_hidden(f, rng)
        assert np.array_equal(r.observation_tensor(f), obs)
        assert [o == f for o in r.art_owner] == [o == f for o in s.art_owner]
        changed |= r.art_owner != s.art_owner
    assert changed


def test_hidden_artefacts_resample_in_satchel_phase_keeps_the_satchel_with_its_chooser():
    """Hidden Artefacts: who is choosing a Satchel set is public, so a determinization for
    another seat keeps the Satchel with the decider and its listed choices stay playable
    (regression: the Satchel was relabelled and the choice raised inside the rules)."""
    import random

    g = Game(num_players=3, hidden_artefacts=True)
    seen = 0
    for seed in range(12):
        s = g.new_initial_state(seed=seed)
        r = random.Random(seed)
        while not s.is_terminal():
            if s.phase == R.SATCHEL:
                for q in range(3):
                    if q == s.decider:
                        continue
                    for k in range(3):
                        d = s.resample_hidden(q, np.random.default_rng(k))
                        assert C.SATCHEL in d.held[d.decider]
                        assert np.array_equal(d.observation_tensor(q), s.observation_tensor(q))
                        for a in d.legal_actions():
                            d.clone().apply_action(a)
                        seen += 1
            s.apply_action(r.choice(s.legal_actions()))
    assert seen > 0


# ---- 2 vs 2 -------------------------------------------------------------------

def test_two_vs_two_opposite_players_combine_scores_not_sets():
    """2 vs 2 game: "players sitting opposite combine scores (but not sets)" — seat 0 with a Moonlit trio
    1+2 and seat 2 with its 3 do not complete the set."""
    s = position(num_players=4, teams=True, board={}, token="d4", first=0,
                 collections={0: [M1, M2], 2: [M3], 1: [S4, SD1]})
    assert s.scores().tolist() == [3, 6, 3, 0]
    assert s.team_scores().tolist() == [6, 6, 6, 6]


def test_two_vs_two_higher_team_wins_both_partners():
    """2 vs 2 game: the team with the higher combined score wins; both partners share the win."""
    s = finish(position(num_players=4, teams=True, board={}, token="d4", first=0,
                        collections={0: [M1, M2, M3], 3: [S4]}))
    assert s.winners() == [0, 2]
    assert s.returns().tolist() == win_loss_returns([0, 2], 4).tolist()


@pytest.mark.parametrize("first, winners", [(0, [1, 3]), (3, [0, 2]), (2, [1, 3])])
def test_two_vs_two_tie_team_of_player_last_in_turn_order_wins(first, winners):
    """2 vs 2 tie (AC-A9, from "the player who acted LAST in the turn order wins"): the team of the
    player last in turn order wins."""
    s = finish(position(num_players=4, teams=True, board={}, token="d4", first=first, turn=first,
                        collections={0: [S4], 1: [M1, M3]}))
    assert s.team_scores().tolist() == [4, 4, 4, 4]
    assert s.winners() == winners


def test_two_vs_two_other_player_counts_raise():
    """2 vs 2 game: four players, competitive."""
    with pytest.raises(ValueError):
        Game(num_players=3, teams=True)
    with pytest.raises(ValueError):
        Game(num_players=4, teams=True, mode="cooperative")


# ---- Play without Artefacts ---------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_without_artefacts_draft_skipped_first_player_moves(n):
    """Play without Artefacts: "Skip the Artefacts draft"."""
    s = new_state(4, num_players=n, artefacts="none")
    if n == 3:
        play(s, R.PLACE0)
    assert s.phase == R.TURN and s.current_player() == s.first_player
    assert s.groups == [] and s.art_owner == [-1] * C.NUM_ARTEFACTS
    assert all(a < R.SQ for a in s.legal_actions())


# ---- 3 Artefacts ----------------------------------------------------------------

@pytest.mark.parametrize("n, leftover", [(2, 6), (3, 3), (4, 0)])
def test_three_artefacts_groups_of_three_one_per_player(n, leftover):
    """3 Artefacts: "When creating pairs of Artefacts to draft, instead create groups of three"."""
    s = new_state(3, num_players=n, artefacts="triples")
    assert len(s.groups) == n and all(len(g) == 3 for g in s.groups)
    assert len(s.leftover) == leftover
    s = _drafted(n, seed=3, artefacts="triples")
    for p in range(n):
        assert s.art_owner.count(p) == 3


def test_three_artefacts_pool_too_small_raises():
    """3 Artefacts with 4 players needs 12 Artefacts (AC-A5)."""
    with pytest.raises(ValueError):
        Game(num_players=4, artefacts="triples", artefact_pool=tuple(a.key for a in C.ARTEFACTS[:11]))


# ---- Redistribute Artefacts -------------------------------------------------------

def test_redistribute_after_each_player_took_a_turn_leftovers_fill_empty_squares():
    """Redistribute Artefacts: "After each player has taken a turn, fill empty squares on the grid with the
    leftover Artefacts" (AC-A7: random empty squares, not the token's, one per square)."""
    s = _drafted(2, seed=5, redistribute_artefacts=True)
    leftover = list(s.leftover)
    assert len(leftover) == 8
    first_turn = [a for a in s.legal_actions() if a < R.SQ and s.board[a] >= 0][0]
    play(s, first_turn)
    assert all(a < 0 for a in s.art_square)  # not yet: only one player has taken a turn
    second = [a for a in s.legal_actions() if a < R.SQ and s.board[a] >= 0][0]
    play(s, second)
    placed = [q for q, a in enumerate(s.art_square) if a >= 0]
    empty = [q for q in s.game.grid_squares if s.board[q] < 0 and q != s.token]
    assert sorted(placed) == sorted(empty) and len(placed) == 2
    assert sorted([s.art_square[q] for q in placed] + s.leftover) == sorted(leftover)


def test_redistribute_landing_on_artefact_takes_it_without_collecting():
    """Redistribute Artefacts (AC-A7): a player whose move lands on an Artefact takes it; it is not an
    Aethermon and does not count as collecting."""
    s = position(redistribute_artefacts=True, board={"e5": M1}, token="c3", held={1: ["gloves"]})
    s.redistributed = True
    s.art_square[sq("c1")] = art("compass")
    play(s, move("c1"))
    assert s.art_owner[art("compass")] == 0 and s.art_square[sq("c1")] == -1
    assert s.collections[0] == [] and s.streak[0]
    play(s, use("gloves"))  # player 1 skips: both had a turn without collecting
    assert s.is_terminal()


def test_redistribute_taken_artefact_usable_later():
    """Redistribute Artefacts (AC-A7): an Artefact taken from the grid is the player's to use."""
    s = position(redistribute_artefacts=True, board={"e5": M1, "a1": M2, "a5": M3}, token="c3")
    s.redistributed = True
    s.art_square[sq("c1")] = art("compass")
    play(s, move("c1"), move("a1"))
    assert use("compass") in s.legal_actions()
    play(s, use("compass"))
    assert moves(s) == {"b2", "c3", "d4", "e5"}


def test_redistribute_happens_once_only():
    """Redistribute Artefacts (AC-A7): the leftover Artefacts are put on the grid once, after the first
    round."""
    s = _drafted(2, seed=5, redistribute_artefacts=True)
    for _ in range(2):
        play(s, [a for a in s.legal_actions() if a < R.SQ and s.board[a] >= 0][0])
    placed = {q for q, a in enumerate(s.art_square) if a >= 0}
    leftover = list(s.leftover)
    assert placed and leftover  # more Artefacts left than empty squares after round one
    for _ in range(2):
        play(s, [a for a in s.legal_actions() if a < R.SQ and s.board[a] >= 0][0])
    assert {q for q, a in enumerate(s.art_square) if a >= 0} <= placed and s.leftover == leftover


def test_redistribute_hidden_artefacts_lie_face_down():
    """Redistribute + Hidden Artefacts (AC-A7): Artefacts on the grid lie face down."""
    s = _drafted(2, seed=6, redistribute_artefacts=True, hidden_artefacts=True)
    for _ in range(2):
        play(s, [a for a in s.legal_actions() if a < R.SQ and s.board[a] >= 0][0])
    placed = [q for q, a in enumerate(s.art_square) if a >= 0]
    assert len(placed)
    from ether_envs.aethermon_collect.observation import F
    for p in range(2):
        sqv = s.game.layout.views(s.observation_tensor(p))["squares"]
        assert sqv[placed, F["artefact_present"]].tolist() == [1.0] * len(placed)
        assert sqv[:, F["artefact_beetle"]:].sum() == 0
