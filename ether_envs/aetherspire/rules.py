"""Aetherspire rules engine (numpy only): ``Config``, ``Game`` and ``State``.

Rulebook sections are quoted by their headings (``rulebook "Build step"``);
assumptions by id (``ASP-A<n>``, listed in ``RULES.md``). The spells, character
triggers, floors and spires are the mixin ``effects.EffectRules``; the action codec,
phases and step kinds are in ``codec.py``; the caches that keep the engine fast in
``fast.py``.

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
(``side[t]``: 0 standard, 1 multi), read from the slot tables of ``components``
(``NEEDS``, ``ROOM_OF``, ``ROOMS``).

Turn structure
--------------
Supply (draw a tile, optional exchange, 3 invaders to the wheel as shards, roll
5 dice) -> build (any number of basic and special actions, ``END_BUILD``) ->
invasion (advance the track, awaken fiends, place invaders) -> next player.
Multi-part actions push steps on a small stack (``State.queue``); a step with
exactly one option resolves itself, a step with none is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import Game as _Game, GameSpec, State as _State, TERMINAL, build_config, check_int
from . import components as C
from .codec import (BONUS0, BUILD, BUILD0, CODEC, DECODE, DIE0, DRAW0, DRAW_MULTI0, ELEMENT0, END_BUILD,
                    EXCHANGE0, FOUNDATION0, FREE_PILLAR, INVASION, K_BONUS, K_BONUS_DRAW, K_CRAFT_DRAW,
                    K_CRYSTAL, K_DEMOLISH, K_DESTROY_INV, K_DICE, K_DIMINISH, K_DIMINISH_AUTO, K_DISCARD,
                    K_DO_DRAW, K_EXCHANGE, K_FIRE_FROM, K_FIRE_TO, K_FREE_PILLAR, K_ICE, K_INV_SPACE, K_LAVA,
                    K_ORDER, K_PAY, K_REROLL, K_REROLL_ONE, K_SETUP_INV, K_SUPPLY_DRAW, K_TARGET, K_TOPPER,
                    K_WALL, OVER, PASS, PHASE_NAMES, REROLL0, ROLL, ROOM0, SETUP, SHARD0, SPACE0, SPELL0,
                    SPIRE0, STEP_NAMES, SUPPLY, TRIGGER)
from .components import (FIRESTORM, FLOOR_CRAFTING, ICE_BEAM, LAVA_BOMB, MAX_ROOMS, MAX_SPACES,
                         NEEDS, NUM_ROOM_SLOTS, NUM_SPACE_SLOTS, NUM_TILES, ROOM_OF, ROOMS, SPACE_ELEMENTS, SPELLS,
                         TILE_ELEMENTS, TILE_FOOTPRINTS, TILE_ROOMS, TILE_SIZE, TILE_SPACES)
from .effects import EffectRules
from .fast import NO_STAR_BLOCKED, FortressStructure, FortressView, build_options, new_stamp, star_blocked

REWARDS = ("win", "score")
"""The values of ``Config.reward`` (ASP-A20)."""

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

    spec = GameSpec(name="aetherspire", version=1, min_players=1, max_players=4,
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


def dice_can_meet(needs: tuple[int, ...], dice: list[int]) -> bool:
    """Rulebook "Place a pillar": whether the unused ``dice`` (counts per face) can meet
    the die requirements ``needs`` (face masks, one die each): some die fitting the
    first requirement, with the other dice meeting the rest. Leaves ``dice`` as it was."""
    if not needs:
        return True
    for f in range(5):
        if needs[0] >> f & 1 and dice[f] > 0:
            dice[f] -= 1
            ok = dice_can_meet(needs[1:], dice)
            dice[f] += 1
            if ok:
                return True
    return False


_TWO_SHARD_SPELLS = tuple((spell.spell_id, spell.cost) for spell in SPELLS if len(spell.cost) == 2)
"""(spell, its two shard elements) of the spells with a fixed cost, in spell order."""


class State(EffectRules, _State):
    """Aetherspire state. All lists hold ints; the static tile data is in ``components``.

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
        pillars_used: pillar cubes taken from the supply (``pillar_supply()`` left).
        _fortress_stamp, _structure_stamp, _tile_stamps, _board_stamp: stamps
            (``fast.new_stamp``) of the fortress, its structure, each floor tile (0:
            never in the fortress) and the board the encoder shows; they key the
            caches ``_structure_cache`` (``fast.FortressStructure``) and
            ``_fortress_cache`` (``fast.FortressView``) and the encoder's blocks, and
            never affect play.
        _star_blocked_cache: ``_star_blocked()`` kept per board stamp (``fast.StarBlocked``).
        _legal: the sorted legal actions of the pending decision, or None until asked.
        After editing fields directly, call :meth:`invalidate_caches`, which drops these
        caches and renews the stamps.
    """

    _star_blocked_cache = NO_STAR_BLOCKED  # a fast.StarBlocked: fast.star_blocked

    _clone_shared = ()
    """Fields whose mutable objects ``clone()`` shares with the original: none (the game
    and the generator are core's; ``ether_envs.testing.check_clone_independence``)."""
    _clone_rebuilt = ("_structure_cache",)
    """Caches the clone checks leave out: the ``fast.FortressStructure`` of the current
    structure stamp, shared by a state and its clones as it is. It is a function of the
    structure alone (a fresh stamp replaces it, never edits it); the one part filled in
    later, ``invader_targets``, is the same whichever state fills it
    (``tests/aetherspire/test_fast_path.py`` checks it against a fresh survey)."""

    def __init__(self, game: Game, seed: int | None):
        self.game = game
        cfg = game.config
        n = game.num_players
        self._chance: list[float] = []  # uniform numbers drawn ahead from rng (EffectRules._uniform)
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
        self.side = [0] * NUM_TILES
        self.found_tile = [-1] * C.NUM_FOUNDATIONS
        self.room_tile = [-1] * NUM_ROOM_SLOTS
        self.base_of = [-1] * NUM_TILES
        self.level = [0] * NUM_TILES
        self.pillar = [0] * NUM_SPACE_SLOTS
        self.invader = [-1] * NUM_SPACE_SLOTS
        self.topped = [-1] * NUM_TILES
        self.topper_room = [-1] * NUM_TILES
        self.spire_of = [-1] * NUM_TILES
        self.pillars_used = 0
        self._fortress_stamp = new_stamp()
        self._tile_stamps = [0] * NUM_TILES
        self._board_stamp = new_stamp()
        self._structure_stamp = new_stamp()
        self._fortress_cache: FortressView | None = None
        self._structure_cache: FortressStructure | None = None
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
    _drawn_ahead = ("_chance",)
    """``_chance`` holds uniform numbers drawn ahead (``EffectRules._uniform``): a new
    generator drops them (RULES.md "Chance")."""

    def clone(self) -> "State":
        """An independent copy: every field of this state, each list copied (a list of
        lists two levels deep), so a new list field is copied by default; the fortress
        view copied (``fast.FortressView.copy``); the structure cache shared
        (``_clone_rebuilt``); the generator's state copied lazily, by both states
        (``core.State._share_rng_state``). The original is left as it was
        (``tests/aetherspire/test_clone.py``)."""
        d = self.__dict__.copy()
        for name, value in d.items():
            if type(value) is list:
                d[name] = [inner[:] for inner in value] if value and type(value[0]) is list else value[:]
        if self._fortress_cache is not None:
            d["_fortress_cache"] = self._fortress_cache.copy()
        s = State.__new__(State)
        s.__dict__ = d
        self._share_rng_state(s)
        return s

    def __setstate__(self, d: dict) -> None:
        """Unpickled/deep-copied states take fresh stamps (stamps are per process) and empty caches."""
        self.__dict__.update(d)
        self._fortress_stamp = new_stamp()
        self._tile_stamps = [new_stamp() if v else 0 for v in self._tile_stamps]
        self._board_stamp = new_stamp()
        self._structure_stamp = new_stamp()
        self._fortress_cache = None
        self._structure_cache = None

    def invalidate_caches(self) -> None:
        """Drop every cache derived from the state's fields; call it after editing fields
        directly (tests, scenario builders). It drops the legal actions (``_legal`` and the
        base class's memo), the fortress structure and view (``_structure_cache``,
        ``_fortress_cache``) and the star-blocking fiends (``_star_blocked_cache``), and
        gives every stamp a fresh value (the fortress's, the structure's, the board's and
        each floor tile's, in or out of the fortress), so that the encoder, shared by every
        state of the game, rewrites the whole board for this state."""
        super().invalidate_caches()
        self._legal = None
        self._fortress_stamp = new_stamp()
        self._tile_stamps = [new_stamp() for _ in self._tile_stamps]
        self._board_stamp = new_stamp()
        self._structure_stamp = new_stamp()
        self._fortress_cache = None
        self._structure_cache = None
        self._star_blocked_cache = NO_STAR_BLOCKED

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

    # ---- the fortress: open rooms and spaces --------------------------------------------
    def _survey_structure(self) -> FortressStructure:
        """The open rooms and spire top candidates, surveyed anew (``_structure()`` keeps
        them per structure stamp).

        Open: a room of a floor in the fortress with no floor and no spire topper on it
        (ASP-A13, ASP-A14); the other rooms of a topped floor stay open. A spire top
        candidate: a floor of level 4 or more (a spire has 4 or more floors,
        ``spire_floors``), in no spire (so untopped), with nothing on its rooms and a
        small room footprint."""
        rooms, spaces, tops = [], [], []
        room_tile, level, side = self.room_tile, self.level, self.side
        for t in range(NUM_TILES):
            if not level[t]:
                continue  # not in the fortress
            covered = False
            for room in TILE_ROOMS[side[t]][t]:
                if room_tile[room.slot] >= 0:
                    covered = True
                elif room.slot != self.topper_room[t]:  # "You cannot place a pillar in a room that has a spire topper"
                    rooms.append(room)
                    spaces += room.spaces
            if level[t] >= C.SPIRE_FLOORS and not covered and self.spire_of[t] < 0 and TILE_FOOTPRINTS[side[t]][t]:
                tops.append(t)
        return FortressStructure(self._structure_stamp, rooms, spaces, tops, [None] * 4)

    def _structure(self) -> FortressStructure:
        """``_survey_structure()``, kept per structure stamp (shared with clones)."""
        cache = self._structure_cache
        if cache is None or cache.stamp != self._structure_stamp:
            cache = self._structure_cache = self._survey_structure()
        return cache

    def _survey_fortress(self) -> FortressView:
        """What the fortress offers now, surveyed anew (``_fortress()`` keeps it per
        fortress stamp; ``fast.update_space`` brings it up to date after a change of one
        space): the open spaces; those holding an invader; those free (neither pillar
        nor invader); per size the buildable rooms (rulebook "Build a floor": open,
        complete and without invaders); the spires that can be completed."""
        structure = self._structure()
        pillar, invader = self.pillar, self.invader
        invaded, free, buildable = [], [], [[], [], []]
        for room in structure.open_rooms:
            complete = True
            for s in room.spaces:
                if invader[s] >= 0:
                    invaded.append(s)
                    complete = False
                elif not pillar[s]:
                    free.append(s)
                    complete = False
            if complete:
                buildable[room.size].append(room.slot)
        spires = self._spire_options(structure.spire_tops) if structure.spire_tops else []
        return FortressView(self._fortress_stamp, structure.open_spaces, invaded, free, buildable, spires)

    def _fortress(self) -> FortressView:
        """``_survey_fortress()``, kept per fortress stamp (its lists are shared: never
        mutate them, nor keep them across a change of the fortress)."""
        view = self._fortress_cache
        if view is None or view.stamp != self._fortress_stamp:
            view = self._fortress_cache = self._survey_fortress()
        return view

    def open_spaces(self) -> list[int]:
        """Spaces of open rooms (may take a new pillar or invader); a shared list."""
        return self._fortress().open_spaces

    def invader_spaces(self) -> list[int]:
        """Spaces holding an invader; a shared list."""
        return self._fortress().invader_spaces

    def buildable_rooms(self) -> list[list[int]]:
        """Per size: the room slots a floor of that size may be built on; shared lists."""
        return self._fortress().buildable_rooms

    def pillar_spaces(self, element: int = -1) -> list[int]:
        """Available for a new pillar (rulebook "Place a pillar"): open, no pillar, no
        invader, while pillar cubes are left; ``element`` >= 0 keeps the rooms whose
        element mask includes it (ASP-A23)."""
        if self.pillars_used >= C.NUM_PILLARS:
            return []
        free = self._fortress().free_spaces
        if element < 0:
            return free
        side = self.side
        return [s for s in free if SPACE_ELEMENTS[side[s // MAX_SPACES]][s] >> element & 1]

    def needs(self, s: int, blocked: int | None = None) -> tuple[int, ...]:
        """Die requirements of space ``s``; an awake level-2 fiend of element X
        makes star dice no longer fit X on the standard side's X rooms (ASP-A6).
        ``blocked``: the element mask of such fiends (``_star_blocked()`` when None)."""
        side = self.side[s // MAX_SPACES]
        need = NEEDS[side][s]
        if side == 0 and True in self.awake:
            if blocked is None:
                blocked = star_blocked(self)  # = self._star_blocked(), kept per board stamp (fast.py)
            mask = ROOMS[0][ROOM_OF[0][s]].elements & blocked
            if mask:
                need = tuple(m & ~(1 << C.STAR) if m & mask else m for m in need)
        return need

    def _star_blocked(self) -> int:
        """Element mask of the awake, undefeated level-2 fiends (ASP-A6)."""
        mask = 0
        for e in range(4):
            if self.awake[e] and self.fiend_active(e, 2):
                mask |= 1 << e
        return mask

    # ---- legal actions ---------------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        """The cached sorted legal actions (shared: ``State.legal_actions`` copies them)."""
        legal = self._legal
        if legal is None:
            if self.queue:
                legal = self._legal = sorted(self._step_options(self.queue[-1]))
            else:  # the main choice: self._build_options(), faster (fast.py), in ascending order
                legal = self._legal = build_options(self)
        return legal

    def _is_legal(self, action: int) -> bool:
        return action in self._legal_actions()

    def _build_options(self) -> list[int]:
        """The build step's main choice (rulebook "Build step"): end it, place a pillar,
        reroll any (once per turn), build a floor, cast a spell, complete a spire, use
        the character's trigger (ASP-A5), Anchored's free pillar (ASP-A7). Built in
        ascending action order (blocks in codec order, each ascending; the reserve is
        kept sorted), so it needs no sort (the conformance suite checks it)."""
        out = [END_BUILD]
        if sum(self.dice):
            out += self._pillar_options()  # "Place a pillar"
            if not self.reroll_used:  # "Reroll any number of dice (once per turn)"
                out += [REROLL0 + f for f in range(5) if self.dice[f]]
        out += [BUILD0 + t for t in self.reserve if self._floor_targets(t)]  # "Build a floor"
        out += self._spell_options()  # "Cast a spell"
        out += [SPIRE0 + 4 * top + e for top, e in self.spire_options()]  # "Complete a spire"
        if self._trigger_usable():  # "Special actions"
            out.append(TRIGGER)
        if self._adapted("anchored") and not self.anchored_used and self.pillar_spaces():
            out.append(FREE_PILLAR)
        return out

    def _pillar_options(self) -> list[int]:
        """Rulebook "Place a pillar": the SPACE actions of the available spaces whose die
        requirements the unused dice meet (``fast.pillar_options`` gets the same list)."""
        return [SPACE0 + s for s in self.pillar_spaces() if dice_can_meet(self.needs(s), self.dice)]

    def _floor_targets(self, t: int, rooms: list[list[int]] | None = None) -> list[int]:
        """FOUNDATION/ROOM action ids where reserve tile ``t`` may be built: an empty
        foundation (large), or a buildable room of its size (``rooms``: ``buildable_rooms()``)."""
        size = TILE_SIZE[t]
        out = []
        if size == C.LARGE:
            for f in range(C.NUM_FOUNDATIONS):
                if self.found_tile[f] < 0:
                    out.append(FOUNDATION0 + f)
        for r in (self.buildable_rooms() if rooms is None else rooms)[size]:
            out.append(ROOM0 + r)
        return out

    def _spell_options(self) -> list[int]:
        """Rulebook "Cast a spell": the spells whose shards are on the wheel and that have
        a target (``_spell_has_target``); Floor Crafting spends shards of any elements."""
        shards = self.shards
        out = []
        for k, (first, second) in _TWO_SHARD_SPELLS:
            if shards[first] and shards[second] and self._spell_has_target(k):
                out.append(SPELL0 + k)
        if sum(shards) >= self._spell_amount(FLOOR_CRAFTING) and any(self.stacks):
            out.append(SPELL0 + FLOOR_CRAFTING)
        return out

    def _spell_has_target(self, k: int) -> bool:
        """ASP-A16: Ice Beam needs a room with enough invaders, Lava Bomb an invader,
        Firestorm an invader that can move or a space for its pillar; Mudslide nothing."""
        if k == ICE_BEAM:
            return bool(self._ice_rooms())
        if k == LAVA_BOMB:
            return bool(self.invader_spaces())
        if k == FIRESTORM:
            return bool(self._firestorm_moves() or self.pillar_spaces())
        return True

    def _ice_rooms(self) -> list[int]:
        """Room slots holding at least as many invaders as Ice Beam crystallizes (ASP-A16)."""
        invaded, least = self.invader_spaces(), SPELLS[ICE_BEAM].amount
        if len(invaded) < least:
            return []
        side = self.side
        rooms = [ROOM_OF[side[s // MAX_SPACES]][s] for s in invaded]  # ascending
        return sorted({r for r in rooms if rooms.count(r) >= least})

    def _firestorm_moves(self) -> list[int]:
        """Invader spaces that can move to another open, invader-free space."""
        view = self._fortress()
        invaded = view.invader_spaces
        return invaded if invaded and len(view.open_spaces) > len(invaded) else []  # an open space without one

    def _demolish_spaces(self) -> list[int]:
        """Pillars that may be destroyed: not under a floor (glossary "Destroy (pillar)")."""
        pillar = self.pillar
        return [s for s in self.open_spaces() if pillar[s]]

    def _restorable_walls(self) -> list[int]:
        """Destroyed walls that may be restored (not while a level-3 fiend of that element is awake)."""
        return [e for e in range(4) if not self.walls[e] and not self.fiend_active(e, 3)]

    # ---- spires ---------------------------------------------------------------------------
    def spire_options(self) -> list[tuple[int, int]]:
        """(top tile, element) pairs whose spire may be completed now (rulebook
        "Complete a spire" and its clarifications; adaptations: difficulty 3);
        a shared list (``_fortress()``)."""
        return self._fortress().spire_options

    def _spire_options(self, tops: list[int]) -> list[tuple[int, int]]:
        """``spire_options()`` anew (``tops``: the spire top candidates, ``_structure()``)."""
        out = []
        pillar, invader, side, defeated = self.pillar, self.invader, self.side, self.defeated
        for t in tops:
            # the top floor: nothing on it; a small-room footprint (or a small special tile)
            for s in TILE_SPACES[side[t]][t]:
                if pillar[s] or invader[s] >= 0:
                    break
            else:
                for e in range(4):
                    if not defeated[e] and TILE_ELEMENTS[t][side[t]] >> e & 1 and self.spire_floors(t, e) is not None:
                        out.append((t, e))
        return out

    def spire_floors(self, top: int, e: int) -> list[int] | None:
        """The floors (top first) of the spire of element ``e`` topped on ``top``: the
        shortest stack of free floors of the element, ``SPIRE_FLOORS`` (4; Towering:
        ``TOWERING_FLOORS``, 5) or more,
        that meets the element's adaptation (ASP-A26); None if there is none."""
        a = self.adaptation[e]
        key = C.ADAPTATIONS[a].key if a >= 0 else ""
        need = C.TOWERING_FLOORS if key == "towering" else C.SPIRE_FLOORS
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
                       and not TILE_ELEMENTS[u][0] >> e & 1 for u in range(NUM_TILES))
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

    def _opts_setup_invader(self, step):
        """Setup 12: a space of the start tile for each of the two invaders (ASP-A11)."""
        t = self.found_tile[0] if self.found_tile[0] >= 0 else next(u for u in range(NUM_TILES) if self.level[u])
        return [SPACE0 + s for s in TILE_SPACES[self.side[t]][t] if self.invader[s] < 0]

    def _opts_draw(self, step):
        """A size with tiles left; multi side up for a bonus draw (ASP-A9), the
        multi_supply passive's supply draw, or Floor Crafting with a 3rd shard to pay."""
        sizes = [size for size in range(3) if self.stacks[size]]
        out = [DRAW0 + size for size in sizes]
        kind = step[0]
        if (kind == K_BONUS_DRAW or (kind == K_SUPPLY_DRAW and self.character().passive == "multi_supply")
                or (kind == K_CRAFT_DRAW and sum(self.shards) >= 1)):
            out += [DRAW_MULTI0 + size for size in sizes]
        return out

    def _opts_exchange(self, step):
        out = [EXCHANGE0 + t for t in self.reserve]
        if step[1]:
            out.append(PASS)
        return out

    def _opts_dice(self, step):
        """A die for requirement ``b`` of the space, leaving dice that meet the rest."""
        _, space, b, _c = step
        needs = self.needs(space)
        dice = self.dice
        if b + 1 == len(needs):  # the last die: any unused die that fits
            return [DIE0 + f for f in range(5) if needs[b] >> f & 1 and dice[f]]
        out = []
        for f in range(5):
            if needs[b] >> f & 1 and dice[f]:
                dice[f] -= 1
                if dice_can_meet(needs[b + 1:], dice):
                    out.append(DIE0 + f)
                dice[f] += 1
        return out

    def _opts_target(self, step):
        return self._floor_targets(step[1])

    def _opts_pay(self, step):
        return [SHARD0 + e for e in range(4) if self.shards[e]]

    def _opts_reroll(self, step):
        """Mark one more die of a face with unmarked dice, or roll the marked ones."""
        dice, marks = self.dice, self.marks
        return [REROLL0 + f for f in range(5) if dice[f] > marks[f]] + [ROLL]

    def _opts_ice(self, step):
        _, room, taken, _most = step
        invader_spaces, side = self.invader_spaces(), self.side
        if room < 0:  # the first invader: in a room with enough of them
            rooms = self._ice_rooms()
            return [SPACE0 + s for s in invader_spaces if ROOM_OF[side[s // MAX_SPACES]][s] in rooms]
        out = [SPACE0 + s for s in invader_spaces if ROOM_OF[side[s // MAX_SPACES]][s] == room]
        if out and taken >= SPELLS[ICE_BEAM].amount:  # the upgrade's extra invader is optional
            out.append(PASS)
        return out

    def _opts_invaders(self, step):  # lava bomb, destroy invader
        return [SPACE0 + s for s in self.invader_spaces()]

    def _opts_fire_from(self, step):
        return [SPACE0 + s for s in self._firestorm_moves()]

    def _opts_fire_to(self, step):
        """An open space without an invader, other than the one it leaves."""
        invader, origin = self.invader, step[1]
        return [SPACE0 + s for s in self.open_spaces() if invader[s] < 0 and s != origin]

    def _opts_free_pillar(self, step):
        return [SPACE0 + s for s in self.pillar_spaces(step[2])]

    def _opts_bonus(self, step):
        return [BONUS0 + b for b in range(C.NUM_BONUSES) if not self.bonus_used[b]]

    def _opts_diminish(self, step):
        """An invader of the element from the fortress, or a shard of it from the wheel."""
        e = step[1]
        invader = self.invader
        out = [SPACE0 + s for s in self.invader_spaces() if invader[s] == e]
        if self.shards[e]:
            out.append(SHARD0 + e)
        return out

    def _opts_crystal(self, step):
        out = self._opts_invaders(step)
        if out:
            out.append(PASS)
        return out

    def _opts_die(self, step):  # discard a die, reroll one
        return [DIE0 + f for f in range(5) if self.dice[f]]

    def _opts_demolish(self, step):
        return [SPACE0 + s for s in self._demolish_spaces()]

    def _opts_wall(self, step):
        return [ELEMENT0 + e for e in self._restorable_walls()]

    def _opts_order(self, step):
        return [ELEMENT0 + e for e in self._order_choices()]

    def _opts_invader_space(self, step):
        return [SPACE0 + s for s in self._invader_targets(step[1])]

    def _opts_topper(self, step):
        """The small room footprints of the top floor (rulebook "Complete a spire"; ASP-A13)."""
        t = step[1]
        return [ROOM0 + r for r in TILE_FOOTPRINTS[self.side[t]][t]]

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
            self.queue.append([K_DICE, i, 0, 0])  # the dice to discard, one by one
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
            marks = self.marks
            self.dice = [d - m for d, m in zip(self.dice, marks)]
            self.marks = [0] * 5
            self._roll(sum(marks))

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
        if b + 1 < len(NEEDS[self.side[a // MAX_SPACES]][a]):  # (fiends change which dice fit, not how many)
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
        self.pillars_used -= 1  # the pillar goes back to the supply
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
                        q.append([K_ORDER, 0, 0, 0])  # the active player chooses which enters next
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
        if self._adapted("pure"):
            self.queue.append([K_SUPPLY_DRAW, 0, 0, 0])  # ASP-A25: extra draw, no exchange
        self.queue.append([K_SUPPLY_DRAW, 1, 0, 0])

    def _supply_rest(self) -> None:
        """Rulebook "Supply step" 2-3: three invaders to the wheel (``SUPPLY_INVADERS``),
        roll five dice (``DICE_ROLLED``; +1 with Turbulent completed; adaptation effects
        in a fixed order, ASP-A24)."""
        for _ in range(C.SUPPLY_INVADERS):
            if self.bag:
                self.shards[self.bag.pop()] += 1
        self._roll(C.DICE_ROLLED + (1 if self._adapted("turbulent") else 0))
        self.phase = BUILD

    def _begin_invasion(self) -> None:
        """Rulebook "Invasion step": advance the token, awaken, lose on Lose, draw invaders."""
        self.phase = INVASION
        self.track += 1
        for k, sp in enumerate(C.AWAKEN_SPACES):
            e = self.slot_element[k]
            if sp == self.track and not self.defeated[e]:
                self.awake[e] = True
                self._board_changed()
        if self.track >= C.LOSE_SPACE:
            self._lose("invader track")
            return
        bag = self.bag
        k = len(bag) - C.TRACK_COUNTS[self.track]
        if k < 0:
            k = 0
        drawn = bag[k:]  # drawn from the end (their order does not matter: sorted below)
        del bag[k:]
        for e in range(4):  # level 4 fiends: one extra invader of their element (ASP-A6)
            if self.awake[e] and self.fiend_active(e, 4) and e in bag:
                bag.remove(e)
                drawn.append(e)
        ch = self.character()
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
        elements = sorted(set(self.incoming))
        first = [e for e in elements if self.awake[e] and self.fiend_active(e, 1)]
        return first or elements

    def _invader_targets(self, e: int) -> list[int]:
        """Rulebook "Draw new invaders": the spaces an invader of element ``e`` may enter
        (ties chosen by the active player, ASP-A15); [] = it attacks the core.

        Standard rooms of its element first, then multi rooms (awake level-2 fiend of
        ``e``: multi rooms first); among them the highest floor, then a space with a
        pillar (awake level-1 fiend: the lowest floor, then without a pillar; ASP-A6)."""
        awake_level = self.fiend_level[e] if self.awake[e] and not self.defeated[e] else 0  # (fiend_active)
        low = awake_level == 1
        multi_first = awake_level == 2
        pillar, invader = self.pillar, self.invader
        groups = self._target_groups(e)
        for tier in ((1, 0) if multi_first else (0, 1)):
            for _level, spaces in (reversed(groups[tier]) if low else groups[tier]):
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

    def _target_groups(self, e: int) -> tuple:
        """The open spaces an invader of element ``e`` may enter, per tier (0: the
        standard rooms of its element, 1: multi rooms) as ``[(level, spaces)]``, highest
        floor first, spaces in ascending order; a function of the structure alone, kept
        in ``_structure()`` (filled when first needed)."""
        structure = self._structure()
        groups = structure.invader_targets[e]
        if groups is not None:
            return groups
        bit = 1 << e
        by_level: tuple[dict, dict] = ({}, {})
        for room in structure.open_rooms:  # rooms in ascending order: so are the spaces
            if room.elements & bit:
                d, lv = by_level[room.elements == C.MULTI], self.level[room.slot // MAX_ROOMS]
                if lv in d:
                    d[lv] += room.spaces
                else:
                    d[lv] = list(room.spaces)
        std, mul = by_level
        groups = structure.invader_targets[e] = (sorted(std.items(), reverse=True), sorted(mul.items(), reverse=True))
        return groups

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
        sets) the levels of dormant, undefeated fiends (ASP-A12, ASP-A22). (The chance drawn
        ahead was dropped when ``resample_hidden`` gave the state its new generator: ``rng``.)"""
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
