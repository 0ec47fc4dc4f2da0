"""Reusable conformance checks that every registered game must pass.

Each ``check_*`` function takes a game name and a config dict, raises
``AssertionError`` with a clear message on failure and returns something
useful (e.g. game lengths). ``run_conformance(name, config)`` runs them all;
``tests/test_conformance.py`` runs it for every game and every entry of the
game's ``Game.conformance_configs``.

Like ``pettingzoo.test``, this module ships with the package so that a new
game (ours or a user's) can be checked the same way.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import hashlib
import json
import os
import pickle
import subprocess
import sys
from typing import Any

import numpy as np

import ether_envs
from ether_envs.core import snapshot
from ether_envs.core.game import TERMINAL, Game


def _state_fingerprint(state) -> str:
    """Digest of a state's plain snapshot (rng excluded when ``with_rng`` is False)."""
    return hashlib.sha256(repr(snapshot(state)).encode()).hexdigest()


def _without_rng(state) -> Any:
    snap = snapshot(state)
    if isinstance(snap, dict):
        snap.pop("rng", None)
    return snap


def _random_policy(seed: int):
    rng = np.random.default_rng(seed)
    return lambda legal: int(legal[rng.integers(len(legal))])


# ---------------------------------------------------------------------------
# PettingZoo's own tests
# ---------------------------------------------------------------------------
def check_api(name: str, config: dict, num_cycles: int = 300) -> None:
    """``pettingzoo.test.api_test`` on the wrapped env."""
    import warnings

    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        # a Dict observation space (observation + action_mask) is PettingZoo classic's convention
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(ether_envs.make(name, **config), num_cycles=num_cycles)


def check_seed(name: str, config: dict, num_cycles: int = 300) -> None:
    """``pettingzoo.test.seed_test``: same seed, same trajectory."""
    import warnings

    from pettingzoo.test import seed_test

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        seed_test(lambda: ether_envs.make(name, **config), num_cycles=num_cycles)


# ---------------------------------------------------------------------------
# Engine checks
# ---------------------------------------------------------------------------
def check_random_playouts(name: str, config: dict, seeds=range(8), max_checked: int = 12) -> list[int]:
    """Random legal play over ``seeds``. At every step: the mask equals the legal
    actions; it is non-empty; a sample of up to ``max_checked`` masked-in actions
    (always including the chosen one) is accepted by a clone; every player's
    observation is finite, float32 and inside the observation bounds. Every game
    ends within ``game.max_game_length()`` and returns are well formed.

    Returns:
        the game lengths (number of decisions).
    """
    game = ether_envs.load_game(name, **config)
    layout = game.layout
    n = game.num_players
    bound = game.max_game_length()
    lengths = []
    utility = game.utility()
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        pick = _random_policy(10_000 + seed)
        rng = np.random.default_rng(seed)
        steps = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal, f"{name} {config} seed {seed} step {steps}: no legal action at a non-terminal state"
            assert legal == sorted(set(legal)), f"{name}: legal_actions not sorted/unique: {legal}"
            mask = state.legal_actions_mask()
            assert mask.dtype == np.int8 and mask.shape == (game.num_distinct_actions(),)
            assert np.array_equal(np.flatnonzero(mask), legal), f"{name}: mask differs from legal_actions"
            p = state.current_player()
            assert 0 <= p < n, f"{name}: current_player {p} out of range"
            for q in range(n):
                assert state.legal_actions(q) == (legal if q == p else []), \
                    f"{name}: legal_actions({q}) must be empty for a player not to act"
                obs = state.observation_tensor(q)
                assert obs.dtype == np.float32 and obs.shape == (layout.size,)
                assert np.all(np.isfinite(obs)), f"{name}: non-finite observation"
                bad = np.flatnonzero((obs < layout.low) | (obs > layout.high))
                assert bad.size == 0, f"{name}: observation out of bounds at {_piece_of(layout, bad[0])}"
            action = pick(legal)
            sample = set(rng.choice(legal, size=min(max_checked, len(legal)), replace=False).tolist())
            for a in sample - {action}:
                c = state.clone()
                c.apply_action(a)  # must be accepted
            state.apply_action(action)
            steps += 1
            assert steps <= bound, f"{name} {config} seed {seed}: exceeded max_game_length {bound}"
        r = state.returns()
        assert r.shape == (n,) and r.dtype == np.float64 and np.all(np.isfinite(r))
        if utility == "zero_sum":
            assert abs(r.sum()) < 1e-9, f"{name}: zero-sum returns sum to {r.sum()}"
        elif utility == "identical":
            assert np.all(r == r[0]), f"{name}: co-operative returns differ between players: {r}"
        assert state.scores().shape == (n,)
        assert state.legal_actions() == [] and not state.legal_actions_mask().any()
        assert state.current_player() == TERMINAL, f"{name}: current_player() at the end must be TERMINAL"
        lengths.append(steps)
    return lengths


