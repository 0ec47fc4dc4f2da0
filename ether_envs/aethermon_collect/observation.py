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
_HOLDER_COLS = slice(F["set_held_by_seat_0"], F["set_held_by_seat_3"] + 1)
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
# the last row (index NUM_CARDS) is "no card"
_CARD_FEATURES = np.zeros((C.NUM_CARDS + 1, 14), dtype=np.float32)
for _c in C.CARDS:
    _CARD_FEATURES[_c.card_id, 0] = 1
    _CARD_FEATURES[_c.card_id, 1] = _c.value / C.MAX_CARD_VALUE
    _CARD_FEATURES[_c.card_id, 2 + _c.element_id] = 1
    _CARD_FEATURES[_c.card_id, 10 + (3 - _c.set_size)] = 1
    _CARD_FEATURES[_c.card_id, 13] = _c.stage / 3
_CARD_SET = np.array([c.set_id for c in C.CARDS] + [-1], dtype=np.int64)


class Encoder:
    """Writes :data:`LAYOUT` for one observer. Reads only what that seat may see:
    everything is public except Artefact identities under "Hidden Artefacts"."""

    layout = LAYOUT

    def __init__(self, game):
        self.game = game
        self._in_grid = game.in_grid.astype(np.float32)
        self._buf, self._v = LAYOUT.new_buffer()
        cfg = game.config
        mode = np.array([cfg.cooperative, cfg.teams, cfg.hidden_artefacts, cfg.redistribute_artefacts,
                         cfg.artefacts == "triples" and cfg.uses_artefacts], dtype=np.float32)
        self._static = {
            "mode": mode,
            "num_players": np.eye(3, dtype=np.float32)[game.num_players - 2],
            "seat_present": (np.arange(MAX_PLAYERS) < game.num_players).astype(np.float32),
            "coop_target": np.array([C.COOP_TARGETS[game.num_players][cfg.target] / MAX_SCORE if cfg.cooperative else 0],
                                    dtype=np.float32),
        }

    def encode(self, s, player: int, out: np.ndarray) -> np.ndarray:
        """Fill ``out`` (float32, shape ``(LAYOUT.size,)``) with ``player``'s view."""
        g = self.game
        n = g.num_players
        v = self._v
        self._buf[:] = 0
        for k, arr in self._static.items():
            v[k][...] = arr
        rel = lambda q: (q - player) % n  # noqa: E731
        sqv = v["squares"]
        board = s.board.astype(np.int64)
        idx = np.where(board >= 0, board, C.NUM_CARDS)
        sqv[:, F["in_grid"]] = self._in_grid
        sqv[s.token, F["token"]] = 1
        sqv[:, _CARD_COLS] = _CARD_FEATURES[idx]
        # set holders per relative seat
        holders = np.zeros((MAX_PLAYERS, C.NUM_SETS + 1), dtype=np.float32)  # last column: no set
        owned = np.flatnonzero(s.owner >= 0)
        for c in owned:
            q = rel(int(s.owner[c]))
            v["collections"][q, c] = 1
            holders[q, _CARD_SET[c]] = 1
        holders[:, -1] = 0
        sqv[:, _HOLDER_COLS] = holders[:, _CARD_SET[idx]].T
        for q in range(n):
            v["scores"][rel(q)] = s.score(q) / MAX_SCORE
            if s.satchel_set[q] >= 0:
                v["satchel_sets"][rel(q), s.satchel_set[q]] = 1
        v["first_player"][rel(s.first_player)] = 1
        if not s.is_terminal():
            v["current_player"][rel(s.decider)] = 1
        v["turn_player"][rel(s.turn_player)] = 1
        v["phase"][s.phase] = 1
        if s.pending >= 0:
            v["pending_effect"][s.pending] = 1
        if s.trade_card >= 0:
            v["trade_card"][s.trade_card] = 1
        self._artefacts(s, player, v, rel)
        for q in range(n):
            if s.streak[q]:
                v["no_collect_streak"][rel(q)] = 1
            if s.axis[q] >= 0:
                v["axis"][rel(q), s.axis[q]] = 1
        v["turn_flags"][:] = (s.collected, s.no_collect_turn, s.extra_turn)
        if s.fence_row >= 0:
            v["fence"][s.fence_row] = 1
            v["fence"][C.MAX_SIDE + rel(s.fence_seat)] = 1
        v["elements_in_play"][s.elements] = 1
        out[:] = self._buf
        return out

    def _artefacts(self, s, player, v, rel) -> None:
        if not self.game.config.uses_artefacts:
            return
        known = s.known[player]
        for a in range(NA):
            o = s.art_owner[a]
            if o >= 0:
                if s.art_used[a]:
                    v["artefacts_used"][rel(o), a] = 1
                elif known[a]:
                    v["artefacts_held"][rel(o), a] = 1
                else:
                    v["artefacts_held_unknown"][rel(o)] += 1 / NA
        for gi, grp in enumerate(s.groups):
            for a in grp:
                if known[a]:
                    v["draft_groups"][gi, a] = 1
                else:
                    v["draft_groups_unknown"][gi] += 1 / 3
            if s.group_owner[gi] >= 0:
                v["draft_groups_taken"][gi, rel(s.group_owner[gi])] = 1
        for a in s.leftover:
            if known[a]:
                v["leftover_artefacts"][a] = 1
            else:
                v["leftover_unknown"][0] += 1 / NA
        sqv = v["squares"]
        for sq in np.flatnonzero(s.art_square >= 0):
            sqv[sq, F["artefact_present"]] = 1
            a = s.art_square[sq]
            if known[a]:
                sqv[sq, _ART_ID0 + a] = 1
        e = s.last_opponent_effect(player)
        if e >= 0:
            v["last_opponent_artefact"][e] = 1
