"""OpenSpiel's own search as an ether-envs agent (``openspiel:mcts:...``, ``openspiel:ismcts:...``).

Needs the ``openspiel`` extra (``pip install -e '.[openspiel]'``). The agent plays through the
bridge (``ether_envs.openspiel``): at each decision it wraps a clone of the engine state as an
OpenSpiel state and asks the bot, which searches determinizations only
(``resample_from_infostate``, i.e. the engine's ``resample_hidden``):

* ``openspiel:ismcts`` — OpenSpiel's ``ISMCTSBot`` (:class:`ether_envs.openspiel.ISMCTSBot`);
  imperfect-information configurations only.
* ``openspiel:mcts`` — OpenSpiel's ``MCTSBot`` on ``worlds`` determinizations
  (:class:`ether_envs.openspiel.DeterminizedMCTSBot`); any configuration.

Keys: ``simulations`` (alias ``max_simulations``; default 100), ``uct_c`` (default 2.0),
``rollouts`` (random rollouts per leaf, default 1); ``mcts`` also ``worlds`` (default 1) and
``solve`` (default true); ``ismcts`` also ``final`` (``max_visit_count``,
``normalized_visit_count``, ``max_value``) and ``world_samples`` (-1: a fresh determinization
every simulation). The agent's seed is the bot's only source of randomness.
"""

from __future__ import annotations

from typing import Any

from .base import Agent

ALGORITHMS = ("mcts", "ismcts")


class OpenSpielAgent(Agent):
    """An OpenSpiel bot (see the module docstring) playing an ether-envs engine game.

    Args:
        game: the configured ether-envs ``Game``.
        algorithm: ``"mcts"`` or ``"ismcts"``.
        simulations / max_simulations: simulations per decision (give one of them; default 100).
        uct_c, rollouts, worlds, solve, final, world_samples: see the module docstring.

    Raises:
        ValueError: the ``openspiel`` extra is missing, an unknown algorithm, a key the
            algorithm does not take, a bad value, or ``ismcts`` on a perfect-information
            configuration.
    """

    name = "openspiel"
    uses_state = True

    def __init__(self, game, algorithm: str, simulations: int | None = None, max_simulations: int | None = None,
                 uct_c: float = 2.0, rollouts: int = 1, **options: Any) -> None:
        super().__init__()
        try:
            from ether_envs import openspiel as bridge
        except ImportError as e:
            raise ValueError(f"openspiel agents need OpenSpiel: pip install -e '.[openspiel]' ({e})") from None
        if algorithm not in ALGORITHMS:
            raise ValueError(f"openspiel: unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
        if simulations is not None and max_simulations is not None:
            raise ValueError("openspiel: give simulations or max_simulations, not both")
        allowed = {"mcts": ("worlds", "solve"), "ismcts": ("final", "world_samples")}[algorithm]
        unknown = sorted(set(options) - set(allowed))
        if unknown:
            raise ValueError(f"openspiel:{algorithm}: unknown key(s) {unknown}; known: simulations (or "
                             f"max_simulations), uct_c, rollouts, {', '.join(allowed)}")
        self.algorithm = algorithm
        self.simulations = simulations if simulations is not None else (max_simulations or 100)
        self._bridge = bridge
        self.os_game = bridge.load_game(game)
        names = {"final": "final_policy", "world_samples": "max_world_samples"}
        self._kwargs = dict(max_simulations=self.simulations, uct_c=uct_c, rollouts=rollouts,
                            **{names.get(k, k): v for k, v in options.items()})
        self.bot = self._make_bot(None)  # checks every argument now

    def _make_bot(self, seed: int | None):
        cls = self._bridge.ISMCTSBot if self.algorithm == "ismcts" else self._bridge.DeterminizedMCTSBot
        return cls(self.os_game, seed=seed, **self._kwargs)

    def seed(self, seed: int | None) -> None:
        """Reseed the agent: a fresh bot seeded from ``seed``."""
        super().seed(seed)
        self.bot = self._make_bot(int(self.rng.integers(2**32)))

    def act(self, state, player: int) -> int:
        self.check_to_move(state, player)
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        return int(self.bot.step(self.os_game.wrap(state)))

    def __getstate__(self) -> dict:
        # the pyspiel game and bot are rebuilt on unpickling (worker processes)
        d = dict(self.__dict__)
        for key in ("_bridge", "os_game", "bot"):
            d.pop(key)
        d["_engine_game"] = self.os_game.engine
        return d

    def __setstate__(self, d: dict) -> None:
        from ether_envs import openspiel as bridge

        engine = d.pop("_engine_game")
        self.__dict__.update(d)
        self._bridge = bridge
        self.os_game = bridge.load_game(engine)
        self.bot = self._make_bot(int(self.rng.integers(2**32)))
