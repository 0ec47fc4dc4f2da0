"""Aethermon: Collect rules engine (numpy only).

Rulebook sections are quoted by their headings (``rulebook "Player's Turn"``);
assumptions by id (``AC-A<n>``, listed in ``RULES.md``).

Squares are numbered in a fixed 7x7 frame, ``square = row * 7 + col``; a
smaller grid occupies the top-left ``side x side`` corner. Square names are
``a1`` .. ``g7`` (column letter, row number from the top).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..core import Game as _Game, GameSpec, State as _State, TERMINAL, build_config, check_int, win_loss_returns
from . import components as C
from . import fast
from .components import (ARTEFACT_TIMING, BEETLE, CARD_SET, CARD_VALUE, COMPASS, FENCE, GLOVES, GRAPPLING_HOOK,
                         LANTERN, MAGNET, MAX_SIDE, MIRROR, NET, SATCHEL as SATCHEL_ARTEFACT, SET_CARDS, SET_OTHERS,
                         SET_VALUE, STOPWATCH, TRADE_TOKEN)
from .codec import (CODEC, COLUMN_LETTERS, CORNER_NAMES, DECODED, DRAFT, DRAFT0, END_TURN, GIVE0,  # noqa: F401
                    MOVE0, OVER, PENDING, PHASE_NAMES, PLACE0, PLACE_TOKEN, POST_MOVE, SATCHEL, SATCHEL0, SQ, TARGET0, TRADE_TAKE, TURN,
                    USE0, square_name)
from .fast import ArtefactEvent, Collected

MODES = ("competitive", "cooperative")
ARTEFACT_VARIANTS = ("pairs", "triples", "none")
REWARDS = ("win", "score")


@dataclass(frozen=True)
class Config:
    """Aethermon: Collect configuration (all keyword arguments of ``make``/``load_game``).

    Attributes:
        num_players: 2..4.
        mode: ``"competitive"`` (default) or ``"cooperative"``.
        elements: names of the Elements in play (rulebook: "any of the 8 may be
            chosen"); ``None`` draws them at random (AC-A3). Its length must be
            the count the grid table fixes (2p: 4, 3p: 6, 4p and 2p co-op: 8).
        artefacts: ``"pairs"`` (rulebook), ``"triples"`` (variant "3 Artefacts")
            or ``"none"`` (variant "Play without Artefacts"); competitive only.
        artefact_pool: keys of the Artefacts in the box (default: all 12, AC-A5).
        hidden_artefacts: variant "Hidden Artefacts".
        teams: variant "2 vs 2" (4 players; opposite seats 0+2 and 1+3 add scores).
        redistribute_artefacts: variant "Redistribute Artefacts" (AC-A7).
        target: co-operative target level for ``reward="win"``: one of
            ``great, impressive, heroic, legendary``.
        reward: ``"win"`` or ``"score"``; ``None`` = ``"win"`` (competitive) or
            ``"score"`` (co-operative, the team score divided by its maximum).
    """

    num_players: int = 2
    mode: str = "competitive"
    elements: tuple[str, ...] | None = None
    artefacts: str = "pairs"
    artefact_pool: tuple[str, ...] = tuple(a.key for a in C.ARTEFACTS)
    hidden_artefacts: bool = False
    teams: bool = False
    redistribute_artefacts: bool = False
    target: str = "great"
    reward: str | None = None

    def __post_init__(self):
        def bad(msg):
            raise ValueError(f"aethermon_collect config: {msg}")

        if not isinstance(self.num_players, int) or not 2 <= self.num_players <= 4:
            bad(f"num_players must be 2, 3 or 4, got {self.num_players!r}")
        if self.mode not in MODES:
            bad(f"mode must be one of {MODES}, got {self.mode!r}")
        if self.artefacts not in ARTEFACT_VARIANTS:
            bad(f"artefacts must be one of {ARTEFACT_VARIANTS}, got {self.artefacts!r}")
        if self.reward is not None and self.reward not in REWARDS:
            bad(f"reward must be one of {REWARDS} or None, got {self.reward!r}")
        if self.target not in C.TARGET_LEVELS:
            bad(f"target must be one of {C.TARGET_LEVELS}, got {self.target!r}")
        pool = tuple(self.artefact_pool)
        unknown = [k for k in pool if k not in C.ARTEFACT_BY_KEY]
        if unknown or len(set(pool)) != len(pool):
            bad(f"artefact_pool has unknown or repeated keys {unknown or pool}; known: {list(C.ARTEFACT_BY_KEY)}")
        object.__setattr__(self, "artefact_pool", pool)
        if self.elements is not None:
            els = tuple(self.elements)
            if any(e not in C.ELEMENTS for e in els) or len(set(els)) != len(els):
                bad(f"elements must be distinct names from {C.ELEMENTS}, got {els}")
            if len(els) != self.grid[0]:
                bad(f"{self.num_players} players ({self.mode}) need {self.grid[0]} elements, got {len(els)}")
            object.__setattr__(self, "elements", els)
        if self.teams and (self.num_players != 4 or self.mode != "competitive"):
            bad("teams (2 vs 2) needs num_players=4 and mode='competitive'")
        if self.uses_artefacts and len(pool) < self.num_players * self.group_size:
            bad(f"{self.num_players} groups of {self.group_size} Artefacts need at least "
                f"{self.num_players * self.group_size} in artefact_pool, got {len(pool)}")
        if not self.uses_artefacts and (self.hidden_artefacts or self.redistribute_artefacts):
            bad("hidden_artefacts / redistribute_artefacts need Artefacts (competitive, artefacts != 'none')")
        if self.cooperative and (self.artefacts != "pairs" or pool != Config.artefact_pool):
            bad("the co-operative game uses no Artefacts: leave artefacts and artefact_pool at their defaults")
        if not self.cooperative and self.target != "great":
            bad("target is a co-operative setting (rulebook 'Co-operative Targets')")

    @property
    def cooperative(self) -> bool:
        return self.mode == "cooperative"

    @property
    def uses_artefacts(self) -> bool:
        return self.mode == "competitive" and self.artefacts != "none"

    @property
    def group_size(self) -> int:
        return C.ARTEFACTS_PER_GROUP_TRIPLES if self.artefacts == "triples" else C.ARTEFACTS_PER_GROUP

    @property
    def grid(self) -> tuple[int, int, bool]:
        """(elements, side, centre vacant): rulebook "Set up the Grid"; 2p co-op as 4p."""
        if self.cooperative and self.num_players == 2:
            return C.COOP_2P_GRID
        return C.GRID_BY_PLAYERS[self.num_players]

    @property
    def reward_scheme(self) -> str:
        return self.reward or ("score" if self.cooperative else "win")


class Game(_Game):
    """Aethermon: Collect, configured (see :class:`Config`). Holds the static tables."""

    spec = GameSpec(name="aethermon_collect", version=0, min_players=2, max_players=4,
                    information="imperfect", chance="sampled", utility="zero_sum",
                    title="Aethermon: Collect")
    codec = CODEC
    conformance_configs = (
        {"num_players": 2}, {"num_players": 3}, {"num_players": 4},
        {"num_players": 2, "mode": "cooperative"}, {"num_players": 3, "mode": "cooperative"},
        {"num_players": 4, "mode": "cooperative", "reward": "win", "target": "heroic"},
        {"num_players": 4, "teams": True}, {"num_players": 3, "hidden_artefacts": True},
        {"num_players": 2, "artefacts": "none", "reward": "score"},
        {"num_players": 4, "artefacts": "triples", "hidden_artefacts": True, "redistribute_artefacts": True},
    )
    """Configurations the conformance suite runs: every player count, mode and variant."""

    def __init__(self, **config):
        self.config = build_config(Config, config, "aethermon_collect")
        self.num_players = self.config.num_players
        n_el, side, vacant = self.config.grid
        self.num_elements = n_el
        self.side = side
        self.num_cards = n_el * C.CARDS_PER_ELEMENT
        self.in_grid = np.zeros(SQ, dtype=bool)
        for r in range(side):
            for c in range(side):
                self.in_grid[r * MAX_SIDE + c] = True
        self.grid_squares = [int(s) for s in np.flatnonzero(self.in_grid)]
        self.centre = (side // 2) * MAX_SIDE + side // 2 if vacant else -1
        self.card_squares = [s for s in self.grid_squares if s != self.centre]
        self.cooperative = self.config.cooperative  # flags read on every step
        self.axis_rule = self.cooperative and self.num_players == 2  # 2-player co-op axes
        self.redistribute = self.config.redistribute_artefacts
        self.uses_artefacts = self.config.uses_artefacts
        self.group_size = self.config.group_size
        self.hidden = self.config.hidden_artefacts
        self.teams = self.config.teams
        els = self.config.elements
        self.fixed_elements = None if els is None else sorted(C.ELEMENTS.index(e) for e in els)
        n = self.num_players  # drafting order per first player: the last player first, anti-clockwise
        self.draft_orders = [[(first - 1 - i) % n for i in range(n)] for first in range(n)]
        self.reward_scheme = self.config.reward_scheme
        self.artefact_pool = [C.ARTEFACT_BY_KEY[k].artefact_id for k in self.config.artefact_pool]
        self.corners = (0, side - 1, (side - 1) * MAX_SIDE, (side - 1) * MAX_SIDE + side - 1)
        # static move tables: per square, the destinations of each kind of move
        self.rook = [self._line_moves(s, ((0, 1), (0, -1), (1, 0), (-1, 0))) for s in range(SQ)]
        self.rook_h = [self._line_moves(s, ((0, 1), (0, -1))) for s in range(SQ)]
        self.rook_v = [self._line_moves(s, ((1, 0), (-1, 0))) for s in range(SQ)]
        self.diagonal = [self._line_moves(s, ((1, 1), (1, -1), (-1, 1), (-1, -1))) for s in range(SQ)]
        self.knight = [self._jumps(s, ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)))
                       for s in range(SQ)]
        self.adjacent = [self._jumps(s, ((0, 1), (0, -1), (1, 0), (-1, 0))) for s in range(SQ)]
        self._cards_by_elements: dict[tuple[int, ...], list[int]] = {}
        from .observation import Encoder  # encoder is separate from the rules

        self.encoder = Encoder(self)

    def _on_grid(self, r: int, c: int) -> bool:
        return 0 <= r < self.side and 0 <= c < self.side

    def _line_moves(self, sq: int, dirs) -> list[int]:
        r0, c0 = divmod(sq, MAX_SIDE)
        out = []
        if not self._on_grid(r0, c0):
            return out
        for dr, dc in dirs:
            r, c = r0 + dr, c0 + dc
            while self._on_grid(r, c):
                out.append(r * MAX_SIDE + c)
                r, c = r + dr, c + dc
        return sorted(out)

    def _jumps(self, sq: int, deltas) -> list[int]:
        r0, c0 = divmod(sq, MAX_SIDE)
        if not self._on_grid(r0, c0):
            return []
        return sorted((r0 + dr) * MAX_SIDE + c0 + dc for dr, dc in deltas if self._on_grid(r0 + dr, c0 + dc))

    def max_game_length(self) -> int:
        """Bound on decisions: setup, <= (cards + 3) collecting turns each followed by
        at most n + 2 non-collecting turns, two decisions a turn, three per Artefact."""
        n = self.num_players
        return 8 + (self.num_cards + 3) * (n + 3) * 2 + 3 * C.NUM_ARTEFACTS + n

    def has_hidden_information(self) -> bool:
        return self.config.hidden_artefacts

    def utility(self) -> str:
        if self.config.cooperative:
            return "identical"
        return "zero_sum" if self.config.reward_scheme == "win" else "general"

    def new_initial_state(self, seed: int | None = None) -> "State":
        return State(self, check_int("seed", seed, 0))

    def cards_of(self, elements) -> list[int]:
        """Card ids of the given (sorted) element ids, in order (rulebook "Set up the Grid": all
        6 cards of each Element in play). The game keeps one list per set of Elements: copy it
        to change it."""
        key = tuple(elements)
        cards = self._cards_by_elements.get(key)
        if cards is None:
            cards = self._cards_by_elements[key] = [e * C.CARDS_PER_ELEMENT + k for e in key
                                                    for k in range(C.CARDS_PER_ELEMENT)]
        return cards


class ArtefactUse(NamedTuple):
    """An entry of ``State.art_log``: ``seat`` used an Artefact with ``effect`` (a Mirror: the effect it copied)."""

    seat: int
    effect: int


class State(_State):
    """Aethermon: Collect state. Per-square and per-card fields are plain Python
    lists (fast element access); squares use the 7x7 frame (``row * 7 + col``).

    Attributes:
        rng: the state's ``numpy.random.Generator`` (all chance).
        elements: element ids in play (sorted).
        deal: turn-order deal, ``deal[p]`` = values dealt to seat ``p`` (rulebook
            "Determine Turn Order"); public.
        first_player: seat first in turn order; play is clockwise (seat + 1).
        board: list[int] (49), card id on each square, -1 if none.
        card_square: list[int] (48), square of each card on the grid, -1 if none.
        start_card: card under the Group Token when placed (3 players), -1 if none;
            ``first_turn`` is True until the first turn ends (it cannot be collected then).
        art_square: list[int] (49), Artefact id lying on each square (variant
            "Redistribute"), -1 if none.
        token: square of the Group Token.
        owner: list[int] (48), seat that collected each card, -1 if none.
        collections: list per seat of collected card ids, in order.
        score_cache: list[int] per seat, the current score (kept up to date).
        phase: one of ``PLACE_TOKEN, DRAFT, TURN, PENDING, POST_MOVE, SATCHEL, OVER``.
        turn_player: seat whose turn it is; ``decider`` is who decides now.
        groups: Artefact groups (sorted lists of artefact ids); ``group_owner[g]`` seat or -1.
        leftover: Artefacts not in a group (discarded, or kept for "Redistribute").
        art_owner: list[int] (12), seat holding each Artefact, -1 if none.
        art_used: list[bool] (12), Artefacts already used (face down, public).
        held: list per seat of its unused Artefacts (sorted ids).
        known: list per seat of 12 bools: whether the seat knows which Artefact is
            where (all True unless "Hidden Artefacts").
        draft_order: seats in drafting order; ``draft_pos`` the next index.
        pending: effect awaiting its target (an artefact id, or ``TRADE_TAKE``), -1 if none.
        trade_card: card chosen to give by the pending Trade Token, -1 if none.
        collected: whether the current turn collected an Aethermon.
        no_collect_turn: the current turn is a Stopwatch extra turn (no collecting).
        extra_turn: a Stopwatch extra turn follows the current turn.
        streak: list[bool] per seat: had a turn without collecting since the last collection.
        fence_row / fence_seat: row the Fence forbids to seat ``fence_seat`` on its next turn (-1 none).
        axis: list[int] per seat, 2-player co-op axis: -1 unset, 0 horizontal, 1 vertical.
        art_log: list of :class:`ArtefactUse` (seat, effect) in order of use (the Mirror reads it).
        turns_taken: list[bool] per seat: has taken a turn (for "Redistribute").
        redistributed: whether leftover Artefacts were put on the grid.
        satchel_set: list[int] per seat, set counted complete by a Satchel, -1 if none.
        satchel_queue: seats still to choose their Satchel set.

    Private fields serve the incremental observation encoder (``fast.py``): ``_obs_seats``
    (per seat, its last observation) and ``_obs_base`` (the observation's static part,
    shared by clones), the journals ``_collection_log`` (:class:`~.fast.Collected`) and
    ``_artefact_log`` (:class:`~.fast.ArtefactEvent`; ``_artefact_log_complete`` while it
    holds every event of the game) and ``_artefact_version`` (bumped when an Artefact changes
    hands or is seen otherwise). After editing fields directly, call :meth:`invalidate_caches`
    (or :meth:`refresh`, the same), which recomputes the derived fields and drops these.
    """

    _clone_rebuilt = ("_obs_seats",)
    """Caches ``clone()`` leaves out: the encoder's per-seat views, rebuilt on demand."""
    _clone_shared = ("elements", "deal", "groups", "leftover", "draft_order", "_obs_base")
    """Fields whose lists ``clone()`` shares with the original: the rules only ever replace
    them (``groups`` and ``leftover``: ``_redraw_hidden``, ``_redistribute``), never change
    them in place; ``_obs_base`` is the encoder's, never changed once built."""

    def __init__(self, game: Game, seed: int | None):
        self.game = game
        n = game.num_players
        self.rng = rng = np.random.default_rng(seed)
        # (rng.shuffle of a list draws exactly as rng.permutation(len(list)) does)
        self.history: list[int] = []
        # Elements in play (rulebook "Set up the Grid"; random choice: AC-A3)
        if game.fixed_elements is None:
            order = list(range(len(C.ELEMENTS)))
            rng.shuffle(order)
            self.elements = sorted(order[:game.num_elements])
        else:
            self.elements = game.fixed_elements.copy()
        cards = game.cards_of(self.elements)
        # Turn order (rulebook "Determine Turn Order"; deck = the cards in play: AC-A4)
        self.deal, self.first_player = self._deal_turn_order(cards, rng, n)
        first = self.first_player
        # Grid: all cards face up at random (rulebook "Set up the Grid")
        self.board = [-1] * SQ
        self.card_square = [-1] * C.NUM_CARDS
        shuffled = cards.copy()
        rng.shuffle(shuffled)
        for sq, c in zip(game.card_squares, shuffled):
            self.board[sq] = c
            self.card_square[c] = sq
        self.art_square = [-1] * SQ
        self.owner = [-1] * C.NUM_CARDS
        self.score_cache = [0] * n
        self.turn_player = self.decider = first
        self.token = game.centre
        self.collections: list[list[int]] = []
        self.held: list[list[int]] = []  # Artefacts (rulebook "Drafting Artefacts")
        self.known: list[list[bool]] = []
        for _ in range(n):
            self.collections.append([])
            self.held.append([])
            self.known.append([not game.hidden] * C.NUM_ARTEFACTS)
        self.art_owner = [-1] * C.NUM_ARTEFACTS
        self.art_used = [False] * C.NUM_ARTEFACTS
        self.draft_order = game.draft_orders[first]  # last player first, anti-clockwise (shared: never mutated)
        self.draft_pos = 0
        if game.uses_artefacts:
            pool = game.artefact_pool.copy()
            rng.shuffle(pool)
            g = game.group_size
            self.groups: list[list[int]] = [sorted(pool[i:i + g]) for i in range(0, n * g, g)]
            self.group_owner: list[int] = [-1] * n
            self.leftover: list[int] = sorted(pool[n * g:])
        else:
            self.groups, self.group_owner, self.leftover = [], [], []
        self.art_log: list[ArtefactUse] = []
        # the turn (rulebook "Player's Turn")
        self.start_card = -1
        self.first_turn = True
        self.pending = -1
        self.trade_card = -1
        self.collected = False
        self.no_collect_turn = False
        self.extra_turn = False
        self.fence_row = self.fence_seat = -1
        self.axis = [-1] * n
        # the end (rulebook "Ending the Game", "Scoring"; variant "Redistribute Artefacts")
        self.streak = [False] * n
        self.turns_taken = [False] * n
        self.redistributed = False
        self.satchel_set = [-1] * n
        self.satchel_queue: list[int] = []
        self._drop_observation_caches()
        self._artefact_log_complete = True  # the Artefact journal holds every event of the game so far
        self._artefact_version = 0
        # Placing the Group Token (3 players: the last player chooses a corner)
        if n == 3:
            self.phase = PLACE_TOKEN
            self.decider = (first - 1) % n
        else:
            self._begin_draft()

    @staticmethod
    def _deal_turn_order(cards, rng, n):
        """Deal 3 cards each; highest total starts; tied players draw one more until one leads."""
        deck = cards.copy()
        rng.shuffle(deck)
        pop = deck.pop
        deal, totals = [], []
        for _ in range(n):
            a, b, c = CARD_VALUE[pop()], CARD_VALUE[pop()], CARD_VALUE[pop()]
            deal.append([a, b, c])
            totals.append(a + b + c)
        best = max(totals)
        tied = list(range(n))
        while True:
            if totals.count(best) == 1:  # (the others' totals are below best)
                return deal, totals.index(best)
            tied = [p for p in tied if totals[p] == best]
            if len(deck) < len(tied):  # deck exhausted: reshuffle the cards in play (AC-A4)
                deck = cards.copy()
                rng.shuffle(deck)
            best = -1
            for p in tied:
                v = CARD_VALUE[deck.pop()]
                deal[p].append(v)
                t = totals[p] = totals[p] + v
                if t > best:
                    best = t

    def refresh(self) -> None:
        """:meth:`invalidate_caches` (this game's older name for it)."""
        self.invalidate_caches()

    def invalidate_caches(self) -> None:
        """Recompute the derived fields (``card_square``, ``score_cache``, ``held``) from
        ``board``, ``owner``/``collections`` and ``art_owner``/``art_used``, and drop the
        private caches (the legal-action memo, the encoder's caches). Call it after editing
        a state's fields directly (e.g. to build a test position)."""
        super().invalidate_caches()
        self.card_square = [-1] * C.NUM_CARDS
        for sq, c in enumerate(self.board):
            if c >= 0:
                self.card_square[c] = sq
        self.score_cache = [self.rescored(p) for p in range(self.num_players)]
        self.held = [[a for a in range(C.NUM_ARTEFACTS) if self.art_owner[a] == p and not self.art_used[a]]
                     for p in range(self.num_players)]
        self._drop_observation_caches()

    def _drop_observation_caches(self) -> None:
        """Forget the encoder's incremental caches (the next observation is built
        from scratch)."""
        self._obs_seats = None
        self._obs_base = None
        self._collection_log: list[Collected] = []
        self._artefact_log: list[ArtefactEvent] = []
        self._artefact_log_complete = False

    def __getstate__(self) -> dict:
        """Pickle and deepcopy without the encoder's caches (rebuilt on demand)."""
        d = self.__dict__.copy()
        d["_obs_seats"] = d["_obs_base"] = None
        d["_collection_log"] = []
        d["_artefact_log"] = []
        d["_artefact_log_complete"] = False
        return d

    # ---- clone: plain fields copied, static data shared ----------------------
    _LIST_FIELDS = ("history", "board", "card_square", "art_square", "owner", "score_cache", "group_owner",
                    "art_owner", "art_used", "streak", "axis", "art_log", "turns_taken", "satchel_set",
                    "satchel_queue", "_collection_log", "_artefact_log")
    """Fields holding a list of immutable items, copied by ``clone()``."""
    _NESTED_FIELDS = ("collections", "held", "known")
    """Fields holding a list of lists (one per seat), copied two levels deep by ``clone()``."""

    def clone(self) -> "State":
        """An independent copy: every field, the lists copied (:attr:`_LIST_FIELDS`,
        :attr:`_NESTED_FIELDS`) except those the rules only ever replace, which are shared
        (:attr:`_clone_shared`); the encoder's per-seat views are rebuilt on demand
        (:attr:`_clone_rebuilt`); the generator's state is copied lazily."""
        s = State.__new__(State)
        d = s.__dict__
        d.update(self.__dict__)
        for k in self._LIST_FIELDS:
            d[k] = d[k].copy()
        for k in self._NESTED_FIELDS:
            d[k] = [x.copy() for x in d[k]]
        d["_obs_seats"] = None
        self._share_rng_state(s)
        return s

    # ---- queries ---------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.decider

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def score(self, p: int) -> int:
        """Seat ``p``'s score (rulebook "Scoring"; Satchel: AC-A6), kept up to date as cards
        are collected (``score_cache``; the plain rule: :meth:`rescored`)."""
        return self.score_cache[p]

    def rescored(self, p: int) -> int:
        """Rulebook "Scoring", from seat ``p``'s collection: the value of each Aethermon, and
        the value of a complete set's cards again (a set the Satchel completes too, AC-A6)."""
        total = 0
        sets = set()
        for c in self.collections[p]:
            total += CARD_VALUE[c]
            if CARD_SET[c] >= 0:
                sets.add(CARD_SET[c])
        owner = self.owner
        for s in sets:
            members = SET_CARDS[s]
            if s == self.satchel_set[p] or all(owner[m] == p for m in members):
                total += sum(CARD_VALUE[m] for m in members if owner[m] == p)
        return total

    def scores(self) -> np.ndarray:
        """Each seat's own score (float64, shape (players,))."""
        return np.array(self.score_cache, dtype=np.float64)

    def team_scores(self) -> np.ndarray:
        """Score that decides the game for each seat: own score, partner's added in
        "2 vs 2", everyone's added in co-operative mode (float64, shape (players,))."""
        return np.array(self._team_score_list(), dtype=np.float64)

    def team_score(self, p: int) -> int:
        """Seat ``p``'s entry of :meth:`team_scores` (``p`` in ``range(num_players)``), as an
        int, with no array built: cheap in a search's inner loop."""
        return self._team_score_list()[p]

    def _team_score_list(self) -> list[int]:
        s = self.score_cache
        if self.game.cooperative:
            return [sum(s)] * len(s)
        if self.game.teams:  # 4 seats: partners sit opposite
            return [s[p] + s[(p + 2) % 4] for p in range(4)]
        return s

    def winners(self) -> list[int]:
        """Competitive winners (rulebook "Scoring": a tie goes to the player who
        acted LAST in the turn order; in 2 vs 2, to that player's team: AC-A9)."""
        ts = self._team_score_list()
        best = max(ts)
        n = len(ts)
        last = (self.first_player - 1) % n  # the seat last in turn order, then backwards
        while ts[last] != best:
            last = (last - 1) % n
        if self.game.teams:
            return sorted((last, (last + 2) % 4))
        return [last]

    def target_reached(self) -> str | None:
        """Highest co-operative target level reached by the team score, or None."""
        table = C.COOP_TARGETS[self.num_players]
        total = sum(self.score_cache)
        reached = [lvl for lvl in C.TARGET_LEVELS if total >= table[lvl]]
        return reached[-1] if reached else None

    def _terminal_returns(self) -> np.ndarray:
        g = self.game
        n = g.num_players
        if g.cooperative:
            total = sum(self.score_cache)
            if g.reward_scheme == "win":
                ok = total >= C.COOP_TARGETS[n][g.config.target]
                return np.full(n, 1.0 if ok else -1.0)
            return np.full(n, total / float(len(self.elements) * C.ELEMENT_MAX_POINTS))  # AC-A11
        if g.reward_scheme == "score":
            return self.team_scores()
        return win_loss_returns(self.winners(), n)

    def final_info(self) -> dict:
        """Extra end-of-game information for ``infos``."""
        info = {"first_player": self.first_player, "team_scores": self.team_scores()}
        if self.game.cooperative:
            info["target_reached"] = self.target_reached()
            info["targets"] = dict(C.COOP_TARGETS[self.num_players])
        else:
            info["winners"] = self.winners()
        return info

    # ---- legal actions ---------------------------------------------------------
    _legal_actions = fast.legal_actions  # the fast path; the rule: ``_legal_by_rule``

    def _legal_by_rule(self) -> list[int]:
        """Sorted legal ids (a new list)."""
        ph = self.phase
        if ph == TURN:  # rulebook "Player's Turn": move; Artefacts used before the move (AC-A6)
            return self._rook_moves() + self._use_actions(C.PRE_MOVE)  # (MOVE ids are the squares)
        if ph == POST_MOVE:  # Artefacts used after the move, or end the turn
            return self._use_actions(C.POST_MOVE) + [END_TURN]
        if ph == PENDING:
            return self._pending_options()
        if ph == DRAFT:
            return [DRAFT0 + g for g, o in enumerate(self.group_owner) if o < 0]
        if ph == PLACE_TOKEN:
            return [PLACE0 + i for i in range(4)]
        if ph == SATCHEL:
            return [SATCHEL0 + s for s in self._satchel_sets(self.decider)]
        return []

    _is_legal = fast.is_legal  # the fast path; the rule: ``action in self._legal_by_rule()``

    def _rook_moves(self) -> list[int]:
        """Rulebook "Player's Turn": a rook's move of any length within the grid,
        onto cards or empty squares; the Fence and the 2-player co-op axis rule
        restrict it. Returns a static table: do not mutate."""
        g = self.game
        p = self.turn_player
        t = self.token
        axis = self.axis[p]
        if self.fence_seat == p and self.fence_row == t // MAX_SIDE:
            axis = 1  # the Fence forbids moving along this row
        if axis < 0:
            return g.rook[t]
        return g.rook_h[t] if axis == 0 else g.rook_v[t]

    def can_collect(self, p: int, card: int) -> bool:
        """Whether seat ``p`` may collect ``card`` now (Stopwatch extra turn: no;
        co-operative: not if another player holds a card of its set)."""
        if self.no_collect_turn or (self.first_turn and card == self.start_card):
            return False  # Stopwatch extra turn; "Placing the Group Token" note
        if self.game.cooperative:
            s = CARD_SET[card]
            if s >= 0:
                for m in SET_CARDS[s]:
                    o = self.owner[m]
                    if o >= 0 and o != p:
                        return False
        return True

    def last_opponent_effect(self, p: int) -> int:
        """Effect of the Artefact most recently used by an opponent of ``p`` (-1 if
        none); in 2 vs 2 a partner is not an opponent."""
        partner = (p + 2) % 4 if self.game.teams else p
        for use in reversed(self.art_log):
            if use.seat != p and use.seat != partner:
                return use.effect
        return -1

    def _use_actions_by_rule(self, timing: str) -> list[int]:
        """USE_ARTEFACT ids of the turn player's Artefacts usable now (``timing``:
        ``C.PRE_MOVE`` or ``C.POST_MOVE``); a new list."""
        return [USE0 + a for a in self.held[self.turn_player] if self._usable(a, timing)]

    _use_actions = fast.use_actions  # the fast path; the rule: ``_use_actions_by_rule``

    def _artefact_usable(self, a: int, timing: str) -> bool:
        """Whether the turn player holds Artefact ``a`` and may use it now."""
        return a in self.held[self.turn_player] and self._usable(a, timing)

    def _usable(self, a: int, timing: str) -> bool:
        """Rulebook "Using Artefacts": at the time its text states (``timing``), when it has an
        effect now (AC-A6); a Mirror: the effect it would copy, never another Mirror's."""
        effect = a
        if a == MIRROR:
            effect = self.last_opponent_effect(self.turn_player)
            if effect < 0 or effect == MIRROR:
                return False
        return ARTEFACT_TIMING[effect] == timing and self._effect_applicable(effect)

    def _effect_applicable(self, e: int) -> bool:
        """Whether effect ``e`` can do something now (AC-A6): a target to collect, a square to
        move to, a card to swap, an empty square; the other effects always can."""
        g = self.game
        t = self.token
        if e == BEETLE:
            return bool(self._beetle_targets())
        if e == NET:
            return bool(self._net_targets())
        if e == COMPASS:
            return bool(g.diagonal[t])
        if e == GRAPPLING_HOOK:
            return bool(g.knight[t])
        if e == TRADE_TOKEN:  # a card collected, and one on the grid
            return bool(self.collections[self.turn_player]) and self.board.count(-1) < SQ
        if e == MAGNET:  # an empty square other than the token's
            return self._empty_square_count() > 0
        return True  # gloves, lantern, stopwatch, fence

    def _empty_square_count(self) -> int:
        """Squares of the grid with neither a card nor an Artefact, the token's excepted
        (``len(self._empty_squares())``)."""
        occupied = SQ - self.board.count(-1) + SQ - self.art_square.count(-1)
        token_empty = self.board[self.token] < 0 and self.art_square[self.token] < 0
        return len(self.game.grid_squares) - occupied - token_empty

    def _beetle_targets(self) -> list[int]:
        """Wind-up Beetle: the Aethermon orthogonally adjacent to the Group Token that the turn
        player may collect (squares)."""
        p = self.turn_player
        board = self.board
        return [s for s in self.game.adjacent[self.token] if board[s] >= 0 and self.can_collect(p, board[s])]

    def _empty_squares(self) -> list[int]:
        """Squares of the grid with neither a card nor an Artefact, the token's excepted."""
        board, arts, t = self.board, self.art_square, self.token
        return [s for s in self.game.grid_squares if board[s] < 0 and arts[s] < 0 and s != t]

    def _net_targets(self) -> list[int]:
        """Net: the Aethermon adjacent to the Group Token, of a set the turn player has
        started, that it may collect (squares)."""
        p = self.turn_player
        board = self.board
        started = {CARD_SET[c] for c in self.collections[p]} - {-1}
        return [s for s in self.game.adjacent[self.token]
                if board[s] >= 0 and CARD_SET[board[s]] in started and self.can_collect(p, board[s])]

    def _pending_options(self) -> list[int]:
        """The targets of the Artefact just used (AC-A6)."""
        g = self.game
        e = self.pending
        t = self.token
        if e == BEETLE:
            return [TARGET0 + s for s in self._beetle_targets()]
        if e == NET:
            return [TARGET0 + s for s in self._net_targets()]
        if e == COMPASS:
            return [MOVE0 + s for s in g.diagonal[t]]
        if e == GRAPPLING_HOOK:
            return [MOVE0 + s for s in g.knight[t]]
        if e == LANTERN:  # the Fence also forbids a step along the fenced row
            if self.fence_seat == self.turn_player and self.fence_row == t // MAX_SIDE:
                return [MOVE0 + s for s in g.adjacent[t] if s // MAX_SIDE != self.fence_row]
            return [MOVE0 + s for s in g.adjacent[t]]
        if e == MAGNET:
            return [MOVE0 + s for s in self._empty_squares()]
        if e == TRADE_TOKEN:
            return sorted(GIVE0 + c for c in self.collections[self.turn_player])
        if e == TRADE_TAKE:
            return [TARGET0 + s for s in g.grid_squares if self.board[s] >= 0]
        raise AssertionError(f"no options for pending effect {e}")

    def _satchel_sets(self, p: int) -> list[int]:
        """Incomplete 2-card sets of which ``p`` holds a card (AC-A6)."""
        out = set()
        for c in self.collections[p]:
            card = C.CARDS[c]
            if card.set_size == 2 and any(self.owner[m] != p for m in SET_CARDS[card.set_id]):
                out.add(card.set_id)
        return sorted(out)

    # ---- apply -------------------------------------------------------------------
    _apply_action = fast.apply_action  # the fast path; the rule: ``_apply_by_rule``

    def _apply_by_rule(self, action: int) -> None:
        """The effect of a legal action, by phase."""
        ph = self.phase
        block, i = DECODED[action]
        if ph == TURN and block == "MOVE":  # rulebook "Player's Turn": a rook move
            if self.game.axis_rule:
                self._bind_axis(i)
            self._arrive(i, collect=True)
            self._after_move()
        elif ph == PLACE_TOKEN:
            self.token = self.game.corners[i]
            self.start_card = self.board[self.token]
            self._begin_draft()
        elif ph == DRAFT:
            self._draft(self.decider, i)
        elif ph == TURN or (ph == POST_MOVE and block == "USE_ARTEFACT"):
            self._use_artefact(i)
        elif ph == POST_MOVE:
            self._end_turn()
        elif ph == PENDING:
            self._resolve_pending(i)
        elif ph == SATCHEL:
            self.satchel_set[self.decider] = i
            self.score_cache[self.decider] = self.rescored(self.decider)
            self._next_satchel()

    def _bind_axis(self, dest: int) -> None:
        """Rulebook "2-Player Co-operative": the first player's first move fixes its
        axis; the second player may only move along the other axis."""
        p = self.turn_player
        if self.axis[p] < 0:
            a = 0 if dest // MAX_SIDE == self.token // MAX_SIDE else 1
            self.axis[p] = a
            self.axis[1 - p] = 1 - a

    def _begin_draft(self) -> None:
        if not self.game.uses_artefacts:
            self._start_turn(self.first_player)
            return
        self.phase = DRAFT
        self.draft_pos = 0
        self._next_drafter()

    def _next_drafter(self) -> None:
        """Rulebook "Drafting Artefacts": last player first, anti-clockwise; the first
        player is left with the remaining group. Hidden variant: a drafter sees the
        groups still on offer when it is their turn to draft."""
        remaining = [g for g, o in enumerate(self.group_owner) if o < 0]
        p = self.draft_order[self.draft_pos]
        if self.game.hidden:  # p sees them (otherwise every Artefact is known)
            self._artefact_version += 1
            for g in remaining:
                for a in self.groups[g]:
                    self.known[p][a] = True
        if len(remaining) == 1:
            self._draft(p, remaining[0])
            return
        self.phase = DRAFT
        self.decider = p

    def _draft(self, p: int, g: int) -> None:
        self._artefact_log.append(ArtefactEvent(fast.DRAFTED, p, g, fast.NOT_LOGGED))
        self.group_owner[g] = p
        for a in self.groups[g]:
            self.art_owner[a] = p
            self.known[p][a] = True
        self.held[p] = sorted(self.held[p] + self.groups[g])
        self.draft_pos += 1
        if self.draft_pos < self.num_players:
            self._next_drafter()
        else:
            self._start_turn(self.first_player)

    def _start_turn(self, p: int, extra: bool = False) -> None:
        self.phase = TURN
        self.turn_player = self.decider = p
        self.collected = False
        self.no_collect_turn = extra

    def _arrive(self, sq: int, collect: bool) -> None:
        """The Group Token lands on ``sq``; collect the Aethermon there if allowed
        (rulebook "Player's Turn"), pick up an Artefact lying there (AC-A7)."""
        self.token = sq
        if not collect:
            return
        p = self.turn_player
        card = self.board[sq]
        if card >= 0 and self.can_collect(p, card):
            self._collect(p, sq)
        if self.art_square[sq] >= 0:
            self._pick_up(p, sq)

    def _pick_up(self, p: int, sq: int) -> None:
        """Seat ``p`` takes the Artefact lying on ``sq`` (AC-A7)."""
        a = self.art_square[sq]
        self._artefact_version += 1
        self.art_square[sq] = -1
        self.art_owner[a] = p
        self.known[p][a] = True
        self.held[p] = sorted(self.held[p] + [a])

    def _collect(self, p: int, sq: int) -> None:
        """Seat ``p`` collects the Aethermon on ``sq``; its score grows by the card's value,
        and by the set's value once the set is complete (rulebook "Scoring")."""
        card = self.board[sq]
        self.board[sq] = -1
        self.card_square[card] = -1
        self.owner[card] = p
        self.collections[p].append(card)
        self._collection_log.append(Collected(card, sq, p))
        self.collected = True
        score = CARD_VALUE[card]
        others = SET_OTHERS[card]
        if others:
            for m in others:
                if self.owner[m] != p:
                    break
            else:  # p holds every other card of its set: the set is complete
                score += SET_VALUE[CARD_SET[card]]
        self.score_cache[p] += score

    def _after_move(self) -> None:
        """After the move: the turn player may use an after-move Artefact (AC-A6), or the turn ends."""
        if self._use_actions(C.POST_MOVE):
            self.phase = POST_MOVE
            self.decider = self.turn_player
        else:
            self._end_turn()

    def _use_artefact(self, a: int) -> None:
        """Rulebook "Using Artefacts": each once, at the time its text states (AC-A6)."""
        p = self.turn_player
        effect = self.last_opponent_effect(p) if a == MIRROR else a
        self._artefact_log.append(ArtefactEvent(fast.USED, p, a, effect))
        self.art_used[a] = True
        self.held[p].remove(a)
        for k in self.known:  # a used Artefact has been shown
            k[a] = True
        self.art_log.append(ArtefactUse(p, effect))
        if effect == GLOVES:
            self._end_turn()
        elif effect == STOPWATCH:
            self.extra_turn = True
        elif effect == FENCE:
            self.fence_row = self.token // MAX_SIDE
            self.fence_seat = (p + 1) % self.num_players
            self._after_move()
        else:
            self.pending = effect
            self.phase = PENDING

    def _resolve_pending(self, i: int) -> None:
        e = self.pending
        p = self.turn_player
        self.pending = -1
        self.phase = TURN
        if e == BEETLE or e == NET:  # the Beetle replaces the move; the Net follows it
            self._collect(p, i)
            self._after_move()
        elif e == COMPASS or e == GRAPPLING_HOOK:  # replace the move
            self._arrive(i, collect=True)
            self._after_move()
        elif e == LANTERN or e == MAGNET:  # precede the move, collect nothing
            self._arrive(i, collect=False)
        elif e == TRADE_TOKEN:
            self.trade_card = i
            self.pending = TRADE_TAKE
            self.phase = PENDING
        elif e == TRADE_TAKE:  # swap: never counts as collecting (AC-A6)
            give = self.trade_card
            take = self.board[i]
            self.collections[p].remove(give)
            self.owner[give] = -1
            self.board[i] = give
            self.card_square[give] = i
            self.card_square[take] = -1
            self.owner[take] = p
            self.collections[p].append(take)
            self.trade_card = -1
            self.score_cache[p] = self.rescored(p)
            self._drop_observation_caches()

    def _end_turn(self) -> None:
        """Rulebook "Player's Turn": the next player clockwise; "Ending the Game"."""
        g = self.game
        n = g.num_players
        p = self.turn_player
        # "Ending the Game" (competitive, AC-A8): streak[q] is whether seat q has had a turn
        # without collecting since the last collection (a skipped turn, Boxing Gloves, and a
        # Stopwatch extra turn count); the game ends once every seat has
        if self.collected:
            self.streak = [False] * n
        else:
            self.streak[p] = True
        over = (not self.collected) if g.cooperative else all(self.streak)
        self.turns_taken[p] = True
        if g.redistribute and not self.redistributed and all(self.turns_taken):
            self._redistribute()
        if over:
            self._game_end()
            return
        if self.fence_seat == p:  # the Fence bound this turn only
            self.fence_row = self.fence_seat = -1
        self.first_turn = False
        self.phase = TURN
        self.collected = False
        if self.extra_turn:  # Stopwatch: the same player again, collecting nothing
            self.extra_turn = False
            self.decider = p
            self.no_collect_turn = True
        else:
            self.turn_player = self.decider = (p + 1) % n
            self.no_collect_turn = False

    def _redistribute(self) -> None:
        """Variant "Redistribute Artefacts" (AC-A7): once every player has taken a
        turn, the leftover Artefacts fill empty squares, both in random order."""
        self.redistributed = True
        self._artefact_version += 1
        empty = self._empty_squares()
        order = self.rng.permutation(len(empty)).tolist() if empty else []
        arts = self.rng.permutation(self.leftover).tolist() if self.leftover else []
        k = min(len(order), len(arts))
        for j in range(k):
            self.art_square[empty[order[j]]] = arts[j]
        self.leftover = sorted(arts[k:])

    def _game_end(self) -> None:
        """Rulebook "Scoring": a Satchel's owner chooses the set it completes (AC-A6), in turn order."""
        n = self.num_players
        if self.art_owner[SATCHEL_ARTEFACT] >= 0 and not self.art_used[SATCHEL_ARTEFACT]:  # someone holds the Satchel
            seats = [(self.first_player + i) % n for i in range(n)]
            self.satchel_queue = [p for p in seats if self._has_satchel_choice(p)]
        self._next_satchel()

    def _has_satchel_choice(self, p: int) -> bool:
        return SATCHEL_ARTEFACT in self.held[p] and bool(self._satchel_sets(p))

    def _next_satchel(self) -> None:
        if self.phase == SATCHEL:
            self._artefact_log.append(ArtefactEvent(fast.USED, self.decider, SATCHEL_ARTEFACT, fast.NOT_LOGGED))
            self.art_used[SATCHEL_ARTEFACT] = True
            self.held[self.decider].remove(SATCHEL_ARTEFACT)
            for k in self.known:
                k[SATCHEL_ARTEFACT] = True
        if self.satchel_queue:
            self.phase = SATCHEL
            self.decider = self.satchel_queue.pop(0)
        else:
            self.phase = OVER

    # ---- hidden information ------------------------------------------------------
    def _redraw_hidden(self, player: int, rng: np.random.Generator) -> None:
        """Hidden Artefacts: permute the identities of the Artefacts ``player`` does
        not know among the places they lie (groups, hands, leftovers, grid). In the
        SATCHEL phase everyone sees who is choosing a Satchel set, so the Satchel
        stays where it is."""
        placed = {a for grp in self.groups for a in grp} | set(self.leftover) | {a for a in self.art_square if a >= 0}
        satchel_public = self.phase == SATCHEL
        unknown = [a for a in range(C.NUM_ARTEFACTS) if not self.known[player][a] and a in placed
                   and not (satchel_public and a == SATCHEL_ARTEFACT)]
        if len(unknown) < 2:
            return
        perm = [unknown[j] for j in rng.permutation(len(unknown)).tolist()]
        mapping = dict(zip(unknown, perm))

        def relabel(a: int) -> int:
            return mapping.get(a, a)

        self.groups = [sorted(map(relabel, grp)) for grp in self.groups]
        self.leftover = sorted(map(relabel, self.leftover))
        self.art_square = [relabel(a) if a >= 0 else -1 for a in self.art_square]
        self.held = [sorted(map(relabel, h)) for h in self.held]
        self._drop_observation_caches()
        owner, used = self.art_owner.copy(), self.art_used.copy()
        known = [k.copy() for k in self.known]
        for old, new in mapping.items():
            self.art_owner[new] = owner[old]
            self.art_used[new] = used[old]
            for q in range(self.num_players):
                self.known[q][new] = known[q][old]

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

    # ---- text picture ------------------------------------------------------------
    def render_text(self) -> str:
        """Neutral (public) view: the grid, collections, scores, Artefacts, whose turn."""
        g = self.game
        cfg = g.config
        n = self.num_players
        lines = [f"Aethermon: Collect  {n} players  {cfg.mode}"
                 + (" (2 vs 2)" if cfg.teams else "") + f"  phase: {PHASE_NAMES[self.phase]}"]
        lines.append("     " + "".join(f"   {COLUMN_LETTERS[c]}   " for c in range(g.side)).rstrip())
        for r in range(g.side):
            row = []
            for c in range(g.side):
                sq = r * MAX_SIDE + c
                card = self.board[sq]
                if card >= 0:
                    k = C.CARDS[card]
                    cell = f"{C.ELEMENTS[k.element_id][:2]}{k.value}{'TD-'[3 - k.set_size]}"
                elif self.art_square[sq] >= 0:
                    cell = " ?? " if cfg.hidden_artefacts else f" A{self.art_square[sq]:<2}"
                else:
                    cell = " .. "
                row.append(f"[{cell}]" if sq == self.token else f" {cell} ")
            lines.append(f"{r + 1:>3}  " + " ".join(row))
        lines.append("cards: <Element><value><T=trio set, D=duo set, -=no set>; [ ] = Group Token")
        order = [(self.first_player + i) % n for i in range(n)]
        lines.append("turn order: " + " -> ".join(f"player_{p}" for p in order))
        for p in range(n):
            col = sorted(self.collections[p])
            cards = " ".join(f"{C.ELEMENTS[C.CARDS[c].element_id][:2]}{C.CARDS[c].value}{'TD-'[3 - C.CARDS[c].set_size]}"
                             for c in col)
            arts = []
            for a in range(C.NUM_ARTEFACTS):
                if self.art_owner[a] == p:
                    name = C.ARTEFACTS[a].name if (not cfg.hidden_artefacts or self.art_used[a]) else "?"
                    arts.append(name + (" (used)" if self.art_used[a] else ""))
            arts.sort(key=lambda x: x == "?")  # hidden ones last: their order would tell their ids
            marker = ">" if p == self.current_player() else " "
            lines.append(f"{marker} player_{p}: score {self.score(p):>3}  cards: {cards or '-'}"
                         + (f"  artefacts: {', '.join(arts)}" if cfg.uses_artefacts else ""))
        if self.phase == DRAFT:
            for gi, grp in enumerate(self.groups):
                who = "free" if self.group_owner[gi] < 0 else f"player_{self.group_owner[gi]}"
                names = "?" if cfg.hidden_artefacts else ", ".join(C.ARTEFACTS[a].name for a in grp)
                lines.append(f"  group {gi} ({who}): {names}")
        if self.phase == OVER:
            if cfg.cooperative:
                lines.append(f"game over: team score {sum(self.score_cache)}, "
                             f"highest target reached: {self.target_reached() or 'none'}")
            else:
                lines.append(f"game over: winners {['player_%d' % w for w in self.winners()]}")
        else:
            lines.append(f"to act: player_{self.current_player()}")
        return "\n".join(lines)
