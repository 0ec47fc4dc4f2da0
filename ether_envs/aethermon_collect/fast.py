"""Aethermon: Collect fast paths, apart from the rule text.

Each gives the same answers as a plain rule of ``rules.State`` (named below);
``tests/aethermon_collect/test_fast_path.py`` checks them against each other at
every step of random games of every conformance configuration.

* :func:`is_legal` (``State._is_legal``): whether an action is legal, without
  listing the legal actions for the frequent ones (a move, an Artefact, a draft).
  Plain rule: ``action in State._legal_by_rule()``.
* :func:`use_actions` (``State._use_actions``): the Artefacts the turn player may use
  now, none tested when every Artefact held is one that is never usable at that time
  (:data:`NEVER_PRE_MOVE`, :data:`NEVER_POST_MOVE`), as on most turns. Plain rule:
  ``State._use_actions_by_rule``.
* :func:`effect_applicable`: whether an Artefact's effect can be used now, the Beetle's
  and the Net's stopping at the first target. Plain rule: ``State._effect_applicable``.
* :func:`legal_actions` (``State._legal_actions``): on a turn, the moves read straight
  from the game's rook table. Plain rule: ``State._legal_by_rule``.
* :func:`apply_action` (``State._apply_action``): a rook move, the most frequent action,
  written out in one function. Plain rule: ``State._apply_by_rule``.
* The incremental scores: ``State.score_cache`` is kept up to date by each
  collection (``State._collect``). Plain rule: ``State.rescored(p)`` (rulebook
  "Scoring", from the collection).
* The journals the incremental observation encoder (``observation.Encoder``)
  reads, written by the rules as play goes: the collections (:class:`Collected`,
  ``State._collection_log``), the drafts and Artefact uses
  (:class:`ArtefactEvent`, ``State._artefact_log``) and a version number bumped
  whenever an Artefact changes hands or is seen otherwise
  (``State._artefact_version``). Plain rule: ``Encoder.encode_uncached`` (an
  observation built from the state alone), checked in
  ``tests/aethermon_collect/test_observation_cache.py``.
"""

from __future__ import annotations

from typing import NamedTuple

from . import components as C
from .components import (ARTEFACT_TIMING, BEETLE, CARD_SET, COMPASS, FENCE, GLOVES, GRAPPLING_HOOK, LANTERN, MIRROR,
                         NET, SATCHEL, STOPWATCH, TRADE_TOKEN)
from .codec import DRAFT, DRAFT0, END_TURN, PLACE0, POST_MOVE, SQ, TARGET0, TURN, USE0

NEVER_PRE_MOVE = frozenset(a.artefact_id for a in C.ARTEFACTS if a.timing != C.PRE_MOVE and a.key != "mirror")
"""Artefacts never usable before the move (a Mirror may copy one that is)."""
NEVER_POST_MOVE = frozenset(a.artefact_id for a in C.ARTEFACTS if a.timing != C.POST_MOVE and a.key != "mirror")
"""Artefacts never usable right after the move."""
_NEVER = {C.PRE_MOVE: NEVER_PRE_MOVE, C.POST_MOVE: NEVER_POST_MOVE}
ALWAYS_APPLICABLE = frozenset((GLOVES, LANTERN, STOPWATCH, FENCE, MIRROR, SATCHEL))
"""Effects ``State._effect_applicable`` never rules out."""


class Collected(NamedTuple):
    """A collection, as the encoder's journal holds it: ``card`` left ``square`` for ``seat``'s collection."""

    card: int
    square: int
    seat: int


DRAFTED, USED = 0, 1
"""Kinds of :class:`ArtefactEvent`."""
NOT_LOGGED = -2
"""``ArtefactEvent.effect`` of an event that adds nothing to ``State.art_log`` (a draft, a Satchel)."""


class ArtefactEvent(NamedTuple):
    """A draft (``kind`` DRAFTED: ``seat`` took group ``item``) or an Artefact use (``kind`` USED:
    ``seat`` used Artefact ``item``, whose ``effect`` went into ``State.art_log``, or NOT_LOGGED)."""

    kind: int
    seat: int
    item: int
    effect: int


