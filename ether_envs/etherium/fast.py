"""Etherium fast paths, apart from the rule text.

Each gives the same answers as a plain rule (named below);
``tests/etherium/test_fast_path.py`` checks them against each other at every step
of random games.

* :func:`move_table`: a Move's options and their action ids, kept per game in
  ``Game.move_tables`` under what they depend on (the seat, the colour of the
  Move space, the free steps, the two unit boxes), so that each is worked out
  once. Plain rule: ``ActionRules.move_options`` (rulebook "Move Unit").
"""

from __future__ import annotations

from typing import NamedTuple

from . import components as C
from .codec import MOVE0


class MoveTable(NamedTuple):
    """The Moves a seat may make on a Move space (shared: never mutate)."""

    options: tuple[tuple[int, int], ...]  # (unit, box) pairs, as ``move_options``
    actions: list[int]  # their MOVE_UNIT action ids


def move_table(state, p: int, colour: int) -> MoveTable:
    """``state.move_options(p, colour)`` and their action ids, from the game's table
    (filled on first use)."""
    free = state.free_steps(p)
    pos = state.pos[p]
    key = (p, colour, free, pos[C.GATHERER], pos[C.SOLDIER])
    table = state.game.move_tables.get(key)
    if table is None:
        options = tuple(state.move_options(p, colour))
        table = state.game.move_tables[key] = MoveTable(options, [MOVE0 + u * C.NUM_BOXES + b for u, b in options])
    return table
