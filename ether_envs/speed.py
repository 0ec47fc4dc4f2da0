"""Env speed: steps per second of random legal play through the raw engine and the
wrapped AEC env, beside PettingZoo's ``connect_four_v3`` in the same run. (This measures
the environments; the agent-evaluation benchmark is ``training.protocol``.)

    python -m ether_envs.speed                 # every game, default config
    python -m ether_envs.speed --seconds 5 --games aethermon_collect --config num_players=4

For each game it reports steps/s and games/s of

* ``env``: the wrapped PettingZoo env (``ether_envs.make``) driven by the usual
  ``agent_iter()`` / ``last()`` / ``step()`` loop, choosing uniformly among the
  masked-in actions — the same loop that is timed for ``connect_four_v3``;
* ``engine``: the raw rules engine (``state.legal_actions()`` + ``apply_action``);
* ``clone+apply``: ``state.clone()`` followed by one ``apply_action`` (the unit of
  work of tree search);

and the ratio of each steps/s to ``connect_four_v3``'s env steps/s. A "step" is
one ``env.step`` call (dead steps at the end included, as for connect four) or
one ``apply_action``.

``--replay GAME:SEED`` times something else: writing the HTML replay (``save_html``)
of a random game (uniform legal moves, seeded, as ``python -m ether_envs.rendering``
plays it) and prints its wall-clock and CPU seconds, the file's size and the machine's
load average; ``--replay-plain`` also times it with every picture drawn whole (the
plain path, ``save_html(..., fast=False)``), for a before/after.

    python -m ether_envs.speed --replay ethnos:4 --replay-plain

Memory: each game runs in its own Python process (``--no-subprocess`` runs them
all in this one), which reports its peak resident set size (``peak RSS``: the
interpreter, numpy, PettingZoo and connect four included, about 55 MiB of it)
and the peak of Python allocations while making a fresh env and playing 20
games on it, traced with ``tracemalloc`` after the timed slices (``traced peak``:
what one env of the game holds, its static tables included).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from typing import Any, Callable


import ether_envs


class _Meter:
    """Accumulates whole games of one workload over several short slices, so that
    workloads measured in the same run share the machine's load fairly."""

    def __init__(self, run_one: Callable[[int], int]):
        self.run_one = run_one
        self.steps = self.games = 0
        self.elapsed = 0.0

    def slice(self, seconds: float) -> None:
        start = time.perf_counter()
        while True:
            self.steps += self.run_one(self.games)
            self.games += 1
            if time.perf_counter() - start >= seconds:
                break
        self.elapsed += time.perf_counter() - start

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.elapsed

    @property
    def games_per_s(self) -> float:
        return self.games / self.elapsed


def _interleave(meters: list[_Meter], seconds: float, rounds: int = 10) -> None:
    for _ in range(rounds):
        for m in meters:
            m.slice(seconds / rounds)


def env_random_game(env, rng: random.Random, seed: int) -> int:
    """One random game on an AEC env with action masks; returns the number of ``step`` calls.

    The uniform choice among masked-in actions uses a seeded ``random.Random``
    (a numpy ``Generator`` call costs ~1.5 us, which would be timed as if it were
    the env's); connect four is timed with this same loop."""
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            action = None
        else:
            legal = obs["action_mask"].nonzero()[0]
            action = int(legal[int(rng.random() * len(legal))])
        env.step(action)
        steps += 1
    return steps


def engine_random_game(game, rng: random.Random, seed: int) -> int:
    """One random game on the engine; returns the number of ``apply_action`` calls."""
    state = game.new_initial_state(seed=seed)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
        steps += 1
    return steps


def _clone_apply_workload(game, seed: int = 0) -> Callable[[int], int]:
    """``clone()`` + one ``apply_action`` on each state of a few random games."""
    rng = random.Random(seed)
    states = []
    for s in range(5):
        st = game.new_initial_state(seed=s)
        while not st.is_terminal() and len(states) < 200:
            states.append(st.clone())
            legal = st.legal_actions()
            st.apply_action(legal[int(rng.random() * len(legal))])

    def run(_i: int) -> int:
        for st in states:
            c = st.clone()
            legal = c.legal_actions()
            c.apply_action(legal[int(rng.random() * len(legal))])
        return len(states)

    return run


