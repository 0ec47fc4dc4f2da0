"""The env docstring's tables and worked examples match the codec and the layout."""

import ether_envs
from ether_envs.ethnos import env as ethnos_env
from ether_envs.docs import regenerate_hint
from ether_envs.ethnos import rules as R
from .builders import band_actions, kind, new_state, play, rig


def test_env_docstring_tables_match_codec_and_layout():
    game = ether_envs.load_game("ethnos")
    doc = ethnos_env.__doc__
    assert game.layout.table_markdown() in doc, regenerate_hint("ethnos")
    assert game.codec.table_markdown().split("\n", 2)[2] in doc, regenerate_hint("ethnos")
    assert f"Discrete({game.num_distinct_actions()})" in doc, regenerate_hint("ethnos")
    assert f"({game.observation_size()},) float32" in doc, regenerate_hint("ethnos")


def test_env_docstring_worked_examples_decode_as_documented():
    assert kind("Elves", "Red") == 17 and kind("Elves", "Blue") == 12
    assert kind("Dwarves", "Red") == 11 and kind("Giants", "Red") == 23
    assert band_actions(17, [12]) == [2, 87, 214, 269]
    assert band_actions(11, [23, 66], colour=True) == [2, 147, 225, 268, 269]
    assert R.CODEC.name(87) == "START_TRIBE_BAND(Elves/Red)"
    assert R.CODEC.name(20) == "TAKE_FACE_UP(Elves/Red)"
    assert R.CODEC.name(275) == "PLACE_MARKER(Red)" and R.CODEC.name(345) == "DECLINE"
    s = rig(new_state(), hands={0: [17, 12]}, face_up=[17], turn=0)
    play(s, 2, 87, 214, 269, 275)
    assert s.markers[0, 5] == 1 and s.turn_player == 1  # empty hand: nothing to keep


def test_env_make_registry_and_render():
    env = ether_envs.make("ethnos", num_players=3, render_mode="ansi")
    env.reset(seed=1)
    assert env.unwrapped.metadata["name"] == "ethnos_v0"
    assert "Ethnos  3 players" in env.render()
    assert "ethnos" in ether_envs.list_games()
