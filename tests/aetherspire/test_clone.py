"""``clone()`` copies every field: the generic copy-integrity check passes, and fails (naming
the field) when the effect of any one copy line is deleted (the field left out of the clone,
or the original's list shared with it). ``State.clone`` copies every list field by default;
its declarations (``State._clone_shared``, ``State._clone_rebuilt``) name real fields."""

import numpy as np
import pytest

import ether_envs
from ether_envs import testing
from ether_envs.aetherspire.rules import State

NAME = "aetherspire"
CONFIG = {"num_players": 4, "difficulty": 3}


def test_clone_copies_every_field():
    """(``tests/test_conformance.py`` runs the same check on every conformance configuration.)"""
    testing.check_clone_independence(NAME, CONFIG, seeds=range(1))


@pytest.mark.parametrize("field,how", testing.clone_sabotages(NAME, CONFIG))
def test_clone_check_catches_a_forgotten_copy(field, how):
    testing.check_clone_check_catches(NAME, CONFIG, State, field, how)


def test_clone_declarations_name_real_fields():
    """The shared and rebuilt declarations name fields a state has (a renamed or dropped
    field fails here, not silently)."""
    s = ether_envs.load_game(NAME, **CONFIG).new_initial_state(0)
    assert set(State._clone_shared) | set(State._clone_rebuilt) <= vars(s.clone()).keys()


def test_a_new_field_is_copied_or_caught():
    """A new list field (or list of lists) is copied by ``clone`` without any change to it;
    a new field of another mutable type is caught by the generic check until clone handles it."""
    s = ether_envs.load_game(NAME).new_initial_state(0)
    s.new_list_field = [1, 2]
    s.new_nested_field = [[1], [2]]
    c = s.clone()
    assert c.new_list_field == s.new_list_field and c.new_list_field is not s.new_list_field
    assert c.new_nested_field == s.new_nested_field and c.new_nested_field[0] is not s.new_nested_field[0]
    assert testing.shared_mutable_fields(s, c) == []
    s.new_dict_field = {"a": 1}
    assert testing.shared_mutable_fields(s, s.clone()) == ["new_dict_field"]


def test_playing_a_clone_leaves_the_original_unchanged():
    """Copy integrity: after play continues on a clone, the original holds exactly what
    it held (every field, deeply: ``testing.deep_fingerprint``)."""
    game = ether_envs.load_game(NAME, num_players=2, difficulty=3)
    s = game.new_initial_state(5)
    rng = np.random.default_rng(5)
    for step in range(300):
        if s.is_terminal():
            break
        if step % 9 == 0:
            before = testing.deep_fingerprint(s)
            c = s.clone()
            for _ in range(25):
                if c.is_terminal():
                    break
                legal = c.legal_actions()
                c.apply_action(legal[rng.integers(len(legal))])
            assert testing.deep_fingerprint(s) == before
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])
