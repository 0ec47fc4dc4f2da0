"""The fast path of the replays (``rendering._fast.PictureSequence``): each picture drawn
from the last, pixel for pixel the plain picture (``render_rgb``, or ``draw`` on a fresh
``Canvas``) on positions of every game and on made-up drawings that test its rules."""

import types

import numpy as np
import pytest

from ether_envs import rendering
from ether_envs.records import record_episode, replay_states
from ether_envs.rendering import _fast
from ether_envs.rendering._fast import PictureSequence


def _random_states(name, seed):
    rng = np.random.default_rng(seed)

    def random_policy(state):
        legal = state.legal_actions()
        return legal[rng.integers(len(legal))]

    return list(replay_states(record_episode(name, random_policy, seed=seed)))


def _positions(states):
    """Indices: the first 8 positions, 6 in a row mid-game, a jump back, the last 3 (the end)."""
    n, mid = len(states), len(states) // 2
    picks = list(range(min(8, n))) + list(range(mid, min(mid + 6, n))) + [min(3, n - 1)]
    return picks + list(range(max(0, n - 3), n))


@pytest.mark.parametrize("name", rendering.games_with_drawings())
def test_fast_pictures_equal_render_rgb_on_positions_of_every_game(name):
    states = _random_states(name, seed=5)
    sequence = PictureSequence(name)
    picks = _positions(states)
    for i in picks:
        fast = sequence.picture(states[i])
        assert np.array_equal(fast, rendering.render_rgb(states[i])), f"{name}: position {i} differs"
    # and the fast path did draw less than whole pictures (no drawing fell back to the plain way)
    assert sequence.drawn_pixels < 0.6 * len(picks) * sequence.width * sequence.height


def test_save_html_fast_and_plain_write_the_same_page(tmp_path):
    rec = record_episode("ethnos", lambda s: s.legal_actions()[-1], seed=2, max_steps=12)
    fast = rendering.save_html(rec, tmp_path / "fast.html").read_bytes()
    plain = rendering.save_html(rec, tmp_path / "plain.html", fast=False).read_bytes()
    assert fast == plain


# ---- made-up drawings: the rules of the fast path ----------------------------------------
SIZE = (160, 120)


def _sequence(monkeypatch, draw):
    """A PictureSequence of a made-up drawing module (``draw(state, canvas)``); the
    states are whatever ``draw`` reads."""
    module = types.SimpleNamespace(SIZE=SIZE, draw=draw)
    monkeypatch.setattr(_fast, "_drawing", lambda game: module)
    return PictureSequence("made_up")


def _plain(draw, state):
    canvas = rendering.Canvas(*SIZE)
    draw(state, canvas)
    return canvas.to_rgb()


def _check(monkeypatch, draw, states):
    sequence = _sequence(monkeypatch, draw)
    for k, state in enumerate(states):
        assert np.array_equal(sequence.picture(state), _plain(draw, state)), f"picture {k} ({state!r}) differs"
    return sequence


def test_overlapping_shapes_of_equal_z_that_swap_order(monkeypatch):
    """The same two calls in the other order paint their overlap the other colour."""
    def draw(state, cv):
        boxes = [(20, 20, "#cc0000"), (50, 40, "#0000cc")]
        for x, y, colour in (boxes if state else boxes[::-1]):
            cv.box(x, y, 60, 50, face=colour, alpha=0.7)
    _check(monkeypatch, draw, [True, False, True, True])


def test_a_shape_that_goes_and_comes_back(monkeypatch):
    def draw(state, cv):
        cv.box(5, 5, 150, 110, face="#eeeeee", z=0.5)
        if state:
            cv.circle(80, 60, 30, face="#00aa00", lw=4)
            cv.text(80, 60, "here", size=14, ha="center")
        cv.polygon([(10, 10), (40, 100), (70, 10)], face="none", lw=3)
    sequence = _check(monkeypatch, draw, [0, 1, 0, 1, 1])
    w, h = SIZE
    assert sequence.drawn_pixels < 5 * w * h  # the last one unchanged: nothing drawn again


def test_text_that_changes_next_to_text_that_does_not(monkeypatch):
    def draw(state, cv):
        cv.text(10, 60, f"score {state}", size=12, weight="bold")
        cv.text(90, 60, "legend", size=9, color="#555555")
        cv.line([0, 160], [45, 45], lw=2, style="--")
    _check(monkeypatch, draw, [1, 10, 100, 7, 7])


def test_a_list_changed_after_the_call_is_drawn_as_it_was(monkeypatch):
    def draw(state, cv):
        xs, ys = [10, 150], [20, 20 + state]
        cv.line(xs, ys, lw=2)
        ys[1] = 0  # the drawing reuses its list: the line keeps the points it was given
        cv.line(xs, ys, color="#aa0000")
    _check(monkeypatch, draw, [10, 60, 60, 90])


def test_a_text_with_options_reaching_past_its_box_redraws_the_whole_picture(monkeypatch):
    def draw(state, cv):
        cv.box(0, 0, 160, 120, face="#ffffee", z=0)
        cv.text(40, 60, state, size=10, bbox={"boxstyle": "round,pad=2", "facecolor": "#88ccff"})
    _check(monkeypatch, draw, ["a", "b", "b"])


def test_a_drawing_past_the_primitives_is_drawn_whole(monkeypatch):
    """``canvas.ax`` (or ``fig``, ``_add``) used directly: no recording, the plain way."""
    def draw(state, cv):
        cv.box(10, 10, 50, 50, face="#00aa00")
        cv.ax.plot([0, 160], [state, 120 - state], color="#aa00aa")
    sequence = _check(monkeypatch, draw, [10, 20, 20])
    assert sequence.drawn_pixels == 3 * SIZE[0] * SIZE[1]


def test_recording_canvas_draws_nothing_and_refuses_the_figure():
    canvas = _fast.RecordingCanvas(*SIZE)
    canvas.card(10, 10, 40, 60, "#336699", title="t", value="3")
    assert canvas.calls and {c.method for c in canvas.calls} <= set(_fast.PRIMITIVES)
    for reach in (lambda: canvas.ax, lambda: canvas.fig, lambda: canvas._add(None), canvas.to_rgb):
        with pytest.raises(_fast.NotRecordable):
            reach()


def test_every_canvas_primitive_is_recorded():
    """A Canvas method that adds an artist is a primitive of the fast path (else a drawing
    using it would be drawn whole, the plain way, silently slower)."""
    helpers = {"card", "header", "player_tag", "banner", "to_rgb", "target"}  # target draws nothing
    public = {n for n in vars(rendering.Canvas) if not n.startswith("_") and callable(getattr(rendering.Canvas, n))}
    assert public - helpers == set(_fast.PRIMITIVES)


# ---- the measurement (a command, not a timed test) ----------------------------------------
def test_speed_replay_measures_save_html(capsys):
    from ether_envs import speed

    row = speed.time_replay("aethermon_collect", 0, {})
    assert row["decisions"] > 0 and row["bytes"] > 10_000 and row["wall_s"] > 0 and row["fast"]
    assert "save_html aethermon_collect seed 0" in speed.format_replay(row)
    with pytest.raises(SystemExit):
        speed.main(["--replay", "chess:1"])
    assert "unknown game 'chess'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        speed.main(["--replay", "ethnos:four"])
    assert "whole number" in capsys.readouterr().err
