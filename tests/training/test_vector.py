"""Vectorised single-agent envs (ether_envs.vector) for SB3 / MaskablePPO."""

import multiprocessing as mp
import os
import subprocess
import sys

import numpy as np
import pytest

from ether_envs.vector import ShardedSubprocVecEnv, SingleAgentVecEnv, make_vec_env
from ether_envs.wrappers import SingleAgentEnv, make_single_agent_env

CFG = {"num_players": 2}


def _random_actions(masks, rng):
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def _trace(venv, steps, seed=0):
    """Observations, rewards, dones and masks of ``steps`` random steps after ``seed(seed)``."""
    venv.seed(seed)
    obs = venv.reset()
    rng = np.random.default_rng(0)
    out = [(obs, venv.action_masks() if hasattr(venv, "action_masks") else np.stack(venv.env_method("action_masks")))]
    for _ in range(steps):
        masks = np.stack(venv.env_method("action_masks"))
        obs, rew, done, infos = venv.step(_random_actions(masks, rng))
        out.append((obs, rew, done, [i.get("terminal_observation") for i in infos]))
    return out


def test_inprocess_matches_single_agent_envs_step_by_step():
    """Each row of the batch is exactly what a SingleAgentEnv seeded seed+i shows: observation,
    mask, reward, done, the final observation of a finished game and the next game after it."""
    n = 3
    venv = SingleAgentVecEnv([make_single_agent_env("aethermon_collect", CFG)] * n)
    singles = [SingleAgentEnv("aethermon_collect", CFG) for _ in range(n)]
    venv.seed(10)
    obs = venv.reset()
    assert obs.shape == (n, venv.observation_space.shape[0]) and obs.dtype == np.float32
    for i, env in enumerate(singles):
        o, _ = env.reset(seed=10 + i)
        assert np.array_equal(obs[i], o)
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(150):
        masks = venv.action_masks()
        assert masks.shape == (n, venv.action_space.n) and masks.dtype == bool
        for i, env in enumerate(singles):
            assert np.array_equal(masks[i], env.action_masks())
            assert venv.observation_space.contains(obs[i])
        actions = _random_actions(masks, rng)
        obs, rew, done, infos = venv.step(actions)
        assert rew.dtype == np.float32 and done.dtype == bool and len(infos) == n
        for i, env in enumerate(singles):
            o, r, term, trunc, info = env.step(actions[i])
            assert rew[i] == np.float32(r) and done[i] == (term or trunc)
            assert infos[i]["TimeLimit.truncated"] is False and infos[i]["seat"] == info["seat"]
            if done[i]:
                finished += 1
                assert np.array_equal(infos[i]["terminal_observation"], o)
                assert np.array_equal(infos[i]["returns"], info["returns"])
                o, _ = env.reset()
            else:
                assert "terminal_observation" not in infos[i]
            assert np.array_equal(obs[i], o)
    assert finished >= 3


def test_truncation_is_reported_as_sb3_time_limit():
    venv = SingleAgentVecEnv([make_single_agent_env("aethermon_collect", CFG, max_steps=4)] * 2)
    venv.seed(0)
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(10):
        obs, _rew, done, infos = venv.step(_random_actions(venv.action_masks(), rng))
        if done.any():
            break
    i = int(np.flatnonzero(done)[0])
    assert infos[i]["TimeLimit.truncated"] is True and "terminal_observation" in infos[i]
    assert venv.action_masks()[i].any()  # the mask of the new game, not of the finished one


@pytest.mark.parametrize("vec", ["dummy", "sharded"])
def test_every_vec_kind_gives_the_inprocess_trajectories(vec):
    """With per-env opponents (uniform random from each env's generator) the batching does not
    change a seeded run: DummyVecEnv and 4 games over 2 worker processes give the same arrays."""
    ref = make_vec_env("aethermon_collect", CFG, 4, "inprocess")
    other = make_vec_env("aethermon_collect", CFG, 4, vec, n_procs=2, start_method="fork")
    try:
        for (a, b) in zip(_trace(ref, 60, seed=3), _trace(other, 60, seed=3)):
            for x, y in zip(a, b):
                if isinstance(x, list):
                    assert all((u is None and v is None) or np.array_equal(u, v) for u, v in zip(x, y))
                else:
                    assert np.array_equal(x, y)
    finally:
        other.close()


def test_seeded_runs_repeat_and_seeds_differ():
    venv = make_vec_env("aethermon_collect", CFG, 2, "inprocess")
    a, b, c = _trace(venv, 30, seed=5), _trace(venv, 30, seed=5), _trace(venv, 30, seed=6)
    assert all(np.array_equal(x[0], y[0]) for x, y in zip(a, b))
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(a, c))


