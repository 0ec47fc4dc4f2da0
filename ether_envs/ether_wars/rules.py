"""Ether Wars rules engine (numpy only): Config, Game, action codec, State.

Rulebook sections are quoted by their headings (``rulebook "Placement"``);
assumptions by id (``EW-A<n>``, listed in ``RULES.md`` with the state machine).
The Resolution phase (combat, extraction, market, factory, channelling) lives
in ``resolution.py`` and the favour windows in ``favours.py``, as mixins of
:class:`State`.

Seats are 0-based and clockwise. Actions that name a seat or a Silo are
*relative to the acting player*: relative seat 0 is the actor, 1 the next seat
clockwise, and so on; area index ``7 + k`` is the Silo of relative seat ``k``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import ActionCodec, Block, Game as _Game, GameSpec, State as _State, TERMINAL, win_loss_returns, build_config, check_int
from . import components as C

# ---- action codec (documented in env.py) ----------------------------------------
DIE_KINDS = ("unit", "hero", "mercenary", "ether die")
MOVE_KINDS = ("unit", "hero", "mercenary")
AREA_LABELS = C.AREAS[:7] + ("own Silo", "Silo +1", "Silo +2", "Silo +3")


def _area_label(i: int) -> str:
    return AREA_LABELS[i]


CODEC = ActionCodec([
    Block("FACTION", 4, "Preparation: choose faction 0..3 (Human, Dracon, VAI, Ripper)", lambda i: C.FACTIONS[i]),
    Block("KEEP_FAVOUR", C.NUM_FAVOURS, "advanced draft: keep a Favour of kind 0..5 from your pack",
          lambda i: C.FAVOURS[i].name),
    Block("DISCARD_FAVOUR", C.NUM_FAVOURS, "advanced draft: discard a Favour of kind 0..5",
          lambda i: C.FAVOURS[i].name),
    Block("ABILITY", 4, "New Day: choose your Faction ability card 0..3 (components.ABILITIES, faction*4+i)", str),
    Block("HIRE", C.NUM_MERCS, "Mercenaries: hire Mercenary 0..5", lambda i: C.MERCENARIES[i].name),
    Block("PLAY_FAVOUR", C.NUM_FAVOURS, "play a Favour of kind 0..5 in a favour window",
          lambda i: C.FAVOURS[i].name),
    Block("AREA", C.NUM_AREAS, "area 0..10 (7+k = Silo of relative seat k): Placement target, Movement "
          "destination (paid in Coltan), Fertile target", _area_label),
    Block("AREA_CHARGE", C.NUM_AREAS, "Movement destination paid with 1 Charge (Human Tactician)", _area_label),
    Block("ADD_DIE", 4, "Placement: add one die of kind 0..3 (unit, hero, mercenary, ether die) to the chosen area",
          lambda i: DIE_KINDS[i]),
    Block("MOVE_DIE", 3 * C.NUM_AREAS, "Movement: pick a die of kind k (unit, hero, mercenary) in area i: k*11+i",
          lambda i: f"{MOVE_KINDS[i // C.NUM_AREAS]}@{_area_label(i % C.NUM_AREAS)}"),
    Block("RESOLVE", C.NUM_AREAS, "Resolution: resolve your dice in area 0..10 next", _area_label),
    Block("UNIT_DIE", 4 * 6, "a rolled Unit die: relative seat s, face f (1..6) as s*6+f-1 (Priestess reroll, "
          "Human Hero Skill)", lambda i: f"seat+{i // 6} face {i % 6 + 1}"),
    Block("SEAT", 4, "relative seat 0..3 (Dracon Hero Skill, Assassin injury, Smuggler)", lambda i: f"seat+{i}"),
    Block("SHIELD", C.MAX_UNITS + 1, "shield 0..10 of your injured Units", str),
    Block("RESOURCE", C.NUM_RES, "resource 0..4 (Protein, Coltan, Plasma, Crystal, Ether): raid/steal/gain/"
          "purchase target", lambda i: C.RESOURCES[i]),
    Block("PAY", 4, "Market: pay one Protein/Coltan/Plasma/Crystal towards the purchase",
          lambda i: C.RESOURCES[i]),
    Block("MARKET_FAVOUR", 1, "Market: pay 1 Crystal to draw a Favour"),
    Block("CLONE", 1, "Factory: pay 4 Protein for a Unit from your reserve"),
    Block("CHARGE_BOOST", 1, "combat window: pay 1 Charge for +1 (Aggressive) or +2 (Commander)"),
    Block("EXTRA_ETHER", 1, "after Channelling: pay 2 Crystal for 1 more Ether (once a round)"),
    Block("CONDUIT", 1, "VAI Conduit: pay 2 Charge for 1 more Ether after Channelling"),
    Block("DONE", 1, "finish the current step (placement turn, movement, rerolls, raid, purchase, market, factory)"),
    Block("PASS", 1, "decline (no hire, pass placement for the round, no favour, no skill, no extra Ether)"),
])
OFF = CODEC.offsets
FACTION0, KEEP0, DISCARD0, ABILITY0, HIRE0, PLAY0 = (OFF[b] for b in (
    "FACTION", "KEEP_FAVOUR", "DISCARD_FAVOUR", "ABILITY", "HIRE", "PLAY_FAVOUR"))
AREA0, AREA_CHARGE0, ADD0, MOVE0, RESOLVE0, UNIT_DIE0, SEAT0, SHIELD0, RESOURCE0, PAY0 = (OFF[b] for b in (
    "AREA", "AREA_CHARGE", "ADD_DIE", "MOVE_DIE", "RESOLVE", "UNIT_DIE", "SEAT", "SHIELD", "RESOURCE", "PAY"))
MARKET_FAVOUR, CLONE, CHARGE_BOOST, EXTRA_ETHER, CONDUIT, DONE, PASS = (OFF[b] for b in (
    "MARKET_FAVOUR", "CLONE", "CHARGE_BOOST", "EXTRA_ETHER", "CONDUIT", "DONE", "PASS"))
_DECODE = tuple(CODEC.decode(a) for a in range(CODEC.size))
"""``CODEC.decode`` of every action id, precomputed (hot path of ``_apply_action``)."""
_EVENT_KEY = tuple(e.key for e in C.EVENTS) + ("",)
"""``_EVENT_KEY[event]``: the Event's key; index -1 (no Event yet) is the last entry, ''."""
_ABILITY_KEYS = tuple(tuple(C.ABILITY_KEY[f * 4 + i] for i in range(4)) + ("",) for f in range(4)) + (("",) * 5,)
"""``_ABILITY_KEYS[faction][card]``: ability key; index -1 (no faction or no card) is the last entry, ''."""

