"""Aetherspire's picture numbers the spaces (issue 27, item 12): under each square of a
floor tile stands its number ``k`` in the tile (the ``space k`` of ``SPACE(#t ..., space k)``),
the tile's number ``#t`` at the tile's top left; the browser's move label names the same tile
and number. Checked on the drawing's recorded calls (positions) and drawn artists (extents)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import ether_envs
from ether_envs.aetherspire import codec as K
from ether_envs.aetherspire import components as C

pytest.importorskip("matplotlib")

from ether_envs.rendering import Canvas  # noqa: E402
from ether_envs.rendering import aetherspire as drawing  # noqa: E402
from ether_envs.rendering._fast import RecordingCanvas  # noqa: E402


def built_up_position():
    """A 2-player position with a floor on a floor (level 2) and pillars to place (SPACE moves)."""
    s = ether_envs.load_game("aetherspire", num_players=2).new_initial_state(seed=1)
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        legal = s.legal_actions()
        if max(s.level) >= 2 and any(K.DECODE[a][0] == "SPACE" for a in legal):
            return s
        s.apply_action(legal[rng.integers(len(legal))])
    raise AssertionError("the random game never built a second level with a SPACE move")


def _arg(call, name, default=None):
    names = ("x", "y", "s") if call.method == "text" else ("x", "y", "w", "h")
    return call.args[names.index(name)] if len(call.args) > names.index(name) else call.kwargs.get(name, default)


def tiles_in_picture(state) -> dict[int, dict]:
    """Each placed tile's box in the picture and the space numbers written in it, left to right:
    ``{tile: {"box": (x, y, w, h), "labels": [(x, y, text), ...], "squares": [(x, y, side), ...]}}``."""
    cv = RecordingCanvas(*drawing.SIZE)
    drawing.draw(state, cv)
    texts = [c for c in cv.calls if c.method == "text"]
    boxes = [c for c in cv.calls if c.method == "box"]
    out = {}
    for c in texts:
        m = re.match(r"#(\d+) [SML]", _arg(c, "s"))
        if not m:
            continue
        tx, ty = _arg(c, "x"), _arg(c, "y")
        # the tile's box: its label stands 3 px right of its left edge, 7 px under its top
        box = next((_arg(b, "x"), _arg(b, "y"), _arg(b, "w"), _arg(b, "h")) for b in boxes
                   if abs(_arg(b, "x") + 3 - tx) < 1e-9 and abs(_arg(b, "y") + _arg(b, "h") - 7 - ty) < 1e-9)
        x, y, w, h = box

        def inside(px, py):
            return x <= px <= x + w and y <= py <= y + h

        labels = sorted((_arg(c, "x"), _arg(c, "y"), _arg(c, "s")) for c in texts
                        if c.kwargs.get("size") == drawing.SPACE_LABEL_SIZE and inside(_arg(c, "x"), _arg(c, "y")))
        squares = sorted((_arg(b, "x"), _arg(b, "y"), _arg(b, "w")) for b in boxes
                         if _arg(b, "w") == _arg(b, "h") <= 15 and inside(_arg(b, "x"), _arg(b, "y")))
        out[int(m.group(1))] = {"box": box, "labels": labels, "squares": squares}
    return out


def test_every_space_of_every_placed_tile_is_numbered_under_its_square():
    s = built_up_position()
    placed = [t for t in range(C.NUM_TILES) if s.base_of[t] != -1]
    pictured = tiles_in_picture(s)
    assert sorted(pictured) == placed and max(s.level[t] for t in placed) >= 2
    for t in placed:
        spaces = C.TILE_SPACES[s.side[t]][t]
        got = pictured[t]
        assert [text for _x, _y, text in got["labels"]] == [str(sp % C.MAX_SPACES) for sp in spaces], t
        assert len(got["squares"]) == len(spaces), t
        for (lx, ly, _text), (qx, qy, q) in zip(got["labels"], got["squares"]):
            assert abs(lx - (qx + q / 2)) < 1e-9 and ly < qy, f"tile #{t}: a number is not under its square"


def test_the_numbers_are_readable_and_cover_nothing():
    """No smaller than any other text on the tiles; clear of every other text and of every
    square (the pillars, the invaders' dots and the dice a space needs drawn on them)."""
    from matplotlib.patches import FancyBboxPatch

    s = built_up_position()
    cv = Canvas(*drawing.SIZE)
    drawing.draw(s, cv)
    renderer = cv.fig.canvas.get_renderer()
    numbers = [t for t in cv.ax.texts if t.get_fontsize() == drawing.SPACE_LABEL_SIZE
               and t.get_color() == drawing.SPACE_LABEL_COLOR]
    assert len(numbers) == sum(len(C.TILE_SPACES[s.side[t]][t]) for t in range(C.NUM_TILES) if s.base_of[t] != -1)
    others = [t for t in cv.ax.texts if t not in numbers and t.get_text().strip()]
    # on the tiles: the tile's number (#30 L), the dice a space needs and a tile's effect (z 3)
    on_tiles = [t for t in others if re.match(r"#\d+ [SML]", t.get_text()) or t.get_zorder() == 3]
    assert on_tiles and all(drawing.SPACE_LABEL_SIZE >= t.get_fontsize() for t in on_tiles)
    squares = [e for p in cv.ax.patches if isinstance(p, FancyBboxPatch)
               and abs((e := p.get_window_extent(renderer)).width - e.height) < 1 and e.width < 25]
    assert squares
    for n in numbers:
        e = n.get_window_extent(renderer)
        hit = [o.get_text() for o in others if e.overlaps(o.get_window_extent(renderer))]
        assert not hit, f"space number {n.get_text()} covers {hit}"
        assert not any(e.overlaps(q) for q in squares), f"space number {n.get_text()} covers a square"


def test_a_space_move_names_the_tile_and_the_number_in_the_picture():
    explain = pytest.importorskip("webapp.explain")
    s = built_up_position()
    pictured = tiles_in_picture(s)
    moves = [a for a in s.legal_actions() if K.DECODE[a][0] == "SPACE"]
    assert moves
    for a in moves:
        t, k = divmod(K.DECODE[a][1], C.MAX_SPACES)
        label = explain.move_label(s, a, s.public_action_string(a, s.current_player()))
        m = re.fullmatch(r"SPACE\(tile #(\d+), space (\d): (.+), L\d (on|above) foundation [0-2]\)", label)
        assert m and (int(m.group(1)), int(m.group(2)), m.group(3)) == (t, k, C.TILES[t].name), label
        assert str(k) in [text for _x, _y, text in pictured[t]["labels"]], (label, pictured[t]["labels"])
        assert f"space {k}: the square numbered {k}" in explain.move_help(s, a, label)
