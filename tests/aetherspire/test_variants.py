"""A rule variant is one change: the component constants are read from one place.

The number of supply dice (rulebook "Supply step" 3: "roll 5 dice") is
``components.DICE_ROLLED``; the supply step (``State._supply_rest``) rolls that many (+1 with
Turbulent completed), at most ``NUM_DICE`` unused at once (ASP-A17). Random games with another
count play to the end, the fast paths still agree with the plain rules, and the observation
stays within its bounds."""

import numpy as np
import pytest

import ether_envs
from ether_envs.aetherspire import components as C
from ether_envs.aetherspire.codec import BUILD, SUPPLY

CONFIGS = [{"num_players": 1, "difficulty": 1}, {"num_players": 3, "difficulty": 3}]


def supply_rolls(config, seeds=(0, 1)):
    """Play random games of ``config``; yield (state, dice rolled expected) at each build
    step's start, and the finished states."""
    game = ether_envs.load_game("aetherspire", **config)
    for seed in seeds:
        s = game.new_initial_state(seed)
        rng = np.random.default_rng(seed)
        previous = s.phase
        while not s.is_terminal():
            if s.phase == BUILD and previous == SUPPLY:
                yield s, min(C.DICE_ROLLED + (1 if s._adapted("turbulent") else 0), C.NUM_DICE)
            if not s.queue:  # the build step's main choice: the fast path and the plain rule agree
                assert s.legal_actions() == s._build_options()
            obs = s.observation_tensor(s.current_player())
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            previous = s.phase
            legal = s.legal_actions()
            s.apply_action(legal[rng.integers(len(legal))])
        assert s.outcome != 0


@pytest.mark.parametrize("config", CONFIGS)
def test_the_rulebook_rolls_five_supply_dice(config):
    assert C.DICE_ROLLED == 5
    rolls = [(sum(s.dice), expected) for s, expected in supply_rolls(config)]
    assert rolls and all(rolled == expected for rolled, expected in rolls)


@pytest.mark.parametrize("dice_rolled", [3, 7])
@pytest.mark.parametrize("config", CONFIGS)
def test_supply_dice_variant_is_the_one_constant(monkeypatch, config, dice_rolled):
    """One change of ``components.DICE_ROLLED`` changes how many dice each supply step rolls,
    and random games play on to their end."""
    monkeypatch.setattr(C, "DICE_ROLLED", dice_rolled)
    rolls = [(sum(s.dice), expected) for s, expected in supply_rolls(config)]
    assert rolls and all(rolled == expected for rolled, expected in rolls)
    assert any(rolled == dice_rolled for rolled, _ in rolls)
