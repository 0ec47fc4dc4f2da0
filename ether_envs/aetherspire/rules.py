"""Aetherspire rules engine (numpy only).

Rulebook sections are quoted by their headings (``rulebook "Build step"``);
assumptions by id (``ASP-A<n>``, listed in ``RULES.md``).

The fortress (3-D)
------------------
The fortress is a forest of floors over the three foundations. Each floor tile
lies either on a foundation (large tiles only) or on one room of a floor below
(a room of the tile's size). A tile's rooms are its "room slots" and its pillar
spaces its "space slots", numbered by tile id, so the whole fortress has a fixed
size whatever is built::

    level 3            [small #5 ]                 room slot = tile*3 + room (0..113)
                           |                        space     = tile*8 + k    (0..303)
    level 2   [medium #18: room0 | room1]  [large #30 .........]
                           |                        |
    level 1   [large #33: room0 (medium) | room1 (small)]   ...
                  |                                 |
    ground    foundation 0        foundation 1        foundation 2

``found_tile[f]`` is the tile on foundation ``f``; ``room_tile[r]`` the tile on
room slot ``r``; ``base_of[t]`` where tile ``t`` lies (``-2-f`` for foundation
``f``, a room slot, or -1 when not in the fortress); ``level[t]`` its height
(1 = on a foundation). ``pillar[s]`` and ``invader[s]`` (element or -1) describe
every space. Which spaces and rooms exist depends on the side face-up
(``side[t]``: 0 standard, 1 multi), read from the static tables ``NEEDS``,
``ROOM_OF`` and ``ROOMS``.

Turn structure
--------------
Supply (draw a tile, optional exchange, 3 invaders to the wheel as shards, roll
5 dice) -> build (any number of basic and special actions, ``END_BUILD``) ->
invasion (advance the track, awaken fiends, place invaders) -> next player.
Multi-part actions push steps on a small stack (``State.queue``); a step with
exactly one option resolves itself, a step with none is skipped.
"""

from __future__ import annotations

from bisect import insort
from itertools import compress
from operator import sub
from dataclasses import dataclass

import numpy as np

from ..core import Game as _Game, GameSpec, State as _State, TERMINAL, build_config, check_int
from . import components as C
from .effects import Effects
from .tables import *  # noqa: F401,F403  (codec, fortress tables, phases, step kinds)
from .tables import _FV

@dataclass(frozen=True)
class Config:
    """Aetherspire configuration (keyword arguments of ``make``/``load_game``).

    Attributes:
        num_players: 1..4 (1 = the solo game, rulebook "Solo rules").
        difficulty: 1..4 (rulebook "Difficulty Modes"; each includes the ones before).
        characters: character names, one per seat (``components.CHARACTERS``), or
            ``None`` to deal them at random from the pool the difficulty allows
            (ASP-A18).
        fiend_level: the aether fiend level set 1..4, or 0 for one random fiend per
            element from the whole deck; ``None`` = 1 at difficulty 1, else 0.
        adaptations: number of spire adaptations dealt (to the first fiends in track
            order, 0..4); ``None`` = 4 from difficulty 3, else 0.
        jump: spaces the invader track token starts down, each with 1 extra
            aethercore token; ``None`` = 1 at difficulty 4, else 0.
        start_tile: setup steps 11-12 (large multi tile with two invaders);
            ``None`` = only at difficulty 1.
        reward: ``"win"`` (+1 every player on a win, -1 on a loss) or ``"score"``
            (spires completed / 4, 1.0 on a win) (ASP-A20).
    """

    num_players: int = 2
    difficulty: int = 1
    characters: tuple[str, ...] | None = None
    fiend_level: int | None = None
    adaptations: int | None = None
    jump: int | None = None
    start_tile: bool | None = None
    reward: str = "win"

    def __post_init__(self):
        def bad(msg):
            raise ValueError(f"aetherspire config: {msg}")

        if not isinstance(self.num_players, int) or not 1 <= self.num_players <= 4:
            bad(f"num_players must be 1..4, got {self.num_players!r}")
        if not isinstance(self.difficulty, int) or not 1 <= self.difficulty <= 4:
            bad(f"difficulty must be 1..4, got {self.difficulty!r}")
        d = self.difficulty
        if self.fiend_level is None:
            object.__setattr__(self, "fiend_level", 1 if d == 1 else 0)
        if self.fiend_level not in (0, 1, 2, 3, 4):
            bad(f"fiend_level must be 0 (random) or 1..4, got {self.fiend_level!r}")
        if self.adaptations is None:
            object.__setattr__(self, "adaptations", 4 if d >= 3 else 0)
        if self.adaptations not in (0, 1, 2, 3, 4):
            bad(f"adaptations must be 0..4, got {self.adaptations!r}")
        if self.jump is None:
            object.__setattr__(self, "jump", 1 if d >= 4 else 0)
        if not isinstance(self.jump, int) or not 0 <= self.jump <= C.MAX_CORES - C.START_CORES:
            bad(f"jump must be 0..{C.MAX_CORES - C.START_CORES}, got {self.jump!r}")
        if self.start_tile is None:
            object.__setattr__(self, "start_tile", d == 1)
        if self.reward not in REWARDS:
            bad(f"reward must be one of {REWARDS}, got {self.reward!r}")
        if self.characters is not None:
            chars = tuple(self.characters)
            if len(chars) != self.num_players or any(c not in C.CHARACTER_BY_NAME for c in chars) \
                    or len(set(chars)) != len(chars):
                bad(f"characters must be {self.num_players} distinct names from {list(C.CHARACTER_BY_NAME)}")
            object.__setattr__(self, "characters", chars)

    @property
    def character_pool(self) -> tuple[int, ...]:
        """ASP-A18: solo -> solo characters; difficulty 1 -> starters; else starters + advanced."""
        tiers = ("solo",) if self.num_players == 1 else (("starter",) if self.difficulty == 1
                                                          else ("starter", "advanced"))
        return tuple(c.char_id for c in C.CHARACTERS if c.tier in tiers)


class Game(_Game):
    """Aetherspire, configured (see :class:`Config`)."""

    spec = GameSpec(name="aetherspire", version=0, min_players=1, max_players=4,
                    information="imperfect", chance="sampled", utility="identical", title="Aetherspire")
    codec = CODEC
    conformance_configs = (
        {"num_players": 1, "difficulty": 1}, {"num_players": 3, "difficulty": 2}, {"num_players": 4, "difficulty": 3},
        {"num_players": 2, "difficulty": 4, "reward": "score"},
    )
    """Configurations the conformance suite runs: every player count and difficulty."""

    def __init__(self, **config):
        self.config = build_config(Config, config, "aetherspire")
        self.num_players = self.config.num_players
        self.character_pool = np.array(self.config.character_pool)
        # the characters dealt at random (Config.character_pool), as an array
        from .observation import Encoder

        self.encoder = Encoder(self)

    def max_game_length(self) -> int:
        """Bound on decisions: at most 26 turns (22 track spaces + 3 spaces moved
        back + 1), each well under 1000 decisions (every build action spends a
        bounded resource), plus setup."""
        return 26 * 1000 + 4

    def utility(self) -> str:
        return "identical"

    def has_hidden_information(self) -> bool:
        return True  # the order of the bag and the tile stacks

    def new_initial_state(self, seed: int | None = None) -> "State":
        return State(self, check_int("seed", seed, 0))


_TILE_ARRAYS = [np.array(C.TILES_BY_SIZE[size]) for size in range(3)]
_FULL_BAG = np.repeat(np.arange(4), C.INVADERS_PER_ELEMENT)
"""Setup 2 and 7: the tile stacks and the bag before shuffling (never mutated)."""

(_MUD0, _MUD1), (_ICE0, _ICE1), (_LAVA0, _LAVA1), (_FIRE0, _FIRE1) = (
    SPELL_COST[k] for k in (MUDSLIDE, ICE_BEAM, LAVA_BOMB, FIRESTORM))
"""The two shard elements each spell costs (``tables.SPELL_COST``)."""

_REROLL_OPTIONS = [[REROLL0 + f for f in range(5) if avail >> f & 1] for avail in range(32)]
"""``_REROLL_OPTIONS[faces]``: the REROLL actions for a bit mask of faces with unused dice."""

_PILLAR_FIT = [[[0 if NEEDS[sd][s] is None else -1 if len(NEEDS[sd][s]) > 1
                 else SPACE0 + s if NEEDS[sd][s][0] & avail else 0 for s in range(NS)] for sd in (0, 1)]
               for avail in range(32)]
