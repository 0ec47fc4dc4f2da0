"""The reference agent zoo: ``pretrained`` weight files (numpy ``.npz``, no pickles).

* the shipped weights of every game load, match the game's current observation layout and
  action count (this fails whenever an encoder changes: retrain that game's recipe), play only
  legal moves and beat ``random`` on a few fixed deals (a check that they are the right weights,
  not a strength claim);
* every bad input raises a clear ``ValueError`` (no weights for the game or configuration,
  mismatched layout or action count, not a weight file, a pickle, missing arrays, bad options);
* a weight file round-trips, and its numpy forward pass equals the trainer's torch net.
"""

import json
import pickle

import numpy as np
import pytest

import agents.pretrained
import ether_envs
from agents import make_agent
from agents.ppo import check_compatible, model_metadata
from agents.pretrained import encoder_fingerprint
from agents.pretrained import WEIGHTS_DIR, WEIGHTS_FORMAT, MLPPolicy, PretrainedAgent, shipped_weights
from training.evaluate import play_game, run_tournament

GAMES = ether_envs.list_games()
MAX_WEIGHT_BYTES = 5_000_000
"""Each shipped weight file is at most 5 MB (issue 15)."""


def tiny_policy(game, hidden=(8,), seed=0, **training):
    """A small untrained net for ``game`` (torch) and its :class:`MLPPolicy` with the game's metadata."""
    import torch

    from training.ppo import make_net, net_to_policy

    torch.manual_seed(seed)
    net = make_net(game.observation_size(), game.num_distinct_actions(), hidden)
    meta = {**model_metadata(game), "training": {"algorithm": "test", **training}}
    return net, net_to_policy(net, meta)


@pytest.fixture
def weights_dir(tmp_path, monkeypatch):
    """An empty stand-in for ``agents/weights`` (``agents.pretrained.WEIGHTS_DIR``)."""
    d = tmp_path / "weights"
    d.mkdir()
    monkeypatch.setattr(agents.pretrained, "WEIGHTS_DIR", d)
    return d


def rewrite(path, out, **changes):
    """Copy the weight file ``path`` to ``out`` with its arrays / metadata fields changed
    (``metadata=dict`` merges into the record; an array set to ``None`` is dropped)."""
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays["metadata"]))
    meta.update(changes.pop("metadata", {}))
    arrays["metadata"] = np.array(json.dumps(meta))
    for k, v in changes.items():
        if v is None:
            arrays.pop(k, None)
        else:
            arrays[k] = v
    np.savez(out, **arrays)
    return out


# ---- the shipped weights ------------------------------------------------------------------
def test_every_game_ships_pretrained_weights():
    """EVERY GAME HAS SHIPPED WEIGHTS: agents/weights/<game>.npz for each registered game, each at
    most 5 MB (this fails until the zoo is complete; the per-game tests below skip the games without)."""
    shipped = shipped_weights()
    missing = [g for g in GAMES if g not in shipped]
    assert not missing, (f"no shipped weights in {WEIGHTS_DIR} for {missing}; "
                         "train them with `ether-envs recipe GAME --export`")
    assert sorted(shipped) == sorted(GAMES), f"weights for unregistered games: {sorted(set(shipped) - set(GAMES))}"
    sizes = {g: p.stat().st_size for g, p in shipped.items()}
    assert all(s <= MAX_WEIGHT_BYTES for s in sizes.values()), f"weight files over 5 MB: {sizes}"


def _shipped(name):
    path = shipped_weights().get(name)
    if path is None:
        pytest.skip(f"no shipped weights agents/weights/{name}.npz (see test_every_game_ships_pretrained_weights)")
    return path


@pytest.mark.parametrize("name", GAMES)
def test_shipped_weights_match_the_current_layout(name):
    """Fails whenever the game's encoder (observation layout) or action space changes after its
    weights were trained: retrain with `ether-envs recipe GAME --export`."""
    path = _shipped(name)
    policy = MLPPolicy.load(path)
    game = ether_envs.load_game(name)
    assert policy.metadata["format"] == WEIGHTS_FORMAT and policy.metadata["game"] == name
    check_compatible(policy.metadata, game, source=f"shipped weights {path.name}")
    assert path.stat().st_size <= MAX_WEIGHT_BYTES
    # the layout record misses an encoder that changes a feature's meaning at the same size: the
    # fingerprint of fixed random games does not
    assert policy.metadata.get("encoder_fingerprint") == encoder_fingerprint(game), (
        f"the {name} encoder or action codec changed since {path.name} was trained: "
        f"retrain with `ether-envs recipe {name} --export`")


