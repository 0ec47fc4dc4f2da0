"""`python -m training.<module>` answers bad input as argparse does: usage, one error line, exit code 2.

The modules' command lines used to print a traceback for a bad agent spec or config (only the
`ether-envs` subcommands caught it)."""
import runpy
import sys

import pytest

BAD_INPUT = [
    ("training.evaluate", ["ethnos", "az:simulations=x", "random", "--deals", "1"],
     "az: simulations must be an int >= 1, got 'x'"),
    ("training.evaluate", ["etherium", "random", "random", "--config", "num_players=9"], "num_players"),
    ("training.baselines", ["--games", "etherium", "--deals", "0"], "deals"),
    ("training.rate", ["ethnos", "bogus:x"], "unknown agent kind 'bogus'"),
    ("training.ladder", [], "give a game or --all"),
    ("training.ladder", ["ethnos", "--all"], "--all rates every configuration: give it without a game"),
    ("training.ladder", ["--all", "--config", "3p"], "got --config '3p'"),
    ("training.ladder", ["--all", "--config", ""], "got --config ''"),
    ("training.rate", ["ethnos", "random", "--frames", "-5"], "frames must be an int >= 1"),
    ("training.evaluate", ["etherium", "random", "random", "--deals", "1", "--out", "/dev/null/x"], "/dev/null/x"),
    ("training.recipes", ["ethnos", "--frames", "-5"], "frames must be >= 1, got -5"),
    # a negative seed used to start the games, then fail with numpy's "expected non-negative integer"
    ("training.evaluate", ["etherium", "random", "random", "--deals", "1", "--seed", "-1"], "seed must be a non-negative int, got -1"),
    ("training.baselines", ["--games", "etherium", "--deals", "1", "--seed", "-1"], "--seed must be >= 0, got -1"),
]


@pytest.mark.filterwarnings("ignore:.*found in sys.modules:RuntimeWarning")  # runpy re-running an imported module
@pytest.mark.parametrize("module,argv,message", BAD_INPUT, ids=[f"{m}:{' '.join(a)}" for m, a, _ in BAD_INPUT])
def test_bad_input_is_one_line_naming_the_value(module, argv, message, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [module, *argv])
    with pytest.raises(SystemExit) as exit_:
        runpy.run_module(module, run_name="__main__", alter_sys=False)
    err = capsys.readouterr().err + (exit_.value.code if isinstance(exit_.value.code, str) else "")
    assert exit_.value.code == 2
    assert message in err and f"python -m {module}: error:" in err
    assert "Traceback" not in err


def test_an_output_folder_that_cannot_be_made_fails_before_any_game(tmp_path, monkeypatch):
    """`--out` under a file used to fail in write_results, after every game had been played."""
    import training.evaluate as evaluate

    def no_games(*args, **kwargs):
        raise AssertionError("games were played before the output folder was made")

    monkeypatch.setattr(evaluate, "_played", no_games)
    (tmp_path / "a_file").write_text("")
    with pytest.raises(OSError):
        evaluate.run_tournament("etherium", ["random", "heuristic"], deals=1, out_dir=tmp_path / "a_file" / "out")


@pytest.mark.filterwarnings("ignore:.*found in sys.modules:RuntimeWarning")
@pytest.mark.parametrize("module,argv,message", [case for case in BAD_INPUT if case[0] == "training.evaluate"],
                         ids=["spec", "config", "out", "seed"])
def test_ether_envs_traceback_shows_where_the_error_came_from(module, argv, message, monkeypatch):
    """ETHER_ENVS_TRACEBACK=1: the error raises with its traceback instead of the one line."""
    monkeypatch.setenv("ETHER_ENVS_TRACEBACK", "1")
    monkeypatch.setattr(sys, "argv", [module, *argv])
    with pytest.raises((ValueError, OSError)) as error:
        runpy.run_module(module, run_name="__main__", alter_sys=False)
    assert message in str(error.value)


def test_ether_envs_traceback_in_the_console_script(monkeypatch, capsys):
    from training import cli

    argv = ["evaluate", "ethnos", "az:simulations=x", "random", "--deals", "1"]
    assert cli.main(argv) == 2 and "az: simulations must be an int >= 1" in capsys.readouterr().err
    for off in ("", "0"):
        monkeypatch.setenv("ETHER_ENVS_TRACEBACK", off)
        assert cli.main(argv) == 2
    monkeypatch.setenv("ETHER_ENVS_TRACEBACK", "1")
    with pytest.raises(ValueError, match="simulations must be an int >= 1"):
        cli.main(argv)


@pytest.mark.parametrize("value,on", [("", False), ("0", False), (" 0 ", False), ("false", False), ("No", False),
                                      ("OFF", False), ("1", True), ("yes", True), ("true", True)])
def test_which_values_turn_the_traceback_on(value, on, monkeypatch):
    from training import wants_traceback

    monkeypatch.setenv("ETHER_ENVS_TRACEBACK", value)
    assert wants_traceback() is on


@pytest.mark.filterwarnings("ignore:.*found in sys.modules:RuntimeWarning")
@pytest.mark.parametrize("module,argv,message", [
    ("training.exploit", ["etherium", "bogus:x", "--deals", "1"], "unknown agent kind 'bogus'"),
    ("training.agent_speed", ["--specs", "bogus:x", "--games", "etherium", "--deals", "1", "--positions", "2"],
     "unknown agent kind 'bogus'"),
    ("training.league", ["etherium", "--init", "/nonexistent.npz", "--export-players"], "--export-players"),
])
def test_every_command_line_honours_the_traceback_variable(module, argv, message, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [module, *argv])
    with pytest.raises(SystemExit) as exit_:
        runpy.run_module(module, run_name="__main__", alter_sys=False)
    assert exit_.value.code == 2 and message in capsys.readouterr().err
    monkeypatch.setenv("ETHER_ENVS_TRACEBACK", "1")
    with pytest.raises((ValueError, OSError), match=message):
        runpy.run_module(module, run_name="__main__", alter_sys=False)


@pytest.mark.parametrize("seed", [-1, 1.5, True, None])
def test_a_bad_seed_fails_before_the_output_folder_is_made(tmp_path, seed):
    import training.evaluate as evaluate

    with pytest.raises(ValueError, match=rf"seed must be a non-negative int, got {seed!r}"):
        evaluate.run_tournament("etherium", ["random", "heuristic"], deals=1, seed=seed, out_dir=tmp_path / "out")
    assert not (tmp_path / "out").exists()
