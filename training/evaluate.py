"""Tournaments between agent specs, with seat rotation and paired seeds.

    ether-envs evaluate aethermon_collect random heuristic mcts:simulations=100 --deals 50
    python -m training.evaluate aethermon_collect ppo:runs/main/model.zip random --focal --workers 2
    # a long tournament in 8 shards (any machines, any order), then pooled:
    ether-envs evaluate ether_wars az mcts:simulations=200 --deals 200 --shard 3/8 --out runs/t/shard_3
    ether-envs merge runs/t/shard_* --out runs/t/all

Each *pairing* (A, B) is played on ``deals`` seeded deals; on every deal A
sits once in every seat with B in all the other seats (so with 2 players the
two agents swap seats on the same deal). Every agent therefore plays every
seat on the same deals, which removes the seat and deal luck from the
comparison. Agents are reseeded for every game from the tournament seed, the
matchup (the two specs), the deal, the seat and the player, never from where the
pairing sits in the tournament, so the same matchup plays the same games in any
tournament, also when ``--workers N`` plays the games in ``N`` processes (results
are gathered and rated in game order, so they are identical for any number of
workers).

Per game, A's *credit* is 1 if A alone has the highest return, ``1/k`` if it
shares the highest return with ``k-1`` others (all equal: ``1/n``), else 0;
with 2 players: win 1, draw 1/2, loss 0. The win rate is the mean credit with
a Wilson score 95% interval; mean scores (``state.scores()``) get a normal
95% interval. Ratings (:mod:`training.rating`) are one batch fit of a top-1
Plackett-Luce model over all games, every seat counted (an opponent filling two
seats is two competitors), on the Elo scale with ``random`` (or else the first
spec) at 0. Results go to ``results.json``,
``summary.csv``, ``games.csv`` and ``results.png`` in ``out_dir``.

*Shards.* ``--shard I/N`` plays only the ``I``-th of ``N`` contiguous blocks of the deals, with
the same game and agent seeds as the whole tournament, so ``ether-envs merge`` of the ``N``
shards' folders gives the results of the unsharded run (its games, win rates and ratings; the
timings are the shards' sums). ``merge --partial`` pools the shards played so far.
"""

from __future__ import annotations

import argparse
import csv
import functools
import itertools
import json
import math
import re
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

import ether_envs
from ether_envs.core import check_int, parse_config_value

from .protocol import HELD_OUT_BASE
from . import usage_error

Z95 = 1.959963984540054


