"""``State.clone()`` cannot forget a field: every field of a state holding something mutable is
declared in one of ``State.CLONED_LISTS``, ``CLONED_NESTED_LISTS``, ``CLONED_RECORDS``,
``_clone_shared`` or ``RNG_FIELDS``, and a clone shares no mutable part with its original (at any depth) but
the shared fields. A field dropped from the declarations, or a new list field not added to
them, fails these tests. (``test_engine_caches.py`` checks that clones play on identically.)"""

import dataclasses

import pytest

import ether_envs
from ether_envs import testing
from ether_envs.core.game import snapshot
from ether_envs.ether_wars import fast
from ether_envs.ether_wars.rules import State

from .builders import random_states

CONFIGS = [(2, "beginner"), (3, "advanced"), (4, "beginner")]
IMMUTABLE = (type(None), bool, int, float, str, tuple)


def shared_parts(a, b, path=""):
    """Paths of the mutable objects reachable from both ``a`` and ``b`` at the same place."""
    if isinstance(a, IMMUTABLE) and not (isinstance(a, tuple) and any(not isinstance(x, IMMUTABLE) for x in a)):
        return []
    if a is b:
        return [path]
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in shared_parts(x, y, f"{path}[{i}]")]
    if dataclasses.is_dataclass(a):
        return [p for f in dataclasses.fields(a) for p in shared_parts(getattr(a, f.name), getattr(b, f.name),
                                                                       f"{path}.{f.name}")]
    return []


def shared_fields(original, clone):
    declared_shared = set(State._clone_shared + State.RNG_FIELDS)
    return [p for name, value in vars(original).items() if name not in declared_shared
            for p in shared_parts(value, vars(clone)[name], name)]


@pytest.mark.parametrize("n,favours", CONFIGS)
def test_clone_shares_no_mutable_part_with_its_original(n, favours):
    records = 0
    for s in random_states(n, favours, [n], max_rounds=4):
        c = s.clone()
        assert shared_fields(s, c) == []
        assert snapshot(c) == snapshot(s)
        records += s.window is not None and s.resolving is not None
    assert records > 10  # both records were cloned, a window open while an area is resolved


@pytest.mark.parametrize("n,favours", CONFIGS)
def test_every_mutable_field_is_declared_for_clone(n, favours):
    declared = set(State.CLONED_LISTS + State.CLONED_NESTED_LISTS + State.CLONED_RECORDS + State._clone_shared
                   + State.RNG_FIELDS)
    for s in random_states(n, favours, [n + 10], max_rounds=4):
        for name, value in vars(s).items():
            if not isinstance(value, IMMUTABLE):
                assert name in declared, f"State.{name} is not declared for clone() (rules.State.CLONED_*)"


@pytest.mark.parametrize("group", ["CLONED_LISTS", "CLONED_NESTED_LISTS", "CLONED_RECORDS"])
def test_a_field_dropped_from_clone_is_caught(group, monkeypatch):
    """The check above fails for every declared field left out of ``clone``."""
    seen = {}
    for s in random_states(3, "beginner", [1], max_rounds=4):
        if s.window is not None and s.resolving is not None:
            for name in getattr(State, group):
                if name not in seen and vars(s)[name] is not None:
                    seen[name] = s.clone()
    for name, s in seen.items():
        monkeypatch.setattr(State, group, tuple(x for x in getattr(State, group) if x != name))
        assert any(p.startswith(name) for p in shared_fields(s, s.clone())), name
        monkeypatch.undo()
    assert set(seen) == set(getattr(State, group))


def test_records_copy_every_field():
    for s in random_states(2, "beginner", [2], max_rounds=2):
        for record in (s.window, s.resolving):
            if record is not None:
                copy = record.copy()
                assert snapshot(copy) == snapshot(record)
                assert shared_parts(record, copy) == []


def test_compiled_record_copy_copies_a_new_field():
    """``fast.compile_copy`` copies whatever fields a record declares (a new one included)."""

    @dataclasses.dataclass(slots=True)
    class Record:
        seat: int
        seats: list[int] = dataclasses.field(default_factory=list)
        faces: list[list[int]] = dataclasses.field(default_factory=lambda: [[1], [2]])

    record = Record(3, [1, 2])
    copy = fast.compile_copy(Record)(record)
    assert copy == record and shared_parts(record, copy) == []


# ---- the generic copy-integrity check (ether_envs.testing), as in every game's test_clone.py ----
_GENERIC_CONFIG = {"num_players": 3, "favours": "advanced", "max_rounds": 1}


def test_generic_clone_check_passes():
    """(``tests/test_conformance.py`` runs the same check on every conformance configuration.)"""
    testing.check_clone_independence("ether_wars", _GENERIC_CONFIG, seeds=range(1))


@pytest.mark.parametrize("field,how", testing.clone_sabotages("ether_wars", _GENERIC_CONFIG))
def test_generic_clone_check_catches_a_forgotten_copy(field, how):
    testing.check_clone_check_catches("ether_wars", _GENERIC_CONFIG, State, field, how)
