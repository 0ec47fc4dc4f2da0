"""Aetherspire observation encoder (seat-relative, padded to 4 seats).

Everything on the table is public in this co-operative game; hidden are only the
order of the invader bag and of the tile stacks (never encoded) and, with random
fiend sets, the level of a dormant aether fiend (encoded as unknown). The
fortress is encoded per tile id (38), per space slot (``tile*8+k``, 304) and per
room slot (``tile*3+room``, 114), so its size is fixed (see ``rules`` module
docstring for the picture).
"""

from __future__ import annotations

import numpy as np

from ..core import ObservationLayout, Piece
from . import components as C
from . import rules as R

MAX_PLAYERS = 4
NT, NS, NR = R.NT, R.NS, R.NR
NSTEPS = len(R.STEP_NAMES)
TILE_FEATURES = (["in_stack", "in_reserve", "in_fortress", "multi_side", "level"]
                 + [f"on_foundation_{f}" for f in range(3)] + [f"below_tile_{u}" for u in range(NT)]
                 + [f"below_room_{r}" for r in range(3)] + [f"topped_{e}" for e in C.ELEMENTS]
                 + [f"spire_{e}" for e in C.ELEMENTS] + [f"size_{s}" for s in C.SIZES]
                 + [f"standard_{e}" for e in C.ELEMENTS] + ["has_effect"])
SPACE_FEATURES = (["exists", "open", "pillar"] + [f"invader_{e}" for e in C.ELEMENTS]
                  + [f"need0_{f}" for f in C.FACES] + [f"need1_{f}" for f in C.FACES])
ROOM_FEATURES = (["exists", "open", "complete", "has_floor"] + [f"size_{s}" for s in C.SIZES]
                 + [f"element_{e}" for e in C.ELEMENTS])
FIEND_FEATURES = ([f"slot_{k}" for k in range(4)] + [f"level_{k}" for k in range(1, 5)]
                  + ["level_unknown", "awake", "defeated"])
TF = {n: i for i, n in enumerate(TILE_FEATURES)}

PIECES = [
    Piece("tiles", (NT, len(TILE_FEATURES)), 0, 1, "per tile id: where it is, side, level (/10), what it lies "
          "on, spire, size, standard-side elements; see observation.TILE_FEATURES"),
    Piece("spaces", (NS, len(SPACE_FEATURES)), 0, 1, "per space tile*8+k: exists in the fortress, open, pillar, "
          "invader element, die requirement masks (printed); see observation.SPACE_FEATURES"),
    Piece("rooms", (NR, len(ROOM_FEATURES)), 0, 1, "per room slot tile*3+r: exists, open, complete, covered by a "
          "floor, size, element mask; see observation.ROOM_FEATURES"),
    Piece("dice", (5,), 0, 1, "unused dice per face (earth, air, fire, water, star) / 8"),
    Piece("reroll_marks", (5,), 0, 1, "dice marked for the reroll per face / 8"),
    Piece("shards", (4,), 0, 1, "shards on the elemental wheel per element / 10"),
    Piece("bag", (4,), 0, 1, "invaders in the bag per element / 10 (order hidden)"),
    Piece("aside", (4,), 0, 1, "invaders set aside on defeated fiends per element / 10"),
    Piece("incoming", (4,), 0, 1, "invaders drawn and still to enter, per element / 10"),
    Piece("walls", (4,), 0, 1, "wall of each element standing"),
    Piece("cores", (1,), 0, 1, "aethercore tokens / 5"),
    Piece("pillar_supply", (1,), 0, 1, "pillar cubes left / 50"),
    Piece("track", (C.LOSE_SPACE + 1,), 0, 1, "invader track token space one-hot (0 Start .. 23 Lose)"),
    Piece("stack_sizes", (3,), 0, 1, "tiles left in the small, medium, large stacks / 16"),
    Piece("fiends", (4, len(FIEND_FEATURES)), 0, 1, "per element: track slot, level (if face-up or fixed set), "
          "level unknown, awake, defeated"),
    Piece("adaptations", (4, C.NUM_ADAPTATIONS + 1), 0, 1, "per element: adaptation tucked under its fiend, "
          "then completed"),
    Piece("bonus_used", (C.NUM_BONUSES,), 0, 1, "spire completion bonus tokens used"),
    Piece("characters", (MAX_PLAYERS, C.NUM_CHARACTERS), 0, 1, "per relative seat: character one-hot"),
    Piece("seat_present", (MAX_PLAYERS,), 0, 1, "1 for seats in the game"),
    Piece("turn_player", (MAX_PLAYERS,), 0, 1, "relative seat of the active player (zeros at the end)"),
    Piece("phase", (len(R.PHASE_NAMES),), 0, 1, "one-hot: " + ", ".join(R.PHASE_NAMES)),
    Piece("step", (NSTEPS + 1,), 0, 1, "pending step one-hot (index 0: the build step's main choice); "
          "see rules.STEP_NAMES"),
    Piece("step_space", (NS,), 0, 1, "space of the pending step (pillar being paid for, invader being moved)"),
    Piece("step_tile", (NT,), 0, 1, "reserve tile being built"),
    Piece("step_room", (NR,), 0, 1, "room chosen by the pending Ice Beam"),
    Piece("step_element", (4,), 0, 1, "element of the invader entering / being set aside"),
    Piece("step_count", (2,), 0, 1, "pending step counters / 8 (remaining targets, die index)"),
    Piece("flags", (2,), 0, 1, "reroll-any used this turn, Anchored free pillar used this turn"),
    Piece("difficulty", (4,), 0, 1, "difficulty one-hot 1..4"),
    Piece("num_players", (4,), 0, 1, "one-hot 1..4"),
    Piece("turns", (1,), 0, 1, "turns played / 30"),
]
LAYOUT = ObservationLayout(PIECES)

