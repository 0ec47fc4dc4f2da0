"""Helpers that build exact Ether Wars positions for the scenario tests."""

from __future__ import annotations

import numpy as np

import ether_envs
from ether_envs.ether_wars import codec
from ether_envs.ether_wars import components as C

A = codec.CODEC.encode


class ScriptedDice:
    """A stand-in for ``state.rng`` that returns scripted die faces (0-based indices).

    ``integers(6)`` returns the next value; ``integers(0, 6, size=k)`` the next k (an array,
    as numpy gives).
    ``permutation`` keeps the order (decks are set by the tests).
    """

    def __init__(self, values):
        self.values = list(values)

    def integers(self, *args, size=None):
        if size is None:
            return self.values.pop(0)
        out = self.values[:size]
        del self.values[:size]
        return np.array(out, dtype=np.int64)

    def permutation(self, x):
        return list(x)


def face(pips: int, table=C.UNIT_FULL) -> int:
    """0-based index of the first face with ``pips`` full pips."""
    return list(table).index(pips)


def new_state(n=2, seed=0, factions=None, **config):
    """A fresh game, factions chosen (default: seat order Human, Dracon, VAI, Ripper), at the
    first New Day ability choice."""
    game = ether_envs.load_game("ether_wars", num_players=n, **config)
    s = game.new_initial_state(seed)
    factions = factions or list(range(n))
    while s.decision == codec.K_FACTION:
        s.apply_action(A("FACTION", factions[s.decider]))
    return s


def at_phase(s, phase, abilities=None, event="quiet_day"):
    """Force ``s`` to the start of ``phase`` with the given ability card per seat (index 0..3 or
    None) and Event; favour hands emptied; returns ``s``."""
    n = s.game.num_players
    s.event = next(e.event_id for e in C.EVENTS if e.key == event)
    s.ability = [(-1 if a is None else a) for a in (abilities or [None] * n)]
    s.revealed = True
    s.round = max(s.round, 1)
    s.hand = [[0] * C.NUM_FAVOURS for _ in range(n)]
    s.window = None
    s.resolving = None
    s.queue = []
    s.phase = phase
    s.decision = codec.K_NONE
    s.medic_free = [2 if s.ability_key(q) == "medic" else 0 for q in range(n)]
    return s


def place(s, p, area, units=0, hero=False, merc=None, ether=False):
    """Put ``p``'s dice directly on the board (taken from its sheet; ``merc`` is hired)."""
    s._arrive(p, area)
    s.home_units[p] -= units
    s.units_at[p][area] += units
    if hero:
        s.hero_at[p] = area
    if merc is not None:
        s.merc_owner[merc] = p
        s.hired[p] = merc
        s.merc_at[merc] = area
    if ether:
        s.ether_ctrl = p
        s.ether_placed = True
    s.invalidate_caches()  # occupancy() is kept up to date by the engine's own moves only


def start_resolution(s, dice=()):
    """Enter the Resolution phase with scripted dice; returns ``s`` at its first decision."""
    s.rng = ScriptedDice(dice)
    s.invalidate_caches()  # the dice were put on the board directly
    s.phase = codec.RESOLUTION
    s.turn = 0
    s._start_resolution()
    s._advance()
    return s


def legal_names(s):
    s.invalidate_caches()  # tests edit fields directly between decisions
    return [s.action_to_string(a) for a in s.legal_actions()]


def act(s, block, index=0):
    s.invalidate_caches()
    s.apply_action(A(block, index))


def random_states(n, favours, seeds, max_rounds=6):
    """Every state of random games (the state itself: clone it before changing it)."""
    game = ether_envs.load_game("ether_wars", num_players=n, favours=favours, max_rounds=max_rounds)
    for seed in seeds:
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            yield s
            legal = s.legal_actions()
            s.apply_action(legal[rng.integers(len(legal))])
