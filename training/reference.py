"""The reference algorithms trained under the benchmark protocol (:mod:`training.protocol`), and
their result rows.

    python -m training.reference dqn aethermon_collect                      # short budget, seeds 0 1 2, then rate
    python -m training.reference ppo ethnos --config 2p --budget long --workers 2
    python -m training.reference maskable_ppo etherium --seeds 0 --frames 20000 --no-rate

Each run trains from scratch for the budget's learner frames (:data:`training.protocol.BUDGETS`)
against :data:`training.protocol.TRAINING_OPPONENTS` (no self-play, no evaluation during the
run: the whole budget goes to training), with envs in this process and torch on one thread:

* ``ppo``: :mod:`training.ppo` (masked PPO, CleanRL-style) with its defaults, from random
  weights (no behaviour cloning, no kickstarting), except ``n_steps=125``: 16 games x 125
  decisions = 2,000 frames a rollout, which divides both budgets (the recipes' 128 would
  overshoot the short budget by 1,200 frames). Played as ``pretrained:path=<run>/policy.npz``.
* ``maskable_ppo``: sb3-contrib ``MaskablePPO`` through :mod:`training.train` with the library's
  defaults (``MlpPolicy`` 64-64 for the policy and value nets, learning rate 3e-4, minibatch 64,
  10 epochs, gamma 0.99, GAE 0.95, clip 0.2, no entropy bonus), the outcome reward only, except
  the rollout: 4 games x 2,500 steps = 10,000 frames (the library's 2,048 steps do not divide the
  budgets; SB3 stops only after a whole rollout). Played as ``ppo:<run>/model.zip``.
* ``dqn``: :mod:`training.dqn` (masked double DQN) with its defaults. Played as
  ``pretrained:path=<run>/policy.npz``.

A run folder ends with ``done.json`` (algo, benchmark, seed, frames trained, wall-clock
minutes, the agent spec); a run whose folder holds it is not trained again, so the batch
command resumes run by run. A folder with the start marker ``reference.json`` but no
``done.json`` (an interrupted run) is cleared and trained again from scratch.

The env draws every game's seed below ``2**63`` (:class:`ether_envs.wrappers.SingleAgentEnv`),
so training never plays a held-out evaluation deal; the training seeds here are ints in
``[0, 2**32)``. After training, the runs are rated together on the held-out deals
(:func:`training.rate.rate`): ``<out>/<algo>_<game>-v<N>_<label>.json`` and ``.md`` (with
``_long`` or ``_<frames>frames`` added off the short budget).
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path
from typing import Any

from agents.base import quote_spec_value

from . import protocol
from . import usage_error

ALGOS = ("ppo", "maskable_ppo", "dqn")
DONE_FILE = "done.json"
MARKER_FILE = "reference.json"
MAX_SEED = 2**32

PPO_DEFAULTS: dict[str, Any] = {"n_envs": 16, "n_steps": 125, "n_procs": 0, "eval_every": 0, "eval_deals": 0,
                                "snapshot_every": 0, "checkpoint_every": 0, "torch_threads": 1}
""":class:`training.ppo.PPOConfig` fields of the reference PPO (the rest: its defaults)."""
MASKABLE_PPO_DEFAULTS: dict[str, Any] = {
    "n_envs": 4, "vec_env": "inprocess", "n_steps": 2500, "learning_rate": 3e-4, "batch_size": 64, "n_epochs": 10,
    "gamma": 0.99, "gae_lambda": 0.95, "clip_range": 0.2, "ent_coef": 0.0, "net_arch": "64,64", "skip": False,
    "score_shaping": 0.0, "snapshot_every": 0, "eval_every": 0, "eval_deals": 0, "checkpoint_every": 0,
    "torch_threads": 1}
""":class:`training.train.TrainArgs` fields of the reference MaskablePPO: sb3-contrib's defaults
(``MaskablePPO("MlpPolicy", env)``), except the rollout length (module docstring)."""
DQN_DEFAULTS: dict[str, Any] = {"torch_threads": 1}
""":class:`training.dqn.DQNConfig` fields of the reference DQN (the rest: its defaults)."""


def run_name(algo: str, benchmark: protocol.BenchmarkConfig, seed: int, frames: int) -> str:
    """The run folder's name: ``<algo>_<game>-v<N>_<label>_<frames>_seed<seed>``."""
    return f"{algo}_{benchmark.game}-v{benchmark.version}_{benchmark.label}_{frames}_seed{seed}"


def _spec(algo: str, run_dir: Path) -> str:
    if algo == "maskable_ppo":
        return f"ppo:{quote_spec_value(str(run_dir / 'model.zip'))}"
    return f"pretrained:path={quote_spec_value(str(run_dir / 'policy.npz'))}"


