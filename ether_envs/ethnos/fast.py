"""Ethnos fast paths, apart from the rule text.

Each gives the same answers as a plain rule (named below);
``tests/ethnos/test_fast_path.py`` and ``tests/ethnos/test_observation_cache.py``
check them against each other at every step of random games.

* The card counts ``State._hand_sizes`` (cards in each hand), ``State._kept_count``
  (the Elves' kept cards) and ``State._face_up_count``, kept in step with the rows of
  ``State.cards`` they count. Plain rule: the rows' sums.
* The journal of changed cells: every change of a cell of ``State.cards`` or
  ``State.tally`` goes through ``State._add_card`` / ``_set_card`` / ``_add_tally`` /
  ``_set_tally``, which note the cell in ``State._journal`` as one int
  (:func:`cards_entry`, :func:`tally_entry`; :func:`entry_cell` reads one back). The
  incremental observation encoder (``observation.Encoder``) rewrites just those cells
  of its seat-absolute vector. While a state has never been observed, the journal is
  :data:`NO_JOURNAL`, which keeps nothing. Plain rule: the observation encoded from the
  arrays alone (a state without the encoder's cache).
* A clone shares its original's generator until either draws from it
  (``State._private_rng`` copies it first).
"""

from __future__ import annotations

import collections
from enum import IntEnum

from . import components as C

TALLY_ENTRY0 = 1 << 20
"""Journal entries from here on name a cell of ``State.tally``; below, a cell of ``State.cards``."""
NO_JOURNAL = collections.deque(maxlen=0)
"""The journal of a state no encoding follows: it drops what it is given."""


class Table(IntEnum):
    """The table a journal entry names a cell of."""

    CARDS = 0  # State.cards: (row, kind)
    TALLY = 1  # State.tally: (seat, column)


def cards_entry(row: int, kind: int) -> int:
    """The journal entry of cell ``(row, kind)`` of ``State.cards``."""
    return row * C.NUM_KINDS + kind


def tally_entry(seat: int, column: int, width: int) -> int:
    """The journal entry of cell ``(seat, column)`` of ``State.tally`` (``width`` columns)."""
    return TALLY_ENTRY0 + seat * width + column


def entry_cell(entry: int, width: int) -> tuple[Table, int, int]:
    """``(table, row, column)`` of a journal entry (``width``: columns of ``State.tally``)."""
    if entry < TALLY_ENTRY0:
        return (Table.CARDS, *divmod(entry, C.NUM_KINDS))
    return (Table.TALLY, *divmod(entry - TALLY_ENTRY0, width))
