"""Expert iteration (training/exit.py): self-play with az, fitting, evaluation, resuming."""

import csv
import json

import numpy as np
import pytest

from agents.pretrained import MLPPolicy
from training import cli
from training.exit import MAX_TARGETS, ExItConfig, run, self_play, visit_targets

SMALL = dict(iterations=2, games=2, simulations=4, eval_deals=1, eval_simulations=2, workers=1, epochs=1)


def test_visit_targets_are_the_visit_distribution():
    index = np.full((2, MAX_TARGETS), -1, np.int16)
    count = np.zeros((2, MAX_TARGETS), np.int16)
    index[0, :3], count[0, :3] = [5, 1, 7], [6, 3, 1]
    index[1, :1], count[1, :1] = [0], [4]
    t = visit_targets(index, count, 9)
    assert t.shape == (2, 9) and t.dtype == np.float32
    np.testing.assert_allclose(t[0, [5, 1, 7]], [0.6, 0.3, 0.1])
    np.testing.assert_allclose(t.sum(1), 1.0)
    assert t[1, 0] == 1.0


def test_self_play_samples_are_searched_decisions_of_every_player_count():
    cfg = ExItConfig(game="aethermon_collect", players=(2, 3), **SMALL)
    from agents.pretrained import shipped_weights

    data = self_play(cfg, shipped_weights(zoo=1)["aethermon_collect"], iteration=1)
    n = len(data["return"])
    assert n > 0 and data["obs"].shape[0] == data["mask"].shape[0] == n
    assert data["obs"].dtype == np.float16 and set(np.unique(data["game"])) == {10**6, 10**6 + 1}
    # every target is a legal action, with visits adding up to simulations - 1 (the root's own)
    for i in range(n):
        idx = data["visit_index"][i][data["visit_index"][i] >= 0]
        assert data["mask"][i][idx].all()
        assert data["visit_count"][i].sum() == cfg.simulations - 1
    assert set(np.unique(data["return"])) <= {-1.0, -0.5, 0.0, 0.5, 1.0}


def test_run_writes_nets_and_curves_resumes_and_refuses_other_settings(tmp_path):
    cfg = ExItConfig(game="aethermon_collect", seed=1, **SMALL)
    logs = []
    path = run(cfg, run_dir=tmp_path / "r", log=logs.append)
    assert path == tmp_path / "r" / "net_2.npz"
    meta = MLPPolicy.load(path).metadata
    assert meta["zoo"] == 2 and meta["training"]["iteration"] == 2 and meta["training"]["samples"] > 0
    with (tmp_path / "r" / "eval.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {(r["iteration"], r["agent"], r["opponent"]) for r in rows} == {
        (str(i), a, o) for i in range(3) for a in ("net", "net+search") for o in ("heuristic", "pretrained:zoo=1")}
    assert all(int(r["games"]) == 2 for r in rows)
    # resuming: nothing to do, nothing rewritten
    before = path.stat().st_mtime_ns
    logs.clear()
    assert run(cfg, run_dir=tmp_path / "r", log=logs.append) == path
    assert path.stat().st_mtime_ns == before and logs == []
    # the same folder with other settings is refused, by name
    with pytest.raises(ValueError, match=r"other settings \(games\)"):
        run(ExItConfig(game="aethermon_collect", seed=1, **{**SMALL, "games": 3}), run_dir=tmp_path / "r")
    assert json.loads((tmp_path / "r" / "config.json").read_text())["games"] == 2
    # ... but a finished run continues with more iterations, on any number of workers
    assert run(ExItConfig(game="aethermon_collect", seed=1, **{**SMALL, "iterations": 3, "workers": 2}),
               run_dir=tmp_path / "r", log=logs.append) == tmp_path / "r" / "net_3.npz"
    assert path.stat().st_mtime_ns == before
    # the learning curves of the run
    from training import exit_curves

    exit_curves.main([str(tmp_path / "r"), "--out", str(tmp_path / "curves")])
    curve = list(csv.DictReader((tmp_path / "curves" / "exit_aethermon_collect.csv").open()))
    assert len(curve) == 4 * 4 and {r["iteration"] for r in curve} == {"0", "1", "2", "3"}
    assert (tmp_path / "curves" / "exit_aethermon_collect.png").stat().st_size > 0


def test_cooperative_game_reports_team_win_rates(tmp_path):
    cfg = ExItConfig(game="aetherspire", eval_opponents=("heuristic",), **{**SMALL, "iterations": 1})
    run(cfg, run_dir=tmp_path / "r", log=lambda *_: None)
    with (tmp_path / "r" / "eval.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {(r["agent"], r["opponent"]) for r in rows} == {("net", "team"), ("net+search", "team"),
                                                           ("heuristic", "team")}


@pytest.mark.parametrize("change, match", [
    ({"games": 0}, "games must be an int >= 1, got 0"),
    ({"simulations": 1.5}, "simulations must be an int >= 1, got 1.5"),
    ({"players": (7,)}, "players: aethermon_collect plays 2-4 players, got 7"),
    ({"keep": 0.0}, r"keep must be in \(0, 1\], got 0.0"),
    ({"learning_rate": float("nan")}, "learning_rate must be in"),
    ({"dirichlet": -1.0}, "dirichlet must be a finite number >= 0"),
    ({"seed": 5000}, r"seed must be in \[0, 4000\)"),
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"init": "/no/such/net.npz"}, "weight file not found"),
    ({"eval_opponents": ("heurstic",)}, "unknown agent kind 'heurstic'"),
])
def test_bad_settings_are_value_errors_naming_the_value(tmp_path, change, match):
    """Refused before anything is written, so the corrected command starts the same folder."""
    with pytest.raises((ValueError, FileNotFoundError), match=match):
        run(ExItConfig(**{"game": "aethermon_collect", **SMALL, **change}), run_dir=tmp_path / "r")
    assert not (tmp_path / "r").exists()


def test_cli_exit_reports_bad_players_as_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["exit", "aethermon_collect", "--players", "2,x", "--run-dir", str(tmp_path / "r")])
    assert e.value.code == 2
    assert "--players must be comma-separated ints, got '2,x'" in capsys.readouterr().err
