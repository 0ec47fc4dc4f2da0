"""The training recipe of each game's reference agent: behaviour cloning, then kickstarted PPO.

    ether-envs recipe aethermon_collect --seed 0                 # one documented command per game
    ether-envs recipe ethnos --seed 0 --export                   # ... and copy the weights into the zoo
    ether-envs recipe ethnos --seed 0                            # run again: resumes from its checkpoints

Stages, in the run folder ``<out-dir>/<game>__recipe__<seed>/``:

1. **Behaviour cloning** (:mod:`training.bc`): a teacher plays every seat of ``bc_games``
   games; the net learns its moves and the games' outcomes -> ``bc_policy.npz``. The teacher is
   the heuristic, or where search is cheap and beats the heuristic (Aethermon: Collect, 22
   decisions a game) ``mcts:simulations=100``: distilling the search into the net is one step
   of expert iteration (Anthony et al. 2017).
   Optionally ``dagger_rounds`` of DAgger follow: the net plays one seat against the teacher,
   the teacher labels the net's own states, and the net is cloned again on all the samples.
2. **PPO** (:mod:`training.ppo`) from those weights, with a kickstarting loss towards the
   cloned policy that fades out, against an opponent pool led by the heuristic, until
   ``minutes`` of wall clock (both stages together) or ``frames`` learner decisions ->
   ``policy.npz``, with ``eval.csv`` (win rates against ``random`` and ``heuristic`` with Wilson
   intervals by frames and minutes: the learning curve).

Aethermon: Collect's recipe (the one ``make main`` runs) is fixed in work, with no wall-clock cap
(2,000 games of ``mcts:simulations=100``, then 300,000 PPO frames, about 9 minutes on 2 idle cores):
a slower or busier machine trains the same agent,
only more slowly (a wall-clock budget there cut the teacher's games or PPO short and gave a weaker
agent, with no word of it). The other recipes keep a wall-clock budget (``minutes``) as well.

Each stage is skipped when its output exists, and PPO resumes from ``checkpoint.pt``, so an
interrupted recipe is continued by running the same command again. ``--export`` copies the
final weights to ``agents/weights/<game>.npz`` (the ``pretrained`` agent).

The budgets below were chosen by measurement on the 2-core machine (docs/results/reference-agents.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ether_envs

from . import usage_error


@dataclass(frozen=True)
class Recipe:
    """One game's recipe (see the module docstring). ``ppo`` overrides :class:`training.ppo.PPOConfig` fields."""

    config: dict = field(default_factory=dict)
    teacher: str = "heuristic"
    bc_games: int = 3000
    bc_keep: float = 1.0
    bc_epochs: int = 8
    dagger_rounds: int = 0
    """DAgger rounds after the first cloning: the net plays one seat, the teacher labels its states."""
    dagger_games: int = 400
    hidden: str = "256,256"
    minutes: float | None = 40.0
    """Wall-clock cap of both stages together; ``None``: none, the recipe is fixed in work (frames)."""
    frames: int = 5_000_000
    select_best: bool = False
    """Ship the best of the run's snapshots and final weights on the training evaluations' deals
    (:mod:`training.select`, ``best.npz``) instead of the final weights; report results on other deals."""
    ppo: dict = field(default_factory=dict)


