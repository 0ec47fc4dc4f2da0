"""Ether Wars component data: areas, resources, dice, factions, cards, token pools.

Every item names its source: ``rulebook "<section>"`` or an assumption id
``EW-A<n>`` (listed with its reason in ``RULES.md``). The card list of the
published game is not public (research notes §3.6, §3.7); the cards below are
our documented design choices and can be replaced by the real data here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

MAX_PLAYERS = 4

# ---- resources (rulebook "Components", "Extraction") --------------------------
RESOURCES = ("Protein", "Coltan", "Plasma", "Crystal", "Ether")
PROTEIN, COLTAN, PLASMA, CRYSTAL, ETHER = range(5)
NUM_RES = 5
EXTRACTION_COST = (1, 2, 2, 3)
"""Pips per resource extracted (rulebook "Areas of the Board"; Ether is never extracted). Also the
value of a resource sold and the base of a purchase price (rulebook "Purchasing"; EW-A18) and of a
Silo raid (rulebook "Player Silos"). Read by the rules and the picture through
``Game.extraction_cost``: a variant (say Crystal at 2 pips) is this one change."""
SILO_ETHER_COST = 8
"""Silo raid: Ether costs 8 points (rulebook "Player Silos"); other resources cost extraction + 1."""
POOL = (100, 30, 30, 30, 20)
"""Tokens in the box per resource (EW-A12); components are a hard limit (rulebook "Components")."""
CHARGE_POOL = 20
"""Charge tokens in the box (EW-A12)."""
ETHER_TO_WIN = {2: 7, 3: 6, 4: 5}
"""Rulebook "Objective of the Game"."""
START_PROTEIN, START_CHARGE, START_UNITS, RESERVE_UNITS = 20, 1, 5, 5
"""Rulebook "Preparation": 20 Protein, one Charge, five Unit dice on the sheet, five in reserve."""
MAX_UNITS = 10
CLONE_COST = 4
"""Rulebook "Cloning": "A Cloning action costs four Protein"."""
REINFORCE_PROTEIN = 2
"""Rulebook "Reinforcements": one Unit from the reserve and two Protein each round after the first."""
EXTRA_ETHER_CRYSTAL = 2
"""Rulebook "Channelling": once a Round, a player who channelled may pay two Crystal for one more Ether."""
MARKET_PURCHASES = 2
"""Rulebook "Purchasing": one die in the Market allows "up to two Purchasing actions"."""
MARKET_FAVOUR_CRYSTAL = 1
"""Rulebook "Purchasing" 1: "Pay one Crystal to draw one Favour card"."""

# ---- areas (rulebook "Areas of the Board") ------------------------------------
AREAS = ("Biosphere", "Coltan Mine", "Plasma Chasm", "Crystal Sea", "Ether Fault", "Market", "Factory",
         "Silo 0", "Silo 1", "Silo 2", "Silo 3")
BIOSPHERE, COLTAN_MINE, PLASMA_CHASM, CRYSTAL_SEA, ETHER_FAULT, MARKET, FACTORY = range(7)
SILO0 = 7
NUM_AREAS = 11
LIMITED = (COLTAN_MINE, PLASMA_CHASM, CRYSTAL_SEA)
EXTRACTION_AREAS = (BIOSPHERE, COLTAN_MINE, PLASMA_CHASM, CRYSTAL_SEA)
AREA_RESOURCE = {BIOSPHERE: PROTEIN, COLTAN_MINE: COLTAN, PLASMA_CHASM: PLASMA, CRYSTAL_SEA: CRYSTAL}

# ---- dice ----------------------------------------------------------------------
UNIT_FULL = (1, 2, 2, 2, 3, 3)
UNIT_HOLLOW = (0, 0, 1, 2, 2, 3)
"""Unit die faces: full and hollow pips per face (EW-A1, research notes §3.2)."""
HERO_FULL = (2, 3, 4, 1, 2, 3)
HERO_CHARGE = (0, 0, 0, 1, 1, 1)
"""Hero die: three faces with a Charge icon (rulebook "Hero Dice"; pips EW-A2)."""
ETHER_DIE = (1, 2, 3, 4, 5, 6)
"""Ether die: 1-6 full pips (EW-A3)."""


@dataclass(frozen=True)
class Mercenary:
    """A Mercenary die (rulebook "Mercenary Dice"; faces EW-A4)."""

    merc_id: int
    name: str
    colour: int          # resource paid to hire it, plus one Protein
    faces: tuple         # full pips per face
    charge: tuple = (0, 0, 0, 0, 0, 0)
    exempt: bool = False  # may enter Limited areas / Silos held by two other players


MERCENARIES = (
    Mercenary(0, "Drone", CRYSTAL, (1, 1, 2, 2, 3, 3), exempt=True),
    Mercenary(1, "Captain", CRYSTAL, (1, 2, 3, 1, 2, 3), (0, 0, 0, 1, 1, 1)),
    Mercenary(2, "Defender", PLASMA, (1, 2, 2, 3, 3, 4)),
    Mercenary(3, "Priestess", PLASMA, (0, 1, 1, 2, 2, 3)),
    Mercenary(4, "Assassin", COLTAN, (0, 1, 1, 1, 2, 2), exempt=True),
    Mercenary(5, "Thief", COLTAN, (0, 1, 1, 2, 2, 3), exempt=True),
)
DRONE, CAPTAIN, DEFENDER, PRIESTESS, ASSASSIN, THIEF = range(6)
NUM_MERCS = 6
MOVE_COST_UNIT, MOVE_COST_MERC, MOVE_COST_HERO = 1, 2, 3
"""Coltan per die moved (rulebook "Movement" 3)."""

# ---- factions and faction ability cards (rulebook "Faction Abilities"; research §3.6) ----
FACTIONS = ("Human", "Dracon", "VAI", "Ripper")
HUMAN, DRACON, VAI, RIPPER = range(4)


@dataclass(frozen=True)
class Ability:
    """A Faction ability card; ``key`` selects its effect in the rules."""

    ability_id: int
    faction: int
    name: str
    key: str
    text: str
    source: str


MEDIC_FREE_SHIELDS = 2
COMMANDER_BONUS = 2
HUNGRY_PROTEIN = 3
AGGRESSIVE_BONUS = 1
CONDUIT_CHARGE = 2
REPLICATE_CLONE_COST = 3
"""Numbers of the ability cards below (their texts quote them)."""

ABILITIES = (
    Ability(0, HUMAN, "Fortified", "fortified", "Your Units in your own Silo are powered up.", "EW-A5"),
    Ability(1, HUMAN, "Tactician", "tactician", "Movement: pay 1 Charge instead of the Coltan to move one die.", "EW-A5"),
    Ability(2, HUMAN, "Medic", "medic", f"Your first {MEDIC_FREE_SHIELDS} Shields this round cost no Plasma.", "EW-A5"),
    Ability(3, HUMAN, "Commander", "commander", f"Combat: pay 1 Charge for +{COMMANDER_BONUS} to your combat "
            "result.", "EW-A5"),
    Ability(4, DRACON, "Fertile", "fertile", "Before Resolution: pay 1 Charge to put 1 Unit from your reserve "
            "in any area.", "research §3.6 (W1)"),
    Ability(5, DRACON, "Hungry", "hungry", f"Gain {HUNGRY_PROTEIN} Protein for each injury you cause in combat.",
            "research §3.6 (W1)"),
    Ability(6, DRACON, "Aggressive", "aggressive", "If at least 2 of your Units attack a Silo, all your Units are "
            f"powered up; combat: pay 1 Charge for +{AGGRESSIVE_BONUS} to your combat result.",
            "research §3.6 (W1), EW-A5"),
    Ability(7, DRACON, "Swarm", "swarm", "Your Units in Limited areas are powered up while an opponent is present.",
            "EW-A5"),
    Ability(8, VAI, "Refinery", "refinery", "Extraction costs 1 less for Plasma and Crystal.", "EW-A5"),
    Ability(9, VAI, "Trader", "trader", "Market: buying costs only the extraction cost.", "EW-A5"),
    Ability(10, VAI, "Overclock", "overclock", "Your Units in Extraction areas are powered up.", "EW-A5"),
    Ability(11, VAI, "Conduit", "conduit", f"After a successful Channelling: pay {CONDUIT_CHARGE} Charge for 1 more "
            "Ether (once).", "EW-A5"),
    Ability(12, RIPPER, "Harvest", "harvest", "Your Units in the Biosphere are powered up.", "EW-A5"),
    Ability(13, RIPPER, "Assimilate", "assimilate", "Gain 1 resource of your choice (not Ether) per enemy Unit "
            "you injure.", "EW-A5"),
    Ability(14, RIPPER, "Replicate", "replicate", f"Cloning costs {REPLICATE_CLONE_COST} Protein.", "EW-A5"),
    Ability(15, RIPPER, "Devour", "devour", "Maintenance costs you no Protein this round.", "EW-A5"),
)
ABILITY_KEY = tuple(a.key for a in ABILITIES)
CARDS_PER_FACTION = 4
RIPPER_SKILL_PROTEIN = 4
"""Rulebook "Hero Skills": the Ripper's Hero Skill gives four Protein."""

