"""A rule-based Aetherspire agent for baselines.

``heuristic_action(state, player, rng)`` returns one legal action id. It reads only
what every player sees (the fortress, reserve, dice, shards, walls, track, the
face-up fiends); never the order of the bag or of the tile stacks, nor a dormant
fiend's hidden level.

Plan: grow stacks of floors of one element (cheapest: small floors on small
rooms), pay pillars with element dice before star dice, build a floor whenever it
extends the longest same-element stack, complete every spire at once, and spend
shards on spells that clear invaders from rooms it wants to build on.
"""

from __future__ import annotations

import numpy as np

from ether_envs.aetherspire import codec as K
from ether_envs.aetherspire import components as C

_BONUS_ORDER = ("delay", "core", "walls", "supply")


def _chain_mask(s, tile: int) -> tuple[int, int]:
    """(element mask shared by the free floors from ``tile`` down, their count, max 4)."""
    mask, depth, t = C.MULTI, 0, tile
    while t >= 0 and depth < 4 and s.spire_of[t] < 0:
        m = mask & C.TILE_ELEMENTS[t][s.side[t]]
        if not m:
            break
        mask, depth = m, depth + 1
        b = s.base_of[t]
        t = b // C.MAX_ROOMS if b >= 0 else -1
    return mask, depth


def _target_score(s, tile: int, target: int) -> float:
    """How good building ``tile`` on ``target`` (FOUNDATION/ROOM action id) is."""
    tmask = C.TILE_ELEMENTS[tile][s.side[tile]]
    if target < K.ROOM0:
        return 1.0 + 0.1 * (C.TILES[tile].size == C.LARGE)
    below = (target - K.ROOM0) // C.MAX_ROOMS
    mask, depth = _chain_mask(s, below)
    if mask & tmask and not any(s.defeated[e] for e in range(4) if (mask & tmask) == 1 << e):
        return 2.0 + depth + 0.5 * (C.TILES[tile].size == C.SMALL)
    return 0.5


def _room_value(s, slot: int) -> float:
    """Pillars wanted in room ``slot``: rooms that would extend a long stack with a
    reserve tile of matching size and element, nearly complete rooms first."""
    t = slot // C.MAX_ROOMS
    _slot, size, rmask, spaces = C.ROOMS[s.side[t]][slot]
    mask, depth = _chain_mask(s, t)
    fit = any(C.TILES[u].size == size and C.TILE_ELEMENTS[u][s.side[u]] & mask for u in s.reserve)
    done = sum(s.pillar[q] for q in spaces) / max(1, len(spaces))
    return depth + 2.0 * fit + done + (0.5 if size == C.SMALL else 0.0)


def _multi_spaces(s) -> int:
    """Free spaces (no invader) in open multi rooms, plus multi tiles in the reserve x 4."""
    n = 4 * sum(s.side[t] for t in s.reserve)
    for q in s.open_spaces():
        t = q // C.MAX_SPACES
        if s.invader[q] < 0 and C.ROOMS[s.side[t]][C.ROOM_OF[s.side[t]][q]].elements == C.MULTI:
            n += 1
    return n


def _best(actions, key, rng):
    best = max(key(x) for x in actions)
    top = [x for x in actions if key(x) == best]
    return int(top[rng.integers(len(top))])