def _piece_of(layout, index: int) -> str:
    for name, sl in layout.slices.items():
        if sl.start <= index < sl.stop:
            return f"{name}[{index - sl.start}]"
    return str(index)


# ---------------------------------------------------------------------------
# Clone integrity: every field of the state, deeply
# ---------------------------------------------------------------------------
CLONE_REBUILT_ATTR = "_clone_rebuilt"
"""Name of the optional State class attribute listing fields that ``clone()`` may leave
out or reset because they are caches rebuilt on demand (e.g. an encoder's per-seat
views): the clone checks skip them."""
CLONE_SHARED_ATTR = "_clone_shared"
"""Name of the optional State class attribute listing fields whose mutable objects
``clone()`` shares with the original on purpose (data never changed in place, only
replaced): the clone checks compare their values but allow the sharing."""
_CORE_REBUILT = ("_legal_memo",)  # core.State's legal-action memo: never mutated, dropped by apply_action
_CORE_RNG = ("_rng", "_rng_state", "_rng_seed")  # core.State's generator, compared by its state; copied lazily


def _declared(state, attr: str) -> frozenset:
    """The field names a State declares under ``attr`` (a tuple of names; a property may
    compute them from the configuration)."""
    return frozenset(getattr(state, attr, ()) or ())


def _clone_fields(state) -> dict:
    """The fields the clone checks cover: every entry of ``vars(state)`` except the shared
    ``game``, the generator (compared through ``rng_state()``), the core legal-action memo
    and the fields the State declares rebuilt (``_clone_rebuilt``)."""
    skip = _declared(state, CLONE_REBUILT_ATTR) | set(_CORE_REBUILT) | set(_CORE_RNG) | {"game"}
    return {k: v for k, v in vars(state).items() if k not in skip}


def _plain(obj: Any, path: tuple = ()) -> Any:
    """A comparable structure of ``obj``, all the way down: containers item by item,
    numpy arrays by dtype, shape and values, objects by their ``__dict__`` and
    ``__slots__`` (a :class:`~ether_envs.core.Game` is static and shared: ``None``)."""
    if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes)):
        return obj
    if id(obj) in path:
        return ("cycle",)
    path = path + (id(obj),)
    if isinstance(obj, np.ndarray):
        if obj.dtype == object:
            return ("array", "object", obj.shape, [_plain(x, path) for x in obj.flat])
        return ("array", obj.dtype.str, obj.shape, obj.tobytes())
    if isinstance(obj, np.generic):
        return ("numpy", obj.dtype.str, obj.item())
    if isinstance(obj, np.random.Generator):
        return ("rng", _plain(obj.bit_generator.state, path))
    if isinstance(obj, memoryview):
        return ("memoryview", obj.format, obj.shape, obj.tolist())
    if isinstance(obj, dict):
        return ("dict", [(_plain(k, path), _plain(v, path)) for k, v in obj.items()])
    if isinstance(obj, (list, tuple)):
        if set(map(type, obj)) <= {int}:  # fast path (e.g. a long ``history``)
            return (type(obj).__name__, list(obj))
        return (type(obj).__name__, [_plain(v, path) for v in obj])
    if isinstance(obj, (set, frozenset)):
        return (type(obj).__name__, sorted(repr(_plain(v, path)) for v in obj))
    if isinstance(obj, (collections.deque, bytearray)):
        return (type(obj).__name__, [_plain(v, path) for v in obj])
    if isinstance(obj, Game):
        return None
    if isinstance(obj, type) or callable(obj):
        return ("callable", getattr(obj, "__qualname__", repr(obj)))
    slots = [k for cls in type(obj).__mro__ for k in getattr(cls, "__slots__", ())]
    if hasattr(obj, "__dict__") or slots:
        d = dict(getattr(obj, "__dict__", {}))
        for k in slots:
            if k not in d and hasattr(obj, k):
                d[k] = getattr(obj, k)
        return (type(obj).__name__, [(k, _plain(v, path)) for k, v in sorted(d.items())])
    return ("repr", repr(obj))


