"""Rulebook "Game Setup" and "Difficulty Modes" setup changes."""

import pytest

from ether_envs.aetherspire import codec as K
from ether_envs.aetherspire import components as C
from ether_envs.aetherspire.rules import Game

from .builders import a


def _new(**cfg):
    return Game(**cfg).new_initial_state(seed=cfg.pop("seed", 0) if "seed" in cfg else 0)


def test_setup_difficulty1_large_multi_tile_with_two_invaders_placed_by_first_player():
    """Steps 11-12: a large tile multi side up on a foundation; 2 invaders from the bag
    on any 2 of its spaces, chosen by the first player."""
    s = _new(num_players=2, difficulty=1)
    t = s.found_tile[0]
    assert t >= 0 and C.TILES[t].size == C.LARGE and s.side[t] == 1 and s.level[t] == 1
    assert s.phase == K.SETUP and s.current_player() == 0
    spaces = C.TILE_SPACES[1][t]
    assert s.legal_actions() == [a("SPACE", q) for q in spaces]
    s.apply_action(a("SPACE", spaces[2]))
    assert a("SPACE", spaces[2]) not in s.legal_actions()
    s.apply_action(a("SPACE", spaces[0]))
    assert sum(x >= 0 for x in s.invader) == 2 and len(s.bag) == 38
    assert s.phase == K.SUPPLY


def test_setup_components_on_the_board():
    """Steps 2-10: shuffled stacks, 2 aethercore tokens, 4 walls, four level-1 fiends
    face down, track token on Start, 40 invaders in the bag, 50 pillars."""
    s = _new(num_players=3, difficulty=1)
    assert s.cores == 2 and s.walls == [True] * 4 and s.track == 0
    assert s.fiend_level == [1, 1, 1, 1] and not any(s.awake) and sorted(s.slot_element) == [0, 1, 2, 3]
    assert len(s.bag) + 2 == 40 and s.pillar_supply() == 50
    assert [len(st) for st in s.stacks] == [16, 12, 9]
    assert s.adaptation == [-1] * 4


def test_setup_difficulty2_no_start_tile_and_random_fiends():
    """Difficulty 2: steps 11-12 ignored; one random fiend per element."""
    levels = set()
    for seed in range(12):
        s = Game(num_players=2, difficulty=2).new_initial_state(seed)
        assert all(t < 0 for t in s.found_tile) and len(s.bag) == 40 and s.phase == K.SUPPLY
        levels.update(s.fiend_level)
    assert levels == {1, 2, 3, 4}
    s = Game(num_players=2, difficulty=2, fiend_level=3).new_initial_state(0)
    assert s.fiend_level == [3, 3, 3, 3]  # "use one of the other sets"


def test_setup_difficulty3_adaptation_under_each_fiend():
    """Difficulty 3 step 5b: one adaptation dealt to each fiend (or the first 1-3)."""
    s = Game(num_players=2, difficulty=3).new_initial_state(1)
    assert sorted(x >= 0 for x in s.adaptation) == [True] * 4 and len(set(s.adaptation)) == 4
    s = Game(num_players=2, difficulty=3, adaptations=2).new_initial_state(1)
    dealt = [s.adaptation[e] >= 0 for e in s.slot_element]
    assert dealt == [True, True, False, False]


def test_setup_difficulty4_extra_core_and_track_one_space_down():
    """Difficulty 4: 1 extra aethercore token; the track token starts 1 space down."""
    s = Game(num_players=2, difficulty=4).new_initial_state(0)
    assert s.cores == 3 and s.track == 1
    s = Game(num_players=2, difficulty=4, jump=3).new_initial_state(0)
    assert s.cores == 5 and s.track == 3


def test_setup_characters_pool_by_difficulty_and_solo():
    """Step 15 (difficulty 2): starter and advanced heroes; difficulty 1 starters;
    solo: the solo characters (ASP-A18); or chosen in the config."""
    for seed in range(5):
        s = Game(num_players=4, difficulty=1).new_initial_state(seed)
        assert all(C.CHARACTERS[c].tier == "starter" for c in s.characters)
        s = Game(num_players=1, difficulty=3).new_initial_state(seed)
        assert C.CHARACTERS[s.characters[0]].tier == "solo"
    s = Game(num_players=2, characters=("Architect", "Tideshaper")).new_initial_state(0)
    assert [C.CHARACTERS[c].name for c in s.characters] == ["Architect", "Tideshaper"]


def test_setup_config_errors():
    for bad in ({"num_players": 5}, {"difficulty": 0}, {"characters": ("Nobody", "Geomancer")},
                {"reward": "points"}, {"fiend_level": 7}):
        with pytest.raises(ValueError):
            Game(**bad)


def test_setup_utility_identical_cooperative():
    """Cooperation: all players win or lose as a team."""
    g = Game(num_players=3)
    assert g.utility() == "identical"