def _check(algo: str, seed: int, frames: int) -> None:
    if algo not in ALGOS:
        raise ValueError(f"unknown algorithm {algo!r}; known: {', '.join(ALGOS)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise ValueError(f"seed must be an int in [0, 2**32), got {seed!r}")
    if isinstance(frames, bool) or not isinstance(frames, int) or frames < 1:
        raise ValueError(f"frames must be an int >= 1, got {frames!r}")


def train_run(algo: str, benchmark: protocol.BenchmarkConfig, seed: int, frames: int, run_dir: str | Path,
              progress: bool = False, options: dict[str, Any] | None = None) -> str:
    """Train one run of ``algo`` on ``benchmark`` for ``frames`` learner frames; returns the agent
    spec that plays it (``agents.make_agent``).

    A ``run_dir`` holding ``done.json`` of the same run is not trained again (its spec is returned).

    Args:
        options: overrides of the algorithm's config fields (:data:`PPO_DEFAULTS` and
            :class:`training.ppo.PPOConfig`, :data:`MASKABLE_PPO_DEFAULTS` and
            :class:`training.train.TrainArgs`, :data:`DQN_DEFAULTS` and
            :class:`training.dqn.DQNConfig`), e.g. a small net for a test; recorded in ``done.json``.

    Raises:
        ValueError: an unknown algorithm, a bad seed or frame count, a bad option, or a run folder
            holding another run (another algorithm, benchmark, seed, budget or options).
    """
    _check(algo, seed, frames)
    run_dir = Path(run_dir)
    options = dict(options or {})
    record = {"algo": algo, "benchmark": benchmark.benchmark_id, "seed": seed, "budget_frames": frames,
              "options": options}
    done_path, marker = run_dir / DONE_FILE, run_dir / MARKER_FILE
    for path in (done_path, marker):
        if path.exists():
            stored = json.loads(path.read_text())
            theirs = {k: stored.get(k) for k in record}
            if theirs != json.loads(json.dumps(record)):
                raise ValueError(f"{run_dir} holds another run ({path.name}: {theirs}); give another run folder")
    if done_path.exists():
        return _spec(algo, run_dir)
    if marker.exists():  # an interrupted run of ours: start it again from scratch
        shutil.rmtree(run_dir)
    elif run_dir.exists() and any(run_dir.iterdir()):
        raise ValueError(f"{run_dir} is not empty and holds no reference run; give another run folder")
    run_dir.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps(record, indent=1))

    started = time.perf_counter()
    if algo == "ppo":
        trained = _train_ppo(benchmark, seed, frames, run_dir, progress, options)
    elif algo == "maskable_ppo":
        trained = _train_maskable_ppo(benchmark, seed, frames, run_dir, progress, options)
    else:
        trained = _train_dqn(benchmark, seed, frames, run_dir, progress, options)
    minutes = (time.perf_counter() - started) / 60.0
    spec = _spec(algo, run_dir)
    done = {**record, "game": benchmark.game, "config": benchmark.config, "frames": trained,
            "minutes": round(minutes, 3), "spec": spec, "opponents": protocol.TRAINING_OPPONENTS,
            "protocol": protocol.PROTOCOL_VERSION}
    tmp = done_path.with_suffix(".tmp")
    tmp.write_text(json.dumps(done, indent=1))
    tmp.replace(done_path)
    return spec


def _train_ppo(benchmark, seed: int, frames: int, run_dir: Path, progress: bool, options: dict) -> int:
    from agents.pretrained import MLPPolicy

    from .ppo import PPOConfig, train

    cfg = PPOConfig(**{**PPO_DEFAULTS, "opponents": protocol.TRAINING_OPPONENTS, **options, "game": benchmark.game,
                       "config": dict(benchmark.config), "seed": seed, "total_frames": frames,
                       "run_dir": str(run_dir), "progress": progress})
    path = train(cfg)
    return int(MLPPolicy.load(path).metadata["training"]["frames"])


def _train_maskable_ppo(benchmark, seed: int, frames: int, run_dir: Path, progress: bool, options: dict) -> int:
    from agents.ppo import read_metadata

    from .train import TrainArgs, train

    args = TrainArgs(**{**MASKABLE_PPO_DEFAULTS, "opponents": protocol.TRAINING_OPPONENTS, **options,
                        "game": benchmark.game, "config": dict(benchmark.config), "seed": seed,
                        "total_timesteps": frames, "out_dir": str(run_dir.parent), "run_name": run_dir.name,
                        "resume": "", "progress": progress})
    path = train(args)
    return int(read_metadata(path)["timesteps"])