# ---- events (rulebook "Events"; research §3.7: EW-A6) --------------------------


@dataclass(frozen=True)
class Event:
    event_id: int
    name: str
    key: str
    text: str
    copies: int


PROTEIN_STORM, COLTAN_RUSH, ETHER_SURGE, CEASEFIRE, PLAGUE, CRYSTAL_BLOOM, BLACK_MARKET, QUIET_DAY = range(8)


class EventCost(NamedTuple):
    """An Event's extraction cost: ``pips`` per ``resource`` this round."""

    resource: int
    pips: int


EVENT_EXTRACTION_COST = {COLTAN_RUSH: EventCost(COLTAN, 1), CRYSTAL_BLOOM: EventCost(CRYSTAL, 2)}
"""Events that set a resource's extraction cost: event -> EventCost(resource, pips)."""

EVENTS = (
    Event(0, "Protein Storm", "protein_storm", "Biosphere extraction yields half (rounded down).", 2),
    Event(1, "Coltan Rush", "coltan_rush", f"Coltan costs {EVENT_EXTRACTION_COST[COLTAN_RUSH].pips} pip to extract.",
          2),
    Event(2, "Ether Surge", "ether_surge", "Channelling gives 1 more Ether.", 2),
    Event(3, "Ceasefire", "ceasefire", "No Combat in Limited areas (domination has no effect there).", 2),
    Event(4, "Plague", "plague", "Maintenance: 1 more Protein per 5 Units.", 2),
    Event(5, "Crystal Bloom", "crystal_bloom", f"Crystal costs {EVENT_EXTRACTION_COST[CRYSTAL_BLOOM].pips} pips to "
          "extract.", 2),
    Event(6, "Black Market", "black_market", "Market: buying costs only the extraction cost.", 2),
    Event(7, "Quiet Day", "quiet_day", "No effect.", 2),
)
EVENT_KEY = tuple(e.key for e in EVENTS)
assert all(e.event_id == i for i, e in enumerate(EVENTS)) and EVENTS[CEASEFIRE].key == "ceasefire"
EVENT_DECK = tuple(e.event_id for e in EVENTS for _ in range(e.copies))
NUM_EVENTS = len(EVENTS)

