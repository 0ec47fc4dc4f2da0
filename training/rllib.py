"""Multi-agent self-play PPO on Ray RLlib, for any ether-envs game (the ``distributed`` extra).

    ether-envs train aethermon_collect --backend rllib --total-timesteps 200000 --num-env-runners 2
    ether-envs train ethnos --backend rllib --address auto --num-env-runners 32   # a running Ray cluster
    python -m training.rllib etherium --address ray://head-node:10001 --iterations 50

Every seat of the game is an RLlib agent (``player_0`` ...) and all of them map to ONE
policy (module id ``"shared"``): the policy plays against copies of itself and learns from
every seat's experience. The turn-based PettingZoo AEC env is adapted to RLlib's
``MultiAgentEnv`` by :class:`training.rllib_env.TurnBasedMultiAgentEnv` (only the player to act gets an
observation; at the end every seat gets its final observation and its return). The policy
is :class:`agents.rllib_agent.MaskedActorCritic`, a small MLP actor-critic RLModule that sets the logits of
illegal actions to the float32 minimum, so a sampled action is always legal (the env raises
``ValueError`` on an illegal one).

Ray runs locally by default (``ray.init()`` with a small object store and no dashboard) or
connects to a cluster with ``--address`` (``auto``, ``HOST:6379`` or ``ray://HOST:10001``).
What runs where: the driver (this process) holds the Algorithm and its one local Learner,
which does the PPO updates; ``--num-env-runners`` Ray actors (one CPU each) play the games
and run the policy to sample; with ``--num-env-runners 0`` the driver samples too. On a
cluster the driver's ``ether_envs``, ``agents`` and ``training`` packages are shipped to
the workers (``runtime_env`` ``py_modules``); the workers need Python, numpy, torch,
gymnasium, pettingzoo and Ray of the same versions (``pip install 'ether-envs[distributed]'``).

A run folder ``<out-dir>/<run-name>/`` holds ``checkpoint/`` (``Algorithm.save_to_path``;
``--resume`` continues from it), ``checkpoint/ether_envs.json`` (game, config, observation
layout: :class:`agents.rllib_agent.RLlibAgent` refuses a mismatched env),
``progress.csv`` (one row per training iteration), ``eval.csv`` and ``args.json``.
The trained policy is an agent: ``rllib:<run>/checkpoint`` in ``ether-envs evaluate``.
Options of ``ether-envs train`` that apply: game, ``--config``, ``--total-timesteps``,
``--seed``, ``--learning-rate``, ``--gamma``,
``--gae-lambda``, ``--clip-range``, ``--ent-coef``, ``--net-arch``, ``--eval-deals``,
``--eval-opponents``, ``--out-dir``, ``--run-name``, ``--resume``, ``--torch-threads``,
``--progress`` (print one line per iteration); the others (opponent pool, snapshots,
score shaping, SB3 vec envs, ``--n-steps``, ``--batch-size``, ``--n-epochs``, ``--skip``) are
SB3-only: the RLlib ones (``--train-batch-size``, ``--minibatch-size``, ``--num-epochs`` ...) have
defaults that suit RLlib, whose fixed cost per minibatch and per sampled step is much higher.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import math
import os
import time
from pathlib import Path
from typing import Any

import ether_envs
from agents.base import split_specs

POLICY_ID = "shared"
"""The module id of the one policy every seat plays (self-play)."""
METADATA_FILE = "ether_envs.json"
"""The metadata file written into the checkpoint folder (``agents.ppo.model_metadata``)."""


def shared_policy(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Self-play: every seat maps to the one module :data:`POLICY_ID`."""
    return POLICY_ID


