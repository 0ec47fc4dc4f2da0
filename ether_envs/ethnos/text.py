"""What a seat of Ethnos is shown as text (``State.observation_string``,
``public_action_string``, ``end_reason``).

A seat sees its own hand (and, with the Elves, the cards it keeps), and the cards
every player saw another take from the face-up row (ETH-A10). The one secret move
is an Elves' ``KEEP_CARD``: the others see a card kept, not which.
"""

from __future__ import annotations

from . import components as C
from . import rules as R


def _cards(counts) -> str:
    return " ".join(f"{C.KIND_NAMES[k]}x{int(c)}" for k, c in enumerate(counts) if c) or "-"


def seat_text(s, player: int) -> str:
    """The public ``render_text`` plus ``player``'s hand and the cards known in the other hands."""
    lines = [s.render_text(), f"you are player_{player}; your hand: {_cards(s.hands[player])}"]
    if s.phase == R.KEEP and player == s.turn_player:
        lines.append(f"kept (Elves): {_cards(s.kept)}")
    known = [f"player_{q}: {_cards(s.known[q])}" for q in range(s.num_players) if q != player and s.known[q].any()]
    if known:
        lines.append("seen taken from the face-up row: " + "; ".join(known))
    return "\n".join(lines)


def public_action_string(s, action: int, observer: int) -> str:
    """An Elves' kept card is hidden from the others; every other move is public."""
    if R.KEEP0 <= action < R.END_KEEP and observer != s.current_player():
        return "KEEP_CARD(hidden card)"
    return s.action_to_string(action)


def end_reason(s) -> str:
    """Rulebook "Fin de partie": the third Dragon ends the last Age; most Glory wins."""
    ws = s.winners()
    return (f"player_{s.revealer} revealed the third Dragon, ending Age {s.age}, the last Age; "
            f"{' and '.join(f'player_{w}' for w in ws)} win{'s' if len(ws) == 1 else ''} "
            f"with {int(s.glory[ws[0]])} Glory")
