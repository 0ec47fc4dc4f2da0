"""Ether Wars favour windows (rulebook "Favours"; EW-A7): ``FavourRules``, a mixin of ``rules.State``.

A window polls the seats clockwise from a start seat; a seat holding any Favour
(hand sizes are public) may play one that fits the window or pass; a played
Favour may be answered with Cancels; the stack resolves last-in-first-out and a
card's cost is paid only when it resolves. See RULES.md, "Favour windows".
The open window is a ``FavourWindow`` (``State.window``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from . import components as C
from . import fast
from .codec import (
    CHARGE_BOOST, K_RESPONSE, K_SMUGGLE_RES, K_SMUGGLE_SEAT, K_WINDOW, MERCS, PASS, PLAY0, W_COMBAT, W_INJURY,
    W_PHASE,
)


class PlayedFavour(NamedTuple):
    """A Favour on the window's stack."""

    seat: int
    favour: int       # kind (``components.FAVOURS``)
    cancelled: bool   # a Cancel above it resolved


@dataclass(slots=True)
class FavourWindow:
    """An open favour window (``State.window``)."""

    kind: int                 # ``W_PHASE``, ``W_COMBAT`` or ``W_INJURY``
    seat: int                 # injury window: the injured player (-1 otherwise)
    order: tuple              # the seats polled, clockwise from the start seat (shared by clones)
    pos: int = 0              # seats polled so far: ``order[pos % players]`` is next
    passes: int = 0           # passes in a row (a full cycle closes the window)
    stack: list[PlayedFavour] = field(default_factory=list)
    responders: list[int] = field(default_factory=list)  # seats still to answer the top Favour
    smuggler: int = -1        # a resolved Smuggler's player, waiting for its target and resource
    smuggle_target: int = -1  # the Smuggler's target seat, once chosen


FavourWindow.copy = fast.compile_copy(FavourWindow)
"""``FavourWindow.copy()``: an independent copy (``State.clone``) of every declared field."""

_TIMING = tuple(f.timing for f in C.FAVOURS)


class FavourRules:
    """Favour-window rules of ``rules.State`` (uses its fields)."""

    def _window_legal(self, p: int, boost: bool) -> list[int]:
        """Sorted legal actions of ``p`` polled in the open window (``boost``: ``_can_boost(p)``):
        the Favours that fit the window, the boost, PASS."""
        w = self.window
        out = []
        hand = self.hand[p]
        for f in range(1, C.NUM_FAVOURS):  # (a Cancel is played only in answer: ``K_RESPONSE``)
            if not hand[f]:
                continue
            timing = _TIMING[f]
            if timing == "any":
                out.append(PLAY0 + f)
            elif timing == "combat" and w.kind == W_COMBAT and p in self.resolving.participants:
                out.append(PLAY0 + f)
            elif timing == "injury" and w.kind == W_INJURY and p == w.seat:
                out.append(PLAY0 + f)
            elif timing == "hire" and w.kind == W_PHASE and self.phase == MERCS and not self.contract[p]:
                out.append(PLAY0 + f)
        if boost:
            out.append(CHARGE_BOOST)
        out.append(PASS)
        return out

    def _can_boost(self, p: int) -> bool:
        """A combatant with the Commander or Aggressive card may pay a Charge for a bonus."""
        return (self.window.kind == W_COMBAT and p in self.resolving.participants and self.charge[p] >= 1
                and self.ability_key(p) in ("aggressive", "commander"))

    def _open_window(self, kind: int, seat: int = -1, start: int | None = None) -> None:
        """Open a favour window: seats are polled clockwise from ``start``; it closes
        after a full cycle of passes (EW-A7)."""
        self.window = FavourWindow(kind, seat, self.game.seat_orders[self.first if start is None else start])

    def _window_step(self) -> bool:
        """Run the open window until a decision is pending (True) or it closes (False)."""
        w = self.window
        n = self.game.num_players
        if w.smuggler >= 0:  # a resolved Smuggler waits for its target, then the resource
            self._decide(K_SMUGGLE_RES if w.smuggle_target >= 0 else K_SMUGGLE_SEAT, w.smuggler)
            return True
        if w.responders:
            q = w.responders[0]
            if any(self.hand[q]):  # asked whenever it holds a Favour (hand sizes are public: EW-A7)
                self._decide(K_RESPONSE, q)
                return True
            w.responders.pop(0)
            return False
        if w.stack:
            return self._resolve_stack()
        combat = w.kind == W_COMBAT
        while w.passes < n:  # poll the next seat; one without a Favour (or boost) passes
            q = w.order[w.pos % n]
            boost = combat and self._can_boost(q)
            if boost or any(self.hand[q]):
                self._decide(K_WINDOW, q, self._window_legal(q, boost))
                return True
            w.passes += 1
            w.pos += 1
        self.window = None
        return False

    def _window_action(self, block: str, i: int) -> None:
        w = self.window
        p = self.decider
        n = self.game.num_players
        if self.decision == K_WINDOW:
            if block == "PASS":
                w.passes += 1
                w.pos += 1
            elif block == "CHARGE_BOOST":
                self.charge[p] -= 1
                commander = self.ability_key(p) == "commander"
                self.resolving.bonus[p] += C.COMMANDER_BONUS if commander else C.AGGRESSIVE_BONUS
            else:
                self._play(p, i)
                w.passes = 0
                w.pos += 1
        elif self.decision == K_RESPONSE:
            if block == "PASS":
                w.responders.pop(0)
            else:
                self._play(p, C.CANCEL)
        elif self.decision == K_SMUGGLE_SEAT:
            w.smuggle_target = (p + i) % n
        elif self.decision == K_SMUGGLE_RES:
            q = w.smuggle_target
            self.res[q][i] -= 1
            self.res[p][i] += 1
            w.smuggle_target = -1
            w.smuggler = -1

    def _play(self, p: int, f: int) -> None:
        """Announce a Favour: it goes on the stack; the others may respond (rulebook "Favours")."""
        self.hand[p][f] -= 1
        self.window.stack.append(PlayedFavour(p, f, False))
        self.window.responders = [q for q in self.order((p + 1) % self.game.num_players) if q != p]

    def _resolve_stack(self) -> bool:
        """Resolve the top of the stack (last played first); a cancelled card is discarded
        unresolved; costs are paid only on resolution (rulebook "Favours")."""
        stack = self.window.stack
        p, f, cancelled = stack.pop()
        self.fdiscard.append(f)
        if cancelled:
            return False
        if f == C.CANCEL:
            if stack:
                stack[-1] = stack[-1]._replace(cancelled=True)
            return False
        cost = C.FAVOURS[f].cost
        if any(self.res[p][r] < cost[r] for r in range(C.NUM_RES)):
            return False  # cannot pay: no effect (EW-A7)
        for r in range(C.NUM_RES):
            self.res[p][r] -= cost[r]
        if f == C.SUPPLIES:
            self.gain(p, C.PROTEIN, C.SUPPLIES_PROTEIN)
        elif f == C.BATTLE_CRY:
            self.resolving.bonus[p] += C.BATTLE_CRY_BONUS
        elif f == C.FIELD_MEDIC:
            self.resolving.free_shields += C.FIELD_MEDIC_SHIELDS
        elif f == C.CONTRACT:
            self.contract[p] = True
        elif f == C.SMUGGLER and self._smuggle_targets(p):
            self.window.smuggler = p
        return False

    def _smuggle_targets(self, p: int) -> list[int]:
        """Opponents holding a resource other than Ether (Smuggler)."""
        return [q for q in range(self.game.num_players) if q != p and any(self.res[q][r] for r in range(4))]
