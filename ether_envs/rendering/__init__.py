"""Pictures of game states (``render_mode="rgb_array"``), animated GIFs and HTML replays.

A game gets pictures by adding ONE module, ``ether_envs/rendering/<game>.py``
(``<game>`` = its name in ``ether_envs.GAMES``), that defines::

    SIZE = (800, 800)                 # optional: (width, height) in pixels, fixed per game

    def draw(state, canvas: Canvas) -> None:
        ...                           # draw the neutral (public) view of ``state``

That is the whole registry: :func:`has_drawing` finds the module by its name,
the generic env then offers ``"rgb_array"`` among its render modes, and
:func:`render_rgb`, :func:`save_gif` and :func:`save_html` work for the game.
A module may also mark where a click on the picture chooses a move
(``canvas.target(action, x, y, w, h)``, which draws nothing; :func:`click_targets`).
Drawing modules use the helpers of :class:`Canvas` (pixel coordinates, origin
at the bottom left) so that every game's pictures look alike; drawing only
through them (not ``canvas.ax``) lets :func:`save_html` and :func:`save_gif`
draw each picture from the last one, with the same pixels, several times
faster (``_fast.py``).

matplotlib (and pillow, which it depends on) is imported lazily, only when a
picture is drawn: ``pip install ether-envs[render]``. The figures use the Agg
canvas directly and never touch pyplot's global backend, so they work in
notebooks and on headless machines alike.
"""

from __future__ import annotations

import html
import importlib
import importlib.util
import json
import pkgutil
import string
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

DEFAULT_SIZE = (800, 800)
"""(width, height) in pixels of a picture when the drawing module sets no ``SIZE``."""
DPI = 100

# Shared look: background, ink, and one colour per seat (colour-blind friendly, Okabe-Ito).
BACKGROUND = "#f7f5ef"
INK = "#222222"
MUTED = "#8a8a8a"
PLAYER_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
"""Seat colours, ``PLAYER_COLORS[seat]`` (up to 6 seats)."""


def tint(hex_color: str, amount: float) -> str:
    """``hex_color`` (``"#rrggbb"``) mixed with white; ``amount`` in [0, 1] is the share of white."""
    rgb = [int(hex_color[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * amount):02x}" for c in rgb)


# ---- the registry (by module name) ----------------------------------------------
def drawing_module_name(game: str) -> str:
    """Module that draws ``game``: ``ether_envs.rendering.<game>``."""
    return f"{__name__}.{game}"


def has_drawing(game: str) -> bool:
    """Whether ``game`` has a drawing module (so ``render_mode="rgb_array"`` works).
    Cheap: finds the module without importing it or matplotlib."""
    return importlib.util.find_spec(drawing_module_name(game)) is not None


def games_with_drawings() -> list[str]:
    """Registered games (``ether_envs.GAMES``) that have a drawing module, sorted."""
    from .. import GAMES

    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name in GAMES)


def _drawing(game: str):
    if not has_drawing(game):
        raise ValueError(f"no drawing module for game {game!r}: add ether_envs/rendering/{game}.py "
                         f"(games with pictures: {games_with_drawings()})")
    return importlib.import_module(drawing_module_name(game))


def picture_size(game: str) -> tuple[int, int]:
    """(width, height) in pixels of ``game``'s pictures; ``render_rgb`` returns
    arrays of shape ``(height, width, 3)``."""
    return tuple(getattr(_drawing(game), "SIZE", DEFAULT_SIZE))


# ---- matplotlib, lazily ---------------------------------------------------------
def _matplotlib():
    """matplotlib's ``Figure`` and Agg canvas (no pyplot, no global backend change)."""
    try:
        import matplotlib  # noqa: F401  (fails first when matplotlib is missing)
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as e:
        raise ImportError("pictures of the games need matplotlib: pip install 'ether-envs[render]' "
                          "(or pip install matplotlib pillow)") from e
    return Figure, FigureCanvasAgg


