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
from . import fast
from .codec import BUILD, CENTAUR, KEEP, MARKER, MERFOLK, OVER, PHASE_NAMES, WIZARD
from .rules import TALLY_WIDTH

MAX_PLAYERS = C.MAX_PLAYERS
NUM_PLAYER_COUNTS = C.MAX_PLAYERS - C.MIN_PLAYERS + 1  # the num_players one-hot
K = C.NUM_KINDS
NK = C.NUM_KINGDOMS
HAND_SCALE = 20.0  # hand sizes are shown as min(size, 20) / 20
GLORY_SCALE = 300.0  # Glory is shown as min(glory, 300) / 300
BAND_GLORY_SCALE = 150.0
FREE_MARKERS_SCALE = len(C.MERFOLK_CHECKPOINTS)  # a Merfolk band passes at most every checkpoint
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
    Piece("phase", (len(PHASE_NAMES),), 0, 1, "one-hot: " + ", ".join(PHASE_NAMES)),
    Piece("band_leader", (C.NUM_LEADER_KINDS,), 0, 1, "the Leader kind of the band being formed or just played, one-hot"),
    Piece("band_key", (2,), 0, 1, "its key: tribe band, colour band"),
    Piece("band_size", (1,), 0, 1, f"cards in the band being formed or just played / {C.MAX_BAND}"),
    Piece("marker_options", (NK,), 0, 1, "Kingdoms where the pending band marker may go"),
    Piece("pending", (3,), 0, 1, f"Merfolk free markers to place / {FREE_MARKERS_SCALE}, Elves keep limit / {C.MAX_BAND}, "
          "Control marker placed by this band"),
]
"""Pieces that may change on any action."""
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
SLOW_PIECES = [
    Piece("seats", (MAX_PLAYERS, len(SEAT_FEATURES)), 0, 1,
          "per relative seat: bands played this Age (cards by kind, leaders by tribe, their Glory), Control "
          "markers per Kingdom, supply, Glory, Merfolk position, Orc Horde spaces; see observation.SEAT_FEATURES"),
    Piece("trolls", (len(C.TROLL_TOKENS), MAX_PLAYERS), 0, 1, "Troll token of value 1..6: holder, relative seat one-hot"),
    Piece("giant", (MAX_PLAYERS + 1,), 0, 1, f"Giant token holder (relative seat one-hot), then its band size / {C.MAX_BAND}"),
    Piece("first_player", (MAX_PLAYERS,), 0, 1, "relative seat that began this Age"),
    Piece("glory_tokens", (NK, C.MAX_AGES), 0, 1,
          f"each Kingdom's Glory tokens I, II, III / {C.MAX_GLORY_TOKEN} (III absent with 2-3 players)"),
    Piece("tribes", (C.NUM_TRIBES,), 0, 1, "tribes in play"),
    Piece("age", (C.MAX_AGES,), 0, 1, "current Age one-hot"),
    Piece("last_age", (1,), 0, 1, "1 in the last Age of the game"),
    Piece("num_players", (NUM_PLAYER_COUNTS,), 0, 1, f"one-hot {C.MIN_PLAYERS}..{C.MAX_PLAYERS}"),
    Piece("seat_present", (MAX_PLAYERS,), 0, 1, "1 for seats in the game"),
]
"""Pieces that change only on END_BAND, PLACE_MARKER, ENDKEEP, USE_POWER, DECLINE and at
the start or end of an Age (the public tallies, tokens and the Age)."""
PIECES = FAST_PIECES + SLOW_PIECES
LAYOUT = ObservationLayout(PIECES)

_INV_COPIES = (1.0 / C.KIND_COPIES).astype(np.float32)
# State.tally -> the ``seats`` piece: clip, then scale (columns in SEAT_FEATURES order)
_TALLY_CAP = np.array([12] * K + [10] * C.NUM_TRIBES + [int(BAND_GLORY_SCALE)] + [C.MARKERS_PER_PLAYER] * NK
                      + [C.MARKERS_PER_PLAYER, int(GLORY_SCALE), C.MERFOLK_TRACK_END] + [1] * NK, dtype=np.int64)
