"""The one agent interface, at the engine level and at the env level: the agent protocol.

**An agent must provide** ``act(state, player) -> int``: the action id (a Python int in
``0..game.num_distinct_actions()-1``, legal in ``state``) that seat ``player``, the player to
act, chooses in the engine ``State`` ``state``. It must not change ``state`` (clone it first).

**It may provide**

* ``seed(seed)``: reseed its own generator (``seed`` an int or ``None``). Tournaments
  (``training.evaluate``) call it before every game, so results do not depend on which games
  an agent played before or in which process; an agent draws every random number from its own
  generator, never from the state's (``state.rng`` is the game's chance).
* ``act_observation(observation, action_mask) -> int``: the same choice from the env-level view
  (``observation`` float32 ``(obs_size,)``, ``action_mask`` int8 ``(num_actions,)``, as the
  PettingZoo env's observation dict holds them), with ``uses_state = False``: such an agent
  plays from that view alone and also plays PettingZoo envs through :meth:`Agent.act_env`.
* ``uses_state`` (default ``True``): whether ``act`` needs the engine state (search,
  heuristics) rather than only the observation and mask.
* ``name``: a label for tables and records (``make_agent`` sets it to the spec).

**What it may see**: only what seat ``player`` may see: ``state.observation_tensor(player)``,
``state.observation_string(player)``, ``state.legal_actions()`` /
``state.legal_actions_mask()``, the configured game (``state.game``) and public facts. Before
any look-ahead it draws a determinization, ``state.resample_hidden(player, self.rng)``, and
searches that, never ``state`` itself, which holds the other seats' hidden cards and the
future chance. The engine cannot enforce this; tournament results trust it.

Subclass :class:`Agent` (it gives ``self.rng``, ``seed``, ``act_env`` and ``check_to_move``, which
an ``act`` should call first), or bring your own:
``agents.as_agent(obj)`` turns any object with ``act``, any function ``(observation,
action_mask) -> action`` or a torch ``nn.Module`` returning logits into an ``Agent``, and the
spec ``python:MODULE:ATTRIBUTE`` does so from the command line (module :mod:`agents.plugin`),
importing ``MODULE`` from the current folder; a class or factory there is called with the game
(and the spec's keys). A researcher's policy, ``my_agent.py``::

    import numpy as np

    def policy(observation, action_mask):          # python:my_agent:policy
        return int(np.flatnonzero(action_mask)[-1])

    class Picky:                                   # python:my_agent:Picky,last=false
        def __init__(self, game, last=True): self.last, self.rng = last, np.random.default_rng()
        def seed(self, seed): self.rng = np.random.default_rng(seed)
        def act(self, state, player):
            legal = state.legal_actions()
            return legal[-1] if self.last else int(self.rng.choice(legal))

and, run from that folder: ``ether-envs evaluate ether_wars python:my_agent:policy heuristic
--deals 20`` (also ``ether-envs play ... --opponents python:my_agent:Picky``).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np


class Agent:
    """A player. Subclasses implement :meth:`act` (engine level: a ``State``) and,
    when they need only what the observation shows, :meth:`act_observation`.

    Every agent owns its ``numpy.random.Generator`` (``self.rng``), reseeded by
    :meth:`seed`; it never touches the state's generator.

    Attributes:
        name: the spec string it was built from (or the class name).
        uses_state: whether :meth:`act` needs the engine ``State`` (heuristic,
            MCTS) rather than only the observation and mask (random, PPO).
    """

    name: str = "agent"
    uses_state: bool = True

    def __init__(self) -> None:
        self.rng = np.random.default_rng()

    def seed(self, seed: int | None) -> None:
        """Reseed the agent's own generator."""
        self.rng = np.random.default_rng(seed)

    def check_to_move(self, state, player: int) -> None:
        """Raise ``ValueError`` unless ``player`` is the player to move in ``state``
        (a finished game has nobody to move). Every built-in agent's :meth:`act` calls it
        first, so it never answers for a seat that is not to act; a subclass that overrides
        :meth:`act` should call it too."""
        if state.is_terminal() or state.current_player() != player:
            to_move = "nobody (the game is over)" if state.is_terminal() else f"player {state.current_player()}"
            seat = int(player) if isinstance(player, (int, np.integer)) else repr(player)
            raise ValueError(f"agent {self.name!r}: player {seat} is not to move here ({to_move} is)")

    def act(self, state, player: int) -> int:
        """The action id ``player`` chooses in ``state``.

        Only what ``player`` may see is used: hidden parts are redrawn with
        ``state.resample_hidden(player, rng)`` before any look-ahead.

        Raises:
            ValueError: the game is over or ``player`` is not the player to move
                (:meth:`check_to_move`).
        """
        if self.uses_state:
            raise NotImplementedError
        self.check_to_move(state, player)
        obs = state.observation_tensor(player)
        return self.act_observation(obs, state.legal_actions_mask())

    def act_observation(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The action id for a flat float32 ``observation`` and int8 ``action_mask``
        (the env-level view). Raises ``NotImplementedError`` for agents that need a State."""
        raise NotImplementedError(
            f"{self.name} plays from the engine state; use act(state, player) or act_env(env)")

    def act_env(self, env: Any) -> int:
        """The action for ``env.agent_selection`` of a PettingZoo AEC env from
        ``ether_envs.make`` (state-based agents read ``env.unwrapped.game_state``)."""
        raw = env.unwrapped
        seat = raw.agent_name_mapping[env.agent_selection]
        if self.uses_state:
            return self.act(raw.game_state, seat)
        obs = env.observe(env.agent_selection)
        return self.act_observation(obs["observation"], obs["action_mask"])

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


# one part of a spec: an optional ``key=``, then a value in single or double quotes or bare
# (no comma or quote), then a comma or the end
_PART = re.compile(r"""\s*(?:(?P<key>[^,='"]+)=)?\s*(?:'(?P<sq>[^']*)'|"(?P<dq>[^"]*)"|(?P<bare>[^,'"]*))\s*(?P<end>,|$)""")
# one item of a comma-separated list of specs: anything but a comma outside quotes
_ITEM = re.compile(r"""(?:[^,'"]|'[^']*'|"[^"]*")*""")
_QUOTING_HELP = ("write a value holding ',', '=' or a quote in single or double quotes, "
                 "e.g. ppo:path='runs/a,b=c/model.zip'")


def parse_spec(spec: str) -> tuple[str, list[Any], dict[str, Any]]:
    """Split an agent spec ``kind[:part,part,...]``; a part is ``value`` (positional) or ``key=value``.

    ``"mcts:simulations=200,c=1.4"`` -> ``("mcts", [], {"simulations": 200, "c": 1.4})``;
    ``"ppo:runs/a.zip,deterministic=false"`` -> ``("ppo", ["runs/a.zip"], {"deterministic": False})``.
    A bare value is converted to bool/int/float when it looks like one, and may not hold ``,``
    or a quote. A value in single or double quotes is taken as it is, a string, so it may hold
    ``,``, ``=``, spaces and the other quote: ``ppo:path='runs/a,b=c/model.zip'`` or
    ``pretrained:"my weights, v2.npz"`` (:func:`quote_spec_value` writes one).

    Raises:
        ValueError: empty spec or empty part, or an unmatched quote.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"empty agent spec {spec!r}")
    kind, colon, rest = spec.strip().partition(":")
    if colon and not rest.strip():
        raise ValueError(f"agent spec {spec!r} has a ':' but no arguments")
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    pos = 0
    while colon:
        m = _PART.match(rest, pos)
        if m is None:
            raise ValueError(f"agent spec {spec!r}: unmatched quote, or text next to a quoted value, in "
                             f"{rest[pos:]!r}; {_QUOTING_HELP}")
        quoted = m["sq"] if m["sq"] is not None else m["dq"]
        value = quoted if quoted is not None else _value(m["bare"].strip())
        if m["key"] is not None:
            kwargs[m["key"].strip()] = value
        elif quoted is None and not m["bare"].strip():
            raise ValueError(f"empty part in agent spec {spec!r}")
        else:
            args.append(value)
        if not m["end"]:
            break
        pos = m.end()
    return kind.strip().lower(), args, kwargs


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of agent specs (``--eval-opponents``, ``--opponents``) at
    the commas outside quotes; an item wholly in quotes loses them, so a spec with several
    parts is written ``"mcts:simulations=50,c=2"``. Items are stripped; empty items are kept.

    Raises:
        ValueError: an unmatched quote.
    """
    items, pos = [], 0
    while True:
        m = _ITEM.match(text, pos)
        items.append(unquote(m.group().strip()))
        pos = m.end()
        if pos == len(text):
            return items
        if text[pos] != ",":
            raise ValueError(f"unmatched quote in {text!r}, in {text[pos:]!r}; {_QUOTING_HELP}")
        pos += 1


def unquote(text: str) -> str:
    """``text`` without the quotes around it, if it is wholly in single or double quotes."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" and text[0] not in text[1:-1]:
        return text[1:-1]
    return text


def quote_spec_value(value: str) -> str:
    """``value`` written as one value of an agent spec (:func:`parse_spec` gives it back as the
    same string): as it is, or in quotes when it holds ``,``, ``=``, a quote or outer spaces, or
    would be read as a number or bool.

    Raises:
        ValueError: ``value`` holds both quote characters (it cannot be written in a spec).
    """
    value = str(value)
    if isinstance(_value(value), str) and value == value.strip() and not re.search(r"""[,='"]""", value):
        return value
    quote = "'" if "'" not in value else '"'
    if quote in value:
        raise ValueError(f"{value!r} holds both quote characters, so it cannot be written in an agent spec")
    return f"{quote}{value}{quote}"
