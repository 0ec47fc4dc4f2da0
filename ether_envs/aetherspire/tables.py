"""Aetherspire static tables: the action codec, the fortress tables built from the
tile data, phases and pending-step kinds. Shared by every state, never copied.

Spaces are ``tile*8 + k``, room slots ``tile*3 + r`` (see ``rules`` for the picture).
"""

from __future__ import annotations

import itertools

from ..core import ActionCodec, Block
from . import components as C

NT, NS, NR = C.NUM_TILES, C.NUM_TILES * C.MAX_SPACES, C.NUM_TILES * C.MAX_ROOMS
assert C.MAX_SPACES == 8  # the rules write the tile of space s as s >> 3
SPELLS = ("Mudslide", "Ice Beam", "Lava Bomb", "Firestorm", "Floor Crafting")
MUDSLIDE, ICE_BEAM, LAVA_BOMB, FIRESTORM, FLOOR_CRAFTING = range(5)
# fixed shard costs (rulebook "Cast a spell"); Floor Crafting: any 2 (3 for multi)
SPELL_COST = {MUDSLIDE: (C.EARTH, C.WATER), ICE_BEAM: (C.WATER, C.AIR),
              LAVA_BOMB: (C.EARTH, C.FIRE), FIRESTORM: (C.FIRE, C.AIR)}


def space_name(s: int) -> str:
    return f"t{s // C.MAX_SPACES}.{s % C.MAX_SPACES}"


def room_name(r: int) -> str:
    return f"t{r // C.MAX_ROOMS}.r{r % C.MAX_ROOMS}"


CODEC = ActionCodec([
    Block("END_BUILD", 1, "end the build step (the invasion step follows)"),
    Block("PASS", 1, "decline an optional choice (no exchange, stop crystallizing, ...)"),
    Block("DRAW", 3, "draw a floor tile of size 0 small / 1 medium / 2 large, standard side up",
          lambda i: C.SIZES[i]),
    Block("DRAW_MULTI", 3, "draw a floor tile of size 0/1/2 multi side up (Floor Crafting 3rd shard, bonus, "
          "multi_supply passive)", lambda i: C.SIZES[i]),
    Block("EXCHANGE", NT, "discard reserve tile t to the bottom of its stack and draw a new one of its size",
          lambda i: C.TILES[i].name),
    Block("SPACE", NS, "space tile*8+k: in the build step place a pillar there by discarding dice; in a "
          "pending choice the target space (invader, pillar, destination)", space_name),
    Block("DIE", 5, "use/discard one unused die showing face 0 earth, 1 air, 2 fire, 3 water, 4 star",
          lambda i: C.FACES[i]),
    Block("REROLL", 5, "reroll any (once per turn): mark one more unused die of face f", lambda i: C.FACES[i]),
    Block("ROLL", 1, "reroll the marked dice"),
    Block("BUILD", NT, "build floor tile t from the reserve (then choose where)", lambda i: C.TILES[i].name),
    Block("FOUNDATION", C.NUM_FOUNDATIONS, "place the chosen large floor on empty foundation 0..2", str),
    Block("ROOM", NR, "place the chosen floor, or the spire topper, on room slot tile*3+room", room_name),
    Block("SPELL", 5, "cast 0 Mudslide, 1 Ice Beam, 2 Lava Bomb, 3 Firestorm, 4 Floor Crafting",
          lambda i: SPELLS[i]),
    Block("SHARD", 4, "spend / set aside one shard of element e", lambda i: C.ELEMENTS[i]),
    Block("SPIRE", NT * 4, "complete the spire of element e (index tile*4+e) topped on floor tile (then ROOM: "
          "the small room the topper goes in, where the floor has several)",
          lambda i: f"{C.TILES[i // 4].name}:{C.ELEMENTS[i % 4]}"),
    Block("BONUS", C.NUM_BONUSES, "choose spire completion bonus 0..3", lambda i: C.BONUSES[i][0]),
    Block("TRIGGER", 1, "use your character's trigger action"),
    Block("FREE_PILLAR", 1, "Anchored (completed): place 1 pillar ignoring requirements (once per turn)"),
    Block("ELEMENT", 4, "choose element e: the next invader to enter, or the wall to restore",
          lambda i: C.ELEMENTS[i]),
])
OFF = CODEC.offsets
DECODE: tuple[tuple[str, int], ...] = tuple(CODEC.decode(a) for a in range(CODEC.size))
"""``DECODE[action]`` = ``CODEC.decode(action)`` (block name, index), as a table."""
END_BUILD, PASS, DRAW0, DRAWM0, EXCH0, SPACE0, DIE0, REROLL0, ROLL = (
    OFF[b] for b in ("END_BUILD", "PASS", "DRAW", "DRAW_MULTI", "EXCHANGE", "SPACE", "DIE", "REROLL", "ROLL"))