# ---- phases and decision kinds ------------------------------------------------------
PHASE_NAMES = ("preparation", "new_day", "mercenaries", "placement", "movement", "resolution",
               "maintenance", "over")
PREP, NEW_DAY, MERCS, PLACEMENT, MOVEMENT, RESOLUTION, MAINTENANCE, OVER = range(8)
DECISION_NAMES = ("faction", "keep_favour", "discard_favour", "ability", "hire", "place", "add_die", "move",
                  "move_to", "fertile", "resolve", "thief", "assassin", "shield", "reroll", "skill", "gain",
                  "window", "response", "smuggle_seat", "smuggle_resource", "raid", "market", "pay", "factory",
                  "conduit", "end_ether", "none")
(K_FACTION, K_KEEP, K_DISCARD, K_ABILITY, K_HIRE, K_PLACE, K_ADD, K_MOVE, K_MOVE_TO, K_FERTILE, K_RESOLVE,
 K_THIEF, K_ASSASSIN, K_SHIELD, K_REROLL, K_SKILL, K_GAIN, K_WINDOW, K_RESPONSE, K_SMUGGLE_SEAT,
 K_SMUGGLE_RES, K_RAID, K_MARKET, K_PAY, K_FACTORY, K_CONDUIT, K_END_ETHER, K_NONE) = range(28)
_RESOLUTION_KINDS = frozenset((K_RESOLVE, K_THIEF, K_ASSASSIN, K_SHIELD, K_REROLL, K_SKILL, K_RAID, K_MARKET,
                               K_PAY, K_FACTORY))
"""Decisions applied by ``ResolutionMixin._resolution_apply``."""
_WINDOW_KINDS = frozenset((K_WINDOW, K_RESPONSE, K_SMUGGLE_SEAT, K_SMUGGLE_RES))
"""Decisions applied by ``FavourMixin._window_action``."""
WINDOW_NAMES = ("phase", "combat", "injury")
W_PHASE, W_COMBAT, W_INJURY = range(3)

FAVOUR_MODES = ("beginner", "advanced")
DICE_BATCH = 32
"""Six-sided dice are drawn from ``State.rng`` this many at a time (one generator call), kept in
``State.dice`` until rolled."""
ROUND_DECISION_BOUND = 4000
"""Generous bound on decisions in one round (for ``max_game_length``)."""

from .favours import FavourMixin  # noqa: E402  (needs the constants above)
from .resolution import ResolutionMixin  # noqa: E402

_BITS = [bin(x).count("1") for x in range(16)]
_MOVE_COSTS = (C.MOVE_COST_UNIT, C.MOVE_COST_HERO, C.MOVE_COST_MERC)
# area bit masks (bit a = area a) for ``State._put_masks``
_AREA_MASK = {n: (1 << (C.SILO0 + n)) - 1 for n in (2, 3, 4)}  # areas in play with n players
_SILO_MASK = ((1 << C.NUM_AREAS) - 1) & ~((1 << C.SILO0) - 1)
_OPEN_MASK = sum(1 << a for a in range(C.SILO0) if a not in C.LIMITED)  # no area limit
_EXTRACTION_MASK = sum(1 << a for a in C.EXTRACTION_AREAS)
_MARKET_FACTORY_MASK = (1 << C.MARKET) | (1 << C.FACTORY)
_ETHER_FAULT_BIT = 1 << C.ETHER_FAULT
_LIMITED_BITS = tuple((a, 1 << a) for a in C.LIMITED)
_EXEMPT_MERC_AREAS = {C.PRIESTESS: 0, C.DRONE: _EXTRACTION_MASK, C.ASSASSIN: ~_MARKET_FACTORY_MASK,
                      C.THIEF: _SILO_MASK}
