"""Observation layout: one flat float32 vector made of named pieces.

A game's encoder declares its pieces in order; :class:`ObservationLayout`
computes the slices, the bounds of the observation ``Box`` and named views onto
a preallocated buffer, so the encoder writes in place and the docs table is
generated from the same declaration.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np


@dataclass(frozen=True)
class Piece:
    """A named piece of the observation.

    Attributes:
        name: snake_case name, e.g. ``"grid"``.
        shape: shape of the piece (its entries are laid out C-contiguously).
        low, high: inclusive bounds of every entry.
        describe: meaning, units and range, for the docs table.
    """

    name: str
    shape: tuple[int, ...]
    low: float
    high: float
    describe: str

    @property
    def size(self) -> int:
        return int(prod(self.shape))


class ObservationLayout:
    """Ordered pieces -> slices, bounds and views.

    Raises:
        ValueError: on duplicate piece names or inverted bounds.
    """

    def __init__(self, pieces: list[Piece]):
        names = [p.name for p in pieces]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate observation piece names in {names}")
        self.pieces = tuple(pieces)
        self.slices: dict[str, slice] = {}
        start = 0
        for p in self.pieces:
            if p.low > p.high:
                raise ValueError(f"piece {p.name}: low {p.low} > high {p.high}")
            self.slices[p.name] = slice(start, start + p.size)
            start += p.size
        self.size = start
        self.low = np.concatenate([np.full(p.size, p.low, np.float32) for p in self.pieces])
        self.high = np.concatenate([np.full(p.size, p.high, np.float32) for p in self.pieces])

    def new_buffer(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """A zeroed float32 buffer of shape ``(size,)`` and named reshaped views onto it."""
        buf = np.zeros(self.size, dtype=np.float32)
        return buf, self.views(buf)

    def views(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        """Named views (reshaped, sharing memory) onto a flat observation."""
        return {p.name: buf[self.slices[p.name]].reshape(p.shape) for p in self.pieces}

    def table_markdown(self) -> str:
        """The observation table used in each env's module docstring."""
        rows = ["| Slice | Name | Shape | Range | Meaning |", "|---|---|---|---|---|"]
        for p in self.pieces:
            s = self.slices[p.name]
            rows.append(
                f"| {s.start}-{s.stop - 1} | {p.name} | {p.shape} | [{p.low:g}, {p.high:g}] | {p.describe} |"
            )
        return "\n".join(rows)
