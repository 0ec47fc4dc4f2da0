"""The reference algorithms under the benchmark protocol (``training.reference``) on tiny budgets:
each run gives a spec that plays, a finished run is not trained again, and no training game is
dealt from the held-out evaluation seeds."""

import json
import sys
import types

import pytest

import ether_envs
from agents import make_agent
from training import protocol, reference
from training.evaluate import play_game

BENCHMARK = protocol.benchmark_config("aethermon_collect")
FRAMES = 2000
TINY = {
    "ppo": {"n_envs": 4, "n_steps": 100, "hidden": "32", "minibatch": 200, "epochs": 1},  # 5 updates of 400
    "maskable_ppo": {"n_envs": 2, "n_steps": 1000, "n_epochs": 1, "net_arch": "32"},  # 1 rollout of 2,000
    "dqn": {"n_envs": 4, "hidden": "32", "buffer_size": 2000, "batch_size": 32, "learning_starts": 500},
}
"""Options that keep each algorithm's run of 2,000 frames to a few seconds."""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One tiny run of each algorithm (in-process envs), recording every game seed dealt."""
    base = tmp_path_factory.mktemp("reference")
    game_class = type(ether_envs.load_game("aethermon_collect"))
    original = game_class.new_initial_state
    seeds: dict[str, list] = {}
    out = {}
    for algo in reference.ALGOS:
        dealt = seeds.setdefault(algo, [])

        def recording(self, seed=None, _dealt=dealt):
            _dealt.append(seed)
            return original(self, seed)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(game_class, "new_initial_state", recording)
            run_dir = base / algo
            spec = reference.train_run(algo, BENCHMARK, 0, FRAMES, run_dir, options=TINY[algo])
        out[algo] = (spec, run_dir)
    return out, seeds


@pytest.mark.parametrize("algo", reference.ALGOS)
def test_run_gives_a_spec_that_plays(runs, algo):
    spec, run_dir = runs[0][algo]
    game = ether_envs.load_game("aethermon_collect")
    agent = make_agent(spec, game, seed=0)
    returns, _scores, steps = play_game(game, [make_agent("random", game, seed=1), agent], seed=5)
    assert steps > 0 and len(returns) == 2
    expected = {"ppo": "pretrained:path=", "dqn": "pretrained:path=", "maskable_ppo": "ppo:"}[algo]
    assert spec.startswith(expected) and str(run_dir) in spec
    done = json.loads((run_dir / reference.DONE_FILE).read_text())
    assert done["algo"] == algo and done["seed"] == 0 and done["frames"] == FRAMES == done["budget_frames"]
    assert done["spec"] == spec and done["minutes"] >= 0 and done["options"] == TINY[algo]
    assert done["benchmark"] == BENCHMARK.benchmark_id and done["opponents"] == protocol.TRAINING_OPPONENTS


@pytest.mark.parametrize("algo", reference.ALGOS)
def test_finished_run_is_not_trained_again(runs, algo, monkeypatch):
    spec, run_dir = runs[0][algo]
    stamps = {p: p.stat().st_mtime_ns for p in run_dir.rglob("*")}

    def boom(*a, **k):
        raise AssertionError("retrained a finished run")

    for name in ("_train_ppo", "_train_maskable_ppo", "_train_dqn"):
        monkeypatch.setattr(reference, name, boom)
    assert reference.train_run(algo, BENCHMARK, 0, FRAMES, run_dir, options=TINY[algo]) == spec
    assert {p: p.stat().st_mtime_ns for p in run_dir.rglob("*")} == stamps
    with pytest.raises(ValueError, match="holds another run"):  # another seed in the same folder
        reference.train_run(algo, BENCHMARK, 1, FRAMES, run_dir, options=TINY[algo])


@pytest.mark.parametrize("algo", reference.ALGOS)
def test_training_never_deals_a_held_out_seed(runs, algo):
    dealt = runs[1][algo]
    played = [s for s in dealt if s is not None]
    assert len(played) > 50  # the run's games (hundreds), not only the encoder fingerprint's
    assert not [s for s in played if protocol.is_held_out(s)]
    assert max(played) < protocol.HELD_OUT_BASE


def test_interrupted_run_is_trained_again_from_scratch(tmp_path):
    run_dir = tmp_path / "run"
    options = {**TINY["dqn"], "learning_starts": 100}
    run_dir.mkdir()
    (run_dir / reference.MARKER_FILE).write_text(json.dumps(
        {"algo": "dqn", "benchmark": BENCHMARK.benchmark_id, "seed": 0, "budget_frames": 400, "options": options}))
    (run_dir / "leftover.txt").write_text("from the interrupted run")
    spec = reference.train_run("dqn", BENCHMARK, 0, 400, run_dir, options=options)
    assert not (run_dir / "leftover.txt").exists() and (run_dir / "policy.npz").exists()
    assert json.loads((run_dir / reference.DONE_FILE).read_text())["spec"] == spec


def test_foreign_folder_and_bad_arguments_are_refused(tmp_path):
    (tmp_path / "mine.txt").write_text("not a run")
    with pytest.raises(ValueError, match="not empty"):
        reference.train_run("dqn", BENCHMARK, 0, 400, tmp_path)
    assert (tmp_path / "mine.txt").exists()
    for bad, match in [(dict(algo="a2c"), "unknown algorithm"), (dict(seed=2**63), "seed"), (dict(seed=-1), "seed"),
                       (dict(frames=0), "frames")]:
        args = {"algo": "dqn", "seed": 0, "frames": 400, **bad}
        with pytest.raises(ValueError, match=match):
            reference.train_run(args["algo"], BENCHMARK, args["seed"], args["frames"], tmp_path / "x")
        assert not (tmp_path / "x").exists()


def test_command_trains_each_seed_then_rates_them_together(tmp_path, monkeypatch, capsys):
    """The command's wiring, with the training and the rating replaced by stand-ins."""
    trained, rated = [], {}

    def fake_train_run(algo, benchmark, seed, frames, run_dir, progress=False):
        trained.append((algo, benchmark.name, seed, frames, run_dir.name))
        run_dir.mkdir(parents=True)
        spec = f"pretrained:path={run_dir / 'policy.npz'}"
        (run_dir / reference.DONE_FILE).write_text(json.dumps({"frames": frames, "minutes": 0.5, "spec": spec}))
        return spec

    def fake_rate(benchmark, specs, *, label, budget=None, frames=None, workers=1, progress=False, out=None,
                  training=None):
        assert [t["spec"] for t in training] == specs  # each run's training record goes into the row
        rated.update(benchmark=benchmark.name, specs=specs, label=label, budget=budget, frames=frames,
                     workers=workers, out=str(out))
        return {"agent": label}

    monkeypatch.setattr(reference, "train_run", fake_train_run)
    monkeypatch.setitem(sys.modules, "training.rate", types.SimpleNamespace(rate=fake_rate))
    runs_dir, out_dir = tmp_path / "runs", tmp_path / "out"
    result = reference.main(["dqn", "ethnos", "--config", "2p", "--seeds", "0", "2", "--runs-dir", str(runs_dir),
                             "--out", str(out_dir), "--workers", "2", "--no-progress"])
    bench = protocol.benchmark_config("ethnos", "2p")
    short = protocol.BUDGETS["short"]
    names = [f"dqn_ethnos-v{bench.version}_2p_{short}_seed{s}" for s in (0, 2)]
    assert trained == [("dqn", "ethnos/2p", s, short, n) for s, n in zip((0, 2), names)]
    assert rated == {"benchmark": "ethnos/2p", "specs": result["specs"], "label": "dqn (short)", "budget": "short",
                     "frames": short, "workers": 2, "out": str(out_dir / f"dqn_ethnos-v{bench.version}_2p")}
    assert result["row"] == {"agent": "dqn (short)"} and len(result["specs"]) == 2

    trained.clear()
    rated.clear()
    result = reference.main(["ppo", "etherium", "--frames", "3000", "--seeds", "1", "--runs-dir", str(runs_dir),
                             "--no-rate", "--no-progress"])
    assert trained == [("ppo", "etherium/2p", 1, 3000, trained[0][4])] and rated == {}
    assert result["row"] is None
    assert reference.out_path("o", "ppo", BENCHMARK, None, 3000).name.endswith("_2p_3000frames")
    assert reference.out_path("o", "ppo", BENCHMARK, "long", 10**6).name.endswith("_2p_long")
    with pytest.raises(SystemExit):
        reference.main(["dqn", "ethnos", "--config", "3p", "--no-rate"])
    assert "unknown benchmark configuration" in capsys.readouterr().err
