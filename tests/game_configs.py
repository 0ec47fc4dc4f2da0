"""Every game's conformance configs, for parametrized tests (a module of its own: a plain
``from conftest import ...`` picks up ``tests/training/conftest.py`` when both folders are
collected in one run)."""

import json

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


GAME_CONFIG_IDS = [game_config_id(n, c) for n, c in GAME_CONFIGS]
"""The ids of :data:`GAME_CONFIGS`, in order (``ids=`` of a parametrized test)."""


def recorded_digest(path, key: str, script: str) -> str:
    """The digest recorded under ``key`` in the JSON file ``path`` (fails the test, naming the
    ``script`` that records it, when there is none)."""
    recorded = json.loads(path.read_text())
    assert key in recorded, f"no recorded digest for {key} in {path.name}: run python {script}"
    return recorded[key]


def write_digests(path, digest) -> None:
    """Record ``digest(name, config)`` of every game config in the JSON file ``path``."""
    digests = {game_config_id(n, c): digest(n, c) for n, c in GAME_CONFIGS}
    path.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(digests)} digests to {path}")
