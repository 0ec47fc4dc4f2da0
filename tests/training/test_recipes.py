"""The reference agents' training code on tiny budgets: masked PPO (``training.ppo``) and its
resume, behaviour cloning (``training.bc``) and the per-game recipe (``training.recipes``).
Long trainings are scripts run on demand (``ether-envs recipe GAME``), never part of the suite."""

import csv
import dataclasses
import json
import shutil

import numpy as np
import pytest
from filelock import FileLock

import ether_envs
from agents import make_agent
from training import cli, recipes
from training.ppo import WEIGHTS_NAME, PPOConfig, train

TINY = dict(game="aethermon_collect", n_envs=2, n_steps=16, total_frames=64, minibatch=16, epochs=2, n_procs=0,
            hidden="16", eval_deals=1, eval_every=32, snapshot_every=32, checkpoint_every=32, progress=False,
            opponents="random=1,self=1")
"""Two updates of 2 x 16 decisions; a snapshot after the first, so the second rollout meets the self pool."""


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def play_one_game(spec, game, seed=0):
    state = game.new_initial_state(seed=seed)
    agent = make_agent(spec, game, seed=seed)
    while not state.is_terminal():
        p = state.current_player()
        a = agent.act(state, p)
        assert a in state.legal_actions()
        state.apply_action(a)
    return state


@pytest.fixture(scope="session")
def ppo_run(shared_tmp):
    """``training.ppo.train`` on a tiny budget, once per session (shared by xdist workers)."""
    run = shared_tmp / "tiny_ppo_run"
    with FileLock(str(run) + ".lock"):
        if not (run / WEIGHTS_NAME).exists():
            train(PPOConfig(**TINY, run_dir=str(run)))
    return run


def test_ppo_writes_weights_curves_and_checkpoint(ppo_run):
    path = ppo_run / WEIGHTS_NAME
    game = ether_envs.load_game("aethermon_collect")
    play_one_game(f"pretrained:path={path}", game)
    play_one_game(f"pretrained:path={path},deterministic=false", game)
    meta = make_agent(f"pretrained:path={path}", game).policy.metadata
    assert meta["training"]["algorithm"] == "ppo" and meta["training"]["frames"] == 64
    assert meta["training"]["hidden"] == [16]
    progress = rows(ppo_run / "progress.csv")
    assert [int(r["frames"]) for r in progress] == [32, 64]
    assert {"frames_per_second", "pg_loss", "v_loss", "entropy", "approx_kl", "kickstart"} <= set(progress[0])
    evals = rows(ppo_run / "eval.csv")
    assert [int(r["frames"]) for r in evals] == [0, 32, 64]
    for r in evals:
        for opp in ("random", "heuristic"):
            low, rate, high = (float(r[f"{k}_vs_{opp}"]) for k in ("low", "win_rate", "high"))
            assert 0.0 <= low <= rate <= high <= 1.0
            assert int(r[f"games_vs_{opp}"]) == 2  # 1 deal, both seats
    snaps = sorted((ppo_run / "snapshots").glob("*.npz"))
    assert [p.name for p in snaps] == ["frames_32.npz", "frames_64.npz"]  # the self pool's snapshots
    assert (ppo_run / "checkpoint.pt").exists()
    assert json.loads((ppo_run / "config.json").read_text())["total_frames"] == 64


def test_ppo_resume_continues_from_the_checkpoint(ppo_run, tmp_path):
    import torch

    run = tmp_path / "run"
    shutil.copytree(ppo_run, run)
    path = train(PPOConfig(**{**TINY, "total_frames": 128}, run_dir=str(run), resume=True))
    assert [int(r["frames"]) for r in rows(run / "progress.csv")] == [32, 64, 96, 128]
    assert int(rows(run / "eval.csv")[-1]["frames"]) == 128
    assert make_agent(f"pretrained:path={path}", ether_envs.load_game("aethermon_collect")).policy.metadata[
        "training"]["frames"] == 128
    state = json.loads(torch.load(run / "checkpoint.pt", weights_only=True)["state"])
    assert state["frames"] == 128 and state["updates"] == 4
    with pytest.raises(ValueError, match="trained on another game setup"):
        train(PPOConfig(**{**TINY, "config": {"num_players": 3}, "total_frames": 192}, run_dir=str(run), resume=True))
    with pytest.raises(ValueError, match="resume: no checkpoint"):
        train(PPOConfig(**TINY, run_dir=str(tmp_path / "empty"), resume=True))
    assert not (tmp_path / "empty").exists()


