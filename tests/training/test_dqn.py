"""Masked double DQN (``training.dqn``) on tiny budgets: the masked helpers never pick or
bootstrap from an illegal action, a run writes a ``pretrained``-loadable weight file, and the
same seed gives the same weights."""

import csv
import functools

import numpy as np
import pytest
import torch

import ether_envs
from agents import make_agent
from agents.pretrained import MLPPolicy
from training import dqn
from training.dqn import (DQNConfig, ReplayBuffer, double_q_target, epsilon_at, epsilon_greedy, masked_argmax,
                          next_transition)
from training.evaluate import play_game

TINY = dict(game="aethermon_collect", total_frames=2000, n_envs=4, hidden="32", buffer_size=2000, batch_size=32,
            learning_starts=600, train_every=8, target_every=400, log_every=500, progress=False)
"""2,000 learner frames in 4 games, a 32-unit net: a few seconds."""


def train_tiny(run_dir, **overrides):
    return dqn.train(DQNConfig(**{**TINY, **overrides, "run_dir": str(run_dir)}))


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """A tiny run whose envs raise on an illegal action (instead of ending the game), so any
    illegal choice during training fails the run."""
    import ether_envs.vector as vector

    run = tmp_path_factory.mktemp("dqn") / "run"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(vector, "make_vec_env", functools.partial(vector.make_vec_env, illegal_action="raise"))
        path = train_tiny(run)
    return run, path


# ---- the masked helpers -----------------------------------------------------------------
def test_masked_argmax_ignores_illegal_actions():
    q = torch.tensor([[5.0, 1.0, 2.0, 9.0], [0.0, -3.0, -1.0, 7.0]])
    mask = torch.tensor([[False, True, True, False], [False, True, True, False]])
    assert masked_argmax(q, mask).tolist() == [2, 2]


def test_epsilon_greedy_picks_only_legal_actions():
    rng = np.random.default_rng(0)
    q = np.array([[10.0, 0.0, 1.0, 50.0, -2.0]] * 4000)
    mask = np.zeros_like(q, dtype=bool)
    mask[:, [1, 2, 4]] = True
    explore = epsilon_greedy(q, mask, 1.0, rng)
    assert set(explore.tolist()) == {1, 2, 4}  # every legal action, never an illegal one
    counts = np.bincount(explore, minlength=5)[[1, 2, 4]]
    assert counts.min() > 1200  # uniform over the 3 legal actions (expected 1,333 each)
    assert set(epsilon_greedy(q, mask, 0.0, rng).tolist()) == {2}  # greedy: the best LEGAL action
    mixed = epsilon_greedy(q, mask, 0.3, rng)
    assert mask[0, mixed].all() and 0.75 < (mixed == 2).mean() < 0.85  # 0.7 + 0.3 / 3


def test_epsilon_greedy_with_a_single_legal_action_per_row():
    rng = np.random.default_rng(1)
    q = rng.normal(size=(50, 7))
    legal = rng.integers(7, size=50)
    mask = np.zeros((50, 7), dtype=bool)
    mask[np.arange(50), legal] = True
    for eps in (0.0, 0.5, 1.0):
        assert (epsilon_greedy(q, mask, eps, rng) == legal).all()


def test_double_q_target_bootstraps_only_from_legal_next_actions():
    online = torch.tensor([[100.0, 2.0, 1.0], [0.0, 0.0, 0.0], [3.0, 1.0, 2.0]])
    target = torch.tensor([[-50.0, 7.0, 11.0], [4.0, 5.0, 6.0], [8.0, 9.0, 10.0]])
    mask = torch.tensor([[False, True, True], [False, False, False], [True, True, True]])
    reward = torch.tensor([0.0, 1.0, 0.5])
    done = torch.tensor([0.0, 1.0, 0.0])
    y = double_q_target(online, target, mask, reward, done, gamma=0.5)
    # row 0: the online net's best LEGAL next action is 1 (not the illegal 0), valued by the
    # target net at 7 (double DQN: not the target's own max, 11); row 1: finished, no bootstrap,
    # all-False mask and all; row 2: online argmax 0, target value 8
    assert y.tolist() == [3.5, 1.0, 4.5]
    assert torch.isfinite(y).all()


def test_next_transition_uses_the_terminal_observation_of_finished_games():
    from ether_envs.vector import make_vec_env

    venv = make_vec_env("aethermon_collect", None, n_envs=3, vec="inprocess")
    venv.seed(0)
    obs, rng = venv.reset(), np.random.default_rng(0)
    seen_done = False
    for _ in range(60):
        mask = venv.action_masks()
        obs, _r, done, infos = venv.step(epsilon_greedy(np.zeros(mask.shape), mask, 1.0, rng))
        next_mask = venv.action_masks()
        nobs, nmask = next_transition(obs, next_mask, done, infos)
        for i in range(3):
            if done[i]:
                seen_done = True
                np.testing.assert_array_equal(nobs[i], infos[i]["terminal_observation"])
                assert not nmask[i].any()
                assert not np.array_equal(nobs[i], obs[i])  # the env already shows the next game
            else:
                np.testing.assert_array_equal(nobs[i], obs[i])
                np.testing.assert_array_equal(nmask[i], next_mask[i])
                assert nmask[i].any()
    venv.close()
    assert seen_done


