"""``ether-envs rate``: the benchmark protocol's evaluation of one agent, placed on the anchored ladder.

    ether-envs rate ether_wars pretrained:path=runs/dqn0/policy.npz --label "my dqn"
    ether-envs rate ethnos python:my_agent:policy --config 2p
    ether-envs rate etherium ppo:runs/s0/model.zip ppo:runs/s1/model.zip ppo:runs/s2/model.zip \\
        --label "MaskablePPO (short)" --budget short --out results/maskable_ppo_etherium

Several specs are several training seeds of one algorithm: each is evaluated alone (a *run*),
then the runs are aggregated. Every default is the protocol's (``docs/benchmark.md``,
``training/protocol.py``): the held-out deals, the anchors of the benchmark configuration and
the deals against each.

Per run, competitive configuration: the agent plays each anchor on its deals, every deal once in
each seat with the anchor in all the others (``training.evaluate.run_tournament``; the same
matchup gives the same games in any tournament); its win credit against each anchor with a
Wilson 95% interval; its rating on the stored ladder (``training/ladders/``; top-1
Plackett-Luce counting every seat, Elo scale, ``random`` at 0, anchors fixed) with a 95%
bootstrap interval. Co-operative configuration: the agent plays every seat as one team on the
deals, and the run's result is the team win rate.

Across runs: the interquartile mean of the runs' results with a stratified-bootstrap 95%
interval (rliable; 2,000 resamples, seeded). The row (``training.protocol.ROW_SCHEMA``) is
written as ``OUT.json`` and ``OUT.md`` and printed.
"""

from __future__ import annotations

import argparse
import json
import numbers
import time
import warnings
from pathlib import Path
from typing import Any, Sequence


import ether_envs

from . import evaluate as evaluate_mod
from . import protocol
from . import usage_error
from .protocol import BenchmarkConfig


def aggregate(values: Sequence[float]) -> dict[str, Any]:
    """Interquartile mean of per-run ``values`` with rliable's stratified-bootstrap 95% interval
    (:func:`training.rating.iqm_interval`: 2,000 resamples, seeded).

    Returns:
        ``{"iqm": float, "interval": [low, high]}`` (a single run: its value, a zero-width interval).
    """
    from .rating import iqm_interval

    iqm, low, high = iqm_interval(values)
    return {"iqm": iqm, "interval": [low, high]}


def rate_run(bench: BenchmarkConfig, spec: str, ladder: dict[str, Any], agent: Any = None, workers: int = 1,
             progress: bool = False) -> dict[str, Any]:
    """One run (one agent) through the protocol's evaluation; see the module docstring.

    Args:
        agent: a prebuilt agent for ``spec`` (any form ``agents.as_agent`` takes); ``None``: built from it.

    Returns:
        a dict with the keys ``"spec"``, ``"vs"`` (per anchor, or ``"team"``: ``{"games", "credit",
        "win_rate", "interval"}``), ``"rating"`` (Elo; ``None`` for a co-operative game),
        ``"rating_interval"`` and ``"seconds"``.
    """
    from .baselines import team_result

    t0 = time.perf_counter()
    run: dict[str, Any] = {"spec": spec, "vs": {}, "rating": None, "rating_interval": None}
    anchors = protocol.anchor_agents(bench)  # `pretrained` is zoo 1 in protocol 1
    if bench.cooperative:
        deals = bench.anchors[0].deals
        games, rate, low, high = team_result(bench.game, spec, bench.config, deals, protocol.HELD_OUT_BASE,
                                             agent=agent, workers=workers)
        run["vs"]["team"] = {"games": games, "credit": rate * games, "win_rate": rate, "interval": [low, high]}
    else:
        for a in bench.anchors:
            res = evaluate_mod.run_tournament(bench.game, [spec, a.spec], bench.config, deals=a.deals,
                                              seed=protocol.HELD_OUT_BASE, pairings=[(spec, a.spec)],
                                              agents={**({a.spec: anchors[a.spec]} if a.spec in anchors else {}),
                                                      **({spec: agent} if agent is not None else {})} or None,
                                              workers=workers, progress=progress)
            pr = res.pairing(spec, a.spec)
            run["vs"][a.spec] = {"games": pr.games, "credit": pr.credit, "win_rate": pr.win_rate,
                                 "interval": [pr.win_low, pr.win_high]}
        place(run, ladder, bench.players)
    run["seconds"] = round(time.perf_counter() - t0, 1)
    return run


def place(run: dict[str, Any], ladder: dict[str, Any], players: int) -> None:
    """Set ``run["rating"]`` and ``run["rating_interval"]`` (Elo) from its per-anchor counts, on the
    stored ``ladder`` (anchors fixed; :func:`training.rating.place_counts`)."""
    from .rating import place_counts

    stored = {a["spec"]: a["rating"] for a in ladder["anchors"]}
    counts = {k: (int(v["games"]), float(v["credit"])) for k, v in run["vs"].items()}
    placed = place_counts(counts, stored, players=players)
    run["rating"], run["rating_interval"] = round(placed.rating, 1), [round(placed.low, 1), round(placed.high, 1)]