def heuristic_action(state, player: int, rng: np.random.Generator) -> int:
    """A legal action for ``player`` (who must be the player to act).

    Raises:
        ValueError: ``player`` is not to act or the game is over.
    """
    s = state
    legal = s.legal_actions(player)
    if not legal:
        raise ValueError(f"player {player} has no legal action here")
    if len(legal) == 1:
        return legal[0]
    dec = K.CODEC.decode
    by = {}
    for x in legal:
        by.setdefault(dec(x)[0], []).append(x)
    step = s.queue[-1][0] if s.queue else -1

    # ---- pending choices ------------------------------------------------------------
    if step in (K.K_SUPPLY_DRAW, K.K_CRAFT_DRAW, K.K_BONUS_DRAW):
        # fill the three foundations first (room for invaders), then small floors
        empty = sum(f < 0 for f in s.found_tile) - sum(C.TILES[t].size == C.LARGE for t in s.reserve)
        want = C.LARGE if empty > 0 else C.SMALL
        multi = step == K.K_BONUS_DRAW or (step == K.K_CRAFT_DRAW and _multi_spaces(s) < 4)
        pool = by.get("DRAW_MULTI", []) if multi else by.get("DRAW", [])
        pool = pool or legal
        return _best(pool, lambda x: -abs(dec(x)[1] - want), rng)
    if step == K.K_EXCHANGE:
        return K.PASS if K.PASS in legal else legal[0]
    if step == K.K_DICE or step == K.K_DISCARD or step == K.K_REROLL_ONE:
        # keep star dice: use element dice first (discard: the least useful face)
        return _best(legal, lambda x: -(dec(x)[1] == C.STAR), rng)
    if step == K.K_PAY:
        return _best(legal, lambda x: s.shards[dec(x)[1]], rng)
    if step == K.K_TARGET:
        tile = s.queue[-1][1]
        return _best(legal, lambda x: _target_score(s, tile, x), rng)
    if step == K.K_BONUS:
        return _best(legal, lambda x: -_BONUS_ORDER.index(C.BONUSES[dec(x)[1]].key), rng)
    if step in (K.K_FREE_PILLAR,):
        return _best(legal, lambda x: _room_value(s, C.ROOM_OF[s.side[dec(x)[1] // 8]][dec(x)[1]]), rng)
    if step in (K.K_LAVA, K.K_ICE, K.K_CRYSTAL, K.K_DESTROY_INV, K.K_FIRE_FROM):
        spaces = by.get("SPACE", [])
        if not spaces:
            return legal[0]
        return _best(spaces, lambda x: _room_value(s, C.ROOM_OF[s.side[dec(x)[1] // 8]][dec(x)[1]]), rng)
    if step == K.K_FIRE_TO or step == K.K_INV_SPACE or step == K.K_SETUP_INV:
        # send invaders where they hurt least
        return _best(legal, lambda x: -_room_value(s, C.ROOM_OF[s.side[dec(x)[1] // 8]][dec(x)[1]]), rng)
    if step == K.K_DEMOLISH:
        return _best(legal, lambda x: -_room_value(s, C.ROOM_OF[s.side[dec(x)[1] // 8]][dec(x)[1]]), rng)
    if step == K.K_TOPPER:  # the topper closes its room: the room least wanted for pillars
        return _best(legal, lambda x: -_room_value(s, dec(x)[1]), rng)
    if step == K.K_DIMINISH:
        return by["SHARD"][0] if "SHARD" in by else legal[0]
    if step == K.K_REROLL:
        return K.ROLL
    if step >= 0:
        return int(legal[rng.integers(len(legal))])

    # ---- the build step's main choice -----------------------------------------------
    if "SPIRE" in by:
        return by["SPIRE"][0]
    if "BUILD" in by:
        if any(f < 0 for f in s.found_tile):
            large = [x for x in by["BUILD"] if C.TILES[dec(x)[1]].size == C.LARGE]
            if large:
                return large[0]
        best, best_score = None, 1.5
        rooms = s.buildable_rooms()
        for x in by["BUILD"]:
            t = dec(x)[1]
            for tgt in s._floor_targets(t, rooms):
                sc = _target_score(s, t, tgt)
                if sc > best_score:
                    best, best_score = x, sc
        if best is not None:
            return best
    spells = {dec(x)[1]: x for x in by.get("SPELL", [])}
    if C.FLOOR_CRAFTING in spells and sum(s.shards) >= 3 and _multi_spaces(s) < 4:
        return spells[C.FLOOR_CRAFTING]  # a multi floor takes invaders of every element
    if C.LAVA_BOMB in spells:
        return spells[C.LAVA_BOMB]
    if C.ICE_BEAM in spells:
        return spells[C.ICE_BEAM]
    if "SPACE" in by:
        return _best(by["SPACE"], lambda x: _room_value(s, C.ROOM_OF[s.side[dec(x)[1] // 8]][dec(x)[1]]), rng)
    if "FREE_PILLAR" in by:
        return by["FREE_PILLAR"][0]
    if "TRIGGER" in by and s.character().trigger in ("pillar", "mend", "gust"):
        return K.TRIGGER
    if C.MUDSLIDE in spells:
        return spells[C.MUDSLIDE]
    if C.FIRESTORM in spells and s.pillar_spaces():
        return spells[C.FIRESTORM]
    if C.FLOOR_CRAFTING in spells and len(s.reserve) < 4:
        return spells[C.FLOOR_CRAFTING]
    if "REROLL" in by and sum(s.dice) >= 2:
        # reroll element dice that fit no available space
        return by["REROLL"][0]
    return K.END_BUILD