# ---- options -------------------------------------------------------------------------------
@dataclasses.dataclass
class RLlibArgs:
    """The RLlib-only options (``ether-envs train --backend rllib``); the shared ones come from
    :class:`training.train.TrainArgs`."""

    address: str = ""
    num_env_runners: int = 0
    num_envs_per_env_runner: int = 1
    iterations: int = 0
    train_batch_size: int = 4000
    minibatch_size: int = 500
    num_epochs: int = 4
    rollout_fragment_length: int = 200
    num_cpus: int = 0
    object_store_mb: int = 200


RLLIB_HELP = {
    "address": "Ray cluster to connect to: auto, HOST:6379 or ray://HOST:10001 (default: start Ray locally)",
    "num_env_runners": "Ray actors that sample games, one CPU each (0: the driver samples)",
    "num_envs_per_env_runner": "games each env runner steps in turn",
    "iterations": "training iterations (0: until --total-timesteps env steps)",
    "train_batch_size": "env steps (all seats' decisions) per PPO update",
    "minibatch_size": "PPO minibatch size (RLlib's per-minibatch cost is high: keep it in the hundreds)",
    "num_epochs": "passes over each train batch",
    "rollout_fragment_length": "at most this many env steps per sample() call of an env runner (RLlib's "
                               "per-step cost grows with the episodes finished within one call)",
    "num_cpus": "CPUs of the local Ray instance (0: max(cores, env runners + 1)); ignored with --address",
    "object_store_mb": "object store of the local Ray instance in MiB; ignored with --address",
}