def _train_dqn(benchmark, seed: int, frames: int, run_dir: Path, progress: bool, options: dict) -> int:
    from agents.pretrained import MLPPolicy

    from .dqn import DQNConfig, train

    cfg = DQNConfig(**{**DQN_DEFAULTS, "opponents": protocol.TRAINING_OPPONENTS, **options, "game": benchmark.game,
                       "config": dict(benchmark.config), "seed": seed, "total_frames": frames,
                       "run_dir": str(run_dir), "progress": progress})
    path = train(cfg)
    return int(MLPPolicy.load(path).metadata["training"]["frames"])


def run_dirs(algo: str, benchmark: protocol.BenchmarkConfig, seeds, frames: int, runs_dir: str | Path) -> list[Path]:
    """The run folder of each seed under ``runs_dir``."""
    return [Path(runs_dir) / run_name(algo, benchmark, s, frames) for s in seeds]


def out_path(out_dir: str | Path, algo: str, benchmark: protocol.BenchmarkConfig, budget: str | None,
             frames: int) -> Path:
    """``<out_dir>/<algo>_<game>-v<N>_<label>`` for the short budget; ``_long`` or
    ``_<frames>frames`` added otherwise (so no other budget overwrites a short row)."""
    base = f"{algo}_{benchmark.game}-v{benchmark.version}_{benchmark.label}"
    if budget != "short":
        base += f"_{budget}" if budget else f"_{frames}frames"
    return Path(out_dir) / base


# ---- command line -------------------------------------------------------------------------
def build_parser(p: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = p or argparse.ArgumentParser(prog="python -m training.reference", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("algo", choices=ALGOS, help="the reference algorithm")
    p.add_argument("game", choices=list(protocol.DEFAULT_CONFIG), help="the benchmark game")
    p.add_argument("--config", default=None, metavar="LABEL",
                   help="benchmark configuration label, e.g. 2p (default: the game's default configuration)")
    p.add_argument("--budget", choices=list(protocol.BUDGETS), default="short",
                   help="the protocol's frame budget (default short: "
                        f"{protocol.BUDGETS['short']:,} learner frames per run)")
    p.add_argument("--frames", type=int, default=None,
                   help="learner frames per run instead of the budget's (the row then names the frames)")
    p.add_argument("--seeds", type=int, nargs="+", default=list(protocol.TRAINING_SEEDS),
                   help=f"training seeds, trained in order (default {' '.join(map(str, protocol.TRAINING_SEEDS))})")
    p.add_argument("--runs-dir", default="runs/reference", help="parent folder of the run folders")
    p.add_argument("--out", default="notebooks/reference_results/benchmark",
                   help="folder of the result row (<algo>_<game>-v<N>_<label>.json and .md)")
    p.add_argument("--workers", type=int, default=1, help="processes for the rating's games")
    p.add_argument("--rate", action=argparse.BooleanOptionalAction, default=True,
                   help="rate the runs on the held-out deals after training (default on)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True, help="progress bars")
    return p


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Train every seed (resumable), then rate the runs together (:func:`run_from_args`)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return run_from_args(args)
    except ValueError as e:
        usage_error(parser, e)


def run_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """Train every seed of the command line (resumable), then rate the runs together. Returns
    ``{"specs": [...], "runs": [done.json records], "row": the rating's row or None}``.

    Raises:
        ValueError: a bad option (unknown configuration, seed, frames or workers).
    """
    from . import one_thread

    one_thread()
    benchmark = protocol.benchmark_config(args.game, args.config)
    frames = args.frames if args.frames is not None else protocol.BUDGETS[args.budget]
    budget = args.budget if frames == protocol.BUDGETS[args.budget] else None
    for seed in args.seeds:
        _check(args.algo, seed, frames)
    if args.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {args.workers}")
    label = f"{args.algo} ({budget})" if budget else f"{args.algo} ({frames:,} frames)"
    specs, runs = [], []
    for seed, run_dir in zip(args.seeds, run_dirs(args.algo, benchmark, args.seeds, frames, args.runs_dir)):
        print(f"{label} on {benchmark.benchmark_id}, seed {seed}: {run_dir}", flush=True)
        specs.append(train_run(args.algo, benchmark, seed, frames, run_dir, progress=args.progress))
        runs.append(json.loads((run_dir / DONE_FILE).read_text()))
        print(f"  {runs[-1]['frames']:,} frames in {runs[-1]['minutes']:.2f} min: {specs[-1]}", flush=True)
    row = None
    if args.rate:
        from .rate import rate

        trained = sorted({r["frames"] for r in runs})
        if len(trained) > 1:
            print(f"note: the runs trained different frame counts {trained}; the row records {trained[-1]:,}")
        out = out_path(args.out, args.algo, benchmark, budget, frames)
        row = rate(benchmark, specs, label=label, budget=budget, frames=trained[-1], workers=args.workers,
                   progress=args.progress, out=out, training=runs)
        print(f"row written to {out}.json and {out}.md")
    return {"specs": specs, "runs": runs, "row": row}


if __name__ == "__main__":
    main()
