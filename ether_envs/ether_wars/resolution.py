"""Ether Wars Resolution phase (rulebook "Resolution" and its sub-sections):
``ResolutionRules``, a mixin of ``rules.State``.

Who resolves what, then one area at a time: the area being resolved is an
``AreaResolution`` (``State.resolving``) whose ``stage`` walks through
``codec.STAGES`` (see RULES.md, "State machine"). Decisions inside it: thief
steals, Assassin targets, Priestess rerolls, Hero Skills, the combat favour
window, shields, silo raid, market purchases, cloning, Conduit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import NamedTuple

from . import components as C
from . import fast
from .codec import (
    CLONE, DONE, K_ASSASSIN, K_CONDUIT, K_END_ETHER, K_FACTORY, K_MARKET, K_NONE, K_PAY, K_RAID, K_REROLL,
    K_RESOLVE, K_SHIELD, K_SKILL, K_THIEF, MAINTENANCE, MARKET_FAVOUR, M_CHANNEL, M_COMBAT, M_EXTRACT, M_FACTORY,
    M_MARKET, M_NONE, OVER, PASS, PAY0, REWARD_CHANNELLING, REWARD_NONE, REWARD_RAID, RESOLVE0, RESOURCE0, SEAT0,
    SHIELD0, STAGES, S_ASSASSIN, S_CLEANUP, S_DRONE, S_FACTORY, S_INJURY, S_MARKET, S_OUTCOME, S_PAY, S_REROLL,
    S_REWARD, S_ROLL, S_SETUP, S_SKILLS, S_THIEF, S_WINDOW, UNIT_DIE0, W_COMBAT, W_INJURY,
)

ASSASSIN_DONE = -2
"""``AreaResolution.assassin`` once the Assassin's injuries are queued."""


class Injury(NamedTuple):
    """Units of a seat injured and not yet shielded or dead (rulebook "Combat action", "Shields")."""

    seat: int
    units: int


_per_seat = partial(list, (0, 0, 0, 0))
"""A fresh list of 0 per seat."""
_none_per_seat = partial(list, (-1, -1, -1, -1))
"""A fresh list of -1 (none) per seat."""


@dataclass(slots=True)
class AreaResolution:
    """The area being resolved (``State.resolving``); per-seat lists are indexed by absolute seat."""

    area: int
    resolver: int                 # the seat resolving it
    shared: bool                  # the resolver resolves every player's dice here (``shared_resolver``)
    exempt_only: bool             # someone else resolves the area: the resolver has only exempt dice here
    stage: int = S_THIEF          # ``codec.STAGES``
    mode: int = M_NONE            # ``codec.MODES``
    thief: int | None = None      # the Thief's owner stealing here (-1 none; None: not rolled yet)
    victim: int = -1              # the Silo's owner, robbed by the Thief
    assassin: int | None = None   # the Assassin's owner (-1 none, ``ASSASSIN_DONE``; None: not rolled yet)
    picks_left: int = 0           # the Thief's steals or the Assassin's injuries left to choose
    assassin_hits: list[int] = field(default_factory=_per_seat)  # per seat: Units the Assassin injured
    participants: list[int] = field(default_factory=list)  # seats rolling here, in turn order
    attacker: int = -1            # a Silo's attacker
    channeler: int = -1           # who channels in the Ether Fault
    faces: list[list[int]] = field(default_factory=lambda: [[], [], [], []])  # per seat: Unit die faces, sorted
    hero: list[int] = field(default_factory=_none_per_seat)     # per seat: Hero die face (-1 none)
    captain: list[int] = field(default_factory=_none_per_seat)  # per seat: Captain die face (-1 none)
    extra_pips: list[int] = field(default_factory=_per_seat)    # per seat: Defender and Ether die pips
    bonus: list[int] = field(default_factory=_per_seat)         # per seat: combat bonuses (boost, Battle Cry)
    score: list[int] = field(default_factory=_per_seat)         # per seat: combat result
    skill_seats: list[int] = field(default_factory=list)        # Hero Skill triggers still to use, in order
    winner: int = -1              # the combat winner (-1 none)
    injuries: list[Injury] = field(default_factory=list)  # injured seats still to shield, in order
    injury_window_open: bool = False  # the first injured seat's injury window was opened
    free_shields: int = 0         # Field Medic shields for the injured seat
    after_injuries: int = S_SETUP  # the stage after the injuries
    reward_step: int = -1         # ``codec.REWARD_STEPS`` (-1: not worked out yet)
    raid_points: int = 0          # Silo raid points left
    conduit_asked: bool = False
    extra_ether_asked: bool = False
    purchases_left: int = C.MARKET_PURCHASES
    purchase_target: int = -1     # the resource being purchased (-1 none)
    purchase_credit: int = 0      # pips paid towards it


