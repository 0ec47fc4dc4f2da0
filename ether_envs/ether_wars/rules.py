"""Ether Wars rules engine (numpy only): Config, Game, State.

The State's fields, setup, the round structure (``_phase_step``: New Day,
Mercenaries, Placement, Movement, Resolution, Maintenance), the legal actions of
each decision (``_legal_by_rule``) and their effects (``_apply_action``), the end,
hidden information and ``clone``. Rule topics of their own are mixins of
:class:`State`: the favour windows (``favours.FavourRules``) and the Resolution
phase (``resolution.ResolutionRules``). The action codec, decision kinds and phases
are in ``codec.py``; the fast paths the engine takes in ``fast.py``.

Rulebook sections are quoted by their headings (``rulebook "Placement"``);
assumptions by id (``EW-A<n>``, listed in ``RULES.md`` with the state machine).
Seats are 0-based and clockwise; actions that name a seat or a Silo are relative
to the acting player (``codec.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import Game as _Game, GameSpec, State as _State, TERMINAL, win_loss_returns, build_config, check_int
from . import components as C
from . import fast
from .codec import (
    ABILITY0, ADD0, AREA0, AREA_CHARGE0, CODEC, CONDUIT, D_ETHER_DIE, D_HERO, D_MERCENARY, D_UNIT, DECISION_NAMES,
    DECODED, DISCARD0, DONE, EXTRA_ETHER, FACTION0, HIRE0, KEEP0, MOVE0, PASS, PHASE_NAMES, PLAY0, RESOURCE0, SEAT0,
    RESOLUTION_DECISIONS, WINDOW_DECISIONS, W_PHASE,
    K_ABILITY, K_ADD, K_CONDUIT, K_DISCARD, K_END_ETHER, K_FACTION, K_FERTILE, K_GAIN, K_HIRE, K_KEEP, K_MOVE,
    K_MOVE_TO, K_NONE, K_PLACE, K_RESPONSE, K_SMUGGLE_RES, K_SMUGGLE_SEAT, K_WINDOW,
    MAINTENANCE, MERCS, MOVEMENT, NEW_DAY, OVER, PLACEMENT, PREP, RESOLUTION,
)
from .favours import FavourRules
from .resolution import ResolutionRules

FAVOUR_MODES = ("beginner", "advanced")
DICE_BATCH = 32
"""Six-sided dice are drawn from ``State.rng`` this many at a time (one generator call), kept in
``State.dice`` until rolled."""
ROUND_DECISION_BOUND = 4000
"""Generous bound on decisions in one round (for ``max_game_length``)."""
MOVE_COST = (C.MOVE_COST_UNIT, C.MOVE_COST_HERO, C.MOVE_COST_MERC)
"""Coltan to move a die of each ``codec.MOVE_KINDS`` kind (unit, hero, mercenary)."""


@dataclass(frozen=True)
class Config:
    """Ether Wars configuration (keyword arguments of ``make``/``load_game``).

    Attributes:
        num_players: 2..4 (rulebook: 2-4 players).
        favours: ``"beginner"`` (draw 3 Favours) or ``"advanced"`` (draft 5, keep 3):
            rulebook "Preparation".
        max_rounds: the game stops after this many rounds with no winner
            (all returns 0, ``infos["truncated"] = True``); EW-A13. Default 60.
    """

    num_players: int = 2
    favours: str = "beginner"
    max_rounds: int = 60

    def __post_init__(self):
        if not isinstance(self.num_players, int) or not 2 <= self.num_players <= 4:
            raise ValueError(f"ether_wars config: num_players must be 2, 3 or 4, got {self.num_players!r}")
        if self.favours not in FAVOUR_MODES:
            raise ValueError(f"ether_wars config: favours must be one of {FAVOUR_MODES}, got {self.favours!r}")
        if not isinstance(self.max_rounds, int) or self.max_rounds < 1:
            raise ValueError(f"ether_wars config: max_rounds must be a positive int, got {self.max_rounds!r}")


class Game(_Game):
    """Ether Wars, configured (see :class:`Config`).

    Attributes:
        ether_to_win: Ether that wins at once (rulebook "Objective of the Game").
        extraction_cost: pips per resource extracted, printed on the board (rulebook "Areas of
            the Board"): the one place the rules and the picture read it from.
    """

    spec = GameSpec(name="ether_wars", version=1, min_players=2, max_players=4, information="imperfect",
                    chance="sampled", utility="zero_sum", title="Ether Wars")
    codec = CODEC
    conformance_configs = (
        {"num_players": 2, "max_rounds": 4}, {"num_players": 3, "max_rounds": 2},
        {"num_players": 4, "max_rounds": 1}, {"num_players": 3, "favours": "advanced", "max_rounds": 1},
    )
    """Every player count and favour mode; ``max_rounds`` keeps the suite short (whole games to
    the Ether win are played in ``tests/ether_wars/test_playouts.py``)."""

    def __init__(self, **config):
        self.config = build_config(Config, config, "ether_wars")
        self.num_players = n = self.config.num_players
        self.ether_to_win = C.ETHER_TO_WIN[n]
        self.extraction_cost = C.EXTRACTION_COST
        # seat and area tables (``State.order``, ``State.rel_area``)
        self.seat_orders = tuple(tuple((s + i) % n for i in range(n)) for s in range(n))
        """``seat_orders[s]``: the seats clockwise from ``s``."""
        self.seats_in_order = tuple(tuple(tuple(q for q in order if mask >> q & 1) for mask in range(1 << n))
                                    for order in self.seat_orders)
        """``seats_in_order[s][mask]``: the seats in bit ``mask``, clockwise from ``s``."""
        self.rel_areas = tuple(tuple(a if a < C.SILO0 else C.SILO0 + (a - C.SILO0 - p) % n
                                     for a in range(C.NUM_AREAS)) for p in range(n))
        """``rel_areas[p][a]``: ``p``-relative index of absolute area ``a``."""
        self.abs_areas = tuple(tuple(i if i < C.SILO0 else C.SILO0 + (p + i - C.SILO0) % n
                                     for i in range(C.NUM_AREAS)) for p in range(n))
        """``abs_areas[p][i]``: absolute area of ``p``-relative area index ``i``."""
        self.area_actions = fast.AreaActionTable(self.rel_areas).actions
        """``area_actions(p, mask, base, tail)``: the sorted action ids ``base + rel_areas[p][a]`` of
        the areas ``a`` in bit ``mask``, then ``tail`` (a fresh list)."""
        from .observation import Encoder

        self.encoder = Encoder(self)

    def max_game_length(self) -> int:
        """Bound on decisions: preparation plus ``ROUND_DECISION_BOUND`` per round."""
        return 200 + self.config.max_rounds * ROUND_DECISION_BOUND

    def new_initial_state(self, seed: int | None = None) -> "State":
        return State(self, check_int("seed", seed, 0))


class State(FavourRules, ResolutionRules, _State):
    """Ether Wars state. All per-seat lists are indexed by absolute seat.

    Attributes:
        phase: one of ``PHASE_NAMES``; ``decision``: the kind of the pending decision (one of
            ``DECISION_NAMES``), ``decider``: the seat that makes it.
        first: first player; ``round``: round number (1-based).
        faction, ability: per seat; ``ability`` is the card index 0..3 chosen this round
            (-1 none); ``revealed``: whether the chosen cards are face up.
        res: per seat [Protein, Coltan, Plasma, Crystal, Ether]; ``charge``: Charges.
        home_units, reserve: Units on the sheet / in reserve; ``units_at[p][a]`` on the board.
        hero_at: area of each Hero (-1 on the sheet). ``merc_owner``/``merc_at`` per Mercenary;
            ``hired``: each seat's Mercenary (-1 none).
        ether_ctrl: controller of the Ether die (-1 none); ``ether_placed``: it is in the Ether Fault.
        hand: favour counts per seat and kind; ``fdeck``/``fdiscard``: the Favour deck and
            discards; ``edeck``/``ediscard``, ``event``: the Event deck, discards, this round's Event.
        placed: per seat bit mask of areas placed this round; ``passed``: passed Placement.
        turn: the seat whose Placement turn it is / the Resolution turn's index in seat order.
        add_area, add_count: the area of the Placement turn and the dice added there so far.
        move_pick: the die picked to move (``MOVE_DIE`` index).
        arrival: per area, seats in order of arrival this round (ties: rulebook "Combat action").
        queue: the seats still to decide in the current step, in order.
        contract, rerolls, medic_free, channelled, extra_used, conduit_used: per seat, this
            round: Contract played, Priestess rerolls left, Medic free shields left, channelled,
            took the extra Ether, used Conduit.
        aggressive_silo: per seat, at least two of its Units attack a Silo (Dracon Aggressive).
        packs, draft_round: advanced draft packs and pick number.
        gain_seat, gain_left: a pending choice of resources (VAI Hero Skill, Assimilate).
        window: the open favour window (``favours.FavourWindow``) or None.
        resolving: the area being resolved (``resolution.AreaResolution``) or None.
        winner, truncated: the end (``winner`` -1: none yet or truncated).
        first_rolls: the Ether die rolls for first player (never changed after setup).
        dice: die faces (0..5) already drawn from ``rng`` and not rolled yet, the next one last
            (``roll_d6``; hidden from every player, emptied when ``rng`` is replaced).
        _legal_cache: the sorted legal actions of the current decision, or None until asked (reset
            by ``invalidate_caches()`` after direct field edits); a private cache, so not part of
            ``snapshot()`` (equal positions have equal snapshots whatever was asked before).
        _counted_seats, _exempt_seats: ``occupancy()``, kept up to date as dice come and go.
        _placement_legal, _placement_kinds, _placement_kind_areas: the legal actions of the last
            Placement decision, the kinds of dice at home then and the areas of each
            (``fast.placement_legal``).
    """

    def __init__(self, game: Game, seed: int | None):
        self.game = game
        n = game.num_players
        self.rng = np.random.default_rng(seed)  # (also empties ``dice``)
        self.history: list[int] = []
        self.round = 0
        self.phase = PREP
        self.decision, self.decider = K_NONE, 0
        self.winner = -1
        self.truncated = False
        self.faction = [-1] * n
        self.ability = [-1] * n
        self.revealed = False
        self.res = [[C.START_PROTEIN, 0, 0, 0, 0] for _ in range(n)]
        self.charge = [C.START_CHARGE] * n
        self.home_units = [C.START_UNITS] * n
        self.reserve = [C.RESERVE_UNITS] * n
        self.units_at = [[0] * C.NUM_AREAS for _ in range(n)]
        self.hero_at = [-1] * n
        self.merc_owner = [-1] * C.NUM_MERCS
        self.merc_at = [-1] * C.NUM_MERCS
        self.hired = [-1] * n
        self.ether_ctrl = -1
        self.ether_placed = False
        self.hand = [[0] * C.NUM_FAVOURS for _ in range(n)]
        self.fdeck = [int(x) for x in self.rng.permutation(C.FAVOUR_DECK)]
        self.fdiscard: list[int] = []
        self.edeck = [int(x) for x in self.rng.permutation(C.EVENT_DECK)]
        self.ediscard: list[int] = []
        self.event = -1
        self.placed = [0] * n
        self.passed = [False] * n
        self.arrival = [[] for _ in range(C.NUM_AREAS)]
        self.queue: list[int] = []
        self.turn = 0
        self.add_count = 0
        self.add_area = -1
        self.move_pick = -1
        self.contract = [False] * n
        self.rerolls = [0] * n
        self.medic_free = [0] * n
        self.channelled = [False] * n
        self.extra_used = [False] * n
        self.conduit_used = [False] * n
        self.aggressive_silo = [False] * n
        self.packs: list[list[int]] = [[] for _ in range(n)]
        self.draft_round = 0
        self.window = None
        self.resolving = None
        self.gain_left = 0
        self.gain_seat = -1
        self._legal_cache: list[int] | None = None
        self._counted_seats = [0] * C.NUM_AREAS
        self._exempt_seats = [0] * C.NUM_AREAS
        self._placement_legal: list[int] | None = None
        self._placement_kinds: list[int] = []
        self._placement_kind_areas: list[int] = []
        # first player: everyone rolls the Ether die, ties roll again (rulebook "Preparation"; EW-A8)
        tied = list(range(n))
        self.first_rolls: list[list[int]] = []  # one row per roll; 0 = did not roll
        while len(tied) > 1:
            rolls = [0] * n
            for p in tied:
                rolls[p] = C.ETHER_DIE[self.roll_d6()]
            self.first_rolls.append(rolls)
            best = max(rolls)
            tied = [p for p in tied if rolls[p] == best]
        self.first = tied[0]
        self.queue = self.order()
        self._decide(K_FACTION, self.queue[0])

    # ---- chance ------------------------------------------------------------------
    _drawn_ahead = ("dice",)
    """``dice`` holds die faces drawn ahead (``_draw_dice``): a new generator drops them."""

    def roll_d6(self) -> int:
        """Roll a six-sided die: a face index 0..5 (uniform), the next of ``dice``, which is
        refilled from ``rng`` ``DICE_BATCH`` dice at a time."""
        dice = self.dice
        if not dice:
            dice = self.dice = self._draw_dice(DICE_BATCH)
        return dice.pop()

    def roll_d6s(self, k: int) -> list[int]:
        """Roll ``k`` six-sided dice at once: the next ``k`` of ``dice`` (refilled when short)."""
        dice = self.dice
        if len(dice) < k:
            dice = self.dice = self._draw_dice(DICE_BATCH + k) + dice
        out = dice[-k:]
        out.reverse()
        del dice[-k:]
        return out

    def _draw_dice(self, k: int) -> list[int]:
        """``k`` die faces from ``rng`` in one call, the first drawn last (``dice`` pops from its end)."""
        out = self.rng.integers(0, 6, size=k).tolist()
        out.reverse()
        return out

    # ---- clone ------------------------------------------------------------------
    CLONED_LISTS = ("history", "dice", "faction", "ability", "charge", "home_units", "reserve", "hero_at",
                    "merc_owner", "merc_at", "hired", "fdeck", "fdiscard", "edeck", "ediscard", "placed",
                    "passed", "queue", "contract", "rerolls", "medic_free", "channelled", "extra_used",
                    "conduit_used", "aggressive_silo", "_counted_seats", "_exempt_seats")
    """Fields that are lists of ints or bools: ``clone`` copies them."""
    CLONED_NESTED_LISTS = ("res", "units_at", "hand", "arrival", "packs")
    """Fields that are lists of lists of ints: ``clone`` copies them two levels deep."""
    CLONED_RECORDS = ("window", "resolving")
    """Fields holding a record with its own ``copy()`` (or None): ``clone`` copies them."""
    _clone_shared = ("game", "first_rolls", "_legal_cache", "_placement_legal", "_placement_kinds",
                     "_placement_kind_areas", "_legal_memo")
    """Mutable fields a clone shares with its original: the game, what never changes after setup
    (``first_rolls``) and caches that are replaced, never edited in place."""
    RNG_FIELDS = ("_rng", "_rng_state", "_rng_seed")
    """The chance generator (the base class's), copied lazily by ``_share_rng_state``. Every other
    field holds an immutable value; ``tests/ether_wars/test_clone.py`` checks that a clone shares
    nothing else with its original."""

    def clone(self) -> "State":
        """An independent copy: the fields of ``CLONED_LISTS``, ``CLONED_NESTED_LISTS`` and
        ``CLONED_RECORDS`` are copied, the others shared (immutable values, ``_clone_shared``);
        the chance generator's state is copied lazily (``RNG_FIELDS``: ``State._share_rng_state``)."""
        s = State.__new__(State)
        d = s.__dict__
        d.update(self.__dict__)
        for k in self.CLONED_LISTS:
            d[k] = d[k][:]
        for k in self.CLONED_NESTED_LISTS:
            d[k] = [x[:] for x in d[k]]
        for k in self.CLONED_RECORDS:
            if d[k] is not None:
                d[k] = d[k].copy()
        self._share_rng_state(s)
        return s

    # ---- basic queries ------------------------------------------------------------
    def order(self, start: int | None = None) -> list[int]:
        """Seats clockwise from ``start`` (default: the first player)."""
        return list(self.game.seat_orders[self.first if start is None else start])

    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.decider

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def scores(self) -> np.ndarray:
        """Each player's Ether (float64, shape (players,))."""
        return np.array([r[C.ETHER] for r in self.res], dtype=np.float64)

    def _terminal_returns(self) -> np.ndarray:
        return win_loss_returns([self.winner] if self.winner >= 0 else [], self.num_players)

    def final_info(self) -> dict:
        winners = [self.winner] if self.winner >= 0 else []
        return {"winner": self.winner, "winners": winners, "truncated": self.truncated, "rounds": self.round}

    def is_truncated(self) -> bool:
        """The ``max_rounds`` limit ended the game (EW-A13): the env reports truncation."""
        return self.truncated

    def ability_key(self, p: int) -> str:
        """Key of ``p``'s Faction ability card in effect this round ('' if none)."""
        card = self.ability[p]
        if card < 0:
            return ""
        return C.ABILITY_KEY[self.faction[p] * C.CARDS_PER_FACTION + card]

    def event_key(self) -> str:
        """Key of this round's Event ('' before the first)."""
        return C.EVENT_KEY[self.event] if self.event >= 0 else ""

    def abs_area(self, p: int, i: int) -> int:
        """Absolute area of ``p``-relative area index ``i`` (Silos are seat-relative)."""
        return self.game.abs_areas[p][i]

    def rel_area(self, p: int, a: int) -> int:
        """``p``-relative area index of absolute area ``a``."""
        return self.game.rel_areas[p][a]

    def bank(self, r: int) -> int:
        """Tokens of resource ``r`` left in the box (rulebook "Components": a hard limit)."""
        left = C.POOL[r]
        for x in self.res:
            left -= x[r]
        return left

    def gain(self, p: int, r: int, k: int) -> int:
        """Give ``p`` up to ``k`` of resource ``r`` (capped by the box); checks the Ether win
        (rulebook "Objective of the Game": the moment a player has the Ether, it wins)."""
        left = C.POOL[r]  # ``bank(r)``
        for x in self.res:
            left -= x[r]
        if k > left:
            k = left
        if k < 0:
            k = 0
        self.res[p][r] += k
        if r == C.ETHER and self.res[p][C.ETHER] >= self.game.ether_to_win and self.phase != OVER:
            self.winner = p
            self.phase = OVER
            self.decision = K_NONE
        return k

    def gain_charge(self, p: int, k: int = 1) -> None:
        left = C.CHARGE_POOL - sum(self.charge)
        if k > left:
            k = left
        if k > 0:
            self.charge[p] += k

    def _decide(self, kind: int, seat: int, legal: list[int] | None = None) -> None:
        """Pose decision ``kind`` to ``seat``. ``legal``: its sorted legal actions when the
        caller has them already (only if nothing changes before the decision is returned;
        the fast paths' lists, checked against ``_legal_by_rule``)."""
        self.decision, self.decider = kind, seat
        self._legal_cache = legal

    # ---- dice locations -------------------------------------------------------------
    def merc_of(self, p: int) -> int:
        return self.hired[p]

    def combat_dice(self, p: int, a: int) -> bool:
        """Whether ``p`` has Units, Hero, Captain, Defender or the Ether die in ``a``."""
        if self.units_at[p][a] or self.hero_at[p] == a:
            return True
        m = self.hired[p]
        if m in (C.CAPTAIN, C.DEFENDER) and self.merc_at[m] == a:
            return True
        return a == C.ETHER_FAULT and self.ether_placed and self.ether_ctrl == p

    def exempt_dice(self, p: int, a: int) -> bool:
        """Whether ``p`` has its Drone, Assassin or Thief in ``a`` (exempt from area limits: EW-A9)."""
        m = self.hired[p]
        return m in (C.DRONE, C.ASSASSIN, C.THIEF) and self.merc_at[m] == a

    def has_dice(self, p: int, a: int) -> bool:
        return self.combat_dice(p, a) or self.exempt_dice(p, a)

    def occupants(self, a: int) -> list[int]:
        """Seats with non-exempt dice in ``a`` (they count for area limits; EW-A9)."""
        return [q for q in range(self.game.num_players) if self.combat_dice(q, a)]

    def area_exists(self, a: int) -> bool:
        return a < C.SILO0 or a - C.SILO0 < self.game.num_players

    def _arrive(self, p: int, a: int) -> None:
        if p not in self.arrival[a]:
            self.arrival[a].append(p)

    def _leave_if_empty(self, p: int, a: int) -> None:
        if p in self.arrival[a] and not self.has_dice(p, a):
            self.arrival[a].remove(p)

    def area_occupancy(self, a: int) -> tuple[int, int]:
        """``occupancy()`` of area ``a`` alone: (counted seat bits, exempt seat bits)."""
        return self._counted_seats[a], self._exempt_seats[a]

    def occupancy(self) -> tuple[list[int], list[int]]:
        """Per area, bit masks of the seats with dice that count for the area limits (Units,
        Hero, Captain, Defender, Ether die: ``combat_dice``) and with exempt dice (Drone,
        Assassin, Thief: ``exempt_dice``). Kept up to date as dice come and go: the lists are
        the state's own (read them, never edit them)."""
        return self._counted_seats, self._exempt_seats

    def _recount_area(self, a: int) -> None:
        """Recompute ``occupancy()`` of area ``a`` from the dice locations (after dice came or went)."""
        counted = exempt = 0
        for q in range(self.game.num_players):
            if self.units_at[q][a] or self.hero_at[q] == a:
                counted |= 1 << q
        if a in self.merc_at:
            for m, b in enumerate(self.merc_at):
                if b == a:
                    if m == C.CAPTAIN or m == C.DEFENDER:
                        counted |= 1 << self.merc_owner[m]
                    else:
                        exempt |= 1 << self.merc_owner[m]
        if a == C.ETHER_FAULT and self.ether_placed:
            counted |= 1 << self.ether_ctrl
        self._counted_seats[a] = counted
        self._exempt_seats[a] = exempt

    def _recount_occupancy(self) -> None:
        """Recompute the whole ``occupancy()`` (after a Round's end or direct field edits)."""
        for a in range(C.NUM_AREAS):
            self._recount_area(a)

    def can_put(self, p: int, a: int, kind: int, moving: bool = False, occ=None) -> bool:
        """Whether a die of ``kind`` (0 unit, 1 hero, 2 ``p``'s Mercenary, 3 Ether die: ``codec.DIE_KINDS``)
        may be put in area ``a`` (rulebook "Placement" 2-4, "Movement" 4-5, each die's rules).
        ``occ``: a precomputed ``occupancy()``. The engine asks ``fast.put_masks`` (every area at
        once), which the tests check against this rule.

        ``moving`` (Movement, Fertile) only lifts "Placement" 2 (an area placed in this round):
        each die's own area rules, the Drone's, Assassin's and Thief's exemption from the
        area limits included, are the same for dice placed and dice moved (EW-A9)."""
        if a >= C.SILO0 + self.game.num_players:
            return False
        if not moving and self.placed[p] >> a & 1:
            return False
        counted, exempt = self.occupancy() if occ is None else occ
        if a in (C.MARKET, C.FACTORY) and (counted[a] | exempt[a]) >> p & 1:
            return False  # one die per player in the Market / Factory
        if kind == D_ETHER_DIE:
            return a == C.ETHER_FAULT and self.ether_ctrl == p
        m = self.hired[p] if kind == D_MERCENARY else -1
        if m == C.PRIESTESS:
            return False
        # Drone, Assassin, Thief: their own areas, "even if there are dice from two other
        # players" (rulebook "Mercenary Dice"): no area limit, placing or moving (EW-A9)
        if m == C.DRONE:
            return a in C.EXTRACTION_AREAS
        if m == C.ASSASSIN:
            return a not in (C.MARKET, C.FACTORY)
        if m == C.THIEF:
            return a >= C.SILO0 and a != C.SILO0 + p
        if m == C.DEFENDER and not (a == C.SILO0 + p or (a == C.ETHER_FAULT and self.ether_ctrl == p)):
            return False
        others = counted[a] & ~(1 << p)
        if a in C.LIMITED:  # dice of two players at most
            return others.bit_count() < 2
        if a >= C.SILO0:  # its owner and one other player
            owner = a - C.SILO0
            return p == owner or not others & ~(1 << owner)
        return True

    def dice_at_home(self, p: int) -> list[int]:
        """Kinds of ``p``'s dice still on its sheet that may be placed."""
        kinds = []
        if self.home_units[p]:
            kinds.append(D_UNIT)
        if self.hero_at[p] < 0:
            kinds.append(D_HERO)
        m = self.hired[p]
        if m >= 0 and m != C.PRIESTESS and self.merc_at[m] < 0:
            kinds.append(D_MERCENARY)
        if self.ether_ctrl == p and not self.ether_placed:
            kinds.append(D_ETHER_DIE)
        return kinds

    # ---- legal actions ----------------------------------------------------------------
    def invalidate_caches(self) -> None:
        """Drop or recompute what is derived from the state's fields (``_legal_cache``, the base
        class's memo, the last Placement turn's lists of ``fast.placement_legal``,
        ``occupancy()``); call it after editing fields directly, as the test builders do."""
        super().invalidate_caches()
        self._legal_cache = None
        self._placement_legal, self._placement_kinds, self._placement_kind_areas = None, [], []
        self._recount_occupancy()

    def _legal_actions(self) -> list[int]:
        # posed with the decision by the fast paths (``_decide``) or worked out by the rule once per
        # decision; ``_apply_action`` clears it. Code that edits a state's fields directly (tests)
        # must call ``invalidate_caches()``. The list itself is returned: the base class copies it
        # for callers and never changes it.
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._legal_by_rule()
        return legal

    def _is_legal(self, action: int) -> bool:
        return action in self._legal_actions()

    def _legal_by_rule(self) -> list[int]:
        """The sorted legal actions of the pending decision, by the plain rules (the reference of
        the lists the fast paths pose)."""
        k, p = self.decision, self.decider
        n = self.game.num_players
        if k == K_FACTION:
            out = [FACTION0 + f for f in range(4) if f not in self.faction]
        elif k == K_KEEP:
            out = list({KEEP0 + f for f in self.packs[p]})
        elif k == K_DISCARD:
            out = [DISCARD0 + f for f in range(C.NUM_FAVOURS) if self.hand[p][f]]
        elif k == K_ABILITY:
            out = [ABILITY0 + i for i in range(C.CARDS_PER_FACTION)]
        elif k == K_HIRE:
            out = [HIRE0 + m for m in range(C.NUM_MERCS) if self._can_hire(p, m)] + [PASS]
        elif k == K_PLACE:
            out = [AREA0 + self.rel_area(p, a) for a in self._place_areas(p)] + [PASS]
        elif k == K_ADD:
            out = [ADD0 + d for d in self._add_kinds(p)]
            if self.add_count:
                out.append(DONE)
        elif k == K_MOVE:
            out = self._move_legal(p, self._movable(p))
        elif k == K_MOVE_TO:
            coltan, charge = self._move_payments(p, self.move_pick // C.NUM_AREAS)
            out = []
            for a in self._move_dests(p, self.move_pick):
                if coltan:
                    out.append(AREA0 + self.rel_area(p, a))
                if charge:
                    out.append(AREA_CHARGE0 + self.rel_area(p, a))
        elif k == K_FERTILE:  # a Unit from the reserve, put as a move (EW-A9)
            out = [AREA0 + self.rel_area(p, a) for a in range(C.NUM_AREAS) if self.can_put(p, a, D_UNIT, True)]
            out.append(PASS)
        elif k == K_WINDOW:
            out = self._window_legal(p, self._can_boost(p))
        elif k == K_RESPONSE:
            out = [PLAY0 + C.CANCEL, PASS] if self.hand[p][C.CANCEL] else [PASS]
        elif k == K_SMUGGLE_SEAT:
            out = [SEAT0 + (q - p) % n for q in self._smuggle_targets(p)]
        elif k == K_SMUGGLE_RES:
            q = self.window.smuggle_target
            out = [RESOURCE0 + r for r in range(4) if self.res[q][r]]
        elif k == K_GAIN:
            out = [RESOURCE0 + r for r in self.gain_choices(p)] or [PASS]
        elif k == K_CONDUIT:
            out = [CONDUIT, PASS]
        elif k == K_END_ETHER:
            out = [EXTRA_ETHER, PASS]
        else:
            out = self._resolution_legal(k, p)
        out.sort()
        return out

    def gain_choices(self, p: int) -> list[int]:
        """Resources ``p`` may take in its pending gain (``K_GAIN``), those the box still holds.
        The VAI Hero Skill, "obtain one resource of your choice" (rulebook "Hero Skills"): any
        of the five, Ether included (EW-A27). The Ripper's Assimilate card (EW-A5): Protein,
        Coltan, Plasma or Crystal. A seat has one faction, so its pending gains all come from
        one of the two."""
        last = C.NUM_RES if self.faction[p] == C.VAI else C.ETHER
        return [r for r in range(last) if self.bank(r) > 0]

    def _can_hire(self, p: int, m: int) -> bool:
        """Rulebook "Mercenaries": one resource of its colour and one Protein (free with a Contract)."""
        if self.merc_owner[m] >= 0:
            return False
        if self.contract[p]:
            return True
        return self.res[p][C.MERCENARIES[m].colour] >= 1 and self.res[p][C.PROTEIN] >= 1

    # placement
    def _place_areas(self, p: int) -> list[int]:
        """Areas where ``p`` may start a Placement turn: some die at home may go there."""
        kinds = self.dice_at_home(p)
        return [a for a in range(C.NUM_AREAS) if any(self.can_put(p, a, d) for d in kinds)]

    def _add_kinds(self, p: int) -> list[int]:
        """Kinds of dice ``p`` may still add to the area of its Placement turn (rulebook
        "Placement" 1: one or more dice in one area). The Market and Factory take one die.
        The area is already marked placed this round, so each die is checked as a move (which
        only lifts "Placement" 2)."""
        a = self.add_area
        if a in (C.MARKET, C.FACTORY) and self.add_count:
            return []
        return [d for d in self.dice_at_home(p) if self.can_put(p, a, d, moving=True)]

    # movement
    def _move_legal(self, p: int, moves: list[tuple[int, int]]) -> list[int]:
        """MOVE_DIE actions of ``moves`` (``_movable``), sorted, then DONE."""
        rel = self.game.rel_areas[p]
        out = []
        for kind, a in moves:
            out.append(MOVE0 + kind * C.NUM_AREAS + rel[a])
        out.sort()
        out.append(DONE)
        return out

    def _move_payments(self, p: int, kind: int) -> tuple[bool, bool]:
        """Whether ``p`` can pay to move a die of ``kind``: in Coltan (rulebook "Movement" 3), with
        one Charge (Human Tactician)."""
        return (self.res[p][C.COLTAN] >= MOVE_COST[kind],
                self.ability_key(p) == "tactician" and self.charge[p] >= 1)

    def _move_dests(self, p: int, pick: int) -> list[int]:
        """Areas the die ``pick`` (``MOVE_DIE`` index) may move to (rulebook "Movement" 2, 4-5)."""
        kind, a = divmod(pick, C.NUM_AREAS)
        a = self.abs_area(p, a)
        return [b for b in range(C.NUM_AREAS) if b != a and self.can_put(p, b, kind, moving=True)]

    def _payable_dice_on_board(self, p: int) -> list[tuple[int, list[int]]]:
        """``(kind, areas)`` of ``p``'s dice on the board of each kind it can pay to move."""
        m = self.hired[p]
        coltan = self.res[p][C.COLTAN]
        charge = self.ability_key(p) == "tactician" and self.charge[p] >= 1  # ``_move_payments``
        dice = []
        for kind, cost in enumerate(MOVE_COST):
            if not (coltan >= cost or charge):
                continue
            if kind == D_UNIT:
                areas = []
                for a, units in enumerate(self.units_at[p]):
                    if units:
                        areas.append(a)
            else:
                a = self.hero_at[p] if kind == D_HERO else self.merc_at[m] if m >= 0 else -1
                areas = [a] if a >= 0 else []
            if areas:
                dice.append((kind, areas))
        return dice

    def _movable(self, p: int) -> list[tuple[int, int]]:
        """``(kind, area)`` of ``p``'s dice on the board that ``p`` can pay to move and that
        have somewhere to go (rulebook "Movement")."""
        out = []
        for kind, areas in self._payable_dice_on_board(p):
            for a in areas:
                if any(b != a and self.can_put(p, b, kind, moving=True) for b in range(C.NUM_AREAS)):
                    out.append((kind, a))
        return out

    def _lift(self, p: int, kind: int, a: int, sign: int) -> None:
        if kind == D_UNIT:
            self.units_at[p][a] += sign
        elif kind == D_HERO:
            self.hero_at[p] = -1 if sign < 0 else a
        else:
            self.merc_at[self.hired[p]] = -1 if sign < 0 else a

    # ---- applying actions ----------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        legal = self._legal_cache
        self._legal_cache = None
        block, i = DECODED[action]
        k, p = self.decision, self.decider
        if k == K_ADD:  # rulebook "Placement" 1: one die at a time, then DONE
            if block != "DONE":
                self._put(p, i, self.add_area)
                self.add_count += 1
                left = fast.add_die_legal_after_die(self, p, legal, action)
                if left is None:
                    left = [ADD0 + d for d in self._add_kinds(p)]
                if left:  # the same decision goes on (``_advance`` would change nothing)
                    left.append(DONE)
                    self._decide(K_ADD, p, left)
                    return
            self._next_placer()
            if self.decision == K_PLACE:  # the next Placement turn (``_advance`` would change nothing)
                return
        elif k == K_PLACE:
            if block == "PASS":  # out of Placement for the round
                self.passed[p] = True
                self._next_placer()
                if self.decision == K_PLACE:
                    return
            else:
                a = self.game.abs_areas[p][i]
                self.placed[p] |= 1 << a
                self.add_area = a
                self.add_count = 0
                self._decide(K_ADD, p, fast.add_die_legal_after_area(self, legal, a))
                return  # a decision inside the Placement turn (``_advance`` would change nothing)
        elif k in WINDOW_DECISIONS:
            self._window_action(block, i)
        elif k in RESOLUTION_DECISIONS:
            self._resolution_apply(k, p, block, i)
        elif k == K_FACTION:
            self.faction[p] = i
            self.queue.pop(0)
        elif k == K_KEEP:
            self.packs[p].remove(i)
            self.hand[p][i] += 1
            self.queue.pop(0)
        elif k == K_DISCARD:
            self.hand[p][i] -= 1
            self.fdiscard.append(i)
            self.queue.pop(0)
        elif k == K_ABILITY:
            self.ability[p] = i
            self.queue.pop(0)
        elif k == K_HIRE:
            if block == "HIRE":
                if not self.contract[p]:
                    self.res[p][C.MERCENARIES[i].colour] -= 1
                    self.res[p][C.PROTEIN] -= 1
                self.merc_owner[i] = p
                self.hired[p] = i
            self.queue.pop(0)
        elif k == K_MOVE:
            if block == "DONE":
                self.queue.pop(0)
            else:
                self.move_pick = i
                self._decide(K_MOVE_TO, p, fast.move_to_legal(self, p, i))
                return
        elif k == K_MOVE_TO:
            kind, a = divmod(self.move_pick, C.NUM_AREAS)
            a = self.abs_area(p, a)
            b = self.abs_area(p, i)
            if block == "AREA_CHARGE":
                self.charge[p] -= 1
            else:
                self.res[p][C.COLTAN] -= MOVE_COST[kind]
            self._lift(p, kind, a, -1)
            self._leave_if_empty(p, a)
            self._arrive(p, b)
            self._lift(p, kind, b, +1)
            self._recount_area(a)
            self._recount_area(b)
            self._decide(K_MOVE, p)
        elif k == K_FERTILE:
            if block == "PASS":
                self.queue.pop(0)
            else:
                a = self.abs_area(p, i)
                self.charge[p] -= 1
                self.reserve[p] -= 1
                self._arrive(p, a)
                self.units_at[p][a] += 1
                self._recount_area(a)
        elif k == K_GAIN:
            self.gain_left -= 1
            if block == "RESOURCE":
                self.gain(p, i, 1)
            else:
                self.gain_left = 0
            if self.gain_left <= 0:
                self.gain_seat = -1
        elif k == K_CONDUIT:
            self.conduit_used[p] = True
            if block == "CONDUIT":
                self.charge[p] -= C.CONDUIT_CHARGE
                self.gain(p, C.ETHER, 1)
            self.resolving.conduit_asked = True
        elif k == K_END_ETHER:  # extra Ether: right after Channelling and at the end of the round (EW-A17)
            if block == "EXTRA_ETHER":
                self.res[p][C.CRYSTAL] -= C.EXTRA_ETHER_CRYSTAL
                self.extra_used[p] = True
                self.gain(p, C.ETHER, 1)
            if self.resolving is not None:
                self.resolving.extra_ether_asked = True
            else:
                self.queue.pop(0)
        else:
            self._resolution_apply(k, p, block, i)
        self._advance()

    def _put(self, p: int, d: int, a: int) -> None:
        """Put ``p``'s die of kind ``d`` (as in ``can_put``) from its sheet into area ``a``."""
        arrival = self.arrival[a]
        if p not in arrival:
            arrival.append(p)
        bit = 1 << p
        if d == D_UNIT:
            self.home_units[p] -= 1
            self.units_at[p][a] += 1
            self._counted_seats[a] |= bit  # a die arriving only adds its owner to the occupancy
        elif d == D_HERO:
            self.hero_at[p] = a
            self._counted_seats[a] |= bit
        elif d == D_MERCENARY:
            m = self.hired[p]
            self.merc_at[m] = a
            if m == C.CAPTAIN or m == C.DEFENDER:
                self._counted_seats[a] |= bit
            else:
                self._exempt_seats[a] |= bit
        else:
            self.ether_placed = True
            self._recount_area(a)

    def _next_placer(self) -> None:
        """Next seat clockwise that has not passed (rulebook "Placement" 1)."""
        self.add_area = -1
        self.add_count = 0
        n = self.game.num_players
        for j in range(1, n + 1):
            q = (self.turn + j) % n
            if not self.passed[q]:
                legal = fast.placement_legal(self, q)
                if legal is None:  # nothing can be placed: the seat passes (EW-A10)
                    self.passed[q] = True
                    continue
                self.turn = q
                self._decide(K_PLACE, q, legal)
                return
        self.decision = K_NONE

    # ---- the driver: automatic flow until the next decision ---------------------------------
    def _advance(self) -> None:
        while self.phase != OVER:
            if self.window is not None:
                if self._window_step():
                    return
                continue
            if self.gain_seat >= 0:
                self._decide(K_GAIN, self.gain_seat)
                return
            if self.resolving is not None:
                if self._resolution_step():
                    return
                continue
            if self._phase_step():
                return

    def _phase_step(self) -> bool:
        """Advance the round structure; True when a decision is pending."""
        ph = self.phase
        n = self.game.num_players
        if ph == RESOLUTION:
            return self._resolution_turn()
        if ph == PLACEMENT:
            if self.queue == [-1]:
                self.queue = []
                self._next_placer()
            if self.decision in (K_PLACE, K_ADD):
                return True
            self.phase = MOVEMENT
            self.queue = self.order()
            self._open_window(W_PHASE)
            self.decision = K_NONE
            return False
        if ph == MOVEMENT:
            if self.decision != K_FERTILE:  # movers first (seats with nothing to move are skipped) ...
                moves = None
                while self.queue:
                    moves = fast.movable_dice(self, self.queue[0])
                    if moves:
                        break
                    self.queue.pop(0)
                if self.queue:
                    self._decide(K_MOVE, self.queue[0], self._move_legal(self.queue[0], moves))
                    return True
                # ... then the Dracon Fertile holders, whether or not they had anything to move
                for q in range(n):
                    self.aggressive_silo[q] = any(self.units_at[q][C.SILO0 + o] >= 2 for o in range(n) if o != q)
                self.queue = [q for q in self.order() if self.ability_key(q) == "fertile"]
                self.decision = K_FERTILE
            while self.queue and not (self.charge[self.queue[0]] >= 1 and self.reserve[self.queue[0]] >= 1):
                self.queue.pop(0)
            if self.queue:
                self._decide(K_FERTILE, self.queue[0])
                return True
            self.phase = RESOLUTION
            self.decision = K_NONE
            self._open_window(W_PHASE)
            self._start_resolution()
            return False
        if ph == MERCS:
            if self.queue:
                self._decide(K_HIRE, self.queue[0])
                return True
            self.phase = PLACEMENT
            self._open_window(W_PHASE)
            self.turn = (self.first - 1) % n
            self.decision = K_NONE
            self.queue = [-1]  # marker: placement not started
            return False
        if ph == NEW_DAY:
            if self.queue:
                self._decide(K_ABILITY, self.queue[0], [ABILITY0, ABILITY0 + 1, ABILITY0 + 2, ABILITY0 + 3])
                return True
            self.revealed = True
            for q in range(n):
                self.medic_free[q] = C.MEDIC_FREE_SHIELDS if self.ability_key(q) == "medic" else 0
            if self.round > 1:  # Reinforcements (skipped in round 1)
                for q in range(n):
                    if self.reserve[q]:
                        self.reserve[q] -= 1
                        self.home_units[q] += 1
                    self.gain(q, C.PROTEIN, C.REINFORCE_PROTEIN)
            self.phase = MERCS
            self.queue = self.order()
            self._open_window(W_PHASE)
            return False
        if ph == MAINTENANCE:
            if self.queue:
                q = self.queue[0]
                if self.channelled[q] and not self.extra_used[q] and self.res[q][C.CRYSTAL] >= C.EXTRA_ETHER_CRYSTAL:
                    self._decide(K_END_ETHER, q)
                    return True
                self.queue.pop(0)
                return False
            self._maintenance()
            return False
        if ph == PREP:
            if self.decision == K_FACTION and self.queue:
                self._decide(K_FACTION, self.queue[0])
                return True
            if self.decision == K_FACTION:
                self._deal_favours()
                if self.game.config.favours == "advanced":
                    self.queue = self.order()
                    self._decide(K_KEEP, self.queue[0])
                    return True
                self._new_day()
                return False
            if self.decision == K_KEEP:
                if self.queue:
                    self._decide(K_KEEP, self.queue[0])
                    return True
                self.draft_round += 1
                if self.draft_round < C.DRAFT_FAVOURS:
                    self.packs = [self.packs[(q - 1) % n] for q in range(n)]  # pass clockwise
                    self.queue = self.order()
                    self._decide(K_KEEP, self.queue[0])
                    return True
                self.queue = [q for q in self.order() for _ in range(C.DRAFT_DISCARD)]
                self._decide(K_DISCARD, self.queue[0])
                return True
            if self.decision == K_DISCARD:
                if self.queue:
                    self._decide(K_DISCARD, self.queue[0])
                    return True
                self._new_day()
                return False
        return False

    def _deal_favours(self) -> None:
        n = self.game.num_players
        if self.game.config.favours == "beginner":
            for q in self.order():
                for _ in range(C.BEGINNER_FAVOURS):
                    self.hand[q][self._draw_favour()] += 1
        else:
            # advanced draft: sequential picks in seat order (EW-A26)
            self.packs = [[self._draw_favour() for _ in range(C.DRAFT_FAVOURS)] for _ in range(n)]
            for q in range(n):
                self.packs[q].sort()

    def _draw_favour(self) -> int:
        """Top Favour; the discard pile is reshuffled when the deck is empty (rulebook "Favours")."""
        if not self.fdeck:
            self.fdeck = [int(x) for x in self.rng.permutation(self.fdiscard)]
            self.fdiscard = []
        return self.fdeck.pop()

    def _new_day(self) -> None:
        """Rulebook "New Day": draw an Event, then each player secretly picks an ability card."""
        self.round += 1
        if self.round > self.game.config.max_rounds:
            self.round -= 1
            self.truncated = True
            self.phase = OVER
            self.decision = K_NONE
            return
        self.phase = NEW_DAY
        if self.event >= 0:
            self.ediscard.append(self.event)
        if not self.edeck:
            self.edeck = [int(x) for x in self.rng.permutation(self.ediscard)]
            self.ediscard = []
        self.event = self.edeck.pop()
        n = self.game.num_players
        self.ability = [-1] * n
        self.revealed = False
        self.queue = self.order()
        self.decision = K_ABILITY

    def _maintenance(self) -> None:
        """Rulebook "Maintenance": Mercenaries back, Protein upkeep (shortfall: EW-A25), first
        player passes left."""
        n = self.game.num_players
        merc_areas = [b for b in self.merc_at if b >= 0]  # Mercenaries still on the board go back
        self.merc_owner = [-1] * C.NUM_MERCS
        self.merc_at = [-1] * C.NUM_MERCS
        self.hired = [-1] * n
        plague = self.event == C.PLAGUE  # upkeep: 1 Protein a Unit, +1 per 5 Units with Plague
        for q in range(n):
            units = self.home_units[q]
            if self.ability_key(q) == "devour":
                continue
            protein = self.res[q][C.PROTEIN]
            while units and units + (units // 5 if plague else 0) > protein:
                units -= 1
                self.reserve[q] += 1
            self.home_units[q] = units
            self.res[q][C.PROTEIN] -= units + (units // 5 if plague else 0)
        self.first = (self.first + 1) % n
        self.placed = [0] * n
        self.passed = [False] * n
        self.arrival = [[] for _ in range(C.NUM_AREAS)]
        for b in merc_areas:
            self._recount_area(b)
        self.contract = [False] * n
        self.rerolls = [0] * n
        self.channelled = [False] * n
        self.extra_used = [False] * n
        self.conduit_used = [False] * n
        self._new_day()

    # ---- hidden information -------------------------------------------------------------------
    def _redraw_hidden(self, player: int, rng: np.random.Generator) -> None:
        """Redraw what ``player`` cannot see: the others' unrevealed ability cards, the
        others' Favour hands and draft packs together with the Favour deck, and the
        order of the Event deck (EW-A11)."""
        n = self.game.num_players
        if not self.revealed:
            for q in range(n):
                if q != player and self.ability[q] >= 0:
                    self.ability[q] = int(rng.integers(4))
        pool = list(self.fdeck)
        counts = []
        for q in range(n):
            if q == player:
                counts.append(None)
                continue
            pool += [f for f in range(C.NUM_FAVOURS) for _ in range(self.hand[q][f])]
            pool += self.packs[q]
            counts.append((sum(self.hand[q]), len(self.packs[q])))
        pool = [int(x) for x in rng.permutation(pool)]
        for q in range(n):
            if q == player:
                continue
            h, k = counts[q]
            self.hand[q] = [0] * C.NUM_FAVOURS
            for _ in range(h):
                self.hand[q][pool.pop()] += 1
            self.packs[q] = sorted(pool.pop() for _ in range(k))
        self.fdeck = pool
        self.edeck = [int(x) for x in rng.permutation(self.edeck)]
        if self._legal_cache is not None:  # the player to act may hold other Favours now
            self._legal_cache = self._legal_by_rule()

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

    # ---- text picture ---------------------------------------------------------------------------
    def render_text(self) -> str:
        n = self.game.num_players
        lines = [f"Ether Wars  {n} players  round {self.round}  phase {PHASE_NAMES[self.phase]}  "
                 f"event {C.EVENTS[self.event].name if self.event >= 0 else '-'}  first player_{self.first}"]
        for q in range(n):
            fac = C.FACTIONS[self.faction[q]] if self.faction[q] >= 0 else "?"
            card = C.ABILITIES[self.faction[q] * 4 + self.ability[q]].name if (
                self.revealed and self.ability[q] >= 0) else "?"
            r = self.res[q]
            board = ", ".join(f"{C.AREAS[a]}:{self.units_at[q][a]}" for a in range(C.NUM_AREAS) if self.units_at[q][a])
            lines.append(f"{'>' if q == self.current_player() else ' '} player_{q} {fac} [{card}] "
                         f"P{r[0]} Co{r[1]} Pl{r[2]} Cr{r[3]} Ether{r[4]} Charge{self.charge[q]} "
                         f"units {self.home_units[q]}+{sum(self.units_at[q])} (reserve {self.reserve[q]}) "
                         f"hero {C.AREAS[self.hero_at[q]] if self.hero_at[q] >= 0 else 'sheet'} "
                         f"favours {sum(self.hand[q])}  board: {board or '-'}")
        mercs = [f"{C.MERCENARIES[m].name}:p{self.merc_owner[m]}" for m in range(C.NUM_MERCS) if self.merc_owner[m] >= 0]
        lines.append(f"mercenaries {' '.join(mercs) or '-'}  Ether die: "
                     f"{'player_%d' % self.ether_ctrl if self.ether_ctrl >= 0 else 'nobody'}")
        lines.append("legend: [ability card] (? until all have chosen); P Co Pl Cr = Protein, Coltan, Plasma, "
                     "Crystal; units X+Y = on the sheet + on the board")
        lines.append("        board: area:Units (Silo k = player_k's Silo); mercenaries: Mercenary:pk = hired by "
                     "player_k")
        if self.phase == OVER:
            lines.append(f"game over: winner {'player_%d' % self.winner if self.winner >= 0 else 'none (truncated)'}")
        else:
            lines.append(f"to act: player_{self.decider} ({DECISION_NAMES[self.decision]})")
        return "\n".join(lines)
