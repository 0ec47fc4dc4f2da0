"""Scenario builders for Ethnos tests: exact positions on top of a seeded game."""

from __future__ import annotations

import numpy as np

import ether_envs
from ether_envs.ethnos import components as C
from ether_envs.ethnos import rules as R

DRAGON = "Dragon"
SKELETON = C.SKELETON_KIND


def kind(tribe: str, colour: str | None = None) -> int:
    """Kind id of a card: ``kind("Elves", "Red")``; ``kind("Skeletons")``."""
    if tribe == "Skeletons":
        return C.SKELETON_KIND
    return C.KIND_NAMES.index(f"{tribe}/{colour}")


def counts(cards) -> np.ndarray:
    """A 67-vector of counts from a list of kinds (or ``(kind, count)`` pairs in a dict)."""
    v = np.zeros(C.NUM_KINDS, dtype=np.int64)
    items = cards.items() if isinstance(cards, dict) else ((k, 1) for k in cards)
    for k, c in items:
        v[k] += c
    return v


def new_state(num_players: int = 4, tribes=None, seed: int = 0, **config) -> R.State:
    if tribes is None:
        tribes = ("Centaurs", "Dwarves", "Elves", "Giants", "Merfolk", "Wizards")[: C.TRIBES_IN_PLAY[num_players]]
    game = ether_envs.load_game("ethnos", num_players=num_players, tribes=tuple(tribes), **config)
    return game.new_initial_state(seed=seed)


def rig(state: R.State, *, hands=None, face_up=None, deck=None, turn=None, glory_tokens=None,
        markers=None, dragons=None) -> R.State:
    """Overwrite parts of ``state`` in place (and return it).

    Args:
        hands: ``{seat: [kinds]}``; seats not given keep their hand.
        face_up: list of kinds (replaces the face-up row).
        deck: list of kinds or ``DRAGON`` from the TOP down (Dragons may lie anywhere).
        turn: seat whose turn begins now (phase TURN).
        glory_tokens: ``(6, T)`` array-like of each Kingdom's tokens, ascending.
        markers: ``{seat: [per-Kingdom counts]}``.
        dragons: Dragons already revealed this Age.
    """
    for p, cards in (hands or {}).items():
        state.hands[p] = counts(cards)
        state.known[p] = 0
    if face_up is not None:
        state.face_up[:] = counts(face_up)
    if deck is not None:
        vals = [C.DRAGON if c == DRAGON else c for c in reversed(deck)]
        state.deck[:] = 0
        state.deck[: len(vals)] = vals
        state.deck_len = len(vals)
        state.dragon_zone = len(vals)
    if dragons is not None:
        state.dragons = dragons
    if glory_tokens is not None:
        state.glory_tokens = np.array(glory_tokens, dtype=np.int64)
    for p, ms in (markers or {}).items():
        state.markers[p] = ms
        state.supply[p] = C.MARKERS_PER_PLAYER - sum(ms)
    if turn is not None:
        state._start_turn(turn)
    state.invalidate_caches()  # legal actions, card counts and the encoder's cache follow the rigged arrays
    return state


def play(state: R.State, *actions: int) -> R.State:
    """Apply ``actions`` in order (each must be legal)."""
    for a in actions:
        state.apply_action(a)
    return state


def band_actions(leader: int, cards=(), colour: bool = False) -> list[int]:
    """PLAY_BAND, START_(TRIBE|COLOUR)_BAND(leader), ADD_TO_BAND(card)..., END_BAND."""
    start = (R.START_COLOUR0 if colour else R.START_TRIBE0) + leader
    return [R.PLAY_BAND, start] + [R.ADD0 + c for c in cards] + [R.END_BAND]


def dragons_deck(n: int = 3) -> list:
    """A deck of ``n`` Dragons (the next deck draw ends the Age when ``n`` Dragons remain
    and ``3 - n`` were revealed)."""
    return [DRAGON] * n
