"""Every game's conformance configs, for parametrized tests (a module of its own: a plain
``from conftest import ...`` picks up ``tests/training/conftest.py`` when both folders are
collected in one run)."""

import ether_envs

GAME_CONFIGS = [
    (name, cfg) for name in ether_envs.list_games()
    for cfg in ether_envs.load_game(name).conformance_configs
]


def config_id(cfg: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in cfg.items()) or "default"


def game_config_id(name: str, cfg: dict) -> str:
    """``name[config_id]``: a parametrized test's id and a recorded digest's key."""
    return f"{name}[{config_id(cfg)}]"
