"""Ether Wars observation encoder (seat-relative, padded to 4 seats, values in [0, 1]).

Relative seat 0 is the observer, then the others clockwise; area indices 7..10
are the Silos of relative seats 0..3 (as in the action codec). Hidden from the
observer: the other players' Favour hands (only their sizes are shown), draft
packs, ability cards chosen but not yet revealed, and deck orders.
"""

from __future__ import annotations

from array import array

import numpy as np

from ..core import ObservationLayout, Piece
from . import components as C
from .codec import DECISION_NAMES, K_ADD, K_MOVE_TO, MODES, OVER, PHASE_NAMES, STAGES, WINDOW_NAMES

P4 = C.MAX_PLAYERS
NA = C.NUM_AREAS
NF = C.NUM_FAVOURS
STACK = 8
POOL = C.POOL

PIECES = [
    Piece("num_players", (3,), 0, 1, "one-hot 2, 3, 4 players"),
    Piece("seat_present", (P4,), 0, 1, "1 for seats in the game"),
    Piece("first_player", (P4,), 0, 1, "relative seat holding the first player marker"),
    Piece("current_player", (P4,), 0, 1, "relative seat deciding now (zeros at the end)"),
    Piece("phase", (len(PHASE_NAMES),), 0, 1, "one-hot: " + ", ".join(PHASE_NAMES)),
    Piece("decision", (len(DECISION_NAMES),), 0, 1, "kind of the pending decision, one-hot (codec.DECISION_NAMES)"),
    Piece("round", (1,), 0, 1, "round / max_rounds"),
    Piece("event", (C.NUM_EVENTS,), 0, 1, "Event card in play, one-hot (components.EVENTS)"),
    Piece("faction", (P4, 4), 0, 1, "per relative seat: faction one-hot"),
    Piece("ability", (P4, 5), 0, 1, "per relative seat: ability card 0..3 one-hot if visible (own, or revealed), "
          "then 'has chosen this round'"),
    Piece("resources", (P4, C.NUM_RES), 0, 1, "per relative seat: Protein, Coltan, Plasma, Crystal, Ether / box pool"),
    Piece("ether_progress", (P4,), 0, 1, "per relative seat: Ether / Ether needed to win"),
    Piece("charge", (P4,), 0, 1, "per relative seat: Charges / 20"),
    Piece("units", (P4, 2), 0, 1, "per relative seat: Units on the sheet / 10, in reserve / 10"),
    Piece("board_units", (P4, NA), 0, 1, "per relative seat and area: Units on the board / 10"),
    Piece("hero", (P4, NA + 1), 0, 1, "per relative seat: Hero area one-hot, last = on the sheet"),
    Piece("mercenaries", (C.NUM_MERCS, P4 + NA + 1), 0, 1, "per Mercenary: owner relative seat one-hot, then area "
          "one-hot, last = on its owner's sheet"),
    Piece("ether_die", (P4 + 1,), 0, 1, "controller relative seat one-hot, then 'placed in the Ether Fault'"),
    Piece("placed", (P4, NA), 0, 1, "per relative seat: areas placed in this round"),
    Piece("arrival", (NA, P4), 0, 1, "per area and relative seat: (arrival rank + 1) / 4, 0 if absent"),
    Piece("seat_flags", (P4, 7), 0, 1, "per relative seat: passed Placement, Contract, Priestess rerolls / 3, "
          "Medic free shields / 2, channelled, extra Ether used, Aggressive silo condition"),
    Piece("hand", (NF,), 0, 1, "own Favour hand per kind / 4"),
    Piece("hand_sizes", (P4,), 0, 1, "per relative seat: Favours in hand / 22"),
    Piece("draft_pack", (NF,), 0, 1, "own draft pack per kind / 5 (advanced preparation)"),
    Piece("favour_discard", (NF,), 0, 1, "discarded Favours per kind / 4"),
    Piece("decks", (2,), 0, 1, "Favour deck size / 22, Event deck size / 16"),
    Piece("event_discard", (C.NUM_EVENTS,), 0, 1, "discarded Events per kind / 2"),
    Piece("placement", (NA + 1,), 0, 1, "area chosen this placement turn one-hot, then dice added / 10"),
    Piece("move_pick", (3 * NA,), 0, 1, "die picked to move (kind*11 + area), one-hot"),
    Piece("rc_area", (NA,), 0, 1, "area being resolved, one-hot"),
    Piece("rc_stage", (len(STAGES),), 0, 1, "resolution stage one-hot (codec.STAGES)"),
    Piece("rc_mode", (len(MODES),), 0, 1, "resolution mode one-hot (codec.MODES)"),
    Piece("rc_resolver", (P4,), 0, 1, "relative seat resolving the area"),
    Piece("rc_parts", (P4,), 0, 1, "relative seats rolling in this combat / extraction"),
    Piece("rc_faces", (P4, 6), 0, 1, "per relative seat: rolled Unit dice per face / 10"),
    Piece("rc_hero", (P4, 6), 0, 1, "per relative seat: Hero face one-hot"),
    Piece("rc_captain", (P4, 6), 0, 1, "per relative seat: Captain face one-hot"),
    Piece("rc_numbers", (P4, 5), 0, 1, "per relative seat: Defender+Ether die pips / 12, boosts / 20, "
          "score / 80, injuries pending / 10, Assassin hits / 10"),
    Piece("rc_winner", (P4,), 0, 1, "combat winner, one-hot"),
    Piece("rc_misc", (6,), 0, 1, "thief/assassin/gain picks left / 10, raid points / 80, purchases left / 2, "
          "purchase credit / 40, free shields / 4, skills queued / 4"),
    Piece("rc_target", (C.NUM_RES,), 0, 1, "purchase target resource one-hot"),
    Piece("window", (len(WINDOW_NAMES) + P4,), 0, 1, "open favour window kind one-hot, then its seat (injury)"),
    Piece("stack", (STACK, P4 + NF + 1), 0, 1, "favour stack from the bottom: player relative seat, kind, cancelled"),
    Piece("smuggle_target", (P4,), 0, 1, "Smuggler target relative seat"),
]
LAYOUT = ObservationLayout(PIECES)
OFF = {p.name: LAYOUT.slices[p.name].start for p in PIECES}
SHAPE = {p.name: p.shape for p in PIECES}
_SEAT_PIECES = ("faction", "ability", "resources", "ether_progress", "charge", "units", "board_units", "placed",
                "hero", "seat_flags", "hand_sizes")
