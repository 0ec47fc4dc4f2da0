"""The incremental observation encoder (``observation.Encoder``) against a from-scratch
encoding, under every access pattern a user or a search may produce."""

import copy
import pickle

import numpy as np
import pytest

from ether_envs.aethermon_collect import Game
from ether_envs.aethermon_collect import rules as R

from .builders import card, play, position, sq, use


def _assert_fresh(state):
    """Every seat's (cached, incremental) observation equals one built from scratch."""
    enc = state.game.encoder
    for p in range(state.num_players):
        assert np.array_equal(state.observation_tensor(p), enc.encode_uncached(state, p)), p


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_observation_incremental_random_play_equals_fresh_encoding(config):
    """Observed at random steps and seats, on clones, on earlier clones continued,
    and after resample_hidden: always the observation encoded from scratch."""
    game = Game(**config)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed)
        clones = []
        while not state.is_terminal():
            if rng.random() < 0.5:
                p = int(rng.integers(game.num_players))
                assert np.array_equal(state.observation_tensor(p), game.encoder.encode_uncached(state, p))
            if rng.random() < 0.15:
                clones.append(state.clone())
            if rng.random() < 0.1:
                _assert_fresh(state.resample_hidden(int(rng.integers(game.num_players)), rng))
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        _assert_fresh(state)
        for c in clones:
            _assert_fresh(c)
            while not c.is_terminal():
                c.apply_action(c.legal_actions()[-1])
                _assert_fresh(c)


def test_observation_cache_trade_token_rebuilds_grid_and_collections():
    """Trade Token (a card goes back onto the grid): the next observation of a seat
    observed before equals the fresh encoding (card back on its square, set holders)."""
    s = position(board={"a1": card("Fire", "trio", 1), "b1": card("Fire", "trio", 2), "c1": card("Water", "duo", 1)},
                 token="a3", turn=0, collections={0: [card("Fire", "trio", 3)], 1: [card("Water", "duo", 2)]},
                 held={0: ["trade_token"]}, num_players=2, elements=("Fire", "Water", "Sky", "Earth"))
    _assert_fresh(s)
    play(s, use("trade_token"), R.GIVE0 + card("Fire", "trio", 3), R.TARGET0 + sq("c1"))
    assert s.board[sq("c1")] == card("Fire", "trio", 3)
    _assert_fresh(s)


def test_observation_cache_refresh_after_direct_edit_rebuilds():
    """Editing fields directly and calling refresh() (the documented way) drops the
    caches: the observation follows the edit."""
    s = Game(num_players=2).new_initial_state(0)
    _assert_fresh(s)
    sq0 = s.game.card_squares[0]
    c = s.board[sq0]
    s.board[sq0] = -1
    s.owner[c] = 1
    s.collections[1].append(c)
    s.refresh()
    _assert_fresh(s)
    obs = s.game.layout.views(s.observation_tensor(1))
    assert obs["collections"][0, c] == 1 and obs["squares"][sq0, 2] == 0


def test_observation_cache_not_pickled_and_deepcopy_continues_identically():
    """Pickles and deep copies leave the caches out; the copy observes the same."""
    s = Game(num_players=4, hidden_artefacts=True).new_initial_state(3)
    for _ in range(6):
        _assert_fresh(s)
        s.apply_action(s.legal_actions()[0])
    assert len(pickle.dumps(s)) < 8 * s.game.observation_size()
    for c in (pickle.loads(pickle.dumps(s)), copy.deepcopy(s)):
        assert c._obs_seats is None
        for p in range(4):
            assert np.array_equal(c.observation_tensor(p), s.observation_tensor(p))
