"""Aetherspire component data: elements, die faces, the 38 floor tiles (both
sides), 15 characters, 16 aether fiends, 6 spire adaptations, the invader track
and the 4 spire completion bonus tokens.

The printed cards, tiles and track are not public. Every item the rulebook does
not print is an assumption with an id (``ASP-A<n>``, listed in ``RULES.md``);
rulebook facts cite the rulebook section. The counts the rulebook fixes are
checked at the bottom of this module (and by ``tests/aetherspire/test_components.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

# ---- Elements (rulebook "Overview": earth, air, fire, water) ---------------------
ELEMENTS: tuple[str, ...] = ("earth", "air", "fire", "water")
EARTH, AIR, FIRE, WATER = range(4)
MULTI = 0b1111  # element mask of a multi floor / room: counts as every element (rulebook "Complete a spire")

# ---- Dice (rulebook "Components": 8 eight-sided dice) ----------------------------
NUM_DICE = 8
STAR = 4
FACES: tuple[str, ...] = ("earth", "air", "fire", "water", "star")
# ASP-A1: each d8 has one face per element and four star faces (research notes §5.1)
DIE_FACES: tuple[int, ...] = (EARTH, AIR, FIRE, WATER, STAR, STAR, STAR, STAR)
DICE_ROLLED = 5  # rulebook "Supply step" 3: roll 5 dice

# ---- Pieces (rulebook "Components") ----------------------------------------------
NUM_PILLARS = 50
INVADERS_PER_ELEMENT = 10
NUM_INVADERS = 4 * INVADERS_PER_ELEMENT  # 40 in the bag (+1 black track token)
MAX_CORES = 5  # glossary "Aethercore": up to a maximum of 5
START_CORES = 2  # setup step 3
SUPPLY_INVADERS = 3  # "Supply step" 2
NUM_FOUNDATIONS = 3

# ---- Floor tiles (rulebook "Components": 10 large, 12 medium, 16 small) ------------
SMALL, MEDIUM, LARGE = 0, 1, 2
SIZES: tuple[str, ...] = ("small", "medium", "large")
MAX_ROOMS = 3  # rooms per tile side (ASP-A2)
MAX_SPACES = 8  # pillar spaces per tile side (ASP-A2)


@dataclass(frozen=True, slots=True)
class Room:
    """One outlined room of a tile side.

    Attributes:
        size: ``SMALL``/``MEDIUM``/``LARGE``: the floor size it can hold.
        elements: element bitmask (``1 << e``; ``MULTI`` for a multi room).
        needs: one entry per pillar space: a tuple of die requirements, each a
            face bitmask (bit ``f`` set = a die showing face ``f`` fits). A space
            needing two dice has two entries (rulebook "Place a pillar", example 2).
            A room with no spaces is the footprint of a tile with no room
            outlines (rulebook "Build a floor" note; ASP-A3).
    """

    size: int
    elements: int
    needs: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a floor tile: its element mask, rooms and placement effect key."""

    elements: int
    rooms: tuple[Room, ...]
    effect: str = ""


@dataclass(frozen=True, slots=True)
class Tile:
    """A floor tile. ``sides[0]`` is the standard side, ``sides[1]`` the multi side.

    Attributes:
        tile_id: 0..37 (small 0..15, medium 16..27, large 28..37).
        size: ``SMALL``/``MEDIUM``/``LARGE``.
        name: a readable label.
        source: assumption id of its layout.
    """

    tile_id: int
    size: int
    name: str
    sides: tuple[Side, Side]
    source: str


def _need(code: str, e: int) -> tuple[int, ...]:
    """Die requirements of one space: ``E`` element-or-star, ``*`` star only,
    ``A`` any die, ``EE`` two element-or-star dice (rulebook "Place a pillar")."""
    el = (1 << e) | (1 << STAR)
    return {"E": (el,), "*": (1 << STAR,), "A": (0b11111,), "EE": (el, el)}[code]


def _room(size: int, e: int, codes: str, multi: bool = False) -> Room:
    mask = MULTI if multi else 1 << e
    return Room(size, mask, tuple(_need(c, e) for c in codes.split()))


