"""Aethermon: Collect observation encoder (seat-relative, padded to 4 seats).

Seat-relative means: index 0 of every per-seat piece is the observer, then the
other seats in turn order (clockwise); seats beyond the player count are zero.
Squares use the fixed 7x7 frame of ``rules`` (``square = row * 7 + col``).

The encoder is incremental: each state keeps, per observer seat, the last
observation it encoded (private ``_obs_seats``, dropped by ``clone()`` and pickling;
the shared ``_obs_base`` and the journals of ``fast.py``, copied by ``clone()``)
and rewrites only what changed since: the Aethermon
collected since and the drafts and Artefact uses since (journals the rules
append to), all the Artefact entries when an Artefact changed hands or was
seen otherwise (or on any Artefact event under "Hidden Artefacts" or
"Redistribute Artefacts"), and the collectors' scores; the few entries that
change every turn (token, phase, players to act, streaks ...; every score once
the game is ending, when a Satchel may change them) are written into each
returned copy.
"""

from __future__ import annotations

import numpy as np

from typing import NamedTuple

from ..core import ObservationLayout, Piece
from . import components as C
from . import fast
from .codec import OVER, PHASE_NAMES, SATCHEL, TURN

MAX_PLAYERS = 4
SQ = C.MAX_SQUARES
NA = C.NUM_ARTEFACTS
PHASES = len(PHASE_NAMES)
PENDING_KINDS = NA + 1  # an artefact effect, or the Trade Token's second step
MAX_SCORE = float(len(C.ELEMENTS) * C.ELEMENT_MAX_POINTS)  # 208: every card, every set complete

SQUARE_FEATURES = (
    ["in_grid", "token", "card_present", "card_value"]
    + [f"element_{e}" for e in C.ELEMENTS]
    + ["line_trio", "line_duo", "line_none", "card_stage"]
    + [f"set_held_by_seat_{k}" for k in range(MAX_PLAYERS)]
    + ["artefact_present"] + [f"artefact_{a.key}" for a in C.ARTEFACTS]
)
"""Columns of the ``squares`` piece, one row per square of the 7x7 frame."""
F = {name: i for i, name in enumerate(SQUARE_FEATURES)}
_ART_ID0 = F["artefact_beetle"]

