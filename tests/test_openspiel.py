"""The games inside OpenSpiel (``ether_envs.openspiel``, the ``openspiel`` extra): OpenSpiel's own
conformance test, declared facts, observations against the PettingZoo env, clone / serialize /
resample, seeding, OpenSpiel's MCTS and ISMCTS bots through ``evaluate_bots`` without sight of
hidden information, and the ``openspiel:*`` agent specs.

``make test`` installs the extra. Without ``pyspiel`` these tests skip only on Python 3.10, for
which open_spiel 2.0.2 has no wheel (pyproject.toml leaves the extra out there); elsewhere a
missing ``pyspiel`` is an error (install ``.[openspiel]``).
"""

import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from game_configs import GAME_CONFIG_IDS, GAME_CONFIGS

import ether_envs
from ether_envs.core import snapshot

try:
    import pyspiel
except ImportError:  # pragma: no cover - depends on the environment
    pyspiel = None
    if sys.version_info >= (3, 11):
        raise ImportError("tests/test_openspiel.py needs OpenSpiel: pip install -e '.[openspiel]' "
                          "(make test installs it)") from None

needs_pyspiel = pytest.mark.skipif(
    pyspiel is None, reason="open_spiel 2.0.2 has no wheel for Python 3.10 (the openspiel extra needs Python >= 3.11)")

if pyspiel is not None:
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.observation import make_observation

    import ether_envs.openspiel as eo

GAMES = ether_envs.list_games()
HIDDEN = {  # a short configuration with hidden information per game (the bots' tests)
    "aethermon_collect": {"num_players": 3, "hidden_artefacts": True},
    "ethnos": {"num_players": 2},
    "etherium": {"num_players": 2},
    "ether_wars": {"num_players": 2, "max_rounds": 2},
    "aetherspire": {"num_players": 2},
}


def test_import_ether_envs_does_not_import_pyspiel():
    code = ("import sys, ether_envs, agents, training.evaluate\n"
            "ether_envs.make('aethermon_collect'); ether_envs.load_game('ethnos')\n"
            "assert 'pyspiel' not in sys.modules and 'ether_envs.openspiel' not in sys.modules, 'pyspiel imported'")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       cwd=Path(__file__).resolve().parent.parent)
    assert p.returncode == 0, p.stderr


# ---- registration, parameters, declared facts ----------------------------------------------
@needs_pyspiel
def test_every_game_is_registered_with_its_config_as_parameters():
    names = set(pyspiel.registered_names())
    for name in GAMES:
        short = f"python_ether_{name}"
        assert short in names and short in eo.SHORT_NAMES
        game = pyspiel.load_game(short)
        assert isinstance(game, eo.EtherGame) and game.engine.config == ether_envs.load_game(name).config
        params = game.get_type().parameter_specification
        assert set(params) == {*eo.bridge.param_specs(name), "rng_seed"}
    game = pyspiel.load_game("python_ether_ethnos(num_players=3)")
    assert game.num_players() == 3 and game.engine.config.num_players == 3
    # the game string round-trips, tuple and None-able fields included
    game = pyspiel.load_game("python_ether_aetherspire(characters=Geomancer+Hermit of Stone,fiend_level=2,"
                             "start_tile=0,rng_seed=9)")
    cfg = game.engine.config
    assert cfg.characters == ("Geomancer", "Hermit of Stone") and cfg.fiend_level == 2 and cfg.start_tile is False
    again = pyspiel.load_game(str(game))
    assert again.engine.config == cfg and again.rng_seed == 9
    assert eo.game_string("ethnos", num_players=3) == "python_ether_ethnos(num_players=3)"
    assert pyspiel.load_game(eo.game_string(game.engine, rng_seed=9)).engine.config == cfg
    default = pyspiel.load_game("python_ether_aetherspire(fiend_level=-1,start_tile=-1,characters=)")
    assert default.engine.config == ether_envs.load_game("aetherspire").config


