"""Vectorised single-agent envs for Stable-Baselines3 / sb3-contrib ``MaskablePPO``.

    import numpy as np
    from ether_envs.vector import make_vec_env
    venv = make_vec_env("aethermon_collect", {"num_players": 2}, n_envs=8, vec="inprocess")
    venv.seed(0)
    obs = venv.reset()                       # float32 (8, obs_size)
    masks = venv.action_masks()              # bool (8, num_actions)
    actions = np.array([np.flatnonzero(m)[0] for m in masks])   # one legal action per env
    obs, rewards, dones, infos = venv.step(actions)
    # where dones[i]: infos[i]["episode"] is {"r", "l", "t"} (VecMonitor)
    venv.close()

Every sub-env is an :class:`ether_envs.wrappers.SingleAgentEnv` (one learner seat,
opponents played inside; same constructor options). Four ways to batch them
(``vec=``):

* ``"dummy"`` — SB3's ``DummyVecEnv`` (:class:`MaskedDummyVecEnv`, which adds
  ``action_masks()``): the games in turn in this process.
* ``"inprocess"`` — :class:`SingleAgentVecEnv`: the games in turn in this process,
  each writing its observation and mask straight into preallocated
  ``(n_envs, obs_size)`` / ``(n_envs, num_actions)`` arrays; no per-step
  deepcopy; ``env_method("action_masks")`` (what sb3-contrib's
  ``get_action_masks`` calls) reads the mask array instead of recomputing the
  legal actions. Same trajectories as ``"dummy"`` for the same seed.
* ``"subproc"`` — SB3's ``SubprocVecEnv`` (:class:`MaskedSubprocVecEnv`, which adds
  ``action_masks()``): one game per worker process (masks: one extra pipe round trip
  per game per step through ``env_method``).
* ``"sharded"`` — :class:`ShardedSubprocVecEnv`: ``n_procs`` worker processes,
  each running a :class:`SingleAgentVecEnv` over its share of the games; the
  masks travel back with every step, so ``env_method("action_masks")`` costs
  no round trip.

Semantics are SB3's ``VecEnv``: a finished game is reset at once, its last
observation is in ``infos[i]["terminal_observation"]`` and
``infos[i]["TimeLimit.truncated"]`` tells truncation from termination (the
observation returned is the new game's). ``seed(s)`` seeds sub-env ``i`` with
``s + i`` at the next ``reset()``; a seeded run is reproducible. Opponent
objects shared by the sub-envs of one process (e.g. an opponent pool's cached
agents) are reseeded at every reset of any of them, so with such opponents the
trajectories also depend on how the games are grouped into processes.

Worker set-up: ``make_vec_env(..., worker_init=f)`` calls ``f()`` (no arguments; pickled with
cloudpickle, so a lambda or closure will do) once in every process that runs the games before
the first is built: in each worker for ``"subproc"``/``"sharded"``, in this process for
``"inprocess"``/``"dummy"``. ``training.ppo`` and ``training.train`` pass ``training.one_thread``
when torch runs on one thread (their default): opponents that are networks (self-play
snapshots) run in the workers, and a worker left with numpy's default BLAS threads (one per
core) competes with the other workers for the cores. Measured on the 2-core machine (``python -m training.ppo
aethermon_collect``, 16 games in 2 ``"sharded"`` workers, 30% of the episodes against a
snapshot): 1,400-1,500 learner frames a second before the first snapshot, 430-920 after it
with the default threads, 1,140-1,800 with one thread a worker.

Infos hold ``seat`` (and at the end of a game ``returns``/``scores``, or
``illegal_action``); read masks with ``action_masks()`` (bool ``(n_envs,
num_actions)``, every kind) or sb3-contrib's ``get_action_masks(venv)``, not from
the infos (``"inprocess"``/``"sharded"`` infos hold no ``action_mask``).

Episode statistics: :func:`make_vec_env` wraps the batch in SB3's ``VecMonitor``
by default (``monitor=False`` returns the bare batch): on the step a game ends,
``infos[i]["episode"] = {"r": return (float32), "l": length (learner decisions),
"t": seconds since the wrapper was made}``, which SB3's loggers (``rollout/ep_rew_mean``)
read. ``VecMonitor`` forwards ``action_masks()``, ``n_procs`` and other attributes of
the batch (SB3's ``VecEnvWrapper.__getattr__``) and ``env_method``, ``get_attr``,
``set_attr``, ``seed`` (``env_method("set_opponents", pool)`` reaches every game).
Wrapping the result in another ``VecMonitor`` works (the outer one recomputes the same
statistics) but is redundant: pass ``monitor=False`` then.

This module needs stable-baselines3 (the ``train`` extra); ``import ether_envs``
does not import it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

try:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor
    from stable_baselines3.common.vec_env.base_vec_env import CloudpickleWrapper, VecEnvIndices
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError("ether_envs.vector needs stable-baselines3: pip install 'ether-envs[train]'") from e

from .wrappers import SingleAgentEnv, make_single_agent_env

VEC_KINDS = ("dummy", "inprocess", "subproc", "sharded")


def _check_actions(actions: Any, n_envs: int) -> np.ndarray:
    """``actions`` as an array with one entry per game.

    Raises:
        ValueError: not one action per game (nothing is stepped then).
    """
    actions = np.asarray(actions)
    if actions.ndim == 0 or actions.shape[0] != n_envs:
        raise ValueError(f"expected one action per game, shape ({n_envs},), got shape {actions.shape}")
    return actions


class SingleAgentVecEnv(VecEnv):
    """Many :class:`SingleAgentEnv` games stepped in turn in one process (an SB3 ``VecEnv``).

    Args:
        env_fns: callables each returning a new :class:`SingleAgentEnv` (e.g.
            ``[make_single_agent_env(game, config, ...)] * n``); all with the same spaces.

    Observations: float32 ``(n_envs, obs_size)``; rewards float32 ``(n_envs,)``;
    dones bool ``(n_envs,)``; :meth:`action_masks`: bool ``(n_envs, num_actions)``.
    The arrays returned are copies (SB3 keeps the previous observation while stepping).

    Raises:
        TypeError: a callable returned something other than a ``SingleAgentEnv``.
        ValueError: the same instance twice, or sub-envs with different spaces.
    """

    def __init__(self, env_fns: Sequence[Callable[[], SingleAgentEnv]]):
        self.envs = [fn() for fn in env_fns]
        if not self.envs:
            raise ValueError("SingleAgentVecEnv needs at least one env")
        for env in self.envs:
            if not isinstance(env, SingleAgentEnv):
                raise TypeError(f"SingleAgentVecEnv batches SingleAgentEnv instances, got {type(env).__name__}")
        if len({id(e) for e in self.envs}) != len(self.envs):
            raise ValueError("env_fns returned the same env instance twice; each call must build a new env")
        first = self.envs[0]
        for env in self.envs[1:]:
            if env.observation_space != first.observation_space or env.action_space != first.action_space:
                raise ValueError("all sub-envs must have the same observation and action spaces")
        super().__init__(len(self.envs), first.observation_space, first.action_space)
        n = self.num_envs
        self._obs = np.zeros((n, *first.observation_space.shape), dtype=np.float32)
        self._masks = np.zeros((n, first.action_space.n), dtype=bool)
        self._rews = np.zeros(n, dtype=np.float32)
        self._dones = np.zeros(n, dtype=bool)
        self._masks_stale = True  # until reset, and after env_method/set_attr touched the sub-envs
        self._actions: np.ndarray | None = None
        self.metadata = first.metadata

    # ---- VecEnv API ----------------------------------------------------------------
    def reset(self) -> np.ndarray:
        """Reset every game (with the seeds of :meth:`seed`, once); returns float32 ``(n_envs, obs_size)``."""
        for i, env in enumerate(self.envs):
            self.reset_infos[i] = env.reset_into(self._obs[i], self._masks[i], seed=self._seeds[i])
        self._reset_seeds()
        self._reset_options()
        self._masks_stale = False
        return self._obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = _check_actions(actions, self.num_envs)

    def step_wait(self):
        """Step every game with its action; finished games are reset (SB3 auto-reset).

        Returns:
            ``(obs, rewards, dones, infos)`` as the class docstring.

        Raises:
            ValueError: an illegal action in a sub-env built with ``illegal_action="raise"``.
        """
        actions, obs, masks = self._actions, self._obs, self._masks
        infos: list[dict[str, Any]] = []
        for i, env in enumerate(self.envs):
            reward, terminated, truncated, info = env.step_into(actions[i], obs[i], masks[i])
            done = terminated or truncated
            self._rews[i] = reward
            self._dones[i] = done
            info["TimeLimit.truncated"] = truncated and not terminated
            if done:
                info["terminal_observation"] = obs[i].copy()
                self.reset_infos[i] = env.reset_into(obs[i], masks[i])
            infos.append(info)
        self._masks_stale = False
        return obs.copy(), self._rews.copy(), self._dones.copy(), infos

    def action_masks(self) -> np.ndarray:
        """bool ``(n_envs, num_actions)``: each game's legal actions for the observation last returned."""
        if self._masks_stale:
            for i, env in enumerate(self.envs):
                self._masks[i] = env.action_masks()
            self._masks_stale = False
        return self._masks.copy()

    def close(self) -> None:
        for env in self.envs:
            env.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return [getattr(self.envs[i], attr_name) for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        for i in self._get_indices(indices):
            setattr(self.envs[i], attr_name, value)
        self._masks_stale = True

    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs) -> list[Any]:
        """Call a method of the sub-envs. ``"action_masks"`` without arguments is served from
        the mask array (one copy, no legal-action recomputation)."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks" and not method_args and not method_kwargs:
            return list(self.action_masks()[idx])
        out = [getattr(self.envs[i], method_name)(*method_args, **method_kwargs) for i in idx]
        self._masks_stale = True
        return out

    def env_is_wrapped(self, wrapper_class, indices: VecEnvIndices = None) -> list[bool]:
        from stable_baselines3.common.env_util import is_wrapped

        return [is_wrapped(self.envs[i], wrapper_class) for i in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in self.envs]  # text rendering only ("ansi"): render() calls env_method("render")


class _MasksByEnvMethod:
    """``action_masks()`` for SB3's own vec envs: each game's legal actions through ``env_method``."""

    def action_masks(self) -> np.ndarray:
        """bool ``(n_envs, num_actions)``: each game's legal actions now (``env_method("action_masks")``)."""
        return np.stack(self.env_method("action_masks")).astype(bool, copy=False)


