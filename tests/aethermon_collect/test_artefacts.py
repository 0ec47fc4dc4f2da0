"""Rulebook "Drafting Artefacts", "Using Artefacts", "Artefact Clarifications"; Artefact texts AC-A5/AC-A6."""

import numpy as np
import pytest

from ether_envs.aethermon_collect import components as C
from ether_envs.aethermon_collect import rules as R

from .builders import art, assert_cannot, card, move, moves, new_state, play, position, sq, target, use

M1, M2, M3 = (card("Moonlit", "trio", k) for k in (1, 2, 3))
MD1 = card("Moonlit", "duo", 1)
S_SINGLE, S_DUO1 = card("Sunstruck", "single"), card("Sunstruck", "duo", 1)
E_SINGLE = card("Earth", "single")


def _to_draft(n, seed=0, **cfg):
    s = new_state(seed, num_players=n, **cfg)
    if s.phase == R.PLACE_TOKEN:
        play(s, R.PLACE0)
    return s


def _draft_all(s):
    """Draft the lowest group each time; returns the drafters in order (auto-draft included)."""
    order = []
    while s.phase == R.DRAFT:
        order.append(s.current_player())
        play(s, s.legal_actions()[0])
    remaining = [p for p in range(s.num_players) if p not in order]
    return order + remaining


# ---- Drafting Artefacts -----------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_draft_pairs_one_per_player_leftovers_discarded(n):
    """Drafting Artefacts: "Randomly divide the Artefacts into pairs: Create one pair per player. Each pair
    must have two Artefacts. Discard any leftover Artefacts." (12 Artefacts: AC-A5)."""
    s = _to_draft(n, seed=n)
    assert len(s.groups) == n and all(len(g) == 2 for g in s.groups)
    dealt = sorted(a for g in s.groups for a in g)
    assert len(set(dealt)) == 2 * n
    assert sorted(dealt + s.leftover) == list(range(C.NUM_ARTEFACTS))
    _draft_all(s)
    assert all(s.art_owner[a] == -1 for a in s.leftover)  # discarded: nobody holds them


def test_draft_pairs_random_division_differs_between_seeds():
    """Drafting Artefacts: "Randomly divide the Artefacts into pairs"."""
    assert len({tuple(map(tuple, _to_draft(4, seed=k).groups)) for k in range(6)}) > 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_draft_order_last_player_first_anticlockwise(n):
    """Drafting Artefacts: "The player who is LAST in the turn order, chooses first. Players continue
    choosing pairs of Artefacts in an anti-clockwise direction." (anti-clockwise = seat - 1)."""
    s = _to_draft(n, seed=11)
    f = s.first_player
    order = _draft_all(s)
    assert order == [(f - 1 - i) % n for i in range(n)]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_draft_first_player_left_with_remaining_pair_automatically(n):
    """Drafting Artefacts: "The player who is nominally FIRST in the turn order will draft last and will be
    left with whichever pair remains" (no decision), then the first player starts."""
    s = _to_draft(n, seed=5)
    f = s.first_player
    for _ in range(n - 1):
        assert s.current_player() != f
        play(s, s.legal_actions()[-1])
    assert s.phase == R.TURN and s.current_player() == f
    last_group = [g for g in range(n) if s.group_owner[g] == f]
    assert last_group and all(s.art_owner[a] == f for a in s.groups[last_group[0]])


def test_draft_taken_pair_cannot_be_taken_again():
    """Drafting Artefacts: players choose among the pairs still on offer."""
    s = _to_draft(4, seed=2)
    play(s, R.DRAFT0 + 1)
    assert_cannot(s, R.DRAFT0 + 1)
    assert s.legal_actions() == [R.DRAFT0, R.DRAFT0 + 2, R.DRAFT0 + 3]


def test_draft_face_up_every_player_reads_every_pair():
    """Drafting Artefacts: "Ensure that all Artefacts are face-up, so that all players can read their
    abilities"."""
    s = _to_draft(3, seed=1)
    for p in range(3):
        v = s.game.layout.views(s.observation_tensor(p))
        expect = np.zeros((4, 12))
        for g, grp in enumerate(s.groups):
            expect[g, grp] = 1
        assert np.array_equal(v["draft_groups"], expect)


