"""MaskablePPO on the single-agent view: never a masked-out action; model metadata."""

import numpy as np
import pytest
from filelock import FileLock

import ether_envs
from agents import make_agent
from agents.ppo import ModelMismatchError, PPOAgent, check_compatible, model_metadata, read_metadata, save_model
from ether_envs.wrappers import SingleAgentEnv


@pytest.fixture(scope="session")
def tiny_model(shared_tmp):
    """A MaskablePPO trained for one short rollout with illegal actions raising (so any
    masked-out choice during training would fail), saved with metadata."""
    from sb3_contrib import MaskablePPO

    env = SingleAgentEnv("aethermon_collect", {"num_players": 2}, illegal_action="raise")
    path = shared_tmp / "tiny_model" / "tiny.zip"
    with FileLock(str(path.parent) + ".lock"):  # trained once per session, shared by xdist workers
        if not path.exists():
            model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu",
                                policy_kwargs={"net_arch": [32]})
            model.learn(total_timesteps=128)
            save_model(model, path, env.game, timesteps=128)
    return MaskablePPO.load(path, device="cpu"), path


def test_maskable_ppo_never_chooses_masked_out_action(tiny_model):
    model, _ = tiny_model
    env = SingleAgentEnv("aethermon_collect", {"num_players": 2}, illegal_action="raise")
    for ep in range(15):
        obs, _ = env.reset(seed=ep)
        done = False
        while not done:
            mask = env.action_masks()
            for deterministic in (True, False):
                a, _ = model.predict(obs, action_masks=mask, deterministic=deterministic)
                assert mask[int(a)]
            obs, _r, term, trunc, _ = env.step(int(a))
            done = term or trunc


def test_ppo_agent_plays_only_legal_actions_both_modes(tiny_model):
    _, path = tiny_model
    game = ether_envs.load_game("aethermon_collect", num_players=2)
    for det in ("true", "false"):
        agent = make_agent(f"ppo:{path},deterministic={det}", game, seed=0)
        for seed in range(5):
            s = game.new_initial_state(seed)
            while not s.is_terminal():
                p = s.current_player()
                a = agent.act(s, p)
                assert a in s.legal_actions()
                s.apply_action(a)


def test_metadata_records_game_config_and_layout(tiny_model):
    _, path = tiny_model
    meta = read_metadata(path)
    game = ether_envs.load_game("aethermon_collect", num_players=2)
    assert meta["game"] == "aethermon_collect" and meta["config"]["num_players"] == 2
    assert meta["observation_layout"] == model_metadata(game)["observation_layout"]
    assert meta["timesteps"] == 128
    check_compatible(meta, game)


def test_model_refuses_mismatched_config_with_clear_error(tiny_model):
    _, path = tiny_model
    game3 = ether_envs.load_game("aethermon_collect", num_players=3)
    with pytest.raises(ModelMismatchError, match=r"config\.num_players: model 2, env 3"):
        PPOAgent(game3, str(path))
    hidden = ether_envs.load_game("aethermon_collect", num_players=2, artefacts="none")
    with pytest.raises(ModelMismatchError, match=r"config\.artefacts"):
        make_agent(f"ppo:{path}", hidden)


def test_a_config_field_the_model_does_not_name_counts_as_its_default(tiny_model):
    """A field added to Config after a model was saved (a rule variant, default = the
    rulebook) keeps the model loadable while the game uses the default, not otherwise."""
    _, path = tiny_model
    meta = read_metadata(path)
    older = {**meta, "config": {k: v for k, v in meta["config"].items() if k != "artefacts"}}
    check_compatible(older, ether_envs.load_game("aethermon_collect", num_players=2))
    with pytest.raises(ModelMismatchError, match=r"config\.artefacts: model 'pairs', env 'none'"):
        check_compatible(older, ether_envs.load_game("aethermon_collect", num_players=2, artefacts="none"))


def test_model_refuses_another_game_and_changed_layout(tiny_model):
    _, path = tiny_model
    game = ether_envs.load_game("aethermon_collect", num_players=2)
    meta = read_metadata(path)
    with pytest.raises(ModelMismatchError, match="game: model 'other_game'"):
        check_compatible({**meta, "game": "other_game"}, game)
    layout = [list(x) for x in meta["observation_layout"]]
    layout[0][0] = "renamed"
    with pytest.raises(ModelMismatchError, match="observation_layout"):
        check_compatible({**meta, "observation_layout": layout}, game)


def test_plain_sb3_zip_loads_with_a_warning_and_a_missing_one_is_refused(tmp_path, tiny_model):
    model, _ = tiny_model
    plain = tmp_path / "plain.zip"
    model.save(plain)
    game = ether_envs.load_game("aethermon_collect", num_players=2)
    with pytest.warns(UserWarning, match="records no game or config"):
        PPOAgent(game, str(plain))
    with pytest.raises(FileNotFoundError):
        PPOAgent(game, str(tmp_path / "nope.zip"))


def test_ppo_agent_rejects_empty_mask(tiny_model):
    model, _ = tiny_model
    agent = PPOAgent.from_model(model)
    with pytest.raises(ValueError, match="no legal action"):
        agent.act_observation(np.zeros(2197, np.float32), np.zeros(183, np.int8))


def test_skip_mlp_features_keep_the_observation_and_load_back(tmp_path):
    """SkipMLP passes the raw observation beside the MLP output; a model using it saves, loads
    through PPOAgent and plays legal actions."""
    import torch
    from sb3_contrib import MaskablePPO

    from agents.networks import SkipMLP

    env = SingleAgentEnv("aethermon_collect", {"num_players": 2})
    ext = SkipMLP(env.observation_space, hidden=(16,))
    obs = torch.rand(3, env.observation_space.shape[0])
    out = ext(obs)
    assert out.shape == (3, env.observation_space.shape[0] + 16) and ext.features_dim == out.shape[1]
    assert torch.equal(out[:, : obs.shape[1]], obs)
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"features_extractor_class": SkipMLP,
                                       "features_extractor_kwargs": {"hidden": (16,)}, "net_arch": []})
    path = save_model(model, tmp_path / "skip", env.game)
    agent = PPOAgent(env.game, str(path))
    s = env.game.new_initial_state(0)
    while not s.is_terminal():
        s.apply_action(agent.act(s, s.current_player()))