@needs_pyspiel
@pytest.mark.parametrize("text, error, match", [
    ("python_ether_ethnos(num_players=9)", ValueError, "num_players must be 2..6"),
    ("python_ether_ethnos(bogus=1)", pyspiel.SpielError if pyspiel else None, "Unknown parameter 'bogus'"),
    ("python_ether_ethnos(num_players=x)", pyspiel.SpielError if pyspiel else None, "Wrong type"),
    ("python_ether_ethnos(rng_seed=-3)", ValueError, "rng_seed must be an int in 0..2147483647"),
    ("python_ether_aetherspire(start_tile=2)", ValueError, "start_tile must be -1"),
    ("python_ether_aetherspire(characters=Nobody+Geomancer)", ValueError, "characters must be"),
])
def test_bad_parameters_name_the_value(text, error, match):
    with pytest.raises(error, match=match):
        pyspiel.load_game(text)


@needs_pyspiel
@pytest.mark.parametrize("name, cfg", GAME_CONFIGS, ids=GAME_CONFIG_IDS)
def test_declared_facts_match_the_engine(name, cfg):
    engine = ether_envs.load_game(name, **cfg)
    game = eo.load_game(name, **cfg)
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    info = pyspiel.GameType.Information
    assert t.information == (info.IMPERFECT_INFORMATION if engine.has_hidden_information()
                             else info.PERFECT_INFORMATION)
    utility = {"zero_sum": pyspiel.GameType.Utility.ZERO_SUM, "general": pyspiel.GameType.Utility.GENERAL_SUM,
               "identical": pyspiel.GameType.Utility.IDENTICAL}
    assert t.utility == utility[engine.utility()]
    if name == "aetherspire":
        assert t.utility == pyspiel.GameType.Utility.IDENTICAL
    assert (t.min_num_players, t.max_num_players) == (engine.spec.min_players, engine.spec.max_players)
    assert t.provides_observation_tensor and t.provides_observation_string
    assert not t.provides_information_state_string and not t.provides_information_state_tensor
    assert game.num_players() == engine.num_players
    assert game.num_distinct_actions() == engine.num_distinct_actions()
    assert game.max_game_length() == engine.max_game_length()
    assert game.max_chance_outcomes() == 0
    assert game.observation_tensor_shape() == [engine.observation_size()]
    assert (game.min_utility(), game.max_utility()) == eo.utility_range(engine)
    assert game.utility_sum() == (0.0 if engine.utility() == "zero_sum" else None)


@needs_pyspiel
@pytest.mark.parametrize("name, cfg", GAME_CONFIGS, ids=GAME_CONFIG_IDS)
def test_random_sim_test(name, cfg):
    """OpenSpiel's own conformance test on every configuration (every player count). Without
    ``serialize``: OpenSpiel serializes a sampled-stochastic game with ``Game::GetRNGState()``,
    which a Python game cannot implement (state serialization is tested below)."""
    pyspiel.random_sim_test(eo.load_game(name, **cfg), num_sims=1, serialize=False, verbose=False)


@needs_pyspiel
@pytest.mark.parametrize("name, cfg", GAME_CONFIGS, ids=GAME_CONFIG_IDS)
def test_returns_stay_within_the_declared_utility_range(name, cfg):
    game = eo.load_game(name, **cfg)
    rng = np.random.default_rng(1)
    for deal in range(2):
        state = game.new_initial_state(seed=deal)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        r = np.array(state.returns())
        assert np.all(r >= game.min_utility()) and np.all(r <= game.max_utility())


# ---- observations --------------------------------------------------------------------------
@needs_pyspiel
@pytest.mark.parametrize("name", GAMES)
def test_observation_tensor_equals_the_pettingzoo_env_at_every_step(name):
    """Random games for every configuration: at every step, every seat's OpenSpiel observation
    (``observation_tensor`` and the observer API) is the env's ``observation``, and the legal
    actions are the env's mask."""
    for cfg in ether_envs.load_game(name).conformance_configs:
        game = eo.load_game(name, **cfg)
        observer = make_observation(game)
        env = ether_envs.make(name, **cfg)
        env.reset(seed=11)
        state = game.new_initial_state(seed=11)
        rng = np.random.default_rng(0)
        for agent in env.agent_iter():
            if env.terminations[agent] or env.truncations[agent]:
                assert state.is_terminal()
                env.step(None)
                continue
            seat = env.unwrapped.agent_name_mapping[agent]
            assert state.current_player() == seat
            for a in env.possible_agents:
                p = env.unwrapped.agent_name_mapping[a]
                want = env.observe(a)["observation"]
                np.testing.assert_array_equal(np.asarray(state.observation_tensor(p), np.float32), want)
                observer.set_from(state, p)
                np.testing.assert_array_equal(observer.tensor, want)
            mask = env.observe(agent)["action_mask"]
            assert state.legal_actions() == np.flatnonzero(mask).tolist()
            action = int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
            state.apply_action(action)
        assert np.allclose(state.returns(), [env.unwrapped.game_state.returns()[p] for p in range(game.num_players())])


