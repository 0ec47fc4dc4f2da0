"""Aetherspire action codec, phases and pending-step kinds: plain named constants.

Spaces are ``tile*8 + k``, room slots ``tile*3 + r`` (the ``rules`` module docstring has
the picture). The action layout is fixed: the shipped ``pretrained`` agents depend on it.
"""

from __future__ import annotations

from ..core import ActionCodec, Block
from .components import (BONUSES, ELEMENTS, FACES, MAX_ROOMS, MAX_SPACES, NUM_BONUSES, NUM_FOUNDATIONS,
                         NUM_ROOM_SLOTS, NUM_SPACE_SLOTS, NUM_TILES, SIZES, SPELLS, TILES)


def space_name(s: int) -> str:
    """``t<tile>.<k>`` for space slot ``s``."""
    return f"t{s // MAX_SPACES}.{s % MAX_SPACES}"


def room_name(r: int) -> str:
    """``t<tile>.r<room>`` for room slot ``r``."""
    return f"t{r // MAX_ROOMS}.r{r % MAX_ROOMS}"


CODEC = ActionCodec([
    Block("END_BUILD", 1, "end the build step (the invasion step follows)"),
    Block("PASS", 1, "decline an optional choice (no exchange, stop crystallizing, ...)"),
    Block("DRAW", 3, "draw a floor tile of size 0 small / 1 medium / 2 large, standard side up",
          lambda i: SIZES[i]),
    Block("DRAW_MULTI", 3, "draw a floor tile of size 0/1/2 multi side up (Floor Crafting 3rd shard, bonus, "
          "multi_supply passive)", lambda i: SIZES[i]),
    Block("EXCHANGE", NUM_TILES, "discard reserve tile t to the bottom of its stack and draw a new one of its size",
          lambda i: TILES[i].name),
    Block("SPACE", NUM_SPACE_SLOTS, "space tile*8+k: in the build step place a pillar there by discarding dice; "
          "in a pending choice the target space (invader, pillar, destination)", space_name),
    Block("DIE", 5, "use/discard one unused die showing face 0 earth, 1 air, 2 fire, 3 water, 4 star",
          lambda i: FACES[i]),
    Block("REROLL", 5, "reroll any (once per turn): mark one more unused die of face f", lambda i: FACES[i]),
    Block("ROLL", 1, "reroll the marked dice"),
    Block("BUILD", NUM_TILES, "build floor tile t from the reserve (then choose where)", lambda i: TILES[i].name),
    Block("FOUNDATION", NUM_FOUNDATIONS, "place the chosen large floor on empty foundation 0..2", str),
    Block("ROOM", NUM_ROOM_SLOTS, "place the chosen floor, or the spire topper, on room slot tile*3+room",
          room_name),
    Block("SPELL", len(SPELLS), "cast 0 Mudslide, 1 Ice Beam, 2 Lava Bomb, 3 Firestorm, 4 Floor Crafting",
          lambda i: SPELLS[i].name),
    Block("SHARD", 4, "spend / set aside one shard of element e", lambda i: ELEMENTS[i]),
    Block("SPIRE", NUM_TILES * 4, "complete the spire of element e (index tile*4+e) topped on floor tile (then "
          "ROOM: the small room the topper goes in, where the floor has several)",
          lambda i: f"{TILES[i // 4].name}:{ELEMENTS[i % 4]}"),
    Block("BONUS", NUM_BONUSES, "choose spire completion bonus 0..3", lambda i: BONUSES[i].key),
    Block("TRIGGER", 1, "use your character's trigger action"),
    Block("FREE_PILLAR", 1, "Anchored (completed): place 1 pillar ignoring requirements (once per turn)"),
    Block("ELEMENT", 4, "choose element e: the next invader to enter, or the wall to restore",
          lambda i: ELEMENTS[i]),
])
OFF = CODEC.offsets
"""``OFF[block]``: the first action id of a block."""
DECODE: tuple[tuple[str, int], ...] = tuple(CODEC.decode(a) for a in range(CODEC.size))
"""``DECODE[action]`` = ``CODEC.decode(action)`` (block name, index), as a table."""