class MaskedDummyVecEnv(_MasksByEnvMethod, DummyVecEnv):
    """SB3's ``DummyVecEnv`` with :meth:`action_masks` (as the other kinds of :func:`make_vec_env`)."""


class MaskedSubprocVecEnv(_MasksByEnvMethod, SubprocVecEnv):
    """SB3's ``SubprocVecEnv`` with :meth:`action_masks` (one pipe round trip per game)."""


# ---- several processes ---------------------------------------------------------------
class _RemoteError:
    """An exception raised in a worker, sent back with its traceback (the exception object
    too when it survives pickling; the text always does)."""

    def __init__(self, exc: BaseException) -> None:
        self.text = traceback.format_exc()
        try:
            pickle.loads(pickle.dumps(exc))
        except Exception:  # noqa: BLE001 - e.g. a class defined in the worker's __main__, or odd __init__ arguments
            exc = None
        self.exc = exc


def _shard_worker(remote, parent_remote, fns: CloudpickleWrapper, init: CloudpickleWrapper) -> None:
    parent_remote.close()
    failed: _RemoteError | None = None
    try:  # a failing worker_init or game constructor answers every command with its error
        if init.var is not None:
            init.var()
        venv = SingleAgentVecEnv(fns.var)
    except BaseException as e:  # noqa: BLE001 - sent back and re-raised in the parent (SystemExit too)
        failed = _RemoteError(e)
    while True:
        try:
            cmd, data = remote.recv()
        except (EOFError, KeyboardInterrupt):
            break
        if failed is not None:
            if cmd == "close":
                remote.close()
                break
            remote.send(failed)
            continue
        try:
            if cmd == "step":
                venv.step_async(data)
                out: Any = (*venv.step_wait(), venv._masks, venv.reset_infos)
            elif cmd == "reset":
                venv._seeds = data
                out = (venv.reset(), venv._masks, venv.reset_infos)
            elif cmd == "env_method":
                name, args, kwargs, idx = data
                out = venv.env_method(name, *args, indices=idx, **kwargs)
            elif cmd == "get_attr":
                out = venv.get_attr(*data)
            elif cmd == "has_attr":
                out = venv.has_attr(data)
            elif cmd == "set_attr":
                out = venv.set_attr(*data)
            elif cmd == "env_is_wrapped":
                out = venv.env_is_wrapped(*data)
            elif cmd == "spaces":
                out = (venv.observation_space, venv.action_space, venv.metadata)
            elif cmd == "close":
                venv.close()
                remote.close()
                break
            else:
                raise NotImplementedError(f"unknown command {cmd!r}")
        except Exception as e:  # noqa: BLE001 - sent back and re-raised in the parent
            out = _RemoteError(e)
        remote.send(out)


