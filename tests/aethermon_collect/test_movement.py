"""Rulebook "Player's Turn" and the first-move note of "Placing the Group Token"."""

from ether_envs.aethermon_collect import components as C
from ether_envs.aethermon_collect import rules as R

from .builders import assert_cannot, card, move, moves, new_state, play, position, sq, use

MOON1, MOON2, MOON3 = card("Moonlit", "trio", 1), card("Moonlit", "trio", 2), card("Moonlit", "trio", 3)


def _full(seed=0, **cfg):
    """A 2-player game right after the draft, nobody holding an Artefact."""
    return position(seed, turn=0, **cfg)


def test_rook_move_any_distance_along_row_and_column_legal():
    """Player's Turn: "move the Group Token any number of spaces horizontally or vertically ('Rook's move')"."""
    s = _full(token="c3")
    assert moves(s) == {"a3", "b3", "d3", "e3", "c1", "c2", "c4", "c5"}


def test_rook_move_diagonal_cannot():
    """Player's Turn: only horizontal or vertical moves."""
    s = _full(token="c3")
    assert_cannot(s, move("d4"))
    assert_cannot(s, move("a1"))


def test_rook_move_outside_grid_cannot():
    """Player's Turn: "All movement must stay within the grid" (5x5: columns a-e, rows 1-5)."""
    s = _full(token="c3")
    assert_cannot(s, move("f3"))
    assert_cannot(s, move("c6"))


def test_rook_move_from_corner_reaches_whole_row_and_column():
    """Player's Turn: rook's move of any length, bounded by the grid edge."""
    s = position(board={}, token="a1")
    assert moves(s) == {"b1", "c1", "d1", "e1", "a2", "a3", "a4", "a5"}


def test_move_onto_empty_square_allowed_collects_nothing():
    """Player's Turn: "Players may choose to move the Group Token to an empty space on the grid"."""
    s = position(board={"e3": MOON1}, token="c3")
    play(s, move("c1"))
    assert s.token == sq("c1") and s.collections == [[], []]
    assert s.board[sq("e3")] == MOON1


def test_move_onto_aethermon_collects_it():
    """Player's Turn: "If a player moves the Group Token onto an available Aethermon, the player removes
    the Aethermon from the grid and places it in their collection"."""
    s = position(board={"e3": MOON1, "a3": MOON2}, token="c3")
    play(s, move("e3"))
    assert s.collections[0] == [MOON1] and s.owner[MOON1] == 0
    assert s.board[sq("e3")] == -1 and s.board[sq("a3")] == MOON2


def test_move_passes_over_cards_collects_only_landing_square():
    """Player's Turn: a rook's move of any number of squares collects only the Aethermon landed on."""
    s = position(board={"a2": MOON1, "a3": MOON2, "a5": MOON3}, token="a1")
    assert "a5" in moves(s)
    play(s, move("a5"))
    assert s.collections[0] == [MOON3]
    assert s.board[sq("a2")] == MOON1 and s.board[sq("a3")] == MOON2


def test_move_staying_in_place_cannot():
    """Player's Turn: "the player must move the Group Token"."""
    s = position(board={"c3": MOON1}, token="c3")
    assert_cannot(s, move("c3"))


def test_turn_without_moving_cannot_end():
    """Player's Turn: the player must move; no pass (END_TURN is not legal before a move)."""
    s = _full(token="c3")
    assert_cannot(s, R.END_TURN)


def test_turn_ends_after_move_next_player_clockwise():
    """Player's Turn: "After this movement, the player's turn is ended and the next player clockwise
    begins their turn"."""
    for n in (2, 3, 4):
        s = position(1, num_players=n, turn=n - 1, artefacts="none")
        play(s, s.legal_actions()[0])
        assert s.current_player() == 0 and s.turn_player == 0 and s.phase == R.TURN


def test_other_players_cannot_act_on_a_players_turn():
    """Player's Turn: only the player whose turn it is moves the Group Token."""
    s = _full(token="c3")
    assert s.legal_actions(1) == [] and s.legal_actions(0)


def test_first_move_two_players_must_leave_empty_centre():
    """Placing the Group Token note: "The first player must move the Group Token on their first turn"."""
    s = new_state(3, artefacts="none")
    assert s.phase == R.TURN and s.token == sq("c3")
    assert_cannot(s, move("c3"))
    assert len(moves(s)) == 8


def test_first_move_three_players_cannot_collect_start_corner():
    """Placing the Group Token note: the first player "cannot collect the Aethermon where the Group Token
    starts"."""
    s = new_state(5, num_players=3, artefacts="none")
    play(s, R.PLACE0 + 0)  # top-left corner
    start_card = int(s.board[sq("a1")])
    assert s.current_player() == s.first_player
    assert_cannot(s, move("a1"))
    play(s, s.legal_actions()[0])
    assert s.board[sq("a1")] == start_card and s.owner[start_card] == -1


def test_first_move_lantern_then_back_to_start_cannot_collect_start_card():
    """Placing the Group Token note: the first player "cannot collect the Aethermon where the Group Token
    starts" (3 players: the token starts on a corner card). A Lantern step followed by a rook move back
    must not collect it on the first turn."""
    s = new_state(5, num_players=3)
    play(s, R.PLACE0 + 0)
    start_card = int(s.board[sq("a1")])
    first = s.first_player
    s.art_owner = [-1] * C.NUM_ARTEFACTS
    s.art_owner[C.LANTERN] = first
    s.phase, s.turn_player, s.decider = R.TURN, first, first
    s.refresh()
    play(s, use("lantern"), move("b1"))
    if move("a1") in s.legal_actions():
        play(s, move("a1"))
    else:
        assert_cannot(s, move("a1"))
    assert s.owner[start_card] == -1


def _swap_to(s, name, c):
    """Put card ``c`` on square ``name`` (swapping it with the card there)."""
    q, other = sq(name), s.board.index(c)
    s.board[q], s.board[other] = s.board[other], s.board[q]
    s.refresh()


def test_first_move_net_cannot_collect_start_card():
    """Placing the Group Token note: the first player "cannot collect the Aethermon where the Group Token
    starts". After moving from the corner a1 to a2 (Moonlit trio 2), a Net may collect the Moonlit trio 3 on
    b2 but not the Moonlit trio 1 left on a1."""
    s = new_state(5, num_players=3, elements=("Moonlit", "Sunstruck", "Sky", "Earth", "Fire", "Water"))
    _swap_to(s, "a1", MOON1)  # before the placement, so that MOON1 is the start card
    _swap_to(s, "a2", MOON2)
    _swap_to(s, "b2", MOON3)
    play(s, R.PLACE0 + 0)
    assert s.start_card == MOON1
    first = s.first_player
    s.art_owner = [-1] * C.NUM_ARTEFACTS
    s.art_owner[C.NET] = first
    s.phase, s.turn_player, s.decider = R.TURN, first, first  # skip the draft
    s.refresh()
    play(s, move("a2"))
    assert s.collections[first] == [MOON2]
    play(s, use("net"))
    assert s.legal_actions() == [R.TARGET0 + sq("b2")]
    assert_cannot(s, R.TARGET0 + sq("a1"))
    play(s, R.TARGET0 + sq("b2"))
    assert s.owner[MOON1] == -1 and s.board[sq("a1")] == MOON1