RECIPES: dict[str, Recipe] = {
    "aethermon_collect": Recipe(teacher="mcts:simulations=100", bc_games=2000, bc_epochs=10, frames=300_000,
                                minutes=None,
                                ppo={"kickstart": 0.5, "kickstart_frames": 300_000,
                                     "opponents": "heuristic=0.6,self=0.3,random=0.1"}),
    "ethnos": Recipe(bc_games=400, bc_keep=0.5, dagger_rounds=4, dagger_games=400, minutes=25.0, select_best=True,
                     ppo={"kickstart": 0.2, "kickstart_frames": 1_000_000, "gamma": 0.998, "score_shaping": 0.02,
                          "opponents": "heuristic=0.7,self=0.3"}),
    "etherium": Recipe(bc_games=2000, bc_keep=0.25, minutes=12.0,
                       ppo={"kickstart": 0.5, "kickstart_frames": 1_000_000, "gamma": 0.998,
                            "opponents": "heuristic=0.7,self=0.3"}),
    "ether_wars": Recipe(bc_games=2000, bc_keep=0.25, minutes=10.0,
                         ppo={"kickstart": 0.5, "kickstart_frames": 1_000_000, "gamma": 0.998,
                              "opponents": "heuristic=0.7,self=0.3"}),
    "aetherspire": Recipe(bc_games=1500, bc_keep=0.2, hidden="128,128", minutes=15.0, select_best=True,
                          ppo={"kickstart": 0.5, "kickstart_frames": 1_000_000, "gamma": 0.998,
                               "opponents": "heuristic=0.5,self=0.5"}),
}
"""Each game's recipe at its default configuration."""


