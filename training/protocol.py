"""The benchmark protocol as data: what a result row on ether-envs is measured on.

    from training import protocol
    protocol.CONFIGS["ethnos/2p"]            # a BenchmarkConfig: game, config, anchors, deals
    protocol.held_out_seed(0)                # deal 0 of the held-out evaluation deals
    protocol.BUDGETS["short"]                # learner frames of the short budget

The page that explains it is ``docs/benchmark.md``; this module is what the code reads
(``ether-envs rate``, ``ether-envs exploit``, the ladders in ``training/ladders/`` and the
reference rows). Changing anything here that changes a measured number is a new
:data:`PROTOCOL_VERSION`.

* **Benchmark configurations** (:data:`CONFIGS`): per game its default configuration and the
  2-player one (the same for the games whose default is 2 players), named
  ``<game>/<label>``; a row names its env version too (``ether_wars-v1/2p``).
* **Budgets** (:data:`BUDGETS`): *frames* are the decisions the learner's own policy takes
  (every seat it plays counts; moves made inside the env by opponents do not).
* **Training seeds** (:data:`TRAINING_SEEDS`): at least 3 per algorithm.
* **Held-out evaluation deals**: game seeds ``HELD_OUT_BASE + i`` for ``0 <= i < HELD_OUT_SIZE``,
  with ``HELD_OUT_BASE = 2**63``. Every training path of the suite draws its game seeds either
  as ``Generator.integers(2**63)`` (``SingleAgentEnv``, the AEC env) or as small counters
  (``seed + i``), so none can reach a held-out deal; :func:`check_training_seed` refuses one, and
  ``tests/training/test_protocol.py`` runs every trainer and records the seeds it plays.
* **Anchors** (:class:`Anchor`): the fixed opponents of each configuration and the deals played
  against each (every deal once with the rated agent in each seat, the anchor in all the
  others). Their ratings are stored in ``training/ladders/<benchmark>.json`` (``random`` = 0).
* **Metric**: per run (one trained agent), the win credit against each anchor (win 1, a k-way
  tie for first 1/k, else 0) with a Wilson 95% interval, and the agent's rating on the anchored
  ladder (top-1 Plackett-Luce on the Elo scale, ``random`` fixed at 0, the anchors fixed at their
  stored ratings, a 95% bootstrap interval over the games); across training seeds the
  interquartile mean with a stratified-bootstrap 95% interval (rliable). A co-operative game
  (Aetherspire) has no opponent: the agent plays every seat as one team, and the metric is the
  team win rate over the held-out deals.
* **Row format**: :data:`ROW_SCHEMA` (JSON Schema) and :func:`markdown_row`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import ether_envs

PROTOCOL_VERSION = 1
"""Version of this protocol; a row records it (``protocol``)."""

HELD_OUT_BASE = 2**63
"""Game seed of held-out deal 0. Training draws game seeds below ``2**63``, so never these."""
HELD_OUT_SIZE = 2**20
"""Number of held-out deals (seeds ``HELD_OUT_BASE .. HELD_OUT_BASE + HELD_OUT_SIZE - 1``)."""

VALIDATION_BASE = 2**62
"""Game seed of validation deal 0: for evaluations during training and model selection
(``training.callbacks.WinRate``), apart from the held-out deals that results are reported on."""

TRAINING_SEEDS = (0, 1, 2)
"""The training seeds of a reference row (the protocol asks for at least 3)."""

BUDGETS: dict[str, int] = {"short": 50_000, "long": 1_000_000}
"""Learner frames per training run: ``short`` runs in minutes on a 2-core laptop (the reference
rows), ``long`` is the budget for a serious comparison."""

TRAINING_OPPONENTS = "heuristic=0.7,random=0.3"
"""The opponent pool of the reference rows' training (a ``training.selfplay`` weights string):
each training game draws one agent for the other seats. A new algorithm may train against
anything the suite offers (self-play included) but never on held-out deals."""


def held_out_seed(deal: int) -> int:
    """The game seed of held-out deal ``deal`` (``0 <= deal < HELD_OUT_SIZE``).

    Raises:
        ValueError: ``deal`` outside that range.
    """
    if not (isinstance(deal, int) and 0 <= deal < HELD_OUT_SIZE):
        raise ValueError(f"held-out deal must be an int in 0..{HELD_OUT_SIZE - 1}, got {deal!r}")
    return HELD_OUT_BASE + deal


def is_held_out(seed: int) -> bool:
    """Whether game seed ``seed`` is one of the held-out evaluation deals."""
    return HELD_OUT_BASE <= int(seed) < HELD_OUT_BASE + HELD_OUT_SIZE


def check_training_seed(seed: int) -> int:
    """``seed`` unchanged if training may play it.

    Raises:
        ValueError: ``seed`` is a held-out evaluation deal.
    """
    if is_held_out(seed):
        raise ValueError(f"game seed {seed} is held-out evaluation deal {int(seed) - HELD_OUT_BASE}: "
                         f"training may not play seeds in [{HELD_OUT_BASE}, {HELD_OUT_BASE + HELD_OUT_SIZE})")
    return seed


@dataclass(frozen=True)
class Anchor:
    """A fixed opponent of a benchmark configuration.

    Attributes:
        spec: its agent spec (``agents.make_agent``).
        deals: held-out deals the rated agent plays against it, each once per seat (so
            ``deals * players`` games); for a co-operative game, the deals its team plays.
    """

    spec: str
    deals: int


@dataclass(frozen=True)
class BenchmarkConfig:
    """One benchmark configuration: a game at one configuration, with its anchors.

    Attributes:
        game: registered game name.
        label: short name of the configuration (``"2p"``, ``"4p"``).
        config: the game's configuration (``ether_envs.load_game(game, **config)``).
        anchors: the fixed opponents: ``random`` (the rating's zero point), ``heuristic``,
            ``pretrained`` (the zoo-1 net, :data:`ANCHOR_ZOO`; :func:`anchor_agents`) and a search
            agent (not always stronger than the others).
    """

    game: str
    label: str
    config: dict = field(default_factory=dict)
    anchors: tuple[Anchor, ...] = ()

    @property
    def version(self) -> int:
        """The env version this configuration is measured on (``Game.spec.version``)."""
        return ether_envs.load_game(self.game, **self.config).spec.version

    @property
    def name(self) -> str:
        """``<game>/<label>``, the key of :data:`CONFIGS`."""
        return f"{self.game}/{self.label}"

    @property
    def benchmark_id(self) -> str:
        """``<game>-v<N>/<label>``: the configuration and the env version a row was measured on."""
        return f"{self.game}-v{self.version}/{self.label}"

    @property
    def env_id(self) -> str:
        """The gymnasium id of the single-agent view (``ether_envs/<game>-v<N>``)."""
        return f"ether_envs/{self.game}-v{self.version}"

    @property
    def players(self) -> int:
        return ether_envs.load_game(self.game, **self.config).num_players

    @property
    def cooperative(self) -> bool:
        """All seats share one outcome (``Game.utility() == "identical"``): rated as a team."""
        return str(ether_envs.load_game(self.game, **self.config).utility()) == "identical"

    @property
    def ladder_file(self) -> str:
        """The stored ladder's file name in ``training/ladders/``."""
        return f"{self.game}-v{self.version}_{self.label}.json"


def _anchors(search: str, search_deals: int, deals: int = 50) -> tuple[Anchor, ...]:
    return (Anchor("random", deals), Anchor("heuristic", deals), Anchor("pretrained", deals),
            Anchor(search, search_deals))


CONFIGS: dict[str, BenchmarkConfig] = {c.name: c for c in (
    # MCTS with random rollouts costs 14 ms a decision on Aethermon: Collect but 0.1-1 s on the long
    # games, so the search anchor's simulations and deals are sized to keep a row's evaluation in
    # minutes (docs/benchmark.md, "Cost of a row").
    BenchmarkConfig("aethermon_collect", "2p", {}, _anchors("mcts:simulations=200", 50)),
    BenchmarkConfig("ethnos", "4p", {}, _anchors("mcts:simulations=4", 3)),
    BenchmarkConfig("ethnos", "2p", {"num_players": 2}, _anchors("mcts:simulations=8", 10)),
    BenchmarkConfig("etherium", "2p", {}, _anchors("mcts:simulations=25", 20)),
    BenchmarkConfig("ether_wars", "2p", {}, _anchors("mcts:simulations=8", 10)),
    BenchmarkConfig("aetherspire", "2p", {}, tuple(Anchor(s, 100) for s in (
        "random", "heuristic", "pretrained", "mcts:simulations=25"))),
)}
"""Every benchmark configuration, by ``<game>/<label>``."""

DEFAULT_CONFIG: dict[str, str] = {"aethermon_collect": "aethermon_collect/2p", "ethnos": "ethnos/4p",
                                  "etherium": "etherium/2p", "ether_wars": "ether_wars/2p",
                                  "aetherspire": "aetherspire/2p"}
"""Each game's default benchmark configuration (its default player count)."""


ANCHOR_ZOO = 1
"""The zoo of the anchor ``pretrained`` in protocol 1: the zoo-1 nets (``agents/weights/zoo1/``).
The spec ``pretrained`` alone now names the newest zoo; the protocol's ladders and rows were measured
against zoo 1, so :func:`anchor_agents` builds that anchor from zoo 1 under its old name (same
name, same seeds, same games as the stored ladders)."""


def anchor_agents(bench: BenchmarkConfig) -> dict[str, Any]:
    """Prebuilt agents for the anchors of ``bench`` whose spec no longer names what the protocol
    measured: ``{"pretrained": the zoo-1 net}`` (:data:`ANCHOR_ZOO`); empty when it has no such anchor."""
    from agents.pretrained import PretrainedAgent

    if not any(a.spec == "pretrained" for a in bench.anchors):
        return {}
    agent = PretrainedAgent(ether_envs.load_game(bench.game, **bench.config), zoo=ANCHOR_ZOO)
    agent.name = "pretrained"
    return {"pretrained": agent}


def benchmark_config(game: str, label: str | None = None) -> BenchmarkConfig:
    """The benchmark configuration ``<game>/<label>`` (``label=None``: the game's default).

    Raises:
        ValueError: an unknown game or label (the message lists the known ones).
    """
    if game not in DEFAULT_CONFIG:
        raise ValueError(f"unknown game {game!r}; benchmark games: {', '.join(DEFAULT_CONFIG)}")
    name = DEFAULT_CONFIG[game] if label is None else f"{game}/{label}"
    if name not in CONFIGS:
        labels = [c.label for c in CONFIGS.values() if c.game == game]
        raise ValueError(f"unknown benchmark configuration {label!r} for {game}; known: {', '.join(labels)}")
    return CONFIGS[name]


# ---- the result row ------------------------------------------------------------------------
ROW_FORMAT = "ether-envs-benchmark-row-1"

_INTERVAL = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}
_RESULT = {
    "type": "object",
    "required": ["games", "credit", "win_rate", "interval"],
    "properties": {"games": {"type": "integer", "minimum": 0}, "credit": {"type": "number", "minimum": 0},
                   "win_rate": {"type": "number", "minimum": 0, "maximum": 1}, "interval": _INTERVAL},
}
_AGGREGATE = {"type": "object", "required": ["iqm", "interval"],
              "properties": {"iqm": {"type": "number"}, "interval": _INTERVAL}}

