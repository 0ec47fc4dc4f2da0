"""Conservation of components over whole games (random and heuristic play)."""

import numpy as np
import pytest

import ether_envs
from agents.heuristics.aetherspire import heuristic_action
from ether_envs.aetherspire import rules as R


def check_components(s):
    """40 invaders, 10 per element (bag, wheel, set aside, fortress, drawn); pillars;
    38 tiles (stacks, reserve, fortress); at most 8 dice; invaders only on open spaces."""
    held = s.incoming + [x[1] for x in s.queue if x[0] in (R.K_SETUP_INV, R.K_INV_SPACE)]
    for e in range(4):
        assert (s.bag.count(e) + s.shards[e] + s.aside[e] + s.invader.count(e) + held.count(e)) == 10
    assert sum(s.pillar) == s.pillars_used <= 50
    assert 0 <= sum(s.dice) <= 8 and min(s.dice) >= 0 and min(s.shards) >= 0 and 0 <= s.cores <= 5
    opened = set(s.open_spaces())
    assert all(q in opened for q in range(R.NS) if s.invader[q] >= 0)
    fortress = [t for t in range(R.NT) if s.level[t]]
    assert sorted(s.reserve + s.stacks[0] + s.stacks[1] + s.stacks[2] + fortress) == list(range(R.NT))


@pytest.mark.parametrize("num_players,difficulty", [(1, 1), (3, 3), (4, 4)])
def test_invariants_components_conserved_in_play(num_players, difficulty):
    g = ether_envs.load_game("aetherspire", num_players=num_players, difficulty=difficulty)
    for seed in range(4):
        s = g.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            check_components(s)
            legal = s.legal_actions()
            a = heuristic_action(s, s.current_player(), rng) if seed % 2 else legal[rng.integers(len(legal))]
            s.apply_action(a)
        check_components(s)