@pytest.mark.parametrize("name", GAMES)
def test_pretrained_plays_only_legal_moves(name):
    """``pretrained`` (deterministic and sampled) in every seat, through a whole game, at the engine
    level; and at the env level (``act_env``) for one game."""
    _shipped(name)
    game = ether_envs.load_game(name)
    for det in ("true", "false"):
        agent = make_agent(f"pretrained:deterministic={det}", game, seed=1)
        assert isinstance(agent, PretrainedAgent) and agent.name == f"pretrained:deterministic={det}"
        state = game.new_initial_state(seed=3)
        while not state.is_terminal():
            p = state.current_player()
            a = agent.act(state, p)
            assert a in state.legal_actions(), f"{name}: illegal action {a} in seat {p}"
            state.apply_action(a)
    env = ether_envs.make(name)
    env.reset(seed=4)
    agent = make_agent("pretrained", env.unwrapped.game, seed=0)
    for who in env.agent_iter():
        _obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = agent.act_env(env)
        assert a in env.unwrapped.legal_actions(), f"{name}: illegal action {a} for {who}"
        env.step(a)


@pytest.mark.parametrize("name", GAMES)
def test_pretrained_beats_random_on_fixed_deals(name):
    """A check that the shipped weights are the right ones (not a strength claim): over 4 fixed
    deals, each played with ``pretrained`` in every seat, it wins more than its fair share against
    ``random``. A co-operative game has no opponent: the team (``pretrained`` in every seat) plays
    the 4 deals to the end with legal moves only."""
    _shipped(name)
    game = ether_envs.load_game(name)
    if str(game.utility()) == "identical":
        from training.baselines import team_result

        games, rate, low, high = team_result(name, "pretrained", {}, deals=4, seed=0)
        assert games == 4 and 0.0 <= low <= rate <= high <= 1.0
        return
    res = run_tournament(name, ["pretrained", "random"], deals=4, seed=0, focal=True, progress=False)
    pr = res.pairing("pretrained", "random")
    assert pr.games == 4 * game.num_players
    assert pr.win_rate > 1.0 / game.num_players, f"{name}: pretrained won {pr.win_rate:.0%} against random"


# ---- errors -------------------------------------------------------------------------------
def test_no_weights_for_the_game_names_what_is_available(weights_dir):
    game = ether_envs.load_game("aethermon_collect")
    with pytest.raises(ValueError, match=r"no pretrained weights for 'aethermon_collect'; available: none"):
        make_agent("pretrained", game)
    ethnos = ether_envs.load_game("ethnos")
    tiny_policy(ethnos)[1].save(weights_dir / "ethnos.npz")
    assert set(shipped_weights()) == {"ethnos"}
    with pytest.raises(ValueError, match=r"no pretrained weights for 'aethermon_collect'; available: ethnos"):
        make_agent("pretrained", game)
    assert isinstance(make_agent("pretrained", ethnos), PretrainedAgent)


def test_shipped_weights_play_every_player_count_but_refuse_another_configuration(weights_dir):
    """Shipped weights play every player count (one layout serves every count); any other config
    field, or another env version, is refused by name."""
    tiny_policy(ether_envs.load_game("aethermon_collect"))[1].save(weights_dir / "aethermon_collect.npz")
    make_agent("pretrained", ether_envs.load_game("aethermon_collect"))  # the default configuration loads
    three = ether_envs.load_game("aethermon_collect", num_players=3)
    agent = make_agent("pretrained", three, seed=0)
    returns, _, _ = play_game(three, [agent] * 3, seed=1)
    assert len(returns) == 3
    with pytest.raises(ValueError, match=r"config\.artefacts") as e:
        make_agent("pretrained", ether_envs.load_game("aethermon_collect", artefacts="none"))
    assert "trained for the configuration" in str(e.value) and "pretrained:path=" in str(e.value)
    # a file of another player count given by path stays strict
    path = weights_dir / "aethermon_collect.npz"
    with pytest.raises(ValueError, match=r"config\.num_players: model 2, env 3"):
        make_agent(f"pretrained:path={path}", three)


