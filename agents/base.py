"""The one agent interface, at the engine level and at the env level."""

from __future__ import annotations

from typing import Any

import numpy as np


class Agent:
    """A player. Subclasses implement :meth:`act` (engine level: a ``State``) and,
    when they need only what the observation shows, :meth:`act_observation`.

    Every agent owns its ``numpy.random.Generator`` (``self.rng``), reseeded by
    :meth:`seed`; it never touches the state's generator.

    Attributes:
        name: the spec string it was built from (or the class name).
        uses_state: whether :meth:`act` needs the engine ``State`` (heuristic,
            MCTS) rather than only the observation and mask (random, PPO).
    """

    name: str = "agent"
    uses_state: bool = True

    def __init__(self) -> None:
        self.rng = np.random.default_rng()

    def seed(self, seed: int | None) -> None:
        """Reseed the agent's own generator."""
        self.rng = np.random.default_rng(seed)

    def act(self, state, player: int) -> int:
        """The action id ``player`` chooses in ``state`` (``player`` must be to act).

        Only what ``player`` may see is used: hidden parts are redrawn with
        ``state.resample_hidden(player, rng)`` before any look-ahead.
        """
        if self.uses_state:
            raise NotImplementedError
        obs = state.observation_tensor(player)
        return self.act_observation(obs, state.legal_actions_mask())

    def act_observation(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The action id for a flat float32 ``observation`` and int8 ``action_mask``
        (the env-level view). Raises ``NotImplementedError`` for agents that need a State."""
        raise NotImplementedError(
            f"{self.name} plays from the engine state; use act(state, player) or act_env(env)")

    def act_env(self, env: Any) -> int:
        """The action for ``env.agent_selection`` of a PettingZoo AEC env from
        ``ether_envs.make`` (state-based agents read ``env.unwrapped.game_state``)."""
        raw = env.unwrapped
        seat = raw.agent_name_mapping[env.agent_selection]
        if self.uses_state:
            return self.act(raw.game_state, seat)
        obs = env.observe(env.agent_selection)
        return self.act_observation(obs["observation"], obs["action_mask"])

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, list[Any], dict[str, Any]]:
    """``"mcts:simulations=200,c=1.4"`` -> ``("mcts", [], {"simulations": 200, "c": 1.4})``.

    Values are converted to bool/int/float when they look like one; bare
    (``key``-less) parts are positional strings, e.g. ``ppo:models/a.zip``.

    Raises:
        ValueError: empty spec or empty part.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"empty agent spec {spec!r}")
    kind, colon, rest = spec.strip().partition(":")
    if colon and not rest.strip():
        raise ValueError(f"agent spec {spec!r} has a ':' but no arguments")
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    if rest:
        for part in rest.split(","):
            if not part.strip():
                raise ValueError(f"empty part in agent spec {spec!r}")
            key, eq, val = part.partition("=")
            if eq:
                kwargs[key.strip()] = _value(val.strip())
            else:
                args.append(part.strip())
    return kind.strip().lower(), args, kwargs
