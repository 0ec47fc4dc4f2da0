"""A rule-of-thumb Etherium player for baselines.

``heuristic_action(state, player, rng)`` returns a legal action id for the
player to act. It reads only what ``player`` may see: the public board,
resources, levels, tokens and dice, its own Flash hand and its own program
(never another hand, the deck or an unrevealed program).

Plan: send the Gatherer to the Ether terrain and gather there, upgrade it,
turn Ether into Boosters (more Action tokens, the Booster token), keep some
Connects, pillage with the Soldier when an enemy Gatherer is in reach, and
play the Flash cards that help right now.
"""

from __future__ import annotations

import numpy as np

from ether_envs.etherium import components as C
from ether_envs.etherium import rules as R

_CONNECT_VALUE = {1: 0, 2: 1, 3: 1, 4: 3, 5: 4, 6: 5, 7: 6, 8: 7, 9: 5, 10: 6, 11: 8, 12: 10}
_SPOIL_PREFERENCE = (1, 0, 3, 2)  # Booster, 2 Ether, reduce the Guide, 4 basic
_ABILITY_PREFERENCE = (C.A_HARVESTER, C.A_WARLORD, C.A_ORACLE, C.A_RESOURCE, C.A_PATHFINDER, C.A_BASTION,
                       C.A_ARCHIVIST)
_ROLL_CARDS = (C.F_PLUS2, C.F_PLUS1, C.F_EXTRA_DIE, C.F_SHIELD)
_SEASON_CARDS = (C.S_ETHER, C.S_TWO_RESOURCES, C.S_INSIGHT, C.S_HARVEST, C.S_CRAFT, C.S_MARCH, C.F_RESOURCE)


def heuristic_action(state, player: int, rng: np.random.Generator) -> int:
    """A legal action for ``player`` (who must be the player to act).

    Raises:
        ValueError: ``player`` is not the player to act, or the game is over.
    """
    legal = state.legal_actions()
    if not legal or state.current_player() != player:
        raise ValueError(f"player {player} is not to act")
    if len(legal) == 1:
        return legal[0]
    kind = state.decision()
    pick = _CHOOSERS.get(kind)
    a = pick(state, player, legal) if pick else None
    if a is None or a not in legal:
        a = legal[int(rng.integers(len(legal)))]
    return int(a)


def _first(preferred, legal):
    s = set(legal)
    return next((a for a in preferred if a in s), None)


def _by_resource(state, player, legal, base, most=True, of=None):
    res = state.res[player if of is None else of]
    opts = [a for a in legal if base <= a < base + 3]
    if not opts:
        return None
    key = (lambda a: res[a - base]) if most else (lambda a: -res[a - base])
    return max(opts, key=key)


def _program(state, p, legal):
    terrain = C.BOX_TERRAIN[state.pos[p][C.GATHERER]]
    sp = lambda action, arg: R.PROGRAM0 + C.SPACES.index((action, arg))  # noqa: E731
    res = state.res[p]
    prefs = []
    if terrain != C.CITY:
        prefs.append(sp(C.GATHER, terrain))
    if res[C.ETHER] >= 3:
        prefs.append(sp(C.TRANSFORM, C.BOOSTER_T))
    if terrain != C.ETHER_TERRAIN:
        prefs += [sp(C.MOVE, 3), sp(C.GATHER, C.ETHER_TERRAIN)]
    if sum(res[:3]) >= state.etherization_rate(p):
        prefs.append(sp(C.TRANSFORM, C.ETHERIZATION))
    prefs += [sp(C.UPGRADE, C.GATHERER), sp(C.CONNECT, 0), sp(C.MOVE, 2), sp(C.UPGRADE, C.GUIDE),
              sp(C.TRANSFORM, C.ABILITY), sp(C.UPGRADE, C.SOLDIER), sp(C.CONNECT, 1), sp(C.GATHER, C.MINE)]
    return _first(prefs, legal)


def _move(state, p, legal):
    enemy_gatherers = {state.pos[q][C.GATHERER] for q in range(state.num_players) if q != p}
    best = None
    for a in legal:
        u, box = divmod(a - R.MOVE0, C.NUM_BOXES)
        score = 0
        if u == C.GATHERER and box == C.ETHER_BOX:
            score = 3
        elif u == C.SOLDIER and box in enemy_gatherers:
            score = 2
        elif u == C.GATHERER:
            score = 1
        if best is None or score > best[0]:
            best = (score, a)
    return best[1]


def _window(state, p, legal):
    wk = state.stack[-1].a
    h = state.hand[p]
    if wk == R.W_SEASON or wk == R.W_ACTION:
        return _first([R.FLASH0 + c for c in _SEASON_CARDS if h[c]], legal) or R.PASS
    low = [R.REROLL0 + f - 1 for f in (1, 2)]
    a = _first(low, legal)
    if a is not None:
        return a
    if R.USE_ABILITY in legal:
        return R.USE_ABILITY
    if wk == R.W_CONFLICT:
        return _first([R.FLASH0 + c for c in _ROLL_CARDS], legal) or R.PASS
    return R.PASS


def _connect_result(state, p, legal):
    return max(legal, key=lambda a: _CONNECT_VALUE[a - R.RESULT0 + 1])


def _target(state, p, legal):
    n = state.num_players
    return max(legal, key=lambda a: sum(state.res[(p + a - R.TARGET0 + 1) % n][:3]))


def _discard(state, p, legal):
    h = state.hand[p]
    return max(legal, key=lambda a: h[a - R.DISCARD0])


_CHOOSERS = {
    R.D_PROGRAM: _program,
    R.D_MOVE: _move,
    R.D_WINDOW: _window,
    R.D_GAIN: lambda s, p, legal: _by_resource(s, p, legal, R.GAIN0, most=False),
    R.D_SPEND: lambda s, p, legal: _by_resource(s, p, legal, R.SPEND0, most=True),
    R.D_ETHERIZE: lambda s, p, legal: _by_resource(s, p, legal, R.SPEND0, most=True),
    R.D_TAKE: lambda s, p, legal: _by_resource(s, p, legal, R.TAKE0, most=True, of=s.stack[-1].a),
    R.D_DISCARD: _discard,
    R.D_MEINAS: lambda s, p, legal: R.PASS,
    R.D_CARDS: lambda s, p, legal: legal[0],
    R.D_ABILITY: lambda s, p, legal: _first([R.ABILITY0 + a for a in _ABILITY_PREFERENCE], legal),
    R.D_CONNECT_DICE: lambda s, p, legal: legal[-1],
    R.D_CONNECT_RESULT: _connect_result,
    R.D_TARGET: _target,
    R.D_REROLL: lambda s, p, legal: legal[0],
    R.D_SPOIL: lambda s, p, legal: _first([R.SPOIL0 + k for k in _SPOIL_PREFERENCE], legal),
    R.D_GATHER: lambda s, p, legal: max(legal),  # the full level (the largest CHOOSE_COUNT)
}
