"""The network-guided search agent ``az`` (agents/az.py) and the zoos of shipped nets."""

import numpy as np
import pytest

import ether_envs
from agents import make_agent
from agents.az import DEFAULT_SIMULATIONS, AZAgent
from agents.pretrained import MLPPolicy, shipped_weights, weights_zoo
from training.evaluate import play_game

GAMES = ether_envs.list_games()


def hidden_aethermon(tmp_path):
    """Aethermon: Collect with hidden Artefacts (3 players) and the spec of a small untrained net for it."""
    from agents.ppo import model_metadata
    from training.ppo import make_net, net_to_policy

    import torch

    game = ether_envs.load_game("aethermon_collect", num_players=3, hidden_artefacts=True)
    torch.manual_seed(0)
    net = make_net(game.observation_size(), game.num_distinct_actions(), (16,))
    path = net_to_policy(net, {**model_metadata(game), "training": {"algorithm": "test"}}).save(tmp_path / "n.npz")
    return game, f"path={path}"


@pytest.mark.parametrize("name", GAMES)
def test_az_plays_legal_games_at_every_player_count(name):
    """az (few simulations) finishes a game at each player count of the game, against the heuristic;
    play_game raises on an illegal action."""
    spec = ether_envs.load_game(name).spec
    for n in range(spec.min_players, spec.max_players + 1):
        if name == "ethnos" and n not in (2, 6):  # the longest game: its smallest and largest counts
            continue
        game = ether_envs.load_game(name, num_players=n)
        agents = [make_agent("az:simulations=4" if p == 0 else "heuristic", game, seed=p) for p in range(n)]
        returns, _, steps = play_game(game, agents, seed=9)
        assert returns.shape == (n,) and steps > 0


def test_az_visits_add_up_and_the_move_is_the_most_visited():
    game = ether_envs.load_game("etherium")
    state = game.new_initial_state(seed=3)
    while len(state.legal_actions()) < 3:
        state.apply_action(state.legal_actions()[0])
    agent = make_agent("az:simulations=40", game, seed=1)
    a = agent.act(state, state.current_player())
    v = agent.last_visits
    assert v.shape == (game.num_distinct_actions(),) and v.dtype == np.int64
    assert v.sum() == 39  # the first simulation values the root
    assert set(np.flatnonzero(v)) <= set(state.legal_actions())
    assert v[a] == v.max()


def test_az_same_seed_same_game_and_the_state_is_untouched(tmp_path):
    game, net = hidden_aethermon(tmp_path)
    runs = []
    for _ in range(2):
        agents = [make_agent(f"az:simulations=8,{net}", game, seed=20 + p) for p in range(3)]
        runs.append(play_game(game, agents, seed=6)[1].tolist())
    assert runs[0] == runs[1]
    state = game.new_initial_state(seed=2)
    before = ether_envs.core.snapshot(state)
    make_agent(f"az:simulations=8,{net}", game, seed=0).act(state, state.current_player())
    assert ether_envs.core.snapshot(state) == before


def test_az_searches_only_determinizations(monkeypatch, tmp_path):
    """Every simulation starts from resample_hidden; the true state is never cloned."""
    game, net = hidden_aethermon(tmp_path)
    state = game.new_initial_state(seed=4)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    cls = type(state)
    calls = {"resample": 0, "inside": False}
    orig_resample, true_clone = cls.resample_hidden, cls.clone

    def resample(self, player, rng):
        calls["resample"] += 1
        calls["inside"] = True
        try:
            return orig_resample(self, player, rng)
        finally:
            calls["inside"] = False

    def guarded_clone(self):
        if self is state and not calls["inside"]:
            pytest.fail("az cloned the true state (would see hidden information)")
        return true_clone(self)

    monkeypatch.setattr(cls, "resample_hidden", resample)
    monkeypatch.setattr(cls, "clone", guarded_clone)
    make_agent(f"az:simulations=12,{net}", game, seed=0).act(state, state.current_player())
    assert calls["resample"] == 12


