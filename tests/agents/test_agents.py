"""Agents: spec parsing, legality at every step, information hygiene, MCTS strength."""

import re

import numpy as np
import pytest

import ether_envs
from agents import HeuristicAgent, MCTSAgent, RandomAgent, make_agent, parse_spec
from agents.heuristic import load_heuristic
from training.evaluate import play_game, run_tournament

GAMES = ether_envs.list_games()


def test_parse_spec_kinds_args_and_typed_values():
    assert parse_spec("random") == ("random", [], {})
    assert parse_spec("mcts:simulations=200,c=1.5") == ("mcts", [], {"simulations": 200, "c": 1.5})
    assert parse_spec("ppo:runs/a.zip,deterministic=false") == ("ppo", ["runs/a.zip"], {"deterministic": False})


@pytest.mark.parametrize("spec", ["", "mcts:", "mcts:simulations=5,", "nonsense"])
def test_make_agent_bad_spec_raises_value_error(spec):
    game = ether_envs.load_game("aethermon_collect")
    with pytest.raises(ValueError):
        make_agent(spec, game)


def test_mcts_bad_arguments_raise_value_error():
    with pytest.raises(ValueError, match="simulations"):
        MCTSAgent(simulations=0)
    with pytest.raises(ValueError, match="rollouts"):
        make_agent("mcts:rollouts=3", ether_envs.load_game("aethermon_collect"))


def test_option_free_kinds_and_directory_paths_are_refused_clearly(tmp_path):
    game = ether_envs.load_game("aethermon_collect")
    for spec, message in [("random:foo", "agent spec 'random:foo': random takes no options (write just 'random')"),
                          ("heuristic:depth=2", "agent spec 'heuristic:depth=2': heuristic takes no options"),
                          (f"pretrained:path={tmp_path}", f"{tmp_path} is a directory, not a weight file")]:
        with pytest.raises(ValueError) as e:
            make_agent(spec, game)
        assert str(e.value).startswith(message)
    from agents.ppo import read_metadata

    with pytest.raises(ValueError, match="is a directory, not a model file"):
        read_metadata(tmp_path)


def test_heuristic_missing_for_unknown_game_names_the_file():
    with pytest.raises(ValueError, match="agents/heuristics/no_such_game.py"):
        load_heuristic("no_such_game")


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_heuristic(name):
    assert callable(load_heuristic(name))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("spec", ["random", "heuristic"])
def test_agents_play_legal_actions_in_every_conformance_config(name, spec):
    """Every agent finishes games in every configuration; play_game raises on any illegal action."""
    for cfg in ether_envs.load_game(name).conformance_configs:
        game = ether_envs.load_game(name, **cfg)
        agents = [make_agent(spec, game, seed=p) for p in range(game.num_players)]
        returns, scores, steps = play_game(game, agents, seed=3)
        assert returns.shape == (game.num_players,) and steps > 0


@pytest.mark.parametrize("name", GAMES)
def test_mcts_plays_legal_actions_against_heuristic(name):
    """MCTS (a few simulations: rollouts cost a whole game each) in the default configuration and,
    where the game has one, a hidden-information configuration."""
    configs = [{}] + [c for c in ether_envs.load_game(name).conformance_configs
                      if ether_envs.load_game(name, **c).has_hidden_information()][:1]
    for cfg in configs:
        game = ether_envs.load_game(name, **cfg)
        agents = [make_agent("mcts:simulations=3" if p == 0 else "heuristic", game, seed=p)
                  for p in range(game.num_players)]
        returns, _scores, steps = play_game(game, agents, seed=4)
        assert returns.shape == (game.num_players,) and steps > 0


@pytest.mark.parametrize("spec", ["random", "heuristic", "mcts:simulations=10"])
def test_agent_same_seed_same_game(spec):
    game = ether_envs.load_game("aethermon_collect")
    runs = []
    for _ in range(2):
        agents = [make_agent(spec, game, seed=11 + p) for p in range(2)]
        runs.append(play_game(game, agents, seed=5)[1].tolist())
    assert runs[0] == runs[1]


