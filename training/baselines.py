"""The per-game round robin (docs/benchmark.md) for every registered game, from one rerunnable command.

    ether-envs baselines --deals 10 --simulations 200 --workers 2 --out results/baselines   # the stored run
    ether-envs baselines --games ethnos etherium --deals 20 --simulations 100
    ether-envs baselines --ppo runs/main/model.zip       # add a trained SB3 model (on its own game/config)
    ether-envs baselines --games ethnos --extra openspiel:ismcts:simulations=50   # more rungs: any agent spec

For each game at its default configuration (default player count) the ladder is
``random``, ``heuristic``, ``mcts:simulations=N`` (``--simulations``) and, when the
game has shipped weights (``agents/weights/<game>.npz``), ``pretrained``; ``--extra SPEC``
adds any agent spec as a further rung of every game's ladder (e.g. OpenSpiel's own search,
``openspiel:ismcts:simulations=50``; the spec must suit every game in ``--games``).

* **Competitive games**: a round robin (:func:`training.evaluate.run_tournament`): every
  pair of ladder agents A vs B plays ``--deals`` paired deals with full seat rotation
  (every deal once with A in each seat and B in all the others). Each pairing gets a row
  with A's win rate (mean credit: win 1, k-way tie for first 1/k) and its Wilson 95%
  interval; A is the agent listed later in the ladder, so rows read "stronger vs weaker".
  The ladder ranks the agents by their rating over all the games of the round robin (a batch
  fit of top-1 Plackett-Luce counting every seat, on the Elo scale with ``random`` at 0:
  :mod:`training.rating`), best first.
* **Co-operative games** (utility ``identical``, e.g. Aetherspire) have no opponent: each
  ladder agent plays all seats as one team on ``--deals`` deals (:func:`team_result`), and
  the ladder ranks them by team win rate (positive final return), with Wilson intervals.

A ``--ppo`` model plays ``random`` on the game and config it was trained on (read from the
model's metadata); it gets a row, not a ladder rank. ``--workers N`` plays the games in ``N``
processes; the tables are the same for any ``N``.

``--out PATH`` writes ``PATH.md`` (the ladder, the head-to-head table and their notes,
with the command, the seed and the time taken) and ``PATH.json`` (the same data).
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
from . import usage_error

DEFAULT_DEALS = 10
"""Deals per pairing (each played once per seat in competitive games) and per co-operative team."""
DEFAULT_SIMULATIONS = 200
"""MCTS simulations per move."""
LADDER = ("random", "heuristic", "mcts:simulations={simulations}", "pretrained")
"""The ladder's agent specs, weakest first (``pretrained`` only for games with shipped weights)."""

COOP_NOTE = ("Co-operative game: there is no opponent; the agent plays every seat as one team and the "
             "win rate is the team's win rate over the deals.")


@dataclass
class BaselineRow:
    """One line of the head-to-head table: ``agent`` vs ``opponent`` (``"-"``: a co-operative team)."""

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
    game_version: int | None = None
    """The env version it was measured on (``ether/<game>-v<game_version>``)."""

    def markdown(self) -> str:
        opp = f"- (team)[^coop]" if self.cooperative else self.opponent
        return (f"| {self.game} | {self.agent} | {opp} | {self.players} | {self.games} | {self.win_rate:.1%} "
                f"| [{self.win_low:.1%}, {self.win_high:.1%}] | {self.budget} | {self.seed} |")


@dataclass
class LadderEntry:
    """One agent's place in its game's ladder. Competitive games: ``rating`` (Elo, ``random`` = 0,
    over the round robin); co-operative games: the team ``win_rate`` and interval."""

    game: str
    rank: int
    agent: str
    players: int
    games: int
    cooperative: bool = False
    rating: float | None = None
    win_rate: float | None = None
    win_low: float | None = None
    win_high: float | None = None

    def markdown(self) -> str:
        rating = "-" if self.rating is None else f"{self.rating:.0f}"
        team = "-" if self.win_rate is None else f"{self.win_rate:.1%}"
        interval = "-" if self.win_low is None else f"[{self.win_low:.1%}, {self.win_high:.1%}]"
        return (f"| {self.game} | {self.rank} | {self.agent} | {self.players} | {rating} | {team} | {interval} "
                f"| {self.games} |")


LADDER_HEADER = ("| game | rank | agent | players | rating (Elo, random = 0) | team win rate[^coop] "
                 "| 95% interval (Wilson) | games |\n|---|---|---|---|---|---|---|---|")


