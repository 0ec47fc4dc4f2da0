"""Learning curves of expert iteration: the net alone and net + search, by iteration, for every seed.

    python -m training.exit_curves runs/exit/aethermon_collect__exit__* --out notebooks/curves/exit

Reads each run folder's ``eval.csv`` and ``config.json`` (written by :mod:`training.exit`) and
writes, per game, ``<out>/exit_<game>.csv`` (``game, seed, iteration, samples, minutes, agent,
opponent, win_rate, low, high, games``; ``low``/``high`` the Wilson 95% interval) and
``<out>/exit_<game>.png``: one panel per evaluation opponent, win rate with its band against the
iteration (0 = the starting net), the net alone solid and net + search (``az``) dashed, one colour
per seed, and the fair share dotted (competitive games).
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import defaultdict
from pathlib import Path

import ether_envs

from .curves import save_figure, write_csv

FIELDS = ("game", "seed", "iteration", "samples", "minutes", "agent", "opponent", "win_rate", "low", "high", "games")


def read_run(run_dir: str | Path) -> list[dict]:
    """The curve rows of one expert-iteration run folder.

    Raises:
        FileNotFoundError: no ``eval.csv`` or ``config.json`` in the folder.
    """
    run_dir = Path(run_dir)
    cfg = json.loads((run_dir / "config.json").read_text())
    with open(run_dir / "eval.csv") as f:
        return [{"game": cfg["game"], "seed": cfg["seed"], "iteration": int(r["iteration"]),
                 "samples": int(r["samples"]), "minutes": float(r["minutes"]), "agent": r["agent"],
                 "opponent": r["opponent"], "win_rate": float(r["win_rate"]), "low": float(r["win_low"]),
                 "high": float(r["win_high"]), "games": int(r["games"])} for r in csv.DictReader(f)]


def plot(rows: list[dict], path: str | Path):
    """Save the figure of one game's rows to ``path``; returns the path."""
    import matplotlib.pyplot as plt

    game = rows[0]["game"]
    g = ether_envs.load_game(game)
    coop = g.utility() == "identical"
    opponents = list(dict.fromkeys(r["opponent"] for r in rows))
    fig, axes = plt.subplots(1, len(opponents), figsize=(5.5 * len(opponents), 4), sharey=True, squeeze=False)
    colors = ["tab:blue", "tab:orange", "tab:green", "tab:red"]
    lines = defaultdict(list)
    for r in rows:
        lines[(r["opponent"], r["agent"], r["seed"])].append(r)
    for (opp, agent, seed), rs in sorted(lines.items()):
        ax = axes[0][opponents.index(opp)]
        rs.sort(key=lambda r: r["iteration"])
        xs = [r["iteration"] for r in rs]
        style = {"net": "-", "net+search": "--"}.get(agent, ":")
        color = colors[seed % len(colors)] if agent in ("net", "net+search") else "black"
        ax.plot(xs, [r["win_rate"] for r in rs], style, marker="o", ms=3, color=color, label=f"{agent}, seed {seed}")
        ax.fill_between(xs, [r["low"] for r in rs], [r["high"] for r in rs], color=color, alpha=0.08)
    for ax, opp in zip(axes[0], opponents):
        if not coop:
            ax.axhline(1.0 / g.num_players, color="black", linestyle=":", linewidth=1)
        ax.set_title("team win rate" if opp == "team" else f"vs {opp}")
        ax.set_xlabel("expert-iteration iteration (0 = starting net)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    axes[0][0].set_ylabel("win rate (Wilson 95% band)")
    axes[0][0].set_ylim(0, 1)
    fig.suptitle(f"{game}: expert iteration, net alone (solid) and net + search (dashed), validation deals")
    fig.tight_layout()
    return save_figure(fig, path)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m training.exit_curves", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", help="expert-iteration run folders")
    p.add_argument("--out", default="notebooks/curves/exit", help="output folder (default notebooks/curves/exit)")
    a = p.parse_args(argv)
    import matplotlib

    matplotlib.use("Agg")
    by_game: dict[str, list[dict]] = defaultdict(list)
    for run in a.runs:
        try:
            rows = read_run(run)
        except FileNotFoundError as e:
            p.error(f"{run}: not an expert-iteration run folder ({e.filename} missing)")
        for r in rows:
            by_game[r["game"]].append(r)
    for game, rows in by_game.items():
        csv_path = write_csv(rows, Path(a.out) / f"exit_{game}.csv", FIELDS)
        png = plot(rows, Path(a.out) / f"exit_{game}.png")
        print(f"written {csv_path} and {png}")


if __name__ == "__main__":
    main()
