"""OpenSpiel's own search bots, set up for ether-envs games so that they never see hidden information.

* :class:`ISMCTSBot` is OpenSpiel's ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``): every
  simulation starts from a determinization drawn by the state's ``resample_from_infostate``
  (the engine's ``resample_hidden``), seeded from the bot's own generator; tree nodes are keyed
  by the acting player's observation string. Imperfect-information games only (OpenSpiel's
  bot asserts it).
* :class:`DeterminizedMCTSBot` runs OpenSpiel's ``MCTSBot`` (``open_spiel.python.algorithms.mcts``)
  on ``worlds`` determinizations of the root and plays the action most visited over all of them
  (a single determinization by default). OpenSpiel's ``MCTSBot`` on its own searches the state
  it is given, which here holds the other seats' hidden cards and the state's chance generator
  (the future dice and draws); the wrapper hands it determinizations instead, in every game.

Our agents (``heuristic``, ``mcts``, ``pretrained`` ...) as OpenSpiel bots live on the agents'
side (``agents/openspiel_bots.py``, whose docstring shows a game against these bots):
``ether_envs`` imports nothing from the packages above it.

The search bots take ``seed`` (their only source of randomness: search, rollouts and
determinizations); all work with OpenSpiel's ``evaluate_bots`` (they implement ``restart_at``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

FINAL_POLICIES = {
    "max_visit_count": ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    "normalized_visit_count": ismcts.ISMCTSFinalPolicyType.NORMALIZED_VISITED_COUNT,
    "max_value": ismcts.ISMCTSFinalPolicyType.MAX_VALUE,
}
"""ISMCTS final-policy names (``final=`` in agent specs) -> OpenSpiel's enum."""


def _check(name: str, value: Any, low: float, integer: bool = True) -> None:
    ok = isinstance(value, (int, np.integer)) if integer else isinstance(value, (int, float, np.integer, np.floating))
    if isinstance(value, (bool, np.bool_)) or not ok or value < low:
        kind = "an int" if integer else "a number"
        raise ValueError(f"{name} must be {kind} >= {low}, got {value!r}")


def _random_state(seed: int | None) -> np.random.RandomState:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"seed must be None or a non-negative int, got {seed!r}")
    # RandomState takes 32-bit seeds: fold larger ones through a SeedSequence
    return np.random.RandomState(None if seed is None else np.random.SeedSequence(int(seed)).generate_state(1)[0])


class _Sampler:
    """A ``probability_sampler`` for ``resample_from_infostate`` drawing from a bot's generator."""

    def __init__(self, random_state: np.random.RandomState):
        self.random_state = random_state

    def __call__(self) -> float:
        return float(self.random_state.uniform())


class ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's information-set MCTS on an ether-envs game (``python_ether_*``).

    Args:
        game: a loaded ``python_ether_*`` game with imperfect information.
        max_simulations: simulations (determinizations) per decision (default 100).
        uct_c: UCT exploration constant (default 2.0).
        rollouts: random rollouts to the end of the game per leaf (default 1).
        seed: seed of the bot's generator (search, rollouts and determinizations).
        final_policy: ``"max_visit_count"`` (default), ``"normalized_visit_count"`` or ``"max_value"``.
        max_world_samples: distinct determinizations per decision, reused once drawn (-1:
            a fresh one every simulation, the default).
        evaluator: a leaf evaluator instead of random rollouts (OpenSpiel's ``Evaluator`` API).

    Tree nodes are keyed by the acting player's ``observation_string()`` (the games provide no
    information-state strings), with inconsistent action sets allowed (two states with the same
    observation string may differ in legal actions).

    Raises:
        ValueError: a perfect-information game, or a bad argument (the message names it).
    """

    def __init__(self, game: pyspiel.Game, max_simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1,
                 seed: int | None = None, final_policy: str = "max_visit_count", max_world_samples: int = -1,
                 evaluator: mcts.Evaluator | None = None):
        if game.get_type().information != pyspiel.GameType.Information.IMPERFECT_INFORMATION:
            raise ValueError(f"{game}: OpenSpiel's ISMCTSBot needs an imperfect-information game and this "
                             "configuration has perfect information; use DeterminizedMCTSBot (openspiel:mcts)")
        _check("max_simulations", max_simulations, 1)
        _check("uct_c", uct_c, 0, integer=False)
        _check("rollouts", rollouts, 1)
        if final_policy not in FINAL_POLICIES:
            raise ValueError(f"final_policy must be one of {list(FINAL_POLICIES)}, got {final_policy!r}")
        if max_world_samples != -1:
            _check("max_world_samples (or -1)", max_world_samples, 1)
        rs = _random_state(seed)
        super().__init__(game, evaluator or mcts.RandomRolloutEvaluator(rollouts, rs), float(uct_c),
                         int(max_simulations), max_world_samples=int(max_world_samples), random_state=rs,
                         final_policy_type=FINAL_POLICIES[final_policy], use_observation_string=True,
                         allow_inconsistent_action_sets=True)
        sampler = _Sampler(rs)
        self.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to carry between decisions: each search starts afresh."""
        self.reset()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Other seats' actions need no bookkeeping."""


