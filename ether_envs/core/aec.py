"""One generic PettingZoo AEC adapter for every game's engine.

A game's ``env.py`` only subclasses :class:`BoardGameEnv` (setting
``metadata`` and ``game_class``) and defines ``env()`` with :func:`wrap`.
"""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from .game import Game, State, check_int, is_action_id, malformed_action

ILLEGAL_ACTION_MODES = ("raise", "lose")
# dtype objects made once: numpy converts a dtype argument such as ``np.int8`` on every call
_F32 = np.dtype(np.float32)
_I8 = np.dtype(np.int8)


class BoardGameEnv(AECEnv):
    """PettingZoo AEC env over a rules engine.

    Args:
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the text picture),
            ``"human"`` (``render()`` prints it) or, for a game with a drawing
            module in ``ether_envs.rendering``, ``"rgb_array"`` (``render()``
            returns the picture: uint8 ``(H, W, 3)``, fixed per game; needs matplotlib).
        illegal_action: ``"raise"`` (default): an illegal action raises
            ``ValueError`` naming it and the legal ones, and changes nothing;
            ``"lose"``: PettingZoo's ``TerminateIllegalWrapper`` behaviour (the
            offender gets -1, the game ends). Applied by ``env()``.
        max_steps: truncate every agent after this many steps, an int >= 1 (``None``: the
            game's own ``max_game_length()`` bound, which no game reaches).
        **config: the game's configuration (see the game's env docstring).

    Agents are ``"player_0"`` ... ``"player_{n-1}"`` in clockwise seating
    order. Observations are ``{"observation": float32 (obs_size,),
    "action_mask": int8 (N,)}``; the mask is all zeros for agents not to act
    and at terminal steps. Each agent has its own space objects (seeding one agent's
    action space leaves the others' streams alone), the same objects on every call.

    Raises:
        ValueError: a bad ``render_mode``, ``illegal_action``, ``max_steps`` or game config.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False, "render_fps": 1}
    game_class: type[Game]

    def __init_subclass__(cls, **kw: Any) -> None:
        """Add ``"rgb_array"`` to a game env's render modes when the game has a
        drawing module (``ether_envs/rendering/<game>.py``)."""
        super().__init_subclass__(**kw)
        game_class = cls.__dict__.get("game_class")
        modes = cls.metadata.get("render_modes", [])
        if game_class is not None and "rgb_array" not in modes:
            from ..rendering import has_drawing

            if has_drawing(game_class.spec.name):
                cls.metadata = {**cls.metadata, "render_modes": [*modes, "rgb_array"]}

    def __init__(self, render_mode: str | None = None, illegal_action: str = "raise",
                 max_steps: int | None = None, **config: Any):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} not in {self.metadata['render_modes']}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
        max_steps = check_int("max_steps", max_steps, 1)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.game: Game = self.game_class(**config)
        self.config = self.game.config
        self.max_steps = max_steps if max_steps is not None else self.game.max_game_length()
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        layout = self.game.layout
        num_actions = self.game.num_distinct_actions()
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(layout.low, layout.high, (layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._num_actions = num_actions
        self._obs_size = layout.size
        self.game_state: State | None = None
        self.game_seed: int | None = None
        self._step_calls = 0  # step() calls so far (any outcome)
        # the generator of seeds for unseeded resets, made when first needed from
        # the last reset's seed (None: OS entropy)
        self._seed_rng: np.random.Generator | None = None
        self._seed_base: int | None = None

    # ---- spaces (one per agent, the same object on every call) ---------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ---- API -----------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``seed`` (a non-negative int) seeds all of its chance;
        without a seed, each reset draws a fresh seed from the env's own generator
        (itself seeded by the last seeded reset).

        Raises:
            ValueError: ``seed`` is not ``None`` or a non-negative int (a bool is not).
        """
        seed = check_int("seed", seed, 0)
        if seed is not None:
            self._seed_rng, self._seed_base = None, seed
            game_seed = seed
        else:
            if self._seed_rng is None:
                self._seed_rng = np.random.default_rng(self._seed_base)
            game_seed = int(self._seed_rng.integers(2**63))
        self.game_seed = game_seed  # the episode's seed, for game records (ether_envs.records)
        self.game_state = self.game.new_initial_state(seed=game_seed)
        agents = self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {} for a in agents}
        self.num_steps = 0
        self.agent_selection = self.possible_agents[self.game_state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (obs_size,), "action_mask": int8 (N,)}``, new
        (writable) arrays on every call."""
        s = self.game_state
        seat = self.agent_name_mapping[agent]
        obs = np.empty(self._obs_size, _F32)
        self.game.encoder.encode(s, seat, obs)
        if s.current_player() == seat and not self.truncations[agent]:  # TERMINAL is never a seat
            # listed afresh (and kept for apply_action's check); a bytearray
            # filled in Python beats numpy fancy indexing for short lists
            legal = s._legal_memo = s._legal_actions()
            buf = bytearray(self._num_actions)
            for a in legal:
                buf[a] = 1
            mask = np.frombuffer(buf, _I8)
        else:
            mask = np.zeros(self._num_actions, _I8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for ``agent_selection`` (``None`` for a dead agent's step).

        Args:
            action: an action id: an int, a numpy int or a 0-d integer array in ``0..N-1``.

        Raises:
            ValueError: ``action`` is not in ``Discrete(N)`` (a float, a bool, an array of
                another shape, out of range) or not legal now; nothing changes.
        """
        self._step_calls += 1  # for agent_iter()'s "step() between items" check
        agent = self.agent_selection
        if not self.agents:  # after the end (PettingZoo's order-enforcing behaviour)
            EnvLogger.warn_step_after_terminated_truncated()
            return
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            if not is_action_id(action):
                self._raise_malformed(agent, action)
            action = int(action)
        if not 0 <= action < self._num_actions:
            self._raise_malformed(agent, action)
        s = self.game_state
        s.apply_action(action)  # raises ValueError, state untouched, if illegal
        self.num_steps += 1
        self._cumulative_rewards[agent] = 0.0
        seat = s.current_player()  # TERMINAL (< 0) exactly when the game is over (a conformance check)
        if seat < 0:
            done = self.truncations if s.is_truncated() else self.terminations
            rewards, cumulative = self.rewards, self._cumulative_rewards
            for a, r in zip(self.agents, s.returns().tolist()):
                rewards[a] = r
                cumulative[a] += r  # (PettingZoo's _accumulate_rewards)
                done[a] = True
            self._set_final_infos()
            # the acting agent stays selected; dead steps then walk every agent out
        elif self.num_steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
            self._set_final_infos()
        else:
            # rewards are terminal only: every agent's reward stays 0 until the end
            self.agent_selection = self.possible_agents[seat]
        if self.render_mode == "human":
            self.render()

    def _raise_malformed(self, agent: str, action: Any) -> None:
        raise ValueError(f"{agent}: {malformed_action(action, self._num_actions)}; "
                         f"legal actions: {self.legal_actions()}")

    def _set_final_infos(self) -> None:
        """``infos[agent]`` at the end (termination or truncation): ``scores`` (float64,
        one per seat) plus the game's ``final_info()``."""
        final = getattr(self.game_state, "final_info", None)
        extra = final() if final is not None else {}
        scores = self.game_state.scores()
        for a in self.agents:
            self.infos[a] = {"scores": scores.copy(), **extra}

    def render(self) -> str | np.ndarray | None:
        """The neutral (public) view of the game: the text picture (``"ansi"``),
        printed (``"human"``), or a uint8 ``(H, W, 3)`` image (``"rgb_array"``)."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode="
                                  f"{' or '.join(repr(m) for m in self.metadata['render_modes'])}.")
            return None
        if self.game_state is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode == "rgb_array":
            from ..rendering import render_rgb

            return render_rgb(self.game_state)
        text = self.game_state.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # ---- conveniences ---------------------------------------------------
    def observation_layout(self) -> dict[str, slice]:
        """Ordered ``{piece name: slice}`` of ``obs["observation"]``."""
        return self.game.observation_layout()

    def legal_actions(self) -> list[int]:
        """Legal action ids for ``agent_selection`` (empty when it may not act)."""
        if self.game_state is None or self.terminations.get(self.agent_selection) or self.truncations.get(self.agent_selection):
            return []
        return self.game_state.legal_actions()

    def action_to_str(self, action: int) -> str:
        """Name of an action id, e.g. ``"MOVE(c3)"``."""
        return self.game.action_to_string(action)


def _forward(name: str) -> property:
    def get(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get, doc=f"The wrapped env's ``{name}`` (after reset).")


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, minus its
    per-call cost: the attributes read on every step go straight to the wrapped
    env instead of through ``__getattr__`` (which first fails a normal lookup) and
    ``BaseWrapper``; ``agent_iter()`` is a generator over the raw env; and once
    reset, ``last``/``step`` of a directly wrapped :class:`BoardGameEnv` are its own
    bound methods (it warns on a step after the end itself, and counts its
    ``step()`` calls for ``agent_iter()``'s "step between items" check).
    """

    agent_selection = _forward("agent_selection")
    agents = _forward("agents")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards")

    def __init__(self, env: AECEnv):
        super().__init__(env)
        # the raw env validates malformed actions itself; other wrappers
        # (TerminateIllegalWrapper) would index the mask with them first
        self._direct = isinstance(env, BoardGameEnv)
        self._check_malformed = not self._direct
        self._item_calls = -1  # the raw env's step() count when agent_iter() last gave an agent

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        super().reset(seed=seed, options=options)
        if self._direct:
            # Once reset, the wrapper's remaining checks on last()/step() live in the raw
            # env (step after the end warns; agent_iter() reads its step count), so the
            # per-step calls go straight to it: instance attributes, set on every reset
            # (a deep copy or unpickled wrapper gets them bound to its own raw env).
            self.last = self.env.last
            self.step = self.env.step

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("last() cannot be called before reset")
        return self.env.last(observe)

    def step(self, action) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        env = self.env
        if not env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        if self._check_malformed:
            # a clear ValueError for a malformed action, also in illegal_action="lose" mode
            agent = env.agent_selection
            live = not (env.terminations[agent] or env.truncations[agent])
            if live and not (is_action_id(action) and 0 <= action < env.action_space(agent).n):
                self.unwrapped._raise_malformed(agent, action)
        env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """PettingZoo's ``AECOrderEnforcingIterator``: the agent to act, until no
        agents remain or after ``max_iter`` items; ``step()`` or ``reset()`` must be
        called between items (``AssertionError`` otherwise). A generator reading the
        raw env directly."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return self._agent_iter(max_iter)

    def _agent_iter(self, left: int) -> Iterator[str]:
        inner, raw = self.env, self.unwrapped
        while inner.agents and left > 0:
            left -= 1
            # a step() (straight to the raw env, or through this wrapper) or a reset() since the
            # last item of any of this env's agent_iter() loops (PettingZoo's shared flag)
            calls = raw._step_calls
            assert self._has_updated or calls != self._item_calls, \
                "need to call step() or reset() in a loop over `agent_iter`"
            self._has_updated = False
            self._item_calls = calls
            yield inner.agent_selection


def wrap(raw: BoardGameEnv) -> AECEnv:
    """PettingZoo classic's wrapper chain. ``illegal_action="lose"`` adds
    ``TerminateIllegalWrapper(illegal_reward=-1)``; an order-enforcing wrapper
    always. (Out-of-range actions raise ``ValueError`` in the raw env, which is
    clearer than ``AssertOutOfBoundsWrapper``'s ``AssertionError``.)"""
    e: AECEnv = raw
    if raw.illegal_action == "lose":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    return OrderEnforcingWrapper(e)
