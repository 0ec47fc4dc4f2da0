"""Ether Wars favour windows (rulebook "Favours"; EW-A7), as a mixin of ``rules.State``.

A window polls the seats clockwise from a start seat; a seat holding any Favour
(hand sizes are public) may play one that fits the window or pass; a played
Favour may be answered with Cancels; the stack resolves last-in-first-out and a
card's cost is paid only when it resolves. See RULES.md, "Favour windows".
"""

from __future__ import annotations

from . import components as C
from . import rules as R  # circular on purpose: rules defines the constants before importing this module


_TIMING = tuple(f.timing for f in C.FAVOURS)


class FavourMixin:
    """Favour-window methods of ``rules.State`` (uses its fields and constants)."""

    def _window_legal(self, p: int, boost: bool) -> list[int]:
        """Sorted legal actions of ``p`` polled in the open window (``boost``: ``_can_boost(p)``):
        the Favours that fit the window, the boost, PASS."""
        w = self.win
        out = []
        hand = self.hand[p]
        for f in range(1, C.NUM_FAVOURS):
            if not hand[f]:
                continue
            t = _TIMING[f]
            if t == "any":
                out.append(R.PLAY0 + f)
            elif t == "combat" and w["kind"] == R.W_COMBAT and p in self.rc["parts"]:
                out.append(R.PLAY0 + f)
            elif t == "injury" and w["kind"] == R.W_INJURY and p == w["seat"]:
                out.append(R.PLAY0 + f)
            elif t == "hire" and w["kind"] == R.W_PHASE and self.phase == R.MERCS and not self.contract[p]:
                out.append(R.PLAY0 + f)
        if boost:
            out.append(R.CHARGE_BOOST)
        out.append(R.PASS)
        return out

    def _can_boost(self, p: int) -> bool:
        return (self.win["kind"] == R.W_COMBAT and p in self.rc["parts"] and self.charge[p] >= 1
                and R._ABILITY_KEYS[self.faction[p]][self.ability[p]] in ("aggressive", "commander"))  # ``ability_key``

    def _open_window(self, kind: int, seat: int = -1, start: int | None = None) -> None:
        """Open a favour window: seats are polled clockwise from ``start``; it closes
        after a full cycle of passes (EW-A7)."""
        order = self.game.seat_orders[self.first if start is None else start]  # a tuple: shared by clones
        self.win = {"kind": kind, "seat": seat, "order": order, "pos": 0, "passes": 0,
                    "stack": [], "resp": [], "target": -1, "player": -1}

    def _window_step(self) -> bool:
        w = self.win
        n = self.game.num_players
        if w["player"] >= 0:  # a resolved Smuggler waits for its target, then the resource
            self._decide(R.K_SMUGGLE_RES if w["target"] >= 0 else R.K_SMUGGLE_SEAT, w["player"])
            return True
        if w["resp"]:
            q = w["resp"][0]
            if any(self.hand[q]):  # asked whenever it holds a Favour (hand sizes are public: EW-A7)
                self._decide(R.K_RESPONSE, q)
                return True
            w["resp"].pop(0)
            return False
        if w["stack"]:
            return self._resolve_stack()
        combat = w["kind"] == R.W_COMBAT
        while w["passes"] < n:  # poll the next seat; one without a Favour (or boost) passes
            q = w["order"][w["pos"] % n]
            boost = combat and self._can_boost(q)
            if boost or any(self.hand[q]):
                self.pk, self.pp, self._legal_cache = R.K_WINDOW, q, self._window_legal(q, boost)  # ``_decide``
                return True
            w["passes"] += 1
            w["pos"] += 1
        self.win = None
        return False

    def _window_action(self, block: str, i: int) -> None:
        w = self.win
        p = self.pp
        n = self.game.num_players
        if self.pk == R.K_WINDOW:
            if block == "PASS":
                w["passes"] += 1
                w["pos"] += 1
            elif block == "CHARGE_BOOST":
                self.charge[p] -= 1
                self.rc["boost"][p] += 2 if self.ability_key(p) == "commander" else 1
            else:
                self._play(p, i)
                w["passes"] = 0
                w["pos"] += 1
        elif self.pk == R.K_RESPONSE:
            if block == "PASS":
                w["resp"].pop(0)
            else:
                self._play(p, C.CANCEL)
        elif self.pk == R.K_SMUGGLE_SEAT:
            w["target"] = (p + i) % n
        elif self.pk == R.K_SMUGGLE_RES:
            q = w["target"]
            self.res[q][i] -= 1
            self.res[p][i] += 1
            w["target"] = -1
            w["player"] = -1

    def _play(self, p: int, f: int) -> None:
        """Announce a Favour: it goes on the stack; the others may respond (rulebook "Favours")."""
        self.hand[p][f] -= 1
        self.win["stack"].append([p, f, False])
        self.win["resp"] = [q for q in self.order((p + 1) % self.game.num_players) if q != p]

    def _resolve_stack(self) -> bool:
        """Resolve the top of the stack (last played first); a cancelled card is discarded
        unresolved; costs are paid only on resolution (rulebook "Favours")."""
        w = self.win
        p, f, cancelled = w["stack"].pop()
        self.fdiscard.append(f)
        if cancelled:
            return False
        if f == C.CANCEL:
            if w["stack"]:
                w["stack"][-1][2] = True
            return False
        cost = C.FAVOURS[f].cost
        if any(self.res[p][r] < cost[r] for r in range(C.NUM_RES)):
            return False  # cannot pay: no effect (EW-A7)
        for r in range(C.NUM_RES):
            self.res[p][r] -= cost[r]
        if f == C.SUPPLIES:
            self.gain(p, C.PROTEIN, 2)
        elif f == C.BATTLE_CRY:
            self.rc["boost"][p] += 2
        elif f == C.FIELD_MEDIC:
            self.rc["free_shields"] += 2
        elif f == C.CONTRACT:
            self.contract[p] = True
        elif f == C.SMUGGLER and self._smuggle_targets(p):
            w["player"] = p
        return False

    def _smuggle_targets(self, p: int) -> list[int]:
        return [q for q in range(self.game.num_players) if q != p and any(self.res[q][r] for r in range(4))]