def deep_fingerprint(state) -> str:
    """Digest of every field of ``state`` (``vars(state)``, private caches included), deeply,
    and of its generator's state; fields a State declares in ``_clone_rebuilt`` are left out.
    A ``clone()`` must give the same digest, and a state's digest changes only when it is played."""
    return _digest(_plain_fields(state))


def _digest(fields: dict) -> str:
    return hashlib.sha256(repr(sorted(fields.items())).encode()).hexdigest()


def _is_immutable_dataclass(obj: Any) -> bool:
    params = getattr(type(obj), "__dataclass_params__", None)
    return params is not None and params.frozen


def _mutable_objects(obj: Any, out: dict, where: str, seen: set) -> None:
    """Record in ``out`` (id -> where) every mutable object reachable from ``obj``: lists,
    dicts, sets, deques, bytearrays, writable numpy arrays (by the array owning the memory),
    memoryviews and plain objects; tuples, frozen dataclasses and scalars are looked
    through. A :class:`~ether_envs.core.Game` (static, shared) is not entered."""
    if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes, np.generic, type, Game)):
        return
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        if obj.flags.writeable:
            root = obj
            while isinstance(root.base, np.ndarray):
                root = root.base
            out.setdefault(id(root), where)
        if obj.dtype == object:
            for x in obj.flat:
                _mutable_objects(x, out, where, seen)
        return
    if isinstance(obj, memoryview):
        if not obj.readonly:
            out.setdefault(id(obj.obj), where)
        return
    if isinstance(obj, (tuple, frozenset)):
        for x in obj:
            _mutable_objects(x, out, where, seen)
        return
    if isinstance(obj, np.random.Generator) or callable(obj):
        return
    if isinstance(obj, collections.deque) and obj.maxlen == 0:
        return  # holds nothing, ever
    if isinstance(obj, (list, set, collections.deque, bytearray)):
        out.setdefault(id(obj), where)
        for x in obj:
            _mutable_objects(x, out, where, seen)
        return
    if isinstance(obj, dict):
        out.setdefault(id(obj), where)
        for k, v in obj.items():
            _mutable_objects(k, out, where, seen)
            _mutable_objects(v, out, where, seen)
        return
    if not _is_immutable_dataclass(obj):
        out.setdefault(id(obj), where)
    slots = [k for cls in type(obj).__mro__ for k in getattr(cls, "__slots__", ())]
    for v in list(getattr(obj, "__dict__", {}).values()) + [getattr(obj, k) for k in slots if hasattr(obj, k)]:
        _mutable_objects(v, out, where, seen)


def shared_mutable_fields(state, clone) -> list[str]:
    """Fields of ``state`` holding a mutable object that ``clone`` holds too (lists, dicts,
    sets, arrays, objects, at any depth), except the fields the State declares shared
    (``_clone_shared``) or rebuilt (``_clone_rebuilt``). Empty for a correct ``clone()``:
    a mutable object both hold would let play on one change the other."""
    allowed = _declared(state, CLONE_SHARED_ATTR)
    mine: dict[int, str] = {}
    for k, v in _clone_fields(state).items():
        if k not in allowed:
            _mutable_objects(v, mine, k, set())
    theirs: dict[int, str] = {}
    for k, v in _clone_fields(clone).items():
        if k not in allowed:
            _mutable_objects(v, theirs, k, set())
    return sorted({mine[i] for i in mine.keys() & theirs.keys()})


