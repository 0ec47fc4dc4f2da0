"""``python -m training.zoo_report``: zoo 2 against zoo 1 and the search anchors (tiny budgets)."""

import csv

import pytest

from training import zoo_report


def test_rows_files_and_the_search_rows_alone(tmp_path, capsys):
    rows = zoo_report.main(["aethermon_collect", "--players", "2", "3", "--deals", "1", "--search-deals", "1",
                            "--workers", "1", "--out", str(tmp_path), "--name", "t"])
    got = [(r["players"], r["agent"], r["opponent"], r["games"]) for r in rows]
    assert got == [(2, "pretrained", "pretrained:zoo=1", 2), (3, "pretrained", "pretrained:zoo=1", 3),
                   (2, "az", "pretrained:zoo=1", 2)]
    for r in rows:
        assert 0.0 <= r["win_low"] <= r["win_rate"] <= r["win_high"] <= 1.0
        assert r["fair_share"] == pytest.approx(1.0 / r["players"])
    assert [int(r["games"]) for r in csv.DictReader(open(tmp_path / "t.csv"))] == [2, 3, 2]
    assert (tmp_path / "t.md").read_text().count("| aethermon_collect |") == 3
    assert "| aethermon_collect | 2 | `az` | `pretrained:zoo=1` | 2 |" in capsys.readouterr().out
    # --deals 0 skips the net-alone rows: only the search row is played
    rows = zoo_report.main(["aethermon_collect", "--deals", "0", "--search-deals", "1", "--workers", "1",
                            "--out", str(tmp_path), "--name", "search_only"])
    assert [(r["agent"], r["games"]) for r in rows] == [("az", 2)]


@pytest.mark.parametrize("argv,message", [
    (["--deals", "0", "--search-deals", "0"], "no row to measure"),
    (["--deals", "-1"], "--deals must be >= 0"),
    (["--workers", "0"], "--workers must be >= 1"),
    (["--players", "7"], "--players: aethermon_collect plays 2-4 players, got [7]"),
    (["--net", "no/such.npz"], "--net:"),
])
def test_bad_options_are_usage_errors(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as e:
        zoo_report.main(["aethermon_collect", *argv, "--out", str(tmp_path)])
    assert e.value.code == 2 and message in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
