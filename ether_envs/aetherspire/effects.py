"""Aetherspire effects: spells, character triggers, floors, spires, bonuses and the
small state changes they are made of; the mixin :class:`EffectRules` of ``rules.State``.

Rulebook sections are quoted by their headings; assumptions by id (``RULES.md``).
"""

from __future__ import annotations

from bisect import insort

from . import components as C
from .codec import (BUILD, K_BONUS, K_BONUS_DRAW, K_CRAFT_DRAW, K_CRYSTAL, K_DEMOLISH, K_DESTROY_INV,
                    K_DIMINISH, K_DIMINISH_AUTO, K_DISCARD, K_EXCHANGE, K_FIRE_FROM, K_FREE_PILLAR, K_ICE,
                    K_LAVA, K_PAY, K_REROLL_ONE, K_WALL, OVER)
from .components import (FIRESTORM, FLOOR_CRAFTING, ICE_BEAM, LAVA_BOMB, MUDSLIDE, SPELLS, TILE_EFFECT,
                         TILE_ELEMENTS, TILE_SIZE)
from .fast import new_stamp, update_space


CHANCE_BATCH = 64
"""How many uniform numbers ``_uniform`` draws from the generator at a time: one numpy call
costs about as much as a whole engine step (``rng.integers(n)`` once per die and per
invader put back made the engine a third slower), so chance is drawn ahead in batches."""