def _pillow():
    try:
        from PIL import Image
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError("GIF and HTML replays need pillow: pip install 'ether-envs[render]'") from e
    return Image


class Canvas:
    """A fixed-size matplotlib figure with one axes spanning it, in pixel
    coordinates (x right, y up, origin at the bottom left), plus the drawing
    helpers shared by every game's pictures.

    Attributes:
        width, height: size in pixels.
        fig: the ``matplotlib.figure.Figure`` (Agg canvas).
        ax: the axes covering the whole figure, axis lines off.
    """

    def __init__(self, width: int, height: int):
        Figure, FigureCanvasAgg = _matplotlib()
        self.width, self.height = int(width), int(height)
        self.fig = Figure(figsize=(self.width / DPI, self.height / DPI), dpi=DPI, facecolor=BACKGROUND)
        FigureCanvasAgg(self.fig)
        self.ax = self.fig.add_axes((0, 0, 1, 1))
        self.ax.set_xlim(0, self.width)
        self.ax.set_ylim(0, self.height)
        self.ax.set_axis_off()
        self.targets: list[tuple[int, float, float, float, float]] = []

    # -- what a click on the picture chooses ------------------------------------------
    def target(self, action: int, x: float, y: float, w: float, h: float) -> None:
        """Record that the box with its bottom-left corner at (x, y), ``w`` x ``h``
        pixels, stands for ``action`` (a square the Group Token may move to, a space
        for a pillar): draws nothing. :func:`click_targets` gives the legal ones."""
        self.targets.append((int(action), float(x), float(y), float(w), float(h)))

    # -- primitives -------------------------------------------------------------
    def _add(self, artist) -> None:
        # add_artist, not add_patch: the view limits are fixed, so skip their update
        artist.set_clip_on(False)
        self.ax.add_artist(artist)

    def box(self, x: float, y: float, w: float, h: float, face: str = "white", edge: str = INK,
            lw: float = 1.0, radius: float = 6.0, alpha: float = 1.0, hatch: str | None = None,
            style: str = "-", z: float = 1) -> None:
        """A rounded rectangle with its bottom-left corner at (x, y); ``style`` is
        the edge's line style ("-", "--", ":")."""
        from matplotlib.patches import FancyBboxPatch

        r = min(radius, w / 2, h / 2)
        self._add(FancyBboxPatch((x + r, y + r), max(w - 2 * r, 0), max(h - 2 * r, 0),
                                 boxstyle=f"round,pad={r}", facecolor=face, edgecolor=edge, linewidth=lw,
                                 linestyle=style, alpha=alpha, hatch=hatch, zorder=z))

    def circle(self, x: float, y: float, r: float, face: str = "white", edge: str = INK,
               lw: float = 1.0, z: float = 2) -> None:
        """A circle centred on (x, y)."""
        from matplotlib.patches import Circle

        self._add(Circle((x, y), r, facecolor=face, edgecolor=edge, linewidth=lw, zorder=z))

    def wedge(self, x: float, y: float, r: float, start: float, end: float, face: str = "white",
              edge: str = INK, lw: float = 1.0, z: float = 2) -> None:
        """A wedge (a slice of the disc of radius ``r`` centred on (x, y)) from angle
        ``start`` to ``end``, in degrees counter-clockwise from the x axis."""
        from matplotlib.patches import Wedge

        self._add(Wedge((x, y), r, start, end, facecolor=face, edgecolor=edge, linewidth=lw, zorder=z))

    def polygon(self, points: Sequence[tuple[float, float]], face: str = "white", edge: str = INK,
                lw: float = 1.0, alpha: float = 1.0, z: float = 1) -> None:
        """A closed polygon through ``points`` (e.g. a hex of a map)."""
        from matplotlib.patches import Polygon

        self._add(Polygon(list(points), closed=True, facecolor=face, edgecolor=edge, linewidth=lw,
                          alpha=alpha, zorder=z))

    def line(self, xs: Sequence[float], ys: Sequence[float], color: str = INK, lw: float = 1.0,
             style: str = "-", z: float = 3) -> None:
        """A polyline through the points (xs[i], ys[i])."""
        self.ax.plot(xs, ys, color=color, linewidth=lw, linestyle=style, zorder=z, solid_capstyle="round")

    def text(self, x: float, y: float, s: str, size: float = 11, color: str = INK, ha: str = "left",
             va: str = "center", weight: str = "normal", z: float = 4, **kw: Any) -> None:
        """Text anchored at (x, y); ``size`` in points."""
        self.ax.text(x, y, s, fontsize=size, color=color, ha=ha, va=va, fontweight=weight, zorder=z,
                     clip_on=False, **kw)

    def card(self, x: float, y: float, w: float, h: float, color: str, title: str = "", value: str = "",
             caption: str = "", title_size: float = 8.5, value_size: float = 24, caption_size: float = 8.5,
             z: float = 1) -> None:
        """A face-up card: body tinted from ``color``, a ``color`` band at the top
        with ``title`` in white, ``value`` large in the middle, ``caption`` small
        at the bottom. (x, y) is the bottom-left corner."""
        r = min(w, h) * 0.1
        self.box(x, y, w, h, face=tint(color, 0.55), edge=color, lw=1.5, radius=r, z=z)
        band = h * 0.26
        self.box(x, y + h - band, w, band, face=color, edge=color, lw=0, radius=r, z=z + 0.1)
        if title:
            self.text(x + w / 2, y + h - band / 2, title, size=title_size, color="white", ha="center",
                      weight="bold", z=z + 3)
        if value:
            self.text(x + w / 2, y + h * 0.44, value, size=value_size, ha="center", weight="bold", z=z + 3)
        if caption:
            self.text(x + w / 2, y + h * 0.12, caption, size=caption_size, ha="center", color="#333333", z=z + 3)

    # -- shared elements of every game's picture -----------------------------------
    def header(self, title: str, subtitle: str = "", height: float = 56) -> float:
        """The title band at the top; returns the y of its lower edge."""
        y0 = self.height - height
        self.box(0, y0, self.width, height, face="#2b2d42", edge="#2b2d42", radius=0, z=0.5)
        self.text(16, y0 + height * 0.64, title, size=17, color="white", weight="bold")
        if subtitle:
            self.text(16, y0 + height * 0.24, subtitle, size=10.5, color="#d9d9e3")
        return y0

    def player_tag(self, x: float, y: float, seat: int, label: str | None = None, active: bool = False,
                   size: float = 11) -> None:
        """A seat's colour dot and name (``player_<seat>``); ``active`` marks the
        player to act with a triangle before the dot."""
        color = PLAYER_COLORS[seat % len(PLAYER_COLORS)]
        if active:
            self.text(x - 4, y, "\u25B6", size=size, color=INK, ha="right")
        self.circle(x + 7, y, 6.5, face=color, edge=INK, lw=0.8, z=4)
        self.text(x + 19, y, label if label is not None else f"player_{seat}", size=size,
                  weight="bold" if active else "normal")

    def banner(self, text: str, y: float, color: str = "#2b2d42") -> None:
        """A full-width band with centred bold text (e.g. the game-over result)."""
        self.box(12, y - 18, self.width - 24, 36, face=color, edge=color, radius=8, alpha=0.92, z=6)
        self.text(self.width / 2, y, text, size=14, color="white", ha="center", weight="bold", z=7)

    # -- output -----------------------------------------------------------------
    def to_rgb(self) -> np.ndarray:
        """The picture: uint8 array of shape ``(height, width, 3)``."""
        self.fig.canvas.draw()
        rgba = np.asarray(self.fig.canvas.buffer_rgba())
        return np.ascontiguousarray(rgba[..., :3])


