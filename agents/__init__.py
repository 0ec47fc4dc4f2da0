"""Baseline agents for every ether-envs game, built from short spec strings.

    import ether_envs
    from agents import make_agent
    game = ether_envs.load_game("aethermon_collect")
    agent = make_agent("mcts:simulations=200", game, seed=0)
    state = game.new_initial_state(seed=7)
    action = agent.act(state, state.current_player())   # engine level (a State)
    env = ether_envs.make("aethermon_collect")
    env.reset(seed=7)
    action = agent.act_env(env)                         # env level (a PettingZoo AEC env)

Specs: ``random``, ``heuristic``, ``mcts[:simulations=N,c=C]``,
``rollout[:rollouts=N,base=heuristic|random,score_weight=W]``,
``pretrained[:path=FILE.npz|zoo=N,deterministic=false]``, ``az[:simulations=N,c=C,path=FILE.npz|zoo=N]``, ``ppo:PATH[,deterministic=false]``
(or ``ppo:path=PATH``), ``rllib:CHECKPOINT[,deterministic=false]`` (or ``checkpoint=``),
``openspiel:mcts[:simulations=N,...]``, ``openspiel:ismcts[:simulations=N,...]``,
``python:MODULE:ATTRIBUTE[,key=value,...]`` (your own policy, :mod:`agents.plugin`; an object
you built goes through :func:`as_agent`); a path holding ``,``, ``=`` or a quote goes in quotes:
``ppo:path='runs/a,b=c/model.zip'`` (see :func:`make_agent`).
"""

from .base import Agent, parse_spec, quote_spec_value, split_specs
from .heuristic import HeuristicAgent
from .mcts import MCTSAgent
from .plugin import as_agent
from .random_agent import RandomAgent

AGENT_KINDS = ("random", "heuristic", "mcts", "rollout", "az", "pretrained", "ppo", "rllib", "openspiel", "python")