ROW_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "ether-envs benchmark row",
    "type": "object",
    "required": ["format", "protocol", "benchmark", "env_id", "game", "game_version", "config", "players",
                 "cooperative", "agent", "runs", "aggregate", "held_out", "seconds"],
    "properties": {
        "format": {"const": ROW_FORMAT},
        "protocol": {"type": "integer", "minimum": 1},
        "benchmark": {"type": "string", "pattern": r"^[a-z_]+-v\d+/[0-9a-z-]+$"},
        "env_id": {"type": "string"},
        "game": {"type": "string"},
        "game_version": {"type": "integer", "minimum": 0},
        "config": {"type": "object"},
        "players": {"type": "integer", "minimum": 1},
        "cooperative": {"type": "boolean"},
        "agent": {"type": "string", "description": "the row's label (an algorithm and its budget)"},
        "budget": {"type": ["string", "null"]},
        "frames": {"type": ["integer", "null"]},
        "ether_envs_version": {"type": "string"},
        "held_out": {"type": "object", "required": ["base", "deals"],
                     "properties": {"base": {"type": "integer"}, "deals": {"type": "object"}}},
        "runs": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["spec", "vs"],
            "properties": {
                "spec": {"type": "string"},
                "vs": {"type": "object", "additionalProperties": _RESULT,
                       "description": "competitive: anchor spec -> result; co-operative: {'team': result}"},
                "rating": {"type": ["number", "null"], "description": "Elo scale, random = 0"},
                "rating_interval": {"oneOf": [_INTERVAL, {"type": "null"}]},
                "seconds": {"type": "number", "description": "the run's evaluation, wall clock"},
            }}},
        "aggregate": {"type": "object", "required": ["runs", "vs"], "properties": {
            "runs": {"type": "integer", "minimum": 1},
            "vs": {"type": "object", "additionalProperties": _AGGREGATE},
            "rating": {"oneOf": [_AGGREGATE, {"type": "null"}]},
        }},
        "seconds": {"type": "number", "minimum": 0, "description": "the evaluation's wall-clock seconds"},
        "ladder": {"type": "object", "description": "the stored anchors' ratings (Elo) or team win rates it was "
                                                    "placed against"},
        "training": {"type": "array", "items": {"type": "object"},
                     "description": "optional: how each run was trained (seed, frames, minutes, ...)"},
    },
}
"""JSON Schema of a result row (``ether-envs rate ... --out``)."""