class DeterminizedMCTSBot(pyspiel.Bot):
    """OpenSpiel's ``MCTSBot`` searching determinizations, never the true state.

    Each decision draws ``worlds`` determinizations of the acting player's information
    (``resample_from_infostate``), runs OpenSpiel's MCTS on each with ``max_simulations //
    worlds`` simulations, and plays the child OpenSpiel's MCTS picks (``worlds == 1``) or the
    action with the most visits summed over the worlds (ties: the lowest action id).

    Args:
        game: a loaded ``python_ether_*`` game (any information).
        max_simulations: simulations per decision over all worlds (default 100).
        uct_c: UCT exploration constant (default 2.0).
        rollouts: random rollouts per leaf (default 1).
        worlds: determinizations per decision (default 1; at most ``max_simulations``).
        solve: OpenSpiel's MCTS-Solver backup of proven values (default True; proven within
            a determinization only).
        seed: seed of the bot's generator.
        evaluator: a leaf evaluator instead of random rollouts.

    Raises:
        ValueError: a bad argument (the message names it).
    """

    def __init__(self, game: pyspiel.Game, max_simulations: int = 100, uct_c: float = 2.0, rollouts: int = 1,
                 worlds: int = 1, solve: bool = True, seed: int | None = None,
                 evaluator: mcts.Evaluator | None = None):
        pyspiel.Bot.__init__(self)
        _check("max_simulations", max_simulations, 1)
        _check("uct_c", uct_c, 0, integer=False)
        _check("rollouts", rollouts, 1)
        _check("worlds", worlds, 1)
        if worlds > max_simulations:
            raise ValueError(f"worlds ({worlds}) must be at most max_simulations ({max_simulations})")
        if not isinstance(solve, bool):
            raise ValueError(f"solve must be True or False, got {solve!r}")
        rs = _random_state(seed)
        self.worlds = int(worlds)
        self._sampler = _Sampler(rs)
        self.mcts = mcts.MCTSBot(game, float(uct_c), int(max_simulations) // self.worlds,
                                 evaluator or mcts.RandomRolloutEvaluator(rollouts, rs), solve=solve, random_state=rs)

    def restart_at(self, state: pyspiel.State) -> None:
        """Nothing to carry between decisions."""

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Other seats' actions need no bookkeeping."""

    def step_with_policy(self, state: pyspiel.State) -> tuple[list[tuple[int, float]], int]:
        """``(policy, action)``: the chosen action with probability 1."""
        action = self.step(state)
        return [(a, 1.0 if a == action else 0.0) for a in state.legal_actions()], action

    def step(self, state: pyspiel.State) -> int:
        """The action for the player to act in ``state`` (searched on determinizations only)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        player = state.current_player()
        if self.worlds == 1:
            return self.mcts.mcts_search(state.resample_from_infostate(player, self._sampler)).best_child().action
        visits = dict.fromkeys(legal, 0)
        for _ in range(self.worlds):
            root = self.mcts.mcts_search(state.resample_from_infostate(player, self._sampler))
            for child in root.children:
                visits[child.action] += child.explore_count
        return max(legal, key=lambda a: (visits[a], -a))