"""Pieces with one row (or entry) per relative seat, in ``Encoder._seat_rows`` order."""


def _span(first: str, last: str) -> slice:
    """The slice of the observation from piece ``first`` to piece ``last`` (both included)."""
    return slice(LAYOUT.slices[first].start, LAYOUT.slices[last].stop)


_HEADER = _span("first_player", "event")
_RC = _span("rc_area", "rc_target")
_WINDOW = _span("window", "smuggle_target")
_MOVE = _span("placement", "move_pick")
_ZEROS = {name: array("f", bytes(4 * (sl.stop - sl.start)))
          for name, sl in [*LAYOUT.slices.items(), ("_header", _HEADER), ("_rc", _RC), ("_window", _WINDOW),
                           ("_move", _MOVE)]}
(_M_FACTION, _M_ABILITY, _M_RES, _M_CHARGE, _M_UNITS, _M_BOARD, _M_HERO, _M_MERCS, _M_PLACED, _M_ARRIVAL,
 _M_FLAGS, _M_HAND, _M_PACK, _M_FDISCARD, _M_EDISCARD, _M_RC, _M_WINDOW) = range(17)


_CLEAR = {name: (sl, _ZEROS[name]) for name, sl in LAYOUT.slices.items()}
_ZEROS_HEADER, _ZEROS_MOVE = _ZEROS["_header"], _ZEROS["_move"]
_O_FIRST, _O_CURRENT, _O_PHASE, _O_DECISION, _O_ROUND, _O_EVENT, _O_DECKS = (OFF[name] for name in (
    "first_player", "current_player", "phase", "decision", "round", "event", "decks"))
_FAVOUR_DECK_SIZE, _EVENT_DECK_SIZE = len(C.FAVOUR_DECK), len(C.EVENT_DECK)
_ARRIVAL_RANK = tuple((k + 1) / 4 for k in range(P4))


def _write_counts(b, m: list, slot: int, piece: str, items: list[int], weight: float) -> None:
    """Piece ``piece`` of the observation ``b`` rewritten as ``weight`` per item of ``items``
    (card ids, repeats add up), and ``m[slot]`` remembers the items it was written from."""
    m[slot] = items[:]
    _clear(b, piece)
    o = OFF[piece]
    for x in items:
        b[o + x] += weight


