"""Aetherspire fast paths, kept apart from the rule text.

Each is a faster way to get something ``rules.py`` defines plainly, and
``tests/aetherspire/test_fast_path.py`` checks each against its plain rule at every
step of random games (with clones and pickles along the way):

- **Stamps** (:func:`new_stamp`): every change of the fortress (``State._fortress_stamp``;
  per floor tile ``State._tile_stamps``; its structure, floors placed and spire toppers,
  ``State._structure_stamp``) and of the board the encoder shows (reserve, awakenings,
  defeats, bonus tokens: ``State._board_stamp``) takes a fresh number, so two states with
  the same stamp (a state and its clones) have the same fortress. Only caches (the two
  below, the encoder's blocks) read them; they never affect play. Stamps are per
  process: an unpickled state takes fresh ones.
- :class:`FortressStructure`: the open rooms and spire top candidates
  (``State._survey_structure``), kept per structure stamp.
- :class:`FortressView`: open spaces, invader spaces, free spaces, buildable rooms and
  spire options (``State._survey_fortress``), kept per fortress stamp and brought up to
  date after a change of one space (:func:`update_space`) rather than surveyed anew; a
  clone takes a copy (:meth:`FortressView.copy`).
- :func:`star_blocked`: the element mask of the fiends that keep star dice off their
  rooms (``State._star_blocked``), kept per board stamp.
- :func:`pillar_options`: the build step's pillar placements (``State._pillar_options``)
  from a table of which unused die faces fit each one-die space (:data:`PILLAR_FIT`) and
  Hall's condition for two-die spaces (:func:`dice_feasible`).
- :func:`build_options`: the build step's main choice (``State._build_options``) written
  out in one function with the checks inline. The main choice comes at about a third of
  all decisions; listed by the plain rule, random play on the engine takes about a
  quarter longer (measured with ``python -m ether_envs.speed``'s engine loop).
- :func:`trigger_usable`: whether the active character's trigger may be used
  (``State._trigger_usable``, one plain function per kind in ``effects.EffectRules``),
  from what :func:`build_options` has read (about 5% fewer instructions per engine step
  than calling the plain rule, counted with callgrind on random games).
"""

from __future__ import annotations

import itertools
from bisect import insort
from dataclasses import dataclass
from typing import NamedTuple

from .codec import BUILD0, END_BUILD, FREE_PILLAR, REROLL0, SPACE0, SPELL0, SPIRE0, TRIGGER
from .components import (CHARACTERS, FIRESTORM, FLOOR_CRAFTING, ICE_BEAM, LAVA_BOMB, MAX_SPACES, MUDSLIDE,
                         NEEDS, NUM_PILLARS, NUM_SPACE_SLOTS, ROOM_OF, ROOMS, SPACE_ELEMENTS, SPELLS, TILE_SIZE,
                         TRIGGER_DICE, TRIGGER_SHARDS, RoomSlot)

assert MAX_SPACES == 8  # the tile of space s is s >> 3 below

new_stamp = itertools.count(1).__next__
"""A fresh stamp (module docstring); 0 is never one (``State._tile_stamps``: never in the fortress)."""


@dataclass(slots=True)
class FortressStructure:
    """What the fortress's structure (floors placed, spire toppers) opens, a function of
    it alone (``State._survey_structure``). Shared by a state and its clones: never
    mutate its lists (``invader_targets`` is filled in, once per element).

    Attributes:
        stamp: the ``State._structure_stamp`` it was surveyed at.
        open_rooms: the open rooms (no floor and no spire topper on them) of the floors
            in the fortress, ascending room slot order.
        open_spaces: their spaces, ascending.
        spire_tops: the spire top candidates, ascending.
        invader_targets: per element, its invader target groups
            (``State._target_groups``), or None until first needed.
    """

    stamp: int
    open_rooms: list[RoomSlot]
    open_spaces: list[int]
    spire_tops: list[int]
    invader_targets: list


@dataclass(slots=True)
class FortressView:
    """What the fortress offers now (``State._survey_fortress``): the structure's open
    spaces with their pillars and invaders. Callers never mutate its lists nor keep
    them across a change of the fortress: :func:`update_space` changes them in place.

    Attributes:
        stamp: the ``State._fortress_stamp`` it is current for.
        open_spaces: the open spaces (``FortressStructure.open_spaces``, shared).
        invader_spaces: the open spaces holding an invader, ascending.
        free_spaces: the open spaces with neither a pillar nor an invader, ascending.
        buildable_rooms: per size, the buildable room slots (open, every space with a
            pillar, no invader; rulebook "Build a floor"), ascending.
        spire_options: the (top floor, element) spires that can be completed now.
    """

    stamp: int
    open_spaces: list[int]
    invader_spaces: list[int]
    free_spaces: list[int]
    buildable_rooms: list[list[int]]
    spire_options: list[tuple[int, int]]

    def copy(self) -> "FortressView":
        """An independent copy (``State.clone``): it shares no list with this view."""
        rooms = self.buildable_rooms
        return FortressView(self.stamp, self.open_spaces[:], self.invader_spaces[:], self.free_spaces[:],
                            [rooms[0][:], rooms[1][:], rooms[2][:]], self.spire_options[:])