def test_draft_hidden_drafter_sees_offered_pairs_only_on_their_turn_to_draft():
    """Hidden Artefacts: "Create pairs of Artefacts, face down. Players may only look at the Artefacts when
    it is their turn to draft." The drafter sees the pairs still on offer; the FIRST player, left with the
    last pair, sees only it."""
    s = _to_draft(4, seed=3, hidden_artefacts=True)
    f = s.first_player
    order = [(f - 1 - i) % 4 for i in range(4)]
    seen = {p: set() for p in range(4)}
    for k, p in enumerate(order):
        if k < 3:
            offered = {a for g in range(4) if s.group_owner[g] < 0 for a in s.groups[g]}
        else:  # the first player was handed the last pair
            offered = {a for g in range(4) if s.group_owner[g] == f for a in s.groups[g]}
        if k < 3:
            assert s.current_player() == p
        seen[p] |= offered
        for q in range(4):
            assert {a for a in range(C.NUM_ARTEFACTS) if s.known[q][a]} == seen[q], (k, q)
            v = s.game.layout.views(s.observation_tensor(q))
            assert int(v["draft_groups"].sum()) == len(seen[q])
        if k < 3:
            play(s, s.legal_actions()[0])
    assert seen[f] == set(s.groups[[g for g in range(4) if s.group_owner[g] == f][0]])
    assert len(seen[order[0]]) == 8  # the first drafter looked at every pair


# ---- Using Artefacts: who, when, once ----------------------------------------------

def test_artefact_other_players_artefact_cannot_use():
    """Using Artefacts: a player uses the Artefacts they drafted, not another player's."""
    s = position(board={"c1": M1}, token="c3", held={1: ["compass"]})
    assert_cannot(s, use("compass"))


def test_artefact_used_once_flipped_cannot_use_again():
    """Using Artefacts: "Each Artefact may only be used once. Once an Artefact has been used, flip it over"."""
    s = position(board={"e5": M1, "a1": M2, "c1": M3}, token="c3", held={0: ["compass"]})
    play(s, use("compass"), move("e5"))
    assert s.art_used[art("compass")]
    for p in (0, 1):
        v = s.game.layout.views(s.observation_tensor(p))
        assert v["artefacts_used"][(0 - p) % 2, art("compass")] == 1
        assert v["artefacts_held"].sum() == 0
    play(s, move("c5"))  # player 1
    assert s.current_player() == 0
    assert_cannot(s, use("compass"))


def test_artefact_pre_move_cannot_use_after_the_move():
    """Using Artefacts: "at the time indicated by the text": a before-the-move Artefact (Compass) is not
    usable once the Group Token has moved (AC-A6)."""
    s = position(board={"c1": M2, "b1": M1}, token="c3", collections={0: [M3]}, held={0: ["compass", "net"]})
    play(s, move("c1"))
    assert s.phase == R.POST_MOVE
    assert s.legal_actions() == [use("net"), R.END_TURN]
    assert_cannot(s, use("compass"))


def test_artefact_after_move_cannot_use_before_the_move():
    """Using Artefacts: Net is used "after your move" (AC-A6), not before."""
    s = position(board={"c2": M2}, token="c3", collections={0: [M1]}, held={0: ["net"]})
    assert_cannot(s, use("net"))


def test_artefact_several_in_one_turn_lantern_then_compass():
    """AC-A6: several Artefacts may be used in one turn (Lantern's step, then a Compass move)."""
    s = position(board={"e5": M1}, token="c3", held={0: ["lantern", "compass"]})
    play(s, use("lantern"), move("c4"), use("compass"))
    assert moves(s) == {"b5", "d5", "b3", "a2", "d3", "e2"}
    play(s, move("d5"))
    assert s.current_player() == 1


# ---- Wind-up Beetle -------------------------------------------------------------