def _multi(rooms_codes) -> Side:
    """ASP-A4: the multi side keeps the layout; every element need becomes "any
    die" (a two-die space two "any" dice) and one space per room stays star-only."""
    rooms = []
    for size, codes in rooms_codes:
        codes = ["A" if c in ("E", "*") else "AA" for c in codes.split()]
        codes[-1] = "*" if codes[-1] == "A" else codes[-1]
        if "*" not in codes:
            codes[0] = "*"
        needs = tuple((0b11111, 0b11111) if c == "AA" else _need(c, 0) for c in codes)
        rooms.append(Room(size, MULTI, needs))
    return Side(MULTI, tuple(rooms))


# ASP-A3: one special-effect small tile per element; no room outlines on the
# standard side (only a small tile may go on it). "Magma Eruption" is named by the
# rulebook ("Build a floor"); the other three names and effects are assumptions.
EFFECTS: dict[str, str] = {
    "bedrock": "place 2 pillars on available spaces, ignoring their die requirements",
    "tailwind": "roll 2 additional dice",
    "magma_eruption": "destroy all invaders in the fortress (rulebook example)",
    "frozen_tide": "crystallize up to 2 invaders anywhere in the fortress",
}
_EFFECT_OF = ("bedrock", "tailwind", "magma_eruption", "frozen_tide")


def _build_tiles() -> tuple[Tile, ...]:
    tiles: list[Tile] = []

    def add(size, name, std: Side, multi_layout, source):
        tiles.append(Tile(len(tiles), size, name, (std, _multi(multi_layout)), source))

    # Small (16): per element 2x [E][E], 1x [E][*], 1 special tile (ASP-A2, ASP-A3)
    for e, el in enumerate(ELEMENTS):
        for k in range(2):
            add(SMALL, f"{el} small {k + 1}", Side(1 << e, (_room(SMALL, e, "E E"),)), [(SMALL, "E E")], "ASP-A2")
        add(SMALL, f"{el} small 3", Side(1 << e, (_room(SMALL, e, "E *"),)), [(SMALL, "E *")], "ASP-A2")
        eff = _EFFECT_OF[e]
        add(SMALL, f"{el} small ({eff})", Side(1 << e, (Room(SMALL, 1 << e, ()),), eff),
            [(SMALL, "E *")], "ASP-A3")
    # Medium (12): per element 2x one medium room [E][E][E][*], 1x two small rooms [E][E]+[E][E]
    for e, el in enumerate(ELEMENTS):
        for k in range(2):
            add(MEDIUM, f"{el} medium {k + 1}", Side(1 << e, (_room(MEDIUM, e, "E E E *"),)),
                [(MEDIUM, "E E E *")], "ASP-A2")
        add(MEDIUM, f"{el} medium (2 small rooms)",
            Side(1 << e, (_room(SMALL, e, "E E"), _room(SMALL, e, "E E"))),
            [(SMALL, "E E"), (SMALL, "E E")], "ASP-A2")
    # Large (10): per element one large room with a two-die space, and one divided tile
    # (earth, fire: medium + small rooms; air, water: three small rooms); plus two
    # two-element tiles with one medium room of each element (ASP-A2)
    for e, el in enumerate(ELEMENTS):
        add(LARGE, f"{el} large", Side(1 << e, (_room(LARGE, e, "E E E E * EE"),)),
            [(LARGE, "E E E E * EE")], "ASP-A2")
        if e in (EARTH, FIRE):
            layout = [(MEDIUM, "E E E *"), (SMALL, "E E")]
        else:
            layout = [(SMALL, "E E"), (SMALL, "E *"), (SMALL, "E E")]
        add(LARGE, f"{el} large (divided)",
            Side(1 << e, tuple(_room(sz, e, codes) for sz, codes in layout)), layout, "ASP-A2")
    for a, b in ((EARTH, WATER), (FIRE, AIR)):
        add(LARGE, f"{ELEMENTS[a]}/{ELEMENTS[b]} large",
            Side((1 << a) | (1 << b), (_room(MEDIUM, a, "E E E *"), _room(MEDIUM, b, "E E E *"))),
            [(MEDIUM, "E E E *"), (MEDIUM, "E E E *")], "ASP-A2")
    return tuple(tiles)


