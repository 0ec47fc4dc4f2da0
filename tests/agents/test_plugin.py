"""A plug-in for any policy: the ``python:MODULE:ATTRIBUTE`` spec and ``agents.as_agent``, with
every kind of target playing real games to the end; their errors; a plain SB3 zip as ``ppo:``."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import ether_envs
from agents import Agent, RandomAgent, as_agent, make_agent, parse_spec
from training.evaluate import play_game

GAME = "aethermon_collect"
MODULE = "ee_researcher_policy"  # the researcher's file, written into the test's working folder

RESEARCHER = '''
import numpy as np

from agents import Agent

SEEDS = []

def policy(observation, action_mask):
    assert observation.dtype == np.float32 and action_mask.dtype == np.int8
    return np.int64(np.flatnonzero(action_mask)[-1])

def temperature_policy(observation, action_mask, temperature=1.0):
    return int(np.flatnonzero(action_mask)[0 if temperature < 1 else -1])

class Picky:
    """An object with act (and seed), built by the spec: Picky(game, last=...)."""
    def __init__(self, game, last=True):
        self.num_actions, self.last, self.rng = game.num_distinct_actions(), last, None
    def seed(self, seed):
        SEEDS.append(seed)
        self.rng = np.random.default_rng(seed)
    def act(self, state, player):
        legal = state.legal_actions()
        return legal[-1] if self.last else int(self.rng.choice(legal))

class NoSeed:
    def act(self, state, player):
        return state.legal_actions()[0]

plain = NoSeed()  # an instance: used as it is

class MyAgent(Agent):
    uses_state = False
    def act_observation(self, observation, action_mask):
        return int(self.rng.choice(np.flatnonzero(action_mask)))

instance = MyAgent()

def make_policy(game):  # a factory taking the game, returning a policy function
    n = game.num_distinct_actions()
    def chosen(observation, action_mask):
        assert len(action_mask) == n
        return int(np.flatnonzero(action_mask)[0])
    return chosen

def make_nothing():  # a factory taking nothing
    return NoSeed()

def make_class():
    return NoSeed

def returns_float(observation, action_mask):
    return 1.0

def out_of_range(observation, action_mask):
    return len(action_mask)

def three_args(a, b, c):
    return 0

number = 42
'''

TORCH_MODULE = '''
import torch

class Net(torch.nn.Module):
    """Logits for a batch of observations (dropout: eval mode must be used while playing)."""
    def __init__(self, game, tuple_out=False):
        super().__init__()
        torch.manual_seed(0)
        self.tuple_out = tuple_out
        self.body = torch.nn.Sequential(torch.nn.Linear(game.observation_size(), 16), torch.nn.Dropout(0.5),
                                        torch.nn.Linear(16, game.num_distinct_actions()))
    def forward(self, obs):
        assert obs.dim() == 2 and obs.dtype == torch.float32
        logits = self.body(obs)
        return (logits, logits.sum(-1)) if self.tuple_out else logits

class WrongSize(torch.nn.Module):
    def forward(self, obs):
        return torch.zeros(obs.shape[0], 3)
'''


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A working folder holding the researcher's modules; imports and sys.path undone after."""
    (tmp_path / f"{MODULE}.py").write_text(RESEARCHER)
    (tmp_path / f"{MODULE}_torch.py").write_text(TORCH_MODULE)
    (tmp_path / f"{MODULE}_broken.py").write_text("import ee_no_such_dependency\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield tmp_path
    for name in (MODULE, f"{MODULE}_torch", f"{MODULE}_broken"):
        sys.modules.pop(name, None)


@pytest.fixture(scope="module")
def game():
    return ether_envs.load_game(GAME)


def play(game, agent, seeds=(0, 1)) -> list[np.ndarray]:
    """Games to the end against random (in both seats); each game's returns."""
    out = []
    for seed in seeds:
        for seat in (0, 1):
            agent.seed(seed)
            opponent = RandomAgent()
            opponent.seed(seed + 1)
            lineup = [agent, opponent] if seat == 0 else [opponent, agent]
            returns, scores, steps = play_game(game, lineup, seed)
            assert steps > 0 and returns.shape == (2,)
            out.append(returns)
    return out


def test_python_specs_parse_with_colons_and_dots():
    assert parse_spec("python:pkg.mod:attr") == ("python", ["pkg.mod:attr"], {})
    assert parse_spec("python:mypkg.policies:Policy.make,deterministic=false") == (
        "python", ["mypkg.policies:Policy.make"], {"deterministic": False})
    assert parse_spec("python:'a.b:c',x=1") == ("python", ["a.b:c"], {"x": 1})


@pytest.mark.parametrize("attr, kind, uses_state", [
    ("policy", "PolicyFunctionAgent", False),
    ("temperature_policy,temperature=0.5", "PolicyFunctionAgent", False),
    ("Picky", "ObjectAgent", True),
    ("Picky,last=false", "ObjectAgent", True),
    ("plain", "ObjectAgent", True),
    ("instance", "MyAgent", False),
    ("MyAgent", "MyAgent", False),
    ("make_policy", "PolicyFunctionAgent", False),
    ("make_nothing", "ObjectAgent", True),
])
def test_every_target_kind_plays_whole_games_through_make_agent(folder, game, attr, kind, uses_state):
    spec = f"python:{MODULE}:{attr}"
    agent = make_agent(spec, game, seed=3)
    assert isinstance(agent, Agent) and type(agent).__name__ == kind
    assert agent.name == spec and agent.uses_state is uses_state
    assert len(play(game, agent)) == 4


def test_keys_go_to_the_class_and_seed_reaches_the_object(folder, game):
    agent = make_agent(f"python:{MODULE}:Picky,last=false", game, seed=7)
    module = sys.modules[MODULE]
    assert agent.obj.last is False and module.SEEDS == [7]
    first = play(game, agent, seeds=(5,))
    assert module.SEEDS[-2:] == [5, 5]
    assert [r.tolist() for r in play(game, agent, seeds=(5,))] == [r.tolist() for r in first]  # seeded: the same
    assert make_agent(f"python:{MODULE}:Picky", game).obj.last is True


def test_a_torch_module_plays_the_masked_argmax_in_eval_mode(folder, game):
    torch = pytest.importorskip("torch")
    for spec in (f"python:{MODULE}_torch:Net", f"python:{MODULE}_torch:Net,tuple_out=true"):
        agent = make_agent(spec, game, seed=0)
        assert type(agent).__name__ == "ModuleAgent" and agent.module.training  # left as the researcher had it
        play(game, agent, seeds=(0,))
        assert agent.module.training
        state = game.new_initial_state(seed=2)
        obs, mask = state.observation_tensor(0), state.legal_actions_mask()
        with torch.no_grad():
            logits = agent.module.eval().body(torch.as_tensor(obs[None]))[0].numpy()
        agent.module.train()
        logits[mask == 0] = -np.inf
        assert agent.act(state, 0) == int(np.argmax(logits)) == agent.act(state, 0)  # no dropout while playing
    with pytest.raises(ValueError, match=r"returned \(1, 3\) for a batch of one observation; expected logits of "
                                         r"shape \(1, 183\)"):
        make_agent(f"python:{MODULE}_torch:WrongSize", game).act(game.new_initial_state(seed=2), 0)


def researcher():
    """The researcher's module, imported as a python: spec imports it."""
    from agents.plugin import load_target

    return sys.modules[load_target(f"{MODULE}:policy").__module__]


def test_as_agent_takes_every_built_form(folder, game):
    module = researcher()
    forms = {
        "function": module.policy,
        "object with act": module.Picky(game),
        "object without seed": module.NoSeed(),
        "lambda": lambda observation, action_mask: int(np.flatnonzero(action_mask)[-1]),
        "factory result": module.make_policy(game),
    }
    for label, obj in forms.items():
        agent = as_agent(obj, name=label)
        assert isinstance(agent, Agent) and agent.name == label
        agent.seed(None)
        assert len(play(game, agent, seeds=(1,))) == 2
    built = module.MyAgent()
    assert as_agent(built) is built and as_agent(built, name="x") is built  # an Agent as it is
    assert as_agent(module.policy).name == "policy"
    assert as_agent(module.Picky(game)).name == "Picky"


def test_as_agent_of_a_torch_module(game):
    torch = pytest.importorskip("torch")
    net = torch.nn.Linear(game.observation_size(), game.num_distinct_actions())
    agent = as_agent(net)
    assert agent.name == "Linear" and not agent.uses_state
    play(game, agent, seeds=(0,))


def test_observation_agents_play_the_pettingzoo_env(folder, game):
    agents = [make_agent(f"python:{MODULE}:policy", game), as_agent(sys.modules[MODULE].make_policy(game))]
    env = ether_envs.make(GAME)
    env.reset(seed=0)
    for name in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else agents[env.unwrapped.agent_name_mapping[name]].act_env(env))
    assert not env.agents


