"""Each fast path of ``fast.py`` against the plain rule it stands for, at every step of
random games (clones and pickles along the way). ``fast.dice_feasible`` against the plain
``rules.dice_can_meet`` and an exhaustive search: ``test_invariants.py``."""

import pickle

import numpy as np
import pytest

import ether_envs
from ether_envs.aetherspire import components as C
from ether_envs.aetherspire import fast
from ether_envs.aetherspire import rules as R

from .builders import fortress_contents

CONFIGS = [
    {"num_players": 1, "difficulty": 1},
    {"num_players": 2, "difficulty": 2, "fiend_level": 2},  # level-2 fiends block star dice once awake
    {"num_players": 3, "difficulty": 3},
    {"num_players": 4, "difficulty": 4},
]


def _random_games(config, seeds=(0, 1, 2)):
    """Yield every state of seeded random games of ``config`` (some continue on a clone)."""
    game = ether_envs.load_game("aetherspire", **config)
    for seed in seeds:
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        step = 0
        while not s.is_terminal():
            yield s
            legal = s.legal_actions()
            if step % 7 == 3:
                s = s.clone()
            s.apply_action(legal[rng.integers(len(legal))])
            step += 1
        yield s


def _structure_contents(structure):
    return structure.open_rooms, structure.open_spaces, structure.spire_tops


@pytest.mark.parametrize("config", CONFIGS)
def test_fortress_caches_equal_a_fresh_survey(config):
    """The fortress view, kept per stamp and updated space by space (``fast.update_space``,
    copied on write by clones), the structure cache and the star-blocking fiends kept per
    board stamp equal the plain surveys (``State._survey_fortress``, ``_survey_structure``,
    ``_target_groups``, ``_star_blocked``) of a copy with no caches; an original stays
    right while its clone changes the shared view."""
    for s in _random_games(config):
        fresh = pickle.loads(pickle.dumps(s))  # fresh stamps, empty caches
        assert fortress_contents(s._fortress()) == fortress_contents(fresh._survey_fortress())
        assert _structure_contents(s._structure()) == _structure_contents(fresh._survey_structure())
        for e in range(4):
            assert s._target_groups(e) == fresh._target_groups(e)
        assert fast.star_blocked(s) == fresh._star_blocked()
        if not s.is_terminal() and len(s.history) % 5 == 0:
            c = s.clone()
            for _ in range(3):
                if c.is_terminal():
                    break
                c.apply_action(c.legal_actions()[-1])
            assert fortress_contents(s._fortress()) == fortress_contents(fresh._survey_fortress())


@pytest.mark.parametrize("config", CONFIGS)
def test_pillar_options_equal_the_plain_rule(config):
    """``fast.pillar_options`` (a table of which faces fit each space, Hall's condition for
    two-die spaces) equals ``State._pillar_options`` (``dice_can_meet`` on every available
    space) on the fortresses of random games, with the dice rolled and with other dice."""
    rng = np.random.default_rng(0)
    for s in _random_games(config, seeds=(0, 1)):
        spaces = s.pillar_spaces()
        dice = s.dice
        for trial in range(4):
            s.dice = dice if trial == 0 else [int(x) for x in rng.integers(0, 3, size=5)]
            assert fast.pillar_options(s, spaces) == s._pillar_options(), (s.dice, s.needs(spaces[0]) if spaces else ())
        s.dice = dice


@pytest.mark.parametrize("config", CONFIGS)
def test_build_options_equal_the_plain_rule(config):
    """``fast.build_options`` lists the build step's main choice exactly as
    ``State._build_options`` does, on the states of random games (the main choice and,
    as if it were, every other decision's position), with the dice rolled and other dice."""
    rng = np.random.default_rng(1)
    for s in _random_games(config, seeds=(0, 1)):
        if s.is_terminal():
            continue
        dice = s.dice
        for trial in range(3):
            s.dice = dice if trial == 0 else [int(x) for x in rng.integers(0, 3, size=5)]
            assert fast.build_options(s) == s._build_options(), (s.dice, s.shards, s.reserve)
        s.dice = dice


@pytest.mark.parametrize("config", CONFIGS)
def test_legal_actions_equal_the_plain_rules_at_every_step(config, monkeypatch):
    """The same seeded games played twice, with the fast paths and then with the plain
    rules only (the fortress surveyed anew on every query, the main choice by
    ``_build_options``), offer the same legal actions and observations at every step."""

    def play():
        game = ether_envs.load_game("aetherspire", **config)
        out = []
        for seed in (3, 4):
            s = game.new_initial_state(seed)
            rng = np.random.default_rng(seed)
            while not s.is_terminal():
                legal = s.legal_actions()
                out.append((legal, s.observation_tensor(s.current_player()).tobytes()))
                s.apply_action(legal[rng.integers(len(legal))])
            out.append((s.returns().tolist(), s.outcome))
        return out

    fast_play = play()
    monkeypatch.setattr(R.State, "_fortress", R.State._survey_fortress)
    monkeypatch.setattr(R.State, "_structure", R.State._survey_structure)
    monkeypatch.setattr(R, "build_options", lambda state: state._build_options())
    plain_play = play()
    assert len(fast_play) == len(plain_play)
    for step, (a, b) in enumerate(zip(fast_play, plain_play)):
        assert a == b, f"step {step}"


@pytest.mark.parametrize("config", CONFIGS)
def test_trigger_usable_equals_the_plain_rule_for_every_kind(config):
    """``fast.trigger_usable`` (one branch per trigger kind, reading what ``build_options``
    has read) answers as the plain ``EffectRules._<kind>_trigger_usable`` of every
    character, on the states of random games, with the dice rolled and with other dice."""
    rng = np.random.default_rng(2)
    kinds = set()
    for s in _random_games(config, seeds=(0,)):
        if s.is_terminal():
            continue
        dice, characters = s.dice, s.characters
        for character in C.CHARACTERS:
            s.characters = characters[:]
            s.characters[s.turn_player] = character.char_id
            for trial in range(2):
                s.dice = dice if trial == 0 else [int(x) for x in rng.integers(0, 3, size=5)]
                view = s._fortress()
                plain = s._TRIGGER_USABLE[character.trigger](s)
                assert fast.trigger_usable(s, character.trigger, character.element, view, s.pillar_spaces(),
                                           sum(s.dice), sum(s.shards)) == plain, (character.name, s.dice)
                kinds.add((character.trigger, plain))
        s.dice, s.characters = dice, characters
    assert {kind for kind, usable in kinds if usable} == set(C.TRIGGERS)  # each kind seen usable