# ---- pictures of states ------------------------------------------------------------
def render_rgb(state) -> np.ndarray:
    """The neutral (public) picture of an engine ``state`` (same view as ``ansi``).

    Returns:
        uint8 array of shape ``(height, width, 3)``, fixed per game (see
        :func:`picture_size`; 800 x 800 unless the drawing module sets ``SIZE``).

    Raises:
        ValueError: the game has no drawing module.
        ImportError: matplotlib is not installed.
    """
    module = _drawing(state.game.spec.name)
    w, h = getattr(module, "SIZE", DEFAULT_SIZE)
    canvas = Canvas(w, h)
    module.draw(state, canvas)
    return canvas.to_rgb()


def click_targets(state, actions: Iterable[int] | None = None) -> list[dict[str, Any]]:
    """Where the picture of ``state`` (:func:`render_rgb`) may be clicked to choose a
    move: the boxes its drawing module recorded with :meth:`Canvas.target`, for the
    actions in ``actions`` (default: ``state.legal_actions()``) only. The drawing runs
    on a canvas that draws nothing (no matplotlib needed); the boxes are public
    geometry of the public picture.

    Returns:
        ``[{"action", "x", "y", "w", "h"}]`` in picture pixels, origin at the TOP left
        (as a browser places them), rounded to 0.1 pixel; in drawing order (a later box
        lies over an earlier one). ``[]`` for a game without a drawing module or
        whose module records no targets.
    """
    name = state.game.spec.name
    if not has_drawing(name):
        return []
    from ._fast import NotRecordable, RecordingCanvas

    module = _drawing(name)
    w, h = getattr(module, "SIZE", DEFAULT_SIZE)
    try:
        canvas = RecordingCanvas(w, h)
        module.draw(state, canvas)
    except NotRecordable:  # the module draws with matplotlib directly: draw it for real
        canvas = Canvas(w, h)
        module.draw(state, canvas)
    wanted = set(state.legal_actions() if actions is None else actions)
    return [{"action": a, "x": round(x, 1), "y": round(h - y - bh, 1), "w": round(bw, 1), "h": round(bh, 1)}
            for a, x, y, bw, bh in canvas.targets if a in wanted]