def test_replay_buffer_is_a_ring():
    buf = ReplayBuffer(5, obs_size=2, num_actions=3)
    for step in range(3):
        a = np.array([2 * step, 2 * step + 1])
        obs = np.stack([a, a], axis=1).astype(np.float32)
        mask = np.ones((2, 3), bool)
        buf.add(obs, mask, a, a.astype(np.float32), obs + 100, mask, np.zeros(2, np.float32))
    assert len(buf) == 5 and buf.full
    assert sorted(buf.action.tolist()) == [1, 2, 3, 4, 5]  # transition 0 was overwritten
    assert (buf.next_obs[:, 0] == buf.obs[:, 0] + 100).all() and (buf.reward == buf.action).all()
    batch = buf.sample(64, np.random.default_rng(0))
    assert set(batch["action"].tolist()) <= {1, 2, 3, 4, 5} and batch["obs"].shape == (64, 2)


def test_epsilon_schedule():
    cfg = DQNConfig(total_frames=1000, start_e=1.0, end_e=0.1, exploration_fraction=0.5)
    assert epsilon_at(cfg, 0) == 1.0
    assert epsilon_at(cfg, 250) == pytest.approx(0.55)
    assert epsilon_at(cfg, 500) == pytest.approx(0.1) and epsilon_at(cfg, 900) == pytest.approx(0.1)


# ---- a tiny run -------------------------------------------------------------------------
def test_tiny_run_writes_a_policy_that_pretrained_plays(tiny_run):
    run, path = tiny_run
    assert path == run / "policy.npz"
    game = ether_envs.load_game("aethermon_collect")
    agent = make_agent(f"pretrained:path={path}", game, seed=0)
    returns, _scores, steps = play_game(game, [agent, make_agent("random", game, seed=1)], seed=3)
    assert steps > 0 and sorted(returns.tolist()) == [-1.0, 1.0]
    policy = MLPPolicy.load(path)
    meta = policy.metadata
    assert meta["training"] == {"algorithm": "dqn", "frames": 2000, "minutes": meta["training"]["minutes"],
                                "seed": 0, "hidden": [32], "opponents": "heuristic=0.7,random=0.3"}
    assert len(meta["encoder_fingerprint"]) == 64 and meta["game"] == "aethermon_collect"
    assert not policy.value[0].any() and not policy.value[1].any()  # DQN has no value head: zeros
    obs = game.new_initial_state(seed=0).observation_tensor(0)
    assert policy.value_of(obs) == 0.0 and policy.logits(obs).shape == (game.num_distinct_actions(),)


def test_tiny_run_progress_csv(tiny_run):
    run, _ = tiny_run
    with open(run / "progress.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["frames"]) for r in rows] == [500, 1000, 1500, 2000]
    assert {"frames", "minutes", "episodes", "mean_return_100", "loss", "epsilon"} <= set(rows[0])
    assert rows[0]["loss"] == "" and float(rows[-1]["loss"]) > 0  # no learning before learning_starts
    assert int(rows[-1]["episodes"]) > int(rows[0]["episodes"]) > 0
    assert -1.0 <= float(rows[-1]["mean_return_100"]) <= 1.0
    assert float(rows[-1]["epsilon"]) == pytest.approx(0.05)


def test_same_seed_same_weights(tiny_run, tmp_path):
    _, path = tiny_run
    first = MLPPolicy.load(path).arrays()
    again = MLPPolicy.load(train_tiny(tmp_path / "again")).arrays()
    for name, array in first.items():
        if name != "metadata":
            np.testing.assert_array_equal(array, again[name], err_msg=name)
    other = MLPPolicy.load(train_tiny(tmp_path / "other", seed=1, total_frames=800)).arrays()
    assert not np.array_equal(first["hidden_0.weight"], other["hidden_0.weight"])


@pytest.mark.parametrize("bad, match", [({"opponents": "heuristic=1,self=1"}, "self"), ({"seed": -1}, "seed"),
                                        ({"seed": 2**63}, "seed"), ({"n_envs": 0}, "n_envs"),
                                        ({"buffer_size": 2}, "buffer_size"), ({"end_e": 1.5}, "end_e"),
                                        ({"opponents": "nosuchagent=1"}, "opponents")])
def test_bad_options_are_refused_before_anything_is_created(tmp_path, bad, match):
    with pytest.raises(ValueError, match=match):
        train_tiny(tmp_path / "run", **bad)
    assert not (tmp_path / "run").exists()


def test_command_line(tmp_path, capsys):
    path = dqn.main(["aethermon_collect", "--total-frames", "64", "--n-envs", "2", "--hidden", "8",
                     "--learning-starts", "32", "--batch-size", "8", "--run-dir", str(tmp_path / "cli"),
                     "--no-progress"])
    assert path.exists() and "weights written" in capsys.readouterr().out
    assert MLPPolicy.load(path).metadata["training"]["frames"] == 64
