"""Ether Wars Resolution phase (rulebook "Resolution" and its sub-sections), as a
mixin of ``rules.State``.

The area being resolved is the dict ``state.rc``; its ``stage`` walks through
``STAGES`` (see RULES.md, "State machine"). Decisions inside it: thief steals,
Assassin targets, Priestess rerolls, Hero Skills, the combat favour window,
shields, silo raid, market purchases, cloning, Conduit.
"""

from __future__ import annotations

from . import components as C
from . import rules as R  # circular on purpose: rules defines the constants before importing this module

_EVENT_KEY, _ABILITY_KEYS = R._EVENT_KEY, R._ABILITY_KEYS  # (``event_key()``, ``ability_key(q)`` inlined)

STAGES = ("thief", "assassin", "setup", "roll", "reroll", "skills", "window", "outcome", "injury", "reward",
          "drone", "cleanup", "market", "pay", "factory")
(S_THIEF, S_ASSASSIN, S_SETUP, S_ROLL, S_REROLL, S_SKILLS, S_WINDOW, S_OUTCOME, S_INJURY, S_REWARD, S_DRONE,
 S_CLEANUP, S_MARKET, S_PAY, S_FACTORY) = range(len(STAGES))
MODES = ("none", "combat", "extract", "channel", "market", "factory")
M_NONE, M_COMBAT, M_EXTRACT, M_CHANNEL, M_MARKET, M_FACTORY = range(len(MODES))
_BITS = [bin(x).count("1") for x in range(16)]
_BIT_SEAT = {1 << q: q for q in range(4)}
_RC_START = {
    "area": -1, "resolver": -1, "shared": False, "exempt_only": False,
    "stage": S_THIEF, "mode": M_NONE, "parts": None,
    "faces": None, "hero": None, "capt": None, "extra": None,
    "boost": None, "score": None, "skills": None, "inj": None, "inj_open": False,
    "free_shields": 0, "after_inj": S_SETUP, "winner": -1, "hits": None, "left": 0,
    "raid": 0, "purchases": 2, "target": -1, "credit": 0, "conduit_asked": False,
    "attacker": -1, "channeler": -1, "combat_done": False,
}
"""``State.rc`` at the start of an area, key order included; ``_begin_area`` copies it and puts
in the area, the resolver and a fresh list for every ``None``."""
_UNIT_FULL = C.UNIT_FULL
_UNIT_POWERED = tuple(full + hollow for full, hollow in zip(C.UNIT_FULL, C.UNIT_HOLLOW))
"""Counted pips of each Unit face when powered up (full and hollow pips)."""
_SEATS = tuple(tuple(q for q in range(4) if m >> q & 1) for m in range(16))  # seats in a bit mask