# ---- statistics -----------------------------------------------------------------
def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` (``(0, 1)`` when ``n == 0``)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)  # exactly 0 / 1 at the ends (no rounding residue)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """``(mean, half-width)`` of a normal 95% interval of the mean (half-width 0 for < 2 values)."""
    v = np.asarray(values, dtype=np.float64)
    if len(v) == 0:
        return float("nan"), float("nan")
    if len(v) < 2:
        return float(v.mean()), 0.0
    return float(v.mean()), float(z * v.std(ddof=1) / math.sqrt(len(v)))


def credit(returns: np.ndarray, seat: int) -> float:
    """Share of the win of ``seat``: 1 alone on top, 1/k when k seats tie on top, else 0."""
    top = returns.max()
    tied = np.flatnonzero(np.isclose(returns, top))
    return 1.0 / len(tied) if seat in tied else 0.0


# ---- playing ------------------------------------------------------------------------
class IllegalActionError(RuntimeError, ValueError):
    """An agent chose an action that is not legal (a ``ValueError``, so the command line reports
    it as a bad input, and a ``RuntimeError`` as before)."""

def play_game(game, agents: Sequence[Any], seed: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Play one game of ``game`` (a configured ``Game``) with ``agents[seat]`` in each seat.

    Returns:
        ``(returns, scores, steps)``: float64 ``(n,)`` each, and the number of decisions.

    Raises:
        IllegalActionError: an agent chose an illegal action (the message names it).
    """
    state = play_to_end(game, agents, seed)
    return state.returns(), state.scores(), len(state.history)


def play_to_end(game, agents: Sequence[Any], seed: int):
    """Play one game as :func:`play_game` does and return the final engine state."""
    state = game.new_initial_state(seed=seed)
    steps = 0
    limit = game.max_game_length()
    while not state.is_terminal():
        p = state.current_player()
        a = agents[p].act(state, p)
        try:
            state.apply_action(a)
        except ValueError as e:
            raise IllegalActionError(f"agent {getattr(agents[p], 'name', agents[p])!r} in seat {p}: {e}") from None
        steps += 1
        if steps > limit:
            raise RuntimeError(f"game exceeded max_game_length {limit}")
    return state


@dataclass
class PairingResult:
    """One pairing's summary (A vs B). ``win_rate`` is A's mean credit."""

    agent: str
    opponent: str
    games: int = 0
    credit: float = 0.0
    win_rate: float = 0.0
    win_low: float = 0.0
    win_high: float = 1.0
    mean_score: float = 0.0
    mean_score_ci: float = 0.0
    opponent_mean_score: float = 0.0
    opponent_mean_score_ci: float = 0.0
    mean_return: float = 0.0
    steps: int = 0
    seconds: float = 0.0
    steps_per_second: float = 0.0


@dataclass
class TournamentResult:
    """Everything a tournament measured (see the module docstring)."""

    game: str
    config: dict
    specs: list[str]
    deals: int
    seed: int
    pairings: list[PairingResult] = field(default_factory=list)
    game_version: int = 0
    """The env version the games were played on (``ether/<game>-v<game_version>``, CHANGELOG.md)."""
    ratings: dict[str, dict[str, float]] = field(default_factory=dict)
    games: list[dict[str, Any]] = field(default_factory=list)
    shard_count: int = 0
    """0: every deal was played here; ``n`` >= 1: the tournament was split into ``n`` shards
    (:func:`shard_deals`) and ``shards`` lists the ones these results hold."""
    shards: list[int] = field(default_factory=list)
    """The shards (1-based) whose games these results hold: one for a shard's own run, several
    after :func:`merge_results`; empty when ``shard_count`` is 0."""

    def pairing(self, agent: str, opponent: str) -> PairingResult:
        for r in self.pairings:
            if r.agent == agent and r.opponent == opponent:
                return r
        raise KeyError((agent, opponent))

    def table(self) -> str:
        """The results as a Markdown table."""
        rows = ["| agent | opponent | games | win rate | 95% CI (Wilson) | mean score | opponent mean score "
                "| rating, Elo (agent / opponent) | steps/s |",
                "|---|---|---|---|---|---|---|---|---|"]

        def rating(spec: str) -> str:
            rt = self.ratings.get(spec)
            return f"{rt['elo']:.0f}" if rt else "-"

        for r in self.pairings:
            rows.append(
                f"| {r.agent} | {r.opponent} | {r.games} | {r.win_rate:.1%} | [{r.win_low:.1%}, {r.win_high:.1%}] "
                f"| {r.mean_score:.1f} +- {r.mean_score_ci:.1f} | {r.opponent_mean_score:.1f} +- {r.opponent_mean_score_ci:.1f} "
                f"| {rating(r.agent)} / {rating(r.opponent)} | {r.steps_per_second:,.0f} |")
        return "\n".join(rows)


def pairings_for(specs: Sequence[str], focal: bool) -> list[tuple[str, str]]:
    """All unordered pairs of distinct specs (round robin), or ``focal``: the first spec against each other one."""
    if len(specs) < 2 and not focal:
        return [(specs[0], specs[0])] if specs else []
    if focal:
        return [(specs[0], b) for b in specs[1:]] or [(specs[0], specs[0])]
    return list(itertools.combinations(specs, 2))


def run_tournament(game_name: str, specs: Sequence[str], config: dict | None = None, deals: int = 50,
                   seed: int = 0, focal: bool = False, progress: bool = True,
                   out_dir: str | Path | None = None, agents: dict[str, Any] | None = None,
                   pairings: Sequence[tuple[str, str]] | None = None,
                   records_dir: str | Path | None = None, workers: int = 1,
                   shard: tuple[int, int] | None = None) -> TournamentResult:
    """Play every pairing on ``deals`` paired deals with full seat rotation.

    Args:
        game_name: registered game; config: its configuration.
        specs: agent specs (``agents.make_agent``); the same spec twice plays an agent against itself.
        deals: deals per pairing; each is played ``num_players`` times (A in each seat).
        seed: deal ``i`` uses game seed ``seed + i``; agents are reseeded for every game from
            ``(seed, A's spec, B's spec, deal, seat, player)`` (:func:`agent_seed`), never from
            the pairing's position or the order games are played in.
        focal: only the first spec against each other one (default: round robin).
        agents: optional prebuilt agents by spec: an ``agents.Agent``, any object with
            ``act(state, player)`` (``seed()`` optional), a callable ``(observation, action_mask)
            -> action`` or a torch module returning logits (:func:`agents.as_agent`); they must
            pickle when ``workers > 1``.
        pairings: explicit ``(A, B)`` pairs (overrides ``focal``).
        out_dir: where to write JSON/CSV/PNG (nothing written if ``None``).
        records_dir: where to write a game record (``ether_envs.records``) of every game, named
            ``p{pairing}_d{deal}_s{seat}.json`` (nothing written if ``None``).
        workers: processes playing the games (1: this process). Every game's seeds depend only on
            its index, and the results are gathered and rated in game order, so win rates,
            ratings, games and records are identical for any number of workers (only the
            timings differ: ``seconds`` sums the time spent playing each game).
        shard: ``(i, n)``, 1 <= i <= n <= deals: play only the ``i``-th of ``n`` blocks of deals
            (:func:`shard_deals`). A deal's games, seeds and agent seeds are those of the whole
            tournament, so :func:`merge_results` of all ``n`` shards equals the unsharded run
            (timings aside). ``None`` (default): every deal.

    Returns:
        :class:`TournamentResult` (``deals`` is the whole tournament's, also for a shard).

    Raises:
        ValueError: ``workers < 1``, ``seed`` not a non-negative int, or a ``shard`` outside
            ``1 <= i <= n <= deals`` (all raised before ``out_dir`` is made).
        OSError: ``out_dir`` cannot be made (raised before any game is played).
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    check_int("seed", seed, 0, optional=False)
    deal_ids = shard_deals(deals, shard)
    config = dict(config or {})
    pairs = list(pairings) if pairings is not None else pairings_for(list(specs), focal)
    player = _GamePlayer(game_name, config, pairs, dict(agents or {}), seed, records_dir)
    if out_dir is not None:  # a folder that cannot be made fails here, before the games, not after them
        Path(out_dir).mkdir(parents=True, exist_ok=True)
    n = player.game.num_players
    tasks = [(pi, deal, seat) for pi in range(len(pairs)) for deal in deal_ids for seat in range(n)]
    result = TournamentResult(game_name, _plain(config), list(dict.fromkeys(specs)), deals, seed,
                              game_version=player.game.spec.version)
    if shard is not None:
        result.shard_count, result.shards = int(shard[1]), [int(shard[0])]
    seconds_played, credit_sums = [0.0] * len(pairs), [0.0] * len(pairs)
    bar = _bar(len(tasks), progress, f"{game_name} tournament")
    with _played(player, tasks, workers) as played:
        for (pi, deal, seat), (returns, scores, steps, seconds) in zip(tasks, played):
            a_spec, b_spec = pairs[pi]
            c = credit(returns, seat)
            seconds_played[pi] += seconds
            credit_sums[pi] += c
            result.games.append({"agent": a_spec, "opponent": b_spec, "deal": deal, "game_seed": seed + deal,
                                 "agent_seat": seat, "credit": c, "returns": returns.tolist(),
                                 "scores": scores.tolist(), "steps": steps})
            bar.update(1)
            if deal == deal_ids[-1] and seat == n - 1:
                bar.set_postfix_str(f"{a_spec} vs {b_spec}: {credit_sums[pi] / (len(deal_ids) * n):.0%}")
    bar.close()
    summarize(result, pairs, seconds_played)
    if out_dir is not None:
        write_results(result, out_dir)
    return result


def shard_deals(deals: int, shard: tuple[int, int] | None = None) -> list[int]:
    """The deal indices a tournament of ``deals`` deals plays in shard ``(i, n)``: the ``i``-th
    (1-based) of ``n`` contiguous blocks, ``floor((i-1) deals / n)`` to ``floor(i deals / n) - 1``
    (block sizes differ by at most one); every deal for ``shard=None``.

    Raises:
        ValueError: ``deals < 1``, or ``shard`` not two ints with ``1 <= i <= n <= deals``.
    """
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals < 1:
        raise ValueError(f"deals must be an int >= 1, got {deals!r}")
    if shard is None:
        return list(range(deals))
    try:
        i, n = (int(x) for x in shard)
    except (TypeError, ValueError):
        raise ValueError(f"shard must be (i, n), two ints, got {shard!r}") from None
    if not 1 <= i <= n <= deals:
        raise ValueError(f"shard {i}/{n} of {deals} deals: need 1 <= i <= n <= deals")
    return list(range((i - 1) * deals // n, i * deals // n))


def parse_shard(text: str) -> tuple[int, int]:
    """``"3/8"`` -> ``(3, 8)``: shard 3 of 8 (1-based).

    Raises:
        ValueError: not ``I/N`` with positive ints ``I <= N``.
    """
    m = re.fullmatch(r"([0-9]+)/([0-9]+)", str(text))
    if m is None or not 1 <= int(m[1]) <= int(m[2]):
        raise ValueError(f"shard must be I/N with 1 <= I <= N (e.g. 3/8), got {text!r}")
    return int(m[1]), int(m[2])


def summarize(result: TournamentResult, pairs: Sequence[tuple[str, str]],
              seconds: Sequence[float] | None = None) -> TournamentResult:
    """Fill ``result.pairings`` and ``result.ratings`` from ``result.games`` (in place; returned).

    Each pairing of ``pairs`` gets its games' credits, win rate (Wilson 95%), mean scores (normal
    95%), mean return and steps, and its ``seconds`` (the time spent playing its games, one number
    per pairing; 0 when not given; games carry no timings, so that replaying a tournament
    gives identical games); the ratings are one Plackett-Luce fit over every game
    (:mod:`training.rating`), ``random`` (or else the first rated spec) at 0, when some pairing
    has two different specs.
    """
    from .rating import Outcomes, fit_ratings

    outcomes = Outcomes()
    by_pair: dict[tuple[str, str], list[dict[str, Any]]] = {pair: [] for pair in pairs}
    for g in result.games:
        by_pair[(g["agent"], g["opponent"])].append(g)
    result.pairings = []
    for k, (a_spec, b_spec) in enumerate(pairs):
        pr = PairingResult(a_spec, b_spec)
        pr.seconds = float(seconds[k]) if seconds is not None else 0.0
        games = by_pair[(a_spec, b_spec)]
        if not games:
            result.pairings.append(pr)
            continue
        a_scores, b_scores = [], []
        for g in games:
            seat = g["agent_seat"]
            a_scores.append(float(g["scores"][seat]))
            b_scores.extend(float(x) for p, x in enumerate(g["scores"]) if p != seat)
            outcomes.add_pairing(a_spec, b_spec, len(g["returns"]), 1.0, g["credit"])
        pr.games = len(games)
        pr.credit = float(sum(g["credit"] for g in games))
        pr.win_rate = pr.credit / pr.games
        pr.win_low, pr.win_high = wilson_interval(pr.credit, pr.games)
        pr.mean_score, pr.mean_score_ci = mean_interval(a_scores)
        pr.opponent_mean_score, pr.opponent_mean_score_ci = mean_interval(b_scores)
        pr.mean_return = float(np.mean([g["returns"][g["agent_seat"]] for g in games]))
        pr.steps = int(sum(g["steps"] for g in games))
        pr.steps_per_second = pr.steps / pr.seconds if pr.seconds > 0 else float("nan")
        result.pairings.append(pr)
    rated = [x for x in dict.fromkeys(x for pair in pairs for x in pair)]
    result.ratings = {}
    if result.games and any(a != b for a, b in pairs):
        zero = "random" if "random" in rated else rated[0]
        result.ratings = {s: {"elo": r} for s, r in fit_ratings(outcomes, fixed={zero: 0.0}).items()}
    return result


_GAME_FIELDS = {"agent": str, "opponent": str, "deal": int, "game_seed": int, "agent_seat": int,
                "credit": (int, float), "returns": list, "scores": list, "steps": int}
"""The fields of each game of a ``results.json`` (:func:`load_results` checks them)."""


def load_results(folder: str | Path) -> TournamentResult:
    """The :class:`TournamentResult` that :func:`write_results` wrote to ``folder/results.json``.

    Raises:
        ValueError: no ``results.json`` there, or one that is not a tournament's (not JSON, a field
            missing or of the wrong type; the message names the file).
    """
    path = Path(folder) / "results.json"
    if not path.is_file():
        raise ValueError(f"no tournament results in {str(folder)!r} (expected {path})")
    try:
        data = json.loads(path.read_text())
        pairings = [PairingResult(**p) for p in data.pop("pairings")]
        result = TournamentResult(**data, pairings=pairings)
        for g in result.games:
            for key, kind in _GAME_FIELDS.items():
                if not isinstance(g[key], kind) or isinstance(g[key], bool):
                    raise TypeError(f"a game's {key!r} is {g[key]!r}")
        if not isinstance(result.shard_count, int) or not all(isinstance(i, int) for i in result.shards):
            raise TypeError(f"shard_count {result.shard_count!r} and shards {result.shards!r} must be ints")
    except (ValueError, TypeError, KeyError, AttributeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path} is not a tournament's results.json ({type(e).__name__}: {e})") from None
    return result


def merge_results(folders: Sequence[str | Path], partial: bool = False) -> TournamentResult:
    """Pool the shards of one tournament (``evaluate --shard I/N``, written by
    :func:`write_results`) into its results: the games of all shards in tournament order, the
    pairings and the ratings computed over them (:func:`summarize`). With every shard present
    this equals the unsharded tournament (timings aside: a pairing's ``seconds`` is the sum of
    its shards').

    Args:
        folders: the shards' output folders, in any order.
        partial: allow missing shards (the result lists the shards it holds in ``shards``);
            by default every shard 1..n must be there.

    Raises:
        ValueError: no folders; a folder without results (or damaged ones); an unsharded result;
            shards of different tournaments (game, version, config, specs, pairings, deals, seed
            or shard count differ; the message names the field); a shard given twice; a shard
            whose games are not exactly its deals' (every pairing, deal and seat once); missing
            shards without ``partial``.
    """
    if not folders:
        raise ValueError("give the output folders of one tournament's shards (evaluate --shard I/N --out DIR)")
    parts = [(str(f), load_results(f)) for f in folders]
    first_name, first = parts[0]
    held: dict[int, str] = {}
    for name, r in parts:
        if r.shard_count == 0:
            raise ValueError(f"{name!r} holds an unsharded tournament (played without --shard); only shards merge")
        for key in ("game", "game_version", "config", "specs", "deals", "seed", "shard_count"):
            if getattr(r, key) != getattr(first, key):
                raise ValueError(f"{name!r} is another tournament than {first_name!r}: {key} "
                                 f"{getattr(r, key)!r} != {getattr(first, key)!r}")
        if [(p.agent, p.opponent) for p in r.pairings] != [(p.agent, p.opponent) for p in first.pairings]:
            raise ValueError(f"{name!r} is another tournament than {first_name!r}: its pairings differ")
        for i in r.shards:
            if i in held:
                raise ValueError(f"shard {i}/{r.shard_count} given twice: {held[i]!r} and {name!r}")
            held[i] = name
    pairs = [(p.agent, p.opponent) for p in first.pairings]
    order = {pair: k for k, pair in enumerate(pairs)}
    seats = ether_envs.load_game(first.game, **first.config).num_players
    for name, r in parts:
        want = sorted((k, d, seat) for k in range(len(pairs)) for i in r.shards
                      for d in shard_deals(first.deals, (i, first.shard_count)) for seat in range(seats))
        got = sorted((order.get((g["agent"], g["opponent"]), -1), g["deal"], g["agent_seat"]) for g in r.games)
        if got != want:
            raise ValueError(f"{name!r} does not hold exactly the games of shards {r.shards} of {first.shard_count} "
                             f"({len(got)} games; expected {len(want)}: every pairing, deal and seat once)")
    missing = sorted(set(range(1, first.shard_count + 1)) - set(held))
    if missing and not partial:
        raise ValueError(f"shards {missing} of {first.shard_count} are missing (pass partial=True / --partial "
                         f"to pool the {len(held)} given)")
    seconds = [sum(r.pairings[k].seconds for _, r in parts) for k in range(len(pairs))]
    merged = TournamentResult(first.game, first.config, list(first.specs), first.deals, first.seed,
                              game_version=first.game_version, shard_count=first.shard_count,
                              shards=sorted(held))
    merged.games = sorted((g for _, r in parts for g in r.games),
                          key=lambda g: (order[(g["agent"], g["opponent"])], g["deal"], g["agent_seat"]))
    return summarize(merged, pairs, seconds)


class _GamePlayer:
    """Plays tournament game ``(pairing, deal, seat)`` by its index, in this process or a worker."""

    def __init__(self, game_name: str, config: dict, pairs: list[tuple[str, str]], agents: dict[str, Any],
                 seed: int, records_dir: str | Path | None) -> None:
        from agents import as_agent, make_agent

        self.args = (game_name, config, pairs, agents, seed, records_dir)
        self.game = ether_envs.load_game(game_name, **config)
        self.pairs, self.seed = pairs, seed
        self.built = {spec: as_agent(obj, name=spec) for spec, obj in agents.items()}
        for s in dict.fromkeys(x for pair in pairs for x in pair):
            if s not in self.built:
                self.built[s] = make_agent(s, self.game)
        self.records_dir = Path(records_dir) if records_dir is not None else None
        if self.records_dir is not None:
            self.records_dir.mkdir(parents=True, exist_ok=True)

    def play(self, task: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, int, float]:
        """``(returns, scores, steps, seconds)`` of one game."""
        pi, deal, seat = task
        a_spec, b_spec = self.pairs[pi]
        n = self.game.num_players
        lineup = [self.built[a_spec] if p == seat else self.built[b_spec] for p in range(n)]
        for p, agent in enumerate(lineup):
            agent.seed(agent_seed(self.seed, a_spec, b_spec, deal, seat, p))
        t0 = time.perf_counter()
        final = play_to_end(self.game, lineup, self.seed + deal)
        seconds = time.perf_counter() - t0
        if self.records_dir is not None:
            from ether_envs.records import record_from_state, save_record

            labels = [a_spec if p == seat else b_spec for p in range(n)]
            save_record(record_from_state(final, self.seed + deal, players=labels, pairing=pi, deal=deal,
                                          agent_seat=seat),
                        self.records_dir / f"p{pi}_d{deal}_s{seat}.json")
        return final.returns(), final.scores(), len(final.history), seconds


_WORKER_PLAYER: Any = None  # a worker's _GamePlayer (or baselines' _TeamPlayer)


def _init_worker(player_class: type, args: tuple) -> None:
    global _WORKER_PLAYER
    _WORKER_PLAYER = player_class(*args)
    from . import one_thread

    one_thread()  # torch and BLAS: one thread per worker process


def _play_in_worker(task: Any):
    return _WORKER_PLAYER.play(task)


@contextmanager
def _played(player: Any, tasks: list, workers: int):
    """An iterator over ``player.play(task)`` for each task, in the order of ``tasks``, played
    here or by ``workers`` processes, each with its own ``type(player)(*player.args)``."""
    if workers == 1 or len(tasks) <= 1:
        yield (player.play(t) for t in tasks)
        return
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
    workers = min(workers, len(tasks))
    with ProcessPoolExecutor(workers, mp_context=mp.get_context(method), initializer=_init_worker,
                             initargs=(type(player), player.args)) as pool:
        yield pool.map(_play_in_worker, tasks, chunksize=max(1, len(tasks) // (8 * workers)))


def _game_seed(*parts: int) -> int:
    return int(np.random.SeedSequence(list(parts)).generate_state(1, np.uint64)[0])


@functools.lru_cache(maxsize=1024)
def spec_key(spec: str) -> int:
    """A stable 64-bit number for an agent spec (the first 8 bytes of its SHA-256)."""
    import hashlib

    return int.from_bytes(hashlib.sha256(spec.encode()).digest()[:8], "little")


def agent_seed(seed: int, a_spec: str, b_spec: str, deal: int, seat: int, player: int) -> int:
    """The seed of the agent in seat ``player`` of deal ``deal`` of the matchup ``a_spec`` (in
    seat ``seat``) vs ``b_spec`` (every other seat): a function of the matchup, never of where it
    sits in a tournament, so the same matchup plays identical games in any tournament."""
    return _game_seed(seed, spec_key(a_spec), spec_key(b_spec), deal, seat, player)


def _plain(x: Any) -> Any:
    return json.loads(json.dumps(x))


def _bar(total: int, enabled: bool, desc: str):
    from .progress import progress_bar

    return progress_bar(total, desc, "game", enabled)


# ---- output -------------------------------------------------------------------------
def write_results(result: TournamentResult, out_dir: str | Path) -> Path:
    """Write ``results.json``, ``summary.csv``, ``games.csv`` and ``results.png``; return the folder."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps(asdict(result), indent=1))
    fields = list(asdict(PairingResult("", "")).keys())
    with open(out / "summary.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in result.pairings:
            w.writerow(asdict(r))
    with open(out / "games.csv", "w", newline="") as f:
        cols = ["agent", "opponent", "deal", "game_seed", "agent_seat", "credit", "returns", "scores", "steps"]
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        for g in result.games:
            w.writerow({**g, "returns": " ".join(map(str, g["returns"])), "scores": " ".join(map(str, g["scores"]))})
    plot_results(result, out / "results.png")
    return out


def plot_results(result: TournamentResult, path: str | Path) -> None:
    """Win-rate matrix (row agent's win rate against the column agent) and the ratings (Elo)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys([r.agent for r in result.pairings] + [r.opponent for r in result.pairings]))
    idx = {s: i for i, s in enumerate(names)}
    m = np.full((len(names), len(names)), np.nan)
    for r in result.pairings:
        m[idx[r.agent], idx[r.opponent]] = r.win_rate
        if r.agent != r.opponent:
            m[idx[r.opponent], idx[r.agent]] = 1.0 - r.win_rate if result.games and len(result.games[0]["returns"]) == 2 else np.nan
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(6 + 1.2 * len(names), 3 + 0.5 * len(names)))
    im = ax1.imshow(m, vmin=0, vmax=1, cmap="RdYlGn")
    short = [s if len(s) <= 24 else "..." + s[-21:] for s in names]
    ax1.set_xticks(range(len(names)), short, rotation=30, ha="right")
    ax1.set_yticks(range(len(names)), short)
    for (i, j), v in np.ndenumerate(m):
        if not np.isnan(v):
            ax1.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=9)
    ax1.set_title("win rate (row vs column)")
    fig.colorbar(im, ax=ax1, fraction=0.046)
    rated = [s for s in names if s in result.ratings]
    elos = [result.ratings[s]["elo"] for s in rated]
    ax2.barh(range(len(rated)), elos, color="tab:blue")
    ax2.set_yticks(range(len(rated)), [short[idx[s]] for s in rated])
    ax2.set_xlabel("rating (Elo, top-1 Plackett-Luce)")
    ax2.set_title("ratings")
    fig.suptitle(f"{result.game}-v{result.game_version} {result.config or ''}: {result.deals} deals per pairing, seed {result.seed}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ---- command line ------------------------------------------------------------------
def parse_config(pairs: Sequence[str]) -> dict[str, Any]:
    """``["num_players=3", "mode=cooperative"]`` -> ``{"num_players": 3, "mode": "cooperative"}``
    (each value read by :func:`parse_config_value`).

    Raises:
        ValueError: an item without ``=``.
    """
    out: dict[str, Any] = {}
    for item in pairs:
        key, eq, val = item.partition("=")
        if not eq or not key:
            raise ValueError(f"config items must be key=value, got {item!r}")
        out[key] = parse_config_value(val)
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", choices=ether_envs.list_games(), help="registered game")
    p.add_argument("specs", nargs="+", metavar="SPEC",
                   help="two or more agent specs: random, heuristic, mcts:simulations=200, ppo:PATH (a path "
                        "holding ',' or '=' in quotes: \"ppo:path='a,b/m.zip'\"); the same spec twice plays an "
                        "agent against itself")
    p.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE", help="game config, e.g. num_players=3")
    p.add_argument("--deals", type=int, default=50, help="deals per pairing; each is played once per seat (default 50)")
    p.add_argument("--seed", type=int, default=HELD_OUT_BASE,
                   help="tournament seed: deal i uses game seed SEED+i (default: the benchmark protocol's held-out "
                        "deals, 2**63 = %(default)s; see docs/benchmark.md)")
    p.add_argument("--focal", action="store_true", help="only the first spec against each other one (default: round robin)")
    p.add_argument("--out", default="results/tournament", help="output folder for JSON/CSV/PNG (default results/tournament)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--save-records", default=None, metavar="DIR",
                   help="write a JSON game record of every game to DIR (replay with ether_envs.replay)")
    p.add_argument("--workers", type=int, default=1,
                   help="processes playing the games; results are identical for any number (default 1)")
    p.add_argument("--shard", type=_shard_arg, default=None, metavar="I/N",
                   help="play only the I-th of N blocks of the deals (1-based; same seeds as the whole "
                        "tournament); pool the shards' --out folders with 'ether-envs merge'")


def _shard_arg(text: str) -> tuple[int, int]:
    try:
        return parse_shard(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_merge_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("folders", nargs="+", metavar="DIR", help="the --out folders of one tournament's shards")
    p.add_argument("--out", required=True, help="output folder for the pooled JSON/CSV/PNG")
    p.add_argument("--partial", action="store_true",
                   help="pool the shards given even when some are missing (default: all N must be there)")


def merge_from_args(args: argparse.Namespace) -> TournamentResult:
    """Pool the shards of the command line (:func:`merge_results`), write and print the results.

    Raises:
        ValueError: what :func:`merge_results` raises.
    """
    out = Path(args.out).resolve()
    if any(Path(f).resolve() == out for f in args.folders):
        raise ValueError(f"--out {args.out!r} is one of the shards' folders; give a new folder")
    result = merge_results(args.folders, partial=args.partial)
    write_results(result, args.out)
    print(result.table())
    held = f"{len(result.shards)} of {result.shard_count} shards"
    print(f"{held} ({len(result.games)} games) pooled into {args.out}/ (results.json, summary.csv, games.csv, "
          f"results.png), measured on ether/{result.game}-v{result.game_version}")
    return result


def run_from_args(args: argparse.Namespace) -> TournamentResult:
    """Play the tournament of the command line, print its table.

    Raises:
        ValueError: fewer than two specs, ``--deals < 1``, or what :func:`run_tournament` raises.
    """
    if len(args.specs) < 2:
        raise ValueError(f"give two or more agent specs, got {args.specs}; to play an agent against itself, "
                         f"give it twice (e.g. {args.specs[0]} {args.specs[0]})")
    if args.deals < 1:
        raise ValueError(f"--deals must be >= 1, got {args.deals}")
    result = run_tournament(args.game, args.specs, parse_config(args.config), deals=args.deals, seed=args.seed,
                            focal=args.focal, progress=not args.no_progress, out_dir=args.out,
                            records_dir=getattr(args, "save_records", None), workers=args.workers,
                            shard=getattr(args, "shard", None))
    print(result.table())
    what = f"results of shard {result.shards[0]}/{result.shard_count} (deal indices {result.games[0]['deal']}-" \
           f"{result.games[-1]['deal']} of 0-{result.deals - 1})" if result.shard_count else "results"
    print(f"{what} written to {args.out}/ (results.json, summary.csv, games.csv, results.png), measured "
          f"on ether/{result.game}-v{result.game_version}")
    if getattr(args, "save_records", None):
        print(f"game records written to {args.save_records}/ ({len(result.games)} files)")
    return result


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m training.evaluate", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    args = p.parse_args(argv)
    try:
        run_from_args(args)
    except (ValueError, OSError) as e:  # a bad spec, config or --out: usage and one error line, not a traceback
        usage_error(p, e)


if __name__ == "__main__":
    main()