class ShardedSubprocVecEnv(VecEnv):
    """The games split into ``n_procs`` contiguous shards, each run by a
    :class:`SingleAgentVecEnv` in its own worker process (an SB3 ``VecEnv``).

    Args:
        env_fns: callables each returning a new :class:`SingleAgentEnv` (picklable, or
            cloudpickle-able: they are sent to the workers).
        n_procs: worker processes (default: one per CPU core, at most ``len(env_fns)``);
            shard ``k`` holds games ``k*n//n_procs .. (k+1)*n//n_procs - 1``.
        start_method: ``multiprocessing`` start method (default ``"forkserver"`` where
            available, else ``"spawn"``, as SB3's ``SubprocVecEnv``; ``"fork"`` starts
            fastest but is unsafe once torch has started threads).
        worker_init: ``None`` (default) or a callable of no arguments (cloudpickle-able) that
            each worker calls once, before it builds its games (e.g. ``training.one_thread``).

    Arrays as :class:`SingleAgentVecEnv`. An exception in a worker is raised here as
    ``RuntimeError`` with the worker's traceback (the worker's exception as its cause when
    that pickles); one in ``worker_init`` or in building a worker's games is raised so by the
    constructor, after it has stopped every worker. A worker that dies without an exception
    (``os._exit``) shows as a pipe error (``ConnectionResetError``, ``EOFError``).
    """

    def __init__(self, env_fns: Sequence[Callable[[], SingleAgentEnv]], n_procs: int | None = None,
                 start_method: str | None = None, worker_init: Callable[[], Any] | None = None):
        n = len(env_fns)
        _check_worker_init(worker_init)
        if n < 1:
            raise ValueError("ShardedSubprocVecEnv needs at least one env")
        n_procs = min(n, n_procs or os.cpu_count() or 1)
        if n_procs < 1:
            raise ValueError(f"n_procs must be >= 1, got {n_procs}")
        if start_method is None:
            start_method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
        ctx = mp.get_context(start_method)
        bounds = [k * n // n_procs for k in range(n_procs + 1)]
        self._shards = [range(bounds[k], bounds[k + 1]) for k in range(n_procs)]
        self._where = [(k, j) for k, shard in enumerate(self._shards) for j in range(len(shard))]
        self.remotes, self.processes = [], []
        self.closed = False
        for shard in self._shards:
            remote, work_remote = ctx.Pipe()
            fns = CloudpickleWrapper([env_fns[i] for i in shard])
            init = CloudpickleWrapper(worker_init)
            proc = ctx.Process(target=_shard_worker, args=(work_remote, remote, fns, init), daemon=True)
            proc.start()
            work_remote.close()
            self.remotes.append(remote)
            self.processes.append(proc)
        try:  # a worker that could not start (worker_init or a game constructor failed) says why
            obs_space, act_space, metadata = self._recv_all_starts()
        except BaseException:
            self.close()
            raise
        super().__init__(n, obs_space, act_space)
        self.metadata = metadata
        self._masks = np.zeros((n, act_space.n), dtype=bool)
        self._masks_stale = True

    def _recv_all_starts(self) -> tuple[Any, Any, Any]:
        """The spaces, from every worker (each answers, or raises its start-up error here)."""
        for remote in self.remotes:
            remote.send(("spaces", None))
        return self._recv_all(range(len(self.remotes)))[0]

    @property
    def n_procs(self) -> int:
        return len(self._shards)

    def _recv(self, k: int) -> Any:
        out = self.remotes[k].recv()
        if isinstance(out, _RemoteError):
            raise RuntimeError(f"error in vec-env worker {k}:\n{out.text}") from out.exc
        return out

    def _recv_all(self, ks) -> dict[int, Any]:
        """Every listed shard's reply, read before raising on the first error (so that no
        reply is left in a pipe to be mistaken for the answer to a later command)."""
        outs = {k: self.remotes[k].recv() for k in ks}
        for k, out in outs.items():
            if isinstance(out, _RemoteError):
                raise RuntimeError(f"error in vec-env worker {k}:\n{out.text}") from out.exc
        return outs

    def _call(self, k: int, cmd: str, data: Any) -> Any:
        self.remotes[k].send((cmd, data))
        return self._recv(k)

    def _by_shard(self, indices: VecEnvIndices) -> dict[int, list[int]]:
        """``{shard: [local index, ...]}`` for global ``indices`` (in the order given)."""
        out: dict[int, list[int]] = {}
        for i in self._get_indices(indices):
            k, j = self._where[i]
            out.setdefault(k, []).append(j)
        return out

    def _gather(self, cmd: str, make_data: Callable[[list[int]], Any], indices: VecEnvIndices) -> list[Any]:
        """Send ``cmd`` to each shard involved, results back in the order of ``indices``."""
        idx = list(self._get_indices(indices))
        groups = self._by_shard(idx)
        for k, local in groups.items():
            self.remotes[k].send((cmd, make_data(local)))
        results = {k: iter(out) for k, out in self._recv_all(groups).items()}
        return [next(results[self._where[i][0]]) for i in idx]

    # ---- VecEnv API ----------------------------------------------------------------
    def reset(self) -> np.ndarray:
        for k, shard in enumerate(self._shards):
            self.remotes[k].send(("reset", [self._seeds[i] for i in shard]))
        obs = []
        replies = self._recv_all(range(len(self._shards)))
        for k, shard in enumerate(self._shards):
            o, masks, infos = replies[k]
            obs.append(o)
            self._masks[shard.start:shard.stop] = masks
            self.reset_infos[shard.start:shard.stop] = infos
        self._reset_seeds()
        self._reset_options()
        self._masks_stale = False
        return np.concatenate(obs)

    def step_async(self, actions: np.ndarray) -> None:
        actions = _check_actions(actions, self.num_envs)
        for k, shard in enumerate(self._shards):
            self.remotes[k].send(("step", actions[shard.start:shard.stop]))

    def step_wait(self):
        obs, rews, dones, infos = [], [], [], []
        replies = self._recv_all(range(len(self._shards)))
        for k, shard in enumerate(self._shards):
            o, r, d, inf, masks, reset_infos = replies[k]
            obs.append(o)
            rews.append(r)
            dones.append(d)
            infos.extend(inf)
            self._masks[shard.start:shard.stop] = masks
            self.reset_infos[shard.start:shard.stop] = reset_infos
        self._masks_stale = False
        return np.concatenate(obs), np.concatenate(rews), np.concatenate(dones), infos

    def action_masks(self) -> np.ndarray:
        """bool ``(n_envs, num_actions)``, as :meth:`SingleAgentVecEnv.action_masks` (no round trip after a step)."""
        if self._masks_stale:
            self._masks[:] = np.stack(self._gather("env_method", lambda loc: ("action_masks", (), {}, loc), None))
            self._masks_stale = False
        return self._masks.copy()

    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs) -> list[Any]:
        idx = list(self._get_indices(indices))
        if method_name == "action_masks" and not method_args and not method_kwargs:
            return list(self.action_masks()[idx])
        out = self._gather("env_method", lambda loc: (method_name, method_args, method_kwargs, loc), idx)
        self._masks_stale = True
        return out

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._gather("get_attr", lambda loc: (attr_name, loc), indices)

    def has_attr(self, attr_name: str) -> bool:
        """Whether every sub-env has ``attr_name`` (asked in the workers: nothing is pickled back)."""
        return all(self._call(k, "has_attr", attr_name) for k in range(self.n_procs))

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        for k, local in self._by_shard(indices).items():
            self._call(k, "set_attr", (attr_name, value, local))
        self._masks_stale = True

    def env_is_wrapped(self, wrapper_class, indices: VecEnvIndices = None) -> list[bool]:
        return self._gather("env_is_wrapped", lambda loc: (wrapper_class, loc), indices)

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    def close(self) -> None:
        if self.closed:
            return
        for remote in self.remotes:
            try:
                remote.send(("close", None))
            except (BrokenPipeError, OSError):
                pass
        for proc in self.processes:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
        self.closed = True