def test_ppo_refuses_a_folder_holding_a_run_without_resume(ppo_run, tmp_path):
    """Without resume, a folder with a checkpoint is refused untouched; the logs of a run that
    died before its first checkpoint are started afresh, not appended to."""
    run = tmp_path / "run"
    shutil.copytree(ppo_run, run)
    before = {f.name: f.read_bytes() for f in run.iterdir() if f.is_file()}
    with pytest.raises(ValueError, match=r"holds a run already \(checkpoint.pt\).*--resume"):
        train(PPOConfig(**TINY, run_dir=str(run)))
    assert {f.name: f.read_bytes() for f in run.iterdir() if f.is_file()} == before
    (run / "checkpoint.pt").unlink()
    (run / "snapshots" / "frames_999.npz").write_bytes(b"stale")
    train(PPOConfig(**TINY, run_dir=str(run)))
    assert sorted(p.name for p in (run / "snapshots").glob("*.npz")) == ["frames_32.npz", "frames_64.npz"]
    assert [int(r["frames"]) for r in rows(run / "progress.csv")] == [32, 64]
    assert [int(r["frames"]) for r in rows(run / "eval.csv")] == [int(r["frames"]) for r in rows(ppo_run / "eval.csv")]


@pytest.mark.parametrize("change,name", [
    ({"game": "no_such_game"}, "unknown game"),
    ({"config": {"num_players": 9}}, "num_players"),
    ({"n_envs": 0}, "n_envs"),
    ({"minibatch": 0}, "minibatch"),
    ({"total_frames": 0}, "total_frames"),
    ({"eval_every": -1}, "eval_every"),
    ({"gamma": 1.5}, "gamma"),
    ({"learning_rate": 0.0}, "learning_rate"),
    ({"hidden": "16,x"}, "hidden"),
    ({"opponents": "heuristic"}, "opponent weights"),
    ({"init": "no/such/file.npz"}, "init"),
    ({"kickstart": 0.5}, "kickstart"),
])
def test_ppo_bad_options_name_the_option_and_create_nothing(tmp_path, change, name):
    run = tmp_path / "run"
    with pytest.raises(ValueError, match=name):
        train(PPOConfig(**{**TINY, **change}, run_dir=str(run)))
    assert not run.exists()


def test_ppo_init_for_another_game_setup_is_refused(tmp_path):
    from agents.ppo import model_metadata
    from training.ppo import make_net, net_to_policy

    three = ether_envs.load_game("aethermon_collect", num_players=3)
    init = net_to_policy(make_net(three.observation_size(), three.num_distinct_actions(), (16,)),
                         model_metadata(three)).save(tmp_path / "three.npz")
    with pytest.raises(ValueError, match=r"config\.num_players: model 3, env 2"):
        train(PPOConfig(**TINY, init=str(init), run_dir=str(tmp_path / "run")))
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("name", ["aethermon_collect", "ethnos", "etherium"])
def test_behaviour_cloning_learns_from_demonstrations(name):
    import torch

    from training.bc import clone, demonstrations
    from training.ppo import make_net

    game = ether_envs.load_game(name)
    data = demonstrations(name, {}, "heuristic", games=2, seed=5, keep=0.5)
    n = len(data["action"])
    assert n > 0
    assert data["obs"].shape == (n, game.observation_size()) and data["obs"].dtype == np.float16
    assert data["mask"].shape == (n, game.num_distinct_actions())
    assert data["mask"][np.arange(n), data["action"]].all()  # the teacher played legal moves
    assert (data["mask"].sum(1) > 1).all()  # forced moves are skipped
    assert set(np.unique(data["game"])) <= {5, 6} and data["return"].shape == (n,)
    again = demonstrations(name, {}, "heuristic", games=2, seed=5, keep=0.5)
    assert all(np.array_equal(data[k], again[k]) for k in data)  # reproducible
    torch.manual_seed(0)
    net = make_net(game.observation_size(), game.num_distinct_actions(), (32,))
    logs = []
    stats = clone(net, data, epochs=2, minibatch=64, log=logs.append)
    assert len(logs) == 2 and "held-out accuracy" in logs[0]
    assert 0.0 <= stats["train_accuracy"] <= 1.0 and 0.0 <= stats["heldout_accuracy"] <= 1.0
    assert stats["samples"] > 0 and np.isfinite(stats["heldout_loss"])
    with pytest.raises(ValueError, match="games must be >= 1"):
        demonstrations(name, {}, "heuristic", games=0)