TILES: tuple[Tile, ...] = _build_tiles()
NUM_TILES = len(TILES)  # 38
TILES_BY_SIZE: tuple[tuple[int, ...], ...] = tuple(
    tuple(t.tile_id for t in TILES if t.size == s) for s in range(3))

# ---- The fortress slots (rules module docstring: "The fortress (3-D)") -------------
# Every tile id owns MAX_ROOMS room slots (``tile*3 + r``) and MAX_SPACES space slots
# (``tile*8 + k``), whichever side is up, so the fortress has a fixed size. These
# tables index the tile data above by slot; they follow any change of ``TILES``.
NUM_ROOM_SLOTS = NUM_TILES * MAX_ROOMS  # 114
NUM_SPACE_SLOTS = NUM_TILES * MAX_SPACES  # 304


class RoomSlot(NamedTuple):
    """One room of a tile side, by slot: ``slot`` (``tile*3 + r``), ``size``, ``elements``
    (element bitmask, ``MULTI`` for a multi room) and its ``spaces`` (space slots, ascending)."""

    slot: int
    size: int
    elements: int
    spaces: tuple[int, ...]


def _slot_tables():
    needs = [[None] * NUM_SPACE_SLOTS, [None] * NUM_SPACE_SLOTS]
    room_of = [[-1] * NUM_SPACE_SLOTS, [-1] * NUM_SPACE_SLOTS]
    rooms = [[None] * NUM_ROOM_SLOTS, [None] * NUM_ROOM_SLOTS]
    tile_rooms = [[()] * NUM_TILES, [()] * NUM_TILES]
    for t in TILES:
        for side in (0, 1):
            k = 0
            for r, room in enumerate(t.sides[side].rooms):
                slot = t.tile_id * MAX_ROOMS + r
                spaces = []
                for need in room.needs:
                    s = t.tile_id * MAX_SPACES + k
                    needs[side][s] = need
                    room_of[side][s] = slot
                    spaces.append(s)
                    k += 1
                rooms[side][slot] = RoomSlot(slot, room.size, room.elements, tuple(spaces))
            tile_rooms[side][t.tile_id] = tuple(rooms[side][t.tile_id * MAX_ROOMS + r]
                                                for r in range(len(t.sides[side].rooms)))
    return needs, room_of, rooms, tile_rooms


NEEDS, ROOM_OF, ROOMS, TILE_ROOMS = _slot_tables()
"""Per side (0 standard, 1 multi): ``NEEDS[side][space]`` the die requirements of a space
slot (``Room.needs``; None where that side has no such space), ``ROOM_OF[side][space]``
its room slot (-1: none), ``ROOMS[side][slot]`` the :class:`RoomSlot` (None: none),
``TILE_ROOMS[side][tile]`` the tile's rooms."""
SPACE_ELEMENTS: list[list[int]] = [[0 if room_of < 0 else ROOMS[side][room_of].elements for room_of in ROOM_OF[side]]
                                   for side in (0, 1)]
"""``SPACE_ELEMENTS[side][space]``: the element mask of the space's room (0: no such space)."""
TILE_SPACES: list[list[tuple[int, ...]]] = [
    [tuple(s for room in TILE_ROOMS[side][t.tile_id] for s in room.spaces) for t in TILES] for side in (0, 1)]
"""``TILE_SPACES[side][tile]``: the tile's space slots, ascending."""
TILE_FOOTPRINTS: list[list[tuple[int, ...]]] = [
    [tuple(room.slot for room in TILE_ROOMS[side][t.tile_id] if room.size == SMALL) for t in TILES]
    for side in (0, 1)]
"""``TILE_FOOTPRINTS[side][tile]``: the room slots of its small rooms, the small room
"footprints" a spire topper may go in (rulebook "Complete a spire"; a special tile's
footprint is its room without spaces, ASP-A3)."""
TILE_SIZE: tuple[int, ...] = tuple(t.size for t in TILES)
TILE_ELEMENTS: tuple[tuple[int, int], ...] = tuple((t.sides[0].elements, t.sides[1].elements) for t in TILES)
"""``TILE_ELEMENTS[tile][side]``: the element mask of that side."""
TILE_EFFECT: tuple[str, ...] = tuple(t.sides[0].effect for t in TILES)
"""``TILE_EFFECT[tile]``: its placement effect key (standard side only, ASP-A3), or ""."""