BUILD0, FOUND0, ROOM0, SPELL0, SHARD0, SPIRE0, BONUS0, TRIGGER, FREE_PILLAR, ELEM0 = (
    OFF[b] for b in ("BUILD", "FOUNDATION", "ROOM", "SPELL", "SHARD", "SPIRE", "BONUS", "TRIGGER",
                     "FREE_PILLAR", "ELEMENT"))

# ---- static fortress tables (shared, never copied) -----------------------------------
# NEEDS[side][space] -> tuple of face masks, or None if the space does not exist
# ROOM_OF[side][space] -> room slot; ROOMS[side][slot] -> (size, mask, spaces) or None
NEEDS: list[list] = [[None] * NS, [None] * NS]
ROOM_OF: list[list[int]] = [[-1] * NS, [-1] * NS]
ROOMS: list[list] = [[None] * NR, [None] * NR]
TILE_SPACES: list[list[tuple[int, ...]]] = [[(), ] * NT, [(), ] * NT]
for _t in C.TILES:
    for _side in (0, 1):
        _k = 0
        _all = []
        for _r, _room in enumerate(_t.sides[_side].rooms):
            _slot = _t.tile_id * C.MAX_ROOMS + _r
            _sp = []
            for _need in _room.needs:
                _s = _t.tile_id * C.MAX_SPACES + _k
                NEEDS[_side][_s] = _need
                ROOM_OF[_side][_s] = _slot
                _sp.append(_s)
                _k += 1
            ROOMS[_side][_slot] = (_room.size, _room.elements, tuple(_sp))
            _all += _sp
        TILE_SPACES[_side][_t.tile_id] = tuple(_all)
# TILE_ROOMS[side][tile] -> ((room slot, size, spaces), ...) of the rooms on that side
TILE_ROOMS = [[tuple((t.tile_id * C.MAX_ROOMS + r, ROOMS[sd][t.tile_id * C.MAX_ROOMS + r][0],
                      ROOMS[sd][t.tile_id * C.MAX_ROOMS + r][2]) for r in range(len(t.sides[sd].rooms)))
               for t in C.TILES] for sd in (0, 1)]
# SPACE_ROOM_MASK[side][space] -> element mask of the space's room (0 if no such space)
SPACE_ROOM_MASK = [[ROOMS[sd][ROOM_OF[sd][s]][1] if ROOM_OF[sd][s] >= 0 else 0 for s in range(NS)] for sd in (0, 1)]
# TILE_FOOTPRINTS[side][tile] -> the room slots of its small rooms: the small room "footprints" a spire
# topper may go in (rulebook "Complete a spire"; a special tile's footprint is its room without spaces, ASP-A3)
TILE_FOOTPRINTS = [[tuple(slot for slot, size, _sp in TILE_ROOMS[sd][t.tile_id] if size == C.SMALL)
                    for t in C.TILES] for sd in (0, 1)]
