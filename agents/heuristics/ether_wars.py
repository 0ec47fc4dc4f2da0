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

from ether_envs.ether_wars import components as C
from ether_envs.ether_wars import rules as R

_ENC = R.CODEC.encode
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
    k = state.pk
    res = state.res[player]
    pick = None
    if k == R.K_ABILITY:
        pick = _ENC("ABILITY", _ABILITY_BY_FACTION[state.faction[player]])
    elif k == R.K_KEEP:
        pick = _first(legal, [_ENC("KEEP_FAVOUR", f) for f in (C.CANCEL, C.BATTLE_CRY, C.FIELD_MEDIC, C.SMUGGLER,
                                                                 C.SUPPLIES, C.CONTRACT)])
    elif k == R.K_DISCARD:
        pick = _first(legal, [_ENC("DISCARD_FAVOUR", f) for f in (C.CONTRACT, C.SUPPLIES, C.SMUGGLER,
                                                                    C.FIELD_MEDIC, C.BATTLE_CRY, C.CANCEL)])
    elif k == R.K_HIRE:
        pick = _first(legal, [_ENC("HIRE", m) for m in _HIRE_ORDER]) or R.PASS
    elif k == R.K_PLACE:
        pick = _place_area(state, player, legal)
    elif k == R.K_ADD:
        pick = _add_die(state, player, legal)
    elif k == R.K_MOVE:
        pick = R.DONE
    elif k == R.K_FERTILE:
        pick = _first(legal, [_ENC("AREA", C.ETHER_FAULT), _ENC("AREA", C.BIOSPHERE)]) or R.PASS
    elif k in (R.K_THIEF, R.K_RAID, R.K_GAIN, R.K_SMUGGLE_RES):
        pick = _best_resource(legal)
    elif k in (R.K_ASSASSIN, R.K_SMUGGLE_SEAT):
        pick = _first(legal, [_ENC("SEAT", i) for i in (1, 2, 3)])
    elif k == R.K_SHIELD:
        pick = max(legal)
    elif k == R.K_REROLL:
        pick = _first(legal, [_ENC("UNIT_DIE", f) for f in (0, 1, 2)]) or R.DONE
    elif k == R.K_SKILL:
        opp = [a for a in legal_list if a != R.PASS and R.CODEC.decode(a)[0] == "SEAT"]
        dice = [a for a in legal_list if a != R.PASS and R.CODEC.decode(a)[0] == "UNIT_DIE"
                and R.CODEC.decode(a)[1] >= 6]
        pick = (opp[0] if opp else None) or (max(dice, key=lambda a: R.CODEC.decode(a)[1] % 6) if dice else R.PASS)
    elif k == R.K_WINDOW:
        pick = _first(legal, [_ENC("PLAY_FAVOUR", f) for f in _FAVOUR_PLAY] + [R.CHARGE_BOOST]) or R.PASS
    elif k == R.K_RESPONSE:
        top = state.win["stack"][-1] if state.win and state.win["stack"] else None
        pick = _ENC("PLAY_FAVOUR", C.CANCEL) if top and top[0] != player and top[1] != C.CANCEL else R.PASS
    elif k == R.K_MARKET:
        if res[C.PROTEIN] >= 16:
            pick = _first(legal, [_ENC("RESOURCE", C.CRYSTAL), _ENC("RESOURCE", C.PLASMA)])
        pick = pick or _first(legal, [R.MARKET_FAVOUR]) if res[C.CRYSTAL] >= 3 else pick
        pick = pick or R.DONE
    elif k == R.K_PAY:
        target = state.rc["target"]
        if R.DONE in legal:
            pick = R.DONE
        else:
            pick = _first(legal, [_ENC("PAY", r) for r in (C.PROTEIN, C.COLTAN, C.PLASMA, C.CRYSTAL) if r != target])
    elif k == R.K_FACTORY:
        pick = R.CLONE if (R.CLONE in legal and res[C.PROTEIN] >= 12) else R.DONE
    elif k == R.K_CONDUIT:
        pick = R.CONDUIT
    elif k == R.K_END_ETHER:
        pick = R.EXTRA_ETHER
    elif k == R.K_RESOLVE:
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
    return R.PASS


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
    return _first(legal, order) or R.DONE
