"""Animated GIF and self-contained HTML replays of a recorded episode."""

import base64
import re

import numpy as np
import pytest

from ether_envs import rendering
from ether_envs.records import record_episode


@pytest.fixture(scope="module")
def record():
    name = rendering.games_with_drawings()[0]
    rng = np.random.default_rng(0)

    def random_policy(state):
        legal = state.legal_actions()
        return legal[rng.integers(len(legal))]

    return record_episode(name, random_policy, seed=3, max_steps=3)


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


def test_html_replay_is_self_contained_with_every_frame_and_action(tmp_path, record):
    path = rendering.save_html(record, tmp_path / "game.html")
    text = path.read_text(encoding="utf-8")
    uris = re.findall(r'"data:image/png;base64,([A-Za-z0-9+/=]+)"', text)
    assert len(uris) == len(record.actions) + 1
    assert base64.b64decode(uris[0])[:8] == b"\x89PNG\r\n\x1a\n"
    assert "http://" not in text and "https://" not in text and "<script src" not in text
    assert f"&quot;seed&quot;: {record.seed}" in text  # the record's JSON is embedded
    assert f"{len(record.actions)} decisions; scores when truncated: player_0: random_policy" in text
    from ether_envs import load_game

    game = load_game(record.game, **record.config)
    assert game.action_to_string(record.actions[0]) in text
