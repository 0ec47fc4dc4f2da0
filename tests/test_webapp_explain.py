"""What the browser app says about things (``webapp/explain.py``): the new-game form's options
from each ``Config`` and its docstring, hands written as a person would, card effects, the
decision's name. That the person's view stays the same when the others' hidden cards are
resampled (with these fields in it) is tested in ``tests/test_serve.py``."""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

import ether_envs
from webapp import explain


@pytest.mark.parametrize("name", ether_envs.list_games())
def test_every_option_has_a_control_and_a_line_of_help(name):
    game = ether_envs.load_game(name)
    options = explain.config_options(game)
    fields = dataclasses.fields(game.config)
    assert [o["name"] for o in options] == [f.name for f in fields]
    docs = explain.docstring_entries(inspect.getdoc(type(game.config)))
    for o, f in zip(options, fields):
        assert o["help"] == docs[f.name] and o["help"], o
        assert o["kind"] in ("int", "bool", "choice", "list"), o  # no option left as raw text
        if o["kind"] == "choice":
            assert (o["default"] in o["choices"]) or (o["default"] is None and o["nullable"]), o
        if o["kind"] == "list":
            assert o["choices"] and set(o["default"] or []) <= set(o["choices"]), o
    players = options[0]
    assert (players["name"], players["min"], players["max"]) == ("num_players", game.spec.min_players,
                                                                   game.spec.max_players)


def test_enumerated_values_come_from_the_rules():
    ethnos = {o["name"]: o for o in explain.config_options(ether_envs.load_game("ethnos"))}
    assert ethnos["glory_tokens"]["choices"] == ["S4", "S1"]
    assert ethnos["first_player_tie"]["choices"] == ["revealer", "after_revealer"]
    spire = {o["name"]: o for o in explain.config_options(ether_envs.load_game("aetherspire"))}
    assert (spire["difficulty"]["min"], spire["difficulty"]["max"]) == (1, 4)
    assert spire["fiend_level"]["nullable"] and spire["fiend_level"]["default"] is None
    assert spire["start_tile"]["kind"] == "bool" and spire["start_tile"]["nullable"]


def test_hands_read_as_a_person_writes_them():
    assert explain.readable("ethnos", "your hand: Giants/Grayx1 Dwarves/Redx2 Skeletonx3") == \
        "your hand: 1 Gray Giant, 2 Red Dwarfs, 3 Skeletons"
    assert explain.readable("ethnos", "TAKE_FACE_UP(Merfolk/Blue)") == "TAKE_FACE_UP(Blue Merfolk)"
    assert explain.readable("ether_wars", "your Favours: Supplies x1, Field Medic x2") == \
        "your Favours: Supplies, 2 \u00d7 Field Medic"
    assert explain.readable("etherium", "your Flash cards: Re-roll x1, +2 x3") == "your Flash cards: Re-roll, 3 \u00d7 +2"
    assert explain.readable("aethermon_collect", "MOVE(a1)") == "MOVE(a1)"


def test_notes_name_each_card_once_with_its_effect():
    from ether_envs.ether_wars import components as C

    notes = explain.notes("ether_wars", "your Favours: Field Medic x1, Battle Cry x2; Field Medic again")
    assert notes == [["Field Medic", explain.terms("ether_wars")["Field Medic"]],
                     ["Battle Cry", explain.terms("ether_wars")["Battle Cry"]]]
    assert C.FAVOURS[3].text in notes[0][1]
    assert explain.notes("etherium", "your program: 1: Gather@Ether, 2: Transform Etherization") == []


@pytest.mark.parametrize("name", ether_envs.list_games())
def test_every_decision_of_a_random_game_is_named_and_every_move_explained(name):
    s = ether_envs.load_game(name, num_players=3).new_initial_state(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if s.is_terminal():
            break
        assert explain.decision(s), s.render_text()
        p = s.current_player()
        legal = s.legal_actions()
        for a in legal[:8]:
            text = s.public_action_string(a, p)
            assert explain.move_help(s, a, text) and explain.move_label(s, a, text)
        s.apply_action(legal[rng.integers(len(legal))])
    if s.is_terminal():
        assert explain.decision(s) == ""


def test_aetherspire_space_and_room_labels_name_the_tile_and_what_the_picture_shows():
    """Item 12: a space by its number in the tile (written under its square in the picture,
    tests/rendering/test_space_numbers.py), a room counted from the left; then where the tile is."""
    from ether_envs.aetherspire import components as C

    s = ether_envs.load_game("aetherspire", num_players=2).new_initial_state(seed=1)
    f = next(f for f in range(C.NUM_FOUNDATIONS) if s.found_tile[f] >= 0)  # the start tile's
    t = s.found_tile[f]
    name = C.TILES[t].name
    k = C.TILE_SPACES[s.side[t]][t][-1] % C.MAX_SPACES
    space = s.game.codec.encode("SPACE", t * C.MAX_SPACES + k)
    assert explain.move_label(s, space, "") == f"SPACE(tile #{t}, space {k}: {name}, L1 on foundation {f})"
    assert explain.move_help(s, space, "").startswith(
        f"tile #{t} ({name}) at level L1 on foundation {f}; space {k}: the square numbered {k}")
    room = s.game.codec.encode("ROOM", t * C.MAX_ROOMS + 1)
    assert explain.move_label(s, room, "") == f"ROOM(tile #{t}, 2nd room from the left: {name}, L1 on foundation {f})"