def test_weights_of_another_env_version_are_refused_with_the_versions_named(tmp_path):
    game = ether_envs.load_game("etherium")
    path = tiny_policy(game)[1].save(tmp_path / "ok.npz")
    old = rewrite(path, tmp_path / "v0.npz", metadata={"game_version": game.spec.version - 1})
    with pytest.raises(ValueError, match=rf"measured on ether/etherium-v{game.spec.version - 1} and this env is "
                                         rf"ether/etherium-v{game.spec.version}"):
        make_agent(f"pretrained:path={old}", game)


def test_the_zoo_plays_every_benchmark_configuration():
    """The protocol's configurations (training/protocol.py) all have a `pretrained` opponent."""
    from training.protocol import CONFIGS

    for bench in CONFIGS.values():
        game = ether_envs.load_game(bench.game, **bench.config)
        agent = make_agent("pretrained", game, seed=0)
        returns, _, steps = play_game(game, [agent] * game.num_players, seed=3)
        assert steps > 0 and len(returns) == game.num_players, bench.name


def test_weights_with_another_layout_or_action_count_are_refused(tmp_path):
    game = ether_envs.load_game("etherium")
    path = tiny_policy(game)[1].save(tmp_path / "ok.npz")
    make_agent(f"pretrained:path={path}", game)
    layout = model_metadata(game)["observation_layout"]
    moved = [[name, a + 1, b + 1] for name, a, b in layout]  # same size, the encoder's fields moved
    bad = rewrite(path, tmp_path / "layout.npz", metadata={"observation_layout": moved})
    with pytest.raises(ValueError, match="observation_layout differs"):
        make_agent(f"pretrained:path={bad}", game)
    other = ether_envs.load_game("ether_wars")  # another game: its action count and observation size
    with pytest.raises(ValueError, match=r"game: model 'etherium', env 'ether_wars'.*num_actions: model 164, env 157"):
        make_agent(f"pretrained:path={path}", other)
    # a file whose action count (logits and record) differs from the game's
    n = game.num_distinct_actions()
    w, b = MLPPolicy.load(path).policy
    more = rewrite(path, tmp_path / "actions.npz", metadata={"num_actions": n + 1},
                   **{"policy.weight": np.vstack([w, w[:1]]), "policy.bias": np.append(b, 0.0).astype(np.float32)})
    with pytest.raises(ValueError, match=rf"num_actions: model {n + 1}, env {n}"):
        make_agent(f"pretrained:path={more}", game)
    # a record that disagrees with the arrays it describes
    lying = rewrite(path, tmp_path / "lying.npz", metadata={"num_actions": n + 1})
    with pytest.raises(ValueError, match=rf"{n} action logits but its metadata says {n + 1}"):
        make_agent(f"pretrained:path={lying}", game)
    wide = rewrite(path, tmp_path / "wide.npz", metadata={"observation_size": game.observation_size() + 1})
    with pytest.raises(ValueError, match="does not take inputs of width"):
        make_agent(f"pretrained:path={wide}", game)


