"""Ethnos observation encoder (seat-relative, padded to 6 seats).

Seat-relative means: index 0 of every per-seat piece is the observer, then the
other seats clockwise; seats beyond the player count are zero. Card vectors are
over the 67 kinds of ``components`` and divided by the number of copies of each
kind, so every entry lies in [0, 1].

What a seat sees (rulebook + ETH-A10): its own hand; the face-up Allies; every
band played this Age and the band being formed; all boards, tracks and tokens;
the number of cards in each hand and in the deck, and the Dragons revealed;
and, for each hand, the cards its owner took from the face-up row that are
still known to be there. Nothing else (no other hand, no deck order).
"""

from __future__ import annotations

import numpy as np

from ..core import ObservationLayout, Piece
from . import components as C
from . import rules as R

MAX_PLAYERS = 6
K = C.NUM_KINDS
NK = C.NUM_KINGDOMS
HAND_SCALE = 20.0  # hand sizes are shown as min(size, 20) / 20
GLORY_SCALE = 300.0  # Glory is shown as min(glory, 300) / 300
BAND_GLORY_SCALE = 150.0
DECK_SCALE = float(C.NUM_ALLY_CARDS + C.NUM_DRAGONS)

FAST_PIECES = [
    Piece("hand", (K,), 0, 1, "observer's hand by kind / copies of the kind (Elves' kept cards excluded)"),
    Piece("kept", (K,), 0, 1, "observer's cards kept so far with an Elf Leader (KEEP phase), by kind / copies"),
    Piece("face_up", (K,), 0, 1, "face-up Allies by kind / copies"),
    Piece("band", (K,), 0, 1, "the band being formed by kind / copies"),
    Piece("known_hand", (MAX_PLAYERS, K), 0, 1,
          "per relative seat: cards known to be in that hand (taken from the face-up row) / copies"),
    Piece("hand_size", (MAX_PLAYERS,), 0, 1, "per relative seat: cards in hand, min(size, 20) / 20"),
    Piece("deck", (4,), 0, 1, "cards left in the deck / 159, then Dragons revealed (thermometer of 3)"),
    Piece("turn_player", (MAX_PLAYERS,), 0, 1, "relative seat whose turn it is"),
    Piece("current_player", (MAX_PLAYERS,), 0, 1, "relative seat to act (zeros at the end)"),
    Piece("phase", (len(R.PHASE_NAMES),), 0, 1, "one-hot: " + ", ".join(R.PHASE_NAMES)),
    Piece("band_leader", (C.NUM_LEADER_KINDS,), 0, 1, "the Leader kind of the band being formed or just played, one-hot"),
    Piece("band_key", (2,), 0, 1, "its key: tribe band, colour band"),
    Piece("band_size", (1,), 0, 1, "cards in the band being formed or just played / 10"),
    Piece("marker_options", (NK,), 0, 1, "Kingdoms where the pending band marker may go"),
    Piece("pending", (3,), 0, 1, "Merfolk free markers to place / 4, Elves keep limit / 10, Control marker placed by this band"),
]
"""Pieces that may change on any action (recomputed on every call)."""
SEAT_FEATURES = (
    [f"band_cards_{k}" for k in range(K)]
    + [f"band_leaders_{t}" for t in C.TRIBES]
    + ["band_glory"] + [f"markers_{k}" for k in C.KINGDOMS] + ["supply", "glory", "merfolk"]
    + [f"orc_{k}" for k in C.KINGDOMS]
)
"""Columns of the ``seats`` piece, one row per relative seat: cards in the bands played this
Age by kind / copies (67); bands led by each tribe, min(count, 10) / 10 (12); Glory those
bands would score now, min(g, 150) / 150; Control markers in each Kingdom / 26 (6); markers
not placed / 26; Glory, min(g, 300) / 300; Merfolk track position / 18; Orc Horde spaces
filled (6)."""
_SF = {name: i for i, name in enumerate(SEAT_FEATURES)}
SLOW_PIECES = [
    Piece("seats", (MAX_PLAYERS, len(SEAT_FEATURES)), 0, 1,
          "per relative seat: bands played this Age (cards by kind, leaders by tribe, their Glory), Control "
          "markers per Kingdom, supply, Glory, Merfolk position, Orc Horde spaces; see observation.SEAT_FEATURES"),
    Piece("trolls", (len(C.TROLL_TOKENS), MAX_PLAYERS), 0, 1, "Troll token of value 1..6: holder, relative seat one-hot"),
    Piece("giant", (MAX_PLAYERS + 1,), 0, 1, "Giant token holder (relative seat one-hot), then its band size / 10"),
    Piece("first_player", (MAX_PLAYERS,), 0, 1, "relative seat that began this Age"),
    Piece("glory_tokens", (NK, 3), 0, 1, "each Kingdom's Glory tokens I, II, III / 10 (III absent with 2-3 players)"),
    Piece("tribes", (C.NUM_TRIBES,), 0, 1, "tribes in play"),
    Piece("age", (3,), 0, 1, "current Age one-hot"),
    Piece("last_age", (1,), 0, 1, "1 in the last Age of the game"),
    Piece("num_players", (5,), 0, 1, "one-hot 2..6"),
    Piece("seat_present", (MAX_PLAYERS,), 0, 1, "1 for seats in the game"),
]
"""Pieces that change only on END_BAND, PLACE_MARKER, END_KEEP, USE_POWER, DECLINE and at
the start or end of an Age (cached while ``State._obs_key`` is unchanged)."""
PIECES = FAST_PIECES + SLOW_PIECES
LAYOUT = ObservationLayout(PIECES)
FAST_END = LAYOUT.slices[FAST_PIECES[-1].name].stop
CARD_ROWS = 4 + MAX_PLAYERS  # hand, kept, face_up, band, known_hand: one (10, 67) block
CARDS_END = LAYOUT.slices["known_hand"].stop
assert LAYOUT.slices["hand"].start == 0 and CARDS_END == CARD_ROWS * K

