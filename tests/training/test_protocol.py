"""The benchmark protocol (training/protocol.py): its configurations, the held-out deals that no
training code may draw, the stored anchored ladders, and the `rate` command."""

import json

import pytest

import ether_envs
from training import protocol
from training.protocol import CONFIGS, HELD_OUT_BASE, HELD_OUT_SIZE, check_training_seed, held_out_seed, is_held_out

# rows of fewer than 3 runs keep these tests short; the warning itself is tested in test_rate_errors_are_clear
pytestmark = pytest.mark.filterwarnings("ignore:.*the protocol asks for at least 3 training seeds:UserWarning")


def test_held_out_deals_are_a_range_above_every_training_draw():
    assert held_out_seed(0) == HELD_OUT_BASE == 2**63
    assert is_held_out(held_out_seed(HELD_OUT_SIZE - 1)) and not is_held_out(HELD_OUT_BASE + HELD_OUT_SIZE)
    assert not is_held_out(2**63 - 1) and not is_held_out(0)
    assert check_training_seed(12345) == 12345
    with pytest.raises(ValueError, match="held-out evaluation deal 7"):
        check_training_seed(held_out_seed(7))
    with pytest.raises(ValueError, match="held-out deal must be"):
        held_out_seed(HELD_OUT_SIZE)
    # a held-out deal is an ordinary deal of every game
    for name in ether_envs.list_games():
        game = ether_envs.load_game(name)
        assert not game.new_initial_state(seed=held_out_seed(3)).is_terminal()


def test_every_benchmark_configuration_names_its_version_ids_anchors_and_ladder():
    import gymnasium
    import pettingzoo

    from agents import make_agent
    from training.ladder import load_ladder

    games = {c.game for c in CONFIGS.values()}
    assert games == set(ether_envs.list_games())
    for name in ether_envs.list_games():  # the default configuration and 2 players, for every game
        labels = {c.label for c in CONFIGS.values() if c.game == name}
        default = ether_envs.load_game(name).num_players
        assert f"{default}p" in labels and "2p" in labels, (name, labels)
    for bench in CONFIGS.values():
        game = ether_envs.load_game(bench.game, **bench.config)
        assert bench.version == game.spec.version
        assert bench.benchmark_id == f"{bench.game}-v{game.spec.version}/{bench.label}"
        assert bench.env_id in gymnasium.registry
        assert f"ether/{bench.game}-v{bench.version}" in pettingzoo.aec_registry
        assert bench.anchors[0].spec == "random" and all(a.deals >= 1 for a in bench.anchors)
        for a in bench.anchors:
            make_agent(a.spec, game)  # every anchor plays this configuration (pretrained at every count)
        ladder = load_ladder(bench)  # stored, for this env version and these anchors
        assert ladder["game_version"] == bench.version and ladder["benchmark"] == bench.benchmark_id
        if not bench.cooperative:
            ratings = {a["spec"]: a["rating"] for a in ladder["anchors"]}
            assert ratings["random"] == 0.0
            assert ratings["heuristic"] > 0.0  # every game's heuristic beats random


def test_benchmark_config_lookup_errors():
    assert protocol.benchmark_config("ethnos").label == "4p"
    assert protocol.benchmark_config("ethnos", "2p").config == {"num_players": 2}
    with pytest.raises(ValueError, match="known: 4p, 2p"):
        protocol.benchmark_config("ethnos", "3p")
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        protocol.benchmark_config("chess")


# ---- no training code draws a held-out deal --------------------------------------------------
@pytest.fixture
def played_seeds(monkeypatch):
    """Every game seed that aethermon_collect's engine is asked to deal in this process."""
    cls = type(ether_envs.load_game("aethermon_collect"))
    seeds = []
    original = cls.new_initial_state

    def recording(self, seed=None):
        seeds.append(seed)
        return original(self, seed=seed)

    monkeypatch.setattr(cls, "new_initial_state", recording)
    return seeds


def _assert_training_only(seeds, at_least):
    drawn = [s for s in seeds if s is not None]
    assert len(drawn) >= at_least
    assert not any(is_held_out(s) for s in drawn)
    assert all(0 <= int(s) < HELD_OUT_BASE for s in drawn)