def test_files_that_are_not_weight_files_are_refused(tmp_path):
    game = ether_envs.load_game("aethermon_collect")
    path = tiny_policy(game)[1].save(tmp_path / "ok.npz")

    text = tmp_path / "text.npz"
    text.write_text("not a weight file")
    with pytest.raises(ValueError, match="not an ether-envs weight file"):
        make_agent(f"pretrained:path={text}", game)

    # a pickle is refused without running it
    ran = tmp_path / "pickle_ran"

    class Payload:
        def __reduce__(self):
            return (open, (str(ran), "w"))

    pick = tmp_path / "pickle.npz"
    pick.write_bytes(pickle.dumps(Payload()))
    with pytest.raises(ValueError, match="not an ether-envs weight file"):
        make_agent(f"pretrained:path={pick}", game)
    assert not ran.exists()
    # an npz holding a pickled object array
    obj = rewrite(path, tmp_path / "object.npz", **{"policy.bias": np.array([Payload()], dtype=object)})
    with pytest.raises(ValueError, match="not an ether-envs weight file"):
        make_agent(f"pretrained:path={obj}", game)
    assert not ran.exists()

    missing = rewrite(path, tmp_path / "missing.npz", **{"value.weight": None})
    with pytest.raises(ValueError, match="lacks the array 'value.weight'"):
        make_agent(f"pretrained:path={missing}", game)
    no_meta = tmp_path / "no_meta.npz"
    np.savez(no_meta, **{"policy.weight": np.zeros((2, 2), np.float32)})
    with pytest.raises(ValueError, match="has no 'metadata' record"):
        make_agent(f"pretrained:path={no_meta}", game)
    other_format = rewrite(path, tmp_path / "format.npz", metadata={"format": "something-else"})
    with pytest.raises(ValueError, match="weight format 'something-else'"):
        make_agent(f"pretrained:path={other_format}", game)
    with pytest.raises(FileNotFoundError, match="weight file not found"):
        make_agent(f"pretrained:path={tmp_path / 'absent.npz'}", game)
    # found by review: a truncated archive, metadata that is not a JSON object, weights that are not finite
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(ValueError, match="not an ether-envs weight file"):
        make_agent(f"pretrained:path={truncated}", game)
    for bad_meta in ("[1, 2]", "5", "not json"):
        bad = tmp_path / "bad_meta.npz"
        arrays = dict(np.load(path, allow_pickle=False))
        arrays["metadata"] = np.array(bad_meta)
        np.savez(bad, **arrays)
        with pytest.raises(ValueError, match="'metadata' record is not a JSON object"):
            make_agent(f"pretrained:path={bad}", game)
    nan = rewrite(path, tmp_path / "nan.npz", **{"policy.bias": np.full(game.num_distinct_actions(), np.nan, np.float32)})
    with pytest.raises(ValueError, match="'policy.bias' is not all finite numbers"):
        make_agent(f"pretrained:path={nan}", game)


def test_bad_options_are_refused(tmp_path):
    game = ether_envs.load_game("aethermon_collect")
    path = tiny_policy(game)[1].save(tmp_path / "ok.npz")
    with pytest.raises(ValueError, match="deterministic must be true or false, got 'maybe'"):
        make_agent(f"pretrained:path={path},deterministic=maybe", game)
    with pytest.raises(ValueError, match="bad arguments in agent spec"):
        make_agent(f"pretrained:path={path},temperature=2", game)
    with pytest.raises(ValueError, match="no legal action"):
        MLPPolicy.load(path).masked_probabilities(np.zeros(game.observation_size()), np.zeros(183, bool))


# ---- the weight file ----------------------------------------------------------------------
def test_weight_file_round_trips_and_matches_the_torch_net(tmp_path):
    import torch

    from training.ppo import net_from_policy

    game = ether_envs.load_game("aethermon_collect")
    net, policy = tiny_policy(game, hidden=(32, 16), seed=3, frames=5)
    path = policy.save(tmp_path / "sub" / "policy")  # the suffix is added
    assert path.name == "policy.npz"
    loaded = MLPPolicy.load(path)
    assert loaded.metadata == {**policy.metadata, "format": WEIGHTS_FORMAT}
    assert loaded.metadata["training"]["frames"] == 5
    a, b = policy.arrays(), loaded.arrays()
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a if k != "metadata")
    assert loaded.num_parameters() == sum(p.numel() for p in net.parameters())

    rng = np.random.default_rng(0)
    states = [game.new_initial_state(seed=s) for s in range(4)]
    obs = np.stack([s.observation_tensor(s.current_player()) for s in states]
                   + [rng.random(game.observation_size(), dtype=np.float32)])
    with torch.no_grad():
        t_logits, t_value = net(torch.as_tensor(obs))
    np.testing.assert_allclose(loaded.logits(obs), t_logits.numpy(), atol=1e-5)
    np.testing.assert_allclose(loaded.value_of(obs), t_value.numpy(), atol=1e-5)
    np.testing.assert_allclose(loaded.logits(obs[0]), t_logits.numpy()[0], atol=1e-5)  # one observation
    with torch.no_grad():  # and back into torch
        back = net_from_policy(loaded)(torch.as_tensor(obs))[0].numpy()
    np.testing.assert_allclose(back, t_logits.numpy(), atol=1e-6)

    # the policy is the masked softmax of the logits; play is its argmax (or a sample)
    state = states[0]
    mask = state.legal_actions_mask().astype(bool)
    p = loaded.masked_probabilities(obs[0], mask)
    assert p[~mask].sum() == 0 and p.sum() == pytest.approx(1.0)
    z = t_logits.numpy()[0][mask].astype(np.float64)
    np.testing.assert_allclose(p[mask], np.exp(z - z.max()) / np.exp(z - z.max()).sum(), atol=1e-6)
    agent = make_agent(f"pretrained:path={path}", game)
    assert agent.act(state, state.current_player()) == int(np.argmax(p))
    sampler = make_agent(f"pretrained:path={path},deterministic=false", game, seed=0)
    assert all(mask[sampler.act(state, state.current_player())] for _ in range(20))


