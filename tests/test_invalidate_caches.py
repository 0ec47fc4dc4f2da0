"""``State.invalidate_caches()`` after a direct edit of a state's fields (issue 27, item 6).

Every game: ``ether_envs.testing.check_invalidate_caches`` in the conformance suite
(``tests/test_conformance.py -k invalidate``) overwrites a state's public fields with another
position's and checks that the state then shows that position. Here: the edits a test or a
scenario builder makes, on the caches a field-for-field copy does not reach.
"""

import pickle

import numpy as np
import pytest

import ether_envs
from ether_envs import testing
from ether_envs.aethermon_collect import rules as AC
from ether_envs.aetherspire import codec as K
from ether_envs.aetherspire.fast import star_blocked
from ether_envs.aetherspire.rules import BUILD


@pytest.mark.parametrize("name", ether_envs.list_games())
def test_every_game_keeps_the_promise_on_its_default_configuration(name):
    """The generic check, on each game's default configuration and other seeds (the
    conformance suite runs it on every configuration)."""
    testing.check_invalidate_caches(name, {}, seeds=(2, 3), stride=5)


# ---- Aetherspire ------------------------------------------------------------------------
def _aetherspire_build_choice_with_reroll(seed: int = 0):
    """A 2-player Aetherspire state on the build step's main choice where REROLL is legal,
    its caches full (legal actions and every seat's observation asked for)."""
    game = ether_envs.load_game("aetherspire", num_players=2)
    for s in range(seed, seed + 50):
        state = game.new_initial_state(seed=s)
        rng = np.random.default_rng(s)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.phase == BUILD and not state.queue and any(
                    K.REROLL0 <= a < K.REROLL0 + 5 for a in legal):
                for p in range(state.num_players):
                    state.observation_tensor(p)
                return state
            state.apply_action(int(legal[rng.integers(len(legal))]))
    raise AssertionError("no build step with a reroll in 50 games")


def _fresh(state):
    """The same position with every cache empty and fresh stamps (what unpickling gives),
    its legal actions listed by the plain rules."""
    copy = pickle.loads(pickle.dumps(state))
    copy._legal = None
    copy._legal_memo = None
    return copy


def test_aetherspire_dice_set_to_zero_offer_no_reroll():
    """The tester's case: with the dice set to zero by hand, REROLL was still offered."""
    s = _aetherspire_build_choice_with_reroll()
    s.dice = [0] * 5
    s.invalidate_caches()
    legal = s.legal_actions()
    assert not [a for a in legal if K.REROLL0 <= a < K.REROLL0 + 5], legal
    assert legal == sorted(s._build_options())  # the plain rule
    assert legal == _fresh(s).legal_actions()
    assert np.array_equal(s.legal_actions_mask(), _fresh(s).legal_actions_mask())
    for p in range(s.num_players):
        assert np.array_equal(s.observation_tensor(p), _fresh(s).observation_tensor(p))


def test_aetherspire_refuses_a_stale_action_after_invalidate_caches():
    """apply_action checks against the legal actions of the edited state."""
    s = _aetherspire_build_choice_with_reroll()
    reroll = next(a for a in s.legal_actions() if K.REROLL0 <= a < K.REROLL0 + 5)
    s.dice = [0] * 5
    s.invalidate_caches()
    with pytest.raises(ValueError, match="legal actions"):
        s.apply_action(reroll)


def test_aetherspire_pillar_put_by_hand_shows_in_the_fortress_and_the_observation():
    """A pillar put on a free space by hand: the fortress view (open, free spaces, buildable
    rooms), the legal actions and every seat's observation (the encoder, shared by every
    state of the game, redraws the tile) follow."""
    s = _aetherspire_build_choice_with_reroll()
    free = s.pillar_spaces()
    assert free
    space = free[0]
    s.pillar[space] = 1
    s.pillars_used += 1
    s.invalidate_caches()
    assert space not in s.pillar_spaces()
    view, plain = s._fortress(), s._survey_fortress()
    assert (view.open_spaces, view.invader_spaces, view.free_spaces, view.buildable_rooms,
            view.spire_options) == (plain.open_spaces, plain.invader_spaces, plain.free_spaces,
                                    plain.buildable_rooms, plain.spire_options)
    assert K.SPACE0 + space not in s.legal_actions()
    assert s.legal_actions() == sorted(s._build_options())
    for p in range(s.num_players):
        assert np.array_equal(s.observation_tensor(p), _fresh(s).observation_tensor(p))


def test_aetherspire_fiend_woken_by_hand_blocks_star_dice():
    """An awake level-2 fiend keeps star dice off its element's rooms (ASP-A6): waking one by
    hand changes ``needs`` (kept per board stamp) once the caches are dropped."""
    s = _aetherspire_build_choice_with_reroll()
    assert star_blocked(s) == s._star_blocked()  # kept for this board stamp
    for e in range(4):
        s.awake[e], s.defeated[e], s.fiend_level[e] = True, False, 2
    s.invalidate_caches()
    assert s._star_blocked() == 0b1111
    assert star_blocked(s) == 0b1111
    assert s.legal_actions() == sorted(s._build_options())


# ---- Aethermon: Collect -------------------------------------------------------------------
def test_aethermon_collect_scores_follow_a_card_collected_by_hand():
    """``score_cache`` (what ``scores()`` reads) is derived from the collections: a card
    collected by hand counts once the caches are dropped (``refresh()``, the older name,
    does the same)."""
    game = ether_envs.load_game("aethermon_collect")
    s = game.new_initial_state(seed=0)
    rng = np.random.default_rng(0)
    while s.phase != AC.TURN and not s.is_terminal():  # after the token and the draft
        legal = s.legal_actions()
        s.apply_action(int(legal[rng.integers(len(legal))]))
    before = s.scores().tolist()
    s.observation_tensor(0)
    sq = next(i for i, c in enumerate(s.board) if c >= 0)
    c = s.board[sq]
    s.board[sq] = -1
    s.owner[c] = 0
    s.collections[0].append(c)
    s.invalidate_caches()
    assert s.scores().tolist() == [s.rescored(p) for p in range(s.num_players)]
    assert s.scores()[0] > before[0]
    assert s.card_square[c] == -1
    other = pickle.loads(pickle.dumps(s))
    other.refresh()
    assert s.scores().tolist() == other.scores().tolist()
    assert np.array_equal(s.observation_tensor(0), other.observation_tensor(0))
