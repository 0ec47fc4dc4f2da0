"""Training throughput of MaskablePPO with each way of batching the envs (``ether_envs.vector``).

    ether-envs speed-train                                  # the table of docs/speed.md (default game)
    python -m training.throughput --timesteps 8192 --configs inprocess:8 sharded:8:2

Each config ``VEC:N_ENVS[:N_PROCS]`` (``VEC`` one of dummy, inprocess, subproc,
sharded) is measured twice:

* *env steps/s*: the vectorised env alone, stepped with uniformly random legal
  actions read through ``get_action_masks`` (the path MaskablePPO uses), no policy;
* *train frames/s*: ``MaskablePPO.learn`` for ``--timesteps`` learner steps with the
  trainer's default hyper-parameters and network (``training.train.TrainArgs``)
  against its default opponent pool before any snapshot exists (random and
  heuristic), torch on ``--torch-threads`` threads; *rollout share* is the part of
  that time spent collecting rollouts (policy forward passes + env steps) rather
  than in the gradient updates;
* *recipe PPO frames/s* (``inprocess`` and ``sharded`` configs only): the reference agents'
  trainer, :mod:`training.ppo`, with its default hyper-parameters (rollouts of
  ``n_envs x 128``, minibatch 512, 4 epochs, a 256-256 net) for ``--timesteps`` frames
  against the same pool, in the same vec env (``sharded:16:2`` is the recipes' setting).

Frames are learner decisions (opponents' moves are played inside the env and
not counted). With ``--repeats R`` every config is measured R times in
interleaved rounds and the median is reported (each column separately), which
evens out a changing machine load. The load average is printed: the numbers
are only comparable within one run, and only absolute on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

import ether_envs

from .evaluate import parse_config

DEFAULT_CONFIGS = ("dummy:1", "dummy:8", "inprocess:8", "subproc:2", "sharded:8:2", "sharded:16:2")


@dataclass
class ThroughputRow:
    vec: str
    n_envs: int
    n_procs: int
    env_steps_per_second: float = 0.0
    train_frames_per_second: float = 0.0
    rollout_share: float = 0.0
    train_seconds: float = 0.0
    ppo_frames_per_second: float = float("nan")


def parse_vec_config(text: str) -> tuple[str, int, int | None]:
    """``"sharded:8:2"`` -> ``("sharded", 8, 2)``; ``"inprocess:8"`` -> ``("inprocess", 8, None)``.

    Raises:
        ValueError: malformed text or an unknown kind.
    """
    from ether_envs.vector import VEC_KINDS

    parts = text.split(":")
    try:
        vec, n_envs = parts[0], int(parts[1])
        n_procs = int(parts[2]) if len(parts) > 2 else None
    except (IndexError, ValueError):
        raise ValueError(f"vec config must be VEC:N_ENVS[:N_PROCS], got {text!r}") from None
    if vec not in VEC_KINDS or len(parts) > 3 or n_envs < 1:
        raise ValueError(f"vec config must be VEC:N_ENVS[:N_PROCS] with VEC in {VEC_KINDS}, got {text!r}")
    return vec, n_envs, n_procs


def _processes(venv, vec: str, n_envs: int) -> int:
    if vec == "subproc":
        return n_envs
    if vec == "sharded":
        return venv.n_procs
    return 0


def measure(game: str, config: dict, vec: str, n_envs: int, n_procs: int | None, timesteps: int,
            env_seconds: float, seed: int = 0) -> ThroughputRow:
    """One row of the table (see the module docstring)."""
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.callbacks import BaseCallback

    from ether_envs.vector import make_vec_env

    from .selfplay import OpponentPool, parse_weights
    from .train import TrainArgs, new_model

    targs = TrainArgs()
    pool = OpponentPool(game, config, parse_weights(targs.opponents))

    def make():
        venv = make_vec_env(game, config, n_envs, vec, n_procs=n_procs, opponents=pool,
                            score_shaping=targs.score_shaping)
        venv.seed(seed)
        return venv

    venv = make()
    row = ThroughputRow(vec, n_envs, _processes(venv, vec, n_envs))
    rng = np.random.default_rng(seed)
    try:
        venv.reset()
        steps, t0 = 0, time.perf_counter()
        while steps == 0 or time.perf_counter() - t0 < env_seconds:
            masks = get_action_masks(venv)
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            venv.step(actions)
            steps += n_envs
        row.env_steps_per_second = steps / (time.perf_counter() - t0)
    finally:
        venv.close()

    class RolloutTimer(BaseCallback):
        def __init__(self):
            super().__init__()
            self.seconds, self._t = 0.0, 0.0

        def _on_rollout_start(self) -> None:
            self._t = time.perf_counter()

        def _on_rollout_end(self) -> None:
            self.seconds += time.perf_counter() - self._t

        def _on_step(self) -> bool:
            return True

    venv = make()
    try:
        model = new_model(targs, venv, seed=seed)
        timer = RolloutTimer()
        t0 = time.perf_counter()
        model.learn(total_timesteps=timesteps, callback=timer)
        row.train_seconds = time.perf_counter() - t0
        row.train_frames_per_second = model.num_timesteps / row.train_seconds
        row.rollout_share = timer.seconds / row.train_seconds
    finally:
        venv.close()
    if vec in ("inprocess", "sharded"):
        row.ppo_frames_per_second = measure_recipe_ppo(game, config, n_envs, (n_procs or 2) if vec == "sharded" else 0,
                                                       timesteps, targs.opponents, seed)
    return row


def measure_recipe_ppo(game: str, config: dict, n_envs: int, n_procs: int, timesteps: int, opponents: str,
                       seed: int = 0) -> float:
    """Frames/s of :func:`training.ppo.train` (no evaluation, snapshots or checkpoints in between)."""
    import csv
    import tempfile

    from .ppo import PPOConfig, train

    with tempfile.TemporaryDirectory() as tmp:
        cfg = PPOConfig(game=game, config=dict(config), seed=seed, total_frames=timesteps, n_envs=n_envs,
                        n_procs=n_procs, opponents=opponents, eval_every=0, snapshot_every=0, checkpoint_every=0,
                        run_dir=tmp, progress=False)
        train(cfg)
        with open(Path(tmp) / "progress.csv") as f:
            last = list(csv.DictReader(f))[-1]
    return float(last["frames_per_second"])


def table(rows: list[ThroughputRow]) -> str:
    out = ["| vec env | n_envs | worker processes | env steps/s (no learning) | MaskablePPO train frames/s "
           "| rollout share of training time | recipe PPO (training.ppo) frames/s |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        ppo = "-" if np.isnan(r.ppo_frames_per_second) else f"{r.ppo_frames_per_second:,.0f}"
        out.append(f"| {r.vec} | {r.n_envs} | {r.n_procs or '-'} | {r.env_steps_per_second:,.0f} "
                   f"| {r.train_frames_per_second:,.0f} | {r.rollout_share:.0%} | {ppo} |")
    return "\n".join(out)


def run(game: str = "aethermon_collect", config: dict | None = None, configs=DEFAULT_CONFIGS,
        timesteps: int = 8192, env_seconds: float = 3.0, torch_threads: int = 1, seed: int = 0,
        out: str | Path | None = None, quiet: bool = False, repeats: int = 1) -> list[ThroughputRow]:
    """Measure every config ``repeats`` times in rounds; print and return the rows of medians
    (and write ``out`` as JSON when given)."""
    import torch

    config = dict(config if config is not None else {"num_players": 2})
    ether_envs.load_game(game, **config)  # fail early on a bad game/config
    parsed = [parse_vec_config(c) for c in configs]
    torch.set_num_threads(torch_threads)
    load0 = os.getloadavg()
    runs: list[list[ThroughputRow]] = [[] for _ in parsed]
    for r in range(repeats):
        for k, (vec, n_envs, n_procs) in enumerate(parsed):
            row = measure(game, config, vec, n_envs, n_procs, timesteps, env_seconds, seed)
            runs[k].append(row)
            if not quiet:
                print(f"[{r + 1}/{repeats}] {vec}:{n_envs}{':' + str(n_procs) if n_procs else ''}: env "
                      f"{row.env_steps_per_second:,.0f} steps/s, train {row.train_frames_per_second:,.0f} frames/s, "
                      f"recipe PPO {row.ppo_frames_per_second:,.0f} frames/s "
                      f"(load {os.getloadavg()[0]:.1f})", flush=True)
    rows = [_median(rs) for rs in runs]
    load1 = os.getloadavg()
    print(f"\n{game} {config}: MaskablePPO, {timesteps:,} timesteps per config, median of {repeats}, torch threads "
          f"{torch_threads}, {os.cpu_count()} CPUs; 1-minute load average {load0[0]:.2f} before, {load1[0]:.2f} after\n")
    print(table(rows))
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps({"game": game, "config": config, "timesteps": timesteps, "repeats": repeats,
                                         "torch_threads": torch_threads, "cpus": os.cpu_count(),
                                         "load_before": load0, "load_after": load1,
                                         "rows": [asdict(r) for r in rows],
                                         "runs": [[asdict(r) for r in rs] for rs in runs]}, indent=1))
    return rows


def _median(rows: list[ThroughputRow]) -> ThroughputRow:
    """Column-wise median of repeated measurements of one config."""
    out = ThroughputRow(rows[0].vec, rows[0].n_envs, rows[0].n_procs)
    for f in ("env_steps_per_second", "train_frames_per_second", "rollout_share", "train_seconds",
              "ppo_frames_per_second"):
        setattr(out, f, float(np.median([getattr(r, f) for r in rows])))
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", default="aethermon_collect", choices=ether_envs.list_games(),
                   help="registered game (default aethermon_collect)")
    p.add_argument("--config", nargs="*", default=["num_players=2"], metavar="KEY=VALUE",
                   help="game config (default num_players=2)")
    p.add_argument("--configs", nargs="+", default=list(DEFAULT_CONFIGS), metavar="VEC:N_ENVS[:N_PROCS]",
                   help=f"vec env configs to measure (default {' '.join(DEFAULT_CONFIGS)})")
    p.add_argument("--timesteps", type=int, default=8192, help="MaskablePPO timesteps per config (default 8192)")
    p.add_argument("--env-seconds", type=float, default=3.0, help="seconds of env stepping per config (default 3)")
    p.add_argument("--torch-threads", type=int, default=1, help="torch CPU threads (default 1, as the trainer)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--repeats", type=int, default=1, help="rounds over the configs; medians reported (default 1)")
    p.add_argument("--out", default=None, help="also write the rows as JSON to this file")


def run_from_args(args: argparse.Namespace) -> list[ThroughputRow]:
    if args.timesteps < 1 or args.env_seconds <= 0 or args.repeats < 1:
        raise ValueError("--timesteps and --repeats must be >= 1 and --env-seconds > 0")
    return run(args.game, parse_config(args.config), args.configs, args.timesteps, args.env_seconds,
               args.torch_threads, args.seed, args.out, repeats=args.repeats)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m training.throughput", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    run_from_args(p.parse_args(argv))


if __name__ == "__main__":
    main()