def test_pretrained_is_an_opponent_wherever_a_spec_is(tmp_path):
    """A weight file as an opponent in ``SingleAgentEnv`` and in the trainer's opponent pool."""
    from ether_envs.wrappers import SingleAgentEnv
    from training.selfplay import OpponentPool, parse_weights

    game = ether_envs.load_game("aethermon_collect")
    path = tiny_policy(game)[1].save(tmp_path / "w.npz")
    env = SingleAgentEnv("aethermon_collect", opponents=make_agent(f"pretrained:path={path}", game), learner_seat=0,
                         illegal_action="raise")
    pool = OpponentPool("aethermon_collect", {}, parse_weights("self=1"), [str(path)],
                        snapshot_spec="pretrained:path={path},deterministic=false")
    pool_env = SingleAgentEnv("aethermon_collect", opponents=pool, illegal_action="raise")
    for e in (env, pool_env):
        _obs, _ = e.reset(seed=0)
        done = False
        while not done:
            legal = np.flatnonzero(e.action_masks())
            _obs, _r, term, trunc, _ = e.step(int(legal[0]))
            done = term or trunc


# ---- nets for one player count --------------------------------------------------------------------
def _count_files():
    """The shipped nets for one player count: ``[(game, players, path)]`` (``agents/weights/<N>p/``)."""
    return [(p.stem, int(p.parent.name[:-1]), p) for p in sorted(WEIGHTS_DIR.glob("*p/*.npz"))]


@pytest.mark.parametrize("name,players,path", _count_files() or [pytest.param(None, None, None, marks=pytest.mark.skip(
    reason="no net for one player count is shipped"))])
def test_shipped_count_nets_match_their_count_and_the_current_encoder(name, players, path):
    """A net shipped for one player count (agents/weights/<N>p/<game>.npz) is a zoo file of that
    game at that count: layout, encoder fingerprint, size, no pickles; and `pretrained` at that
    count loads it, at the other counts the every-count file."""
    assert name in GAMES and path.parent.name == f"{players}p"
    game = ether_envs.load_game(name, num_players=players)
    policy = MLPPolicy.load(path)
    check_compatible(policy.metadata, game, source=str(path))
    assert policy.metadata.get("zoo", 1) >= 2 and path.stat().st_size <= MAX_WEIGHT_BYTES
    with np.load(path, allow_pickle=False) as z:
        assert all(z[k].dtype != object for k in z.files)
    assert policy.metadata.get("encoder_fingerprint") == encoder_fingerprint(game)
    assert make_agent("pretrained", game).path == path and make_agent("az", game).policy.metadata == policy.metadata
    spec = game.spec
    for n in range(spec.min_players, spec.max_players + 1):
        if n != players and not (WEIGHTS_DIR / f"{n}p" / f"{name}.npz").exists():
            assert make_agent("pretrained", ether_envs.load_game(name, num_players=n)).path == WEIGHTS_DIR / f"{name}.npz"


