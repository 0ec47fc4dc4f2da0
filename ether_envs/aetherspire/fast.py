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
  clone shares it until either state changes the fortress (:meth:`FortressView.copy`).
- :func:`pillar_options`: the build step's pillar placements (``State._pillar_options``)
  from a table of which unused die faces fit each one-die space (:data:`PILLAR_FIT`) and
  Hall's condition for two-die spaces (:func:`dice_feasible`).
"""

from __future__ import annotations

import itertools
from bisect import insort
from dataclasses import dataclass

from .codec import SPACE0
from .components import MAX_SPACES, NEEDS, NUM_SPACE_SLOTS, ROOM_OF, ROOMS, RoomSlot

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
        """A copy whose lists :func:`update_space` may change (the shared ones stay shared)."""
        rooms = self.buildable_rooms
        return FortressView(self.stamp, self.open_spaces, self.invader_spaces[:], self.free_spaces[:],
                            [rooms[0][:], rooms[1][:], rooms[2][:]], self.spire_options)


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
    tops = state._structure().spire_tops
    if tops:
        view.spire_options = state._spire_options(tops)  # a new list (a clone may share the old one)


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
    faces = 0
    for f in range(5):
        if dice[f]:
            faces |= 1 << f
    blocked = state._star_blocked() if True in state.awake else 0
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
