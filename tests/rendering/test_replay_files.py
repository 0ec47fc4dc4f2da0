"""Animated GIF and self-contained HTML replays of a recorded episode."""

import base64
import html
import io
import json
import re

import numpy as np
import pytest

from ether_envs import rendering
from ether_envs.records import record_episode, replay_states
from ether_envs.rendering._replay import OP_FIELDS, TileDeltas


def _random_record(name, seed, max_steps, players=None):
    rng = np.random.default_rng(seed)

    def random_policy(state):
        legal = state.legal_actions()
        return legal[rng.integers(len(legal))]

    return record_episode(name, random_policy, seed=seed, max_steps=max_steps, players=players)


@pytest.fixture(scope="module")
def record():
    return _random_record(rendering.games_with_drawings()[0], seed=3, max_steps=3)


@pytest.fixture(scope="module")
def page(record, tmp_path_factory):
    """The text of ``save_html(record)``."""
    return rendering.save_html(record, tmp_path_factory.mktemp("html") / "game.html").read_text(encoding="utf-8")


# ---- reading a replay page back, as its script does -----------------------------------
def page_data(text):
    """The page's embedded data: width, height, tile, images (data URIs), ops, names."""
    m = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S)
    assert m, "no replay data in the page"
    return json.loads(m.group(1))


def replayed(images, ops, tile, width, height):
    """Every picture, by applying each position's tile copies in order (the page's
    ``paint``); ``images`` are decoded RGB arrays."""
    rows, cols = -(-height // tile), -(-width // tile)
    canvas = np.zeros((rows * tile, cols * tile, 3), np.uint8)
    pictures = []
    for copies in ops:
        assert len(copies) % OP_FIELDS == 0
        for k, sc, sr, n, h, dc, dr in zip(*[iter(copies)] * OP_FIELDS):
            src = images[k][sr * tile:(sr + h) * tile, sc * tile:(sc + n) * tile]
            assert src.shape == (h * tile, n * tile, 3), "a copy reaches outside its image"
            canvas[dr * tile:(dr + h) * tile, dc * tile:(dc + n) * tile] = src
        pictures.append(canvas[:height, :width].copy())
    return pictures


def decoded(uri):
    from PIL import Image

    head, b64 = uri.split(",", 1)
    assert head in ("data:image/webp;base64", "data:image/png;base64")
    with Image.open(io.BytesIO(base64.b64decode(b64))) as im:
        return np.asarray(im.convert("RGB"))


def page_pictures(text):
    d = page_data(text)
    return replayed([decoded(u) for u in d["images"]], d["ops"], d["tile"], d["width"], d["height"])


# ---- TileDeltas on synthetic pictures (no drawing) --------------------------------------
def _pictures_with_edits(shape, n, seed):
    """``n`` pictures: noise, then each a copy of an earlier one with a few rectangles
    repainted (sometimes going back to an earlier picture exactly)."""
    rng = np.random.default_rng(seed)
    pics = [rng.integers(0, 256, size=shape, dtype=np.uint8)]
    for _ in range(n - 1):
        p = pics[rng.integers(len(pics))].copy() if rng.random() < 0.3 else pics[-1].copy()
        for _ in range(rng.integers(0, 3)):
            y, x = rng.integers(0, shape[0]), rng.integers(0, shape[1])
            p[y:y + rng.integers(1, 30), x:x + rng.integers(1, 30)] = rng.integers(0, 256, size=3)
        pics.append(p)
    return pics


@pytest.mark.parametrize("shape, tile", [((48, 64, 3), 16), ((37, 53, 3), 16), ((40, 30, 3), 7)])
def test_tile_deltas_replay_every_picture_exactly(shape, tile):
    pics = _pictures_with_edits(shape, 25, seed=shape[0])
    td = TileDeltas(tile=tile)
    for p in pics:
        td.add(p)
    assert (td.width, td.height) == (shape[1], shape[0]) and len(td.ops) == len(pics)
    out = replayed([decoded(u) for u in td.data_uris()], td.ops, tile, td.width, td.height)
    for k, (got, want) in enumerate(zip(out, pics)):
        assert np.array_equal(got, want), f"picture {k} differs"


def test_tile_deltas_send_only_what_was_never_shown():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 256, size=(64, 64, 3), dtype=np.uint8)
    b = a.copy()
    b[20:24, 40:44] = 7  # inside one tile (row 1, col 2)
    td = TileDeltas(tile=16)
    for p in (a, a, b, a, b):
        td.add(p)
    assert td.ops[0] == [0, 0, 0, 4, 4, 0, 0]  # the whole first image
    assert td.ops[1] == []  # unchanged: nothing to copy
    assert len(td.images) == 2  # the first picture and one sheet with the one new tile
    assert td.ops[2] == [1, 0, 0, 1, 1, 2, 1]
    assert td.ops[3] == [0, 2, 1, 1, 1, 2, 1]  # back: the tile from the first picture
    assert td.ops[4] == [1, 0, 0, 1, 1, 2, 1]  # again: the tile sent before
    with pytest.raises(ValueError):
        td.add(a[:32])
    with pytest.raises(ValueError):
        td.add(a[..., 0])


# ---- GIFs ------------------------------------------------------------------------------
def test_gif_of_a_record_has_one_frame_per_state(tmp_path, record):
    from PIL import Image

    path = rendering.save_gif(record, tmp_path / "game.gif", fps=4)
    with Image.open(path) as im:
        assert im.format == "GIF"
        assert im.n_frames == len(record.actions) + 1
        assert im.size == rendering.picture_size(record.game)