@dataclass
class Baselines:
    """What :func:`run_baselines` measured: the head-to-head ``rows`` and each game's ``ladder``."""

    rows: list[BaselineRow]
    ladder: list[LadderEntry]


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


def ladder_specs(game_name: str, simulations: int, extra: Sequence[str] = ()) -> list[str]:
    """The ladder of ``game_name``, weakest first (``pretrained`` only with shipped weights),
    then the ``extra`` specs (those already on the ladder are not repeated)."""
    from agents.pretrained import shipped_weights

    specs = [spec.format(simulations=simulations) for spec in LADDER]
    if game_name not in shipped_weights():
        specs.remove("pretrained")
    return list(dict.fromkeys([*specs, *extra]))


def _budget(game_name: str, spec: str) -> str:
    """The training budget of a ladder agent (``-`` for the untrained ones)."""
    if spec != "pretrained":
        return "-"
    from agents.pretrained import MLPPolicy, shipped_weights

    game = ether_envs.load_game(game_name)
    t = MLPPolicy.load(shipped_weights(num_players=game.num_players)[game_name]).metadata.get("training") or {}
    parts = ["bc + ppo" if t.get("init") else str(t.get("algorithm", "?"))]
    if t.get("frames") is not None:
        parts.append(f"{int(t['frames']):,} PPO frames")
    minutes = t.get("wall_minutes", t.get("minutes"))
    if minutes is not None:
        parts.append(f"{float(minutes):.1f} min")
    return " ".join(parts) + (f" (seed {t['seed']})" if t.get("seed") is not None else "")


def game_ladder(game_name: str, deals: int, simulations: int, seed: int, workers: int = 1,
                progress: bool = False, extra: Sequence[str] = ()) -> Baselines:
    """One game's ladder at its default configuration (see the module docstring)."""
    game = ether_envs.load_game(game_name)
    n = game.num_players
    specs = ladder_specs(game_name, simulations, extra)
    rows: list[BaselineRow] = []
    ladder: list[LadderEntry] = []
    if is_cooperative(game):
        for spec in specs:
            t0 = time.perf_counter()
            games, rate, low, high = team_result(game_name, spec, {}, deals, seed, workers=workers)
            rows.append(BaselineRow(game_name, spec, "-", n, games, rate, low, high, _budget(game_name, spec), seed,
                                    cooperative=True, seconds=time.perf_counter() - t0))
            ladder.append(LadderEntry(game_name, 0, spec, n, games, cooperative=True, win_rate=rate, win_low=low,
                                      win_high=high))
        ladder.sort(key=lambda e: (-e.win_rate, -e.win_low))  # stable: ties keep the ladder order
    else:
        pairs = [(specs[j], specs[i]) for j in range(1, len(specs)) for i in range(j)]  # stronger vs weaker
        res = evaluate_mod.run_tournament(game_name, specs, {}, deals=deals, seed=seed, progress=progress,
                                          pairings=pairs, workers=workers)
        for pr in res.pairings:
            rows.append(BaselineRow(game_name, pr.agent, pr.opponent, n, pr.games, pr.win_rate, pr.win_low,
                                    pr.win_high, _budget(game_name, pr.agent), seed, seconds=pr.seconds))
        for spec in specs:
            r = res.ratings[spec]
            played = sum(pr.games for pr in res.pairings if spec in (pr.agent, pr.opponent))
            ladder.append(LadderEntry(game_name, 0, spec, n, played, rating=r["elo"]))
        ladder.sort(key=lambda e: -e.rating)
    for rank, entry in enumerate(ladder, 1):
        entry.rank = rank
    for row in rows:
        row.game_version = game.spec.version
    return Baselines(rows, ladder)


def _ppo_row(path: str, deals: int, seed: int, workers: int = 1) -> BaselineRow:
    """A MaskablePPO model (``ppo:PATH``) against ``random`` on its own game and config."""
    from agents.ppo import read_metadata

    t0 = time.perf_counter()
    meta = read_metadata(path)
    name, config = meta["game"], dict(meta["config"])
    game = ether_envs.load_game(name, **config)
    spec = f"ppo:{path}"
    if is_cooperative(game):
        games, rate, low, high = team_result(name, spec, config, deals, seed, workers=workers)
        row = BaselineRow(name, "MaskablePPO", "-", game.num_players, games, rate, low, high, ppo_budget(meta), seed,
                          cooperative=True)
    else:
        res = evaluate_mod.run_tournament(name, [spec, "random"], config, deals=deals, seed=seed, progress=False,
                                          pairings=[(spec, "random")], workers=workers)
        pr = res.pairings[0]
        row = BaselineRow(name, "MaskablePPO", "random", game.num_players, pr.games, pr.win_rate, pr.win_low,
                          pr.win_high, ppo_budget(meta), seed)
    row.seconds = time.perf_counter() - t0
    row.game_version = game.spec.version
    return row


