"""Gymnasium-native single-agent view: registered ids, agent-spec strings through the
``ether_envs.agent_specs`` entry point, gymnasium.vector, and make_vec_env's episode statistics."""

import ast
import importlib.metadata
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest

import ether_envs
from agents import HeuristicAgent, RandomAgent
from ether_envs import wrappers
from ether_envs.wrappers import SingleAgentEnv, parse_opponent_weights

pytestmark = pytest.mark.timeout(60)


def _id(game: str) -> str:
    return f"ether_envs/{game}-v{ether_envs.load_game(game).spec.version}"


def _pick(mask, rng) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


# ---- registration --------------------------------------------------------------------------
@pytest.mark.parametrize("game", ether_envs.list_games())
def test_every_game_is_registered_with_its_spec_version(game):
    spec = gymnasium.spec(_id(game))
    assert spec.entry_point == "ether_envs.wrappers:make_gymnasium_env" and spec.kwargs == {"game": game}
    assert spec.max_episode_steps is None  # the env truncates itself at max_steps
    env = gymnasium.make(_id(game))
    assert isinstance(env.unwrapped, SingleAgentEnv) and env.unwrapped.game_name == game
    assert not any(type(w).__name__ == "TimeLimit" for w in _wrappers(env))


def _wrappers(env):
    while isinstance(env, gymnasium.Wrapper):
        yield env
        env = env.env


def test_import_twice_does_not_warn_and_imports_neither_agents_nor_training():
    code = ("import importlib, sys, warnings, gymnasium, ether_envs\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            "    warnings.simplefilter('always')\n"
            "    importlib.reload(ether_envs); ether_envs._register_with_gymnasium()\n"
            "assert not caught, [str(w.message) for w in caught]\n"
            "env = gymnasium.make('ether_envs/aethermon_collect-v0', num_players=3)\n"
            "env.reset(seed=0)\n"
            "assert 'agents' not in sys.modules and 'training' not in sys.modules\n"
            "print(sorted(k for k in gymnasium.registry if k.startswith('ether_envs/')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert ast.literal_eval(out.stdout) == sorted(_id(g) for g in ether_envs.list_games())


@pytest.mark.parametrize("game", ether_envs.list_games())
def test_make_passes_gymnasium_check_env_and_masks_survive_the_default_wrappers(game):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(_id(game))
    assert {type(w).__name__ for w in _wrappers(env)} == {"OrderEnforcing", "PassiveEnvChecker"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(env.unwrapped)
        rng = np.random.default_rng(0)
        obs, info = env.reset(seed=3)
        for _ in range(20):  # through PassiveEnvChecker and OrderEnforcing
            mask = env.unwrapped.action_masks()
            assert mask.dtype == bool and mask.shape == (env.action_space.n,) and mask.any()
            assert np.array_equal(env.get_wrapper_attr("action_masks")(), mask)
            assert info["action_mask"].dtype == np.int8 and np.array_equal(info["action_mask"].astype(bool), mask)
            assert env.observation_space.contains(obs)
            obs, reward, terminated, truncated, info = env.step(_pick(mask, rng))
            if terminated or truncated:
                assert not info["action_mask"].any() and not env.unwrapped.action_masks().any()
                obs, info = env.reset()


def test_make_passes_options_and_config_fields_through():
    gid = _id("ethnos")
    env = gymnasium.make(gid, config={"num_players": 3}, opponents="heuristic", learner_seat=1,
                         score_shaping=0.1, max_steps=7, illegal_action="raise")
    u = env.unwrapped
    assert (u.game.num_players, u.learner_seat, u.score_shaping, u.max_steps, u.illegal_action) == (
        3, 1, 0.1, 7, "raise")
    env.reset(seed=0)
    assert sorted(u._seat_agents) == [0, 2] and all(isinstance(a, HeuristicAgent) for a in u._seat_agents.values())
    rng = np.random.default_rng(0)
    for _ in range(7):
        _, _, terminated, truncated, info = env.step(_pick(u.action_masks(), rng))
        if terminated or truncated:
            break
    assert truncated and u.num_steps >= 7  # max_steps counts every seat's decisions
    assert not info["action_mask"].any() and not u.action_masks().any()  # the episode is over
    same = gymnasium.make(gid, num_players=3)  # a config field as a keyword
    assert same.unwrapped.config == {"num_players": 3} and same.unwrapped.game.num_players == 3
    with pytest.raises(ValueError, match="num_players"):
        gymnasium.make(gid, config={"num_players": 2}, num_players=3)
    with pytest.raises(ValueError):
        gymnasium.make(gid, no_such_config_field=1)
    lose = gymnasium.make(gid, num_players=3)  # illegal_action="lose": the episode ends, no action is legal
    lose.reset(seed=0)
    _, reward, terminated, _, info = lose.step(int(np.flatnonzero(~lose.unwrapped.action_masks())[0]))
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True) and not info["action_mask"].any()


# ---- opponents as agent spec strings ----------------------------------------------------------
def test_agents_package_declares_the_default_resolver():
    eps = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=wrappers.AGENT_SPEC_GROUP)}
    assert eps.get("default") == "agents:make_agent"