# ---- Characters (rulebook: 15 = 5 starter, 5 advanced, 5 solo; 3 actions each) -----
# ASP-A5: each character has one trigger, one passive and one spell upgrade, drawn
# from the ability kinds below (research notes §5.3 archetypes, made concrete).
TRIGGERS: dict[str, str] = {
    "pillar": "discard 1 die: place a pillar on an available space in a room of your element "
              "(or a multi room), ignoring its die requirement",
    "demolish": "destroy 1 pillar (not under a floor): destroy 1 invader in the fortress",
    "mend": "discard 2 dice: restore 1 destroyed wall",
    "swap": "discard 1 die: exchange 1 floor tile in the reserve (as in the supply step)",
    "gust": "spend 1 shard: reroll 1 unused die (even after the reroll-any action)",
}
TRIGGER_DICE: dict[str, int] = {"pillar": 1, "demolish": 0, "mend": 2, "swap": 1, "gust": 0}
"""Unused dice each trigger discards as its cost (``TRIGGERS``)."""
TRIGGER_SHARDS: dict[str, int] = {"pillar": 0, "demolish": 0, "mend": 0, "swap": 0, "gust": 1}
"""Shards each trigger spends as its cost (``TRIGGERS``)."""
PASSIVES: dict[str, str] = {
    "die_on_floor": "when you build a floor of your element, roll 1 additional die",
    "shard_on_floor": "when you build a floor of your element, draw 1 invader from the bag onto the wheel as a shard",
    "burn_first": "in your invasion step, the first invader of your element drawn is destroyed (back to the bag)",
    "freeze_first": "in your invasion step, the first invader of your element drawn becomes a shard instead",
    "multi_supply": "in your supply step you may draw the floor tile multi side up",
}
UPGRADES: dict[str, str] = {
    "mudslide": "Mudslide rolls 4 additional dice instead of 3",
    "ice_beam": "Ice Beam crystallizes up to 3 invaders of the same room",
    "lava_bomb": "Lava Bomb destroys up to 3 invaders",
    "firestorm": "Firestorm places 2 pillars",
    "floor_crafting": "Floor Crafting costs 1 shard less (1, or 2 for a multi tile)",
}


@dataclass(frozen=True, slots=True)
class Character:
    """A hero card: tier ``starter``/``advanced``/``solo``, element, trigger, passive, upgrade keys."""

    char_id: int
    name: str
    tier: str
    element: int
    trigger: str
    passive: str
    upgrade: str
    source: str = "ASP-A5"


CHARACTERS: tuple[Character, ...] = tuple(Character(i, *row) for i, row in enumerate((
    ("Geomancer", "starter", EARTH, "pillar", "die_on_floor", "mudslide"),
    ("Stormcaller", "starter", AIR, "gust", "freeze_first", "ice_beam"),
    ("Pyromancer", "starter", FIRE, "demolish", "burn_first", "lava_bomb"),
    ("Tidebinder", "starter", WATER, "mend", "shard_on_floor", "firestorm"),
    ("Architect", "starter", EARTH, "swap", "multi_supply", "floor_crafting"),
    ("Earthwarden", "advanced", EARTH, "mend", "burn_first", "mudslide"),
    ("Windweaver", "advanced", AIR, "pillar", "shard_on_floor", "ice_beam"),
    ("Flameforger", "advanced", FIRE, "pillar", "die_on_floor", "lava_bomb"),
    ("Tideshaper", "advanced", WATER, "gust", "freeze_first", "firestorm"),
    ("Spirewright", "advanced", AIR, "demolish", "multi_supply", "floor_crafting"),
    ("Hermit of Stone", "solo", EARTH, "pillar", "freeze_first", "lava_bomb"),
    ("Sky Nomad", "solo", AIR, "swap", "die_on_floor", "mudslide"),
    ("Ember Sage", "solo", FIRE, "gust", "shard_on_floor", "floor_crafting"),
    ("Deep Oracle", "solo", WATER, "pillar", "burn_first", "ice_beam"),
    ("Lone Builder", "solo", WATER, "demolish", "multi_supply", "firestorm"),
)))
CHARACTER_BY_NAME = {c.name: c for c in CHARACTERS}
NUM_CHARACTERS = len(CHARACTERS)  # 15

