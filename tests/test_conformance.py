"""The generic conformance suite (ether_envs.testing) on every game, player count and mode."""

import pytest

from ether_envs import testing
from game_configs import GAME_CONFIGS, game_config_id

CASES = [
    pytest.param(check, name, cfg, id=f"{game_config_id(name, cfg)}-{check.__name__}")
    for name, cfg in GAME_CONFIGS
    for check in testing.ALL_CHECKS
]


@pytest.mark.parametrize("check,name,config", CASES)
def test_conformance(check, name, config):
    check(name, config)
