"""Network-guided search: PUCT over determinizations with a policy-value net (spec ``az``).

    import ether_envs
    from agents import make_agent
    game = ether_envs.load_game("etherium")
    agent = make_agent("az", game)                          # the newest zoo net, 64 simulations
    agent = make_agent("az:simulations=100,c=1.5", game)
    agent = make_agent("az:zoo=1", game)                     # over the zoo-1 net
    # any weight file of ours: make_agent("az:path=runs/exit/policy.npz", game)

AlphaZero's search (Silver et al. 2018) made to play hidden-information games the way
``agents/mcts.py`` does:

* **Determinizations.** Every simulation starts from ``state.resample_hidden(player, rng)``: the
  hidden parts ``player`` cannot see are redrawn and the chance generator reseeded; the search
  never reads the true hidden state (perfect-information Monte Carlo, Long et al. 2010). The
  tree is open-loop and shared by all determinizations (single-observer information-set MCTS,
  Cowling et al. 2012): a node is the action sequence that reaches it, children are keyed by
  action id, and the actions legal at a node are read from the simulation's own state.
* **Priors from the policy head.** A node keeps the logits the net gave when it was first
  reached; at each visit the prior is their softmax over the actions legal there.
* **Leaf values from the value head, no rollouts.** A new leaf is valued for every seat ``p``
  by the value head on ``observation_tensor(p)`` (one batched forward pass; a co-operative game
  needs one row), so the search plays any player count. A terminal leaf takes
  ``state.returns()``.
* **PUCT.** At a node where seat ``p`` moves, the action maximising
  ``Q_p(a) + c * P(a) * sqrt(N) / (1 + N(a))``; an unvisited action's ``Q`` is the node's own
  value for ``p`` (first-play urgency without reduction). The backed-up value of an edge is the
  return of the seat that chose it (max^n), so any utility works.
* **A known opponent (optional).** With ``opponent_zoo=N`` or ``opponent_path=FILE`` every other
  seat (in a co-operative game, every teammate) is taken to play that net as ``pretrained``
  does (the masked argmax of its logits on its own observation). The search then branches on its
  own decisions only: after each of them the others' moves in the simulation's world are the
  ones that net would make there, from what its seat sees of that world (its logits up to
  float32 rounding: the first layer is read sparsely), and a node is valued at the searching seat's next turn. This is an approximate best response
  to that net (search against a known policy, as in Timbers et al. 2022, "Approximate
  exploitability"); it is for measuring how exploitable a net is, and it plays well only against
  that net. It is a lower bound in two ways: a finite search, and worlds drawn by
  ``resample_hidden`` as for any search, not narrowed by what the net's past moves reveal of its
  hidden cards. Each of the others' moves costs a forward pass of that net, so a decision costs
  several times ``az``'s at the same budget (about 27 ms at 32 simulations on Ethnos at 4 players,
  94 ms at 64: docs/results/zoo2.md).
* **The move.** The root action with the most visits (ties: the higher prior), or with
  ``temperature > 0`` a draw from visits^(1/temperature). ``dirichlet > 0`` mixes Dirichlet noise
  into the root priors (``(1 - 0.25) P + 0.25 Dir(dirichlet)``), for self-play only
  (:mod:`training.exit`).

Its cost is a clone, the steps down the tree, the observations of every seat and one forward
pass per simulation, whose first layer reads only the observations' nonzero inputs
(:meth:`agents.pretrained.MLPPolicy.features_sparse`: some 4-11% of them; the same values as the
dense pass up to float32 rounding). The default budget (64 simulations) is sized to stay under
50 ms a decision on every game on one core of the 2-core machine (docs/speed.md, "Agents'
decision time"; ``ether-envs agent-speed``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .base import Agent
from .pretrained import MLPPolicy, PretrainedAgent, _as_bool

DEFAULT_SIMULATIONS = 64
"""Simulations per decision of ``az`` with no ``simulations`` key."""


class _Node:
    __slots__ = ("logits", "values", "visits", "edge_visits", "edge_total", "children", "priors")

    def __init__(self, logits: np.ndarray, values: np.ndarray) -> None:
        self.logits = logits            # float64 (num_actions,): the policy head at first visit
        self.values = values            # float64 (num_players,): the value head at first visit
        self.priors: dict[tuple[int, ...], list[float]] = {}  # legal actions -> their softmax, once each
        self.visits = 0
        self.edge_visits: dict[int, int] = {}
        self.edge_total: dict[int, float] = {}
        self.children: dict[int, _Node] = {}


class AZAgent(Agent):
    """PUCT search over determinizations guided by a policy-value net (see the module docstring).

    Args:
        game: the configured ``Game`` it plays.
        simulations: simulations per decision (int >= 1, default :data:`DEFAULT_SIMULATIONS`).
        c: the PUCT exploration constant (> 0, default 1.5; values are the game's returns, in [-1, 1]).
        path: a weight file (``.npz``, :class:`agents.pretrained.MLPPolicy`); default the game's
            newest shipped net (``pretrained``); ``zoo=N`` picks zoo ``N``'s net instead.
        zoo: the zoo of the shipped net (int >= 1; not with ``path``).
        temperature: 0 (default) plays the most visited action; > 0 draws ``∝ visits^(1/temperature)``.
        dirichlet: the Dirichlet concentration of the root noise (0, default: none; > 0 for self-play).
        policy: an in-memory :class:`MLPPolicy` instead of a file (training; no layout check).
        opponent_path: a weight file of the net the other seats are known to play (as
            ``pretrained``'s ``path``); default none: every seat is searched with the own net's priors.
        opponent_zoo: instead of ``opponent_path``, zoo ``N``'s shipped net for the game's player
            count (int >= 1, as ``pretrained``'s ``zoo``).

    Raises:
        ValueError: a budget or constant out of range, ``path`` with ``zoo`` (or ``opponent_path``
            with ``opponent_zoo``), or a net that does not match the game (as for ``pretrained``).
        FileNotFoundError: no weight file at ``path`` or ``opponent_path``.
    """

    name = "az"
    uses_state = True

    def __init__(self, game, simulations: int = DEFAULT_SIMULATIONS, c: float = 1.5, path: str | None = None,
                 zoo: int | None = None, temperature: float = 0.0, dirichlet: float = 0.0,
                 policy: MLPPolicy | None = None, opponent_path: str | None = None,
                 opponent_zoo: int | None = None) -> None:
        super().__init__()
        if isinstance(simulations, bool) or not isinstance(simulations, (int, np.integer)) or simulations < 1:
            raise ValueError(f"az: simulations must be an int >= 1, got {simulations!r}")
        for key, value, low in (("c", c, 0.0), ("temperature", temperature, 0.0), ("dirichlet", dirichlet, 0.0)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or value < low:
                raise ValueError(f"az: {key} must be a finite number >= {low:g}, got {value!r}")
        if c <= 0:
            raise ValueError(f"az: c must be > 0, got {c!r}")
        self.simulations = int(simulations)
        self.c = float(c)
        self.temperature = float(temperature)
        self.dirichlet = float(dirichlet)
        if policy is None:
            policy = PretrainedAgent(game, path=path, zoo=zoo).policy
        elif path is not None or zoo is not None:
            raise ValueError("az: give a policy, a path or a zoo, not several")
        self.policy = policy
        self.opponent: MLPPolicy | None = None
        """The net the other seats are known to play (masked argmax), or None."""
        if opponent_path is not None or opponent_zoo is not None:
            if opponent_path is not None and opponent_zoo is not None:
                raise ValueError("az: give opponent_path or opponent_zoo, not both")
            named = (f"opponent_path={opponent_path!r}" if opponent_path is not None
                     else f"opponent_zoo={opponent_zoo!r}")
            try:
                self.opponent = PretrainedAgent(game, path=opponent_path, zoo=opponent_zoo).policy
            except ValueError as e:
                raise ValueError(f"az: {named}: {e}") from e
            except FileNotFoundError as e:
                raise FileNotFoundError(f"az: {named}: {e}") from e
        self._me = -1
        self.game = game
        self.num_players = game.num_players
        self.shared_value = game.utility() == "identical"
        self.last_visits: np.ndarray | None = None
        """After :meth:`act`: the root's visit counts, int64 ``(num_actions,)`` (the ExIt policy target)."""

    # -- the net ------------------------------------------------------------------------------
    def _evaluate(self, s) -> tuple[np.ndarray, np.ndarray]:
        """Logits of the seat to move and the value of every seat, for a non-terminal state (with a
        known opponent only the seat to move, the searcher, is valued; the others read 0)."""
        mover = s.current_player()
        if self.shared_value or self.opponent is not None:
            seats = [mover]
        else:
            seats = [mover] + [p for p in range(self.num_players) if p != mover]
        obs = np.stack([s.observation_tensor(p) for p in seats])
        h = self.policy.features_sparse(obs)
        w, b = self.policy.policy
        logits = (h[0] @ w.T + b).astype(np.float64)
        vw, vb = self.policy.value
        v = (h @ vw.T + vb)[:, 0].astype(np.float64)
        values = np.zeros(self.num_players)  # with a known opponent only the searcher's is read
        if self.shared_value:
            values[:] = v[0]
        else:
            values[seats] = v
        return logits, np.clip(values, -1.0, 1.0)

    # -- search -------------------------------------------------------------------------------
    def search(self, state, player: int) -> np.ndarray:
        """Run the search from ``player``'s view of ``state``; the root's visit counts,
        int64 ``(num_actions,)`` (zero for actions never visited). ``state`` is not changed.

        Raises:
            ValueError: the game is over or ``player`` is not the player to move."""
        self.check_to_move(state, player)
        return self._search(state, player)

    def _search(self, state, player: int) -> np.ndarray:
        """:meth:`search` once ``player`` is known to be the one to move (:meth:`act` has checked)."""
        self._me = player
        root: _Node | None = None
        noise: dict[int, float] | None = None
        for _ in range(self.simulations):
            s = self._world(state, player)
            if root is None:
                root = _Node(*self._evaluate(s))
                if self.dirichlet > 0:
                    legal = s.legal_actions()
                    eta = self.rng.dirichlet([self.dirichlet] * len(legal))
                    noise = dict(zip(legal, eta))
                continue
            self._simulate(s, root, noise)
        self._root_logits = None if root is None else root.logits
        visits = np.zeros(self.game.num_distinct_actions(), dtype=np.int64)
        if root is not None:
            for a, n in root.edge_visits.items():
                visits[a] = n
        return visits

    def _world(self, state, player: int):
        """The state one simulation starts from: a determinization for ``player``."""
        return state.resample_hidden(player, self.rng)

    @staticmethod
    def _priors(node: _Node, legal: list[int]) -> list[float]:
        """The softmax of the node's logits over ``legal``, computed once per legal set: the
        worlds of an open-loop tree offer the same few sets at a node again and again."""
        key = tuple(legal)
        p = node.priors.get(key)
        if p is None:
            z = node.logits[legal]
            e = np.exp(z - z.max())
            p = node.priors[key] = (e / e.sum()).tolist()
        return p

    def _select(self, node: _Node, legal: list[int], mover: int, noise: dict[int, float] | None) -> int:
        p = self._priors(node, legal)
        if noise is not None:
            p = 0.75 * np.asarray(p) + 0.25 * np.array([noise.get(a, 0.0) for a in legal])
        sqrt_n = math.sqrt(max(node.visits, 1))
        fpu = node.values[mover]
        best_a, best_u = legal[0], -math.inf
        ev, et, c = node.edge_visits, node.edge_total, self.c
        for i, a in enumerate(legal):
            n = ev.get(a, 0)
            q = et[a] / n if n else fpu
            u = q + c * p[i] * sqrt_n / (1 + n)
            if u > best_u:
                best_a, best_u = a, u
        return best_a

    def _simulate(self, s, root: _Node, noise: dict[int, float] | None) -> None:
        node = root
        path: list[tuple[_Node, int, int]] = []
        while True:
            if s.is_terminal():
                values = s.returns()
                break
            if node.logits.size == 0:  # terminal where it was first reached, not in this determinization
                node.logits, node.values = self._evaluate(s)
                values = node.values
                break
            mover = s.current_player()
            a = self._select(node, s.legal_actions(), mover, noise if node is root else None)
            s.apply_action(a)
            if self.opponent is not None:
                self._play_opponent(s)
            path.append((node, a, mover))
            child = node.children.get(a)
            if child is None:
                if s.is_terminal():
                    values = s.returns()
                    child = _Node(np.zeros(0), values)
                else:
                    child = _Node(*self._evaluate(s))
                    values = child.values
                node.children[a] = child
                break
            node = child
        for n, a, mover in path:
            n.visits += 1
            n.edge_visits[a] = n.edge_visits.get(a, 0) + 1
            n.edge_total[a] = n.edge_total.get(a, 0.0) + float(values[mover])

    def _play_opponent(self, s) -> None:
        """Apply the known opponent's moves in world ``s`` until the searching seat is to move
        again or the game is over. Each is that net's masked argmax on the mover's own view of
        ``s``, as ``pretrained`` plays (its first layer by :meth:`MLPPolicy.features_sparse`: the
        same logits up to float32 rounding; ties go to the lowest action id, as there)."""
        me, net = self._me, self.opponent
        w, b = net.policy
        while not s.is_terminal():
            mover = s.current_player()
            if mover == me:
                return
            legal = s.legal_actions()
            if len(legal) > 1:
                z = w[legal] @ net.features_sparse(s.observation_tensor(mover)) + b[legal]
                s.apply_action(legal[int(np.argmax(z))])
            else:
                s.apply_action(legal[0])

    # -- play ---------------------------------------------------------------------------------
    def act(self, state, player: int) -> int:
        self.check_to_move(state, player)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_visits = None
            return int(legal[0])
        visits = self._search(state, player)
        self.last_visits = visits
        counts = visits[legal].astype(np.float64)
        logits = self._root_logits  # the policy head at the root (player's own view: the same in every world)
        if counts.sum() == 0:  # one simulation: only the root was valued
            return int(legal[int(np.argmax(logits[legal]))])
        if self.temperature > 0:  # visits^(1/T), computed in logs so that a tiny T cannot overflow
            with np.errstate(divide="ignore"):
                z = np.log(counts) / self.temperature
            w = np.exp(z - z.max())
            return int(legal[int(self.rng.choice(len(legal), p=w / w.sum()))])
        best = np.flatnonzero(counts == counts.max())
        if len(best) > 1:  # ties: the higher prior
            return int(legal[max(best, key=lambda i: logits[legal[i]])])
        return int(legal[best[0]])


SPEC_KEYS = ("simulations", "c", "path", "zoo", "temperature", "dirichlet", "deterministic",
             "opponent_path", "opponent_zoo")
"""The keys of the ``az`` spec (``deterministic=false`` is ``temperature=1``)."""


def _from_spec(game, *args: Any, **kwargs: Any) -> AZAgent:
    """``make_agent``'s builder: the keys of :data:`SPEC_KEYS` (an in-memory ``policy`` is not one)."""
    unknown = sorted(set(kwargs) - set(SPEC_KEYS))
    if unknown:
        raise ValueError(f"az: unknown key {unknown[0]!r}; keys: {', '.join(SPEC_KEYS)}")
    if "deterministic" in kwargs:
        if "temperature" in kwargs:
            raise ValueError("az: give temperature or deterministic, not both")
        kwargs["temperature"] = 0.0 if _as_bool(kwargs.pop("deterministic"), "deterministic") else 1.0
    return AZAgent(game, *args, **kwargs)