@pytest.mark.parametrize("spec", ["az:simulations=16", "az:simulations=16,opponent_zoo=2"])
def test_az_decision_does_not_depend_on_the_others_hidden_cards(ethnos_hidden_twins, spec):
    """Information hygiene: two states that differ only in what the mover cannot see (another
    determinization of the same deal) get the same decision from the same seed; with a known
    opponent too, whose moves are made in the determinized worlds, never from the true cards."""
    game, state, other, p = ethnos_hidden_twins
    picks = []
    for s in (state, other):
        agent = make_agent(spec, game, seed=5)
        picks.append((agent.act(s, p), agent.last_visits.tolist()))
    assert picks[0] == picks[1]


def test_az_cooperative_values_are_the_team_value():
    game = ether_envs.load_game("aetherspire")
    agent = make_agent("az:simulations=4", game, seed=0)
    state = game.new_initial_state(seed=1)
    logits, values = agent._evaluate(state)
    assert logits.shape == (game.num_distinct_actions(),)
    assert values.shape == (game.num_players,) and np.all(values == values[0]) and -1 <= values[0] <= 1


def test_az_tiny_temperature_plays_the_most_visited_without_overflow():
    game = ether_envs.load_game("etherium")
    state = game.new_initial_state(seed=3)
    while len(state.legal_actions()) < 3:
        state.apply_action(state.legal_actions()[0])
    for t in (1e-3, 1e-300):
        agent = make_agent(f"az:simulations=12,temperature={t}", game, seed=0)
        a = agent.act(state, state.current_player())
        assert agent.last_visits[a] == agent.last_visits.max()


def test_az_temperature_draws_from_the_visits():
    game = ether_envs.load_game("etherium")
    state = game.new_initial_state(seed=3)
    while len(state.legal_actions()) < 3:
        state.apply_action(state.legal_actions()[0])
    picks = {make_agent("az:simulations=30,temperature=5,dirichlet=0.5", game, seed=s).act(state, state.current_player())
             for s in range(12)}
    assert len(picks) > 1 and picks <= set(state.legal_actions())


@pytest.mark.parametrize("spec, match", [
    ("az:simulations=0", "simulations must be an int >= 1, got 0"),
    ("az:simulations=2.5", "simulations must be an int >= 1, got 2.5"),
    ("az:c=0", "c must be > 0, got 0"),
    ("az:c=-1", "c must be a finite number >= 0, got -1"),
    ("az:temperature=-1", "temperature must be a finite number >= 0"),
    ("az:dirichlet=nan", "dirichlet must be a finite number >= 0"),
    ("az:zoo=0", "zoo must be an int >= 1, got 0"),
    ("az:zoo=9", "no pretrained weights for 'etherium' in zoo 9"),
    ("az:path=x.npz,zoo=1", "not both"),
    ("az:budget=3", "unknown key 'budget'"),
    ("az:policy=x", "unknown key 'policy'"),
    ("az:deterministic=false,temperature=2", "temperature or deterministic, not both"),
])
def test_az_bad_specs_raise_value_errors_naming_the_value(spec, match):
    with pytest.raises(ValueError, match=match):
        make_agent(spec, ether_envs.load_game("etherium"))


def test_az_default_budget_and_deterministic_key():
    game = ether_envs.load_game("etherium")
    assert make_agent("az", game).simulations == DEFAULT_SIMULATIONS == 64
    assert make_agent("az:deterministic=false", game).temperature == 1.0
    assert make_agent("az:simulations=3,path=" + str(shipped_weights()["etherium"]), game).simulations == 3


def test_az_takes_an_in_memory_policy_but_not_with_a_file():
    game = ether_envs.load_game("etherium")
    policy = MLPPolicy.load(shipped_weights()["etherium"])
    assert AZAgent(game, simulations=2, policy=policy).policy is policy
    with pytest.raises(ValueError, match="not several"):
        AZAgent(game, policy=policy, zoo=1)