def _observations(state) -> str:
    """Digest of every seat's observation of ``state``."""
    h = hashlib.sha256()
    for p in range(state.num_players):
        h.update(state.observation_tensor(p).tobytes())
    return h.hexdigest()


def check_clone_independence(name: str, config: dict, seeds=range(3), observe_every: int = 1) -> None:
    """``clone()`` copies every field (TAG's copy-integrity test, deepened).

    At every decision of random games (the original observed by every seat first, so that
    the encoders' caches are filled): the clone has the same :func:`deep_fingerprint` (every
    field, private caches included, except those declared in ``_clone_rebuilt``) and holds
    no mutable object of the original (except in fields declared in ``_clone_shared``);
    play on a second clone, observed, never changes the original; and when play continues
    on the original, every earlier clone keeps its fingerprint and shows every seat the
    observation it showed when it was made."""
    game = ether_envs.load_game(name, **config)
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        pick = _random_policy(seed)
        kept = []
        step = 0
        while not state.is_terminal():
            observe = step % observe_every == 0
            if observe:
                _observations(state)  # fill the encoder's caches, which clones must copy or rebuild
            fields = _plain_fields(state)
            before = _digest(fields)
            c = state.clone()
            assert deep_fingerprint(c) == before, (
                f"{name}: clone differs from its original (as it was before clone()) in field(s) "
                f"{_differing_fields(fields, c)}")
            shared = shared_mutable_fields(state, c)
            assert not shared, (
                f"{name}: clone shares mutable objects with its original in field(s) {shared} "
                f"(copy them in clone(): most games list the fields clone() copies on State, e.g. "
                f"_LIST_FIELDS or CLONED_LISTS, so add the field there; or declare them in "
                f"State.{CLONE_SHARED_ATTR} if they are never changed in place, or in "
                f"State.{CLONE_REBUILT_ATTR} if they are caches rebuilt on demand)")
            seen = _observations(c) if observe else None
            kept.append((c, deep_fingerprint(c), seen))
            # a short random playout on a second clone, observed
            probe = state.clone()
            probe_pick = _random_policy(len(kept))
            for _ in range(10):
                if probe.is_terminal():
                    break
                probe.apply_action(probe_pick(probe.legal_actions()))
            _observations(probe)
            assert deep_fingerprint(state) == before, (
                f"{name}: playing a clone changed the original in field(s) {_differing_fields(fields, state)}")
            state.apply_action(pick(state.legal_actions()))
            step += 1
        for c, fp, seen in kept:
            assert deep_fingerprint(c) == fp, f"{name}: an earlier clone changed when play continued"
            if seen is not None:
                assert _observations(c) == seen, \
                    f"{name}: an earlier clone shows a different observation after play continued"


def clone_sabotages(name: str, config: dict, seed: int = 0) -> list[tuple[str, str]]:
    """The ways a ``clone()`` of game ``name`` could forget a copy line, as ``(field, how)``
    pairs for :func:`sabotaged_clone`: every field the clone checks cover (``"drop"``: the
    clone lacks it), and every field that holds a mutable object at some step of the random
    game :func:`check_clone_independence` plays with ``seed``, unless declared shared
    (``"share"``: the clone holds the original's object)."""
    game = ether_envs.load_game(name, **config)
    state = game.new_initial_state(seed=seed)
    pick = _random_policy(seed)
    fields: set[str] = set()
    mutable: set[str] = set()
    while True:
        _observations(state)
        shared = _declared(state, CLONE_SHARED_ATTR)
        for k, v in _clone_fields(state).items():
            fields.add(k)
            found: dict[int, str] = {}
            _mutable_objects(v, found, k, set())
            if found and k not in shared:
                mutable.add(k)
        if state.is_terminal():
            break
        state.apply_action(pick(state.legal_actions()))
    return [(k, "drop") for k in sorted(fields)] + [(k, "share") for k in sorted(mutable)]