def test_dagger_keeps_only_the_students_seat_labelled_by_the_teacher(tmp_path):
    """With a student, the student plays one seat of each game (game seed mod n) and only its
    states are kept, each labelled with the action the teacher would choose there."""
    from agents.ppo import model_metadata
    from training.bc import demonstrations
    from training.ppo import make_net, net_to_policy

    game = ether_envs.load_game("etherium")
    student = net_to_policy(make_net(game.observation_size(), game.num_distinct_actions(), (8,)),
                            model_metadata(game)).save(tmp_path / "student.npz")
    data = demonstrations("etherium", {}, "heuristic", games=2, seed=4, student=f"pretrained:path={student}")
    n = len(data["action"])
    assert n > 0 and data["mask"][np.arange(n), data["action"]].all()
    assert set(np.unique(data["game"])) == {4, 5}
    # the labels are the heuristic's: replaying a kept state through the heuristic gives the label
    # (checked on the plain demonstrations of the same deals, where every seat is the teacher)
    plain = demonstrations("etherium", {}, "heuristic", games=2, seed=4)
    assert n < len(plain["action"])  # one seat of two is recorded, not every seat
    # an untrained student mostly disagrees with its labels: its own moves are not what is stored
    net_choice = [int(np.argmax(np.where(m, make_agent(f"pretrained:path={student}", game).policy.logits(
        o.astype(np.float32)), -np.inf))) for o, m in zip(data["obs"][:50], data["mask"][:50])]
    assert np.mean(np.array(net_choice) == data["action"][:50]) < 0.9


def test_every_game_has_a_recipe_with_valid_options():
    assert sorted(recipes.RECIPES) == sorted(ether_envs.list_games())
    fields = {f.name for f in dataclasses.fields(PPOConfig)}
    set_by_run_recipe = {"game", "config", "seed", "total_frames", "max_minutes", "n_procs", "hidden", "init",
                         "run_dir", "eval_deals", "eval_every", "snapshot_every", "checkpoint_every",
                         "clock_offset", "progress", "resume"}
    for name, r in recipes.RECIPES.items():
        assert set(r.ppo) <= fields - set_by_run_recipe, f"{name}: recipe ppo options {set(r.ppo)}"
        ether_envs.load_game(name, **r.config)
        assert r.minutes is None or r.minutes <= 45, f"{name}: the recipe must train within 45 minutes"
    # make main's recipe has no hidden wall-clock cap: a slow machine trains the same agent, more slowly
    assert recipes.RECIPES["aethermon_collect"].minutes is None


def test_demonstrations_are_the_same_for_any_number_of_workers():
    from training.bc import CHUNK_GAMES, demonstrations

    games = CHUNK_GAMES + 5  # two work units
    one = demonstrations("aethermon_collect", {}, "heuristic", games=games, seed=7, keep=0.5, workers=1)
    two = demonstrations("aethermon_collect", {}, "heuristic", games=games, seed=7, keep=0.5, workers=2)
    assert all(np.array_equal(one[k], two[k]) for k in one)
    assert set(np.unique(one["game"])) == set(range(7, 7 + games))