def test_the_evaluate_command_runs_a_researchers_file(folder, capsys):
    from training import cli

    assert cli.main(["evaluate", GAME, f"python:{MODULE}:policy", "heuristic", "--deals", "2", "--seed", "0",
                     "--no-progress", "--out", str(folder / "out")]) in (0, None)
    assert f"python:{MODULE}:policy" in capsys.readouterr().out


def test_importing_plain_policies_does_not_import_torch(folder):
    code = ("import sys, ether_envs\nfrom agents import make_agent\n"
            f"a = make_agent('python:{MODULE}:policy', ether_envs.load_game('{GAME}'))\n"
            "assert 'torch' not in sys.modules, 'torch imported'\nprint('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=folder)
    assert out.stdout.strip() == "ok", out.stderr


@pytest.mark.parametrize("spec, message", [
    ("python:ee_no_such_module:policy", "python:ee_no_such_module:policy: no module named 'ee_no_such_module' "
                                        "(looked in the current folder"),
    ("python:ee_no_such_pkg.sub:policy", "no module named 'ee_no_such_pkg.sub'"),
    (f"python:{MODULE}_broken:policy", f"importing '{MODULE}_broken' failed: No module named "
                                       "'ee_no_such_dependency'"),
    (f"python:{MODULE}:nope", f"module '{MODULE}' ("),
    (f"python:{MODULE}:Picky.nope", "has no attribute 'nope'"),
    (f"python:{MODULE}", "write python:MODULE:ATTRIBUTE, e.g. python:my_agent:policy"),
    (f"python:{MODULE}:", "write python:MODULE:ATTRIBUTE"),
    (f"python:.{MODULE}:policy", "write python:MODULE:ATTRIBUTE"),
    (f"python:{MODULE}:policy,extra", "one target, then keys passed to a class or factory"),
    (f"python:{MODULE}:number", "is a int, not an agent: a python: target may be an agents.Agent, an object with "
                                "act(state, player) -> int, a callable (observation, action_mask) -> int, or a "
                                "torch nn.Module"),
    (f"python:{MODULE}:plain,x=1", "keys ['x'] are passed to a class or factory, but"),
    (f"python:{MODULE}:Picky,colour=1", "bad keys for Picky(game, last=True)"),
    (f"python:{MODULE}:three_args", "cannot tell how to call three_args(a, b, c)"),
    (f"python:{MODULE}:make_class", "make_class() returned <class"),
])
def test_python_spec_errors_are_clear(folder, game, spec, message):
    with pytest.raises(ValueError) as e:
        make_agent(spec, game)
    assert message in str(e.value)
    if "nope" in spec and "." not in spec.split(":")[-1]:
        assert "it defines: " in str(e.value) and "policy" in str(e.value)


@pytest.mark.parametrize("attr, message", [
    ("returns_float", "action 1.0 is not in Discrete(183): expected an int"),
    ("out_of_range", "action 183 is not in Discrete(183)"),
])
def test_an_action_that_is_not_an_int_in_range_is_refused(folder, game, attr, message):
    agent = make_agent(f"python:{MODULE}:{attr}", game)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        play_game(game, [agent, agent], 0)


def test_as_agent_refuses_what_is_not_an_agent(folder, game):
    module = researcher()
    with pytest.raises(ValueError, match="Picky is a class: build the agent first"):
        as_agent(module.Picky)
    with pytest.raises(ValueError, match=r"is not an agent: an agent is an agents.Agent, an object with act"):
        as_agent(object())
    with pytest.raises(ValueError, match=r"three_args\(a, b, c\) cannot be called as policy\(observation, "
                                         r"action_mask\)"):
        as_agent(module.three_args)
    bad = as_agent(lambda observation, action_mask: True, name="yes-man")
    with pytest.raises(ValueError, match="agent 'yes-man': action True is not in Discrete"):
        bad.act(game.new_initial_state(seed=2), 0)


@pytest.fixture(scope="module")
def plain_zip(tmp_path_factory):
    """A MaskablePPO saved with a plain ``model.save()`` (no ether_envs.json), never trained."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from ether_envs.wrappers import SingleAgentEnv

    env = SingleAgentEnv(GAME, {"num_players": 2})
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [8]})
    path = tmp_path_factory.mktemp("plain") / "plain.zip"
    model.save(path)
    return path


def test_a_plain_sb3_zip_loads_for_the_named_game_with_a_warning(game, plain_zip):
    with pytest.warns(UserWarning) as record:
        agent = make_agent(f"ppo:{plain_zip}", game, seed=0)
    text = " ".join(str(w.message) for w in record)
    assert "records no game or config" in text and "pickle, which runs code when loaded" in text
    play(game, agent, seeds=(0,))


def test_a_plain_sb3_zip_for_other_spaces_is_refused_naming_both(plain_zip):
    other = ether_envs.load_game("ether_wars")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(ValueError) as e:
            make_agent(f"ppo:{plain_zip}", other)
    assert "observation space shape: model (2197,), game (764,)" in str(e.value)
    assert "action space size: model 183, game 157" in str(e.value)


def test_the_researchers_file_in_the_module_docstring_runs(folder, game):
    """The example in agents/base.py's docstring, as written there."""
    import agents.base

    doc = agents.base.__doc__
    example = textwrap.dedent(doc[doc.index("    import numpy as np"):doc.index("and, run from that folder")])
    (folder / "ee_docstring_agent.py").write_text(example)
    try:
        for attr in ("policy", "Picky,last=false"):
            play(game, make_agent(f"python:ee_docstring_agent:{attr}", game, seed=0), seeds=(0,))
    finally:
        sys.modules.pop("ee_docstring_agent", None)