TILE_SIZE = [t.size for t in C.TILES]
TILE_ELEMENTS = [[t.sides[0].elements, t.sides[1].elements] for t in C.TILES]
TILE_EFFECT = [t.sides[0].effect for t in C.TILES]

_FV = itertools.count()
"""Stamps: every change of a fortress (``State._fv``; per floor tile ``State._tv``; its
structure ``State._sv``) or of the reserve, an awakening, a defeat or a bonus token
(``State._bv``) takes a fresh number, so two states with the same stamps (a state and
its clones) have the same board. Only caches (legal-action helpers, the encoder) read
them; they never affect play. Stamps are per process: unpickled states take fresh ones."""

# phases
SETUP, SUPPLY, BUILD, INVASION, OVER = range(5)
PHASE_NAMES = ("setup", "supply", "build", "invasion", "over")
# pending step kinds (State.queue entries are lists [kind, a, b, c])
(K_SETUP_INV, K_SUPPLY_DRAW, K_EXCHANGE, K_DICE, K_TARGET, K_PAY, K_CRAFT_DRAW, K_DO_DRAW, K_REROLL,
 K_ICE, K_LAVA, K_FIRE_FROM, K_FIRE_TO, K_FREE_PILLAR, K_BONUS, K_DIMINISH_AUTO, K_DIMINISH, K_CRYSTAL,
 K_BONUS_DRAW, K_DISCARD, K_DEMOLISH, K_DESTROY_INV, K_WALL, K_REROLL_ONE, K_ORDER, K_INV_SPACE,
 K_TOPPER) = range(27)
STEP_NAMES = ("setup_invader", "supply_draw", "exchange", "dice", "floor_target", "pay_shards", "craft_draw",
              "do_draw", "reroll", "ice_beam", "lava_bomb", "firestorm_from", "firestorm_to", "free_pillar",
              "bonus", "diminish_auto", "diminish", "crystallize", "bonus_draw", "discard_die", "demolish",
              "destroy_invader", "restore_wall", "reroll_one", "invader_order", "invader_space", "spire_topper")
REWARDS = ("win", "score")

__all__ = [
    "NEEDS", "ROOM_OF", "ROOMS", "SPACE_ROOM_MASK", "TILE_SPACES", "TILE_ROOMS", "NT", "NS", "NR", "SPELLS", "MUDSLIDE", "ICE_BEAM",
    "LAVA_BOMB", "FIRESTORM", "FLOOR_CRAFTING", "SPELL_COST", "space_name", "room_name", "CODEC",
    "OFF", "DECODE", "END_BUILD", "PASS", "DRAW0", "DRAWM0", "EXCH0", "SPACE0", "DIE0", "REROLL0", "ROLL",
    "BUILD0", "FOUND0", "ROOM0", "SPELL0", "SHARD0", "SPIRE0", "BONUS0", "TRIGGER", "FREE_PILLAR",
    "ELEM0", "TILE_SIZE", "TILE_ELEMENTS", "TILE_EFFECT", "SETUP", "SUPPLY", "BUILD", "INVASION",
    "OVER", "PHASE_NAMES", "STEP_NAMES", "REWARDS", "K_SETUP_INV", "K_SUPPLY_DRAW",
    "K_EXCHANGE", "K_DICE", "K_TARGET", "K_PAY", "K_CRAFT_DRAW", "K_DO_DRAW", "K_REROLL", "K_ICE",
    "K_LAVA", "K_FIRE_FROM", "K_FIRE_TO", "K_FREE_PILLAR", "K_BONUS", "K_DIMINISH_AUTO",
    "K_DIMINISH", "K_CRYSTAL", "K_BONUS_DRAW", "K_DISCARD", "K_DEMOLISH", "K_DESTROY_INV", "K_WALL",
    "K_REROLL_ONE", "K_ORDER", "K_INV_SPACE", "K_TOPPER", "TILE_FOOTPRINTS",
]