"""``_PILLAR_FIT[faces][side][space]``: for a bit mask of faces with unused dice, the SPACE
action if one die fits the space's single die requirement, 0 if none does, -1 if the space
needs several dice (``_dice_feasible`` decides). No awake level-2 fiend (``needs``)."""

_TILE_IDS = range(NT)

_DIE_OPTIONS = [[DIE0 + f for f in range(5) if avail >> f & 1] for avail in range(32)]
"""``_DIE_OPTIONS[faces]``: the DIE actions for a bit mask of faces with unused dice."""

_SIZE_HAS = [tuple(has >> TILE_SIZE[t] & 1 for t in range(NT)) for has in range(8)]
"""``_SIZE_HAS[has][tile]``: whether the tile's size bit is set in ``has`` (a bit mask of sizes)."""
_BUILD_ADD, _EXCH_ADD, _SPACE_ADD, _ELEM_ADD, _ROOM_ADD = (BUILD0.__add__, EXCH0.__add__, SPACE0.__add__,
                                                          ELEM0.__add__, ROOM0.__add__)
"""``BUILD0 + t``, ``EXCH0 + t``, ``SPACE0 + s``, ``ELEM0 + e``, ``ROOM0 + r`` as C callables (for ``map``)."""
_DRAW_OPTIONS = [[DRAW0 + s for s in range(3) if m >> s & 1] for m in range(8)]
_DRAWM_OPTIONS = [[DRAWM0 + s for s in range(3) if m >> s & 1] for m in range(8)]
"""``_DRAW_OPTIONS[m]``, ``_DRAWM_OPTIONS[m]``: the DRAW / DRAW_MULTI actions for a bit mask of non-empty stacks."""

_MASK_FACES = [tuple(f for f in range(5) if m >> f & 1) for m in range(32)]
"""``_MASK_FACES[mask]``: the faces in a bit mask of faces."""


def _dice_feasible(needs: tuple[int, ...], dice: list[int]) -> bool:
    """Whether the unused ``dice`` (counts per face; left as they were) can meet the die
    requirements ``needs`` (face masks, one die each). Two requirements (the most any
    space has): Hall's condition (a die for each, two dice for both together)."""
    n = len(needs)
    if n == 2:
        m1, m2 = needs
        c1 = c2 = c = 0
        for f in _MASK_FACES[m1 | m2]:
            d = dice[f]
            c += d
            if m1 >> f & 1:
                c1 += d
            if m2 >> f & 1:
                c2 += d
        return c1 >= 1 and c2 >= 1 and c >= 2
    if not needs:
        return True
    m = needs[0]
    for f in range(5):
        if m >> f & 1 and dice[f] > 0:
            dice[f] -= 1
            ok = _dice_feasible(needs[1:], dice)
            dice[f] += 1
            if ok:
                return True
    return False


_LIST_FIELDS = (
    "history", "stack_known", "walls", "slot_element", "fiend_level", "awake", "defeated", "adaptation",
    "adapted_done", "bag", "shards", "aside", "incoming", "reserve", "side", "found_tile", "_tv",
    "base_of", "level", "topped", "topper_room", "spire_of", "dice", "marks", "bonus_used", "characters")
"""Flat list attributes of a :class:`State` copied by ``clone`` (``queue`` and ``stacks``
are lists of lists, copied two levels deep; ``pillar``, ``invader`` and ``room_tile``
are copied on write)."""