def test_recipe_with_the_same_seed_trains_the_same_weights(tmp_path, monkeypatch):
    """Fixed in work and seeded: two runs of a (tiny) recipe with 2 worker processes give
    byte-identical weights on this machine."""
    tiny = recipes.Recipe(teacher="mcts:simulations=4", bc_games=4, bc_epochs=1, hidden="16", minutes=None,
                          frames=128, ppo={"kickstart": 0.5, "kickstart_frames": 64, "opponents": "heuristic=1,self=1",
                                           "n_envs": 4, "n_steps": 16, "minibatch": 32, "epochs": 1})
    monkeypatch.setitem(recipes.RECIPES, "aethermon_collect", tiny)
    paths = [recipes.run_recipe("aethermon_collect", seed=3, run_dir=tmp_path / f"r{k}", workers=2, eval_deals=1,
                                progress=False, log=lambda *_: None) for k in range(2)]
    with np.load(paths[0]) as a, np.load(paths[1]) as b:
        assert sorted(a.files) == sorted(b.files)
        for k in a.files:
            if k != "metadata":
                assert a[k].tobytes() == b[k].tobytes(), k


def test_recipe_runs_both_stages_and_resumes(tmp_path, monkeypatch):
    """BC then PPO on a tiny budget; the second call skips BC, resumes PPO from its checkpoint
    to a larger budget and exports the weights (to a stand-in for agents/weights)."""
    import agents.pretrained
    from training import bc

    tiny = recipes.Recipe(bc_games=2, bc_epochs=1, hidden="16", minutes=5.0, frames=64,
                          ppo={"kickstart": 0.5, "kickstart_frames": 64, "opponents": "heuristic=1,self=1",
                               "n_envs": 2, "n_steps": 16, "minibatch": 16, "epochs": 1})
    monkeypatch.setitem(recipes.RECIPES, "aethermon_collect", tiny)
    monkeypatch.setattr(agents.pretrained, "WEIGHTS_DIR", tmp_path / "weights")
    logs = []
    path = recipes.run_recipe("aethermon_collect", seed=1, out_dir=str(tmp_path / "runs"), workers=1, eval_deals=1,
                              progress=False, log=logs.append)
    run = tmp_path / "runs" / "aethermon_collect__recipe__1"
    assert path == run / WEIGHTS_NAME
    assert (run / "bc_policy.npz").exists() and json.loads((run / "stages.json").read_text())["bc_minutes"] > 0
    assert any("decisions of heuristic" in line for line in logs)
    game = ether_envs.load_game("aethermon_collect")
    bc_meta = make_agent(f"pretrained:path={run / 'bc_policy.npz'}", game).policy.metadata
    assert bc_meta["training"]["algorithm"] == "bc" and bc_meta["training"]["games"] == 2
    progress = rows(run / "progress.csv")
    assert int(progress[-1]["frames"]) == 64 and float(progress[0]["kickstart"]) > 0  # kickstarted from the clone
    assert float(progress[0]["minutes"]) > 0  # the curves' clock includes the BC stage
    assert rows(run / "eval.csv")
    bc_written = (run / "bc_policy.npz").stat().st_mtime_ns

    def no_bc(*a, **k):
        raise AssertionError("behaviour cloning ran again")

    monkeypatch.setattr(bc, "demonstrations", no_bc)
    path = recipes.run_recipe("aethermon_collect", seed=1, out_dir=str(tmp_path / "runs"), frames=96, workers=1,
                              eval_deals=1, progress=False, export=True, log=logs.append)
    assert (run / "bc_policy.npz").stat().st_mtime_ns == bc_written
    assert [int(r["frames"]) for r in rows(run / "progress.csv")] == [32, 64, 96]
    exported = tmp_path / "weights" / "aethermon_collect.npz"
    assert exported.read_bytes() == path.read_bytes()
    agent = make_agent("pretrained", game)  # the exported weights are the game's `pretrained` agent
    assert agent.policy.metadata["training"]["frames"] == 96
    play_one_game("pretrained", game)