def run(games: list[str], config: dict[str, Any], seconds: float) -> list[dict[str, Any]]:
    """Time each game beside connect_four_v3: for every game, short slices of
    connect four and of the game's workloads are interleaved, so that each ratio
    compares measurements taken under the same machine load. Returns one row per game."""
    from pettingzoo.classic import connect_four_v3

    rng = random.Random(0)
    c4_env = connect_four_v3.env()
    rows = []
    for name in games:
        env = ether_envs.make(name, **config)
        game = ether_envs.load_game(name, **config)
        c4 = _Meter(lambda i: env_random_game(c4_env, rng, i))
        meters = {
            "env": _Meter(lambda i, env=env: env_random_game(env, rng, i)),
            "engine": _Meter(lambda i, game=game: engine_random_game(game, rng, i)),
            "clone_apply": _Meter(_clone_apply_workload(game)),
        }
        _interleave([c4, *meters.values()], seconds)
        tracemalloc.start()
        fresh = ether_envs.make(name, **config)
        for i in range(20):
            env_random_game(fresh, rng, 10_000 + i)
        traced_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append({
            "game": name + (f" {config}" if config else ""),
            "env_steps_per_s": meters["env"].steps_per_s, "env_games_per_s": meters["env"].games_per_s,
            "engine_steps_per_s": meters["engine"].steps_per_s,
            "engine_games_per_s": meters["engine"].games_per_s,
            "clone_apply_per_s": meters["clone_apply"].steps_per_s,
            "c4_steps_per_s": c4.steps_per_s,
            "env_ratio": meters["env"].steps_per_s / c4.steps_per_s,
            "engine_ratio": meters["engine"].steps_per_s / c4.steps_per_s,
            "traced_peak_kib": traced_peak / 1024,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,  # Linux: KiB
        })
    return rows


def run_isolated(games: list[str], config_args: list[str], seconds: float) -> list[dict[str, Any]]:
    """``run`` for each game in its own Python process (so that its peak RSS is its own)."""
    rows = []
    for name in games:
        cmd = [sys.executable, "-m", "ether_envs.speed", "--no-subprocess", "--json",
               "--seconds", str(seconds), "--games", name, "--config", *config_args]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"speed run of {name} failed:\n{proc.stderr.strip()}")
        rows.extend(json.loads(proc.stdout))
    return rows


def time_replay(game: str, seed: int, config: dict[str, Any], fast: bool = True) -> dict[str, Any]:
    """Write the HTML replay (``save_html``) of a random game of ``game`` (uniform legal
    moves, seeded by ``seed``; ``python -m ether_envs.rendering``'s) to a temporary file
    and time it. ``fast``: as ``save_html``'s.

    Returns:
        ``{"game", "seed", "decisions", "fast", "wall_s", "cpu_s", "bytes", "load_before",
        "load_after", "cpus"}``: seconds of wall clock and of CPU (this process) that
        ``save_html`` took, the file's size, the 1-minute load average before and after.
    """
    import os
    import tempfile

    from ether_envs.rendering import save_html
    from ether_envs.rendering.__main__ import random_record

    record = random_record(game, seed, **config)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "replay.html")
        load_before = os.getloadavg()[0]
        wall, cpu = time.perf_counter(), time.process_time()
        save_html(record, path, fast=fast)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        size = os.path.getsize(path)
    return {"game": game, "seed": seed, "decisions": len(record.actions), "fast": fast, "wall_s": wall,
            "cpu_s": cpu, "bytes": size, "load_before": load_before, "load_after": os.getloadavg()[0],
            "cpus": os.cpu_count()}


def format_replay(row: dict[str, Any]) -> str:
    """One line for a :func:`time_replay` result."""
    how = "each picture drawn from the last" if row["fast"] else "each picture drawn whole (plain)"
    return (f"save_html {row['game']} seed {row['seed']} ({row['decisions']:,} decisions), {how}: "
            f"{row['wall_s']:.1f} s wall clock, {row['cpu_s']:.1f} s CPU, {row['bytes'] / 1e6:.2f} MB; "
            f"load average {row['load_before']:.2f} before, {row['load_after']:.2f} after, {row['cpus']} CPUs")


def _parse_config(items: list[str]) -> dict[str, Any]:
    cfg: dict[str, Any] = {}
    for item in items:
        key, _, value = item.partition("=")
        for cast in (int, float):
            try:
                cfg[key] = cast(value)
                break
            except ValueError:
                continue
        else:
            cfg[key] = {"true": True, "false": False}.get(value.lower(), value)
    return cfg


SPEED_FLOOR = {"engine_ratio": 8.0, "env_ratio": 2.0}
"""The speed floor (issue 17, CONTRIBUTING.md): steps/s as a multiple of ``connect_four_v3``'s
env steps/s in the same run, for every game's engine and wrapped env."""
ENV_FLOOR = {"aethermon_collect": 4.0, "ethnos": 4.0}
"""Games whose wrapped env must reach a higher multiple than ``SPEED_FLOOR["env_ratio"]``."""


def floor_shortfalls(rows: list[dict[str, Any]]) -> list[str]:
    """What of ``run``'s rows falls below the speed floor (:data:`SPEED_FLOOR`,
    :data:`ENV_FLOOR`), one message per shortfall; empty when the floor is met. The floor is
    defined for each game's default configuration; rows of another configuration are
    held to it as well."""
    out = []
    for r in rows:
        name = r["game"].split(" ", 1)[0]
        floors = dict(SPEED_FLOOR, env_ratio=ENV_FLOOR.get(name, SPEED_FLOOR["env_ratio"]))
        for key, floor in floors.items():
            if r[key] < floor:
                what = key.split("_")[0]
                out.append(f"{r['game']}: {what} / c4 {r[key]:.2f}x is below the floor {floor:g}x")
    return out


