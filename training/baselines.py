"""The README baseline table for every registered game, from one rerunnable command.

    ether-envs baselines                                  # all games, modest budget
    ether-envs baselines --games ethnos etherium --deals 20 --simulations 100 --out results/baselines
    ether-envs baselines --ppo runs/main/model.zip       # add a trained model (on its own game/config)
    ether-envs baselines --workers 2                     # the same table, games spread over 2 processes

For each game at its default configuration (default player count), the
tournament code of :mod:`training.evaluate` plays ``heuristic`` vs ``random``
and ``mcts:simulations=N`` vs ``random`` on ``--deals`` paired deals with full
seat rotation (every deal played once with the agent in each seat, the
opponent in all the others); the win rate is the agent's mean credit with a
Wilson 95% interval. A ``--ppo`` model plays ``random`` on the game and config
it was trained on (read from the model's metadata).

A co-operative game (utility ``identical``, e.g. Aetherspire) has no opponent:
each agent plays all seats as one team, and the win rate is the team's win
rate (positive final return) over ``--deals`` deals, with a Wilson interval.

``--out PATH`` writes ``PATH.md`` (the table and its footnotes) and
``PATH.json`` (every row plus the options).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

import ether_envs

from . import evaluate as evaluate_mod

DEFAULT_DEALS = 10
"""Deals per row (each played once per seat in competitive games)."""
DEFAULT_SIMULATIONS = 25
"""MCTS simulations per move."""

COOP_NOTE = ("Co-operative game: there is no opponent; the agent plays every seat as one team and the "
             "win rate is the team's win rate over the deals.")


@dataclass
class BaselineRow:
    """One line of the baseline table."""

    game: str
    agent: str
    opponent: str
    players: int
    games: int
    win_rate: float
    win_low: float
    win_high: float
    budget: str
    seed: int
    cooperative: bool = False
    seconds: float = 0.0

    def markdown(self) -> str:
        opp = f"- (team)[^coop]" if self.cooperative else self.opponent
        return (f"| {self.game} | {self.agent} | {opp} | {self.players} | {self.games} | {self.win_rate:.1%} "
                f"| [{self.win_low:.1%}, {self.win_high:.1%}] | {self.budget} | {self.seed} |")


HEADER = ("| game | agent | opponent | players | games | win rate | 95% interval (Wilson) | training budget | seed |\n"
          "|---|---|---|---|---|---|---|---|---|")


def is_cooperative(game) -> bool:
    """Whether all seats share one outcome (``utility() == "identical"``)."""
    return str(game.utility()) == "identical"


def team_result(game_name: str, spec: str, config: dict | None, deals: int, seed: int,
                agent: Any = None, workers: int = 1) -> tuple[int, float, float, float]:
    """Play ``deals`` deals of a co-operative game with agent ``spec`` in every seat.

    Deal ``i`` uses game seed ``seed + i`` and reseeds the agent from ``(seed, i)``, so the
    result is the same for any number of ``workers`` (processes playing the deals).

    Returns:
        ``(games, win_rate, low, high)``: a game is won when the team's return is positive.

    Raises:
        ValueError: ``workers < 1``.
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    player = _TeamPlayer(game_name, spec, dict(config or {}), seed, agent)
    with evaluate_mod._played(player, list(range(deals)), workers) as won:
        wins = sum(won)
    low, high = evaluate_mod.wilson_interval(wins, deals)
    return deals, wins / deals, low, high


class _TeamPlayer:
    """Plays deal ``i`` of a co-operative game with one agent in every seat (here or in a worker)."""

    def __init__(self, game_name: str, spec: str, config: dict, seed: int, agent: Any = None) -> None:
        from agents import make_agent

        self.args = (game_name, spec, config, seed, agent)  # rebuilds it in a worker process
        self.game = ether_envs.load_game(game_name, **config)
        self.agent = agent if agent is not None else make_agent(spec, self.game)
        self.seed = seed

    def play(self, deal: int) -> int:
        """1 if the team won deal ``deal`` (positive return), else 0."""
        self.agent.seed(evaluate_mod._game_seed(self.seed, deal))
        returns, _scores, _steps = evaluate_mod.play_game(self.game, [self.agent] * self.game.num_players,
                                                          self.seed + deal)
        return int(returns[0] > 0)


def _row(game_name: str, game, spec: str, config: dict, deals: int, seed: int, budget: str,
         label: str | None = None, workers: int = 1) -> BaselineRow:
    t0 = time.perf_counter()
    n = game.num_players
    if is_cooperative(game):
        games, rate, low, high = team_result(game_name, spec, config, deals, seed, workers=workers)
        row = BaselineRow(game_name, label or spec, "-", n, games, rate, low, high, budget, seed, cooperative=True)
    else:
        res = evaluate_mod.run_tournament(game_name, [spec, "random"], config, deals=deals, seed=seed,
                                          progress=False, pairings=[(spec, "random")], workers=workers)
        pr = res.pairings[0]
        row = BaselineRow(game_name, label or spec, "random", n, pr.games, pr.win_rate, pr.win_low, pr.win_high,
                          budget, seed)
    row.seconds = time.perf_counter() - t0
    return row


def ppo_budget(meta: dict[str, Any]) -> str:
    """``"150,000 steps (seed 0)"`` from a model's metadata."""
    steps = meta.get("timesteps")
    seed = (meta.get("train_args") or {}).get("seed")
    text = f"{int(steps):,} steps" if steps is not None else "?"
    return text + (f" (seed {seed})" if seed is not None else "")