# the first action id of each block (an action is the block's first id + its index)
END_BUILD = OFF["END_BUILD"]
PASS = OFF["PASS"]
DRAW0 = OFF["DRAW"]
DRAW_MULTI0 = OFF["DRAW_MULTI"]
EXCHANGE0 = OFF["EXCHANGE"]
SPACE0 = OFF["SPACE"]
DIE0 = OFF["DIE"]
REROLL0 = OFF["REROLL"]
ROLL = OFF["ROLL"]
BUILD0 = OFF["BUILD"]
FOUNDATION0 = OFF["FOUNDATION"]
ROOM0 = OFF["ROOM"]
SPELL0 = OFF["SPELL"]
SHARD0 = OFF["SHARD"]
SPIRE0 = OFF["SPIRE"]
BONUS0 = OFF["BONUS"]
TRIGGER = OFF["TRIGGER"]
FREE_PILLAR = OFF["FREE_PILLAR"]
ELEMENT0 = OFF["ELEMENT"]

# ---- phases of a turn (rulebook "Turn structure"; SETUP before the first turn) -------
SETUP, SUPPLY, BUILD, INVASION, OVER = range(5)
PHASE_NAMES = ("setup", "supply", "build", "invasion", "over")

# ---- pending step kinds: ``State.queue`` entries are lists [kind, a, b, c] ------------
(K_SETUP_INV, K_SUPPLY_DRAW, K_EXCHANGE, K_DICE, K_TARGET, K_PAY, K_CRAFT_DRAW, K_DO_DRAW, K_REROLL,
 K_ICE, K_LAVA, K_FIRE_FROM, K_FIRE_TO, K_FREE_PILLAR, K_BONUS, K_DIMINISH_AUTO, K_DIMINISH, K_CRYSTAL,
 K_BONUS_DRAW, K_DISCARD, K_DEMOLISH, K_DESTROY_INV, K_WALL, K_REROLL_ONE, K_ORDER, K_INV_SPACE,
 K_TOPPER) = range(27)
STEP_NAMES = ("setup_invader", "supply_draw", "exchange", "dice", "floor_target", "pay_shards", "craft_draw",
              "do_draw", "reroll", "ice_beam", "lava_bomb", "firestorm_from", "firestorm_to", "free_pillar",
              "bonus", "diminish_auto", "diminish", "crystallize", "bonus_draw", "discard_die", "demolish",
              "destroy_invader", "restore_wall", "reroll_one", "invader_order", "invader_space", "spire_topper")
"""``STEP_NAMES[kind]``. What ``a, b, c`` of a step ``[kind, a, b, c]`` hold (unused: 0):

===================  ==================================================================
K_SETUP_INV          a: element of the setup invader to place (setup 12)
K_SUPPLY_DRAW        a: 1 if the supply step's exchange follows the draw
K_EXCHANGE           a: 1 if the exchange may be declined (PASS)
K_DICE               a: space the pillar goes on; b: index of the die requirement paid next
K_TARGET             a: reserve tile being built
K_PAY                a: shards still to spend
K_DO_DRAW            a: size drawn; b: 1 multi side up (an automatic step)
K_ICE                a: room slot chosen (-1 not yet); b: invaders crystallized; c: the most
K_LAVA, K_DESTROY_INV, K_CRYSTAL   a: invaders still to destroy / crystallize
K_FIRE_TO            a: space the invader moves from
K_FREE_PILLAR        a: pillars still to place; b: element their room must have (-1: any)
K_DIMINISH_AUTO      a: element diminished (an automatic step: from the bag)
K_DIMINISH           a: element diminished; b: tokens still to set aside
K_DISCARD            a: dice still to discard
K_INV_SPACE          a: element of the invader entering
K_TOPPER             a: top floor tile; b: element of the spire
(the other kinds)    nothing
===================  ==================================================================
"""
