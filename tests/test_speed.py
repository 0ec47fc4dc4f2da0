"""The env-speed script's plumbing (what it prints, the speed-floor verdict); no speed is
asserted here: speed is measured by running ``python -m ether_envs.speed``. Also the deprecated
alias ``ether_envs.benchmark``."""

import importlib
import subprocess
import sys

import pytest

from ether_envs import speed


def _row(game, env, engine):
    return {"game": game, "env_ratio": env, "engine_ratio": engine}


def test_floor_shortfalls_name_each_game_and_workload_below_the_floor():
    rows = [_row("aethermon_collect", 4.1, 12.0), _row("ethnos", 3.9, 18.0), _row("etherium", 2.0, 7.9),
            _row("ether_wars {'num_players': 3}", 1.5, 8.0)]
    assert speed.floor_shortfalls(rows) == [
        "ethnos: env / c4 3.90x is below the floor 4x",
        "etherium: engine / c4 7.90x is below the floor 8x",
        "ether_wars {'num_players': 3}: env / c4 1.50x is below the floor 2x",
    ]
    assert speed.floor_line(rows[:1]).endswith(": met")
    assert "NOT met: ethnos: env" in speed.floor_line(rows)


def test_main_prints_the_table_and_the_floor_verdict(capsys):
    speed.main(["--games", "aethermon_collect", "--seconds", "0.02", "--no-subprocess"])
    out = capsys.readouterr().out
    assert out.startswith("| game | env steps/s") and "| aethermon_collect |" in out
    assert "speed floor: engine >= 8x c4, env >= 2x c4 (aethermon_collect >= 4x, ethnos >= 4x): " in out


def test_bad_arguments_are_refused_with_the_allowed_values(capsys):
    for argv, message in [(["--games", "chess"], "unknown game 'chess'"), (["--seconds", "0"], "--seconds must be")]:
        with pytest.raises(SystemExit):
            speed.main(argv)
        assert message in capsys.readouterr().err


def test_without_pettingzoo_classic_the_command_says_what_to_install(monkeypatch, capsys):
    """``make main`` installs the train extra only; connect_four_v3 comes with the dev extra."""
    monkeypatch.setitem(sys.modules, "pettingzoo.classic", None)  # its import now fails
    with pytest.raises(SystemExit):
        speed.main(["--games", "aethermon_collect", "--seconds", "0.02", "--no-subprocess"])
    err = capsys.readouterr().err
    assert "needs its classic games: pip install 'pettingzoo[classic]'" in err and "make speed" in err


def test_the_deprecated_benchmark_module_warns_and_forwards_to_speed():
    sys.modules.pop("ether_envs.benchmark", None)
    with pytest.warns(DeprecationWarning, match="use ether_envs.speed"):
        old = importlib.import_module("ether_envs.benchmark")
    for name in old.__all__:
        assert getattr(old, name) is getattr(speed, name)
    proc = subprocess.run([sys.executable, "-m", "ether_envs.benchmark", "--games", "chess"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "ether_envs.benchmark is deprecated: use ether_envs.speed" in proc.stderr
    assert "usage: python -m ether_envs.speed" in proc.stderr and "unknown game 'chess'" in proc.stderr