# ---- Spells (rulebook "Cast a spell") -------------------------------------------
# "To cast a spell, spend (discard) the required shards from the elemental wheel (they
# immediately go back into the invader bag) and then perform the spell's effect."


@dataclass(frozen=True, slots=True)
class Spell:
    """A spell of the elemental wheel.

    Attributes:
        spell_id: 0..4, its index in :data:`SPELLS` (and in the SPELL action block).
        name: the rulebook's name.
        cost: the shard elements it spends; empty for Floor Crafting, which spends
            ``amount`` shards of any elements.
        amount: how much it does (dice rolled, invaders crystallized or destroyed,
            pillars placed; Floor Crafting: shards spent).
        upgrade: the character upgrade key that improves it (``UPGRADES``, ASP-A5).
        upgraded: ``amount`` for a character with that upgrade.
        text: the rulebook's text.
    """

    spell_id: int
    name: str
    cost: tuple[int, ...]
    amount: int
    upgrade: str
    upgraded: int
    text: str


SPELLS: tuple[Spell, ...] = (
    Spell(0, "Mudslide", (EARTH, WATER), 3, "mudslide", 4,
          "Spend the earth and water shards to immediately roll 3 additional dice."),
    Spell(1, "Ice Beam", (WATER, AIR), 2, "ice_beam", 3,
          "Spend the water and one of the air shards to crystallize 2 invaders that are in the same room."),
    Spell(2, "Lava Bomb", (EARTH, FIRE), 2, "lava_bomb", 3,
          "Spend the earth and fire shards to destroy any 2 invaders in the fortress."),
    Spell(3, "Firestorm", (FIRE, AIR), 1, "firestorm", 2,
          "Spend the fire and one of the air shards to move 1 invader in the fortress from one space to "
          "another, and then also place 1 pillar on any available space."),
    Spell(4, "Floor Crafting", (), 2, "floor_crafting", 1,
          "Spend any 2 shards to draw 1 floor tile into the reserve, and then you may exchange 1 floor tile "
          "(as described in the supply step). If you spend a 3rd shard, you may draw a multi floor tile instead."),
)
MUDSLIDE, ICE_BEAM, LAVA_BOMB, FIRESTORM, FLOOR_CRAFTING = range(len(SPELLS))

# ---- Aether fiends (rulebook: 16 cards; level sets 1-4, one per element) -------------
# ASP-A6: effect while awake (research notes §5.4), for the fiend's element X.
FIEND_LEVELS: dict[int, tuple[str, str]] = {
    1: ("The First Wave", "X invaders enter before the others, and at the lowest available space instead of the highest"),
    2: ("End of the Rainbow", "star dice no longer count as X on X-room spaces that accept X; X invaders go to multi rooms before X rooms"),
    3: ("Wrecking Crew", "an X invader attacking the core also destroys an aethercore token when it breaks the X wall; "
                         "the X wall cannot be restored"),
    4: ("Legion of Destruction", "each invasion step 1 extra X invader is taken from the bag; an X invader attacking "
                                 "the core with no X wall destroys 2 aethercore tokens"),
}


@dataclass(frozen=True, slots=True)
class Fiend:
    """An aether fiend card: element, level (set), name."""

    fiend_id: int
    element: int
    level: int
    name: str
    source: str = "ASP-A6"


FIENDS: tuple[Fiend, ...] = tuple(
    Fiend(lv * 4 - 4 + e, e, lv, f"{FIEND_LEVELS[lv][0]}: {ELEMENTS[e]} fiend")
    for lv in (1, 2, 3, 4) for e in range(4))
NUM_FIENDS = len(FIENDS)  # 16

# ---- Spire adaptations (rulebook: 6 cards; "Stable" and "Turbulent" named) ----------