def test_get_action_masks_through_vec_monitor_and_after_env_method():
    """sb3-contrib reads masks with env_method('action_masks') through wrappers; they stay right
    after env_method/set_attr touched the sub-envs."""
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import VecMonitor

    inner = make_vec_env("aethermon_collect", {"num_players": 3}, 3, "inprocess")
    venv = VecMonitor(inner)
    assert is_masking_supported(venv)
    venv.seed(1)
    venv.reset()

    def legal():
        return np.stack([s.legal_actions_mask().astype(bool) for s in inner.get_attr("state")])

    masks = get_action_masks(venv)
    assert masks.dtype == bool and masks.shape == (3, inner.action_space.n)
    assert np.array_equal(masks, legal())
    inner.env_method("reset", indices=[1])  # changes game 1 behind the batch's back
    assert np.array_equal(get_action_masks(venv), legal())
    assert [m.tolist() for m in inner.env_method("action_masks", indices=[2, 0])] == [legal()[2].tolist(),
                                                                                      legal()[0].tolist()]


@pytest.mark.parametrize("vec,n_envs", [("inprocess", 4), ("subproc", 2), ("sharded", 4)])
def test_maskable_ppo_learns_one_update_never_a_masked_out_action(vec, n_envs):
    """One rollout + one update of MaskablePPO on each vec env; illegal actions raise in the sub-envs,
    so a masked-out action would fail the test."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    venv = VecMonitor(make_vec_env("aethermon_collect", CFG, n_envs, vec, n_procs=2, illegal_action="raise"))
    try:
        model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu",
                            policy_kwargs={"net_arch": [16]})
        model.learn(total_timesteps=32 * n_envs)
        assert model.num_timesteps == 32 * n_envs
    finally:
        venv.close()


def test_sharded_worker_error_is_raised_with_its_traceback():
    venv = ShardedSubprocVecEnv([make_single_agent_env("aethermon_collect", CFG, illegal_action="raise")] * 2,
                                n_procs=2, start_method="fork")
    try:
        venv.seed(0)
        venv.reset()
        masks = venv.action_masks()
        illegal = np.array([np.flatnonzero(~m)[0] for m in masks])
        with pytest.raises(RuntimeError, match="illegal action"):
            venv.step(illegal)
        # only game 0 errs: game 1's reply is read too, so later calls get their own answers
        legal_1 = np.flatnonzero(masks[1])[0]
        with pytest.raises(RuntimeError, match="illegal action"):
            venv.step(np.array([illegal[0], legal_1]))
        seats = venv.get_attr("seat")
        assert len(seats) == 2 and all(isinstance(x, (int, np.integer)) for x in seats), seats
    finally:
        venv.close()


@pytest.mark.parametrize("vec", ["inprocess", "sharded"])
def test_step_needs_one_action_per_game_and_steps_nothing_otherwise(vec):
    extra = {"n_procs": 2, "start_method": "fork"} if vec == "sharded" else {}
    venvs = [make_vec_env("aethermon_collect", CFG, 3, vec, **extra) for _ in range(2)]
    try:
        for v in venvs:
            v.seed(0)
            v.reset()
        for bad in (np.array([0]), np.zeros(4, dtype=np.int64), np.int64(0)):
            with pytest.raises(ValueError, match="one action per game"):
                venvs[0].step(bad)
        actions = np.array([np.flatnonzero(m)[0] for m in venvs[1].action_masks()])
        # nothing was stepped by the bad calls: both batches continue identically
        assert np.array_equal(venvs[0].step(actions)[0], venvs[1].step(actions)[0])
    finally:
        for v in venvs:
            v.close()


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="vec must be one of"):
        make_vec_env("aethermon_collect", CFG, 2, "threads")
    with pytest.raises(ValueError, match="n_envs"):
        make_vec_env("aethermon_collect", CFG, 0)
    env = SingleAgentEnv("aethermon_collect", CFG)
    with pytest.raises(ValueError, match="same env instance"):
        SingleAgentVecEnv([lambda: env, lambda: env])
    with pytest.raises(TypeError, match="SingleAgentEnv"):
        SingleAgentVecEnv([lambda: object()])


def test_core_package_does_not_import_sb3():
    code = ("import sys, ether_envs, ether_envs.wrappers; ether_envs.make('aethermon_collect'); "
            "assert 'stable_baselines3' not in sys.modules and 'torch' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_sharded_attributes_and_methods_reach_the_right_games():
    venv = make_vec_env("aethermon_collect", {"num_players": 3}, 5, "sharded", n_procs=2, start_method="fork")
    try:
        assert venv.n_procs == 2 and venv.has_attr("action_masks") and not venv.has_attr("no_such_attribute")
        venv.seed(2)
        venv.reset()
        assert venv.get_attr("seat", indices=[4, 0]) == [venv.get_attr("seat")[4], venv.get_attr("seat")[0]]
        venv.set_attr("learner_seat", 1, indices=[3])
        assert venv.get_attr("learner_seat") == [None, None, None, 1, None]
        venv.env_method("reset", indices=[3])  # the next game of env 3 seats the learner in seat 1
        states = venv.get_attr("state")
        assert venv.get_attr("seat")[3] == 1
        assert np.array_equal(venv.action_masks(), np.stack([s.legal_actions_mask().astype(bool) for s in states]))
    finally:
        venv.close()


class _RecordPid:
    """A picklable worker_init: appends this process's id to a file (one line a call)."""

    def __init__(self, path):
        self.path = str(path)

    def __call__(self):
        with open(self.path, "a") as f:
            f.write(f"{os.getpid()}\n")