def ppo_budget(meta: dict[str, Any]) -> str:
    """``"150,000 steps (seed 0)"`` from a model's metadata."""
    steps = meta.get("timesteps")
    seed = (meta.get("train_args") or {}).get("seed")
    text = f"{int(steps):,} steps" if steps is not None else "?"
    return text + (f" (seed {seed})" if seed is not None else "")


def run_baselines(games: Sequence[str] | None = None, deals: int = DEFAULT_DEALS,
                  simulations: int = DEFAULT_SIMULATIONS, seed: int = 0, ppo: Sequence[str] = (),
                  progress: bool = True, workers: int = 1, extra: Sequence[str] = ()) -> Baselines:
    """Every game's ladder and head-to-head rows (see the module docstring). ``workers``
    processes play the games; the result is the same for any number of workers. ``extra``:
    agent specs added to every game's ladder.

    Raises:
        ValueError: an unknown game, ``deals``, ``simulations`` or ``workers`` below 1, ``seed``
            below 0, shipped weights that no longer match their game (retrain that game's
            recipe), or an ``extra`` spec that does not suit a game (checked for every game
            before any is played).
    """
    if workers < 1:
        raise ValueError(f"--workers must be >= 1, got {workers}")
    if deals < 1:
        raise ValueError(f"--deals must be >= 1, got {deals}")
    if simulations < 1:
        raise ValueError(f"--simulations must be >= 1, got {simulations}")
    if seed < 0:
        raise ValueError(f"--seed must be >= 0, got {seed}")
    names = list(games) if games else ether_envs.list_games()
    unknown = [g for g in names if g not in ether_envs.GAMES]
    if unknown:
        raise ValueError(f"unknown games {unknown}; registered: {', '.join(ether_envs.list_games())}")
    if extra:
        from agents import make_agent

        for name in names:  # fail before hours of play, not after
            for spec in extra:
                make_agent(spec, ether_envs.load_game(name))
    out = Baselines([], [])
    for name in names:
        t0 = time.perf_counter()
        if progress:
            print(f"[baselines] {name}: {', '.join(ladder_specs(name, simulations, extra))}", flush=True)
        part = game_ladder(name, deals, simulations, seed, workers=workers, progress=progress, extra=extra)
        out.rows += part.rows
        out.ladder += part.ladder
        if progress:
            for entry in part.ladder:
                print(f"[baselines] {entry.markdown()}", flush=True)
            print(f"[baselines] {name} done in {time.perf_counter() - t0:.0f} s", flush=True)
    for path in ppo:
        out.rows.append(_ppo_row(path, deals, seed, workers))
        if progress:
            print(f"[baselines] {out.rows[-1].markdown()}  ({out.rows[-1].seconds:.1f} s)", flush=True)
    return out


def command_line(deals: int, simulations: int, seed: int, games: Sequence[str] | None = None,
                 ppo: Sequence[str] = (), workers: int = 1, extra: Sequence[str] = ()) -> str:
    """The ``ether-envs baselines`` command that reruns a table."""
    parts = ["ether-envs baselines"]
    if games:
        parts.append("--games " + " ".join(games))
    parts.append(f"--deals {deals} --simulations {simulations} --seed {seed}")
    parts += [f"--ppo {p}" for p in ppo]
    if extra:
        parts.append("--extra " + " ".join(extra))
    if workers != 1:
        parts.append(f"--workers {workers}")
    return " ".join(parts)


