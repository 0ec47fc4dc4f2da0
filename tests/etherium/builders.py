"""Scenario builders for the Etherium tests: exact positions and scripted dice."""

from __future__ import annotations

import numpy as np

from ether_envs.etherium import Game, State
from ether_envs.etherium import components as C
from ether_envs.etherium import rules as R


class Dice:
    """Stands in for ``state.rng``: die rolls (``integers(1, 7, ...)``) come from
    ``faces`` in order; anything else from a seeded generator."""

    def __init__(self, faces, seed: int = 0):
        self.faces = list(faces)
        self._rng = np.random.default_rng(seed)

    def integers(self, low, high=None, size=None):
        if (low, high) == (1, 7):
            if size is None:
                return self.faces.pop(0)
            return np.array([self.faces.pop(0) for _ in range(size)])
        return self._rng.integers(low, high, size=size)

    def permutation(self, x):
        return self._rng.permutation(x)


def make(tribes=("Reces", "Ertis"), seed: int = 0) -> State:
    """A new game with the given tribes (seat order), at its first decision."""
    return Game(num_players=len(tribes), tribes=tuple(tribes)).new_initial_state(seed)


def set_season(state: State, card: int) -> State:
    """Make ``card`` the season being played (index 1), with its initiative and affinity."""
    state.seasons[1] = card
    state.stack = []
    state._h_season(R.Task(R.T_SEASON, -1, 1))
    state.stack = []
    return state


def at(state: State, *tasks) -> State:
    """Replace the agenda by ``tasks`` (bottom first) above a game-end sentinel and run it."""
    state.stack = [R.Task(R.T_END, -1)] + list(tasks)
    state.phase = R.P_PERFORM
    state._run()
    return state


def perform(state: State, p: int, space: int) -> State:
    """Perform player ``p``'s action programmed on ``space`` (no Flash window before it)."""
    return at(state, R.Task(R.T_EXEC, p, space, 0))


def gather(state: State, p: int, terrain: int, take: int | None = None) -> State:
    """Perform ``p``'s Gather programmed on ``terrain``; a pending "up to their level"
    choice (ETM-A30) is answered with ``take`` cubes (``None``: as many as offered)."""
    perform(state, p, C.SPACES.index((C.GATHER, terrain)))
    if state.decision() == R.D_GATHER:
        legal = state.legal_actions()
        state.apply_action(max(legal) if take is None else R.PASS if take == 0 else R.COUNT0 + take - 1)
    return state


def place(state: State, p: int, gatherer: int | None = None, soldier: int | None = None) -> None:
    if gatherer is not None:
        state.pos[p][C.GATHERER] = gatherer
    if soldier is not None:
        state.pos[p][C.SOLDIER] = soldier


def clear_board(state: State) -> None:
    """Put every unit far from the others: Gatherer and Soldier of seat p on Mine boxes."""
    spots = [(C.mine_box(0), C.mine_box(1)), (C.mine_box(2), C.mine_box(3)),
             (C.forest_box(1), C.forest_box(3)), (C.mountain_box(1), C.mountain_box(3))]
    for p in range(state.num_players):
        place(state, p, *spots[p])


def set_resources(state: State, p: int, wood=0, stone=0, metal=0, ether=0, booster=0) -> None:
    state.res[p] = [wood, stone, metal, ether, booster]


def set_hand(state: State, p: int, **cards) -> None:
    """``set_hand(s, 0, plus2=1)``: the hand holds exactly these Flash cards (by key)."""
    keys = {c.key: c.card_type for c in C.FLASH_CARDS}
    h = [0] * C.NUM_FLASH_TYPES
    for k, v in cards.items():
        h[keys[k]] = v
    state.hand[p] = h


def space(action: int, arg: int = 0) -> int:
    """Action-board space id of ``(action, arg)``, e.g. ``space(C.MOVE, 3)``."""
    return C.SPACES.index((action, arg))


def act(block: str, index: int = 0) -> int:
    return R.CODEC.encode(block, index)


def move_unit(unit: int, box: int) -> int:
    return act("MOVE_UNIT", unit * C.NUM_BOXES + box)


def legal_names(state: State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]
