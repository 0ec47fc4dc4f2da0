"""Generic UCT (Monte Carlo tree search) over any ether-envs engine.

Works for every game through the public ``State`` API only: ``clone``,
``legal_actions``, ``current_player``, ``apply_action``, ``returns`` and
``resample_hidden``. Each simulation starts from a fresh determinization
``state.resample_hidden(player, rng)``: the hidden parts ``player`` cannot see
are redrawn and the state's chance generator is reseeded, so the search never
peeks at hidden information or at future chance (perfect-information games
only get the reseed). The tree is open-loop and shared by all
determinizations (single-observer information-set MCTS, Cowling et al. 2012):
children are keyed by action id and UCB uses availability counts, so an action
legal in only some determinizations is not over-explored.

Rollouts are uniformly random to the end of the game; the value backed up to
each edge is the terminal return (``state.returns()``) of the player who chose
that edge, so any player count and any utility works.
"""

from __future__ import annotations

import math

import numpy as np

from .base import Agent


class _Edge:
    __slots__ = ("visits", "total", "available", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[int, _Edge] = {}


class MCTSAgent(Agent):
    """UCT with determinization.

    Args:
        simulations: playouts per decision (default 200).
        c: UCB exploration constant (default 1.4; returns are the game's own,
            e.g. +-1 for competitive win/loss).

    Raises:
        ValueError: ``simulations < 1`` or ``c < 0``.
    """

    name = "mcts"
    uses_state = True

    def __init__(self, simulations: int = 200, c: float = 1.4) -> None:
        super().__init__()
        if not isinstance(simulations, int) or simulations < 1:
            raise ValueError(f"mcts: simulations must be a positive int, got {simulations!r}")
        if c < 0:
            raise ValueError(f"mcts: c must be >= 0, got {c!r}")
        self.simulations = simulations
        self.c = float(c)

    def act(self, state, player: int) -> int:
        self.check_to_move(state, player)
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        root = _Edge()
        for _ in range(self.simulations):
            self._simulate(state.resample_hidden(player, self.rng), root)
        best = max(legal, key=lambda a: (root.children[a].visits, root.children[a].total) if a in root.children else (-1, 0.0))
        return int(best)

    def _simulate(self, s, root: _Edge) -> None:
        rng = self.rng
        node = root
        path: list[tuple[_Edge, int]] = []
        while not s.is_terminal():
            legal = s.legal_actions()
            p = s.current_player()
            untried = [a for a in legal if a not in node.children]
            if untried:
                a = untried[int(rng.integers(len(untried)))]
                child = node.children[a] = _Edge()
                child.available = 1
                s.apply_action(a)
                path.append((child, p))
                break
            best_a, best_u = legal[0], -math.inf
            children, c = node.children, self.c
            for a in legal:  # each legal child is available once more, then scored
                ch = children[a]
                ch.available += 1
                u = ch.total / ch.visits + c * math.sqrt(math.log(ch.available) / ch.visits)
                if u > best_u:
                    best_a, best_u = a, u
            node = node.children[best_a]
            s.apply_action(best_a)
            path.append((node, p))
        while not s.is_terminal():  # random rollout
            legal = s.legal_actions()
            s.apply_action(legal[int(rng.integers(len(legal)))])
        returns = s.returns()
        for edge, p in path:
            edge.visits += 1
            edge.total += float(returns[p])