def frames(states: Iterable) -> list[np.ndarray]:
    """``render_rgb`` of each state."""
    return [render_rgb(s) for s in states]


def _record_positions(record, every: int, max_frames: int | None) -> tuple[list, list[str]]:
    """The states of ``record`` to show (every ``every``-th, the last always, at
    most ``max_frames`` spread evenly) and a caption for each: ``"start"`` or
    ``"<decision>. player_<seat>: <action>"``."""
    from ..records import replay_states

    states = list(replay_states(record))
    keep = list(range(0, len(states), max(1, every)))
    if keep[-1] != len(states) - 1:
        keep.append(len(states) - 1)  # always show the final position
    if max_frames is not None and len(keep) > max_frames:
        idx = np.linspace(0, len(keep) - 1, max_frames).round().astype(int)
        keep = [keep[i] for i in idx]
    names = []
    for i in keep:
        if i == 0:
            names.append("start")
        else:
            s = states[i - 1]
            names.append(f"{i}. player_{s.current_player()}: {s.action_to_string(record.actions[i - 1])}")
    return [states[i] for i in keep], names


def _pictures(states: Iterable, fast: bool = True) -> Iterable[np.ndarray]:
    """``render_rgb`` of each state, one at a time. ``fast``: each drawn from the last
    where they are alike (``_fast.PictureSequence``: the same pixels, about 3-4 times
    less CPU for consecutive positions of a game)."""
    if not fast:
        for state in states:
            yield render_rgb(state)
        return
    from ._fast import PictureSequence

    sequence = None
    for state in states:
        game = state.game.spec.name
        if sequence is None or sequence.game != game:
            sequence = PictureSequence(game)
        yield sequence.picture(state)


