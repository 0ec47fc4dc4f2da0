"""MaskablePPO self-play trainer for any ether-envs game.

    ether-envs train aethermon_collect --total-timesteps 200000 --seed 0
    python -m training.train aethermon_collect --config num_players=3 --n-envs 8 --vec-env sharded --n-procs 2

One learner plays one seat of :class:`ether_envs.wrappers.SingleAgentEnv`
(a random seat each episode); the other seats are drawn each episode from an
opponent pool (``--opponents``): ``random``, ``heuristic`` and ``self`` =
frozen past snapshots of the learner, saved every ``--snapshot-every`` steps
(the newest ``--max-snapshots`` are kept in the pool). Every
``--eval-every`` steps the learner (greedy) plays a short paired tournament
against ``--eval-opponents``.

A run folder ``<out-dir>/<run-name>/`` holds:

* ``model.zip`` — the final model (with ``ether_envs.json`` metadata: game,
  config, observation layout; :class:`agents.ppo.PPOAgent` refuses a mismatched env),
* ``checkpoints/step_<N>.zip`` and ``snapshots/step_<N>.zip``,
* ``progress.csv`` and TensorBoard event files (SB3 logger: ``rollout/``,
  ``train/``, ``eval/win_rate_vs_<opponent>``), ``eval.csv``, ``args.json``.

``--resume PATH`` continues from a checkpoint (same game and config) up to
``--total-timesteps`` in total, keeping the snapshots of its run folder.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

import ether_envs
from agents.base import split_specs

from .evaluate import parse_config


def _arg(default: Any, help: str, **kw: Any) -> Any:
    if isinstance(default, (dict, list)):
        return field(default_factory=lambda: type(default)(default), metadata={"help": help, **kw})
    return field(default=default, metadata={"help": help, **kw})


@dataclass
class TrainArgs:
    """Every trainer option; the command line is generated from these fields (``--help``)."""

    game: str = _arg("aethermon_collect", "registered game name")
    config: dict = _arg({}, "game config as KEY=VALUE items, e.g. num_players=3")
    total_timesteps: int = _arg(200_000, "learner decisions to train for (in total, when resuming)")
    seed: int = _arg(0, "seed of the model, the envs and the evaluation deals")
    n_envs: int = _arg(4, "parallel environments")
    vec_env: str = _arg("inprocess", "how the envs are batched (ether_envs.vector): inprocess (one process, "
                                     "preallocated arrays), dummy (SB3 DummyVecEnv), subproc (SB3 SubprocVecEnv, "
                                     "one process per env), sharded (n-procs processes, each an inprocess batch)",
                        choices=("inprocess", "dummy", "subproc", "sharded"))
    n_procs: int = _arg(0, "worker processes for --vec-env sharded (0: one per CPU core, at most n-envs)")
    learning_rate: float = _arg(3e-4, "Adam learning rate")
    n_steps: int = _arg(256, "steps per env per rollout")
    batch_size: int = _arg(64, "minibatch size")
    n_epochs: int = _arg(10, "epochs per rollout")
    gamma: float = _arg(0.99, "discount factor")
    gae_lambda: float = _arg(0.95, "GAE lambda")
    clip_range: float = _arg(0.2, "PPO clip range")
    ent_coef: float = _arg(0.01, "entropy bonus coefficient")
    net_arch: str = _arg("256,256", "hidden layer sizes of the policy and value MLPs")
    skip: bool = _arg(True, "features = [observation, shared MLP(observation)] with linear heads "
                             "(agents.networks.SkipMLP; net-arch is then the shared MLP)")
    opponents: str = _arg("random=0.4,heuristic=0.2,self=0.4",
                          "opponent pool weights: SPEC=WEIGHT items; 'self' = frozen snapshots of the learner")
    score_shaping: float = _arg(0.1, "potential-based score shaping coefficient of the env (0: outcome reward "
                                     "only; see ether_envs.wrappers)")
    snapshot_every: int = _arg(20_000, "steps between frozen snapshots added to the pool (0: never)")
    max_snapshots: int = _arg(10, "newest snapshots kept in the pool")
    eval_every: int = _arg(20_000, "steps between evaluations (0: never)")
    eval_deals: int = _arg(10, "deals per evaluation opponent (each played once per seat)")
    eval_opponents: str = _arg("random,heuristic", "comma-separated agent specs to evaluate against")
    checkpoint_every: int = _arg(50_000, "steps between checkpoints (0: never)")
    out_dir: str = _arg("runs", "parent folder of the run folder")
    run_name: str = _arg("", "run folder name (default <game>__<seed>__<timestamp>)")
    resume: str = _arg("", "checkpoint .zip to resume from")
    progress: bool = _arg(True, "show a progress bar")
    torch_threads: int = _arg(1, "torch CPU threads")


def build_parser(p: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """An argparse parser with one option per :class:`TrainArgs` field (the game positional)."""
    p = p or argparse.ArgumentParser(prog="python -m training.train", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    for f in dataclasses.fields(TrainArgs):
        meta = dict(f.metadata)
        help_ = meta.pop("help")
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        if f.name == "game":
            p.add_argument("game", nargs="?", default=default, choices=ether_envs.list_games(), help=help_)
        elif f.name == "config":
            p.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE", help=help_)
        elif f.type in (bool, "bool"):
            p.add_argument(f"--{f.name.replace('_', '-')}", action=argparse.BooleanOptionalAction,
                           default=default, help=f"{help_} (default {default})")
        else:
            cast = {"int": int, "float": float, "str": str}.get(f.type if isinstance(f.type, str) else f.type.__name__, str)
            p.add_argument(f"--{f.name.replace('_', '-')}", type=cast, default=default,
                           help=f"{help_} (default {default!r})", **meta)
    return p


def args_from_namespace(ns: argparse.Namespace) -> TrainArgs:
    values = {f.name: getattr(ns, f.name) for f in dataclasses.fields(TrainArgs)}
    values["config"] = parse_config(ns.config) if isinstance(ns.config, list) else ns.config
    return TrainArgs(**values)


def _make_callback(args: TrainArgs, run_dir: Path, game, pool, base_cls):
    """The training callback: snapshots into the pool, checkpoints, evaluation, progress bar."""
    from agents.ppo import PPOAgent, save_model

    from .evaluate import run_tournament

    eval_specs = [s for s in split_specs(args.eval_opponents) if s]

    class Callback(base_cls):
        def __init__(self):
            super().__init__()
            self.bar = None
            self.last = {"snapshot": 0, "checkpoint": 0, "eval": 0}
            self.eval_rows: list[dict[str, Any]] = []

        def _due(self, key: str, every: int) -> bool:
            if every > 0 and self.num_timesteps - self.last[key] >= every:
                self.last[key] = self.num_timesteps
                return True
            return False

        def _on_training_start(self) -> None:
            for k in self.last:
                self.last[k] = self.num_timesteps
            if args.progress:
                from .progress import progress_bar

                self.bar = progress_bar(args.total_timesteps, f"train {args.game}", "step",
                                        initial=self.num_timesteps)

        def _on_step(self) -> bool:
            if self.bar is not None:
                self.bar.update(self.num_timesteps - self.bar.n)
            if self._due("snapshot", args.snapshot_every):
                path = save_model(self.model, run_dir / "snapshots" / f"step_{self.num_timesteps}", game,
                                  timesteps=self.num_timesteps)
                pool.snapshots = (pool.snapshots + [str(path)])[-args.max_snapshots:]
                self.training_env.env_method("set_opponents", pool)
            if self._due("checkpoint", args.checkpoint_every):
                save_model(self.model, run_dir / "checkpoints" / f"step_{self.num_timesteps}", game,
                           timesteps=self.num_timesteps, train_args=dataclasses.asdict(args))
            if self._due("eval", args.eval_every):
                self.evaluate()
            return True

        def evaluate(self) -> None:
            learner = PPOAgent.from_model(self.model)
            specs = ["learner"] + eval_specs
            res = run_tournament(args.game, specs, args.config, deals=args.eval_deals, seed=args.seed + 10_000,
                                 focal=True, progress=False, agents={"learner": learner})
            row: dict[str, Any] = {"timesteps": self.num_timesteps}
            for r in res.pairings:
                self.logger.record(f"eval/win_rate_vs_{r.opponent}", r.win_rate)
                row[f"win_rate_vs_{r.opponent}"] = round(r.win_rate, 4)
            self.eval_rows.append(row)
            with open(run_dir / "eval.csv", "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=list(row))
                w.writeheader()
                w.writerows(self.eval_rows)
            if self.bar is not None:
                self.bar.set_postfix({k.replace("win_rate_vs_", "vs "): f"{v:.0%}" for k, v in row.items() if k != "timesteps"})

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.close()

    return Callback()



def validate(args: TrainArgs) -> None:
    """Check every option before anything is created (``ether-envs train`` makes no run folder
    for bad options).

    Raises:
        ValueError: the first bad option; the message names it as on the command line
            (``--net-arch``), with the value and what is allowed.
    """
    import math

    from .ppo import parse_hidden
    from .selfplay import parse_weights

    def opt(name: str) -> str:
        return "--" + name.replace("_", "-")

    if args.game not in ether_envs.list_games():
        raise ValueError(f"unknown game {args.game!r}; known: {', '.join(ether_envs.list_games())}")
    game = ether_envs.load_game(args.game, **args.config)
    for name, low in (("total_timesteps", 1), ("n_envs", 1), ("n_steps", 1), ("batch_size", 1), ("n_epochs", 1),
                      ("torch_threads", 1), ("max_snapshots", 1), ("eval_deals", 1 if args.eval_every else 0),
                      ("n_procs", 0), ("snapshot_every", 0), ("eval_every", 0), ("checkpoint_every", 0)):
        value = getattr(args, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{opt(name)} must be an int >= {low}, got {value!r}")
    if isinstance(args.seed, bool) or not isinstance(args.seed, int) or not 0 <= args.seed < 2**32:
        raise ValueError(f"--seed must be an int in [0, 2**32 - 1] (numpy's and torch's seeding), got {args.seed!r}")
    inf = math.inf
    for name, ok, allowed in (("learning_rate", lambda v: 0 < v < inf, "a finite number > 0"),
                              ("gamma", lambda v: 0 < v <= 1, "in (0, 1]"),
                              ("gae_lambda", lambda v: 0 <= v <= 1, "in [0, 1]"),
                              ("clip_range", lambda v: 0 < v < inf, "a finite number > 0"),
                              ("ent_coef", lambda v: 0 <= v < inf, "a finite number >= 0"),
                              ("score_shaping", lambda v: 0 <= v < inf, "a finite number >= 0")):
        if not ok(getattr(args, name)):
            raise ValueError(f"{opt(name)} must be {allowed}, got {getattr(args, name)!r}")
    if args.vec_env not in ("inprocess", "dummy", "subproc", "sharded"):
        raise ValueError(f"--vec-env must be inprocess, dummy, subproc or sharded, got {args.vec_env!r}")
    parse_hidden(args.net_arch, "--net-arch")
    check_specs("--opponents", lambda: [k for k in parse_weights(args.opponents) if k != "self"], game)
    check_specs("--eval-opponents", lambda: [s for s in split_specs(args.eval_opponents) if s], game)


def check_specs(option: str, read: Callable[[], list[str]], game) -> None:
    """Build an agent of every spec that ``read()`` returns, for ``game``.

    Raises:
        ValueError: ``read`` fails or a spec builds no agent; the message starts with ``option``.
    """
    from agents import make_agent

    try:
        for spec in read():
            make_agent(spec, game)
    except (ValueError, FileNotFoundError) as e:
        raise ValueError(f"{option}: {e}") from None


def new_model(args: TrainArgs, venv, seed: int | None = None):
    """A fresh ``MaskablePPO`` on ``venv`` with ``args``' hyper-parameters and network
    (``skip``: ``SkipMLP`` features with linear heads, else an MLP of ``net_arch``);
    ``seed`` defaults to ``args.seed``."""
    from sb3_contrib import MaskablePPO

    from .ppo import parse_hidden

    net = list(parse_hidden(args.net_arch, "--net-arch"))
    if args.skip:
        from agents.networks import SkipMLP

        policy_kwargs = {"features_extractor_class": SkipMLP, "features_extractor_kwargs": {"hidden": tuple(net)},
                         "net_arch": []}
    else:
        policy_kwargs = {"net_arch": net}
    return MaskablePPO("MlpPolicy", venv, learning_rate=args.learning_rate, n_steps=args.n_steps,
                       batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma,
                       gae_lambda=args.gae_lambda, clip_range=args.clip_range, ent_coef=args.ent_coef,
                       policy_kwargs=policy_kwargs, seed=args.seed if seed is None else seed, device="cpu",
                       verbose=0)

def train(args: TrainArgs) -> Path:
    """Train; returns the path of the final ``model.zip`` in the run folder.

    Raises:
        ValueError: a bad option (:func:`validate`; then nothing is created), or a resume
            checkpoint trained on another game/config (``agents.ppo.ModelMismatchError``).
        FileNotFoundError: no checkpoint at ``resume``.
    """
    validate(args)
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.utils import set_random_seed

    from agents.ppo import check_compatible, read_metadata, save_model
    from ether_envs.vector import make_vec_env

    from .selfplay import OpponentPool, parse_weights

    torch.set_num_threads(args.torch_threads)
    game = ether_envs.load_game(args.game, **args.config)
    weights = parse_weights(args.opponents)
    if args.resume:
        run_dir = Path(args.resume).resolve().parent.parent
        check_compatible(read_metadata(args.resume), game, source=args.resume)
    else:
        name = args.run_name or f"{args.game}__{args.seed}__{time.strftime('%Y%m%d-%H%M%S')}"
        run_dir = Path(args.out_dir) / name
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "args.json").write_text(json.dumps(dataclasses.asdict(args), indent=1))
    snapshots = sorted((run_dir / "snapshots").glob("step_*.zip"), key=lambda p: int(p.stem[5:]))
    pool = OpponentPool(args.game, args.config, weights, [str(p) for p in snapshots][-args.max_snapshots:])

    set_random_seed(args.seed)
    from . import one_thread

    # one torch thread: numpy's BLAS and torch on one thread in each env worker too, where the
    # opponents (snapshots are SB3 models) play (ether_envs.vector, "Worker set-up")
    venv = make_vec_env(args.game, args.config, args.n_envs, args.vec_env, n_procs=args.n_procs or None,
                        opponents=pool, score_shaping=args.score_shaping,
                        worker_init=one_thread if args.torch_threads == 1 else None)  # episode statistics: VecMonitor inside
    venv.seed(args.seed)
    if args.resume:
        model = MaskablePPO.load(args.resume, env=venv, device="cpu")
    else:
        model = new_model(args, venv)
    model.set_logger(configure(str(run_dir), ["csv", "tensorboard"]))
    callback = _make_callback(args, run_dir, game, pool, BaseCallback)
    remaining = args.total_timesteps - model.num_timesteps
    try:
        if remaining > 0:
            model.learn(total_timesteps=remaining, callback=callback, reset_num_timesteps=not args.resume)
    finally:
        venv.close()
    if args.eval_every > 0 and callback.last["eval"] != model.num_timesteps:
        callback.evaluate()
    path = save_model(model, run_dir / "model", game, timesteps=model.num_timesteps,
                      train_args=dataclasses.asdict(args))
    return path


def main(argv: list[str] | None = None) -> Path:
    args = args_from_namespace(build_parser().parse_args(argv))
    path = train(args)
    print(f"model saved to {path}")
    return path


if __name__ == "__main__":
    main()