def markdown_header(config: BenchmarkConfig) -> str:
    """The header of a Markdown table of rows on ``config`` (one column per anchor)."""
    if config.cooperative:
        cols = ["team win rate (IQM over runs) [95% CI]"]
    else:
        cols = [f"vs {a.spec}" for a in config.anchors] + ["rating (Elo, random = 0) [95% CI]"]
    head = ["benchmark", "agent", "budget", "runs", *cols]
    return "| " + " | ".join(head) + " |\n|" + "---|" * len(head)


def markdown_row(row: dict[str, Any]) -> str:
    """One Markdown line for a result row (:data:`ROW_SCHEMA`): per anchor the interquartile mean
    of the runs' win rates with its bootstrap interval, then the rating."""
    agg = row["aggregate"]

    def cell(a: dict[str, Any] | None, pct: bool = True) -> str:
        if not a:
            return "-"
        lo, hi = a["interval"]
        if pct:
            return f"{a['iqm']:.1%} [{lo:.1%}, {hi:.1%}]"
        return f"{a['iqm']:.0f} [{lo:.0f}, {hi:.0f}]"

    budget = row.get("budget") or "-"
    if row.get("frames"):
        budget += f" ({row['frames']:,} frames)"
    cells = [row["benchmark"], row["agent"].replace("|", "\\|"), budget, str(agg["runs"])]
    if row["cooperative"]:
        cells.append(cell(agg["vs"].get("team")))
    else:
        cells += [cell(agg["vs"].get(spec)) for spec in row["held_out"]["deals"]]
        cells.append(cell(agg.get("rating"), pct=False))
    return "| " + " | ".join(cells) + " |"
