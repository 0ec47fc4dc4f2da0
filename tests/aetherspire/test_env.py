"""The env's documentation tables and observation, and the one-agent solo env."""

import numpy as np

import ether_envs
import ether_envs.docs
from ether_envs.aetherspire import env as env_module
from ether_envs.aetherspire import observation as O
from ether_envs.aetherspire.codec import CODEC

from .builders import EARTH, FIRE, floor, found, invaders, pillars, scenario, set_dice, sp


def test_env_docstring_tables_match_codec_and_layout():
    doc, hint = env_module.__doc__, ether_envs.docs.regenerate_hint("aetherspire")
    assert CODEC.table_markdown() in doc and O.LAYOUT.table_markdown() in doc, hint
    assert f"Discrete({CODEC.size})" in doc and f"({O.LAYOUT.size},) float32" in doc, hint


def test_env_solo_is_one_agent_and_plays_to_the_end():
    env = ether_envs.make("aetherspire", num_players=1, difficulty=1)
    env.reset(seed=3)
    assert env.agents == ["player_0"]
    rng = np.random.default_rng(0)
    for agent in env.agent_iter(20000):
        obs, rew, term, trunc, info = env.last()
        if term or trunc:
            assert rew in (-1.0, 1.0) and "loss_reason" in info
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == []


def test_observation_hand_checked_position():
    s = scenario(num_players=2, characters=("Geomancer", "Pyromancer"))
    floor(s, 28, found(1))
    pillars(s, sp(28, 0))
    invaders(s, {sp(28, 1): FIRE})
    set_dice(s, earth=2, star=1)
    v = O.LAYOUT.views(s.observation_tensor(1))
    tf = O.TF
    assert v["tiles"][28, tf["in_fortress"]] == 1 and v["tiles"][28, tf["on_foundation_1"]] == 1
    assert v["tiles"][28, tf["level"]] == 0.1 and v["tiles"][29, tf["in_stack"]] == 1
    assert v["spaces"][sp(28, 0)].tolist()[:7] == [1, 1, 1, 0, 0, 0, 0]
    assert v["spaces"][sp(28, 1), 3 + FIRE] == 1
    assert v["spaces"][sp(28, 0), 7 + EARTH] == 1 and v["spaces"][sp(28, 0), 7 + 4] == 1  # earth or star
    assert v["spaces"][sp(29, 0)].sum() == 0  # not in the fortress
    assert v["dice"].tolist() == [0.25, 0, 0, 0, 0.125]
    # seat-relative: observer 1 sees itself (Pyromancer, id 2) first, the active player 0 second
    assert v["characters"][0, 2] == 1 and v["characters"][1, 0] == 1 and v["turn_player"].tolist() == [0, 1, 0, 0]
    assert v["step"][0] == 1 and v["phase"][2] == 1