def test_wind_up_beetle_collects_orthogonally_adjacent_without_moving():
    """Wind-up Beetle (AC-A6): instead of moving, collect one Aethermon orthogonally adjacent to the Group
    Token. Clarification: "'Adjacent Aethermon' refers to Aethermon which are horizontally or vertically next
    to the Player Token"."""
    s = position(board={"c2": M1, "d3": M2, "d4": M3, "a3": E_SINGLE}, token="c3", held={0: ["beetle"]})
    play(s, use("beetle"))
    assert s.legal_actions() == [target("c2"), target("d3")]
    play(s, target("d3"))
    assert s.collections[0] == [M2] and s.token == sq("c3") and s.board[sq("d3")] == -1
    assert s.current_player() == 1


def test_wind_up_beetle_diagonal_aethermon_cannot():
    """Wind-up Beetle clarification: adjacent means "NOT diagonally"."""
    s = position(board={"c2": M1, "d4": M3}, token="c3", held={0: ["beetle"]})
    play(s, use("beetle"))
    assert_cannot(s, target("d4"))


def test_wind_up_beetle_nothing_adjacent_cannot_use():
    """Wind-up Beetle: with no orthogonally adjacent Aethermon there is nothing to collect."""
    s = position(board={"d4": M3, "a3": M1}, token="c3", held={0: ["beetle"]})
    assert_cannot(s, use("beetle"))


# ---- Boxing Gloves --------------------------------------------------------------

def test_boxing_gloves_skips_turn_next_player_moves():
    """Boxing Gloves: "Skipping a turn by using Boxing Gloves counts as a turn without collecting an
    Aethermon"."""
    s = position(board={"c1": M1, "c5": M2}, token="c3", held={0: ["gloves"]})
    play(s, use("gloves"))
    assert s.current_player() == 1 and s.token == sq("c3") and s.collections == [[], []]
    assert s.streak[0] and s.art_used[art("gloves")]


# ---- Compass, Grappling Hook, Lantern, Magnet --------------------------------------

def test_compass_moves_diagonally_any_distance_and_collects():
    """Compass (AC-A6): this turn, move the Group Token diagonally any number of squares instead of a
    rook's move."""
    s = position(board={"e5": M1, "c1": M2}, token="c3", held={0: ["compass"]})
    play(s, use("compass"))
    assert moves(s) == {"a1", "b2", "d4", "e5", "a5", "b4", "d2", "e1"}
    assert_cannot(s, move("c1"))
    play(s, move("e5"))
    assert s.collections[0] == [M1] and s.current_player() == 1


def test_grappling_hook_moves_like_a_knight_and_collects():
    """Grappling Hook (AC-A6): this turn, move the Group Token like a chess knight."""
    s = position(board={"b1": M1, "c1": M2}, token="c3", held={0: ["grappling_hook"]})
    play(s, use("grappling_hook"))
    assert moves(s) == {"a2", "a4", "b1", "b5", "d1", "d5", "e2", "e4"}
    assert_cannot(s, move("c1"))
    play(s, move("b1"))
    assert s.collections[0] == [M1]


def test_lantern_steps_one_square_without_collecting_then_moves():
    """Lantern (AC-A6): before your move, step the Group Token one square orthogonally without collecting;
    then make your move."""
    s = position(board={"c2": M1, "a2": M2}, token="c3", held={0: ["lantern"]})
    play(s, use("lantern"))
    assert moves(s) == {"c2", "c4", "b3", "d3"}
    play(s, move("c2"))
    assert s.board[sq("c2")] == M1 and s.collections[0] == [] and s.current_player() == 0
    assert "a2" in moves(s)  # the rook move starts from the stepped-to square
    play(s, move("a2"))
    assert s.collections[0] == [M2] and s.current_player() == 1