@needs_pyspiel
def test_observer_pieces_are_the_layout_and_other_types_are_refused():
    game = eo.load_game("ethnos", num_players=3)
    obs = make_observation(game)
    layout = game.engine.observation_layout()
    assert list(obs.dict) == list(layout)
    for piece, sl in layout.items():
        assert obs.dict[piece].size == sl.stop - sl.start
    with pytest.raises(ValueError, match="perfect-recall"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    with pytest.raises(ValueError, match="only the default observation type"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=False,
                                                          private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    with pytest.raises(ValueError, match="observer parameters"):
        make_observation(game, None, {"x": 1})


@needs_pyspiel
@pytest.mark.parametrize("name", GAMES)
def test_observation_string_is_the_engines_per_seat_text_view(name):
    game = eo.load_game(name, **HIDDEN[name])
    state = game.new_initial_state(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        if state.is_terminal():
            break
        for p in range(game.num_players()):
            assert state.observation_string(p) == state.engine.observation_string(p)
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])


@needs_pyspiel
@pytest.mark.parametrize("name", GAMES)
def test_observation_string_is_per_seat_and_ignores_hidden_information(name):
    """Whatever the text view, a seat's string (what ISMCTS keys its nodes by) and tensor are the
    same in every determinization for that seat."""
    game = eo.load_game(name, **HIDDEN[name])
    state = game.new_initial_state(seed=4)
    rng = np.random.default_rng(0)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    for step in range(40):
        if state.is_terminal():
            break
        p = state.current_player()
        det = state.resample_from_infostate(p, sampler)
        assert det.observation_string(p) == state.observation_string(p)
        assert det.observation_tensor(p) == state.observation_tensor(p)
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])


# ---- clone, serialize, resample, seeding ------------------------------------------------------
def _play(state, steps, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    return state


@needs_pyspiel
@pytest.mark.parametrize("name", GAMES)
def test_clone_serialize_and_pickle_round_trip(name):
    game = eo.load_game(name, **HIDDEN[name])
    state = _play(game.new_initial_state(seed=5), 6)
    assert not state.is_terminal()
    clone = state.clone()
    assert snapshot(clone.engine) == snapshot(state.engine) and clone.engine is not state.engine
    assert clone.history() == state.history() and clone.seed == state.seed == 5
    _play(clone, 3, seed=1)
    assert len(state.engine.history) == 6 and len(clone.engine.history) > 6
    # serialize() holds a game record (seed and actions) and replays it
    text = state.serialize()
    back = game.deserialize_state(text)
    assert snapshot(back.engine) == snapshot(state.engine)
    assert back.history() == state.history() and str(back) == str(state) and back.seed == 5
    # a determinization has no seed to replay: its engine state is pickled instead
    det = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
    assert det.seed is None
    assert snapshot(game.deserialize_state(det.serialize()).engine) == snapshot(det.engine)
    # Python pickling of the game and the state (OpenSpiel's own needs Game::GetRNGState)
    again = pickle.loads(pickle.dumps(state))
    assert snapshot(again.engine) == snapshot(state.engine) and str(again.get_game()) == str(game)


@needs_pyspiel
@pytest.mark.parametrize("name", GAMES)
def test_resample_from_infostate_redraws_only_hidden_information(name):
    game = eo.load_game(name, **HIDDEN[name])
    state = _play(game.new_initial_state(seed=6), 6)
    p = state.current_player()
    a = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    b = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    c = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(2, 0.0, 1.0))
    assert snapshot(a.engine) == snapshot(b.engine)  # deterministic given the sampler's seed
    assert snapshot(a.engine) != snapshot(c.engine) and snapshot(a.engine) != snapshot(state.engine)
    assert a.history() == state.history() and a.legal_actions() == state.legal_actions()
    assert a.observation_tensor(p) == state.observation_tensor(p)
    with pytest.raises(ValueError, match="player must be a seat"):
        state.resample_from_infostate(game.num_players(), pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))


