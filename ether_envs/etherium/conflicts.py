"""Etherium conflicts (rulebook "Conflicts"): detection after each action step,
pillage, assault, siege, dice in reverse initiative order, ties, retreats and
the siege spoils. A mixin of :class:`ether_envs.etherium.rules.State`.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import components as C
from .codec import (CONFLICT0, D_CHOOSE_CONFLICT, D_GAIN, D_RETREAT, D_SPOIL, D_TAKE, D_WINDOW, RETREAT0, SPOIL0,
                    T_BATTLE_RESOLVE, T_BATTLE_ROLL, T_CONFLICT_AT, T_CONFLICTS, T_ROLL_DONE, W_CONFLICT, Task)

ASSAULT, SIEGE = 0, 1
CONFLICT_KINDS = ("assault", "siege")


@dataclass(slots=True)
class Battle:
    """The conflict being resolved (``State.battle``): rulebook "Assault" and "Siege".

    Attributes:
        box: where it takes place.
        kind: ``ASSAULT`` or ``SIEGE``.
        seats: the seats rolling, in initiative order.
        units: per seat, the unit it rolls with (``C.SOLDIER``; the besieged City's ``C.GUARD``).
        totals: per seat, its total once rolled (-1 before).
        shields: per seat, whether it played a Shield card (ETM-A5).
        ties: ties re-rolled so far (ETM-A14).
    """

    box: int
    kind: int
    seats: list[int]
    units: list[int]
    totals: list[int]
    shields: list[bool]
    ties: int = 0

    def copy(self) -> "Battle":
        return Battle(self.box, self.kind, self.seats.copy(), self.units.copy(), self.totals.copy(),
                      self.shields.copy(), self.ties)


class ConflictRules:
    """Conflict tasks and decisions (see ``rules`` for the agenda)."""

    # ---- detection (rulebook "General concepts") ------------------------------------
    def conflict_boxes(self) -> list[int]:
        """Boxes holding a conflict: an opposing Soldier in a City (siege), Soldiers
        of two players (assault), or a Soldier with an opposing Gatherer (pillage).
        Gatherers alone never conflict (rulebook "Clarifications")."""
        pos = self.pos
        soldiers = [x[C.SOLDIER] for x in pos]
        out = []
        for p, b in enumerate(soldiers):
            if b in out:
                continue
            if C.BOX_TERRAIN[b] == C.CITY or soldiers.count(b) >= 2:
                out.append(b)
                continue
            for q, x in enumerate(pos):
                if x[C.GATHERER] == b and q != p:  # an opposing Gatherer
                    out.append(b)
                    break
        if len(out) > 1:
            out.sort()
        return out

    def affected_players(self, box: int) -> list[int]:
        """Seats with a unit (or their City) in the conflict on ``box``."""
        n = self.num_players
        out = {p for p in range(n) if self.pos[p][C.SOLDIER] == box or self.pos[p][C.GATHERER] == box}
        if self.game.city_owner[box] >= 0:
            out.add(self.game.city_owner[box])
        return sorted(out)

    def _h_conflicts(self, t):
        """Rulebook "5- Reveal and Perform Actions": after every player has performed
        the action, resolve every conflict before the next action; the affected
        player with the highest initiative decides the order."""
        boxes = self.conflict_boxes()
        if not boxes:
            return
        self.stack.append(Task(T_CONFLICTS, -1))
        if len(boxes) == 1:
            self.stack.append(Task(T_CONFLICT_AT, -1, boxes[0]))
            return
        affected = set()
        for b in boxes:
            affected.update(self.affected_players(b))
        chooser = next(p for p in self.order if p in affected)
        self.stack.append(Task(D_CHOOSE_CONFLICT, chooser))

    def _opt_choose_conflict(self, t):
        return [CONFLICT0 + b for b in self.conflict_boxes()]

    def _d_choose_conflict(self, t, block, i, a):
        self.stack.pop()
        self.stack.append(Task(T_CONFLICT_AT, -1, i))

    def _h_conflict_at(self, t):
        box = t.a
        soldiers = [p for p in self.order if self.pos[p][C.SOLDIER] == box]
        owner = self.game.city_owner[box]
        if C.BOX_TERRAIN[box] == C.CITY:  # rulebook "Siege"
            seats = soldiers + [owner]
            seats.sort(key=self.order.index)
            units = [C.GUARD if q == owner else C.SOLDIER for q in seats]
            kind = SIEGE
        elif len(soldiers) >= 2:  # rulebook "Assault" and "Clarifications" (several Soldiers)
            seats = soldiers
            units = [C.SOLDIER] * len(seats)
            kind = ASSAULT
        else:  # rulebook "Pillage": no roll, the Soldier wins (ETM-A20, ETM-A25)
            s = soldiers[0]
            g = next(q for q in self.order if q != s and self.pos[q][C.GATHERER] == box)
            self.level_down(g, C.GATHERER)
            self.stack.append(Task(D_RETREAT, g, C.GATHERER))
            if self.tribe[s] == C.RECES:  # rulebook Reces "Power": an extra basic resource
                self.stack.append(Task(D_GAIN, s, C.RECES_PILLAGE_EXTRA))
            self.stack.append(Task(D_TAKE, s, g, 2))
            return
        k = len(seats)
        self.battle = Battle(box, kind, seats, units, [-1] * k, [False] * k)
        self.stack.append(Task(T_BATTLE_RESOLVE, -1))
        self._push_rolls(range(k))

    def _push_rolls(self, indices) -> None:
        """Rulebook "Conflict Resolution": players roll in reverse initiative order
        (``seats`` are in initiative order, so the last one rolls first)."""
        seats = self.battle.seats
        for i in indices:
            self.stack.append(Task(T_BATTLE_ROLL, seats[i], i))

    def _battle_index(self, p: int) -> int:
        return self.battle.seats.index(p)

    def _h_battle_roll(self, t):
        p, i = t.player, t.a
        unit = self.battle.units[i]
        ndice = self.lvl[p][unit] + (1 if unit == C.GUARD and self.ability[p] == C.A_BASTION else 0)
        self._start_roll(p, ndice)
        self.stack.append(Task(T_ROLL_DONE, p, i))
        self.stack.append(Task(D_WINDOW, p, W_CONFLICT))

    def conflict_modifier(self, p: int, unit: int) -> int:
        """Automatic additions to a conflict total: the full Guide level (ETM-A16),
        Reces "Season Bonus" +3 for its Soldier, Reces B -1 for every Soldier."""
        m = self.lvl[p][C.GUIDE]
        if unit == C.SOLDIER:
            if self.affinity == p and self.tribe[p] == C.RECES:
                m += C.RECES_SEASON_SOLDIER_BONUS
            if self.season_card() == C.RECES_B:
                m -= 1
        return m

    def _h_roll_done(self, t):
        p, i = t.player, t.a
        b = self.battle
        b.totals[i] = self.roll_total() + self.conflict_modifier(p, b.units[i])
        self.roll_player = -1
        self.roll_dice = []
        self.roll_power = []
        self.roll_bonus = 0

    def _h_battle_resolve(self, t):
        """Highest total wins; Reces wins ties; otherwise the tied players roll
        again (ETM-A14: after 10 ties in a row the winner is drawn at random)."""
        b = self.battle
        totals = b.totals
        best = max(totals)
        tied = [i for i, x in enumerate(totals) if x == best]
        if len(tied) > 1:
            reces = [i for i in tied if self.tribe[b.seats[i]] == C.RECES]
            if reces:
                winner = reces[0]
            elif b.ties + 1 >= C.TIE_REROLL_LIMIT:
                winner = tied[int(self.rng.integers(len(tied)))]
            else:
                b.ties += 1
                for i in tied:
                    totals[i] = -1
                self.stack.append(Task(T_BATTLE_RESOLVE, -1))
                self._push_rolls(tied)
                return
        else:
            winner = tied[0]
        self._battle_outcome(winner)

    def _battle_outcome(self, w: int) -> None:
        b = self.battle
        box, kind, seats, units, shields = b.box, b.kind, b.seats, b.units, b.shields
        self.battle = None
        for i, q in enumerate(seats):  # both sides lose a level (Shield card: ETM-A5)
            if not shields[i]:
                self.level_down(q, units[i])
        if kind == ASSAULT:  # rulebook "Assault": winner stays, takes 1 Soldier token; losers retreat
            self.take_vt(seats[w], C.VT_SOLDIER)
            for i in reversed(range(len(seats))):
                if i != w:
                    self.stack.append(Task(D_RETREAT, seats[i], C.SOLDIER))
            return
        owner = seats[units.index(C.GUARD)]
        mountain = C.mountain_box(box)  # rulebook "Siege": back to the Mountain outside the City (ETM-A19)
        for i, q in enumerate(seats):
            if units[i] == C.SOLDIER:
                self.pos[q][C.SOLDIER] = mountain
        if units[w] == C.GUARD:
            self.take_vt(owner, C.VT_SOLDIER)
        else:
            self.stack.append(Task(D_SPOIL, seats[w], owner))

    def level_down(self, p: int, unit: int) -> None:
        """Rulebook "Units": levels never go below 1."""
        if self.lvl[p][unit] > 1:
            self.lvl[p][unit] -= 1

    # ---- retreat (rulebook "Retreat") ------------------------------------------------
    def retreat_options(self, p: int, unit: int) -> list[int]:
        """Nearest boxes (adjacent first, then one further, ...) that are not blue,
        not a City (ETM-A2) and would not put the unit in another conflict; the
        retreating player chooses among them (ETM-A17)."""
        n = self.num_players
        src = self.pos[p][unit]
        seen = {src}
        layer = [src]
        while layer:
            nxt = []
            for b in layer:
                for nb in C.ADJACENT[b]:
                    if nb not in seen and C.BOX_TERRAIN[nb] != C.CITY:
                        seen.add(nb)
                        nxt.append(nb)
            ok = []
            for b in nxt:
                if C.BOX_TERRAIN[b] == C.ETHER_TERRAIN:
                    continue
                if any(q != p and self.pos[q][C.SOLDIER] == b for q in range(n)):
                    continue
                if unit == C.SOLDIER and any(q != p and self.pos[q][C.GATHERER] == b for q in range(n)):
                    continue
                ok.append(b)
            if ok:
                return sorted(ok)
            layer = nxt
        return []

    def _opt_retreat(self, t):
        return [RETREAT0 + b for b in self.retreat_options(t.player, t.a)]

    def _d_retreat(self, t, block, i, a):
        self.pos[t.player][t.a] = i
        self.stack.pop()

    # ---- siege spoils (rulebook "Siege": steal the City or reduce the Guide) ----------
    def spoil_options(self, p: int, victim: int) -> list[int]:
        """Spoils (``SIEGE_SPOIL`` indices 0..3) the winner ``p`` may take from ``victim``: 2
        Ether, 1 Booster, 4 basic (each while the victim holds some), reduce the Guide (level
        2 or more). The winner takes one whenever any is available: declining never helps
        it (ETM-A31)."""
        r = self.res[victim]
        out = []
        if r[C.ETHER] > 0:
            out.append(0)
        if r[C.BOOSTER] > 0:
            out.append(1)
        if sum(r[:3]) > 0:
            out.append(2)
        if self.lvl[victim][C.GUIDE] >= 2:
            out.append(3)
        return out

    def _opt_spoil(self, t):
        return [SPOIL0 + k for k in self.spoil_options(t.player, t.a)]

    def _d_spoil(self, t, block, i, a):
        p, victim = t.player, t.a
        self.stack.pop()
        if i == 0:
            k = min(C.SPOIL_ETHER, self.res[victim][C.ETHER])
            self.res[victim][C.ETHER] -= k
            self.res[p][C.ETHER] += k
        elif i == 1:  # Booster theft: the victim's action token goes with it (rulebook "Clarifications")
            self.res[victim][C.BOOSTER] -= 1
            self.gain_booster(p)
            if not self.take_vt(p, C.VT_PILLAGE):
                self.take_vt(p, C.VT_SOLDIER)
        elif i == 2:
            self.stack.append(Task(D_TAKE, p, victim, C.SPOIL_BASIC))
        else:
            self.lvl[victim][C.GUIDE] -= 1
            self.take_vt(p, C.VT_SOLDIER)