def _record_frames(record, every: int, max_frames: int | None) -> tuple[list[np.ndarray], list[str]]:
    states, names = _record_positions(record, every, max_frames)
    return list(_pictures(states)), names


def _scaled(images: list, scale: float) -> list:
    if scale == 1.0:
        return images
    Image = _pillow()
    w, h = images[0].size
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return [im.resize(size, Image.Resampling.LANCZOS) for im in images]


def save_gif(record_or_frames, path: str | Path, fps: float = 2.0, every: int = 1,
             max_frames: int | None = None, hold_last: float = 2.0, scale: float = 1.0) -> Path:
    """An animated GIF of an episode.

    Args:
        record_or_frames: a :class:`~ether_envs.records.GameRecord` (replayed and
            drawn state by state) or a sequence of ``(H, W, 3)`` uint8 frames.
        path: where to write the ``.gif``.
        fps: frames per second.
        every: draw every ``every``-th state of a record (the last always).
        max_frames: at most this many frames, spread evenly over the episode.
        hold_last: seconds the final frame stays before the loop restarts.
        scale: resize factor of the frames (e.g. 0.5 for a smaller file).

    Returns:
        The path written.
    """
    Image = _pillow()
    frames_ = (_record_frames(record_or_frames, every, max_frames)[0]
               if hasattr(record_or_frames, "actions") else list(record_or_frames))
    if not frames_:
        raise ValueError("no frames to write")
    images = _scaled([Image.fromarray(np.asarray(f, dtype=np.uint8)) for f in frames_], scale)
    ms = int(round(1000 / fps))
    durations = [ms] * (len(images) - 1) + [max(ms, int(hold_last * 1000))]
    path = Path(path)
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=False)
    return path


def save_html(record, path: str | Path, every: int = 1, max_frames: int | None = None,
              fps: float = 2.0, scale: float = 1.0, *, fast: bool = True) -> Path:
    """A self-contained HTML replay of a recorded episode: the picture of every
    position shown (``every``/``max_frames`` permitting), a move list to click,
    first / previous / play / next / last buttons, a slider, and the record's
    JSON. No network access or other files needed; the page fits a 1280 x 800
    window (the picture is scaled to the space left beside the move list).

    The pictures are stored as tile updates (:class:`._replay.TileDeltas`):
    the first picture, then per position only the 16 x 16-pixel tiles that
    changed, each distinct tile sent once (lossless WebP) and copied wherever
    it shows again; the page rebuilds every picture exactly (``render_rgb``'s
    pixels) on a canvas. That is about 2 KB per decision (Aethermon: Collect,
    with short games, 8 KB): the longest of 500 random 4-player Ethnos games,
    1,295 decisions, gives a 2.4 MB page, where a PNG per picture gave 79 MB.
    Each picture is drawn from the last one where the positions are alike
    (``_fast.PictureSequence``: only what changed is drawn again, with the
    same pixels), about 40 ms of CPU per decision for Ethnos where drawing
    each whole takes about 140 ms; storing takes about 6 ms
    (``python -m ether_envs.speed --replay ethnos:4`` measures it).

    Args:
        record: a :class:`~ether_envs.records.GameRecord`.
        path: where to write the ``.html``.
        every, max_frames: as in :func:`save_gif`.
        fps: positions per second of the play button (> 0).
        scale: resize factor of the pictures (> 0; a resized picture is no
            longer exactly ``render_rgb``'s).
        fast: draw each picture from the last (the default); False draws each
            whole (``render_rgb``), the same pixels, about 3-4 times slower.

    Returns:
        The path written.

    Raises:
        ValueError: ``fps`` or ``scale`` is not positive; the game has no
            drawing module.
        ImportError: matplotlib or pillow is not installed.
    """
    from ._replay import TileDeltas

    if not fps > 0 or not scale > 0:
        raise ValueError(f"fps and scale must be > 0, got fps={fps}, scale={scale}")
    states, names = _record_positions(record, every, max_frames)
    pictures = TileDeltas()
    for picture in _pictures(states, fast):
        pictures.add(_resized(picture, scale))
    data = {"width": pictures.width, "height": pictures.height, "tile": pictures.tile,
            "images": pictures.data_uris(), "ops": pictures.ops, "names": names}
    title = f"{record.game} replay (seed {record.seed})"
    doc = string.Template(_HTML_TEMPLATE).substitute(
        title=html.escape(title), summary=html.escape(_summary(record)), width=pictures.width,
        height=pictures.height, last=len(names) - 1, interval=max(1, round(1000 / fps)),
        data=json.dumps(data, separators=(",", ":")).replace("</", "<\\/"),
        record=html.escape(record.to_json(indent=1)),
    )
    path = Path(path)
    path.write_text(doc, encoding="utf-8")
    return path


