"""A simple rule-based Ethnos player, for baselines.

It reads only what ``player`` may see: its own hand, the face-up row, the
boards, tokens and tracks, and the bands on the table (never another hand or
the deck). Policy:

* on its turn, play the largest band that places a Control marker when it has
  at least 4 cards (or whenever the hand is full); otherwise recruit the
  face-up Ally that best matches its hand, else the top of the deck;
* the Leader is the card whose Kingdom accepts a marker, preferring strong
  powers; the band takes every matching card (up to 10);
* markers go to the Kingdom with the most valuable Glory tokens; the Elves keep
  the cards of the commonest tribe; Wizards draw while fewer than 2 Dragons
  are out; Orc markers are cashed in from 4 up.
"""

from __future__ import annotations

import numpy as np

from ether_envs.ethnos import components as C
from ether_envs.ethnos import rules as R

# preference among Leaders of bands of equal size (higher is better)
_POWER_VALUE = {C.GIANTS: 3, C.MERFOLK: 3, C.TROLLS: 2, C.ORCS: 2, C.CENTAURS: 2, C.WINGFOLK: 2,
                C.DWARVES: 2, C.MINOTAURS: 1, C.ELVES: 1, C.WIZARDS: 1, C.HALFLINGS: -3}
_TRIBE = C.KIND_TRIBE
_COLOUR = C.KIND_COLOUR


def _band_options(state, player: int) -> list[tuple[float, int, bool, int]]:
    """(value, leader kind, colour key, size) for every band the hand can form."""
    g = state.game
    hand = state.hands[player]
    out = []
    for leader in np.flatnonzero(hand[: C.NUM_LEADER_KINDS]):
        leader = int(leader)
        for colour in (False, True):
            allowed = (g.same_colour if colour else g.same_tribe)[leader]
            size = min(int(hand[allowed].sum()), C.MAX_BAND)
            places = bool(state.marker_kingdoms(player, leader, size))
            value = size * 10 + (40 if places else 0) + _POWER_VALUE.get(int(_TRIBE[leader]), 0)
            out.append((value, leader, colour, size))
    return out


def _best_band(state, player: int):
    opts = _band_options(state, player)
    return max(opts, key=lambda o: (o[0], -o[1], o[2])) if opts else None


def _kingdom_value(state, k: int) -> float:
    return float(state.glory_tokens[k].max())


def heuristic_action(state, player: int, rng: np.random.Generator) -> int:
    """A legal action for ``player`` (who must be the player to act).

    Args:
        state: an ``ether_envs.ethnos.State`` where ``player`` acts.
        player: seat (0-based).
        rng: breaks ties at random (only among equally good actions).

    Returns:
        an action id from ``state.legal_actions()``.

    Raises:
        ValueError: ``player`` is not the player to act.
    """
    legal = state.legal_actions()
    if state.current_player() != player or not legal:
        raise ValueError(f"player {player} is not to act (current player {state.current_player()})")
    choice = _choose(state, player, legal)
    if choice in legal:
        return choice
    return int(legal[rng.integers(len(legal))])


def _choose(state, player: int, legal: list[int]) -> int:
    ph = state.phase
    hand = state.hands[player]
    if ph == R.TURN:
        best = _best_band(state, player)
        full = int(hand.sum()) >= C.HAND_LIMIT
        if best is not None and R.PLAY_BAND in legal and (full or (best[3] >= 4 and best[0] >= 80)
                                                          or R.RECRUIT_DECK not in legal):
            return R.PLAY_BAND
        if R.RECRUIT_FACE_UP in legal and _best_face_up(state, player)[0] >= 2:
            return R.RECRUIT_FACE_UP
        return R.RECRUIT_DECK
    if ph == R.FACE_UP:
        return R.TAKE0 + _best_face_up(state, player)[1]
    if ph in (R.LEADER, R.CENTAUR):
        best = _best_band(state, player)
        if ph == R.CENTAUR:
            return R.PLAY_BAND if best is not None and best[3] >= 2 else R.DECLINE
        _, leader, colour, _ = best
        return (R.START_COLOUR0 if colour else R.START_TRIBE0) + leader
    if ph == R.BUILD:
        adds = [a for a in legal if a != R.END_BAND]
        return adds[0] if adds else R.END_BAND
    if ph in (R.MARKER, R.MERFOLK):
        ks = [a - R.MARKER0 for a in legal if R.MARKER0 <= a < R.MARKER0 + C.NUM_KINGDOMS]
        if not ks:
            return R.DECLINE
        return R.MARKER0 + max(ks, key=lambda k: (_kingdom_value(state, k), -k))
    if ph == R.WIZARD:
        return R.USE_POWER if state.dragons < 2 else R.DECLINE
    if ph == R.KEEP:
        keeps = [a - R.KEEP0 for a in legal if a != R.END_KEEP]
        if not keeps:
            return R.END_KEEP
        tribe_count = np.bincount(_TRIBE, weights=hand, minlength=C.NUM_TRIBES)
        return R.KEEP0 + max(keeps, key=lambda k: (tribe_count[_TRIBE[k]], -k))
    if ph == R.ORC:
        return R.USE_POWER if int(state.orc[player].sum()) >= 4 else R.DECLINE
    return legal[0]


def _best_face_up(state, player: int) -> tuple[int, int]:
    """(matches, kind) of the face-up Ally sharing most tribe/colour with the hand."""
    hand = state.hands[player]
    tribe_count = np.bincount(_TRIBE, weights=hand, minlength=C.NUM_TRIBES)
    colour_count = np.bincount(_COLOUR[:-1], weights=hand[:-1], minlength=C.NUM_KINGDOMS)
    best = (-1, -1)
    for k in np.flatnonzero(state.face_up):
        k = int(k)
        if k == C.SKELETON_KIND:
            m = 1
        else:
            m = int(max(tribe_count[_TRIBE[k]], colour_count[_COLOUR[k]])) + 1
        if m > best[0]:
            best = (m, k)
    return best