def add_arguments(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add the :class:`RLlibArgs` options to a parser (or argument group)."""
    for f in dataclasses.fields(RLlibArgs):
        p.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=f.default,
                       help=f"[rllib] {RLLIB_HELP[f.name]} (default {f.default!r})")


def rllib_args_from_namespace(ns: argparse.Namespace) -> RLlibArgs:
    return RLlibArgs(**{f.name: getattr(ns, f.name) for f in dataclasses.fields(RLlibArgs)})


# ---- Ray and the algorithm ----------------------------------------------------------------------
def init_ray(address: str = "", num_cpus: int = 0, object_store_mb: int = 200, num_env_runners: int = 0) -> bool:
    """Start Ray locally (no dashboard, small object store) or connect to ``address``.

    Returns:
        whether this call started or connected Ray (False if it was already initialised).

    Raises:
        ConnectionError: no cluster at ``address``.
    """
    import ray

    if ray.is_initialized():
        return False
    os.environ.setdefault("RAY_DEDUP_LOGS", "1")
    if address:
        import agents
        import training

        code = [str(Path(m.__file__).resolve().parent) for m in (ether_envs, agents, training)]
        ray.init(address=address, runtime_env={"py_modules": code},
                 logging_level="ERROR", log_to_driver=True)
    else:
        cpus = num_cpus or max(os.cpu_count() or 1, num_env_runners + 1)
        ray.init(num_cpus=cpus, object_store_memory=object_store_mb * 2**20, include_dashboard=False,
                 logging_level="ERROR", log_to_driver=True)
    return True


def fragment_length(rargs: RLlibArgs) -> int:
    """The rollout fragment: at most ``rargs.rollout_fragment_length`` env steps, chosen so that
    whole rounds of fragments over all env runners and their envs make up ``rargs.train_batch_size``
    (RLlib refuses a mismatch of more than 10%)."""
    per_round = max(rargs.num_env_runners, 1) * rargs.num_envs_per_env_runner
    rounds = max(1, math.ceil(rargs.train_batch_size / (per_round * rargs.rollout_fragment_length)))
    return math.ceil(rargs.train_batch_size / (per_round * rounds))


def build_config(args, rargs: RLlibArgs):
    """The ``PPOConfig``: multi-agent env, one shared masked policy, PPO hyper-parameters.

    Args:
        args: a :class:`training.train.TrainArgs` (game, config, seed, PPO settings).
        rargs: the :class:`RLlibArgs`.

    Raises:
        ValueError: unknown game or bad config (checked before anything is built).
    """
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    ether_envs.load_game(args.game, **args.config)  # validate early
    if min(rargs.train_batch_size, rargs.minibatch_size, rargs.num_epochs, rargs.rollout_fragment_length,
           rargs.num_envs_per_env_runner) < 1 or rargs.num_env_runners < 0:
        raise ValueError("train_batch_size, minibatch_size, num_epochs, rollout_fragment_length and "
                         "num_envs_per_env_runner must be >= 1, num_env_runners >= 0")
    hidden = [int(x) for x in args.net_arch.split(",") if x.strip()]
    if not hidden or min(hidden) < 1:
        raise ValueError(f"net_arch must list positive layer widths, got {args.net_arch!r}")
    from agents.rllib_agent import MaskedActorCritic

    from .rllib_env import TurnBasedMultiAgentEnv

    return (
        PPOConfig()
        .environment(TurnBasedMultiAgentEnv, env_config={"game": args.game, "config": dict(args.config)},
                     disable_env_checking=True)  # its random actions ignore the mask (ValueError)
        .framework("torch")
        .env_runners(num_env_runners=rargs.num_env_runners, num_envs_per_env_runner=rargs.num_envs_per_env_runner,
                     rollout_fragment_length=fragment_length(rargs), num_cpus_per_env_runner=1,
                     sample_timeout_s=None)  # never drop a slow runner's samples (busy machines)
        .learners(num_learners=0)
        .multi_agent(policies={POLICY_ID}, policy_mapping_fn=shared_policy)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            POLICY_ID: RLModuleSpec(module_class=MaskedActorCritic, model_config={"hidden": hidden})}))
        .training(train_batch_size_per_learner=rargs.train_batch_size,
                  minibatch_size=min(rargs.minibatch_size, rargs.train_batch_size), num_epochs=rargs.num_epochs,
                  lr=args.learning_rate, gamma=args.gamma, lambda_=args.gae_lambda, clip_param=args.clip_range,
                  entropy_coeff=args.ent_coef, vf_loss_coeff=0.5)
        .debugging(seed=args.seed, log_level="ERROR")
    )


def write_metadata(checkpoint: Path, game, **extra: Any) -> None:
    """``checkpoint/ether_envs.json``: what the policy was trained on (see ``agents.ppo.model_metadata``)."""
    from agents.ppo import model_metadata

    (Path(checkpoint) / METADATA_FILE).write_text(json.dumps(model_metadata(game, **extra), indent=1))


def _summary(result: dict) -> dict[str, Any]:
    """The numbers of one ``algo.train()`` result that we log (NaN where RLlib has none)."""
    env = result.get("env_runners", {})
    learner = result.get("learners", {}).get(POLICY_ID, {})

    def num(d: dict, key: str) -> float:
        v = d.get(key, float("nan"))
        try:
            return float(v)
        except (TypeError, ValueError):
            return float("nan")

    return {
        "iteration": int(result.get("training_iteration", 0)),
        "env_steps": int(result.get("num_env_steps_sampled_lifetime", env.get("num_env_steps_sampled_lifetime", 0))),
        "episodes": int(env.get("num_episodes_lifetime", 0)),
        "episode_len_mean": num(env, "episode_len_mean"),
        "policy_loss": num(learner, "policy_loss"),
        "vf_loss": num(learner, "vf_loss"),
        "entropy": num(learner, "entropy"),
        "mean_kl": num(learner, "mean_kl_loss"),
        "sample_seconds": num(result.get("timers", {}), "env_runner_sampling_timer"),
        "learn_seconds": num(result.get("timers", {}), "learner_update_timer"),
    }


@dataclasses.dataclass
class RLlibRun:
    """What :func:`train` returns: the run folder, the checkpoint, per-iteration rows, throughput
    (env steps per second of wall time, sampling and learning together) and the evaluation."""

    run_dir: Path
    checkpoint: Path
    history: list[dict[str, Any]]
    env_steps_per_second: float
    evaluation: list[dict[str, Any]] | None = None


def train(args, rargs: RLlibArgs) -> RLlibRun:
    """Train the shared masked PPO policy by self-play; save, then evaluate it (``args.eval_deals > 0``).

    Stops after ``rargs.iterations`` iterations, or (0) once ``args.total_timesteps`` env steps
    (every seat's decisions) have been sampled. Ray is started (or connected) if needed and
    shut down at the end if this call started it.

    Raises:
        ValueError: bad arguments, unknown game/config, or ``--resume`` of a checkpoint for
            another game/config (``agents.ppo.ModelMismatchError``).
        ConnectionError: no Ray cluster at ``rargs.address``.
    """
    import ray
    import torch

    from agents.ppo import check_compatible

    if rargs.iterations < 0:
        raise ValueError(f"iterations must be >= 0 (0: until total_timesteps), got {rargs.iterations}")
    if args.total_timesteps < 1 and rargs.iterations < 1:
        raise ValueError("give total_timesteps >= 1 or iterations >= 1")
    from .train import check_specs

    config = build_config(args, rargs)  # checks the options before anything is created
    check_specs("--eval-opponents", lambda: [s for s in split_specs(args.eval_opponents) if s],
                ether_envs.load_game(args.game, **args.config))
    torch.set_num_threads(args.torch_threads)
    game = ether_envs.load_game(args.game, **args.config)
    if args.resume:
        meta_path = Path(args.resume) / METADATA_FILE
        if not meta_path.exists():
            raise FileNotFoundError(f"no {METADATA_FILE} in {args.resume}: not a training.rllib checkpoint")
        meta = json.loads(meta_path.read_text())
        check_compatible(meta, game, source=args.resume)
        steps_before = int(meta.get("env_steps", 0))
        run_dir = Path(args.resume).resolve().parent
    else:
        name = args.run_name or f"{args.game}__rllib__{args.seed}__{time.strftime('%Y%m%d-%H%M%S')}"
        run_dir = Path(args.out_dir) / name
        steps_before = 0
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "args.json").write_text(json.dumps({**dataclasses.asdict(args), "backend": "rllib",
                                                   **dataclasses.asdict(rargs)}, indent=1))
    started = init_ray(rargs.address, rargs.num_cpus, rargs.object_store_mb, rargs.num_env_runners)
    algo = None
    history: list[dict[str, Any]] = []
    previous = list(csv.DictReader(open(run_dir / "progress.csv"))) if args.resume and (run_dir / "progress.csv").exists() else []
    checkpoint = run_dir / "checkpoint"
    try:
        algo = config.build_algo()
        if args.resume:
            algo.restore_from_path(Path(args.resume).resolve())
        t0 = time.perf_counter()
        while True:
            row = _summary(algo.train())
            row["seconds"] = round(time.perf_counter() - t0, 2)
            history.append(row)
            _write_progress(run_dir / "progress.csv", previous + history)
            if args.progress:
                print(f"[rllib] iter {row['iteration']:>4}  env steps {row['env_steps']:>9,}  "
                      f"episodes {row['episodes']:>7,}  policy loss {row['policy_loss']:+.4f}  "
                      f"vf loss {row['vf_loss']:.4f}  entropy {row['entropy']:.3f}  {row['seconds']:.0f} s", flush=True)
            done_iters = rargs.iterations > 0 and len(history) >= rargs.iterations
            done_steps = rargs.iterations <= 0 and row["env_steps"] >= args.total_timesteps
            if done_iters or done_steps:
                break
        wall = time.perf_counter() - t0
        sps = (history[-1]["env_steps"] - steps_before) / wall if wall > 0 else float("nan")
        algo.save_to_path(checkpoint.resolve())
        write_metadata(checkpoint, game, env_steps=history[-1]["env_steps"], train_args=dataclasses.asdict(args))
    finally:
        if algo is not None:
            algo.stop()
        if started:
            ray.shutdown()
    run = RLlibRun(run_dir, checkpoint, history, sps)
    if args.eval_deals > 0:
        run.evaluation = evaluate(args, checkpoint, run_dir)
    return run


def _write_progress(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def evaluate(args, checkpoint: Path, run_dir: Path | None = None) -> list[dict[str, Any]]:
    """The trained policy (greedy, as ``agents.rllib_agent.RLlibAgent``) through the engine:
    against each of ``args.eval_opponents`` on ``args.eval_deals`` paired deals, every deal once
    per seat (``training.evaluate.run_tournament``); in a co-operative game (``utility()
    == "identical"``) in every seat as one team instead (``training.baselines.team_result``:
    won = positive team return). Writes ``eval.csv`` to ``run_dir``.

    Returns:
        one dict per row: ``opponent`` (``"-(team)"`` for a co-operative game), ``games``,
        ``win_rate``, ``win_low``, ``win_high`` (Wilson 95%).
    """
    from agents.rllib_agent import RLlibAgent

    from .baselines import is_cooperative, team_result
    from .evaluate import run_tournament

    game = ether_envs.load_game(args.game, **args.config)
    agent = RLlibAgent(game, str(checkpoint))
    seed = args.seed + 10_000
    if is_cooperative(game):
        games, rate, low, high = team_result(args.game, "rllib", args.config, args.eval_deals, seed, agent=agent)
        rows = [{"opponent": "-(team)", "games": games, "win_rate": rate, "win_low": low, "win_high": high}]
    else:
        specs = ["rllib"] + [s for s in split_specs(args.eval_opponents) if s]
        if len(specs) == 1:
            return []
        res = run_tournament(args.game, specs, args.config, deals=args.eval_deals, seed=seed,
                             focal=True, progress=False, agents={"rllib": agent})
        rows = [{"opponent": r.opponent, "games": r.games, "win_rate": r.win_rate, "win_low": r.win_low,
                 "win_high": r.win_high} for r in res.pairings]
    if run_dir is not None:
        with open(Path(run_dir) / "eval.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows({k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()} for r in rows)
    return rows


def report(run: RLlibRun) -> str:
    """The lines printed at the end of a run."""
    last = run.history[-1]
    lines = [f"[rllib] {len(run.history)} iterations, {last['env_steps']:,} env steps, {last['episodes']:,} episodes, "
             f"{run.env_steps_per_second:,.0f} env steps/s (sampling + learning)",
             f"[rllib] checkpoint saved to {run.checkpoint}"]
    for r in run.evaluation or []:
        who = "as a team in every seat" if r["opponent"] == "-(team)" else f"vs {r['opponent']}"
        lines.append(f"[rllib] {who}: win rate {r['win_rate']:.1%} [{r['win_low']:.1%}, {r['win_high']:.1%}] "
                     f"over {r['games']} games")
    return "\n".join(lines)


def run_from_args(ns: argparse.Namespace) -> RLlibRun:
    """``ether-envs train --backend rllib``: train, print the report."""
    from .train import args_from_namespace

    try:
        import ray.rllib  # noqa: F401
    except ImportError as e:
        raise ValueError(f"--backend rllib needs Ray RLlib: pip install -e '.[distributed]' ({e})") from None
    run = train(args_from_namespace(ns), rllib_args_from_namespace(ns))
    print(report(run))
    return run


def build_parser() -> argparse.ArgumentParser:
    """``python -m training.rllib``: the ``ether-envs train`` options plus the RLlib ones."""
    from .train import build_parser as train_parser

    p = argparse.ArgumentParser(prog="python -m training.rllib", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    train_parser(p)
    add_arguments(p.add_argument_group("RLlib"))
    return p


def main(argv: list[str] | None = None) -> RLlibRun:
    return run_from_args(build_parser().parse_args(argv))


if __name__ == "__main__":
    main()
