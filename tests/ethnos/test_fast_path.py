"""The fast paths of ``fast.py`` against the plain rules, at every step of random games (the
incremental observation encoder against an encoding from the arrays alone:
``test_observation_cache.py``)."""

import numpy as np
import pytest

from ether_envs.ethnos import components as C
from ether_envs.ethnos import fast
from ether_envs.ethnos.rules import TALLY_WIDTH, Game


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_card_counts_equal_the_rows_they_count(config):
    """``_hand_sizes``, ``_kept_count`` and ``_face_up_count`` equal the sums of the ``cards`` rows."""
    game = Game(**config)
    for seed in range(2):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed)
        while True:
            assert state._hand_sizes == [int(x) for x in state.hands.sum(axis=1)]
            assert state._kept_count == int(state.kept.sum())
            assert state._face_up_count == int(state.face_up.sum())
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])


def test_journal_entries_name_their_cells():
    """Every cell of ``cards`` and ``tally`` has its own journal entry, read back by ``entry_cell``."""
    rows, seats = 2 * 6 + 4, 6
    seen = set()
    for row in range(rows):
        for kind in range(C.NUM_KINDS):
            e = fast.cards_entry(row, kind)
            assert fast.entry_cell(e, TALLY_WIDTH) == (fast.Table.CARDS, row, kind) and e not in seen
            seen.add(e)
    for seat in range(seats):
        for col in range(TALLY_WIDTH):
            e = fast.tally_entry(seat, col, TALLY_WIDTH)
            assert fast.entry_cell(e, TALLY_WIDTH) == (fast.Table.TALLY, seat, col) and e not in seen
            seen.add(e)


def test_every_changed_cell_is_journaled():
    """Between two observations, every cell of ``cards`` and ``tally`` that changed is in the journal."""
    game = Game(num_players=4)
    rng = np.random.default_rng(1)
    state = game.new_initial_state(1)
    state.observation_tensor(0)
    while not state.is_terminal():
        cards, tally = state.cards.copy(), state.tally.copy()
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
        if state._obs_vector is None:  # a bulk change (new Age): the encoding is rebuilt
            state.observation_tensor(0)
            continue
        noted = {fast.entry_cell(e, TALLY_WIDTH) for e in state._journal}
        for row, kind in zip(*np.nonzero(cards != state.cards)):
            assert (fast.Table.CARDS, row, kind) in noted
        if state._obs_vector_key == state._obs_key:  # (else the tallies are rewritten in full)
            for seat, col in zip(*np.nonzero(tally != state.tally)):
                assert (fast.Table.TALLY, seat, col) in noted
        state.observation_tensor(0)
