"""Your own policy as an agent: :func:`as_agent` (an object you built) and the agent spec
``python:MODULE:ATTRIBUTE[,key=value,...]`` (an object your module defines).

What either accepts (the agent protocol is in :mod:`agents.base`):

* an :class:`agents.Agent` (returned as it is);
* any object with ``act(state, player) -> int`` (``seed(seed)``, ``act_observation(observation,
  action_mask)`` and ``uses_state`` are used when it has them);
* a callable ``(observation, action_mask) -> int``: ``observation`` float32 ``(obs_size,)``,
  ``action_mask`` int8 ``(num_actions,)``, as the PettingZoo env's observation dict holds them;
* a torch ``nn.Module`` mapping a float32 batch ``(B, obs_size)`` to logits ``(B, num_actions)``
  (or a tuple whose first item is the logits): the agent plays the masked argmax, in eval mode
  and without gradients (torch is imported only by such a module's own code);

and, in a ``python:`` spec only, a class or factory function that returns one of these: it is
called with the configured ``Game`` when it has one required positional parameter (or an
optional first one named ``game``), else with none, plus the spec's keys as keyword arguments
(``python:mypkg.policies:Policy,deterministic=false`` calls ``Policy(game, deterministic=False)``).
A policy function's keys are bound to it (``functools.partial``).

The module is imported with the current working directory on ``sys.path`` (as ``python -m``
does), so ``ether-envs evaluate ether_wars python:my_agent:policy heuristic`` finds
``my_agent.py`` in the folder it is run from. Importing a module runs its code: name only
modules you trust.

A returned action must be an int (a Python or numpy int, or a 0-d integer array or tensor) in
``0..num_actions-1``, else the agent raises ``ValueError``; a legal-move check is the engine's
(``training.evaluate.play_game`` names the agent that played an illegal action).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import sys
from typing import Any

import numpy as np

from ether_envs.core.game import is_action_id, malformed_action

from .base import Agent

SUPPORTED = ("an agents.Agent, an object with act(state, player) -> int, a callable (observation, action_mask) "
             "-> int, or a torch nn.Module returning action logits for a batch of observations")
"""What :func:`as_agent` takes, in words (used in its error messages)."""

SPEC_SUPPORTED = SUPPORTED + ", or a class or factory that returns one of these"
"""What a ``python:`` spec's target may be, in words."""


# ---- the adapters ------------------------------------------------------------------------
def _action(a: Any, num_actions: int, name: str) -> int:
    """``a`` as a Python int in ``0..num_actions-1``, else ``ValueError`` naming the agent."""
    if not is_action_id(a) and type(a).__module__.split(".")[0] == "torch" and getattr(a, "ndim", None) == 0 \
            and not a.is_floating_point() and not a.is_complex():
        a = a.item()
    if not is_action_id(a) or not 0 <= int(a) < num_actions:
        raise ValueError(f"agent {name!r}: {malformed_action(a, num_actions)}")
    return int(a)


def _seed_of(obj: Any, seed: int | None) -> None:
    fn = getattr(obj, "seed", None)
    if callable(fn):
        fn(seed)


