"""``clone()`` copies every field: the generic copy-integrity check passes, and fails (naming
the field) when the effect of any one copy line is deleted (the field left out of the clone,
or the original's list shared with it)."""

import pytest

from ether_envs import testing
from ether_envs.ethnos.rules import State

NAME = "ethnos"
CONFIG = {"num_players": 3}


def test_clone_copies_every_field():
    """(``tests/test_conformance.py`` runs the same check on every conformance configuration.)"""
    testing.check_clone_independence(NAME, CONFIG, seeds=range(1))


@pytest.mark.parametrize("field,how", testing.clone_sabotages(NAME, CONFIG))
def test_clone_check_catches_a_forgotten_copy(field, how):
    testing.check_clone_check_catches(NAME, CONFIG, State, field, how)
