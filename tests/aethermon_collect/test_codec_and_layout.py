"""The documented action ids and observation layout (``env.py`` module docstring) against the code."""

import re

import numpy as np

import ether_envs
from ether_envs.aethermon_collect import Game, env as env_module
from ether_envs.aethermon_collect import rules as R
from ether_envs.aethermon_collect.observation import F, LAYOUT, SQUARE_FEATURES
from ether_envs.docs import regenerate_hint

from .builders import card, play, position, sq, use

DOC = env_module.__doc__
CONFIGS = [{"num_players": n} for n in (2, 3, 4)] + [
    {"num_players": 2, "mode": "cooperative"}, {"num_players": 4, "teams": True, "artefacts": "triples"}]


def _doc_rows(header):
    """Rows of the markdown table that starts with ``header`` in the module docstring."""
    lines = DOC[DOC.index(header):].splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


def test_docstring_action_table_equals_codec_table():
    """The env docstring's action table is the one generated from the codec."""
    assert R.CODEC.table_markdown() in DOC, regenerate_hint("aethermon_collect")


def test_docstring_observation_table_equals_layout_table():
    """The env docstring's observation table is the one generated from the layout."""
    assert LAYOUT.table_markdown() in DOC, regenerate_hint("aethermon_collect")


def test_docstring_sizes_equal_spaces():
    """Docstring: ``Discrete(183)`` and observation ``(2197,)`` for every player count and mode."""
    n_actions = int(re.search(r"Discrete\((\d+)\)", DOC).group(1))
    n_obs = int(re.search(r'"observation": \((\d+),\)', DOC).group(1))
    for cfg in CONFIGS:
        g = Game(**cfg)
        assert g.num_distinct_actions() == n_actions == 183, regenerate_hint("aethermon_collect")
        assert g.observation_size() == n_obs == LAYOUT.size, regenerate_hint("aethermon_collect")


def test_action_ids_decode_as_docstring_table_says():
    """Every id range of the docstring's action table decodes to that block, index 0 at its start."""
    rows = _doc_rows("| Ids | Block |")
    covered = []
    for ids, block, _ in rows:
        lo, hi = (int(x) for x in (ids.split("-") if "-" in ids else (ids, ids)))
        for a in range(lo, hi + 1):
            assert R.CODEC.decode(a) == (block, a - lo)
        covered += list(range(lo, hi + 1))
    assert covered == list(range(183))


def test_action_move_id_is_row_times_seven_plus_col():
    """Docstring: "Squares are `row * 7 + col`, named `a1` (top-left) .. `g7`"."""
    assert R.CODEC.decode(sq("c3")) == ("MOVE", 16)
    assert [R.CODEC.name(a) for a in (0, 6, 7, 16, 48)] == [
        "MOVE(a1)", "MOVE(g1)", "MOVE(a2)", "MOVE(c3)", "MOVE(g7)"]
    assert R.CODEC.name(R.TARGET0 + 18) == "TARGET_SQUARE(e3)"
    assert R.CODEC.name(R.USE0 + 2) == "USE_ARTEFACT(Compass)"
    assert R.CODEC.name(R.SATCHEL0 + 3) == "SATCHEL_SET(Sunstruck duo)"
    assert R.CODEC.name(182) == "END_TURN"


def test_docstring_examples_hold_in_a_game():
    """Docstring examples: 5x5 grid, token on c3: c1 is action 2, e3 is action 18; Compass is action 59,
    then a diagonal MOVE."""
    s = position(board={"c1": card("Moonlit", "trio", 1), "e3": card("Moonlit", "trio", 2)}, token="c3",
                 held={0: ["compass"]})
    assert {2, 18, 59} <= set(s.legal_actions()) and use("compass") == 59
    play(s, 59)
    assert 24 in s.legal_actions() and 2 not in s.legal_actions()  # d4 diagonal, c1 not


