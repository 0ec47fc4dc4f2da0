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
from . import codec as K
from . import components as C

MAX_PLAYERS = 4
NT, NS, NR = C.NUM_TILES, C.NUM_SPACE_SLOTS, C.NUM_ROOM_SLOTS
NSTEPS = len(K.STEP_NAMES)
TILE_FEATURES = (["in_stack", "in_reserve", "in_fortress", "multi_side", "level"]
                 + [f"on_foundation_{f}" for f in range(3)] + [f"below_tile_{u}" for u in range(NT)]
                 + [f"below_room_{r}" for r in range(3)] + [f"topped_{e}" for e in C.ELEMENTS]
                 + [f"spire_{e}" for e in C.ELEMENTS] + [f"size_{s}" for s in C.SIZES]
                 + [f"standard_{e}" for e in C.ELEMENTS] + ["has_effect"])
SPACE_FEATURES = (["exists", "open", "pillar"] + [f"invader_{e}" for e in C.ELEMENTS]
                  + [f"need0_{f}" for f in C.FACES] + [f"need1_{f}" for f in C.FACES])
ROOM_FEATURES = (["exists", "open", "complete", "has_floor"] + [f"size_{s}" for s in C.SIZES]
                 + [f"element_{e}" for e in C.ELEMENTS] + ["topper"])
FIEND_FEATURES = ([f"slot_{k}" for k in range(4)] + [f"level_{k}" for k in range(1, 5)]
                  + ["level_unknown", "awake", "defeated"])
TF = {n: i for i, n in enumerate(TILE_FEATURES)}

