"""Ethnos (1st edition) rules engine (numpy only).

Rulebook clauses are quoted by their French section ("Tour", "Fin d'Ère", ...);
facts from the public research notes by ``research §1.x``; assumptions by id
(``ETH-A<n>``, listed in ``RULES.md``). Cards are counted by kind (see
``components``); seats are 0-based and play is clockwise (seat + 1).

The decisions of a turn and their phases are in ``codec.py``; the fast paths (card
counts kept in step, the journal the observation encoder replays) in ``fast.py``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..core import Game as _Game, GameSpec, State as _State, TERMINAL, build_config, check_int, win_loss_returns
from . import components as C
from . import fast
from .codec import (ADD0, BUILD, CENTAUR, CODEC, DECLINE, END_BAND, END_KEEP, FACE_UP, KEEP, KEEP0,  # noqa: F401
                    LEADER, MARKER, MARKER0, MERFOLK, ORC, OVER, PHASE_NAMES, PLAY_BAND, RECRUIT_DECK,
                    RECRUIT_FACE_UP, START_COLOUR0, START_TRIBE0, TAKE0, TURN, USE_POWER, WIZARD)

K = C.NUM_KINDS
NL = C.NUM_LEADER_KINDS
NK = C.NUM_KINGDOMS
_TRIBE = [int(t) for t in C.KIND_TRIBE]
_COLOUR = [int(c) for c in C.KIND_COLOUR]
SKEL = C.SKELETON_KIND
DRAGON = C.DRAGON

# glory sources (State.glory_by_source columns)
SOURCES = ("kingdoms", "bands", "giant_take", "giant_age", "merfolk", "orcs")
S_KINGDOMS, S_BANDS, S_GIANT_TAKE, S_GIANT_AGE, S_MERFOLK, S_ORCS = range(len(SOURCES))
FIRST_PLAYER_TIES = ("revealer", "after_revealer")
# columns of State.tally (one row per seat; all public)
TALLY = {"band_cards": slice(0, K), "band_leaders": slice(K, K + C.NUM_TRIBES), "band_glory": K + C.NUM_TRIBES,
         "markers": slice(K + C.NUM_TRIBES + 1, K + C.NUM_TRIBES + 1 + NK), "supply": K + C.NUM_TRIBES + 1 + NK,
         "glory": K + C.NUM_TRIBES + 2 + NK, "merfolk": K + C.NUM_TRIBES + 3 + NK,
         "orc": slice(K + C.NUM_TRIBES + 4 + NK, K + C.NUM_TRIBES + 4 + 2 * NK)}
TALLY_WIDTH = K + C.NUM_TRIBES + 4 + 2 * NK  # 95
T_BAND_GLORY, T_SUPPLY, T_GLORY, T_MERFOLK = (TALLY[c] for c in ("band_glory", "supply", "glory", "merfolk"))
T_LEADERS0, T_MARKERS0, T_ORC0 = (TALLY[c].start for c in ("band_leaders", "markers", "orc"))
_OBS_KEYS = itertools.count()  # unique keys for the encoder's cache of slow pieces


class Band(NamedTuple):
    """A band played this Age (``State.bands``): its Leader's kind, its cards, its Skeletons."""

    leader: int
    size: int
    skeletons: int


@dataclass(frozen=True)
class Config:
    """Ethnos configuration (all keyword arguments of ``make`` / ``load_game``).

    Attributes:
        num_players: 2..6 (default 4).
        tribes: names of the tribes in play (6 with 4-6 players, 5 with 2-3,
            rulebook "Mise en place" 4); ``None`` draws them at random.
        glory_tokens: ``"S4"`` (default) or ``"S1"``: which published set of the
            twelve non-"4+" Glory tokens (ETH-A1).
        giant_take_glory: Glory for taking the Giant token (default 2, ETH-A4).
        orc_cash_in: whether players may cash in their Orc Horde markers at the
            end of a non-final Age (default True, all-or-none: ETH-A5).
        first_player_tie: later Ages, players tied for least Glory and Troll
            total: ``"revealer"`` (default: clockwise from the player who
            revealed the third Dragon, that player first) or
            ``"after_revealer"`` (the player after them first) (ETH-A6).
    """

    num_players: int = 4
    tribes: tuple[str, ...] | None = None
    glory_tokens: str = "S4"
    giant_take_glory: int = C.GIANT_TAKE_GLORY
    orc_cash_in: bool = True
    first_player_tie: str = "revealer"

    def __post_init__(self):
        def bad(msg):
            raise ValueError(f"ethnos config: {msg}")

        if not isinstance(self.num_players, int) or not C.MIN_PLAYERS <= self.num_players <= C.MAX_PLAYERS:
            bad(f"num_players must be {C.MIN_PLAYERS}..{C.MAX_PLAYERS}, got {self.num_players!r}")
        if self.glory_tokens not in C.GLORY_TOKEN_SETS:
            bad(f"glory_tokens must be one of {tuple(C.GLORY_TOKEN_SETS)}, got {self.glory_tokens!r}")
        if not isinstance(self.giant_take_glory, int) or self.giant_take_glory < 0:
            bad(f"giant_take_glory must be a non-negative int, got {self.giant_take_glory!r}")
        if self.first_player_tie not in FIRST_PLAYER_TIES:
            bad(f"first_player_tie must be one of {FIRST_PLAYER_TIES}, got {self.first_player_tie!r}")
        if self.tribes is not None:
            tr = tuple(self.tribes)
            want = C.TRIBES_IN_PLAY[self.num_players]
            if any(t not in C.TRIBES for t in tr) or len(set(tr)) != len(tr) or len(tr) != want:
                bad(f"tribes must be {want} distinct names from {C.TRIBES} with {self.num_players} players, got {tr}")
            object.__setattr__(self, "tribes", tr)

    @property
    def num_ages(self) -> int:
        return C.NUM_AGES[self.num_players]

    @property
    def board_side(self) -> str:
        """Merfolk board / Giant token side: ``"small"`` (2-3 players) or ``"large"``."""
        return C.board_side(self.num_players)


