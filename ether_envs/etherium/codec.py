"""Etherium action codec and agenda vocabulary, shared by ``rules``, ``actions`` and ``conflicts``.

The action ids (one flat ``Discrete(164)``, documented in ``env.py``), the
agenda's :class:`Task` and the kinds of tasks (``T_*`` automatic, ``D_*``
decisions; see ``rules``), the Flash-card windows (ETM-A10) and the season
phases shown in observations.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core import ActionCodec, Block
from . import components as C

# ---- action codec (documented in env.py) ------------------------------------
_RES = lambda i: C.RESOURCE_NAMES[i]  # noqa: E731
CODEC = ActionCodec([
    Block("CHOOSE_TRIBE", C.NUM_TRIBES, "setup with tribe_selection='choose': take tribe 0..3 "
          "(Reces, Psolos, Ertis, Hivalia)", lambda i: C.TRIBES[i].name),
    Block("PASS", 1, "end a Flash-card window / decline an optional reveal action / stop Etherization / "
          "take no more of an optional gain / Gather none of the level's cubes"),
    Block("PLAY_FLASH", C.NUM_FLASH_TYPES, "play a Flash card of type 0..11 from your hand (components.FLASH_CARDS)",
          lambda i: C.FLASH_CARDS[i].name),
    Block("GAIN_RESOURCE", 3, "take 1 basic resource (Wood, Stone, Metal) from the reserve", _RES),
    Block("SPEND_RESOURCE", 3, "lose / pay 1 of your basic resources (Wood, Stone, Metal)", _RES),
    Block("TAKE_RESOURCE", 3, "steal 1 basic resource (Wood, Stone, Metal) from the player being robbed", _RES),
    Block("DISCARD_FLASH", C.NUM_FLASH_TYPES, "discard a Flash card of type 0..11",
          lambda i: C.FLASH_CARDS[i].name),
    Block("PROGRAM", C.NUM_SPACES, "put your next Action token on Action-board space 0..18 "
          "(components.SPACES)", lambda i: C.SPACE_NAMES[i]),
    Block("MOVE_UNIT", 2 * C.NUM_BOXES, "Move: unit (0 Gatherer, 1 Soldier) * 17 + destination box",
          lambda i: f"{C.UNIT_NAMES[i // C.NUM_BOXES]}->{C.BOX_NAMES[i % C.NUM_BOXES]}"),
    Block("CHOOSE_COUNT", 6, "a number 1..6 (Flash cards bought; Connect dice with affinity; "
          "Gather: cubes of the level taken)",
          lambda i: str(i + 1)),
    Block("CHOOSE_ABILITY", C.NUM_ABILITIES, "Transform Ether: Ability token 0..6 (components.ABILITIES)",
          lambda i: C.ABILITIES[i].name),
    Block("CHOOSE_RESULT", C.MAX_CONNECT_RESULT, "Connect: final result 1..12 (roll + part of your Guide level)",
          lambda i: str(i + 1)),
    Block("TARGET_PLAYER", 3, "Connect result 5: steal from the player 1..3 seats after you",
          lambda i: f"+{i + 1}"),
    Block("REROLL_DIE", 6, "re-roll one of your dice showing face 1..6 (Ertis power or a Re-roll card)",
          lambda i: str(i + 1)),
    Block("USE_ABILITY", 1, "use your Ability's paid roll bonus (Warlord: 1 Metal; Oracle: 1 Wood) for +1"),
    Block("SIEGE_SPOIL", 4, "won siege: 0 steal 2 Ether, 1 steal 1 Booster, 2 steal 4 basic, 3 reduce the Guide",
          lambda i: ("2 Ether", "1 Booster", "4 basic", "reduce Guide")[i]),
    Block("CHOOSE_CONFLICT", C.NUM_BOXES, "resolve the conflict on box 0..16 next", lambda i: C.BOX_NAMES[i]),
    Block("RETREAT_TO", C.NUM_BOXES, "retreat your defeated unit to box 0..16", lambda i: C.BOX_NAMES[i]),
])
_OFF = CODEC.offsets
TRIBE0, PASS, FLASH0, GAIN0, SPEND0, TAKE0, DISCARD0, PROGRAM0, MOVE0, COUNT0, ABILITY0, RESULT0, TARGET0, \
    REROLL0, USE_ABILITY, SPOIL0, CONFLICT0, RETREAT0 = (
        _OFF[b.name] for b in CODEC.blocks)
BLOCK_OF = tuple(CODEC.decode(a)[0] for a in range(CODEC.size))
INDEX_OF = tuple(CODEC.decode(a)[1] for a in range(CODEC.size))

# ---- the agenda -------------------------------------------------------------------
class Task(NamedTuple):
    """An entry of the agenda (``State.stack``): a task of ``kind`` for seat ``player``
    (-1: nobody's), with two numbers whose meaning depends on the kind:

    ==================================  ==================================  ===============================
    kind                                ``a``                               ``b``
    ==================================  ==================================  ===============================
    T_SEASON, T_SEASON_END              season index (0 = Night)
    T_STEP, T_ACT                       action step (0-based)
    T_EXEC                              Action-board space performed
    T_CONNECT_ROLL                      dice rolled
    T_CONFLICT_AT                       box of the conflict
    T_BATTLE_ROLL, T_ROLL_DONE          index of the roller in ``battle.seats``
    D_WINDOW                            window (``W_*``)                    Flash cards played in it
    D_GAIN                              resources still to take            1: optional (PASS offered)
    D_SPEND, D_DISCARD                  resources / cards still to give
    D_TAKE                              seat robbed                         resources still to take
    D_MOVE                              colour of the Move space
    D_ETHERIZE                          basic cubes paid toward an Ether    Ether made so far
    D_RETREAT                           unit retreating
    D_SPOIL                             seat besieged
    D_GATHER                            most cubes of the level             bonus Ether gathered
    ==================================  ==================================  ===============================

    Other kinds use neither (0).
    """

    kind: int
    player: int
    a: int = 0
    b: int = 0


# ---- agenda task kinds -------------------------------------------------------
# automatic tasks
(T_SETUP, T_SEASON, T_DRAW, T_PROGRAM_START, T_STEP, T_ACT, T_EXEC, T_CONNECT_ROLL, T_CONFLICTS,
 T_CONFLICT_AT, T_BATTLE_ROLL, T_ROLL_DONE, T_BATTLE_RESOLVE, T_SEASON_END, T_END) = range(15)
# decision tasks (>= D_FIRST)
D_FIRST = 20
(D_TRIBE, D_WINDOW, D_GAIN, D_SPEND, D_TAKE, D_DISCARD, D_MEINAS, D_PROGRAM, D_MOVE, D_ETHERIZE, D_CARDS,
 D_ABILITY, D_CONNECT_DICE, D_CONNECT_RESULT, D_TARGET, D_REROLL, D_SPOIL, D_CHOOSE_CONFLICT,
 D_RETREAT, D_GATHER) = range(D_FIRST, D_FIRST + 20)
DECISION_NAMES = ("choose_tribe", "flash_window", "gain_resources", "lose_resources", "steal_resources",
                  "discard_flash", "season_reveal_action", "program", "move", "etherization", "buy_cards",
                  "choose_ability", "connect_dice", "connect_result", "steal_target", "reroll_die",
                  "siege_spoil", "choose_conflict", "retreat", "gather_amount")
NUM_DECISIONS = len(DECISION_NAMES)
# Flash-card windows (ETM-A10)
W_SEASON, W_ACTION, W_CONNECT, W_CONFLICT = range(4)
WINDOW_NAMES = ("phase 3", "before your action", "Connect roll", "conflict roll")
WINDOW_CARDS = (
    tuple(c.card_type for c in C.FLASH_CARDS if c.timing == C.SEASON) + (C.F_RESOURCE,),
    (C.F_RESOURCE,),
    (C.F_PLUS1, C.F_PLUS2, C.F_REROLL, C.F_RESOURCE, C.F_EXTRA_DIE),
    (C.F_PLUS1, C.F_PLUS2, C.F_REROLL, C.F_RESOURCE, C.F_SHIELD, C.F_EXTRA_DIE),
)
WINDOW_CARDS = tuple(tuple(sorted(w)) for w in WINDOW_CARDS)
# season phases (for the observation)
PHASE_NAMES = ("setup", "reveal", "play_flash", "program", "perform", "season_end", "over")
P_SETUP, P_REVEAL, P_PLAY, P_PROGRAM, P_PERFORM, P_SEASON_END, P_OVER = range(7)