class EffectRules:
    """Spells, character triggers, floors, spires, bonuses and the state changes they
    are made of (mixed into ``rules.State``)."""

    # ---- spells (rulebook "Cast a spell") -------------------------------------------
    def _spell_amount(self, k: int) -> int:
        """What spell ``k`` does (dice, invaders, pillars; Floor Crafting: shards spent),
        upgraded for the active character (ASP-A5)."""
        spell = SPELLS[k]
        return spell.upgraded if self.character().upgrade == spell.upgrade else spell.amount

    def _cast(self, k: int) -> None:
        """Rulebook "Cast a spell": spend the shards (they go back to the bag), then the effect."""
        amount = self._spell_amount(k)
        if k == FLOOR_CRAFTING:  # any shards: the player chooses them (K_PAY), then draws
            self.queue += [[K_CRAFT_DRAW, 0, 0, 0], [K_PAY, amount, 0, 0]]
            return
        for e in SPELLS[k].cost:
            self._spend_shard(e)
        if k == MUDSLIDE:
            self._roll(amount)
        elif k == ICE_BEAM:
            self.queue.append([K_ICE, -1, 0, amount])
        elif k == LAVA_BOMB:
            self.queue.append([K_LAVA, amount, 0, 0])
        elif k == FIRESTORM:  # move an invader (K_FIRE_FROM, on top), then place the pillars
            self.queue += [[K_FREE_PILLAR, amount, -1, 0], [K_FIRE_FROM, 0, 0, 0]]

    # ---- character triggers (ASP-A5; their texts in components.TRIGGERS) -------------
    def _trigger(self) -> None:
        """The active character's trigger action: its cost first, then its effect (the
        queue's last entry resolves first)."""
        ch = self.character()
        kind = ch.trigger
        if kind == "pillar":
            self.queue += [[K_FREE_PILLAR, 1, ch.element, 0], [K_DISCARD, C.TRIGGER_DICE[kind], 0, 0]]
        elif kind == "demolish":  # destroy a pillar (K_DEMOLISH), then an invader
            self.queue += [[K_DESTROY_INV, 1, 0, 0], [K_DEMOLISH, 0, 0, 0]]
        elif kind == "mend":
            self.queue += [[K_WALL, 0, 0, 0], [K_DISCARD, C.TRIGGER_DICE[kind], 0, 0]]
        elif kind == "swap":
            self.queue += [[K_EXCHANGE, 0, 0, 0], [K_DISCARD, C.TRIGGER_DICE[kind], 0, 0]]
        else:  # gust
            self.queue += [[K_REROLL_ONE, 0, 0, 0], [K_PAY, C.TRIGGER_SHARDS[kind], 0, 0]]

    def _trigger_usable(self) -> bool:
        """Whether the active character's trigger action may be used now: its cost can be
        paid and its effect has something to act on (ASP-A5, ASP-A16)."""
        return self._TRIGGER_USABLE[self.character().trigger](self)

    def _pillar_trigger_usable(self) -> bool:
        """"discard 1 die: place a pillar on an available space in a room of your element
        (or a multi room), ignoring its die requirement" (ASP-A23)."""
        return sum(self.dice) >= C.TRIGGER_DICE["pillar"] and bool(self.pillar_spaces(self.character().element))

    def _demolish_trigger_usable(self) -> bool:
        """"destroy 1 pillar (not under a floor): destroy 1 invader in the fortress"."""
        return bool(self.invader_spaces()) and bool(self._demolish_spaces())

    def _mend_trigger_usable(self) -> bool:
        """"discard 2 dice: restore 1 destroyed wall" (not one a level-3 fiend keeps down)."""
        return sum(self.dice) >= C.TRIGGER_DICE["mend"] and bool(self._restorable_walls())

    def _swap_trigger_usable(self) -> bool:
        """"discard 1 die: exchange 1 floor tile in the reserve"."""
        return sum(self.dice) >= C.TRIGGER_DICE["swap"] and bool(self.reserve)

    def _gust_trigger_usable(self) -> bool:
        """"spend 1 shard: reroll 1 unused die" (a die to reroll, a shard to spend)."""
        return sum(self.dice) >= 1 and sum(self.shards) >= C.TRIGGER_SHARDS["gust"]

    _TRIGGER_USABLE = {
        "pillar": _pillar_trigger_usable,
        "demolish": _demolish_trigger_usable,
        "mend": _mend_trigger_usable,
        "swap": _swap_trigger_usable,
        "gust": _gust_trigger_usable,
    }
    """``_TRIGGER_USABLE[trigger kind](state)``: whether that trigger may be used now."""
    assert set(_TRIGGER_USABLE) == set(C.TRIGGERS)

    # ---- chance ---------------------------------------------------------------------
    def _roll(self, k: int) -> None:
        """Roll ``k`` dice from the box: each shows one of its eight faces at random
        (ASP-A1); at most 8 dice are unused at once, extra rolls are lost (ASP-A17)."""
        dice = self.dice
        k = min(k, C.NUM_DICE - sum(dice))
        for _ in range(k):
            dice[C.DIE_FACES[self._uniform(len(C.DIE_FACES))]] += 1

    def _to_bag(self, e: int) -> None:
        """Return an invader to the bag at a random place (its order stays hidden)."""
        self.bag.insert(self._uniform(len(self.bag) + 1), e)

    def _uniform(self, n: int) -> int:
        """A draw in ``0..n-1``, each equally likely: ``int(u * n)`` for the next ``u`` of
        the uniform numbers in ``[0, 1)`` drawn ahead from the state's generator
        (``_chance``, refilled with ``rng.random(CHANCE_BATCH)``; see RULES.md "Chance")."""
        chance = self._chance
        if not chance:
            chance += self.rng.random(CHANCE_BATCH).tolist()
            chance.reverse()  # used from the end, in the order drawn
        return int(chance.pop() * n)

    def _spend_shard(self, e: int) -> None:
        """Spend a shard of element ``e``: it goes back into the invader bag."""
        self.shards[e] -= 1
        self._to_bag(e)

    # ---- pillars and invaders on the fortress's spaces ----------------------------------
    def _set_invader(self, s: int, e: int) -> None:
        """Put an invader of element ``e`` (-1: none) on space ``s``."""
        self.invader[s] = e
        self._space_changed(s)

    def _set_pillar(self, s: int, v: int) -> None:
        """Put (1) or remove (0) the pillar on space ``s``."""
        self.pillar[s] = v
        self._space_changed(s)

    def _crystallize(self, s: int) -> None:
        """Glossary "Crystallize": the invader on ``s`` becomes a shard on the wheel."""
        self.shards[self.invader[s]] += 1
        self._set_invader(s, -1)

    def _destroy_invader(self, s: int) -> None:
        """Glossary "Destroy (invader)": it goes back into the bag."""
        self._to_bag(self.invader[s])
        self._set_invader(s, -1)

    def _add_pillar(self, s: int) -> None:
        """A pillar cube from the supply onto space ``s``."""
        self.pillars_used += 1
        self._set_pillar(s, 1)

    # ---- stamps: what the caches read (fast.py) -----------------------------------------
    def _space_changed(self, s: int) -> None:
        """After a change of the pillar or invader on space ``s``: fresh fortress and tile
        stamps; the fortress view, if it was current, brought up to date (``fast.update_space``)."""
        view = self._fortress_cache
        current = view is not None and view.stamp == self._fortress_stamp
        self._tile_stamps[s // C.MAX_SPACES] = self._fortress_stamp = stamp = new_stamp()
        if current:
            update_space(view, self, s)
            view.stamp = stamp

    def _tile_changed(self, t: int) -> None:
        """Something on floor tile ``t`` changed: fresh fortress and tile stamps."""
        self._tile_stamps[t] = self._fortress_stamp = new_stamp()

    def _structure_changed(self) -> None:
        """A floor was placed or a spire topped: a fresh structure stamp."""
        self._structure_stamp = new_stamp()

    def _board_changed(self) -> None:
        """The reserve, a fiend (awake, defeated) or a bonus token changed: a fresh board stamp."""
        self._board_stamp = new_stamp()

    # ---- floor tiles ----------------------------------------------------------------
    def _draw_tile(self, size: int) -> int:
        """The top tile of the stack of ``size`` (the tiles put on its bottom stay known)."""
        st = self.stacks[size]
        t = st.pop(0)
        if self.stack_known[size] > len(st):
            self.stack_known[size] = len(st)
        return t

    def _draw_to_reserve(self, size: int, multi: bool) -> None:
        """Draw a tile of ``size`` into the reserve, multi side up if ``multi`` (an empty
        stack gives nothing, ASP-A17)."""
        if not self.stacks[size]:
            return
        t = self._draw_tile(size)
        self.side[t] = 1 if multi else 0
        insort(self.reserve, t)
        self._board_changed()

    def _exchange(self, t: int) -> None:
        """Rulebook "Supply step" 1: discard a reserve tile to the bottom of its stack,
        draw a new one of the same size, standard side up."""
        size = TILE_SIZE[t]
        self.reserve.remove(t)
        self.side[t] = 0
        self._board_changed()
        self.stacks[size].append(t)
        self.stack_known[size] += 1
        self._draw_to_reserve(size, False)

    def _place_floor(self, t: int, where: int) -> None:
        """Build floor ``t`` on foundation (``where = -2 - f``) or room slot ``where``;
        then its placement effect and the active character's passives."""
        if t in self.reserve:
            self.reserve.remove(t)
            self._board_changed()
        if where <= -2:
            f = -2 - where
            self.found_tile[f] = t
            self.level[t] = 1
        else:
            self.room_tile[where] = t
            self.level[t] = self.level[where // C.MAX_ROOMS] + 1
            self._tile_changed(where // C.MAX_ROOMS)  # its room is covered
        self._tile_changed(t)
        self._structure_changed()
        self.base_of[t] = where
        if self.phase != BUILD:
            return
        side = self.side[t]
        effect = TILE_EFFECT[t] if side == 0 else ""  # ASP-A3: effects on the standard side only
        if effect == "tailwind":
            self._roll(2)
        elif effect == "magma_eruption":
            for s in self.invader_spaces()[:]:  # (a list that each destruction changes)
                self._destroy_invader(s)
        elif effect == "bedrock":
            self.queue.append([K_FREE_PILLAR, 2, -1, 0])
        elif effect == "frozen_tide":
            self.queue.append([K_CRYSTAL, 2, 0, 0])
        ch = self.character()
        if side == 0 and TILE_ELEMENTS[t][0] >> ch.element & 1:
            if ch.passive == "die_on_floor":
                self._roll(1)
            elif ch.passive == "shard_on_floor" and self.bag:
                self.shards[self.bag.pop()] += 1

    # ---- spires ---------------------------------------------------------------------
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
        self._structure_changed()
        self.defeated[e] = True
        self.awake[e] = False
        self._board_changed()
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
        self._board_changed()
        key = C.BONUSES[b].key
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
        """"Diminish the element": set aside 5 invaders of ``e`` from the bag; the rest
        from the fortress or the wheel (the player's choice, K_DIMINISH)."""
        took = 0
        while took < C.DIMINISH and e in self.bag:
            self.bag.remove(e)
            took += 1
        self.aside[e] += took
        if took < C.DIMINISH:
            self.queue.append([K_DIMINISH, e, C.DIMINISH - took, 0])
