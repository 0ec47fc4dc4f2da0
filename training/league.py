"""League fine-tuning: the zoo-2 stage after expert iteration, PPO against zoo 1, past selves and the heuristic.

    python -m training.league etherium --init runs/etherium_exit.npz            # 1.2M frames, about 7 min
    python -m training.league ether_wars --init runs/league/ether_wars__0/policy.npz --exploiter BR.npz --seed 1

Expert iteration (:mod:`training.exit`) gave Etherium and Ether Wars nets that play level with
zoo 1 (docs/results/zoo2.md). This stage continues such a net with :mod:`training.ppo`'s masked
PPO against a *league* of fixed opponents and of its own past:

* ``pretrained:zoo=1`` played greedily (40% of episodes) and sampling from its policy (10%): the
  anchor the zoo-2 net must beat;
* ``self`` (40%): frozen snapshots of the learner every 100,000 frames (the last 10), played
  stochastically, so the net does not forget how to meet play unlike zoo 1's (fictitious-self-play
  style, Heinrich & Silver 2016; a league of past selves, Vinyals et al. 2019);
* ``heuristic`` (10%);
* with ``--exploiter FILE`` (one or more weight files: best responses to an earlier league net,
  e.g. :mod:`training.exploit`'s ``policy.npz``), the exploiters take 30% of the episodes, shared
  equally, and the other weights become zoo 1 20% + 5%, self 35%, heuristic 10%: the main agent
  then learns to beat what beat it (AlphaStar's exploiters, Vinyals et al. 2019; a step of
  PSRO, Lanctot et al. 2017).

The net starts from ``--init`` (for the shipped zoo 2: the expert-iteration net that was zoo 2
before this stage, ``git show e3536a5:agents/weights/<game>.npz``), with no kickstarting loss,
the recipe's ``gamma`` and score shaping, the envs in one worker process and torch on one
thread, for a fixed frame budget (:data:`LEAGUE_FRAMES`, rounded up to whole PPO updates of 2,048
frames; no wall-clock cap; with ``--resume`` it is the run's total). Evaluations against
``pretrained:zoo=1`` (and the exploiters) on 25 validation deals (50 games each) at the start,
every 400,000 frames and at the end go to ``eval.csv``. A run folder resumes from its checkpoint
(``--resume``, with the same ``--init`` and ``--exploiter`` files: a folder holding another run
is refused). ``--export`` copies the final net into the zoo
(``agents/weights/<game>.npz``, zoo 2; :func:`training.exit.export`), recording this stage and its
starting file's SHA-256 in the metadata; with ``--export-players`` as the game's net for the
stage's player count only (``agents/weights/<N>p/<game>.npz``), so that the every-count net keeps
playing the other counts (:func:`export_stage` does the same for a finished run). What the shipped nets reach is measured by
:mod:`training.zoo_report` and :mod:`training.exploit`, never by this stage's own evaluations.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

import ether_envs

from . import usage_error

LEAGUE_OPPONENTS = ("'pretrained:zoo=1'=0.4,'pretrained:zoo=1,deterministic=false'=0.1,"
                    "self=0.4,heuristic=0.1")
"""The league: the PPO opponent weights (:func:`training.selfplay.parse_weights`)."""

EXPLOITER_SHARE = 0.3
"""Share of the episodes played against the exploiters, when there are any."""

LEAGUE_FRAMES = 1_200_000
"""Learner frames of the stage."""


def league_opponents(exploiters: list[str] | tuple[str, ...] = ()) -> str:
    """The opponent weights of the stage: :data:`LEAGUE_OPPONENTS`, or with ``exploiters`` (weight
    files) those at :data:`EXPLOITER_SHARE` in all beside zoo 1, self and the heuristic."""
    from agents.base import quote_spec_value

    if not exploiters:
        return LEAGUE_OPPONENTS
    each = EXPLOITER_SHARE / len(exploiters)
    parts = [f"{quote_spec_value('pretrained:path=' + quote_spec_value(str(f)))}={each:g}" for f in exploiters]
    return ",".join(parts + ["'pretrained:zoo=1'=0.2", "'pretrained:zoo=1,deterministic=false'=0.05", "self=0.35",
                             "heuristic=0.1"])


def league_config(game: str, init: str, seed: int = 0, run_dir: str | None = None, frames: int = LEAGUE_FRAMES,
                  progress: bool = True, resume: bool = False, exploiters: list[str] | tuple[str, ...] = ()):
    """The :class:`training.ppo.PPOConfig` of the stage for ``game`` (its recipe's ``gamma`` and
    ``score_shaping``; the rest as in the module docstring).

    Raises:
        ValueError: a game without a league stage (a co-operative game has no opponent), or
            ``frames < 1``.
        FileNotFoundError: ``init`` or an exploiter file does not exist.
    """
    from .ppo import PPOConfig
    from .recipes import RECIPES

    if game not in ether_envs.list_games() or ether_envs.load_game(game).utility() != "zero_sum":
        raise ValueError(f"league fine-tuning needs a competitive game, got {game!r}")
    if frames < 1:
        raise ValueError(f"frames must be >= 1, got {frames!r}")
    for option, f in [("--init", init)] + [("--exploiter", e) for e in exploiters]:
        if not Path(f).is_file():
            raise FileNotFoundError(f"{option} {f}: no such weight file")
    from agents.base import quote_spec_value

    ppo = RECIPES[game].ppo
    evals = ",".join(["pretrained:zoo=1"] + [quote_spec_value("pretrained:path=" + quote_spec_value(str(e)))
                                             for e in exploiters])
    return PPOConfig(game=game, seed=seed, total_frames=frames, n_procs=1, init=str(init), kickstart=0.0,
                     gamma=ppo.get("gamma", PPOConfig.gamma), score_shaping=ppo.get("score_shaping", 0.0),
                     opponents=league_opponents(exploiters), snapshot_every=100_000, max_snapshots=10,
                     eval_every=400_000, eval_deals=25, eval_opponents=evals, checkpoint_every=100_000,
                     run_dir=run_dir or f"runs/league/{game}__{seed}", resume=resume, progress=progress)


def check_run_dir(cfg) -> None:
    """Refuse a run folder that holds another run: without ``resume``, any run (its CSVs would be
    appended to and its weights overwritten); with ``resume``, a run of another starting file,
    league or seed (an exported file would record files the run never used).

    Raises:
        ValueError: naming the folder and what differs.
    """
    import json

    run_dir = Path(cfg.run_dir)
    if not cfg.resume:
        if (run_dir / "checkpoint.pt").exists() or (run_dir / "config.json").exists():
            raise ValueError(f"{run_dir} holds a run already: --resume continues it, or give another --run-dir")
        return
    if not (run_dir / "config.json").exists():
        return  # training.ppo refuses a folder without a checkpoint
    stored = json.loads((run_dir / "config.json").read_text())
    for key in ("game", "seed", "init", "opponents"):
        if stored.get(key) != getattr(cfg, key):
            raise ValueError(f"--resume: {run_dir} holds a run with {key} {stored.get(key)!r}, not "
                             f"{getattr(cfg, key)!r}; give the same --init and --exploiter files, or another --run-dir")


def run(game: str, init: str, seed: int = 0, run_dir: str | None = None, frames: int = LEAGUE_FRAMES,
        export: bool = False, progress: bool = True, resume: bool = False, log=print,
        exploiters: list[str] | tuple[str, ...] = (), export_players: bool = False) -> Path:
    """Train the stage (module docstring); returns the final weight file, or the zoo's copy with
    ``export`` (:func:`export_stage`; with ``export_players``, as the net of the stage's player
    count only)."""
    from .ppo import train

    cfg = league_config(game, init, seed, run_dir, frames, progress, resume, exploiters)
    check_run_dir(cfg)
    path = train(cfg)
    if not export:
        return path
    return export_stage(path, game, init, exploiters, for_players=export_players, log=log)


def export_stage(path: str | Path, game: str, init: str | Path, exploiters: list[str] | tuple[str, ...] = (),
                 for_players: bool = False, log=print) -> Path:
    """Copy a league net into the zoo (:func:`training.exit.export`) with the stage recorded in its
    metadata (``training.stage``, the SHA-256 of its ``init`` file and of each exploiter): as the
    game's every-count net ``agents/weights/<game>.npz``, or, with ``for_players``, as its net for
    the player count it was trained at only (``agents/weights/<N>p/<game>.npz``; the every-count
    net then still plays the other counts). ``path`` itself is not changed. Returns the zoo's file.

    Raises:
        FileNotFoundError: ``path``, ``init`` or an exploiter file does not exist.
        ValueError: ``for_players`` not a bool, a net that records no player count (with
            ``for_players``), or as :func:`training.exit.export`; nothing is written then.
    """
    import tempfile

    from agents.pretrained import MLPPolicy

    from .exit import export as export_net

    if not isinstance(for_players, bool):
        raise ValueError(f"for_players must be True or False, got {for_players!r}")
    policy = MLPPolicy.load(path)
    policy.metadata["training"] = {**policy.metadata.get("training", {}),
                                   "stage": "league fine-tuning (training.league)",
                                   "init_sha256": hashlib.sha256(Path(init).read_bytes()).hexdigest(),
                                   "exploiters_sha256": [hashlib.sha256(Path(e).read_bytes()).hexdigest()
                                                         for e in exploiters]}
    players = None
    if for_players:
        players = (policy.metadata.get("config") or {}).get("num_players")
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"{path} records no player count (metadata config.num_players)")
    with tempfile.TemporaryDirectory() as tmp:
        stamped = policy.save(Path(tmp) / Path(path).name)
        return export_net(stamped, game, log=lambda line: log(line.replace(str(stamped), str(path))),
                          num_players=players)


def build_parser(p: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = p or argparse.ArgumentParser(prog="python -m training.league", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=[g for g in ether_envs.list_games()
                                    if ether_envs.load_game(g).utility() == "zero_sum"])
    p.add_argument("--init", required=True, help="the weight file the net starts from (.npz)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--frames", type=int, default=LEAGUE_FRAMES, help=f"learner frames (default {LEAGUE_FRAMES:,})")
    p.add_argument("--run-dir", default=None, help="run folder (default runs/league/<game>__<seed>)")
    p.add_argument("--exploiter", action="append", default=[], metavar="FILE",
                   help="a best response to an earlier league net (weight file), 30%% of episodes in all; repeatable")
    p.add_argument("--resume", action="store_true", help="continue the run folder from its checkpoint")
    p.add_argument("--export", action="store_true", help="copy the final net into the zoo (agents/weights, zoo 2)")
    p.add_argument("--export-players", action="store_true",
                   help="with --export: as the game's net for the stage's player count only "
                        "(agents/weights/<N>p/<game>.npz); the every-count net keeps the other counts")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True)
    return p


def main(argv: list[str] | None = None) -> Path:
    p = build_parser()
    return main_from_args(p, p.parse_args(argv))


def main_from_args(p: argparse.ArgumentParser, a: argparse.Namespace) -> Path:
    """Run the stage from parsed arguments (a bad value is a usage error of ``p``)."""
    try:
        if a.export_players and not a.export:
            raise ValueError("--export-players goes with --export")
        path = run(a.game, a.init, a.seed, a.run_dir, a.frames, a.export, a.progress, a.resume,
                   exploiters=a.exploiter, export_players=a.export_players)
    except (ValueError, FileNotFoundError) as e:
        usage_error(p, e)
    print(f"weights written to {path}")
    return path


if __name__ == "__main__":
    main()