def test_magnet_puts_token_on_empty_square_then_moves():
    """Magnet (AC-A6): before your move, put the Group Token on any empty square (collecting nothing)."""
    # every other card of the four Elements is in player 1's collection: the cards not on the grid have been
    # collected (the engine counts the cards on the grid as the cards in play minus the collected ones)
    rest = [c for c in range(4 * C.CARDS_PER_ELEMENT) if c not in (M1, M2)]
    s = position(board={"c1": M1, "a5": M2}, token="c3", collections={1: rest}, held={0: ["magnet"]})
    play(s, use("magnet"))
    assert move("e5") in s.legal_actions()
    assert_cannot(s, move("c1"))  # not empty
    assert_cannot(s, move("c3"))  # the token's own square
    play(s, move("e5"))
    assert s.token == sq("e5") and s.current_player() == 0 and s.collections[0] == []
    play(s, move("a5"))
    assert s.collections[0] == [M2]


# ---- Net ------------------------------------------------------------------------

def test_net_after_move_collects_adjacent_aethermon_of_started_set():
    """Net (AC-A6): after your move, also collect one Aethermon orthogonally adjacent to the Group Token
    that belongs to a set you have started."""
    s = position(board={"e1": S_SINGLE, "d1": M2, "e2": S_DUO1}, token="e3", collections={0: [M1]},
                 held={0: ["net"]})
    play(s, move("e1"))
    assert s.legal_actions() == [use("net"), R.END_TURN]
    play(s, use("net"))
    assert s.legal_actions() == [target("d1")]
    assert_cannot(s, target("e2"))  # Sunstruck duo: a set not started
    play(s, target("d1"))
    assert sorted(s.collections[0]) == sorted([M1, S_SINGLE, M2]) and s.current_player() == 1


def test_net_declined_with_end_turn_stays_unused():
    """Using Artefacts: using an Artefact is a choice ("Players may use an Artefact")."""
    s = position(board={"e1": S_SINGLE, "d1": M2}, token="e3", collections={0: [M1]}, held={0: ["net"]})
    play(s, move("e1"), R.END_TURN)
    assert s.current_player() == 1 and not s.art_used[art("net")]


# ---- Trade Token ----------------------------------------------------------------

def test_trade_token_swaps_collected_aethermon_with_one_on_grid():
    """Trade Token (AC-A6): before your move, swap one Aethermon in your collection with one on the grid."""
    s = position(board={"e5": M3, "a1": E_SINGLE}, token="c3", collections={0: [M1, S_SINGLE]},
                 held={0: ["trade_token"]})
    play(s, use("trade_token"))
    assert s.legal_actions() == sorted([R.GIVE0 + M1, R.GIVE0 + S_SINGLE])
    assert_cannot(s, R.GIVE0 + M2)  # not in the collection
    play(s, R.GIVE0 + S_SINGLE)
    assert s.legal_actions() == [target("a1"), target("e5")]
    play(s, target("e5"))
    assert sorted(s.collections[0]) == sorted([M1, M3]) and s.owner[S_SINGLE] == -1
    assert s.board[sq("e5")] == S_SINGLE and s.current_player() == 0 and s.phase == R.TURN


# ---- Stopwatch ------------------------------------------------------------------

def test_stopwatch_extra_turn_cannot_collect_on_it():
    """Stopwatch (AC-A6): take an extra turn after this one; you cannot collect on the extra turn."""
    s = position(board={"c1": M1, "a1": M2, "e5": M3}, token="c3", held={0: ["stopwatch"]})
    play(s, use("stopwatch"), move("c1"))
    assert s.collections[0] == [M1]
    assert s.current_player() == 0 and s.no_collect_turn
    play(s, move("a1"))
    assert s.board[sq("a1")] == M2 and s.collections[0] == [M1]
    assert s.current_player() == 1 and not s.no_collect_turn


# ---- Fence ----------------------------------------------------------------------

def test_fence_next_player_cannot_move_along_the_row():
    """Fence (AC-A6): after your move, the next player may not move along the row the Group Token is on."""
    s = position(num_players=3, board={"c1": M1, "a1": M2}, token="c4", held={0: ["fence"]})
    play(s, move("c1"), use("fence"))
    assert s.current_player() == 1
    assert moves(s) == {"c2", "c3", "c4", "c5", "c6"}
    assert_cannot(s, move("a1"))
    play(s, move("c4"))
    # player 2 (not the next player of the Fence user) is free, and so is player 1 later
    play(s, move("c1"))
    assert "a1" in moves(s)
    play(s, move("a1"))
    assert s.current_player() == 1 and "d1" in moves(s)


