"""The env docstring's action and observation tables against the code; codec and layout sizes."""

import ether_envs
from ether_envs.etherium import components as C
from ether_envs.etherium import env as E
from ether_envs.etherium import rules as R
from ether_envs.etherium.observation import LAYOUT


def test_docstring_action_table_equals_codec_table():
    assert R.CODEC.table_markdown() in E.__doc__


def test_docstring_observation_table_equals_layout_table():
    assert LAYOUT.table_markdown() in E.__doc__


def test_action_space_same_for_every_player_count():
    sizes = {ether_envs.load_game("etherium", num_players=n).num_distinct_actions() for n in (2, 3, 4)}
    assert sizes == {R.CODEC.size}
    assert f"Discrete({R.CODEC.size})" in E.__doc__ and f"({LAYOUT.size},) float32" in E.__doc__


def test_action_ids_decode_as_documented():
    assert R.CODEC.decode(R.CODEC.encode("MOVE_UNIT", 16)) == ("MOVE_UNIT", 16)
    assert R.CODEC.name(R.MOVE0 + C.ETHER_BOX) == "MOVE_UNIT(Gatherer->Ether)"
    assert R.CODEC.name(R.PROGRAM0 + 3) == "PROGRAM(Move->blue)"
    assert R.CODEC.name(R.PASS) == "PASS"


def test_env_plays_a_game_with_masks():
    env = ether_envs.make("etherium", num_players=3)
    env.reset(seed=1)
    for agent in env.agent_iter(5000):
        obs, rew, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        env.step(legal[0])
    assert set(env.unwrapped.game_state.final_info()) == {"winners", "tribes"}
