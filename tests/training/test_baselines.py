"""``ether-envs baselines`` (tiny budget) and game records saved by ``play`` / ``evaluate``."""

import json

import ether_envs
from ether_envs.records import load_record
from training import cli


def test_baselines_smoke_table_and_json(tmp_path, capsys):
    out = tmp_path / "bl" / "baselines"
    rc = cli.main(["baselines", "--games", "aethermon_collect", "aetherspire", "--deals", "1",
                   "--simulations", "3", "--seed", "5", "--out", str(out), "--quiet"])
    assert rc == 0
    text = capsys.readouterr().out
    assert "| game | agent | opponent | players | games | win rate | 95% interval (Wilson) | training budget | seed |" in text
    assert "| aethermon_collect | heuristic | random | 2 | 2 |" in text
    assert "| aethermon_collect | mcts:simulations=3 | random | 2 | 2 |" in text
    assert "| aetherspire | heuristic | - (team)[^coop] | 2 | 1 |" in text
    assert "[^coop]: Co-operative" in text
    md = (out.parent / "baselines.md").read_text()
    assert md.splitlines()[0].startswith("| game | agent |")
    data = json.loads((out.parent / "baselines.json").read_text())
    assert data["options"]["deals"] == 1 and data["options"]["simulations"] == 3 and data["options"]["seed"] == 5
    rows = data["rows"]
    assert [(r["game"], r["agent"]) for r in rows] == [
        ("aethermon_collect", "heuristic"), ("aethermon_collect", "mcts:simulations=3"),
        ("aetherspire", "heuristic"), ("aetherspire", "mcts:simulations=3")]
    for r in rows:
        assert 0.0 <= r["win_low"] <= r["win_rate"] <= r["win_high"] <= 1.0
        assert r["budget"] == "-" and r["seed"] == 5
        assert r["cooperative"] == (r["game"] == "aetherspire")
        assert r["opponent"] == ("-" if r["cooperative"] else "random")


def test_baselines_rejects_bad_budget(capsys):
    assert cli.main(["baselines", "--games", "aethermon_collect", "--deals", "0"]) == 2
    assert "--deals must be >= 1" in capsys.readouterr().err
    assert cli.main(["baselines", "--games", "aethermon_collect", "--workers", "0"]) == 2
    assert "--workers must be >= 1" in capsys.readouterr().err


def test_baselines_workers_give_the_same_table(tmp_path):
    """Competitive rows (tournament workers) and co-operative rows (deals over workers)
    are identical with 1 and 2 worker processes."""
    from training.baselines import run_baselines

    kw = dict(games=["aethermon_collect", "aetherspire"], deals=3, simulations=2, seed=7, progress=False)
    one = run_baselines(**kw, workers=1)
    two = run_baselines(**kw, workers=2)
    strip = lambda rows: [(r.game, r.agent, r.games, r.win_rate, r.win_low, r.win_high) for r in rows]  # noqa: E731
    assert strip(one) == strip(two)
    assert [r.games for r in one] == [6, 6, 3, 3]


def test_evaluate_save_records_replay(tmp_path, capsys):
    recs = tmp_path / "records"
    rc = cli.main(["evaluate", "etherium", "heuristic", "random", "--deals", "2", "--seed", "3",
                   "--out", str(tmp_path / "t"), "--no-progress", "--save-records", str(recs)])
    assert rc == 0
    files = sorted(recs.glob("*.json"))
    assert len(files) == 4  # 2 deals x 2 seats
    res = json.loads((tmp_path / "t" / "results.json").read_text())
    for f in files:
        rec = load_record(f)
        assert rec.game == "etherium" and rec.terminal and sorted(rec.players) == ["heuristic", "random"]
        game = [g for g in res["games"] if g["deal"] == rec.metadata["deal"]
                and g["agent_seat"] == rec.metadata["agent_seat"]][0]
        assert rec.seed == game["game_seed"] and rec.scores == game["scores"]
        state = ether_envs.replay(rec)  # checks scores, returns and end against the record
        assert list(state.history) == rec.actions and state.is_terminal()


def test_play_save_records(tmp_path, capsys):
    answers = iter(["1"] * 10_000)
    parser = cli.build_parser()
    args = parser.parse_args(["play", "aethermon_collect", "--opponents", "random", "--seed", "2",
                              "--save-records", str(tmp_path)])
    cli.cmd_play(args, input_fn=lambda _prompt: next(answers))
    files = list(tmp_path.glob("*.json"))
    assert len(files) == 1
    rec = load_record(files[0])
    assert rec.players == ["human", "random"] and rec.seed == 2 and rec.terminal
    ether_envs.replay(rec)