def update_space(view: FortressView, state, s: int) -> None:
    """Bring ``view``, current before a change of the pillar or invader on space ``s``
    alone (and owned by ``state``), to what ``state._survey_fortress()`` finds after it:
    only ``s``'s lists and room change; the spire options, which read whole spires, are
    surveyed anew while a spire top candidate stands."""
    t = s >> 3
    side = state.side[t]
    slot = ROOM_OF[side][s]
    if state.level[t] and state.room_tile[slot] < 0 and state.topper_room[t] != slot:  # an open space
        pillar, invader = state.pillar, state.invader
        invaded, free = view.invader_spaces, view.free_spaces
        if invader[s] >= 0:
            if s not in invaded:
                insort(invaded, s)
            if s in free:
                free.remove(s)
        else:
            if s in invaded:
                invaded.remove(s)
            if pillar[s]:
                if s in free:
                    free.remove(s)
            elif s not in free:
                insort(free, s)
        room = ROOMS[side][slot]
        complete = True
        for q in room.spaces:
            if invader[q] >= 0 or not pillar[q]:
                complete = False
                break
        rooms = view.buildable_rooms[room.size]
        if complete != (slot in rooms):
            if complete:
                insort(rooms, slot)
            else:
                rooms.remove(slot)
    tops = state._structure_cache.spire_tops  # (current: the view was surveyed from it)
    if tops:
        view.spire_options = state._spire_options(tops)


class StarBlocked(NamedTuple):
    """``State._star_blocked_cache``: the star-blocking fiends at one board stamp."""

    stamp: int
    """The ``State._board_stamp`` they were found at."""
    elements: int
    """``State._star_blocked()`` then: the element mask of the awake level-2 fiends."""


NO_STAR_BLOCKED = StarBlocked(0, 0)
"""The cache before its first use (0 is never a stamp)."""


def star_blocked(state) -> int:
    """``state._star_blocked()``, kept per board stamp (awakenings and defeats take a fresh
    one; the levels that change otherwise, in ``_redraw_hidden``, are dormant fiends')."""
    cache = state._star_blocked_cache
    if cache.stamp != state._board_stamp:
        cache = state._star_blocked_cache = StarBlocked(state._board_stamp, state._star_blocked())
    return cache.elements


PILLAR_FIT = [[[0 if NEEDS[side][s] is None else -1 if len(NEEDS[side][s]) > 1
                else SPACE0 + s if NEEDS[side][s][0] & faces else 0 for s in range(NUM_SPACE_SLOTS)]
               for side in (0, 1)] for faces in range(32)]
"""``PILLAR_FIT[faces][side][space]``: for a bit mask of the faces with unused dice, the
SPACE action if one of them fits the space's single die requirement, 0 if none does
(or the space does not exist), -1 if the space needs several dice (:func:`dice_feasible`).
Only while no awake level-2 fiend blocks star dice (``State.needs``)."""


def pillar_options(state, spaces: list[int]) -> list[int]:
    """``state._pillar_options()`` for the available ``spaces`` (``state.pillar_spaces()``)."""
    dice = state.dice
    d0, d1, d2, d3, d4 = dice
    faces = (d0 > 0) | (d1 > 0) << 1 | (d2 > 0) << 2 | (d3 > 0) << 3 | (d4 > 0) << 4  # with unused dice
    blocked = star_blocked(state) if True in state.awake else 0
    out = []
    if blocked:
        for s in spaces:
            need = state.needs(s, blocked)
            if (need[0] & faces) if len(need) == 1 else dice_feasible(need, dice):
                out.append(SPACE0 + s)
    else:
        fit, side = PILLAR_FIT[faces], state.side
        for s in spaces:
            a = fit[side[s >> 3]][s]
            if a > 0:
                out.append(a)
            elif a < 0 and dice_feasible(NEEDS[side[s >> 3]][s], dice):
                out.append(SPACE0 + s)
    return out


_MASK_FACES = [tuple(f for f in range(5) if m >> f & 1) for m in range(32)]
"""``_MASK_FACES[mask]``: the faces in a bit mask of faces."""


def dice_feasible(needs: tuple[int, ...], dice: list[int]) -> bool:
    """``rules.dice_can_meet(needs, dice)``: two requirements (the most a printed space
    has) by Hall's condition (a die for each, two dice for both together); any other
    number by the same search as the plain rule. Leaves ``dice`` as it was."""
    if len(needs) == 2:
        m1, m2 = needs
        c1 = c2 = c = 0
        for f in _MASK_FACES[m1 | m2]:
            d = dice[f]
            c += d
            if m1 >> f & 1:
                c1 += d
            if m2 >> f & 1:
                c2 += d
        return c1 >= 1 and c2 >= 1 and c >= 2
    if not needs:
        return True
    m = needs[0]
    for f in range(5):
        if m >> f & 1 and dice[f] > 0:
            dice[f] -= 1
            ok = dice_feasible(needs[1:], dice)
            dice[f] += 1
            if ok:
                return True
    return False


