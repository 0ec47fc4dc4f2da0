"""The ``ether-envs`` command line as a user runs it (tiny budgets)."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

from training import cli

ROOT = Path(__file__).resolve().parents[2]
TINY_TRAIN = ["--total-timesteps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
              "--n-epochs", "1", "--net-arch", "32", "--snapshot-every", "128", "--eval-every", "256",
              "--eval-deals", "1", "--checkpoint-every", "256", "--no-progress"]


@pytest.fixture(scope="session")
def trained_run(shared_tmp):
    """``python -m training.cli train`` in a subprocess, as a user would (once per test session,
    shared by the xdist workers through a file lock)."""
    out = shared_tmp / "cli_smoke_runs"
    with FileLock(str(out) + ".lock"):
        if not (out / "smoke" / "model.zip").exists():
            _train(out)
    return out / "smoke"


def _train(out):
    train = [sys.executable, "-m", "training.cli", "train", "aethermon_collect", *TINY_TRAIN,
             "--out-dir", str(out), "--run-name", "smoke", "--opponents", "random=1,heuristic=1,self=1"]
    p = subprocess.run(train, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "model saved to" in p.stdout


def test_train_writes_model_checkpoints_snapshots_and_logs(trained_run):
    run = trained_run
    assert (run / "model.zip").exists()
    assert sorted(p.name for p in (run / "snapshots").glob("*.zip"))  # self-play pool grew
    assert list((run / "checkpoints").glob("step_*.zip"))
    assert list(run.glob("events.out.tfevents.*"))  # TensorBoard
    rows = list(csv.DictReader(open(run / "progress.csv")))
    assert rows and "rollout/ep_rew_mean" in rows[0]
    evals = list(csv.DictReader(open(run / "eval.csv")))
    assert evals and {"win_rate_vs_random", "win_rate_vs_heuristic"} <= set(evals[-1])
    args = json.loads((run / "args.json").read_text())
    assert args["total_timesteps"] == 256 and args["game"] == "aethermon_collect"


def test_evaluate_cli_writes_json_csv_png(trained_run, tmp_path, capsys):
    out = tmp_path / "t"
    rc = cli.main(["evaluate", "aethermon_collect", f"ppo:{trained_run / 'model.zip'}", "random", "heuristic",
                   "--focal", "--deals", "2", "--out", str(out), "--no-progress"])
    assert rc == 0
    text = capsys.readouterr().out
    assert "| agent | opponent | games | win rate | 95% CI (Wilson)" in text
    res = json.loads((out / "results.json").read_text())
    assert [(p["opponent"], p["games"]) for p in res["pairings"]] == [("random", 4), ("heuristic", 4)]
    assert (out / "summary.csv").exists() and (out / "games.csv").exists()
    assert (out / "results.png").read_bytes()[:4] == b"\x89PNG"


def test_evaluate_refuses_model_on_mismatched_config(trained_run, tmp_path, capsys):
    rc = cli.main(["evaluate", "aethermon_collect", f"ppo:{trained_run / 'model.zip'}", "random",
                   "--config", "num_players=3", "--deals", "1", "--out", str(tmp_path), "--no-progress"])
    assert rc == 2
    assert "config.num_players: model 2, env 3" in capsys.readouterr().err


def test_resume_continues_from_checkpoint(trained_run, tmp_path):
    import shutil

    from agents.ppo import read_metadata

    src = sorted((trained_run / "checkpoints").glob("step_*.zip"))[-1]
    (tmp_path / "run" / "checkpoints").mkdir(parents=True)
    ckpt = shutil.copy(src, tmp_path / "run" / "checkpoints" / src.name)
    rc = cli.main(["train", "aethermon_collect", *TINY_TRAIN, "--total-timesteps", "384", "--resume", str(ckpt),
                   "--eval-every", "0"])
    assert rc == 0
    assert read_metadata(tmp_path / "run" / "model.zip")["timesteps"] >= 384


def test_resume_refuses_other_config(trained_run, capsys):
    ckpt = sorted((trained_run / "checkpoints").glob("step_*.zip"))[-1]
    rc = cli.main(["train", "aethermon_collect", *TINY_TRAIN, "--config", "num_players=4", "--resume", str(ckpt)])
    assert rc == 2 and "num_players" in capsys.readouterr().err


def test_main_job_runs_with_tiny_budget(tmp_path, capsys):
    rc = cli.main(["main", "--minutes", "0.05", "--frames", "64", "--bc-games", "2", "--eval-deals", "1",
                   "--simulations", "2", "--deals", "1", "--workers", "1", "--out", str(tmp_path / "main"),
                   "--no-progress"])
    assert rc == 0
    text = capsys.readouterr().out
    assert "| agent | opponent |" in text and "vs random:" in text and "vs heuristic:" in text
    assert "vs mcts:simulations=2:" in text
    assert (tmp_path / "main" / "policy.npz").exists()
    assert (tmp_path / "main" / "tournament" / "results.json").exists()


def test_list_shows_every_game(capsys):
    import ether_envs

    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for name in ether_envs.list_games():
        assert f"| {name} |" in out


def test_list_states_the_information_of_each_default_configuration(capsys):
    """The information column is true of the default configuration (``has_hidden_information``),
    and names the variant that hides something where the default hides nothing."""
    import ast

    import ether_envs

    assert cli.main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {cells[0]: cells for cells in (line.strip("| ").split(" | ") for line in lines)}
    assert rows["game"][3] == "information (default configuration)"
    for name in ether_envs.list_games():
        cell = rows[name][3].strip()
        hidden = ether_envs.load_game(name).has_hidden_information()
        assert cell == "imperfect" if hidden else cell.startswith("perfect"), (name, cell)
        if cell.startswith("perfect (imperfect with "):
            key, _, value = cell[len("perfect (imperfect with "):-1].partition("=")
            assert ether_envs.load_game(name, **{key: ast.literal_eval(value)}).has_hidden_information()
    assert rows["aethermon_collect"][3] == "perfect (imperfect with hidden_artefacts=True)"
    assert rows["ethnos"][3] == "imperfect"


def test_play_numbered_moves_bad_input_and_quit(capsys):
    answers = iter(["abc", "0", "999", "1", "q"])
    args = cli.build_parser().parse_args(["play", "aethermon_collect", "--opponents", "random", "--seed", "1"])
    cli.cmd_play(args, input_fn=lambda prompt: next(answers))
    out = capsys.readouterr().out
    assert "You are player_0" in out and "1) MOVE(" in out
    assert out.count("invalid choice") == 3 and "enter a number from 1 to" in out
    assert "Aethermon: Collect" in out and out.rstrip().endswith("quit")


def test_play_to_the_end_prints_returns(capsys):
    args = cli.build_parser().parse_args(["play", "aethermon_collect", "--opponents", "heuristic", "--seat", "1"])
    cli.cmd_play(args, input_fn=lambda prompt: "1")
    assert "returns: player_0" in capsys.readouterr().out


def test_play_bad_seat_is_a_clear_error(capsys):
    assert cli.main(["play", "aethermon_collect", "--seat", "5"]) == 2
    assert "--seat must be 0..1" in capsys.readouterr().err


def test_speed_runs_and_bench_is_its_deprecated_alias(capsys):
    assert cli.main(["speed", "--games", "aethermon_collect", "--seconds", "0.1"]) == 0
    out, err = capsys.readouterr()
    assert "| aethermon_collect |" in out and "deprecated" not in err
    assert cli.main(["bench", "--games", "aethermon_collect", "--seconds", "0.02", "--no-subprocess"]) == 0
    out, err = capsys.readouterr()
    assert "| aethermon_collect |" in out
    assert err.splitlines() == ["note: 'ether-envs bench' is deprecated; use 'ether-envs speed'"]


def test_speed_train_prints_the_table_and_bench_train_is_its_deprecated_alias(capsys):
    rc = cli.main(["speed-train", "--configs", "inprocess:2", "--timesteps", "64",
                   "--env-seconds", "0.2"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "| vec env | n_envs | worker processes | env steps/s (no learning) | MaskablePPO train frames/s" in out
    assert "| inprocess | 2 | - |" in out
    assert cli.main(["speed-train", "--configs", "threads:2"]) == 2
    assert "VEC:N_ENVS" in capsys.readouterr().err
    assert cli.main(["bench-train", "--configs", "threads:2"]) == 2  # the same command, with a note
    err = capsys.readouterr().err
    assert err.startswith("note: 'ether-envs bench-train' is deprecated; use 'ether-envs speed-train'\n")
    assert "VEC:N_ENVS" in err


@pytest.mark.parametrize("option", ["--deals", "--workers", "--simulations"])
def test_main_job_checks_its_tournament_options_before_training(tmp_path, capsys, option):
    rc = cli.main(["main", option, "0", "--out", str(tmp_path / "main"), "--no-progress"])
    assert rc == 2 and f"{option} must be >= 1, got 0" in capsys.readouterr().err
    assert not (tmp_path / "main").exists()


@pytest.mark.parametrize("minutes", ["nan", "inf", "-1"])
def test_recipe_refuses_a_budget_that_is_not_a_positive_number(tmp_path, capsys, minutes):
    rc = cli.main(["recipe", "ether_wars", "--minutes", minutes, "--out-dir", str(tmp_path)])
    assert rc == 2 and "minutes must be a finite number > 0" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("option,value,message", [
    ("--opponents", "bogus=1", "--opponents: unknown agent kind 'bogus'"),
    ("--opponents", "random=x", "--opponents: opponent weights: the weight of 'random' must be a finite number >= 0"),
    ("--eval-opponents", "random,ppo:missing.zip", "--eval-opponents: model file not found: missing.zip"),
    ("--net-arch", "abc", "--net-arch: expected comma-separated positive integers, got 'abc'"),
    ("--learning-rate", "0", "--learning-rate must be a finite number > 0, got 0.0"),
    ("--gamma", "1.5", "--gamma must be in (0, 1], got 1.5"),
    ("--n-steps", "0", "--n-steps must be an int >= 1, got 0"),
    ("--seed", "-1", "--seed must be an int in [0, 2**32 - 1] (numpy's and torch's seeding), got -1"),
    ("--seed", str(2**32), f"--seed must be an int in [0, 2**32 - 1] (numpy's and torch's seeding), got {2**32}"),
])
def test_train_checks_every_option_before_creating_a_run_folder(tmp_path, capsys, option, value, message):
    rc = cli.main(["train", "aethermon_collect", *TINY_TRAIN, "--total-timesteps", "64", "--eval-every", "0",
                   "--snapshot-every", "0", "--checkpoint-every", "0", option, value, "--out-dir", str(tmp_path)])
    assert rc == 2 and message in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_evaluate_needs_two_specs_and_speed_help_names_its_command(tmp_path, capsys):
    assert cli.main(["evaluate", "aethermon_collect", "random", "--out", str(tmp_path / "t")]) == 2
    assert "give two or more agent specs, got ['random']" in capsys.readouterr().err
    assert not (tmp_path / "t").exists()
    assert cli.main(["evaluate", "aethermon_collect", "random", "random", "--deals", "1", "--out",
                     str(tmp_path / "t"), "--no-progress"]) == 0
    assert "| random | random | 2 |" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["speed", "--help"])
    assert capsys.readouterr().out.startswith("usage: ether-envs speed")


def test_progress_bars_write_a_line_every_30_seconds_when_output_is_not_a_terminal(monkeypatch):
    """Redirected output gets whole lines, one per 30 s of progress, not ten carriage-return
    redraws a second: a tournament bar over 10 minutes writes about 20 lines, and every bar of
    the package is made by training.progress."""
    import io

    import tqdm.std

    from training import evaluate

    now = [0.0]
    monkeypatch.setattr(tqdm.std, "time", lambda: now[0])
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    bar = evaluate._bar(600, True, "tournament")
    for _ in range(600):
        now[0] += 1.0
        bar.update(1)
    bar.close()
    text = sys.stderr.getvalue()
    lines = [line.strip("\r") for line in text.splitlines() if line.strip()]
    assert 20 <= len(lines) <= 23 and len(text) < 3000, text
    assert lines[-1].startswith("tournament: 100%") and "600/600" in lines[-1]
    for path in [*ROOT.glob("training/*.py"), *ROOT.glob("ether_envs/**/*.py"), *ROOT.glob("agents/**/*.py")]:
        if path.name != "progress.py":
            assert "tqdm" not in path.read_text(), f"{path} makes its own progress bar"


def test_zoo_names_the_net_pretrained_loads_at_each_player_count(capsys):
    """`ether-envs zoo`: one row a (game, player count), naming the file `pretrained` loads there
    (a net for one count where one is shipped), and refusing an unknown game by name."""
    import ether_envs
    from agents import make_agent
    from agents.pretrained import WEIGHTS_DIR

    assert cli.main(["zoo"]) == 0
    lines = [line.strip("| ").split(" | ") for line in capsys.readouterr().out.splitlines()[2:]]
    rows = {(cells[0], int(cells[1])): cells for cells in lines}
    for name in ether_envs.list_games():
        spec = ether_envs.load_game(name).spec
        for n in range(spec.min_players, spec.max_players + 1):
            path = make_agent("pretrained", ether_envs.load_game(name, num_players=n)).path
            assert rows[(name, n)][2] == f"`{path.relative_to(WEIGHTS_DIR).as_posix()}`"
            assert rows[(name, n)][7] == f"`zoo1/{name}.npz`"
    assert len(rows) == len(lines)
    assert cli.main(["zoo", "nosuchgame"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "unknown game 'nosuchgame'; registered games: [" in captured.err