def test_state_agents_do_not_change_the_state_they_look_at():
    game = ether_envs.load_game("aethermon_collect", num_players=3, hidden_artefacts=True)
    state = game.new_initial_state(seed=2)
    for spec in ("heuristic", "mcts:simulations=10"):
        agent = make_agent(spec, game, seed=0)
        before = ether_envs.core.snapshot(state)
        agent.act(state, state.current_player())
        assert ether_envs.core.snapshot(state) == before



def test_hidden_information_agents_search_only_determinizations(monkeypatch):
    """Heuristic, MCTS and rollout look ahead only on ``resample_hidden`` copies: on a
    hidden-information config they call it, and never clone the true state (rollout: one
    determinization of the true state per round)."""
    game = ether_envs.load_game("aethermon_collect", num_players=3, hidden_artefacts=True)
    state = game.new_initial_state(seed=4)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    cls = type(state)
    calls = {"resample": 0, "of_true_state": 0, "inside": False}
    orig_resample = cls.resample_hidden

    def resample(self, player, rng):
        calls["resample"] += 1
        calls["of_true_state"] += self is state
        calls["inside"] = True
        try:
            return orig_resample(self, player, rng)
        finally:
            calls["inside"] = False

    true_clone = cls.clone

    def guarded_clone(self):
        if self is state and not calls["inside"]:
            pytest.fail("agent cloned the true state (would see hidden information)")
        return true_clone(self)

    monkeypatch.setattr(cls, "resample_hidden", resample)
    monkeypatch.setattr(cls, "clone", guarded_clone)
    for spec in ("heuristic", "mcts:simulations=5", "rollout:rollouts=3"):
        calls["resample"] = calls["of_true_state"] = 0
        make_agent(spec, game, seed=0).act(state, state.current_player())
        assert calls["resample"] >= 1, spec
        if spec.startswith("rollout"):
            assert calls["of_true_state"] == 3


def test_env_level_and_engine_level_agree_for_random_agent():
    env = ether_envs.make("aethermon_collect")
    env.reset(seed=1)
    a1, a2 = RandomAgent(), RandomAgent()
    a1.seed(3)
    a2.seed(3)
    raw = env.unwrapped
    assert a1.act_env(env) == a2.act(raw.game_state, raw.game_state.current_player())
    h = HeuristicAgent(raw.game)
    h.seed(0)
    assert h.act_env(env) in raw.game_state.legal_actions()


def test_random_agent_uniform_over_mask():
    agent = RandomAgent()
    agent.seed(0)
    mask = np.zeros(10, dtype=np.int8)
    mask[[2, 7]] = 1
    picks = [agent.act_observation(np.zeros(3, np.float32), mask) for _ in range(200)]
    assert set(picks) == {2, 7} and 60 < picks.count(2) < 140


def test_mcts_beats_random_on_aethermon_collect_fixed_seeds():
    """MCTS (30 simulations) against random, 2 players, 6 deals x both seats."""
    res = run_tournament("aethermon_collect", ["mcts:simulations=30", "random"], deals=6, seed=100, progress=False)
    r = res.pairing("mcts:simulations=30", "random")
    assert r.games == 12
    assert r.win_rate >= 0.8 and r.win_low > 0.5


def test_heuristic_beats_random_on_aethermon_collect_fixed_seeds():
    res = run_tournament("aethermon_collect", ["heuristic", "random"], deals=20, seed=200, progress=False)
    assert res.pairing("heuristic", "random").win_low > 0.7


WEIRD = ["a,b=c d", "it's, =x", 'say "hi"', " lead", "1", "true", "plain"]


@pytest.mark.parametrize("text", WEIRD)
def test_quote_spec_value_round_trips_through_parse_spec(text):
    from agents import quote_spec_value

    assert parse_spec(f"ppo:{quote_spec_value(text)},deterministic=false") == ("ppo", [text], {"deterministic": False})
    assert parse_spec(f"pretrained:path={quote_spec_value(text)}") == ("pretrained", [], {"path": text})