def summarize(row: dict[str, Any]) -> dict[str, Any]:
    """The row's ``aggregate`` over its runs (IQM and interval per anchor, and of the rating)."""
    keys = list(row["held_out"]["deals"])
    agg: dict[str, Any] = {"runs": len(row["runs"]),
                           "vs": {k: aggregate([r["vs"][k]["win_rate"] for r in row["runs"]]) for k in keys},
                           "rating": None}
    if not row["cooperative"]:
        agg["rating"] = aggregate([r["rating"] for r in row["runs"]])
    return agg


def recompute(path: str | Path, ladder_dir: str | Path | None = None) -> dict[str, Any]:
    """Recompute a stored row's ratings and aggregate from its per-anchor counts (after a change
    of the rating or aggregation code; no game is replayed) and rewrite ``PATH.json``/``.md``.

    Raises:
        ValueError: the row's ladder no longer matches the protocol (see :func:`training.ladder.load_ladder`).
    """
    from .ladder import load_ladder

    path = Path(path)
    js = path if path.suffix == ".json" else path.with_name(path.name + ".json")
    row = json.loads(js.read_text())
    bench = protocol.benchmark_config(row["game"], row["benchmark"].split("/", 1)[1])
    if not row["cooperative"]:
        ladder = load_ladder(bench, ladder_dir)
        for run in row["runs"]:
            place(run, ladder, row["players"])
    row["aggregate"] = summarize(row)
    write_row(row, js.with_suffix(""))
    return row