def run_recipe(game: str, seed: int = 0, out_dir: str = "runs", minutes: float | None = None,
               frames: int | None = None, export: bool = False, workers: int = 2, eval_deals: int = 50,
               progress: bool = True, log=print, run_dir: str | Path | None = None,
               bc_games: int | None = None) -> Path:
    """Run (or resume) ``game``'s recipe; returns the final weight file.

    Args:
        minutes / frames: override the recipe's wall-clock and frame budgets (e.g. a short seed).
        run_dir: the run folder (default ``<out_dir>/<game>__recipe__<seed>``).
        bc_games: override the number of teacher games (e.g. a smoke test).
        export: copy the weights to ``agents/weights/<game>.npz``.
        workers: processes for the demonstrations and the PPO envs.
        eval_deals: deals per evaluation opponent during PPO (each played in every seat).

    Raises:
        ValueError: unknown game, budgets or workers out of range, or a run folder holding another
            game's or seed's run.
    """
    import numpy as np
    import torch

    from agents.base import quote_spec_value
    from agents.ppo import model_metadata
    from agents.pretrained import WEIGHTS_DIR

    from . import bc, ppo

    if game not in RECIPES:
        raise ValueError(f"no recipe for {game!r}; recipes: {', '.join(RECIPES)}")
    recipe = RECIPES[game]
    minutes = recipe.minutes if minutes is None else float(minutes)
    frames = recipe.frames if frames is None else int(frames)
    if minutes is not None and not (math.isfinite(minutes) and minutes > 0):
        raise ValueError(f"minutes must be a finite number > 0, got {minutes}")
    if frames < 1:
        raise ValueError(f"frames must be >= 1, got {frames}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if eval_deals < 1:
        raise ValueError(f"eval_deals must be >= 1, got {eval_deals}")
    g = ether_envs.load_game(game, **recipe.config)
    if bc_games is not None:
        if bc_games < 1:
            raise ValueError(f"bc_games must be >= 1, got {bc_games}")
        recipe = dataclasses.replace(recipe, bc_games=int(bc_games))
    run_dir = Path(run_dir) if run_dir is not None else Path(out_dir) / f"{game}__recipe__{seed}"
    if (run_dir / "config.json").exists():
        stored = json.loads((run_dir / "config.json").read_text())
        if stored.get("game") != game or stored.get("seed") != seed:
            raise ValueError(f"{run_dir} holds the recipe of {stored.get('game')!r} seed {stored.get('seed')}, not "
                             f"{game!r} seed {seed}: give another run folder")
    run_dir.mkdir(parents=True, exist_ok=True)
    bc_path = run_dir / "bc_policy.npz"
    times_file = run_dir / "stages.json"
    times: dict[str, Any] = json.loads(times_file.read_text()) if times_file.exists() else {}
    if not bc_path.exists():
        t0 = time.perf_counter()
        torch.manual_seed(seed)
        data = bc.demonstrations(game, recipe.config, recipe.teacher, recipe.bc_games, seed=1_000_000 * (seed + 1),
                                 keep=recipe.bc_keep, workers=workers, progress=progress)
        log(f"{game}: {len(data['action'])} decisions of {recipe.teacher} from {recipe.bc_games} games "
            f"({time.perf_counter() - t0:.0f} s)")
        net = ppo.make_net(g.observation_size(), g.num_distinct_actions(), ppo.parse_hidden(recipe.hidden))
        stats = bc.clone(net, data, epochs=recipe.bc_epochs, seed=seed, log=log)
        for r in range(recipe.dagger_rounds):
            student = ppo.net_to_policy(net, model_metadata(g)).save(run_dir / f"dagger_{r}.npz")
            more = bc.demonstrations(game, recipe.config, recipe.teacher, recipe.dagger_games,
                                     seed=1_000_000 * (seed + 1) + 100_000 * (r + 1), keep=recipe.bc_keep,
                                     workers=workers, student=f"pretrained:path={quote_spec_value(student)}",
                                     progress=progress)
            data = {k: np.concatenate([data[k], more[k]]) for k in data}
            log(f"{game}: DAgger round {r + 1}: {len(more['action'])} states of the net labelled by "
                f"{recipe.teacher}, {len(data['action'])} in all")
            stats = bc.clone(net, data, epochs=max(1, recipe.bc_epochs // 2), seed=seed + r + 1, log=log)
            student.unlink()
        del data
        times["bc_minutes"] = (time.perf_counter() - t0) / 60.0
        meta = {**model_metadata(g), "training": {"algorithm": "bc", "teacher": recipe.teacher,
                                                  "games": recipe.bc_games, **stats}}
        times_file.write_text(json.dumps(times))  # first: bc_policy.npz marks the stage done
        ppo.net_to_policy(net, meta).save(bc_path)
    cfg = ppo.PPOConfig(game=game, config=dict(recipe.config), seed=seed, total_frames=frames,
                        max_minutes=0.0 if minutes is None else max(0.1, minutes - times["bc_minutes"]), n_procs=workers,
                        hidden=recipe.hidden, init=str(bc_path), run_dir=str(run_dir), eval_deals=eval_deals,
                        eval_every=max(50_000, frames // 40), snapshot_every=100_000, checkpoint_every=100_000,
                        clock_offset=times["bc_minutes"], progress=progress,
                        resume=(run_dir / "checkpoint.pt").exists(), **recipe.ppo)
    path = ppo.train(cfg)
    if recipe.select_best:
        from .select import select

        path = select(run_dir, opponent="heuristic", deals=eval_deals, workers=workers, log=log)
    if export:
        WEIGHTS_DIR.mkdir(parents=True, exist_ok=True)
        dest = WEIGHTS_DIR / f"{game}.npz"
        shutil.copyfile(path, dest)
        log(f"weights copied to {dest} ({dest.stat().st_size / 1e6:.2f} MB)")
    return path


def build_parser(p: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = p or argparse.ArgumentParser(prog="python -m training.recipes", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=sorted(RECIPES))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out-dir", default="runs")
    p.add_argument("--minutes", type=float, default=None, help="wall-clock budget (default: the recipe's)")
    p.add_argument("--frames", type=int, default=None, help="PPO frame budget (default: the recipe's)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--eval-deals", type=int, default=50)
    p.add_argument("--export", action="store_true", help="copy the weights to agents/weights/<game>.npz")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True)
    return p


def main(argv: list[str] | None = None) -> Path:
    a = build_parser().parse_args(argv)
    path = run_recipe(a.game, a.seed, a.out_dir, a.minutes, a.frames, a.export, a.workers, a.eval_deals, a.progress)
    print(f"weights: {path}")
    return path


if __name__ == "__main__":
    try:
        main()
    except (ValueError, OSError) as e:  # bad input: argparse's usage and one error line, not a traceback
        usage_error(build_parser(), e)
