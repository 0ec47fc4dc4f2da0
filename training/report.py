"""The benchmark's published tables, written from the committed result files.

    python -m training.report                     # print every table (docs/benchmark.md's are pasted from it)
    python -m training.report --out notebooks/reference_results/benchmark/TABLES.md

* the anchored ladders (``training/ladders/*.json``, from ``ether-envs ladder``);
* the reference rows (``notebooks/reference_results/benchmark/*.json``, from ``ether-envs
  reference ALGO GAME``), one table per benchmark configuration;
* approximate exploitability (``notebooks/reference_results/exploit/*.json``, from ``ether-envs
  exploit GAME SPEC``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import protocol
from .ladder import LADDER_DIR

ROOT = Path(__file__).resolve().parent.parent
ROWS_DIR = ROOT / "notebooks" / "reference_results" / "benchmark"
EXPLOIT_DIR = ROOT / "notebooks" / "reference_results" / "exploit"
ALGO_ORDER = ("ppo", "maskable_ppo", "dqn")


def ladders_table(ladder_dir: Path = LADDER_DIR, game: str | None = None) -> str:
    """One line per benchmark configuration (of ``game`` only, if given): each anchor's rating (or
    team win rate) and the minutes the ladder took."""
    lines = ["| benchmark | players | random | heuristic | pretrained (zoo 1) | search anchor | minutes |",
             "|---|---|---|---|---|---|---|"]
    for bench in protocol.CONFIGS.values():
        if game is not None and bench.game != game:
            continue
        path = ladder_dir / bench.ladder_file
        if not path.exists():
            continue
        rec = json.loads(path.read_text())
        cells = []
        for a in rec["anchors"]:
            if rec["cooperative"]:
                lo, hi = a["interval"]
                cells.append(f"{a['win_rate']:.0%} team [{lo:.0%}, {hi:.0%}]")
            else:
                cells.append(f"{a['rating']:.0f}")
        search = rec["anchors"][-1]["spec"]
        cells[-1] = f"`{search}`: {cells[-1]}"
        lines.append(f"| `{rec['benchmark']}` | {rec['players']} | " + " | ".join(cells) + f" | {rec['seconds'] / 60:.1f} |")
    return "\n".join(lines)


def rows_tables(rows_dir: Path = ROWS_DIR, game: str | None = None) -> str:
    """The reference rows, one Markdown table per benchmark configuration (of ``game`` only, if
    given), algorithms in :data:`ALGO_ORDER`."""
    rows = [json.loads(p.read_text()) for p in sorted(rows_dir.glob("*.json"))]
    out = []
    for bench in protocol.CONFIGS.values():
        if game is not None and bench.game != game:
            continue
        mine = [r for r in rows if r["benchmark"] == bench.benchmark_id]
        if not mine:
            continue
        mine.sort(key=lambda r: next((i for i, a in enumerate(ALGO_ORDER) if r["agent"].startswith(a + " ")), 99))
        out += [protocol.markdown_header(bench), *(protocol.markdown_row(r) for r in mine), ""]
    return "\n".join(out)


def cost_table(rows_dir: Path = ROWS_DIR) -> str:
    """Per row: the wall-clock minutes of training (summed over its runs, from the row's
    ``training`` records) and of the protocol's evaluation (the row's ``seconds``)."""
    lines = ["| benchmark | agent | training minutes (all seeds) | evaluation minutes |", "|---|---|---|---|"]
    for p in sorted(rows_dir.glob("*.json")):
        row = json.loads(p.read_text())
        train = sum(float(t.get("minutes", 0.0)) for t in row.get("training", []))
        train_cell = f"{train:.1f}" if row.get("training") else "-"
        lines.append(f"| `{row['benchmark']}` | {row['agent']} | {train_cell} | {row['seconds'] / 60:.1f} |")
    return "\n".join(lines)


def exploit_table(exploit_dir: Path = EXPLOIT_DIR, game: str | None = None) -> str:
    """Approximate exploitability: every committed ``ether-envs exploit`` result (of ``game``
    only, if given; the header alone if there is none)."""
    from .exploit import markdown_header, markdown_row

    results = [json.loads(p.read_text()) for p in sorted(exploit_dir.glob("*.json"))]
    results = [r for r in results if game is None or r["game"] == game]
    return "\n".join([markdown_header(), *(markdown_row(r) for r in results)])


def report() -> str:
    return "\n\n".join(["## Anchored ladders", ladders_table(), "## Reference rows", rows_tables(),
                        "## Cost of the reference rows", cost_table(), "## Approximate exploitability",
                        exploit_table()]) + "\n"


def main(argv: list[str] | None = None) -> str:
    p = argparse.ArgumentParser(prog="python -m training.report", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=None, help="also write the tables to this Markdown file")
    args = p.parse_args(argv)
    text = report()
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return text


if __name__ == "__main__":
    main()
