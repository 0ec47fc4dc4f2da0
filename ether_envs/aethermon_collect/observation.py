"""Aethermon: Collect observation encoder (seat-relative, padded to 4 seats).

Seat-relative means: index 0 of every per-seat piece is the observer, then the
other seats in turn order (clockwise); seats beyond the player count are zero.
Squares use the fixed 7x7 frame of ``rules`` (``square = row * 7 + col``).
"""

from __future__ import annotations

import numpy as np

from ..core import ObservationLayout, Piece
from . import components as C
from . import rules as R

MAX_PLAYERS = 4
SQ = C.MAX_SQUARES
NA = C.NUM_ARTEFACTS
PHASES = len(R.PHASE_NAMES)
PENDING_KINDS = NA + 1  # an artefact effect, or the Trade Token's second step
MAX_SCORE = float(len(C.ELEMENTS) * 26)  # 208: every card, every set complete

SQUARE_FEATURES = (
    ["in_grid", "token", "card_present", "card_value"]
    + [f"element_{e}" for e in C.ELEMENTS]
    + ["line_trio", "line_duo", "line_none", "card_stage"]
    + [f"set_held_by_seat_{k}" for k in range(MAX_PLAYERS)]
    + ["artefact_present"] + [f"artefact_{a.key}" for a in C.ARTEFACTS]
)
"""Columns of the ``squares`` piece, one row per square of the 7x7 frame."""
F = {name: i for i, name in enumerate(SQUARE_FEATURES)}
_CARD_COLS = slice(F["card_present"], F["card_stage"] + 1)
_ART_ID0 = F["artefact_beetle"]

PIECES = [
    Piece("squares", (SQ, len(SQUARE_FEATURES)), 0, 1,
          "per square (row*7+col): in_grid, token, card_present, card_value (/4), element one-hot (8), "
          "line trio/duo/none, card_stage (/3), set_held_by relative seat (4), artefact_present, "
          "artefact identity one-hot (12, if known); see observation.SQUARE_FEATURES"),
    Piece("collections", (MAX_PLAYERS, C.NUM_CARDS), 0, 1, "per relative seat: cards collected (card id)"),
    Piece("scores", (MAX_PLAYERS,), 0, 1, "per relative seat: current score / 208"),
    Piece("seat_present", (MAX_PLAYERS,), 0, 1, "1 for seats in the game"),
    Piece("first_player", (MAX_PLAYERS,), 0, 1, "relative seat first in turn order, one-hot"),
    Piece("current_player", (MAX_PLAYERS,), 0, 1, "relative seat deciding now, one-hot (zeros at the end)"),
    Piece("turn_player", (MAX_PLAYERS,), 0, 1, "relative seat whose turn it is, one-hot"),
    Piece("phase", (PHASES,), 0, 1, "one-hot: " + ", ".join(R.PHASE_NAMES)),
    Piece("pending_effect", (PENDING_KINDS,), 0, 1, "Artefact effect awaiting its target (12 = Trade Token take)"),
    Piece("trade_card", (C.NUM_CARDS,), 0, 1, "card chosen to give by a pending Trade Token"),
    Piece("artefacts_held", (MAX_PLAYERS, NA), 0, 1, "per relative seat: unused Artefacts held, if known"),
    Piece("artefacts_held_unknown", (MAX_PLAYERS,), 0, 1, "per relative seat: unused Artefacts held but unknown / 12"),
    Piece("artefacts_used", (MAX_PLAYERS, NA), 0, 1, "per relative seat: Artefacts used (public)"),
    Piece("draft_groups", (C.MAX_GROUPS, NA), 0, 1, "Artefact groups: contents known to the observer"),
    Piece("draft_groups_unknown", (C.MAX_GROUPS,), 0, 1, "Artefact groups: unknown contents / 3"),
    Piece("draft_groups_taken", (C.MAX_GROUPS, MAX_PLAYERS), 0, 1, "relative seat that took each group"),
    Piece("leftover_artefacts", (NA,), 0, 1, "leftover (undrafted) Artefacts known to the observer"),
    Piece("leftover_unknown", (1,), 0, 1, "leftover Artefacts of unknown identity / 12"),
    Piece("last_opponent_artefact", (NA,), 0, 1, "effect a Mirror would copy for the observer, one-hot"),
    Piece("no_collect_streak", (MAX_PLAYERS,), 0, 1,
          "relative seats that had a turn without collecting since the last collection"),
    Piece("turn_flags", (3,), 0, 1, "collected this turn, Stopwatch extra turn now, extra turn next"),
    Piece("fence", (C.MAX_SIDE + MAX_PLAYERS,), 0, 1, "Fence: forbidden row one-hot, then the relative seat it binds"),
    Piece("axis", (MAX_PLAYERS, 2), 0, 1, "2-player co-op axis per relative seat: horizontal / vertical"),
    Piece("mode", (5,), 0, 1, "cooperative, teams, hidden artefacts, redistribute, triples"),
    Piece("num_players", (3,), 0, 1, "one-hot 2, 3, 4"),
    Piece("elements_in_play", (8,), 0, 1, "elements used in this game"),
    Piece("coop_target", (1,), 0, 1, "co-operative target score / 208 (0 in competitive games)"),
    Piece("satchel_sets", (MAX_PLAYERS, C.NUM_SETS), 0, 1, "per relative seat: set counted complete by a Satchel"),
]
LAYOUT = ObservationLayout(PIECES)

