"""Fixtures shared by the agents' tests."""

import numpy as np
import pytest

import ether_envs


@pytest.fixture
def ethnos_hidden_twins():
    """``(game, state, other, p)``: a 3-player Ethnos position and another determinization of it
    for the mover ``p`` (the others' hands and the deck redrawn), which ``p`` sees identically.
    Ethnos redraws a determinization from a canonical order, so a search seeded alike must decide
    alike on both; the other engines permute the true hidden order (the same distribution of
    worlds, not the same world for a seed)."""
    game = ether_envs.load_game("ethnos", num_players=3)
    state = game.new_initial_state(seed=11)
    for _ in range(7):
        state.apply_action(state.legal_actions()[0])
    p = state.current_player()
    other = state.resample_hidden(p, np.random.default_rng(99))
    assert state.observation_tensor(p).tobytes() == other.observation_tensor(p).tobytes()
    return game, state, other, p