_REROLL_OPTIONS = [[REROLL0 + f for f in range(5) if faces >> f & 1] for faces in range(32)]
"""``_REROLL_OPTIONS[faces]``: the REROLL actions for a bit mask of faces with unused dice."""
(_MUD0, _MUD1), (_ICE0, _ICE1), (_LAVA0, _LAVA1), (_FIRE0, _FIRE1) = (
    SPELLS[k].cost for k in (MUDSLIDE, ICE_BEAM, LAVA_BOMB, FIRESTORM))
_ICE_LEAST = SPELLS[ICE_BEAM].amount
_CRAFT = SPELLS[FLOOR_CRAFTING]


def _crowded_room(invaded: list[int], side: list[int]) -> bool:
    """Whether a room holds as many of the (ascending) ``invaded`` spaces as Ice Beam
    needs: a room's spaces are consecutive, so its invaders are next to each other."""
    run, previous = 0, -1
    for s in invaded:
        room = ROOM_OF[side[s >> 3]][s]
        run = run + 1 if room == previous else 1
        if run >= _ICE_LEAST:
            return True
        previous = room
    return False


def build_options(state) -> list[int]:
    """``state._build_options()``: the same actions in the same (ascending) order, with the
    fortress view read once and the pillar, reroll, floor and spell checks inline."""
    view = state._fortress()
    character = CHARACTERS[state.characters[state.turn_player]]
    free = view.free_spaces if state.pillars_used < NUM_PILLARS else []  # pillar_spaces()
    invaded = view.invader_spaces
    out = [END_BUILD]
    d0, d1, d2, d3, d4 = state.dice
    n_dice = d0 + d1 + d2 + d3 + d4
    if n_dice:
        if free:
            out += pillar_options(state, free)
        if not state.reroll_used:
            out += _REROLL_OPTIONS[(d0 > 0) | (d1 > 0) << 1 | (d2 > 0) << 2 | (d3 > 0) << 3 | (d4 > 0) << 4]
    reserve = state.reserve
    if reserve:
        rooms = view.buildable_rooms
        has_place = (rooms[0], rooms[1], rooms[2] or -1 in state.found_tile)
        for t in reserve:
            if has_place[TILE_SIZE[t]]:
                out.append(BUILD0 + t)
    shards = state.shards
    n_shards = shards[0] + shards[1] + shards[2] + shards[3]
    if n_shards:
        if shards[_MUD0] and shards[_MUD1]:
            out.append(SPELL0 + MUDSLIDE)
        if shards[_ICE0] and shards[_ICE1] and _crowded_room(invaded, state.side):  # state._ice_rooms()
            out.append(SPELL0 + ICE_BEAM)
        if shards[_LAVA0] and shards[_LAVA1] and invaded:
            out.append(SPELL0 + LAVA_BOMB)
        if shards[_FIRE0] and shards[_FIRE1] and ((invaded and len(view.open_spaces) > len(invaded)) or free):
            out.append(SPELL0 + FIRESTORM)
        if (state.stacks[0] or state.stacks[1] or state.stacks[2]) and n_shards >= (
                _CRAFT.upgraded if character.upgrade == _CRAFT.upgrade else _CRAFT.amount):
            out.append(SPELL0 + FLOOR_CRAFTING)
    for top, e in view.spire_options:
        out.append(SPIRE0 + 4 * top + e)
    if trigger_usable(state, character.trigger, character.element, view, free, n_dice, n_shards):
        out.append(TRIGGER)
    if True in state.adapted_done and free and not state.anchored_used and state._adapted("anchored"):
        out.append(FREE_PILLAR)
    return out


def trigger_usable(state, kind: str, element: int, view: FortressView, free: list[int], n_dice: int,
                   n_shards: int) -> bool:
    """``state._trigger_usable()`` for the active character's trigger ``kind`` (and
    ``element``), from what :func:`build_options` has already read: the fortress ``view``,
    the ``free`` spaces (``state.pillar_spaces()``), the unused dice and the shards. One
    branch per kind, each the checks of ``EffectRules._<kind>_trigger_usable``."""
    if kind == "pillar":
        side, bit = state.side, 1 << element
        return n_dice >= TRIGGER_DICE[kind] and any(SPACE_ELEMENTS[side[s >> 3]][s] & bit for s in free)
    if kind == "demolish":
        pillar = state.pillar
        return bool(view.invader_spaces) and any(pillar[s] for s in view.open_spaces)
    if kind == "mend":
        return n_dice >= TRIGGER_DICE[kind] and False in state.walls and bool(state._restorable_walls())
    if kind == "swap":
        return n_dice >= TRIGGER_DICE[kind] and bool(state.reserve)
    return n_dice >= 1 and n_shards >= TRIGGER_SHARDS[kind]  # gust