@needs_pyspiel
def test_deals_are_deterministic_from_rng_seed():
    """The k-th initial state is deal rng_seed + k (the engine's, the env's, evaluate's deal k);
    OpenSpiel's internal throwaway states (clones, tensor shapes) take no deal."""
    game = eo.load_game("ethnos", rng_seed=40, num_players=3)
    engine = game.engine
    first = game.new_initial_state()
    game.observation_tensor_shape()  # builds and observes a throwaway initial state
    assert np.array_equal(np.asarray(first.observation_tensor(0), np.float32),
                          engine.new_initial_state(seed=40).observation_tensor(0))
    first.clone()
    second = game.new_initial_state()
    second.apply_action(second.legal_actions()[0])
    assert first.seed == 40 and second.seed == 41
    explicit = game.new_initial_state(seed=7)
    assert explicit.seed == 7 and snapshot(explicit.engine) == snapshot(engine.new_initial_state(seed=7))
    third = game.new_initial_state()
    env = ether_envs.make("ethnos", num_players=3)
    env.reset(seed=42)
    assert third.seed == 42 and np.array_equal(np.asarray(third.observation_tensor(1), np.float32),
                                               env.observe("player_1")["observation"])
    # a fresh game object starts again at rng_seed
    assert snapshot(eo.load_game("ethnos", rng_seed=40, num_players=3).new_initial_state().engine) == \
        snapshot(first.engine)
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ValueError, match="seed must be None or a non-negative int"):
            game.new_initial_state(seed=bad)


# ---- OpenSpiel's bots --------------------------------------------------------------------------
def _short_rollouts(seed):
    """Random rollouts cut at 8 moves: the bots' tests check the plumbing, not strength."""
    return mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed), max_length=8)


@needs_pyspiel
@pytest.mark.parametrize("name", GAMES)
def test_mcts_and_ismcts_bots_play_complete_games_through_evaluate_bots(name):
    """OpenSpiel's ISMCTSBot against OpenSpiel's MCTSBot (on determinizations) in OpenSpiel's own
    game loop, to the end, in a hidden-information configuration of every game."""
    game = eo.load_game(name, **HIDDEN[name])
    bots = [eo.ISMCTSBot(game, max_simulations=3, seed=1, evaluator=_short_rollouts(1)),
            eo.DeterminizedMCTSBot(game, max_simulations=3, seed=2, evaluator=_short_rollouts(2))]
    bots += [eo.DeterminizedMCTSBot(game, max_simulations=2, worlds=2, seed=3 + p, evaluator=_short_rollouts(3))
             for p in range(2, game.num_players())]
    state = game.new_initial_state()
    returns = evaluate_bots(state, bots[:game.num_players()], np.random.RandomState(0))
    assert state.is_terminal() and len(returns) == game.num_players()
    assert game.min_utility() <= min(returns) <= max(returns) <= game.max_utility()


@needs_pyspiel
def test_ismcts_against_our_heuristic_through_evaluate_bots():
    game = eo.load_game("aethermon_collect", num_players=3, hidden_artefacts=True)
    from agents.openspiel_bots import AgentBot

    bots = [eo.ISMCTSBot(game, max_simulations=5, seed=0), AgentBot.from_spec(game, "heuristic", seed=1),
            AgentBot.from_spec(game, "mcts:simulations=5", seed=2)]
    state = game.new_initial_state(seed=4)
    returns = evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal() and returns == state.engine.returns().tolist()
    with pytest.raises(ValueError, match="is not an ether-envs game"):
        AgentBot.from_spec(pyspiel.load_game("kuhn_poker"), "heuristic")
    with pytest.raises(ValueError, match="is not an agent"):
        AgentBot(object())
    # any policy as a bot: a function (observation, action_mask) -> action
    bots[1] = AgentBot(lambda observation, action_mask: int(np.flatnonzero(action_mask)[-1]))
    state = game.new_initial_state(seed=5)
    assert evaluate_bots(state, bots, np.random.RandomState(0)) == state.engine.returns().tolist()
    with pytest.raises(AttributeError, match=r"moved to the agents package \(module agents.openspiel_bots\)"):
        eo.AgentBot  # moved: ether_envs imports nothing from agents


