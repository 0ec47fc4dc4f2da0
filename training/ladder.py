"""The anchored ladders: the protocol's anchors of each benchmark configuration, rated once and stored.

    ether-envs ladder ether_wars                      # rebuild the stored ladder of ether_wars/2p
    ether-envs ladder ethnos --config 2p --workers 2
    ether-envs ladder --all                           # every configuration of training/protocol.py

A competitive configuration's anchors (``training.protocol.CONFIGS[...].anchors``) play a round
robin on the held-out deals: each pair of anchors on ``min(deals)`` of their two deal counts,
every deal once with each anchor in every seat and the other in all the others. One batch fit
of the top-1 Plackett-Luce model (:mod:`training.rating`, every seat counted) over all those games
gives each anchor its rating, Elo scale, ``random`` fixed at 0. ``ether-envs rate`` then places a
new agent by its games against the anchors only, the anchors' ratings held fixed, so adding an
agent never reruns the round robin and never moves the anchors.

A co-operative configuration (Aetherspire) stores each anchor's team win rate on its deals (the
anchor in every seat).

The files are ``training/ladders/<game>-v<N>_<label>.json`` (package data; their names carry the
env version, so a ladder of another version is never read).
"""

from __future__ import annotations

import argparse
import datetime
import json
import time
from pathlib import Path
from typing import Any

from . import evaluate as evaluate_mod
from . import protocol
from . import usage_error
from .protocol import BenchmarkConfig

LADDER_DIR = Path(__file__).resolve().parent / "ladders"
LADDER_FORMAT = "ether-envs-ladder-1"


def ladder_path(bench: BenchmarkConfig, ladder_dir: str | Path | None = None) -> Path:
    """Where the stored ladder of ``bench`` lives."""
    return Path(ladder_dir or LADDER_DIR) / bench.ladder_file


def build_ladder(bench: BenchmarkConfig, workers: int = 1, progress: bool = False,
                 ladder_dir: str | Path | None = None, write: bool = True) -> dict[str, Any]:
    """Play the anchors of ``bench`` against each other on held-out deals and rate them.

    Returns:
        the ladder record (what is written to :func:`ladder_path`): ``anchors`` (spec, deals,
        ``rating`` in Elo with ``random`` at 0, or the team ``win_rate`` and ``interval`` of a
        co-operative game), the head-to-head ``pairings`` and the time it took.
    """
    from .baselines import team_result
    from .rating import Outcomes, fit_ratings

    t0 = time.perf_counter()
    record: dict[str, Any] = {
        "format": LADDER_FORMAT, "protocol": protocol.PROTOCOL_VERSION, "benchmark": bench.benchmark_id,
        "env_id": bench.env_id, "game": bench.game, "game_version": bench.version, "config": bench.config,
        "players": bench.players, "cooperative": bench.cooperative, "held_out_base": protocol.HELD_OUT_BASE,
        "date": datetime.date.today().isoformat(),
        "command": f"ether-envs ladder {bench.game} --config {bench.label} --workers {workers}",
    }
    built = protocol.anchor_agents(bench)  # `pretrained` is zoo 1 in protocol 1
    anchors = []
    if bench.cooperative:
        for a in bench.anchors:
            games, rate, low, high = team_result(bench.game, a.spec, bench.config, a.deals, protocol.HELD_OUT_BASE,
                                                 agent=built.get(a.spec), workers=workers)
            anchors.append({"spec": a.spec, "deals": a.deals, "games": games, "win_rate": rate,
                            "interval": [low, high]})
        record["pairings"] = []
    else:
        outcomes = Outcomes()
        pairings = []
        specs = [a.spec for a in bench.anchors]
        deals = {a.spec: a.deals for a in bench.anchors}
        for j in range(1, len(specs)):
            for i in range(j):
                a, b = specs[j], specs[i]  # stronger vs weaker, as listed
                res = evaluate_mod.run_tournament(bench.game, [a, b], bench.config, deals=min(deals[a], deals[b]),
                                                  seed=protocol.HELD_OUT_BASE, pairings=[(a, b)], workers=workers,
                                                  progress=progress,
                                                  agents={k: v for k, v in built.items() if k in (a, b)} or None)
                pr = res.pairing(a, b)
                for g in res.games:
                    outcomes.add_pairing(a, b, bench.players, 1.0, g["credit"])
                pairings.append({"agent": a, "opponent": b, "games": pr.games, "credit": pr.credit,
                                 "win_rate": pr.win_rate, "interval": [pr.win_low, pr.win_high],
                                 "seconds": round(pr.seconds, 1)})
        ratings = fit_ratings(outcomes, fixed={specs[0]: 0.0})
        for a in bench.anchors:
            anchors.append({"spec": a.spec, "deals": a.deals, "rating": round(ratings[a.spec], 1)})
        record["pairings"] = pairings
    record["anchors"] = anchors
    record["seconds"] = round(time.perf_counter() - t0, 1)
    if write:
        path = ladder_path(bench, ladder_dir)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=1) + "\n")
    return record


