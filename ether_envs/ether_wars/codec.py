"""Ether Wars action codec, decision kinds, phases, favour windows and resolution stages.

Plain named constants, documented in ``env.py`` (the action table) and ``RULES.md``
(the state machine). Actions that name a seat or a Silo are *relative to the acting
player*: relative seat 0 is the actor, 1 the next seat clockwise, and so on; area
index ``7 + k`` is the Silo of relative seat ``k``.
"""

from __future__ import annotations

from ..core import ActionCodec, Block
from . import components as C

# ---- action codec (documented in env.py) ----------------------------------------
DIE_KINDS = ("unit", "hero", "mercenary", "ether die")
"""Kinds of dice a player puts on the board (``ADD_DIE``): 0 unit, 1 hero, 2 its Mercenary, 3 the Ether die."""
D_UNIT, D_HERO, D_MERCENARY, D_ETHER_DIE = range(4)
MOVE_KINDS = ("unit", "hero", "mercenary")
"""Kinds of dice that move (``MOVE_DIE``): the first three of ``DIE_KINDS``."""
AREA_LABELS = C.AREAS[:7] + ("own Silo", "Silo +1", "Silo +2", "Silo +3")
"""Area names as the codec numbers them (Silos relative to the acting player)."""


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
    Block("MARKET_FAVOUR", 1, f"Market: pay {C.MARKET_FAVOUR_CRYSTAL} Crystal to draw a Favour"),
    Block("CLONE", 1, f"Factory: pay {C.CLONE_COST} Protein for a Unit from your reserve"),
    Block("CHARGE_BOOST", 1, f"combat window: pay 1 Charge for +{C.AGGRESSIVE_BONUS} (Aggressive) or "
          f"+{C.COMMANDER_BONUS} (Commander)"),
    Block("EXTRA_ETHER", 1, f"after Channelling: pay {C.EXTRA_ETHER_CRYSTAL} Crystal for 1 more Ether (once a round)"),
    Block("CONDUIT", 1, f"VAI Conduit: pay {C.CONDUIT_CHARGE} Charge for 1 more Ether after Channelling"),
    Block("DONE", 1, "finish the current step (placement turn, movement, rerolls, raid, purchase, market, factory)"),
    Block("PASS", 1, "decline (no hire, pass placement for the round, no favour, no skill, no extra Ether)"),
])
_OFF = CODEC.offsets
# first action id of each block (an action is ``<BLOCK>0 + index``); one-action blocks by their name
FACTION0, KEEP0, DISCARD0, ABILITY0, HIRE0, PLAY0 = (_OFF[b] for b in (
    "FACTION", "KEEP_FAVOUR", "DISCARD_FAVOUR", "ABILITY", "HIRE", "PLAY_FAVOUR"))
AREA0, AREA_CHARGE0, ADD0, MOVE0, RESOLVE0, UNIT_DIE0, SEAT0, SHIELD0, RESOURCE0, PAY0 = (_OFF[b] for b in (
    "AREA", "AREA_CHARGE", "ADD_DIE", "MOVE_DIE", "RESOLVE", "UNIT_DIE", "SEAT", "SHIELD", "RESOURCE", "PAY"))
MARKET_FAVOUR, CLONE, CHARGE_BOOST, EXTRA_ETHER, CONDUIT, DONE, PASS = (_OFF[b] for b in (
    "MARKET_FAVOUR", "CLONE", "CHARGE_BOOST", "EXTRA_ETHER", "CONDUIT", "DONE", "PASS"))
DECODED = tuple(CODEC.decode(a) for a in range(CODEC.size))
"""``DECODED[action]``: ``CODEC.decode(action)``, the pair (block name, index), for every action id."""

# ---- phases (rulebook "Game Round") ---------------------------------------------------
PHASE_NAMES = ("preparation", "new_day", "mercenaries", "placement", "movement", "resolution",
               "maintenance", "over")
PREP, NEW_DAY, MERCS, PLACEMENT, MOVEMENT, RESOLUTION, MAINTENANCE, OVER = range(8)

# ---- decision kinds: what the seat to act decides (``State.decision``) ----------------
DECISION_NAMES = ("faction", "keep_favour", "discard_favour", "ability", "hire", "place", "add_die", "move",
                  "move_to", "fertile", "resolve", "thief", "assassin", "shield", "reroll", "skill", "gain",
                  "window", "response", "smuggle_seat", "smuggle_resource", "raid", "market", "pay", "factory",
                  "conduit", "end_ether", "none")
(K_FACTION, K_KEEP, K_DISCARD, K_ABILITY, K_HIRE, K_PLACE, K_ADD, K_MOVE, K_MOVE_TO, K_FERTILE, K_RESOLVE,
 K_THIEF, K_ASSASSIN, K_SHIELD, K_REROLL, K_SKILL, K_GAIN, K_WINDOW, K_RESPONSE, K_SMUGGLE_SEAT,
 K_SMUGGLE_RES, K_RAID, K_MARKET, K_PAY, K_FACTORY, K_CONDUIT, K_END_ETHER, K_NONE) = range(28)
RESOLUTION_DECISIONS = frozenset((K_RESOLVE, K_THIEF, K_ASSASSIN, K_SHIELD, K_REROLL, K_SKILL, K_RAID, K_MARKET,
                                  K_PAY, K_FACTORY))
"""Decisions of the Resolution phase (``resolution.ResolutionRules``)."""
WINDOW_DECISIONS = frozenset((K_WINDOW, K_RESPONSE, K_SMUGGLE_SEAT, K_SMUGGLE_RES))
"""Decisions of a favour window (``favours.FavourRules``)."""

# ---- favour windows (rulebook "Favours"; EW-A7) ------------------------------------------
WINDOW_NAMES = ("phase", "combat", "injury")
W_PHASE, W_COMBAT, W_INJURY = range(3)

# ---- resolving an area: its stages and modes (``resolution.py``; RULES.md "State machine") ----
STAGES = ("thief", "assassin", "setup", "roll", "reroll", "skills", "window", "outcome", "injury", "reward",
          "drone", "cleanup", "market", "pay", "factory")
(S_THIEF, S_ASSASSIN, S_SETUP, S_ROLL, S_REROLL, S_SKILLS, S_WINDOW, S_OUTCOME, S_INJURY, S_REWARD, S_DRONE,
 S_CLEANUP, S_MARKET, S_PAY, S_FACTORY) = range(len(STAGES))
MODES = ("none", "combat", "extract", "channel", "market", "factory")
"""What resolving the area does (``AreaResolution.mode``)."""
M_NONE, M_COMBAT, M_EXTRACT, M_CHANNEL, M_MARKET, M_FACTORY = range(len(MODES))
REWARD_STEPS = ("none", "channelling", "raid")
"""The reward stage's pending step (``AreaResolution.reward_step``; -1: not worked out yet)."""
REWARD_NONE, REWARD_CHANNELLING, REWARD_RAID = range(3)