# static per (side, space): exists-on-that-side and printed need masks
_SPACE_STATIC = np.zeros((2, NS, len(SPACE_FEATURES)), dtype=np.float32)
for _sd in (0, 1):
    for _s in range(NS):
        _n = R.NEEDS[_sd][_s]
        if _n is not None:
            for _j, _m in enumerate(_n):
                for _f in range(5):
                    _SPACE_STATIC[_sd, _s, 7 + 5 * _j + _f] = _m >> _f & 1
_SPACE_EXISTS = np.array([[R.NEEDS[sd][s] is not None for s in range(NS)] for sd in (0, 1)])
_ROOM_STATIC = np.zeros((2, NR, len(ROOM_FEATURES)), dtype=np.float32)
for _sd in (0, 1):
    for _r in range(NR):
        _room = R.ROOMS[_sd][_r]
        if _room is not None:
            _ROOM_STATIC[_sd, _r, 4 + _room[0]] = 1
            for _e in range(4):
                _ROOM_STATIC[_sd, _r, 7 + _e] = _room[1] >> _e & 1
_ROOM_EXISTS = np.array([[R.ROOMS[sd][r] is not None for r in range(NR)] for sd in (0, 1)])
_ROOM_SPACES = [[R.ROOMS[sd][r][2] if R.ROOMS[sd][r] else () for r in range(NR)] for sd in (0, 1)]