def test_a_net_for_one_count_takes_the_place_of_the_every_count_net_at_that_count_only(weights_dir):
    game = ether_envs.load_game("aethermon_collect")
    every = tiny_policy(game, seed=0)[1]
    every.metadata["zoo"] = 2
    every.save(weights_dir / "aethermon_collect.npz")
    (weights_dir / "zoo1").mkdir()
    tiny_policy(game, seed=1)[1].save(weights_dir / "zoo1" / "aethermon_collect.npz")
    three = ether_envs.load_game("aethermon_collect", num_players=3)
    for_three = tiny_policy(three, seed=2)[1]
    for_three.metadata["zoo"] = 2
    (weights_dir / "3p").mkdir()
    for_three.save(weights_dir / "3p" / "aethermon_collect.npz")

    assert shipped_weights()["aethermon_collect"] == weights_dir / "aethermon_collect.npz"
    assert shipped_weights(num_players=2)["aethermon_collect"] == weights_dir / "aethermon_collect.npz"
    assert shipped_weights(num_players=3)["aethermon_collect"] == weights_dir / "3p" / "aethermon_collect.npz"
    assert shipped_weights(zoo=2, num_players=3)["aethermon_collect"] == weights_dir / "3p" / "aethermon_collect.npz"
    assert shipped_weights(zoo=1, num_players=3)["aethermon_collect"] == weights_dir / "zoo1" / "aethermon_collect.npz"
    assert make_agent("pretrained", game).path == weights_dir / "aethermon_collect.npz"
    assert make_agent("pretrained", three).path == weights_dir / "3p" / "aethermon_collect.npz"
    assert make_agent("pretrained:zoo=1", three).path == weights_dir / "zoo1" / "aethermon_collect.npz"
    four = ether_envs.load_game("aethermon_collect", num_players=4)
    assert make_agent("pretrained", four).path == weights_dir / "aethermon_collect.npz"
    # az searches with the same net as pretrained at each count
    obs = np.ones((1, three.observation_size()))
    np.testing.assert_array_equal(make_agent("az", three).policy.features(obs), for_three.features(obs))
    returns, _, _ = play_game(three, [make_agent("pretrained", three, seed=0)] * 3, seed=1)
    assert len(returns) == 3


def test_a_net_for_one_count_must_be_of_that_count(weights_dir):
    game = ether_envs.load_game("aethermon_collect")
    tiny_policy(game)[1].save(weights_dir / "aethermon_collect.npz")
    (weights_dir / "3p").mkdir()
    tiny_policy(game, seed=3)[1].save(weights_dir / "3p" / "aethermon_collect.npz")  # a 2-player net
    with pytest.raises(ValueError, match=r"config\.num_players: model 2, env 3") as e:
        make_agent("pretrained", ether_envs.load_game("aethermon_collect", num_players=3))
    assert "3p/aethermon_collect.npz" in str(e.value)
    for bad in (0, -1, 2.0, True, "2"):
        with pytest.raises(ValueError, match=rf"num_players must be an int >= 1, got {bad!r}"):
            shipped_weights(num_players=bad)


def test_export_for_one_count_writes_the_count_file_and_keeps_the_every_count_net(weights_dir, tmp_path):
    from training.exit import export
    from training.league import export_stage

    game = ether_envs.load_game("aethermon_collect")
    every = tiny_policy(game)[1].save(weights_dir / "aethermon_collect.npz")
    before = every.read_bytes()
    two = tiny_policy(game, seed=4)[1].save(tmp_path / "two.npz")
    init = tiny_policy(game, seed=5)[1].save(tmp_path / "init.npz")
    dest = export_stage(two, "aethermon_collect", init, for_players=True, log=lambda *_: None)
    assert dest == weights_dir / "2p" / "aethermon_collect.npz" and every.read_bytes() == before
    meta = MLPPolicy.load(dest).metadata
    assert meta["zoo"] == 2 and meta["training"]["stage"] == "league fine-tuning (training.league)"
    assert meta["encoder_fingerprint"] == encoder_fingerprint(game)
    assert make_agent("pretrained", game).path == dest
    with pytest.raises(ValueError, match=r"config\.num_players: model 2, env 3"):
        export(two, "aethermon_collect", num_players=3, log=lambda *_: None)
    for bad in (1, 5, 2.5, True):
        with pytest.raises(ValueError, match=r"num_players must be an int in 2\.\.4 \(aethermon_collect\), got"):
            export(two, "aethermon_collect", num_players=bad, log=lambda *_: None)
    assert sorted(p.name for p in (weights_dir / "2p").iterdir()) == ["aethermon_collect.npz"]


