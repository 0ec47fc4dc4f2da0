"""``ether-envs baselines`` (tiny budget) and game records saved by ``play`` / ``evaluate``."""

import json

import ether_envs
from ether_envs.records import load_record
from training import cli


def test_baselines_smoke_table_and_json(tmp_path, capsys, monkeypatch):
    """The ladder: a round robin of random, heuristic and MCTS (no shipped weights here) with
    OpenSkill ranks; the co-operative game ranks each agent's team."""
    import agents.pretrained

    monkeypatch.setattr(agents.pretrained, "WEIGHTS_DIR", tmp_path / "no_weights")
    out = tmp_path / "bl" / "baselines"
    rc = cli.main(["baselines", "--games", "aethermon_collect", "aetherspire", "--deals", "1",
                   "--simulations", "3", "--seed", "5", "--out", str(out), "--quiet"])
    assert rc == 0
    text = capsys.readouterr().out
    assert ("| game | agent | opponent | players | games | win rate | 95% interval (Wilson) | training budget "
            "| seed |\n") in text
    assert "| game | rank | agent | players | rating (Elo, random = 0) | team win rate[^coop] |" in text
    assert "| aethermon_collect | heuristic | random | 2 | 2 |" in text
    assert "| aethermon_collect | mcts:simulations=3 | random | 2 | 2 |" in text
    assert "| aethermon_collect | mcts:simulations=3 | heuristic | 2 | 2 |" in text
    assert "| aetherspire | heuristic | - (team)[^coop] | 2 | 1 |" in text
    assert "[^coop]: Co-operative" in text
    assert ("Command: `ether-envs baselines --games aethermon_collect aetherspire --deals 1 --simulations 3 "
            "--seed 5`") in text
    md = (out.parent / "baselines.md").read_text()
    assert md.startswith("Ladder") and "| game | agent |" in md
    data = json.loads((out.parent / "baselines.json").read_text())
    assert data["options"]["deals"] == 1 and data["options"]["simulations"] == 3 and data["seed"] == 5
    assert data["command"].startswith("ether-envs baselines") and data["seconds"] >= 0
    rows = data["rows"]
    assert [(r["game"], r["agent"], r["opponent"]) for r in rows] == [
        ("aethermon_collect", "heuristic", "random"), ("aethermon_collect", "mcts:simulations=3", "random"),
        ("aethermon_collect", "mcts:simulations=3", "heuristic"),
        ("aetherspire", "random", "-"), ("aetherspire", "heuristic", "-"), ("aetherspire", "mcts:simulations=3", "-")]
    for r in rows:
        assert 0.0 <= r["win_low"] <= r["win_rate"] <= r["win_high"] <= 1.0
        assert r["budget"] == "-" and r["seed"] == 5
        assert r["cooperative"] == (r["game"] == "aetherspire")
    ladder = data["ladder"]
    for game, cooperative in (("aethermon_collect", False), ("aetherspire", True)):
        entries = [e for e in ladder if e["game"] == game]
        assert sorted(e["agent"] for e in entries) == ["heuristic", "mcts:simulations=3", "random"]
        assert [e["rank"] for e in entries] == [1, 2, 3]
        assert all(e["cooperative"] == cooperative for e in entries)
        if cooperative:  # ranked by team win rate
            assert [e["win_rate"] for e in entries] == sorted((e["win_rate"] for e in entries), reverse=True)
            assert all(e["rating"] is None for e in entries)
        else:  # ranked by rating, every agent rated over its 2 pairings x 2 games
            assert [e["rating"] for e in entries] == sorted((e["rating"] for e in entries), reverse=True)
            assert all(e["games"] == 4 for e in entries)
            assert [e["rating"] for e in entries if e["agent"] == "random"] == [0.0]


def test_baselines_ladder_includes_shipped_pretrained(tmp_path, monkeypatch):
    """A game with shipped weights gets a `pretrained` rung, playing every other rung."""
    import agents.pretrained
    from agents.ppo import model_metadata
    from training.baselines import run_baselines
    from training.ppo import make_net, net_to_policy

    game = ether_envs.load_game("aethermon_collect")
    weights = tmp_path / "weights"
    meta = {**model_metadata(game), "training": {"algorithm": "ppo", "frames": 1234, "minutes": 1.0, "seed": 3}}
    net_to_policy(make_net(game.observation_size(), game.num_distinct_actions(), (8,)), meta).save(
        weights / "aethermon_collect.npz")
    monkeypatch.setattr(agents.pretrained, "WEIGHTS_DIR", weights)
    res = run_baselines(["aethermon_collect"], deals=1, simulations=2, seed=1, progress=False)
    assert [(r.agent, r.opponent) for r in res.rows] == [
        ("heuristic", "random"), ("mcts:simulations=2", "random"), ("mcts:simulations=2", "heuristic"),
        ("pretrained", "random"), ("pretrained", "heuristic"), ("pretrained", "mcts:simulations=2")]
    assert all(r.budget == "ppo 1,234 PPO frames 1.0 min (seed 3)" for r in res.rows if r.agent == "pretrained")
    assert sorted(e.agent for e in res.ladder) == ["heuristic", "mcts:simulations=2", "pretrained", "random"]
    assert all(e.games == 6 for e in res.ladder)  # 3 pairings x 1 deal x 2 seats


def test_baselines_rejects_bad_budget(capsys):
    assert cli.main(["baselines", "--games", "aethermon_collect", "--deals", "0"]) == 2
    assert "--deals must be >= 1" in capsys.readouterr().err
    assert cli.main(["baselines", "--games", "aethermon_collect", "--workers", "0"]) == 2
    assert "--workers must be >= 1" in capsys.readouterr().err


def test_baselines_workers_give_the_same_table(tmp_path, monkeypatch):
    """Competitive rows and ratings (tournament workers) and co-operative rows (deals over
    workers) are identical with 1 and 2 worker processes."""
    import agents.pretrained
    from training.baselines import run_baselines

    monkeypatch.setattr(agents.pretrained, "WEIGHTS_DIR", tmp_path / "no_weights")  # the ladder without `pretrained`

    kw = dict(games=["aethermon_collect", "aetherspire"], deals=3, simulations=2, seed=7, progress=False)
    one = run_baselines(**kw, workers=1)
    two = run_baselines(**kw, workers=2)
    strip = lambda rows: [(r.game, r.agent, r.opponent, r.games, r.win_rate, r.win_low, r.win_high)  # noqa: E731
                          for r in rows]
    assert strip(one.rows) == strip(two.rows)
    assert one.ladder == two.ladder
    assert [r.games for r in one.rows] == [6, 6, 6, 3, 3, 3]


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
