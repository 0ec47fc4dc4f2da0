"""Ether Wars fast paths, apart from the rule text.

Each gives the same answers as a plain rule of ``rules.State`` (named in its
docstring); ``tests/ether_wars/test_fast_path.py`` checks them against each other
at every step of random games.

* ``put_masks``: where dice may be put (rulebook "Placement" 2-4, "Movement" 4-5,
  "Mercenary Dice"), for every area at once, as bit masks (bit ``a`` = area ``a``).
  Plain rule: ``State.can_put``, one area at a time.
* ``movable_dice``: the dice that can move, from ``put_masks``. Plain rule:
  ``State._movable``.
* The legal-action cache: the engine poses most decisions with their legal
  actions already listed (``State._decide(kind, seat, legal)``), and while a player
  adds dice to an area it works out the next list from the previous one
  (``placement_legal``, ``add_die_legal_after_area``, ``add_die_legal_after_die``,
  ``move_to_legal``; the Placement turn's areas from ``put_masks``).
  Plain rule: ``State._legal_by_rule``. Measured: deriving the ADD_DIE list from the
  previous one saves about 4% of engine instructions.
* ``AreaActionTable``: the sorted action ids of a set of areas, seat-relative
  (a table filled on demand).
* ``compile_copy``: the ``copy()`` of a record (``FavourWindow``, ``AreaResolution``)
  compiled from its declared fields: straight-line code, about twice as fast as a loop over
  the fields (``State.clone``; ``tests/ether_wars/test_clone.py``).
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

from . import components as C
from .codec import ADD0, AREA0, AREA_CHARGE0, D_ETHER_DIE, D_MERCENARY, D_UNIT, DONE, PASS

# ---- area bit masks (bit a = area a) ------------------------------------------------------
AREAS_IN_PLAY = {n: (1 << (C.SILO0 + n)) - 1 for n in (2, 3, 4)}
"""The areas in play with ``n`` players: the seven common areas and ``n`` Silos."""
SILO_AREAS = ((1 << C.NUM_AREAS) - 1) & ~((1 << C.SILO0) - 1)
UNLIMITED_AREAS = sum(1 << a for a in range(C.SILO0) if a not in C.LIMITED)
"""Common areas with no limit on the players present (not Limited, not a Silo)."""
EXTRACTION_AREAS = sum(1 << a for a in C.EXTRACTION_AREAS)
MARKET_AND_FACTORY = (1 << C.MARKET) | (1 << C.FACTORY)
ETHER_FAULT = 1 << C.ETHER_FAULT
LIMITED_AREAS = tuple((a, 1 << a) for a in C.LIMITED)
"""(area, its bit) of each Limited area."""
EXEMPT_MERCENARY_AREAS = {C.PRIESTESS: 0, C.DRONE: EXTRACTION_AREAS, C.ASSASSIN: ~MARKET_AND_FACTORY,
                          C.THIEF: SILO_AREAS}
"""Areas open to an exempt Mercenary whatever the others hold (rulebook "Mercenary Dice"; the Thief:
any Silo but its owner's; the Priestess is never placed)."""
SEAT_COUNT = tuple(bin(mask).count("1") for mask in range(16))
"""``SEAT_COUNT[mask]``: the number of seats in a bit mask of seats."""


class Silo(NamedTuple):
    """A Silo in play, as the masks need it."""

    owner: int
    area: int
    bit: int
    not_owner: int  # every seat bit but the owner's


SILOS = {n: tuple(Silo(o, C.SILO0 + o, 1 << (C.SILO0 + o), ~(1 << o)) for o in range(n)) for n in (2, 3, 4)}
"""The Silos in play, per player count."""


def put_masks(state, p: int, kinds, moving: bool, occupancy=None) -> list[int]:
    """For each die kind in ``kinds`` (as in ``can_put``), the bit mask of the areas where ``p``
    may put it: bit ``a`` set exactly when ``state.can_put(p, a, kind, moving, occupancy)``.
    ``occupancy`` None: the state's own ``occupancy()``. ``p``'s own dice never count against it
    (the area limits count the others; its presence in the Market or Factory only closes that
    area), so a die that moves need not leave its area first."""
    n = state.game.num_players
    counted, exempt = (state._counted_seats, state._exempt_seats) if occupancy is None else occupancy
    bit = 1 << p
    own_silo = 1 << (C.SILO0 + p)
    base = AREAS_IN_PLAY[n]
    if not moving:  # rulebook "Placement" 2
        base &= ~state.placed[p]
    if (counted[C.MARKET] | exempt[C.MARKET]) & bit:  # one die per player in the Market / Factory
        base &= ~(1 << C.MARKET)
    if (counted[C.FACTORY] | exempt[C.FACTORY]) & bit:
        base &= ~(1 << C.FACTORY)
    within_limits = -1  # the areas whose limits admit p's counted dice, worked out when needed
    ether_fault = ETHER_FAULT if state.ether_ctrl == p else 0
    out = []
    for kind in kinds:
        merc = state.hired[p] if kind == D_MERCENARY else -1
        if kind == D_ETHER_DIE:
            out.append(base & ether_fault)
        elif merc in EXEMPT_MERCENARY_AREAS:  # their own areas, no limits (placing or moving alike: EW-A9)
            out.append(base & EXEMPT_MERCENARY_AREAS[merc] & ~(own_silo if merc == C.THIEF else 0))
        else:
            if within_limits < 0:
                within_limits = UNLIMITED_AREAS
                others = ~bit
                for a, area_bit in LIMITED_AREAS:  # at most two players in a Limited area
                    if SEAT_COUNT[counted[a] & others] < 2:
                        within_limits |= area_bit
                for owner, area, area_bit, not_owner in SILOS[n]:  # a Silo: its owner and one attacker
                    if owner == p or not counted[area] & not_owner & others:
                        within_limits |= area_bit
            mask = base & within_limits
            if merc == C.DEFENDER:
                mask &= own_silo | ether_fault
            out.append(mask)
    return out


# ---- movement ------------------------------------------------------------------------------
def movable_dice(state, p: int) -> list[tuple[int, int]]:
    """``(kind, area)`` of ``p``'s dice on the board that ``p`` can pay to move and that have
    somewhere to go (plain rule: ``State._movable``)."""
    dice = state._payable_dice_on_board(p)
    if not dice:
        return []
    kinds = [kind for kind, _ in dice]
    out = []
    for (kind, areas), mask in zip(dice, put_masks(state, p, kinds, True)):
        for a in areas:
            if mask & ~(1 << a):
                out.append((kind, a))
    return out


# ---- the legal-action cache -------------------------------------------------------------
def move_to_legal(state, p: int, pick: int) -> list[int]:
    """The legal actions of the MOVE_TO decision for ``p``'s die ``pick`` (a ``MOVE_DIE``
    index): AREA (paid in Coltan) and AREA_CHARGE (Tactician) of each destination, sorted."""
    kind, i = divmod(pick, C.NUM_AREAS)
    dests = put_masks(state, p, (kind,), True)[0] & ~(1 << state.abs_area(p, i))
    coltan, charge = state._move_payments(p, kind)
    out = state.game.area_actions(p, dests, AREA0, ()) if coltan else []
    if charge:  # (AREA_CHARGE ids follow the AREA ids)
        out += state.game.area_actions(p, dests, AREA_CHARGE0, ())
    return out


def placement_legal(state, p: int) -> list[int] | None:
    """The legal actions of ``p``'s Placement turn: the areas where some die at home may go,
    then PASS (plain rule: ``State._place_areas``); None when ``p`` can put no die anywhere.
    Remembers them with each kind's areas (``State._placement_legal``, ``_placement_kinds``,
    ``_placement_kind_areas``) for the ADD_DIE decision that follows."""
    kinds = state.dice_at_home(p)
    if not kinds:
        return None
    kind_areas = put_masks(state, p, kinds, False)
    areas = 0
    for mask in kind_areas:
        areas |= mask
    if not areas:
        return None
    legal = state.game.area_actions(p, areas, AREA0, (PASS,))
    state._placement_legal, state._placement_kinds, state._placement_kind_areas = legal, kinds, kind_areas
    return legal


def add_die_legal_after_area(state, legal: list[int] | None, a: int) -> list[int] | None:
    """The ADD_DIE actions right after AREA(``a``) was chosen from ``legal``: the kinds whose
    areas hold ``a`` (None when ``legal`` is not the list ``placement_legal`` remembered)."""
    if legal is None or legal is not state._placement_legal:
        return None
    out = []
    for kind, mask in zip(state._placement_kinds, state._placement_kind_areas):
        if mask >> a & 1:
            out.append(ADD0 + kind)
    return out


def add_die_legal_after_die(state, p: int, legal: list[int] | None, action: int) -> list[int] | None:
    """The ADD_DIE actions left after ``p`` added the die of ``action`` (taken from ``legal``,
    the ADD_DIE decision's list) to the area of its Placement turn: the same list less that
    kind once no such die is at home; none after a die in the Market or Factory (one die
    there). Once ``p`` holds its place in the area, or with only an exempt die there, putting
    a die changes no other kind's answer. None when ``legal`` is unknown."""
    if legal is None:
        return None
    if state.add_area == C.MARKET or state.add_area == C.FACTORY:
        return []
    out = legal[:-1] if legal[-1] == DONE else legal[:]
    if action != ADD0 + D_UNIT or not state.home_units[p]:
        out.remove(action)
    return out


class AreaActionTable:
    """Sorted action ids ``base + rel_areas[p][a]`` of the areas ``a`` in a bit mask, then a
    tail: a table filled on demand (``Game.area_actions``)."""

    __slots__ = ("rel_areas", "table")

    def __init__(self, rel_areas):
        self.rel_areas = rel_areas
        self.table: dict[tuple, list[int]] = {}

    def actions(self, p: int, mask: int, base: int, tail: tuple) -> list[int]:
        """A fresh list: the areas of ``mask`` as actions of ``base``, ``p``-relative, sorted, then ``tail``."""
        key = (p, mask, base, tail)
        out = self.table.get(key)
        if out is None:
            rel = self.rel_areas[p]
            out = self.table[key] = sorted(base + rel[a] for a in range(C.NUM_AREAS) if mask >> a & 1)
            out += tail
        return out[:]


def compile_copy(cls):
    """A ``copy(record)`` function for the slots dataclass ``cls``: a new record with every
    declared field (``dataclasses.fields``), lists copied one level deep and lists of lists
    two levels (by the field's annotation), so that a new field is copied too."""
    lines = ["def copy(self):", f'    """An independent copy of a ``{cls.__name__}``."""', "    new = _new(_cls)"]
    for f in dataclasses.fields(cls):
        annotation = str(f.type)  # (a string under ``from __future__ import annotations``)
        if annotation.startswith("list[list["):
            lines.append(f"    new.{f.name} = [x[:] for x in self.{f.name}]")
        elif annotation.startswith("list["):
            lines.append(f"    new.{f.name} = self.{f.name}[:]")
        else:  # an immutable value
            lines.append(f"    new.{f.name} = self.{f.name}")
    lines.append("    return new")
    namespace = {"_new": object.__new__, "_cls": cls}
    exec("\n".join(lines), namespace)
    return namespace["copy"]