def band_glory(leader: int, size: int, skeletons: int) -> int:
    """Glory of a band at the end of the Age (research §1.2): ``components.BAND_GLORY`` by its
    size without Skeletons, one card more with a Dwarf Leader; a band larger than the table
    scores its last entry (6 or more cards: 15)."""
    x = size - skeletons + (1 if _TRIBE[leader] == C.DWARVES else 0)
    return C.BAND_GLORY[min(x, len(C.BAND_GLORY) - 1)]


class Game(_Game):
    """Ethnos, configured (see :class:`Config`)."""

    spec = GameSpec(name="ethnos", version=0, min_players=C.MIN_PLAYERS, max_players=C.MAX_PLAYERS,
                    information="imperfect",
                    chance="sampled", utility="zero_sum", title="Ethnos (1st edition)")
    codec = CODEC
    conformance_configs = (
        {"num_players": 2}, {"num_players": 3}, {"num_players": 4}, {"num_players": 5},
        {"num_players": 6, "glory_tokens": "S1", "first_player_tie": "after_revealer"},
    )
    """Configurations the conformance suite runs: every player count and option."""

    def __init__(self, **config):
        self.config = build_config(Config, config, "ethnos")
        self.num_players = self.config.num_players
        self.num_ages = self.config.num_ages
        side = self.config.board_side
        self.merfolk_glory = C.MERFOLK_AGE_GLORY[side]
        self.giant_glory = C.GIANT_AGE_GLORY[side]
        self.tokens_per_kingdom = self.num_ages  # rulebook "Mise en place" 2: one Glory token per Kingdom and Age
        tokens = C.GLORY_TOKEN_SETS[self.config.glory_tokens]
        self.glory_token_pool = tokens + (C.GLORY_TOKENS_4PLUS if C.uses_4plus_glory_tokens(self.num_players) else ())
        # kinds allowed in a band, by key: tribe key (leader's tribe) / colour key (leader's colour)
        self.same_tribe = [[k for k in range(K) if _TRIBE[k] == _TRIBE[l] or k == SKEL] for l in range(NL)]
        self.same_colour = [[k for k in range(K) if _COLOUR[k] == _COLOUR[l] or k == SKEL] for l in range(NL)]
        # rows of State.cards after the hands (rows 0..n-1) and the known cards (n..2n-1)
        n2 = 2 * self.num_players
        self.face_up_row, self.band_row, self.kept_row = n2, n2 + 1, n2 + 2
        from .observation import Encoder  # the encoder is separate from the rules

        self.encoder = Encoder(self)

    def max_game_length(self) -> int:
        """Bound on decisions. Per Age: every band puts >= 1 of the 156 cards aside
        for the Age; a player recruits at most 10 times between bands; a band takes
        at most 3 + 10 + 1 + 4 + 11 + 2 decisions; plus one Orc decision each."""
        n = self.num_players
        bands = C.NUM_ALLY_CARDS
        per_age = 2 * (n * C.HAND_LIMIT + bands * C.HAND_LIMIT) + bands * 32 + n
        return self.num_ages * per_age

    def new_initial_state(self, seed: int | None = None) -> "State":
        return State(self, check_int("seed", seed, 0))


