"""Zoo 2 against zoo 1 and the search anchors: the measurements behind the "Zoo 2" tables of docs/results/zoo2.md.

    python -m training.zoo_report etherium --deals 200 --search-deals 100 --workers 2
    python -m training.zoo_report ethnos --players 3 4 --deals 100 --search-deals 10 --mcts-deals 0

For a competitive game, on the protocol's held-out deals (``HELD_OUT_BASE + i``), every deal
played once with the focal agent in each seat and the opponent in all the others
(:func:`training.evaluate.run_tournament`, ``focal=True``):

* at each player count of ``--players`` (default: every count the game supports), the newest net
  alone (``pretrained``, zoo 2) against the zoo-1 net (``pretrained:zoo=1``) on ``--deals`` deals
  (0 skips these rows);
* at the default player count (or each of ``--search-players``), net + search (``az``, its
  default budget) against the zoo-1 net on
  ``--search-deals`` deals and against ``mcts:simulations=200`` on ``--mcts-deals`` deals, and the
  net alone against ``mcts:simulations=200`` on ``--mcts-deals`` deals (0 skips a row: MCTS costs
  0.2-1 s a decision on the long games).

``--net FILE.npz`` measures that weight file in place of the newest net (``pretrained:path=``,
``az:path=``). Rows (agent, opponent, players, games, win rate, Wilson 95% interval, fair share, seconds) go to
``<out>/<game>.csv`` and ``<out>/<game>.md``; the table is printed.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path
from typing import Any

import ether_envs

from . import usage_error

MCTS = "mcts:simulations=200"


def measure(game_name: str, players: list[int], deals: int, search_deals: int, mcts_deals: int, workers: int,
            log=print, net: str | None = None, search_players: list[int] | None = None) -> list[dict[str, Any]]:
    """The rows described in the module docstring (``net``: a weight file in place of the newest net;
    ``search_players``: the player counts of the search rows, default the game's default count)."""
    from .evaluate import run_tournament
    from .protocol import HELD_OUT_BASE

    from agents.base import quote_spec_value

    default = ether_envs.load_game(game_name).num_players
    alone, search = (("pretrained", "az") if net is None else
                     (f"pretrained:path={quote_spec_value(net)}", f"az:path={quote_spec_value(net)}"))
    plan = [(n, alone, "pretrained:zoo=1", deals) for n in players]
    for n in search_players or [default]:
        plan += [(n, search, "pretrained:zoo=1", search_deals), (n, search, MCTS, mcts_deals),
                 (n, alone, MCTS, mcts_deals)]
    rows = []
    for n, a, b, d in plan:
        if d < 1:
            continue
        t0 = time.perf_counter()
        res = run_tournament(game_name, [a, b], {"num_players": n}, deals=d, seed=HELD_OUT_BASE,
                             pairings=[(a, b)], progress=False, workers=workers)
        r = res.pairing(a, b)
        row = {"game": game_name, "agent": a, "opponent": b, "players": n, "games": r.games,
               "win_rate": r.win_rate, "win_low": r.win_low, "win_high": r.win_high, "fair_share": 1.0 / n,
               "seconds": round(time.perf_counter() - t0, 1)}
        rows.append(row)
        verdict = ("above" if r.win_low > 1.0 / n else "below" if r.win_high < 1.0 / n else "not separated from")
        log(f"{game_name} {n}p: {a} vs {b}: {r.win_rate:.1%} [{r.win_low:.1%}, {r.win_high:.1%}] over {r.games} "
            f"games: {verdict} fair share ({row['seconds']:.0f} s)")
    return rows


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| game | players | agent | opponent | games | win rate [Wilson 95%] | fair share |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['players']} | `{r['agent']}` | `{r['opponent']}` | {r['games']} | "
                     f"{r['win_rate']:.1%} [{r['win_low']:.1%}, {r['win_high']:.1%}] | {r['fair_share']:.0%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    from . import one_thread

    p = argparse.ArgumentParser(prog="python -m training.zoo_report", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=[g for g in ether_envs.list_games()
                                    if ether_envs.load_game(g).utility() != "identical"])
    p.add_argument("--players", nargs="+", type=int, default=None)
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--search-deals", type=int, default=50)
    p.add_argument("--mcts-deals", type=int, default=0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--net", default=None, help="a weight file in place of the newest net (pretrained, az)")
    p.add_argument("--search-players", nargs="+", type=int, default=None,
                   help="player counts of the search rows (default: the game's default count)")
    p.add_argument("--name", default=None, help="file name of the results (default: the game's name)")
    p.add_argument("--out", default="notebooks/reference_results/zoo2")
    a = p.parse_args(argv)
    spec = ether_envs.load_game(a.game).spec
    players = a.players or list(range(spec.min_players, spec.max_players + 1))
    for option, counts in (("--players", players), ("--search-players", a.search_players or [])):
        bad = [n for n in counts if not spec.min_players <= n <= spec.max_players]
        if bad:
            p.error(f"{option}: {a.game} plays {spec.min_players}-{spec.max_players} players, got {bad}")
    for name, low in (("deals", 0), ("workers", 1), ("search_deals", 0), ("mcts_deals", 0)):
        if getattr(a, name) < low:
            p.error(f"--{name.replace('_', '-')} must be >= {low}, got {getattr(a, name)}")
    if a.deals == a.search_deals == a.mcts_deals == 0:
        p.error("--deals, --search-deals and --mcts-deals are all 0: no row to measure")
    from agents.pretrained import shipped_weights, weights_zoo

    if a.net is None and weights_zoo(shipped_weights()[a.game]) == 1:
        print(f"note: {a.game}'s newest net is zoo 1's (it has no zoo-2 net): `pretrained` against "
              "`pretrained:zoo=1` plays the zoo-1 net against itself; give --net FILE.npz to measure another net",
              file=sys.stderr)
    if a.net is not None:
        from agents import make_agent
        from agents.base import quote_spec_value

        try:
            make_agent(f"pretrained:path={quote_spec_value(a.net)}", ether_envs.load_game(a.game))
        except (ValueError, FileNotFoundError) as e:
            usage_error(p, e, "--net: ")
    one_thread()
    rows = measure(a.game, players, a.deals, a.search_deals, a.mcts_deals, a.workers, net=a.net,
                   search_players=a.search_players)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    name = a.name or a.game
    with (out / f"{name}.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    (out / f"{name}.md").write_text(markdown(rows) + "\n")
    print(markdown(rows))
    return rows


if __name__ == "__main__":
    main()
