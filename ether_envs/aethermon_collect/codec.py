"""Aethermon: Collect action codec and phases (documented in ``env.py``).

One flat ``Discrete(183)``: the blocks below, in order. Squares are numbered in
the fixed 7x7 frame, ``square = row * 7 + col``; a smaller grid occupies the
top-left ``side x side`` corner. Square names are ``a1`` .. ``g7`` (column
letter, row number from the top).
"""

from __future__ import annotations

from ..core import ActionCodec, Block
from . import components as C

SQ = C.MAX_SQUARES
"""Squares of the MAX_SIDE x MAX_SIDE frame (7x7: 49)."""
COLUMN_LETTERS = "".join(chr(ord("a") + c) for c in range(C.MAX_SIDE))  # "abcdefg"


def square_name(sq: int) -> str:
    """``a1`` .. ``g7``: column letter, row number counted from the top."""
    return f"{COLUMN_LETTERS[sq % C.MAX_SIDE]}{sq // C.MAX_SIDE + 1}"


CORNER_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")
CODEC = ActionCodec([
    Block("MOVE", SQ, f"move the Group Token to square row*{C.MAX_SIDE}+col (rook move; or the move an active "
          "Compass/Grappling Hook/Lantern/Magnet allows)", square_name),
    Block("PLACE_TOKEN", 4, "3 players: the last player puts the Group Token on corner 0..3 "
          "(top-left, top-right, bottom-left, bottom-right)", lambda i: CORNER_NAMES[i]),
    Block("DRAFT", C.MAX_GROUPS, "take Artefact group 0..3", str),
    Block("USE_ARTEFACT", C.NUM_ARTEFACTS, "use your Artefact 0..11 (see components.ARTEFACTS)",
          lambda i: C.ARTEFACTS[i].name),
    Block("TARGET_SQUARE", SQ, "square targeted by Wind-up Beetle, Net or Trade Token", square_name),
    Block("GIVE_CARD", C.NUM_CARDS, "Trade Token: the collected Aethermon 0..47 to give back",
          lambda i: C.CARDS[i].name),
    Block("SATCHEL_SET", C.NUM_SETS, "Satchel: the set 0..15 (element*2 + line) that counts as complete",
          lambda i: f"{C.ELEMENTS[i // 2]} {'trio' if i % 2 == 0 else 'duo'}"),
    Block("END_TURN", 1, "end your turn without using an after-move Artefact"),
])
MOVE0, PLACE0, DRAFT0, USE0, TARGET0, GIVE0, SATCHEL0, END_TURN = (
    CODEC.offsets[b] for b in ("MOVE", "PLACE_TOKEN", "DRAFT", "USE_ARTEFACT", "TARGET_SQUARE",
                               "GIVE_CARD", "SATCHEL_SET", "END_TURN"))
assert MOVE0 == 0  # a MOVE id is its square
DECODED = tuple(CODEC.decode(a) for a in range(CODEC.size))
"""``(block name, index in the block)`` of every action id."""

# ---- phases: what the player to act decides --------------------------------------
PLACE_TOKEN, DRAFT, TURN, PENDING, POST_MOVE, SATCHEL, OVER = range(7)
PHASE_NAMES = ("place_token", "draft", "turn", "pending", "post_move", "satchel", "over")
"""``PLACE_TOKEN``: 3 players, the last player puts the Group Token on a corner; ``DRAFT``: take an
Artefact group; ``TURN``: move (or use an Artefact first); ``PENDING``: choose the target of the
Artefact just used; ``POST_MOVE``: use an after-move Artefact or end the turn; ``SATCHEL``: choose
the set a Satchel completes; ``OVER``: the game has ended."""
TRADE_TAKE = C.NUM_ARTEFACTS
"""``State.pending`` after a Trade Token's card to give is chosen: the card to take comes next."""
