"""Single-agent gymnasium view of any ether-envs game (for SB3 / sb3-contrib).

    import gymnasium
    import numpy as np
    import ether_envs
    from ether_envs.wrappers import SingleAgentEnv
    env = SingleAgentEnv("aethermon_collect", {"num_players": 2})
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))

    # the same env through gymnasium's registry (registered by import ether_envs)
    env = gymnasium.make("ether_envs/aethermon_collect-v0", num_players=2, opponents="heuristic")
    mask = env.unwrapped.action_masks()      # or env.get_wrapper_attr("action_masks")()

One learner sits in a seat (random each episode, or fixed); every other seat is
played by an opponent until the learner must decide again. Opponents are any
objects with ``act(state, player) -> int`` (e.g. ``agents.make_agent(...)``), or
agent spec strings (``"heuristic"``, ``"mcts:simulations=50"``, weights
``"heuristic=0.7,random=0.3"``) built by a plug-in (below); without opponents the
other seats play uniformly at random. This module needs only numpy and gymnasium
(no torch, no SB3, and it never imports ``agents``).

Gymnasium ids: ``import ether_envs`` registers every game as
``ether_envs/<game>-v<N>`` (``N`` = ``Game.spec.version``), built by
:func:`make_gymnasium_env`: ``gymnasium.make(id, config={...} or the config
fields as keywords, opponents=..., learner_seat=..., ...)``. No ``TimeLimit`` is
added (the env truncates itself at ``max_steps``). gymnasium's wrappers
(``OrderEnforcing``, ``PassiveEnvChecker``) do not forward unknown attributes:
read the mask with ``env.unwrapped.action_masks()``,
``env.get_wrapper_attr("action_masks")()`` or ``info["action_mask"]``. Under
``gymnasium.vector`` (``SyncVectorEnv``, ``AsyncVectorEnv``, ``make_vec``) the
masks arrive stacked in ``infos["action_mask"]`` (int8 ``(num_envs, N)``). With
gymnasium's default next-step autoreset, the step that ends an episode returns
that episode's last observation and an all-zero mask row; the next action sent
to that env is ignored (the env resets instead), so send any action there, e.g.
``0``. With ``autoreset_mode=AutoresetMode.SAME_STEP`` (gymnasium >= 1.1) the
row is already the new game's mask.

Agent spec strings: resolvers are plug-ins in the entry-point group
``ether_envs.agent_specs`` (``importlib.metadata``), each a callable
``(spec, game, seed=None) -> agent``; this repository's ``pyproject.toml``
declares ``default = "agents:make_agent"``, so the specs of ``agents.make_agent``
work whenever the ``agents`` package is installed (``pip install -e .`` in the
checkout). Without a resolver a string raises ``ValueError`` saying so.

Spaces: observation ``Box(float32, (obs_size,))`` = the game's observation
for the learner's seat (seat-relative, see the game's env docstring); action
``Discrete(N)`` = the game's action codec. ``action_masks()`` gives the bool
mask of legal actions (sb3-contrib's MaskablePPO protocol); ``info["action_mask"]``
holds the same as int8. ``reset_into`` / ``step_into`` write the observation and
mask into given arrays instead (rows of a batch: :mod:`ether_envs.vector` batches
many games for SB3 in one process or over worker processes).

Reward: 0 until the game ends, then the learner's terminal return
(``state.returns()[seat]``, e.g. +1 win / -1 loss) — also when the game is
decided on an opponent's move. ``terminated`` when the game is over;
``truncated`` after ``max_steps`` decisions (all seats counted; default the
game's ``max_game_length()``, which no game reaches).

Optional score shaping (``score_shaping=c > 0``, off by default): each step
also pays ``c * (Phi(s') - Phi(s))`` with the potential ``Phi`` = the learner's
score minus the best other score (``state.scores()``; the learner's own score
in co-operative games) and ``Phi = 0`` at the start and at the end of the game.
The shaping terms telescope to zero over an episode, so the episode return is
still exactly the game outcome (potential-based shaping, Ng et al. 1999); they
only pay score gains as they happen, which speeds up learning.
"""

from __future__ import annotations

import functools
import importlib.metadata
import inspect
import math
from typing import Any, Callable, Mapping, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

import ether_envs
from ether_envs.core.game import check_int, is_action_id, malformed_action

ILLEGAL_ACTION_MODES = ("lose", "raise")

