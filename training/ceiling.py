"""What an Aetherspire team could win: the agents' team win rates beside a perfect-information search.

    python -m training.ceiling --difficulties 1 2 3 4 --deals 40
    python -m training.ceiling --agents heuristic rollout "az:path=runs/x.npz" --deals 10 --out results/ceiling

For each difficulty (the game's ``difficulty`` config; ``--players`` seats, default 2), every team plays the same
``deals`` held-out deals (``training.protocol.HELD_OUT_BASE + i``), each seat the same agent:

* the agent specs of ``--agents`` (by default ``heuristic``, ``pretrained``, ``az`` and ``rollout``,
  each at its own defaults), which see only what a player may see (an agent whose net was trained
  at another difficulty or player count refuses it and is skipped there, with a line saying so);
* **the perfect-information search** (:class:`PerfectInformationSearch`): the ``rollout`` search
  (:mod:`agents.rollout`, ``--rollouts`` per legal action, the heuristic playing every seat) from
  the *true* state, never a determinization, so it sees every hidden tile and the bag order (the
  state's chance generator is cloned with it). It is **not an agent** and no spec builds one: it
  cheats, and is only the yardstick of what a team could win on these deals. Its win rate is an
  estimate of that ceiling from below (a stronger search could win more), never a result of play.

Every rate is the share of deals the team won, with a Wilson 95% interval. Writes
``ceiling_<players>p.csv`` and ``ceiling_<players>p.md`` in ``--out`` and prints the table.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing as mp
import time
from pathlib import Path
from typing import Any

import numpy as np

import ether_envs
from agents.rollout import RolloutAgent

from . import usage_error

PERFECT = "perfect-information search"
"""The label of the cheating yardstick in tables."""


class PerfectInformationSearch(RolloutAgent):
    """``rollout``'s search from the true state (a clone, never ``resample_hidden``): it sees every
    hidden tile and the future chance. A yardstick for :mod:`training.ceiling` only; ``make_agent``
    never builds it."""

    name = PERFECT

    def _world(self, state, player: int):
        return state.clone()  # the true state: hidden tiles, bag order and the chance generator


def _team_game(args: tuple) -> tuple[int, bool]:
    from agents import make_agent

    from . import one_thread

    one_thread()
    label, spec, difficulty, deal, seed, rollouts, players = args
    game = ether_envs.load_game("aetherspire", difficulty=difficulty, num_players=players)
    if label == PERFECT:
        agent: Any = PerfectInformationSearch(game, rollouts=rollouts)
    else:
        agent = make_agent(spec, game)
    state = game.new_initial_state(seed=seed + deal)
    agent.seed([deal, difficulty])
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(agent.act(state, p))
    return deal, bool(state.returns()[0] > 0)


def run(agents: list[str], difficulties: list[int], deals: int, rollouts: int = 2, workers: int = 2, log=print,
        players: int = 2, perfect: bool = True) -> list[dict[str, Any]]:
    """Team win rates of ``agents`` and (``perfect``) of the perfect-information search (``rollouts``
    per legal action) at each difficulty with ``players`` seats; one row per (difficulty, team)."""
    from .evaluate import wilson_interval
    from .protocol import HELD_OUT_BASE

    rows = []
    teams = [(a, a) for a in agents] + ([(PERFECT, "")] if perfect else [])
    for d in difficulties:
        for label, spec in teams:
            if label != PERFECT:
                from agents import make_agent

                try:  # a net trained at another difficulty or player count refuses this one
                    make_agent(spec, ether_envs.load_game("aetherspire", difficulty=d, num_players=players))
                except ValueError as e:  # main() has checked the spec builds at the default configuration
                    log(f"difficulty {d}, {players} players: {spec}: skipped ({str(e)[:120]}...)")
                    continue
            t0 = time.perf_counter()
            tasks = [(label, spec, d, i, HELD_OUT_BASE, rollouts, players) for i in range(deals)]
            if workers == 1:
                results = [_team_game(t) for t in tasks]
            else:
                with mp.get_context("forkserver").Pool(workers) as pool:
                    results = pool.map(_team_game, tasks, chunksize=1)
            wins = sum(w for _, w in results)
            low, high = wilson_interval(wins, deals)
            row = {"difficulty": d, "players": players, "team": label if label == PERFECT else spec, "deals": deals,
                   "wins": wins,
                   "win_rate": wins / deals, "win_low": low, "win_high": high,
                   "cheats": label == PERFECT, "seconds": round(time.perf_counter() - t0, 1)}
            rows.append(row)
            log(f"difficulty {d}, {players} players: {row['team']}: {wins}/{deals} = {row['win_rate']:.1%} [{low:.1%}, {high:.1%}] "
                f"({row['seconds']:.0f} s)")
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    diffs = sorted({r["difficulty"] for r in rows})
    teams = list(dict.fromkeys(r["team"] for r in rows))
    by = {(r["team"], r["difficulty"]): r for r in rows}
    lines = ["| team | " + " | ".join(f"difficulty {d}" for d in diffs) + " |", "|---|" + "---|" * len(diffs)]
    for t in teams:
        name = f"**{t}** (sees hidden tiles and the bag: not an agent)" if t == PERFECT else f"`{t}`"
        cells = [f"{by[t, d]['win_rate']:.1%} [{by[t, d]['win_low']:.1%}, {by[t, d]['win_high']:.1%}]"
                 if (t, d) in by else "" for d in diffs]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    from . import one_thread

    p = argparse.ArgumentParser(prog="python -m training.ceiling", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--agents", nargs="+", default=["heuristic", "pretrained", "az", "rollout"])
    p.add_argument("--difficulties", nargs="+", type=int, default=[1, 2, 3, 4])
    p.add_argument("--players", type=int, default=2, help="seats of the team (default 2)")
    p.add_argument("--no-perfect", action="store_true", help="only the agents' teams")
    p.add_argument("--deals", type=int, default=30)
    p.add_argument("--rollouts", type=int, default=2,
                   help="the perfect-information search's rollouts per legal action (default 2); the "
                        "rollout agent's are set in its spec, e.g. rollout:rollouts=4")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", default="results/ceiling")
    a = p.parse_args(argv)
    for name in ("deals", "workers", "rollouts"):
        if getattr(a, name) < 1:
            p.error(f"--{name} must be >= 1, got {getattr(a, name)}")
    try:
        ether_envs.load_game("aetherspire", num_players=a.players)
    except ValueError as e:
        usage_error(p, e, "--players: ")
    if len(set(a.difficulties)) != len(a.difficulties):
        p.error(f"--difficulties: each at most once, got {a.difficulties}")
    for d in a.difficulties:
        try:
            ether_envs.load_game("aetherspire", difficulty=d, num_players=a.players)
        except ValueError as e:
            usage_error(p, e, "--difficulties: ")
    from agents import make_agent
    from agents.ppo import ModelMismatchError

    if len(set(a.agents)) != len(a.agents):
        p.error(f"--agents: each at most once, got {a.agents}")
    out = Path(a.out)
    if out.exists() and not out.is_dir():
        p.error(f"--out {a.out}: a file is there, not a folder")
    game = ether_envs.load_game("aetherspire")  # the configuration the shipped nets were trained at
    for spec in a.agents:
        try:
            make_agent(spec, game)
        except ModelMismatchError:
            pass  # a net of another configuration: skipped where it refuses, with a line saying so
        except (ValueError, FileNotFoundError) as e:
            usage_error(p, e, f"--agents {spec!r}: ")
    one_thread()
    rows = run(a.agents, a.difficulties, a.deals, a.rollouts, a.workers, players=a.players,
               perfect=not a.no_perfect)
    out.mkdir(parents=True, exist_ok=True)
    with (out / f"ceiling_{a.players}p.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    (out / f"ceiling_{a.players}p.md").write_text(table(rows) + "\n")
    print()
    print(table(rows))
    return rows


if __name__ == "__main__":
    main()
