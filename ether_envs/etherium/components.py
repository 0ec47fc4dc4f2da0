"""Etherium component data: resources, the 17-box board, tribes, seasons,
Flash cards, Ability tokens, Victory tokens and the Connection table.

The rulebook prints only part of this (component counts, the Connection table,
tribe powers). Everything else is an assumption with an id ``ETM-A<n>`` listed
in ``RULES.md``; rulebook facts cite the rulebook section; research defaults
cite ``rules_research §2.x`` (the project's research notes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

# ---- Resources (rulebook "Contents": 16 cubes of each colour; "Resources") ----
WOOD, STONE, METAL, ETHER, BOOSTER = range(5)
RESOURCE_NAMES = ("Wood", "Stone", "Metal", "Ether", "Booster")
BASIC = (WOOD, STONE, METAL)  # rulebook "Resources": the three basic resources
CUBES_PER_COLOUR = 16  # rulebook "Contents": 80 cubes, 16 per colour

# ---- Terrains and board (rulebook "Contents", "Setup" 1; research §2.5; ETM-A1) ----
MOUNTAIN, FOREST, MINE, ETHER_TERRAIN, CITY = range(5)
TERRAIN_NAMES = ("Mountain", "Forest", "Mine", "Ether", "City")
COLOUR_NAMES = ("yellow", "green", "red", "blue", "city")  # a Move is programmed by colour
TERRAIN_RESOURCE = {MOUNTAIN: STONE, FOREST: WOOD, MINE: METAL, ETHER_TERRAIN: ETHER}  # rulebook "Resources"
ELEVATION = {MINE: 0, ETHER_TERRAIN: 1, FOREST: 1, MOUNTAIN: 2, CITY: 2}  # ETM-A1 (research §2.5)

NUM_SECTORS = 4
NUM_BOXES = 17  # rulebook "Contents": 4 Forest, 4 Mountain, 4 Mine, 1 Ether, 4 Cities


def city_box(i: int) -> int:
    return i


def mountain_box(i: int) -> int:
    return 4 + i


def forest_box(i: int) -> int:
    return 8 + i


def mine_box(i: int) -> int:
    return 12 + i


ETHER_BOX = 16
BOX_TERRAIN: tuple[int, ...] = (CITY,) * 4 + (MOUNTAIN,) * 4 + (FOREST,) * 4 + (MINE,) * 4 + (ETHER_TERRAIN,)
BOX_NAMES: tuple[str, ...] = tuple(
    [f"City{i}" for i in range(4)] + [f"Mountain{i}" for i in range(4)]
    + [f"Forest{i}" for i in range(4)] + [f"Mine{i}" for i in range(4)] + ["Ether"]
)


def _board_edges() -> list[tuple[int, int]]:
    """ETM-A1: sector i is City_i - Mountain_i - Forest_i - Mine_i - Ether, and each
    level (Mountain, Forest, Mine) is a ring over the four sectors."""
    edges = []
    for i in range(NUM_SECTORS):
        j = (i + 1) % NUM_SECTORS
        edges += [(city_box(i), mountain_box(i)), (mountain_box(i), forest_box(i)),
                  (forest_box(i), mine_box(i)), (mine_box(i), ETHER_BOX),
                  (mountain_box(i), mountain_box(j)), (forest_box(i), forest_box(j)), (mine_box(i), mine_box(j))]
    return edges


BOARD_EDGES = tuple(_board_edges())
ADJACENT: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({b for a, b in BOARD_EDGES if a == x} | {a for a, b in BOARD_EDGES if b == x}))
    for x in range(NUM_BOXES)
)
BOX_ELEVATION: tuple[int, ...] = tuple(ELEVATION[t] for t in BOX_TERRAIN)

# which of the four City boxes the seats use (ETM-A2): 2 players sit opposite
CITIES_BY_PLAYERS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}

# ---- Units (rulebook "Units": levels 1..4) ----
GATHERER, SOLDIER, GUARD, GUIDE = range(4)
UNIT_NAMES = ("Gatherer", "Soldier", "Guard", "Guide")
UNIT_RESOURCE = {GATHERER: WOOD, SOLDIER: METAL, GUARD: STONE}  # rulebook "Increase Unit Level"
MAX_LEVEL = 4
MOBILE = (GATHERER, SOLDIER)


# ---- Tribes (rulebook "Tribes"; setup and costs: research §2.4 = ETM-A3) ----
@dataclass(frozen=True, slots=True)
class Tribe:
    """A tribe box.

    Attributes:
        tribe_id: 0..3.
        name: the rulebook's people name.
        levels: starting (Gatherer, Soldier, Guard, Guide) levels (Guide 0 = none).
        resources: starting (Wood, Stone, Metal, Ether, Booster).
        flash_cards: Flash cards drawn at setup.
        cheaper_unit: unit whose upgrade costs X-1 (min 1), or -1.
        etherization_rate: basic resources per Ether (Transform: Etherization).
        ability_cost: Ether paid for an Ability token.
        source: where the numbers come from.
    """

    tribe_id: int
    name: str
    levels: tuple[int, int, int, int]
    resources: tuple[int, int, int, int, int]
    flash_cards: int
    cheaper_unit: int
    etherization_rate: int
    ability_cost: int
    source: str


RECES, PSOLOS, ERTIS, HIVALIA = range(4)
TRIBES: tuple[Tribe, ...] = (
    Tribe(RECES, "Reces", (1, 2, 1, 1), (1, 1, 2, 0, 0), 0, SOLDIER, 4, 4, "ETM-A3"),
    Tribe(PSOLOS, "Psolos", (1, 1, 2, 1), (1, 2, 1, 0, 0), 0, GUARD, 3, 4, "ETM-A3"),
    Tribe(ERTIS, "Ertis", (2, 1, 1, 0), (2, 1, 1, 0, 0), 1, GATHERER, 3, 4, "ETM-A3"),
    Tribe(HIVALIA, "Hivalia", (1, 1, 2, 0), (1, 1, 1, 1, 0), 0, -1, 2, 4, "ETM-A3"),
)
TRIBE_BY_NAME = {t.name: t.tribe_id for t in TRIBES}
NUM_TRIBES = len(TRIBES)
CARD_COST_PER_FLASH = 1  # Transform: Cards, "x Flash cards for x Ether" (rulebook)
BOOSTER_COST = 3  # Transform: Booster, 3 Ether (rulebook)
RECES_SEASON_SOLDIER_BONUS = 3  # rulebook Reces "Season Bonus"
HIVALIA_ETHER_GATHER_GAIN = 2  # rulebook Hivalia "Power": two basic resources
PSOLOS_EXTRA_STONE, PSOLOS_SEASON_STONE = 1, 2  # rulebook Psolos
ERTIS_FOREST_WOOD, ERTIS_SEASON_WOOD = 1, 2  # rulebook Ertis
ERTIS_REROLL_FACES = (1, 2)  # rulebook Ertis "Power": re-roll a 1 or a 2 (ETM-A28)
RECES_PILLAGE_EXTRA = 1  # rulebook Reces "Power"

# ---- Seasons (rulebook "Reveal a New Season"; research §2.1 = ETM-A4) ----
# Six colours, two cards each (A = bonus, B = penalty or reveal action); tribe id
# of the colour's affinity tribe, or -1 for the colours of tribes not in this box.
SEASON_COLOURS = ("Reces", "Ertis", "Hivalia", "Meinas", "Psolos", "T6")  # the base initiative cycle
COLOUR_TRIBE = (RECES, ERTIS, HIVALIA, -1, PSOLOS, -1)
NUM_COLOURS = len(SEASON_COLOURS)
NIGHT = 12  # season card id of the Night; colour cards are colour * 2 + side (side 0 = A, 1 = B)
NUM_SEASON_CARDS = 13
NUM_SEASONS = 7  # rulebook "End of the Game": a year of 7 seasons, Night first

SEASON_TEXT: tuple[str, ...] = (
    "Reces A: +2 Metal on every Gather on a Mine.",
    "Reces B: -1 to every Soldier's conflict total.",
    "Ertis A: +2 Wood on every Gather on a Forest (rulebook example).",
    "Ertis B: Gatherers collect 1 less (minimum 1).",
    "Hivalia A: +1 Ether on every Gather on the Ether terrain.",
    "Hivalia B: Etherization costs 1 more basic resource per Ether.",
    "Meinas A: every player draws 1 more Flash card at the reveal.",
    "Meinas B: reveal action, in initiative order: you may discard 1 Flash card to gain 1 basic resource.",
    "Psolos A: +2 Stone on every Gather on a Mountain.",
    "Psolos B: Guard upgrades cost 1 more Stone.",
    "T6 A: each player's first Move this season gets 1 free extra step.",
    "T6 B: only one Connect action may be programmed this season.",
    "Night: no bonus; initiative drawn at random at setup.",
)
SEASON_NAMES: tuple[str, ...] = tuple(
    f"{SEASON_COLOURS[c]} {'AB'[s]}" for c in range(NUM_COLOURS) for s in range(2)) + ("Night",)


class GatherBonus(NamedTuple):
    """A season card that adds to gathering: ``amount`` more cubes of ``resource`` on a Gather
    on ``terrain``."""

    terrain: int
    resource: int
    amount: int


# card id -> its GatherBonus, for the A cards that add to gathering
SEASON_GATHER_BONUS = {0: GatherBonus(MINE, METAL, 2), 2: GatherBonus(FOREST, WOOD, 2),
                       8: GatherBonus(MOUNTAIN, STONE, 2)}
HIVALIA_A, RECES_B, ERTIS_B, HIVALIA_B, MEINAS_A, MEINAS_B, PSOLOS_B, T6_A, T6_B = 4, 1, 3, 5, 6, 7, 9, 10, 11


def season_initiative_tribes(card: int) -> tuple[int, ...]:
    """Tribe ids in initiative order for colour card ``card`` (0..11; ETM-A4).

    Both cards of a colour (A and B) are "that tribe's season": its tribe is first
    and the others follow the base cycle Reces -> Ertis -> Hivalia -> Meinas ->
    Psolos -> T6 forwards from it; colours without a tribe in this box are
    skipped. This fits both rulebook examples ("Reveal a New Season": in the
    Ertis season Ertis > Hivalia > Meinas; "Reveal and Perform Actions": in the
    Reces season Reces is first and Ertis second) on every card.
    """
    colour = card // 2
    cycle = [COLOUR_TRIBE[(colour + k) % NUM_COLOURS] for k in range(NUM_COLOURS)]
    return tuple(t for t in cycle if t >= 0)


# ---- Flash cards (rulebook "Draw/Play Flash Cards"; research §2.2 = ETM-A5) ----
@dataclass(frozen=True, slots=True)
class FlashCard:
    """Attributes: card_type (0..11), key, name, timing ("flash" any window /
    "season" Phase 3 only), copies, text, source."""

    card_type: int
    key: str
    name: str
    timing: str
    copies: int
    text: str
    source: str


FLASH, SEASON = "flash", "season"
FLASH_CARDS: tuple[FlashCard, ...] = tuple(FlashCard(i, *row) for i, row in enumerate((
    ("plus1", "+1", FLASH, 6, "Roll window: +1 to your roll total.", "ETM-A5"),
    ("plus2", "+2", FLASH, 3, "Roll window: +2 to your roll total.", "ETM-A5"),
    ("reroll", "Re-roll", FLASH, 4, "Roll window: re-roll one of your dice.", "ETM-A5"),
    ("resource", "Resource", FLASH, 4, "Any window: gain 1 basic resource of your choice.", "ETM-A5"),
    ("shield", "Shield", FLASH, 3, "Conflict roll window: your unit loses no level in this conflict.", "ETM-A5"),
    ("extra_die", "Extra die", FLASH, 2, "Roll window: roll one more die and add it.", "ETM-A6"),
    ("two_resources", "Supplies", SEASON, 5, "Gain 2 basic resources of your choice.", "ETM-A5"),
    ("ether", "Ether", SEASON, 3, "Gain 1 Ether.", "ETM-A5"),
    ("march", "March", SEASON, 4, "Your next Move this season gets 1 free extra step.", "ETM-A5"),
    ("harvest", "Harvest", SEASON, 4, "Your next Gather this season collects 1 more.", "ETM-A5"),
    ("craft", "Craft", SEASON, 3, "Your next Gatherer/Soldier/Guard upgrade this season costs 1 less.", "ETM-A5"),
    ("insight", "Insight", SEASON, 3, "Draw 2 Flash cards.", "ETM-A5"),
)))
(F_PLUS1, F_PLUS2, F_REROLL, F_RESOURCE, F_SHIELD, F_EXTRA_DIE,
 S_TWO_RESOURCES, S_ETHER, S_MARCH, S_HARVEST, S_CRAFT, S_INSIGHT) = range(12)
NUM_FLASH_TYPES = len(FLASH_CARDS)
FLASH_DECK: tuple[int, ...] = tuple(c.card_type for c in FLASH_CARDS for _ in range(c.copies))
NUM_FLASH_CARDS = len(FLASH_DECK)  # 44
HAND_LIMIT = 6  # rulebook "Draw a Flash Card"
MAX_PLAYS_PER_WINDOW = 6  # ETM-A7: bounds a window (draw effects could otherwise cycle forever)


# ---- Ability tokens (rulebook "Transform Ether: Ability"; research §2.3 = ETM-A8) ----
@dataclass(frozen=True, slots=True)
class Ability:
    """Attributes: ability_id (0..6), key, name, vp, text, source."""

    ability_id: int
    key: str
    name: str
    vp: int
    text: str
    source: str


ABILITIES: tuple[Ability, ...] = tuple(Ability(i, *row) for i, row in enumerate((
    ("resource", "Resource", 2, "Gain 1 basic resource when a season is revealed.", "rulebook example"),
    ("harvester", "Harvester", 3, "+1 resource on every Gather.", "ETM-A8"),
    ("warlord", "Warlord", 3, "Soldier conflict roll window: pay 1 Metal for +1.", "ETM-A8"),
    ("bastion", "Bastion", 2, "Your Guard rolls 1 more die in sieges.", "ETM-A8"),
    ("oracle", "Oracle", 3, "Connection roll window: pay 1 Wood for +1.", "ETM-A8"),
    ("pathfinder", "Pathfinder", 2, "Every Move gets 1 free extra step.", "ETM-A8"),
    ("archivist", "Archivist", 2, "Draw 1 more Flash card each season; hand limit 7.", "ETM-A8"),
)))
A_RESOURCE, A_HARVESTER, A_WARLORD, A_BASTION, A_ORACLE, A_PATHFINDER, A_ARCHIVIST = range(7)
NUM_ABILITIES = len(ABILITIES)
ABILITY_COPIES = 2  # rulebook "Contents": 14 Ability tokens, 2 of each

# ---- Victory tokens (rulebook "Contents", "Victory Tokens") ----
VT_SOLDIER, VT_ETHER, VT_CONNECTION, VT_BOOSTER, VT_PILLAGE = range(5)
VT_NAMES = ("Soldier", "Ether", "Connection", "Booster", "Pillage")
VT_SUPPLY = (10, 10, 6, 4, 3)
VT_POINTS = (2, 1, 4, 4, 6)
VT_MAX_PER_PLAYER = (99, 99, 99, 1, 1)

# ---- Program spaces on the Action board (rulebook "Program Actions"; ETM-A9) ----
MOVE, GATHER, UPGRADE, TRANSFORM, CONNECT = range(5)
ACTION_NAMES = ("Move", "Gather", "Increase Unit Level", "Transform Ether", "Connect")
ETHERIZATION, CARDS, ABILITY, BOOSTER_T = range(4)
TRANSFORM_NAMES = ("Etherization", "Cards", "Ability", "Booster")
CONNECTS_PER_SEASON = 2  # rulebook "Connect": at most two a season (the Connect 1 and Connect 2 spaces)
# (action, argument) per space: Move by colour (yellow, green, red, blue, city),
# Gather by terrain, Increase by unit, Transform by kind, Connect 1, 2, ... (argument 0, 1, ...).
SPACES: tuple[tuple[int, int], ...] = (
    tuple((MOVE, c) for c in range(5)) + tuple((GATHER, t) for t in range(4))
    + tuple((UPGRADE, u) for u in range(4)) + tuple((TRANSFORM, k) for k in range(4))
    + tuple((CONNECT, i) for i in range(CONNECTS_PER_SEASON))
)
NUM_SPACES = len(SPACES)  # 19
CONNECT_SPACES: tuple[int, ...] = tuple(sp for sp, (action, _) in enumerate(SPACES) if action == CONNECT)
SPACE_NAMES: tuple[str, ...] = tuple(
    [f"Move->{COLOUR_NAMES[c]}" for c in range(5)] + [f"Gather@{TERRAIN_NAMES[t]}" for t in range(4)]
    + [f"Increase {UNIT_NAMES[u]}" for u in range(4)] + [f"Transform {TRANSFORM_NAMES[k]}" for k in range(4)]
    + [f"Connect {i + 1}" for i in range(CONNECTS_PER_SEASON)]
)
BASE_TOKENS, MAX_TOKENS = 4, 6  # rulebook "Setup" 7 and "Booster" (a token per Booster cube, up to 2)
DIE_FACES = 6  # the dice (Connect, conflicts)
ETHER_PER_PRESTIGE = 2  # rulebook "End of the Game": 1 prestige per 2 Ether cubes
SPOIL_ETHER, SPOIL_BASIC = 2, 4  # rulebook "Siege": a won siege steals 2 Ether or 4 basic resources

# ---- Connection table (rulebook "Connect") ----
CONNECTION_TABLE: tuple[str, ...] = (
    "Lose any 4 resources.", "Lose 1 Flash card.", "Lose any 2 resources.", "Draw 1 Flash card.",
    "Steal 2 resources from 1 player.", "Gain 1 Ether.", "Gain any 4 resources.", "Gain 2 Ether.",
    "Increase your soldier without paying the cost.", "Draw 2 Flash cards.", "Gain 1 Booster.",
    "Gain 1 Connection Victory token.",
)
MAX_CONNECT_RESULT = 12
TIE_REROLL_LIMIT = 10  # ETM-A14

# ---- Validation of the counts the rulebook fixes ----
assert NUM_FLASH_CARDS == 44
assert NUM_ABILITIES * ABILITY_COPIES == 14
assert NUM_SEASON_CARDS == 12 + 1
assert len(BOX_TERRAIN) == NUM_BOXES == 17
assert sum(VT_SUPPLY) == 33
assert all(len(a) >= 1 for a in ADJACENT)