def test_the_recipes_ppo_never_plays_a_held_out_deal(played_seeds, tmp_path):
    from training.ppo import PPOConfig, train

    train(PPOConfig(game="aethermon_collect", n_envs=2, n_steps=16, total_frames=64, minibatch=16, epochs=1,
                    n_procs=0, hidden="16", eval_deals=1, eval_every=32, snapshot_every=32, checkpoint_every=0,
                    progress=False, opponents="random=1,heuristic=1,self=1", run_dir=str(tmp_path / "ppo")))
    _assert_training_only(played_seeds, at_least=4)


def test_maskable_ppo_trainer_never_plays_a_held_out_deal(played_seeds, tmp_path):
    from training.train import TrainArgs, train

    train(TrainArgs(game="aethermon_collect", total_timesteps=64, n_envs=2, n_steps=32, batch_size=32, n_epochs=1,
                    net_arch="16", eval_every=32, eval_deals=1, snapshot_every=32, checkpoint_every=0,
                    out_dir=str(tmp_path), run_name="mppo", progress=False))
    _assert_training_only(played_seeds, at_least=4)


def test_behaviour_cloning_and_the_envs_never_draw_a_held_out_deal(played_seeds):
    from ether_envs.wrappers import SingleAgentEnv
    from training.bc import demonstrations

    demonstrations("aethermon_collect", games=3, seed=0)
    env = SingleAgentEnv("aethermon_collect")
    env.reset(seed=1)
    for _ in range(20):
        env.reset()
    aec = ether_envs.make("aethermon_collect")
    aec.reset(seed=2)
    for _ in range(5):
        aec.reset()
    _assert_training_only(played_seeds, at_least=3 + 21 + 6)


# ---- rate -------------------------------------------------------------------------------------
@pytest.fixture
def tiny_bench(monkeypatch, tmp_path):
    """aethermon_collect/2p with two cheap anchors and 2 deals each, and its ladder in tmp_path."""
    from training.ladder import build_ladder

    bench = protocol.BenchmarkConfig("aethermon_collect", "2p", {}, (protocol.Anchor("random", 2),
                                                                      protocol.Anchor("heuristic", 2)))
    build_ladder(bench, ladder_dir=tmp_path / "ladders")
    return bench, tmp_path / "ladders"


