"""The env docstring's action and observation tables against the code; codec and layout sizes."""

import numpy as np

import ether_envs
from ether_envs.docs import regenerate_hint
from ether_envs.etherium import components as C
from ether_envs.etherium import env as E
from ether_envs.etherium import rules as R
from ether_envs.etherium.observation import LAYOUT


def test_docstring_action_table_equals_codec_table():
    assert R.CODEC.table_markdown() in E.__doc__, regenerate_hint("etherium")


def test_docstring_observation_table_equals_layout_table():
    assert LAYOUT.table_markdown() in E.__doc__, regenerate_hint("etherium")


def test_action_space_same_for_every_player_count():
    sizes = {ether_envs.load_game("etherium", num_players=n).num_distinct_actions() for n in (2, 3, 4)}
    assert sizes == {R.CODEC.size}
    assert f"Discrete({R.CODEC.size})" in E.__doc__ and f"({LAYOUT.size},) float32" in E.__doc__, regenerate_hint("etherium")


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


def test_observation_small_position_hand_checked_seat_relative():
    """Seat-relative pieces: the observer first; hidden parts absent; values scaled as documented."""
    from .builders import make, place, set_hand, set_resources

    s = make(("Reces", "Psolos"))
    place(s, 0, gatherer=C.ETHER_BOX, soldier=C.mine_box(1))
    place(s, 1, gatherer=C.forest_box(2), soldier=C.forest_box(2))
    set_resources(s, 0, wood=4, ether=8)
    set_hand(s, 0, plus1=3)
    set_hand(s, 1, shield=1)
    v = LAYOUT.views(s.observation_tensor(1))
    assert v["units"][C.forest_box(2), 0].tolist() == [1, 1]  # the observer (seat 1) first
    assert v["units"][C.ETHER_BOX, 1, 0] == 1 and v["units"][C.mine_box(1), 1, 1] == 1
    assert v["resources"][1].tolist() == [0.25, 0.0, 0.0, 0.5, 0.0]
    assert v["tribes"][0, C.PSOLOS] == 1 and v["tribes"][1, C.RECES] == 1
    assert np.isclose(v["hand"][C.F_SHIELD], 1 / 3) and np.isclose(v["hand"].sum(), 1 / 3)  # own hand only
    assert np.allclose(v["hand_sizes"][:2], [1 / 44, 3 / 44])
    assert v["boxes"][C.city_box(2), 6] == 1 and v["boxes"][C.city_box(0), 7] == 1  # own City, then seat 0's
    assert v["season"][0] == 1 and v["season_card"][C.NIGHT] == 1
    assert v["num_players"].tolist() == [1, 0, 0]


def test_render_text_shows_public_view_only():
    """``render_text`` (env ``render_mode="ansi"``): season, initiative, units, hidden programs counted."""
    from .builders import make

    s = make(("Reces", "Psolos"))
    while s.decision() != R.D_PROGRAM:
        s.apply_action(s.legal_actions()[0])
    p = s.current_player()
    s.apply_action(R.PROGRAM0 + 17)
    text = s.render_text()
    assert "season 1/7: Night" in text and "initiative:" in text
    assert "1 hidden" in text and "Connect 1" not in text
    env = ether_envs.make("etherium", render_mode="ansi")
    env.reset(seed=0)
    assert env.render().startswith("Etherium  2 players")
    assert p in (0, 1)
