"""ether-envs: reinforcement-learning environments for five modern board games.

    import ether_envs
    env = ether_envs.make("aethermon_collect", num_players=3)   # PettingZoo AEC env
    game = ether_envs.load_game("aethermon_collect")             # rules engine only
    ether_envs.list_games()

After ``import ether_envs`` every game is also in PettingZoo's registry as
``ether/<game>-v<version>``: ``pettingzoo.make("aec", "ether/aethermon_collect-v0")``, and
its single-agent view (:class:`ether_envs.wrappers.SingleAgentEnv`) in gymnasium's registry
as ``ether_envs/<game>-v<version>``:
``gymnasium.make("ether_envs/ethnos-v0", num_players=3, opponents="heuristic")``.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

GAMES: dict[str, str] = {
    "aethermon_collect": "ether_envs.aethermon_collect",
    "ethnos": "ether_envs.ethnos",
    "etherium": "ether_envs.etherium",
    "ether_wars": "ether_envs.ether_wars",
    "aetherspire": "ether_envs.aetherspire",
}
"""Registered game name -> package. Each package exports ``Game``, ``raw_env`` and ``env``."""


def list_games() -> list[str]:
    """Names of the registered games, in registration order."""
    return list(GAMES)


def _package(name: str):
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; registered games: {list_games()}")
    return importlib.import_module(GAMES[name])


def load_game(name: str, **config: Any):
    """The rules engine of ``name`` (a ``Game``), without gymnasium or pettingzoo.

    Raises:
        ValueError: unknown game name or invalid config.
    """
    return _package(name).Game(**config)


def make(name: str, render_mode: str | None = None, **config: Any):
    """A wrapped PettingZoo AEC env for game ``name`` (see the game's env docstring).

    Raises:
        ValueError: unknown game name or invalid config.
    """
    _package(name)
    return importlib.import_module(GAMES[name] + ".env").env(render_mode=render_mode, **config)


def _register_with_pettingzoo() -> None:
    try:
        import pettingzoo
    except ImportError:  # the engine works without pettingzoo
        return
    for name, pkg in GAMES.items():
        env_id = f"ether/{name}-v{_package(name).Game.spec.version}"
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point=f"{pkg}.env:env")


_register_with_pettingzoo()


def _register_with_gymnasium() -> None:
    """``ether_envs/<game>-v<Game.spec.version>`` -> :func:`ether_envs.wrappers.make_gymnasium_env`
    (imported only when an env is made). No ``max_episode_steps``: the env truncates itself."""
    try:
        import gymnasium
    except ImportError:  # the engine works without gymnasium
        return
    for name in GAMES:
        env_id = f"ether_envs/{name}-v{_package(name).Game.spec.version}"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="ether_envs.wrappers:make_gymnasium_env", kwargs={"game": name})


_register_with_gymnasium()

from .records import replay  # noqa: E402  (ether_envs.replay(record): a recorded episode's final state)

__all__ = ["GAMES", "list_games", "load_game", "make", "replay", "__version__"]
