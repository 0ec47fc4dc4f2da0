"""The single-agent gymnasium view (ether_envs.wrappers.SingleAgentEnv)."""

import warnings

import numpy as np
import pytest

import ether_envs
from agents import make_agent
from ether_envs.wrappers import SingleAgentEnv, make_single_agent_env


def _legal(env_or_mask, rng):
    mask = env_or_mask.action_masks() if hasattr(env_or_mask, "action_masks") else env_or_mask
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("name", ether_envs.list_games())
def test_gymnasium_check_env_passes(name):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(SingleAgentEnv(name))


@pytest.mark.parametrize("config", [{"num_players": 2}, {"num_players": 3, "hidden_artefacts": True}])
def test_sb3_check_env_passes(config):
    from stable_baselines3.common.env_checker import check_env

    check_env(SingleAgentEnv("aethermon_collect", config), warn=True)


@pytest.mark.parametrize("name", ether_envs.list_games())
def test_every_game_every_config_plays_to_the_end(name):
    rng = np.random.default_rng(0)
    for cfg in ether_envs.load_game(name).conformance_configs:
        env = SingleAgentEnv(name, cfg, illegal_action="raise")
        obs, info = env.reset(seed=1)
        assert env.observation_space.contains(obs)
        done = False
        while not done:
            assert info["action_mask"].any()
            obs, r, term, trunc, info = env.step(_legal(env, rng))
            done = term or trunc
        assert term and r == env.state.returns()[env.seat]


def test_reward_credits_learner_when_game_ends_on_opponent_move():
    """The episode ends with the learner's return even when an opponent's move ended the game."""

    class Recorder:
        def __init__(self):
            self.agent = make_agent("random", None)
            self.moves_at = -1

        def seed(self, s):
            self.agent.seed(s)

        def act(self, state, player):
            self.moves_at = len(state.history) + 1
            return self.agent.act(state, player)

    opp = Recorder()
    env = SingleAgentEnv("aethermon_collect", {"num_players": 2}, opponents=opp, learner_seat=0)
    rng = np.random.default_rng(0)
    ended_by_opponent = 0
    for ep in range(40):
        env.reset(seed=ep)
        term = False
        while not term:
            _obs, reward, term, _trunc, info = env.step(_legal(env, rng))
        assert reward == env.state.returns()[0] != 0
        assert np.array_equal(info["returns"], env.state.returns())
        ended_by_opponent += opp.moves_at == len(env.state.history)
    assert ended_by_opponent > 0


def test_random_seat_covers_all_seats_and_fixed_seat_stays():
    env = SingleAgentEnv("aethermon_collect", {"num_players": 3})
    seats = {env.reset(seed=s)[1]["seat"] for s in range(30)}
    assert seats == {0, 1, 2}
    env = SingleAgentEnv("aethermon_collect", {"num_players": 3}, learner_seat=2)
    assert {env.reset(seed=s)[1]["seat"] for s in range(10)} == {2}
    with pytest.raises(ValueError, match="learner_seat"):
        SingleAgentEnv("aethermon_collect", {"num_players": 2}, learner_seat=2)


def test_same_seed_same_episode():
    def run():
        env = SingleAgentEnv("aethermon_collect", {"num_players": 3}, opponents=make_agent("heuristic", ether_envs.load_game("aethermon_collect", num_players=3)))
        obs, _ = env.reset(seed=7)
        rng = np.random.default_rng(1)
        trace = [obs.sum()]
        term = trunc = False
        while not (term or trunc):
            obs, r, term, trunc, _ = env.step(_legal(env, rng))
            trace.append(obs.sum())
        return trace, env.state.history

    assert run() == run()


def test_observation_is_the_learners_view_and_mask_matches_legal_actions():
    env = SingleAgentEnv("aethermon_collect", {"num_players": 2})
    obs, info = env.reset(seed=3)
    s = env.state
    assert s.current_player() == env.seat
    assert np.array_equal(obs, s.observation_tensor(env.seat))
    assert np.array_equal(env.action_masks(), s.legal_actions_mask().astype(bool))
    assert np.array_equal(info["action_mask"], s.legal_actions_mask())


def test_illegal_action_lose_mode_ends_episode_with_penalty():
    env = SingleAgentEnv("aethermon_collect", {"num_players": 2})
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _obs, r, term, trunc, info = env.step(illegal)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)


