"""The per-game greedy agent: ``agents/heuristics/<game>.py`` provides
``heuristic_action(state, player, rng) -> int`` using only what ``player`` may see."""

from __future__ import annotations

import importlib

from .base import Agent


def load_heuristic(game_name: str):
    """The ``heuristic_action`` function of ``agents.heuristics.<game_name>``.

    Raises:
        ValueError: the game has no heuristic module yet.
    """
    try:
        module = importlib.import_module(f"agents.heuristics.{game_name}")
    except ModuleNotFoundError as e:
        if e.name != f"agents.heuristics.{game_name}":
            raise
        raise ValueError(f"no heuristic agent for game {game_name!r} (expected agents/heuristics/{game_name}.py)") from None
    return module.heuristic_action


class HeuristicAgent(Agent):
    """Plays ``agents.heuristics.<game>.heuristic_action``."""

    name = "heuristic"
    uses_state = True

    def __init__(self, game) -> None:
        super().__init__()
        self._policy = load_heuristic(game.spec.name)

    def act(self, state, player: int) -> int:
        self.check_to_move(state, player)
        return int(self._policy(state, player, self.rng))
