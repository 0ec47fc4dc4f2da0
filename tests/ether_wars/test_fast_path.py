"""The fast paths of ``ether_envs/ether_wars/fast.py`` give the plain rules' answers at every
step of random games: placement bit masks (``put_masks``) against ``State.can_put``, the
Placement turn's areas and the movable dice, the legal actions the engine poses with a
decision (the legal-action cache) against ``State._legal_by_rule``, and the area action table."""

import numpy as np
import pytest

import ether_envs
from ether_envs.ether_wars import codec, fast
from ether_envs.ether_wars import components as C

from .builders import random_states

CONFIGS = [(2, "beginner"), (3, "advanced"), (4, "beginner")]


@pytest.mark.parametrize("n,favours", CONFIGS)
def test_put_masks_match_can_put_for_every_seat_kind_and_area(n, favours):
    checked = 0
    for s in random_states(n, favours, range(2)):
        for p in range(n):
            kinds = [codec.D_UNIT, codec.D_HERO, codec.D_ETHER_DIE] + ([codec.D_MERCENARY] if s.hired[p] >= 0 else [])
            for moving in (False, True):
                for kind, mask in zip(kinds, fast.put_masks(s, p, kinds, moving)):
                    plain = sum(1 << a for a in range(C.NUM_AREAS) if s.can_put(p, a, kind, moving))
                    assert mask == plain, (p, kind, moving)
                    checked += 1
    assert checked > 1000


@pytest.mark.parametrize("n,favours", CONFIGS)
def test_placement_areas_and_movable_dice_match_the_plain_rules(n, favours):
    placements = moves = 0
    for s in random_states(n, favours, range(2)):
        for p in range(n):
            legal = fast.placement_legal(s.clone(), p)
            plain = [codec.AREA0 + s.rel_area(p, a) for a in s._place_areas(p)]
            assert legal == (sorted(plain) + [codec.PASS] if plain else None)
            placements += bool(plain)
            movable = fast.movable_dice(s, p)
            assert movable == s._movable(p)
            for kind, a in movable:  # the MOVE_TO decision of each die
                c = s.clone()
                pick = kind * C.NUM_AREAS + s.rel_area(p, a)
                c.decision, c.decider, c.move_pick = codec.K_MOVE_TO, p, pick
                assert fast.move_to_legal(c, p, pick) == c._legal_by_rule()
                moves += 1
    assert placements > 100 and moves > 20


@pytest.mark.parametrize("n,favours", CONFIGS)
def test_legal_actions_posed_with_a_decision_match_the_plain_rule(n, favours):
    """The legal-action cache: whatever list the engine posed with the decision (placement,
    adding dice one at a time, movement, resolve, favour windows, purchases ...) is the plain
    rule's list."""
    posed = {}
    for s in random_states(n, favours, range(3)):
        cache = s._legal_cache
        if cache is not None:
            assert cache == s._legal_by_rule(), codec.DECISION_NAMES[s.decision]
            name = codec.DECISION_NAMES[s.decision]
            posed[name] = posed.get(name, 0) + 1
    for name in ("place", "add_die", "move", "move_to", "resolve", "window", "ability", "market"):
        assert posed.get(name, 0) > 0, name


def test_area_action_table_matches_a_sorted_list():
    game = ether_envs.load_game("ether_wars", num_players=3)
    rng = np.random.default_rng(0)
    for _ in range(300):
        p, mask = int(rng.integers(3)), int(rng.integers(1 << C.NUM_AREAS))
        for base, tail in ((codec.AREA0, (codec.PASS,)), (codec.RESOLVE0, ())):
            plain = sorted(base + game.rel_areas[p][a] for a in range(C.NUM_AREAS) if mask >> a & 1) + list(tail)
            out = game.area_actions(p, mask, base, tail)
            assert out == plain
            out.append(-1)  # a fresh list each time: the table is not changed
            assert game.area_actions(p, mask, base, tail) == plain
