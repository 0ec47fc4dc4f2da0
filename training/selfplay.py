"""The opponent pool of the self-play trainer: random, heuristic and frozen past
snapshots of the learner, mixed by weights."""

from __future__ import annotations

from typing import Any

import numpy as np

import ether_envs
from agents.base import quote_spec_value
from ether_envs import wrappers


def parse_weights(text: str) -> dict[str, float]:
    """``"random=0.25,heuristic=0.25,self=0.5"`` -> ``{"random": 0.25, ...}``: the grammar of
    :func:`ether_envs.wrappers.parse_weights` (items split at the commas outside quotes, each
    ``SPEC=WEIGHT``; a spec with several parts in quotes: ``'mcts:simulations=50,c=2'=0.5``),
    where SPEC is an agent spec or ``self`` (frozen snapshots of the learner). Only the syntax is
    checked here, not whether a spec builds an agent.

    Raises:
        ValueError: malformed text, a weight that is not a finite number >= 0, or weights summing to 0.
    """
    return wrappers.parse_weights(text)


class OpponentPool:
    """A picklable ``(np_random) -> agent`` for :class:`ether_envs.wrappers.SingleAgentEnv`.

    Each episode draws one opponent kind by weight; ``self`` draws a uniformly
    random snapshot from ``snapshots`` (played stochastically, so the learner
    meets varied play). Before the first snapshot exists, ``self``'s weight
    goes to the other kinds (or to ``random`` if there are none). Agents are
    built lazily once per process and cached (snapshots load once).

    Args:
        game: registered game name; config: its configuration.
        weights: ``{spec or "self": weight}`` (see :func:`parse_weights`).
        snapshots: model paths of frozen learner snapshots.
        snapshot_spec: the agent spec a snapshot path is played as (``{path}`` is replaced by the
            path, quoted when it holds ``,`` ``=`` or a quote: :func:`agents.base.quote_spec_value`);
            default an SB3 model sampled stochastically; :mod:`training.ppo` uses
            ``"pretrained:path={path},deterministic=false"``.
    """

    def __init__(self, game: str, config: dict, weights: dict[str, float], snapshots: list[str] | None = None,
                 snapshot_spec: str = "ppo:{path},deterministic=false"):
        self.game_name = game
        self.config = dict(config)
        self.weights = dict(weights)
        self.snapshots = list(snapshots or [])
        self.snapshot_spec = snapshot_spec
        self._cache: dict[str, Any] = {}
        self._game = None

    def kinds(self) -> tuple[list[str], np.ndarray]:
        """The kinds that can be drawn now and their probabilities."""
        kinds = [k for k, w in self.weights.items() if w > 0 and (k != "self" or self.snapshots)]
        if not kinds:
            return ["random"], np.ones(1)
        w = np.array([self.weights[k] for k in kinds], dtype=np.float64)
        return kinds, w / w.sum()

    def __call__(self, np_random: np.random.Generator):
        kinds, p = self.kinds()
        kind = kinds[int(np_random.choice(len(kinds), p=p))]
        if kind == "self":
            path = self.snapshots[int(np_random.integers(len(self.snapshots)))]
            kind = self.snapshot_spec.format(path=quote_spec_value(path))
        return self._agent(kind)

    def _agent(self, spec: str):
        if spec not in self._cache:
            from agents import make_agent

            if self._game is None:
                self._game = ether_envs.load_game(self.game_name, **self.config)
            self._cache[spec] = make_agent(spec, self._game)
        return self._cache[spec]

    def __getstate__(self):
        d = dict(self.__dict__)
        d["_cache"] = {}
        d["_game"] = None
        return d