def _resized(picture: np.ndarray, scale: float) -> np.ndarray:
    if scale == 1.0:
        return picture
    Image = _pillow()
    h, w = picture.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return np.asarray(Image.fromarray(picture).resize(size, Image.Resampling.LANCZOS))


def _summary(record) -> str:
    """``"<n> decisions; final scores: player_0: <label> (<score>), ..."``; a seat
    without a label is ``player_<seat> (<score>)``."""
    labels = record.players or [None] * len(record.scores)
    who = ", ".join(f"player_{p}: {label} ({score:g})" if label else f"player_{p} ({score:g})"
                    for p, (label, score) in enumerate(zip(labels, record.scores)))
    end = "final scores" if record.terminal else "scores when truncated"
    return f"{len(record.actions)} decisions; {end}: {who}"


# The page: a header, the controls, the picture (a canvas scaled to fit) beside the
# move list, the record. The script brings the canvas to position k by replaying the
# tile copies of the positions up to k (see _replay.TileDeltas), starting from the
# position shown or from the nearest snapshot it kept (one every 100 positions),
# whichever is later and not after k.
_HTML_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<style>
* { box-sizing: border-box; }
body { font-family: sans-serif; background: #f7f5ef; color: #222; margin: 0; padding: 8px 12px;
       height: 100vh; display: flex; flex-direction: column; }
h1 { font-size: 17px; margin: 0; }
#summary { font-size: 13px; margin: 2px 0 6px; }
#bar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; font-size: 14px; }
#bar button { font: inherit; padding: 3px 10px; }
#bar label { display: flex; align-items: center; gap: 6px; flex: 1; min-width: 240px; }
#slider { flex: 1; }
#caption { font-family: monospace; font-size: 14px; line-height: 1.4; margin: 2px 0 4px; white-space: nowrap; overflow: hidden;
           text-overflow: ellipsis; }
#view { display: flex; gap: 12px; flex: 1; min-height: 0; }
#stage { flex: 0 1 auto; height: 100%; aspect-ratio: $width / $height; min-width: 0; position: relative; }
#frame { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; object-position: left top; }
#moves { flex: 1 1 300px; min-width: 240px; max-width: 480px; overflow-y: auto; overflow-x: hidden; font-family: monospace; font-size: 13px; border: 1px solid #ccc;
         background: white; padding: 4px; }