def rate(bench: BenchmarkConfig | str, specs: Sequence[str], *, label: str | None = None, budget: str | None = None,
         frames: int | None = None, agents: dict[str, Any] | None = None, workers: int = 1, progress: bool = False,
         out: str | Path | None = None, ladder_dir: str | Path | None = None,
         training: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The protocol's evaluation of one agent (one spec per training seed) and its result row.

    Args:
        bench: a :class:`training.protocol.BenchmarkConfig` or its name (``"ether_wars/2p"``).
        specs: agent specs, one per run (training seed); duplicates are refused.
        label: the row's name (default: the first spec).
        budget: the name of the training budget the runs had (recorded in the row).
        frames: the learner frames of that budget (recorded in the row): an int >= 1, or None.
        agents: optional prebuilt agents by spec (e.g. an in-memory policy).
        out: write ``OUT.json`` and ``OUT.md`` (nothing written if ``None``).
        training: optional records of how each run was trained (e.g. ``ether-envs reference``'s
            ``done.json``: seed, frames, minutes), kept in the row as ``training``.

    Returns:
        the row (``training.protocol.ROW_SCHEMA``).

    Raises:
        ValueError: no specs, duplicate specs, an unknown configuration or budget, ``frames`` not
            an int >= 1 (or off the budget's by more than 5%), no stored
            ladder for the configuration, or an agent that cannot play the game (from ``make_agent``).
    """
    from .ladder import load_ladder

    if isinstance(bench, str):
        game, _, lab = bench.partition("/")
        bench = protocol.benchmark_config(game, lab or None)
    specs = list(specs)
    if not specs:
        raise ValueError("give at least one agent spec to rate")
    if len(set(specs)) != len(specs):
        raise ValueError(f"duplicate specs {specs}: give one spec per training seed")
    if frames is not None and (isinstance(frames, bool) or not isinstance(frames, numbers.Integral) or frames < 1):
        raise ValueError(f"frames must be an int >= 1 (the runs' training frames), got {frames!r}")
    if budget is not None and budget not in protocol.BUDGETS:
        raise ValueError(f"unknown budget {budget!r}; the protocol's: {', '.join(protocol.BUDGETS)}")
    if budget is not None and frames is not None and frames != protocol.BUDGETS[budget] and \
            abs(frames - protocol.BUDGETS[budget]) > 0.05 * protocol.BUDGETS[budget]:
        raise ValueError(f"frames {frames:,} is not the {budget} budget ({protocol.BUDGETS[budget]:,}); "
                         "give --frames alone for another budget")
    unknown = [s for s in (agents or {}) if s not in specs]
    if unknown:
        raise ValueError(f"prebuilt agents {unknown} are not among the specs {specs}")
    ladder = load_ladder(bench, ladder_dir)
    from agents import make_agent

    game = ether_envs.load_game(bench.game, **bench.config)
    built = dict(agents or {})
    for spec in specs:  # every spec must build before any game is played; in one process, it then plays
        if spec not in built:
            agent = make_agent(spec, game)
            if workers == 1:
                built[spec] = agent
    if len(specs) < len(protocol.TRAINING_SEEDS):
        warnings.warn(f"{len(specs)} run(s): the protocol asks for at least {len(protocol.TRAINING_SEEDS)} "
                      "training seeds; with fewer the interval over runs says nothing", stacklevel=2)
    t0 = time.perf_counter()
    runs = [rate_run(bench, spec, ladder, agent=built.get(spec), workers=workers, progress=progress)
            for spec in specs]
    row = {
        "format": protocol.ROW_FORMAT, "protocol": protocol.PROTOCOL_VERSION, "benchmark": bench.benchmark_id,
        "env_id": bench.env_id, "game": bench.game, "game_version": bench.version, "config": bench.config,
        "players": bench.players, "cooperative": bench.cooperative, "agent": label or specs[0], "budget": budget,
        "frames": int(frames) if frames is not None else (protocol.BUDGETS[budget] if budget else None),
        "ether_envs_version": ether_envs.__version__,
        "held_out": {"base": protocol.HELD_OUT_BASE, "deals": {a.spec: a.deals for a in bench.anchors}
                     if not bench.cooperative else {"team": bench.anchors[0].deals}},
        "ladder": {a["spec"]: a.get("rating", a.get("win_rate")) for a in ladder["anchors"]},
        "runs": runs, "aggregate": None, "seconds": round(time.perf_counter() - t0, 1),
    }
    row["aggregate"] = summarize(row)
    if training is not None:
        row["training"] = [dict(t) for t in training]
    if out is not None:
        write_row(row, out)
    return row


def write_row(row: dict[str, Any], out: str | Path) -> tuple[Path, Path]:
    """Write ``OUT.json`` (the row) and ``OUT.md`` (its table: header and one line)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    js, md = out.with_name(out.name + ".json"), out.with_name(out.name + ".md")
    js.write_text(json.dumps(row, indent=1) + "\n")
    bench = protocol.benchmark_config(row["game"], row["benchmark"].split("/", 1)[1])
    md.write_text(protocol.markdown_header(bench) + "\n" + protocol.markdown_row(row) + "\n")
    return js, md


def build_parser(p: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = p or argparse.ArgumentParser(prog="python -m training.rate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=list(protocol.DEFAULT_CONFIG), help="the game")
    p.add_argument("specs", nargs="+", metavar="SPEC",
                   help="agent specs, one per training seed (e.g. pretrained:path=runs/s0/policy.npz, "
                        "ppo:runs/s0/model.zip, python:my_agent:policy)")
    p.add_argument("--config", default=None, metavar="LABEL",
                   help="benchmark configuration label (training/protocol.py), e.g. 2p (default: the game's default)")
    p.add_argument("--label", default=None, help="the row's name (default: the first spec)")
    p.add_argument("--budget", default=None, choices=list(protocol.BUDGETS), help="the runs' training budget, recorded")
    p.add_argument("--frames", type=int, default=None, help="the runs' training frames, recorded")
    p.add_argument("--workers", type=int, default=1, help="processes playing the games (results are identical)")
    p.add_argument("--out", default=None, help="write OUT.json and OUT.md (default: results/rate/<benchmark>_<label>)")
    p.add_argument("--ladder-dir", default=None,
                   help="folder of the stored ladders (default: training/ladders/, what ether-envs ladder writes)")
    p.add_argument("--no-progress", action="store_true")
    return p


def main(argv: list[str] | None = None, args: argparse.Namespace | None = None) -> dict[str, Any]:
    args = args or build_parser().parse_args(argv)
    bench = protocol.benchmark_config(args.game, args.config)
    label = args.label or args.specs[0]
    out = args.out or Path("results/rate") / _slug(f"{bench.game}-v{bench.version}_{bench.label}_{label}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        row = rate(bench, args.specs, label=label, budget=args.budget, frames=args.frames, workers=args.workers,
                   progress=not args.no_progress, out=out, ladder_dir=args.ladder_dir)
    for w in caught:
        print(f"note: {w.message}")
    print(protocol.markdown_header(bench))
    print(protocol.markdown_row(row))
    for r in row["runs"]:
        vs = ", ".join(f"{k} {v['win_rate']:.1%} [{v['interval'][0]:.1%}, {v['interval'][1]:.1%}]"
                       for k, v in r["vs"].items())
        rating = "" if r["rating"] is None else f"; rating {r['rating']:.0f} [{r['rating_interval'][0]:.0f}, " \
                                                 f"{r['rating_interval'][1]:.0f}]"
        print(f"  {r['spec']}: {vs}{rating} ({r['seconds']:.0f} s)")
    print(f"row written to {out}.json and {out}.md ({row['seconds'] / 60:.1f} minutes)")
    return row


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in text)


if __name__ == "__main__":
    try:
        main()
    except (ValueError, OSError) as e:  # bad input: argparse's usage and one error line, not a traceback
        usage_error(build_parser(), e)