class ResolutionMixin:
    """Resolution-phase methods of ``rules.State`` (uses its fields and constants)."""

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
        if occ is None:
            occ = self._occ_normal, self._occ_exempt  # ``occupancy()``
        normal, exempt = occ[0][a], occ[1][a]
        if not normal | exempt:
            return -1
        if a == C.ETHER_FAULT:
            seats = self.game.seats_in_order[self.first][normal | exempt]
            for q in seats:
                if q != self.ether_ctrl:
                    return q
            return seats[0]
        if a >= C.SILO0:
            owner = a - C.SILO0
            order = self.game.seat_orders[self.first]
            for mask in (normal, exempt):
                for q in order:
                    if q != owner and mask >> q & 1:
                        return q
            return -1
        if _BITS[normal] >= 2 and self.dominated(a) and _EVENT_KEY[self.event] != "ceasefire":
            return self.game.seats_in_order[self.first][normal][0]
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
        normal, exempt = occ
        n = self.game.num_players
        out = [0] * n
        for a in range(C.SILO0 + n):  # the areas in play
            seats = normal[a] | exempt[a]
            if not seats:
                continue
            if not seats & (seats - 1):  # one seat there: it resolves the area (shared or not)
                out[_BIT_SEAT[seats]] |= 1 << a
                continue
            if a == C.BIOSPHERE or a == C.MARKET or a == C.FACTORY:  # never shared: each its own dice
                for q in _SEATS[seats]:
                    out[q] |= 1 << a
                continue
            sr = self.shared_resolver(a, occ)
            own_exempt = exempt[a] if a in C.LIMITED else 0
            for q in _SEATS[seats]:
                if sr == q or sr == -1 or own_exempt >> q & 1:
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
        order = self.game.seat_orders[self.first]
        n = self.game.num_players
        options = self._resolve_table()
        while self.turn < n:
            p = order[self.turn]
            if options[p]:
                self.pk, self.pp = R.K_RESOLVE, p  # ``_decide``
                self._legal_cache = self.game.area_actions(p, options[p], R.RESOLVE0, ())
                return True
            self.turn += 1
        # any dice left (an area whose resolver already had its turn): one more pass (EW-A14)
        for q in order:
            if options[q]:
                self.turn = order.index(q)
                return False
        self.phase = R.MAINTENANCE
        self.queue = self.order()
        self.pk = R.K_NONE
        return False

    # ---- starting an area --------------------------------------------------------------
    def _begin_area(self, p: int, a: int) -> None:
        sr = self.shared_resolver(a)
        rc = self.rc = _RC_START.copy()  # the plain values; then the area's and fresh lists
        rc["area"], rc["resolver"], rc["shared"], rc["exempt_only"] = a, p, sr == p, sr != p and sr != -1
        rc["parts"], rc["skills"], rc["inj"] = [], [], []
        rc["faces"] = [[], [], [], []]
        rc["hero"], rc["capt"] = [-1, -1, -1, -1], [-1, -1, -1, -1]
        rc["extra"], rc["boost"], rc["score"], rc["hits"] = [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]
        if self.merc_at[C.THIEF] != a and self.merc_at[C.ASSASSIN] != a:
            # no Thief or Assassin rolls first here: what their stages would record, at once
            # (~2% of engine instructions)
            rc["thief"] = rc["assassin"] = -1
            rc["stage"] = S_SETUP

    def _rc_step(self) -> bool:
        """Run the area being resolved, stage by stage, until a decision is pending (True) or
        ``_advance`` must take over (a favour window or a gain is pending, the area is done,
        the game is over: False)."""
        rc = self.rc
        while True:
            if _STAGE_STEP[rc["stage"]](self, rc):
                return True
            if self.rc is not rc or self.win is not None or self.gain_seat >= 0 or self.phase == R.OVER:
                return False

    # one method per stage: True when a decision is pending
    def _stage_thief(self, rc: dict) -> bool:
        a = rc["area"]
        if "thief" not in rc:  # rolled before any other die in the Silo (rulebook "Thief")
            rc["thief"] = -1
            m = C.THIEF
            if rc["shared"] and a >= C.SILO0 and self.merc_at[m] == a:
                rc["thief"], rc["victim"] = self.merc_owner[m], a - C.SILO0
                rc["left"] = C.MERCENARIES[m].faces[self.roll_d6()]
                self.merc_at[m] = -1
                self._recount_area(a)
                self._leave_if_empty(rc["thief"], a)
        if rc["thief"] >= 0 and rc["left"] > 0 and any(self.res[rc["victim"]][r] for r in range(4)):
            self._decide(R.K_THIEF, rc["thief"])
            return True
        rc["stage"] = S_ASSASSIN
        return False

    def _stage_assassin(self, rc: dict) -> bool:
        a = rc["area"]
        if "assassin" not in rc:  # rolled before any other die in the area (rulebook "Assassin"; EW-A20)
            rc["assassin"] = -1
            m = C.ASSASSIN
            if self.merc_at[m] == a:
                rc["assassin"] = self.merc_owner[m]
                self.merc_at[m] = -1
                self._recount_area(a)
                self._leave_if_empty(rc["assassin"], a)
                total = sum(self.units_at[q][a] for q in range(self.game.num_players))
                rc["left"] = min(C.MERCENARIES[m].faces[self.roll_d6()], total)
        if rc["assassin"] >= 0 and rc["left"] > 0:
            self._decide(R.K_ASSASSIN, rc["assassin"])
            return True
        if rc["assassin"] >= 0:
            rc["assassin"] = -2
            rc["inj"] = [[q, rc["hits"][q]] for q in self.order() if rc["hits"][q]]
            rc["after_inj"] = S_SETUP
            rc["stage"] = S_INJURY
            return False
        rc["stage"] = S_SETUP
        return False

    def _stage_reroll(self, rc: dict) -> bool:
        p = rc["resolver"]
        if p in rc["parts"] and self.rerolls[p] > 0 and rc["faces"][p]:
            self._decide(R.K_REROLL, p)
            return True
        rc["stage"] = S_SKILLS
        self._queue_skills(rc)
        return False

    def _stage_skills(self, rc: dict) -> bool:
        if rc["skills"]:
            self._decide(R.K_SKILL, rc["skills"][0])
            return True
        rc["stage"] = S_WINDOW if rc["mode"] == M_COMBAT else S_REWARD
        return False

    def _stage_window(self, rc: dict) -> bool:
        rc["stage"] = S_OUTCOME
        self._open_window(R.W_COMBAT, start=rc["resolver"])
        return False

    def _stage_injury(self, rc: dict) -> bool:
        while rc["inj"]:
            q, k = rc["inj"][0]
            if not rc["inj_open"]:
                rc["inj_open"] = True
                rc["free_shields"] = 0
                self._open_window(R.W_INJURY, seat=q, start=q)
                return False
            free = self.medic_free[q] + rc["free_shields"]
            if min(k, free + self.res[q][C.PLASMA]) > 0:
                self._decide(R.K_SHIELD, q)
                return True
            self._shield(q, k, 0)
        rc["stage"] = rc["after_inj"]
        return False

    def _stage_drone(self, rc: dict) -> bool:
        rc["stage"] = S_CLEANUP
        a, p = rc["area"], rc["resolver"]
        m = C.DRONE
        if self.merc_at[m] == a and self.merc_owner[m] == p:
            pips = C.MERCENARIES[m].faces[self.roll_d6()]
            self.merc_at[m] = -1
            self._recount_area(a)
            self.gain(p, C.AREA_RESOURCE[a], pips)
        return False

    def _stage_buy(self, rc: dict) -> bool:
        """Market, purchase payment, Factory: ask the resolver (nothing to buy or clone: done)."""
        st, p = rc["stage"], rc["resolver"]
        k = R.K_PAY if st == S_PAY else R.K_MARKET if st == S_MARKET else R.K_FACTORY
        legal = self._resolution_legal(k, p)
        if st != S_PAY and legal == [R.DONE]:
            rc["stage"] = S_CLEANUP  # nothing left to buy or clone
            return False
        self._decide(k, p, legal)
        return True

    def _setup_mode(self, rc: dict) -> None:
        """Stage "setup": the area's mode and participants (no decision)."""
        a, p = rc["area"], rc["resolver"]
        rc["stage"] = S_DRONE
        if rc["exempt_only"]:
            return
        normal = self._occ_normal[a]  # seats with combat dice (``combat_dice``) in the area
        occ = list(self.game.seats_in_order[self.first][normal])
        if a == C.MARKET or a == C.FACTORY:
            # only a Hero blocks the Market / Factory (EW-A19)
            if normal >> p & 1 and (a not in self.hero_at or self.hero_at[p] == a):
                rc["mode"] = M_MARKET if a == C.MARKET else M_FACTORY
                rc["stage"] = S_MARKET if a == C.MARKET else S_FACTORY
            return
        if a == C.ETHER_FAULT:
            if len(occ) >= 2:
                rc["mode"], rc["parts"], rc["stage"] = M_COMBAT, occ, S_ROLL
            elif occ:
                rc["mode"], rc["channeler"], rc["stage"] = M_CHANNEL, occ[0], S_REWARD
            return
        if a >= C.SILO0:
            owner = a - C.SILO0
            att = occ[0] if occ and occ[0] != owner else occ[1] if len(occ) > 1 else -1  # the first attacker
            if att >= 0:
                rc["attacker"] = att
                rc["mode"], rc["parts"], rc["stage"] = M_COMBAT, occ, S_ROLL
            return
        if a in C.LIMITED and len(occ) >= 2 and self.dominated(a) and _EVENT_KEY[self.event] != "ceasefire":
            rc["mode"], rc["parts"], rc["stage"] = M_COMBAT, occ, S_ROLL  # Combat in a Limited area
            return
        if a in C.EXTRACTION_AREAS and normal >> p & 1:
            rc["mode"], rc["parts"], rc["stage"] = M_EXTRACT, [p], S_ROLL

    # ---- rolling and counting -----------------------------------------------------------
    def powered(self, q: int, a: int) -> bool:
        """Whether ``q``'s Units in ``a`` are powered up (hollow pips count): its ability card
        (rulebook "Faction Abilities"; cards EW-A5)."""
        key = _ABILITY_KEYS[self.faction[q]][self.ability[q]]
        if not key:
            return False
        if key == "fortified":
            return a == C.SILO0 + q
        if key == "aggressive":
            return self.aggr_silo[q]
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
        if self.powered(q, self.rc["area"]):
            pips += C.UNIT_HOLLOW[face]
        return pips

    def _roll(self, rc: dict) -> None:
        """Stage "roll": roll every participant's dice at once (``roll_d6s``), taken in the order
        Units, Hero, Captain, Defender, Ether die, participant by participant (no decision)."""
        rc["stage"] = S_REROLL
        a = rc["area"]
        plan = []  # per participant: (seat, units, hero?, captain?, defender?, ether die?)
        total = 0
        for q in rc["parts"]:
            k = self.units_at[q][a]
            m = self.hired[q]
            hero = self.hero_at[q] == a
            capt = m == C.CAPTAIN and self.merc_at[m] == a
            dfd = m == C.DEFENDER and self.merc_at[m] == a
            eth = a == C.ETHER_FAULT and self.ether_placed and self.ether_ctrl == q
            plan.append((q, k, hero, capt, dfd, eth))
            total += k + hero + capt + dfd + eth
        draws = self.roll_d6s(total)
        i = 0
        for q, k, hero, capt, dfd, eth in plan:
            faces = draws[i:i + k]
            faces.sort()
            rc["faces"][q] = faces
            i += k
            rc["hero"][q] = draws[i] if hero else -1
            i += hero
            rc["capt"][q] = draws[i] if capt else -1
            i += capt
            extra = 0
            if dfd:
                extra += C.MERCENARIES[C.DEFENDER].faces[draws[i]]
                i += 1
            if eth:
                extra += C.ETHER_DIE[draws[i]]
                i += 1
            rc["extra"][q] = extra

    def roll_score(self, q: int) -> int:
        """``q``'s score in the current roll: counted Unit pips, Hero and Captain full pips,
        Defender and Ether die pips, and combat bonuses (rulebook "Combat action")."""
        rc = self.rc
        s = 0
        if self.powered(q, rc["area"]):  # as ``unit_pips`` for each face
            for f in rc["faces"][q]:
                s += _UNIT_POWERED[f]
        else:
            for f in rc["faces"][q]:
                s += _UNIT_FULL[f]
        if rc["hero"][q] >= 0:
            s += C.HERO_FULL[rc["hero"][q]]
        if rc["capt"][q] >= 0:
            s += C.MERCENARIES[C.CAPTAIN].faces[rc["capt"][q]]
        return s + rc["extra"][q] + rc["boost"][q]

    def _queue_skills(self, rc: dict) -> None:
        """Charge icons: +1 Charge each and a Hero Skill trigger (rulebook "Hero Skills"):
        Human/Dracon in combat, VAI/Ripper after an extraction with no prior combat."""
        rc["skills"] = []
        combat = rc["mode"] == M_COMBAT
        for q in rc["parts"]:
            icons = 0
            if rc["hero"][q] >= 0:
                icons += C.HERO_CHARGE[rc["hero"][q]]
            if rc["capt"][q] >= 0:
                icons += C.MERCENARIES[C.CAPTAIN].charge[rc["capt"][q]]
            for _ in range(icons):
                self.gain_charge(q)
                f = self.faction[q]
                if combat and f in (C.HUMAN, C.DRACON):
                    rc["skills"].append(q)
                elif not combat and f == C.VAI:
                    self.gain_seat, self.gain_left = q, self.gain_left + 1
                elif not combat and f == C.RIPPER:
                    self.gain(q, C.PROTEIN, 4)

    def _skill_targets(self, q: int) -> list[int]:
        """Legal UNIT_DIE / SEAT indices for ``q``'s Hero Skill (Human / Dracon; EW-A22)."""
        rc = self.rc
        n = self.game.num_players
        if self.faction[q] == C.HUMAN:
            return sorted({((o - q) % n) * 6 + f for o in rc["parts"] for f in rc["faces"][o]})
        return [(o - q) % n for o in rc["parts"] if o != q and rc["faces"][o]]

    # ---- outcome, injuries, rewards ---------------------------------------------------------
    def _outcome(self, rc: dict) -> None:
        """Stage "outcome": the combat winner and the injuries (no decision)."""
        a = rc["area"]
        parts = rc["parts"]
        score = rc["score"]
        best = -1
        for q in parts:
            score[q] = self.roll_score(q)
            if score[q] > best:
                best = score[q]
        tied = []
        for q in parts:
            if score[q] == best:
                tied.append(q)
        w = -1
        if len(tied) == 1:
            w = tied[0]
        elif a == C.ETHER_FAULT:
            w = self.ether_ctrl if self.ether_ctrl in tied else -1  # EW-A15
        elif a >= C.SILO0 and (a - C.SILO0) in tied:
            w = a - C.SILO0
        else:
            w = next(q for q in self.arrival[a] if q in tied)
        if a >= C.SILO0 and (a - C.SILO0) not in parts:
            # undefended Silo: the defender scores 0 (EW-A16)
            w = rc["attacker"] if best > 0 else -1
        rc["winner"] = w
        rc["combat_done"] = True
        rc["inj"] = []
        if w >= 0:
            caused = 0
            for q in parts:
                if q == w:
                    continue
                k = min((rc["score"][w] - rc["score"][q]) // 2, self.units_at[q][a])
                if k > 0:
                    rc["inj"].append([q, k])
                    caused += k
            if caused and self.ability_key(w) == "hungry":
                self.gain(w, C.PROTEIN, 3 * caused)
            if caused and self.ability_key(w) == "assimilate":
                self.gain_seat, self.gain_left = w, self.gain_left + caused
        rc["after_inj"] = S_REWARD
        rc["stage"] = S_INJURY

    def _shield(self, q: int, k: int, shields: int) -> None:
        """``q`` shields ``shields`` of its ``k`` injured Units; the rest die (rulebook
        "Shields", "Dying"). Medic / Field Medic shields are free first."""
        rc = self.rc
        a = rc["area"]
        free = min(shields, self.medic_free[q] + rc["free_shields"])
        from_medic = min(free, self.medic_free[q])
        self.medic_free[q] -= from_medic
        self.res[q][C.PLASMA] -= shields - free
        dead = k - shields
        self.units_at[q][a] -= dead
        self.reserve[q] += dead
        self._recount_area(a)
        self._leave_if_empty(q, a)
        rc["inj"].pop(0)
        rc["inj_open"] = False

    def extraction_cost(self, q: int, r: int) -> int:
        """Pips per resource for ``q`` (rulebook table; events and VAI Refinery: EW-A5, EW-A6)."""
        cost = C.EXTRACTION_COST[r]
        ev = _EVENT_KEY[self.event]
        if r == C.COLTAN and ev == "coltan_rush":
            cost = 1
        if r == C.CRYSTAL and ev == "crystal_bloom":
            cost = 2
        if r in (C.PLASMA, C.CRYSTAL) and _ABILITY_KEYS[self.faction[q]][self.ability[q]] == "refinery":
            cost = max(1, cost - 1)
        return cost

    def _extract(self, q: int, a: int, pips: int) -> None:
        """Rulebook "Extraction": roll divided by the cost, rounded down."""
        r = C.AREA_RESOURCE[a]
        k = pips // self.extraction_cost(q, r)
        if a == C.BIOSPHERE and _EVENT_KEY[self.event] == "protein_storm":
            k //= 2
        self.gain(q, r, k)

    def raid_cost(self, q: int, r: int) -> int:
        """Silo raid: extraction cost + 1, Ether 8 (rulebook "Player Silos"; EW-A24)."""
        return C.SILO_ETHER_COST if r == C.ETHER else self.extraction_cost(q, r) + 1

    def _reward(self, rc: dict) -> bool:
        """Extraction with the roll, the combat winner's extraction or Channelling, or the
        Silo raid (rulebook "Extraction", "Combat action", "Channelling", "Player Silos";
        automatic steps EW-A17; a sole player channels and takes the Ether die EW-A23).
        Stage "reward": True when a decision is pending."""
        rw = rc.get("rw", -1)  # 0 nothing more, 1 Channelling, 2 Silo raid
        if rw < 0:
            a, mode, w = rc["area"], rc["mode"], rc["winner"]
            rw = 0
            if mode == M_EXTRACT:
                p = rc["resolver"]
                self._extract(p, a, self.roll_score(p))
            elif mode == M_COMBAT and w >= 0:
                if a in C.LIMITED:
                    self._extract(w, a, rc["score"][w])
                elif a == C.ETHER_FAULT:
                    rc["channeler"], rw = w, 1
                elif a >= C.SILO0 and w == rc["attacker"]:
                    owner = a - C.SILO0
                    rc["raid"] = rc["score"][w] - (rc["score"][owner] if owner in rc["parts"] else 0)
                    rw = 2
            elif mode == M_CHANNEL:
                rw = 1
            rc["rw"] = rw
            if rw == 1:  # Channelling: 1 Ether and the Ether die (rulebook "Channelling", "Ether Die")
                c = rc["channeler"]
                self.ether_ctrl = c
                self._recount_area(C.ETHER_FAULT)  # a placed Ether die changes hands
                self.channelled[c] = True
                self.gain(c, C.ETHER, 2 if self.event_key() == "ether_surge" else 1)
                if self.phase == R.OVER:
                    return False
        if rw == 1:
            c = rc["channeler"]
            if (self.ability_key(c) == "conduit" and self.charge[c] >= 2 and not self.conduit_used[c]
                    and not rc["conduit_asked"]):
                self._decide(R.K_CONDUIT, c)
                return True
            if self.res[c][C.CRYSTAL] >= 2 and not self.extra_used[c] and not rc.get("extra_asked"):
                self._decide(R.K_END_ETHER, c)  # the extra Ether right away (again at the end of the round)
                return True
        if rw == 2 and self._raid_options():
            self._decide(R.K_RAID, rc["attacker"])
            return True
        rc["stage"] = S_DRONE
        return False

    def _raid_options(self) -> list[int]:
        rc = self.rc
        q = rc["attacker"]
        res = self.res[rc["area"] - C.SILO0]  # the owner's
        out = []
        for r in range(C.NUM_RES):
            if res[r] and rc["raid"] >= self.raid_cost(q, r):
                out.append(r)
        return out

    def _cleanup(self, rc: dict) -> None:
        """Stage "cleanup": dice return to their sheets (rulebook "Resolution" 2; Mercenaries
        stay hired); the area is done (no decision)."""
        a, p = rc["area"], rc["resolver"]
        # (a seat without dice here has nothing to take back)
        seats = _SEATS[self._occ_normal[a] | self._occ_exempt[a]] if rc["shared"] else (p,)
        for q in (() if rc["exempt_only"] else seats):
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
        seats = self._occ_normal[a] | self._occ_exempt[a]  # who still has dice here (``has_dice``)
        arrival = []
        for q in self.arrival[a]:
            if seats >> q & 1:
                arrival.append(q)
        self.arrival[a] = arrival
        self.rc = None

    # ---- market purchases -----------------------------------------------------------------
    def buy_cost(self, q: int, r: int) -> int:
        """Rulebook "Purchasing" 2: extraction cost + 1 (VAI Trader, Black Market: + 0); EW-A18."""
        trader = _ABILITY_KEYS[self.faction[q]][self.ability[q]] == "trader"
        plus = 0 if (trader or _EVENT_KEY[self.event] == "black_market") else 1
        return C.EXTRACTION_COST[r] + plus

    def _buyable(self, q: int) -> list[int]:
        """Resources 0..3 that ``q`` can purchase: the other three resources it holds are worth
        the price (``buy_cost``) and the box has one left."""
        res = self.res[q]
        cost = C.EXTRACTION_COST
        value = (res[0] * cost[0], res[1] * cost[1], res[2] * cost[2], res[3] * cost[3])
        total = value[0] + value[1] + value[2] + value[3]
        price = self.buy_cost(q, 0) - cost[0]  # buy_cost(q, t) is cost[t] + price
        out = []
        for t in range(4):
            if total - value[t] >= cost[t] + price and self.bank(t) > 0:
                out.append(t)
        return out

    # ---- legal actions and effects of the resolution decisions --------------------------------
    def _resolution_legal(self, k: int, p: int) -> list[int]:
        rc = self.rc
        n = self.game.num_players
        if k == R.K_RESOLVE:
            return self.game.area_actions(p, self._resolve_table()[p], R.RESOLVE0, ())
        if k == R.K_MARKET:
            out = []
            if rc["purchases"] > 0:
                if self.res[p][C.CRYSTAL] >= 1 and (self.fdeck or self.fdiscard):
                    out.append(R.MARKET_FAVOUR)
                for t in self._buyable(p):
                    out.append(R.RESOURCE0 + t)
            out.sort()
            out.append(R.DONE)
            return out
        if k == R.K_PAY:
            t = rc["target"]
            out = []
            res = self.res[p]
            for r in range(4):
                if r != t and res[r]:
                    out.append(R.PAY0 + r)
            if rc["credit"] >= self.buy_cost(p, t):
                out.append(R.DONE)
            return out
        if k == R.K_THIEF:
            return [R.RESOURCE0 + r for r in range(4) if self.res[rc["victim"]][r]]
        if k == R.K_ASSASSIN:
            a = rc["area"]
            return [R.SEAT0 + (q - p) % n for q in range(n) if self.units_at[q][a] > rc["hits"][q]]
        if k == R.K_SHIELD:
            q, inj = rc["inj"][0]
            top = min(inj, self.medic_free[q] + rc["free_shields"] + self.res[q][C.PLASMA])
            return [R.SHIELD0 + s for s in range(top + 1)]
        if k == R.K_REROLL:
            return sorted({R.UNIT_DIE0 + f for f in rc["faces"][p]}) + [R.DONE]
        if k == R.K_SKILL:
            base = R.UNIT_DIE0 if self.faction[p] == C.HUMAN else R.SEAT0
            return [base + i for i in self._skill_targets(p)] + [R.PASS]
        if k == R.K_RAID:
            return [R.RESOURCE0 + r for r in self._raid_options()] + [R.DONE]
        if k == R.K_FACTORY:
            cost = 3 if _ABILITY_KEYS[self.faction[p]][self.ability[p]] == "replicate" else C.CLONE_COST
            out = [R.CLONE] if self.res[p][C.PROTEIN] >= cost and self.reserve[p] > 0 else []
            return out + [R.DONE]
        raise AssertionError(f"no legal actions for decision {k}")

    def _resolution_apply(self, k: int, p: int, block: str, i: int) -> None:
        rc = self.rc
        n = self.game.num_players
        if k == R.K_RESOLVE:
            self._begin_area(p, i if i < C.SILO0 else C.SILO0 + (p + i - C.SILO0) % n)  # ``abs_area``
        elif k == R.K_MARKET:
            if block == "DONE":
                rc["stage"] = S_CLEANUP
            elif block == "MARKET_FAVOUR":
                self.res[p][C.CRYSTAL] -= 1
                self.hand[p][self._draw_favour()] += 1
                rc["purchases"] -= 1
            else:
                rc["target"], rc["credit"] = i, 0
                rc["stage"] = S_PAY
        elif k == R.K_PAY:
            if block == "DONE":
                t = rc["target"]
                self.gain(p, t, rc["credit"] // self.buy_cost(p, t))
                rc["purchases"] -= 1
                rc["target"], rc["credit"] = -1, 0
                rc["stage"] = S_MARKET
            else:
                self.res[p][i] -= 1
                rc["credit"] += C.EXTRACTION_COST[i]
        elif k == R.K_THIEF:
            self.res[rc["victim"]][i] -= 1
            self.res[p][i] += 1
            rc["left"] -= 1
        elif k == R.K_ASSASSIN:
            rc["hits"][(p + i) % n] += 1
            rc["left"] -= 1
        elif k == R.K_SHIELD:
            q, inj = rc["inj"][0]
            self._shield(q, inj, i)
        elif k == R.K_REROLL:
            if block == "DONE":
                rc["stage"] = S_SKILLS
                self._queue_skills(rc)
            else:
                faces = rc["faces"][p]
                faces.remove(i)
                faces.append(self.roll_d6())
                faces.sort()
                self.rerolls[p] -= 1
        elif k == R.K_SKILL:
            rc["skills"].pop(0)
            if block == "UNIT_DIE":  # Human: the Unit goes back to its sheet and does not count
                o, f = (p + i // 6) % n, i % 6
                rc["faces"][o].remove(f)
                self.units_at[o][rc["area"]] -= 1
                self.home_units[o] += 1
                self._recount_area(rc["area"])
            elif block == "SEAT":  # Dracon: the opponent's lowest Unit goes to its reserve
                o = (p + i) % n
                f = min(rc["faces"][o], key=lambda x: (self.unit_pips(o, x), x))
                rc["faces"][o].remove(f)
                self.units_at[o][rc["area"]] -= 1
                self.reserve[o] += 1
                self._recount_area(rc["area"])
        elif k == R.K_RAID:
            if block == "DONE":
                rc["rw"] = 0
            else:
                owner = rc["area"] - C.SILO0
                rc["raid"] -= self.raid_cost(p, i)
                self.res[owner][i] -= 1
                self.res[p][i] += 1
                if i == C.ETHER:
                    self.res[p][i] -= 1
                    self.gain(p, C.ETHER, 1)
        elif k == R.K_FACTORY:
            if block == "DONE":
                rc["stage"] = S_CLEANUP
            else:
                self.res[p][C.PROTEIN] -= 3 if self.ability_key(p) == "replicate" else C.CLONE_COST
                self.reserve[p] -= 1
                self.home_units[p] += 1
        else:
            raise AssertionError(f"unknown decision {k}")


_STAGE_STEP = (ResolutionMixin._stage_thief, ResolutionMixin._stage_assassin, ResolutionMixin._setup_mode,
               ResolutionMixin._roll, ResolutionMixin._stage_reroll, ResolutionMixin._stage_skills,
               ResolutionMixin._stage_window, ResolutionMixin._outcome, ResolutionMixin._stage_injury,
               ResolutionMixin._reward, ResolutionMixin._stage_drone, ResolutionMixin._cleanup,
               ResolutionMixin._stage_buy, ResolutionMixin._stage_buy, ResolutionMixin._stage_buy)
"""The step method of each resolution stage, indexed by ``STAGES``: ``step(state, rc)``, true
when a decision is pending."""
assert len(_STAGE_STEP) == len(STAGES)