class Encoder:
    """Writes :data:`LAYOUT` for one observer (only what that seat may see)."""

    layout = LAYOUT

    def __init__(self, game):
        self.game = game
        cfg = game.config
        n = game.num_players
        self._template, tv = LAYOUT.new_buffer()
        tiles = tv["tiles"]
        for t in C.TILES:
            tiles[t.tile_id, TF["size_small"] + t.size] = 1
            for e in range(4):
                tiles[t.tile_id, TF["standard_earth"] + e] = t.sides[0].elements >> e & 1
            tiles[t.tile_id, TF["has_effect"]] = bool(t.sides[0].effect)
        tv["seat_present"][:n] = 1
        tv["difficulty"][cfg.difficulty - 1] = 1
        tv["num_players"][n - 1] = 1
        self._buf, self._v = LAYOUT.new_buffer()
        self._off = {k: sl.start for k, sl in LAYOUT.slices.items()}
        self._n = n
        self._tile_idx = np.arange(NT)

    def encode(self, s, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """``player``'s view of state ``s``: float32, shape ``(LAYOUT.size,)``."""
        buf, v, off, n = self._buf, self._v, self._off, self._n
        buf[:] = self._template
        level = np.asarray(s.level)
        side = np.asarray(s.side)
        infort = level > 0
        # tiles
        tv = v["tiles"]
        in_reserve = np.zeros(NT, dtype=bool)
        in_reserve[s.reserve] = True
        tv[:, 0] = ~infort & ~in_reserve
        tv[:, 1] = in_reserve
        tv[:, 2] = infort
        tv[:, 3] = side * (infort | in_reserve)
        tv[:, 4] = level / 10.0
        base = np.asarray(s.base_of)
        idx = self._tile_idx
        onf = base <= -2
        tv[idx[onf], TF["on_foundation_0"] + (-2 - base[onf])] = 1
        onr = base >= 0
        tv[idx[onr], TF["below_tile_0"] + base[onr] // C.MAX_ROOMS] = 1
        tv[idx[onr], TF["below_room_0"] + base[onr] % C.MAX_ROOMS] = 1
        top = np.asarray(s.topped)
        m = top >= 0
        tv[idx[m], TF["topped_earth"] + top[m]] = 1
        sp = np.asarray(s.spire_of)
        m = sp >= 0
        tv[idx[m], TF["spire_earth"] + sp[m]] = 1
        # spaces
        sides8 = np.repeat(side, C.MAX_SPACES)
        fort8 = np.repeat(infort, C.MAX_SPACES)
        spv = v["spaces"]
        spv[:] = np.where(sides8[:, None] == 1, _SPACE_STATIC[1], _SPACE_STATIC[0])
        exists = np.where(sides8 == 1, _SPACE_EXISTS[1], _SPACE_EXISTS[0]) & fort8
        spv[:, 0] = exists
        spv[~exists, 7:] = 0
        for q in s.open_spaces():
            spv[q, 1] = 1
        spv[:, 2] = s.pillar
        inv = np.asarray(s.invader)
        m = inv >= 0
        spv[np.flatnonzero(m), 3 + inv[m]] = 1
        # rooms
        sides3 = np.repeat(side, C.MAX_ROOMS)
        fort3 = np.repeat(infort, C.MAX_ROOMS)
        rv = v["rooms"]
        rv[:] = np.where(sides3[:, None] == 1, _ROOM_STATIC[1], _ROOM_STATIC[0])
        rexists = np.where(sides3 == 1, _ROOM_EXISTS[1], _ROOM_EXISTS[0]) & fort3
        rv[~rexists] = 0
        rv[:, 0] = rexists
        rt = np.asarray(s.room_tile) >= 0
        rv[:, 3] = rt
        for r in np.flatnonzero(rexists):
            t = r // C.MAX_ROOMS
            rv[r, 1] = s.topped[t] < 0 and not rt[r]
            rv[r, 2] = all(s.pillar[q] for q in _ROOM_SPACES[s.side[t]][r])
        # counters
        buf[off["dice"]:off["dice"] + 5] = np.asarray(s.dice) / 8.0
        buf[off["reroll_marks"]:off["reroll_marks"] + 5] = np.asarray(s.marks) / 8.0
        buf[off["shards"]:off["shards"] + 4] = np.asarray(s.shards) / 10.0
        buf[off["bag"]:off["bag"] + 4] = np.bincount(s.bag, minlength=4) / 10.0
        buf[off["aside"]:off["aside"] + 4] = np.asarray(s.aside) / 10.0
        if s.incoming:
            buf[off["incoming"]:off["incoming"] + 4] = np.bincount(s.incoming, minlength=4) / 10.0
        buf[off["walls"]:off["walls"] + 4] = s.walls
        buf[off["cores"]] = s.cores / C.MAX_CORES
        buf[off["pillar_supply"]] = s.pillar_supply() / C.NUM_PILLARS
        buf[off["track"] + min(s.track, C.LOSE_SPACE)] = 1
        for size in range(3):
            buf[off["stack_sizes"] + size] = len(s.stacks[size]) / 16.0
        fv = v["fiends"]
        for k, e in enumerate(s.slot_element):
            fv[e, k] = 1
        for e in range(4):
            if s.fiend_known(e):
                fv[e, 3 + s.fiend_level[e]] = 1
            else:
                fv[e, 8] = 1
            fv[e, 9] = s.awake[e]
            fv[e, 10] = s.defeated[e]
            if s.adaptation[e] >= 0:
                v["adaptations"][e, s.adaptation[e]] = 1
                v["adaptations"][e, C.NUM_ADAPTATIONS] = s.adapted_done[e]
        buf[off["bonus_used"]:off["bonus_used"] + C.NUM_BONUSES] = s.bonus_used
        cv = v["characters"]
        for q in range(n):
            cv[(q - player) % n, s.characters[q]] = 1
        if s.phase != R.OVER:
            buf[off["turn_player"] + (s.turn_player - player) % n] = 1
        buf[off["phase"] + s.phase] = 1
        if s.queue:
            k, a, b, c = s.queue[-1]
            buf[off["step"] + 1 + k] = 1
            if k in (R.K_DICE, R.K_FIRE_TO):
                buf[off["step_space"] + a] = 1
            elif k == R.K_TARGET:
                buf[off["step_tile"] + a] = 1
            elif k == R.K_ICE and a >= 0:
                buf[off["step_room"] + a] = 1
            elif k in (R.K_INV_SPACE, R.K_DIMINISH, R.K_SETUP_INV):
                buf[off["step_element"] + a] = 1
            if k == R.K_DICE:
                buf[off["step_count"] + 1] = b / 8.0
            elif k in (R.K_PAY, R.K_LAVA, R.K_CRYSTAL, R.K_FREE_PILLAR, R.K_DISCARD):
                buf[off["step_count"]] = min(a, 8) / 8.0
            elif k in (R.K_ICE, R.K_DIMINISH):
                buf[off["step_count"]] = min(b, 8) / 8.0
        else:
            buf[off["step"]] = 1
        buf[off["flags"]] = s.reroll_used
        buf[off["flags"] + 1] = s.anchored_used
        buf[off["turns"]] = min(s.turns, 30) / 30.0
        if out is None:
            return buf.copy()
        out[:] = buf
        return out