#moves div { cursor: pointer; padding: 1px 4px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#moves div.on { background: #2b2d42; color: white; }
details { margin-top: 6px; font-size: 14px; }
pre { background: white; border: 1px solid #ccc; padding: 8px; max-height: 200px; overflow: auto; }
@media (max-width: 760px) {
  body { height: auto; }
  #view { flex-direction: column; }
  #stage { height: auto; width: 100%; }
  #moves { flex: none; max-width: none; height: 30vh; }
}
</style></head><body>
<h1>$title</h1>
<p id="summary">$summary</p>
<div id="bar">
<button id="first" title="first position (Home)">&laquo; first</button>
<button id="prev" title="previous position (left arrow)">&lsaquo; previous</button>
<button id="play" title="play or pause (space)">play</button>
<button id="next" title="next position (right arrow)">next &rsaquo;</button>
<button id="last" title="last position (End)">last &raquo;</button>
<label for="slider">position <input id="slider" type="range" min="0" max="$last" value="0">
<span id="pos">loading</span></label>
</div>
<div id="caption"></div>
<div id="view"><div id="stage"><canvas id="frame" width="$width" height="$height" role="img"
aria-label="picture of the position"></canvas></div><div id="moves"></div></div>
<details><summary>game record (JSON)</summary><pre>$record</pre></details>
<script type="application/json" id="replay-data">$data</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("replay-data").textContent);
const T = data.tile, ops = data.ops, names = data.names, last = names.length - 1;
const canvas = document.getElementById("frame"), ctx = canvas.getContext("2d", {willReadFrequently: true});
const slider = document.getElementById("slider"), moves = document.getElementById("moves");
const images = data.images.map(src => { const im = new Image(); im.src = src; return im; });
const snapshots = new Map();
let shown = -1, i = 0, timer = null, ready = false;
function paint(k) {
  if (!ready) return;
  let s = k - k % 100;
  while (s > 0 && !snapshots.has(s)) s -= 100;
  if (k < shown || s > shown) {
    if (s > 0) { ctx.putImageData(snapshots.get(s), 0, 0); shown = s; } else shown = -1;
  }
  while (shown < k) {
    const o = ops[++shown];
    for (let j = 0; j < o.length; j += 7)
      ctx.drawImage(images[o[j]], o[j + 1] * T, o[j + 2] * T, o[j + 3] * T, o[j + 4] * T,
                    o[j + 5] * T, o[j + 6] * T, o[j + 3] * T, o[j + 4] * T);
    if (shown > 0 && shown % 100 === 0 && !snapshots.has(shown))
      snapshots.set(shown, ctx.getImageData(0, 0, canvas.width, canvas.height));
  }
}
function go(k) {
  moves.children[i].className = "";
  i = Math.max(0, Math.min(last, k));
  paint(i);
  slider.value = i;
  document.getElementById("pos").textContent = i + " / " + last;
  document.getElementById("caption").textContent = names[i];
  moves.children[i].className = "on";
  moves.children[i].scrollIntoView({block: "nearest"});
  if (i === last && timer) toggle();
}
function toggle() {
  const b = document.getElementById("play");
  if (timer) { clearInterval(timer); timer = null; b.textContent = "play"; }
  else { if (i === last) go(0); timer = setInterval(() => go(i + 1), $interval); b.textContent = "pause"; }
}
names.forEach((n, k) => { const d = document.createElement("div"); d.textContent = d.title = n;
  d.onclick = () => go(k); moves.appendChild(d); });
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(i - 1);
document.getElementById("play").onclick = toggle;
document.getElementById("next").onclick = () => go(i + 1);
document.getElementById("last").onclick = () => go(last);
slider.oninput = () => go(+slider.value);
document.addEventListener("keydown", e => {
  if (e.target.closest("button, input, summary")) return;
  const to = {ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: last}[e.key];
  if (to !== undefined) { go(to); e.preventDefault(); }
  else if (e.key === " ") { toggle(); e.preventDefault(); }
});
ctx.imageSmoothingEnabled = false;
Promise.all(images.map(im => im.decode())).then(() => { ready = true; go(i); },
  () => { document.getElementById("pos").textContent = "this browser cannot show the pictures (WebP)"; });
</script></body></html>
"""

__all__ = [
    "Canvas", "DEFAULT_SIZE", "PLAYER_COLORS", "tint", "click_targets", "frames", "games_with_drawings", "has_drawing",
    "picture_size", "render_rgb", "save_gif", "save_html",
]
