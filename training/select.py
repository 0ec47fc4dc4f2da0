"""Pick, among a run's snapshots and final weights, the one with the best validation win rate.

    python -m training.select runs/ethnos__recipe__0 --opponent heuristic --deals 50

Every candidate (``snapshots/*.npz``, ``policy.npz``) plays ``--opponent`` on the training
evaluation's deals (seed ``seed + 10_000`` of the run's ``config.json``, as
:mod:`training.ppo` evaluates; in a co-operative game the candidate plays every seat and its
team win rate counts), and the best (the latest of equals) is copied to ``best.npz`` with the
choice written into its metadata. The recipes with ``select_best`` call it after training. Report results on other deals (``ether-envs evaluate ... --seed 1``): the
chosen weights' validation score is biased upwards by the choice.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import ether_envs

from . import usage_error


def select(run_dir: str | Path, opponent: str = "heuristic", deals: int = 50, workers: int = 2, log=print) -> Path:
    """Evaluate every candidate of ``run_dir`` and write ``best.npz``; returns its path.

    Raises:
        FileNotFoundError: no ``config.json`` or no candidate weights in ``run_dir``.
    """
    from agents.pretrained import MLPPolicy, PretrainedAgent

    from .evaluate import run_tournament

    run_dir = Path(run_dir)
    cfg = json.loads((run_dir / "config.json").read_text())
    candidates = sorted((run_dir / "snapshots").glob("*.npz")) + [p for p in [run_dir / "policy.npz"] if p.exists()]
    if not candidates:
        raise FileNotFoundError(f"no weights in {run_dir}")
    from .baselines import is_cooperative, team_result

    game = ether_envs.load_game(cfg["game"], **cfg["config"])
    candidates.sort(key=lambda p: int(p.stem.split("_")[-1]) if p.stem.startswith("frames_") else 1 << 62)
    seed = cfg["seed"] + 10_000
    scores = []
    for path in candidates:
        agent = PretrainedAgent(game, path=str(path))
        if is_cooperative(game):
            games, rate, low, high = team_result(cfg["game"], "candidate", cfg["config"], deals, seed, agent=agent,
                                                 workers=workers)
            what = "team win rate"
        else:
            r = run_tournament(cfg["game"], ["candidate", opponent], cfg["config"], deals=deals, seed=seed,
                               focal=True, progress=False, agents={"candidate": agent}, workers=workers).pairings[0]
            games, rate, low, high, what = r.games, r.win_rate, r.win_low, r.win_high, f"vs {opponent}"
        scores.append((rate, path))
        log(f"{path.name}: {rate:.1%} [{low:.1%}, {high:.1%}] {what} ({games} games)")
    rate, best = max(reversed(scores), key=lambda x: x[0])
    policy = MLPPolicy.load(best)
    policy.metadata.setdefault("training", {})["selected_on"] = (
        f"win rate {rate:.4f} ({'team' if is_cooperative(game) else 'vs ' + opponent}), {deals} deals, seed {seed}, "
        f"best of {len(candidates)} "
        f"({best.name})")
    out = policy.save(run_dir / "best.npz")
    log(f"best: {best.name} -> {out}")
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m training.select", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run_dir")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--deals", type=int, default=50)
    p.add_argument("--workers", type=int, default=2)
    a = p.parse_args(argv)
    try:
        select(a.run_dir, a.opponent, a.deals, a.workers)
    except (ValueError, FileNotFoundError) as e:
        usage_error(p, e)


if __name__ == "__main__":
    main()