def test_spec_values_in_quotes_may_hold_commas_equals_and_spaces():
    assert parse_spec("ppo:path='runs/a,b=c d/m.zip',deterministic=false") == (
        "ppo", [], {"path": "runs/a,b=c d/m.zip", "deterministic": False})
    assert parse_spec('ppo:"runs/a,b/m.zip"') == ("ppo", ["runs/a,b/m.zip"], {})
    assert parse_spec("mcts:simulations='5'") == ("mcts", [], {"simulations": "5"})  # quoted: a string
    for bad in ("ppo:'runs/a.zip", "ppo:'a'b", "ppo:a'b"):
        with pytest.raises(ValueError, match="quote"):
            parse_spec(bad)
    game = ether_envs.load_game("aethermon_collect")
    with pytest.raises(FileNotFoundError, match="model file not found: a,b/m.zip"):
        make_agent("ppo:path='a,b/m.zip'", game)


def test_path_specs_load_files_whose_names_hold_commas_equals_and_spaces(tmp_path):
    import shutil

    from agents import quote_spec_value
    from agents.pretrained import shipped_weights
    from training.selfplay import OpponentPool, parse_weights

    game = ether_envs.load_game("aethermon_collect")
    path = tmp_path / "run a,b=c" / "w.npz"
    path.parent.mkdir()
    shutil.copy(shipped_weights()["aethermon_collect"], path)
    state = game.new_initial_state(seed=0)
    expected = make_agent("pretrained", game).act(state, state.current_player())
    for spec in (f"pretrained:path='{path}'", f'pretrained:"{path}",deterministic=true',
                 f"pretrained:path={quote_spec_value(str(path))}"):
        assert make_agent(spec, game).act(state, state.current_player()) == expected
    # the self-play pool quotes snapshot paths; weights may name quoted specs
    pool = OpponentPool("aethermon_collect", {}, {"self": 1.0}, [str(path)],
                        snapshot_spec="pretrained:path={path},deterministic=false")
    assert pool(np.random.default_rng(0)).deterministic is False
    assert parse_weights(f"pretrained:path='{path}'=0.5,'mcts:simulations=5,c=2'=0.5,self=1") == {
        f"pretrained:path='{path}'": 0.5, "mcts:simulations=5,c=2": 0.5, "self": 1.0}


def test_documented_mcts_keys_are_the_keys_make_agent_takes():
    """The agents docstring lists mcts's keys; make_agent takes exactly those (it once
    documented a rollouts key that it refused)."""
    import inspect

    import agents

    documented = re.search(r"``mcts\[:(.*?)\]``", agents.__doc__).group(1)
    keys = [part.partition("=")[0] for part in documented.split(",")]
    assert keys == list(inspect.signature(MCTSAgent).parameters)
    make_agent("mcts:" + ",".join(f"{k}=2" for k in keys), ether_envs.load_game("aethermon_collect"))


@pytest.mark.parametrize("spec", ["random", "heuristic", "mcts:simulations=2", "az:simulations=2", "pretrained",
                                  "rollout:rollouts=1", "python:agents.random_agent:RandomAgent"])
def test_every_agent_refuses_a_seat_not_to_move_and_a_finished_game(spec):
    """act() answers only for the player to move: another seat, or a finished game, is a
    ValueError naming the seat and who is to move, and the state is untouched."""
    game = ether_envs.load_game("aethermon_collect")
    state = game.new_initial_state(seed=3)
    agent = make_agent(spec, game, seed=0)
    mover = state.current_player()
    other = 1 - mover
    seen = [state.observation_tensor(p).tolist() for p in (0, 1)]
    with pytest.raises(ValueError, match=f"agent '{re.escape(spec)}': player {other} is not to move here "
                                         f"\\(player {mover} is\\)"):
        agent.act(state, np.int64(other))
    if hasattr(agent, "search"):  # az's public search refuses it too
        with pytest.raises(ValueError, match=f"player {other} is not to move here"):
            agent.search(state, other)
    assert state.current_player() == mover and [state.observation_tensor(p).tolist() for p in (0, 1)] == seen
    assert agent.act(state, mover) in state.legal_actions()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    with pytest.raises(ValueError, match=r"is not to move here \(nobody \(the game is over\) is\)"):
        agent.act(state, 0)
