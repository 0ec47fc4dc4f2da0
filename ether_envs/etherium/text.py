"""What a seat of Etherium is shown as text (``State.observation_string``,
``public_action_string``, ``end_reason``).

A seat sees its own Flash cards and its own programmed Action tokens before the
reveal. The one secret move is ``PROGRAM`` (rulebook "Program Actions": players
secretly plan their actions): the others see an Action token placed, not where.
"""

from __future__ import annotations

from . import components as C
from . import rules as R

_COUNT_WHAT = {R.D_CARDS: "buy {} Flash card(s)", R.D_CONNECT_DICE: "roll {} dice",
               R.D_GATHER: "gather {} cube(s)"}
"""CHOOSE_COUNT's meaning per decision (``R.D_*``)."""


def seat_text(s, player: int) -> str:
    """The public ``render_text`` plus ``player``'s Flash cards and program."""
    hand = ", ".join(f"{C.FLASH_CARDS[t].name} x{k}" for t, k in enumerate(s.hand[player]) if k) or "-"
    prog = ", ".join(f"{i + 1}: {C.SPACE_NAMES[sp]}" for i, sp in enumerate(s.program[player])) or "-"
    return "\n".join([s.render_text(), f"you are player_{player}; your Flash cards: {hand}",
                      f"your program: {prog}"])


def public_action_string(s, action: int, observer: int) -> str:
    """``PROGRAM`` is hidden from the others; counts and players are named in full."""
    p = s.current_player()
    if R.PROGRAM0 <= action < R.MOVE0 and observer != p:
        return "PROGRAM(hidden Action token)"
    if R.COUNT0 <= action < R.ABILITY0 and s.decision() in _COUNT_WHAT:
        return f"CHOOSE_COUNT({_COUNT_WHAT[s.decision()].format(action - R.COUNT0 + 1)})"
    if R.TARGET0 <= action < R.TARGET0 + 3:
        return f"TARGET_PLAYER(player_{(p + action - R.TARGET0 + 1) % s.num_players})"
    return s.action_to_string(action)


def end_reason(s) -> str:
    """Rulebook: the game ends after the seventh season; most prestige wins."""
    ws = s.winners()
    return (f"the last season ({C.NUM_SEASONS}/{C.NUM_SEASONS}) ended; "
            f"{' and '.join(f'player_{w}' for w in ws)} win{'s' if len(ws) == 1 else ''} "
            f"with {s.score(ws[0])} prestige")