PIECES = [
    Piece("tiles", (NT, len(TILE_FEATURES)), 0, 1, "per tile id: where it is, side, level (/10, capped at 1), what it lies "
          "on, spire, size, standard-side elements; see observation.TILE_FEATURES"),
    Piece("spaces", (NS, len(SPACE_FEATURES)), 0, 1, "per space tile*8+k: exists in the fortress, open, pillar, "
          "invader element, die requirement masks (printed); see observation.SPACE_FEATURES"),
    Piece("rooms", (NR, len(ROOM_FEATURES)), 0, 1, "per room slot tile*3+r: exists, open, complete, covered by a "
          "floor, size, element mask, holds a spire topper; see observation.ROOM_FEATURES"),
    Piece("dice", (5,), 0, 1, "unused dice per face (earth, air, fire, water, star) / 8"),
    Piece("reroll_marks", (5,), 0, 1, "dice marked for the reroll per face / 8"),
    Piece("shards", (4,), 0, 1, "shards on the elemental wheel per element / 10"),
    Piece("bag", (4,), 0, 1, "invaders in the bag per element / 10 (order hidden)"),
    Piece("aside", (4,), 0, 1, "invaders set aside on defeated fiends per element / 10"),
    Piece("incoming", (4,), 0, 1, "invaders drawn and still to enter (or to be placed), per element / 10"),
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
    Piece("phase", (len(K.PHASE_NAMES),), 0, 1, "one-hot: " + ", ".join(K.PHASE_NAMES)),
    Piece("step", (NSTEPS + 1,), 0, 1, "pending step one-hot (index 0: the build step's main choice); "
          "see codec.STEP_NAMES"),
    Piece("step_space", (NS,), 0, 1, "space of the pending step (pillar being paid for, invader being moved)"),
    Piece("step_tile", (NT,), 0, 1, "reserve tile being built, or floor tile being topped"),
    Piece("step_room", (NR,), 0, 1, "room chosen by the pending Ice Beam"),
    Piece("step_element", (4,), 0, 1, "element of the invader entering / being set aside, or of the spire "
          "being completed"),
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
        _n = C.NEEDS[_sd][_s]
        if _n is not None:
            for _j, _m in enumerate(_n):
                for _f in range(5):
                    _SPACE_STATIC[_sd, _s, 7 + 5 * _j + _f] = _m >> _f & 1
_SPACE_STATIC_T = _SPACE_STATIC.reshape(2, NT, C.MAX_SPACES, len(SPACE_FEATURES))
_SPACE_EXISTS = np.array([[C.NEEDS[sd][s] is not None for s in range(NS)] for sd in (0, 1)])
_ROOM_STATIC = np.zeros((2, NR, len(ROOM_FEATURES)), dtype=np.float32)
for _sd in (0, 1):
    for _r in range(NR):
        _room = C.ROOMS[_sd][_r]
        if _room is not None:
            _ROOM_STATIC[_sd, _r, 0] = 1
            _ROOM_STATIC[_sd, _r, 4 + _room.size] = 1
            for _e in range(4):
                _ROOM_STATIC[_sd, _r, 7 + _e] = _room.elements >> _e & 1
_ROOM_STATIC_T = _ROOM_STATIC.reshape(2, NT, C.MAX_ROOMS, len(ROOM_FEATURES))
_SPACE_FLAT = [[_SPACE_STATIC_T[sd, t].ravel().copy() for t in range(NT)] for sd in (0, 1)]
_ROOM_FLAT = [[_ROOM_STATIC_T[sd, t].ravel().copy() for t in range(NT)] for sd in (0, 1)]
for _sd in (0, 1):
    for _t in range(NT):
        _SPACE_FLAT[_sd][_t].reshape(C.MAX_SPACES, -1)[:, 0] = _SPACE_EXISTS[_sd][_t * C.MAX_SPACES:(_t + 1) * C.MAX_SPACES]
# room of each space (index NR = none) and spaces of each room (index NS = padding, always "pillar")
_ROOM_OF = np.array([[C.ROOM_OF[sd][s] if C.ROOM_OF[sd][s] >= 0 else NR for s in range(NS)] for sd in (0, 1)])
_ROOM_SPACES = np.full((2, NR, 6), NS, dtype=np.intp)
for _sd in (0, 1):
    for _r in range(NR):
        if C.ROOMS[_sd][_r] is not None:
            _sp = C.ROOMS[_sd][_r].spaces
            _ROOM_SPACES[_sd, _r, :len(_sp)] = _sp


_PLACING = (K.K_SETUP_INV, K.K_INV_SPACE)
_TOPPER = ROOM_FEATURES.index("topper")
_EIGHTHS = [x / 8.0 for x in range(C.NUM_INVADERS + 1)].__getitem__  # x -> x / 8.0 (counts <= 40)
_TENTHS = [x / 10.0 for x in range(C.NUM_INVADERS + 1)].__getitem__
_TRACK_ONE_HOT = [[float(k == j) for k in range(C.LOSE_SPACE + 1)] for j in range(C.LOSE_SPACE + 1)]


class Encoder:
    """Writes :data:`LAYOUT` for one observer (only what that seat may see)."""

    layout = LAYOUT

    def __init__(self, game):
        self.game = game
        cfg = game.config
        n = game.num_players
        self._template, tv = LAYOUT.new_buffer()
        tiles = tv["tiles"]
        tiles[:, TF["in_stack"]] = 1  # cleared for tiles in the reserve or the fortress
        for t in C.TILES:
            tiles[t.tile_id, TF["size_small"] + t.size] = 1
            for e in range(4):
                tiles[t.tile_id, TF["standard_earth"] + e] = t.sides[0].elements >> e & 1
            tiles[t.tile_id, TF["has_effect"]] = bool(t.sides[0].effect)
        tv["seat_present"][:n] = 1
        tv["difficulty"][cfg.difficulty - 1] = 1
        tv["num_players"][n - 1] = 1
        self._buf, self._v = LAYOUT.new_buffer()
        self._o = {k: sl.start for k, sl in LAYOUT.slices.items()}
        self._random_fiends = cfg.fiend_level == 0
        o = self._o
        self._n = n
        self._tile0, self._sp0, self._room0 = o["tiles"], o["spaces"], o["rooms"]
        self._dice0, self._chars0, self._turn0, self._phase0 = o["dice"], o["characters"], o["turn_player"], o["phase"]
        self._step0, self._flags0, self._turns0 = o["step"], o["flags"], o["turns"]
        assert o["stack_sizes"] + 3 - o["dice"] == 59  # the adjacent pieces encode() writes at once
        # the block: the template with the fortress as of the tile stamps ``_shown_tile_stamps``
        # (State._tile_stamps; 0: the template's) and the board (``_board``) as of the board
        # stamp ``_shown_board_stamp``
        self._block = self._template.copy()
        self._shown_tile_stamps, self._shown_fortress_stamp, self._shown_board_stamp = [0] * NT, -1, -1
        self._block_mv, self._template_mv = memoryview(self._block), memoryview(self._template)
        self._space_flat = [[memoryview(x) for x in row] for row in _SPACE_FLAT]
        self._room_flat = [[memoryview(x) for x in row] for row in _ROOM_FLAT]
        self._reserve_shown: list[int] = []  # tiles the block shows in the reserve
        self._shown_dice = self._shown_counts = self._shown_rest = self._fiends_shown = None  # what it shows
        self._fiend0 = o["fiends"]  # the adjacent pieces fiends, adaptations, bonus_used
        assert o["bonus_used"] - o["fiends"] == 4 * (len(FIEND_FEATURES) + C.NUM_ADAPTATIONS + 1)

    def _tile(self, s, buf, t: int) -> None:
        """Rewrite floor tile ``t``'s entries (its tile row, spaces and rooms) in the
        block (``buf``: a float32 memoryview of it): the template's when it is not in
        the fortress."""
        ntf, nsf, nrf = len(TILE_FEATURES), len(SPACE_FEATURES), len(ROOM_FEATURES)
        ss, rs = C.MAX_SPACES * nsf, C.MAX_ROOMS * nrf
        tb, sb, rb = self._tile0 + t * ntf, self._sp0 + t * ss, self._room0 + t * rs
        template = self._template_mv
        buf[tb:tb + ntf] = template[tb:tb + ntf]
        lv = s.level[t]
        if not lv:
            buf[sb:sb + ss] = template[sb:sb + ss]
            buf[rb:rb + rs] = template[rb:rb + rs]
            return
        sd = s.side[t]
        buf[tb] = 0.0  # not in a stack
        buf[tb + 2] = 1.0
        if sd:
            buf[tb + 3] = 1.0
        buf[tb + 4] = min(lv, 10) / 10.0  # a tower of small floors can pass level 10: capped at 1
        b = s.base_of[t]
        if b <= -2:
            buf[tb + 3 - b] = 1.0
        else:
            buf[tb + 8 + b // C.MAX_ROOMS] = 1.0
            buf[tb + 8 + NT + b % C.MAX_ROOMS] = 1.0
        topped = s.topped[t]
        if topped >= 0:
            buf[tb + 11 + NT + topped] = 1.0
        if s.spire_of[t] >= 0:
            buf[tb + 15 + NT + s.spire_of[t]] = 1.0
        buf[sb:sb + ss] = self._space_flat[sd][t]
        buf[rb:rb + rs] = self._room_flat[sd][t]
        pillar, invader, room_tile, topper = s.pillar, s.invader, s.room_tile, s.topper_room[t]
        sp0, room0 = self._sp0, self._room0
        for slot, _size, _elements, spaces in C.TILE_ROOMS[sd][t]:
            qb = room0 + slot * nrf
            covered = room_tile[slot] >= 0
            opened = not covered and slot != topper  # (rules.State._survey_structure)
            if covered:
                buf[qb + 3] = 1.0
            elif opened:
                buf[qb + 1] = 1.0
            else:
                buf[qb + _TOPPER] = 1.0
            complete = True
            for q in spaces:
                pb = sp0 + q * nsf
                if opened:
                    buf[pb + 1] = 1.0
                if pillar[q]:
                    buf[pb + 2] = 1.0
                else:
                    complete = False
                if invader[q] >= 0:
                    buf[pb + 3 + invader[q]] = 1.0
            if complete:
                buf[qb + 2] = 1.0

    def _board(self, s, block) -> None:
        """The reserve (tile rows) and, if they differ from what the block shows, the
        fiends, adaptations and bonus tokens, in the block (when the board stamp
        ``s._board_stamp`` changed)."""
        tile0, ntf, side, level, template = self._tile0, len(TILE_FEATURES), s.side, s.level, self._template_mv
        m = self._block_mv  # scalar stores through a memoryview are cheaper than numpy's
        for t in self._reserve_shown:
            if not level[t]:  # back in a stack, or still in the reserve (rewritten below)
                tb = tile0 + t * ntf
                m[tb:tb + ntf] = template[tb:tb + ntf]
        for t in s.reserve:
            tb = tile0 + t * ntf
            m[tb] = 0.0
            m[tb + 1] = 1.0
            m[tb + 3] = float(side[t])
        self._reserve_shown = list(s.reserve)
        fiends = [*s.slot_element, *s.fiend_level, *s.awake, *s.defeated, *s.adaptation, *s.adapted_done,
                  *s.bonus_used]
        if fiends == self._fiends_shown:
            return
        self._fiends_shown = fiends
        nff, fo = len(FIEND_FEATURES), self._fiend0
        naf, ao = C.NUM_ADAPTATIONS + 1, fo + 4 * len(FIEND_FEATURES)
        block[fo:ao + 4 * naf + C.NUM_BONUSES] = 0
        random_fiends = self._random_fiends
        for k, e in enumerate(s.slot_element):
            b = fo + e * nff
            m[b + k] = 1.0
            if s.awake[e]:
                m[b + 9] = 1.0
            if s.defeated[e]:
                m[b + 10] = 1.0
            if not random_fiends or s.awake[e] or s.defeated[e]:
                block[b + 3 + s.fiend_level[e]] = 1
            else:
                m[b + 8] = 1.0
            if s.adaptation[e] >= 0:
                block[ao + e * naf + s.adaptation[e]] = 1
                if s.adapted_done[e]:
                    m[ao + e * naf + C.NUM_ADAPTATIONS] = 1.0
        block[ao + 4 * naf:ao + 4 * naf + C.NUM_BONUSES] = s.bonus_used

    def encode(self, s, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """``player``'s view of state ``s``: float32, shape ``(LAYOUT.size,)``.

        One cached block, shared by every state and seat and rewritten only where it
        differs from ``s``: the template with the fortress, where only the floor tiles
        whose stamp ``s._tile_stamps[t]`` changed are rewritten (``_tile``), the board
        (``_board``) when the board stamp ``s._board_stamp`` changed (``fast.new_stamp``), and the
        counters from dice to stack sizes in three groups compared with what the block
        shows. It is copied to the output; the seat-relative and pending-step pieces are
        then written on every call."""
        buf = self._buf if out is None else out  # write in place when given a buffer
        o = self._o
        n = self._n
        block = self._block
        if self._shown_fortress_stamp != s._fortress_stamp or self._shown_board_stamp != s._board_stamp:
            new_board = self._shown_board_stamp != s._board_stamp
            if self._shown_fortress_stamp != s._fortress_stamp:
                stamps, shown = s._tile_stamps, self._shown_tile_stamps
                if stamps != shown:
                    for t in range(NT):
                        if stamps[t] != shown[t]:
                            self._tile(s, self._block_mv, t)
                            shown[t] = stamps[t]
                            if t in self._reserve_shown:
                                new_board = True
                self._shown_fortress_stamp = s._fortress_stamp
            if new_board:
                self._board(s, block)
                self._shown_board_stamp = s._board_stamp
        # adjacent pieces, in the block, in three groups rewritten when their inputs
        # changed: dice, reroll_marks | shards, bag, aside, incoming | walls, cores,
        # pillar_supply, track, stack_sizes
        d0, st, inc, q = self._dice0, s.stacks, s.incoming, s.queue
        dice = s.dice + s.marks
        if dice != self._shown_dice:
            block[d0:d0 + 10] = list(map(_EIGHTHS, dice))
            self._shown_dice = dice
        if q and q[-1][0] in _PLACING:  # drawn, not yet placed
            inc = inc + [x[1] for x in q if x[0] in _PLACING]
        bag = bytes(s.bag)  # elements 0..3: counted faster as bytes
        counts = s.shards + [bag.count(0), bag.count(1), bag.count(2), bag.count(3)] + s.aside + [
            inc.count(0), inc.count(1), inc.count(2), inc.count(3)]
        if counts != self._shown_counts:
            block[d0 + 10:d0 + 26] = list(map(_TENTHS, counts))
            self._shown_counts = counts
        track = min(s.track, C.LOSE_SPACE)
        rest = (*s.walls, s.cores, s.pillars_used, track, len(st[0]), len(st[1]), len(st[2]))
        if rest != self._shown_rest:
            block[d0 + 26:d0 + 59] = s.walls + [s.cores / C.MAX_CORES, (C.NUM_PILLARS - s.pillars_used) / C.NUM_PILLARS] + (
                _TRACK_ONE_HOT[track] + [len(st[0]) / 16.0, len(st[1]) / 16.0, len(st[2]) / 16.0])
            self._shown_rest = rest
        try:  # scalar stores through a memoryview of ``buf`` are cheaper than numpy's
            mv = memoryview(buf)
            mv[:] = self._block_mv
        except (TypeError, ValueError, NotImplementedError):  # not a float32 vector
            buf[:] = block
            mv = buf
        co, chars = self._chars0, s.characters
        for p in range(n):
            mv[co + ((p - player) % n) * C.NUM_CHARACTERS + chars[p]] = 1.0
        if s.phase != K.OVER:
            mv[self._turn0 + (s.turn_player - player) % n] = 1.0
        mv[self._phase0 + s.phase] = 1.0
        if q:
            k, a, b, c = q[-1]
            mv[self._step0 + 1 + k] = 1.0
            if k == K.K_DICE or k == K.K_FIRE_TO:
                mv[o["step_space"] + a] = 1.0
            elif k == K.K_TARGET:
                mv[o["step_tile"] + a] = 1.0
            elif k == K.K_TOPPER:
                mv[o["step_tile"] + a] = 1.0
                mv[o["step_element"] + b] = 1.0
            elif k == K.K_ICE and a >= 0:
                mv[o["step_room"] + a] = 1.0
            elif k in (K.K_INV_SPACE, K.K_DIMINISH, K.K_SETUP_INV):
                mv[o["step_element"] + a] = 1.0
            if k == K.K_DICE:
                mv[o["step_count"] + 1] = b / 8.0
            elif k in (K.K_PAY, K.K_LAVA, K.K_CRYSTAL, K.K_FREE_PILLAR, K.K_DISCARD):
                mv[o["step_count"]] = min(a, 8) / 8.0
            elif k in (K.K_ICE, K.K_DIMINISH):
                mv[o["step_count"]] = min(b, 8) / 8.0
        else:
            mv[self._step0] = 1.0
        if s.reroll_used:
            mv[self._flags0] = 1.0
        if s.anchored_used:
            mv[self._flags0 + 1] = 1.0
        mv[self._turns0] = min(s.turns, 30) / 30.0
        return buf.copy() if out is None else out