def _clear(b: array, name: str) -> None:
    sl, zeros = _CLEAR[name]
    b[sl] = zeros


def _nested_copy(rows: list[list]) -> list[list]:
    return list(map(list, rows))


class Encoder:
    """Writes ``state``'s observation for ``player`` into a float32 buffer.

    Incremental: one ``array('f')`` buffer per observer keeps the last observation
    written for that seat, with copies of the state fields each piece was computed
    from; a piece is rewritten only when its fields changed (compared by value, so
    any state of the game may be encoded in any order). The buffer is then copied
    into ``out``. Seat and area relabelling uses tables precomputed per observer.
    """

    layout = LAYOUT

    def __init__(self, game):
        self.game = game
        n = game.num_players
        self.rel_seat = [[(q - p) % n for q in range(n)] for p in range(n)]
        self.rel_area = [[a if a < C.SILO0 else C.SILO0 + (a - C.SILO0 - p) % n for a in range(NA)] + [NA]
                         for p in range(n)]  # index -1 (on the sheet) maps to NA
        # a fresh buffer: zeros and the static pieces (player count, seats present)
        zeros = array("f", bytes(4 * LAYOUT.size))
        zeros[OFF["num_players"] + n - 2] = 1.0
        for q in range(n):
            zeros[OFF["seat_present"] + q] = 1.0
        self._bufs = [array("f", zeros) for _ in range(n)]  # per observer: fast item stores
        self._views = [np.frombuffer(b, dtype=np.float32) for b in self._bufs]
        self._memo = [[None] * 17 for _ in range(n)]  # per observer and piece: the fields it was written from
        # per observer and seat: (seat, offsets of its rows in the per-seat pieces)
        self._seat_rows = [[(q,) + tuple(OFF[name] + r * SHAPE[name][1] if len(SHAPE[name]) == 2 else OFF[name] + r
                                         for name in _SEAT_PIECES)
                            for q, r in enumerate(self.rel_seat[p])] for p in range(n)]
        self._max_rounds = game.config.max_rounds

    def encode(self, s, player: int, out: np.ndarray) -> None:
        b = self._bufs[player]
        m = self._memo[player]
        RS_, RA = self.rel_seat[player], self.rel_area[player]
        rows = self._seat_rows[player]
        b[_HEADER] = _ZEROS_HEADER
        b[_O_FIRST + RS_[s.first]] = 1.0
        if s.phase != OVER:
            b[_O_CURRENT + RS_[s.decider]] = 1.0
        b[_O_PHASE + s.phase] = 1.0
        b[_O_DECISION + s.decision] = 1.0
        b[_O_ROUND] = min(1.0, s.round / self._max_rounds)
        if s.event >= 0:
            b[_O_EVENT + s.event] = 1.0
        if s.faction != m[_M_FACTION]:
            m[_M_FACTION] = s.faction[:]
            _clear(b, "faction")
            for q, o_fac, *_ in rows:
                f = s.faction[q]
                if f >= 0:
                    b[o_fac + f] = 1.0
        key = (s.ability, s.revealed)
        if key != m[_M_ABILITY]:
            m[_M_ABILITY] = (s.ability[:], s.revealed)
            _clear(b, "ability")
            for q, _f, o_ab, *_ in rows:
                ab = s.ability[q]
                if ab >= 0:
                    if s.revealed or q == player:
                        b[o_ab + ab] = 1.0
                    b[o_ab + 4] = 1.0
        if s.res != m[_M_RES]:
            m[_M_RES] = _nested_copy(s.res)
            _clear(b, "resources")
            _clear(b, "ether_progress")
            target = s.game.ether_to_win
            for q, _f, _a, o_res, o_eth, *_ in rows:
                row = s.res[q]
                for k in range(C.NUM_RES):
                    x = row[k]
                    if x:
                        b[o_res + k] = x / POOL[k]
                e = row[C.ETHER]
                if e:
                    b[o_eth] = min(1.0, e / target)
        if s.charge != m[_M_CHARGE]:
            m[_M_CHARGE] = s.charge[:]
            for q, _f, _a, _r, _e, o_ch, *_ in rows:
                b[o_ch] = s.charge[q] / C.CHARGE_POOL
        key = (s.home_units, s.reserve)
        if key != m[_M_UNITS]:
            m[_M_UNITS] = (s.home_units[:], s.reserve[:])
            for q, _f, _a, _r, _e, _c, o_un, *_ in rows:
                b[o_un] = s.home_units[q] / 10
                b[o_un + 1] = s.reserve[q] / 10
        if s.units_at != m[_M_BOARD]:
            m[_M_BOARD] = _nested_copy(s.units_at)
            _clear(b, "board_units")
            for q, _f, _a, _r, _e, _c, _u, o_bu, *_ in rows:
                row = s.units_at[q]
                if any(row):
                    for a, u in zip(RA, row):
                        if u:
                            b[o_bu + a] = u / 10
        if s.placed != m[_M_PLACED]:
            m[_M_PLACED] = s.placed[:]
            _clear(b, "placed")
            for q, _f, _a, _r, _e, _c, _u, _b, o_pl, *_ in rows:
                bits = s.placed[q]
                while bits:
                    low = bits & -bits
                    b[o_pl + RA[low.bit_length() - 1]] = 1.0
                    bits ^= low
        if s.hero_at != m[_M_HERO]:
            m[_M_HERO] = s.hero_at[:]
            _clear(b, "hero")
            for q, _f, _a, _r, _e, _c, _u, _b, _p, o_hero, *_ in rows:
                b[o_hero + RA[s.hero_at[q]]] = 1.0
        key = (s.passed, s.contract, s.rerolls, s.medic_free, s.channelled, s.extra_used, s.aggressive_silo)
        if key != m[_M_FLAGS]:
            m[_M_FLAGS] = tuple(x[:] for x in key)
            _clear(b, "seat_flags")
            for q, _f, _a, _r, _e, _c, _u, _b, _p, _h, o_fl, _s in rows:
                if s.passed[q]:
                    b[o_fl] = 1.0
                if s.contract[q]:
                    b[o_fl + 1] = 1.0
                if s.rerolls[q]:
                    b[o_fl + 2] = s.rerolls[q] / 3
                if s.medic_free[q]:
                    b[o_fl + 3] = s.medic_free[q] / 2
                if s.channelled[q]:
                    b[o_fl + 4] = 1.0
                if s.extra_used[q]:
                    b[o_fl + 5] = 1.0
                if s.aggressive_silo[q]:
                    b[o_fl + 6] = 1.0
        key = (s.merc_owner, s.merc_at)
        if key != m[_M_MERCS]:
            m[_M_MERCS] = (s.merc_owner[:], s.merc_at[:])
            _clear(b, "mercenaries")
            o = OFF["mercenaries"]
            for k in range(C.NUM_MERCS):
                q = s.merc_owner[k]
                if q >= 0:
                    b[o + k * (P4 + NA + 1) + RS_[q]] = 1.0
                    b[o + k * (P4 + NA + 1) + P4 + RA[s.merc_at[k]]] = 1.0
        _clear(b, "ether_die")
        o = OFF["ether_die"]
        if s.ether_ctrl >= 0:
            b[o + RS_[s.ether_ctrl]] = 1.0
        if s.ether_placed:
            b[o + P4] = 1.0
        if s.arrival != m[_M_ARRIVAL]:
            m[_M_ARRIVAL] = _nested_copy(s.arrival)
            _clear(b, "arrival")
            o = OFF["arrival"]
            for a, seats in zip(RA, s.arrival):
                if seats:
                    base = o + a * P4
                    for q, rank in zip(seats, _ARRIVAL_RANK):
                        b[base + RS_[q]] = rank
        if s.hand != m[_M_HAND]:
            m[_M_HAND] = _nested_copy(s.hand)
            _clear(b, "hand")
            o = OFF["hand"]
            for f, c in enumerate(s.hand[player]):
                if c:
                    b[o + f] = c / 4
            for q, *_, o_hs in rows:
                b[o_hs] = sum(s.hand[q]) / 22
        if s.packs[player] != m[_M_PACK]:
            _write_counts(b, m, _M_PACK, "draft_pack", s.packs[player], 0.2)
        if s.fdiscard != m[_M_FDISCARD]:
            _write_counts(b, m, _M_FDISCARD, "favour_discard", s.fdiscard, 0.25)
        b[_O_DECKS] = len(s.fdeck) / _FAVOUR_DECK_SIZE
        b[_O_DECKS + 1] = len(s.edeck) / _EVENT_DECK_SIZE
        if s.ediscard != m[_M_EDISCARD]:
            _write_counts(b, m, _M_EDISCARD, "event_discard", s.ediscard, 0.5)
        b[_MOVE] = _ZEROS_MOVE
        if s.decision == K_ADD and s.add_area >= 0:
            o = OFF["placement"]
            b[o + RA[s.add_area]] = 1.0
            b[o + NA] = min(1.0, s.add_count / 10)
        if s.decision == K_MOVE_TO:
            kind, a = divmod(s.move_pick, NA)
            b[OFF["move_pick"] + kind * NA + RA[s.abs_area(s.decider, a)]] = 1.0
        resolving = s.resolving
        if resolving is not None or s.gain_left > 0 or m[_M_RC]:
            b[_RC] = _ZEROS["_rc"]
            m[_M_RC] = resolving is not None or s.gain_left > 0
            if resolving is not None:
                self._encode_resolving(b, resolving, RS_, RA)
            elif s.gain_left > 0:
                b[OFF["rc_misc"]] = min(1.0, s.gain_left / 10)
        window = s.window
        if window is not None or m[_M_WINDOW]:
            b[_WINDOW] = _ZEROS["_window"]
            m[_M_WINDOW] = window is not None
            if window is not None:
                o = OFF["window"]
                b[o + window.kind] = 1.0
                if window.seat >= 0:
                    b[o + len(WINDOW_NAMES) + RS_[window.seat]] = 1.0
                o = OFF["stack"]
                sw = P4 + NF + 1
                for j, (q, f, cancelled) in enumerate(window.stack[:STACK]):
                    b[o + j * sw + RS_[q]] = 1.0
                    b[o + j * sw + P4 + f] = 1.0
                    if cancelled:
                        b[o + j * sw + P4 + NF] = 1.0
                if window.smuggle_target >= 0:
                    b[OFF["smuggle_target"] + RS_[window.smuggle_target]] = 1.0
        out[:] = self._views[player]

    @staticmethod
    def _encode_resolving(b: array, resolving, RS_: list[int], RA: list[int]) -> None:
        """The area being resolved (its pieces zeroed by the caller)."""
        b[OFF["rc_area"] + RA[resolving.area]] = 1.0
        b[OFF["rc_stage"] + resolving.stage] = 1.0
        b[OFF["rc_mode"] + resolving.mode] = 1.0
        b[OFF["rc_resolver"] + RS_[resolving.resolver]] = 1.0
        o = OFF["rc_parts"]
        for q in resolving.participants:
            b[o + RS_[q]] = 1.0
        o_f, o_h, o_c, o_n = OFF["rc_faces"], OFF["rc_hero"], OFF["rc_captain"], OFF["rc_numbers"]
        for q in resolving.participants:  # only rolling seats have faces, dice and scores
            r = RS_[q]
            base = o_f + r * 6
            faces = resolving.faces[q]
            if faces:
                for f in faces:
                    b[base + f] += 1.0
                for f in range(base, base + 6):
                    if b[f]:
                        b[f] /= 10
            if resolving.hero[q] >= 0:
                b[o_h + r * 6 + resolving.hero[q]] = 1.0
            if resolving.captain[q] >= 0:
                b[o_c + r * 6 + resolving.captain[q]] = 1.0
            base = o_n + r * 5
            b[base] = resolving.extra_pips[q] / 12
            b[base + 1] = min(1.0, resolving.bonus[q] / 20)
            b[base + 2] = min(1.0, resolving.score[q] / 80)
        for q, k in resolving.injuries:
            b[o_n + RS_[q] * 5 + 3] = k / 10
        for q, k in enumerate(resolving.assassin_hits):
            if k:
                b[o_n + RS_[q] * 5 + 4] = k / 10
        if resolving.winner >= 0:
            b[OFF["rc_winner"] + RS_[resolving.winner]] = 1.0
        o = OFF["rc_misc"]
        for j, x in enumerate((resolving.picks_left / 10, resolving.raid_points / 80, resolving.purchases_left / 2,
                               resolving.purchase_credit / 40, resolving.free_shields / 4,
                               len(resolving.skill_seats) / 4)):
            if x:
                b[o + j] = min(1.0, x)
        if resolving.purchase_target >= 0:
            b[OFF["rc_target"] + resolving.purchase_target] = 1.0
