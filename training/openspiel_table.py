"""OpenSpiel's ``ISMCTSBot`` (a few budgets) against our ``heuristic`` and ``mcts`` agents on every game.

    python -m training.openspiel_table --budgets 4 16 --opponents heuristic mcts:simulations=16 --deals 1

Needs the ``openspiel`` extra. Each game plays at a configuration with hidden information
(OpenSpiel's ISMCTS needs one: Aethermon: Collect with ``hidden_artefacts=True``; the others'
defaults, Ethnos with 2 players) listed in :data:`CONFIGS`:

* **competitive games**: ``openspiel:ismcts:simulations=B`` against each opponent spec, a
  tournament pairing (:func:`training.evaluate.run_tournament`): every deal once with ISMCTS in
  each seat and the opponent in the others; win rate = ISMCTS's mean credit (win 1, k-way tie
  for first 1/k) with its Wilson 95% interval.
* **co-operative games** (Aetherspire): no opponent; each spec (ISMCTS at each budget and each
  opponent spec) plays every seat as one team on the same deals
  (:func:`training.baselines.team_result`); win rate = the team's.

Deal ``i`` is game seed ``seed + i`` for every row, so all rows of a game play the same deals.
``--out PATH`` writes ``PATH.md`` (the table, the command, the seed and the time) and ``PATH.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

import ether_envs

from . import baselines as baselines_mod
from . import evaluate as evaluate_mod

CONFIGS: dict[str, dict[str, Any]] = {
    "aethermon_collect": {"hidden_artefacts": True},
    "ethnos": {"num_players": 2},
    "etherium": {},
    "ether_wars": {},
    "aetherspire": {},
}
"""The configuration each game is played at (imperfect information, the shortest player count)."""
DEFAULT_BUDGETS = (4, 16)
DEFAULT_OPPONENTS = ("heuristic", "mcts:simulations=16")


@dataclass
class Row:
    """One line: ``agent`` against ``opponent`` (``"-"``: a co-operative team) on ``game``."""

    game: str
    config: dict
    players: int
    agent: str
    opponent: str
    games: int
    win_rate: float
    win_low: float
    win_high: float
    cpu_seconds: float

    def markdown(self) -> str:
        cfg = ", ".join(f"{k}={v}" for k, v in self.config.items()) or "default"
        opp = "- (team)" if self.opponent == "-" else self.opponent
        return (f"| {self.game} | {cfg} | {self.players} | {self.agent} | {opp} | {self.games} | {self.win_rate:.0%} "
                f"| [{self.win_low:.0%}, {self.win_high:.0%}] | {self.cpu_seconds:.0f} |")


HEADER = ("| game | config | players | agent | opponent | games | win rate | 95% interval (Wilson) | CPU s |\n"
          "|---|---|---|---|---|---|---|---|---|")


def ismcts_spec(budget: int) -> str:
    """The agent spec of OpenSpiel's ISMCTS with ``budget`` simulations per decision."""
    return f"openspiel:ismcts:simulations={budget}"


def run(games: Sequence[str] | None = None, budgets: Sequence[int] = DEFAULT_BUDGETS,
        opponents: Sequence[str] = DEFAULT_OPPONENTS, deals: int = 1, seed: int = 0,
        progress: bool = True) -> list[Row]:
    """Measure every row (see the module docstring).

    Raises:
        ValueError: an unknown game, a budget or ``deals`` below 1, or a bad opponent spec.
    """
    names = list(games) if games else ether_envs.list_games()
    unknown = [g for g in names if g not in CONFIGS]
    if unknown:
        raise ValueError(f"unknown games {unknown}; known: {', '.join(CONFIGS)}")
    if deals < 1:
        raise ValueError(f"deals must be >= 1, got {deals}")
    bad = [b for b in budgets if isinstance(b, bool) or not isinstance(b, int) or b < 1]
    if bad or not budgets:
        raise ValueError(f"budgets must be positive ints, got {list(budgets)}")
    rows: list[Row] = []
    for name in names:
        config = CONFIGS[name]
        game = ether_envs.load_game(name, **config)
        n = game.num_players
        agents = [ismcts_spec(b) for b in budgets]
        if baselines_mod.is_cooperative(game):
            for spec in [*agents, *opponents]:
                t0 = time.process_time()
                played, rate, low, high = baselines_mod.team_result(name, spec, config, deals, seed)
                rows.append(Row(name, config, n, spec, "-", played, rate, low, high, time.process_time() - t0))
                _report(rows[-1], progress)
        else:
            for spec in agents:
                for opp in opponents:
                    t0 = time.process_time()
                    res = evaluate_mod.run_tournament(name, [spec, opp], config, deals=deals, seed=seed,
                                                      pairings=[(spec, opp)], progress=False)
                    pr = res.pairings[0]
                    rows.append(Row(name, config, n, spec, opp, pr.games, pr.win_rate, pr.win_low, pr.win_high,
                                    time.process_time() - t0))
                    _report(rows[-1], progress)
    return rows