@pytest.mark.parametrize("vec,start_method", [("sharded", "forkserver"), ("sharded", "spawn"), ("subproc", "fork")])
def test_worker_init_runs_in_every_worker_before_the_games(tmp_path, vec, start_method):
    """worker_init is called in each process that runs the games (here: not this one), and the
    games step as in process."""
    log = tmp_path / "pids.txt"
    venv = make_vec_env("aethermon_collect", CFG, 4, vec, n_procs=2, start_method=start_method,
                        worker_init=_RecordPid(log))
    try:
        trace = _trace(venv, 5, seed=1)
    finally:
        venv.close()
    pids = [int(x) for x in log.read_text().split()]
    assert os.getpid() not in pids
    # sharded: once per worker (2); subproc: once per game built (4 workers, one game each)
    assert len(set(pids)) == (2 if vec == "sharded" else 4)
    assert len(pids) == (2 if vec == "sharded" else 4)
    ref = make_vec_env("aethermon_collect", CFG, 4, "inprocess")
    for (a, b) in zip(_trace(ref, 5, seed=1), trace):
        assert np.array_equal(a[0], b[0])


def test_worker_init_in_process_kinds_runs_here_once_and_a_non_callable_is_refused(tmp_path):
    log = tmp_path / "pids.txt"
    for vec in ("inprocess", "dummy"):
        make_vec_env("aethermon_collect", CFG, 3, vec, worker_init=_RecordPid(log)).close()
    assert [int(x) for x in log.read_text().split()] == [os.getpid(), os.getpid()]
    with pytest.raises(ValueError, match="worker_init must be None or a callable"):
        make_vec_env("aethermon_collect", CFG, 2, "sharded", worker_init="one_thread")
    with pytest.raises(ValueError, match="worker_init must be None or a callable"):
        ShardedSubprocVecEnv([make_single_agent_env("aethermon_collect", CFG)], worker_init=1)


def _fail_init():
    raise OSError("no threads for you")


@pytest.mark.parametrize("vec", ["sharded", "subproc"])
def test_a_failing_worker_init_is_a_clear_error_and_leaves_no_worker(vec):
    before = set(mp.active_children())
    with pytest.raises((RuntimeError, EOFError, ConnectionError, OSError)) as info:
        make_vec_env("aethermon_collect", CFG, 2, vec, n_procs=2, start_method="fork", worker_init=_fail_init)
    if vec == "sharded":  # ours names the worker and carries its traceback
        assert info.type is RuntimeError and "error in vec-env worker" in str(info.value)
        assert "no threads for you" in str(info.value)
    for proc in set(mp.active_children()) - before:
        proc.join(timeout=10)
    assert not (set(mp.active_children()) - before)


class _TwoArgError(Exception):
    """Pickles but cannot be rebuilt (its __init__ needs two arguments)."""

    def __init__(self, a, b):
        super().__init__(f"{a} and {b}")


def _fail_unpicklable():
    raise _TwoArgError("left", "right")


def _exit_init():
    raise SystemExit(3)


@pytest.mark.parametrize("init,text", [(_fail_unpicklable, "left and right"), (_exit_init, "SystemExit: 3")])
def test_a_worker_error_that_cannot_travel_still_brings_its_traceback(init, text):
    with pytest.raises(RuntimeError, match="error in vec-env worker") as info:
        make_vec_env("aethermon_collect", CFG, 2, "sharded", n_procs=2, start_method="fork", worker_init=init)
    assert text in str(info.value)
