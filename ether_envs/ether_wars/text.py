"""What a seat of Ether Wars is shown as text (``State.observation_string``,
``public_action_string``, ``end_reason``).

A seat sees its own Favours, its draft pack (advanced draft) and its ability card
before the reveal. Secret moves: ``ABILITY`` (rulebook "New Day": chosen secretly,
revealed when all have chosen) and ``KEEP_FAVOUR`` (the draft packs are hidden,
EW-A11); the others see a card chosen, not which. Favours discarded after the
draft go to the public discard pile, as the observation shows them.
"""

from __future__ import annotations

from . import components as C
from .codec import CODEC, MOVE_KINDS


def _favours(counts) -> str:
    return ", ".join(f"{C.FAVOURS[f].name} x{k}" for f, k in enumerate(counts) if k) or "-"


def seat_text(s, player: int) -> str:
    """The public ``render_text`` plus ``player``'s Favours, draft pack and unrevealed ability card."""
    lines = [s.render_text(), f"you are player_{player}; your Favours: {_favours(s.hand[player])}"]
    if s.packs[player]:
        lines.append("your draft pack: " + ", ".join(C.FAVOURS[f].name for f in s.packs[player]))
    if not s.revealed and s.ability[player] >= 0:
        card = C.ABILITIES[s.faction[player] * C.CARDS_PER_FACTION + s.ability[player]]
        lines.append(f"your ability card (hidden until all have chosen): {card.name}: {card.text}")
    return "\n".join(lines)


def _area(s, p: int, i: int) -> str:
    """Area ``i`` of the acting seat ``p`` (Silos are seat-relative in the codec), by its board name."""
    return C.AREAS[s.abs_area(p, i)]


def public_action_string(s, action: int, observer: int) -> str:
    """``ABILITY`` and ``KEEP_FAVOUR`` are hidden from the others; ability cards are
    named, relative seats and Silos given as the players they stand for."""
    p = s.current_player()
    n = s.num_players
    block, i = CODEC.decode(action)
    if block in ("ABILITY", "KEEP_FAVOUR") and observer != p:
        return f"{block}(hidden {'ability card' if block == 'ABILITY' else 'Favour'})"
    if block == "ABILITY":
        card = C.ABILITIES[s.faction[p] * C.CARDS_PER_FACTION + i]
        return f"ABILITY({card.name}: {card.text})"
    if block in ("AREA", "AREA_CHARGE", "RESOLVE"):
        return f"{block}({_area(s, p, i)})"
    if block == "MOVE_DIE":
        return f"MOVE_DIE({MOVE_KINDS[i // C.NUM_AREAS]}@{_area(s, p, i % C.NUM_AREAS)})"
    if block == "UNIT_DIE":
        return f"UNIT_DIE(player_{(p + i // 6) % n}'s die showing {i % 6 + 1})"
    if block == "SEAT":
        return f"SEAT(player_{(p + i) % n})"
    if block == "SHIELD":
        return f"SHIELD({i} injured Unit{'' if i == 1 else 's'})"
    return s.action_to_string(action)


def end_reason(s) -> str:
    """Rulebook "Objective of the Game": the first to hold enough Ether wins; or the round limit (EW-A13)."""
    need = s.game.ether_to_win
    if s.winner >= 0:
        return f"player_{s.winner} reached {need} Ether and wins"
    return (f"the round limit (max_rounds={s.game.config.max_rounds}) was reached before anyone held "
            f"{need} Ether: nobody wins (truncated)")