def test_recipe_with_dagger_runs_in_a_folder_whose_path_holds_comma_and_equals(tmp_path, monkeypatch):
    """The DAgger student and the PPO snapshots are agent specs naming files in the run folder:
    their paths are quoted, so any folder name works."""
    tiny = recipes.Recipe(bc_games=2, bc_epochs=1, dagger_rounds=1, dagger_games=2, hidden="16", minutes=5.0,
                          frames=32, ppo={"opponents": "heuristic=1,self=1", "n_envs": 2, "n_steps": 16,
                                          "minibatch": 16, "epochs": 1})
    monkeypatch.setitem(recipes.RECIPES, "aethermon_collect", tiny)
    logs = []
    run = tmp_path / "odd,name=1 x"
    path = recipes.run_recipe("aethermon_collect", seed=0, run_dir=run, workers=1, eval_deals=1, progress=False,
                              log=logs.append)
    assert path.exists() and any("DAgger round 1" in line for line in logs)


def test_recipe_command_line(monkeypatch, capsys, tmp_path):
    """``ether-envs recipe GAME`` calls training.recipes.run_recipe with the options given."""
    seen = {}

    def fake(game, **kw):
        seen.update(game=game, **kw)
        return tmp_path / "policy.npz"

    monkeypatch.setattr(recipes, "run_recipe", fake)
    rc = cli.main(["recipe", "etherium", "--seed", "3", "--minutes", "2.5", "--frames", "1000", "--workers", "1",
                   "--out-dir", str(tmp_path), "--no-progress", "--export"])
    assert rc == 0
    assert seen == {"game": "etherium", "seed": 3, "out_dir": str(tmp_path), "minutes": 2.5, "frames": 1000,
                    "export": True, "workers": 1, "eval_deals": 50, "progress": False}
    assert f"weights: {tmp_path / 'policy.npz'}" in capsys.readouterr().out
    monkeypatch.undo()
    assert cli.main(["recipe", "etherium", "--minutes", "0", "--out-dir", str(tmp_path / "r")]) == 2
    assert "minutes must be a finite number > 0, got 0.0" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_recipe_with_select_best_ships_the_evaluation_best_candidate(tmp_path, monkeypatch):
    """select_best: after PPO, every snapshot and the final weights play the evaluation deals and
    the best is written to best.npz (the latest of equals), which the recipe returns."""
    tiny = recipes.Recipe(bc_games=2, bc_epochs=1, hidden="16", minutes=5.0, frames=96, select_best=True,
                          ppo={"opponents": "heuristic=1", "n_envs": 2, "n_steps": 16, "minibatch": 16, "epochs": 1})
    monkeypatch.setitem(recipes.RECIPES, "aethermon_collect", tiny)
    logs = []
    path = recipes.run_recipe("aethermon_collect", seed=2, out_dir=str(tmp_path), workers=1, eval_deals=1,
                              progress=False, log=logs.append)
    run = tmp_path / "aethermon_collect__recipe__2"
    assert path == run / "best.npz"
    candidates = [line for line in logs if "vs heuristic (2 games)" in line]
    assert len(candidates) == len(list((run / "snapshots").glob("*.npz"))) + 1  # + the final policy.npz
    meta = make_agent(f"pretrained:path={path}", ether_envs.load_game("aethermon_collect")).policy.metadata
    assert "best of" in meta["training"]["selected_on"]
    with pytest.raises(ValueError, match="holds the recipe of 'aethermon_collect' seed 2, not 'aethermon_collect' seed 3"):
        recipes.run_recipe("aethermon_collect", seed=3, run_dir=run, workers=1, eval_deals=1, progress=False,
                           log=logs.append)
