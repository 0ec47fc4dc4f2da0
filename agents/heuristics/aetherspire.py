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

from ether_envs.aetherspire import components as C
from ether_envs.aetherspire import rules as R

_BONUS_ORDER = ("delay", "core", "walls", "supply")


def _chain_mask(s, tile: int) -> tuple[int, int]:
    """(element mask shared by the free floors from ``tile`` down, their count, max 4)."""
    mask, depth, t = C.MULTI, 0, tile
    while t >= 0 and depth < 4 and s.spire_of[t] < 0:
        m = mask & R.TILE_ELEMENTS[t][s.side[t]]
        if not m:
            break
        mask, depth = m, depth + 1
        b = s.base_of[t]
        t = b // C.MAX_ROOMS if b >= 0 else -1
    return mask, depth


def _target_score(s, tile: int, target: int) -> float:
    """How good building ``tile`` on ``target`` (FOUNDATION/ROOM action id) is."""
    tmask = R.TILE_ELEMENTS[tile][s.side[tile]]
    if target < R.ROOM0:
        return 1.0 + 0.1 * (C.TILES[tile].size == C.LARGE)
    below = (target - R.ROOM0) // C.MAX_ROOMS
    mask, depth = _chain_mask(s, below)
    if mask & tmask and not any(s.defeated[e] for e in range(4) if (mask & tmask) == 1 << e):
        return 2.0 + depth + 0.5 * (C.TILES[tile].size == C.SMALL)
    return 0.5


def _room_value(s, slot: int) -> float:
    """Pillars wanted in room ``slot``: rooms that would extend a long stack with a
    reserve tile of matching size and element, nearly complete rooms first."""
    t = slot // C.MAX_ROOMS
    size, rmask, spaces = R.ROOMS[s.side[t]][slot]
    mask, depth = _chain_mask(s, t)
    fit = any(C.TILES[u].size == size and R.TILE_ELEMENTS[u][s.side[u]] & mask for u in s.reserve)
    done = sum(s.pillar[q] for q in spaces) / max(1, len(spaces))
    return depth + 2.0 * fit + done + (0.5 if size == C.SMALL else 0.0)


def _multi_spaces(s) -> int:
    """Free spaces (no invader) in open multi rooms, plus multi tiles in the reserve x 4."""
    n = 4 * sum(s.side[t] for t in s.reserve)
    for q in s.open_spaces():
        t = q // C.MAX_SPACES
        if s.invader[q] < 0 and R.ROOMS[s.side[t]][R.ROOM_OF[s.side[t]][q]][1] == C.MULTI:
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
    dec = R.CODEC.decode
    by = {}
    for x in legal:
        by.setdefault(dec(x)[0], []).append(x)
    step = s.queue[-1][0] if s.queue else -1

    # ---- pending choices ------------------------------------------------------------
    if step in (R.K_SUPPLY_DRAW, R.K_CRAFT_DRAW, R.K_BONUS_DRAW):
        # fill the three foundations first (room for invaders), then small floors
        empty = sum(f < 0 for f in s.found_tile) - sum(C.TILES[t].size == C.LARGE for t in s.reserve)
        want = C.LARGE if empty > 0 else C.SMALL
        multi = step == R.K_BONUS_DRAW or (step == R.K_CRAFT_DRAW and _multi_spaces(s) < 4)
        pool = by.get("DRAW_MULTI", []) if multi else by.get("DRAW", [])
        pool = pool or legal
        return _best(pool, lambda x: -abs(dec(x)[1] - want), rng)
    if step == R.K_EXCHANGE:
        return R.PASS if R.PASS in legal else legal[0]
    if step == R.K_DICE or step == R.K_DISCARD or step == R.K_REROLL_ONE:
        # keep star dice: use element dice first (discard: the least useful face)
        return _best(legal, lambda x: -(dec(x)[1] == C.STAR), rng)
    if step == R.K_PAY:
        return _best(legal, lambda x: s.shards[dec(x)[1]], rng)
    if step == R.K_TARGET:
        tile = s.queue[-1][1]
        return _best(legal, lambda x: _target_score(s, tile, x), rng)
    if step == R.K_BONUS:
        return _best(legal, lambda x: -_BONUS_ORDER.index(C.BONUSES[dec(x)[1]][0]), rng)
    if step in (R.K_FREE_PILLAR,):
        return _best(legal, lambda x: _room_value(s, R.ROOM_OF[s.side[dec(x)[1] // 8]][dec(x)[1]]), rng)
    if step in (R.K_LAVA, R.K_ICE, R.K_CRYSTAL, R.K_DESTROY_INV, R.K_FIRE_FROM):
        spaces = by.get("SPACE", [])
        if not spaces:
            return legal[0]
        return _best(spaces, lambda x: _room_value(s, R.ROOM_OF[s.side[dec(x)[1] // 8]][dec(x)[1]]), rng)
    if step == R.K_FIRE_TO or step == R.K_INV_SPACE or step == R.K_SETUP_INV:
        # send invaders where they hurt least
        return _best(legal, lambda x: -_room_value(s, R.ROOM_OF[s.side[dec(x)[1] // 8]][dec(x)[1]]), rng)
    if step == R.K_DEMOLISH:
        return _best(legal, lambda x: -_room_value(s, R.ROOM_OF[s.side[dec(x)[1] // 8]][dec(x)[1]]), rng)
    if step == R.K_TOPPER:  # the topper closes its room: the room least wanted for pillars
        return _best(legal, lambda x: -_room_value(s, dec(x)[1]), rng)
    if step == R.K_DIMINISH:
        return by["SHARD"][0] if "SHARD" in by else legal[0]
    if step == R.K_REROLL:
        return R.ROLL
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
        rooms = s._buildable_rooms()
        for x in by["BUILD"]:
            t = dec(x)[1]
            for tgt in s._floor_targets(t, rooms):
                sc = _target_score(s, t, tgt)
                if sc > best_score:
                    best, best_score = x, sc
        if best is not None:
            return best
    spells = {dec(x)[1]: x for x in by.get("SPELL", [])}
    if R.FLOOR_CRAFTING in spells and sum(s.shards) >= 3 and _multi_spaces(s) < 4:
        return spells[R.FLOOR_CRAFTING]  # a multi floor takes invaders of every element
    if R.LAVA_BOMB in spells:
        return spells[R.LAVA_BOMB]
    if R.ICE_BEAM in spells:
        return spells[R.ICE_BEAM]
    if "SPACE" in by:
        return _best(by["SPACE"], lambda x: _room_value(s, R.ROOM_OF[s.side[dec(x)[1] // 8]][dec(x)[1]]), rng)
    if "FREE_PILLAR" in by:
        return by["FREE_PILLAR"][0]
    if "TRIGGER" in by and s.character().trigger in ("pillar", "mend", "gust"):
        return R.TRIGGER
    if R.MUDSLIDE in spells:
        return spells[R.MUDSLIDE]
    if R.FIRESTORM in spells and s.pillar_spaces():
        return spells[R.FIRESTORM]
    if R.FLOOR_CRAFTING in spells and len(s.reserve) < 4:
        return spells[R.FLOOR_CRAFTING]
    if "REROLL" in by and sum(s.dice) >= 2:
        # reroll element dice that fit no available space
        return by["REROLL"][0]
    return R.END_BUILD