def run_baselines(games: Sequence[str] | None = None, deals: int = DEFAULT_DEALS,
                  simulations: int = DEFAULT_SIMULATIONS, seed: int = 0, ppo: Sequence[str] = (),
                  progress: bool = True, workers: int = 1) -> list[BaselineRow]:
    """All rows of the baseline table (see the module docstring). ``workers`` processes
    play each row's games; the table is the same for any number of workers.

    Raises:
        ValueError: an unknown game, or ``deals``, ``simulations`` or ``workers`` below 1.
    """
    if workers < 1:
        raise ValueError(f"--workers must be >= 1, got {workers}")
    if deals < 1:
        raise ValueError(f"--deals must be >= 1, got {deals}")
    if simulations < 1:
        raise ValueError(f"--simulations must be >= 1, got {simulations}")
    names = list(games) if games else ether_envs.list_games()
    unknown = [g for g in names if g not in ether_envs.GAMES]
    if unknown:
        raise ValueError(f"unknown games {unknown}; registered: {', '.join(ether_envs.list_games())}")
    rows: list[BaselineRow] = []
    for name in names:
        game = ether_envs.load_game(name)
        for spec in ("heuristic", f"mcts:simulations={simulations}"):
            rows.append(_row(name, game, spec, {}, deals, seed, "-", workers=workers))
            if progress:
                print(f"[baselines] {rows[-1].markdown()}  ({rows[-1].seconds:.1f} s)", flush=True)
    for path in ppo:
        from agents.ppo import read_metadata

        meta = read_metadata(path)
        name, config = meta["game"], dict(meta["config"])
        game = ether_envs.load_game(name, **config)
        rows.append(_row(name, game, f"ppo:{path}", config, deals, seed, ppo_budget(meta), label="MaskablePPO",
                         workers=workers))
        if progress:
            print(f"[baselines] {rows[-1].markdown()}  ({rows[-1].seconds:.1f} s)", flush=True)
    return rows


def markdown(rows: Sequence[BaselineRow], deals: int, simulations: int, seed: int) -> str:
    """The table, with the footnotes it needs."""
    lines = [HEADER] + [r.markdown() for r in rows]
    lines.append("")
    lines.append(f"Each game at its default configuration; {deals} deals per row, seed {seed} (deal i uses game "
                 f"seed {seed}+i); competitive rows play every deal once with the agent in each seat and `random` "
                 f"in all the others; MCTS uses {simulations} simulations per move. Win rate = mean credit (win 1, "
                 f"k-way tie for first 1/k). Rerun: `ether-envs baselines --deals {deals} --simulations "
                 f"{simulations} --seed {seed}`.")
    if any(r.cooperative for r in rows):
        lines.append("")
        lines.append(f"[^coop]: {COOP_NOTE}")
    return "\n".join(lines)


def write(rows: Sequence[BaselineRow], out: str | Path, options: dict[str, Any]) -> tuple[Path, Path]:
    """Write ``out.md`` and ``out.json``; return both paths."""
    out = Path(out)
    if out.suffix in (".md", ".json"):
        out = out.with_suffix("")
    out.parent.mkdir(parents=True, exist_ok=True)
    md, js = out.with_suffix(".md"), out.with_suffix(".json")
    md.write_text(markdown(rows, options["deals"], options["simulations"], options["seed"]) + "\n")
    js.write_text(json.dumps({"options": options, "cooperative_note": COOP_NOTE,
                              "rows": [asdict(r) for r in rows]}, indent=1) + "\n")
    return md, js


# ---- command line --------------------------------------------------------------------
def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", nargs="*", default=None, choices=ether_envs.list_games(), metavar="GAME",
                   help="games (default: every registered game)")
    p.add_argument("--deals", type=int, default=DEFAULT_DEALS, help=f"deals per row (default {DEFAULT_DEALS})")
    p.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS,
                   help=f"MCTS simulations per move (default {DEFAULT_SIMULATIONS})")
    p.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    p.add_argument("--ppo", action="append", default=[], metavar="PATH",
                   help="a trained model to add (plays random on the game/config it was trained on); repeatable")
    p.add_argument("--out", default=None, metavar="PATH", help="write PATH.md and PATH.json")
    p.add_argument("--workers", type=int, default=1,
                   help="processes playing each row's games (default 1); the table is the same for any number")
    p.add_argument("--quiet", action="store_true", help="no per-row progress lines")


def run_from_args(args: argparse.Namespace) -> list[BaselineRow]:
    t0 = time.time()
    rows = run_baselines(args.games, deals=args.deals, simulations=args.simulations, seed=args.seed,
                         ppo=args.ppo, progress=not args.quiet, workers=args.workers)
    print(markdown(rows, args.deals, args.simulations, args.seed))
    if args.out:
        options = {"games": args.games or ether_envs.list_games(), "deals": args.deals,
                   "simulations": args.simulations, "seed": args.seed, "ppo": list(args.ppo),
                   "seconds": round(time.time() - t0, 1), "version": ether_envs.__version__}
        md, js = write(rows, args.out, options)
        print(f"written {md} and {js}")
    return rows


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m training.baselines", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    run_from_args(p.parse_args(argv))


if __name__ == "__main__":
    main()
