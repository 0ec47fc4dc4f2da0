"""Training, evaluation, the benchmark protocol and the ``ether-envs`` command line.

* :mod:`training.protocol` — the benchmark protocol as data; :mod:`training.rate` (``ether-envs
  rate``), :mod:`training.ladder` (the stored anchored ladders), :mod:`training.rating` (ratings),
  :mod:`training.exploit` (approximate exploitability), :mod:`training.reference` (reference rows).
* :mod:`training.ppo`, :mod:`training.dqn` — masked PPO and masked double DQN, one file each;
  :mod:`training.train` — the sb3-contrib MaskablePPO trainer (``ether-envs train``);
  :mod:`training.callbacks` — SB3 callbacks (time budget, win rate on validation deals).
* :mod:`training.evaluate` — tournaments between agent specs (``ether-envs evaluate``).
* :mod:`training.selfplay` — the opponent pool (random, heuristic, frozen snapshots).
* :mod:`training.cli` — the console script.
"""

import os
from typing import NoReturn

TRACEBACK_VARIABLE = "ETHER_ENVS_TRACEBACK"
"""The environment variable that makes the command lines show an error's traceback (see
:func:`wants_traceback`)."""

TRACEBACK_OFF = ("", "0", "false", "no", "off")
"""Values of ``ETHER_ENVS_TRACEBACK`` that leave it off (after stripping spaces, in any case)."""


def wants_traceback() -> bool:
    """Whether a command line should re-raise an error with its traceback instead of printing the
    one error line it prints by default: ``ETHER_ENVS_TRACEBACK`` set to anything but
    :data:`TRACEBACK_OFF` (e.g. ``1``). The one line suits bad input; the traceback shows where an
    error raised in the middle of a run came from (a plug-in agent's bug, say)."""
    return os.environ.get(TRACEBACK_VARIABLE, "").strip().lower() not in TRACEBACK_OFF


def usage_error(parser, error: BaseException, prefix: str = "") -> NoReturn:
    """End a command line on ``error``: argparse's usage and one line, ``prefix`` + the error's
    text, exit code 2 (``parser.error``); or, when :func:`wants_traceback`, re-raise ``error`` with
    its traceback. Call it in the ``except`` block that caught ``error``."""
    if wants_traceback():
        raise error
    parser.error(f"{prefix}{error}")


def one_thread() -> None:
    """Run torch and numpy's BLAS on one thread in this process.

    Playing and training here are many small matrix products; on a small shared machine the
    default thread pools cost more than they give (one forward pass of a ``pretrained`` net took
    0.55-0.83 ms with numpy's default BLAS threads and 0.19 ms with one, on the 2-core machine)."""
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")
    except ImportError:
        pass
