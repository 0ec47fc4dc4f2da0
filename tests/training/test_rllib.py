"""training.rllib: the turn-based MultiAgentEnv adapter, the masked RLModule, and one tiny
training iteration on Ray RLlib through the CLI (a local Ray instance, one env runner actor).

Skipped only when Ray RLlib is not installed (the ``distributed`` extra; ``make test`` installs it).
All tests share one xdist group: Ray starts once per worker, never in two workers at a time.
"""

import csv
import json
import math

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed: pip install -e '.[distributed]' (make test does)")

import ether_envs  # noqa: E402
from agents import make_agent  # noqa: E402
from agents.ppo import ModelMismatchError  # noqa: E402
from training import cli  # noqa: E402
from training.rllib_env import TurnBasedMultiAgentEnv  # noqa: E402

pytestmark = pytest.mark.xdist_group("ray")


def _play_random(env, seed):
    """One random legal game through the adapter; returns the last step's dicts and the step count."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps = 0
    while True:
        assert len(obs) == 1, f"mid-game observations for {sorted(obs)}, expected the player to act only"
        (agent, o), = obs.items()
        assert agent == env.raw.agent_selection
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        obs, rewards, terms, truncs, infos = env.step({agent: action})
        steps += 1
        if terms["__all__"] or truncs["__all__"]:
            return obs, rewards, terms, truncs, infos, steps
        assert rewards == {next(iter(obs)): 0.0}


@pytest.mark.parametrize("game", ether_envs.list_games())
def test_turn_based_env_game_end_every_seat_gets_its_return(game):
    env = TurnBasedMultiAgentEnv({"game": game, "config": {}})
    obs, rewards, terms, truncs, infos, steps = _play_random(env, seed=3)
    state = env.raw.game_state
    assert state.is_terminal() and steps == len(state.history)
    assert sorted(obs) == sorted(rewards) == sorted(env.possible_agents)
    returns = state.returns()
    for seat, agent in enumerate(env.possible_agents):
        assert rewards[agent] == pytest.approx(float(returns[seat]))
        assert terms[agent] != truncs[agent]
        assert not obs[agent]["action_mask"].any()
        np.testing.assert_array_equal(infos[agent]["scores"], state.scores())
    assert env.agents == []


def test_turn_based_env_illegal_action_raises_state_untouched():
    env = TurnBasedMultiAgentEnv({"game": "aethermon_collect", "config": {"num_players": 3}})
    obs, _ = env.reset(seed=0)
    (agent, o), = obs.items()
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step({agent: illegal})
    assert env.raw.game_state.history == []
    other = next(a for a in env.possible_agents if a != agent)
    with pytest.raises(ValueError, match="to act"):
        env.step({other: 0})


def test_masked_module_samples_only_legal_actions():
    import torch
    from ray.rllib.core.columns import Columns

    from agents.rllib_agent import MaskedActorCritic

    env = TurnBasedMultiAgentEnv({"game": "ethnos", "config": {"num_players": 3}})
    agent = env.possible_agents[0]
    module = MaskedActorCritic(observation_space=env.observation_spaces[agent],
                               action_space=env.action_spaces[agent], model_config={"hidden": [16]})
    obs, _ = env.reset(seed=1)
    (_, o), = obs.items()
    batch = {Columns.OBS: {"observation": torch.as_tensor(o["observation"][None]).repeat(2000, 1),
                           "action_mask": torch.as_tensor(o["action_mask"][None]).repeat(2000, 1)}}
    logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
    sampled = torch.distributions.Categorical(logits=logits).sample().numpy()
    legal = set(np.flatnonzero(o["action_mask"]).tolist())
    assert set(sampled.tolist()) <= legal and len(set(sampled.tolist())) > 1
    values = module.compute_values(batch)
    assert values.shape == (2000,) and torch.isfinite(values).all()
    zero = {Columns.OBS: {"observation": batch[Columns.OBS]["observation"][:1],
                          "action_mask": torch.zeros_like(batch[Columns.OBS]["action_mask"][:1])}}
    probs = torch.softmax(module.forward_inference(zero)[Columns.ACTION_DIST_INPUTS], -1)
    assert torch.isfinite(probs).all()  # terminal observations (all-zero mask): no NaN


def test_cli_train_rllib_one_iteration_learns_saves_and_evaluates(tmp_path, capsys):
    argv = ["train", "aethermon_collect", "--backend", "rllib", "--config", "num_players=2",
            "--iterations", "1", "--train-batch-size", "256", "--minibatch-size", "64", "--num-epochs", "2",
            "--num-env-runners", "1", "--net-arch", "32", "--seed", "0",
            "--eval-deals", "2", "--eval-opponents", "random", "--out-dir", str(tmp_path), "--run-name", "run"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    run = tmp_path / "run"
    rows = list(csv.DictReader(open(run / "progress.csv")))
    assert len(rows) == 1
    row = rows[0]
    # samples came back from the env runner actor: whole games (each with every seat's final
    # reward), every action drawn from the masked policy (an illegal one raises in the env)
    assert int(row["env_steps"]) >= 256 and int(row["episodes"]) >= 5
    for key in ("policy_loss", "vf_loss", "entropy"):
        assert math.isfinite(float(row[key])), key
    assert float(row["vf_loss"]) > 0 and float(row["entropy"]) > 0
    meta = json.loads((run / "checkpoint" / "ether_envs.json").read_text())
    assert meta["game"] == "aethermon_collect" and meta["config"]["num_players"] == 2
    evals = list(csv.DictReader(open(run / "eval.csv")))
    assert [e["opponent"] for e in evals] == ["random"] and int(evals[0]["games"]) == 4
    assert 0.0 <= float(evals[0]["win_rate"]) <= 1.0
    assert "vs random: win rate" in out and "checkpoint saved" in out

    # the exported policy is an agent: plays whole games through the engine, legal moves only
    game = ether_envs.load_game("aethermon_collect", num_players=2)
    agent = make_agent(f"rllib:{run / 'checkpoint'}", game, seed=0)
    state = game.new_initial_state(seed=5)
    while not state.is_terminal():
        state.apply_action(agent.act(state, state.current_player()))
    with pytest.raises(ModelMismatchError, match="num_players"):
        make_agent(f"rllib:{run / 'checkpoint'}", ether_envs.load_game("aethermon_collect", num_players=3))


@pytest.mark.parametrize("bad", [["--iterations", "-1"], ["--iterations", "1", "--net-arch", "0"]])
def test_cli_train_rllib_rejects_bad_budgets_and_layers_before_training(bad, capsys):
    assert cli.main(["train", "aethermon_collect", "--backend", "rllib", *bad]) == 2
    assert "must " in capsys.readouterr().err