@needs_pyspiel
def test_mcts_bot_plays_a_perfect_information_game_and_ismcts_refuses_it():
    game = eo.load_game("aethermon_collect")  # the default configuration hides nothing
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    bots = [eo.DeterminizedMCTSBot(game, max_simulations=10, seed=p) for p in range(2)]
    state = game.new_initial_state()
    evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal()
    with pytest.raises(ValueError, match="needs an imperfect-information game"):
        eo.ISMCTSBot(game)


def _positions(game, count, seed=0):
    """States of a game at decisions with a choice, reached by random play."""
    rng = np.random.default_rng(seed)
    out = []
    state = game.engine.new_initial_state(seed=seed)
    while not state.is_terminal() and len(out) < count:
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < 0.3:
            out.append(state.clone())
        state.apply_action(legal[rng.integers(len(legal))])
    return out


def _tree(node):
    """An MCTS search tree as nested tuples (actions, visits, values: what the search saw)."""
    return (node.action, node.explore_count, node.total_reward, tuple(_tree(c) for c in node.children))


@needs_pyspiel
@pytest.mark.parametrize("name", GAMES)
def test_bots_never_see_other_seats_hidden_information(name, monkeypatch):
    """Given its seed, a bot's choice does not depend on what its seat cannot see: on a state
    and on another state of the same information (``resample_hidden``: other hands, hidden
    decks and the chance generator redrawn) it chooses the same action. The engine's
    determinizations depend on the hidden arrangement they start from, so both states are
    made to determinize from the same one (``rep``); any other look at the true state would
    show. OpenSpiel's bare MCTSBot, which searches the state it is given, fails the check
    (Ether Wars at its full length here: cut at 2 rounds, every rollout ends in a 0-0 draw)."""
    game = eo.load_game(name, **{**HIDDEN[name], **({"max_rounds": 60} if name == "ether_wars" else {})})
    positions = _positions(game, 4)
    assert len(positions) == 4
    cls = type(positions[0])
    resample = cls.resample_hidden
    bare_differs = 0
    for k, rep in enumerate(positions):
        p = rep.current_player()
        other = rep.resample_hidden(p, np.random.default_rng(100 + k))
        assert snapshot(other) != snapshot(rep)
        monkeypatch.setattr(cls, "resample_hidden", lambda self, player, rng, rep=rep: resample(rep, player, rng))
        makers = [lambda: eo.ISMCTSBot(game, max_simulations=8, seed=5),
                  lambda: eo.DeterminizedMCTSBot(game, max_simulations=8, seed=5),
                  lambda: eo.DeterminizedMCTSBot(game, max_simulations=8, worlds=2, seed=5)]
        for make in makers:
            assert make().step(game.wrap(rep)) == make().step(game.wrap(other))
        monkeypatch.setattr(cls, "resample_hidden", resample)

        def bare():
            return mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, np.random.RandomState(5)),
                                random_state=np.random.RandomState(5))
        bare_differs += _tree(bare().mcts_search(game.wrap(rep))) != _tree(bare().mcts_search(game.wrap(other)))
    assert bare_differs > 0, "the check cannot tell a bot that searches the true state"


@needs_pyspiel
def test_bots_are_reproducible_from_their_seed():
    game = eo.load_game("etherium")
    state = game.wrap(_positions(game, 1)[0])
    for make in (lambda s: eo.ISMCTSBot(game, max_simulations=6, seed=s),
                 lambda s: eo.DeterminizedMCTSBot(game, max_simulations=6, worlds=2, seed=s)):
        assert len({make(3).step(state) for _ in range(2)}) == 1


@needs_pyspiel
@pytest.mark.parametrize("kwargs, match", [
    ({"max_simulations": 0}, "max_simulations must be an int >= 1"),
    ({"uct_c": -1.0}, "uct_c must be a number >= 0"),
    ({"rollouts": 0}, "rollouts must be an int >= 1"),
    ({"seed": -2}, "seed must be None or a non-negative int"),
    ({"final_policy": "best"}, "final_policy must be one of"),
    ({"max_world_samples": 0}, "max_world_samples"),
])
def test_ismcts_bot_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        eo.ISMCTSBot(eo.load_game("etherium"), **kwargs)


@needs_pyspiel
@pytest.mark.parametrize("kwargs, match", [
    ({"worlds": 0}, "worlds must be an int >= 1"),
    ({"worlds": 5, "max_simulations": 4}, "worlds \\(5\\) must be at most max_simulations \\(4\\)"),
    ({"solve": "yes"}, "solve must be True or False"),
])
def test_determinized_mcts_bot_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        eo.DeterminizedMCTSBot(eo.load_game("etherium"), **kwargs)


