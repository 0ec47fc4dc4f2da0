"""Rulebook "Mise en place" and "Nouvelle Ère" (research §1.3, §1.10, §1.11)."""

import numpy as np
import pytest

import ether_envs
from ether_envs.ethnos import components as C
from ether_envs.ethnos import rules as R


@pytest.mark.parametrize("n,tribes", [(2, 5), (3, 5), (4, 6), (5, 6), (6, 6)])
def test_setup_tribes_in_play_by_player_count(n, tribes):
    """Setup 4: 6 setup cards turned (5 with 2-3 players); their tribes form the deck."""
    s = ether_envs.load_game("ethnos", num_players=n).new_initial_state(seed=n)
    assert len(s.tribes) == tribes
    expected = sum(C.TRIBE_CARDS[t] for t in s.tribes)
    assert len(s.age_cards) == expected
    in_play = s.hands.sum() + s.face_up.sum() + s.deck_len - C.NUM_DRAGONS
    assert in_play == expected


def test_setup_tribes_given_in_config_are_used():
    tribes = ("Orcs", "Skeletons", "Trolls", "Wingfolk", "Wizards")
    s = ether_envs.load_game("ethnos", num_players=3, tribes=tribes).new_initial_state(seed=1)
    assert [C.TRIBES[t] for t in s.tribes] == sorted(tribes, key=C.TRIBES.index)


@pytest.mark.parametrize("bad", [
    {"num_players": 7}, {"num_players": 1}, {"num_players": 4, "tribes": ("Orcs",)},
    {"num_players": 2, "tribes": ("Orcs", "Elves", "Giants", "Trolls", "Nobody")},
    {"glory_tokens": "S9"}, {"first_player_tie": "random"}, {"giant_take_glory": -1},
])
def test_config_invalid_raises_value_error(bad):
    with pytest.raises(ValueError):
        ether_envs.load_game("ethnos", **bad)


def test_setup_glory_tokens_4_players_three_per_kingdom_ascending():
    """Setup 2: three tokens per Kingdom, sorted ascending into I, II, III (all 18 used)."""
    s = ether_envs.load_game("ethnos", num_players=4).new_initial_state(seed=3)
    assert s.glory_tokens.shape == (6, 3)
    assert (np.diff(s.glory_tokens, axis=1) >= 0).all()
    full = sorted(C.GLORY_TOKEN_SETS["S4"] + C.GLORY_TOKENS_4PLUS)
    assert sorted(s.glory_tokens.ravel().tolist()) == full


@pytest.mark.parametrize("n", [2, 3])
def test_setup_glory_tokens_2_3_players_remove_4plus_two_per_kingdom(n):
    """2-3 players: the "4+" tokens are removed; 2 tokens per Kingdom."""
    s = ether_envs.load_game("ethnos", num_players=n).new_initial_state(seed=5)
    assert s.glory_tokens.shape == (6, 2)
    assert sorted(s.glory_tokens.ravel().tolist()) == sorted(C.GLORY_TOKEN_SETS["S4"])


def test_setup_glory_tokens_s1_option_uses_s1_set():
    s = ether_envs.load_game("ethnos", num_players=3, glory_tokens="S1").new_initial_state(seed=5)
    assert sorted(s.glory_tokens.ravel().tolist()) == sorted(C.GLORY_TOKEN_SETS["S1"])


@pytest.mark.parametrize("n", [2, 4, 6])
def test_new_age_each_player_draws_one_and_two_per_player_face_up(n):
    s = ether_envs.load_game("ethnos", num_players=n).new_initial_state(seed=11)
    assert s.hands.sum(axis=1).tolist() == [1] * n
    assert s.face_up.sum() == 2 * n
    assert s.dragons == 0 and s.age == 1
    assert s.supply.tolist() == [C.MARKERS_PER_PLAYER] * n


@pytest.mark.parametrize("seed", range(6))
def test_new_age_dragons_shuffled_into_bottom_half(seed):
    """The three Dragons lie in the bottom ceil(m/2) + 3 cards of the deck."""
    s = ether_envs.load_game("ethnos", num_players=4).new_initial_state(seed=seed)
    m = s.deck_len - C.NUM_DRAGONS
    deck = s.deck[: s.deck_len]  # bottom first
    where = np.flatnonzero(deck == C.DRAGON)
    assert len(where) == 3
    assert where.max() < (m + 1) // 2 + 3
    assert s.dragon_zone == (m + 1) // 2 + 3


def test_new_age_first_player_age_one_random():
    firsts = {ether_envs.load_game("ethnos", num_players=4).new_initial_state(seed=k).first_player for k in range(30)}
    assert firsts == {0, 1, 2, 3}


@pytest.mark.parametrize("n,ages", [(2, 2), (3, 2), (4, 3), (5, 3), (6, 3)])
def test_game_ages_two_with_2_3_players_three_otherwise(n, ages):
    assert ether_envs.load_game("ethnos", num_players=n).num_ages == ages


def test_components_counts_match_rulebook():
    """12 cards per tribe, Halflings 24, 156 Allies, 18 Glory tokens, 6 Troll tokens."""
    assert C.NUM_ALLY_CARDS == 156
    assert C.TRIBE_CARDS[C.HALFLINGS] == 24 and C.TRIBE_CARDS[C.SKELETONS] == 12
    assert len(C.GLORY_TOKENS_4PLUS) + len(C.GLORY_TOKEN_SETS["S4"]) == 18
    assert C.TROLL_TOKENS == (1, 2, 3, 4, 5, 6)
    assert all(C.KIND_COPIES[k] == 2 for k in C.TRIBE_KINDS[C.ELVES])


def test_codec_size_fixed_across_player_counts():
    sizes = {ether_envs.load_game("ethnos", num_players=n).num_distinct_actions() for n in range(2, 7)}
    assert sizes == {R.CODEC.size} == {346}
