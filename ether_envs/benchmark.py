"""Deprecated alias of :mod:`ether_envs.speed` (env speed: steps per second).

"Benchmark" now names only the agent-evaluation protocol (``training.protocol``); the
environments' throughput is measured by ``python -m ether_envs.speed``. Importing this
module emits a ``DeprecationWarning`` and re-exports ``ether_envs.speed``'s names;
``python -m ether_envs.benchmark`` still runs, forwarding to ``ether_envs.speed``'s
command line with a note on stderr. It will be removed in a later release.
"""

from __future__ import annotations

import sys
import warnings

from ether_envs.speed import (
    ENV_FLOOR,
    SPEED_FLOOR,
    _parse_config,
    engine_random_game,
    env_random_game,
    floor_line,
    floor_shortfalls,
    format_table,
    main,
    run,
    run_isolated,
)

__all__ = ["ENV_FLOOR", "SPEED_FLOOR", "_parse_config", "engine_random_game", "env_random_game", "floor_line",
           "floor_shortfalls", "format_table", "main", "run", "run_isolated"]

NOTE = "ether_envs.benchmark is deprecated: use ether_envs.speed (python -m ether_envs.speed)"

if __name__ == "__main__":
    print(f"note: {NOTE}", file=sys.stderr)
    main(prog="python -m ether_envs.speed")
else:
    warnings.warn(NOTE, DeprecationWarning, stacklevel=2)