# ---- agent specs ----------------------------------------------------------------------------------
@needs_pyspiel
def test_openspiel_agent_specs_play_in_evaluate_and_baselines(tmp_path, capsys):
    from agents import make_agent
    from training import cli
    from training.evaluate import play_game

    game = ether_envs.load_game("aethermon_collect", hidden_artefacts=True)
    ismcts = make_agent("openspiel:ismcts:simulations=5,uct_c=1.5,final=max_value", game, seed=1)
    det = make_agent("openspiel:mcts:max_simulations=6,worlds=2,solve=false", game, seed=2)
    assert ismcts.name == "openspiel:ismcts:simulations=5,uct_c=1.5,final=max_value"
    returns, _, steps = play_game(game, [ismcts, det], seed=0)
    assert steps > 0
    again = make_agent("openspiel:ismcts:simulations=5,uct_c=1.5,final=max_value", game, seed=1)
    state = _positions(eo.load_game(game), 1, seed=3)[0]
    ismcts.seed(9)
    again.seed(9)
    assert ismcts.act(state, state.current_player()) == again.act(state, state.current_player())
    assert pickle.loads(pickle.dumps(again)).act(state, state.current_player()) in state.legal_actions()
    rc = cli.main(["evaluate", "aethermon_collect", "openspiel:ismcts:simulations=4", "heuristic",
                   "--config", "hidden_artefacts=true", "--deals", "1", "--out", str(tmp_path / "ev"),
                   "--no-progress"])
    assert rc == 0 and "| openspiel:ismcts:simulations=4 | heuristic | 2 |" in capsys.readouterr().out
    rc = cli.main(["baselines", "--games", "aethermon_collect", "--deals", "1", "--simulations", "2",
                   "--extra", "openspiel:mcts:simulations=2", "--quiet"])
    out = capsys.readouterr().out
    assert rc == 0 and "| aethermon_collect | openspiel:mcts:simulations=2 | heuristic | 2 | 2 |" in out
    assert "--extra openspiel:mcts:simulations=2" in out
    # an extra spec that does not suit a game fails before anything is played
    assert cli.main(["baselines", "--games", "aethermon_collect", "--extra", "openspiel:ismcts", "--quiet"]) == 2
    assert "needs an imperfect-information game" in capsys.readouterr().err


@needs_pyspiel
def test_openspiel_agent_plays_in_play(capsys):
    from training import cli

    args = cli.build_parser().parse_args(["play", "aethermon_collect", "--config", "hidden_artefacts=true",
                                          "--opponents", "openspiel:ismcts:simulations=3", "--seed", "2"])
    cli.cmd_play(args, input_fn=lambda prompt: "1")
    out = capsys.readouterr().out
    assert "(openspiel:ismcts:simulations=3) plays" in out and "returns: player_0" in out


@needs_pyspiel
@pytest.mark.parametrize("spec, match", [
    ("openspiel", "needs an algorithm"),
    ("openspiel:alphazero", "unknown algorithm 'alphazero'"),
    ("openspiel:mcts:final=max_value", "unknown key\\(s\\) \\['final'\\]"),
    ("openspiel:ismcts:worlds=2", "unknown key\\(s\\) \\['worlds'\\]"),
    ("openspiel:mcts:simulations=5,max_simulations=5", "not both"),
    ("openspiel:mcts:simulations=0", "max_simulations must be an int >= 1"),
    ("openspiel:ismcts", "needs an imperfect-information game"),  # the default Aethermon hides nothing
])
def test_openspiel_agent_bad_specs(spec, match):
    from agents import make_agent

    with pytest.raises(ValueError, match=match):
        make_agent(spec, ether_envs.load_game("aethermon_collect"))


def test_openspiel_agent_without_the_extra_says_how_to_install(monkeypatch):
    from agents import make_agent

    monkeypatch.setitem(sys.modules, "pyspiel", None)  # "import pyspiel" raises ImportError
    for mod in [m for m in sys.modules if m.startswith("ether_envs.openspiel")]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.delattr(ether_envs, "openspiel", raising=False)
    with pytest.raises(ValueError, match=r"pip install -e '\.\[openspiel\]'"):
        make_agent("openspiel:mcts", ether_envs.load_game("aethermon_collect"))
