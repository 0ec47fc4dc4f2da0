"""Where a click on the picture chooses a move (issue 27, item 15): ``Canvas.target`` and
``rendering.click_targets``. Aethermon: Collect's grid squares (MOVE, TARGET_SQUARE, PLACE_TOKEN)
and Aetherspire's pillar spaces, rooms and foundations (SPACE, ROOM, FOUNDATION): every
legal move of those kinds has a box, every box is a legal move's, inside the picture, on the
square the picture draws for it, and the boxes draw nothing (the same primitive calls)."""

from __future__ import annotations

import numpy as np
import pytest

import ether_envs
from ether_envs import rendering
from ether_envs.aethermon_collect import codec as AC
from ether_envs.aetherspire import codec as AS
from ether_envs.rendering._fast import RecordingCanvas

SPATIAL = {  # the kinds of move that a click on the picture makes, per game
    "aethermon_collect": {"MOVE", "TARGET_SQUARE", "PLACE_TOKEN"},
    "aetherspire": {"SPACE", "ROOM", "FOUNDATION"},
}
CONFIGS = [
    ("aethermon_collect", {"num_players": 2}),
    ("aethermon_collect", {"num_players": 4, "artefacts": "triples", "hidden_artefacts": True,
                           "redistribute_artefacts": True}),
    ("aethermon_collect", {"num_players": 3, "mode": "cooperative"}),
    ("aetherspire", {"num_players": 1}),
    ("aetherspire", {"num_players": 3, "difficulty": 4}),
]


def kind(game: str, action: int) -> str:
    return (AC.CODEC if game == "aethermon_collect" else AS.CODEC).decode(action)[0]


def positions(game: str, config: dict, seed: int, limit: int = 400):
    """The decisions of a random game (at most ``limit``)."""
    s = ether_envs.load_game(game, **config).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        if s.is_terminal():
            return
        yield s
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("game,config", CONFIGS, ids=lambda v: v if isinstance(v, str) else "-")
def test_each_legal_move_on_the_board_has_one_box_inside_the_picture(game, config):
    w, h = rendering.picture_size(game)
    with_targets = 0
    for s in positions(game, config, seed=4):
        legal = s.legal_actions()
        targets = rendering.click_targets(s)
        spatial = {a for a in legal if kind(game, a) in SPATIAL[game]}
        assert [t["action"] for t in targets if t["action"] in spatial] == [t["action"] for t in targets], \
            "a box for a move that is not a legal move on the board"
        assert sorted(t["action"] for t in targets) == sorted(spatial), "a legal move on the board without a box"
        boxes = [(t["x"], t["y"], t["w"], t["h"]) for t in targets]
        assert len(set(boxes)) == len(boxes), "two moves share a box: a click would be ambiguous"
        for t in targets:
            assert 0 <= t["x"] and t["x"] + t["w"] <= w and 0 <= t["y"] and t["y"] + t["h"] <= h, t
            assert t["w"] >= 4 and t["h"] >= 4, f"a box too small to click: {t}"
        with_targets += bool(targets)
    assert with_targets >= 3


def drawn_boxes(state) -> set[tuple[float, float, float, float]]:
    """The boxes the picture of ``state`` draws, (x, y, w, h) with y from the TOP, rounded as
    ``click_targets`` rounds."""
    game = state.game.spec.name
    cv = RecordingCanvas(*rendering.picture_size(game))
    rendering._drawing(game).draw(state, cv)
    out = set()
    for c in cv.calls:
        if c.method == "box":
            x, y, w, h = (c.args + tuple(c.kwargs[k] for k in ("x", "y", "w", "h")[len(c.args):]))[:4]
            out.add((round(x, 1), round(cv.height - y - h, 1), round(w, 1), round(h, 1)))
    return out


@pytest.mark.parametrize("game", sorted(SPATIAL))
def test_each_box_lies_on_a_square_the_picture_draws(game):
    """The box is one the picture draws (a card, a space, a room, a foundation), and its middle is
    not the picture's background; the boxes add no drawing (the same primitive calls as without)."""
    config = {"num_players": 3}
    picked = [s for k, s in enumerate(positions(game, config, seed=7, limit=60))
              if k in (0, 1, 5, 20, 40) and rendering.click_targets(s)][:3]
    assert picked
    background = tuple(int(rendering.BACKGROUND[i:i + 2], 16) for i in (1, 3, 5))
    for s in picked:
        drawn = drawn_boxes(s)
        picture = rendering.render_rgb(s)
        for t in rendering.click_targets(s):
            assert (t["x"], t["y"], t["w"], t["h"]) in drawn, f"{t} is not a box of the picture"
            middle = picture[int(t["y"] + t["h"] / 2), int(t["x"] + t["w"] / 2)]
            assert tuple(middle) != background, f"{t}: nothing drawn under the box"


def test_a_target_draws_nothing_and_a_game_without_targets_has_none():
    cv = RecordingCanvas(100, 100)
    cv.target(3, 10, 20, 30, 40)
    assert cv.calls == [] and cv.targets == [(3, 10.0, 20.0, 30.0, 40.0)]
    s = ether_envs.load_game("ethnos", num_players=3).new_initial_state(seed=0)
    assert rendering.click_targets(s) == []
    s = ether_envs.load_game("aethermon_collect", num_players=2).new_initial_state(seed=0)
    assert rendering.click_targets(s, actions=[]) == []
