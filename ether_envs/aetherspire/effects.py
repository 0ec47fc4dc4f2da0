"""Aetherspire effects: spells, character triggers, floors, spires, bonuses and the
small state changes they are made of. A mixin of :class:`rules.State`.

Rulebook sections are quoted by their headings; assumptions by id (``RULES.md``).
"""

from __future__ import annotations

from bisect import insort

from . import components as C
from .tables import *  # noqa: F401,F403
from .tables import _FV


class Effects:
    """State changes shared by the actions (mixed into ``rules.State``)."""

    def _cast(self, k: int) -> None:
        """Rulebook "Cast a spell" (costs paid first; shards go back to the bag)."""
        up = C.CHARACTERS[self.characters[self.turn_player]].upgrade
        if k == FLOOR_CRAFTING:
            self.queue += [[K_CRAFT_DRAW, 0, 0, 0], [K_PAY, self._craft_cost(), 0, 0]]
            return
        for e in SPELL_COST[k]:
            self._spend_shard(e)
        if k == MUDSLIDE:
            self._roll(4 if up == "mudslide" else 3)
        elif k == ICE_BEAM:
            self.queue.append([K_ICE, -1, 0, 3 if up == "ice_beam" else 2])
        elif k == LAVA_BOMB:
            self.queue.append([K_LAVA, 3 if up == "lava_bomb" else 2, 0, 0])
        else:
            self.queue += [[K_FREE_PILLAR, 2 if up == "firestorm" else 1, -1, 0], [K_FIRE_FROM, 0, 0, 0]]

    def _trigger(self) -> None:
        """Character trigger actions (ASP-A5): cost first, then the effect."""
        ch = C.CHARACTERS[self.characters[self.turn_player]]
        k = ch.trigger
        if k == "pillar":
            self.queue += [[K_FREE_PILLAR, 1, ch.element, 0], [K_DISCARD, 1, 0, 0]]
        elif k == "demolish":
            self.queue += [[K_DESTROY_INV, 1, 0, 0], [K_DEMOLISH, 0, 0, 0]]
        elif k == "mend":
            self.queue += [[K_WALL, 0, 0, 0], [K_DISCARD, 2, 0, 0]]
        elif k == "swap":
            self.queue += [[K_EXCHANGE, 0, 0, 0], [K_DISCARD, 1, 0, 0]]
        else:
            self.queue += [[K_REROLL_ONE, 0, 0, 0], [K_PAY, 1, 0, 0]]

    def _roll(self, k: int) -> None:
        """Roll ``k`` dice from the box: each shows one of its eight faces at random
        (ASP-A1); at most 8 dice are unused at once, extra rolls are lost (ASP-A17)."""
        dice = self.dice
        k = min(k, C.NUM_DICE - sum(dice))
        if k > 0:
            for face in self.rng.integers(0, len(C.DIE_FACES), size=k).tolist():
                dice[C.DIE_FACES[face]] += 1

    def _to_bag(self, e: int) -> None:
        """Return an invader to the bag at a random place (its order stays hidden)."""
        self.bag.insert(int(self.rng.integers(len(self.bag) + 1)), e)

    def _spend_shard(self, e: int) -> None:
        self.shards[e] -= 1
        self._to_bag(e)

    def _tile_changed(self, t: int) -> None:
        """Something on floor tile ``t`` changed: fresh fortress and tile stamps."""
        self._tv[t] = self._fv = next(_FV)

    def _own_fortress(self) -> None:
        """Copy the fortress lists a clone may share (``State.clone``) before a change,
        with the ``_fort()`` list (updated in place by ``_fort_space``)."""
        self.pillar = self.pillar[:]
        self.invader = self.invader[:]
        self.room_tile = self.room_tile[:]
        self._shared = False
        fc = self._fcache
        if fc is not None:
            b, free = fc[3], fc[7][:]
            self._fcache = [fc[0], fc[1], fc[2][:], [b[0][:], b[1][:], b[2][:]], free if fc[4] is fc[7] else [],
                            fc[5], fc[6], free]

    def _set_invader(self, s: int, e: int) -> None:
        """Put an invader of element ``e`` (-1: none) on space ``s``; then ``_space_changed``."""
        if self._shared:
            self._own_fortress()
        self.invader[s] = e
        self._space_changed(s)

    def _set_pillar(self, s: int, v: int) -> None:
        """Put (1) or remove (0) the pillar on space ``s``; then ``_space_changed``."""
        if self._shared:
            self._own_fortress()
        self.pillar[s] = v
        self._space_changed(s)

    def _space_changed(self, s: int) -> None:
        """After a change of space ``s``: fresh fortress and tile stamps, and the ``_fort()``
        list, if it was up to date, updated (``_fort_space``; the pillar spaces on offer, as
        ``pillars_used`` now allows; while a spire top candidate stands, its spire options,
        which read whole spires, anew)."""
        fc = self._fcache
        cur = fc is not None and fc[0] == self._fv
        self._tv[s >> 3] = self._fv = fv = next(_FV)  # s // C.MAX_SPACES
        if cur:
            self._fort_space(fc, s)
            fc[4] = fc[7] if self.pillars_used < C.NUM_PILLARS else []  # (pillars_used already counted)
            fc[0] = fv
            tops = self._scache[3]
            if tops:
                fc[5] = self._spire_options(tops)  # a new list (a clone may share the old one)

    def _crystallize(self, s: int) -> None:
        self.shards[self.invader[s]] += 1
        self._set_invader(s, -1)

    def _destroy_invader(self, s: int) -> None:
        self._to_bag(self.invader[s])
        self._set_invader(s, -1)

    def _add_pillar(self, s: int) -> None:
        self.pillars_used += 1  # before the change: _fort_space reads it
        self._set_pillar(s, 1)

    def _draw_tile(self, size: int) -> int:
        st = self.stacks[size]
        t = st.pop(0)
        if self.stack_known[size] > len(st):
            self.stack_known[size] = len(st)
        return t

    def _draw_to_reserve(self, size: int, multi: bool) -> None:
        if not self.stacks[size]:
            return
        t = self._draw_tile(size)
        self.side[t] = 1 if multi else 0
        insort(self.reserve, t)
        self._bv = next(_FV)

    def _exchange(self, t: int) -> None:
        """Rulebook "Supply step" 1: discard a reserve tile to the bottom of its stack,
        draw a new one of the same size, standard side up."""
        size = TILE_SIZE[t]
        self.reserve.remove(t)
        self.side[t] = 0
        self._bv = next(_FV)
        self.stacks[size].append(t)
        self.stack_known[size] += 1
        self._draw_to_reserve(size, False)

    def _place_floor(self, t: int, where: int) -> None:
        """Build floor ``t`` on foundation (``where = -2 - f``) or room slot ``where``;
        then its placement effect and the active character's passives."""
        if t in self.reserve:
            self.reserve.remove(t)
            self._bv = next(_FV)  # the reserve as the encoder shows it
        if where <= -2:
            f = -2 - where
            self.found_tile[f] = t
            self.level[t] = 1
        else:
            if self._shared:
                self._own_fortress()
            self.room_tile[where] = t
            self.level[t] = self.level[where // C.MAX_ROOMS] + 1
            self._tile_changed(where // C.MAX_ROOMS)  # its room is covered
        self._tile_changed(t)
        self._sv = next(_FV)
        self.base_of[t] = where
        if self.phase != BUILD:
            return
        sd = self.side[t]
        eff = TILE_EFFECT[t] if sd == 0 else ""
        if eff == "tailwind":
            self._roll(2)
        elif eff == "magma_eruption":
            for s in self.invader_spaces()[:]:  # (a list that each destruction updates)
                self._destroy_invader(s)
        elif eff == "bedrock":
            self.queue.append([K_FREE_PILLAR, 2, -1, 0])
        elif eff == "frozen_tide":
            self.queue.append([K_CRYSTAL, 2, 0, 0])
        ch = C.CHARACTERS[self.characters[self.turn_player]]
        if sd == 0 and TILE_ELEMENTS[t][0] >> ch.element & 1:
            if ch.passive == "die_on_floor":
                self._roll(1)
            elif ch.passive == "shard_on_floor" and self.bag:
                self.shards[self.bag.pop()] += 1

    def _complete_spire(self, top: int, e: int, room: int) -> None:
        """Rulebook "Completing a Spire Summary": the topper on floor ``top``, in its
        small room footprint ``room`` (a room slot; that room closes, ASP-A13); defeat
        the fiend (4th: win), gain a bonus, diminish the element; adaptation completed
        sides (difficulty 1 text)."""
        a = self.adaptation[e]
        key = C.ADAPTATIONS[a].key if a >= 0 else ""
        for t in self.spire_floors(top, e):
            self.spire_of[t] = e
            self._tile_changed(t)
        self.topped[top] = e
        self.topper_room[top] = room
        self._tile_changed(top)
        self._sv = next(_FV)
        self.defeated[e] = True
        self.awake[e] = False
        self._bv = next(_FV)  # the fiends as the encoder shows them
        if self.spires() == 4:
            self.outcome = 1
            self.queue = []
            self.phase = OVER
            return
        if a >= 0:
            self.adapted_done[e] = True
            if key == "stable":
                self.cores = min(C.MAX_CORES, self.cores + 1)
            elif key == "towering":
                self.track = max(0, self.track - 1)
            elif key == "guarded":
                for w in self._restorable_walls():
                    self.walls[w] = True
        self.queue += [[K_DIMINISH_AUTO, e, 0, 0], [K_BONUS, 0, 0, 0]]

    def _bonus(self, b: int) -> None:
        """Spire completion bonus tokens (ASP-A9)."""
        self.bonus_used[b] = True
        self._bv = next(_FV)
        key = C.BONUSES[b][0]
        if key == "core":
            self.cores = min(C.MAX_CORES, self.cores + 1)
        elif key == "walls":
            for w in self._restorable_walls():
                self.walls[w] = True
        elif key == "delay":
            self.track = max(0, self.track - 2)  # awake fiends stay awake (ASP-A19)
        else:
            self.queue += [[K_CRYSTAL, 2, 0, 0], [K_BONUS_DRAW, 0, 0, 0], [K_BONUS_DRAW, 0, 0, 0]]

    def _diminish_bag(self, e: int) -> None:
        """Remove 5 invaders of ``e`` from the bag; the rest from the fortress/wheel (a choice)."""
        took = 0
        while took < C.DIMINISH and e in self.bag:
            self.bag.remove(e)
            took += 1
        self.aside[e] += took
        if took < C.DIMINISH:
            self.queue.append([K_DIMINISH, e, C.DIMINISH - took, 0])