# ---- a known opponent (an approximate best response) --------------------------------------------
def test_az_known_opponent_plays_the_others_as_pretrained_and_values_only_its_own_turns(monkeypatch):
    """With ``opponent_zoo``, the others' moves in a world are the net's masked argmax, what
    ``pretrained`` plays there (here identically; in general up to float32 rounding of the
    logits), and every node is valued at the searcher's own turn, with the searcher's value."""
    from agents.pretrained import PretrainedAgent

    game = ether_envs.load_game("ethnos", num_players=3)
    agent = make_agent("az:simulations=24,opponent_zoo=1", game, seed=0)
    target = make_agent("pretrained:zoo=1", game)
    assert isinstance(target, PretrainedAgent) and agent.opponent is not None
    assert np.array_equal(agent.opponent.policy[0], target.policy.policy[0])
    state = game.new_initial_state(seed=7)
    for _ in range(12):
        state.apply_action(target.act(state, state.current_player()))
    while len(state.legal_actions()) < 2 or state.current_player() == 0:  # a seat other than 0 to choose
        state.apply_action(target.act(state, state.current_player()))
    me = state.current_player()
    # the known opponent's moves, from me's next move on, against pretrained's own
    world = state.clone()
    while world.current_player() == me:  # me's turn, to its end
        world.apply_action(target.act(world, me))
    expected, moves = world.clone(), 0
    while not expected.is_terminal() and expected.current_player() != me:
        expected.apply_action(target.act(expected, expected.current_player()))
        moves += 1
    assert moves >= 2  # both other seats moved
    agent._me = me
    agent._play_opponent(world)
    assert ether_envs.core.snapshot(world) == ether_envs.core.snapshot(expected)
    # the search values nodes only where `me` is to move
    movers = []
    evaluate = AZAgent._evaluate

    def spy(self, s):
        movers.append(s.current_player())
        logits, values = evaluate(self, s)
        own = float(np.clip(self.policy.value_of(s.observation_tensor(me)), -1, 1))
        assert values[me] == pytest.approx(own, abs=1e-5) and np.count_nonzero(np.delete(values, me)) == 0
        return logits, values

    monkeypatch.setattr(AZAgent, "_evaluate", spy)
    a = agent.act(state, me)
    assert a in state.legal_actions() and agent.last_visits.sum() == 23
    assert movers and set(movers) == {me}


def test_az_known_opponent_plays_legal_games():
    game = ether_envs.load_game("etherium")
    agents = [make_agent("az:simulations=4,opponent_zoo=1", game, seed=1), make_agent("pretrained:zoo=1", game)]
    returns, _, steps = play_game(game, agents, seed=4)
    assert returns.shape == (2,) and steps > 0


@pytest.mark.parametrize("spec, error, match", [
    ("az:opponent_zoo=0", ValueError, "opponent_zoo=0: zoo must be an int >= 1, got 0"),
    ("az:opponent_zoo=9", ValueError, "opponent_zoo=9: no pretrained weights for 'etherium' in zoo 9"),
    ("az:opponent_zoo=1,opponent_path=agents/weights/etherium.npz", ValueError,
     "give opponent_path or opponent_zoo, not both"),
    ("az:opponent_path=no/such/file.npz", FileNotFoundError, "opponent_path=.*no/such/file.npz"),
    ("az:opponent_path=agents/weights/ethnos.npz", ValueError, "opponent_path=.*game: model 'ethnos', env 'etherium'"),
    ("az:opponent_path=agents/weights/zoo1/etherium.npz,simulations=2", None, None),
    ("az:opponent=1", ValueError, "unknown key 'opponent'"),
])
def test_az_known_opponent_bad_specs_are_refused(spec, error, match):
    if error is None:  # the well-formed spec beside them loads
        assert make_agent(spec, ether_envs.load_game("etherium")).opponent is not None
        return
    with pytest.raises(error, match=match):
        make_agent(spec, ether_envs.load_game("etherium"))


def test_az_known_opponent_net_for_another_player_count_is_refused():
    with pytest.raises(ValueError, match=r"opponent_path=.*config\.num_players: model 2, env 3"):
        make_agent("az:opponent_path=agents/weights/2p/ether_wars.npz", ether_envs.load_game("ether_wars", num_players=3))


