"""`ether-envs agent-speed` (training/agent_speed.py): what it measures, not how fast anything is."""

import pytest

from training import agent_speed


def test_positions_are_choices_of_the_default_game():
    states = agent_speed.positions("etherium", deals=1, stride=2, limit=5)
    assert 1 <= len(states) <= 5
    for s in states:
        assert not s.is_terminal() and len(s.legal_actions()) > 1


def test_measure_keeps_the_fastest_of_repeated_identical_decisions_and_leaves_positions_alone():
    states = agent_speed.positions("etherium", deals=1, stride=3, limit=4)
    before = [s.history[:] for s in states]
    row = agent_speed.measure("etherium", "heuristic", states, repeat=3)
    assert row["game"] == "etherium" and row["spec"] == "heuristic"
    assert row["positions"] == len(states) and row["repeat"] == 3
    assert 0.0 <= row["mean_ms"] <= row["max_ms"] and row["p90_ms"] <= row["max_ms"]
    assert [s.history for s in states] == before  # each decision was made on a clone


@pytest.mark.parametrize("repeat", [0, -1, 1.5, True])
def test_measure_refuses_a_bad_repeat(repeat):
    with pytest.raises(ValueError, match="repeat must be an int >= 1"):
        agent_speed.measure("etherium", "random", [], repeat=repeat)


def test_the_command_line_refuses_a_bad_repeat(capsys):
    with pytest.raises(SystemExit):
        agent_speed.main(["--games", "etherium", "--specs", "random", "--repeat", "0"])
    assert "--repeat must be >= 1, got 0" in capsys.readouterr().err


def test_the_command_line_prints_one_row_per_game_and_a_column_per_spec(capsys):
    rows = agent_speed.main(["--games", "etherium", "--specs", "random", "heuristic", "--deals", "1",
                             "--positions", "3", "--repeat", "2"])
    assert [(r["game"], r["spec"], r["repeat"]) for r in rows] == [("etherium", "random", 2),
                                                                  ("etherium", "heuristic", 2)]
    out = capsys.readouterr().out
    assert "the fastest of 2 at each" in out
    assert "| game | `random` ms: mean / p90 / max | `heuristic` ms: mean / p90 / max |" in out
    assert out.count("| etherium |") == 1


def test_a_configuration_is_played_and_named_in_the_table(capsys):
    rows = agent_speed.main(["--games", "ethnos", "--specs", "random", "--deals", "1", "--positions", "2",
                             "--config", "num_players=5"])
    assert rows[0]["config"] == {"num_players": 5}
    states = agent_speed.positions("ethnos", deals=1, limit=2, config={"num_players": 5})
    assert all(s.num_players == 5 for s in states)
    assert "| ethnos (num_players=5) |" in capsys.readouterr().out


@pytest.mark.parametrize("config, match", [(["num_players"], "key=value"), (["num_players=9"], "num_players")])
def test_the_command_line_refuses_a_bad_configuration(config, match, capsys):
    with pytest.raises(SystemExit):
        agent_speed.main(["--games", "ethnos", "--specs", "random", "--config", *config])
    assert match in capsys.readouterr().err