def test_fence_lantern_step_along_the_row_cannot():
    """Fence (AC-A6): "the next player may not move along the row the Group Token is on" — a Lantern step
    (one square orthogonally) along that row is a move along the row."""
    s = position(num_players=3, board={"c1": M1, "a1": M2, "f6": M3}, token="c4", held={0: ["fence"], 1: ["lantern"]})
    play(s, move("c1"), use("fence"))
    play(s, use("lantern"))
    assert moves(s) == {"c2"}
    assert_cannot(s, move("b1"))


# ---- Mirror ---------------------------------------------------------------------

def test_mirror_copies_last_artefact_an_opponent_used():
    """Mirror (AC-A6): use the effect of the Artefact most recently used by an opponent."""
    s = position(board={"e5": M1, "a1": M2, "c1": M3}, token="c3", turn=1, held={0: ["mirror"], 1: ["compass"]})
    play(s, use("compass"), move("e5"))  # player 1
    assert s.current_player() == 0 and use("mirror") in s.legal_actions()
    play(s, use("mirror"))
    assert moves(s) == {"d4", "c3", "b2", "a1"}
    play(s, move("a1"))
    assert s.collections[0] == [M2] and s.art_used[art("mirror")]


def test_mirror_no_opponent_artefact_used_cannot_use():
    """Mirror (AC-A6): with nothing an opponent used, there is nothing to copy."""
    s = position(board={"c1": M1, "e5": M2, "e1": M3}, token="c3", held={0: ["mirror", "compass"]})
    assert_cannot(s, use("mirror"))
    play(s, use("compass"), move("e5"), move("e1"))  # own Compass, then player 1 moves
    assert s.current_player() == 0
    assert_cannot(s, use("mirror"))  # its own use is not an opponent's


def test_mirror_copied_artefact_used_at_its_own_time():
    """Mirror (AC-A6): the copied effect is used at that Artefact's time (Net: after the move)."""
    s_duo2 = card("Sunstruck", "duo", 2)
    s = position(board={"c1": S_SINGLE, "b1": s_duo2, "e1": M2, "e2": M3}, token="c3", turn=1,
                 collections={0: [M1], 1: [S_DUO1]}, held={0: ["mirror"], 1: ["net"]})
    play(s, move("c1"), use("net"), target("b1"))  # player 1 nets the Sunstruck duo
    assert s.current_player() == 0
    assert_cannot(s, use("mirror"))  # Net's time is after the move
    play(s, move("e1"))
    assert s.legal_actions() == [use("mirror"), R.END_TURN]
    play(s, use("mirror"))
    assert s.legal_actions() == [target("e2")]
    play(s, target("e2"))
    assert sorted(s.collections[0]) == sorted([M1, M2, M3]) and s.current_player() == 1


def test_mirror_two_vs_two_partner_is_not_an_opponent_cannot_copy():
    """Mirror (AC-A6: "an opponent") with the 2 vs 2 variant: the partner sitting opposite is not an
    opponent, so the partner's Artefact cannot be copied."""
    s = position(num_players=4, teams=True, board={"a1": M1, "g7": M2, "d1": M3}, token="d4", turn=2,
                 held={0: ["mirror"], 2: ["compass"]})
    play(s, use("compass"), move("g7"))  # seat 2, partner of seat 0
    play(s, move("g1"))  # seat 3
    assert s.current_player() == 0
    assert_cannot(s, use("mirror"))


# ---- Satchel --------------------------------------------------------------------

def test_satchel_cannot_use_during_a_turn():
    """Satchel (AC-A6): used "at final scoring", not before or after a move."""
    s = position(board={"c1": S_SINGLE}, token="c3", collections={0: [MD1]}, held={0: ["satchel"]})
    assert_cannot(s, use("satchel"))
    play(s, move("c1"))
    assert s.current_player() == 1  # no after-move decision offered
