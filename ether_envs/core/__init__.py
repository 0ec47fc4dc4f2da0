"""What every game shares: the engine API, the action codec, the observation layout and the AEC adapter.

``ether_envs.core.aec`` imports gymnasium and pettingzoo; the rest of the core
(and every game's rules) depends on numpy only.
"""

from .codec import ActionCodec, Block
from .game import (TERMINAL, Game, State, build_config, check_int, parse_config_value, short_repr, snapshot,
                   win_loss_returns)
from .layout import ObservationLayout, Piece
from .spec import GameSpec

__all__ = [
    "ActionCodec", "Block", "Game", "GameSpec", "ObservationLayout", "Piece", "State",
    "TERMINAL", "build_config", "check_int", "parse_config_value", "short_repr", "snapshot", "win_loss_returns",
]
