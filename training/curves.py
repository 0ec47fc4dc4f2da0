"""Learning curves of the recipes: win rate against each evaluation opponent over training.

    python -m training.curves runs/aethermon_collect__recipe__0 runs/aethermon_collect__recipe__1 \\
        --out notebooks/curves

Reads each run folder's ``eval.csv`` (written by :mod:`training.ppo` during a recipe) and
``config.json``, and writes, per game, ``<out>/<game>.csv`` (one row per run, evaluation and
opponent: ``game, seed, frames, minutes, opponent, win_rate, low, high, games``; ``low``/``high``
the Wilson 95% interval) and ``<out>/<game>.png`` (win rate with its interval against PPO
frames and against wall-clock minutes, one line per seed and opponent, and the fair share
``1/num_players`` as a dashed line). Frame 0 is the behaviour-cloned net; its minutes are the
time spent on demonstrations and cloning.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import defaultdict
from pathlib import Path

import ether_envs

FIELDS = ("game", "seed", "frames", "minutes", "opponent", "win_rate", "low", "high", "games")


def read_run(run_dir: str | Path) -> list[dict]:
    """The curve rows of one run folder.

    Raises:
        FileNotFoundError: no ``eval.csv`` or ``config.json`` in the folder.
    """
    run_dir = Path(run_dir)
    cfg = json.loads((run_dir / "config.json").read_text())
    rows = []
    with open(run_dir / "eval.csv") as f:
        for r in csv.DictReader(f):
            for key in r:
                if key.startswith("win_rate_vs_"):
                    opp = key[len("win_rate_vs_"):]
                    rows.append({"game": cfg["game"], "seed": cfg["seed"], "frames": int(r["frames"]),
                                 "minutes": float(r["minutes"]), "opponent": opp, "win_rate": float(r[key]),
                                 "low": float(r[f"low_vs_{opp}"]), "high": float(r[f"high_vs_{opp}"]),
                                 "games": int(r[f"games_vs_{opp}"])})
    return rows


def write_csv(rows: list[dict], path: str | Path, fields: tuple[str, ...] = FIELDS) -> Path:
    """Write ``rows`` (columns ``fields``) to ``path``, creating its folder; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    return path


def save_figure(fig, path: str | Path) -> Path:
    """Save a matplotlib figure to ``path`` (90 dpi, creating its folder), close it; returns the path."""
    import matplotlib.pyplot as plt

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def read_csv(path: str | Path) -> list[dict]:
    with open(path) as f:
        return [{**r, "seed": int(r["seed"]), "frames": int(r["frames"]), "minutes": float(r["minutes"]),
                 "win_rate": float(r["win_rate"]), "low": float(r["low"]), "high": float(r["high"]),
                 "games": int(r["games"])} for r in csv.DictReader(f)]


def plot(rows: list[dict], path: str | Path | None = None):
    """Two panels (x = PPO frames, x = wall-clock minutes) for the rows of one game; saved to
    ``path`` (returns the path) or, without a path, returned as a matplotlib figure."""
    import matplotlib.pyplot as plt

    game = rows[0]["game"]
    n = ether_envs.load_game(game).num_players
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    lines = defaultdict(list)
    for r in rows:
        lines[(r["opponent"], r["seed"])].append(r)
    colors = {"random": "tab:gray", "heuristic": "tab:blue", "learner_team": "tab:red", "random_team": "tab:gray",
              "heuristic_team": "tab:blue"}
    for (opp, seed), rs in sorted(lines.items()):
        rs.sort(key=lambda r: r["frames"])
        for ax, x in zip(axes, ("frames", "minutes")):
            xs = [r[x] for r in rs]
            ax.plot(xs, [r["win_rate"] for r in rs], marker="o", ms=3, color=colors.get(opp),
                    alpha=1.0 if seed == 0 else 0.6, linestyle="-" if seed == 0 else "--",
                    label=f"{opp.replace('_', ' ')}, seed {seed}" if opp.endswith("_team") else f"vs {opp}, seed {seed}")
            ax.fill_between(xs, [r["low"] for r in rs], [r["high"] for r in rs], color=colors.get(opp), alpha=0.12)
    from .baselines import is_cooperative

    coop = is_cooperative(ether_envs.load_game(game))
    for ax, label in zip(axes, ("PPO frames (learner decisions)", "wall-clock minutes (2 cores, incl. cloning)")):
        if not coop:
            ax.axhline(1.0 / n, color="black", linestyle=":", linewidth=1, label=f"fair share 1/{n}")
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("team win rate (Wilson 95% band)" if coop else "win rate (Wilson 95% band)")
    axes[0].set_ylim(0, 1)
    handles, labels = axes[0].get_legend_handles_labels()
    axes[1].legend(handles, labels, fontsize=7, loc="lower right")
    fig.suptitle(f"{game}: recipe learning curves (frame 0 = behaviour-cloned net)")
    fig.tight_layout()
    if path is None:
        return fig
    return save_figure(fig, path)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m training.curves", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", help="recipe run folders")
    p.add_argument("--out", default="notebooks/curves", help="output folder (default notebooks/curves)")
    a = p.parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")
    by_game: dict[str, list[dict]] = defaultdict(list)
    for run in a.runs:
        for r in read_run(run):
            by_game[r["game"]].append(r)
    for game, rows in by_game.items():
        csv_path = write_csv(rows, Path(a.out) / f"{game}.csv")
        png = plot(rows, Path(a.out) / f"{game}.png")
        print(f"written {csv_path} and {png}")


if __name__ == "__main__":
    main()
