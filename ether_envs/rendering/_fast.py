"""The pictures of consecutive positions, drawn faster: :class:`PictureSequence`
(the fast path of ``save_html`` and ``save_gif``; ``render_rgb`` draws each
picture whole, the plain way, and is the reference).

Consecutive positions of a game look alike: a replay's next picture differs from
the last in a few places (the highlighted row, a card, a count: about 4% of the
pixels of an Ethnos picture). Drawing a picture is almost all matplotlib's work
(Ethnos: about 100 texts and 150 shapes, 0.12-0.15 s of CPU), so the fast path
draws again only what changed, and gets the same pixels:

1. The game's ``draw(state, canvas)`` runs on a :class:`RecordingCanvas`, which
   draws nothing and lists the calls of the :class:`~ether_envs.rendering.Canvas`
   primitives (:data:`PRIMITIVES`) with their arguments. Equal calls draw equal
   pixels.
2. matplotlib draws a picture's artists in order of ``z``, in call order among
   equal ``z``. The calls so ordered are matched against the last picture's
   (``difflib``): matched calls keep their order, so a pixel that no unmatched
   call (new, or gone since the last picture) touches keeps its value. A call
   touches only pixels inside its *extent*: its shape's bounding box widened by
   its line width and antialiasing; for a text, the box matplotlib lays it out
   in, widened by a quarter of its font size (:data:`TEXT_PAD`).
3. The 8 x 8-pixel tiles that the unmatched calls' extents touch are drawn again:
   matplotlib draws every call whose extent touches one of them (in their
   order, through the same ``Canvas`` methods), and those tiles of its picture
   replace the last picture's. A pixel of those tiles is the blend of the same
   calls in the same order as in the whole picture: the calls left out never
   touch it.

``tests/rendering/test_fast.py`` checks the pictures against ``render_rgb``'s,
pixel for pixel, on positions of every game. A drawing module that reaches past
the primitives (``canvas.ax``, ``canvas.fig``, ``canvas._add``) gets its
pictures drawn whole, the plain way.
"""

from __future__ import annotations

import difflib
import inspect
import math
from typing import Any, NamedTuple

import numpy as np

from . import DEFAULT_SIZE, DPI, Canvas, _drawing

PRIMITIVES = ("box", "circle", "wedge", "polygon", "line", "text")
"""The ``Canvas`` methods that add an artist; every other drawing helper calls them."""

ANTIALIAS = 2
"""Pixels an antialiased shape may touch beyond its outline."""

TILE = 8
"""Edge in pixels of the grid the redrawn rectangles are made of."""

TEXT_PAD = 0.25
"""How far (in ems, the font size) a text's ink may reach beyond the box matplotlib lays
it out in: at most 0.11 em (1.3 pixels) over the 3,578 distinct texts of two random games
of every game (measured 2026-12-05), so a quarter em, plus :data:`ANTIALIAS`."""

TEXT_OPTIONS = frozenset(("linespacing", "rotation", "rotation_mode", "fontstyle", "style", "family", "fontfamily",
                          "alpha", "fontstretch", "stretch", "fontvariant", "variant"))
"""Extra options of ``Canvas.text`` (matplotlib's) whose ink stays near the box the text is laid
out in (:meth:`PictureSequence._measure`); with any other, a text's extent is the whole picture."""

_SIGNATURES = {name: inspect.signature(getattr(Canvas, name)) for name in PRIMITIVES}


class NotRecordable(Exception):
    """A drawing module used the canvas beyond its primitives (``canvas.ax``, ``canvas.fig``)."""


_SCALARS = frozenset((int, float, str, bool, type(None)))


