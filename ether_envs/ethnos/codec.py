"""Ethnos action codec and phases (documented in ``env.py``).

One flat ``Discrete`` over the blocks below, in order; card kinds are the 67 of
``components`` (``KIND_NAMES``), Leaders the 66 non-Skeleton kinds.

A turn is a short sequence of decisions by the same player::

    TURN:      RECRUIT_DECK | RECRUIT_FACE_UP -> TAKE_FACE_UP(kind)
               | PLAY_BAND -> START_TRIBE_BAND(leader) / START_COLOUR_BAND(leader)
                 -> ADD_TO_BAND(kind)* -> END_BAND
                 -> [PLACE_MARKER(kingdom) | DECLINE]            (if a marker may be placed)
                 -> Leader power: Centaurs [PLAY_BAND ... | DECLINE], Merfolk [PLACE_MARKER | DECLINE]*,
                    Wizards [USE_POWER | DECLINE], Elves (at the discard) KEEP_CARD(kind)* -> END_KEEP
    END OF AGE: each player with Orc markers (not in the last Age): USE_POWER (cash in) | DECLINE
"""

from __future__ import annotations

from ..core import ActionCodec, Block
from . import components as C

CODEC = ActionCodec([
    Block("RECRUIT_DECK", 1, "recruit the top card of the Ally deck (Dragons are revealed and redrawn)"),
    Block("RECRUIT_FACE_UP", 1, "recruit a face-up Ally (then TAKE_FACE_UP chooses which)"),
    Block("PLAY_BAND", 1, "play a band (then START_*_BAND chooses its key and Leader); also the Centaurs' extra band"),
    Block("TAKE_FACE_UP", C.NUM_KINDS, "take a face-up Ally of kind 0..66 (see components.KIND_NAMES)",
          lambda i: C.KIND_NAMES[i]),
    Block("START_TRIBE_BAND", C.NUM_LEADER_KINDS, "start a band of the Leader's tribe, Leader = a card of kind 0..65",
          lambda i: C.KIND_NAMES[i]),
    Block("START_COLOUR_BAND", C.NUM_LEADER_KINDS,
          "start a band of the Leader's colour (Kingdom), Leader = a card of kind 0..65", lambda i: C.KIND_NAMES[i]),
    Block("ADD_TO_BAND", C.NUM_KINDS, "add a card of kind 0..66 from your hand to the band being formed",
          lambda i: C.KIND_NAMES[i]),
    Block("END_BAND", 1, "the band is complete: resolve the Control marker and the Leader's power"),
    Block("PLACE_MARKER", C.NUM_KINGDOMS, "place a Control marker in Kingdom 0..5 (band, Wingfolk or Merfolk checkpoint)",
          lambda i: C.KINGDOMS[i]),
    Block("KEEP_CARD", C.NUM_KINDS, "Elves: keep a card of kind 0..66 instead of discarding it",
          lambda i: C.KIND_NAMES[i]),
    Block("END_KEEP", 1, "Elves: discard the rest of your hand"),
    Block("USE_POWER", 1, "Wizards: draw X cards; end of Age: cash in your Orc Horde markers"),
    Block("DECLINE", 1, "decline the optional step offered (marker, Centaurs' band, Merfolk marker, Wizards, Orcs)"),
])
(RECRUIT_DECK, RECRUIT_FACE_UP, PLAY_BAND, TAKE0, START_TRIBE0, START_COLOUR0, ADD0, END_BAND,
 MARKER0, KEEP0, END_KEEP, USE_POWER, DECLINE) = (CODEC.offsets[b.name] for b in CODEC.blocks)

# ---- phases: what the player to act decides -------------------------------------------
PHASE_NAMES = ("turn", "face_up", "leader", "build", "marker", "centaur", "merfolk", "wizard",
               "keep", "orc", "over")
TURN, FACE_UP, LEADER, BUILD, MARKER, CENTAUR, MERFOLK, WIZARD, KEEP, ORC, OVER = range(len(PHASE_NAMES))
"""``TURN``: recruit or play a band; ``FACE_UP``: which face-up Ally; ``LEADER``: the band's Leader and
key; ``BUILD``: the band's other cards; ``MARKER``: where its Control marker goes; ``CENTAUR``,
``MERFOLK``, ``WIZARD``, ``KEEP`` (Elves): the Leader's power; ``ORC``: cash in the Orc Horde at the
end of an Age; ``OVER``: the game has ended."""