def test_string_opponents_build_agents_through_the_entry_point():
    cfg = {"num_players": 3}
    env = SingleAgentEnv("aethermon_collect", cfg, opponents="heuristic", learner_seat=0)
    env.reset(seed=0)
    a1, a2 = env._seat_agents[1], env._seat_agents[2]
    assert isinstance(a1, HeuristicAgent) and isinstance(a2, HeuristicAgent) and a1 is not a2
    env.set_opponents(["heuristic", "random"])
    env.reset(seed=0)
    assert isinstance(env._seat_agents[1], HeuristicAgent) and isinstance(env._seat_agents[2], RandomAgent)
    mixed = RandomAgent()
    env.set_opponents(("heuristic", mixed))  # strings and agent objects together
    env.reset(seed=0)
    assert isinstance(env._seat_agents[1], HeuristicAgent) and env._seat_agents[2] is mixed


@pytest.mark.parametrize("weights", ["heuristic=0.7,random=0.3", {"heuristic": 0.7, "random": 0.3}])
def test_weighted_opponents_draw_one_spec_per_episode(weights):
    env = SingleAgentEnv("aethermon_collect", {"num_players": 3}, opponents=weights, learner_seat=0)
    kinds = []
    for seed in range(40):
        env.reset(seed=seed)
        types = {type(a) for a in env._seat_agents.values()}
        assert len(types) == 1  # all other seats play the spec drawn
        kinds.append(types.pop())
    assert 10 <= kinds.count(HeuristicAgent) <= 38 and kinds.count(RandomAgent) >= 2


def test_string_opponents_play_seeded_games_to_the_end():
    def episode(seed):
        env = gymnasium.make(_id("aethermon_collect"), num_players=2, opponents="heuristic", illegal_action="raise")
        obs, info = env.reset(seed=seed)
        rng, trace, done = np.random.default_rng(seed), [obs], False
        while not done:
            obs, reward, terminated, truncated, info = env.step(_pick(info["action_mask"], rng))
            trace.append(obs)
            done = terminated or truncated
        assert terminated and reward == info["returns"][info["seat"]]
        return trace

    a, b = episode(4), episode(4)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


def test_parse_opponent_weights():
    assert parse_opponent_weights("heuristic") is None
    assert parse_opponent_weights("mcts:simulations=50") is None  # one spec, not weights
    assert parse_opponent_weights("mcts:simulations=50,c=2") is None
    assert parse_opponent_weights("ppo:'runs/a,b=c/m.zip',deterministic=false") is None
    assert parse_opponent_weights("heuristic=0.7, random=0.3") == {"heuristic": 0.7, "random": 0.3}
    assert parse_opponent_weights("'mcts:simulations=50,c=2'=0.5,heuristic=0.5") == {
        "mcts:simulations=50,c=2": 0.5, "heuristic": 0.5}
    for bad in ("heuristic=-1", "heuristic=0,random=0", "heuristic=x", "heuristic=0.5,random", "'a=1"):
        with pytest.raises(ValueError):
            parse_opponent_weights(bad)


@pytest.mark.parametrize("opponents", ["no_such_agent", ["random", "no_such_agent"], "no_such_agent=1,random=1",
                                       {"no_such_agent": 1.0}])
