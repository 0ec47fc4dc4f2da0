"""A flat ``Discrete(N)`` action codec made of named, ordered blocks.

Each game declares its action space as an ordered list of :class:`Block`
objects. Block ``k`` occupies the ids ``offset_k .. offset_k + size_k - 1``, in
declaration order (never sorted by name), so ``N = sum(size_k)`` and an action
id decodes to ``(block name, index inside the block)`` by arithmetic.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np


@dataclass(frozen=True)
class Block:
    """One contiguous block of action ids.

    Attributes:
        name: upper-case block name, e.g. ``"MOVE"``.
        size: number of ids in the block (>= 1).
        describe: what the index inside the block means, for the docs table.
        label: optional ``index -> str`` used by ``ActionCodec.name``.
    """

    name: str
    size: int
    describe: str
    label: Callable[[int], str] | None = None


class ActionCodec:
    """Maps ``(block, index)`` pairs to flat action ids and back.

    Raises:
        ValueError: on duplicate block names, empty blocks, unknown block names
            or out-of-range indices and ids.
    """

    def __init__(self, blocks: Sequence[Block]):
        names = [b.name for b in blocks]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate block names in {names}")
        self.blocks = tuple(blocks)
        self.offsets: dict[str, int] = {}
        self._starts: list[int] = []
        offset = 0
        for b in self.blocks:
            if b.size < 1:
                raise ValueError(f"block {b.name} has size {b.size}; must be >= 1")
            self.offsets[b.name] = offset
            self._starts.append(offset)
            offset += b.size
        self.size = offset
        self._sizes = {b.name: b.size for b in self.blocks}
        self._names = [self._name(i) for i in range(self.size)]

    def encode(self, block: str, index: int = 0) -> int:
        """Flat id of ``index`` inside ``block``."""
        try:
            size = self._sizes[block]
        except KeyError:
            raise ValueError(f"unknown action block {block!r}; blocks: {list(self._sizes)}") from None
        if not 0 <= index < size:
            raise ValueError(f"index {index} out of range for block {block} of size {size}")
        return self.offsets[block] + index

    def decode(self, action: int) -> tuple[str, int]:
        """``(block name, index)`` of a flat id."""
        if not 0 <= int(action) < self.size:
            raise ValueError(f"action {action} out of range [0, {self.size})")
        k = bisect.bisect_right(self._starts, int(action)) - 1
        b = self.blocks[k]
        return b.name, int(action) - self._starts[k]

    def _name(self, action: int) -> str:
        block, index = self.decode(action)
        b = self.blocks[[x.name for x in self.blocks].index(block)]
        if b.label is not None:
            return f"{block}({b.label(index)})"
        return block if b.size == 1 else f"{block}({index})"

    def name(self, action: int) -> str:
        """Human-readable name of an id, e.g. ``"MOVE(c4)"``."""
        if not 0 <= int(action) < self.size:
            raise ValueError(f"action {action} out of range [0, {self.size})")
        return self._names[int(action)]

    def mask(self, legal: Sequence[int]) -> np.ndarray:
        """int8 mask of shape ``(size,)`` with ones at ``legal``."""
        m = np.zeros(self.size, dtype=np.int8)
        m[list(legal)] = 1
        return m

    def table_markdown(self) -> str:
        """The action-block table used in each env's module docstring."""
        rows = ["| Ids | Block | Index meaning |", "|---|---|---|"]
        for b in self.blocks:
            lo = self.offsets[b.name]
            rng = f"{lo}" if b.size == 1 else f"{lo}-{lo + b.size - 1}"
            rows.append(f"| {rng} | {b.name} | {b.describe} |")
        return "\n".join(rows)
