"""``ether-envs play``: a person is shown what their seat may see, and nothing more.

Whole scripted games of every game go through ``cmd_play``; at each of the
person's decisions the printed view is compared with the view of determinizations
for the person's seat (``resample_hidden``: the other seats' secrets redrawn),
which must print the same text, and every move of an agent is printed as the
person's seat sees it (``ether_envs.testing.check_public_action_strings``).
"""

import re

import numpy as np
import pytest

from ether_envs import testing
from training import cli

SCRIPTED = [  # one configuration per game, with the most secrets of its conformance configs
    ("aethermon_collect", ["num_players=4", "artefacts=triples", "hidden_artefacts=true",
                           "redistribute_artefacts=true"]),
    ("ethnos", ["num_players=3"]),
    ("etherium", ["num_players=3"]),
    ("ether_wars", ["num_players=3", "favours=advanced", "max_rounds=1"]),
    ("aetherspire", ["num_players=2", "difficulty=4"]),
]


def _play(game, config, seat, answers, opponents="random", seed=0):
    args = cli.build_parser().parse_args(["play", game, "--opponents", opponents, "--seat", str(seat),
                                          "--seed", str(seed), "--config", *config])
    cli.cmd_play(args, input_fn=answers)


def _random_answers(seed):
    """Answers a prompt ``your move [1-k]: `` (``[1, the only one]`` when k = 1) with a random
    number from 1 to k."""
    rng = np.random.default_rng(seed)

    def answer(prompt):
        found = re.search(r"\[1-(\d+)\]", prompt)
        assert found or "[1, the only one]" in prompt, prompt
        k = int(found.group(1)) if found else 1
        return str(rng.integers(1, k + 1))
    return answer


@pytest.mark.parametrize("game,config", SCRIPTED, ids=[g for g, _ in SCRIPTED])
def test_whole_game_shows_the_person_no_secret_of_another_seat(game, config, monkeypatch, capsys):
    seat = 1
    rng = np.random.default_rng(7)
    views, moves = [], []
    play_view, seen_move = cli.play_view, cli.seen_move

    def checked_view(state, p):
        text = play_view(state, p)
        for _ in range(2):  # the other seats' secrets redrawn: the person is shown the same
            assert play_view(state.resample_hidden(p, rng), p) == text
        views.append(text)
        return text

    def checked_move(state, action, p):
        if state.current_player() != p:
            testing.check_public_action_strings(state, p)
            moves.append(action)
        return seen_move(state, action, p)

    monkeypatch.setattr(cli, "play_view", checked_view)
    monkeypatch.setattr(cli, "seen_move", checked_move)
    _play(game, config, seat, _random_answers(1))
    out = capsys.readouterr().out
    assert views and moves
    for view in views:
        assert view in out
    assert "you (player_1) play " in out
    game_over = out[out.rindex("\n\n") + 2:]  # the final view, the end's reason and the returns
    assert "\nthe game ended: " in game_over and "\nreturns: player_0 " in game_over


def test_an_opponents_program_is_not_printed(capsys):
    """Issue 16: ``printf '1\\n1\\n1\\n1\\n1\\nq\\n' | ether-envs play etherium --seat 1
    --opponents random`` printed player_0's secret programming."""
    answers = iter(["1"] * 5 + ["q"])
    _play("etherium", [], 1, lambda prompt: next(answers))
    out = capsys.readouterr().out
    programs = re.findall(r"player_0 \(random\) plays (PROGRAM\(.*\))", out)
    assert programs and set(programs) == {"PROGRAM(hidden Action token)"}
    assert "your program: 1: " in out  # the person's own program is shown


@pytest.mark.parametrize("game,config,private", [
    ("ethnos", [], r"your hand: \w+/\w+x\d"),
    ("etherium", [], r"your Flash cards: [\w+-]"),
    ("ether_wars", ["num_players=3"], r"your Favours: [A-Z][a-z]+"),
    ("aethermon_collect", ["num_players=3", "hidden_artefacts=true"], r"your hidden Artefacts: [A-Z]"),
])
def test_the_person_sees_their_own_private_information(game, config, private, capsys):
    answers = iter(["1"] * 3 + ["q"])
    _play(game, config, 0, lambda prompt: next(answers))
    assert re.search(private, capsys.readouterr().out)


def test_own_move_echoed_and_abilities_named(capsys):
    answers = iter(["1"] * 4 + ["q"])
    _play("ether_wars", ["num_players=2"], 0, lambda prompt: next(answers))
    out = capsys.readouterr().out
    assert "you (player_0) play FACTION(Human)" in out
    assert "1) ABILITY(Fortified: Your Units in your own Silo are powered up.)" in out
    assert "ABILITY(0)" not in out
    assert "player_1 (random) plays ABILITY(hidden ability card)" in out


def test_the_end_of_the_game_and_its_reason_are_shown(capsys):
    """An Aethermon game ends when every player has taken a turn without collecting."""
    _play("aethermon_collect", [], 1, lambda prompt: "1", opponents="heuristic")
    out = capsys.readouterr().out
    assert re.search(r"\nthe game ended: every player took a turn in a row without collecting an Aethermon; "
                     r"player_\d wins with \d+ points\nreturns: player_0 ", out)


def test_without_a_seed_the_deal_is_secret_until_the_person_quits(capsys, tmp_path):
    """No --seed: the deal's seed is drawn in secret (a known seed would let the person
    rebuild the others' cards) and printed only when they quit or the game ends; replaying
    with that seed shows the same first view."""
    args = cli.build_parser().parse_args(["play", "ethnos", "--opponents", "random", "--config", "num_players=3",
                                          "--save-records", str(tmp_path)])
    cli.cmd_play(args, input_fn=lambda prompt: "q")
    out = capsys.readouterr().out
    seed = int(re.search(r"the deal was seed (\d+)", out).group(1))
    assert out.index("quit") < out.index("the deal was seed") and f"seed {seed}" not in out.split("quit")[0]
    assert len(list(tmp_path.glob(f"play_ethnos_seed{seed}_*.json"))) == 1
    _play("ethnos", ["num_players=3"], 0, lambda prompt: "q", seed=seed)
    again = capsys.readouterr().out
    assert again.split("quit")[0] == out.split("quit")[0] and "the deal was seed" not in again
