"""Pictures (render_mode="rgb_array"): every game with a drawing module, fixed shape, neutral view."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ether_envs
from ether_envs import rendering
from ether_envs.core import GameSpec
from ether_envs.core.aec import BoardGameEnv
from game_configs import GAME_CONFIG_IDS, GAME_CONFIGS

ROOT = Path(__file__).resolve().parents[2]


def _require_drawing(name):
    if not rendering.has_drawing(name):
        pytest.skip(f"{name} has no drawing module yet (add ether_envs/rendering/{name}.py with draw(state, canvas))")


MAX_FRAMES = 30
"""Games longer than this many decisions are drawn at MAX_FRAMES evenly spaced steps
(always the first and the last), to keep the test fast; shorter games at every step."""


def _random_env_game(env, seed):
    """Play a random game on ``env``; yields before each decision."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


@pytest.mark.parametrize("name", ether_envs.list_games())
def test_every_step_of_a_random_game_renders_fixed_shape_uint8(name):
    _require_drawing(name)
    w, h = rendering.picture_size(name)
    env = ether_envs.make(name, render_mode="rgb_array")
    assert "rgb_array" in env.unwrapped.metadata["render_modes"]
    for _ in _random_env_game(env, seed=11):
        pass
    length = len(env.unwrapped.game_state.history)
    steps = set(range(length)) if length <= MAX_FRAMES else set(np.linspace(0, length - 1, MAX_FRAMES).round().astype(int).tolist())
    drawn = []
    for _ in _random_env_game(env, seed=11):  # the same game again, drawn
        i = len(env.unwrapped.game_state.history)
        if i in steps:
            img = env.render()
            assert img.shape == (h, w, 3) and img.dtype == np.uint8
            assert img.std() > 10  # a picture, not a blank canvas
            drawn.append(i)
    assert drawn == sorted(steps) and len(env.unwrapped.game_state.history) == length
    final = env.render()  # the final position (with the result)
    assert final.shape == (h, w, 3) and final.dtype == np.uint8


@pytest.mark.parametrize("name,config", GAME_CONFIGS, ids=GAME_CONFIG_IDS)
def test_every_config_renders_its_final_position(name, config):
    _require_drawing(name)
    game = ether_envs.load_game(name, **config)
    s = game.new_initial_state(seed=5)
    rng = np.random.default_rng(5)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])
    w, h = rendering.picture_size(name)
    assert rendering.render_rgb(s).shape == (h, w, 3)


@pytest.mark.parametrize("name,config", [(n, c) for n, c in GAME_CONFIGS
                                         if ether_envs.load_game(n, **c).has_hidden_information()][:3])
def test_picture_is_the_neutral_view_hidden_redraws_do_not_change_it(name, config):
    """The picture shows only public information: redrawing what a player cannot
    see (resample_hidden) never changes it, while the hidden state does change."""
    _require_drawing(name)
    game = ether_envs.load_game(name, **config)
    s = game.new_initial_state(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(6):  # a few decisions in, so that some things are known to some players
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])
    from ether_envs.core.game import snapshot

    picture = rendering.render_rgb(s)
    redrawn = 0
    for player in range(s.num_players):
        r = s.resample_hidden(player, np.random.default_rng(player))
        a, b = snapshot(s), snapshot(r)
        a.pop("rng"), b.pop("rng")
        if a != b:  # something hidden from `player` was redrawn
            redrawn += 1
            assert np.array_equal(rendering.render_rgb(r), picture)
    assert redrawn, "resample_hidden redrew nothing for any player"


def test_rgb_array_offered_only_for_games_with_a_drawing_module():
    class NoDrawGame:
        spec = GameSpec(name="no_such_game", version=0, min_players=2, max_players=2, information="perfect",
                        chance="none", utility="zero_sum", title="none")

    class NoDrawEnv(BoardGameEnv):
        metadata = {"name": "no_such_game_v0", "render_modes": ["human", "ansi"]}
        game_class = NoDrawGame

    assert NoDrawEnv.metadata["render_modes"] == ["human", "ansi"]
    assert not rendering.has_drawing("no_such_game")
    for name in rendering.games_with_drawings():
        assert name in ether_envs.GAMES
        raw = ether_envs.make(name).unwrapped
        assert raw.metadata["render_modes"][-1] == "rgb_array"
    with pytest.raises(ValueError, match="no drawing module"):
        rendering.picture_size("no_such_game")


def test_render_before_reset_raises_and_without_mode_returns_none():
    name = rendering.games_with_drawings()[0]
    env = ether_envs.make(name, render_mode="rgb_array").unwrapped
    with pytest.raises(RuntimeError, match="reset"):
        env.render()
    env = ether_envs.make(name).unwrapped
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="rgb_array"):
        assert env.render() is None


def test_missing_matplotlib_raises_import_error_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    name = rendering.games_with_drawings()[0]
    state = ether_envs.load_game(name).new_initial_state(seed=0)
    with pytest.raises(ImportError, match=r"ether-envs\[render\]"):
        rendering.render_rgb(state)


@pytest.mark.parametrize("name", ether_envs.list_games())
def test_pettingzoo_render_test_passes_for_every_render_mode(name, capsys):
    _require_drawing(name)
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: ether_envs.make(name, render_mode=render_mode))


def test_making_and_playing_envs_does_not_import_matplotlib():
    code = ("import sys, ether_envs\n"
            "from ether_envs.rendering import games_with_drawings\n"
            "for n in games_with_drawings():\n"
            "    e = ether_envs.make(n, render_mode='rgb_array'); e.reset(seed=0)\n"
            "    e.step(int(e.last()[0]['action_mask'].argmax()))\n"
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported before drawing'\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_readme_pictures_script_draws_every_game(tmp_path):
    from ether_envs.rendering.__main__ import main
    from PIL import Image

    written = main(["--out", str(tmp_path), "--seed", "1"])
    assert [p.name for p in written] == [f"{g}.png" for g in rendering.games_with_drawings()]
    for p, g in zip(written, rendering.games_with_drawings()):
        with Image.open(p) as im:
            assert im.size == rendering.picture_size(g)