PIECES = [
    Piece("squares", (SQ, len(SQUARE_FEATURES)), 0, 1,
          f"per square (row*{C.MAX_SIDE}+col): in_grid, token, card_present, card_value (/{C.MAX_CARD_VALUE}), "
          f"element one-hot ({len(C.ELEMENTS)}), line trio/duo/none, card_stage (/{C.MAX_STAGE}), "
          "set_held_by relative seat (4), artefact_present, "
          "artefact identity one-hot (12, if known); see observation.SQUARE_FEATURES"),
    Piece("collections", (MAX_PLAYERS, C.NUM_CARDS), 0, 1, "per relative seat: cards collected (card id)"),
    Piece("scores", (MAX_PLAYERS,), 0, 1, "per relative seat: current score / 208"),
    Piece("seat_present", (MAX_PLAYERS,), 0, 1, "1 for seats in the game"),
    Piece("first_player", (MAX_PLAYERS,), 0, 1, "relative seat first in turn order, one-hot"),
    Piece("current_player", (MAX_PLAYERS,), 0, 1, "relative seat deciding now, one-hot (zeros at the end)"),
    Piece("turn_player", (MAX_PLAYERS,), 0, 1, "relative seat whose turn it is, one-hot"),
    Piece("phase", (PHASES,), 0, 1, "one-hot: " + ", ".join(PHASE_NAMES)),
    Piece("pending_effect", (PENDING_KINDS,), 0, 1, "Artefact effect awaiting its target (12 = Trade Token take)"),
    Piece("trade_card", (C.NUM_CARDS,), 0, 1, "card chosen to give by a pending Trade Token"),
    Piece("artefacts_held", (MAX_PLAYERS, NA), 0, 1, "per relative seat: unused Artefacts held, if known"),
    Piece("artefacts_held_unknown", (MAX_PLAYERS,), 0, 1, "per relative seat: unused Artefacts held but unknown / 12"),
    Piece("artefacts_used", (MAX_PLAYERS, NA), 0, 1, "per relative seat: Artefacts used (public)"),
    Piece("draft_groups", (C.MAX_GROUPS, NA), 0, 1, "Artefact groups: contents known to the observer"),
    Piece("draft_groups_unknown", (C.MAX_GROUPS,), 0, 1, f"Artefact groups: unknown contents / {C.MAX_ARTEFACTS_PER_GROUP}"),
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

# static per-card features (present, value/MAX_CARD_VALUE, element one-hot, line one-hot, stage/MAX_STAGE),
# then the 4 set_held_by columns (zero here); the last row (index -1, i.e. "card id -1") is "no card"
_CARD_FEATURES = np.zeros((C.NUM_CARDS + 1, 18), dtype=np.float32)
for _c in C.CARDS:
    _CARD_FEATURES[_c.card_id, 0] = 1
    _CARD_FEATURES[_c.card_id, 1] = _c.value / C.MAX_CARD_VALUE
    _CARD_FEATURES[_c.card_id, 2 + _c.element_id] = 1
    _CARD_FEATURES[_c.card_id, 10 + (3 - _c.set_size)] = 1
    _CARD_FEATURES[_c.card_id, 13] = _c.stage / C.MAX_STAGE
SQUARE_WIDTH = len(SQUARE_FEATURES)
# the same as whole rows of the squares piece (in_grid left 0); the last row (card id -1) is zero
_CARD_ROWS = np.zeros((C.NUM_CARDS + 1, SQUARE_WIDTH), dtype=np.float32)
_CARD_ROWS[:, F["card_present"]:F["card_present"] + 18] = _CARD_FEATURES
_NC = C.NUM_CARDS
_CARD0 = F["card_present"]  # columns _CARD0 .. _CARD0 + 17: card features, then set_held_by
_HOLDER0 = F["set_held_by_seat_0"]
assert _HOLDER0 == _CARD0 + 14
_ART_PRESENT = F["artefact_present"]
_ART_ID0 = F["artefact_beetle"]
_ZERO_ROW = memoryview(np.zeros(18, dtype=np.float32))
_NONE_USED = [False] * NA  # State.art_used before any Artefact is used


def _float32_sums(step: float, count: int) -> list[float]:
    """``k`` successive float32 additions of ``step`` to 0, for k = 0..count (the
    counts of unknown Artefacts are written as these sums)."""
    v, out = np.float32(0), [0.0]
    for _ in range(count):
        v = v + step
        out.append(float(v))
    return out


assert SATCHEL < OVER and PHASE_NAMES[SATCHEL + 1:] == ("over",)
_UNKNOWN_NA = _float32_sums(1 / NA, NA)
_UNKNOWN_IN_GROUP = _float32_sums(1 / C.MAX_ARTEFACTS_PER_GROUP, C.MAX_ARTEFACTS_PER_GROUP)
_OFF = {name: sl.start for name, sl in LAYOUT.slices.items()}
_COLL0, _SCORES0, _PHASE0, _TURN_PLAYER0, _CURRENT_PLAYER0, _TURN_FLAGS0 = (
    _OFF[k] for k in ("collections", "scores", "phase", "turn_player", "current_player", "turn_flags"))
_ELEMENTS0, _FIRST_PLAYER0 = _OFF["elements_in_play"], _OFF["first_player"]
_PENDING0, _TRADE_CARD0, _FENCE0, _STREAK0, _AXIS0, _SATCHEL0 = (
    _OFF[k] for k in ("pending_effect", "trade_card", "fence", "no_collect_streak", "axis", "satchel_sets"))
_HELD0, _HELD_UNKNOWN0, _USED0, _GROUPS0, _GROUPS_UNKNOWN0, _TAKEN0, _LEFTOVER0, _LEFTOVER_UNKNOWN0, _LAST_OPPONENT0 = (
    _OFF[k] for k in ("artefacts_held", "artefacts_held_unknown", "artefacts_used", "draft_groups",
                      "draft_groups_unknown", "draft_groups_taken", "leftover_artefacts", "leftover_unknown",
                      "last_opponent_artefact"))


class _SeatView:
    """One observer's last observation of one state, without the entries of the
    turn (zero here).

    Attributes:
        buffer: float32, the layout's size.
        entries: a memoryview of ``buffer``, for single writes.
        collections_seen: entries of the state's collection journal written.
        artefact_version: the state's Artefact version written.
        artefact_events_seen: entries of the state's Artefact journal written.
    """

    __slots__ = ("buffer", "entries", "collections_seen", "artefact_version", "artefact_events_seen")


class _Base(NamedTuple):
    """The static part of a state's observations (``State._obs_base``, shared by its clones)."""

    buffer: np.ndarray  # the static pieces and the grid's cards as they were when it was built
    collections_seen: int  # entries of the collection journal then


class Encoder:
    """Writes :data:`LAYOUT` for one observer. Reads only what that seat may see:
    everything is public except Artefact identities under "Hidden Artefacts".

    Incremental: a state's first observation is built from a per-state base (the
    static pieces and the starting grid, shared by clones), then each call
    rewrites only what changed (see the module docstring).
    """

    layout = LAYOUT

    def __init__(self, game):
        self.game = game
        n = self.n = game.num_players
        cfg = game.config
        self._template, tv = LAYOUT.new_buffer()
        tv["squares"][:, F["in_grid"]] = game.in_grid
        self._in_grid = tv["squares"][:, F["in_grid"]].copy()
        tv["mode"][:] = (cfg.cooperative, cfg.teams, cfg.hidden_artefacts, cfg.redistribute_artefacts,
                         cfg.artefacts == "triples" and cfg.uses_artefacts)
        tv["num_players"][n - 2] = 1
        tv["seat_present"][:n] = 1
        if cfg.cooperative:
            tv["coop_target"][0] = C.COOP_TARGETS[n][cfg.target] / MAX_SCORE
        # relative seat of each absolute owner (index owner + 1; -1 -> 4 = nobody), per observer
        self._rel_index = [[MAX_PLAYERS] + [(q - p) % n for q in range(n)] for p in range(n)]
        self._rel = [[(q - p) % n for q in range(n)] for p in range(n)]
        self._order = [[(p + k) % n for k in range(n)] for p in range(n)]
        self._uses_artefacts = cfg.uses_artefacts
        self._no_satchel = [-1] * n
        self._no_axis = [-1] * n
        self._no_streak = [False] * n
        self._axis_rule = game.axis_rule  # the only games where an axis is set
        sl = LAYOUT.slices
        # Artefact groups' and leftovers' contents never change when every Artefact is
        # known and none is redistributed: written into the base, else on every change
        self._art_contents_fixed = not (cfg.hidden_artefacts or cfg.redistribute_artefacts)
        spans = [("artefacts_held", "artefacts_used"), ("draft_groups_taken", "draft_groups_taken"),
                 ("last_opponent_artefact", "last_opponent_artefact")]
        if not self._art_contents_fixed:
            spans += [("draft_groups", "draft_groups_unknown"), ("leftover_artefacts", "leftover_unknown")]
        self._last_zero = memoryview(np.zeros(NA, dtype=np.float32))
        # opponent[p][q]: whether seat q is an opponent of p (2 vs 2: not the partner)
        self._opponent = [[q != p and not (cfg.teams and q == (p + 2) % 4) for q in range(n)] for p in range(n)]
        self._art_spans = [(sl[a].start, sl[b].stop, memoryview(np.zeros(sl[b].stop - sl[a].start, dtype=np.float32)))
                           for a, b in spans]

    # ---- public ------------------------------------------------------------------
    def encode(self, s, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """``player``'s view of state ``s``: float32, shape ``(LAYOUT.size,)``.
        Written into ``out`` when given, else a new array."""
        seats = s._obs_seats
        if seats is None:
            seats = s._obs_seats = [None] * self.n
        v = seats[player]
        if v is None:
            v = seats[player] = self._new_view(s, player)
        rel = self._rel[player]
        # bring the view up to date (this runs on every call: the steps written out)
        log = s._collection_log
        if v.collections_seen != len(log):  # the Aethermon collected since, and the collectors' scores
            entries = v.entries
            card_square = s.card_square
            score = s.score_cache
            for card, sq, q in log[v.collections_seen:]:
                row = sq * SQUARE_WIDTH + _CARD0
                entries[row:row + 18] = _ZERO_ROW
                r = rel[q]
                entries[_COLL0 + r * _NC + card] = 1.0
                entries[_SCORES0 + r] = score[q] / MAX_SCORE
                for m in C.SET_OTHERS[card]:
                    sqm = card_square[m]
                    if sqm >= 0:
                        entries[sqm * SQUARE_WIDTH + _HOLDER0 + r] = 1.0
            v.collections_seen = len(log)
        if self._uses_artefacts and (v.artefact_events_seen != len(s._artefact_log)
                                     or v.artefact_version != s._artefact_version):
            self._artefacts_update(s, player, v)
        if out is None:
            out = v.buffer.copy()
            mo = memoryview(out)
        else:
            try:  # a memoryview copies, and then writes single entries, cheaper than numpy
                mo = memoryview(out)
                mo[:] = v.entries
            except (TypeError, ValueError):  # not a float32 vector: let numpy convert
                out[:] = self.encode(s, player)
                return out
        # the entries that change nearly every turn (token, phase, players to act,
        # turn flags, streaks ...; outside the TURN phase also the rarer ones, and
        # in the SATCHEL and OVER phases every score), written into the copy
        phase = s.phase
        mo[_PHASE0 + phase] = 1.0
        mo[_TURN_PLAYER0 + rel[s.turn_player]] = 1.0
        if phase == TURN:  # the common case
            mo[_CURRENT_PLAYER0 + rel[s.decider]] = 1.0
            if s.no_collect_turn or s.extra_turn or s.fence_row >= 0:
                self._rare_entries(s, rel, mo)
            if self._axis_rule and s.axis != self._no_axis:  # (Satchel sets are chosen at the end)
                self._seat_entries(s, rel, mo)
        else:
            if phase != OVER:
                mo[_CURRENT_PLAYER0 + rel[s.decider]] = 1.0
            self._rare_entries(s, rel, mo)
            if s.axis != self._no_axis or s.satchel_set != self._no_satchel:
                self._seat_entries(s, rel, mo)
            if phase >= SATCHEL:  # a Satchel changes scores at the end, outside the journal
                self._scores(s, player, mo)
        token = s.token
        if token >= 0:  # 3 players: no token until the last player places it
            mo[token * SQUARE_WIDTH + 1] = 1.0
        if s.collected:
            mo[_TURN_FLAGS0] = 1.0
        if s.streak != self._no_streak:  # seats that had a turn without collecting since the last collection
            for q, on in enumerate(s.streak):
                if on:
                    mo[_STREAK0 + rel[q]] = 1.0
        return out

    def encode_uncached(self, s, player: int) -> np.ndarray:
        """The same observation built from scratch, without reading or writing the
        state's caches (for tests of the incremental path): :meth:`encode` of a
        shallow copy of ``s`` without them."""
        t = object.__new__(type(s))
        t.__dict__.update(s.__dict__)
        t._drop_observation_caches()
        return self.encode(t, player)

    # ---- building ------------------------------------------------------------------
    def _new_base(self, s):
        """The static pieces, the grid's cards as they are now and, when they are
        fixed, the Artefact groups' and leftovers' contents (no seat-relative
        entries): ``(buffer, journal length)``."""
        base = self._template.copy()
        squares = base[:SQ * SQUARE_WIDTH].reshape(SQ, SQUARE_WIDTH)
        _CARD_ROWS.take(s.board, 0, squares, "wrap")  # whole rows (-1 wraps to the zero row), then in_grid again
        squares[:, F["in_grid"]] = self._in_grid
        entries = memoryview(base)
        for e in s.elements:
            entries[_ELEMENTS0 + e] = 1.0
        if self._uses_artefacts and self._art_contents_fixed:  # the same for every observer
            for gi, grp in enumerate(s.groups):  # (as _artefact_contents: every Artefact is known)
                k = _GROUPS0 + gi * NA
                for a in grp:
                    entries[k + a] = 1.0
            for a in s.leftover:
                entries[_LEFTOVER0 + a] = 1.0
        return _Base(base, len(s._collection_log))

    def _new_view(self, s, player: int, base=None) -> _SeatView:
        if base is None:
            base = s._obs_base
            if base is None:
                base = s._obs_base = self._new_base(s)
        buf, pos = base.buffer, base.collections_seen
        v = _SeatView()
        v.buffer = buf = buf.copy()
        v.entries = entries = memoryview(buf)
        log = s._collection_log
        for _card, sq, _q in log[pos:]:  # collected since the base was built
            entries[sq * SQUARE_WIDTH + _CARD0:sq * SQUARE_WIDTH + _CARD0 + 18] = _ZERO_ROW
        v.collections_seen = len(log)
        # collections and, per square, which relative seats hold a card of its set
        rel = self._rel[player]
        card_square = s.card_square
        collections = s.collections
        for q, cards in enumerate(collections if any(collections) else ()):  # (none collected: nothing to write)
            if not cards:
                continue
            r = rel[q]
            base_q = _COLL0 + r * C.NUM_CARDS
            sets = set()
            for c in cards:
                entries[base_q + c] = 1.0
                sets.add(C.CARD_SET[c])
            for st in sets:
                if st >= 0:
                    for m in C.SET_CARDS[st]:
                        sq = card_square[m]
                        if sq >= 0:
                            entries[sq * SQUARE_WIDTH + _HOLDER0 + r] = 1.0
        entries[_FIRST_PLAYER0 + rel[s.first_player]] = 1.0
        if any(s.score_cache):  # (zero in the base)
            self._scores(s, player, entries)
        v.artefact_events_seen = 0
        if s._artefact_log_complete and self._art_contents_fixed:
            v.artefact_version = s._artefact_version  # Artefact entries (zero in the base): the journal replayed
        else:
            v.artefact_version = -1  # Artefact entries: written in full by the first update
        return v

    # ---- updating --------------------------------------------------------------------
    def _artefacts_update(self, s, player: int, v: _SeatView) -> None:
        alog = s._artefact_log
        if v.artefact_version != s._artefact_version or not self._art_contents_fixed:
            self._artefacts(s, player, v)
            v.artefact_version = s._artefact_version
        else:  # drafts and uses, every Artefact known: rewrite the entries they change
            self._artefact_events(s, player, v, alog)
        v.artefact_events_seen = len(alog)

    def _scores(self, s, player: int, out: memoryview) -> None:
        """Every seat's score. (The view keeps them: collections update the collector's.)"""
        score = s.score_cache
        k = _SCORES0
        for q in self._order[player]:
            out[k] = score[q] / MAX_SCORE
            k += 1

    @staticmethod
    def _rare_entries(s, rel, out: memoryview) -> None:
        if s.pending >= 0:
            out[_PENDING0 + s.pending] = 1.0
        if s.trade_card >= 0:
            out[_TRADE_CARD0 + s.trade_card] = 1.0
        if s.no_collect_turn:
            out[_TURN_FLAGS0 + 1] = 1.0
        if s.extra_turn:
            out[_TURN_FLAGS0 + 2] = 1.0
        if s.fence_row >= 0:
            out[_FENCE0 + s.fence_row] = 1.0
            out[_FENCE0 + C.MAX_SIDE + rel[s.fence_seat]] = 1.0

    def _seat_entries(self, s, rel, out: memoryview) -> None:
        axis, satchel = s.axis, s.satchel_set
        for q in range(self.n):
            if axis[q] >= 0:
                out[_AXIS0 + 2 * rel[q] + axis[q]] = 1.0
            if satchel[q] >= 0:
                out[_SATCHEL0 + C.NUM_SETS * rel[q] + satchel[q]] = 1.0

    def _artefacts(self, s, player: int, v: _SeatView) -> None:
        """Rewrite the Artefact entries for ``player``: who holds and used which, the
        groups taken, the Mirror's effect; the groups' and leftovers' contents too
        unless they are fixed for the game (all Artefacts known, none redistributed),
        and the grid's Artefacts once redistributed."""
        entries = v.entries
        rel = self._rel_index[player]
        known = s.known[player]
        for a0, a1, zeros in self._art_spans:
            entries[a0:a1] = zeros
        held = s.held
        for q in range(self.n):
            if held[q]:
                h0 = _HELD0 + rel[q + 1] * NA
                k = 0
                for a in held[q]:
                    if known[a]:
                        entries[h0 + a] = 1.0
                    else:
                        k += 1
                if k:
                    entries[_HELD_UNKNOWN0 + rel[q + 1]] = _UNKNOWN_NA[k]
        if s.art_used != _NONE_USED:
            art_owner = s.art_owner
            for a in [a for a, used in enumerate(s.art_used) if used]:
                entries[_USED0 + rel[art_owner[a] + 1] * NA + a] = 1.0
        for gi, o in enumerate(s.group_owner):
            if o >= 0:
                entries[_TAKEN0 + gi * MAX_PLAYERS + rel[o + 1]] = 1.0
        if not self._art_contents_fixed:
            self._artefact_contents(s, player, entries)
        if s.redistributed:
            v.buffer[:SQ * SQUARE_WIDTH].reshape(SQ, SQUARE_WIDTH)[:, _ART_PRESENT:] = 0
            for sq, a in enumerate(s.art_square):
                if a >= 0:
                    entries[sq * SQUARE_WIDTH + _ART_PRESENT] = 1.0
                    if known[a]:
                        entries[sq * SQUARE_WIDTH + _ART_ID0 + a] = 1.0
        if s.art_log:
            e = s.last_opponent_effect(player)
            if e >= 0:
                entries[_LAST_OPPONENT0 + e] = 1.0

    def _artefact_events(self, s, player: int, v: _SeatView, alog: list) -> None:
        """Apply the Artefact journal's new drafts and uses (only when every Artefact
        is known and none is redistributed, so that they change nothing else)."""
        entries = v.entries
        rel = self._rel[player]
        opponent = self._opponent[player]
        for kind, q, x, effect in alog[v.artefact_events_seen:]:
            r = rel[q]
            if kind == fast.DRAFTED:  # q took group x
                for a in s.groups[x]:
                    entries[_HELD0 + r * NA + a] = 1.0
                entries[_TAKEN0 + x * MAX_PLAYERS + r] = 1.0
            else:  # q used Artefact x
                entries[_HELD0 + r * NA + x] = 0.0
                entries[_USED0 + r * NA + x] = 1.0
                if effect != fast.NOT_LOGGED and opponent[q]:  # the effect a Mirror would copy
                    entries[_LAST_OPPONENT0:_LAST_OPPONENT0 + NA] = self._last_zero
                    if effect >= 0:
                        entries[_LAST_OPPONENT0 + effect] = 1.0

    @staticmethod
    def _artefact_contents(s, player: int, entries) -> None:
        """The groups' and the leftovers' contents as ``player`` knows them (the
        entries are zero when called)."""
        known = s.known[player]
        for gi, grp in enumerate(s.groups):
            k = 0
            for a in grp:
                if known[a]:
                    entries[_GROUPS0 + gi * NA + a] = 1.0
                else:
                    k += 1
            if k:
                entries[_GROUPS_UNKNOWN0 + gi] = _UNKNOWN_IN_GROUP[k]
        k = 0
        for a in s.leftover:
            if known[a]:
                entries[_LEFTOVER0 + a] = 1.0
            else:
                k += 1
        if k:
            entries[_LEFTOVER_UNKNOWN0] = _UNKNOWN_NA[k]
