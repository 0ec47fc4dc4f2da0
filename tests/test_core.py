"""The shared core: registry, codec, layout, engine base class, env adapter, layering."""

import re
import subprocess
import sys

import numpy as np
import pettingzoo
import pytest

import ether_envs
from ether_envs.core import ActionCodec, Block, ObservationLayout, Piece, win_loss_returns


def test_registry_lists_and_makes_every_game():
    assert ether_envs.list_games()[0] == "aethermon_collect"
    for name in ether_envs.list_games():
        env = ether_envs.make(name)
        env.reset(seed=0)
        version = ether_envs.load_game(name).spec.version
        assert env.unwrapped.metadata["name"] == f"{name}_v{version}"
        assert isinstance(pettingzoo.make("aec", f"ether/{name}-v{version}"), pettingzoo.AECEnv)


def test_env_versions_match_the_changelog():
    """Every game's env version is the newest the changelog lists for it (CHANGELOG.md)."""
    import pathlib

    text = (pathlib.Path(__file__).resolve().parents[1] / "CHANGELOG.md").read_text()
    for name in ether_envs.list_games():
        version = ether_envs.load_game(name).spec.version
        listed = [int(v) for v in re.findall(rf"`ether/{name}-v(\d+)`", text)]
        assert listed and max(listed) == version, (name, version, listed)


def test_unknown_game_raises_value_error_listing_games():
    with pytest.raises(ValueError, match="aethermon_collect"):
        ether_envs.make("chess")
    with pytest.raises(ValueError, match="registered games"):
        ether_envs.load_game("chess")


@pytest.mark.parametrize("bad", [{"num_players": 5}, {"mode": "coop"}, {"reward": "points"},
                                 {"render_mode": "rgb"}, {"illegal_action": "ignore"}, {"max_steps": 0}])
def test_bad_config_raises_value_error(bad):
    with pytest.raises(ValueError):
        ether_envs.make("aethermon_collect", **bad)


def test_codec_blocks_offsets_and_round_trip():
    codec = ActionCodec([Block("A", 3, "a"), Block("B", 1, "b"), Block("C", 2, "c", lambda i: "xy"[i])])
    assert codec.size == 6 and codec.offsets == {"A": 0, "B": 3, "C": 4}
    for a in range(codec.size):
        block, i = codec.decode(a)
        assert codec.encode(block, i) == a
    assert codec.name(3) == "B" and codec.name(5) == "C(y)" and codec.name(1) == "A(1)"
    assert codec.mask([0, 5]).tolist() == [1, 0, 0, 0, 0, 1]
    with pytest.raises(ValueError):
        codec.decode(6)
    with pytest.raises(ValueError):
        codec.encode("A", 3)
    with pytest.raises(ValueError):
        ActionCodec([Block("A", 1, ""), Block("A", 2, "")])


def test_layout_slices_bounds_and_views():
    layout = ObservationLayout([Piece("x", (2, 3), 0, 1, ""), Piece("y", (4,), -1, 2, "")])
    assert layout.size == 10
    assert layout.slices == {"x": slice(0, 6), "y": slice(6, 10)}
    assert layout.low.tolist() == [0] * 6 + [-1] * 4
    buf, views = layout.new_buffer()
    views["x"][1, 2] = 7
    assert buf[5] == 7 and buf.dtype == np.float32


@pytest.mark.parametrize("winners,n,expected", [
    ([0], 2, [1, -1]), ([1], 4, [-1 / 3, 1, -1 / 3, -1 / 3]), ([0, 2], 4, [0.5, -0.5, 0.5, -0.5]),
    ([0, 1], 2, [0, 0]), ([], 3, [0, 0, 0]),
])
def test_win_loss_returns_are_zero_sum_shares(winners, n, expected):
    r = win_loss_returns(winners, n)
    assert np.allclose(r, expected) and abs(r.sum()) < 1e-12


def test_clone_copies_rng_lazily_and_identically():
    game = ether_envs.load_game("aethermon_collect")
    state = game.new_initial_state(seed=1)
    c = state.clone()
    assert c.rng_state() == state.rng_state()
    assert c.rng.random() == state.rng.random()


@pytest.mark.parametrize("name", ether_envs.list_games())
def test_a_determinization_seeds_its_generator_lazily_as_default_rng_would(name):
    """``resample_hidden`` reseeds the state's generator with ``rng.integers(2**63)``; the
    generator is made only when first drawn from (``State._reseed``), and draws exactly what
    ``numpy.random.default_rng`` of that seed draws, in the state, its clones and snapshots."""
    game = ether_envs.load_game(name)
    state = game.new_initial_state(seed=5)
    seed = int(np.random.default_rng(9).integers(2**63))  # the searcher's first draw
    det = state.resample_hidden(0, np.random.default_rng(9))
    assert det._rng is None and det._rng_seed == seed
    expected = np.random.default_rng(seed)
    assert det.rng_state() == expected.bit_generator.state and det._rng is None  # read, not made
    twin = det.clone()
    assert twin.rng_state() == det.rng_state()
    assert det.rng.random() == expected.random()                # made on first use
    assert det._rng_seed is None and twin._rng is None
    assert twin.rng.random() == np.random.default_rng(seed).random()  # the clone's own stream
    det.rng = np.random.default_rng(1)                          # replacing it drops the seed
    assert det.rng_state() == np.random.default_rng(1).bit_generator.state


_BLOCKED_IMPORTS = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib"):
            raise ImportError(f"blocked: {name}")
sys.meta_path.insert(0, Block())
"""


def test_engines_work_without_rl_libraries():
    """Layering: every rules engine runs with gymnasium, pettingzoo, torch and SB3
    unavailable (engine <- adapters <- consumers)."""
    code = _BLOCKED_IMPORTS + """