# ---- favours (rulebook "Favours"; research §3.7: EW-A7) -------------------------
# timing: "response" (only on top of another Favour), "any" (any favour window),
# "combat" (combat window, a participant), "injury" (your own injury window),
# "hire" (the window at the start of the Mercenaries phase)


@dataclass(frozen=True)
class Favour:
    favour_id: int
    name: str
    key: str
    timing: str
    cost: tuple          # resources paid when (and if) it resolves, per resource index
    text: str
    copies: int


SUPPLIES_PROTEIN = 2
BATTLE_CRY_BONUS = 2
FIELD_MEDIC_SHIELDS = 2
"""Numbers of the Favours below (their texts quote them)."""

FAVOURS = (
    Favour(0, "Cancel", "cancel", "response", (0, 0, 0, 0, 0), "Cancel the Favour just played.", 4),
    Favour(1, "Supplies", "supplies", "any", (0, 0, 0, 0, 0), f"Gain {SUPPLIES_PROTEIN} Protein.", 4),
    Favour(2, "Battle Cry", "battle_cry", "combat", (0, 0, 0, 0, 0), f"+{BATTLE_CRY_BONUS} to your combat result.", 4),
    Favour(3, "Field Medic", "field_medic", "injury", (0, 0, 0, 0, 0), f"Shield up to {FIELD_MEDIC_SHIELDS} of your "
           "injured Units for free.", 4),
    Favour(4, "Contract", "contract", "hire", (0, 0, 0, 0, 0), "Hire your Mercenary this round for free.", 3),
    Favour(5, "Smuggler", "smuggler", "any", (0, 1, 0, 0, 0), "Steal 1 resource (not Ether) from an opponent. "
           "Cost: 1 Coltan.", 3),
)
CANCEL, SUPPLIES, BATTLE_CRY, FIELD_MEDIC, CONTRACT, SMUGGLER = range(6)
NUM_FAVOURS = len(FAVOURS)
FAVOUR_DECK = tuple(f.favour_id for f in FAVOURS for _ in range(f.copies))
BEGINNER_FAVOURS = 3
DRAFT_FAVOURS, DRAFT_DISCARD = 5, 2
"""Rulebook "Preparation": beginner 3 Favours; advanced draft 5, keep 5, discard 2."""