def test_illegal_action_raise_mode_raises_and_changes_nothing():
    env = SingleAgentEnv("aethermon_collect", {"num_players": 2}, illegal_action="raise")
    env.reset(seed=0)
    before = list(env.state.history)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)
    assert env.state.history == before


def test_opponents_sequence_and_pool_callable():
    game = ether_envs.load_game("aethermon_collect", num_players=3)
    seq = [make_agent("heuristic", game), make_agent("random", game)]
    env = SingleAgentEnv("aethermon_collect", {"num_players": 3}, opponents=seq, learner_seat=0)
    env.reset(seed=0)
    assert env._seat_agents == {1: seq[0], 2: seq[1]}
    drawn = []
    env.set_opponents(lambda rng: drawn.append(1) or seq[1])
    env.reset(seed=1)
    assert drawn == [1] and env._seat_agents == {1: seq[1], 2: seq[1]}


@pytest.mark.parametrize("vec", ["dummy", "subproc"])
def test_vec_env_masks_correct_after_auto_reset(vec):
    """Under DummyVecEnv / SubprocVecEnv the masks SB3 reads (env_method('action_masks')) always
    belong to the state the returned observation shows: also right after an automatic reset."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    cls = DummyVecEnv if vec == "dummy" else SubprocVecEnv
    thunks = [make_single_agent_env("aethermon_collect", {"num_players": 2}, illegal_action="raise")] * 2
    venv = cls(thunks) if vec == "dummy" else cls(thunks, start_method="fork")
    try:
        venv.seed(5)
        obs = venv.reset()
        rng = np.random.default_rng(0)
        resets = 0
        for _ in range(60):
            masks = np.stack(venv.env_method("action_masks"))
            states, seats = venv.get_attr("state"), venv.get_attr("seat")
            for i in range(2):
                assert masks[i].any()
                assert np.array_equal(masks[i], states[i].legal_actions_mask().astype(bool))
                assert np.array_equal(obs[i], states[i].observation_tensor(seats[i]))
            obs, _r, dones, infos = venv.step(np.array([_legal(m, rng) for m in masks]))
            resets += int(dones.sum())
            for i in np.flatnonzero(dones):
                assert "terminal_observation" in infos[i]
        assert resets >= 2
    finally:
        venv.close()


def test_score_shaping_pays_score_gains_and_telescopes_to_the_outcome():
    """With score_shaping the rewards follow the score margin during the game, and the episode's
    rewards still sum to the game outcome (the shaping terms telescope to zero)."""
    env = SingleAgentEnv("aethermon_collect", {"num_players": 2}, score_shaping=0.1)
    rng = np.random.default_rng(0)
    nonzero = 0
    for ep in range(10):
        env.reset(seed=ep)
        total, term = 0.0, False
        while not term:
            _obs, r, term, _trunc, _ = env.step(_legal(env, rng))
            total += r
            if not term:
                scores = env.state.scores()
                assert env._potential == pytest.approx(scores[env.seat] - scores[1 - env.seat])
                nonzero += r != 0
        assert total == pytest.approx(env.state.returns()[env.seat])
    assert nonzero > 10
    with pytest.raises(ValueError, match="score_shaping"):
        SingleAgentEnv("aethermon_collect", score_shaping=-1)


@pytest.mark.parametrize("illegal_action", ["raise", "lose"])
def test_step_takes_0d_integer_arrays_and_refuses_floats_bools_and_other_shapes(illegal_action):
    env = SingleAgentEnv("aethermon_collect", {"num_players": 2}, illegal_action=illegal_action)
    env.reset(seed=0)
    a = int(np.flatnonzero(env.action_masks())[0])
    before = list(env.state.history)
    for bad in (float(a), True, np.array([a]), np.array(float(a)), np.array(True), 10**6):
        with pytest.raises(ValueError, match=r"not in Discrete\(183\)"):
            env.step(bad)
        assert env.state.history == before
    env.step(np.array(a))
    assert env.state.history[len(before)] == a


def test_step_before_reset_and_max_steps_are_clear_errors():
    env = SingleAgentEnv("aethermon_collect", {"num_players": 2})
    with pytest.raises(RuntimeError, match=r"step\(\) before reset\(\)"):
        env.step(0)
    for bad in (True, 0, 1.5, "3"):
        with pytest.raises(ValueError, match="max_steps must be None or an int >= 1"):
            SingleAgentEnv("aethermon_collect", {"num_players": 2}, max_steps=bad)
    assert SingleAgentEnv("aethermon_collect", {"num_players": 2}, max_steps=np.int64(4)).max_steps == 4