def test_gif_from_frames_and_max_frames(tmp_path, record):
    from PIL import Image

    frames = [np.full((20, 30, 3), v, dtype=np.uint8) for v in (0, 120, 255)]
    with Image.open(rendering.save_gif(frames, tmp_path / "f.gif")) as im:
        assert im.n_frames == 3 and im.size == (30, 20)
    with Image.open(rendering.save_gif(record, tmp_path / "g.gif", max_frames=3, scale=0.5)) as im:
        w, h = rendering.picture_size(record.game)
        assert im.n_frames == 3 and im.size == (w // 2, h // 2)
    with pytest.raises(ValueError):
        rendering.save_gif([], tmp_path / "none.gif")


# ---- HTML replays ------------------------------------------------------------------------
def test_html_replay_is_self_contained_with_every_position_and_action(page, record):
    text = page
    d = page_data(text)
    assert len(d["ops"]) == len(d["names"]) == len(record.actions) + 1
    assert (d["width"], d["height"]) == rendering.picture_size(record.game)
    assert "http://" not in text and "https://" not in text and "<script src" not in text
    assert f"&quot;seed&quot;: {record.seed}" in text  # the record's JSON is embedded
    assert f"{len(record.actions)} decisions; scores when truncated: player_0: random_policy" in text
    from ether_envs import load_game

    game = load_game(record.game, **record.config)
    assert game.action_to_string(record.actions[0]) in d["names"][1]


def test_html_replay_pictures_are_exactly_render_rgb(page, record):
    pictures = page_pictures(page)
    states = list(replay_states(record))
    assert len(pictures) == len(states)
    for k, state in enumerate(states):
        assert np.array_equal(pictures[k], rendering.render_rgb(state)), f"position {k} differs"


def test_html_replay_every_and_scale(tmp_path, record):
    text = rendering.save_html(record, tmp_path / "game.html", every=2, scale=0.25).read_text(encoding="utf-8")
    d = page_data(text)
    w, h = rendering.picture_size(record.game)
    assert (d["width"], d["height"]) == (round(w * 0.25), round(h * 0.25))
    assert len(d["names"]) == len(d["ops"]) == len(range(0, len(record.actions) + 1, 2)) + 1  # and the last
    assert d["names"][0] == "start" and d["names"][-1].startswith(f"{len(record.actions)}. ")
    assert page_pictures(text)[-1].shape == (d["height"], d["width"], 3)
    with pytest.raises(ValueError):
        rendering.save_html(record, tmp_path / "bad.html", fps=0)


def test_html_header_shows_labels_or_just_the_seat(tmp_path):
    name = rendering.games_with_drawings()[0]
    rec = _random_record(name, seed=1, max_steps=1)
    text = rendering.save_html(rec, tmp_path / "a.html", max_frames=1).read_text(encoding="utf-8")
    scores = [f"{s:g}" for s in rec.scores]
    assert f"player_0: random_policy ({scores[0]}), player_1: random_policy ({scores[1]})" in text
    rec.players = None  # e.g. a record made without labels
    text = rendering.save_html(rec, tmp_path / "b.html", max_frames=1).read_text(encoding="utf-8")
    assert f"player_0 ({scores[0]}), player_1 ({scores[1]})" in text and "?" not in html.unescape(
        re.search(r'<p id="summary">(.*?)</p>', text).group(1))


def test_html_controls_have_visible_text_labels(page):
    text = page
    buttons = {b: html.unescape(label) for b, label in re.findall(r'<button id="(\w+)"[^>]*>([^<]*)</button>', text)}
    assert set(buttons) == {"first", "prev", "play", "next", "last"}
    for b, label in buttons.items():
        assert re.search(r"[a-z]{4,}", label), f"button {b} has no word on it: {label!r}"
        # only characters every common font has (the symbols U+23xx/U+25xx showed as empty boxes)
        assert all(ord(ch) < 0x2000 or ch in "\u2039\u203a" for ch in label), label
    assert re.search(r'<label for="slider">\s*position', text) and 'id="slider" type="range"' in text


def test_html_replay_stays_small_per_decision(tmp_path):
    """The pictures cost little per decision: the first picture once, then tile updates.

    Measured (base64 bytes per decision after the first picture) on random 4-player
    Ethnos, the game with the largest pictures and the longest games, seed 4: 3.2 KB
    over the first 20 decisions (the table fills up), 2.0 KB over 100, 1.7 KB over the
    whole game (900); the longest of 500 seeds (1,295 decisions) makes a 2.4 MB page.
    3.6 KB per decision would still keep that game under 5 MB (1,295 x 3.6 KB + the
    first picture, the move list and the record: 4.8 MB).
    """
    rec = _random_record("ethnos", seed=4, max_steps=20)
    text = rendering.save_html(rec, tmp_path / "ethnos.html").read_text(encoding="utf-8")
    d = page_data(text)
    first = len(d["images"][0])
    updates = sum(len(u) for u in d["images"][1:]) + len(json.dumps(d["ops"][1:], separators=(",", ":")))
    assert first < 120_000
    assert updates / len(rec.actions) < 3_600, f"{updates / len(rec.actions):.0f} bytes per decision"
    assert len(text.encode()) < first + 20 * 3_600 + 30_000