AreaResolution.copy = fast.compile_copy(AreaResolution)
"""``AreaResolution.copy()``: an independent copy (``State.clone``) of every declared field."""

_UNIT_POWERED = tuple(full + hollow for full, hollow in zip(C.UNIT_FULL, C.UNIT_HOLLOW))
"""Counted pips of each Unit face when powered up (full and hollow pips)."""
_SEATS = tuple(tuple(q for q in range(4) if m >> q & 1) for m in range(16))
"""``_SEATS[mask]``: the seats in a bit mask, in seat order."""


class ResolutionRules:
    """Resolution-phase rules of ``rules.State`` (uses its fields)."""

    # ---- who resolves what ----------------------------------------------------------
    def dominated(self, a: int) -> bool:
        """A Hero or Captain is in ``a`` (rulebook "Hero Dice", "Captain")."""
        if a in self.hero_at:
            return True
        return self.merc_at[C.CAPTAIN] == a

    def shared_resolver(self, a: int, occ=None) -> int:
        """Seat that resolves ``a`` for everyone, or -1 if each player resolves its own dice.

        Ether Fault: the first player (from the first player) with dice there who
        does not control the Ether die, else the controller (rulebook "Ether Fault",
        "Commonly overlooked rules"). Silo: the attacker (rulebook "Player Silos");
        with only Thief/Assassin there, their owner (EW-A14). Limited area with a
        Combat: the first combatant in turn order (EW-A14). ``occ``: a precomputed
        ``occupancy()``.
        """
        if a == C.BIOSPHERE or a == C.MARKET or a == C.FACTORY:
            return -1
        counted, exempt = (self._counted_seats, self._exempt_seats) if occ is None else occ  # ``occupancy()``
        counted, exempt = counted[a], exempt[a]
        if not counted | exempt:
            return -1
        if a == C.ETHER_FAULT:
            seats = self.game.seats_in_order[self.first][counted | exempt]
            for q in seats:
                if q != self.ether_ctrl:
                    return q
            return seats[0]
        if a >= C.SILO0:
            owner = a - C.SILO0
            order = self.game.seat_orders[self.first]
            for mask in (counted, exempt):
                for q in order:
                    if q != owner and mask >> q & 1:
                        return q
            return -1
        if counted.bit_count() >= 2 and self.dominated(a) and self.event != C.CEASEFIRE:
            return self.game.seats_in_order[self.first][counted][0]
        return -1

    def resolve_options(self, p: int) -> list[int]:
        """Areas ``p`` may resolve now (rulebook "Resolution" 1-2)."""
        mask = self._resolve_table()[p]
        return [a for a in range(C.NUM_AREAS) if mask >> a & 1]

    def _resolve_table(self) -> list[int]:
        """``resolve_options`` of every seat, as area bit masks: an area with ``q``'s dice is
        ``q``'s to resolve if nobody resolves it for everyone, if ``q`` does, or if ``q`` has
        exempt dice in a Limited area."""
        occ = self.occupancy()
        counted, exempt = occ
        n = self.game.num_players
        out = [0] * n
        for a in range(C.SILO0 + n):  # the areas in play
            seats = counted[a] | exempt[a]
            if not seats:
                continue
            if not seats & (seats - 1):  # one seat there: it resolves the area (shared or not)
                out[_SEATS[seats][0]] |= 1 << a
                continue
            if a == C.BIOSPHERE or a == C.MARKET or a == C.FACTORY:  # never shared: each its own dice
                for q in _SEATS[seats]:
                    out[q] |= 1 << a
                continue
            resolver = self.shared_resolver(a, occ)
            own_exempt = exempt[a] if a in C.LIMITED else 0
            for q in _SEATS[seats]:
                if resolver == q or resolver == -1 or own_exempt >> q & 1:
                    out[q] |= 1 << a
        return out

    def _start_resolution(self) -> None:
        """Priestess rolled at the start of Resolution (rulebook "Priestess"); its rerolls are
        used on its owner's own rolls (EW-A21)."""
        m = C.PRIESTESS
        q = self.merc_owner[m]
        if q >= 0:
            self.rerolls[q] = C.MERCENARIES[m].faces[self.roll_d6()]
        self.turn = 0

    def _resolution_turn(self) -> bool:
        """Seats in turn from the first player choose an area to resolve (rulebook "Resolution" 1)."""
        order = self.game.seat_orders[self.first]
        n = self.game.num_players
        options = self._resolve_table()
        while self.turn < n:
            p = order[self.turn]
            if options[p]:
                self._decide(K_RESOLVE, p, self.game.area_actions(p, options[p], RESOLVE0, ()))
                return True
            self.turn += 1
        # any dice left (an area whose resolver already had its turn): one more pass (EW-A14)
        for q in order:
            if options[q]:
                self.turn = order.index(q)
                return False
        self.phase = MAINTENANCE
        self.queue = self.order()
        self.decision = K_NONE
        return False

    # ---- starting an area --------------------------------------------------------------
    def _begin_area(self, p: int, a: int) -> None:
        resolver = self.shared_resolver(a)
        resolving = self.resolving = AreaResolution(a, p, resolver == p, resolver != p and resolver != -1)
        if self.merc_at[C.THIEF] != a and self.merc_at[C.ASSASSIN] != a:
            # no Thief or Assassin rolls first here: what their stages would record, at once
            resolving.thief = resolving.assassin = -1
            resolving.stage = S_SETUP

    def _resolution_step(self) -> bool:
        """Run the area being resolved, stage by stage, until a decision is pending (True) or
        ``_advance`` must take over (a favour window or a gain is pending, the area is done,
        the game is over: False)."""
        resolving = self.resolving
        while True:
            if _STAGE_STEP[resolving.stage](self, resolving):
                return True
            if (self.resolving is not resolving or self.window is not None or self.gain_seat >= 0
                    or self.phase == OVER):
                return False

    # one method per stage: True when a decision is pending
    def _stage_thief(self, resolving: AreaResolution) -> bool:
        a = resolving.area
        if resolving.thief is None:  # rolled before any other die in the Silo (rulebook "Thief")
            resolving.thief = -1
            m = C.THIEF
            if resolving.shared and a >= C.SILO0 and self.merc_at[m] == a:
                resolving.thief, resolving.victim = self.merc_owner[m], a - C.SILO0
                resolving.picks_left = C.MERCENARIES[m].faces[self.roll_d6()]
                self.merc_at[m] = -1
                self._recount_area(a)
                self._leave_if_empty(resolving.thief, a)
        if (resolving.thief >= 0 and resolving.picks_left > 0
                and any(self.res[resolving.victim][r] for r in range(4))):
            self._decide(K_THIEF, resolving.thief)
            return True
        resolving.stage = S_ASSASSIN
        return False

    def _stage_assassin(self, resolving: AreaResolution) -> bool:
        a = resolving.area
        if resolving.assassin is None:  # rolled before any other die in the area (rulebook "Assassin"; EW-A20)
            resolving.assassin = -1
            m = C.ASSASSIN
            if self.merc_at[m] == a:
                resolving.assassin = self.merc_owner[m]
                self.merc_at[m] = -1
                self._recount_area(a)
                self._leave_if_empty(resolving.assassin, a)
                total = sum(self.units_at[q][a] for q in range(self.game.num_players))
                resolving.picks_left = min(C.MERCENARIES[m].faces[self.roll_d6()], total)
        if resolving.assassin >= 0 and resolving.picks_left > 0:
            self._decide(K_ASSASSIN, resolving.assassin)
            return True
        if resolving.assassin >= 0:
            resolving.assassin = ASSASSIN_DONE
            hits = resolving.assassin_hits
            resolving.injuries = [Injury(q, hits[q]) for q in self.order() if hits[q]]
            resolving.after_injuries = S_SETUP
            resolving.stage = S_INJURY
            return False
        resolving.stage = S_SETUP
        return False

    def _stage_reroll(self, resolving: AreaResolution) -> bool:
        p = resolving.resolver
        if p in resolving.participants and self.rerolls[p] > 0 and resolving.faces[p]:
            self._decide(K_REROLL, p)
            return True
        resolving.stage = S_SKILLS
        self._queue_skills(resolving)
        return False

    def _stage_skills(self, resolving: AreaResolution) -> bool:
        if resolving.skill_seats:
            self._decide(K_SKILL, resolving.skill_seats[0])
            return True
        resolving.stage = S_WINDOW if resolving.mode == M_COMBAT else S_REWARD
        return False

    def _stage_window(self, resolving: AreaResolution) -> bool:
        resolving.stage = S_OUTCOME
        self._open_window(W_COMBAT, start=resolving.resolver)
        return False

    def _stage_injury(self, resolving: AreaResolution) -> bool:
        while resolving.injuries:
            q, k = resolving.injuries[0]
            if not resolving.injury_window_open:
                resolving.injury_window_open = True
                resolving.free_shields = 0
                self._open_window(W_INJURY, seat=q, start=q)
                return False
            free = self.medic_free[q] + resolving.free_shields
            if min(k, free + self.res[q][C.PLASMA]) > 0:
                self._decide(K_SHIELD, q)
                return True
            self._shield(q, k, 0)
        resolving.stage = resolving.after_injuries
        return False

    def _stage_drone(self, resolving: AreaResolution) -> bool:
        resolving.stage = S_CLEANUP
        a, p = resolving.area, resolving.resolver
        m = C.DRONE
        if self.merc_at[m] == a and self.merc_owner[m] == p:
            pips = C.MERCENARIES[m].faces[self.roll_d6()]
            self.merc_at[m] = -1
            self._recount_area(a)
            self.gain(p, C.AREA_RESOURCE[a], pips)
        return False

    def _stage_buy(self, resolving: AreaResolution) -> bool:
        """Market, purchase payment, Factory: ask the resolver (nothing to buy or clone: done)."""
        stage, p = resolving.stage, resolving.resolver
        k = K_PAY if stage == S_PAY else K_MARKET if stage == S_MARKET else K_FACTORY
        legal = self._resolution_legal(k, p)
        if stage != S_PAY and legal == [DONE]:
            resolving.stage = S_CLEANUP  # nothing left to buy or clone
            return False
        self._decide(k, p, legal)
        return True

    def _setup_mode(self, resolving: AreaResolution) -> None:
        """Stage "setup": the area's mode and participants (no decision)."""
        a, p = resolving.area, resolving.resolver
        resolving.stage = S_DRONE
        if resolving.exempt_only:
            return
        counted = self._counted_seats[a]  # seats with combat dice (``combat_dice``) in the area
        present = list(self.game.seats_in_order[self.first][counted])
        if a == C.MARKET or a == C.FACTORY:
            # only a Hero blocks the Market / Factory (EW-A19)
            if counted >> p & 1 and (a not in self.hero_at or self.hero_at[p] == a):
                resolving.mode = M_MARKET if a == C.MARKET else M_FACTORY
                resolving.stage = S_MARKET if a == C.MARKET else S_FACTORY
            return
        if a == C.ETHER_FAULT:
            if len(present) >= 2:
                resolving.mode, resolving.participants, resolving.stage = M_COMBAT, present, S_ROLL
            elif present:
                resolving.mode, resolving.channeler, resolving.stage = M_CHANNEL, present[0], S_REWARD
            return
        if a >= C.SILO0:
            owner = a - C.SILO0
            # the first attacker
            attacker = present[0] if present and present[0] != owner else present[1] if len(present) > 1 else -1
            if attacker >= 0:
                resolving.attacker = attacker
                resolving.mode, resolving.participants, resolving.stage = M_COMBAT, present, S_ROLL
            return
        if a in C.LIMITED and len(present) >= 2 and self.dominated(a) and self.event != C.CEASEFIRE:
            resolving.mode, resolving.participants, resolving.stage = M_COMBAT, present, S_ROLL  # Combat
            return
        if a in C.EXTRACTION_AREAS and counted >> p & 1:
            resolving.mode, resolving.participants, resolving.stage = M_EXTRACT, [p], S_ROLL

    # ---- rolling and counting -----------------------------------------------------------
    def powered(self, q: int, a: int) -> bool:
        """Whether ``q``'s Units in ``a`` are powered up (hollow pips count): its ability card
        (rulebook "Faction Abilities"; cards EW-A5)."""
        key = self.ability_key(q)
        if not key:
            return False
        if key == "fortified":
            return a == C.SILO0 + q
        if key == "aggressive":
            return self.aggressive_silo[q]
        if key == "swarm":
            return a in C.LIMITED and any(self.has_dice(o, a) for o in range(self.game.num_players) if o != q)
        if key == "overclock":
            return a in C.EXTRACTION_AREAS
        if key == "harvest":
            return a == C.BIOSPHERE
        return False

    def unit_pips(self, q: int, face: int) -> int:
        """Counted pips of a Unit face (0-based) of ``q`` in the area being resolved."""
        pips = C.UNIT_FULL[face]
        if self.powered(q, self.resolving.area):
            pips += C.UNIT_HOLLOW[face]
        return pips

    def _roll(self, resolving: AreaResolution) -> None:
        """Stage "roll": roll every participant's dice at once (``roll_d6s``), taken in the order
        Units, Hero, Captain, Defender, Ether die, participant by participant (no decision)."""
        resolving.stage = S_REROLL
        a = resolving.area
        plan = []  # per participant: (seat, units, hero?, captain?, defender?, ether die?)
        total = 0
        for q in resolving.participants:
            units = self.units_at[q][a]
            m = self.hired[q]
            hero = self.hero_at[q] == a
            captain = m == C.CAPTAIN and self.merc_at[m] == a
            defender = m == C.DEFENDER and self.merc_at[m] == a
            ether_die = a == C.ETHER_FAULT and self.ether_placed and self.ether_ctrl == q
            plan.append((q, units, hero, captain, defender, ether_die))
            total += units + hero + captain + defender + ether_die
        draws = self.roll_d6s(total)
        i = 0
        for q, units, hero, captain, defender, ether_die in plan:
            faces = draws[i:i + units]
            faces.sort()
            resolving.faces[q] = faces
            i += units
            resolving.hero[q] = draws[i] if hero else -1
            i += hero
            resolving.captain[q] = draws[i] if captain else -1
            i += captain
            extra = 0
            if defender:
                extra += C.MERCENARIES[C.DEFENDER].faces[draws[i]]
                i += 1
            if ether_die:
                extra += C.ETHER_DIE[draws[i]]
                i += 1
            resolving.extra_pips[q] = extra

    def roll_score(self, q: int) -> int:
        """``q``'s score in the current roll: counted Unit pips, Hero and Captain full pips,
        Defender and Ether die pips, and combat bonuses (rulebook "Combat action")."""
        resolving = self.resolving
        s = 0
        pips = _UNIT_POWERED if self.powered(q, resolving.area) else C.UNIT_FULL  # as ``unit_pips``
        for f in resolving.faces[q]:
            s += pips[f]
        if resolving.hero[q] >= 0:
            s += C.HERO_FULL[resolving.hero[q]]
        if resolving.captain[q] >= 0:
            s += C.MERCENARIES[C.CAPTAIN].faces[resolving.captain[q]]
        return s + resolving.extra_pips[q] + resolving.bonus[q]

    def _queue_skills(self, resolving: AreaResolution) -> None:
        """Charge icons: +1 Charge each and a Hero Skill trigger (rulebook "Hero Skills"):
        Human/Dracon in combat, VAI/Ripper after an extraction with no prior combat."""
        resolving.skill_seats = []
        combat = resolving.mode == M_COMBAT
        for q in resolving.participants:
            icons = 0
            if resolving.hero[q] >= 0:
                icons += C.HERO_CHARGE[resolving.hero[q]]
            if resolving.captain[q] >= 0:
                icons += C.MERCENARIES[C.CAPTAIN].charge[resolving.captain[q]]
            for _ in range(icons):
                self.gain_charge(q)
                f = self.faction[q]
                if combat and f in (C.HUMAN, C.DRACON):
                    resolving.skill_seats.append(q)
                elif not combat and f == C.VAI:
                    self.gain_seat, self.gain_left = q, self.gain_left + 1
                elif not combat and f == C.RIPPER:
                    self.gain(q, C.PROTEIN, C.RIPPER_SKILL_PROTEIN)

    def _skill_targets(self, q: int) -> list[int]:
        """Legal UNIT_DIE / SEAT indices for ``q``'s Hero Skill (Human / Dracon; EW-A22)."""
        resolving = self.resolving
        n = self.game.num_players
        if self.faction[q] == C.HUMAN:
            return sorted({((o - q) % n) * 6 + f for o in resolving.participants for f in resolving.faces[o]})
        return [(o - q) % n for o in resolving.participants if o != q and resolving.faces[o]]

    # ---- outcome, injuries, rewards ---------------------------------------------------------
    def _outcome(self, resolving: AreaResolution) -> None:
        """Stage "outcome": the combat winner and the injuries (no decision)."""
        a = resolving.area
        participants = resolving.participants
        score = resolving.score
        best = -1
        for q in participants:
            score[q] = self.roll_score(q)
            if score[q] > best:
                best = score[q]
        tied = []
        for q in participants:
            if score[q] == best:
                tied.append(q)
        if len(tied) == 1:
            w = tied[0]
        elif a == C.ETHER_FAULT:
            w = self.ether_ctrl if self.ether_ctrl in tied else -1  # EW-A15
        elif a >= C.SILO0 and (a - C.SILO0) in tied:
            w = a - C.SILO0
        else:
            w = next(q for q in self.arrival[a] if q in tied)
        if a >= C.SILO0 and (a - C.SILO0) not in participants:
            # undefended Silo: the defender scores 0 (EW-A16)
            w = resolving.attacker if best > 0 else -1
        resolving.winner = w
        resolving.injuries = []
        if w >= 0:
            caused = 0
            for q in participants:
                if q == w:
                    continue
                k = min((score[w] - score[q]) // 2, self.units_at[q][a])
                if k > 0:
                    resolving.injuries.append(Injury(q, k))
                    caused += k
            if caused and self.ability_key(w) == "hungry":
                self.gain(w, C.PROTEIN, C.HUNGRY_PROTEIN * caused)
            if caused and self.ability_key(w) == "assimilate":
                self.gain_seat, self.gain_left = w, self.gain_left + caused
        resolving.after_injuries = S_REWARD
        resolving.stage = S_INJURY

    def _shield(self, q: int, k: int, shields: int) -> None:
        """``q`` shields ``shields`` of its ``k`` injured Units; the rest die (rulebook
        "Shields", "Dying"). Medic / Field Medic shields are free first."""
        resolving = self.resolving
        a = resolving.area
        free = min(shields, self.medic_free[q] + resolving.free_shields)
        from_medic = min(free, self.medic_free[q])
        self.medic_free[q] -= from_medic
        self.res[q][C.PLASMA] -= shields - free  # 1 Plasma a shield
        dead = k - shields
        self.units_at[q][a] -= dead
        self.reserve[q] += dead
        self._recount_area(a)
        self._leave_if_empty(q, a)
        resolving.injuries.pop(0)
        resolving.injury_window_open = False

    def extraction_cost(self, q: int, r: int) -> int:
        """Pips per resource for ``q``: the printed cost (``Game.extraction_cost``) changed by this
        round's Event and the VAI Refinery card (EW-A5, EW-A6)."""
        cost = self.game.extraction_cost[r]
        event_cost = C.EVENT_EXTRACTION_COST.get(self.event)
        if event_cost is not None and event_cost.resource == r:
            cost = event_cost.pips
        if r in (C.PLASMA, C.CRYSTAL) and self.ability_key(q) == "refinery":
            cost = max(1, cost - 1)
        return cost

    def _extract(self, q: int, a: int, pips: int) -> None:
        """Rulebook "Extraction": roll divided by the cost, rounded down."""
        r = C.AREA_RESOURCE[a]
        k = pips // self.extraction_cost(q, r)
        if a == C.BIOSPHERE and self.event == C.PROTEIN_STORM:
            k //= 2
        self.gain(q, r, k)

    def raid_cost(self, q: int, r: int) -> int:
        """Silo raid: extraction cost + 1, Ether 8 (rulebook "Player Silos"; EW-A24)."""
        return C.SILO_ETHER_COST if r == C.ETHER else self.extraction_cost(q, r) + 1

    def _reward(self, resolving: AreaResolution) -> bool:
        """Extraction with the roll, the combat winner's extraction or Channelling, or the
        Silo raid (rulebook "Extraction", "Combat action", "Channelling", "Player Silos";
        automatic steps EW-A17; a sole player channels and takes the Ether die EW-A23).
        Stage "reward": True when a decision is pending."""
        step = resolving.reward_step
        if step < 0:
            a, mode, w = resolving.area, resolving.mode, resolving.winner
            step = REWARD_NONE
            if mode == M_EXTRACT:
                p = resolving.resolver
                self._extract(p, a, self.roll_score(p))
            elif mode == M_COMBAT and w >= 0:
                if a in C.LIMITED:
                    self._extract(w, a, resolving.score[w])
                elif a == C.ETHER_FAULT:
                    resolving.channeler, step = w, REWARD_CHANNELLING
                elif a >= C.SILO0 and w == resolving.attacker:
                    owner = a - C.SILO0
                    defence = resolving.score[owner] if owner in resolving.participants else 0
                    resolving.raid_points = resolving.score[w] - defence
                    step = REWARD_RAID
            elif mode == M_CHANNEL:
                step = REWARD_CHANNELLING
            resolving.reward_step = step
            if step == REWARD_CHANNELLING:  # 1 Ether and the Ether die (rulebook "Channelling", "Ether Die")
                c = resolving.channeler
                self.ether_ctrl = c
                self._recount_area(C.ETHER_FAULT)  # a placed Ether die changes hands
                self.channelled[c] = True
                self.gain(c, C.ETHER, 2 if self.event == C.ETHER_SURGE else 1)
                if self.phase == OVER:
                    return False
        if step == REWARD_CHANNELLING:
            c = resolving.channeler
            if (self.ability_key(c) == "conduit" and self.charge[c] >= C.CONDUIT_CHARGE and not self.conduit_used[c]
                    and not resolving.conduit_asked):
                self._decide(K_CONDUIT, c)
                return True
            if (self.res[c][C.CRYSTAL] >= C.EXTRA_ETHER_CRYSTAL and not self.extra_used[c]
                    and not resolving.extra_ether_asked):
                self._decide(K_END_ETHER, c)  # the extra Ether right away (again at the end of the round)
                return True
        if step == REWARD_RAID and self._raid_options():
            self._decide(K_RAID, resolving.attacker)
            return True
        resolving.stage = S_DRONE
        return False

    def _raid_options(self) -> list[int]:
        """Resources the attacker may still take from the Silo's owner with its raid points."""
        resolving = self.resolving
        q = resolving.attacker
        res = self.res[resolving.area - C.SILO0]  # the owner's
        out = []
        for r in range(C.NUM_RES):
            if res[r] and resolving.raid_points >= self.raid_cost(q, r):
                out.append(r)
        return out

    def _cleanup(self, resolving: AreaResolution) -> None:
        """Stage "cleanup": dice return to their sheets (rulebook "Resolution" 2; Mercenaries
        stay hired); the area is done (no decision)."""
        a, p = resolving.area, resolving.resolver
        # (a seat without dice here has nothing to take back)
        seats = _SEATS[self._counted_seats[a] | self._exempt_seats[a]] if resolving.shared else (p,)
        for q in (() if resolving.exempt_only else seats):
            self.home_units[q] += self.units_at[q][a]
            self.units_at[q][a] = 0
            if self.hero_at[q] == a:
                self.hero_at[q] = -1
            m = self.hired[q]
            if m >= 0 and self.merc_at[m] == a and (q == p or m != C.DRONE):
                self.merc_at[m] = -1
            if a == C.ETHER_FAULT and self.ether_ctrl == q:
                self.ether_placed = False
        self._recount_area(a)
        seats = self._counted_seats[a] | self._exempt_seats[a]  # who still has dice here (``has_dice``)
        arrival = []
        for q in self.arrival[a]:
            if seats >> q & 1:
                arrival.append(q)
        self.arrival[a] = arrival
        self.resolving = None

    # ---- market purchases -----------------------------------------------------------------
    # Rulebook "Purchasing" 2: "Selling resources is worth their extraction cost, and buying
    # resources is worth their extraction cost plus one": the printed costs (EW-A18)
    def _purchase_markup(self, q: int) -> int:
        """What ``q`` pays above the extraction cost to buy: 1 (VAI Trader, Black Market: 0; EW-A18)."""
        return 0 if self.ability_key(q) == "trader" or self.event == C.BLACK_MARKET else 1

    def buy_cost(self, q: int, r: int) -> int:
        """Rulebook "Purchasing" 2: extraction cost + 1 (VAI Trader, Black Market: + 0); EW-A18."""
        return self.game.extraction_cost[r] + self._purchase_markup(q)

    def _buyable(self, q: int) -> list[int]:
        """Resources 0..3 that ``q`` can purchase: the other three resources it holds are worth
        the price (``buy_cost``) and the box has one left."""
        res, cost, markup = self.res[q], self.game.extraction_cost, self._purchase_markup(q)
        worth = (res[0] * cost[0], res[1] * cost[1], res[2] * cost[2], res[3] * cost[3])  # sold, each resource held
        total = worth[0] + worth[1] + worth[2] + worth[3]
        out = []
        for t in range(4):
            if total - worth[t] >= cost[t] + markup and self.bank(t) > 0:
                out.append(t)
        return out

    def clone_cost(self, q: int) -> int:
        """Rulebook "Cloning": 4 Protein per Unit (the Ripper's Replicate card: 3; EW-A5)."""
        return C.REPLICATE_CLONE_COST if self.ability_key(q) == "replicate" else C.CLONE_COST

    # ---- legal actions and effects of the resolution decisions --------------------------------
    def _resolution_legal(self, k: int, p: int) -> list[int]:
        resolving = self.resolving
        n = self.game.num_players
        if k == K_RESOLVE:
            return self.game.area_actions(p, self._resolve_table()[p], RESOLVE0, ())
        if k == K_MARKET:
            out = []
            if resolving.purchases_left > 0:
                if self.res[p][C.CRYSTAL] >= C.MARKET_FAVOUR_CRYSTAL and (self.fdeck or self.fdiscard):
                    out.append(MARKET_FAVOUR)
                for t in self._buyable(p):
                    out.append(RESOURCE0 + t)
            out.sort()
            out.append(DONE)
            return out
        if k == K_PAY:
            t = resolving.purchase_target
            res = self.res[p]
            out = [PAY0 + r for r in range(4) if r != t and res[r]]
            if resolving.purchase_credit >= self.buy_cost(p, t):
                out.append(DONE)
            return out
        if k == K_THIEF:
            return [RESOURCE0 + r for r in range(4) if self.res[resolving.victim][r]]
        if k == K_ASSASSIN:
            a = resolving.area
            return [SEAT0 + (q - p) % n for q in range(n) if self.units_at[q][a] > resolving.assassin_hits[q]]
        if k == K_SHIELD:
            q, injured = resolving.injuries[0]
            top = min(injured, self.medic_free[q] + resolving.free_shields + self.res[q][C.PLASMA])
            return [SHIELD0 + s for s in range(top + 1)]
        if k == K_REROLL:
            return sorted({UNIT_DIE0 + f for f in resolving.faces[p]}) + [DONE]
        if k == K_SKILL:
            base = UNIT_DIE0 if self.faction[p] == C.HUMAN else SEAT0
            return [base + i for i in self._skill_targets(p)] + [PASS]
        if k == K_RAID:
            return [RESOURCE0 + r for r in self._raid_options()] + [DONE]
        if k == K_FACTORY:
            out = [CLONE] if self.res[p][C.PROTEIN] >= self.clone_cost(p) and self.reserve[p] > 0 else []
            return out + [DONE]
        raise AssertionError(f"no legal actions for decision {k}")

    def _resolution_apply(self, k: int, p: int, block: str, i: int) -> None:
        resolving = self.resolving
        n = self.game.num_players
        if k == K_RESOLVE:
            self._begin_area(p, self.game.abs_areas[p][i])
        elif k == K_MARKET:
            if block == "DONE":
                resolving.stage = S_CLEANUP
            elif block == "MARKET_FAVOUR":
                self.res[p][C.CRYSTAL] -= C.MARKET_FAVOUR_CRYSTAL
                self.hand[p][self._draw_favour()] += 1
                resolving.purchases_left -= 1
            else:
                resolving.purchase_target, resolving.purchase_credit = i, 0
                resolving.stage = S_PAY
        elif k == K_PAY:
            if block == "DONE":
                t = resolving.purchase_target
                self.gain(p, t, resolving.purchase_credit // self.buy_cost(p, t))
                resolving.purchases_left -= 1
                resolving.purchase_target, resolving.purchase_credit = -1, 0
                resolving.stage = S_MARKET
            else:
                self.res[p][i] -= 1
                resolving.purchase_credit += self.game.extraction_cost[i]  # its sale value
        elif k == K_THIEF:
            self.res[resolving.victim][i] -= 1
            self.res[p][i] += 1
            resolving.picks_left -= 1
        elif k == K_ASSASSIN:
            resolving.assassin_hits[(p + i) % n] += 1
            resolving.picks_left -= 1
        elif k == K_SHIELD:
            q, injured = resolving.injuries[0]
            self._shield(q, injured, i)
        elif k == K_REROLL:
            if block == "DONE":
                resolving.stage = S_SKILLS
                self._queue_skills(resolving)
            else:
                faces = resolving.faces[p]
                faces.remove(i)
                faces.append(self.roll_d6())
                faces.sort()
                self.rerolls[p] -= 1
        elif k == K_SKILL:
            resolving.skill_seats.pop(0)
            a = resolving.area
            if block == "UNIT_DIE":  # Human: the Unit goes back to its sheet and does not count
                o, f = (p + i // 6) % n, i % 6
                resolving.faces[o].remove(f)
                self.units_at[o][a] -= 1
                self.home_units[o] += 1
                self._recount_area(a)
            elif block == "SEAT":  # Dracon: the opponent's lowest Unit goes to its reserve
                o = (p + i) % n
                f = min(resolving.faces[o], key=lambda x: (self.unit_pips(o, x), x))
                resolving.faces[o].remove(f)
                self.units_at[o][a] -= 1
                self.reserve[o] += 1
                self._recount_area(a)
        elif k == K_RAID:
            if block == "DONE":
                resolving.reward_step = REWARD_NONE
            else:
                owner = resolving.area - C.SILO0
                resolving.raid_points -= self.raid_cost(p, i)
                self.res[owner][i] -= 1
                self.res[p][i] += 1
                if i == C.ETHER:  # taken through ``gain``: it may win the game (rulebook "Objective")
                    self.res[p][i] -= 1
                    self.gain(p, C.ETHER, 1)
        elif k == K_FACTORY:
            if block == "DONE":
                resolving.stage = S_CLEANUP
            else:
                self.res[p][C.PROTEIN] -= self.clone_cost(p)
                self.reserve[p] -= 1
                self.home_units[p] += 1
        else:
            raise AssertionError(f"unknown decision {k}")


_STAGE_STEP = (ResolutionRules._stage_thief, ResolutionRules._stage_assassin, ResolutionRules._setup_mode,
               ResolutionRules._roll, ResolutionRules._stage_reroll, ResolutionRules._stage_skills,
               ResolutionRules._stage_window, ResolutionRules._outcome, ResolutionRules._stage_injury,
               ResolutionRules._reward, ResolutionRules._stage_drone, ResolutionRules._cleanup,
               ResolutionRules._stage_buy, ResolutionRules._stage_buy, ResolutionRules._stage_buy)
"""The step method of each resolution stage, indexed by ``codec.STAGES``: ``step(state, resolving)``,
true when a decision is pending."""
assert len(_STAGE_STEP) == len(STAGES)
