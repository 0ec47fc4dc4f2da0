"""The SB3 callbacks of training/callbacks.py: a wall-clock stop and win rates on validation deals."""

import csv

import pytest

from training import protocol
from training.callbacks import TimeBudget, WinRate


@pytest.fixture
def model():
    from sb3_contrib import MaskablePPO

    from ether_envs.vector import make_vec_env

    venv = make_vec_env("aethermon_collect", {}, n_envs=2, opponents=None)
    return MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=32, n_epochs=1, seed=0,
                       policy_kwargs={"net_arch": [16]})


def test_win_rate_logs_validation_deals_and_writes_csv(model, tmp_path, monkeypatch):
    import training.evaluate as ev

    seeds = []
    real = ev.run_tournament

    def spy(*a, **kw):
        seeds.append(kw["seed"])
        return real(*a, **kw)

    monkeypatch.setattr(ev, "run_tournament", spy)
    cb = WinRate("aethermon_collect", {}, ["random"], deals=2, every=64, csv_path=tmp_path / "eval.csv")
    model.learn(128, callback=cb)
    assert [r["frames"] for r in cb.rows] == [64, 128]
    assert all(s == protocol.VALIDATION_BASE and not protocol.is_held_out(s) for s in seeds)
    for r in cb.rows:
        assert r["games_vs_random"] == 4 and r["low_vs_random"] <= r["win_rate_vs_random"] <= r["high_vs_random"]
    with open(tmp_path / "eval.csv") as f:
        assert len(list(csv.DictReader(f))) == 2


def test_time_budget_stops_training(model):
    cb = TimeBudget(minutes=1e-9)
    model.learn(10_000, callback=cb)
    assert model.num_timesteps < 10_000
    with pytest.raises(ValueError, match="minutes must be > 0"):
        TimeBudget(0)
    with pytest.raises(ValueError, match="at least one opponent"):
        WinRate("aethermon_collect", {}, [])