def floor_line(rows: list[dict[str, Any]]) -> str:
    """One line saying whether the speed floor is met, for the table's foot."""
    short = floor_shortfalls(rows)
    rule = (f"speed floor: engine >= {SPEED_FLOOR['engine_ratio']:g}x c4, env >= {SPEED_FLOOR['env_ratio']:g}x c4 "
            f"({', '.join(f'{g} >= {x:g}x' for g, x in ENV_FLOOR.items())})")
    return f"{rule}: met" if not short else f"{rule}: NOT met: " + "; ".join(short)


def format_table(rows: list[dict[str, Any]]) -> str:
    """Markdown table of ``run``'s rows."""
    lines = ["| game | env steps/s | env games/s | engine steps/s | engine games/s | clone+apply/s "
             "| connect_four_v3 env steps/s (same slices) | env / c4 | engine / c4 | peak RSS (MiB) "
             "| traced peak (KiB) |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['env_steps_per_s']:,.0f} | {r['env_games_per_s']:,.1f} | "
                     f"{r['engine_steps_per_s']:,.0f} | {r['engine_games_per_s']:,.1f} | "
                     f"{r['clone_apply_per_s']:,.0f} | {r['c4_steps_per_s']:,.0f} | "
                     f"{r['env_ratio']:.2f}x | {r['engine_ratio']:.2f}x | {r['peak_rss_mib']:,.0f} | "
                     f"{r['traced_peak_kib']:,.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None, prog: str = "python -m ether_envs.speed") -> None:
    """The speed command line; ``prog`` is the command shown in its usage and errors."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=ether_envs.list_games(), help="games to time (default: all)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="seconds per workload and game, spread over 10 interleaved slices (default 3)")
    parser.add_argument("--config", nargs="*", default=[], help="game config as key=value pairs")
    parser.add_argument("--no-subprocess", action="store_true",
                        help="time every game in this process (peak RSS is then the whole run's)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table")
    parser.add_argument("--check-floor", action="store_true",
                        help="exit with status 1 when a game is below the speed floor (engine >= 8x c4, "
                             "env >= 2x c4, Aethermon: Collect and Ethnos env >= 4x c4)")
    parser.add_argument("--replay", metavar="GAME:SEED", nargs="+", action="extend", default=[],
                        help="time save_html on random games instead, e.g. ethnos:4 ether_wars:288")
    parser.add_argument("--replay-plain", action="store_true",
                        help="with --replay: also time it with every picture drawn whole (the plain path)")
    args = parser.parse_args(argv)
    if args.replay:
        _replay_main(parser, args)
        return
    if not args.games:
        parser.error(f"--games needs at least one game; choose from {ether_envs.list_games()}")
    for g in args.games:
        if g not in ether_envs.GAMES:
            parser.error(f"unknown game {g!r}; choose from {ether_envs.list_games()}")
    if not (math.isfinite(args.seconds) and args.seconds > 0):
        parser.error(f"--seconds must be a positive number, got {args.seconds}")
    config = _parse_config(args.config)
    for g in args.games:  # a bad config is an error before anything is timed
        try:
            ether_envs.load_game(g, **config)
        except ValueError as e:
            parser.error(str(e))
    try:
        from pettingzoo.classic import connect_four_v3  # noqa: F401  (the yardstick)
    except ImportError as e:
        parser.error(f"the speed table times PettingZoo's connect_four_v3, which needs its classic games: "
                     f"pip install 'pettingzoo[classic]' (in the dev extra: make speed installs it) ({e})")
    if args.no_subprocess:
        rows = run(args.games, config, args.seconds)
    else:
        rows = run_isolated(args.games, args.config, args.seconds)
    print(json.dumps(rows) if args.json else format_table(rows) + "\n\n" + floor_line(rows))
    if args.check_floor and floor_shortfalls(rows):
        sys.exit(1)


def _replay_main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``--replay``: time ``save_html`` on each ``GAME:SEED``."""
    config = _parse_config(args.config)
    jobs = []
    for item in args.replay:
        game, _, seed = item.partition(":")
        if game not in ether_envs.GAMES:
            parser.error(f"--replay {item[:40]!r}: unknown game {game[:40]!r}; choose from {ether_envs.list_games()}")
        if not seed.isdigit():
            parser.error(f"--replay {item[:40]!r}: the seed after ':' must be a whole number >= 0, e.g. ethnos:4")
        try:
            ether_envs.load_game(game, **config)
        except ValueError as e:
            parser.error(str(e))
        jobs.append((game, int(seed)))
    rows = []
    for game, seed in jobs:
        for fast in (True, False) if args.replay_plain else (True,):
            rows.append(time_replay(game, seed, config, fast))
            if not args.json:
                print(format_replay(rows[-1]), flush=True)
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