def test_export_checks_everything_before_it_replaces_the_zoo_file(weights_dir, tmp_path):
    """An oversize net, a net of another game or a stage export that fails leaves every file as it was."""
    from training.exit import export
    from training.league import export_stage

    game = ether_envs.load_game("aethermon_collect")
    every = tiny_policy(game)[1].save(weights_dir / "aethermon_collect.npz")
    before = every.read_bytes()
    big = tiny_policy(game, hidden=(1700,))[1].save(tmp_path / "big.npz")  # over 5 MB even as float16
    with pytest.raises(ValueError, match=r"over the zoo's 5 MB; .*aethermon_collect\.npz is unchanged"):
        export(big, "aethermon_collect", log=lambda *_: None)
    with pytest.raises(ValueError, match=r"over the zoo's 5 MB"):
        export(big, "aethermon_collect", num_players=2, log=lambda *_: None)
    assert every.read_bytes() == before
    assert sorted(p.relative_to(weights_dir).as_posix() for p in weights_dir.rglob("*") if p.is_file()) == \
        ["aethermon_collect.npz"]
    source = tiny_policy(game, seed=6)[1].save(tmp_path / "source.npz")
    source_bytes = source.read_bytes()
    with pytest.raises(ValueError, match=r"is a net of 'aethermon_collect', not 'etherium'"):
        export_stage(source, "etherium", source, for_players=True, log=lambda *_: None)
    with pytest.raises(ValueError, match=r"unknown game 'nosuchgame'; registered games: \["):
        export(source, "nosuchgame", log=lambda *_: None)
    with pytest.raises(ValueError, match=r"for_players must be True or False, got 'no'"):
        export_stage(source, "aethermon_collect", source, for_players="no", log=lambda *_: None)
    assert source.read_bytes() == source_bytes and every.read_bytes() == before
    # a good export leaves its source file as it was too
    export_stage(source, "aethermon_collect", source, log=lambda *_: None)
    assert source.read_bytes() == source_bytes and every.read_bytes() != before
    assert export(source, "aethermon_collect", num_players=np.int64(2), log=lambda *_: None).parent.name == "2p"


def test_a_net_for_one_count_loads_without_an_every_count_net(weights_dir):
    two = tiny_policy(ether_envs.load_game("ether_wars"))[1]
    two.metadata["zoo"] = 2
    (weights_dir / "2p").mkdir()
    two.save(weights_dir / "2p" / "ether_wars.npz")
    assert shipped_weights() == {} and shipped_weights(num_players=2) == {"ether_wars": weights_dir / "2p" / "ether_wars.npz"}
    assert shipped_weights(zoo=2, num_players=2) == shipped_weights(num_players=2)
    assert shipped_weights(zoo=1, num_players=2) == {}
    assert make_agent("pretrained", ether_envs.load_game("ether_wars")).path == weights_dir / "2p" / "ether_wars.npz"
    with pytest.raises(ValueError, match=r"no pretrained weights for 'ether_wars'; available: none"):
        make_agent("pretrained", ether_envs.load_game("ether_wars", num_players=3))
    assert shipped_weights(num_players=10**4000) == {}  # no path is built from the count


def test_count_weights_path_refuses_bad_names_and_counts():
    from agents.pretrained import count_weights_path

    assert count_weights_path("ether_wars", 2) == WEIGHTS_DIR / "2p" / "ether_wars.npz"
    for bad in (0, -1, True, 2.5, "2", None):
        with pytest.raises(ValueError, match=rf"num_players must be an int >= 1, got {bad!r}"):
            count_weights_path("ether_wars", bad)
    with pytest.raises(ValueError, match=r"unknown game '\.\./\.\./x'; registered games: \["):
        count_weights_path("../../x", 2)


def test_a_zoo_without_the_game_names_the_zoos_that_have_it_and_an_empty_path_is_refused():
    """Bad input names what is allowed: the zoos with a net for the game at its count; an empty
    ``path=`` is refused as empty (not read as the current folder)."""
    game = ether_envs.load_game("etherium")
    for spec in ("pretrained:zoo=9", "az:zoo=9"):
        with pytest.raises(ValueError, match=r"in zoo 9; zoos with a net for it at 2 players: 1, 2$"):
            make_agent(spec, game)
    for spec in ("pretrained:path=", "az:path=", "az:opponent_path="):
        with pytest.raises(ValueError, match="the weight file path is empty"):
            make_agent(spec, game)