def test_env_observation_layout_and_space_sizes():
    """The env exposes the layout (ordered name -> slice) and spaces whose size matches the docstring."""
    e = ether_envs.make("aethermon_collect", num_players=3)
    e.reset(seed=0)
    layout = e.unwrapped.observation_layout()
    assert list(layout) == [p.name for p in LAYOUT.pieces]
    assert [(s.start, s.stop) for s in layout.values()] == [(s.start, s.stop) for s in LAYOUT.slices.values()]
    names = [r[1] for r in _doc_rows("| Slice | Name |")]
    assert names == list(layout)
    a = e.agents[0]
    assert e.action_space(a).n == 183 and e.observation_space(a)["observation"].shape == (LAYOUT.size,)


def test_observation_small_position_hand_checked_seat_relative():
    """A hand-written observation of a small 3-player position seen by seat 1 (seat-relative: seat 1 -> 0,
    seat 2 -> 1, seat 0 -> 2; padded to 4 seats)."""
    m1, m2 = card("Moonlit", "trio", 1), card("Moonlit", "trio", 2)
    sun4, sun_duo1 = card("Sunstruck", "single"), card("Sunstruck", "duo", 1)
    elements = ("Moonlit", "Sunstruck", "Sky", "Earth", "Fire", "Water")
    s = position(num_players=3, artefacts="none", elements=elements, board={"a1": m1, "b2": sun4},
                 token="a2", first=2, turn=0, collections={0: [m2], 2: [sun_duo1]})
    assert SQUARE_FEATURES[:4] == ["in_grid", "token", "card_present", "card_value"]
    assert (F["element_Moonlit"], F["line_trio"], F["line_none"], F["card_stage"]) == (4, 12, 14, 15)
    assert (F["set_held_by_seat_0"], F["artefact_present"]) == (16, 20)
    buf, v = LAYOUT.new_buffer()
    squares = v["squares"]
    for r in range(6):
        squares[r * 7:r * 7 + 6, 0] = 1  # in_grid: the 6x6 corner of the 7x7 frame
    squares[7, 1] = 1  # token on a2
    squares[0, [2, 3, 4, 12, 15, 18]] = [1, 1 / 4, 1, 1, 1 / 3, 1]  # a1: Moonlit trio 1/3, value 1; set held by seat 0 = rel 2
    squares[8, [2, 3, 5, 14, 15]] = [1, 4 / 4, 1, 1, 1 / 3]  # b2: Sunstruck single, value 4
    v["collections"][2, m2] = 1  # seat 0 -> relative 2
    v["collections"][1, sun_duo1] = 1  # seat 2 -> relative 1
    v["scores"][:] = [0, 2 / 208, 2 / 208, 0]
    v["seat_present"][:] = [1, 1, 1, 0]
    v["first_player"][1] = 1  # seat 2
    v["current_player"][2] = 1  # seat 0
    v["turn_player"][2] = 1
    v["phase"][R.TURN] = 1
    v["num_players"][1] = 1
    v["elements_in_play"][:6] = 1
    obs = s.observation_tensor(1)
    for name, view in LAYOUT.views(obs).items():
        assert np.array_equal(view, v[name]), name
    assert np.array_equal(obs, buf)
    # the same position seen by seat 0: itself first
    v0 = LAYOUT.views(s.observation_tensor(0))
    assert v0["collections"][0, m2] == 1 and v0["collections"][2, sun_duo1] == 1
    assert v0["current_player"].tolist() == [1, 0, 0, 0] and v0["first_player"].tolist() == [0, 0, 1, 0]
    assert v0["squares"][0, 16] == 1  # set of a1 held by the observer itself


def test_observation_three_players_before_token_placement_no_token_square():
    """Placing the Group Token (3 players): until the LAST player chooses a corner, the token is on no
    square, so no square of the observation carries the token flag."""
    s = Game(num_players=3).new_initial_state(0)
    assert s.phase == R.PLACE_TOKEN
    for p in range(3):
        squares = LAYOUT.views(s.observation_tensor(p))["squares"]
        assert squares[:, F["token"]].sum() == 0