def make_agent(spec: str, game, seed: int | None = None) -> Agent:
    """Build an agent from a spec string for a configured ``Game``.

    Spec grammar (:func:`agents.base.parse_spec`): ``kind[:part,part,...]``, each part a value
    (positional) or ``key=value``. A bare value becomes a bool, int or float when it looks like
    one; a value in single or double quotes is kept as it is, a string, and may hold ``,``,
    ``=``, spaces and the other quote: ``ppo:path='runs/a,b=c/model.zip'``,
    ``pretrained:"my weights.npz"`` (:func:`agents.base.quote_spec_value` writes one). On a
    shell command line, put the whole spec in the other quotes: ``"ppo:path='a,b/m.zip'"``.

    * ``random`` — uniform over legal actions.
    * ``heuristic`` — the game's greedy rule (``agents/heuristics/<game>.py``).
    * ``mcts:simulations=200,c=1.4`` — UCT over the engine (determinized for hidden information);
      ``simulations`` (int >= 1, default 200) playouts per decision, ``c`` (>= 0, default 1.4) the
      exploration constant. These are its only keys: each playout is one random rollout to the end.
    * ``rollout:rollouts=2,base=heuristic,score_weight=0.1`` — Monte Carlo rollout search
      (:mod:`agents.rollout`): every legal action tried ``rollouts`` times (int >= 1, default 2)
      over determinizations, the base policy (``heuristic``, default, or ``random``) playing every
      seat to the end; the best mean return plus ``score_weight`` (>= 0, default 0.1) times the
      final score margin wins.
    * ``pretrained`` — the game's shipped policy network (``agents/weights/<game>.npz``, for the
      game's default configuration at every player count, or ``agents/weights/<N>p/<game>.npz``
      at a count ``N`` that has a net of its own): one forward pass per decision, no search, no torch;
      ``pretrained:path=FILE.npz`` loads any weight file written by ``training`` (an ``.npz``
      read without pickles: loading it runs no code); ``pretrained:zoo=1`` the net of an older zoo
      (zoo 1: the nets of issue 14; ``pretrained`` is always the newest).
    * ``az:simulations=64,c=1.5`` — network-guided search (:mod:`agents.az`): PUCT over
      determinizations with the priors of a net's policy head and the leaf values of its value
      head (no rollouts); ``simulations`` (int >= 1, default 64), ``c`` (> 0, default 1.5),
      ``path=FILE.npz`` or ``zoo=N`` for the net (default the newest shipped net),
      ``temperature`` (>= 0, default 0: the most visited action), ``dirichlet`` (root noise,
      default 0), ``opponent_zoo=N`` or ``opponent_path=FILE.npz`` (the others are known to play
      that net greedily: a best-response search against it, for measuring exploitability).
    * ``ppo:path/to/model.zip`` or ``ppo:path=path/to/model.zip`` (``deterministic=false`` to sample) — a trained MaskablePPO
      model; an SB3 zip is a pickle, so loading it runs code: load only files you trust. A plain
      SB3 zip (``model.save()``, no ``ether_envs.json``) loads with a ``UserWarning``: only its
      observation shape and action count can be checked against ``game``.
    * ``rllib:runs/<run>/checkpoint`` or ``rllib:checkpoint=...`` — a policy trained by
      ``training.rllib`` (needs Ray).
    * ``openspiel:ismcts:simulations=100,uct_c=2`` / ``openspiel:mcts:simulations=100,worlds=1`` —
      OpenSpiel's own ``ISMCTSBot`` / ``MCTSBot``, searching determinizations only (needs the
      ``openspiel`` extra; keys in ``agents/openspiel_agent.py``). The algorithm is the part
      after ``openspiel:``; the keys follow it as in any spec.
    * ``python:my_agent:policy`` or ``python:mypkg.policies:Policy,deterministic=false`` — your own
      policy (:mod:`agents.plugin`): the attribute of a module imported with the current working
      directory on ``sys.path``; an ``Agent``, an object with ``act(state, player)``, a function
      ``(observation, action_mask) -> action``, a torch ``nn.Module`` returning logits, or a class
      or factory returning one of these (called with ``game`` when it takes one argument, and
      the keys as keyword arguments). Importing a module runs its code.

    Args:
        spec: the agent spec.
        game: the configured ``Game`` the agent plays.
        seed: seed of the agent's own generator (``None``: OS entropy).

    Raises:
        ValueError: unknown kind, bad arguments or quoting (``random`` and ``heuristic`` take
            none), (ppo, pretrained) a path that is a directory, or a model trained on another
            game/config, (python) a module or attribute not found or a target of no supported kind.
        FileNotFoundError: (ppo, pretrained) no model or weight file at the path.
    """
    kind, args, kwargs = parse_spec(spec)
    if kind == "openspiel":
        # "openspiel:ALGORITHM[:keys]": the algorithm, then the keys as in any spec
        _, _, rest = spec.strip().partition(":")
        algorithm, _, keys = rest.partition(":")
        if not algorithm.strip():
            raise ValueError(f"agent spec {spec!r} needs an algorithm: openspiel:mcts or openspiel:ismcts")
        algorithm, args, kwargs = parse_spec(algorithm.strip() + (":" + keys if keys else ""))
        args = [algorithm, *args]
    if kind == "python":
        from .plugin import agent_from_spec

        agent = agent_from_spec(spec, game, args, kwargs)
        agent.name = spec
        if seed is not None:
            agent.seed(seed)
        return agent
    if kind in ("random", "heuristic") and (args or kwargs):
        raise ValueError(f"agent spec {spec!r}: {kind} takes no options (write just {kind!r})")
    if kind == "random":
        cls, first = RandomAgent, []
    elif kind == "heuristic":
        cls, first = HeuristicAgent, [game]
    elif kind == "mcts":
        cls, first = MCTSAgent, []
    elif kind == "rollout":
        from .rollout import RolloutAgent

        cls, first = RolloutAgent, [game]
    elif kind == "az":
        from .az import _from_spec

        cls, first = _from_spec, [game]
    elif kind == "pretrained":
        from .pretrained import PretrainedAgent

        cls, first = PretrainedAgent, [game]
    elif kind == "ppo":
        from .ppo import PPOAgent  # torch only when needed

        cls, first = PPOAgent, [game]
    elif kind == "rllib":
        try:
            from .rllib_agent import RLlibAgent  # ray and torch only when needed
        except ImportError as e:
            raise ValueError(f"agent spec {spec!r} needs Ray RLlib: pip install -e '.[distributed]' ({e})") from None
        cls, first = RLlibAgent, [game]
    elif kind == "openspiel":
        from .openspiel_agent import OpenSpielAgent  # pyspiel only when needed (clear error without it)

        cls, first = OpenSpielAgent, [game]
    else:
        raise ValueError(f"unknown agent kind {kind!r} in spec {spec!r}; known: {', '.join(AGENT_KINDS)}")
    try:
        agent = cls(*first, *args, **kwargs)
    except TypeError as e:
        raise ValueError(f"bad arguments in agent spec {spec!r}: {e} (a value holding ',', '=' or a quote goes "
                         f"in single or double quotes, e.g. pretrained:path='runs/a,b=c/policy.npz')") from None
    agent.name = spec
    if seed is not None:
        agent.seed(seed)
    return agent


__all__ = ["Agent", "HeuristicAgent", "MCTSAgent", "RandomAgent", "as_agent", "make_agent", "parse_spec",
           "quote_spec_value", "split_specs", "AGENT_KINDS"]
