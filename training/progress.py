"""The one progress bar of the package (tqdm), fit for a terminal and for a log file."""

from __future__ import annotations

import sys

LOG_INTERVAL_S = 30.0
"""Seconds between the lines of a bar whose output is not a terminal."""


def progress_bar(total: int, desc: str, unit: str, enabled: bool = True, initial: int = 0, leave: bool = False):
    """A ``tqdm`` bar on stderr.

    On a terminal it is the usual bar, redrawn in place. When stderr is not a terminal (output
    redirected to a file or a pipe) it writes one line at most every :data:`LOG_INTERVAL_S`
    seconds, plus the last state when closed, so a log gets a few lines a minute instead of ten
    carriage-return redraws a second.

    Args:
        total: the count at 100%; desc: the label; unit: what is counted (``"game"``).
        enabled: ``False`` gives a disabled bar (its methods do nothing).
        initial: the count to start from (a resumed run).
        leave: keep the bar on a terminal once closed (a log always keeps its lines).
    """
    from tqdm import tqdm

    if sys.stderr.isatty():
        return tqdm(total=total, initial=initial, desc=desc, unit=unit, disable=not enabled, leave=leave)
    # miniters=1 (not dynamic) leaves tqdm's monitor thread no reason to redraw more often
    return tqdm(total=total, initial=initial, desc=desc, unit=unit, disable=not enabled, leave=True,
                mininterval=LOG_INTERVAL_S, miniters=1, ascii=True, bar_format="{l_bar}{bar}{r_bar}\n")