import ether_envs
for name in ether_envs.list_games():
    game = ether_envs.load_game(name)
    state = game.new_initial_state(seed=0)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.observation_tensor(0)
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def _first_legal(env):
    obs, _r, term, trunc, _i = env.last()
    return None if term or trunc else int(obs["action_mask"].nonzero()[0][0])


def test_order_enforcing_wrapper_contract_after_reset():
    """After reset, env()'s last()/step() go straight to the raw env; PettingZoo's
    order-enforcing checks still hold: errors before reset, agent_iter() needs a
    step() between items, a raising step() still counts, step() after the end only warns,
    and a deep copy or unpickled env steps its own game."""
    import copy
    import pickle

    env = ether_envs.make("aethermon_collect")
    with pytest.raises(AttributeError):
        env.last()
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    env.reset(seed=1)
    with pytest.raises(AssertionError, match="step"):
        for _agent in env.agent_iter():
            pass
    env.reset(seed=1)
    items = 0
    for _agent in env.agent_iter():
        items += 1
        if items == 2:
            with pytest.raises(ValueError, match="legal actions"):
                env.step(10**6)
            continue  # the same agent comes again
        env.step(_first_legal(env))
    assert not env.agents and env.unwrapped.num_steps > 0
    env.step(None)  # after the end: a warning, nothing else
    env.unwrapped.step(None)
    assert not env.agents

    env.reset(seed=2)
    env.step(_first_legal(env))
    for dup in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        before = env.unwrapped.game_state.history.copy()
        dup.step(_first_legal(dup))
        assert dup.unwrapped.num_steps == 2 and env.unwrapped.num_steps == 1
        assert env.unwrapped.game_state.history == before


def test_interleaved_agent_iter_loops_share_the_step_check_and_seeds_are_checked():
    """Two agent_iter() loops of one env share PettingZoo's "step() between items" check;
    reset() rejects a negative or bool seed with a clear ValueError."""
    env = ether_envs.make("aethermon_collect")
    env.reset(seed=0)
    it1, it2 = env.agent_iter(), env.agent_iter()
    next(it1)
    env.step(_first_legal(env))
    next(it2)
    env.step(_first_legal(env))
    next(it1)
    with pytest.raises(AssertionError, match="step"):
        next(it2)
    for bad in (-1, True, 1.5, "3"):
        with pytest.raises(ValueError, match="seed"):
            env.reset(seed=bad)
    env.reset(seed=np.int64(3))
    env.reset(seed=2**64)


@pytest.mark.parametrize("illegal_action", ["raise", "lose"])
def test_step_takes_0d_integer_arrays_and_refuses_floats_bools_and_other_shapes(illegal_action):
    """A 0-d integer array (what SB3's model.predict returns) is an action id in the env and the
    engine; a float, a bool or an array of another shape is a ValueError naming it, nothing changed."""
    env = ether_envs.make("aethermon_collect", illegal_action=illegal_action)
    env.reset(seed=0)
    a = _first_legal(env)
    assert env.action_space(env.agent_selection).contains(np.array(a))
    for bad in (float(a), np.float64(a), True, np.bool_(True), np.array([a]), np.array(float(a)), np.array(True), "3"):
        with pytest.raises(ValueError, match=r"not in Discrete\(183\): expected an int \(or a 0-d integer array\)"):
            env.step(bad)
        assert env.unwrapped.num_steps == 0 and env.agents
    env.step(np.array(a))
    assert env.unwrapped.game_state.history == [a]
    state = env.unwrapped.game.new_initial_state(seed=0)
    state.apply_action(np.array(state.legal_actions()[0], dtype=np.int32))
    assert len(state.history) == 1 and type(state.history[0]) is int


def test_every_agent_has_its_own_space_objects():
    """Seeding one agent's action space leaves the others' streams alone (PettingZoo's
    seed_action_spaces gives each agent its own stream); each agent gets the same objects
    on every call."""
    from gymnasium.spaces import Discrete

    env = ether_envs.make("aethermon_collect", num_players=3)
    a0, a1 = env.action_space("player_0"), env.action_space("player_1")
    assert a0 is not a1 and env.observation_space("player_0") is not env.observation_space("player_1")
    assert a0 is env.action_space("player_0") and a0 == a1
    a0.seed(0)
    a1.seed(1)
    expected = Discrete(183, seed=0)
    assert [a0.sample() for _ in range(8)] == [expected.sample() for _ in range(8)]


def test_max_steps_and_engine_seeds_are_checked_like_reset_seeds():
    game = ether_envs.load_game("aethermon_collect")
    for bad in ("a", -1, 1.5, True):
        with pytest.raises(ValueError, match="seed must be None or a non-negative int, got"):
            game.new_initial_state(seed=bad)
    assert game.new_initial_state(seed=np.int64(3)).history == []
    for bad in (True, 0, -2, 2.0, "5"):
        with pytest.raises(ValueError, match="max_steps must be None or an int >= 1, got"):
            ether_envs.make("aethermon_collect", max_steps=bad)
    env = ether_envs.make("aethermon_collect", max_steps=np.int64(2))
    env.reset(seed=0)
    env.step(_first_legal(env))
    env.step(_first_legal(env))
    assert all(env.truncations.values()) and type(env.unwrapped.max_steps) is int


def test_check_int_where_none_is_not_allowed():
    from ether_envs.core import check_int

    assert check_int("seed", np.int64(7), 0, optional=False) == 7
    for bad in (None, -1, True, 2.5):
        with pytest.raises(ValueError, match=rf"^seed must be a non-negative int, got {bad!r}$"):
            check_int("seed", bad, 0, optional=False)
    with pytest.raises(ValueError, match=r"^n must be an int >= 2, got 1$"):
        check_int("n", 1, 2, optional=False)
