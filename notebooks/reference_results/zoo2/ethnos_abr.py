"""Ethnos: a best-response search against each zoo's net (nineteenth session, 2026-12-07).

    python notebooks/reference_results/zoo2/ethnos_abr.py --play 4 zoo1   # one cell: 400 games, ~44 min of a core
    python notebooks/reference_results/zoo2/ethnos_abr.py                 # the table and the verdict
    python notebooks/reference_results/zoo2/ethnos_abr.py --replication --play 4 zoo1   # ~50 min of a core
    python notebooks/reference_results/zoo2/ethnos_abr.py --replication   # the replication's table and verdict

The searcher is ``az:simulations=32,opponent_zoo=N``: PUCT over determinizations with the zoo-2
net's priors and values (``az``'s default net), where every other seat is known to play zoo
``N``'s net greedily, as ``pretrained`` does (agents/az.py, "A known opponent"). It sits in one
seat against copies of that net in the others, once in every seat of each of the protocol's
held-out deals: 100 deals (400 games) at 4 players, 134 (402) at 3. The searcher is the same for
both targets (its net and budget; ``evaluate`` seeds agents from the matchup's specs, which
differ, on the same deals); only the net it answers differs.

``--play P zooN`` runs one cell with ``ether-envs evaluate`` (``python -m training.evaluate``)
into ``runs/abr/ethnos_<P>p_zooN``. Without it the script reads each cell's ``games.csv`` (from
``--runs`` if given, else the copies committed beside this script, ``ethnos_abr/<P>p_zooN/``) and
prints, per cell, the win rate with its Wilson 95% interval (as ``ether-envs evaluate`` reports
it) and a percentile bootstrap 95% interval over whole deals (``scipy.stats.bootstrap``, 10,000 resamples, seed 0: a deal's games
share its cards, so they are not independent); then the rule fixed in advance: zoo 2 is the
sturdier at a player count only if both kinds of interval lie apart, zoo 2's below. Last, not
part of that rule (chosen after the results were seen): the gap between the two cells paired on
the same deals, with its percentile bootstrap 95% interval over deals.

``--replication`` (twentieth session, fixed before any of its games in docs/results/zoo2.md, "A
best-response search (Ethnos)") is the same measurement on held-out deals never played before:
game seeds ``2**63 + 100000 + i`` (``--seed``), 120 deals at 4 players (480 games a cell) and 360
at 3 (1,080), judged by the same rule on its games alone. Its ``--play`` runs the cell in 6 shards
(``--shard I/6``: the same games as one run) into ``runs/abr_rep/ethnos_<P>p_zooN/shard_I``,
skipping the shards already played, so an interrupted cell resumes; then it pools them with
``ether-envs merge`` (``python -m training.cli merge``) into ``runs/abr_rep/ethnos_<P>p_zooN``.
The committed copies are in ``ethnos_abr/replication/`` (each cell's ``results.json``,
``summary.csv`` and ``games.csv``). Its table adds, not part of the rule, both runs pooled.
"""
import argparse
import csv
import subprocess
import sys
from pathlib import Path

import numpy as np
from scipy.stats import bootstrap

from training.evaluate import wilson_interval
from training.protocol import HELD_OUT_BASE

HERE = Path(__file__).parent
TARGET = {"zoo1": "pretrained:zoo=1", "zoo2": "pretrained"}
SIMULATIONS = 32
FIRST = {"deals": {4: 100, 3: 134}, "seed": HELD_OUT_BASE, "shards": 1, "runs": "runs/abr",
         "committed": HERE / "ethnos_abr"}
REPLICATION = {"deals": {4: 120, 3: 360}, "seed": HELD_OUT_BASE + 100_000, "shards": 6, "runs": "runs/abr_rep",
               "committed": HERE / "ethnos_abr" / "replication"}

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--play", nargs=2, metavar=("PLAYERS", "ZOO"), help="run one cell, e.g. --play 4 zoo1")
parser.add_argument("--replication", action="store_true",
                    help="the twentieth session's replication on fresh deals (seeds 2**63 + 100000 + i)")
parser.add_argument("--runs", type=Path, default=None,
                    help="read the cells from RUNS/ethnos_<P>p_zooN/ (default: the committed copies)")
args = parser.parse_args()
RUN = REPLICATION if args.replication else FIRST
DEALS = RUN["deals"]


def searcher(zoo: str) -> str:
    return f"az:simulations={SIMULATIONS},opponent_zoo={zoo[-1]}"


