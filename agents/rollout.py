"""Monte Carlo rollout search: a one-step look-ahead over a base policy (spec ``rollout``).

    import ether_envs
    from agents import make_agent
    game = ether_envs.load_game("aetherspire")
    agent = make_agent("rollout", game)                        # 2 rollouts per legal action, heuristic base
    agent = make_agent("rollout:rollouts=4,score_weight=0", game)

The rollout algorithm of Tesauro & Galperin (1996) (Bertsekas 2021, "rollout" / policy
improvement): at each decision with more than one legal action it plays every legal action
``rollouts`` times and then lets the base policy (the game's heuristic, :mod:`agents.heuristics`)
play *every seat* to the end of the game, and picks the action with the best mean value. When
the base policy is a fixed policy of the whole team, this is one step of policy iteration, so
it plays at least about as well as the base (exactly so with unbiased, exact estimates).

* **Determinizations.** Each round of rollouts starts from ``state.resample_hidden(player, rng)``:
  the hidden parts ``player`` cannot see are redrawn and the chance generator reseeded, so the
  search never reads the true hidden state or the future chance (perfect-information Monte
  Carlo, Long et al. 2010).
* **Common random numbers.** In one round every legal action is tried from *the same*
  determinization (a clone of it) with the same rollout seed, so the actions are compared on
  the same hidden cards and draws, and the comparison is far less noisy than independent
  rollouts.
* **The value** of a finished rollout for the deciding seat is its return
  (``state.returns()[player]``) plus ``score_weight`` times its final score margin
  (``state.scores()``: own score minus the best other score; the own score in a co-operative
  game; the potential of the env's score shaping). A small weight (default 0.1) breaks the ties
  between the many lost rollouts of a hard co-operative game (more spires completed is better)
  without ever preferring a loss to a win when scores stay under ``1 / score_weight``.
* **Ties** go to the base policy's own action, then to the lowest action id.

Its cost is ``rollouts x (legal actions)`` games played to the end by the base policy per
decision: cheap on a game whose heuristic is fast (Aetherspire, about 0.03 ms a heuristic
decision); docs/speed.md lists its decision times (``python -m training.agent_speed --specs rollout``).
"""

from __future__ import annotations

import math

import numpy as np

from .base import Agent
from .heuristic import load_heuristic

BASES = ("heuristic", "random")
"""The base policies a rollout can play."""


def _random_action(state, player: int, rng: np.random.Generator) -> int:
    legal = state.legal_actions()
    return int(legal[int(rng.integers(len(legal)))])


class RolloutAgent(Agent):
    """One-step look-ahead with base-policy rollouts over determinizations (module docstring).

    Args:
        game: the configured ``Game`` it plays.
        rollouts: rollouts per legal action per decision (int >= 1, default 2).
        base: the policy that plays every seat in a rollout: ``"heuristic"`` (default) or ``"random"``.
        score_weight: weight of the final score margin in a rollout's value (finite, >= 0, default 0.1).

    Raises:
        ValueError: ``rollouts`` not an int >= 1, an unknown ``base``, a ``score_weight`` that is not
            a finite number >= 0, or a game without a heuristic (base ``heuristic``).
    """

    name = "rollout"
    uses_state = True

    def __init__(self, game, rollouts: int = 2, base: str = "heuristic", score_weight: float = 0.1) -> None:
        super().__init__()
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"rollout: rollouts must be an int >= 1, got {rollouts!r}")
        if base not in BASES:
            raise ValueError(f"rollout: base must be one of {', '.join(BASES)}, got {base!r}")
        if isinstance(score_weight, bool) or not isinstance(score_weight, (int, float)) \
                or not 0 <= score_weight < math.inf:
            raise ValueError(f"rollout: score_weight must be a finite number >= 0, got {score_weight!r}")
        self.rollouts = rollouts
        self.base = base
        self.score_weight = float(score_weight)
        self._policy = load_heuristic(game.spec.name) if base == "heuristic" else _random_action
        self._zero_sum = game.utility() == "zero_sum"

    def _world(self, state, player: int):
        """The state one round of rollouts starts from: a determinization for ``player``."""
        return state.resample_hidden(player, self.rng)

    def value(self, state, player: int) -> float:
        """``player``'s value of the finished game ``state``: return plus the weighted score margin."""
        v = float(state.returns()[player])
        if self.score_weight:
            scores = [float(x) for x in state.scores()]
            margin = scores[player]
            if self._zero_sum and len(scores) > 1:
                margin -= max(x for i, x in enumerate(scores) if i != player)
            v += self.score_weight * margin
        return v

    def action_values(self, state, player: int) -> dict[int, float]:
        """The mean rollout value of each legal action of ``player``: ``{action id: value}``,
        ``rollouts`` rounds of common-random-number rollouts.

        Raises:
            ValueError: a finished game, or ``player`` is not the player to move.
        """
        self.check_to_move(state, player)
        legal = [int(a) for a in state.legal_actions()]
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(self.rollouts):
            world = self._world(state, player)
            seed = int(self.rng.integers(2**63))
            for a in legal:
                s = world.clone()
                rng = np.random.default_rng(seed)
                s.apply_action(a)
                while not s.is_terminal():
                    s.apply_action(self._policy(s, s.current_player(), rng))
                totals[a] += self.value(s, player)
        return {a: t / self.rollouts for a, t in totals.items()}

    def act(self, state, player: int) -> int:
        """The action of best mean rollout value (:meth:`action_values`; a forced move at once).

        Raises:
            ValueError: a finished game, or ``player`` is not the player to move.
        """
        self.check_to_move(state, player)
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        values = self.action_values(state, player)
        best = max(values.values())
        ties = sorted(a for a, v in values.items() if v >= best - 1e-9)
        if len(ties) > 1:
            own = int(self._policy(state, player, self.rng))
            if own in ties:
                return own
        return ties[0]