@contextlib.contextmanager
def sabotaged_clone(state_cls: type, field: str, how: str):
    """Within the block, ``state_cls.clone`` forgets the effect of one copy line: the clone
    lacks ``field`` (``how="drop"``) or holds the original's object (``how="share"``).
    :func:`check_clone_independence` must then fail, naming ``field``."""
    real = state_cls.clone

    def clone(self):
        c = real(self)
        if how == "drop":
            c.__dict__.pop(field, None)
        elif how == "share":
            if field in self.__dict__:
                c.__dict__[field] = self.__dict__[field]
        else:
            raise ValueError(f"how must be 'drop' or 'share', got {how!r}")
        return c

    state_cls.clone = clone
    try:
        yield
    finally:
        state_cls.clone = real


def check_clone_check_catches(name: str, config: dict, state_cls: type, field: str, how: str,
                              seed: int = 0) -> None:
    """With ``state_cls.clone`` forgetting one copy line (:func:`sabotaged_clone`),
    :func:`check_clone_independence` must fail and name ``field``: each game's
    ``tests/<game>/test_clone.py`` runs this for every pair of :func:`clone_sabotages`.

    Raises:
        AssertionError: the sabotaged clone passed the check, or failed it without naming ``field``.
    """
    with sabotaged_clone(state_cls, field, how):
        try:
            check_clone_independence(name, config, seeds=range(seed, seed + 1))
        except AssertionError as e:
            if field not in str(e):
                raise AssertionError(f"{name}: a clone that forgets {field!r} ({how}) failed the clone "
                                     f"check without naming the field: {e}") from None
            return
    raise AssertionError(f"{name}: a clone that forgets {field!r} ({how}) passed the clone check")


def _plain_fields(state) -> dict:
    """:func:`_plain` of every field :func:`deep_fingerprint` covers, by name."""
    d = {k: _plain(v) for k, v in _clone_fields(state).items()}
    d["rng"] = _plain(state.rng_state())
    return d


def _differing_fields(fields: dict, state) -> list[str]:
    """Names of the fields where ``state`` differs from ``fields`` (from :func:`_plain_fields`)."""
    other = _plain_fields(state)
    return sorted(k for k in fields.keys() | other.keys() if fields.get(k, ()) != other.get(k, ()))


def check_illegal_action(name: str, config: dict, seeds=range(2)) -> None:
    """An illegal action raises ``ValueError`` naming it and the legal ones, and
    changes nothing (engine and env); ``illegal_action="lose"`` ends the game
    with -1 for the offender."""
    game = ether_envs.load_game(name, **config)
    n_actions = game.num_distinct_actions()
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        pick = _random_policy(seed)
        steps = 0
        while not state.is_terminal() and steps < 40:
            legal = state.legal_actions()
            illegal = [a for a in range(n_actions) if a not in legal]
            for bad in (illegal[:1] + [n_actions, -1, None, "x", 1.5]):
                before = _state_fingerprint(state)
                try:
                    state.apply_action(bad)
                except ValueError as e:
                    msg = str(e)
                    assert repr(bad) in msg and "legal actions" in msg, f"{name}: unclear error: {msg}"
                else:
                    raise AssertionError(f"{name}: illegal action {bad!r} was accepted")
                assert _state_fingerprint(state) == before, f"{name}: a rejected action changed the state"
            state.apply_action(pick(legal))
            steps += 1
    # env level
    env = ether_envs.make(name, **config)
    env.reset(seed=0)
    legal = env.unwrapped.legal_actions()
    bad = next(a for a in range(n_actions) if a not in legal)
    before = _state_fingerprint(env.unwrapped.game_state)
    try:
        env.step(bad)
    except ValueError as e:
        assert str(bad) in str(e)
    else:
        raise AssertionError(f"{name}: env accepted illegal action {bad}")
    assert _state_fingerprint(env.unwrapped.game_state) == before
    env = ether_envs.make(name, illegal_action="lose", **config)
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(bad)
    assert all(env.terminations.values()), f"{name}: illegal_action='lose' did not end the game"
    assert env._cumulative_rewards[offender] == -1, f"{name}: offender not penalised"


