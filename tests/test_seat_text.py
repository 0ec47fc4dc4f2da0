"""The per-seat text views: ``State.observation_string``, ``public_action_string`` and
``end_reason`` (the secrecy of every game and player count is checked by the
conformance suite's ``check_seat_views``)."""

import re

import numpy as np
import pytest

import ether_envs
from ether_envs.aethermon_collect import components as AC
from ether_envs.aethermon_collect import rules as AR
from ether_envs.etherium import rules as ER
from ether_envs.ether_wars import components as WC
from ether_envs.ethnos import components as NC
from ether_envs.ethnos import rules as NR
from game_configs import GAME_CONFIGS, game_config_id

FIRST_CONFIGS = [(name, cfg) for name, cfg in GAME_CONFIGS if cfg == ether_envs.load_game(name).conformance_configs[0]]


def _play_until(state, done, seed=0):
    """Random moves from ``state`` until ``done(state)``; other deals of the same game
    (seeds 1, 2, ...) when a game ends first."""
    for k in range(50):
        rng = np.random.default_rng(seed)
        while not done(state):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        else:
            return state
        state = state.game.new_initial_state(seed=k + 1)
    raise AssertionError("condition never reached")


@pytest.mark.parametrize("name,config", FIRST_CONFIGS, ids=[n for n, _ in FIRST_CONFIGS])
def test_bad_seat_and_illegal_move_are_clear_errors(name, config):
    state = ether_envs.load_game(name, **config).new_initial_state(seed=0)
    n = state.num_players
    for bad in (-1, n, 1.0, True, "0"):
        with pytest.raises(ValueError, match=rf"player must be a seat 0..{n - 1}, got {re.escape(repr(bad))}"):
            state.observation_string(bad)
        with pytest.raises(ValueError, match="player must be a seat"):
            state.public_action_string(state.legal_actions()[0], bad)
    illegal = next(a for a in range(state.game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ValueError, match=rf"illegal action {illegal} .* for player_{state.current_player()}; legal actions: \["):
        state.public_action_string(illegal, 0)
    with pytest.raises(ValueError, match="illegal action -1"):
        state.public_action_string(-1, 0)


@pytest.mark.parametrize("name,config", FIRST_CONFIGS, ids=[n for n, _ in FIRST_CONFIGS])
def test_end_reason_only_at_the_end(name, config):
    state = ether_envs.load_game(name, **config).new_initial_state(seed=0)
    assert state.end_reason() == ""
    state = _play_until(state, lambda s: s.is_terminal())
    assert state.end_reason() and state.end_reason() != "game over"
    with pytest.raises(ValueError, match="the game is over"):
        state.public_action_string(0, 0)


def test_ethnos_seat_sees_its_hand_by_card_name():
    state = ether_envs.load_game("ethnos", num_players=3).new_initial_state(seed=0)
    for p in range(3):
        hand = [NC.KIND_NAMES[k] for k in np.flatnonzero(state.hands[p])]
        text = state.observation_string(p)
        assert hand and all(f"{k}x" in text.split("your hand:")[1] for k in hand)


def test_ethnos_elves_kept_card_is_hidden_from_the_others():
    state = _play_until(ether_envs.load_game("ethnos", num_players=2).new_initial_state(seed=0),
                        lambda s: any(NR.KEEP0 <= a < NR.END_KEEP for a in s.legal_actions()))
    p = state.current_player()
    keep = [a for a in state.legal_actions() if NR.KEEP0 <= a < NR.END_KEEP]
    assert {state.public_action_string(a, 1 - p) for a in keep} == {"KEEP_CARD(hidden card)"}
    assert [state.public_action_string(a, p) for a in keep] == [state.action_to_string(a) for a in keep]


def test_etherium_program_shown_to_its_seat_only():
    state = _play_until(ether_envs.load_game("etherium", num_players=2).new_initial_state(seed=0),
                        lambda s: s.decision() == ER.D_PROGRAM)
    p = state.current_player()
    a = next(a for a in state.legal_actions() if ER.PROGRAM0 <= a < ER.MOVE0)
    assert state.public_action_string(a, 1 - p) == "PROGRAM(hidden Action token)"
    assert state.public_action_string(a, p) == state.action_to_string(a)
    state.apply_action(a)
    space = state.action_to_string(a)[len("PROGRAM("):-1]
    assert f"your program: 1: {space}" in state.observation_string(p)
    assert "your program: -" in state.observation_string(1 - p)
    assert space not in state.observation_string(1 - p).split("\n", 1)[1].replace("your program: -", "")


def test_ether_wars_ability_card_named_and_hidden_until_revealed():
    state = _play_until(ether_envs.load_game("ether_wars", num_players=2).new_initial_state(seed=0),
                        lambda s: s.action_to_string(s.legal_actions()[0]).startswith("ABILITY("))
    p = state.current_player()
    names = [state.public_action_string(a, p) for a in state.legal_actions()]
    cards = WC.ABILITIES[state.faction[p] * 4: state.faction[p] * 4 + 4]
    assert names == [f"ABILITY({c.name}: {c.text})" for c in cards]
    assert {state.public_action_string(a, 1 - p) for a in state.legal_actions()} == {"ABILITY(hidden ability card)"}
    state.apply_action(state.legal_actions()[1])
    assert f"your ability card (hidden until all have chosen): {cards[1].name}" in state.observation_string(p)
    assert cards[1].name not in state.observation_string(1 - p)


def test_ether_wars_seat_sees_its_favours():
    state = _play_until(ether_envs.load_game("ether_wars", num_players=3).new_initial_state(seed=0),
                        lambda s: sum(s.hand[0]) > 0)
    mine = [WC.FAVOURS[f].name for f in range(WC.NUM_FAVOURS) if state.hand[0][f]]
    assert all(f"{name} x" in state.observation_string(0) for name in mine)


def test_aethermon_hidden_artefacts_shown_to_who_knows_them():
    state = _play_until(ether_envs.load_game("aethermon_collect", num_players=3, hidden_artefacts=True)
                        .new_initial_state(seed=1), lambda s: s.phase == AR.TURN)
    for p in range(3):
        mine = [AC.ARTEFACTS[a].name for a in range(AC.NUM_ARTEFACTS) if state.art_owner[a] == p]
        assert f"your hidden Artefacts: {', '.join(mine)}" in state.observation_string(p)
        assert "your hidden Artefacts" not in state.render_text()


@pytest.mark.parametrize("name,config", [(n, c) for n, c in GAME_CONFIGS if n in ("ether_wars", "aetherspire")],
                         ids=[game_config_id(n, c) for n, c in GAME_CONFIGS if n in ("ether_wars", "aetherspire")])
def test_text_pictures_have_a_legend(name, config):
    text = ether_envs.load_game(name, **config).new_initial_state(seed=0).render_text()
    legend = {"ether_wars": "P Co Pl Cr = Protein, Coltan, Plasma, Crystal",
              "aetherspire": "P = pillar, _ = open, then an invader's element (e earth, a air, f fire, w water)"}
    assert "legend: " in text and legend[name] in text
