"""Stable-Baselines3 callbacks for training on ether-envs under the benchmark protocol.

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CallbackList
    from ether_envs.vector import make_vec_env
    from training.callbacks import TimeBudget, WinRate

    venv = make_vec_env("ether_wars", {}, n_envs=8, opponents="heuristic")
    model = MaskablePPO("MlpPolicy", venv, seed=0)
    model.learn(50_000, callback=CallbackList([
        TimeBudget(minutes=10),                                     # stop on wall clock too
        WinRate("ether_wars", {}, ["random", "heuristic"], deals=10, every=10_000, csv_path="runs/a/eval.csv"),
    ]))

``total_timesteps`` is the protocol's frame budget (the learner's decisions); :class:`TimeBudget`
adds a wall-clock stop. :class:`WinRate` evaluates the greedy policy during training on the
protocol's *validation* deals (game seeds from :data:`training.protocol.VALIDATION_BASE`), never on
the held-out deals that ``ether-envs rate`` reports on.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path
from typing import Any, Sequence

from stable_baselines3.common.callbacks import BaseCallback

from . import protocol


class TimeBudget(BaseCallback):
    """Stop training once ``minutes`` of wall clock have passed since training started.

    Raises:
        ValueError: ``minutes <= 0``.
    """

    def __init__(self, minutes: float, verbose: int = 0) -> None:
        super().__init__(verbose)
        if not minutes > 0:
            raise ValueError(f"minutes must be > 0, got {minutes!r}")
        self.minutes = float(minutes)
        self.started = 0.0

    def _on_training_start(self) -> None:
        self.started = time.perf_counter()

    def _on_step(self) -> bool:
        return (time.perf_counter() - self.started) / 60.0 < self.minutes


class WinRate(BaseCallback):
    """Every ``every`` learner frames, play the greedy policy against each opponent on ``deals``
    validation deals (each once per seat) and log the win rates.

    Logs ``eval/win_rate_vs_<spec>`` (and the Wilson bounds) to the model's logger (TensorBoard,
    CSV, ...), appends a row to ``csv_path`` if given (frames, minutes, and per opponent the win
    rate, its interval and the games), and keeps the rows in :attr:`rows`.

    Args:
        game, config: the game and configuration the model plays.
        opponents: agent specs to evaluate against (``agents.make_agent``).
        deals: deals per opponent (>= 1); seat rotation makes ``deals * players`` games each.
        every: learner frames between evaluations (>= 1); one more at the end of training.
        seed: validation deal ``i`` is game seed ``VALIDATION_BASE + seed + i``.

    Raises:
        ValueError: no opponents, ``deals < 1``, ``every < 1``, or a seed that would reach the held-out deals.
    """

    def __init__(self, game: str, config: dict | None, opponents: Sequence[str], deals: int = 10,
                 every: int = 10_000, seed: int = 0, csv_path: str | Path | None = None, verbose: int = 0) -> None:
        super().__init__(verbose)
        if not opponents:
            raise ValueError("WinRate needs at least one opponent spec")
        if deals < 1 or every < 1:
            raise ValueError(f"deals and every must be >= 1, got deals={deals}, every={every}")
        if not 0 <= seed <= protocol.HELD_OUT_BASE - protocol.VALIDATION_BASE - deals:
            raise ValueError(f"seed must be in 0..2**62 - deals so that the validation deals stay below the "
                             f"held-out ones, got {seed}")
        self.game, self.config, self.opponents = game, dict(config or {}), list(opponents)
        self.deals, self.every, self.seed = deals, every, seed
        self.csv_path = Path(csv_path) if csv_path is not None else None
        self.rows: list[dict[str, Any]] = []
        self._last = 0
        self._started = 0.0

    def _on_training_start(self) -> None:
        self._last = self.num_timesteps
        self._started = time.perf_counter()

    def _on_step(self) -> bool:
        if self.num_timesteps - self._last >= self.every:
            self._last = self.num_timesteps
            self.evaluate()
        return True

    def _on_training_end(self) -> None:
        if not self.rows or self.rows[-1]["frames"] != self.num_timesteps:
            self.evaluate()

    def evaluate(self) -> dict[str, Any]:
        """Play the evaluation now; returns (and records) its row."""
        from agents.ppo import PPOAgent

        from .evaluate import run_tournament

        learner = PPOAgent.from_model(self.model)
        res = run_tournament(self.game, ["learner", *self.opponents], self.config, deals=self.deals,
                             seed=protocol.VALIDATION_BASE + self.seed, focal=True, progress=False,
                             agents={"learner": learner})
        row: dict[str, Any] = {"frames": self.num_timesteps,
                               "minutes": round((time.perf_counter() - self._started) / 60.0, 2)}
        for r in res.pairings:
            self.logger.record(f"eval/win_rate_vs_{r.opponent}", r.win_rate)
            self.logger.record(f"eval/win_low_vs_{r.opponent}", r.win_low)
            self.logger.record(f"eval/win_high_vs_{r.opponent}", r.win_high)
            row.update({f"win_rate_vs_{r.opponent}": round(r.win_rate, 4), f"low_vs_{r.opponent}": round(r.win_low, 4),
                        f"high_vs_{r.opponent}": round(r.win_high, 4), f"games_vs_{r.opponent}": r.games})
        self.rows.append(row)
        if self.csv_path is not None:
            self.csv_path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.csv_path, "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=list(row))
                w.writeheader()
                w.writerows(self.rows)
        return row