AGENT_SPEC_GROUP = "ether_envs.agent_specs"
"""Entry-point group of agent-spec resolvers: callables ``(spec, game, seed=None) -> agent``."""


class _UniformRandom:
    """Default opponent: uniform over legal actions, from the env's generator."""

    def __init__(self, env: "SingleAgentEnv") -> None:
        self.env = env

    def act(self, state, player: int) -> int:
        legal = state.legal_actions()
        return int(legal[self.env.np_random.integers(len(legal))])


# ---- agent spec strings (plug-ins) ---------------------------------------------------
@functools.lru_cache(maxsize=None)
def _agent_spec_resolvers() -> tuple[tuple[str, Any], ...]:
    """The entry points of :data:`AGENT_SPEC_GROUP`, ``default`` first, then by name (not loaded)."""
    eps = importlib.metadata.entry_points(group=AGENT_SPEC_GROUP)
    return tuple(sorted(((ep.name, ep) for ep in eps), key=lambda x: (x[0] != "default", x[0])))


def make_opponent(spec: str, game, seed: int | None = None):
    """The agent for an agent spec string, built by the first resolver plug-in of the
    entry-point group ``ether_envs.agent_specs`` that accepts it (``default`` first; this
    repository declares ``default = "agents:make_agent"``).

    Args:
        spec: an agent spec (``"random"``, ``"heuristic"``, ``"mcts:simulations=50"``, ...).
        game: the configured ``Game`` the agent plays.
        seed: the agent's seed (``SingleAgentEnv`` reseeds its opponents at every reset anyway).

    Returns:
        an object with ``act(state, player) -> int``.

    Raises:
        ValueError: no resolver is installed or loads (the message says what to install),
            or every resolver rejected ``spec`` (unknown kind, bad options; the message names
            ``spec`` and gives each resolver's reason).
        TypeError: ``spec`` is not a string, or what the resolver returned has no ``act`` method.

    Other errors of a resolver propagate (e.g. ``agents.make_agent``'s ``FileNotFoundError``
    for a missing model file).
    """
    if not isinstance(spec, str):
        raise TypeError(f"agent spec must be a string, got {type(spec).__name__}")
    reasons = []
    loaded = 0
    for name, ep in _agent_spec_resolvers():
        try:
            resolve = ep.load()
        except Exception as e:  # noqa: BLE001 - a broken plug-in: say why, try the next one
            reasons.append(f"resolver {name!r} ({ep.value}) failed to load: {type(e).__name__}: {e}")
            continue
        loaded += 1
        try:
            agent = resolve(spec, game, seed=seed)
        except ValueError as e:
            reasons.append(f"{e} (resolver {name!r})")
            continue
        if not hasattr(agent, "act"):
            raise TypeError(f"agent spec {spec!r}: resolver {name!r} returned {type(agent).__name__}, "
                            "which has no act(state, player)")
        return agent
    if not loaded:
        raise ValueError(
            f"opponent spec {spec!r} needs an agent-spec resolver, and none is installed"
            + (f" ({'; '.join(reasons)})" if reasons else "")
            + f": install the 'agents' package of ether-envs (pip install -e . in its checkout declares "
            f"the entry point {AGENT_SPEC_GROUP}: default = agents:make_agent), register your own "
            f"resolver in the entry-point group {AGENT_SPEC_GROUP!r}, or pass agent objects with "
            "act(state, player) instead of strings")
    raise ValueError(f"unknown or invalid opponent spec {spec!r}: " + "; ".join(reasons))


def _split_top_level(text: str) -> list[str]:
    """``text`` split at the commas outside single or double quotes (items stripped).

    Raises:
        ValueError: an unmatched quote.
    """
    items, cur, quote = [], [], None
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            items.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if quote:
        raise ValueError(f"unmatched quote in opponents {text!r}")
    items.append("".join(cur).strip())
    return items


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" and text[0] not in text[1:-1]:
        return text[1:-1]
    return text


def parse_opponent_weights(text: str) -> dict[str, float] | None:
    """``"heuristic=0.7,random=0.3"`` -> ``{"heuristic": 0.7, "random": 0.3}``; ``None`` when
    ``text`` is a single agent spec.

    ``text`` is a weights list when its first item (items are split at the commas outside
    quotes) is in quotes or has an ``=`` before any ``:`` (an agent spec never does: it starts
    with its kind). Each item is ``SPEC=WEIGHT``, split at its last ``=``; a spec with several
    parts goes in quotes: ``"'mcts:simulations=50,c=2'=0.5,heuristic=0.5"`` (the syntax of
    ``ether-envs train --opponents``, without its ``self``).

    Raises:
        ValueError: a malformed item, an unmatched quote, a weight that is not a finite number
            >= 0, or weights summing to 0.
    """
    first = _split_top_level(text)[0]
    if not (first[:1] in ("'", '"') or "=" in first.partition(":")[0]):
        return None
    return parse_weights(text)