def load_ladder(bench: BenchmarkConfig, ladder_dir: str | Path | None = None) -> dict[str, Any]:
    """The stored ladder of ``bench``.

    Raises:
        ValueError: no stored ladder for this configuration and env version (the message says
            the command that builds it), or one whose anchors differ from the protocol's.
    """
    path = ladder_path(bench, ladder_dir)
    if not path.exists():
        raise ValueError(f"no stored ladder for {bench.benchmark_id} ({path}); build it with "
                         f"'ether-envs ladder {bench.game} --config {bench.label}'")
    record = json.loads(path.read_text())
    stored = [(a["spec"], a["deals"]) for a in record["anchors"]]
    wanted = [(a.spec, a.deals) for a in bench.anchors]
    if stored != wanted or record.get("protocol") != protocol.PROTOCOL_VERSION:
        raise ValueError(f"{path} holds the anchors {stored} (protocol {record.get('protocol')}), but protocol "
                         f"{protocol.PROTOCOL_VERSION} says {wanted}: rebuild it with "
                         f"'ether-envs ladder {bench.game} --config {bench.label}'")
    return record


def markdown(record: dict[str, Any]) -> str:
    """The ladder as a Markdown table (anchors best first) and its head-to-head table."""
    coop = record["cooperative"]
    lines = [f"Anchored ladder of `{record['benchmark']}` ({record['players']} players; held-out deals from "
             f"{record['held_out_base']}; {record['seconds'] / 60:.1f} minutes; `{record['command']}`):", ""]
    if coop:
        lines += ["| anchor | deals | team win rate | 95% interval (Wilson) |", "|---|---|---|---|"]
        for a in sorted(record["anchors"], key=lambda a: -a["win_rate"]):
            lo, hi = a["interval"]
            lines.append(f"| {a['spec']} | {a['deals']} | {a['win_rate']:.1%} | [{lo:.1%}, {hi:.1%}] |")
        return "\n".join(lines)
    lines += ["| anchor | rating (Elo, random = 0) | deals per opponent |", "|---|---|---|"]
    for a in sorted(record["anchors"], key=lambda a: -a["rating"]):
        lines.append(f"| {a['spec']} | {a['rating']:.0f} | {a['deals']} |")
    lines += ["", "| agent | opponent | games | win rate | 95% interval (Wilson) |", "|---|---|---|---|---|"]
    for p in record["pairings"]:
        lo, hi = p["interval"]
        lines.append(f"| {p['agent']} | {p['opponent']} | {p['games']} | {p['win_rate']:.1%} | [{lo:.1%}, {hi:.1%}] |")
    return "\n".join(lines)


def build_parser(p: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = p or argparse.ArgumentParser(prog="python -m training.ladder", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", nargs="?", choices=list(protocol.DEFAULT_CONFIG), help="the game (or --all)")
    p.add_argument("--config", default=None, metavar="LABEL",
                   help="benchmark configuration label, e.g. 2p (default: the game's default)")
    p.add_argument("--all", action="store_true", help="every benchmark configuration")
    p.add_argument("--workers", type=int, default=1, help="processes playing the games (results are identical)")
    p.add_argument("--ladder-dir", default=None, help="where to write (default: training/ladders/)")
    p.add_argument("--no-progress", action="store_true")
    return p


def main(argv: list[str] | None = None, args: argparse.Namespace | None = None) -> list[dict[str, Any]]:
    args = args or build_parser().parse_args(argv)
    if args.all and (args.game is not None or args.config is not None):
        given = [args.game] if args.game is not None else []
        given += [f"--config {args.config!r}"] if args.config is not None else []
        raise ValueError(f"--all rates every configuration: give it without a game or --config, got {' '.join(given)}")
    if args.all:
        benches = list(protocol.CONFIGS.values())
    elif args.game:
        benches = [protocol.benchmark_config(args.game, args.config)]
    else:
        raise ValueError("give a game or --all")
    out = []
    for bench in benches:
        record = build_ladder(bench, workers=args.workers, progress=not args.no_progress, ladder_dir=args.ladder_dir)
        print(markdown(record) + "\n", flush=True)
        out.append(record)
    return out


if __name__ == "__main__":
    try:
        main()
    except (ValueError, OSError) as e:  # bad input: argparse's usage and one error line, not a traceback
        usage_error(build_parser(), e)