if args.play:
    if args.runs:
        parser.error("--runs is where the table reads cells from; --play always writes to runs/abr or runs/abr_rep")
    if args.play[0] not in ("3", "4") or args.play[1] not in TARGET:
        parser.error(f"--play takes 3 or 4 and zoo1 or zoo2, got {args.play}")
    players, zoo = int(args.play[0]), args.play[1]
    out = f"{RUN['runs']}/ethnos_{players}p_{zoo}"
    cmd = [sys.executable, "-m", "training.evaluate", "ethnos", searcher(zoo), TARGET[zoo], "--config",
           f"num_players={players}", "--deals", str(DEALS[players]), "--focal", "--workers", "1"]
    if RUN["shards"] == 1:
        cmd += ["--out", out]
        print(" ".join(cmd), flush=True)
        sys.exit(subprocess.call(cmd))
    shards = [f"{out}/shard_{i}" for i in range(1, RUN["shards"] + 1)]
    for i, shard in enumerate(shards, start=1):
        if (Path(shard) / "results.json").exists():  # written once a shard's games are all played; merge reads it
            print(f"shard {i}/{RUN['shards']}: already played ({shard})", flush=True)
            continue
        shard_cmd = cmd + ["--seed", str(RUN["seed"]), "--shard", f"{i}/{RUN['shards']}", "--out", shard]
        print(" ".join(shard_cmd), flush=True)
        if subprocess.call(shard_cmd):
            sys.exit(f"shard {i} failed; run the same command again to resume")
    merge = [sys.executable, "-m", "training.cli", "merge", *shards, "--out", out]
    print(" ".join(merge), flush=True)
    sys.exit(subprocess.call(merge))


def cell(players: int, zoo: str, run: dict = RUN) -> dict:
    folder = (args.runs / f"ethnos_{players}p_{zoo}") if args.runs and run is RUN else \
        run["committed"] / f"{players}p_{zoo}"
    deals_expected = run["deals"][players]
    if not (folder / "games.csv").exists():
        raise SystemExit(f"{folder}/games.csv: not played yet (run this script with --play {players} {zoo}"
                         f"{' --replication' if run is REPLICATION else ''})")
    with open(folder / "games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    credit = np.array([float(r["credit"]) for r in rows])
    deal = np.array([int(r["deal"]) for r in rows])
    if any(int(r["game_seed"]) != run["seed"] + int(r["deal"]) for r in rows):
        raise SystemExit(f"{folder}: games not on this run's deals (game seed {run['seed']} + deal)")
    deals = np.unique(deal)
    if len(rows) != players * deals_expected or len(deals) != deals_expected:
        raise SystemExit(f"{folder}: {len(rows)} games on {len(deals)} deals, expected "
                         f"{players * deals_expected} on {deals_expected}")
    by_deal = np.array([credit[deal == d].mean() for d in deals])  # every deal has `players` games, deals 0..n-1
    return summarize(credit, by_deal)


def summarize(credit: np.ndarray, by_deal: np.ndarray) -> dict:
    boot = bootstrap((by_deal,), np.mean, n_resamples=10_000, method="percentile", random_state=0)
    lo, hi = wilson_interval(credit.sum(), len(credit))
    return {"rate": credit.mean(), "wilson": (lo, hi), "games": len(credit), "by_deal": by_deal, "credit": credit,
            "deals": (boot.confidence_interval.low, boot.confidence_interval.high)}


def fmt(c: dict) -> str:
    (lo, hi), (dlo, dhi) = c["wilson"], c["deals"]
    return f"{c['rate']:.1%} [{lo:.1%}, {hi:.1%}] ({c['games']} games); by whole deals [{dlo:.1%}, {dhi:.1%}]"


verdicts = {}
for players in (4, 3):
    print(f"## Ethnos, {players} players (fair share {1 / players:.1%}), {searcher('zooN')}")
    cells = {zoo: cell(players, zoo) for zoo in TARGET}
    for zoo, c in cells.items():
        print(f"- against {zoo} ({TARGET[zoo]}): {fmt(c)}")
    one, two = cells["zoo1"], cells["zoo2"]
    apart = two["wilson"][1] < one["wilson"][0] and two["deals"][1] < one["deals"][0]
    verdicts[players] = apart
    print(f"- zoo 2 sturdier by the rule fixed in advance: {'yes' if apart else 'no'}")
    gap = one["by_deal"] - two["by_deal"]
    ci = bootstrap((gap,), np.mean, n_resamples=10_000, method="percentile", random_state=0).confidence_interval
    print(f"- not part of the rule: zoo 1's cell minus zoo 2's, paired on the same deals: "
          f"{gap.mean():+.1%} [{ci.low:+.1%}, {ci.high:+.1%}]")
    if args.replication:
        print("- not part of the rule: both runs pooled (the first run's deals and these; each deal once):")
        for zoo, c in cells.items():
            first = cell(players, zoo, FIRST)
            pooled = summarize(np.concatenate([first["credit"], c["credit"]]),
                               np.concatenate([first["by_deal"], c["by_deal"]]))
            print(f"  - against {zoo}: {fmt(pooled)}")
    print()
print("Ethnos target (3 and 4 players):", "met" if all(verdicts.values()) else "not met")