def parse_weights(text: str) -> dict[str, float]:
    """``"heuristic=0.7,random=0.3"`` -> ``{"heuristic": 0.7, "random": 0.3}``: the one grammar of
    opponent weights (``SingleAgentEnv(opponents=...)``, ``ether-envs train --opponents``,
    ``training.selfplay``). Items are split at the commas outside quotes; each is ``SPEC=WEIGHT``,
    split at its last ``=``, the spec unquoted (``'mcts:simulations=50,c=2'=0.5``). A key is any
    string (the trainers' pool also takes ``self``); whether it builds an agent is not checked here.

    Raises:
        ValueError: a malformed item, an unmatched quote, a weight that is not a finite number
            >= 0 (the message quotes it), or weights summing to 0.
    """
    out: dict[str, float] = {}
    for item in _split_top_level(text):
        key, eq, val = item.rpartition("=")
        if not eq or not key.strip():
            raise ValueError(f"opponent weights: expected SPEC=WEIGHT, got {item!r} in {text!r}")
        try:
            w = float(val)
        except ValueError:
            raise ValueError(f"opponent weights: the weight of {key.strip()!r} must be a finite number >= 0, "
                             f"got {val!r} in {text!r}") from None
        out[_unquote(key.strip())] = w
    _check_weights(out, text)
    return out


def _check_weights(weights: Mapping[str, float], what: Any) -> None:
    for spec, w in weights.items():
        if not isinstance(spec, str):
            raise TypeError(f"opponent weights: keys must be agent spec strings, got {spec!r}")
        if isinstance(w, bool) or not isinstance(w, (int, float, np.integer, np.floating)) \
                or not (0 <= float(w) and math.isfinite(float(w))):
            raise ValueError(f"opponent weights: the weight of {spec!r} must be a finite number >= 0, "
                             f"got {w!r} in {what!r}")
    if not weights or sum(float(w) for w in weights.values()) <= 0:
        raise ValueError(f"opponent weights sum to 0 (or are empty): {what!r}")


class WeightedOpponents:
    """An opponent pool ``(np_random) -> [agent per other seat]`` from agent-spec weights: each
    episode draws one spec by weight and all other seats play it (as the trainers' opponent
    pool). The agents are built once, one per spec and seat, by :func:`make_opponent`.

    Raises:
        ValueError: bad weights, or a spec no resolver builds (:func:`make_opponent`).
    """

    def __init__(self, weights: Mapping[str, float], game, n_seats: int) -> None:
        _check_weights(weights, dict(weights))
        self.specs = list(weights)
        w = np.array([float(weights[s]) for s in self.specs])
        self.p = w / w.sum()
        self.n_seats = n_seats
        self.agents = {s: [make_opponent(s, game) for _ in range(max(n_seats, 1))] for s in self.specs}

    def __call__(self, np_random: np.random.Generator) -> list:
        return self.agents[self.specs[int(np_random.choice(len(self.specs), p=self.p))]][:self.n_seats]

    def __repr__(self) -> str:
        return f"WeightedOpponents({dict(zip(self.specs, self.p.round(4).tolist()))})"