_TALLY_SCALE = np.concatenate([_INV_COPIES, 1.0 / _TALLY_CAP[K:]]).astype(np.float32)
assert len(_TALLY_CAP) == len(SEAT_FEATURES) == TALLY_WIDTH
# per tally column: the cap and the scale as Python floats (same float64 product as numpy's)
_TALLY_CAP_LIST = _TALLY_CAP.tolist()
_TALLY_SCALE_LIST = _TALLY_SCALE.astype(np.float64).tolist()
_HAND_SIZE = (np.minimum(np.arange(C.NUM_ALLY_CARDS + 1), HAND_SCALE) / HAND_SCALE).astype(np.float32).tolist()
# _SCALED[k][c]: c cards of kind k / copies of k, as float32 (the encoder's card entries)
_SCALED = [(np.arange(C.NUM_ALLY_CARDS + 1, dtype=np.float32) * _INV_COPIES[k]).tolist() for k in range(K)]
_BAND_PHASES = frozenset((BUILD, MARKER, CENTAUR, MERFOLK, WIZARD))
_TALLY0 = fast.TALLY_ENTRY0
_TEMPLATE = LAYOUT.slices["glory_tokens"].start  # glory_tokens .. seat_present: same for every observer
assert list(LAYOUT.slices)[-6:] == ["glory_tokens", "tribes", "age", "last_age", "num_players", "seat_present"]
_T = {name: slice(sl.start - _TEMPLATE, sl.stop - _TEMPLATE) for name, sl in LAYOUT.slices.items() if sl.start >= _TEMPLATE}