class ObjectAgent(Agent):
    """An object with ``act(state, player)`` as an :class:`Agent` (see :func:`as_agent`)."""

    def __init__(self, obj: Any, name: str) -> None:
        super().__init__()
        self.obj, self.name = obj, name
        # it plays from observations only if it says so and can
        self.uses_state = not (getattr(obj, "uses_state", True) is False
                               and callable(getattr(obj, "act_observation", None)))

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        _seed_of(self.obj, seed)

    def act(self, state, player: int) -> int:
        self.check_to_move(state, player)
        return _action(self.obj.act(state, player), state.game.num_distinct_actions(), self.name)

    def act_observation(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        fn = getattr(self.obj, "act_observation", None)
        if not callable(fn):
            return super().act_observation(observation, action_mask)
        return _action(fn(observation, action_mask), len(action_mask), self.name)


class PolicyFunctionAgent(Agent):
    """A callable ``(observation, action_mask) -> action`` as an :class:`Agent`."""

    uses_state = False

    def __init__(self, fn: Any, name: str) -> None:
        super().__init__()
        self.fn, self.name = fn, name

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        _seed_of(self.fn, seed)

    def act_observation(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return _action(self.fn(observation, action_mask), len(action_mask), self.name)


class ModuleAgent(Agent):
    """A torch ``nn.Module`` returning logits as an :class:`Agent`: the masked argmax."""

    uses_state = False

    def __init__(self, module: Any, name: str) -> None:
        super().__init__()
        self.module, self.name = module, name

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        _seed_of(self.module, seed)

    def act_observation(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        import torch  # already imported: the module is a torch module

        mask = np.asarray(action_mask) > 0
        if not mask.any():
            raise ValueError(f"agent {self.name!r}: action_mask has no legal action")
        param = next(self.module.parameters(), None)
        device = param.device if param is not None else "cpu"
        obs = torch.as_tensor(np.asarray(observation, dtype=np.float32)[None], device=device)
        was_training = self.module.training
        try:
            if was_training:
                self.module.eval()
            with torch.no_grad():
                out = self.module(obs)
        finally:
            if was_training:
                self.module.train(True)
        if isinstance(out, (tuple, list)) and out:
            out = out[0]
        if not isinstance(out, torch.Tensor) or out.numel() != mask.size:
            shape = tuple(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__
            raise ValueError(f"agent {self.name!r}: the module returned {shape} for a batch of one observation; "
                             f"expected logits of shape (1, {mask.size}), one per action")
        logits = out.detach().reshape(-1).to("cpu", torch.float64).numpy().copy()
        logits[~mask] = -np.inf
        return int(np.argmax(logits))


def _is_torch_module(obj: Any) -> bool:
    torch = sys.modules.get("torch")  # an nn.Module exists only once torch is imported
    return torch is not None and isinstance(obj, torch.nn.Module)


def _default_name(obj: Any) -> str:
    name = getattr(obj, "name", None)
    if isinstance(name, str) and name:
        return name
    if isinstance(obj, functools.partial):
        obj = obj.func
    return getattr(obj, "__qualname__", None) or type(obj).__name__


def _takes_two_positionals(fn: Any) -> bool | None:
    """Whether ``fn(observation, action_mask)`` binds (``None``: no signature to tell)."""
    try:
        inspect.signature(fn).bind(None, None)
    except TypeError:
        return False
    except ValueError:
        return None
    return True


def as_agent(obj: Any, name: str | None = None) -> Agent:
    """``obj`` as an :class:`Agent`: an ``Agent`` as it is; an object with ``act(state, player)``,
    a callable ``(observation, action_mask) -> action`` or a torch ``nn.Module`` returning logits,
    wrapped (see the module docstring). The wrapper's ``seed(seed)`` calls ``obj.seed(seed)`` when
    ``obj`` has one and does nothing else to it; observation-based forms also have
    ``act_observation`` (so ``act_env`` works on a PettingZoo env).

    Args:
        obj: the object.
        name: the wrapper's ``name`` (default: ``obj.name``, or its qualified name).

    Raises:
        ValueError: ``obj`` is a class (build it first), or of no supported kind (the message
            says which are), or a callable that cannot take ``(observation, action_mask)``.
    """
    if isinstance(obj, Agent):
        return obj
    name = name if name is not None else _default_name(obj)
    if isinstance(obj, type):
        raise ValueError(f"{name} is a class: build the agent first (as_agent(MyAgent(...))); a python: agent spec "
                         "calls a class itself")
    if callable(getattr(obj, "act", None)):
        return ObjectAgent(obj, name)
    if _is_torch_module(obj):
        return ModuleAgent(obj, name)
    if callable(obj):
        if _takes_two_positionals(obj) is False:
            raise ValueError(f"{name}{_signature(obj)} cannot be called as policy(observation, action_mask); "
                             f"an agent is {SUPPORTED}")
        return PolicyFunctionAgent(obj, name)
    raise ValueError(f"{name} ({type(obj).__name__}) is not an agent: an agent is {SUPPORTED}")


def _signature(fn: Any) -> str:
    try:
        return str(inspect.signature(fn))
    except (TypeError, ValueError):
        return "(...)"


# ---- the python: spec ----------------------------------------------------------------------
def _cwd_on_path() -> None:
    """The current working directory first on ``sys.path`` (as ``python -m`` puts it), once."""
    cwd = os.getcwd()
    if not any(os.path.abspath(p or os.curdir) == cwd for p in sys.path):
        sys.path.insert(0, cwd)


def load_target(ref: str) -> Any:
    """The object ``ref`` (``package.module:attribute``, the attribute maybe dotted) names,
    importing the module with the current working directory on ``sys.path``.

    Raises:
        ValueError: ``ref`` is not ``module:attribute``, the module is not found (named), its
            import needs a module that is not found, or the attribute is not found.
    """
    module_name, colon, attr = str(ref).strip().partition(":")
    module_name, attr = module_name.strip(), attr.strip()
    if not colon or not module_name or not attr or module_name.startswith("."):
        raise ValueError(f"python:{ref}: write python:MODULE:ATTRIBUTE, e.g. python:my_agent:policy "
                         "(my_agent.py in the current folder, or an installed module)")
    _cwd_on_path()
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name and (module_name == e.name or module_name.startswith(e.name + ".")):
            raise ValueError(f"python:{ref}: no module named {module_name!r} (looked in the current folder "
                             f"{os.getcwd()} and on sys.path)") from None
        raise ValueError(f"python:{ref}: importing {module_name!r} failed: {e}") from e
    obj: Any = module
    for i, part in enumerate(attr.split(".")):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            where = f"module {module_name!r} ({getattr(module, '__file__', None) or 'built in'})"
            if i:
                where = f"{'.'.join(attr.split('.')[:i])!r} in {where}"
            public = sorted(n for n in vars(module) if not n.startswith("_")) if not i else []
            hint = f"; it defines: {', '.join(public[:20])}{' ...' if len(public) > 20 else ''}" if public else ""
            raise ValueError(f"python:{ref}: {where} has no attribute {part!r}{hint}") from None
    return obj


def _call_mode(target: Any, kwargs: dict[str, Any], ref: str) -> str:
    """How to use a callable target: ``"policy"`` (``(observation, action_mask)``), or call it
    as a factory with the game (``"game"``) or with nothing (``"none"``), plus ``kwargs``."""
    is_class = isinstance(target, type)
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return "none" if is_class else "policy"
    positional = [p for p in sig.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name not in kwargs]
    required = [p for p in positional if p.default is p.empty]
    if not is_class and len(required) == 2:
        mode = "policy"
    elif len(required) == 1 or (not required and positional and positional[0].name == "game"):
        mode = "game"
    elif not required:
        mode = "none"
    else:
        raise ValueError(f"python:{ref}: cannot tell how to call {_default_name(target)}{sig}: a class or factory "
                         "takes the game or nothing (plus the spec's keys), a policy function takes "
                         "(observation, action_mask)")
    try:
        sig.bind(*([None] * {"policy": 2, "game": 1, "none": 0}[mode]), **kwargs)
    except TypeError as e:
        raise ValueError(f"python:{ref}: bad keys for {_default_name(target)}{sig}: {e}") from None
    return mode


def agent_from_spec(spec: str, game, args: list[Any], kwargs: dict[str, Any]) -> Agent:
    """The agent of a ``python:`` spec (``args``, ``kwargs``: its parsed parts, see
    :func:`agents.base.parse_spec`) for ``game``; see the module docstring.

    Raises:
        ValueError: see :func:`load_target`; not exactly one target; keys given to an object
            that is not a class or function; a target or factory result of no supported kind.
    """
    if len(args) != 1 or not isinstance(args[0], str):
        raise ValueError(f"agent spec {spec!r}: write python:MODULE:ATTRIBUTE[,key=value,...] (one target, then "
                         "keys passed to a class or factory), e.g. python:my_agent:policy")
    ref = args[0]
    target = load_target(ref)
    if isinstance(target, type) or (callable(target) and not isinstance(target, Agent)
                                    and not callable(getattr(target, "act", None)) and not _is_torch_module(target)):
        mode = _call_mode(target, kwargs, ref)
        if mode == "policy":
            return as_agent(functools.partial(target, **kwargs) if kwargs else target, name=spec)
        built = target(game, **kwargs) if mode == "game" else target(**kwargs)
        what = f"{_default_name(target)}({'game' if mode == 'game' else ''}{', ...' if kwargs else ''})"
        if isinstance(built, type) or built is None:
            raise ValueError(f"python:{ref}: {what} returned {built!r}, not an agent; it must return {SUPPORTED}")
        try:
            return as_agent(built, name=spec)
        except ValueError as e:
            raise ValueError(f"python:{ref}: {what} returned {type(built).__name__}, not an agent: {e}") from None
    if kwargs:
        raise ValueError(f"agent spec {spec!r}: keys {sorted(kwargs)} are passed to a class or factory, but "
                         f"{ref} is a {type(target).__name__} instance")
    if not (isinstance(target, Agent) or callable(getattr(target, "act", None)) or _is_torch_module(target)):
        raise ValueError(f"python:{ref} is a {type(target).__name__}, not an agent: a python: target may be "
                         f"{SPEC_SUPPORTED}")
    return as_agent(target, name=spec)