def markdown(result: Baselines, deals: int, simulations: int, seed: int, command: str | None = None,
             seconds: float | None = None) -> str:
    """The ladder and the head-to-head table, with the notes they need."""
    rows = result.rows
    lines = ["Ladder (each game best first: competitive games by rating over the round robin, a batch fit of "
             "top-1 Plackett-Luce counting every seat, Elo scale, random = 0; co-operative games by team win "
             "rate):", "", LADDER_HEADER]
    lines += [e.markdown() for e in result.ladder]
    lines += ["", "Head to head (win rate of the agent against the opponent):", "", HEADER]
    lines += [r.markdown() for r in rows]
    lines.append("")
    command = command or command_line(deals, simulations, seed)
    took = ""
    if seconds is not None:
        took = f" Took {seconds:.0f} s." if seconds < 120 else f" Took {seconds / 60:.1f} minutes."
    lines.append(f"Each game at its default configuration; {deals} deals per pairing, seed {seed} (deal i uses game "
                 f"seed {seed}+i); competitive pairings play every deal once with the agent in each seat and the "
                 f"opponent in all the others; MCTS uses {simulations} simulations per move; `pretrained` is the "
                 f"game's shipped policy network (no search). Win rate = mean credit (win 1, k-way tie for first "
                 f"1/k). Command: `{command}`.{took}")
    lines.append("")
    lines.append(f"[^coop]: {COOP_NOTE}")
    return "\n".join(lines)


def write(result: Baselines, out: str | Path, options: dict[str, Any]) -> tuple[Path, Path]:
    """Write ``out.md`` and ``out.json``; return both paths. ``options`` holds at least ``deals``,
    ``simulations`` and ``seed``, and may hold ``command`` and ``seconds``."""
    out = Path(out)
    if out.suffix in (".md", ".json"):
        out = out.with_suffix("")
    out.parent.mkdir(parents=True, exist_ok=True)
    md, js = out.with_suffix(".md"), out.with_suffix(".json")
    md.write_text(markdown(result, options["deals"], options["simulations"], options["seed"],
                           command=options.get("command"), seconds=options.get("seconds")) + "\n")
    js.write_text(json.dumps({"command": options.get("command"), "seed": options["seed"],
                              "seconds": options.get("seconds"), "options": options, "cooperative_note": COOP_NOTE,
                              "ladder": [asdict(e) for e in result.ladder],
                              "rows": [asdict(r) for r in result.rows]}, indent=1) + "\n")
    return md, js


# ---- command line --------------------------------------------------------------------
def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", nargs="*", default=None, choices=ether_envs.list_games(), metavar="GAME",
                   help="games (default: every registered game)")
    p.add_argument("--deals", type=int, default=DEFAULT_DEALS,
                   help=f"deals per pairing (default {DEFAULT_DEALS}); each is played once per seat")
    p.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS,
                   help=f"MCTS simulations per move (default {DEFAULT_SIMULATIONS})")
    p.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    p.add_argument("--ppo", action="append", default=[], metavar="PATH",
                   help="a trained model to add (plays random on the game/config it was trained on); repeatable")
    p.add_argument("--extra", nargs="*", default=[], metavar="SPEC",
                   help="agent specs to add to every game's ladder, e.g. openspiel:ismcts:simulations=50")
    p.add_argument("--out", default=None, metavar="PATH", help="write PATH.md and PATH.json")
    p.add_argument("--workers", type=int, default=1,
                   help="processes playing the games (default 1); the tables are the same for any number")
    p.add_argument("--quiet", action="store_true", help="no progress lines")


def run_from_args(args: argparse.Namespace) -> Baselines:
    t0 = time.time()
    result = run_baselines(args.games, deals=args.deals, simulations=args.simulations, seed=args.seed,
                           ppo=args.ppo, progress=not args.quiet, workers=args.workers, extra=args.extra)
    seconds = round(time.time() - t0, 1)
    command = command_line(args.deals, args.simulations, args.seed, args.games, args.ppo, args.workers, args.extra)
    print(markdown(result, args.deals, args.simulations, args.seed, command=command, seconds=seconds))
    if args.out:
        options = {"games": args.games or ether_envs.list_games(), "deals": args.deals,
                   "simulations": args.simulations, "seed": args.seed, "ppo": list(args.ppo),
                   "extra": list(args.extra),
                   "workers": args.workers, "command": command, "seconds": seconds,
                   "version": ether_envs.__version__}
        md, js = write(result, args.out, options)
        print(f"written {md} and {js}")
    return result


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m training.baselines", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    args = p.parse_args(argv)
    try:
        run_from_args(args)
    except (ValueError, OSError) as e:  # a bad spec or config: usage and one error line, not a traceback
        usage_error(p, e)


if __name__ == "__main__":
    main()
