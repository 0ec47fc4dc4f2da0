"""League fine-tuning (training/league.py): the zoo-2 stage after expert iteration."""

import json

import numpy as np
import pytest

from agents.pretrained import shipped_weights
from training import league


def test_league_config_is_the_documented_stage():
    init = str(shipped_weights(1)["etherium"])
    cfg = league.league_config("etherium", init, seed=3)
    assert (cfg.game, cfg.seed, cfg.total_frames, cfg.init, cfg.kickstart) == ("etherium", 3, league.LEAGUE_FRAMES,
                                                                                init, 0.0)
    assert cfg.opponents == league.LEAGUE_OPPONENTS and cfg.gamma == 0.998 and cfg.n_procs == 1
    assert cfg.eval_opponents == "pretrained:zoo=1" and cfg.run_dir == "runs/league/etherium__3"
    assert league.league_config("ethnos", str(shipped_weights(1)["ethnos"])).score_shaping == 0.02


@pytest.mark.parametrize("game, init, error, match", [
    ("aetherspire", None, ValueError, "needs a competitive game, got 'aetherspire'"),
    ("etherium", "nowhere.npz", FileNotFoundError, "--init nowhere.npz: no such weight file"),
])
def test_league_refuses_a_cooperative_game_and_a_missing_file(game, init, error, match):
    with pytest.raises(error, match=match):
        league.league_config(game, init or str(shipped_weights(1)["aethermon_collect"]))


def test_league_frames_must_be_positive():
    with pytest.raises(ValueError, match="frames must be >= 1, got 0"):
        league.league_config("etherium", str(shipped_weights(1)["etherium"]), frames=0)


def test_a_short_league_run_writes_a_loadable_net(tmp_path):
    """One PPO update of the stage from zoo 1's Aethermon: Collect net: the net loads and its
    metadata names the league's opponents."""
    init = str(shipped_weights(1)["aethermon_collect"])
    path = league.run("aethermon_collect", init, run_dir=str(tmp_path / "run"), frames=2048, progress=False,
                      log=lambda *a: None)
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["metadata"]))
    assert meta["game"] == "aethermon_collect" and meta["training"]["opponents"] == league.LEAGUE_OPPONENTS
    assert (tmp_path / "run" / "eval.csv").exists()


def test_exploiters_take_their_share_and_are_evaluated(tmp_path):
    from agents.base import split_specs
    from training.selfplay import parse_weights

    br = tmp_path / "best response, v=2.npz"  # a path that needs quotes in a spec
    br.write_bytes((shipped_weights(1)["etherium"]).read_bytes())
    cfg = league.league_config("etherium", str(shipped_weights(1)["etherium"]), exploiters=[str(br)])
    weights = parse_weights(cfg.opponents)
    assert weights[f"pretrained:path='{br}'"] == pytest.approx(league.EXPLOITER_SHARE)
    assert sum(weights.values()) == pytest.approx(1.0) and weights["self"] == 0.35
    assert split_specs(cfg.eval_opponents) == ["pretrained:zoo=1", f"pretrained:path='{br}'"]
    with pytest.raises(FileNotFoundError, match="--exploiter nowhere.npz: no such weight file"):
        league.league_config("etherium", str(shipped_weights(1)["etherium"]), exploiters=["nowhere.npz"])


def test_a_run_folder_holding_another_run_is_refused(tmp_path):
    """Without --resume any existing run is refused; with it, another starting file or league."""
    init = str(shipped_weights(1)["aethermon_collect"])
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "config.json").write_text(json.dumps({"game": "aethermon_collect", "seed": 0, "init": init,
                                                     "opponents": league.LEAGUE_OPPONENTS}))
    cfg = league.league_config("aethermon_collect", init, run_dir=str(run_dir))
    with pytest.raises(ValueError, match="holds a run already: --resume continues it"):
        league.check_run_dir(cfg)
    league.check_run_dir(league.league_config("aethermon_collect", init, run_dir=str(run_dir), resume=True))
    other = str(shipped_weights(1)["etherium"])
    with pytest.raises(ValueError, match="--resume: .* holds a run with opponents"):
        league.check_run_dir(league.league_config("aethermon_collect", init, run_dir=str(run_dir), resume=True,
                                                  exploiters=[other]))