class State(Effects, _State):
    """Aetherspire state. All lists hold ints; static tile data is module-level.

    Attributes:
        phase: ``SETUP, SUPPLY, BUILD, INVASION, OVER``; ``turn_player`` the active player.
        queue: pending steps ``[kind, a, b, c]`` (top = last); empty in the build
            step's main choice.
        outcome: 0 ongoing, 1 won, -1 lost; ``loss_reason`` says which loss condition.
        track: invader track token position (0 Start .. 23 Lose).
        cores: aethercore tokens; ``walls[e]`` wall of element e standing.
        slot_element: element of the fiend in each track slot (public: ASP-A12);
            ``fiend_level[e]`` its level (hidden while dormant when random),
            ``awake[e]``, ``defeated[e]``.
        adaptation[e]: adaptation id tucked under the fiend of element e, or -1;
            ``adapted_done[e]``: completed.
        bag: invader elements, order hidden (the draw pops the end).
        shards[e]: shards on the elemental wheel; ``aside[e]``: tokens set aside
            on defeated fiends; ``incoming``: invaders drawn, still to enter.
        stacks[size]: tile ids, index 0 = top, order hidden except the last
            ``stack_known[size]`` (tiles put on the bottom, public).
        reserve: tile ids in the (shared) reserve (ASP-A10); ``side[t]`` the side up.
        found_tile, room_tile, base_of, level, pillar, invader, spire_of: the
            fortress (module docstring). ``topped[t]``: element of the spire topper
            on floor ``t`` (-1: none), ``topper_room[t]`` the room slot it stands in,
            one small room footprint of the floor, closed from then on (ASP-A13).
        dice[f]: unused dice showing face f; ``marks[f]`` marked for a reroll.
        reroll_used, anchored_used: once-per-turn flags.
        characters[p]: character id per seat; ``bonus_used[b]`` bonus tokens flipped.
        turns: turns completed.
        _fv: fortress stamp (``tables._FV``): a fresh number on every change of the
            fortress; keys the cache of derived lists (``_fcache``: open spaces,
            spire options, ...). ``_sv``: the same for its structure only (floors
            placed, spires topped; ``_scache``). ``_tv[t]``: the same per floor tile
            (its level, what lies on it, its spaces' pillars and invaders; 0 = never
            in the fortress), so the encoder rewrites only the tiles that changed.
            ``_bv``: the same for the reserve, awakenings, defeats and bonus tokens
            (the encoder's board, ``_star_blocked``). Stamps never affect play.
        _shared: ``pillar``, ``invader``, ``room_tile`` and the ``_fort()`` list
            (``_fcache``) may be shared with a clone and are copied before the next
            change (``Effects._own_fortress``).
    """

    def __init__(self, game: Game, seed: int | None):
        self.game = game
        cfg = game.config
        n = game.num_players
        self.rng = rng = np.random.default_rng(seed)
        self.history: list[int] = []
        self._legal: list[int] | None = None
        # setup 2: three shuffled stacks
        self.stacks = [rng.permutation(_TILE_ARRAYS[s]).tolist() for s in range(3)]
        self.stack_known = [0, 0, 0]
        # setup 3-4: aethercore and walls (difficulty 4: + jump cores)
        self.cores = C.START_CORES + cfg.jump
        self.walls = [True] * 4
        # setup 5: fiends face-down in random order in the slots (levels: fiend_level)
        self.slot_element = rng.permutation(4).tolist()
        if cfg.fiend_level == 0:
            self.fiend_level = [int(x) for x in rng.integers(1, 5, size=4)]
        else:
            self.fiend_level = [cfg.fiend_level] * 4
        self.awake = [False] * 4
        self.defeated = [False] * 4
        # difficulty 3 step 5b: adaptations dealt to the first fiends (track order)
        self.adaptation = [-1] * 4
        self.adapted_done = [False] * 4
        if cfg.adaptations:
            deal = rng.permutation(C.NUM_ADAPTATIONS)[:cfg.adaptations]
            for k, a in enumerate(deal):
                self.adaptation[self.slot_element[k]] = int(a)
        # setup 6 (+ difficulty 4 jump start)
        self.track = cfg.jump
        for k, sp in enumerate(C.AWAKEN_SPACES):
            if sp <= self.track:
                self.awake[self.slot_element[k]] = True
        # setup 7: the bag
        self.bag = rng.permutation(_FULL_BAG).tolist()
        self.shards = [0] * 4
        self.aside = [0] * 4
        self.incoming: list[int] = []
        # fortress
        self.reserve: list[int] = []
        self.side = [0] * NT
        self.found_tile = [-1] * C.NUM_FOUNDATIONS
        self.room_tile = [-1] * NR
        self.base_of = [-1] * NT
        self.level = [0] * NT
        self.pillar = [0] * NS
        self.invader = [-1] * NS
        self.topped = [-1] * NT
        self.topper_room = [-1] * NT
        self.spire_of = [-1] * NT
        self.pillars_used = 0
        self._shared = False  # pillar, invader, room_tile may be shared with a clone
        self._fv = next(_FV)  # fortress stamp: new on every change of the fortress (caches)
        self._tv = [0] * NT  # tile stamps: new on every change on that floor tile (0: never in the fortress)
        self._bv = next(_FV)  # board stamp: reserve, awakenings, bonus tokens (encoder cache)
        self._sv = next(_FV)  # structure stamp: floors placed, spires topped (caches)
        self._fcache = None
        self._scache = None
        self.dice = [0] * 5
        self.marks = [0] * 5
        self.reroll_used = False
        self.anchored_used = False
        self.bonus_used = [False] * C.NUM_BONUSES
        # step 15 (ASP-A18): characters
        if cfg.characters is not None:
            self.characters = [C.CHARACTER_BY_NAME[c].char_id for c in cfg.characters]
        else:
            self.characters = rng.choice(game.character_pool, size=n, replace=False).tolist()
        self.turn_player = 0  # setup 14: ASP-A11
        self.turns = 0
        self.outcome = 0
        self.loss_reason = ""
        self.queue: list[list[int]] = []
        self.phase = SETUP
        if cfg.start_tile:
            # setup 11-12: a large tile multi side up on a foundation (ASP-A11), 2 invaders on it
            t = self._draw_tile(C.LARGE)
            self.side[t] = 1
            self._place_floor(t, -2)
            for _ in range(2):
                if self.bag:
                    self.queue.insert(0, [K_SETUP_INV, self.bag.pop(), 0, 0])
        self._settle()

    # ---- clone ------------------------------------------------------------------------
    def clone(self) -> "State":
        """An independent copy: every list copied (``queue`` and ``stacks`` two levels)
        except the three long fortress lists ``pillar``, ``invader``, ``room_tile``
        and the ``_fort()`` list, which both states copy before they first change them
        (``_own_fortress``); the rest shared (ints, strings, tuples, the game and the
        other stamp-keyed caches); the generator's state is copied lazily, by both states
        (``State._share_rng_state``)."""
        s = State.__new__(State)
        d = self.__dict__.copy()
        for k in _LIST_FIELDS:
            d[k] = d[k][:]
        d["queue"] = [x[:] for x in self.queue]
        d["stacks"] = [x[:] for x in self.stacks]
        self._shared = d["_shared"] = True  # pillar, invader, room_tile: copied on write
        s.__dict__ = d
        self._share_rng_state(s)
        return s

    _blocked = None  # (board stamp, _star_blocked())
    _targets = (-1, -1, None)  # (fortress stamp, element, _invader_targets(element)): _enter
    _builds = None  # (board stamp, sizes with a place, BUILD actions): _build_options

    def __setstate__(self, d: dict) -> None:
        """Unpickled/deep-copied states take a fresh fortress stamp (stamps are per process)."""
        self.__dict__.update(d)
        self._fv = next(_FV)
        self._tv = [next(_FV) if v else 0 for v in self._tv]
        self._bv = next(_FV)
        self._sv = next(_FV)
        self._fcache = None
        self._scache = None

    # ---- queries ----------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.turn_player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def spires(self) -> int:
        """Spires completed (aether fiends defeated), 0..4."""
        return sum(self.defeated)

    def scores(self) -> np.ndarray:
        """The team's spires completed, the same for every seat (float64, (players,))."""
        return np.full(self.num_players, float(self.spires()))

    def _terminal_returns(self) -> np.ndarray:
        n = self.num_players
        if self.game.config.reward == "score":
            return np.full(n, 1.0 if self.outcome > 0 else self.spires() / 4.0)
        return np.full(n, 1.0 if self.outcome > 0 else -1.0)

    def final_info(self) -> dict:
        return {"won": self.outcome > 0, "loss_reason": self.loss_reason, "spires": self.spires()}

    def pillar_supply(self) -> int:
        return C.NUM_PILLARS - self.pillars_used

    def character(self, p: int | None = None) -> C.Character:
        return C.CHARACTERS[self.characters[self.turn_player if p is None else p]]

    def fiend_active(self, e: int, level: int) -> bool:
        """The fiend of element ``e`` is awake, undefeated and of ``level``."""
        return self.awake[e] and not self.defeated[e] and self.fiend_level[e] == level

    def _struct(self) -> tuple:
        """(stamp, open rooms ``[(slot, size, spaces)]``, their spaces, spire top
        candidates, per element the invader target groups (``_target_groups``, filled
        when first needed)), cached per structure stamp ``_sv`` (floors placed, spires
        topped; shared lists: never mutate them). Tiles and spaces in ascending id order.

        Open: a room with no floor and no spire topper on it (ASP-A13, ASP-A14); the
        other rooms of a topped floor stay open. A spire top candidate: a floor of
        level 4 or more (a spire has 4 or more floors, ``spire_floors``), in no spire
        (so untopped), with nothing on its rooms and a small room footprint."""
        sc = self._scache
        if sc is not None and sc[0] == self._sv:
            return sc
        rooms: list[tuple] = []
        opened: list[int] = []
        tops: list[int] = []
        room_tile, level, side, topper_room, spire_of = (self.room_tile, self.level, self.side, self.topper_room,
                                                         self.spire_of)
        for t in compress(_TILE_IDS, level):  # the floors in the fortress (level >= 1)
            lv = level[t]
            covered = False
            topper = topper_room[t]  # (-1: no room slot)
            for room in TILE_ROOMS[side[t]][t]:
                if room_tile[room[0]] >= 0:
                    covered = True
                    continue
                if room[0] == topper:
                    continue  # "You cannot place a pillar in a room that has a spire topper" (ASP-A13)
                rooms.append(room)
                opened += room[2]
            if lv >= 4 and not covered and spire_of[t] < 0 and TILE_FOOTPRINTS[side[t]][t]:
                tops.append(t)
        sc = self._scache = (self._sv, rooms, opened, tops, [None] * 4)
        return sc

    def _target_groups(self, e: int) -> tuple:
        """The open spaces an invader of element ``e`` may enter, per tier (0: the
        standard rooms of its element, 1: multi rooms) as ``[(level, spaces)]``, highest
        floor first, spaces in ascending order; cached in ``_struct()`` (a function of
        the structure alone)."""
        sc = self._struct()
        groups = sc[4][e]
        if groups is not None:
            return groups
        bit = 1 << e
        by_level: tuple[dict, dict] = ({}, {})
        side, level, multi = self.side, self.level, C.MULTI
        for slot, _size, spaces in sc[1]:  # rooms in ascending order: so are the spaces
            t = slot // C.MAX_ROOMS
            mask = ROOMS[side[t]][slot][1]
            if mask & bit:
                d, lv = by_level[mask == multi], level[t]
                if lv in d:
                    d[lv] += spaces
                else:
                    d[lv] = list(spaces)
        std, mul = by_level
        groups = sc[4][e] = (sorted(std.items(), reverse=True), sorted(mul.items(), reverse=True))  # (levels differ)
        return groups

    def _fort(self) -> tuple:
        """[stamp, open spaces, invader spaces, buildable rooms per size, spaces free for
        a pillar, spire options, sizes with a place to build (bit ``size`` set when a
        room of that size is buildable or, large, a foundation is empty), open spaces
        with no pillar and no invader], cached per fortress stamp ``_fv``; a change of
        one space updates it in place (``_fort_space``; a clone copies it first,
        ``Effects._own_fortress``). Callers must not mutate its lists, nor keep them
        across a change of the fortress.

        Buildable: an open, complete, invader-free room (rulebook "Build a floor")."""
        fc = self._fcache
        if fc is not None and fc[0] == self._fv:
            return fc
        invaded: list[int] = []
        free: list[int] = []
        build: list[list[int]] = [[], [], []]
        pillar, invader = self.pillar, self.invader
        sc = self._scache
        if sc is None or sc[0] != self._sv:
            sc = self._struct()
        for slot, size, spaces in sc[1]:
            complete = True
            for q in spaces:
                if invader[q] >= 0:
                    invaded.append(q)
                    complete = False
                elif not pillar[q]:
                    free.append(q)
                    complete = False
            if complete:
                build[size].append(slot)
        has = ((1 if build[0] else 0) | (2 if build[1] else 0)
               | (4 if build[2] or -1 in self.found_tile else 0))
        fc = self._fcache = [self._fv, sc[2], invaded, build, free if self.pillars_used < C.NUM_PILLARS else [],
                             [], has, free]
        if sc[3]:  # spire top candidates
            fc[5] = self._spire_options(sc[3])
        return fc

    def _fort_space(self, fc: list, s: int) -> None:
        """Update ``fc`` (``_fort()``, owned by this state; not its spire options
        nor, after a change of ``pillars_used``, its pillar spaces ``fc[4]``) in place
        after a change of the pillar or invader on space ``s`` alone."""
        t = s >> 3  # s // C.MAX_SPACES
        sd = self.side[t]
        slot = ROOM_OF[sd][s]
        if self.room_tile[slot] >= 0 or self.topper_room[t] == slot or not self.level[t]:
            return  # not an open space: in no list
        pillar, invader = self.pillar, self.invader
        invaded, free = fc[2], fc[7]
        if invader[s] >= 0:
            if s not in invaded:
                insort(invaded, s)
            if s in free:
                free.remove(s)
        else:
            if s in invaded:
                invaded.remove(s)
            if pillar[s]:
                if s in free:
                    free.remove(s)
            elif s not in free:
                insort(free, s)
        size, _mask, spaces = ROOMS[sd][slot]
        for q in spaces:
            if invader[q] >= 0 or not pillar[q]:
                complete = False
                break
        else:
            complete = True
        rooms = fc[3][size]
        if complete != (slot in rooms):
            if complete:
                insort(rooms, slot)
                fc[6] |= 1 << size
            else:
                rooms.remove(slot)
                if not rooms and (size != C.LARGE or -1 not in self.found_tile):
                    fc[6] &= ~(1 << size)

    def open_spaces(self) -> list[int]:
        """Spaces of open rooms (may hold a new pillar or invader); shared list (``_fort``)."""
        fc = self._fcache
        return (fc if fc is not None and fc[0] == self._fv else self._fort())[1]

    def invader_spaces(self) -> list[int]:
        """Spaces holding an invader; shared list (``_fort``)."""
        fc = self._fcache
        return (fc if fc is not None and fc[0] == self._fv else self._fort())[2]

    def _buildable_rooms(self) -> list[list[int]]:
        """Per size: room slots a floor of that size may be built on; shared lists (``_fort``)."""
        fc = self._fcache
        return (fc if fc is not None and fc[0] == self._fv else self._fort())[3]

    def pillar_spaces(self, element: int = -1) -> list[int]:
        """Available for a new pillar: open, no pillar, no invader (rulebook "Place a
        pillar"); ``element`` >= 0 keeps rooms whose mask includes it (ASP-A23)."""
        fc = self._fcache
        out = (fc if fc is not None and fc[0] == self._fv else self._fort())[4]
        if element >= 0:
            side = self.side
            out = [s for s in out
                   if ROOMS[side[s // C.MAX_SPACES]][ROOM_OF[side[s // C.MAX_SPACES]][s]][1] >> element & 1]
        return out

    def _pillar_space_of(self, element: int, free: list[int]) -> bool:
        """Whether ``pillar_spaces(element)`` is not empty (``free``: ``pillar_spaces()``)."""
        side = self.side
        for s in free:
            if SPACE_ROOM_MASK[side[s >> 3]][s] >> element & 1:
                return True
        return False

    def needs(self, s: int, blocked: int | None = None) -> tuple[int, ...]:
        """Die requirements of space ``s``; an awake level-2 fiend of element X
        makes star dice no longer fit X on the standard side's X rooms (ASP-A6).
        ``blocked``: the element mask of such fiends (computed when None)."""
        sd = self.side[s >> 3]  # s // C.MAX_SPACES
        need = NEEDS[sd][s]
        if sd == 0:
            if blocked is None:
                if True in self.awake:
                    c = self._blocked
                    blocked = c[1] if c is not None and c[0] == self._bv else self._star_blocked()
                else:
                    blocked = 0
            if blocked:
                mask = ROOMS[0][ROOM_OF[0][s]][1] & blocked
                if mask:
                    need = tuple(m & ~(1 << C.STAR) if m & mask else m for m in need)
        return need

    def _star_blocked(self) -> int:
        """Element mask of the awake, undefeated level-2 fiends; cached per board stamp
        ``_bv`` (awakenings and defeats take a fresh one; dormant levels do not count)."""
        c = self._blocked
        if c is not None and c[0] == self._bv:
            return c[1]
        awake, defeated, level = self.awake, self.defeated, self.fiend_level
        mask = 0
        for e in range(4):
            if awake[e] and not defeated[e] and level[e] == 2:
                mask |= 1 << e
        self._blocked = (self._bv, mask)
        return mask

    # ---- legal actions ---------------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        """The cached sorted legal actions (shared: ``State.legal_actions`` copies them)."""
        legal = self._legal
        if legal is None:
            if self.queue:
                legal = self._legal = sorted(self._step_options(self.queue[-1]))
            else:
                legal = self._legal = self._build_options()  # built in ascending order
        return legal

    def _is_legal(self, action: int) -> bool:
        return action in self._legal_actions()

    def _build_options(self) -> list[int]:
        """The build step's main choice (rulebook "Build step"): end it, place a pillar,
        reroll any, build a floor, cast a spell whose shards are there and that has a
        target (ASP-A16; Floor Crafting: ``_craft_cost`` shards and a tile left), complete
        a spire, use the character's trigger (ASP-A5), Anchored's free pillar.
        Built in ascending action order (blocks in codec order, each ascending; the
        reserve is kept sorted), so it needs no sort (the conformance suite checks it)."""
        out = [END_BUILD]
        dice = self.dice
        fc = self._fcache
        if fc is None or fc[0] != self._fv:
            fc = self._fort()
        opened, invaded, free = fc[1], fc[2], fc[4]
        d0, d1, d2, d3, d4 = dice
        nd = d0 + d1 + d2 + d3 + d4
        if nd:
            avail = (d0 and 1) | (d1 and 2) | (d2 and 4) | (d3 and 8) | (d4 and 16)  # faces
            if free:  # pillars (rulebook "Place a pillar")
                blocked = 0
                if True in self.awake:
                    c = self._blocked
                    blocked = c[1] if c is not None and c[0] == self._bv else self._star_blocked()
                side = self.side
                if blocked:
                    for s in free:
                        need = self.needs(s, blocked)
                        if (need[0] & avail) if len(need) == 1 else _dice_feasible(need, dice):
                            out.append(SPACE0 + s)
                else:
                    fit = _PILLAR_FIT[avail]
                    for s in free:
                        a = fit[side[s >> 3]][s]
                        if a:
                            if a > 0:
                                out.append(a)
                            elif _dice_feasible(NEEDS[side[s >> 3]][s], dice):
                                out.append(SPACE0 + s)
            if not self.reroll_used:
                out += _REROLL_OPTIONS[avail]
        reserve = self.reserve
        if reserve:
            has = fc[6]
            if has:  # (0: no place to build anything)
                c = self._builds
                if c is None or c[0] != self._bv or c[1] != has:  # the reserve changes with _bv
                    c = self._builds = (self._bv, has, list(map(_BUILD_ADD, reserve)) if has == 7 else list(
                        map(_BUILD_ADD, compress(reserve, map(_SIZE_HAS[has].__getitem__, reserve)))))
                out += c[2]
        sh = self.shards
        ns = sh[0] + sh[1] + sh[2] + sh[3]
        ch = C.CHARACTERS[self.characters[self.turn_player]]
        if ns:  # spells (rulebook "Cast a spell"; ASP-A16)
            if sh[_MUD0] and sh[_MUD1]:
                out.append(SPELL0 + MUDSLIDE)
            if sh[_ICE0] and sh[_ICE1] and len(invaded) >= 2:
                # a room with 2+ invaders: a room's spaces have consecutive ids
                side, prev = self.side, -1
                for q in invaded:
                    r = ROOM_OF[side[q >> 3]][q]
                    if r == prev:
                        out.append(SPELL0 + ICE_BEAM)
                        break
                    prev = r
            if sh[_LAVA0] and sh[_LAVA1] and invaded:
                out.append(SPELL0 + LAVA_BOMB)
            if sh[_FIRE0] and sh[_FIRE1] and ((invaded and len(opened) > len(invaded)) or free):
                out.append(SPELL0 + FIRESTORM)
            if ns >= (1 if ch.upgrade == "floor_crafting" else 2) and (
                    self.stacks[0] or self.stacks[1] or self.stacks[2]):  # = _craft_cost
                out.append(SPELL0 + FLOOR_CRAFTING)
        spires = fc[5]
        if spires:
            out += [SPIRE0 + t * 4 + e for t, e in spires]
        k, pillar = ch.trigger, self.pillar  # character triggers (ASP-A5)
        if (nd >= 1 and self._pillar_space_of(ch.element, free) if k == "pillar"
                else bool(invaded) and any(map(pillar.__getitem__, opened)) if k == "demolish"
                else nd >= 2 and False in self.walls and bool(self._restorable_walls()) if k == "mend"
                else nd >= 1 and bool(reserve) if k == "swap"
                else nd >= 1 and ns >= 1):  # gust
            out.append(TRIGGER)
        if True in self.adapted_done and free and not self.anchored_used and self._adapted("anchored"):
            out.append(FREE_PILLAR)
        return out

    def _floor_targets(self, t: int, rooms: dict | None = None) -> list[int]:
        """FOUNDATION/ROOM action ids where reserve tile ``t`` may be built: an empty
        foundation (large), or a completed, invader-free, uncovered room of its size."""
        size = TILE_SIZE[t]
        out = []
        if size == C.LARGE:
            found = self.found_tile
            for f in range(C.NUM_FOUNDATIONS):
                if found[f] < 0:
                    out.append(FOUND0 + f)
        rooms = self._buildable_rooms() if rooms is None else rooms
        for r in rooms[size]:
            out.append(ROOM0 + r)
        return out

    def _craft_cost(self) -> int:
        return 1 if self.character().upgrade == "floor_crafting" else 2

    def _ice_rooms(self) -> list[int]:
        """Room slots holding 2 or more invaders (Ice Beam targets, ASP-A16)."""
        inv = self.invader_spaces()
        if len(inv) < 2:
            return []
        count: dict[int, int] = {}
        side = self.side
        for s in inv:
            r = ROOM_OF[side[s // C.MAX_SPACES]][s]
            count[r] = count.get(r, 0) + 1
        out = []
        for r, c in count.items():
            if c >= 2:
                out.append(r)
        out.sort()
        return out

    def _firestorm_moves(self) -> list[int]:
        """Invader spaces that can move to another open, invader-free space."""
        fc = self._fort()
        inv = fc[2]
        return inv if inv and len(fc[1]) > len(inv) else []  # some open space without an invader

    def _adapted(self, key: str) -> bool:
        """Whether the adaptation ``key`` is completed (difficulty 3)."""
        done = self.adapted_done
        if True not in done:
            return False
        a = C.ADAPTATION_BY_KEY[key].adaptation_id
        adaptation = self.adaptation
        for e in range(4):
            if done[e] and adaptation[e] == a:
                return True
        return False

    def _demolish_spaces(self) -> list[int]:
        """Pillars that may be destroyed: not under a floor (glossary "Destroy (pillar)")."""
        pillar = self.pillar
        out = []
        for s in self.open_spaces():
            if pillar[s]:
                out.append(s)
        return out

    def _restorable_walls(self) -> list[int]:
        """Destroyed walls that may be restored (not while a level-3 fiend of that element is awake)."""
        walls, awake, defeated, level = self.walls, self.awake, self.defeated, self.fiend_level
        out = []
        for e in range(4):
            if not walls[e] and not (awake[e] and not defeated[e] and level[e] == 3):  # fiend_active(e, 3)
                out.append(e)
        return out

    # ---- spires ---------------------------------------------------------------------------
    def spire_options(self) -> list[tuple[int, int]]:
        """(top tile, element) pairs whose spire may be completed now (rulebook
        "Complete a spire" and its clarifications; adaptations: difficulty 3).
        A function of the fortress only: cached per fortress stamp (shared list)."""
        return self._fort()[5]

    def _spire_options(self, tops: list[int]) -> list[tuple[int, int]]:
        """``spire_options()`` anew (``tops``: the spire top candidates, ``_struct()[3]``)."""
        out = []
        pillar, invader, side, defeated = self.pillar, self.invader, self.side, self.defeated
        for t in tops:
            sd = side[t]
            # the top floor: nothing on it; a small-room footprint (or a small special tile)
            for s in TILE_SPACES[sd][t]:
                if pillar[s] or invader[s] >= 0:
                    break
            else:
                for e in range(4):
                    if not defeated[e] and TILE_ELEMENTS[t][sd] >> e & 1 and self._spire_ok(t, e):
                        out.append((t, e))
        return out

    def _spire_ok(self, top: int, e: int) -> bool:
        return self.spire_floors(top, e) is not None

    def spire_floors(self, top: int, e: int) -> list[int] | None:
        """The floors (top first) of the spire of element ``e`` topped on ``top``: the
        shortest stack of free floors of the element, 4 floors (Towering: 5) or more,
        that meets the element's adaptation (ASP-A26); None if there is none."""
        a = self.adaptation[e]
        key = C.ADAPTATIONS[a].key if a >= 0 else ""
        need = 5 if key == "towering" else 4
        chain, t = [], top
        while True:  # a floor in one spire only; multi and two-element floors fit (ASP-A21)
            if self.spire_of[t] >= 0 or not TILE_ELEMENTS[t][self.side[t]] >> e & 1:
                break
            chain.append(t)
            if len(chain) >= need and self._adaptation_met(key, chain, e):
                return chain
            b = self.base_of[t]
            if b < 0:
                break
            t = b // C.MAX_ROOMS
        return None

    def _adaptation_met(self, key: str, chain: list[int], e: int) -> bool:
        """Spire adaptation requirements (difficulty 1 text; ASP-A7)."""
        base = chain[-1]
        if key == "stable":
            return self._pillars_from(base) >= 18
        if key == "turbulent":
            levels = {self.level[t] for t in chain}
            return any(self.level[u] in levels and u not in chain and self.side[u] == 0
                       and not TILE_ELEMENTS[u][0] >> e & 1 for u in range(NT))
        if key == "pure":
            return all(self.side[t] == 0 for t in chain)
        if key == "guarded":
            return not any(self.invader[s] >= 0 for t in chain for s in TILE_SPACES[self.side[t]][t])
        if key == "anchored":
            return TILE_SIZE[base] == C.LARGE and self.base_of[base] <= -2
        return True

    def _pillars_from(self, base: int) -> int:
        """Pillars on ``base`` and every floor above it (Stable)."""
        total, todo = 0, [base]
        while todo:
            t = todo.pop()
            total += sum(self.pillar[s] for s in TILE_SPACES[self.side[t]][t])
            todo += [self.room_tile[t * C.MAX_ROOMS + r] for r in range(C.MAX_ROOMS)
                     if self.room_tile[t * C.MAX_ROOMS + r] >= 0]
        return total

    # ---- step options (one method per step kind, dispatched through _STEP_OPTIONS) ----------
    def _step_options(self, step: list[int]) -> list[int]:
        """The options of the pending ``step`` (unsorted action ids; [] = none)."""
        return _STEP_OPTIONS[step[0]](self, step)

    def _opts_exchange(self, step):
        out = list(map(_EXCH_ADD, self.reserve))
        if step[1]:
            out.append(PASS)
        return out

    def _opts_reroll(self, step):
        (d0, d1, d2, d3, d4), (m0, m1, m2, m3, m4) = self.dice, self.marks
        return _REROLL_OPTIONS[(d0 > m0) | (d1 > m1) << 1 | (d2 > m2) << 2 | (d3 > m3) << 3
                               | (d4 > m4) << 4] + [ROLL]

    def _opts_pay(self, step):
        s0, s1, s2, s3 = self.shards
        out = []
        if s0:
            out.append(SHARD0)
        if s1:
            out.append(SHARD0 + 1)
        if s2:
            out.append(SHARD0 + 2)
        if s3:
            out.append(SHARD0 + 3)
        return out

    def _opts_invader_space(self, step):
        t = self._targets  # _enter's, when it pushed this step
        out = []
        for s in (t[2] if t[0] == self._fv and t[1] == step[1] else self._invader_targets(step[1])):
            out.append(SPACE0 + s)
        return out

    def _opts_draw(self, step):
        k = step[0]
        s0, s1, s2 = self.stacks
        m = (1 if s0 else 0) | (2 if s1 else 0) | (4 if s2 else 0)
        if (k == K_BONUS_DRAW or (k == K_SUPPLY_DRAW and C.CHARACTERS[self.characters[self.turn_player]].passive == "multi_supply")
                or (k == K_CRAFT_DRAW and sum(self.shards) >= 1)):
            return _DRAW_OPTIONS[m] + _DRAWM_OPTIONS[m]
        return _DRAW_OPTIONS[m][:]

    def _opts_dice(self, step):
        _, a, b, _c = step
        needs = self.needs(a)
        nb = needs[b]
        dice = self.dice
        out = []
        if len(needs) == b + 1:  # the last die: any that fits
            for f in _MASK_FACES[nb]:
                if dice[f]:
                    out.append(DIE0 + f)
        elif len(needs) == b + 2:  # one more die to come: some other die must fit it (_dice_feasible)
            m = needs[b + 1]
            cm = 0
            for f in _MASK_FACES[m]:
                cm += dice[f]
            for f in _MASK_FACES[nb]:
                if dice[f] and cm - (m >> f & 1) >= 1:
                    out.append(DIE0 + f)
        else:
            rest = needs[b + 1:]
            for f in range(5):
                if nb >> f & 1 and dice[f]:
                    dice[f] -= 1
                    if _dice_feasible(rest, dice):
                        out.append(DIE0 + f)
                    dice[f] += 1
        return out

    def _opts_order(self, step):
        return list(map(_ELEM_ADD, self._order_choices()))

    def _opts_invaders(self, step):  # lava bomb, destroy invader
        return list(map(_SPACE_ADD, self.invader_spaces()))

    def _opts_ice(self, step):
        _, a, b, _c = step  # a: room (-1 none yet), b: taken, c: max
        if a < 0:
            rooms = set(self._ice_rooms())
            return [SPACE0 + s for s in self.invader_spaces()
                    if ROOM_OF[self.side[s // C.MAX_SPACES]][s] in rooms]
        out = [SPACE0 + s for s in self.invader_spaces() if ROOM_OF[self.side[s // C.MAX_SPACES]][s] == a]
        return out + ([PASS] if b >= 2 and out else [])

    def _opts_free_pillar(self, step):
        return list(map(_SPACE_ADD, self.pillar_spaces(step[2])))

    def _opts_fire_to(self, step):
        a = step[1]
        invader = self.invader
        out = []
        for s in self.open_spaces():
            if invader[s] < 0 and s != a:
                out.append(SPACE0 + s)
        return out

    def _opts_die(self, step):  # discard a die, reroll one
        d0, d1, d2, d3, d4 = self.dice
        return _DIE_OPTIONS[(d0 and 1) | (d1 and 2) | (d2 and 4) | (d3 and 8) | (d4 and 16)][:]

    def _opts_fire_from(self, step):
        return list(map(_SPACE_ADD, self._firestorm_moves()))

    def _opts_demolish(self, step):
        return list(map(_SPACE_ADD, self._demolish_spaces()))

    def _opts_setup_invader(self, step):
        t = self.found_tile[0] if self.found_tile[0] >= 0 else next(u for u in range(NT) if self.level[u])
        return [SPACE0 + s for s in TILE_SPACES[self.side[t]][t] if self.invader[s] < 0]

    def _opts_target(self, step):
        return self._floor_targets(step[1])

    def _opts_crystal(self, step):
        out = self._opts_invaders(step)
        if out:
            out.append(PASS)
        return out

    def _opts_wall(self, step):
        return list(map(_ELEM_ADD, self._restorable_walls()))

    def _opts_bonus(self, step):
        return [BONUS0 + i for i in range(C.NUM_BONUSES) if not self.bonus_used[i]]

    def _opts_diminish(self, step):
        a = step[1]
        invader = self.invader
        out = []
        for s in self.invader_spaces():
            if invader[s] == a:
                out.append(SPACE0 + s)
        if self.shards[a]:
            out.append(SHARD0 + a)
        return out

    def _opts_topper(self, step):
        """The small room footprints of the top floor (rulebook "Complete a spire"; ASP-A13)."""
        t = step[1]
        return list(map(_ROOM_ADD, TILE_FOOTPRINTS[self.side[t]][t]))

    def _opts_none(self, step):
        raise AssertionError(f"automatic step {step} has no options")

    # automatic steps and shortcuts, for _settle only (_SETTLE_OPTIONS): None = done here
    def _auto_draw(self, step):
        self.queue.pop()
        self._draw_to_reserve(step[1], bool(step[2]))

    def _auto_diminish(self, step):
        self.queue.pop()
        self._diminish_bag(step[1])

    def _settle_discard(self, step):
        if step[1] >= sum(self.dice):
            self.dice = [0] * 5  # discarding every unused die: nothing to choose ([]: the step ends)
            return []
        return self._opts_die(step)

    # ---- apply ------------------------------------------------------------------------------

    def _build_action(self, block: str, i: int) -> None:
        """The build step's main choice (rulebook "Build step")."""
        if block == "END_BUILD":
            self._begin_invasion()
        elif block == "SPACE":
            sd = self.side[i >> 3]
            need = self.needs(i) if sd == 0 and True in self.awake else NEEDS[sd][i]
            d = self.dice
            fits = need[0] & ((d[0] > 0) | (d[1] > 0) << 1 | (d[2] > 0) << 2 | (d[3] > 0) << 3 | (d[4] > 0) << 4)
            if len(need) == 1 and not fits & (fits - 1):
                # one die that only one face fits: the dice step's forced choice, done here
                d[fits.bit_length() - 1] -= 1
                self._add_pillar(i)
            else:
                self.queue.append([K_DICE, i, 0, 0])
        elif block == "REROLL":
            self.reroll_used = True
            self.marks[i] = 1
            self.queue.append([K_REROLL, 0, 0, 0])
        elif block == "BUILD":
            self.queue.append([K_TARGET, i, 0, 0])
        elif block == "SPELL":
            self._cast(i)
        elif block == "SPIRE":
            top, e = i // 4, i % 4
            if self.spires() == 3:  # the fourth topper wins at once: its room does not matter (ASP-A13)
                self._complete_spire(top, e, TILE_FOOTPRINTS[self.side[top]][top][0])
            else:
                self.queue.append([K_TOPPER, top, e, 0])  # which small room footprint (one: forced)
        elif block == "TRIGGER":
            self._trigger()
        elif block == "FREE_PILLAR":
            self.anchored_used = True
            self.queue.append([K_FREE_PILLAR, 1, -1, 0])

    # one method per step kind (_RESOLVE); ``step`` is the queue's top
    def _do_none(self, step, block, i):  # automatic steps (_settle runs them)
        pass

    def _do_exchange(self, step, block, i):
        self.queue.pop()
        if block == "EXCHANGE":
            self._exchange(i)

    def _do_reroll(self, step, block, i):
        if block == "REROLL":
            self.marks[i] += 1
        else:
            self.queue.pop()
            m0, m1, m2, m3, m4 = marks = self.marks
            m = m0 + m1 + m2 + m3 + m4
            self.dice = list(map(sub, self.dice, marks))
            self.marks = [0] * 5
            self._roll(m)

    def _do_pay(self, step, block, i):
        self._spend_shard(i)
        if step[1] > 1:
            step[1] -= 1
        else:
            self.queue.pop()

    def _do_invader_space(self, step, block, i):
        self.queue.pop()
        self._set_invader(i, step[1])

    def _do_draw(self, step, block, i):
        q = self.queue
        q.pop()
        k = step[0]
        multi = block == "DRAW_MULTI"
        if k == K_CRAFT_DRAW:
            q.append([K_EXCHANGE, 1, 0, 0])
            if multi:  # rulebook: "If you spend a 3rd shard, you may draw a multi floor tile instead"
                q += [[K_DO_DRAW, i, 1, 0], [K_PAY, 1, 0, 0]]
                return
        self._draw_to_reserve(i, multi)
        if k == K_SUPPLY_DRAW and step[1]:
            q.append([K_EXCHANGE, 1, 0, 0])

    def _do_dice(self, step, block, i):
        self.dice[i] -= 1
        a, b = step[1], step[2]
        if b + 1 < len(NEEDS[self.side[a >> 3]][a]):  # = len(self.needs(a))
            step[2] = b + 1
        else:
            self.queue.pop()
            self._add_pillar(a)

    def _do_order(self, step, block, i):
        self.queue.pop()
        self._enter(i)

    def _do_destroy(self, step, block, i):  # lava bomb, destroy invader
        self._destroy_invader(i)
        if step[1] > 1:
            step[1] -= 1
        else:
            self.queue.pop()

    def _do_ice(self, step, block, i):
        if block == "PASS":
            self.queue.pop()
            return
        b = step[2] + 1
        step[1] = ROOM_OF[self.side[i // C.MAX_SPACES]][i]
        step[2] = b
        self._crystallize(i)
        if b >= step[3]:
            self.queue.pop()

    def _do_free_pillar(self, step, block, i):
        self._add_pillar(i)
        if step[1] > 1:
            step[1] -= 1
        else:
            self.queue.pop()

    def _do_fire_to(self, step, block, i):
        self.queue.pop()
        a = step[1]
        self._set_invader(i, self.invader[a])
        self._set_invader(a, -1)

    def _do_discard(self, step, block, i):
        self.dice[i] -= 1
        if step[1] > 1:
            step[1] -= 1
        else:
            self.queue.pop()

    def _do_reroll_one(self, step, block, i):
        self.queue.pop()
        self.dice[i] -= 1
        self._roll(1)

    def _do_fire_from(self, step, block, i):
        self.queue[-1] = [K_FIRE_TO, i, 0, 0]

    def _do_demolish(self, step, block, i):
        self.queue.pop()
        self.pillars_used -= 1  # before the change: _fort_space reads it
        self._set_pillar(i, 0)

    def _do_setup_invader(self, step, block, i):
        self.queue.pop()
        self._set_invader(i, step[1])

    def _do_target(self, step, block, i):
        self.queue.pop()
        self._place_floor(step[1], -2 - i if block == "FOUNDATION" else i)

    def _do_crystal(self, step, block, i):
        if block == "PASS":
            self.queue.pop()
            return
        self._crystallize(i)
        if step[1] > 1:
            step[1] -= 1
        else:
            self.queue.pop()

    def _do_wall(self, step, block, i):
        self.queue.pop()
        self.walls[i] = True

    def _do_bonus(self, step, block, i):
        self.queue.pop()
        self._bonus(i)

    def _do_topper(self, step, block, i):
        self.queue.pop()
        self._complete_spire(step[1], step[2], i)

    def _do_diminish(self, step, block, i):
        a = step[1]
        if block == "SHARD":
            self.shards[a] -= 1
        else:
            self._set_invader(i, -1)
        self.aside[a] += 1
        if step[2] > 1:
            step[2] -= 1
        else:
            self.queue.pop()

    # ---- the driver: automatic steps, forced choices, phase changes ---------------------------
    def _apply_action(self, action: int = -1) -> None:
        """Apply ``action`` (-1: none, as ``_settle``), then run automatic steps, forced
        choices and phase changes until a player has a real choice (kept as the legal
        actions) or the game is over."""
        if action >= 0:
            block, i = DECODE[action]
            q = self.queue
            if q:
                step = q[-1]
                _RESOLVE[step[0]](self, step, block, i)
            else:
                self._build_action(block, i)
        self._legal = None
        while True:
            q = self.queue
            if q:  # (the queue is empty once the game is over)
                top = q[-1]
                opts = _SETTLE_OPTIONS[top[0]](self, top)
                if opts:
                    if len(opts) > 1:
                        opts.sort()
                        self._legal = opts
                        return
                    block, i = DECODE[opts[0]]  # a forced choice
                    _RESOLVE[top[0]](self, top, block, i)
                elif opts is not None:
                    q.pop()  # nothing left to choose: the step ends (ASP-A16)
                continue
            phase = self.phase
            if phase == BUILD:
                break  # the build step's main choice
            if phase == SETUP:
                self._start_turn()
            elif phase == SUPPLY:
                self._supply_rest()
            elif phase == INVASION:
                if self.incoming:
                    choices = self._order_choices()
                    if len(choices) > 1:
                        q.append([K_ORDER, 0, 0, 0])
                        for k in range(len(choices)):
                            choices[k] += ELEM0
                        self._legal = choices  # = the step's options, sorted (a new list)
                        return
                    else:
                        self._enter(choices[0])
                else:
                    self._end_turn()
            else:
                break

    _settle = _apply_action  # with no action: settle the state reached (setup)

    # ---- turn structure --------------------------------------------------------------------
    def _start_turn(self) -> None:
        """Rulebook "Game end": no pillar cubes at the start of a turn loses; then "Supply step" 1."""
        if self.pillar_supply() <= 0:
            self._lose("no pillars")
            return
        self.phase = SUPPLY
        if True in self.adapted_done and self._adapted("pure"):
            self.queue.append([K_SUPPLY_DRAW, 0, 0, 0])  # ASP-A25: extra draw, no exchange
        self.queue.append([K_SUPPLY_DRAW, 1, 0, 0])

    def _supply_rest(self) -> None:
        """Rulebook "Supply step" 2-3: three invaders to the wheel, roll five dice
        (+1 with Turbulent completed; adaptation effects in a fixed order, ASP-A24)."""
        for _ in range(C.SUPPLY_INVADERS):
            if self.bag:
                self.shards[self.bag.pop()] += 1
        self._roll(C.DICE_ROLLED + (1 if True in self.adapted_done and self._adapted("turbulent") else 0))
        self.phase = BUILD

    def _begin_invasion(self) -> None:
        """Rulebook "Invasion step": advance the token, awaken, lose on Lose, draw invaders."""
        self.phase = INVASION
        self.track += 1
        for k, sp in enumerate(C.AWAKEN_SPACES):
            e = self.slot_element[k]
            if sp == self.track and not self.defeated[e]:
                self.awake[e] = True
                self._bv = next(_FV)
        if self.track >= C.LOSE_SPACE:
            self._lose("invader track")
            return
        bag = self.bag
        k = len(bag) - C.TRACK_COUNTS[self.track]
        if k < 0:
            k = 0
        drawn = bag[k:]  # drawn from the end (their order does not matter: sorted below)
        del bag[k:]
        awake, defeated, level = self.awake, self.defeated, self.fiend_level
        for e in range(4):  # level 4 fiends: one extra invader of their element (ASP-A6)
            if awake[e] and not defeated[e] and level[e] == 4 and e in self.bag:  # fiend_active(e, 4)
                self.bag.remove(e)
                drawn.append(e)
        ch = C.CHARACTERS[self.characters[self.turn_player]]
        if ch.passive in ("burn_first", "freeze_first") and ch.element in drawn:
            drawn.remove(ch.element)
            if ch.passive == "burn_first":
                self._to_bag(ch.element)
            else:
                self.shards[ch.element] += 1
        self.incoming = sorted(drawn)

    def _order_choices(self) -> list[int]:
        """Elements that may enter next: the active player orders them (rulebook);
        an awake level-1 fiend's invaders go first (ASP-A6)."""
        els = sorted(set(self.incoming))
        awake = self.awake
        if True not in awake:
            return els
        defeated, level = self.defeated, self.fiend_level
        first = []
        for e in els:
            if awake[e] and not defeated[e] and level[e] == 1:
                first.append(e)
        return first or els

    def _invader_targets(self, e: int) -> list[int]:
        """Rulebook "Draw new invaders": the spaces an invader of element ``e`` may enter
        (ties chosen by the active player, ASP-A15); [] = it attacks the core.

        Standard rooms of its element first, then multi rooms (awake level-2 fiend of
        ``e``: multi rooms first); among them the highest floor, then a space with a
        pillar (awake level-1 fiend: the lowest floor, then without a pillar; ASP-A6)."""
        lv = self.fiend_level[e] if self.awake[e] and not self.defeated[e] else 0  # fiend_active
        low = lv == 1
        pillar, invader = self.pillar, self.invader
        sc = self._scache
        groups = sc[4][e] if sc is not None and sc[0] == self._sv else None
        if groups is None:
            groups = self._target_groups(e)
        for tier in ((1, 0) if lv == 2 else (0, 1)):
            for _lv, spaces in (reversed(groups[tier]) if low else groups[tier]):
                free = []
                best = []  # low: without a pillar, else with one
                for s in spaces:
                    if invader[s] < 0:
                        free.append(s)
                        if (not pillar[s]) if low else pillar[s]:
                            best.append(s)
                if free:
                    return best or free
        return []

    def _enter(self, e: int) -> None:
        """Place the next invader of element ``e``; a tie between spaces is the active
        player's choice unless this and the identical invaders still to enter fill
        every tied space anyway (ASP-A15)."""
        self.incoming.remove(e)
        targets = self._invader_targets(e)
        if targets and len(targets) <= 1 + self.incoming.count(e):
            self._set_invader(targets[0], e)
        elif targets:
            self.queue.append([K_INV_SPACE, e, 0, 0])
            self._targets = (self._fv, e, targets)  # the step's options (_step_options)
        else:
            self._attack_core(e)

    def _attack_core(self, e: int) -> None:
        """The wall of its element, else an aethercore token; the invader is destroyed."""
        self._to_bag(e)
        if self.walls[e]:
            self.walls[e] = False
            if self.fiend_active(e, 3):
                self.cores -= 1
        else:
            self.cores -= 2 if self.fiend_active(e, 4) else 1
        if self.cores <= 0:
            self.cores = 0
            self._lose("aethercore")

    def _end_turn(self) -> None:
        """Rulebook "End of turn": discard dice; the next player (solo: the same) starts."""
        self.dice = [0] * 5
        self.marks = [0] * 5
        self.reroll_used = False
        self.anchored_used = False
        self.turns += 1
        self.turn_player = (self.turn_player + 1) % self.num_players
        self._start_turn()

    def _lose(self, reason: str) -> None:
        self.outcome = -1
        self.loss_reason = reason
        self.queue = []
        self.phase = OVER

    # ---- hidden information ----------------------------------------------------------------
    def _redraw_hidden(self, player: int, rng: np.random.Generator) -> None:
        """Shuffle the bag, the unseen part of each tile stack, and (random fiend
        sets) the levels of dormant, undefeated fiends (ASP-A12, ASP-A22)."""
        self.bag = [self.bag[j] for j in rng.permutation(len(self.bag))]
        for size in range(3):
            st = self.stacks[size]
            u = len(st) - self.stack_known[size]
            if u > 1:
                st[:u] = [st[j] for j in rng.permutation(u)]
        if self.game.config.fiend_level == 0:
            for e in range(4):
                if not self.awake[e] and not self.defeated[e]:
                    self.fiend_level[e] = int(rng.integers(1, 5))
        self._legal = None

    def fiend_known(self, e: int) -> bool:
        """Whether the fiend of element ``e`` shows its face (fixed level set, awake or defeated)."""
        return self.game.config.fiend_level != 0 or self.awake[e] or self.defeated[e]

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
        """Public view: track, core, walls, fiends, wheel, dice, reserve and the fortress."""
        cfg = self.game.config
        L = [f"Aetherspire  {self.num_players}p  difficulty {cfg.difficulty}  phase {PHASE_NAMES[self.phase]}"
             f"  player_{self.turn_player} ({self.character().name})"]
        L.append(f"track {self.track}/{C.LOSE_SPACE}  cores {self.cores}  walls "
                 + "".join(C.ELEMENTS[e][0].upper() if self.walls[e] else "." for e in range(4))
                 + f"  pillars left {self.pillar_supply()}  bag {len(self.bag)}")
        fi = []
        for e in range(4):
            st = "defeated" if self.defeated[e] else ("awake" if self.awake[e] else "dormant")
            lv = f"L{self.fiend_level[e]}" if self.fiend_known(e) else "L?"
            ad = f" [{C.ADAPTATIONS[self.adaptation[e]].name}]" if self.adaptation[e] >= 0 else ""
            fi.append(f"{C.ELEMENTS[e]} {lv} {st}{ad}")
        L.append("fiends: " + "; ".join(fi))
        L.append("shards " + " ".join(f"{C.ELEMENTS[e]}:{self.shards[e]}" for e in range(4))
                 + "  dice " + " ".join(f"{C.FACES[f]}:{self.dice[f]}" for f in range(5) if self.dice[f]))
        L.append("reserve: " + ", ".join(f"#{t} {C.TILES[t].name}{' (multi)' if self.side[t] else ''}"
                                         for t in self.reserve))

        def show(t: int, depth: int) -> None:
            sd = self.side[t]
            cells = []
            for s in TILE_SPACES[sd][t]:
                c = "P" if self.pillar[s] else "_"
                if self.invader[s] >= 0:
                    c += C.ELEMENTS[self.invader[s]][0]
                cells.append(c)
            top = (f" TOPPED {C.ELEMENTS[self.topped[t]]} (room {self.topper_room[t] % C.MAX_ROOMS})"
                   if self.topped[t] >= 0 else "")
            L.append("  " * depth + f"L{self.level[t]} #{t} {C.TILES[t].name}{' (multi)' if sd else ''}: "
                     + " ".join(cells) + top)
            for r in range(C.MAX_ROOMS):
                u = self.room_tile[t * C.MAX_ROOMS + r]
                if u >= 0:
                    show(u, depth + 1)

        for f in range(C.NUM_FOUNDATIONS):
            L.append(f"foundation {f}:" + ("" if self.found_tile[f] >= 0 else " empty"))
            if self.found_tile[f] >= 0:
                show(self.found_tile[f], 1)
        L.append("legend: walls E A F W = earth, air, fire, water wall standing, . = destroyed; "
                 "fiends: element L<level> (L? = a dormant fiend's level, hidden)")
        L.append("fortress: L<level> #<tile> <name>: one cell per space, k = 0, 1, ... (SPACE(t<tile>.<k>)): "
                 "P = pillar, _ = open, then an invader's element (e earth, a air, f fire, w water); "
                 "indented: floors built on its rooms")
        if self.phase == OVER:
            L.append("WON" if self.outcome > 0 else f"LOST ({self.loss_reason})")
        return "\n".join(L)


def _kind_table(names: dict) -> tuple:
    """A per-step-kind table of ``State`` methods from ``{kind: method name}``."""
    assert sorted(names) == list(range(len(STEP_NAMES)))
    return tuple(getattr(State, names[k]) for k in range(len(STEP_NAMES)))


_OPTIONS_BY_KIND = {
    K_SETUP_INV: "_opts_setup_invader", K_SUPPLY_DRAW: "_opts_draw", K_EXCHANGE: "_opts_exchange",
    K_DICE: "_opts_dice", K_TARGET: "_opts_target", K_PAY: "_opts_pay", K_CRAFT_DRAW: "_opts_draw",
    K_DO_DRAW: "_auto_draw", K_REROLL: "_opts_reroll", K_ICE: "_opts_ice", K_LAVA: "_opts_invaders",
    K_FIRE_FROM: "_opts_fire_from", K_FIRE_TO: "_opts_fire_to", K_FREE_PILLAR: "_opts_free_pillar",
    K_BONUS: "_opts_bonus", K_DIMINISH_AUTO: "_auto_diminish", K_DIMINISH: "_opts_diminish",
    K_CRYSTAL: "_opts_crystal", K_BONUS_DRAW: "_opts_draw", K_DISCARD: "_opts_die", K_DEMOLISH: "_opts_demolish",
    K_DESTROY_INV: "_opts_invaders", K_WALL: "_opts_wall", K_REROLL_ONE: "_opts_die", K_ORDER: "_opts_order",
    K_INV_SPACE: "_opts_invader_space", K_TOPPER: "_opts_topper",
}
_SETTLE_OPTIONS = _kind_table({**_OPTIONS_BY_KIND, K_DISCARD: "_settle_discard"})
"""``_SETTLE_OPTIONS[kind](state, step)``: the step's options for ``State._settle``; an
automatic step (draw, diminish from the bag) runs and returns None; a discard of every unused die is done."""
_STEP_OPTIONS = _kind_table({**_OPTIONS_BY_KIND, K_DO_DRAW: "_opts_none", K_DIMINISH_AUTO: "_opts_none"})
"""``_STEP_OPTIONS[kind](state, step)``: the pending step's options (``State._step_options``)."""
_RESOLVE = _kind_table({
    K_SETUP_INV: "_do_setup_invader", K_SUPPLY_DRAW: "_do_draw", K_EXCHANGE: "_do_exchange", K_DICE: "_do_dice",
    K_TARGET: "_do_target", K_PAY: "_do_pay", K_CRAFT_DRAW: "_do_draw", K_DO_DRAW: "_do_none",
    K_REROLL: "_do_reroll", K_ICE: "_do_ice", K_LAVA: "_do_destroy", K_FIRE_FROM: "_do_fire_from",
    K_FIRE_TO: "_do_fire_to", K_FREE_PILLAR: "_do_free_pillar", K_BONUS: "_do_bonus",
    K_DIMINISH_AUTO: "_do_none", K_DIMINISH: "_do_diminish", K_CRYSTAL: "_do_crystal",
    K_BONUS_DRAW: "_do_draw", K_DISCARD: "_do_discard", K_DEMOLISH: "_do_demolish",
    K_DESTROY_INV: "_do_destroy", K_WALL: "_do_wall", K_REROLL_ONE: "_do_reroll_one", K_ORDER: "_do_order",
    K_INV_SPACE: "_do_invader_space", K_TOPPER: "_do_topper",
})
"""``_RESOLVE[kind](state, step, block, i)``: apply option (block, i) of the pending step."""