class Encoder:
    """Writes :data:`LAYOUT` for one observer, reading only what that seat may see.

    Incremental: each state keeps (in private fields, see ``State``) a seat-absolute
    vector ``A`` holding every seat's data once: the rows of ``State.cards`` scaled,
    hand sizes, the ``seats`` rows, Troll / Giant / first-player holders and the pieces
    that are the same for every observer, then one zero. An observer's view is one
    gather ``A[perm[player]]`` (relative seats, hidden cards and absent seats map to the
    zero), followed by the few small pieces that change on most actions. ``A`` follows
    the state through the journal of changed ``cards`` and ``tally`` entries
    (``State._journal``, see ``fast.py``; each hand entry also rewrites that hand's size) and
    ``State._obs_key`` (Trolls, Giant, Orc cash-in, Age: the public pieces rewritten);
    it is rebuilt after bulk changes (new Age, redraws, unpickling).
    """

    layout = LAYOUT

    def __init__(self, game):
        self.game = game
        n = self.num_players = game.num_players
        rows = 2 * n + 4  # rows of State.cards
        w = self._seat_width = len(SEAT_FEATURES)
        # sections of A
        self._hs = rows * K
        self._hand_end = n * K  # journal entries below: hand cells
        self._kept_start = game.kept_row * K  # from here to _hs: the kept row
        self._seats = self._hs + n
        self._trolls = self._seats + n * w
        self._giant = self._trolls + len(C.TROLL_TOKENS) * n
        self._first = self._giant + n + 1
        self._fixed = self._first + n
        self._zero = self._fixed + (LAYOUT.size - _TEMPLATE)
        self._size = self._zero + 1
        self._perm = [self._make_perm(p) for p in range(n)]
        self._num_players = np.eye(NUM_PLAYER_COUNTS, dtype=np.float32)[n - C.MIN_PLAYERS]
        self._seat_present = (np.arange(MAX_PLAYERS) < n).astype(np.float32)
        self._last_age = game.num_ages
        self._template_key = None  # the last template made, and what it was made from
        self._template = None
        self._kept = LAYOUT.slices["kept"]
        o = {pc.name: LAYOUT.slices[pc.name].start for pc in FAST_PIECES}
        self._offsets = tuple(o[k] for k in ("deck", "phase", "band_leader", "band_key", "band_size",
                                             "marker_options", "pending"))
        self._seat_at = [([o["turn_player"] + r for r in rel], [o["current_player"] + r for r in rel])
                         for rel in ([(q - p) % n for q in range(n)] for p in range(n))]

    def _make_perm(self, p: int) -> np.ndarray:
        """Index into ``A`` of every entry of observer ``p``'s view."""
        n = self.num_players
        perm = np.full(LAYOUT.size, self._zero, dtype=np.intp)
        sl = LAYOUT.slices
        ks = np.arange(K)
        order = [(p + i) % n for i in range(n)]  # relative seat i -> absolute seat
        perm[sl["hand"]] = p * K + ks
        perm[sl["face_up"]] = self.game.face_up_row * K + ks
        perm[sl["band"]] = self.game.band_row * K + ks
        known = perm[sl["known_hand"]].reshape(MAX_PLAYERS, K)
        seats = perm[sl["seats"]].reshape(MAX_PLAYERS, self._seat_width)
        trolls = perm[sl["trolls"]].reshape(len(C.TROLL_TOKENS), MAX_PLAYERS)
        for i, q in enumerate(order):
            known[i] = (n + q) * K + ks
            perm[sl["hand_size"].start + i] = self._hs + q
            seats[i] = self._seats + q * self._seat_width + np.arange(self._seat_width)
            trolls[:, i] = self._trolls + np.arange(len(C.TROLL_TOKENS)) * n + q
            perm[sl["giant"].start + i] = self._giant + q
            perm[sl["first_player"].start + i] = self._first + q
        perm[sl["giant"].start + MAX_PLAYERS] = self._giant + n
        perm[_TEMPLATE:] = self._fixed + np.arange(LAYOUT.size - _TEMPLATE)
        return perm

    def encode(self, s, player: int, out: np.ndarray) -> np.ndarray:
        """Fill ``out`` (float32, shape ``(LAYOUT.size,)``) with ``player``'s view."""
        a = s._obs_vector
        if a is None:
            a = self._build(s)
        else:
            journal = s._journal
            if journal:
                self._replay(s, a, journal)
            if s._obs_vector_key != s._obs_key:
                self._encode_slow(s, a)
        a.take(self._perm[player], out=out, mode="clip")
        # the small pieces (zeros in the gather)
        o_deck, o_phase, o_leader, o_key, o_size, o_options, o_pending = self._offsets
        turn_at, current_at = self._seat_at[player]  # absolute seat -> entry of the relative one-hot
        ph = s.phase
        out[o_deck] = s.deck_len / DECK_SCALE
        if s.dragons:
            for i in range(s.dragons):
                out[o_deck + 1 + i] = 1.0
        out[turn_at[s.turn_player]] = 1.0
        if ph != OVER:
            out[current_at[s.decider]] = 1.0
        out[o_phase + ph] = 1.0
        if ph in _BAND_PHASES and s.leader >= 0:
            out[o_leader + s.leader] = 1.0
            out[o_key + (1 if s.key_colour else 0)] = 1.0
            out[o_size] = s.band_size / C.MAX_BAND
        for k in s.marker_options:
            out[o_options + k] = 1.0
        if s.free_markers:
            out[o_pending] = min(s.free_markers, FREE_MARKERS_SCALE) / FREE_MARKERS_SCALE
        if s.keep_limit:
            out[o_pending + 1] = min(s.keep_limit, C.MAX_BAND) / C.MAX_BAND
        if s.band_placed:
            out[o_pending + 2] = 1.0
        if ph == KEEP and s.turn_player == player:  # the Elves' kept cards, seen by their owner only
            np.multiply(s.kept, _INV_COPIES, out=out[self._kept])
        return out

    # ---- the state's seat-absolute vector ---------------------------------------------
    def _build(self, s) -> np.ndarray:
        """A new ``A`` for ``s`` (stored in ``s``, journal emptied)."""
        a = np.zeros(self._size, dtype=np.float32)
        rows = 2 * self.num_players + 4
        np.multiply(s.cards, _INV_COPIES, out=a[: rows * K].reshape(rows, K))
        self._encode_sizes(s, a)
        self._encode_slow(s, a)
        s._obs_vector = a
        s._journal = []
        return a

    def _replay(self, s, a: np.ndarray, journal: list) -> None:
        """Rewrite the ``cards`` and ``tally`` cells named in the ``journal`` (then emptied),
        and the hand size of each hand they touch. A cards entry is the cell's flat index in
        ``State.cards``, which is also its index in ``A``; a tally entry is ``_TALLY0`` plus
        the cell's flat index in ``State.tally`` (``fast.cards_entry``, ``fast.tally_entry``)."""
        item = s.cards.item
        hand_end, hs = self._hand_end, self._hs
        hand_sizes, tp, kept = s._hand_sizes, s.turn_player, s._kept_count
        for entry in journal:
            if entry < hand_end:  # a hand
                q = entry // K
                a[entry] = _SCALED[entry - q * K][item(entry)]
                a[hs + q] = _HAND_SIZE[hand_sizes[q] + kept if q == tp else hand_sizes[q]]
            elif entry < _TALLY0:
                a[entry] = _SCALED[entry % K][item(entry)]
                if entry >= self._kept_start:  # the Elves' kept cards count in their owner's hand
                    a[hs + tp] = _HAND_SIZE[hand_sizes[tp] + kept]
            else:
                i = entry - _TALLY0
                col = i % TALLY_WIDTH
                a[self._seats + i] = min(s.tally.item(i), _TALLY_CAP_LIST[col]) * _TALLY_SCALE_LIST[col]
        journal.clear()

    def _encode_sizes(self, s, a: np.ndarray) -> None:
        hs = self._hs
        sizes = list(s._hand_sizes)
        if s._kept_count:  # the Elves' kept cards count in their owner's hand
            sizes[s.turn_player] += s._kept_count
        for q, size in enumerate(sizes):
            a[hs + q] = _HAND_SIZE[size]

    def _encode_slow(self, s, a: np.ndarray) -> None:
        """The pieces read from the public tallies and tokens, all rewritten (when
        ``State._obs_key`` changed; the journal covers the usual tally changes)."""
        n = self.num_players
        np.multiply(np.minimum(s.tally, _TALLY_CAP), _TALLY_SCALE,
                    out=a[self._seats: self._trolls].reshape(n, self._seat_width))
        a[self._trolls: self._fixed] = 0
        for t, q in enumerate(s.troll_owner.tolist()):
            if q >= 0:
                a[self._trolls + t * n + q] = 1.0
        if s.giant_holder >= 0:
            a[self._giant + s.giant_holder] = 1.0
            a[self._giant + n] = min(s.giant_size, C.MAX_BAND) / C.MAX_BAND
        a[self._first + s.first_player] = 1.0
        a[self._fixed: self._zero] = self._template_for(s)
        s._obs_vector_key = s._obs_key

    def _template_for(self, s) -> np.ndarray:
        """The observer-independent pieces (fixed for an Age): ``glory_tokens`` .. ``seat_present``."""
        key = (s.glory_tokens.tobytes(), tuple(s.tribes), s.age)
        if self._template_key != key:
            t = np.zeros(LAYOUT.size - _TEMPLATE, dtype=np.float32)
            tpk = s.glory_tokens.shape[1]
            t[_T["glory_tokens"]].reshape(NK, C.MAX_AGES)[:, :tpk] = s.glory_tokens / C.MAX_GLORY_TOKEN
            t[[_T["tribes"].start + x for x in s.tribes]] = 1
            t[_T["age"].start + s.age - 1] = 1
            t[_T["last_age"].start] = s.age == self._last_age
            t[_T["num_players"]] = self._num_players
            t[_T["seat_present"]] = self._seat_present
            self._template = t
            self._template_key = key
        return self._template