@pytest.mark.parametrize("name", GAMES)
def test_the_sparse_first_layer_equals_the_dense_forward(name):
    """``MLPPolicy.features_sparse`` (what ``az`` evaluates leaves with) gives ``features`` up to
    float32 rounding, on every seat's observation along a random game, zero rows included."""
    game = ether_envs.load_game(name)
    policy = MLPPolicy.load(shipped_weights()[name])
    state = game.new_initial_state(seed=3)
    rng = np.random.default_rng(0)
    batches = []
    while not state.is_terminal() and len(batches) < 40:
        batches.append(np.stack([state.observation_tensor(p) for p in range(game.num_players)]))
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.integers(len(legal))]))
    batches.append(np.zeros((2, game.observation_size()), dtype=np.float32))
    batches.append(batches[0][:1] * 3.0)
    batches.append(batches[0][0])  # one observation, 1-D
    for obs in batches:
        dense, sparse = policy.features(obs), policy.features_sparse(obs)
        assert sparse.dtype == np.float32 and sparse.shape == dense.shape
        np.testing.assert_allclose(sparse, dense, rtol=1e-5, atol=1e-5)


def test_the_sparse_forward_of_a_net_with_no_hidden_layer_is_its_input():
    w = np.ones((3, 4), np.float32)
    policy = MLPPolicy([], (w, np.zeros(3, np.float32)), (np.ones((1, 4), np.float32), np.zeros(1, np.float32)),
                       {"game": "t", "format": "ether-envs-mlp-1"})
    obs = np.array([[0, 1, 0, 2]], dtype=np.float64)
    out = policy.features_sparse(obs)
    assert out.dtype == np.float32 and np.array_equal(out, obs.astype(np.float32))


# ---- the zoos -----------------------------------------------------------------------------------
def test_zoo_one_is_kept_for_every_game_and_pretrained_is_the_newest():
    """Zoo 1 (agents/weights/zoo1/) stays loadable as `pretrained:zoo=1`; `pretrained` loads the
    newest file, agents/weights/<game>.npz (or the game's net for its default player count,
    agents/weights/<N>p/<game>.npz, where one is shipped), whose zoo is at least 1."""
    one = shipped_weights(zoo=1)
    assert sorted(one) == sorted(GAMES)
    for name in GAMES:
        assert weights_zoo(one[name]) == 1
        game = ether_envs.load_game(name)
        old = make_agent("pretrained:zoo=1", game)
        new = make_agent("pretrained", game)
        assert old.path == one[name] and new.path == shipped_weights(num_players=game.num_players)[name]
        assert weights_zoo(new.path) >= 1


def test_zoo_two_files_are_under_5_mb_and_load_without_pickles():
    for path in [*shipped_weights().values(), *shipped_weights(zoo=1).values()]:
        assert path.stat().st_size <= 5_000_000
        with np.load(path, allow_pickle=False) as z:
            assert all(z[k].dtype != object for k in z.files)


def test_shipped_weights_bad_zoo_is_a_value_error():
    with pytest.raises(ValueError, match="zoo must be an int >= 1, got -1"):
        shipped_weights(zoo=-1)
    with pytest.raises(ValueError, match="path=.*or a zoo.*not both"):
        make_agent("pretrained:zoo=1,path=agents/weights/etherium.npz", ether_envs.load_game("etherium"))


def test_a_file_trained_at_several_player_counts_plays_them_by_path(tmp_path):
    """Expert iteration records the counts it trained at (player_counts); such a file given by path
    plays those counts, and still refuses another."""
    from agents.ppo import model_metadata
    from training.ppo import make_net, net_to_policy

    game = ether_envs.load_game("etherium")
    meta = {**model_metadata(game), "player_counts": [2, 3]}
    path = net_to_policy(make_net(game.observation_size(), game.num_distinct_actions(), (8,)), meta).save(
        tmp_path / "multi.npz")
    three = ether_envs.load_game("etherium", num_players=3)
    assert make_agent(f"pretrained:path={path}", three).policy.metadata["player_counts"] == [2, 3]
    assert make_agent(f"az:simulations=2,path={path}", three).simulations == 2
    with pytest.raises(ValueError, match=r"config\.num_players: model 2, env 4"):
        make_agent(f"pretrained:path={path}", ether_envs.load_game("etherium", num_players=4))
