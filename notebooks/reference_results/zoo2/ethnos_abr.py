"""Ethnos: a best-response search against each zoo's net (nineteenth session, 2026-12-07).

    python notebooks/reference_results/zoo2/ethnos_abr.py --play 4 zoo1   # one cell: 400 games, ~44 min of a core
    python notebooks/reference_results/zoo2/ethnos_abr.py                 # the table and the verdict
    python notebooks/reference_results/zoo2/ethnos_abr.py --replication --play 4 zoo1   # ~50 min of a core
    python notebooks/reference_results/zoo2/ethnos_abr.py --replication   # the replication's table and verdict
    python notebooks/reference_results/zoo2/ethnos_abr.py --decisive --play 3 zoo1   # 40 shards, ~114 min of a core
    python notebooks/reference_results/zoo2/ethnos_abr.py --decisive --status   # shards played, no win rates

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

``--decisive`` (twenty-first session, fixed before any of its games in docs/results/zoo2.md, "A
decisive run, sized for power") is the same measurement sized for power: game seeds ``2**63 +
200000 + i``, 500 deals at 4 players (2,000 games a cell) and 800 at 3 (2,400), in shards of 20
deals (25 and 40 a cell) under ``runs/abr_dec/``, played over several sessions. Each finished
shard's ``games.csv``, ``results.json`` and ``summary.csv`` are copied into
``ethnos_abr/decisive/<P>p_zooN/shards/shard_I/``, and a shard found there is not played again
(it is copied back for the merge), so a new checkout resumes after the last committed shard; the
merged cell is copied to ``ethnos_abr/decisive/<P>p_zooN/``; each shard's and the merge's tables go
to ``.log`` files in the run folder, not the console. ``--decisive --status`` counts the committed
shards without reading any result; the table mode prints nothing until every cell of the run is
complete, then adds, not part of the rule, all three runs pooled.
"""
import argparse
import csv
import shutil
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
FIRST = {"deals": {4: 100, 3: 134}, "seed": HELD_OUT_BASE, "shards": {4: 1, 3: 1}, "runs": "runs/abr",
         "committed": HERE / "ethnos_abr"}
REPLICATION = {"deals": {4: 120, 3: 360}, "seed": HELD_OUT_BASE + 100_000, "shards": {4: 6, 3: 6},
               "runs": "runs/abr_rep", "committed": HERE / "ethnos_abr" / "replication"}
DECISIVE = {"deals": {4: 500, 3: 800}, "seed": HELD_OUT_BASE + 200_000, "shards": {4: 25, 3: 40},
            "runs": "runs/abr_dec", "committed": HERE / "ethnos_abr" / "decisive"}
"""The twenty-first session's run, sized for power (docs/results/zoo2.md, "A decisive run"): 20 deals
a shard; each finished shard's files are also copied into ``committed/<P>p_zooN/shards/`` so that
a new checkout resumes where the last one stopped."""
SHARD_FILES = ("games.csv", "results.json", "summary.csv")  # not results.png: the merged cell has one

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--play", nargs=2, metavar=("PLAYERS", "ZOO"), help="run one cell, e.g. --play 4 zoo1")
which = parser.add_mutually_exclusive_group()
which.add_argument("--replication", action="store_true",
                   help="the twentieth session's replication on fresh deals (seeds 2**63 + 100000 + i)")
which.add_argument("--decisive", action="store_true",
                   help="the twenty-first session's run sized for power (seeds 2**63 + 200000 + i)")
parser.add_argument("--status", action="store_true",
                    help="with --decisive: how many shards of each cell are played (no win rates)")
parser.add_argument("--runs", type=Path, default=None,
                    help="read the cells from RUNS/ethnos_<P>p_zooN/ (default: the committed copies)")
args = parser.parse_args()
RUN = DECISIVE if args.decisive else REPLICATION if args.replication else FIRST
DEALS = RUN["deals"]
if args.status and not args.decisive:
    parser.error("--status is for --decisive (the other runs are complete)")


def searcher(zoo: str) -> str:
    return f"az:simulations={SIMULATIONS},opponent_zoo={zoo[-1]}"


def copy_files(source: Path, target: Path) -> None:
    """Copy a cell's or shard's :data:`SHARD_FILES` from ``source`` into ``target`` (made if missing)."""
    target.mkdir(parents=True, exist_ok=True)
    for name in SHARD_FILES:
        shutil.copy2(source / name, target / name)


def shard_done(run_shard: Path, kept: Path | None) -> bool:
    """Whether a shard is played: its ``results.json`` (written once all its games are) in the run
    folder, or in the committed copy, which is then put back for the merge."""
    if (run_shard / "results.json").exists():
        return True
    if kept is not None and (kept / "results.json").exists():
        copy_files(kept, run_shard)
        return True
    return False