def test_unknown_opponent_spec_is_a_value_error_naming_it(opponents):
    with pytest.raises(ValueError, match="no_such_agent"):
        SingleAgentEnv("aethermon_collect", opponents=opponents)
    with pytest.raises(ValueError, match="no_such_agent"):
        gymnasium.make(_id("aethermon_collect"), opponents=opponents)


def test_without_a_resolver_string_opponents_say_what_to_install(monkeypatch):
    monkeypatch.setattr(wrappers, "_agent_spec_resolvers", lambda: ())
    with pytest.raises(ValueError, match=r"'heuristic'.*install the 'agents' package.*ether_envs\.agent_specs"):
        SingleAgentEnv("aethermon_collect", opponents="heuristic")
    broken = importlib.metadata.EntryPoint("default", "no_such_module_xyz:make_agent", wrappers.AGENT_SPEC_GROUP)
    monkeypatch.setattr(wrappers, "_agent_spec_resolvers", lambda: (("default", broken),))
    with pytest.raises(ValueError, match="failed to load.*no_such_module_xyz"):
        SingleAgentEnv("aethermon_collect", opponents=["random"])
    # agent objects need no resolver
    env = SingleAgentEnv("aethermon_collect", opponents=RandomAgent())
    env.reset(seed=0)


# ---- gymnasium.vector ----------------------------------------------------------------------
def _vector_loop(venv, steps, seed=0, check_truth=None):
    """Random legal actions from ``infos["action_mask"]`` (next-step autoreset: a row is all
    zero exactly on the step after an episode ended, and the action sent there is ignored).
    Returns the number of episodes finished."""
    n = venv.num_envs
    obs, infos = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ended = np.zeros(n, dtype=bool)
    episodes = 0
    for _ in range(steps):
        masks = infos["action_mask"]
        assert masks.shape == (n, venv.single_action_space.n) and masks.dtype == np.int8
        assert np.array_equal(masks.any(axis=1), ~ended)  # all zero only where an episode just ended
        if check_truth is not None:
            check_truth(masks)
        actions = np.array([_pick(m, rng) if m.any() else 0 for m in masks])
        obs, rewards, terminated, truncated, infos = venv.step(actions)
        assert obs.shape == (n, *venv.single_observation_space.shape)
        assert not np.any(terminated[ended] | truncated[ended]) and not np.any(rewards[ended])  # the reset step
        assert "illegal_action" not in infos
        ended = terminated | truncated
        episodes += int(ended.sum())
        if terminated.any():  # the final info of a finished game
            assert infos["_returns"][terminated].all() and not infos["action_mask"][terminated].any()
    return episodes


@pytest.mark.parametrize("game,steps,min_episodes", [("aethermon_collect", 200, 20), ("etherium", 300, 4)])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasium_vector_random_legal_actions(mode, game, steps, min_episodes):
    """4 envs under SyncVectorEnv / AsyncVectorEnv: every action taken from the stacked masks is
    legal (illegal_action='raise' would fail the step) and matches each env's own mask."""
    gid = _id(game)
    fns = [lambda: gymnasium.make(gid, num_players=2, opponents="random", illegal_action="raise")] * 4
    cls = gymnasium.vector.SyncVectorEnv if mode == "sync" else gymnasium.vector.AsyncVectorEnv
    venv = cls(fns)
    try:
        def truth(masks):
            own = np.stack(venv.call("action_masks"))  # each env's action_masks(), through its wrappers
            assert np.array_equal(own, masks.astype(bool))

        assert _vector_loop(venv, steps, check_truth=truth) >= min_episodes
    finally:
        venv.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_make_vec_with_string_opponents(mode):
    venv = gymnasium.make_vec(_id("aethermon_collect"), num_envs=4, vectorization_mode=mode,
                              num_players=3, opponents="heuristic=0.5,random=0.5", illegal_action="raise")
    try:
        assert _vector_loop(venv, 150, seed=1) >= 10
    finally:
        venv.close()


