"""``State.clone`` cannot forget a field: it copies every list attribute (a new list field
is copied by default), and every other attribute must hold an immutable value or be
declared shared (``rules.CLONE_SHARED``, ``rules.CLONE_COPY_ON_WRITE``); the checks
below fail when a field is dropped, shared by mistake, or a declaration goes stale."""

import copy

import numpy as np
import pytest

import ether_envs
from ether_envs.aetherspire import rules as R

_NOT_COMPARED = {"game", "_rng", "_rng_state", "_fortress_cache", "_structure_cache"}
"""Shared or cache attributes left out of the value comparisons (caches: ``test_fast_path.py``)."""


def _immutable(v) -> bool:
    if isinstance(v, tuple | frozenset):
        return all(_immutable(x) for x in v)
    return v is None or isinstance(v, int | float | str | bytes | np.generic)


def sharing_problems(s, c) -> list[str]:
    """What is wrong with clone ``c`` of state ``s`` (empty when nothing is)."""
    problems = []
    if vars(c).keys() != vars(s).keys():
        problems.append(f"attributes differ: {sorted(vars(c).keys() ^ vars(s).keys())}")
    for name, value in vars(s).items():
        other = vars(c).get(name)
        if name not in _NOT_COMPARED and other != value:
            problems.append(f"{name}: the clone's value differs")
        if _immutable(value) or name in R.CLONE_SHARED:
            continue
        if name in R.CLONE_COPY_ON_WRITE:
            if not s._fortress_shared or not c._fortress_shared:
                problems.append(f"{name}: shared, but not marked for a copy on write")
            continue
        if other is value:
            problems.append(f"{name}: a {type(value).__name__} shared with the clone")
        elif isinstance(value, list) and any(isinstance(x, list) and any(x is y for y in other) for x in value):
            problems.append(f"{name}: an inner list shared with the clone")
        elif not isinstance(value, list):
            problems.append(f"{name}: a {type(value).__name__} that clone does not copy")
    return problems


def _states(config, seed, steps=400):
    game = ether_envs.load_game("aetherspire", **config)
    s = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for step in range(steps):
        if step % 9 == 0 or s.is_terminal():
            yield s
        if s.is_terminal():
            return
        s.legal_actions()
        if step % 4 == 0:
            s.observation_tensor(s.current_player())
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("config", [{"num_players": 1, "difficulty": 1}, {"num_players": 4, "difficulty": 3}])
def test_clone_copies_or_declares_every_attribute(config):
    """At states of random games: a clone has the same attributes with equal values, and no
    mutable attribute of the original unless declared shared or copy-on-write."""
    for s in _states(config, seed=2):
        assert sharing_problems(s, s.clone()) == []


def test_clone_declarations_name_real_attributes():
    """The shared and copy-on-write declarations name attributes a state has (a renamed or
    dropped field fails here, not silently)."""
    s = ether_envs.load_game("aetherspire").new_initial_state(0)
    s.clone()  # a cloned state holds every attribute the declarations name
    assert R.CLONE_SHARED | R.CLONE_COPY_ON_WRITE | set(R.CLONE_TWO_LEVELS) <= vars(s).keys()


def test_a_new_field_is_copied_or_caught():
    """A new list field is copied by ``clone`` without any change to it; a new field of
    another mutable type is caught by ``sharing_problems`` until clone handles it."""
    s = ether_envs.load_game("aetherspire").new_initial_state(0)
    s.new_list_field = [1, 2]
    c = s.clone()
    assert c.new_list_field == s.new_list_field and c.new_list_field is not s.new_list_field
    s.new_dict_field = {"a": 1}
    assert any("new_dict_field" in p for p in sharing_problems(s, s.clone()))
    del s.new_dict_field
    s.new_list_field = [[1]]  # a list of lists must be declared two levels deep
    assert any("inner list" in p for p in sharing_problems(s, s.clone()))


def test_playing_a_clone_leaves_the_original_unchanged():
    """Copy integrity: after play continues on a clone (and on the original's other
    clones), the original holds exactly what it held."""
    for s in _states({"num_players": 2, "difficulty": 3}, seed=5, steps=300):
        c = s.clone()
        before = {k: copy.deepcopy(v) for k, v in vars(s).items() if k not in _NOT_COMPARED}
        rng = np.random.default_rng(len(s.history))
        for _ in range(25):
            if c.is_terminal():
                break
            legal = c.legal_actions()
            c.apply_action(legal[rng.integers(len(legal))])
        assert {k: v for k, v in vars(s).items() if k not in _NOT_COMPARED} == before