def _frozen(value: Any) -> Any:
    """``value`` as a hashable key (lists and tuples to tuples, dicts to sorted pairs)."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    return value


class Call(NamedTuple):
    """One recorded call of a ``Canvas`` primitive."""

    key: tuple
    """``(method, positional arguments, keyword arguments)``: equal keys draw equal pixels."""
    method: str
    args: tuple
    kwargs: dict
    z: float
    """Its ``z`` (matplotlib's ``zorder``)."""

    def draw(self, canvas: Canvas) -> None:
        """Make the call on a real ``canvas``."""
        getattr(Canvas, self.method)(canvas, *self.args, **self.kwargs)


def _recorder(method: str):
    signature = _SIGNATURES[method]
    names = list(signature.parameters)[1:]  # without self
    z_at, z_default = names.index("z"), signature.parameters["z"].default

    def record(self, *args, **kwargs):
        key = (method, _frozen(args), _frozen(kwargs))
        try:
            hash(key)
        except TypeError:  # an argument that cannot be compared: never matched
            key = (method, object())
        z = kwargs["z"] if "z" in kwargs else args[z_at] if len(args) > z_at else z_default
        args = tuple(a.copy() if isinstance(a, (list, dict)) else a for a in args)  # as they are now
        self.calls.append(Call(key, method, args, kwargs.copy(), float(z)))

    record.__name__ = method
    record.__doc__ = f"Record a call of ``Canvas.{method}``."
    return record


class RecordingCanvas(Canvas):
    """A :class:`~ether_envs.rendering.Canvas` that draws nothing: its primitives
    append a :class:`Call` to :attr:`calls`; the other helpers (``card``,
    ``header``...) are the canvas's own, made of primitives. Using ``ax`` or
    ``fig`` raises :class:`NotRecordable`."""

    def __init__(self, width: int, height: int):  # no figure
        self.width, self.height = int(width), int(height)
        self.calls: list[Call] = []
        self.targets = []  # Canvas.target's, as a Canvas keeps them

    @property
    def ax(self):
        raise NotRecordable("the drawing uses canvas.ax")

    @property
    def fig(self):
        raise NotRecordable("the drawing uses canvas.fig")

    def _add(self, artist) -> None:
        raise NotRecordable("the drawing adds a matplotlib artist")

    def to_rgb(self) -> np.ndarray:
        raise NotRecordable("a recording canvas has no picture")

    box = _recorder("box")
    circle = _recorder("circle")
    wedge = _recorder("wedge")
    polygon = _recorder("polygon")
    line = _recorder("line")
    text = _recorder("text")


def record(module, state, size: tuple[int, int]) -> list[Call]:
    """The primitive calls of ``module.draw(state, canvas)``, in the order
    matplotlib draws them (by ``z``, then call order)."""
    canvas = RecordingCanvas(*size)
    module.draw(state, canvas)
    return sorted(canvas.calls, key=lambda c: c.z)  # stable, as matplotlib's


class PictureSequence:
    """The pictures of a game's states, one after the other, each equal to
    ``render_rgb(state)`` pixel for pixel, drawn from the last one where the
    states are alike (module docstring).

    Args:
        game: the game's name (its drawing module draws the pictures).

    Attributes:
        game: the game's name.
        width, height: the pictures' size in pixels.
        drawn_pixels: pixels drawn so far (the whole picture counts for a
            picture drawn whole), to measure what the fast path saves.
    """

    def __init__(self, game: str):
        self.game = game
        self._module = _drawing(game)
        self.width, self.height = getattr(self._module, "SIZE", DEFAULT_SIZE)
        self._canvas = Canvas(self.width, self.height)  # reused: matplotlib keeps its text layouts per renderer
        self._calls: list[Call] | None = None
        self._picture: np.ndarray | None = None
        self._extents: dict[tuple, tuple[int, int, int, int]] = {}
        self.drawn_pixels = 0

    def picture(self, state) -> np.ndarray:
        """``render_rgb(state)``: uint8 array of shape ``(height, width, 3)``."""
        try:
            calls = record(self._module, state, (self.width, self.height))
        except NotRecordable:  # drawn whole, as render_rgb does
            canvas = Canvas(self.width, self.height)
            self._module.draw(state, canvas)
            self._calls, self._picture = None, canvas.to_rgb()
            self.drawn_pixels += self.width * self.height
            return self._picture.copy()
        if self._calls is None:
            self._picture = np.ascontiguousarray(self._draw(calls)[..., :3])
            self.drawn_pixels += self.width * self.height
        else:
            dirty = self._tiles(self._changed(calls))
            if dirty.any():
                drawn = self._draw([c for c in calls if self._meets(c, dirty)])
                for x0, y0, x1, y1 in self._rectangles(dirty):
                    rows = slice(self.height - y1, self.height - y0)
                    self._picture[rows, x0:x1] = drawn[rows, x0:x1, :3]
                    self.drawn_pixels += (x1 - x0) * (y1 - y0)
        self._calls = calls
        return self._picture.copy()

    # -- what changed --------------------------------------------------------------
    def _changed(self, calls: list[Call]) -> list[Call]:
        """The calls of the last picture or this one left unmatched (module docstring, 2)."""
        before = self._calls
        matcher = difflib.SequenceMatcher(None, [c.key for c in before], [c.key for c in calls], autojunk=False)
        out = []
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag != "equal":
                out += before[i1:i2]
                out += calls[j1:j2]
        return out

    def _extent(self, call: Call) -> tuple[int, int, int, int]:
        """The pixels ``call`` may touch: ``(x0, y0, x1, y1)``, display pixels (origin
        at the bottom left), ``x1`` and ``y1`` excluded."""
        e = self._extents.get(call.key)
        if e is None:
            e = self._extents[call.key] = self._measure(call)
        return e

    def _measure(self, call: Call) -> tuple[int, int, int, int]:
        bound = _SIGNATURES[call.method].bind(None, *call.args, **call.kwargs)
        bound.apply_defaults()
        a = bound.arguments
        points = DPI / 72.0
        if call.method == "text":
            if not a["kw"].keys() <= TEXT_OPTIONS:  # e.g. a bbox around it: anywhere
                return 0, 0, self.width, self.height
            x0, y0, x1, y1 = self._text_box(call)
            pad = TEXT_PAD * a["size"] * points + ANTIALIAS
        else:
            lw = a["lw"] * points
            if call.method == "box":
                x0, y0, x1, y1 = a["x"], a["y"], a["x"] + a["w"], a["y"] + a["h"]
                x0, x1, y0, y1 = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
                pad = lw / 2 + ANTIALIAS
            elif call.method in ("circle", "wedge"):
                r = abs(a["r"])
                x0, y0, x1, y1 = a["x"] - r, a["y"] - r, a["x"] + r, a["y"] + r
                pad = lw / 2 + ANTIALIAS
            elif call.method == "polygon":
                xs, ys = [p[0] for p in a["points"]], [p[1] for p in a["points"]]
                x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
                pad = 4 * lw + ANTIALIAS  # mitred corners reach out up to 4 line widths (Agg's limit)
            else:  # line
                x0, y0, x1, y1 = min(a["xs"]), min(a["ys"]), max(a["xs"]), max(a["ys"])
                pad = 4 * lw + ANTIALIAS
        return (math.floor(x0 - pad), math.floor(y0 - pad), math.ceil(x1 + pad) + 1, math.ceil(y1 + pad) + 1)

    def _text_box(self, call: Call) -> tuple[float, float, float, float]:
        """The box matplotlib lays the text of ``call`` out in (display pixels)."""
        ax = self._canvas.ax
        call.draw(self._canvas)
        artist = ax.texts[-1]
        box = artist.get_window_extent(self._canvas.fig.canvas.get_renderer())
        artist.remove()
        return box.x0, box.y0, box.x1, box.y1

    def _span(self, call: Call) -> tuple[slice, slice]:
        """The (rows, columns) of the tile grid that ``call``'s extent touches."""
        x0, y0, x1, y1 = self._extent(call)
        t = TILE
        return slice(max(0, y0 // t), max(0, -(-y1 // t))), slice(max(0, x0 // t), max(0, -(-x1 // t)))

    def _tiles(self, changed: list[Call]) -> np.ndarray:
        """The tiles (bool, rows from the bottom) that the ``changed`` calls touch."""
        t = TILE
        grid = np.zeros((-(-self.height // t), -(-self.width // t)), bool)
        for call in changed:
            grid[self._span(call)] = True
        return grid

    def _meets(self, call: Call, tiles: np.ndarray) -> bool:
        """Whether ``call`` touches any of ``tiles``."""
        return bool(tiles[self._span(call)].any())

    def _rectangles(self, tiles: np.ndarray) -> list[tuple[int, int, int, int]]:
        """``tiles`` as rectangles ``(x0, y0, x1, y1)`` of display pixels (clipped to the
        picture): runs along each row of tiles, stacked where they line up."""
        t = TILE
        rects: list[list[int]] = []  # [c0, r0, c1, r1] in tiles
        open_below: dict[tuple[int, int], int] = {}
        for r, line in enumerate(tiles):
            edges = np.flatnonzero(np.diff(np.concatenate(([0], line.astype(np.int8), [0])))).tolist()
            still = {}
            for c0, c1 in zip(edges[::2], edges[1::2]):
                k = open_below.get((c0, c1))
                if k is None:
                    rects.append([c0, r, c1, r + 1])
                    k = len(rects) - 1
                else:
                    rects[k][3] = r + 1
                still[(c0, c1)] = k
            open_below = still
        return [(c0 * t, r0 * t, min(c1 * t, self.width), min(r1 * t, self.height)) for c0, r0, c1, r1 in rects]

    # -- drawing ------------------------------------------------------------------
    def _draw(self, calls: list[Call]) -> np.ndarray:
        """The picture of ``calls`` alone, drawn by matplotlib on the reused canvas: a
        view (RGBA, ``(height, width, 4)``) of its buffer, valid until the next draw."""
        canvas, ax = self._canvas, self._canvas.ax
        for call in calls:
            call.draw(canvas)
        canvas.fig.canvas.draw()
        for artist in [*ax.patches, *ax.texts, *ax.lines]:
            artist.remove()
        return np.asarray(canvas.fig.canvas.buffer_rgba())