def test_rate_places_an_agent_on_the_stored_ladder_and_writes_a_valid_row(tiny_bench, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    from training.rate import rate

    bench, ladders = tiny_bench
    row = rate(bench, ["mcts:simulations=8", "heuristic"], label="two runs", budget="short",
               out=tmp_path / "row", ladder_dir=ladders)
    jsonschema.validate(row, protocol.ROW_SCHEMA)
    assert row["benchmark"] == f"aethermon_collect-v{bench.version}/2p" and row["frames"] == protocol.BUDGETS["short"]
    assert [r["spec"] for r in row["runs"]] == ["mcts:simulations=8", "heuristic"]
    for r in row["runs"]:
        assert set(r["vs"]) == {"random", "heuristic"}
        for res in r["vs"].values():
            assert res["games"] == 4 and res["interval"][0] <= res["win_rate"] <= res["interval"][1]
        lo, hi = r["rating_interval"]
        assert lo <= r["rating"] <= hi
    agg = row["aggregate"]
    assert agg["runs"] == 2 and agg["vs"]["random"]["interval"][0] <= agg["vs"]["random"]["iqm"]
    assert json.loads((tmp_path / "row.json").read_text()) == row
    md = (tmp_path / "row.md").read_text().splitlines()
    assert md[0].startswith("| benchmark | agent | budget | runs | vs random | vs heuristic |")
    assert md[2].startswith(f"| aethermon_collect-v{bench.version}/2p | two runs | short (50,000 frames) | 2 |")


def test_rate_gives_the_same_row_as_the_same_matchup_in_any_order(tiny_bench):
    from training.rate import rate

    bench, ladders = tiny_bench
    a = rate(bench, ["mcts:simulations=8", "random"], ladder_dir=ladders)
    b = rate(bench, ["random", "mcts:simulations=8"], ladder_dir=ladders)
    assert a["runs"][0]["vs"] == b["runs"][1]["vs"] and a["runs"][1]["vs"] == b["runs"][0]["vs"]


def test_rate_errors_are_clear(tiny_bench, tmp_path):
    from training.rate import rate

    bench, ladders = tiny_bench
    with pytest.raises(ValueError, match="at least one agent spec"):
        rate(bench, [], ladder_dir=ladders)
    with pytest.raises(ValueError, match="duplicate specs"):
        rate(bench, ["random", "random"], ladder_dir=ladders)
    with pytest.raises(ValueError, match="unknown budget 'huge'"):
        rate(bench, ["random"], budget="huge", ladder_dir=ladders)
    with pytest.raises(ValueError, match="no stored ladder .*'ether-envs ladder aethermon_collect --config 2p'"):
        rate(bench, ["random"], ladder_dir=tmp_path / "nowhere")
    other = protocol.BenchmarkConfig("aethermon_collect", "2p", {}, (protocol.Anchor("random", 3),))
    with pytest.raises(ValueError, match="rebuild it"):
        rate(other, ["random"], ladder_dir=ladders)
    with pytest.raises(ValueError, match="is not the short budget"):
        rate(bench, ["random"], budget="short", frames=1_000_000, ladder_dir=ladders)
    with pytest.raises(ValueError, match="unknown agent kind 'nonsense'"):  # checked before any game is played
        rate(bench, ["random", "nonsense"], ladder_dir=ladders)
    with pytest.raises(ValueError, match="not among the specs"):
        rate(bench, ["random"], agents={"other": object()}, ladder_dir=ladders)
    with pytest.warns(UserWarning, match="at least 3 training seeds"):
        rate(bench, ["random"], ladder_dir=ladders)


def test_a_stored_row_is_recomputed_from_its_counts(tiny_bench, tmp_path, monkeypatch):
    """recompute() re-places the runs and re-aggregates from the row's per-anchor counts alone."""
    from training.rate import rate, recompute

    bench, ladders = tiny_bench
    monkeypatch.setitem(protocol.CONFIGS, "aethermon_collect/2p", bench)
    row = rate(bench, ["mcts:simulations=8", "heuristic", "random"], out=tmp_path / "r", ladder_dir=ladders)
    again = recompute(tmp_path / "r", ladder_dir=ladders)
    assert again["runs"] == row["runs"] and again["aggregate"] == row["aggregate"]


def test_rate_a_cooperative_game_reports_the_team_win_rate(tmp_path):
    from training.ladder import build_ladder
    from training.rate import rate

    bench = protocol.BenchmarkConfig("aetherspire", "2p", {}, (protocol.Anchor("random", 2),
                                                                protocol.Anchor("heuristic", 2)))
    build_ladder(bench, ladder_dir=tmp_path)
    row = rate(bench, ["heuristic"], ladder_dir=tmp_path)
    assert row["cooperative"] and set(row["runs"][0]["vs"]) == {"team"} and row["runs"][0]["rating"] is None
    assert row["runs"][0]["vs"]["team"]["games"] == 2


def test_rate_command_line_defaults_to_the_protocol(tiny_bench, tmp_path, monkeypatch, capsys):
    from training import cli
    from training import ladder as ladder_mod

    bench, ladders = tiny_bench
    monkeypatch.setattr(ladder_mod, "LADDER_DIR", ladders)
    monkeypatch.setitem(protocol.CONFIGS, "aethermon_collect/2p", bench)
    out = tmp_path / "cli_row"
    assert cli.main(["rate", "aethermon_collect", "heuristic", "--label", "h", "--out", str(out),
                     "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "| aethermon_collect-v0/2p | h | - | 1 |" in text and (tmp_path / "cli_row.json").exists()
    row = json.loads((tmp_path / "cli_row.json").read_text())
    assert row["held_out"]["base"] == HELD_OUT_BASE
    assert cli.main(["rate", "aethermon_collect", "nonsense_agent", "--no-progress"]) == 2
    assert "unknown agent kind 'nonsense_agent'" in capsys.readouterr().err


def test_the_pretrained_anchor_of_protocol_1_is_the_zoo_1_net():
    """`pretrained` now names the newest zoo; the protocol's anchor stays the zoo-1 net it was measured with."""
    from agents.pretrained import shipped_weights
    from training import protocol

    for bench in protocol.CONFIGS.values():
        built = protocol.anchor_agents(bench)
        assert set(built) == {"pretrained"}
        assert built["pretrained"].path == shipped_weights(zoo=protocol.ANCHOR_ZOO)[bench.game]
        assert built["pretrained"].name == "pretrained"