def _check_worker_init(worker_init: Any) -> None:
    if worker_init is not None and not callable(worker_init):
        raise ValueError(f"worker_init must be None or a callable of no arguments, got {worker_init!r}")


class _InitThenBuild:
    """A picklable env constructor that first calls ``init()`` (for SB3's ``SubprocVecEnv``, which
    has no worker initializer; ``init`` runs once per game built, and must be idempotent)."""

    def __init__(self, init: Callable[[], Any], fn: Callable[[], SingleAgentEnv]) -> None:
        self.init, self.fn = init, fn

    def __call__(self) -> SingleAgentEnv:
        self.init()
        return self.fn()


def make_vec_env(game: str = "aethermon_collect", config: dict | None = None, n_envs: int = 1,
                 vec: str = "inprocess", n_procs: int | None = None, start_method: str | None = None,
                 monitor: bool = True, worker_init: Callable[[], Any] | None = None, **env_kwargs: Any) -> VecEnv:
    """``n_envs`` :class:`SingleAgentEnv` games of ``game`` batched as ``vec`` (module docstring).

    Args:
        env_kwargs: :class:`SingleAgentEnv` options (``opponents``, ``score_shaping``, ...).
        n_procs: worker processes for ``"sharded"`` (default one per CPU core, at most ``n_envs``).
        start_method: for ``"subproc"`` / ``"sharded"`` (default forkserver).
        monitor: wrap the batch in SB3's ``VecMonitor`` (default): ``infos[i]["episode"] =
            {"r", "l", "t"}`` on the step game ``i`` ends. ``False``: the bare batch
            (:class:`SingleAgentVecEnv`, :class:`MaskedDummyVecEnv`, :class:`MaskedSubprocVecEnv`
            or :class:`ShardedSubprocVecEnv`).
        worker_init: ``None`` (default) or a callable of no arguments (cloudpickle-able: a
            lambda or closure will do), called once in every process that runs the games before
            they are built: each worker for ``"subproc"`` (once per game there) and
            ``"sharded"``, this process for ``"inprocess"``/``"dummy"``. E.g. ``training.one_thread`` (one BLAS and torch thread a
            worker; module docstring, "Worker set-up").

    Returns:
        an SB3 ``VecEnv`` with ``action_masks()`` (bool ``(n_envs, num_actions)``) for every ``vec``.

    Raises:
        ValueError: unknown ``vec``, ``n_envs < 1`` or a ``worker_init`` that is not callable;
            what :class:`SingleAgentEnv` raises for bad options, in this process for
            ``"inprocess"``/``"dummy"`` (as does a failing ``worker_init`` there).
        RuntimeError: for ``"sharded"``, a worker's error (bad options, a failing
            ``worker_init``), with the worker's traceback.
        OSError, EOFError: for ``"subproc"``, SB3's ``SubprocVecEnv`` reports a worker that
            failed to start as a broken pipe (the traceback goes to the worker's stderr).
    """
    if vec not in VEC_KINDS:
        raise ValueError(f"vec must be one of {VEC_KINDS}, got {vec!r}")
    if n_envs < 1:
        raise ValueError(f"n_envs must be >= 1, got {n_envs}")
    _check_worker_init(worker_init)
    fns = [make_single_agent_env(game, config, **env_kwargs)] * n_envs
    if worker_init is not None and vec in ("dummy", "inprocess"):
        worker_init()
    if vec == "dummy":
        venv: VecEnv = MaskedDummyVecEnv(fns)
    elif vec == "inprocess":
        venv = SingleAgentVecEnv(fns)
    elif vec == "subproc":
        if worker_init is not None:
            fns = [_InitThenBuild(worker_init, fn) for fn in fns]
        venv = MaskedSubprocVecEnv(fns, start_method=start_method)
    else:
        venv = ShardedSubprocVecEnv(fns, n_procs=n_procs, start_method=start_method, worker_init=worker_init)
    return VecMonitor(venv) if monitor else venv


__all__ = ["SingleAgentVecEnv", "ShardedSubprocVecEnv", "MaskedDummyVecEnv", "MaskedSubprocVecEnv",
           "make_vec_env", "VEC_KINDS"]
