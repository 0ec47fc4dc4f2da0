"""Game records: JSON round trip, and replay to the identical final state."""

import json

import numpy as np
import pytest

import ether_envs
from ether_envs.core.game import snapshot
from ether_envs.records import (GameRecord, load_record, record_episode, record_from_env, record_from_state,
                                replay, replay_states, save_record)
from game_configs import GAME_CONFIG_IDS, GAME_CONFIGS


def _random_game(name, config, seed, max_steps=None):
    game = ether_envs.load_game(name, **config)
    s = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed + 1)
    while not s.is_terminal() and (max_steps is None or len(s.history) < max_steps):
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])
    return s


@pytest.mark.parametrize("name,config", GAME_CONFIGS, ids=GAME_CONFIG_IDS)
def test_replay_reproduces_final_state_and_scores(name, config, tmp_path):
    s = _random_game(name, config, seed=17)
    rec = record_from_state(s, seed=17, players=[f"random_{p}" for p in range(s.num_players)])
    assert rec.terminal and rec.actions == s.history
    loaded = load_record(save_record(rec, tmp_path / "rec.json"))
    assert loaded == rec
    r = ether_envs.replay(loaded)
    assert snapshot(r) == snapshot(s)  # every field, the chance generator included
    assert r.scores().tolist() == s.scores().tolist() == rec.scores
    assert r.returns().tolist() == rec.returns


def test_truncated_episode_replays_mid_game():
    name, config = GAME_CONFIGS[0]
    s = _random_game(name, config, seed=4, max_steps=7)
    rec = record_from_state(s, seed=4)
    assert not rec.terminal and len(rec.actions) == 7
    assert snapshot(replay(rec)) == snapshot(s)


def test_record_episode_with_policies_and_replay_states():
    name = ether_envs.list_games()[0]

    def first_legal(state):
        return state.legal_actions()[0]

    rec = record_episode(name, first_legal, seed=9, metadata={"round": 1})
    assert rec.players == ["first_legal"] * len(rec.scores) and rec.metadata == {"round": 1}
    assert rec.version == ether_envs.__version__ and rec.game == name
    game = ether_envs.load_game(name)
    assert rec.action_names() == [game.action_to_string(a) for a in rec.actions]
    states = list(replay_states(rec))
    assert len(states) == len(rec.actions) + 1
    assert states[0].history == [] and states[-1].is_terminal()
    assert snapshot(states[-1]) == snapshot(replay(rec))
    assert states[1].history == rec.actions[:1]  # independent clones, not one live state


def test_record_episode_accepts_agents_with_act_state_player():
    class FirstLegal:
        name = "first_legal_agent"

        def act(self, state, player):
            assert player == state.current_player()
            return state.legal_actions()[0]

    name = ether_envs.list_games()[0]
    rec = record_episode(name, FirstLegal(), seed=9)
    assert set(rec.players) == {"first_legal_agent"}
    assert rec.actions == record_episode(name, lambda st: st.legal_actions()[0], seed=9).actions


def test_record_from_env_after_an_episode_seeded_or_not():
    name = ether_envs.list_games()[0]
    for seed in (123, None):
        env = ether_envs.make(name)
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        rec = record_from_env(env)
        if seed is not None:
            assert rec.seed == seed
        assert snapshot(replay(rec)) == snapshot(env.unwrapped.game_state)
    with pytest.raises(RuntimeError, match="reset"):
        record_from_env(ether_envs.make(name))


def test_record_is_plain_json_with_the_documented_keys():
    name, config = GAME_CONFIGS[0]
    rec = record_from_state(_random_game(name, config, seed=1), seed=1)
    d = json.loads(rec.to_json())
    assert {"game", "config", "seed", "actions", "scores", "returns", "terminal", "players",
            "game_version", "version", "metadata", "format"} == set(d)
    assert GameRecord.from_json(rec.to_json()) == rec
    assert GameRecord.from_dict(d) == rec


def test_tampered_record_raises_value_error():
    name, config = GAME_CONFIGS[0]
    rec = record_from_state(_random_game(name, config, seed=2), seed=2)
    bad_score = GameRecord.from_dict({**rec.to_dict(), "scores": [s + 1 for s in rec.scores]})
    with pytest.raises(ValueError, match="differs"):
        replay(bad_score)
    replay(bad_score, check=False)  # the caller may skip the check
    bad_action = GameRecord.from_dict({**rec.to_dict(), "actions": rec.actions + [rec.actions[-1]]})
    with pytest.raises(ValueError, match="does not replay"):
        replay(bad_action)
    with pytest.raises(ValueError, match="unknown keys"):
        GameRecord.from_dict({**rec.to_dict(), "colour": "red"})
    with pytest.raises(ValueError, match="newer"):
        GameRecord.from_dict({**rec.to_dict(), "format": 99})
    with pytest.raises(ValueError, match="unknown game"):
        replay({**rec.to_dict(), "game": "chess"})


@pytest.mark.parametrize("key,value,message", [
    ("game", 3, "game record field 'game' must be a game name (a string), got 3"),
    ("config", [1], "game record field 'config' must be an object of configuration fields, got [1]"),
    ("seed", "7", "game record field 'seed' must be a whole number 0..2**64-1, got '7'"),
    ("seed", True, "game record field 'seed' must be a whole number 0..2**64-1, got True"),
    ("seed", 2**64, f"game record field 'seed' must be a whole number 0..2**64-1, got {2**64}"),
    ("actions", [1, 2.5], "game record field 'actions' must be a list of action ids (whole numbers): item 1 is 2.5"),
    ("scores", 5, "game record field 'scores' must be a list of numbers, got 5"),
    ("returns", [None], "game record field 'returns' must be a list of numbers: item 0 is None"),
    ("terminal", 1, "game record field 'terminal' must be true or false, got 1"),
    ("players", "ab", "game record field 'players' must be a list of strings, got 'ab'"),
    ("game_version", "1", "game record field 'game_version' must be a whole number, got '1'"),
    ("version", 1, "game record field 'version' must be a string, got 1"),
    ("metadata", [], "game record field 'metadata' must be an object, got []"),
    ("format", "nope", "game record field 'format' must be a whole number (this ether_envs writes 1), got 'nope'"),
])
def test_a_field_of_the_wrong_type_is_named(key, value, message):
    name, config = GAME_CONFIGS[0]
    d = record_from_state(_random_game(name, config, seed=2), seed=2).to_dict()
    with pytest.raises(ValueError) as e:
        GameRecord.from_dict({**d, key: value})
    assert str(e.value) == message
    with pytest.raises(ValueError, match="not a game record: expected a JSON object, got list"):
        GameRecord.from_dict([1])


def test_record_needs_an_int_seed_and_one_label_per_seat():
    name, config = GAME_CONFIGS[0]
    s = _random_game(name, config, seed=3, max_steps=2)
    with pytest.raises(ValueError, match="int seed"):
        record_from_state(s, seed=None)
    with pytest.raises(ValueError, match="labels"):
        record_from_state(s, seed=3, players=["only_one"] * (s.num_players + 1))
    with pytest.raises(ValueError, match="policies"):
        record_episode(name, [lambda st: st.legal_actions()[0]] * 9, seed=0)


def test_replay_of_another_game_version_warns():
    name, config = GAME_CONFIGS[0]
    rec = record_from_state(_random_game(name, config, seed=3, max_steps=3), seed=3)
    old = GameRecord.from_dict({**rec.to_dict(), "game_version": rec.game_version - 1})
    with pytest.warns(UserWarning, match="rules may have changed"):
        replay(old)