def check_hidden_information(name: str, config: dict, seeds=range(3), draws: int = 2) -> None:
    """Redrawing what a player cannot see (``resample_hidden``) never changes
    that player's observation or mask; the redrawn state plays on; and when the
    configuration hides something, ``resample_hidden`` does redraw something."""
    game = ether_envs.load_game(name, **config)
    n = game.num_players
    redrew = False
    rng = np.random.default_rng(123)
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        pick = _random_policy(seed)
        while not state.is_terminal():
            for p in range(n):
                obs = state.observation_tensor(p)
                mask = state.legal_actions_mask(p)
                for _ in range(draws):
                    alt = state.resample_hidden(p, rng)
                    assert alt is not state
                    assert np.array_equal(alt.observation_tensor(p), obs), \
                        f"{name}: resample_hidden({p}) changed player {p}'s observation " \
                        f"(piece {_first_diff(game.layout, alt.observation_tensor(p), obs)})"
                    assert np.array_equal(alt.legal_actions_mask(p), mask), \
                        f"{name}: resample_hidden({p}) changed player {p}'s action mask"
                    assert alt.current_player() == state.current_player()
                    if _without_rng(alt) != _without_rng(state):
                        redrew = True
            state.apply_action(pick(state.legal_actions()))
        # a determinization must be a playable state
        alt = game.new_initial_state(seed=seed).resample_hidden(0, rng)
        while not alt.is_terminal():
            alt.apply_action(pick(alt.legal_actions()))
    if game.has_hidden_information():
        assert redrew, f"{name} {config}: hidden information declared but resample_hidden never redrew anything"


def check_seat_views(name: str, config: dict, seeds=range(2)) -> None:
    """The text a seat is shown keeps the other seats' secrets: at every step of
    random games, ``observation_string(p)`` is unchanged by ``resample_hidden(p)``
    (for every seat ``p``), and moves that an observer cannot tell apart (they
    leave it the same observation) get the same ``public_action_string``."""
    game = ether_envs.load_game(name, **config)
    rng = np.random.default_rng(321)
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        pick = _random_policy(seed)
        while True:
            for p in range(game.num_players):
                text = state.observation_string(p)
                assert isinstance(text, str) and text
                alt = state.resample_hidden(p, rng).observation_string(p)
                assert alt == text, f"{name}: resample_hidden({p}) changed player {p}'s observation_string " \
                    f"at move {len(state.history)}:\n{_first_line_diff(text, alt)}"
            if state.is_terminal():
                break
            for p in range(game.num_players):
                if p != state.current_player():
                    check_public_action_strings(state, p)
            state.apply_action(pick(state.legal_actions()))
        assert state.end_reason()


def check_public_action_strings(state, observer: int) -> None:
    """Two legal moves of ``state`` that differ only in what ``observer`` may not see
    (after either, ``observer`` has the same observation tensor and the player
    making the move a different one) get the same ``public_action_string`` for
    ``observer``: a name that differed would tell ``observer`` a secret."""
    actor = state.current_player()
    seen: dict[bytes, list[tuple[int, str, bytes]]] = {}
    for a in state.legal_actions():
        nxt = state.clone()
        nxt.apply_action(a)
        text = state.public_action_string(a, observer)
        mine = nxt.observation_tensor(actor).tobytes()
        group = seen.setdefault(nxt.observation_tensor(observer).tobytes(), [])
        for b, other, theirs in group:
            assert other == text or theirs == mine, \
                f"{state.game.spec.name}: moves {b} and {a} of player {actor} differ only in what player " \
                f"{observer} may not see, but player {observer} is shown {other!r} and {text!r}"
        group.append((a, text, mine))


def _first_line_diff(a: str, b: str) -> str:
    for x, y in zip(a.splitlines() + [""], b.splitlines() + [""]):
        if x != y:
            return f"  true state:  {x}\n  resampled:   {y}"
    return "  (same lines)"


def _first_diff(layout, a, b) -> str:
    idx = np.flatnonzero(a != b)
    return _piece_of(layout, int(idx[0])) if idx.size else "none"


# ---------------------------------------------------------------------------
# Env checks
# ---------------------------------------------------------------------------
def _env_trajectory(name: str, config: dict, seed: int, max_steps: int = 10_000) -> list:
    env = ether_envs.make(name, **config)
    env.reset(seed=seed)
    pick = _random_policy(seed)
    out = []
    for agent in env.agent_iter(max_steps):
        obs, rew, term, trunc, info = env.last()
        out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), rew, term, trunc))
        action = None if term or trunc else pick(np.flatnonzero(obs["action_mask"]).tolist())
        env.step(action)
    return out


