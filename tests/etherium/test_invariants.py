"""Invariants along random games: cubes conserved within the 16 per colour, 44 Flash cards,
levels 1..4, Victory tokens within their supply, tokens 4..6 (rulebook "Contents", "Units")."""

import numpy as np
import pytest

import ether_envs
from ether_envs.etherium import components as C


def check(s):
    n = s.num_players
    for r in range(5):
        held = [s.res[p][r] for p in range(n)]
        assert min(held) >= 0 and sum(held) <= C.CUBES_PER_COLOUR, (r, held)
    cards = len(s.deck) + sum(s.discard) + sum(sum(h) for h in s.hand)
    assert cards == 44 and min(min(h) for h in s.hand) >= 0
    for p in range(n):
        assert all(1 <= s.lvl[p][u] <= 4 for u in (C.GATHERER, C.SOLDIER, C.GUARD))
        assert 0 <= s.lvl[p][C.GUIDE] <= 4
        assert 4 <= s.ntok[p] <= 6 and len(s.program[p]) <= s.ntok[p]
        assert C.BOX_TERRAIN[s.pos[p][C.GATHERER]] != C.CITY
    for k in range(5):
        assert s.vt_supply[k] + sum(s.vt[p][k] for p in range(n)) == C.VT_SUPPLY[k]
    assert sum(s.ability_supply) + sum(a >= 0 for a in s.ability) == 14


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_component_invariants(n):
    game = ether_envs.load_game("etherium", num_players=n)
    for seed in range(3):
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            check(s)
            legal = s.legal_actions()
            s.apply_action(legal[rng.integers(len(legal))])
        check(s)