class SingleAgentEnv(gymnasium.Env):
    """A learner in one seat of an ether-envs game; opponents fill the others.

    Args:
        game: registered game name (``ether_envs.list_games()``).
        config: the game's configuration dict (see its env docstring).
        opponents: ``None`` (uniform random), one agent (all other seats), a
            sequence of agents (assigned to the other seats in turn order from
            the learner), or a callable ``(np_random) -> agent | sequence``
            called at every reset (an opponent pool). Agents must have
            ``act(state, player) -> int``; if they have ``seed(int)`` they are
            reseeded from the env's generator at every reset. Agent spec strings
            work too (built once, by :func:`make_opponent`, i.e. the
            ``ether_envs.agent_specs`` plug-in): a spec (``"heuristic"``: one
            such agent per other seat), spec strings in a sequence (mixed with
            agents), or weights, as ``{"heuristic": 0.7, "random": 0.3}`` or
            ``"heuristic=0.7,random=0.3"`` (:func:`parse_opponent_weights`;
            one spec drawn by weight per episode for all other seats,
            :class:`WeightedOpponents`).
        learner_seat: fixed 0-based seat, or ``None`` for a uniformly random seat each episode.
        illegal_action: ``"lose"`` (default; the episode ends with reward
            ``illegal_reward`` and ``info["illegal_action"] = True``, PettingZoo
            classic's convention) or ``"raise"`` (``ValueError``, nothing changes).
        illegal_reward: reward for an illegal action under ``"lose"`` (default -1).
        max_steps: truncation bound on decisions per game, an int >= 1 (``None``: ``max_game_length()``).
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the text picture).
        score_shaping: coefficient of the potential-based score shaping (module
            docstring); 0 (default) = outcome reward only.

    Raises:
        ValueError: unknown game, invalid config, bad seat, mode or ``max_steps``; an opponent
            spec no resolver builds (it names the spec), or no resolver installed (it says
            what to install).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game: str = "aethermon_collect", config: dict | None = None,
                 opponents: Any = None, learner_seat: int | None = None,
                 illegal_action: str = "lose", illegal_reward: float = -1.0,
                 max_steps: int | None = None, render_mode: str | None = None,
                 score_shaping: float = 0.0):
        self.game_name = game
        self.config = dict(config or {})
        self.game = ether_envs.load_game(game, **self.config)
        n = self.game.num_players
        if learner_seat is not None and not (isinstance(learner_seat, (int, np.integer)) and 0 <= learner_seat < n):
            raise ValueError(f"learner_seat must be None or 0..{n - 1}, got {learner_seat!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} not in {self.metadata['render_modes']}")
        self.learner_seat = learner_seat
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.max_steps = check_int("max_steps", max_steps, 1) or self.game.max_game_length()
        self.render_mode = render_mode
        if score_shaping < 0:
            raise ValueError(f"score_shaping must be >= 0, got {score_shaping!r}")
        self.score_shaping = float(score_shaping)
        self._potential = 0.0
        layout = self.game.layout
        self.observation_space = spaces.Box(layout.low, layout.high, (layout.size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.set_opponents(opponents)
        self.state = None
        self.seat = 0
        self._seat_agents: dict[int, Any] = {}
        self._done = True

    # ---- opponents ---------------------------------------------------------
    def set_opponents(self, opponents: Any) -> None:
        """Replace the opponents (same forms as the constructor; spec strings are built now);
        effective at the next reset. Callable from ``VecEnv.env_method("set_opponents", ...)``.

        Raises:
            ValueError, TypeError: as :func:`make_opponent` / :func:`parse_opponent_weights`.
        """
        self.opponents = self._resolve_opponents(opponents)

    def _resolve_opponents(self, opponents: Any) -> Any:
        """Spec strings and weights -> agents / :class:`WeightedOpponents`; anything else as given."""
        n_others = self.game.num_players - 1
        if isinstance(opponents, str):
            weights = parse_opponent_weights(opponents)
            if weights is not None:
                return WeightedOpponents(weights, self.game, n_others)
            # one agent per other seat (built once even without other seats, so a bad spec fails here)
            return [make_opponent(opponents, self.game) for _ in range(max(n_others, 1))][:n_others]
        if isinstance(opponents, Mapping):
            return WeightedOpponents(opponents, self.game, n_others)
        if isinstance(opponents, Sequence) and any(isinstance(a, str) for a in opponents):
            opponents = [make_opponent(a, self.game) if isinstance(a, str) else a for a in opponents]
        agents = opponents if isinstance(opponents, Sequence) else [opponents]
        for a in agents:
            if not (a is None or hasattr(a, "act") or (callable(a) and a is opponents)):
                raise ValueError(f"opponents: {a!r} is not an agent (an object with act(state, player)), an agent "
                                 "spec string, a sequence of them, a weights dict or string, a callable pool, or None")
        return opponents

    def _draw_opponents(self) -> None:
        n = self.game.num_players
        others = [(self.seat + k) % n for k in range(1, n)]
        opp = self.opponents
        if opp is None:
            opp = _UniformRandom(self)
        elif callable(opp) and not hasattr(opp, "act"):
            opp = opp(self.np_random)
        chosen = list(opp) if isinstance(opp, Sequence) else [opp] * len(others)
        if not chosen and others:  # a one-player game (Aetherspire solo) has no opponents
            raise ValueError("opponents: empty sequence")
        self._seat_agents = {}
        for i, seat in enumerate(others):
            agent = chosen[i % len(chosen)]
            if hasattr(agent, "seed") and not isinstance(agent, _UniformRandom):
                agent.seed(int(self.np_random.integers(2**63)))
            self._seat_agents[seat] = agent

    # ---- gymnasium API -------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """New game (seeded from the env's generator), new seat and opponents;
        the opponents move until the learner must decide.

        Returns:
            ``(observation, info)``: float32 ``(obs_size,)``; ``info`` has ``action_mask``
            (int8 ``(N,)``, 1 = legal) and ``seat``.
        """
        super().reset(seed=seed)
        self._new_game()
        return self._obs(), self._info()

    def step(self, action):
        """Play the learner's ``action``, then the opponents until the learner must decide
        again or the game ends.

        Args:
            action: an action id: an int, a numpy int or a 0-d integer array in ``0..N-1``.

        Returns:
            ``(observation, reward, terminated, truncated, info)``: float32 ``(obs_size,)``, a
            float, bools; ``info`` has ``action_mask`` (int8 ``(N,)``; all 0 once the episode is
            over), ``seat``, and when the game ended ``returns`` and ``scores`` (every seat's),
            or ``illegal_action=True``.

        Raises:
            RuntimeError: step before the first reset, or after the episode ended (call reset).
            ValueError: ``action`` is not in ``Discrete(N)`` (a float, a bool, an array of another
                shape, out of range: in either ``illegal_action`` mode), or an illegal action under
                ``illegal_action="raise"``; nothing changes.
        """
        reward, terminated, truncated, info = self._play(action)
        info["action_mask"] = self._mask()
        return self._obs(), reward, terminated, truncated, info

    def reset_into(self, obs_out: np.ndarray, mask_out: np.ndarray, seed: int | None = None) -> dict[str, Any]:
        """:meth:`reset` for vectorised envs: the observation is written into
        ``obs_out`` (float32 ``(obs_size,)``) and the mask into ``mask_out``
        (bool ``(N,)``), e.g. rows of an ``(n_envs, ...)`` batch.

        Returns:
            ``info`` with ``seat`` (no ``action_mask``: read ``mask_out``).
        """
        gymnasium.Env.reset(self, seed=seed)
        self._new_game()
        self.write_into(obs_out, mask_out)
        return {"seat": self.seat}

    def step_into(self, action, obs_out: np.ndarray, mask_out: np.ndarray) -> tuple[float, bool, bool, dict[str, Any]]:
        """:meth:`step` for vectorised envs: the next observation and mask are
        written into ``obs_out`` and ``mask_out`` (see :meth:`reset_into`).

        Returns:
            ``(reward, terminated, truncated, info)``; ``info`` as :meth:`step`'s without ``action_mask``.

        Raises:
            as :meth:`step`.
        """
        reward, terminated, truncated, info = self._play(action)
        self.write_into(obs_out, mask_out)
        return reward, terminated, truncated, info

    def write_into(self, obs_out: np.ndarray, mask_out: np.ndarray) -> None:
        """Write the learner's current observation (float32) and legal-action mask (bool;
        all False once the episode is over) into the given arrays."""
        s = self.state
        s.observation_tensor(self.seat, out=obs_out)
        mask_out[:] = False
        if not self._done and not s.is_terminal() and s.current_player() == self.seat:
            mask_out[s.legal_actions()] = True

    def action_masks(self) -> np.ndarray:
        """bool array ``(N,)``: legal actions of the learner now; all False once the episode is
        over (the game ended, ``max_steps`` truncated it, or an illegal action ended it) until
        the next reset."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.state.render_text()
        return None

    # ---- internals -------------------------------------------------------------
    def _new_game(self) -> None:
        """New game, seat and opponents from ``np_random``; opponents move until the learner decides."""
        for _attempt in range(100):
            self.state = self.game.new_initial_state(seed=int(self.np_random.integers(2**63)))
            n = self.game.num_players
            self.seat = self.learner_seat if self.learner_seat is not None else int(self.np_random.integers(n))
            self._draw_opponents()
            self.num_steps = 0
            self._advance()
            if not self.state.is_terminal():  # the learner has a decision to make
                break
        else:
            raise RuntimeError(f"{self.game_name}: the learner's seat never had to act in 100 games")
        self._done = False
        self._potential = 0.0  # Phi at the start of the game (opponents' first moves are paid at the next step)

    def _play(self, action) -> tuple[float, bool, bool, dict[str, Any]]:
        """The learner's move and the opponents' replies; ``(reward, terminated, truncated, info)``."""
        if self.state is None:
            raise RuntimeError("step() before reset(); call reset() first")
        if self._done:
            raise RuntimeError("step() after the episode ended; call reset()")
        if not (is_action_id(action) and 0 <= action < self.action_space.n):
            raise ValueError(malformed_action(action, self.action_space.n))
        s = self.state
        try:
            s.apply_action(int(action))  # the engine validates; an illegal action changes nothing
        except ValueError:
            if self.illegal_action == "raise":
                raise
            self._done = True
            return self.illegal_reward, True, False, {"seat": self.seat, "illegal_action": True}
        self.num_steps += 1
        self._advance()
        terminated = s.is_terminal()
        truncated = not terminated and self.num_steps >= self.max_steps
        reward = float(s.returns()[self.seat]) if terminated else 0.0
        if self.score_shaping:
            potential = 0.0 if terminated or truncated else self._score_potential()
            reward += self.score_shaping * (potential - self._potential)
            self._potential = potential
        self._done = terminated or truncated
        info: dict[str, Any] = {"seat": self.seat}
        if terminated:
            info["returns"] = s.returns()
            info["scores"] = s.scores()
        return reward, terminated, truncated, info

    def _advance(self) -> None:
        s = self.state
        while not s.is_terminal() and s.current_player() != self.seat and self.num_steps < self.max_steps:
            p = s.current_player()
            s.apply_action(self._seat_agents[p].act(s, p))
            self.num_steps += 1

    def _score_potential(self) -> float:
        if not self.score_shaping:
            return 0.0
        scores = self.state.scores()
        own = float(scores[self.seat])
        if self.game.utility() != "zero_sum" or len(scores) < 2:
            return own
        return own - max(float(x) for i, x in enumerate(scores) if i != self.seat)

    def _mask(self) -> np.ndarray:
        s = self.state
        if self._done or s.is_terminal() or s.current_player() != self.seat:
            return np.zeros(self.action_space.n, dtype=np.int8)
        return s.legal_actions_mask()

    def _obs(self) -> np.ndarray:
        return self.state.observation_tensor(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "seat": self.seat}


_ENV_PARAMS = frozenset(inspect.signature(SingleAgentEnv.__init__).parameters) - {"self", "game", "config"}


def make_gymnasium_env(game: str, config: dict | None = None, **kwargs: Any) -> SingleAgentEnv:
    """The entry point of the gymnasium ids ``ether_envs/<game>-v<N>``: a :class:`SingleAgentEnv`.

    ``kwargs`` are :class:`SingleAgentEnv` options (``opponents``, ``learner_seat``,
    ``score_shaping``, ``max_steps``, ``illegal_action``, ``illegal_reward``, ``render_mode``);
    any other keyword is a field of the game's config, merged into ``config``:
    ``gymnasium.make("ether_envs/ethnos-v0", num_players=3)`` is
    ``gymnasium.make("ether_envs/ethnos-v0", config={"num_players": 3})``.

    Raises:
        ValueError: a config field given both in ``config`` and as a keyword with different
            values, and everything :class:`SingleAgentEnv` raises (unknown config fields too).
    """
    config = dict(config or {})
    options = {}
    for key, value in kwargs.items():
        if key in _ENV_PARAMS:
            options[key] = value
        elif key in config and config[key] != value:
            raise ValueError(f"config field {key!r} given twice: config[{key!r}]={config[key]!r} and {key}={value!r}")
        else:
            config[key] = value
    return SingleAgentEnv(game, config, **options)


def make_single_agent_env(game: str = "aethermon_collect", config: dict | None = None,
                          **kwargs: Any) -> Callable[[], SingleAgentEnv]:
    """A picklable thunk for ``DummyVecEnv`` / ``SubprocVecEnv``: ``[make_single_agent_env(...)] * n``."""
    return _Thunk(game, dict(config or {}), kwargs)


class _Thunk:
    def __init__(self, game: str, config: dict, kwargs: dict) -> None:
        self.game, self.config, self.kwargs = game, config, kwargs

    def __call__(self) -> SingleAgentEnv:
        return SingleAgentEnv(self.game, self.config, **self.kwargs)


__all__ = ["AGENT_SPEC_GROUP", "SingleAgentEnv", "WeightedOpponents", "make_gymnasium_env", "make_opponent",
           "make_single_agent_env", "parse_opponent_weights"]
