"""Ratings that count seats right: a batch-fitted top-1 Plackett-Luce model on the Elo scale.

    from training.rating import Outcomes, fit_ratings, place_agent
    out = Outcomes()
    out.add(["ppo", "random", "random"], credits=[1, 0, 0])    # one 3-player game: ppo won
    fit_ratings(out, fixed={"random": 0.0})                  # {"ppo": ..., "random": 0.0}

**The model.** Every seat of a game is a competitor with its agent's strength ``theta``; the
probability that the winner is seat ``s`` is ``exp(theta[agent(s)]) / sum over seats t of
exp(theta[agent(t)])`` (Luce's choice axiom, the first stage of Plackett-Luce). An agent filling
two seats therefore appears twice in the denominator: in a 3-player game against two copies of
``random``, an agent at the fair share (1/3) is rated equal to random, and one winning 71% is
rated ``log(2 * 0.71 / 0.29)`` above it. A shared first place is split as the benchmark's win
credit is (a k-way tie gives each 1/k of a win). The ratings are the maximum-likelihood fit over
all games at once (so the order of the games does not matter), with one *virtual game* per
pair of agents that met, at fair share (BayesElo's prior), so that an agent that wins every game
still gets a finite rating. Ratings are reported on the Elo scale (``400 / ln 10`` per unit of
``theta``: in 2-player games a 400-point gap is 10:1 odds) with one agent fixed (``random``: 0).

**Placement** (:func:`place_agent`): a new agent is placed on a stored ladder by fitting its one
rating against anchors whose ratings stay fixed, from its games against them only; its 95%
interval comes from a bootstrap over those games, stratified by anchor.

The fit is a small convex problem solved with ``scipy.optimize``; ``tests/training/test_rating.py``
checks it against ``choix.opt_top1`` on tie-free data.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

import numpy as np

ELO = 400.0 / math.log(10.0)
"""Elo points per unit of the log-strength ``theta``."""
PRIOR_GAMES = 1.0
"""Virtual games at fair share added for every pair of agents that met."""


@dataclass
class Outcomes:
    """Games as sufficient statistics: per line-up (the agents by seat, sorted) the number of
    games and each agent's summed win credit.

    ``add(["a", "b", "b"], [1, 0, 0])`` records one 3-player game that ``a`` won.
    """

    counts: dict[tuple[str, ...], float] = field(default_factory=lambda: defaultdict(float))
    credit: dict[tuple[str, ...], dict[str, float]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(float)))

    def add(self, seats: Sequence[str], credits: Sequence[float], weight: float = 1.0) -> None:
        """One game: ``seats[i]`` is the agent in seat ``i``, ``credits[i]`` its win credit
        (the credits sum to 1).

        Raises:
            ValueError: lengths differ, fewer than 2 seats, or credits that do not sum to 1.
        """
        if len(seats) != len(credits) or len(seats) < 2:
            raise ValueError(f"a game needs >= 2 seats and one credit per seat, got {list(seats)} / {list(credits)}")
        if not all(math.isfinite(float(c)) and 0.0 <= float(c) <= 1.0 for c in credits):
            raise ValueError(f"win credits must be numbers in [0, 1], got {list(credits)}")
        if not math.isclose(float(sum(credits)), 1.0, abs_tol=1e-6):
            raise ValueError(f"win credits of a game must sum to 1, got {list(credits)}")
        key = tuple(sorted(seats))
        self.counts[key] += weight
        for agent, c in zip(seats, credits):
            self.credit[key][agent] += weight * float(c)

    def add_pairing(self, agent: str, opponent: str, players: int, games: float, agent_credit: float) -> None:
        """``games`` games of ``agent`` in one seat and ``opponent`` in the ``players - 1`` others,
        ``agent`` winning ``agent_credit`` of them (the opponent's seats the rest).

        Raises:
            ValueError: ``players < 2``, negative ``games``, or a credit outside ``[0, games]``.
        """
        if players < 2 or not games >= 0 or not 0.0 <= agent_credit <= games:
            raise ValueError(f"a pairing needs players >= 2, games >= 0 and 0 <= credit <= games, got players="
                             f"{players}, games={games}, credit={agent_credit}")
        key = tuple(sorted([agent] + [opponent] * (players - 1)))
        self.counts[key] += games
        self.credit[key][agent] += agent_credit
        self.credit[key][opponent] += games - agent_credit

    def agents(self) -> list[str]:
        """Every agent that played, in first-seen order."""
        return list(dict.fromkeys(a for key in self.counts for a in key))

    def merged(self, other: "Outcomes") -> "Outcomes":
        """A new record holding both records' games."""
        out = Outcomes()
        for src in (self, other):
            for key, n in src.counts.items():
                out.counts[key] += n
                for a, c in src.credit[key].items():
                    out.credit[key][a] += c
        return out


def _lineups(outcomes: Outcomes, index: Mapping[str, int], prior: float):
    """Per line-up: multiplicity matrix (lineups, agents), games, credits (lineups, agents)."""
    keys = list(outcomes.counts)
    pairs = {tuple(sorted(set(k))) for k in keys}
    mult = np.zeros((len(keys) + len(pairs), len(index)))
    games = np.zeros(len(keys) + len(pairs))
    cred = np.zeros_like(mult)
    for r, key in enumerate(keys):
        for a in key:
            mult[r, index[a]] += 1
        games[r] = outcomes.counts[key]
        for a, c in outcomes.credit[key].items():
            cred[r, index[a]] = c
    for r, pair in enumerate(sorted(pairs), start=len(keys)):
        # a virtual game per pair that met: one seat each, at fair share (BayesElo's prior)
        for a in pair:
            mult[r, index[a]] = 1
            cred[r, index[a]] = prior / len(pair)
        games[r] = prior
    return mult, games, cred


def _negative_log_likelihood(theta, mult, games, cred):
    z = mult * np.exp(theta - theta.max())[None, :]
    total = z.sum(axis=1)
    ll = (cred @ theta).sum() - (games * (np.log(total) + theta.max())).sum()
    grad = cred.sum(axis=0) - (games[:, None] * z / total[:, None]).sum(axis=0)
    return -ll, -grad


def fit_ratings(outcomes: Outcomes, fixed: Mapping[str, float] | None = None,
                prior_games: float = PRIOR_GAMES) -> dict[str, float]:
    """Maximum-likelihood ratings (Elo scale) of every agent in ``outcomes``.

    Args:
        fixed: agents whose rating is held at the given Elo value (default: the first agent at 0).
            With one fixed agent this only sets the zero point; with several (a stored ladder)
            the others are fitted around them.
        prior_games: virtual fair-share games per pair of agents that met.

    Returns:
        ``{agent: rating}`` in Elo points.

    Raises:
        ValueError: no games, a fixed agent that did not play, or an agent that never met (directly
            or through others) a fixed agent: its rating would say nothing.
    """
    from scipy.optimize import minimize

    names = outcomes.agents()
    if not names:
        raise ValueError("no games to rate")
    fixed = dict(fixed) if fixed else {names[0]: 0.0}
    unknown = [a for a in fixed if a not in names]
    if unknown:
        raise ValueError(f"fixed agents {unknown} did not play; agents: {names}")
    _check_connected(outcomes, names, fixed)
    index = {a: i for i, a in enumerate(names)}
    mult, games, cred = _lineups(outcomes, index, prior_games)
    free = [i for a, i in index.items() if a not in fixed]
    theta = np.zeros(len(names))
    for a, r in fixed.items():
        theta[index[a]] = r / ELO
    if free:
        def objective(x):
            t = theta.copy()
            t[free] = x
            f, g = _negative_log_likelihood(t, mult, games, cred)
            return f, g[free]

        res = minimize(objective, np.full(len(free), float(np.mean(theta[[index[a] for a in fixed]]))), jac=True,
                       method="L-BFGS-B")
        theta[free] = res.x
    return {a: float(theta[i] * ELO) for a, i in index.items()}


def _check_connected(outcomes: Outcomes, names: list[str], fixed: Mapping[str, float]) -> None:
    reached, frontier = set(fixed), list(fixed)
    lineups = [set(k) for k in outcomes.counts]
    while frontier:
        a = frontier.pop()
        for lineup in lineups:
            if a in lineup:
                for b in lineup - reached:
                    reached.add(b)
                    frontier.append(b)
    lost = [a for a in names if a not in reached]
    if lost:
        raise ValueError(f"agents {lost} never met a fixed agent ({list(fixed)}), directly or through others: "
                         "their ratings would be arbitrary")


@dataclass
class Placement:
    """A new agent's rating against fixed anchors: Elo value and 95% bootstrap interval."""

    rating: float
    low: float
    high: float


def place_agent(games: Mapping[str, Sequence[float]], anchors: Mapping[str, float], players: int,
                reps: int = 1000, seed: int = 0, prior_games: float = PRIOR_GAMES) -> Placement:
    """Fit one agent's rating from its games against anchors whose ratings stay fixed.

    Args:
        games: per anchor spec, the agent's win credit in each game it played against that
            anchor (the agent in one seat, the anchor in the ``players - 1`` others), each in [0, 1].
        anchors: the anchors' stored ratings (Elo).
        players: seats per game.
        reps, seed: see :func:`place_counts`.

    Returns:
        :class:`Placement` (Elo).

    Raises:
        ValueError: an anchor without a stored rating, no games, or a credit outside [0, 1].
    """
    counts = {}
    for a, credits in games.items():
        c = np.asarray(credits, dtype=np.float64)
        if c.size and not (np.isfinite(c).all() and (c >= 0).all() and (c <= 1).all()):
            raise ValueError(f"win credits against {a!r} must be numbers in [0, 1]")
        counts[a] = (int(c.size), float(c.sum()))
    return place_counts(counts, anchors, players, reps=reps, seed=seed, prior_games=prior_games)


def place_counts(counts: Mapping[str, tuple[int, float]], anchors: Mapping[str, float], players: int,
                 reps: int = 1000, seed: int = 0, prior_games: float = PRIOR_GAMES) -> Placement:
    """:func:`place_agent` from per-anchor ``(games, credit)`` counts (what a result row stores).

    The rating is the maximum-likelihood fit with the anchors fixed (plus one virtual fair-share
    game against each). Its 95% interval is a parametric bootstrap: ``reps`` times, each anchor's
    credit is redrawn as ``Binomial(games, p)`` with ``p = (credit + 1/2) / (games + 1)`` (the
    observed rate pulled towards 1/2 by one virtual game, so that a perfect record still varies),
    and the rating refitted; the interval is the 2.5 and 97.5 percentiles.

    Raises:
        ValueError: an anchor without a stored rating, no games, or a credit outside ``[0, games]``.
    """
    missing = [a for a in counts if a not in anchors]
    if missing:
        raise ValueError(f"no stored rating for {missing}; anchors: {list(anchors)}")
    names = [a for a in counts if counts[a][0] > 0]
    if not names:
        raise ValueError("no games to place the agent with")
    n = np.array([counts[a][0] for a in names], dtype=np.float64)
    c = np.array([counts[a][1] for a in names], dtype=np.float64)
    if not (np.isfinite(c).all() and (c >= 0).all() and (c <= n).all()):
        raise ValueError(f"credits must lie in [0, games]: {dict(zip(names, zip(n, c)))}")
    b = np.array([anchors[a] / ELO for a in names])
    rng = np.random.default_rng(seed)
    p = (c + 0.5) / (n + 1.0)
    boot = rng.binomial(n.astype(np.int64), p, size=(reps, len(names))).astype(np.float64)
    x = _fit_one(np.vstack([c, boot]), n, b, players, prior_games)
    lo, hi = np.percentile(x[1:], [2.5, 97.5])
    return Placement(float(x[0] * ELO), float(lo * ELO), float(hi * ELO))


def _fit_one(credit: np.ndarray, n: np.ndarray, b: np.ndarray, players: int, prior: float) -> np.ndarray:
    """Newton's method for the agent's theta, one per row of ``credit`` (rows, anchors).

    Log-likelihood per anchor k: C_k x + (N_k - C_k) b_k - N_k log(e^x + (players-1) e^b_k),
    plus a virtual game at fair share against each anchor (one seat each)."""
    m = players - 1
    c = credit + prior / 2.0
    x = np.full(credit.shape[0], float(np.mean(b)))
    for _ in range(100):
        # p = the agent's win probability in a real game, q in a virtual one-seat-each game
        p = 1.0 / (1.0 + m * np.exp(b[None, :] - x[:, None]))
        q = 1.0 / (1.0 + np.exp(b[None, :] - x[:, None]))
        grad = c.sum(axis=1) - (n[None, :] * p).sum(axis=1) - (prior * q).sum(axis=1)
        hess = -(n[None, :] * p * (1 - p)).sum(axis=1) - (prior * q * (1 - q)).sum(axis=1)
        step = grad / hess
        x = x - np.clip(step, -2.0, 2.0)
        if np.max(np.abs(step)) < 1e-10:
            break
    return x


def win_probability(rating: float, opponent: float, players: int = 2) -> float:
    """The model's chance that an agent rated ``rating`` wins a game against ``players - 1``
    seats of an opponent rated ``opponent`` (both Elo)."""
    return 1.0 / (1.0 + (players - 1) * math.exp((opponent - rating) / ELO))


def outcomes_from_games(games: Iterable[Mapping]) -> Outcomes:
    """:class:`Outcomes` from ``TournamentResult.games`` rows (``agent``, ``opponent``,
    ``agent_seat``, ``returns``): the agent in its seat, the opponent in all the others."""
    from .evaluate import credit

    out = Outcomes()
    for g in games:
        returns = np.asarray(g["returns"], dtype=np.float64)
        seats = [g["agent"] if s == g["agent_seat"] else g["opponent"] for s in range(len(returns))]
        out.add(seats, [credit(returns, s) for s in range(len(returns))])
    return out


def iqm_interval(values: Sequence[float], reps: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """``(iqm, low, high)``: the interquartile mean of per-run values (one per training seed) and
    its stratified-bootstrap 95% percentile interval (rliable; Agarwal et al. 2021). rliable draws
    its resamples from numpy's global generator (its ``random_state`` argument does not reach
    them), so that generator is seeded with ``seed`` here and restored afterwards: the result is
    deterministic and nothing else moves. One value: that value and a zero-width interval.

    Raises:
        ValueError: no values.
    """
    import warnings

    from rliable import library as rly
    from rliable import metrics

    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        raise ValueError("iqm_interval needs at least one value")
    if x.size == 1:
        return float(x[0]), float(x[0]), float(x[0])
    saved = np.random.get_state()
    np.random.seed(seed)
    try:
        with warnings.catch_warnings():  # arch >= 7 deprecates what rliable 1.2 passes on
            warnings.simplefilter("ignore", FutureWarning)
            point, interval = rly.get_interval_estimates(
                {"a": x[:, None]}, lambda s: np.array([metrics.aggregate_iqm(s)]), reps=reps)
    finally:
        np.random.set_state(saved)
    return float(point["a"][0]), float(interval["a"][0, 0]), float(interval["a"][1, 0])
