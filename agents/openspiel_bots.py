"""Our agents as OpenSpiel bots: :class:`AgentBot` (needs the ``openspiel`` extra).

It lives here, on the agents' side, because ``ether_envs`` imports nothing from ``agents``;
OpenSpiel's own search bots set up for our games are in :mod:`ether_envs.openspiel.bots`.
Importing this module imports :mod:`ether_envs.openspiel`, which registers the games::

    import numpy as np
    import pyspiel
    import ether_envs.openspiel as eo
    from agents.openspiel_bots import AgentBot
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    game = pyspiel.load_game("python_ether_ethnos(num_players=2)")
    bots = [eo.ISMCTSBot(game, max_simulations=50, seed=1), AgentBot.from_spec(game, "heuristic", seed=2)]
    evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))   # returns, one per seat
"""

from __future__ import annotations

from typing import Any

import ether_envs.openspiel  # noqa: F401  (first: registers the python_ether_* games; a clear error without OpenSpiel)
import pyspiel

from . import make_agent
from .plugin import as_agent


class AgentBot(pyspiel.Bot):
    """An ether-envs agent (``agents.make_agent``: ``heuristic``, ``mcts``, ``pretrained`` ...) as an
    OpenSpiel bot, so that it plays in OpenSpiel's loops (``evaluate_bots``) against OpenSpiel's bots.

    Args:
        agent: an agent, or anything :func:`agents.as_agent` takes (an object with
            ``act(state, player)``, a policy function ``(observation, action_mask)`` ...); it
            plays on the engine state (``state.engine``).

    ``AgentBot.from_spec(game, "heuristic", seed=0)`` builds the agent from a spec for a loaded
    ``python_ether_*`` game. The agent sees what it sees in ether-envs: the engine state, from
    which our search agents draw determinizations (``resample_hidden``).

    Raises:
        ValueError: ``agent`` is not an agent (see :func:`agents.as_agent`).
    """

    def __init__(self, agent: Any):
        pyspiel.Bot.__init__(self)
        self.agent = as_agent(agent)

    @classmethod
    def from_spec(cls, game: pyspiel.Game, spec: str, seed: int | None = None) -> "AgentBot":
        """The bot of agent ``spec`` for ``game`` (a loaded ``python_ether_*`` game).

        Raises:
            ValueError: a bad spec (see ``agents.make_agent``) or a game that is not an ether-envs game.
        """
        engine = getattr(game, "engine", None)
        if engine is None:
            raise ValueError(f"{game} is not an ether-envs game (python_ether_*)")
        return cls(make_agent(spec, engine, seed=seed))

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to carry between decisions."""

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Other seats' actions need no bookkeeping."""

    def step(self, state: pyspiel.State) -> int:
        """The agent's action for the player to act in ``state``."""
        return int(self.agent.act(state.engine, state.current_player()))