_INV_COPIES = (1.0 / C.KIND_COPIES).astype(np.float32)
# State.tally -> the ``seats`` piece: clip, then scale (columns in SEAT_FEATURES order)
_TALLY_CAP = np.array([12] * K + [10] * C.NUM_TRIBES + [int(BAND_GLORY_SCALE)] + [C.MARKERS_PER_PLAYER] * NK
                      + [C.MARKERS_PER_PLAYER, int(GLORY_SCALE), C.MERFOLK_TRACK_END] + [1] * NK, dtype=np.int64)
_TALLY_SCALE = np.concatenate([_INV_COPIES, 1.0 / _TALLY_CAP[K:]]).astype(np.float32)
assert len(_TALLY_CAP) == len(SEAT_FEATURES) == R.TALLY_WIDTH
_HAND_SIZE = (np.minimum(np.arange(C.NUM_ALLY_CARDS + 1), HAND_SCALE) / HAND_SCALE).astype(np.float32)
_BAND_PHASES = (R.BUILD, R.MARKER, R.CENTAUR, R.MERFOLK, R.WIZARD)


class Encoder:
    """Writes :data:`LAYOUT` for one observer, reading only what that seat may see."""

    layout = LAYOUT

    def __init__(self, game):
        self.game = game
        n = game.num_players
        self._buf, self._v = LAYOUT.new_buffer()
        self._order = [np.array([(p + i) % n for i in range(n)]) for p in range(n)]
        self._rel = [np.array([(q - p) % n for q in range(n)]) for p in range(n)]
        self._num_players = np.eye(5, dtype=np.float32)[n - 2]
        self._seat_present = (np.arange(MAX_PLAYERS) < n).astype(np.float32)
        self._last_age = game.num_ages
        self._slow_key = -1  # State._obs_key of the cached slow pieces (all observers)
        self._slow_all = None
        self._orders = np.array(self._order)
        self._rel_all = np.array(self._rel)
        self._ar_col = np.arange(n)[:, None]
        self._template_for = None  # the glory_tokens array and Age the template was made for
        self._template_age = 0
        self._template = None
        self._zero_from = (4 + n) * K  # card rows of absent seats onward are zero
        # rows of State.cards gathered per observer: hand, kept (or the zero row), face_up, band, known (relative)
        zero, face_up, band, kept = 2 * n + 3, 2 * n, 2 * n + 1, 2 * n + 2
        self._rows = [np.array([p, zero, face_up, band] + [n + q for q in self._order[p]]) for p in range(n)]
        self._rows_keep = [np.array([p, kept, face_up, band] + [n + q for q in self._order[p]]) for p in range(n)]
        self._off = {p.name: LAYOUT.slices[p.name].start for p in FAST_PIECES}
        self._hand_size = slice(self._off["hand_size"], self._off["hand_size"] + n)
        self._seat_width = len(SEAT_FEATURES)
        self._trolls = LAYOUT.slices["trolls"].start - FAST_END
        self._giant = LAYOUT.slices["giant"].start - FAST_END
        self._first = LAYOUT.slices["first_player"].start - FAST_END

    def encode(self, s, player: int, out: np.ndarray) -> np.ndarray:
        """Fill ``out`` (float32, shape ``(LAYOUT.size,)``) with ``player``'s view."""
        n = self.game.num_players
        rel = self._rel[player]
        ph = s.phase
        keep = ph == R.KEEP
        out[self._zero_from:FAST_END] = 0
        # hand, kept (own, KEEP phase only), face_up, band, known rows: one gather from State.cards
        rows = self._rows_keep[player] if keep and s.turn_player == player else self._rows[player]
        np.multiply(s.cards[rows], _INV_COPIES, out=out[: self._zero_from].reshape(4 + n, K))
        sizes = np.add.reduce(s.hands, axis=1)
        if keep:
            sizes[s.turn_player] += s.kept.sum()
        out[self._hand_size] = _HAND_SIZE[sizes][self._order[player]]
        # the small pieces, written with one scatter: (positions, values)
        o = self._off
        idx = [o["turn_player"] + rel[s.turn_player], o["phase"] + ph, o["deck"],
               o["pending"], o["pending"] + 1, o["pending"] + 2]
        val = [1.0, 1.0, s.deck_len / DECK_SCALE,
               min(s.free_markers, 4) / 4, min(s.keep_limit, 10) / 10, float(s.band_placed)]
        if ph != R.OVER:
            idx.append(o["current_player"] + rel[s.decider])
            val.append(1.0)
        for i in range(s.dragons):
            idx.append(o["deck"] + 1 + i)
            val.append(1.0)
        if s.leader >= 0 and ph in _BAND_PHASES:
            idx += [o["band_leader"] + s.leader, o["band_key"] + (1 if s.key_colour else 0), o["band_size"]]
            val += [1.0, 1.0, s.band_size / C.MAX_BAND]
        for k in s.marker_options:
            idx.append(o["marker_options"] + k)
            val.append(1.0)
        out[idx] = val
        if self._slow_key != s._obs_key:
            self._slow_all = self._encode_slow(s)
            self._slow_key = s._obs_key
        out[FAST_END:] = self._slow_all[player]
        return out

    def _encode_slow(self, s) -> np.ndarray:
        """The slow pieces for every observer: float32 ``(players, size - FAST_END)``."""
        n = self.game.num_players
        if self._template_for is not s.glory_tokens or self._template_age != s.age:
            self._template = self._encode_template(s)
            self._template_for, self._template_age = s.glory_tokens, s.age
        slow = np.empty((n, LAYOUT.size - FAST_END), dtype=np.float32)
        slow[:] = self._template
        a = np.minimum(s.tally, _TALLY_CAP) * _TALLY_SCALE  # State.tally columns = SEAT_FEATURES
        slow[:, : n * self._seat_width] = a[self._orders].reshape(n, n * self._seat_width)
        ar, rel = self._ar_col, self._rel_all  # rel[p, q]: q's seat relative to observer p
        held = (s.troll_owner >= 0).nonzero()[0]
        if len(held):
            slow[ar, self._trolls + held * MAX_PLAYERS + rel[:, s.troll_owner[held]]] = 1
        if s.giant_holder >= 0:
            slow[ar[:, 0], self._giant + rel[:, s.giant_holder]] = 1
            slow[:, self._giant + MAX_PLAYERS] = min(s.giant_size, 10) / 10
        slow[ar[:, 0], self._first + rel[:, s.first_player]] = 1
        return slow

    def _encode_template(self, s) -> np.ndarray:
        """The observer-independent slow pieces (fixed for an Age), other pieces zero."""
        buf = self._buf
        v = self._v
        buf[FAST_END:] = 0
        tpk = s.glory_tokens.shape[1]
        v["glory_tokens"][:, :tpk] = s.glory_tokens / C.MAX_GLORY_TOKEN
        v["tribes"][s.tribes] = 1
        v["age"][s.age - 1] = 1
        v["last_age"][0] = s.age == self._last_age
        v["num_players"][:] = self._num_players
        v["seat_present"][:] = self._seat_present
        return buf[FAST_END:].copy()
