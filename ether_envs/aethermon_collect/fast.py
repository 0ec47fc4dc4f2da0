"""Aethermon: Collect fast paths, apart from the rule text.

Each gives the same answers as a plain rule of ``rules.State`` (named below);
``tests/aethermon_collect/test_fast_path.py`` checks them against each other at
every step of random games of every conformance configuration.

* :func:`is_legal` (``State._is_legal``): whether an action is legal, without
  listing the legal actions for the frequent ones (a move, an Artefact, a draft).
  Plain rule: ``action in State._legal_actions()``.
* :func:`use_actions` (``State._use_actions``): the Artefacts the turn player may use
  now, none tested when every Artefact held is one that is never usable at that time
  (:data:`NEVER_PRE_MOVE`, :data:`NEVER_POST_MOVE`), as on most turns. Plain rule:
  ``State._use_actions_by_rule``.
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
from .codec import DRAFT, DRAFT0, END_TURN, PLACE0, POST_MOVE, TARGET0, TURN, USE0

NEVER_PRE_MOVE = frozenset(a.artefact_id for a in C.ARTEFACTS if a.timing != C.PRE_MOVE and a.key != "mirror")
"""Artefacts never usable before the move (a Mirror may copy one that is)."""
NEVER_POST_MOVE = frozenset(a.artefact_id for a in C.ARTEFACTS if a.timing != C.POST_MOVE and a.key != "mirror")
"""Artefacts never usable right after the move."""
_NEVER = {C.PRE_MOVE: NEVER_PRE_MOVE, C.POST_MOVE: NEVER_POST_MOVE}


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
    """``State._is_legal``: agrees with ``action in state._legal_actions()``, without listing
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
    player holds only Artefacts never usable at ``timing``."""
    if _NEVER[timing].issuperset(state.held[state.turn_player]):
        return []
    return state._use_actions_by_rule(timing)