"""Areas open to an exempt Mercenary (rulebook "Mercenary Dice"; the Thief: any Silo but its owner's)."""
_SILOS = {n: tuple((o, C.SILO0 + o, 1 << (C.SILO0 + o), ~(1 << o)) for o in range(n)) for n in (2, 3, 4)}
"""Per player count: (owner, area, area bit, mask without the owner) of each Silo in play."""


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
    """Ether Wars, configured (see :class:`Config`)."""

    spec = GameSpec(name="ether_wars", version=0, min_players=2, max_players=4, information="imperfect",
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
        self.num_players = self.config.num_players
        self.ether_to_win = C.ETHER_TO_WIN[self.num_players]
        n = self.num_players
        # static tables for the hot path (``State.order``, ``State.rel_area``)
        self.seat_orders = tuple(tuple((s + i) % n for i in range(n)) for s in range(n))
        """``seat_orders[s]``: the seats clockwise from ``s``."""
        self.seats_in_order = tuple(tuple(tuple(q for q in order if mask >> q & 1) for mask in range(1 << n))
                                    for order in self.seat_orders)
        """``seats_in_order[s][mask]``: the seats in bit ``mask``, clockwise from ``s``."""
        self.rel_areas = tuple(tuple(a if a < C.SILO0 else C.SILO0 + (a - C.SILO0 - p) % n
                                     for a in range(C.NUM_AREAS)) for p in range(n))
        """``rel_areas[p][a]``: ``p``-relative index of absolute area ``a``."""
        self._area_actions: dict[tuple, list[int]] = {}  # filled on demand by ``area_actions``
        from .observation import Encoder

        self.encoder = Encoder(self)

    def max_game_length(self) -> int:
        """Bound on decisions: preparation plus ``ROUND_DECISION_BOUND`` per round."""
        return 200 + self.config.max_rounds * ROUND_DECISION_BOUND

    def area_actions(self, p: int, mask: int, base: int, tail: tuple) -> list[int]:
        """Sorted action ids ``base + rel_areas[p][a]`` of the areas ``a`` in bit ``mask``, then
        ``tail``: a fresh list (a static table, filled on demand)."""
        key = (p, mask, base, tail)
        out = self._area_actions.get(key)
        if out is None:
            rel = self.rel_areas[p]
            out = self._area_actions[key] = sorted(base + rel[a] for a in range(C.NUM_AREAS) if mask >> a & 1)
            out += tail
        return out[:]

    def new_initial_state(self, seed: int | None = None) -> "State":
        return State(self, check_int("seed", seed, 0))


_FLAT_LISTS = ("history", "dice", "faction", "ability", "charge", "home_units", "reserve", "hero_at", "merc_owner",
               "merc_at", "hired", "fdeck", "fdiscard", "edeck", "ediscard", "placed", "passed", "queue",
               "contract", "rerolls", "medic_free", "channelled", "extra_used", "conduit_used", "aggr_silo",
               "_occ_normal", "_occ_exempt")
"""State fields that are lists of ints/bools (copied shallowly by ``clone``)."""
_NESTED_LISTS = ("res", "units_at", "hand", "arrival", "packs")
"""State fields that are lists of lists of ints (copied two levels deep by ``clone``;
``first_rolls`` is never changed after ``__init__``: clones share it)."""
_RC_LISTS = ("parts", "hero", "capt", "extra", "boost", "score", "skills", "hits")
"""``State.rc`` entries that are lists of ints (``faces`` and ``inj`` are lists of lists)."""


class State(FavourMixin, ResolutionMixin, _State):
    """Ether Wars state. All per-seat lists are indexed by absolute seat.

    Attributes:
        phase: one of ``PHASE_NAMES``; ``pk``/``pp``: decision kind and seat deciding now.
        first: first player; ``round``: round number (1-based).
        faction, ability: per seat; ``ability`` is the card index 0..3 chosen this round
            (-1 none); ``revealed``: whether the chosen cards are face up.
        res: per seat [Protein, Coltan, Plasma, Crystal, Ether]; ``charge``: Charges.
        home_units, reserve: Units on the sheet / in reserve; ``units_at[p][a]`` on the board.
        hero_at: area of each Hero (-1 on the sheet). ``merc_owner``/``merc_at`` per Mercenary.
        ether_ctrl: controller of the Ether die (-1 none); ``ether_placed``: it is in the Ether Fault.
        hand: favour counts per seat and kind; ``fdeck``/``fdiscard``; ``edeck``/``ediscard``; ``event``.
        placed: per seat bit mask of areas placed this round; ``passed``: passed Placement.
        arrival: per area, seats in order of arrival this round (ties: rulebook "Combat action").
        win: the open favour window (dict) or None; ``rc``: the area being resolved (dict) or None.
        _legal_cache: the sorted legal actions of the current decision, or None until asked (reset
            by ``invalidate_caches()`` after direct field edits); a private cache, so not part of
            ``snapshot()`` (equal positions have equal snapshots whatever was asked before).
        dice: die faces (0..5) already drawn from ``rng`` and not rolled yet, the next one last
            (``roll_d6``; hidden from every player, emptied when ``rng`` is replaced).
    """

    def __init__(self, game: Game, seed: int | None):
        self.game = game
        n = game.num_players
        self.rng = np.random.default_rng(seed)  # (also empties ``dice``)
        self.history: list[int] = []
        self.round = 0
        self.phase = PREP
        self.pk, self.pp = K_NONE, 0
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
        self.aggr_silo = [False] * n
        self.packs: list[list[int]] = [[] for _ in range(n)]
        self.draft_round = 0
        self.win = None
        self.rc = None
        self.gain_left = 0
        self.gain_seat = -1
        self._legal_cache: list[int] | None = None
        # ``occupancy()``, kept up to date by ``_recount_area`` wherever dice come or go
        self._occ_normal = [0] * C.NUM_AREAS
        self._occ_exempt = [0] * C.NUM_AREAS
        self._place_memo = None  # (legal, kinds, masks) of the Placement decision that computed ``legal``
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
    @property
    def rng(self) -> np.random.Generator:
        """The state's ``numpy.random.Generator`` (the base class's); all chance comes from it."""
        return _State.rng.fget(self)

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        """A new generator: the dice drawn from the old one (``dice``) are dropped, so that all
        later rolls come from ``value`` (``resample_hidden`` redraws future chance this way)."""
        _State.rng.fset(self, value)
        self.dice = []

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
    def clone(self) -> "State":
        """An independent copy: mutable containers are copied, immutable values and the
        legal-action cache (replaced, never edited in place) are shared; the chance
        generator's state is copied lazily (``State._share_rng_state``)."""
        s = State.__new__(State)
        d = s.__dict__
        d.update(self.__dict__)
        for k in _FLAT_LISTS:
            d[k] = d[k][:]
        for k in _NESTED_LISTS:
            d[k] = [x[:] for x in d[k]]
        rc = self.rc
        if rc is not None:
            rc = d["rc"] = rc.copy()
            for k in _RC_LISTS:
                rc[k] = rc[k][:]
            rc["faces"] = [x[:] for x in rc["faces"]]
            rc["inj"] = [x[:] for x in rc["inj"]]
        w = self.win
        if w is not None:
            w = d["win"] = w.copy()
            w["stack"] = [x[:] for x in w["stack"]]
            w["resp"] = w["resp"][:]
        self._share_rng_state(s)
        return s

    # ---- basic queries ------------------------------------------------------------
    def order(self, start: int | None = None) -> list[int]:
        """Seats clockwise from ``start`` (default: the first player)."""
        return list(self.game.seat_orders[self.first if start is None else start])

    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.pp

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
        return _ABILITY_KEYS[self.faction[p]][self.ability[p]]

    def event_key(self) -> str:
        return _EVENT_KEY[self.event]

    def abs_area(self, p: int, i: int) -> int:
        """Absolute area of ``p``-relative area index ``i`` (Silos are seat-relative)."""
        if i < C.SILO0:
            return i
        return C.SILO0 + (p + i - C.SILO0) % self.game.num_players

    def rel_area(self, p: int, a: int) -> int:
        """``p``-relative area index of absolute area ``a`` (as the table ``Game.rel_areas``)."""
        if a < C.SILO0:
            return a
        return C.SILO0 + (a - C.SILO0 - p) % self.game.num_players

    def bank(self, r: int) -> int:
        """Tokens of resource ``r`` left in the box (rulebook "Components": a hard limit)."""
        left = C.POOL[r]
        for x in self.res:  # (a loop: cheaper than a comprehension for 2-4 seats)
            left -= x[r]
        return left

    def gain(self, p: int, r: int, k: int) -> int:
        """Give ``p`` up to ``k`` of resource ``r`` (capped by the box); checks the Ether win."""
        bank = C.POOL[r]  # ``bank(r)``
        for x in self.res:
            bank -= x[r]
        if k > bank:
            k = bank
        if k < 0:
            k = 0
        self.res[p][r] += k
        if r == C.ETHER and self.res[p][C.ETHER] >= self.game.ether_to_win and self.phase != OVER:
            self.winner = p
            self.phase = OVER
            self.pk = K_NONE
        return k

    def gain_charge(self, p: int, k: int = 1) -> None:
        left = C.CHARGE_POOL - sum(self.charge)
        if k > left:
            k = left
        if k > 0:
            self.charge[p] += k

    def _decide(self, kind: int, seat: int, legal: list[int] | None = None) -> None:
        """Pose decision ``kind`` to ``seat``. ``legal``: its sorted legal actions when the
        caller has them already (only if nothing changes before the decision is returned)."""
        self.pk, self.pp = kind, seat
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
        """``occupancy()`` of area ``a`` alone: (non-exempt seat bits, exempt seat bits)."""
        return self._occ_normal[a], self._occ_exempt[a]

    def occupancy(self) -> tuple[list[int], list[int]]:
        """Per area, bit masks of the seats with non-exempt dice (Units, Hero, Captain,
        Defender, Ether die) and with exempt dice (Drone, Assassin, Thief). Kept up to date as
        dice come and go: the lists are the state's own (read them, never edit them)."""
        return self._occ_normal, self._occ_exempt

    def _recount_area(self, a: int) -> None:
        """Recompute ``occupancy()`` of area ``a`` from the dice locations (after dice came or went)."""
        normal = exempt = 0
        for q in range(self.game.num_players):
            if self.units_at[q][a] or self.hero_at[q] == a:
                normal |= 1 << q
        if a in self.merc_at:
            for m, b in enumerate(self.merc_at):
                if b == a:
                    if m == C.CAPTAIN or m == C.DEFENDER:
                        normal |= 1 << self.merc_owner[m]
                    else:
                        exempt |= 1 << self.merc_owner[m]
        if a == C.ETHER_FAULT and self.ether_placed:
            normal |= 1 << self.ether_ctrl
        self._occ_normal[a] = normal
        self._occ_exempt[a] = exempt

    def _recount_occupancy(self) -> None:
        """Recompute the whole ``occupancy()`` (after a Round's end or direct field edits)."""
        for a in range(C.NUM_AREAS):
            self._recount_area(a)

    def can_put(self, p: int, a: int, kind: int, moving: bool = False, occ=None) -> bool:
        """Whether a die of ``kind`` (0 unit, 1 hero, 2 ``p``'s Mercenary, 3 Ether die)
        may be put in area ``a`` (rulebook "Placement" 2-4, "Movement" 4-5, each die's rules).
        ``occ``: a precomputed ``occupancy()``. The rules written out one area at a time:
        the engine uses ``_put_masks`` (all areas at once), and the tests check that the
        two agree.

        ``moving`` (Movement, Fertile) only lifts "Placement" 2 (an area placed in this round):
        each die's own area rules, the Drone's, Assassin's and Thief's exemption from the
        area limits included, are the same for dice placed and dice moved (EW-A9)."""
        if a >= C.SILO0 + self.game.num_players:
            return False
        if not moving and self.placed[p] >> a & 1:
            return False
        if occ is None:
            occ = self.occupancy()
        if a in (C.MARKET, C.FACTORY) and (occ[0][a] | occ[1][a]) >> p & 1:
            return False  # one die per player in the Market / Factory
        m = self.hired[p] if kind == 2 else -1
        if kind == 3:
            return a == C.ETHER_FAULT and self.ether_ctrl == p
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
        if a in C.LIMITED:
            return _BITS[occ[0][a] & ~(1 << p)] < 2
        if a >= C.SILO0:
            owner = a - C.SILO0
            return p == owner or not occ[0][a] & ~(1 << owner) & ~(1 << p)
        return True

    def _put_masks(self, p: int, kinds, occ, moving: bool) -> list[int]:
        """For each die kind in ``kinds`` (as in ``can_put``), the bit mask of the areas where
        ``p`` may put it: the same rules as ``can_put``, for every area at once (bit ``a`` set
        exactly when ``can_put(p, a, kind, moving, occ)``: ``tests/ether_wars/test_playouts.py``);
        ``occ`` None: the state's own ``occupancy()``."""
        n = self.game.num_players
        if occ is None:
            normal, exempt = self._occ_normal, self._occ_exempt
        else:
            normal, exempt = occ
        bit = 1 << p
        own_silo = 1 << (C.SILO0 + p)
        base = _AREA_MASK[n]  # the areas in play
        if not moving:
            base &= ~self.placed[p]
        if (normal[C.MARKET] | exempt[C.MARKET]) & bit:  # one die per player in the Market / Factory
            base &= ~(1 << C.MARKET)
        if (normal[C.FACTORY] | exempt[C.FACTORY]) & bit:
            base &= ~(1 << C.FACTORY)
        lim = -1  # the areas whose limits admit p's non-exempt dice, computed when needed
        out = []
        for kind in kinds:
            m = self.hired[p] if kind == 2 else -1
            if kind == 3:
                out.append(base & _ETHER_FAULT_BIT if self.ether_ctrl == p else 0)
            elif m in _EXEMPT_MERC_AREAS:  # Priestess, Drone, Assassin, Thief: their own areas, no limits
                # (placing or moving alike: EW-A9)
                out.append(base & _EXEMPT_MERC_AREAS[m] & ~(own_silo if m == C.THIEF else 0))
            else:
                if lim < 0:
                    lim = _OPEN_MASK
                    others = ~bit
                    for a, abit in _LIMITED_BITS:  # at most two players in a Limited area
                        if _BITS[normal[a] & others] < 2:
                            lim |= abit
                    for o, a, abit, not_owner in _SILOS[n]:  # a Silo: its owner and one attacker
                        if o == p or not normal[a] & not_owner & others:
                            lim |= abit
                mask = base & lim
                if m == C.DEFENDER:
                    mask &= own_silo | (_ETHER_FAULT_BIT if self.ether_ctrl == p else 0)
                out.append(mask)
        return out

    def dice_at_home(self, p: int) -> list[int]:
        """Kinds of ``p``'s dice still on its sheet that may be placed."""
        kinds = []
        if self.home_units[p]:
            kinds.append(0)
        if self.hero_at[p] < 0:
            kinds.append(1)
        m = self.hired[p]
        if m >= 0 and m != C.PRIESTESS and self.merc_at[m] < 0:
            kinds.append(2)
        if self.ether_ctrl == p and not self.ether_placed:
            kinds.append(3)
        return kinds

    # ---- legal actions ----------------------------------------------------------------
    def invalidate_caches(self) -> None:
        """Drop or recompute what is derived from the state's fields (``_legal_cache``, the base
        class's memo, ``occupancy()``); call it after editing fields directly, as the test
        builders do."""
        super().invalidate_caches()
        self._legal_cache = None
        self._recount_occupancy()

    def _legal_actions(self) -> list[int]:
        # computed once per decision (or posed with the decision by ``_decide``); ``_apply_action``
        # clears it. Code that edits a state's fields directly (tests) must call
        # ``invalidate_caches()``.
        # The list itself is returned: the base class copies it for callers and never changes it.
        c = self._legal_cache
        if c is None:
            c = self._legal_cache = sorted(self._legal_unsorted())
        return c

    def _is_legal(self, action: int) -> bool:
        return action in self._legal_actions()

    def _legal_unsorted(self) -> list[int]:
        k, p = self.pk, self.pp
        n = self.game.num_players
        if k == K_FACTION:
            return [FACTION0 + f for f in range(4) if f not in self.faction]
        if k == K_KEEP:
            return sorted({KEEP0 + f for f in self.packs[p]})
        if k == K_DISCARD:
            return [DISCARD0 + f for f in range(C.NUM_FAVOURS) if self.hand[p][f]]
        if k == K_ABILITY:
            return [ABILITY0 + i for i in range(4)]
        if k == K_HIRE:
            out = [HIRE0 + m for m in range(C.NUM_MERCS) if self._can_hire(p, m)]
            out.append(PASS)
            return out
        if k == K_PLACE:
            return self._place_legal(p, self._place_options(p)[0])
        if k == K_ADD:
            out = [ADD0 + d for d in self._add_kinds(p)]
            if self.add_count:
                out.append(DONE)
            return out
        if k == K_MOVE:
            return self._move_legal(p, self._movable(p))
        if k == K_MOVE_TO:
            coltan, charge = self._move_payments(p, self.move_pick // C.NUM_AREAS)
            rel = self.game.rel_areas[p]
            out = []
            for a in self._move_dests(p, self.move_pick):
                if coltan:
                    out.append(AREA0 + rel[a])
                if charge:
                    out.append(AREA_CHARGE0 + rel[a])
            out.sort()
            return out
        if k == K_FERTILE:
            mask = self._put_masks(p, (0,), None, True)[0]
            return sorted(AREA0 + self.rel_area(p, a) for a in range(C.NUM_AREAS) if mask >> a & 1) + [PASS]
        if k == K_WINDOW:
            return self._window_legal(p, self._can_boost(p))
        if k == K_RESPONSE:
            return [PLAY0 + C.CANCEL, PASS] if self.hand[p][C.CANCEL] else [PASS]
        if k == K_SMUGGLE_SEAT:
            return [SEAT0 + (q - p) % n for q in self._smuggle_targets(p)]
        if k == K_SMUGGLE_RES:
            q = self.win["target"]
            return [RESOURCE0 + r for r in range(4) if self.res[q][r]]
        if k == K_GAIN:
            return [RESOURCE0 + r for r in self.gain_choices(p)] or [PASS]
        if k == K_CONDUIT or k == K_END_ETHER:
            return [CONDUIT if k == K_CONDUIT else EXTRA_ETHER, PASS]
        return self._resolution_legal(k, p)

    def gain_choices(self, p: int) -> list[int]:
        """Resources ``p`` may take in its pending gain (``K_GAIN``), those the box still holds.
        The VAI Hero Skill, "obtain one resource of your choice" (rulebook "Hero Skills"): any
        of the five, Ether included (EW-A27). The Ripper's Assimilate card (EW-A5): Protein,
        Coltan, Plasma or Crystal. A seat has one faction, so its pending gains all come from
        one of the two."""
        last = C.NUM_RES if self.faction[p] == C.VAI else C.ETHER
        return [r for r in range(last) if self.bank(r) > 0]

    def _can_hire(self, p: int, m: int) -> bool:
        if self.merc_owner[m] >= 0:
            return False
        if self.contract[p]:
            return True
        return self.res[p][C.MERCENARIES[m].colour] >= 1 and self.res[p][C.PROTEIN] >= 1

    def _place_options(self, p: int) -> tuple[int, list[int], list[int]]:
        """``(mask, kinds, masks)``: the bit mask of the areas where ``p`` may start a Placement
        turn, the kinds of its dice at home and each kind's ``_put_masks``."""
        kinds = self.dice_at_home(p)
        if not kinds:
            return 0, kinds, []
        masks = self._put_masks(p, kinds, None, False)
        mask = 0
        for m in masks:
            mask |= m
        return mask, kinds, masks

    def _place_areas(self, p: int) -> list[int]:
        """Areas where ``p`` may start a Placement turn: some die at home may go there."""
        mask = self._place_options(p)[0]
        return [a for a in range(C.NUM_AREAS) if mask >> a & 1]

    def _place_legal(self, p: int, mask: int) -> list[int]:
        """Legal actions of a Placement turn's start: the areas in ``mask`` (``_place_options``), PASS."""
        return self.game.area_actions(p, mask, AREA0, (PASS,))

    def _add_kinds(self, p: int) -> list[int]:
        """Kinds of dice ``p`` may still add to the area chosen this Placement turn."""
        a = self.add_area
        if a in (C.MARKET, C.FACTORY) and self.add_count:
            return []
        kinds = self.dice_at_home(p)
        if self.add_count and self._occ_normal[a] >> p & 1:  # ``combat_dice(p, a)``
            # p already holds its place in the area, so the area limits cannot fail: only each
            # die's own area rules remain (the same answers as ``can_put``)
            m = self.hired[p]
            return [d for d in kinds
                    if d <= 1 or (d == 3 and a == C.ETHER_FAULT) or (d == 2 and self._merc_area_ok(p, m, a))]
        # the area's "placed" bit is already set: check it as a move
        masks = self._put_masks(p, kinds, None, True)
        return [d for d, mask in zip(kinds, masks) if mask >> a & 1]

    def _merc_area_ok(self, p: int, m: int, a: int) -> bool:
        """Mercenary ``m``'s own area rule (rulebook "Mercenary Dice"), limits aside."""
        if m == C.PRIESTESS:
            return False
        if m == C.DRONE:
            return a in C.EXTRACTION_AREAS
        if m == C.ASSASSIN:
            return a != C.MARKET and a != C.FACTORY
        if m == C.THIEF:
            return a >= C.SILO0 and a != C.SILO0 + p
        if m == C.DEFENDER:
            return a == C.SILO0 + p or (a == C.ETHER_FAULT and self.ether_ctrl == p)
        return True

    # movement
    def _move_legal(self, p: int, moves: list[tuple[int, int]]) -> list[int]:
        rel = self.game.rel_areas[p]
        out = []
        for kind, a in moves:
            out.append(MOVE0 + kind * C.NUM_AREAS + rel[a])
        out.sort()
        out.append(DONE)
        return out

    def _move_payments(self, p: int, kind: int) -> tuple[bool, bool]:
        cost = _MOVE_COSTS[kind]
        return (self.res[p][C.COLTAN] >= cost,
                self.ability_key(p) == "tactician" and self.charge[p] >= 1)

    def _move_dests(self, p: int, pick: int) -> list[int]:
        kind, a = divmod(pick, C.NUM_AREAS)
        a = self.abs_area(p, a)
        mask = self._dest_mask(p, kind, a)
        out = []
        for b in range(C.NUM_AREAS):
            if mask >> b & 1:
                out.append(b)
        return out

    def _dest_mask(self, p: int, kind: int, a: int) -> int:
        """Bit mask of the areas ``p``'s die of ``kind`` in ``a`` may move to: where it may be put
        as a move, ``a`` aside. ``_put_masks`` never counts ``p``'s own dice (the area limits
        count the others; ``p``'s presence in the Market/Factory only closes that area), so the
        die need not leave ``a`` first."""
        return self._put_masks(p, (kind,), None, True)[0] & ~(1 << a)

    def _lift(self, p: int, kind: int, a: int, sign: int) -> None:
        if kind == 0:
            self.units_at[p][a] += sign
        elif kind == 1:
            self.hero_at[p] = -1 if sign < 0 else a
        else:
            self.merc_at[self.hired[p]] = -1 if sign < 0 else a

    def _movable(self, p: int) -> list[tuple[int, int]]:
        """``(kind, area)`` of ``p``'s dice on the board that ``p`` can pay to move and that
        have somewhere to go (rulebook "Movement")."""
        m = self.hired[p]
        coltan = self.res[p][C.COLTAN]
        charge = self.ability_key(p) == "tactician" and self.charge[p] >= 1  # ``_move_payments``
        dice = []  # (kind, areas) of the dice p can pay to move
        for kind, cost in enumerate(_MOVE_COSTS):
            if not (coltan >= cost or charge):
                continue
            if kind == 0:
                areas = []
                for a, u in enumerate(self.units_at[p]):
                    if u:
                        areas.append(a)
            else:
                a = self.hero_at[p] if kind == 1 else self.merc_at[m] if m >= 0 else -1
                areas = [a] if a >= 0 else []
            if areas:
                dice.append((kind, areas))
        if not dice:
            return []
        # one ``_put_masks`` call for all the kinds (as ``_dest_mask``)
        kinds = []
        for kind, _ in dice:
            kinds.append(kind)
        out = []
        for (kind, areas), mask in zip(dice, self._put_masks(p, kinds, None, True)):
            for a in areas:
                if mask & ~(1 << a):
                    out.append((kind, a))
        return out

    # ---- applying actions ----------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        legal = self._legal_cache
        self._legal_cache = None
        block, i = _DECODE[action]
        k, p = self.pk, self.pp
        if k == K_ADD:
            if block != "DONE":
                a = self.add_area
                self._put(p, i, a)
                self.add_count += 1
                if a != C.MARKET and a != C.FACTORY:  # (one die there: ``_add_kinds`` is empty)
                    # ``_add_kinds``: the kinds addable before this die, less its kind once no such
                    # die is left at home (once ``p`` holds its place in the area, or with only an
                    # exempt die there, putting a die changes no other kind's answer; ~4% of engine
                    # instructions; tests/ether_wars/test_playouts.py checks it against _add_kinds)
                    if legal is not None:
                        out = legal[:-1] if legal[-1] == DONE else legal[:]
                        if i or not self.home_units[p]:
                            out.remove(action)
                    else:
                        out = [ADD0 + d for d in self._add_kinds(p)]
                    if out:  # the same decision goes on (``_advance`` would change nothing)
                        out.append(DONE)
                        self._legal_cache = out
                        return
            self._next_placer()
            if self.pk == K_PLACE:  # the next Placement turn (``_advance`` would change nothing)
                return
        elif k == K_PLACE:
            if block == "PASS":
                self.passed[p] = True
                self._next_placer()
                if self.pk == K_PLACE:
                    return
            else:
                a = i if i < C.SILO0 else C.SILO0 + (p + i - C.SILO0) % self.game.num_players  # ``abs_area``
                self.placed[p] |= 1 << a
                self.add_area = a
                self.add_count = 0
                memo = self._place_memo
                self.pk = K_ADD  # ``_decide`` (the same seat)
                if memo is not None and memo[0] is legal:
                    # the die kinds whose put mask holds the area (``_add_kinds`` with the same answer)
                    out = []
                    for d, mask in zip(memo[1], memo[2]):
                        if mask >> a & 1:
                            out.append(ADD0 + d)
                    self._legal_cache = out
                # (else ``_legal_cache`` stays None: listed when asked)
                return  # a decision inside the Placement turn (``_advance`` would change nothing)
        elif k in _WINDOW_KINDS:
            self._window_action(block, i)
        elif k in _RESOLUTION_KINDS:
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
                self._decide(K_MOVE_TO, p)
                return
        elif k == K_MOVE_TO:
            kind, a = divmod(self.move_pick, C.NUM_AREAS)
            a = self.abs_area(p, a)
            b = self.abs_area(p, i)
            if block == "AREA_CHARGE":
                self.charge[p] -= 1
            else:
                self.res[p][C.COLTAN] -= (C.MOVE_COST_UNIT, C.MOVE_COST_HERO, C.MOVE_COST_MERC)[kind]
            self._lift(p, kind, a, -1)
            self._leave_if_empty(p, a)
            self._arrive(p, b)
            if kind == 0:
                self.units_at[p][b] += 1
            else:
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
                self.charge[p] -= 2
                self.gain(p, C.ETHER, 1)
            self.rc["conduit_asked"] = True
        elif k == K_END_ETHER:  # extra Ether: right after Channelling and at the end of the round (EW-A17)
            if block == "EXTRA_ETHER":
                self.res[p][C.CRYSTAL] -= 2
                self.extra_used[p] = True
                self.gain(p, C.ETHER, 1)
            if self.rc is not None:
                self.rc["extra_asked"] = True
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
        if d == 0:
            self.home_units[p] -= 1
            self.units_at[p][a] += 1
            self._occ_normal[a] |= bit  # a die arriving only adds its owner to the occupancy
        elif d == 1:
            self.hero_at[p] = a
            self._occ_normal[a] |= bit
        elif d == 2:
            m = self.hired[p]
            self.merc_at[m] = a
            if m == C.CAPTAIN or m == C.DEFENDER:
                self._occ_normal[a] |= bit
            else:
                self._occ_exempt[a] |= bit
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
                mask, kinds, masks = self._place_options(q)
                if not mask:  # nothing can be placed: the seat passes (EW-A10)
                    self.passed[q] = True
                    continue
                self.turn = q
                legal = self.game.area_actions(q, mask, AREA0, (PASS,))  # ``_place_legal``
                self._place_memo = (legal, kinds, masks)
                self.pk, self.pp, self._legal_cache = K_PLACE, q, legal  # ``_decide``
                return
        self.pk = K_NONE

    # ---- the driver: automatic flow until the next decision ---------------------------------
    def _advance(self) -> None:
        while self.phase != OVER:
            if self.win is not None:
                if self._window_step():
                    return
                continue
            if self.gain_seat >= 0:
                self._decide(K_GAIN, self.gain_seat)
                return
            if self.rc is not None:
                if self._rc_step():
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
            if self.pk in (K_PLACE, K_ADD):
                return True
            self.phase = MOVEMENT
            self.queue = self.order()
            self._open_window(W_PHASE)
            self.pk = K_NONE
            return False
        if ph == MOVEMENT:
            if self.pk != K_FERTILE:  # movers first (seats with nothing to move are skipped) ...
                moves = None
                while self.queue:
                    moves = self._movable(self.queue[0])
                    if moves:
                        break
                    self.queue.pop(0)
                if self.queue:
                    self._decide(K_MOVE, self.queue[0], self._move_legal(self.queue[0], moves))
                    return True
                # ... then the Dracon Fertile holders, whether or not they had anything to move
                for q in range(n):
                    self.aggr_silo[q] = any(self.units_at[q][C.SILO0 + o] >= 2 for o in range(n) if o != q)
                self.queue = [q for q in self.order() if self.ability_key(q) == "fertile"]
                self.pk = K_FERTILE
            while self.queue and not (self.charge[self.queue[0]] >= 1 and self.reserve[self.queue[0]] >= 1):
                self.queue.pop(0)
            if self.queue:
                self._decide(K_FERTILE, self.queue[0])
                return True
            self.phase = RESOLUTION
            self.pk = K_NONE
            self._open_window(W_PHASE)
            self._start_resolution()
            return False
        if ph == MERCS:
            if self.queue:
                self.pk, self.pp, self._legal_cache = K_HIRE, self.queue[0], None  # ``_decide``
                return True
            self.phase = PLACEMENT
            self._open_window(W_PHASE)
            self.turn = (self.first - 1) % n
            self.pk = K_NONE
            self.queue = [-1]  # marker: placement not started
            return False
        if ph == NEW_DAY:
            if self.queue:
                self.pk, self.pp = K_ABILITY, self.queue[0]  # ``_decide``
                self._legal_cache = [ABILITY0, ABILITY0 + 1, ABILITY0 + 2, ABILITY0 + 3]
                return True
            self.revealed = True
            for q in range(n):
                self.medic_free[q] = 2 if self.ability_key(q) == "medic" else 0
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
                if self.channelled[q] and not self.extra_used[q] and self.res[q][C.CRYSTAL] >= 2:
                    self._decide(K_END_ETHER, q)
                    return True
                self.queue.pop(0)
                return False
            self._maintenance()
            return False
        if ph == PREP:
            if self.pk == K_FACTION and self.queue:
                self._decide(K_FACTION, self.queue[0])
                return True
            if self.pk == K_FACTION:
                self._deal_favours()
                if self.game.config.favours == "advanced":
                    self.queue = self.order()
                    self._decide(K_KEEP, self.queue[0])
                    return True
                self._new_day()
                return False
            if self.pk == K_KEEP:
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
            if self.pk == K_DISCARD:
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
            self.pk = K_NONE
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
        self.pk = K_ABILITY

    def _maintenance(self) -> None:
        """Rulebook "Maintenance": Mercenaries back, Protein upkeep (shortfall: EW-A25), first
        player passes left."""
        n = self.game.num_players
        merc_areas = [b for b in self.merc_at if b >= 0]  # Mercenaries still on the board go back
        self.merc_owner = [-1] * C.NUM_MERCS
        self.merc_at = [-1] * C.NUM_MERCS
        self.hired = [-1] * n
        plague = self.event_key() == "plague"  # upkeep: 1 Protein a Unit, +1 per 5 Units with Plague
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
            self._legal_cache = sorted(self._legal_unsorted())

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
            lines.append(f"to act: player_{self.pp} ({DECISION_NAMES[self.pk]})")
        return "\n".join(lines)
