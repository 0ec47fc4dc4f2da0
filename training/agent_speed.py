"""Milliseconds a decision of agent specs, on every game (docs/speed.md, "Agents' decision time").

    ether-envs agent-speed                                        # az, mcts, pretrained, heuristic
    python -m training.agent_speed --specs az az:simulations=128 --games ethnos --positions 100
    python -m training.agent_speed --specs az --games ethnos --config num_players=6

Positions: the decisions of ``--deals`` games of the game's default configuration (or
``--config``'s) played by the heuristic in every seat (game seeds ``VALIDATION_BASE + i``),
keeping every ``--stride``-th decision that offers more than one legal action (a forced move
costs no agent anything), up to ``--positions``. Each spec decides once at every position,
from a clone, seeded by the position; the time of ``act`` is measured with
``time.perf_counter``, numpy and torch on one thread (one core). Reported: mean, 90th
percentile and maximum, in milliseconds. Times depend on the machine and its
load: run it on an idle machine, and compare figures from one run only. On a machine whose speed
wanders (a shared VM), ``--repeat K`` decides K times at each position, the same decision each time
(the agent reseeded, a fresh clone), and keeps each position's fastest time, as ``timeit``
advises: what the decision costs when nothing else slows it.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

import ether_envs

from . import usage_error

DEFAULT_SPECS = ("az", "mcts:simulations=200", "pretrained", "heuristic")


def positions(game_name: str, deals: int = 4, stride: int = 3, limit: int = 60,
              config: dict[str, Any] | None = None) -> list:
    """Up to ``limit`` states (clones) where the player to move has a choice (see the module
    docstring), of the game's default configuration updated with ``config``.

    Raises:
        ValueError: a bad ``config`` (from ``ether_envs.load_game``).
    """
    from agents import make_agent

    from .protocol import VALIDATION_BASE

    game = ether_envs.load_game(game_name, **(config or {}))
    out = []
    for d in range(deals):
        bots = [make_agent("heuristic", game, seed=d * 16 + p) for p in range(game.num_players)]
        s = game.new_initial_state(seed=VALIDATION_BASE + d)
        k = 0
        while not s.is_terminal():
            p = s.current_player()
            if len(s.legal_actions()) > 1:
                if k % stride == 0:
                    out.append(s.clone())
                k += 1
            s.apply_action(bots[p].act(s, p))
    step = max(1, len(out) // limit)
    return out[::step][:limit]


def measure(game_name: str, spec: str, states: list, repeat: int = 1,
            config: dict[str, Any] | None = None) -> dict[str, Any]:
    """``{"game", "config", "spec", "positions", "repeat", "mean_ms", "p90_ms", "max_ms"}`` of ``spec`` on
    ``states`` (positions of the game with ``config``): each position's time is the fastest of
    ``repeat`` identical decisions.

    Raises:
        ValueError: ``repeat < 1``, or a bad spec (from ``make_agent``).
    """
    from agents import make_agent

    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be an int >= 1, got {repeat!r}")
    game = ether_envs.load_game(game_name, **(config or {}))
    agent = make_agent(spec, game, seed=0)
    times = []
    for i, s in enumerate(states):
        best = float("inf")
        for _ in range(repeat):
            agent.seed(i)
            c = s.clone()
            t = time.perf_counter()
            agent.act(c, c.current_player())
            best = min(best, time.perf_counter() - t)
        times.append(best)
    ms = np.asarray(times) * 1000.0
    return {"game": game_name, "config": dict(config or {}), "spec": spec, "positions": len(ms), "repeat": repeat,
            "mean_ms": float(ms.mean()), "p90_ms": float(np.percentile(ms, 90)), "max_ms": float(ms.max())}


def table(rows: list[dict[str, Any]]) -> str:
    """A Markdown table: one row per game (named with its ``config`` when one was given), one column
    per spec (mean / p90 / max ms)."""
    def label(r: dict[str, Any]) -> str:
        config = r.get("config") or {}
        return r["game"] + (" (" + ", ".join(f"{k}={v}" for k, v in config.items()) + ")" if config else "")

    specs = list(dict.fromkeys(r["spec"] for r in rows))
    games = list(dict.fromkeys(label(r) for r in rows))
    by = {(label(r), r["spec"]): r for r in rows}
    lines = ["| game | " + " | ".join(f"`{s}` ms: mean / p90 / max" for s in specs) + " |",
             "|---|" + "---|" * len(specs)]
    for g in games:
        cells = []
        for s in specs:
            r = by.get((g, s))
            cells.append("" if r is None else f"{r['mean_ms']:.1f} / {r['p90_ms']:.1f} / {r['max_ms']:.1f}")
        lines.append(f"| {g} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def build_parser(p: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = p or argparse.ArgumentParser(prog="python -m training.agent_speed", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--specs", nargs="+", default=list(DEFAULT_SPECS), help="agent specs (default: %(default)s)")
    p.add_argument("--games", nargs="+", default=ether_envs.list_games(), choices=ether_envs.list_games())
    p.add_argument("--deals", type=int, default=4, help="heuristic games the positions come from (default 4)")
    p.add_argument("--stride", type=int, default=3, help="keep every N-th decision with a choice (default 3)")
    p.add_argument("--positions", type=int, default=60, help="positions per game at most (default 60)")
    p.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE",
                   help="game configuration for every game named, e.g. num_players=6 (default: each game's own)")
    p.add_argument("--repeat", type=int, default=1,
                   help="decide K times at each position and keep the fastest (default 1)")
    return p


def main(argv: list[str] | None = None, args: argparse.Namespace | None = None) -> list[dict[str, Any]]:
    from . import one_thread

    p = build_parser()
    a = args if args is not None else p.parse_args(argv)
    for name in ("deals", "stride", "positions", "repeat"):
        if getattr(a, name) < 1:
            p.error(f"--{name} must be >= 1, got {getattr(a, name)}")
    from .evaluate import parse_config

    try:
        config = parse_config(a.config)
    except ValueError as e:
        usage_error(p, e)
    one_thread()
    rows = []
    for g in a.games:
        try:
            states = positions(g, a.deals, a.stride, a.positions, config)
        except ValueError as e:
            usage_error(p, e, f"{g}: ")
        for spec in a.specs:
            try:
                rows.append(measure(g, spec, states, a.repeat, config))
            except (ValueError, FileNotFoundError) as e:
                usage_error(p, e, f"{spec} on {g}: ")
            r = rows[-1]
            fastest = f", the fastest of {a.repeat} at each" if a.repeat > 1 else ""
            print(f"{g} {spec}: {r['mean_ms']:.1f} ms mean, {r['p90_ms']:.1f} p90, {r['max_ms']:.1f} max "
                  f"({r['positions']} positions{fastest})", flush=True)
    print()
    print(table(rows))
    return rows


if __name__ == "__main__":
    main()
