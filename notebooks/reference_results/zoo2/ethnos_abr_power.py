"""What a decisive run of the Ethnos best-response search would take (twenty-first session, 2026-12-07).

    python notebooks/reference_results/zoo2/ethnos_abr_power.py             # about a second

The rule both runs of ``ethnos_abr.py`` were judged by asks, at 3 and at 4 players, that the Wilson
95% interval of the search's win rate against zoo 2 lie wholly below its interval against zoo 1
(and the whole-deal bootstrap intervals too). This leaves the deal intervals out: in the four
verdicts so far they were never the ones that kept a pass away (twice they lay apart where the
Wilson intervals did not), so the chance computed here is that of the Wilson half of the rule,
an upper bound on the whole rule's. This script estimates, for a new
run judged alone with ``n`` games a cell, the chance that the Wilson intervals part, by Monte Carlo:
each cell's wins are binomial draws at an assumed true win rate (``numpy.random.default_rng(0)``,
20,000 runs a size), and each draw is judged with ``training.evaluate.wilson_interval``, the
function the verdict uses. Its last table, added after the decisive run's verdict, applies the same
Monte Carlo at that run's own rates: what its gaps would need, in hindsight.

The assumed rates are the committed games' own: both runs pooled (the planning values) and the
replication alone (the less favourable). The cost of a cell is its games times the seconds a game
took in the replication (``pairings[0].seconds / games`` in each committed ``results.json``, one
game at a time on one core of the 2-core machine), so "core-minutes" are minutes of one core.
"""
import json
import math
from pathlib import Path

import numpy as np

from training.evaluate import wilson_interval

HERE = Path(__file__).parent / "ethnos_abr"
RUNS = {"pooled": [HERE, HERE / "replication"], "replication": [HERE / "replication"],
        "decisive": [HERE / "decisive"]}
SIZES = [400, 800, 1200, 1600, 2000, 2400, 2800, 3200, 4000]
HINDSIGHT_SIZES = SIZES + [4800, 6000]
"""Sizes for the last table, at the decisive run's own rates (hindsight, after its verdict)."""
DRAWS = 20_000


def cell_record(folder: Path) -> tuple[float, int, float]:
    """(credit, games, seconds) of one committed cell."""
    pairing = json.loads((folder / "results.json").read_text())["pairings"][0]
    return float(pairing["credit"]), int(pairing["games"]), float(pairing["seconds"])


def rate(players: int, zoo: str, run: str) -> float:
    records = [cell_record(folder / f"{players}p_{zoo}") for folder in RUNS[run]]
    return sum(c for c, _, _ in records) / sum(g for _, g, _ in records)


def seconds_per_game(players: int) -> float:
    records = [cell_record(HERE / "replication" / f"{players}p_{zoo}") for zoo in ("zoo1", "zoo2")]
    return sum(s for _, _, s in records) / sum(g for _, g, _ in records)


def power(p_one: float, p_two: float, n: int, rng: np.random.Generator) -> float:
    """The chance that zoo 2's Wilson interval lies wholly below zoo 1's, ``n`` games a cell."""
    bounds = np.array([wilson_interval(k, n) for k in range(n + 1)])  # (n + 1, 2): low, high for k wins
    wins_one = rng.binomial(n, p_one, DRAWS)
    wins_two = rng.binomial(n, p_two, DRAWS)
    return float(np.mean(bounds[wins_two, 1] < bounds[wins_one, 0]))


RUN_SIZES = {"the first run": {4: 400, 3: 402}, "the replication": {4: 480, 3: 1080},
             "the decisive run": {4: 2000, 3: 2400}}
"""Games a cell of each run of ``ethnos_abr.py`` (the decisive run's fixed in docs/results/zoo2.md)."""


def main() -> None:
    rng = np.random.default_rng(0)
    print("| players | assumed rates (zoo 1, zoo 2) | " + " | ".join(f"n={n}" for n in SIZES) + " |")
    print("|---|---|" + "---|" * len(SIZES))
    needed = {}
    for players in (4, 3):
        for run in ("pooled", "replication"):
            p_one, p_two = rate(players, "zoo1", run), rate(players, "zoo2", run)
            row = [power(p_one, p_two, n, rng) for n in SIZES]
            print(f"| {players} | {run}: {p_one:.1%}, {p_two:.1%} | " + " | ".join(f"{x:.2f}" for x in row) + " |")
            needed[players, run] = {goal: next((n for n, x in zip(SIZES, row) if x >= goal), None)
                                    for goal in (0.8, 0.9)}
    print()
    for players in (4, 3):
        sec = seconds_per_game(players)
        print(f"{players} players: {sec:.2f} s a game of one core (the replication's)")
        for run in ("pooled", "replication"):
            for goal, n in needed[players, run].items():
                if n is None:
                    print(f"  - {run} rates, chance {goal}: more than {SIZES[-1]} games a cell")
                    continue
                minutes = 2 * n * sec / 60
                print(f"  - {run} rates, chance {goal}: by {n} games a cell (the smallest listed size that "
                      f"reaches it), {minutes:.0f} core-minutes for both cells, "
                      f"{math.ceil(minutes / 2)} minutes on 2 cores")
    print()
    print("Each run's chance of a pass, at 4 players, at 3, and at both (the two counts' draws independent):")
    for label, sizes in RUN_SIZES.items():
        for run in ("pooled", "replication"):
            chance = {players: power(rate(players, "zoo1", run), rate(players, "zoo2", run), sizes[players], rng)
                      for players in (4, 3)}
            cost = sum(2 * sizes[players] * seconds_per_game(players) for players in (4, 3)) / 60
            print(f"- {label} ({sizes[4]} and {sizes[3]} games a cell), {run} rates: {chance[4]:.2f}, "
                  f"{chance[3]:.2f}, {chance[4] * chance[3]:.2f}; {cost:.0f} core-minutes")
    print()
    print("Hindsight, at the decisive run's own rates (read after its verdict; not a plan for any run):")
    print("| players | the decisive run's rates (zoo 1, zoo 2) | "
          + " | ".join(f"n={n}" for n in HINDSIGHT_SIZES) + " |")
    print("|---|---|" + "---|" * len(HINDSIGHT_SIZES))
    for players in (4, 3):
        p_one, p_two = rate(players, "zoo1", "decisive"), rate(players, "zoo2", "decisive")
        row = [power(p_one, p_two, n, rng) for n in HINDSIGHT_SIZES]
        print(f"| {players} | {p_one:.1%}, {p_two:.1%} | " + " | ".join(f"{x:.2f}" for x in row) + " |")


if __name__ == "__main__":
    main()
