"""A rule-based Ether Wars agent for baselines.

``heuristic_action(state, player, rng)`` returns one of ``state.legal_actions()``.
It reads only what ``player`` may see: the legal actions, the public board and
resources, its own hand, and the public favour stack (never the other hands,
the decks or ability cards not yet revealed).

Plan each round: choose a combat/extraction ability card, hire a Captain or a
Drone when affordable, contest the Ether Fault with the Hero and a few Units
(and the Ether die), feed the economy from the Biosphere when Protein is short,
otherwise extract from the Limited areas; clone when Protein is plentiful;
shield as many Units as possible; take the most valuable resources.
"""

from __future__ import annotations

import numpy as np

from ether_envs.ether_wars import codec
from ether_envs.ether_wars import components as C

_ENC = codec.CODEC.encode
_VALUE_ORDER = (C.ETHER, C.CRYSTAL, C.PLASMA, C.COLTAN, C.PROTEIN)
_ABILITY_BY_FACTION = {C.HUMAN: 3, C.DRACON: 1, C.VAI: 2, C.RIPPER: 0}  # Commander, Hungry, Overclock, Harvest
_HIRE_ORDER = (C.CAPTAIN, C.DRONE, C.PRIESTESS, C.DEFENDER)
_FAVOUR_PLAY = (C.BATTLE_CRY, C.FIELD_MEDIC, C.CONTRACT, C.SUPPLIES, C.SMUGGLER)


def _first(legal: set, candidates) -> int | None:
    for a in candidates:
        if a in legal:
            return a
    return None


def _best_resource(legal: set) -> int | None:
    return _first(legal, [_ENC("RESOURCE", r) for r in _VALUE_ORDER])


def heuristic_action(state, player: int, rng: np.random.Generator) -> int:
    """A legal action for ``player`` (who must be the player to act).

    Raises:
        ValueError: ``player`` is not the player to act.
    """
    if state.current_player() != player:
        raise ValueError(f"player {player} is not to act (current player {state.current_player()})")
    legal_list = state.legal_actions()
    legal = set(legal_list)
    k = state.decision
    res = state.res[player]
    pick = None
    if k == codec.K_ABILITY:
        pick = _ENC("ABILITY", _ABILITY_BY_FACTION[state.faction[player]])
    elif k == codec.K_KEEP:
        pick = _first(legal, [_ENC("KEEP_FAVOUR", f) for f in (C.CANCEL, C.BATTLE_CRY, C.FIELD_MEDIC, C.SMUGGLER,
                                                                 C.SUPPLIES, C.CONTRACT)])
    elif k == codec.K_DISCARD:
        pick = _first(legal, [_ENC("DISCARD_FAVOUR", f) for f in (C.CONTRACT, C.SUPPLIES, C.SMUGGLER,
                                                                    C.FIELD_MEDIC, C.BATTLE_CRY, C.CANCEL)])
    elif k == codec.K_HIRE:
        pick = _first(legal, [_ENC("HIRE", m) for m in _HIRE_ORDER]) or codec.PASS
    elif k == codec.K_PLACE:
        pick = _place_area(state, player, legal)
    elif k == codec.K_ADD:
        pick = _add_die(state, player, legal)
    elif k == codec.K_MOVE:
        pick = codec.DONE
    elif k == codec.K_FERTILE:
        pick = _first(legal, [_ENC("AREA", C.ETHER_FAULT), _ENC("AREA", C.BIOSPHERE)]) or codec.PASS
    elif k in (codec.K_THIEF, codec.K_RAID, codec.K_GAIN, codec.K_SMUGGLE_RES):
        pick = _best_resource(legal)
    elif k in (codec.K_ASSASSIN, codec.K_SMUGGLE_SEAT):
        pick = _first(legal, [_ENC("SEAT", i) for i in (1, 2, 3)])
    elif k == codec.K_SHIELD:
        pick = max(legal)
    elif k == codec.K_REROLL:
        pick = _first(legal, [_ENC("UNIT_DIE", f) for f in (0, 1, 2)]) or codec.DONE
    elif k == codec.K_SKILL:
        opp = [a for a in legal_list if a != codec.PASS and codec.CODEC.decode(a)[0] == "SEAT"]
        dice = [a for a in legal_list if a != codec.PASS and codec.CODEC.decode(a)[0] == "UNIT_DIE"
                and codec.CODEC.decode(a)[1] >= 6]
        pick = (opp[0] if opp else None) or (max(dice, key=lambda a: codec.CODEC.decode(a)[1] % 6) if dice
                                              else codec.PASS)
    elif k == codec.K_WINDOW:
        pick = _first(legal, [_ENC("PLAY_FAVOUR", f) for f in _FAVOUR_PLAY] + [codec.CHARGE_BOOST]) or codec.PASS
    elif k == codec.K_RESPONSE:
        top = state.window.stack[-1] if state.window and state.window.stack else None
        pick = (_ENC("PLAY_FAVOUR", C.CANCEL) if top and top.seat != player and top.favour != C.CANCEL
                else codec.PASS)
    elif k == codec.K_MARKET:
        if res[C.PROTEIN] >= 16:
            pick = _first(legal, [_ENC("RESOURCE", C.CRYSTAL), _ENC("RESOURCE", C.PLASMA)])
        pick = pick or _first(legal, [codec.MARKET_FAVOUR]) if res[C.CRYSTAL] >= 3 else pick
        pick = pick or codec.DONE
    elif k == codec.K_PAY:
        target = state.resolving.purchase_target
        if codec.DONE in legal:
            pick = codec.DONE
        else:
            pick = _first(legal, [_ENC("PAY", r) for r in (C.PROTEIN, C.COLTAN, C.PLASMA, C.CRYSTAL) if r != target])
    elif k == codec.K_FACTORY:
        pick = codec.CLONE if (codec.CLONE in legal and res[C.PROTEIN] >= 12) else codec.DONE
    elif k == codec.K_CONDUIT:
        pick = codec.CONDUIT
    elif k == codec.K_END_ETHER:
        pick = codec.EXTRA_ETHER
    elif k == codec.K_RESOLVE:
        pick = legal_list[0]
    if pick is None or pick not in legal:
        pick = legal_list[int(rng.integers(len(legal_list)))]
    return int(pick)


def _place_area(state, player: int, legal: set) -> int:
    res = state.res[player]
    areas = []
    if state.home_units[player] >= 2 or state.hero_at[player] < 0:
        areas.append(C.ETHER_FAULT)
    if res[C.PROTEIN] < 14 + state.home_units[player]:
        areas.append(C.BIOSPHERE)
    if res[C.PROTEIN] >= 14 and state.reserve[player] > 0:
        areas.append(C.FACTORY)
    areas += [C.CRYSTAL_SEA, C.PLASMA_CHASM, C.COLTAN_MINE, C.BIOSPHERE]
    for a in areas:
        act = _ENC("AREA", state.rel_area(player, a))
        if act in legal:
            return act
    return codec.PASS


def _add_die(state, player: int, legal: set) -> int:
    area = state.add_area
    added = state.add_count
    if area == C.ETHER_FAULT:
        order = [_ENC("ADD_DIE", 1), _ENC("ADD_DIE", 3), _ENC("ADD_DIE", 2)]
        if added < 4:
            order.append(_ENC("ADD_DIE", 0))
    elif area in (C.MARKET, C.FACTORY):
        order = [_ENC("ADD_DIE", 0)]
    else:
        order = [_ENC("ADD_DIE", 2)] + ([_ENC("ADD_DIE", 0)] if added < 2 else [])
    return _first(legal, order) or codec.DONE
