"""Hidden information (secret programs, Flash hands, deck and season order) and
rulebook "End of the Game" (Victory tokens, Abilities, Guide, Ether pairs, tie-break)."""

import numpy as np

from ether_envs.etherium import components as C
from ether_envs.etherium import rules as R

from .builders import make, set_hand, set_resources, space


def _program_phase(state):
    while state.decision() != R.D_PROGRAM:
        state.apply_action(state.legal_actions()[0])
    return state


def test_program_hidden_from_opponents_until_reveal():
    """Program Actions: simultaneous and secret (hidden commits), revealed in phase 5."""
    s = _program_phase(make(("Reces", "Psolos")))
    first = s.current_player()
    other = 1 - first
    layout = s.game.layout
    sl = layout.slices["programs"]
    s.apply_action(R.PROGRAM0 + space(C.CONNECT, 0))
    obs_other = s.observation_tensor(other)[sl].reshape(4, 6, C.NUM_SPACES)
    obs_self = s.observation_tensor(first)[sl].reshape(4, 6, C.NUM_SPACES)
    assert obs_self[0, 0, space(C.CONNECT, 0)] == 1
    assert not obs_other.any()  # the opponent sees nothing of it
    while s.decision() == R.D_PROGRAM:
        s.apply_action(s.legal_actions()[0])
    assert s.revealed
    obs_other = s.observation_tensor(other)[sl].reshape(4, 6, C.NUM_SPACES)
    assert obs_other[1, 0, space(C.CONNECT, 0)] == 1  # revealed: seat +1 of the observer


def test_opponent_hand_hidden_only_its_size_is_shown():
    s = make(("Reces", "Psolos"))
    set_hand(s, 1, plus1=2)
    a = s.observation_tensor(0)
    set_hand(s, 1, shield=2)
    b = s.observation_tensor(0)
    assert np.array_equal(a, b)
    assert not np.array_equal(s.observation_tensor(1), a)


def test_resample_hidden_keeps_own_view_and_redraws_other_hands_deck_and_seasons():
    s = make(("Reces", "Psolos", "Ertis"))
    set_hand(s, 0, plus1=1, shield=1)
    set_hand(s, 1, ether=2)
    rng = np.random.default_rng(3)
    changed_hand = changed_seasons = False
    for _ in range(20):
        alt = s.resample_hidden(0, rng)
        assert alt.hand[0] == s.hand[0]
        assert [alt.hand_size(p) for p in range(3)] == [s.hand_size(p) for p in range(3)]
        assert sorted(alt.deck + [c for p in (1, 2) for c in range(12) for _ in range(alt.hand[p][c])]) == \
            sorted(s.deck + [c for p in (1, 2) for c in range(12) for _ in range(s.hand[p][c])])
        assert alt.seasons[:1] == s.seasons[:1]
        assert sorted(x // 2 for x in alt.seasons[1:]) == sorted(x // 2 for x in s.seasons[1:])
        assert np.array_equal(alt.observation_tensor(0), s.observation_tensor(0))
        changed_hand |= alt.hand[1] != s.hand[1]
        changed_seasons |= alt.seasons != s.seasons
    assert changed_hand and changed_seasons


def test_final_scoring_tokens_ability_guide_and_ether_pairs():
    """End of the Game: Soldier 2, Ether 1, Connection 4, Booster 4, Pillage 6; Ability VP;
    Guide 1 per level; 1 per 2 Ether cubes."""
    s = make(("Reces", "Psolos"))
    s.vt[0] = [2, 3, 1, 1, 1]
    s.ability[0] = C.A_HARVESTER
    s.lvl[0][C.GUIDE] = 3
    set_resources(s, 0, ether=5)
    assert s.score(0) == 4 + 3 + 4 + 4 + 6 + 3 + 3 + 2


def test_tie_broken_by_other_resources():
    """Ether: other resources are worth nothing but break a tie (ETM-A15)."""
    s = make(("Reces", "Psolos"))
    s.lvl[0][C.GUIDE] = s.lvl[1][C.GUIDE] = 1
    set_resources(s, 0, wood=3)
    set_resources(s, 1, stone=1, metal=1)
    assert s.score(0) == s.score(1)
    assert s.winners() == [0]
    set_resources(s, 1, stone=2, metal=1)
    assert s.winners() == [0, 1]


def test_victory_tokens_limited_and_one_booster_token_per_player():
    """Victory Tokens: limited supply; Booster and Pillage tokens 1 max per player."""
    s = make(("Reces", "Psolos"))
    s.vt_supply[C.VT_ETHER] = 1
    assert s.take_vt(0, C.VT_ETHER) and not s.take_vt(1, C.VT_ETHER)
    assert s.take_vt(0, C.VT_BOOSTER) and not s.take_vt(0, C.VT_BOOSTER)
    s.res[0][C.BOOSTER] = 3
    s.gain_booster(0)
    assert s.vt[0][C.VT_BOOSTER] == 1


def test_returns_zero_sum_winner_plus_one():
    s = make(("Reces", "Psolos"))
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    r = s.returns()
    assert abs(r.sum()) < 1e-9
    w = s.winners()
    assert all(r[p] > 0 for p in w)
