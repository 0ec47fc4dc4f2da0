"""Uniformly random legal play."""

from __future__ import annotations

import numpy as np

from .base import Agent


class RandomAgent(Agent):
    """Chooses uniformly among the legal actions (the mask's ones)."""

    name = "random"
    uses_state = False

    def act(self, state, player: int) -> int:
        self.check_to_move(state, player)
        legal = state.legal_actions()
        return int(legal[self.rng.integers(len(legal))])

    def act_observation(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 0:
            raise ValueError("action_mask has no legal action")
        return int(legal[self.rng.integers(len(legal))])
