"""Etherium actions (rulebook "Actions"): Move Unit, Gather Resources, Increase
Unit Level, Transform Ether, Connect, and their choices. A mixin of
:class:`ether_envs.etherium.rules.State`.
"""

from __future__ import annotations

from operator import ge

from . import components as C
from . import fast
from .codec import (ABILITY0, COUNT0, D_ABILITY, D_CARDS, D_CONNECT_DICE, D_CONNECT_RESULT, D_DISCARD, D_ETHERIZE,
                    D_GAIN, D_GATHER, D_MOVE, D_SPEND, D_TAKE, D_TARGET, D_WINDOW, PASS, REROLL0, RESULT0, SPEND0,
                    T_CONNECT_ROLL, TARGET0, W_CONNECT, Task)

_COLOUR_TERRAIN = (C.MOUNTAIN, C.FOREST, C.MINE, C.ETHER_TERRAIN, C.CITY)


class ActionRules:
    """Performing programmed actions (tasks ``T_EXEC``, ``T_CONNECT_ROLL``) and their decisions."""

    def _opt_move(self, t):
        return fast.move_table(self, t.player, t.a).actions

    def _opt_etherize(self, t):
        p, paid, made = t.player, t.a, t.b
        r = self.res[p]
        out = [PASS] if paid == 0 and made > 0 else []
        return out + [SPEND0 + i for i in C.BASIC if r[i] > 0]

    def _opt_cards(self, t):
        return [COUNT0 + x - 1 for x in self.card_counts(t.player)]

    def _opt_ability(self, t):
        return [ABILITY0 + a for a in range(C.NUM_ABILITIES) if self.ability_supply[a] > 0]

    def _opt_connect_dice(self, t):
        return [COUNT0, COUNT0 + 1]

    def _opt_connect_result(self, t):
        lo, hi = self.connect_range(t.player)
        return [RESULT0 + r - 1 for r in range(lo, hi + 1)]

    def _opt_target(self, t):
        p, n = t.player, self.num_players
        return [TARGET0 + k - 1 for k in range(1, n) if sum(self.res[(p + k) % n][:3]) > 0]

    def _opt_reroll(self, t):
        return [REROLL0 + f - 1 for f in sorted(set(self.roll_dice))]

    def _opt_gather(self, t):
        # "up to their level" (ETM-A30): none (PASS) or 1..t.a cubes
        return [PASS] + [COUNT0 + k - 1 for k in range(1, t.a + 1)]

    def _h_exec(self, t):
        p, space = t.player, t.a
        action, arg = C.SPACES[space]
        if not _PERFORM[action](self, p, arg):
            # rulebook: "If a player cannot perform their programmed action ... they may gain any 1 basic
            # resource from the reserve": optional (PASS), nothing when the reserve is empty (ETM-A33)
            self.stack.append(Task(D_GAIN, p, 1, 1))

    # Move Unit
    def free_steps(self, p: int) -> int:
        """Extra steps of any kind ``p``'s next Move may take (ETM-A11): March cards, the
        Pathfinder Ability, the T6 A season's first Move."""
        return self.march[p] + self.first_move[p] + (1 if self.ability[p] == C.A_PATHFINDER else 0)

    def move_options(self, p: int, colour: int) -> list[tuple[int, int]]:
        """(unit, box) pairs ``p`` may move to on a Move programmed to ``colour``
        (rulebook "Move Unit": one step, each descending step gives an optional
        further step; ETM-A11: free steps from March/Pathfinder/T6 A; Cities)."""
        target = _COLOUR_TERRAIN[colour]
        free = self.free_steps(p)
        return [(u, b) for u in C.MOBILE
                for b in _reachable(self.pos[p][u], free, u == C.SOLDIER, p, self.game.city_owner)
                if C.BOX_TERRAIN[b] == target]

    def _perform_move(self, p, colour):
        if not fast.move_table(self, p, colour).options:
            return False
        self.stack.append(Task(D_MOVE, p, colour))
        return True

    # Gather Resources
    def gather_level(self, p: int) -> int:
        """Most cubes of its terrain's resource ``p``'s Gatherer collects before bonuses:
        its level 1..4 (rulebook "Gather Resources": "up to their level"; Ertis B: 1
        less, minimum 1)."""
        level = self.lvl[p][C.GATHERER]
        if self.season_card() == C.ERTIS_B:
            level = max(1, level - 1)
        return level

    def gather_amounts(self, p: int) -> list[int] | None:
        """Cubes ``p``'s Gatherer would collect now taking its full level ([W, S, M, E, B]),
        before the reserve limit; None if it is on a City (rulebook "Gather Resources":
        the level "plus any bonuses"; tribe powers, Season cards ETM-A4, Harvester/Harvest
        ETM-A5/A8, ETM-A18)."""
        box = self.pos[p][C.GATHERER]
        terrain = C.BOX_TERRAIN[box]
        if terrain == C.CITY:
            return None
        card = self.season_card()
        tr = self.tribe[p]
        amt = [0] * 5
        main = C.TERRAIN_RESOURCE[terrain]
        amt[main] = self.gather_level(p) + self.harvest[p] + (1 if self.ability[p] == C.A_HARVESTER else 0)
        bonus = C.SEASON_GATHER_BONUS.get(card)
        if bonus is not None and bonus.terrain == terrain:
            amt[bonus.resource] += bonus.amount
        if card == C.HIVALIA_A and terrain == C.ETHER_TERRAIN:
            amt[C.ETHER] += 1
        aff = self.affinity == p
        if tr == C.PSOLOS:
            amt[C.STONE] += C.PSOLOS_EXTRA_STONE + (C.PSOLOS_SEASON_STONE if aff else 0)
        if tr == C.ERTIS:
            amt[C.WOOD] += (C.ERTIS_FOREST_WOOD if terrain == C.FOREST else 0) + (C.ERTIS_SEASON_WOOD if aff else 0)
        return amt

    def can_gather(self, p: int, terrain: int) -> bool:
        """A Gather programmed on ``terrain`` (Mountain, Forest, Mine or Ether) can be
        performed: ``p``'s Gatherer stands on that terrain ("you must move to this space
        before taking the Gather Resources action") and the reserve still holds its
        resource (ETM-A32: with none left it cannot gather "from their current space")."""
        return (C.BOX_TERRAIN[self.pos[p][C.GATHERER]] == terrain
                and self.reserve(C.TERRAIN_RESOURCE[terrain]) > 0)

    def _perform_gather(self, p, terrain):
        if not self.can_gather(p, terrain):
            return False
        main = C.TERRAIN_RESOURCE[terrain]
        level = self.gather_level(p)
        amt = self.gather_amounts(p)
        amt[main] -= level
        res = self.res[p]
        ether = 0  # Ether cubes gathered as bonuses
        for r in range(4):  # the bonuses, in full as far as the reserve allows (ETM-A30)
            if amt[r]:
                k = min(amt[r], self.reserve(r))
                res[r] += k
                if r == C.ETHER:
                    ether = k
        self.harvest[p] = 0
        most = min(level, self.reserve(main))
        if most:  # then "up to their level" (ETM-A30): the player chooses how many
            self.stack.append(Task(D_GATHER, p, most, ether))  # (kind, seat, most cubes, bonus Ether gathered)
        else:
            self._gathered(p, ether > 0)
        return True

    def _d_gather(self, t, block, i, a):
        p = t.player
        k = 0 if a == PASS else i + 1
        self.stack.pop()
        main = C.TERRAIN_RESOURCE[C.BOX_TERRAIN[self.pos[p][C.GATHERER]]]
        self.res[p][main] += k
        self._gathered(p, t.b > 0 or (k > 0 and main == C.ETHER))

    def _gathered(self, p: int, ether: bool) -> None:
        """The end of a Gather: when Ether was gathered (``ether``; ETM-A32), the Ether
        Victory token (rulebook "Victory Tokens", ETM-A23) and every enemy Hivalia may
        take two basic resources (rulebook Hivalia "Power": "can take", ETM-A33)."""
        if not ether:
            return
        self.take_vt(p, C.VT_ETHER)
        for q in self.order:
            if q != p and self.tribe[q] == C.HIVALIA:
                self.stack.append(Task(D_GAIN, q, C.HIVALIA_ETHER_GATHER_GAIN, 1))

    # Increase Unit Level
    def upgrade_cost(self, p: int, unit: int) -> list[int] | None:
        """[W, S, M, E, B] to pay for ``unit``'s next level, or None at level 4
        (rulebook "Increase Unit Level": X of the unit's resource, Guide 1 of each;
        ETM-A3 cheaper unit; Psolos B; Craft card; ETM-A22)."""
        new = self.lvl[p][unit] + 1
        if new > C.MAX_LEVEL:
            return None
        cost = [0] * 5
        if unit == C.GUIDE:
            cost[C.WOOD] = cost[C.STONE] = cost[C.METAL] = 1
            return cost
        x = new
        if C.TRIBES[self.tribe[p]].cheaper_unit == unit:
            x = max(1, x - 1)
        if unit == C.GUARD and self.season_card() == C.PSOLOS_B:
            x += 1
        if self.craft[p]:
            x = max(0, x - 1)
        cost[C.UNIT_RESOURCE[unit]] = x
        return cost

    def _perform_upgrade(self, p, unit):
        cost = self.upgrade_cost(p, unit)
        r = self.res[p]
        if cost is None or not all(map(ge, r, cost)):  # every cost covered
            return False
        for i in range(5):
            r[i] -= cost[i]
        self.lvl[p][unit] += 1
        if unit != C.GUIDE:
            self.craft[p] = 0
        return True

    # Transform Ether
    def hivalia_discount(self, p: int) -> int:
        """Rulebook Hivalia "Season Bonus": one fewer Ether on Transform Ether (ETM-A12)."""
        return 1 if self.affinity == p and self.tribe[p] == C.HIVALIA else 0

    def etherization_rate(self, p: int) -> int:
        return C.TRIBES[self.tribe[p]].etherization_rate + (1 if self.season_card() == C.HIVALIA_B else 0)

    def card_counts(self, p: int) -> list[int]:
        """Numbers x of Flash cards ``p`` may buy for x Ether: 1..6 and no more than the
        deck and discard pile hold (ETM-A12, ETM-A29)."""
        d = self.hivalia_discount(p)
        avail = self.cards_available()
        return [x for x in range(1, 7) if x <= avail and max(0, x * C.CARD_COST_PER_FLASH - d) <= self.res[p][C.ETHER]]

    def ability_cost(self, p: int) -> int:
        return C.TRIBES[self.tribe[p]].ability_cost - self.hivalia_discount(p)

    def booster_cost(self, p: int) -> int:
        return C.BOOSTER_COST - self.hivalia_discount(p)

    def _perform_transform(self, p, kind):
        r = self.res[p]
        if kind == C.ETHERIZATION:
            if sum(r[:3]) < self.etherization_rate(p) or self.reserve(C.ETHER) == 0:
                return False
            self.stack.append(Task(D_ETHERIZE, p))
            return True
        if kind == C.CARDS:
            if not self.card_counts(p):
                return False
            self.stack.append(Task(D_CARDS, p))
            return True
        if kind == C.ABILITY:
            if self.ability[p] >= 0 or r[C.ETHER] < self.ability_cost(p) or not any(self.ability_supply):
                return False
            self.stack.append(Task(D_ABILITY, p))
            return True
        if r[C.ETHER] < self.booster_cost(p) or self.reserve(C.BOOSTER) == 0:
            return False
        r[C.ETHER] -= self.booster_cost(p)
        self.gain_booster(p)
        return True

    def gain_booster(self, p: int) -> None:
        """Rulebook "Booster": a third Booster cube takes the Booster token (once)."""
        self.res[p][C.BOOSTER] += 1
        if self.res[p][C.BOOSTER] >= 3:
            self.take_vt(p, C.VT_BOOSTER)

    def take_vt(self, p: int, kind: int) -> bool:
        """Take a Victory token if one is left and ``p`` may hold another (rulebook "Victory Tokens")."""
        if self.vt_supply[kind] > 0 and self.vt[p][kind] < C.VT_MAX_PER_PLAYER[kind]:
            self.vt_supply[kind] -= 1
            self.vt[p][kind] += 1
            return True
        return False

    def gain_ether(self, p: int, k: int) -> None:
        self.res[p][C.ETHER] += min(k, self.reserve(C.ETHER))

    # Connect
    def _perform_connect(self, p, _arg):
        if self.affinity == p:  # rulebook "Connect": may roll an additional die with affinity (ETM-A24)
            self.stack.append(Task(D_CONNECT_DICE, p))
        else:
            self.stack.append(Task(T_CONNECT_ROLL, p, 1))
        return True

    def _h_connect_roll(self, t):
        p = t.player
        self._start_roll(p, t.a)
        self.stack.append(Task(D_CONNECT_RESULT, p))
        self.stack.append(Task(D_WINDOW, p, W_CONNECT))

    def _start_roll(self, p: int, ndice: int) -> None:
        self.roll_player = p
        self.roll_dice = self.rng.integers(1, C.DIE_FACES + 1, size=ndice).tolist()
        self.roll_power = [False] * ndice
        self.roll_bonus = 0
        self.roll_ability = False

    def roll_total(self) -> int:
        return sum(self.roll_dice) + self.roll_bonus

    def connect_range(self, p: int) -> tuple[int, int]:
        """Results ``p`` may choose: the roll plus 0..Guide level, within 1..12
        (rulebook "Connect" and "Guides": all or part of the Guide level)."""
        total = self.roll_total()
        lo = min(max(total, 1), C.MAX_CONNECT_RESULT)
        hi = min(max(total + self.lvl[p][C.GUIDE], 1), C.MAX_CONNECT_RESULT)
        return lo, hi

    def _connect_effect(self, p: int, result: int) -> None:
        """Rulebook "Connection table" (ETM-A13: "resources" are basic ones)."""
        st = self.stack
        if result == 1:
            st.append(Task(D_SPEND, p, 4))
        elif result == 2:
            st.append(Task(D_DISCARD, p, 1))
        elif result == 3:
            st.append(Task(D_SPEND, p, 2))
        elif result == 4:
            self._draw(p, 1)
        elif result == 5:
            st.append(Task(D_TARGET, p))
        elif result == 6:
            self.gain_ether(p, 1)
        elif result == 7:
            st.append(Task(D_GAIN, p, 4))
        elif result == 8:
            self.gain_ether(p, 2)
        elif result == 9:
            if self.lvl[p][C.SOLDIER] < C.MAX_LEVEL:
                self.lvl[p][C.SOLDIER] += 1
        elif result == 10:
            self._draw(p, 2)
        elif result == 11:
            if self.reserve(C.BOOSTER) > 0:
                self.gain_booster(p)
        else:
            self.take_vt(p, C.VT_CONNECTION)

    def _d_move(self, t, block, i, a):
        p = t.player
        u, box = divmod(i, C.NUM_BOXES)
        self.pos[p][u] = box
        self.march[p] = 0
        self.first_move[p] = 0
        self.stack.pop()

    def _d_etherize(self, t, block, i, a):
        p, paid, made = t.player, t.a, t.b
        if a == PASS:
            self.stack.pop()
            return
        self.res[p][i] -= 1
        paid += 1
        rate = self.etherization_rate(p)
        if paid == rate:  # rulebook "Etherization": x basic resources -> 1 Ether, repeatable
            self.res[p][C.ETHER] += 1
            paid, made = 0, made + 1
            if sum(self.res[p][:3]) < rate or self.reserve(C.ETHER) == 0:
                self.stack.pop()
                return
        self._replace_top(Task(t.kind, p, paid, made))

    def _d_cards(self, t, block, i, a):
        p = t.player
        x = i + 1
        self.res[p][C.ETHER] -= max(0, x * C.CARD_COST_PER_FLASH - self.hivalia_discount(p))
        self.stack.pop()
        self._draw(p, x)

    def _d_ability(self, t, block, i, a):
        p = t.player
        self.res[p][C.ETHER] -= self.ability_cost(p)
        self.ability[p] = i
        self.ability_supply[i] -= 1
        self.stack.pop()

    def _d_connect_dice(self, t, block, i, a):
        self.stack.pop()
        self.stack.append(Task(T_CONNECT_ROLL, t.player, i + 1))

    def _d_connect_result(self, t, block, i, a):
        self.stack.pop()
        self.roll_player = -1
        self.roll_dice = []
        self.roll_power = []
        self.roll_bonus = 0
        self._connect_effect(t.player, i + 1)

    def _d_target(self, t, block, i, a):
        p = t.player
        self.stack.pop()
        self.stack.append(Task(D_TAKE, p, (p + i + 1) % self.num_players, 2))

    def _d_reroll(self, t, block, i, a):
        j = self.roll_dice.index(i + 1)
        self.roll_dice[j] = int(self.rng.integers(1, C.DIE_FACES + 1))
        self.stack.pop()


def _reachable(src: int, free: int, soldier: bool, p: int, city_owner: list[int]) -> list[int]:
    """Boxes a unit can end a Move on (rulebook "Move Unit"): a step to an adjacent
    box; after a descending step, another optional step; ``free`` extra steps of
    any kind (ETM-A11). Only a Soldier enters a City, only an opponent's City in
    play, and entering ends the move (ETM-A2)."""
    seen = set()
    out = set()
    frontier = [(src, True, free)]
    while frontier:
        b, momentum, f = frontier.pop()
        for nb in C.ADJACENT[b]:
            if momentum:
                nf = f
            elif f > 0:
                nf = f - 1
            else:
                continue
            if C.BOX_TERRAIN[nb] == C.CITY:
                owner = city_owner[nb]
                if soldier and owner >= 0 and owner != p:
                    out.add(nb)
                continue
            if nb != src:
                out.add(nb)
            key = (nb, C.BOX_ELEVATION[nb] < C.BOX_ELEVATION[b], nf)
            if key not in seen:
                seen.add(key)
                frontier.append(key)
    return sorted(out)


_PERFORM = (ActionRules._perform_move, ActionRules._perform_gather, ActionRules._perform_upgrade,
            ActionRules._perform_transform, ActionRules._perform_connect)