# static per-card features (present, value/4, element one-hot, line one-hot, stage/3);
# the last row (index -1, i.e. "card id -1") is "no card"
_CARD_FEATURES = np.zeros((C.NUM_CARDS + 1, 14), dtype=np.float32)
for _c in C.CARDS:
    _CARD_FEATURES[_c.card_id, 0] = 1
    _CARD_FEATURES[_c.card_id, 1] = _c.value / C.MAX_CARD_VALUE
    _CARD_FEATURES[_c.card_id, 2 + _c.element_id] = 1
    _CARD_FEATURES[_c.card_id, 10 + (3 - _c.set_size)] = 1
    _CARD_FEATURES[_c.card_id, 13] = _c.stage / 3
# set of each card as a column index; "no set" and "no card" map to the last (always-zero) column
_SET_ID = [c.set_id for c in C.CARDS]
_NF = len(SQUARE_FEATURES)
_HOLDER0 = F["set_held_by_seat_0"]


class Encoder:
    """Writes :data:`LAYOUT` for one observer. Reads only what that seat may see:
    everything is public except Artefact identities under "Hidden Artefacts".

    Static pieces are written once into a template; each call copies the template
    and fills the dynamic pieces with a few vectorised operations.
    """

    layout = LAYOUT

    def __init__(self, game):
        self.game = game
        n = game.num_players
        cfg = game.config
        self._template, tv = LAYOUT.new_buffer()
        tv["squares"][:, F["in_grid"]] = game.in_grid
        tv["mode"][:] = (cfg.cooperative, cfg.teams, cfg.hidden_artefacts, cfg.redistribute_artefacts,
                         cfg.artefacts == "triples" and cfg.uses_artefacts)
        tv["num_players"][n - 2] = 1
        tv["seat_present"][:n] = 1
        if cfg.cooperative:
            tv["coop_target"][0] = C.COOP_TARGETS[n][cfg.target] / MAX_SCORE
        self._buf, self._v = LAYOUT.new_buffer()
        # relative seat of each absolute owner (index owner + 1; -1 -> 4 = nobody), per observer
        self._rel_index = [[MAX_PLAYERS] + [(q - p) % n for q in range(n)] for p in range(n)]
        self._order = [[(p + k) % n for k in range(n)] for p in range(n)]
        self._uses_artefacts = cfg.uses_artefacts
        sl = LAYOUT.slices
        self._off = {k: sl[k].start for k in sl}

    def encode(self, s, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """``player``'s view of state ``s``: float32, shape ``(LAYOUT.size,)``.
        Written into ``out`` when given, else a new array."""
        n = self.game.num_players
        buf = self._buf
        off = self._off
        buf[:] = self._template
        sqv = self._v["squares"]
        sqv[:, _CARD_COLS] = _CARD_FEATURES.take(np.asarray(s.board, dtype=np.intp), axis=0)
        sq0 = off["squares"]
        if s.token >= 0:  # 3 players: no token until the last player places it
            buf[sq0 + s.token * _NF + 1] = 1
        rel = self._rel_index[player]
        # collections and, per square, which relative seats hold a card of its set
        coll0 = off["collections"]
        card_square = s.card_square
        for q in range(n):
            r = rel[q + 1]
            base = coll0 + r * C.NUM_CARDS
            sets = set()
            for c in s.collections[q]:
                buf[base + c] = 1
                sets.add(_SET_ID[c])
            for st in sets:
                if st >= 0:
                    for m in C.SET_CARDS[st]:
                        sq = card_square[m]
                        if sq >= 0:
                            buf[sq0 + sq * _NF + _HOLDER0 + r] = 1
        order = self._order[player]
        score = s.score_cache
        sc = off["scores"]
        for k in range(n):
            buf[sc + k] = score[order[k]] / MAX_SCORE
        buf[off["first_player"] + rel[s.first_player + 1]] = 1
        if s.phase != R.OVER:
            buf[off["current_player"] + rel[s.decider + 1]] = 1
        buf[off["turn_player"] + rel[s.turn_player + 1]] = 1
        buf[off["phase"] + s.phase] = 1
        if s.pending >= 0:
            buf[off["pending_effect"] + s.pending] = 1
        if s.trade_card >= 0:
            buf[off["trade_card"] + s.trade_card] = 1
        if self._uses_artefacts:
            self._artefacts(s, player, rel)
        streak, axis = s.streak, s.axis
        for q in range(n):
            if streak[q]:
                buf[off["no_collect_streak"] + rel[q + 1]] = 1
            if axis[q] >= 0:
                buf[off["axis"] + 2 * rel[q + 1] + axis[q]] = 1
            if s.satchel_set[q] >= 0:
                buf[off["satchel_sets"] + C.NUM_SETS * rel[q + 1] + s.satchel_set[q]] = 1
        tf = off["turn_flags"]
        buf[tf] = s.collected
        buf[tf + 1] = s.no_collect_turn
        buf[tf + 2] = s.extra_turn
        if s.fence_row >= 0:
            buf[off["fence"] + s.fence_row] = 1
            buf[off["fence"] + C.MAX_SIDE + rel[s.fence_seat + 1]] = 1
        el = off["elements_in_play"]
        for e in s.elements:
            buf[el + e] = 1
        if out is None:
            return buf.copy()
        out[:] = buf
        return out

    def _artefacts(self, s, player: int, rel) -> None:
        buf = self._buf
        off = self._off
        known = s.known[player]
        held0, unknown0, used0 = off["artefacts_held"], off["artefacts_held_unknown"], off["artefacts_used"]
        for q in range(self.game.num_players):
            r = rel[q + 1]
            for a in s.held[q]:
                if known[a]:
                    buf[held0 + r * NA + a] = 1
                else:
                    buf[unknown0 + r] += 1 / NA
        for a, used in enumerate(s.art_used):
            if used:
                buf[used0 + rel[s.art_owner[a] + 1] * NA + a] = 1
        g0, gu0, gt0 = off["draft_groups"], off["draft_groups_unknown"], off["draft_groups_taken"]
        for gi, grp in enumerate(s.groups):
            for a in grp:
                if known[a]:
                    buf[g0 + gi * NA + a] = 1
                else:
                    buf[gu0 + gi] += 1 / 3
            if s.group_owner[gi] >= 0:
                buf[gt0 + gi * MAX_PLAYERS + rel[s.group_owner[gi] + 1]] = 1
        for a in s.leftover:
            if known[a]:
                buf[off["leftover_artefacts"] + a] = 1
            else:
                buf[off["leftover_unknown"]] += 1 / NA
        if s.redistributed:
            sq0 = off["squares"]
            for sq, a in enumerate(s.art_square):
                if a >= 0:
                    buf[sq0 + sq * _NF + F["artefact_present"]] = 1
                    if known[a]:
                        buf[sq0 + sq * _NF + _ART_ID0 + a] = 1
        e = s.last_opponent_effect(player)
        if e >= 0:
            buf[off["last_opponent_artefact"] + e] = 1