def trajectory_digest(name: str, config: dict, seed: int) -> str:
    """sha256 of a seeded random env trajectory (observations, masks, rewards, flags)."""
    h = hashlib.sha256()
    for item in _env_trajectory(name, config, seed):
        h.update(repr(item).encode())
    return h.hexdigest()


def check_determinism(name: str, config: dict, seeds=(0, 1)) -> None:
    """Same seed and actions give the same observations, rewards and flags, in
    this process and across two processes with different ``PYTHONHASHSEED``."""
    for seed in seeds:
        a = _env_trajectory(name, config, seed)
        b = _env_trajectory(name, config, seed)
        assert a == b, f"{name}: two runs with seed {seed} differ"
    code = ("import sys, json; from ether_envs.testing import trajectory_digest; "
            "print(trajectory_digest(sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])))")
    digests = set()
    for hashseed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        out = subprocess.run([sys.executable, "-c", code, name, json.dumps(config), str(seeds[0])],
                             env=env, capture_output=True, text=True, check=True)
        digests.add(out.stdout.strip())
    digests.add(trajectory_digest(name, config, seeds[0]))
    assert len(digests) == 1, f"{name}: trajectories differ across processes / PYTHONHASHSEED"


def check_pickle_deepcopy(name: str, config: dict, seed: int = 0, split: int = 7) -> None:
    """``copy.deepcopy(env)`` and ``pickle`` round-trip mid-game and continue identically."""
    env = ether_envs.make(name, **config)
    env.reset(seed=seed)
    pick = _random_policy(seed)
    for _ in range(split):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(pick(np.flatnonzero(obs["action_mask"]).tolist()))
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]

    def finish(e, policy_seed):
        p = _random_policy(policy_seed)
        out = []
        for agent in e.agent_iter(10_000):
            obs, rew, term, trunc, _ = e.last()
            out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), rew, term, trunc))
            e.step(None if term or trunc else p(np.flatnonzero(obs["action_mask"]).tolist()))
        return out

    ref = finish(env, 99)
    for c in copies:
        assert finish(c, 99) == ref, f"{name}: a deepcopy/pickle of the env did not continue identically"


def _public_fields(state) -> dict:
    """The fields a direct edit of a state writes: every entry of ``vars(state)`` whose name
    does not start with ``_`` (private fields are caches, stamps and the generator), except
    the shared ``game``; deep copies."""
    return {k: copy.deepcopy(v) for k, v in vars(state).items() if not k.startswith("_") and k != "game"}


def _position(state) -> tuple:
    """What a position shows: the player to act, the legal actions, every seat's mask and
    observation, the scores and whether it is over."""
    n = state.num_players
    return (state.current_player(), state.is_terminal(), state.legal_actions(),
            [state.legal_actions_mask(p).tobytes() for p in range(n)],
            [state.observation_tensor(p).tobytes() for p in range(n)], state.scores().tolist())