def call(command: list[str], log: Path | None) -> int:
    """Run ``command``; with ``log``, its standard output (the tables, with win rates) goes to that
    file instead of the console, so that following a decisive cell's progress shows no result."""
    if log is None:
        return subprocess.call(command)
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as f:
        code = subprocess.call(command, stdout=f)
    print(f"  exit code {code}; its tables are in {log}", flush=True)
    return code


if args.status:
    for players in (4, 3):
        for zoo in TARGET:
            kept = RUN["committed"] / f"{players}p_{zoo}" / "shards"
            done = sum((kept / f"shard_{i}" / "results.json").exists() for i in range(1, RUN["shards"][players] + 1))
            print(f"{players}p {zoo}: {done}/{RUN['shards'][players]} shards committed "
                  f"({done * players * DEALS[players] // RUN['shards'][players]} of {players * DEALS[players]} games)")
    sys.exit(0)

if args.play:
    if args.runs:
        parser.error("--runs is where the table reads cells from; --play always writes to the run's runs/ folder")
    if args.play[0] not in ("3", "4") or args.play[1] not in TARGET:
        parser.error(f"--play takes 3 or 4 and zoo1 or zoo2, got {args.play}")
    players, zoo = int(args.play[0]), args.play[1]
    out = f"{RUN['runs']}/ethnos_{players}p_{zoo}"
    cmd = [sys.executable, "-m", "training.evaluate", "ethnos", searcher(zoo), TARGET[zoo], "--config",
           f"num_players={players}", "--deals", str(DEALS[players]), "--focal", "--workers", "1"]
    count = RUN["shards"][players]
    if count == 1:
        cmd += ["--out", out]
        print(" ".join(cmd), flush=True)
        sys.exit(subprocess.call(cmd))
    keep = RUN is DECISIVE
    shards = [f"{out}/shard_{i}" for i in range(1, count + 1)]
    for i, shard in enumerate(shards, start=1):
        kept = RUN["committed"] / f"{players}p_{zoo}" / "shards" / f"shard_{i}" if keep else None
        if shard_done(Path(shard), kept):
            print(f"shard {i}/{count}: already played ({shard})", flush=True)
            continue
        shard_cmd = cmd + ["--seed", str(RUN["seed"]), "--shard", f"{i}/{count}", "--out", shard]
        shard_cmd += ["--no-progress"] if keep else []
        print(" ".join(shard_cmd), flush=True)
        if call(shard_cmd, Path(f"{shard}.log") if keep else None):
            sys.exit(f"shard {i} failed; run the same command again to resume")
        if kept is not None:
            copy_files(Path(shard), kept)
    merge = [sys.executable, "-m", "training.cli", "merge", *shards, "--out", out]
    print(" ".join(merge), flush=True)
    if call(merge, Path(f"{out}/merge.log") if keep else None):
        sys.exit("merge failed")
    if keep:  # the merged cell beside its shards, as the other runs' cells are committed
        copy_files(Path(out), RUN["committed"] / f"{players}p_{zoo}")
    sys.exit(0)


def cell(players: int, zoo: str, run: dict = RUN) -> dict:
    folder = (args.runs / f"ethnos_{players}p_{zoo}") if args.runs and run is RUN else \
        run["committed"] / f"{players}p_{zoo}"
    deals_expected = run["deals"][players]
    if not (folder / "games.csv").exists():
        raise SystemExit(f"{folder}/games.csv: not played yet (run this script with --play {players} {zoo}"
                         f"{' --replication' if run is REPLICATION else ' --decisive' if run is DECISIVE else ''})")
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


ALL_CELLS = {players: {zoo: cell(players, zoo) for zoo in TARGET} for players in (4, 3)}  # every cell, or no line
verdicts = {}
for players in (4, 3):
    print(f"## Ethnos, {players} players (fair share {1 / players:.1%}), {searcher('zooN')}")
    cells = ALL_CELLS[players]
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
    if RUN is not FIRST:
        earlier = [FIRST] if RUN is REPLICATION else [FIRST, REPLICATION]
        print(f"- not part of the rule: {'both' if len(earlier) == 1 else 'all three'} runs pooled "
              "(each run's deals once; no deal is in two runs):")
        for zoo, c in cells.items():
            parts = [cell(players, zoo, run) for run in earlier] + [c]
            pooled = summarize(np.concatenate([x["credit"] for x in parts]),
                               np.concatenate([x["by_deal"] for x in parts]))
            print(f"  - against {zoo}: {fmt(pooled)}")
    print()
print("Ethnos target (3 and 4 players):", "met" if all(verdicts.values()) else "not met")