def test_same_step_autoreset_always_gives_the_new_games_mask():
    AutoresetMode = getattr(gymnasium.vector, "AutoresetMode", None)
    if AutoresetMode is None:
        pytest.skip("gymnasium < 1.1 has only next-step autoreset")
    gid = _id("aethermon_collect")
    venv = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make(gid, illegal_action="raise")] * 4,
                                          autoreset_mode=AutoresetMode.SAME_STEP)
    obs, infos = venv.reset(seed=0)
    rng, episodes = np.random.default_rng(0), 0
    for _ in range(100):
        masks = infos["action_mask"]
        assert masks.any(axis=1).all()
        obs, _r, terminated, truncated, infos = venv.step(np.array([_pick(m, rng) for m in masks]))
        episodes += int((terminated | truncated).sum())
    assert episodes >= 10
    venv.close()


# ---- make_vec_env (SB3): VecMonitor by default ---------------------------------------------------
@pytest.mark.parametrize("vec", ["inprocess", "dummy", "subproc", "sharded"])
def test_make_vec_env_reports_episode_statistics_and_keeps_masks(vec):
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import VecMonitor

    from ether_envs.vector import make_vec_env

    n = 3
    venv = make_vec_env("aethermon_collect", {"num_players": 2}, n, vec, n_procs=2, start_method="fork",
                        opponents="heuristic", illegal_action="raise")
    try:
        assert isinstance(venv, VecMonitor) and is_masking_supported(venv)
        if vec == "sharded":
            assert venv.n_procs == 2  # attributes of the batch reach through the wrapper
        venv.seed(7)
        first = venv.reset()
        venv.seed(7)
        assert np.array_equal(venv.reset(), first)
        assert venv.env_method("set_opponents", "random") == [None] * n  # effective at the next reset
        venv.seed(7)
        venv.reset()
        rng = np.random.default_rng(0)
        length, episodes = np.zeros(n, dtype=int), 0
        for _ in range(60):
            masks = venv.action_masks()
            assert masks.dtype == bool and masks.shape == (n, venv.action_space.n)
            assert np.array_equal(get_action_masks(venv), masks) and masks.any(axis=1).all()
            _obs, rewards, dones, infos = venv.step(np.array([_pick(m, rng) for m in masks]))
            length += 1
            for i in range(n):
                if dones[i]:
                    ep = infos[i]["episode"]
                    assert ep["l"] == length[i] and np.isclose(ep["r"], infos[i]["returns"][infos[i]["seat"]])
                    assert ep["t"] >= 0
                    length[i], episodes = 0, episodes + 1
                else:
                    assert "episode" not in infos[i]
        assert episodes >= 10
        assert isinstance(venv.get_attr("opponents", indices=[0])[0][0], RandomAgent)
    finally:
        venv.close()


def test_make_vec_env_monitor_off_and_wrapped_again():
    from stable_baselines3.common.vec_env import VecMonitor

    from ether_envs.vector import SingleAgentVecEnv, make_vec_env

    bare = make_vec_env("aethermon_collect", n_envs=2, monitor=False)
    assert type(bare) is SingleAgentVecEnv
    bare.seed(0)
    bare.reset()
    for _ in range(20):
        _o, _r, dones, infos = bare.step(np.array([np.flatnonzero(m)[0] for m in bare.action_masks()]))
        assert not any("episode" in info for info in infos)
    twice = VecMonitor(make_vec_env("aethermon_collect", n_envs=2))  # as training/train.py does
    twice.seed(0)
    twice.reset()
    assert twice.action_masks().shape == (2, twice.action_space.n)  # no ambiguous-attribute error


def test_maskable_ppo_trains_on_a_registered_id():
    """sb3-contrib finds action_masks through gymnasium's wrappers (get_wrapper_attr)."""
    from sb3_contrib import MaskablePPO

    env = gymnasium.make(_id("aethermon_collect"), opponents="heuristic", illegal_action="raise")
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    model.learn(total_timesteps=32)
    assert model.num_timesteps == 32


def test_an_opponent_that_is_not_an_agent_is_refused_at_make():
    import gymnasium

    with pytest.raises(ValueError, match="3 is not an agent"):
        gymnasium.make(f"ether_envs/ether_wars-v{ether_envs.load_game('ether_wars').spec.version}", opponents=3)