def is_legal(state, action: int) -> bool:
    """``State._is_legal``: agrees with ``action in state._legal_by_rule()``, without listing
    them for a move, an Artefact use or a draft."""
    phase = state.phase
    if phase == TURN:
        if action < PLACE0:  # a rook move (MOVE ids are the squares)
            return action in state._rook_moves()
        if USE0 <= action < TARGET0:
            return state._artefact_usable(action - USE0, C.PRE_MOVE)
        return False
    if phase == POST_MOVE:
        if action == END_TURN:
            return True
        if USE0 <= action < TARGET0:
            return state._artefact_usable(action - USE0, C.POST_MOVE)
        return False
    if phase == DRAFT:
        g = action - DRAFT0
        return 0 <= g < len(state.group_owner) and state.group_owner[g] < 0
    return action in state._legal_actions()


def use_actions(state, timing: str) -> list[int]:
    """``State._use_actions``: as ``state._use_actions_by_rule(timing)``, at once when the turn
    player holds only Artefacts never usable at ``timing``, and otherwise with the tests of
    ``State._usable`` written out in one loop."""
    p = state.turn_player
    held = state.held[p]
    if _NEVER[timing].issuperset(held):
        return []
    out = []
    for a in held:
        effect = a
        if a == MIRROR:
            effect = state.last_opponent_effect(p)
            if effect < 0 or effect == MIRROR:
                continue
        if ARTEFACT_TIMING[effect] == timing and effect_applicable(state, effect):
            out.append(USE0 + a)
    return out


def effect_applicable(state, e: int) -> bool:
    """As ``state._effect_applicable(e)``, in one function; the Wind-up Beetle and the Net stop
    at the first square they could target instead of listing them."""
    if e in ALWAYS_APPLICABLE:
        return True
    g = state.game
    t = state.token
    if e == BEETLE or e == NET:
        p = state.turn_player
        board = state.board
        if e == NET:
            started = {CARD_SET[c] for c in state.collections[p]}
            started.discard(-1)
            if not started:
                return False
        for sq in g.adjacent[t]:
            c = board[sq]
            if c >= 0 and (e == BEETLE or CARD_SET[c] in started) and state.can_collect(p, c):
                return True
        return False
    if e == COMPASS:
        return bool(g.diagonal[t])
    if e == GRAPPLING_HOOK:
        return bool(g.knight[t])
    if e == TRADE_TOKEN:
        return bool(state.collections[state.turn_player]) and state.board.count(-1) < SQ
    return state._empty_square_count() > 0  # the Magnet


def legal_actions(state) -> list[int]:
    """``State._legal_actions``: as ``state._legal_by_rule()``; on a turn (before the move), the
    destinations straight from the game's rook table when neither the 2-player co-op axis nor
    the Fence binds the player, and that table itself (a static list, which
    ``State.legal_actions`` copies) when no Artefact can be used."""
    if state.phase != TURN:
        return state._legal_by_rule()
    p = state.turn_player
    if state.axis[p] < 0 and state.fence_seat != p:
        moves = state.game.rook[state.token]  # as State._rook_moves
    else:
        moves = state._rook_moves()
    if NEVER_PRE_MOVE.issuperset(state.held[p]):
        return moves
    uses = use_actions(state, C.PRE_MOVE)
    return moves + uses if uses else moves


def apply_action(state, action: int) -> None:
    """``State._apply_action``: as ``state._apply_by_rule(action)``; a rook move (the common
    case) with ``State._arrive`` and ``State._after_move`` written out, the after-move
    Artefacts looked at only when the player holds one that may be usable then."""
    if state.phase != TURN or action >= PLACE0:
        state._apply_by_rule(action)
        return
    if state.game.axis_rule:  # a rook move to square ``action`` (MOVE ids are the squares)
        state._bind_axis(action)
    state.token = action
    p = state.turn_player
    card = state.board[action]
    if card >= 0 and state.can_collect(p, card):
        state._collect(p, action)
    if state.art_square[action] >= 0:
        state._pick_up(p, action)
    if NEVER_POST_MOVE.issuperset(state.held[p]):
        state._end_turn()
    else:
        state._after_move()