def _report(row: Row, progress: bool) -> None:
    if progress:
        print(f"[openspiel-table] {row.markdown()}", flush=True)


def command_line(games: Sequence[str] | None, budgets: Sequence[int], opponents: Sequence[str], deals: int,
                 seed: int) -> str:
    """The command that reruns a table."""
    parts = ["python -m training.openspiel_table"]
    if games:
        parts.append("--games " + " ".join(games))
    parts.append("--budgets " + " ".join(str(b) for b in budgets))
    parts.append("--opponents " + " ".join(opponents))
    parts.append(f"--deals {deals} --seed {seed}")
    return " ".join(parts)


def markdown(rows: Sequence[Row], command: str, deals: int, seed: int, cpu_seconds: float,
             wall_seconds: float) -> str:
    """The table with its notes."""
    lines = [HEADER, *(r.markdown() for r in rows), ""]
    lines.append(f"`openspiel:ismcts:simulations=B` is OpenSpiel's ISMCTSBot (open_spiel "
                 f"{_openspiel_version()}) through `ether_envs.openspiel`: B determinizations per decision, UCT "
                 f"c = 2, one random rollout per leaf. {deals} deal(s) per row, seed {seed} (deal i is game seed "
                 f"{seed}+i, the same deals for every row of a game); competitive rows play every deal once with "
                 f"the agent in each seat; co-operative rows (`- (team)`) are the team win rate of that agent in "
                 f"every seat. Command: `{command}`. CPU time {cpu_seconds / 60:.1f} minutes "
                 f"(wall {wall_seconds / 60:.1f} minutes).")
    return "\n".join(lines)


def _openspiel_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open_spiel")
    except PackageNotFoundError:
        return "?"


def main(argv: list[str] | None = None) -> list[Row]:
    p = argparse.ArgumentParser(prog="python -m training.openspiel_table", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", nargs="*", default=None, choices=list(CONFIGS), metavar="GAME",
                   help="games (default: every game)")
    p.add_argument("--budgets", nargs="+", type=int, default=list(DEFAULT_BUDGETS),
                   help=f"ISMCTS simulations per decision (default {' '.join(map(str, DEFAULT_BUDGETS))})")
    p.add_argument("--opponents", nargs="+", default=list(DEFAULT_OPPONENTS),
                   help=f"our agent specs to play against (default {' '.join(DEFAULT_OPPONENTS)})")
    p.add_argument("--deals", type=int, default=1, help="deals per row (default 1)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--out", default=None, metavar="PATH", help="write PATH.md and PATH.json")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    args = p.parse_args(argv)
    cpu0, wall0 = time.process_time(), time.time()
    rows = run(args.games, args.budgets, args.opponents, args.deals, args.seed, progress=not args.quiet)
    cpu, wall = time.process_time() - cpu0, time.time() - wall0
    command = command_line(args.games, args.budgets, args.opponents, args.deals, args.seed)
    text = markdown(rows, command, args.deals, args.seed, cpu, wall)
    print(text)
    if args.out:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.with_suffix(".md").write_text(text + "\n")
        out.with_suffix(".json").write_text(json.dumps(
            {"command": command, "seed": args.seed, "deals": args.deals, "cpu_seconds": round(cpu, 1),
             "wall_seconds": round(wall, 1), "open_spiel": _openspiel_version(),
             "rows": [asdict(r) for r in rows]}, indent=1) + "\n")
        print(f"written {out.with_suffix('.md')} and {out.with_suffix('.json')}")
    return rows


if __name__ == "__main__":
    main()