@dataclass(frozen=True, slots=True)
class Adaptation:
    """A spire adaptation: key, name, requirement text, completed-side text, source."""

    adaptation_id: int
    key: str
    name: str
    requirement: str
    completed: str
    source: str


ADAPTATIONS: tuple[Adaptation, ...] = tuple(Adaptation(i, *row) for i, row in enumerate((
    ("stable", "Stable", "the base floor and every floor above it hold 18 or more pillars together",
     "+1 aethercore token (max 5)", "requirement: rulebook; reward: ASP-A7"),
    ("turbulent", "Turbulent", "another floor, not multi and without the spire's element, lies at the same "
     "level as one of the spire's floors", "roll 1 additional die in each supply step", "name: rulebook; ASP-A7"),
    ("pure", "Pure", "no multi floors in the spire", "draw 1 additional floor tile in each supply step", "ASP-A7"),
    ("towering", "Towering", "the spire has 5 floors instead of 4", "move the invader track token back 1 space",
     "ASP-A7"),
    ("guarded", "Guarded", "no invaders on any floor of the spire", "restore every destroyed wall", "ASP-A7"),
    ("anchored", "Anchored", "the base floor is a large tile on a foundation",
     "once per turn, place 1 pillar on an available space ignoring its die requirement", "ASP-A7"),
)))
ADAPTATION_BY_KEY = {a.key: a for a in ADAPTATIONS}
NUM_ADAPTATIONS = len(ADAPTATIONS)  # 6

SPIRE_FLOORS = 4  # rulebook "Complete a spire": a spire is 4 or more floors of its element
TOWERING_FLOORS = 5  # ASP-A7, Towering: "the spire has 5 floors instead of 4"

# ---- Invader track (ASP-A8; research notes §5.6) ------------------------------------
# index 0 = Start, 1..22 numbered spaces (invaders entering), 23 = Lose
TRACK_COUNTS: tuple[int, ...] = (0, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 6)
LOSE_SPACE = len(TRACK_COUNTS)  # 23
AWAKEN_SPACES: tuple[int, ...] = (5, 10, 15, 20)  # the 4 fiend slots, in track order

# ---- Spire completion bonus tokens (ASP-A9; research notes §5.7) ---------------------
class Bonus(NamedTuple):
    """A spire completion bonus token: its ``key`` (the action name) and what it does."""

    key: str
    text: str


BONUSES: tuple[Bonus, ...] = (
    Bonus("core", "+1 aethercore token (max 5)"),
    Bonus("walls", "restore every destroyed wall"),
    Bonus("delay", "move the invader track token back 2 spaces (not past Start)"),
    Bonus("supply", "draw 2 floor tiles of any sizes, each either side up, then crystallize up to 2 invaders"),
)
NUM_BONUSES = len(BONUSES)  # 4
DIMINISH = 5  # "Diminish the element": 5 invader tokens set aside

# ---- Validation of the counts the rulebook fixes -------------------------------------
assert [len(TILES_BY_SIZE[s]) for s in (LARGE, MEDIUM, SMALL)] == [10, 12, 16]
assert NUM_CHARACTERS == 15 and [sum(c.tier == t for c in CHARACTERS) for t in ("starter", "advanced", "solo")] == [5, 5, 5]
assert NUM_FIENDS == 16 and all(sum(f.element == e for f in FIENDS) == 4 for e in range(4))
assert NUM_ADAPTATIONS == 6 and NUM_BONUSES == 4
assert set(TRIGGER_DICE) == set(TRIGGER_SHARDS) == set(TRIGGERS)
assert [s.spell_id for s in SPELLS] == list(range(len(SPELLS))) and {s.upgrade for s in SPELLS} == set(UPGRADES)
assert NUM_INVADERS == 40 and NUM_PILLARS == 50 and NUM_DICE == 8 and len(DIE_FACES) == 8
assert len(AWAKEN_SPACES) == 4 and all(0 < a < LOSE_SPACE for a in AWAKEN_SPACES)
for _t in TILES:
    for _s in _t.sides:
        assert 1 <= len(_s.rooms) <= MAX_ROOMS and sum(len(r.needs) for r in _s.rooms) <= MAX_SPACES, _t