def check_invalidate_caches(name: str, config: dict, seeds=(0, 1), stride: int = 3) -> None:
    """``State.invalidate_caches()`` keeps its promise: after a direct edit of a state's
    fields, it leaves no cache stale.

    At every ``stride``-th decision of random games, a state whose caches are full (its
    legal actions, masks, observations and scores asked for) has every public field
    (:func:`_public_fields`) overwritten with those of another position: a few decisions on
    in the same game, or a position of another seed's game. After ``invalidate_caches()``
    it refuses an action legal only before the edit, shows what that position shows
    (:func:`_position`: player to act, legal actions, masks, observations, scores) and,
    given the same new generator, one action on leads to the same position."""
    game = ether_envs.load_game(name, **config)
    games = []
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        pick = _random_policy(seed)
        positions = [state.clone()]
        while not state.is_terminal():
            state.apply_action(pick(state.legal_actions()))
            positions.append(state.clone())
        games.append(positions)
    for g, positions in enumerate(games):
        others = games[(g + 1) % len(games)]
        for i in range(0, len(positions), stride):
            for target in (positions[min(i + 1 + i % 7, len(positions) - 1)],
                           others[min(i, len(others) - 1)]):
                want = _position(target.clone())
                edited = positions[i].clone()
                before = _position(edited)  # fill its caches
                for k, v in _public_fields(target).items():
                    setattr(edited, k, v)
                edited.invalidate_caches()
                stale = [a for a in before[2] if a not in want[2]]
                if stale:  # legal before the edit, not after: refused (the rules asked anew)
                    accepted = f"{name}: after its fields were set to those of another position (decision " \
                        f"{len(target.history)}) and invalidate_caches(), the state at decision {i} accepted " \
                        f"action {stale[0]}, legal before the edit only"
                    try:
                        edited.apply_action(stale[0])
                    except ValueError:
                        pass
                    except Exception as e:
                        raise AssertionError(f"{accepted} (and failed: {e!r})") from e
                    else:
                        raise AssertionError(accepted)
                got = _position(edited)
                labels = ("current_player()", "is_terminal()", "legal_actions()", "legal_actions_mask()",
                          "observation_tensor()", "scores()")
                wrong = [label for label, a, b in zip(labels, got, want) if a != b]
                assert not wrong, (
                    f"{name}: after its fields were set to those of another position (decision "
                    f"{len(target.history)}) and invalidate_caches(), the state at decision {i} shows stale "
                    f"{', '.join(wrong)} (legal actions {got[2][:8]} instead of {want[2][:8]}): "
                    f"invalidate_caches() must drop or recompute every cache derived from the fields")
                if not edited.is_terminal():  # and plays on like it (both with the same new generator)
                    a = want[2][len(want[2]) // 2]
                    follow = target.clone()
                    for s in (edited, follow):
                        s.rng = np.random.default_rng(i)
                        s.apply_action(a)
                    assert _position(edited) == _position(follow), (
                        f"{name}: after invalidate_caches(), action {a} led elsewhere than from the position "
                        f"it was given (decision {len(target.history)})")


def check_env_mask_matches_engine(name: str, config: dict, seed: int = 3) -> None:
    """At every env step the acting agent's mask equals the engine's legal actions
    and other agents' masks are all zeros."""
    env = ether_envs.make(name, **config)
    env.reset(seed=seed)
    pick = _random_policy(seed)
    for agent in env.agent_iter(10_000):
        obs, _, term, trunc, _ = env.last()
        st = env.unwrapped.game_state
        if term or trunc:
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        assert np.array_equal(np.flatnonzero(obs["action_mask"]), st.legal_actions())
        assert env.unwrapped.legal_actions() == st.legal_actions()
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(pick(st.legal_actions()))


def check_spaces(name: str, config: dict) -> None:
    """Spaces are cached, one set per agent (seeding one agent's space leaves the others
    alone), the action space is the same size for every player count, and the layout
    covers the observation exactly."""
    env = ether_envs.make(name, **config)
    u = env.unwrapped
    for a in u.possible_agents:
        assert env.observation_space(a) is env.observation_space(a)
        assert env.action_space(a) is env.action_space(a)
    n = len(u.possible_agents)
    assert len({id(env.action_space(a)) for a in u.possible_agents}) == n
    assert len({id(env.observation_space(a)) for a in u.possible_agents}) == n
    layout = u.observation_layout()
    stops = [s.stop for s in layout.values()]
    starts = [s.start for s in layout.values()]
    assert starts[0] == 0 and all(a == b for a, b in zip(stops, starts[1:]))
    assert stops[-1] == env.observation_space(u.possible_agents[0])["observation"].shape[0]
    for a in range(u.game.num_distinct_actions()):
        assert isinstance(u.action_to_str(a), str)


ALL_CHECKS = (
    check_spaces, check_api, check_seed, check_random_playouts, check_env_mask_matches_engine,
    check_determinism, check_clone_independence, check_pickle_deepcopy, check_hidden_information,
    check_illegal_action, check_seat_views, check_invalidate_caches,
)


def run_conformance(name: str, config: dict) -> None:
    """Run every check on one game configuration."""
    for check in ALL_CHECKS:
        check(name, config)
