"""What a seat of Aetherspire is shown as text (``State.observation_string``,
``public_action_string``, ``end_reason``).

A co-operative game with everything on the table: no seat holds a secret and no
move is secret (hidden are only the bag, the stacks' order and, with random
fiend sets, a dormant fiend's level, from every seat alike). The seat's text adds
its hero card; moves name the tiles, rooms and trigger action they stand for.
"""

from __future__ import annotations

from . import components as C
from .codec import CODEC


def seat_text(s, player: int) -> str:
    """The public ``render_text`` plus ``player``'s hero card."""
    ch = s.character(player)
    return "\n".join([
        s.render_text(),
        f"you are player_{player}, {ch.name} ({C.ELEMENTS[ch.element]}): trigger: {C.TRIGGERS[ch.trigger]}; "
        f"passive: {C.PASSIVES[ch.passive]}; upgrade: {C.UPGRADES[ch.upgrade]}"])


def public_action_string(s, action: int, observer: int) -> str:
    """Every move is public; spaces and rooms are named with their tile, the trigger by its effect."""
    block, i = CODEC.decode(action)
    if block == "SPACE":
        t, k = divmod(i, C.MAX_SPACES)
        return f"SPACE(#{t} {C.TILES[t].name}, space {k})"
    if block == "ROOM":
        t, r = divmod(i, C.MAX_ROOMS)
        return f"ROOM(#{t} {C.TILES[t].name}, room {r})"
    if block == "FOUNDATION":
        return f"FOUNDATION(empty foundation {i})"
    if block == "TRIGGER":
        return f"TRIGGER({C.TRIGGERS[s.character().trigger]})"
    return s.action_to_string(action)


def end_reason(s) -> str:
    """Rulebook "Game end": the fourth spire wins; the last aethercore, the Lose space or
    no pillar cubes at the start of a turn loses."""
    if s.outcome > 0:
        return "all four spires are complete and every aether fiend is defeated: the players win"
    why = {"aethercore": "the last aethercore token was destroyed",
           "invader track": "the invader track reached the Lose space",
           "no pillars": "no pillar cubes were left at the start of a turn"}.get(s.loss_reason, s.loss_reason)
    return f"{why}: the players lose"
