"""Exact positions for the Aethermon: Collect scenario tests.

A position starts from ``Game(**config).new_initial_state(seed)``, sets plain
State fields (Python lists) and then calls ``State.refresh()`` to recompute the
derived fields (``card_square``, ``score_cache``, ``held``). Squares are named like the engine (``"c3"`` = column c,
row 3 from the top; ``square = row * 7 + col``). Cards are named by Element,
line and stage (AC-A2): ``card("Fire", "trio", 2)``.
"""

from __future__ import annotations

from ether_envs.aethermon_collect import Game
from ether_envs.aethermon_collect import components as C
from ether_envs.aethermon_collect import rules as R

FOUR = ("Moonlit", "Sunstruck", "Sky", "Earth")  # element ids 0..3
_SLOT = {("trio", 1): 0, ("trio", 2): 1, ("trio", 3): 2, ("duo", 1): 3, ("duo", 2): 4, ("single", 1): 5}


def sq(name: str) -> int:
    """Square id of ``"a1"`` .. ``"g7"``."""
    return (int(name[1:]) - 1) * C.MAX_SIDE + "abcdefg".index(name[0])


def card(element: str, line: str, stage: int = 1) -> int:
    """Card id of an Aethermon: ``line`` is ``"trio"``, ``"duo"`` or ``"single"``."""
    return C.ELEMENTS.index(element) * C.CARDS_PER_ELEMENT + _SLOT[(line, stage)]


def art(key: str) -> int:
    """Artefact id of a key (``"beetle"``, ``"net"`` ...)."""
    return C.ARTEFACT_BY_KEY[key].artefact_id


def move(name: str) -> int:
    return R.MOVE0 + sq(name)


def target(name: str) -> int:
    return R.TARGET0 + sq(name)


def use(key: str) -> int:
    return R.USE0 + art(key)


def new_state(seed: int = 0, **config):
    """A fresh state; 2-player games use the four Elements ``FOUR`` unless told otherwise."""
    if config.get("num_players", 2) == 2 and config.get("mode", "competitive") == "competitive":
        config.setdefault("elements", FOUR)
    return Game(**config).new_initial_state(seed)


def position(seed: int = 0, *, board=None, token=None, turn=0, first=None, collections=None,
             held=None, **config):
    """A state on a player's turn (phase TURN), with exactly the given pieces.

    Args:
        board: ``{square name: card id}``; if given, every other square is empty.
        token: square name of the Group Token (default: where setup put it).
        turn: seat whose turn it is.
        first: seat first in turn order (default: the dealt one).
        collections: ``{seat: [card ids]}`` already collected.
        held: ``{seat: [artefact keys]}`` held, unused; nobody else holds an
            Artefact (the draft is skipped either way).
    """
    s = new_state(seed, **config)
    if first is not None:
        s.first_player = first
    if board is not None:
        s.board = [-1] * R.SQ
        for name, c in board.items():
            s.board[sq(name)] = c
    if token is not None:
        s.token = sq(token)
    elif s.token < 0:  # 3 players: token not placed yet
        s.token = s.game.corners[0]
    for p, cards in (collections or {}).items():
        for c in cards:
            if c in s.board:
                s.board[s.board.index(c)] = -1
            s.owner[c] = p
            s.collections[p].append(c)
    s.art_owner = [-1] * C.NUM_ARTEFACTS
    s.group_owner = list(range(len(s.group_owner)))
    if held:
        for p, keys in held.items():
            for k in keys:
                s.art_owner[art(k)] = p
                s.known[p][art(k)] = True
    s.phase = R.TURN
    s.turn_player = s.decider = turn
    s.collected = s.no_collect_turn = s.extra_turn = False
    s.refresh()  # card_square, score_cache and held follow the fields set above
    return s


def play(state, *actions):
    """Apply actions in order (each must be legal); returns the state."""
    for a in actions:
        state.apply_action(a)
    return state


def moves(state) -> set[str]:
    """Names of the MOVE destinations legal now."""
    return {R.square_name(a - R.MOVE0) for a in state.legal_actions() if R.MOVE0 <= a < R.MOVE0 + R.SQ}


def assert_cannot(state, action) -> None:
    """The rulebook says this cannot be done: absent from the legal actions, and
    ``apply_action`` raises ``ValueError`` leaving the state unchanged."""
    import pytest

    assert action not in state.legal_actions()
    def snapshot():
        return (list(state.board), state.token, state.phase, state.decider, [list(c) for c in state.collections],
                list(state.owner), list(state.score_cache), [list(h) for h in state.held], list(state.art_used))

    before = snapshot()
    with pytest.raises(ValueError):
        state.apply_action(action)
    assert snapshot() == before


def finish(state):
    """Play to the end without collecting: each turn moves to an empty square
    (at the end, each Satchel owner takes the first set offered)."""
    while not state.is_terminal():
        legal = state.legal_actions()
        empty = [a for a in legal if a < R.SQ and state.board[a - R.MOVE0] < 0]
        state.apply_action(empty[0] if empty else legal[0])
    return state