class State(_State):
    """Ethnos state. Card vectors are counts over the 67 kinds (``components``).

    Attributes:
        rng: the state's ``numpy.random.Generator`` (all chance).
        tribes: tribe ids in play (sorted).
        glory_tokens: int64 (6, T), each Kingdom's Glory tokens, ascending (T = 3, or 2 with 2-3 players).
        age: current Age, 1-based.
        tally: int64 (players, 95), the public per-seat tallies below as column views
            (``TALLY`` gives the columns).
        glory: (players,) view, Glory track.
        glory_by_source: int64 (players, 6), Glory per ``SOURCES`` entry.
        cards: int8 (2 * players + 4, 67), card counts: rows ``hands``, ``known``,
            ``face_up``, ``band``, ``kept`` (views below), then zeros.
        hands: (players, 67) view, cards in each hand.
        known: (players, 67) view, cards every player knows to be in that hand
            (taken from the face-up row; always <= ``hands``).
        face_up: (67,) view, the face-up Allies (the row and the discards).
        deck: int64 (capacity,), the Ally deck, top = ``deck[deck_len - 1]``; ``C.DRAGON`` marks a Dragon.
        deck_len: cards left in the deck.
        dragon_zone: the Dragons lie in the bottom ``min(deck_len, dragon_zone)`` cards.
        dragons: Dragons revealed this Age (0..3).
        markers: (players, 6) view, Control markers in each Kingdom.
        supply: (players,) view, Control markers not yet placed (26 each).
        merfolk: (players,) view, Merfolk track position (0..18).
        orc: (players, 6) view, 1 for a marker on that Orc Horde board space.
        troll_owner: int64 (6,), seat holding the Troll token of value i + 1, or -1.
        giant_holder: seat holding the Giant token, or -1; ``giant_size`` its band size.
        bands: per seat, the bands played this Age (:class:`Band`: Leader kind, cards, Skeletons).
        band_cards: (players, 67) view, cards in those bands; ``band_leaders`` (players, 12)
            bands led by each tribe; ``band_glory`` (players,) their Glory now.
        first_player, turn_player: seat that began the Age / whose turn it is.
        phase: one of ``PHASE_NAMES`` (index); ``decider`` is the seat to act.
        band: (67,) view, the band being formed; ``leader`` its Leader kind, ``key_colour``
            whether it is a colour band (else a tribe band), ``band_size`` its cards.
        band_placed: whether the band just played placed a Control marker (Centaurs).
        marker_options: Kingdoms where the pending band marker may go.
        free_markers: Merfolk checkpoint markers still to place.
        keep_limit: cards the Elves let the turn player keep (0: none); ``kept`` the cards kept so far.
        wizard_draws: cards the Wizards will draw once the hand is discarded.
        orc_queue: seats still to decide on cashing in Orc markers.
        revealer: seat that revealed the third Dragon of the last Age (-1 before).
        _hand_sizes, _kept_count, _face_up_count: cards in each hand (list), kept by the
            Elves and face up (sums of ``cards`` rows, kept in step with them: ``fast.py``).
        _obs_key: a process-unique int, renewed whenever public data read by the
            encoder changes other than through the journal (Trolls, Giant, Orc cash-in,
            Age); the encoder caches those pieces under it.
        _obs_vector, _obs_vector_key, _journal: the encoder's cache for this state (see
            ``observation.Encoder`` and ``fast.py``): the seat-absolute observation vector,
            the ``_obs_key`` it was made for, and the journal of the ``cards`` and ``tally``
            cells changed since; ``_obs_vector`` is None (and the journal keeps nothing)
            until the state is first observed, and again after bulk changes (new Age, redraws).
    """

    _clone_shared = ("tribes", "glory_tokens", "age_cards", "deck", "troll_owner", "marker_options")
    """Fields whose arrays and lists ``clone()`` shares with the original: static data
    (``tribes``, ``glory_tokens``, ``age_cards``), and data the rules only ever replace
    (``marker_options``; ``deck`` and ``troll_owner`` are copied before a change)."""

    def __init__(self, game: Game, seed: int | None):
        self.game = game
        cfg = game.config
        n = game.num_players
        self.rng = rng = np.random.default_rng(seed)  # replaced by a private copy before each use
        self.history: list[int] = []
        # Setup ("Mise en place" 2-5)
        if cfg.tribes is None:
            tribes = rng.choice(C.NUM_TRIBES, size=C.TRIBES_IN_PLAY[n], replace=False)
        else:
            tribes = [C.TRIBES.index(t) for t in cfg.tribes]
        self.tribes = sorted(int(t) for t in tribes)
        pool = np.array(game.glory_token_pool, dtype=np.int64)
        tpk = game.tokens_per_kingdom
        self.glory_tokens = np.sort(rng.permutation(pool)[: NK * tpk].reshape(NK, tpk), axis=1)
        self.age = 1
        self.glory_by_source = np.zeros((n, len(SOURCES)), dtype=np.int64)
        self.tally = np.zeros((n, TALLY_WIDTH), dtype=np.int64)
        self.cards = np.zeros((2 * n + 4, K), dtype=np.int8)
        self.tally[:, T_SUPPLY] = C.MARKERS_PER_PLAYER
        self.revealer = -1
        self.orc_queue: list[int] = []
        kinds = [k for t in self.tribes for k in C.TRIBE_KINDS[t]]
        self.age_cards = np.repeat(np.array(kinds, dtype=np.int64), C.KIND_COPIES[kinds])
        self._start_age(int(rng.integers(n)))

    # ---- clone: plain fields copied, static data shared ----------------------------
    def clone(self) -> "State":
        """An independent copy: every field; the arrays and lists the rules change in place
        copied, the others shared (``_clone_shared``); so is the generator, which the rules
        never advance in place (:meth:`_private_rng` copies it before drawing)."""
        s = State.__new__(State)
        d = self.__dict__.copy()
        d["tally"] = self.tally.copy()
        d["cards"] = self.cards.copy()
        d["glory_by_source"] = self.glory_by_source.copy()
        d["bands"] = [list(b) for b in self.bands]
        d["orc_queue"] = list(self.orc_queue)
        d["history"] = list(self.history)
        d["_hand_sizes"] = list(self._hand_sizes)
        if self._obs_vector is not None:
            d["_obs_vector"] = self._obs_vector.copy()
            d["_journal"] = list(self._journal)
        s.__dict__ = d
        return s

    # views of the two tables (properties, so that snapshots and pickles hold each count once)
    hands = property(lambda self: self.cards[: self.game.num_players], doc="(players, 67) cards in each hand")
    known = property(lambda self: self.cards[self.game.num_players: 2 * self.game.num_players],
                     doc="(players, 67) cards everyone knows to be in each hand")
    face_up = property(lambda self: self.cards[2 * self.game.num_players], doc="(67,) the face-up Allies")
    band = property(lambda self: self.cards[2 * self.game.num_players + 1], doc="(67,) the band being formed")
    kept = property(lambda self: self.cards[2 * self.game.num_players + 2], doc="(67,) the Elves' kept cards")
    band_cards = property(lambda self: self.tally[:, TALLY["band_cards"]], doc="(players, 67) cards in bands")
    band_leaders = property(lambda self: self.tally[:, TALLY["band_leaders"]], doc="(players, 12) band Leaders")
    band_glory = property(lambda self: self.tally[:, TALLY["band_glory"]], doc="(players,) Glory of the bands now")
    markers = property(lambda self: self.tally[:, TALLY["markers"]], doc="(players, 6) Control markers")
    supply = property(lambda self: self.tally[:, TALLY["supply"]], doc="(players,) markers not placed")
    glory = property(lambda self: self.tally[:, TALLY["glory"]], doc="(players,) Glory")
    merfolk = property(lambda self: self.tally[:, TALLY["merfolk"]], doc="(players,) Merfolk track")
    orc = property(lambda self: self.tally[:, TALLY["orc"]], doc="(players, 6) Orc Horde spaces filled")

    def __getstate__(self) -> dict:
        """Pickled / deep-copied without the encoder's cache."""
        d = self.__dict__.copy()
        d["_obs_vector"], d["_journal"] = None, None
        return d

    def __setstate__(self, d: dict) -> None:
        """Unpickled / deep-copied: a fresh observation key (keys are unique per process)."""
        self.__dict__.update(d)
        self._obs_key = next(_OBS_KEYS)
        self._drop_encoding()

    def _drop_encoding(self) -> None:
        """Forget the encoder's cache (after a bulk change of ``cards``)."""
        self._obs_vector = None
        self._journal = fast.NO_JOURNAL

    def invalidate_caches(self) -> None:
        """After editing a state's arrays directly (tests, scenario builders): besides the
        base class's legal-action memo, recompute the card counts from ``cards`` and drop
        the encoder's cache."""
        super().invalidate_caches()
        self._hand_sizes = [int(x) for x in self.hands.sum(axis=1)]
        self._kept_count = int(self.kept.sum())
        self._face_up_count = int(self.face_up.sum())
        self._obs_key = next(_OBS_KEYS)
        self._drop_encoding()

    # ---- changing cards and tallies (noted in the encoder's journal: fast.py) -------------
    def _add_card(self, row: int, kind: int, n: int) -> None:
        """``cards[row, kind] += n`` (``n`` may be negative)."""
        c = self.cards
        c[row, kind] = c.item(row, kind) + n
        self._journal.append(fast.cards_entry(row, kind))

    def _set_card(self, row: int, kind: int, value: int) -> None:
        """``cards[row, kind] = value``."""
        self.cards[row, kind] = value
        self._journal.append(fast.cards_entry(row, kind))

    def _add_tally(self, p: int, column: int, n: int) -> None:
        """``tally[p, column] += n`` (``n`` may be negative)."""
        t = self.tally
        t[p, column] = t.item(p, column) + n
        self._journal.append(fast.tally_entry(p, column, TALLY_WIDTH))

    def _set_tally(self, p: int, column: int, value: int) -> None:
        """``tally[p, column] = value``."""
        self.tally[p, column] = value
        self._journal.append(fast.tally_entry(p, column, TALLY_WIDTH))

    def _private_rng(self) -> np.random.Generator:
        """The state's generator, first replaced by a private copy (clones share it)."""
        g = np.random.Generator(type(self.rng.bit_generator)(0))  # seeded: no OS entropy; state replaced
        g.bit_generator.state = self.rng.bit_generator.state
        self.rng = g
        return g

    # ---- Age setup ("Nouvelle Ère", research §1.11) -----------------------------------
    def _start_age(self, first: int) -> None:
        """Each player draws 1 card; 2 x players face-up cards; the 3 Dragons
        shuffled into the bottom half of the deck; ``first`` begins."""
        n = self.num_players
        rng = self._private_rng()
        cards = rng.permutation(self.age_cards)
        self.cards[:] = 0
        top = len(cards)
        for p in range(n):
            top -= 1
            self.cards[p, cards[top]] += 1
        fu = self.game.face_up_row
        for _ in range(2 * n):
            top -= 1
            self.cards[fu, cards[top]] += 1
        self._hand_sizes = [1] * n
        self._kept_count = 0
        self._face_up_count = 2 * n
        self._drop_encoding()
        half = (top + 1) // 2  # bottom ceil(m/2) cards (research §1.11, S1)
        bottom = rng.permutation(np.concatenate([cards[:half], np.full(C.NUM_DRAGONS, C.DRAGON, dtype=np.int64)]))
        self.deck_len = top + C.NUM_DRAGONS
        self.deck = np.zeros(len(self.age_cards) + C.NUM_DRAGONS, dtype=np.int64)  # a new array: clones share the old
        self.deck[: len(bottom)] = bottom
        self.deck[len(bottom): self.deck_len] = cards[half:top]
        self.dragon_zone = len(bottom)
        self.dragons = 0
        self.bands: list[list[Band]] = [[] for _ in range(n)]
        self.tally[:, TALLY["band_cards"].start: TALLY["band_glory"] + 1] = 0  # bands of the last Age
        self.troll_owner = np.full(len(C.TROLL_TOKENS), -1, dtype=np.int64)
        self.giant_holder = -1
        self.giant_size = 0
        self.first_player = first
        self._obs_key = next(_OBS_KEYS)
        self._clear_turn()
        self._start_turn(first)

    def _clear_turn(self) -> None:
        self.leader = -1
        self.key_colour = False
        self.band_size = 0
        self.band_placed = False
        self.marker_options: list[int] = []
        self.free_markers = 0
        self.keep_limit = 0
        self.wizard_draws = 0

    def _start_turn(self, p: int) -> None:
        self.phase = TURN
        self.turn_player = self.decider = p
        self.keep_limit = 0

    # ---- queries ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.decider

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> np.ndarray:
        """Each seat's Glory (float64, shape (players,))."""
        return self.glory.astype(np.float64)

    def hand_size(self, p: int) -> int:
        """Cards in ``p``'s hand (the Elves' kept cards included)."""
        return self._hand_sizes[p] + (self._kept_count if p == self.turn_player else 0)

    def band_list(self, p: int) -> list[Band]:
        """``p``'s bands this Age (:class:`Band`: Leader kind, cards, Skeletons), in play order."""
        return list(self.bands[p])

    def troll_total(self, p: int) -> int:
        """Sum of the Troll tokens ``p`` holds (research §1.8 tie-breaker)."""
        return sum(v for v, o in zip(C.TROLL_TOKENS, self.troll_owner.tolist()) if o == p)

    def troll_totals(self) -> list[int]:
        """:meth:`troll_total` of every seat."""
        totals = [0] * self.num_players
        for v, o in zip(C.TROLL_TOKENS, self.troll_owner.tolist()):
            if o >= 0:
                totals[o] += v
        return totals

    def can_form_band(self, p: int) -> bool:
        """A band needs a non-Skeleton Leader (research §1.9)."""
        return self._hand_sizes[p] > self.cards.item(p, SKEL)

    def marker_kingdoms(self, p: int, leader: int, size: int) -> list[int]:
        """Kingdoms where a band of ``size`` cards led by ``leader`` may place a
        Control marker ("Jouer une Bande" 3; 2 players: more cards than all the
        markers there; Minotaurs +1; Wingfolk any Kingdom; Halflings none)."""
        tribe = _TRIBE[leader]
        tally = self.tally
        if tribe == C.HALFLINGS or tally.item(p, T_SUPPLY) <= 0:
            return []
        x = size + (1 if tribe == C.MINOTAURS else 0)
        kingdoms = range(NK) if tribe == C.WINGFOLK else (_COLOUR[leader],)
        if self.game.num_players == 2:
            return [k for k in kingdoms if x > int(tally[:, T_MARKERS0 + k].sum())]
        return [k for k in kingdoms if x > tally.item(p, T_MARKERS0 + k)]

    def _legal_actions(self) -> list[int]:
        ph = self.phase
        p = self.decider
        if ph == TURN:
            total = self._hand_sizes[p]
            band = total > self.cards.item(p, SKEL)  # a non-Skeleton card can lead (research §1.9)
            # hand limit 10: must play a band instead (ETH-A7: unless no band can be formed)
            if total < C.HAND_LIMIT or not band:
                out = [RECRUIT_DECK, RECRUIT_FACE_UP] if self._face_up_count else [RECRUIT_DECK]
                if band:
                    out.append(PLAY_BAND)
                return out
            return [PLAY_BAND]
        if ph == FACE_UP:
            return [TAKE0 + k for k in self.cards[self.game.face_up_row].nonzero()[0].tolist()]
        if ph == BUILD:
            out = []
            if self.band_size < C.MAX_BAND:
                allowed = (self.game.same_colour if self.key_colour else self.game.same_tribe)[self.leader]
                hand = self.cards[p].tolist()
                out = [ADD0 + k for k in allowed if hand[k]]
            out.append(END_BAND)
            return out
        hand = self.cards[p]
        if ph == LEADER:
            leaders = hand[:NL].nonzero()[0].tolist()
            return [START_TRIBE0 + k for k in leaders] + [START_COLOUR0 + k for k in leaders]
        if ph == MARKER:
            return [MARKER0 + k for k in self.marker_options] + [DECLINE]
        if ph == MERFOLK:
            return [MARKER0 + k for k in range(NK)] + [DECLINE]
        if ph == CENTAUR:
            return [PLAY_BAND, DECLINE]
        if ph in (WIZARD, ORC):
            return [USE_POWER, DECLINE]
        if ph == KEEP:
            return (KEEP0 + hand.nonzero()[0]).tolist() + [END_KEEP]
        raise AssertionError(f"no legal actions in phase {PHASE_NAMES[ph]}")

    # ---- apply -------------------------------------------------------------------------
    def _apply_action(self, a: int) -> None:
        ph = self.phase
        p = self.decider
        if ph == TURN:
            if a == RECRUIT_DECK:
                if not self._draw(p):
                    self._end_turn()
            elif a == RECRUIT_FACE_UP:
                self.phase = FACE_UP
            else:
                self.phase = LEADER
        elif ph == FACE_UP:
            k = a - TAKE0
            self._add_card(self.game.face_up_row, k, -1)
            self._add_card(p, k, 1)
            self._add_card(self.game.num_players + p, k, 1)  # everyone saw it taken: stays known in that hand
            self._face_up_count -= 1
            self._hand_sizes[p] += 1
            self._end_turn()
        elif ph == LEADER:
            colour = a >= START_COLOUR0
            k = a - (START_COLOUR0 if colour else START_TRIBE0)
            self.leader = k
            self.key_colour = colour
            self.band_size = 0  # the band row is empty since the last END_BAND
            self.phase = BUILD
            self._add_to_band(p, k)
        elif ph == BUILD:
            if a == END_BAND:
                self._end_band(p)
            else:
                self._add_to_band(p, a - ADD0)
        elif ph == MARKER:
            placed = a != DECLINE
            self.band_placed = placed
            if placed:
                self._place_marker(p, a - MARKER0)
            self._leader_power(p, placed)
        elif ph == MERFOLK:
            if a != DECLINE:
                self._place_marker(p, a - MARKER0)
            self.free_markers -= 1
            if self.free_markers <= 0 or self.supply[p] <= 0:
                self.free_markers = 0
                self._finish_band(p)
        elif ph == CENTAUR:
            if a == PLAY_BAND:
                self.phase = LEADER
            else:
                self._finish_band(p)
        elif ph == WIZARD:
            if a == USE_POWER:
                self.wizard_draws = self.band_size  # drawn after the discard (ETH-A11)
            self._finish_band(p)
        elif ph == KEEP:
            if a == END_KEEP:
                self._discard_rest(p)
            else:
                k = a - KEEP0
                self._add_card(p, k, -1)
                self._add_card(self.game.kept_row, k, 1)
                self._hand_sizes[p] -= 1
                self._kept_count += 1
                if self._kept_count >= self.keep_limit or not self._hand_sizes[p]:
                    self._discard_rest(p)
        elif ph == ORC:
            if a == USE_POWER:
                self._score_orcs(p)
            self._next_orc()

    # ---- recruiting ("Recruter un Allié") ------------------------------------------------
    def _draw(self, p: int) -> bool:
        """Draw the top card into ``p``'s hand; a Dragon is revealed and another card
        drawn; the third Dragon ends the Age at once. Returns True if the Age ended."""
        while True:
            self.deck_len -= 1
            card = self.deck.item(self.deck_len)
            if card != DRAGON:
                self._add_card(p, card, 1)
                self._hand_sizes[p] += 1
                return False
            self.dragons += 1
            if self.dragons == C.NUM_DRAGONS:
                self.revealer = p
                self._end_age()
                return True

    # ---- bands ("Jouer une Bande d'Alliés") ----------------------------------------------
    def _add_to_band(self, p: int, k: int) -> None:
        """A card of kind ``k`` goes from ``p``'s hand into the band being formed (everyone
        sees it: no more of that kind than remain can still be known to be in the hand)."""
        kn = self.game.num_players + p
        self._add_card(p, k, -1)
        self._hand_sizes[p] -= 1
        left = self.cards.item(p, k)
        if self.cards.item(kn, k) > left:
            self._set_card(kn, k, left)
        self._add_card(self.game.band_row, k, 1)
        self.band_size += 1

    def _end_band(self, p: int) -> None:
        size = self.band_size
        br = self.game.band_row
        band = self.cards[br]
        skeletons = band.item(SKEL)
        self.bands[p].append(Band(self.leader, size, skeletons))
        for k in band.nonzero()[0].tolist():  # the band's cards move to band_cards (tally columns 0..66)
            self._add_tally(p, k, band.item(k))
            self._set_card(br, k, 0)
        self._add_tally(p, T_LEADERS0 + _TRIBE[self.leader], 1)
        self._add_tally(p, T_BAND_GLORY, band_glory(self.leader, size, skeletons))
        self.band_placed = False
        opts = self.marker_kingdoms(p, self.leader, size)
        if opts:
            self.marker_options = opts
            self.phase = MARKER
        else:
            self._leader_power(p, False)

    def _place_marker(self, p: int, k: int) -> None:
        """A Control marker from ``p``'s supply into Kingdom ``k``."""
        self._add_tally(p, T_MARKERS0 + k, 1)
        self._add_tally(p, T_SUPPLY, -1)

    def _leader_power(self, p: int, placed: bool) -> None:
        """"Jouer une Bande" 4: the Leader's power (research §1.1; automatic where it
        can only help: ETH-A8)."""
        self.marker_options = []
        tribe = _TRIBE[self.leader]
        x = self.band_size
        if tribe == C.CENTAURS:
            if placed and self.can_form_band(p):
                self.phase = CENTAUR
                return
        elif tribe == C.ELVES:
            self.keep_limit = max(self.keep_limit, x)
        elif tribe == C.GIANTS:
            if x > self.giant_size:  # strictly bigger (research §1.7, ETH-A4)
                self.giant_holder = p
                self.giant_size = x
                self._obs_key = next(_OBS_KEYS)
                self._gain(p, self.game.config.giant_take_glory, S_GIANT_TAKE)
        elif tribe == C.MERFOLK:
            old = self.tally.item(p, T_MERFOLK)
            new = min(old + x, C.MERFOLK_TRACK_END)
            self._set_tally(p, T_MERFOLK, new)
            self.free_markers = sum(1 for c in C.MERFOLK_CHECKPOINTS if old < c <= new)
            if self.free_markers and self.supply[p] > 0:
                self.phase = MERFOLK
                return
            self.free_markers = 0
        elif tribe == C.ORCS:
            colour = _COLOUR[self.leader]
            if not self.orc[p, colour] and self.supply[p] > 0:
                self._set_tally(p, T_ORC0 + colour, 1)
                self._add_tally(p, T_SUPPLY, -1)
        elif tribe == C.TROLLS:
            for v in range(min(x, len(C.TROLL_TOKENS)), 0, -1):
                if self.troll_owner[v - 1] < 0:
                    self.troll_owner = self.troll_owner.copy()  # clones share it
                    self.troll_owner[v - 1] = p
                    self._obs_key = next(_OBS_KEYS)
                    break
        elif tribe == C.WIZARDS:
            self.phase = WIZARD
            return
        self._finish_band(p)

    def _finish_band(self, p: int) -> None:
        """After the last band's power: discard the rest face up ("Jouer une Bande" 5),
        the Elves' kept cards excepted."""
        if self.keep_limit > 0 and self._hand_sizes[p]:
            self.phase = KEEP  # the kept row is empty outside the KEEP phase
        else:
            self._discard_rest(p)

    def _discard_rest(self, p: int) -> None:
        """"Jouer une Bande" 5: the rest of ``p``'s hand is discarded face up; the Elves' kept
        cards go back into the hand."""
        g = self.game
        c = self.cards
        kn = g.num_players + p
        fu, kr = g.face_up_row, g.kept_row
        for k in c[p].nonzero()[0].tolist():
            x = c.item(p, k)
            self._add_card(fu, k, x)
            self._set_card(p, k, 0)
            known = c.item(kn, k)
            if known:  # what others still know to be in the hand: known cards not seen discarded
                self._set_card(kn, k, max(known - x, 0))
        for k in c[kr].nonzero()[0].tolist():
            self._set_card(p, k, c.item(kr, k))
            self._set_card(kr, k, 0)
        self._face_up_count += self._hand_sizes[p]
        self._hand_sizes[p] = self._kept_count
        self._kept_count = 0
        self.keep_limit = 0
        draws, self.wizard_draws = self.wizard_draws, 0
        for _ in range(draws):  # Wizards: X cards, beyond the hand limit; Dragons count (research §1.12)
            if self._draw(p):
                return  # the third Dragon ended the Age
        self._end_turn()

    def _end_turn(self) -> None:
        if len(self._journal) > 256:  # a state played on without being observed: stop journaling
            self._drop_encoding()
        self._start_turn((self.turn_player + 1) % self.game.num_players)

    def _gain(self, p: int, glory: int, source: int) -> None:
        self._add_tally(p, T_GLORY, glory)
        self.glory_by_source[p, source] = self.glory_by_source.item(p, source) + glory

    # ---- end of an Age ("Fin d'Ère") -------------------------------------------------------
    def _end_age(self) -> None:
        """Hands discarded; Kingdoms, Giant, Merfolk and bands scored; Orc cash-in
        decisions (non-final Ages) or Orc scoring (last Age)."""
        n = self.num_players
        self._obs_key = next(_OBS_KEYS)
        self.hands[:] = 0
        self.known[:] = 0
        self.kept[:] = 0
        self.band[:] = 0
        self._hand_sizes = [0] * n
        self._kept_count = 0
        self._drop_encoding()
        self.score_kingdoms()
        if self.giant_holder >= 0:
            self._gain(self.giant_holder, self.game.giant_glory[self.age - 1], S_GIANT_AGE)
        self.score_merfolk()
        self.score_bands()
        if self.age == self.game.num_ages:
            for p in range(n):
                self._score_orcs(p)
            self.phase = OVER
            return
        if self.game.config.orc_cash_in:
            self.orc_queue = [(self.revealer + i) % n for i in range(n) if self.orc[(self.revealer + i) % n].any()]
        self._next_orc()

    def ranked_groups(self, values: list[int]) -> list[list[int]]:
        """Seats with ``values > 0`` grouped by (value, Troll total), best first
        (research §1.4: Troll tokens break ties)."""
        trolls = self.troll_totals()
        keyed = sorted(((values[p], trolls[p], p) for p in range(self.num_players) if values[p] > 0),
                       key=lambda t: (-t[0], -t[1], t[2]))
        groups: list[list[int]] = []
        last = None
        for v, t, p in keyed:
            if (v, t) == last:
                groups[-1].append(p)
            else:
                groups.append([p])
                last = (v, t)
        return groups

    def score_kingdoms(self) -> None:
        """"Fin d'Ère": in Age a, the k-th most markers wins token (a - k + 1);
        tied players add the Glory of the places they span and split it, rounded
        down. 2 players, Age II: the most markers wins the highest token, the
        second nothing; a lone player there wins both."""
        age = self.age
        two_p = self.num_players == 2
        all_tokens = self.glory_tokens.tolist()
        markers = self.tally[:, T_MARKERS0: T_MARKERS0 + NK].T.tolist()
        for k in range(NK):
            tokens = all_tokens[k]
            groups = self.ranked_groups(markers[k])
            if two_p and age == 2:
                if len(groups) == 1 and len(groups[0]) == 1:
                    prizes = [tokens[0] + tokens[1]]
                else:
                    prizes = [tokens[1], 0]
            else:
                prizes = [tokens[age - 1 - i] for i in range(age)]
            pos = 0
            for grp in groups:
                total = sum(prizes[pos + j] for j in range(len(grp)) if pos + j < len(prizes))
                for p in grp:
                    self._gain(p, total // len(grp), S_KINGDOMS)
                pos += len(grp)

    def score_merfolk(self) -> None:
        """Research §1.5 (ETH-A2): the furthest player on the Merfolk track (> 0)
        scores 1/2/4 (2-3 players: 1/3); Troll ties, then an even split rounded down."""
        groups = self.ranked_groups(self.tally[:, T_MERFOLK].tolist())
        if groups:
            glory = self.game.merfolk_glory[self.age - 1]
            for p in groups[0]:
                self._gain(p, glory // len(groups[0]), S_MERFOLK)

    def score_bands(self) -> None:
        """Research §1.2: each band scores by size (Skeletons removed first;
        a Dwarf Leader counts one card more)."""
        for p in range(self.num_players):
            bands = self.band_list(p)
            if bands:
                self._gain(p, sum(band_glory(leader, size, skeletons) for leader, size, skeletons in bands), S_BANDS)

    def _score_orcs(self, p: int) -> None:
        """Research §1.6 (ETH-A5): score the Orc Horde table for ``p``'s markers and
        return them to the supply."""
        m = int(self.orc[p].sum())
        if m:
            self._gain(p, C.ORC_GLORY[m], S_ORCS)
            self.orc[p] = 0
            self.supply[p] += m
            self._obs_key = next(_OBS_KEYS)

    def _next_orc(self) -> None:
        if self.orc_queue:
            self.phase = ORC
            self.decider = self.orc_queue.pop(0)
            return
        self.age += 1
        self._start_age(self.next_first_player())

    def next_first_player(self) -> int:
        """Research §1.11: least Glory goes first; ties: higher Troll total, then
        clockwise from the player who revealed the third Dragon (ETH-A6)."""
        n = self.num_players
        start = self.revealer if self.game.config.first_player_tie == "revealer" else self.revealer + 1
        order = [(start + i) % n for i in range(n)]
        glory, trolls = self.tally[:, T_GLORY].tolist(), self.troll_totals()
        return min(order, key=lambda p: (glory[p], -trolls[p], order.index(p)))

    # ---- end of the game ("Fin de partie") ---------------------------------------------------
    def tiebreak_key(self, p: int) -> tuple:
        """Glory, then Control markers on the board, then the bands of the last Age
        from the largest down (ETH-A9: a band's size counts all its cards)."""
        sizes = sorted((band.size for band in self.bands[p]), reverse=True)
        return (int(self.glory[p]), int(self.markers[p].sum()), sizes)

    def winners(self) -> list[int]:
        keys = [self.tiebreak_key(p) for p in range(self.num_players)]
        best = max(keys)
        return [p for p in range(self.num_players) if keys[p] == best]

    def _terminal_returns(self) -> np.ndarray:
        return win_loss_returns(self.winners(), self.num_players)

    def final_info(self) -> dict:
        """Extra ``infos`` at the end: winners and Glory per source."""
        return {"winners": self.winners(),
                "glory_by_source": {s: self.glory_by_source[:, i].copy() for i, s in enumerate(SOURCES)}}

    # ---- hidden information ----------------------------------------------------------------
    def _redraw_hidden(self, player: int, rng: np.random.Generator) -> None:
        """Redeal what ``player`` cannot see: the other hands' unknown cards (cards
        taken from the face-up row stay), the deck's order and the Dragons'
        places (anywhere in the bottom ``min(deck_len, dragon_zone)`` cards)."""
        if self.phase == OVER:
            return
        n = self.num_players
        others = [q for q in range(n) if q != player]
        kept_q = self.turn_player if (self.turn_player != player and self.kept.any()) else -1
        if kept_q >= 0:  # the Elves' kept cards are part of that hand
            self.hands[kept_q] += self.kept
        hidden = {q: self.hands[q] - self.known[q] for q in others}
        self.deck = self.deck.copy()  # clones share it
        deck = self.deck[: self.deck_len]
        pool_counts = np.bincount(deck[deck != C.DRAGON], minlength=K)
        for q in others:
            pool_counts += hidden[q]
        pool = rng.permutation(np.repeat(np.arange(K, dtype=np.int64), pool_counts))
        pos = 0
        for q in others:
            h = int(hidden[q].sum())
            self.hands[q] = self.known[q] + np.bincount(pool[pos: pos + h], minlength=K)
            pos += h
        rest = pool[pos:]
        dragons = C.NUM_DRAGONS - self.dragons
        zone = min(self.deck_len, self.dragon_zone)
        new = np.empty(self.deck_len, dtype=np.int64)
        slots = rng.choice(zone, size=dragons, replace=False) if dragons else np.zeros(0, dtype=np.int64)
        is_dragon = np.zeros(self.deck_len, dtype=bool)
        is_dragon[slots] = True
        new[is_dragon] = C.DRAGON
        new[~is_dragon] = rest
        self.deck[: self.deck_len] = new
        # the public tallies (the encoder's slow pieces) are unchanged: keep _obs_key
        if kept_q >= 0:  # keep the same number of kept cards, drawn from the new hand
            m = int(self.kept.sum())
            cards = rng.permutation(np.repeat(np.arange(K, dtype=np.int64), self.hands[kept_q]))[:m]
            self.kept[:] = np.bincount(cards, minlength=K)
            self.hands[kept_q] -= self.kept
            self.known[kept_q] = np.minimum(self.known[kept_q], self.hands[kept_q] + self.kept)
        self._drop_encoding()  # the card counts are unchanged

    # ---- text views: what a seat is shown (text.py) -------------------------------
    def _observation_string(self, player: int) -> str:
        from .text import seat_text
        return seat_text(self, player)

    def _public_action_string(self, action: int, observer: int) -> str:
        from .text import public_action_string
        return public_action_string(self, action, observer)

    def _end_reason(self) -> str:
        from .text import end_reason
        return end_reason(self)

    # ---- text picture ----------------------------------------------------------------------
    def render_text(self) -> str:
        """Neutral (public) view: Age, Kingdoms, tracks, bands, hand sizes, face-up row."""
        n = self.num_players
        lines = [f"Ethnos  {n} players  Age {self.age}/{self.game.num_ages}  phase: {PHASE_NAMES[self.phase]}  "
                 f"deck: {self.deck_len}  dragons revealed: {self.dragons}",
                 "tribes: " + ", ".join(C.TRIBES[t] for t in self.tribes)]
        for k in range(NK):
            toks = "/".join(str(int(t)) for t in self.glory_tokens[k])
            ms = " ".join(f"p{p}:{int(self.markers[p, k])}" for p in range(n))
            lines.append(f"  {C.KINGDOMS[k]:<7} tokens {toks:<8} markers {ms}")
        for p in range(n):
            bands = " ".join(f"[{C.KIND_NAMES[l]} x{s}]" for l, s, _ in self.band_list(p))
            mark = ">" if p == self.current_player() else " "
            trolls = [v for v, o in zip(C.TROLL_TOKENS, self.troll_owner) if o == p]
            lines.append(f"{mark} player_{p}: glory {int(self.glory[p]):>3}  hand {self.hand_size(p):>2}  "
                         f"merfolk {int(self.merfolk[p])}  orcs {int(self.orc[p].sum())}  trolls {trolls}"
                         + ("  GIANT" if self.giant_holder == p else "") + f"  bands: {bands or '-'}")
        row = " ".join(f"{C.KIND_NAMES[k]}x{int(c)}" for k, c in enumerate(self.face_up) if c)
        lines.append(f"face-up: {row or '-'}")
        if self.phase in (BUILD, MARKER) or self.band.any():
            cards = " ".join(f"{C.KIND_NAMES[k]}x{int(c)}" for k, c in enumerate(self.band) if c)
            lines.append(f"band being formed (leader {C.KIND_NAMES[self.leader]}): {cards}")
        if self.phase == OVER:
            lines.append(f"game over: winners {['player_%d' % w for w in self.winners()]}")
        else:
            lines.append(f"to act: player_{self.current_player()}")
        return "\n".join(lines)
