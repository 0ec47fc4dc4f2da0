"""The shared rules-engine API (OpenSpiel-like): a declared :class:`Game` and a mutable :class:`State`.

Every game subclasses both. The engine depends on numpy only (no gymnasium or
pettingzoo), so agents and search can use it directly::

    import ether_envs
    game = ether_envs.load_game("aethermon_collect", num_players=3)
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()   # float64 array, one entry per player

Chance (shuffles, dice, draws) is sampled inside ``apply_action`` from the
state's own ``numpy.random.Generator`` (``state.rng``); there are no explicit
chance nodes, and the generator's future outputs count as hidden information
(``resample_hidden`` reseeds it).
"""

from __future__ import annotations

import copy
import dataclasses
import sys
from typing import Any, Sequence

import numpy as np

from .codec import ActionCodec
from .layout import ObservationLayout
from .spec import GameSpec

TERMINAL = -1
"""``State.current_player()`` at a terminal state."""


def is_action_id(x: Any) -> bool:
    """Whether ``x`` is an integer action id: a Python or numpy int, or a 0-d integer array
    (what SB3's ``model.predict`` returns); not a bool, a float or an array of another shape."""
    if isinstance(x, np.ndarray):
        return x.ndim == 0 and x.dtype.kind in "iu"
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def malformed_action(action: Any, num_actions: int) -> str:
    """The message for an ``action`` that is not in ``Discrete(num_actions)``."""
    return (f"action {action!r} is not in Discrete({num_actions}): expected an int (or a 0-d integer array) "
            f"in 0..{num_actions - 1}, not a float, a bool or an array of another shape")


def check_int(name: str, value: Any, minimum: int, optional: bool = True) -> int | None:
    """``value`` as a Python int >= ``minimum``, or ``None`` for ``None`` when ``optional``: how
    ``seed=`` and ``max_steps=`` are checked everywhere.

    Raises:
        ValueError: ``value`` is not an int (a Python or numpy int; a bool, a float or a string
            is not) >= ``minimum``, or ``None`` where not ``optional``; the message names
            ``name``, the value and what is allowed.
    """
    if value is None and optional:
        return None
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < minimum:
        allowed = "a non-negative int" if minimum == 0 else f"an int >= {minimum}"
        raise ValueError(f"{name} must be {'None or ' if optional else ''}{allowed}, got {value!r}")
    return int(value)


def win_loss_returns(winners: Sequence[int], num_players: int) -> np.ndarray:
    """Zero-sum terminal returns: winners share +1, losers share -1.

    Args:
        winners: seats (0-based) that won; empty or all seats means a full tie.
        num_players: number of seats.

    Returns:
        float64 array of shape ``(num_players,)`` summing to 0; all zeros when
        every player (or no player) won.
    """
    r = np.zeros(num_players, dtype=np.float64)
    winners = sorted(set(winners))
    if 0 < len(winners) < num_players:
        r[:] = -1.0 / (num_players - len(winners))
        r[winners] = 1.0 / len(winners)
    return r


_PYTHON_LITERALS = {"True": True, "False": False, "None": None}


def parse_config_value(text: str) -> Any:
    """One configuration value as typed on a command line or in a form: JSON when it is JSON
    (numbers, ``true``/``false``, ``null``, lists), Python's ``True``/``False``/``None`` as those
    values, otherwise the text itself (``"cooperative"``). ``ether-envs --config KEY=VALUE`` and
    the new-game form of ``ether-envs serve`` read values with it.

    Raises:
        ValueError: a number of more digits than Python reads (4,300), or lists nested
            too deeply for Python to read (about 1,000 levels); the message quotes the
            value's first 40 characters and its length.
    """
    import json
    if text in _PYTHON_LITERALS:
        return _PYTHON_LITERALS[text]
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text
    except RecursionError:
        raise ValueError(f"the value {short_repr(text)} is nested too deeply (lists in lists more than about "
                         f"{sys.getrecursionlimit()} levels deep): a configuration value is a number, true/false, "
                         "a name or a short JSON list") from None
    except ValueError:  # int("9" * 5000): Python reads at most 4300 digits
        raise ValueError(f"the value {short_repr(text)} holds a number of more than {sys.get_int_max_str_digits()} "
                         "digits, more than Python reads") from None


def short_repr(value: Any, limit: int = 40) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters followed by ``…``
    and the full length: a message never echoes a huge value whole (the engines' config
    errors and ``ether-envs serve``'s messages).

    >>> short_repr("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (102 characters)"
    """
    try:
        shown = repr(value)
    except ValueError:  # an int of more digits than Python writes
        return f"<a number of more than {sys.get_int_max_str_digits()} digits>"
    return shown if len(shown) <= limit else f"{shown[:limit]}… ({len(shown)} characters)"


def build_config(config_cls: type, config: dict[str, Any], game_name: str) -> Any:
    """Build a game's frozen ``Config`` dataclass from keyword arguments.

    numpy scalars are turned into Python ones; a field whose default is a bool
    or an int only accepts a bool or an int (not a string or a float).

    Raises:
        ValueError: an unknown key (the message lists the valid ones) or a value
            of the wrong type; the Config's own checks raise ValueError too.
    """
    fields = {f.name: f for f in dataclasses.fields(config_cls)}
    unknown = sorted(set(config) - set(fields))
    if unknown:
        raise ValueError(f"{game_name}: unknown config key(s) [{', '.join(short_repr(str(k)) for k in unknown)}]; "
                         f"valid keys: {sorted(fields)}")
    clean = {}
    for key, value in config.items():
        if isinstance(value, np.generic):
            value = value.item()
        default = fields[key].default
        if isinstance(default, bool) and not isinstance(value, bool):
            raise ValueError(f"{game_name}: config {key} must be True or False, got {short_repr(value)}")
        if type(default) is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"{game_name}: config {key} must be an int, got {short_repr(value)}")
        clean[key] = value
    return config_cls(**clean)


class Game:
    """A configured game: static data, the action codec and the observation layout.

    Subclasses set ``spec``, build ``self.codec`` (an :class:`ActionCodec`) and
    ``self.encoder`` (with a ``layout`` and ``encode(state, player, out)``) in
    ``__init__``, and implement ``new_initial_state``.

    Attributes:
        config: the validated, frozen configuration dataclass.
        num_players: number of seats.
    """

    spec: GameSpec
    codec: ActionCodec
    config: Any
    num_players: int

    # ---- sizes -------------------------------------------------------
    def num_distinct_actions(self) -> int:
        """Size ``N`` of the flat action space; independent of the player count."""
        return self.codec.size

    @property
    def layout(self) -> ObservationLayout:
        return self.encoder.layout

    def observation_size(self) -> int:
        """Length of the flat float32 observation vector."""
        return self.encoder.layout.size

    def observation_layout(self) -> dict[str, slice]:
        """Ordered ``{piece name: slice}`` of the flat observation."""
        return dict(self.encoder.layout.slices)

    def max_game_length(self) -> int:
        """Upper bound on the number of decisions (``apply_action`` calls) in one game."""
        raise NotImplementedError

    def utility(self) -> str:
        """``"zero_sum"``, ``"identical"`` (co-operative) or ``"general"`` for this configuration."""
        return self.spec.utility

    def has_hidden_information(self) -> bool:
        """Whether this configuration hides anything from some player."""
        return self.spec.information == "imperfect"

    def new_initial_state(self, seed: int | None = None) -> "State":
        """A fresh game, its chance seeded from ``seed`` (``None``: OS entropy).

        Raises:
            ValueError: ``seed`` is not ``None`` or a non-negative int (:func:`check_int`).
        """
        raise NotImplementedError

    def action_to_string(self, action: int) -> str:
        """Name of an action id, e.g. ``"MOVE(c3)"``."""
        return self.codec.name(action)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config})"

    # the game is static data: share it between clones and deep copies, and
    # pickle it as its config (rebuilt on load)
    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _rebuild_game, (type(self), dataclasses.asdict(self.config))


def _rebuild_game(cls, config: dict) -> "Game":
    return cls(**config)


class State:
    """Mutable game state. Subclasses implement the ``_``-prefixed hooks.

    Public API: ``current_player``, ``legal_actions``, ``legal_actions_mask``,
    ``apply_action``, ``is_terminal``, ``returns``, ``scores``,
    ``observation_tensor``, ``observation_string``, ``action_to_string``,
    ``public_action_string``, ``end_reason``, ``clone``, ``resample_hidden``,
    ``history``, ``render_text``.

    Attributes:
        game: the :class:`Game` (shared, never copied).
        rng: the state's ``numpy.random.Generator``; all chance comes from it.
        history: list of applied action ids.
    """

    game: Game
    history: list[int]
    _rng: np.random.Generator | None = None
    _rng_state: dict | None = None
    _rng_seed: int | None = None
    _legal_memo: list[int] | None = None
    """The current decision's legal actions, kept from the last ``legal_actions()``
    call until the next ``apply_action``, which then checks an action against it
    instead of listing them again (a private cache; code that edits a state's
    fields between the two calls must call :meth:`invalidate_caches`)."""

    # ---- the chance generator, copied lazily by clones ---------------------
    @property
    def rng(self) -> np.random.Generator:
        """The state's ``numpy.random.Generator``; all chance comes from it.
        A clone holds only the generator's state, and a determinization only its seed
        (:meth:`resample_hidden`), until it first draws."""
        r = self._rng
        if r is None:
            if self._rng_seed is not None:
                r = np.random.default_rng(self._rng_seed)
            else:
                bg = getattr(np.random, self._rng_state["bit_generator"])(0)
                bg.state = self._rng_state
                r = np.random.Generator(bg)
            self._rng, self._rng_state, self._rng_seed = r, None, None
        return r

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        """A new generator; the chance drawn ahead from the old one (the list fields named
        in :attr:`_drawn_ahead`) is dropped, so that all later chance comes from ``value``
        (``resample_hidden`` redraws a determinization's future chance this way)."""
        self._rng, self._rng_state, self._rng_seed = value, None, None
        self._drop_drawn_ahead()

    def _reseed(self, seed: int) -> None:
        """``self.rng = numpy.random.default_rng(seed)``, the generator made only when the state
        first draws: seeding costs 10-35 microseconds (by machine and load), more than a
        search's simulation spends on many games' moves, and a determinization of a game whose
        chance is all dealt never draws (:meth:`resample_hidden`)."""
        self._rng, self._rng_state, self._rng_seed = None, None, int(seed)
        self._drop_drawn_ahead()

    def _drop_drawn_ahead(self) -> None:
        """Empty the fields of chance drawn ahead from a generator that was just replaced."""
        for name in self._drawn_ahead:
            setattr(self, name, [])

    _drawn_ahead: tuple[str, ...] = ()
    """Fields holding chance a game draws ahead from its generator, in batches (lists,
    used from the end): emptied whenever the generator is replaced (``rng`` setter)."""

    def rng_state(self) -> dict:
        """The generator's bit-generator state (without materialising a lazy copy)."""
        if self._rng is not None:
            return self._rng.bit_generator.state
        if self._rng_seed is not None:
            return np.random.default_rng(self._rng_seed).bit_generator.state
        return self._rng_state

    def _share_rng_state(self, other: "State") -> None:
        """Give ``other`` (a clone) this state's generator state, copied lazily by both
        states: each makes its own generator from it when it next draws, and cloning
        either again reads no generator state (cheap repeated clones, as tree search makes)."""
        if self._rng is None and self._rng_seed is not None:  # both keep the seed
            other._rng, other._rng_state, other._rng_seed = None, None, self._rng_seed
            return
        state = self.rng_state()
        other._rng, other._rng_state, other._rng_seed = None, state, None
        self._rng, self._rng_state = None, state

    # ---- hooks for subclasses ----------------------------------------
    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _apply_action(self, action: int) -> None:
        raise NotImplementedError

    def current_player(self) -> int:
        """Seat (0-based) that must decide now, or ``TERMINAL``."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def is_truncated(self) -> bool:
        """Whether this terminal state was cut off by a rule of the configuration
        (e.g. a round limit) rather than reached by the rules' own ending; the env
        then reports truncation instead of termination."""
        return False

    def scores(self) -> np.ndarray:
        """Each player's current score (float64, shape ``(num_players,)``)."""
        raise NotImplementedError

    def _terminal_returns(self) -> np.ndarray:
        raise NotImplementedError

    # ---- shared behaviour --------------------------------------------
    @property
    def num_players(self) -> int:
        return self.game.num_players

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal action ids for the player to act; ``[]`` at terminal
        states and for any other ``player``. A new list on every call."""
        if self.is_terminal():
            return []
        if player is not None and player != self.current_player():
            return []
        memo = self._legal_memo = self._legal_actions()  # apply_action's check; never mutated
        return list(memo)

    def invalidate_caches(self) -> None:
        """Drop private caches derived from the state's fields (the legal-action
        memo). Call it after editing a state's fields directly, as tests and
        scenario builders do; ``apply_action`` and ``resample_hidden`` do it themselves."""
        self._legal_memo = None

    def legal_actions_mask(self, player: int | None = None) -> np.ndarray:
        """int8 array of shape ``(num_distinct_actions,)``: 1 where legal."""
        return self.game.codec.mask(self.legal_actions(player))

    def apply_action(self, action: int) -> None:
        """Apply the current player's ``action`` (an id from ``legal_actions``).

        Raises:
            ValueError: the action is not legal here (the message names it and
                the legal ones); the state is left unchanged.
        """
        memo = self._legal_memo
        if memo is not None and type(action) is int and action in memo:
            # fast path: checked against the legal actions already listed for this decision
            self._legal_memo = None
            self._apply_action(action)
            self.history.append(action)
            return
        a = int(action) if is_action_id(action) else None
        if a is None or self.is_terminal() or not self._is_legal(a):
            raise ValueError(self._illegal_message(action, self.legal_actions()))
        self._legal_memo = None
        self._apply_action(a)
        self.history.append(a)

    def _is_legal(self, action: int) -> bool:
        """Hook: whether ``action`` is legal now (a game may answer faster than
        building the whole list; it must agree with ``_legal_actions``)."""
        return action in self._legal_actions()

    def _illegal_message(self, action: Any, legal: list[int]) -> str:
        codec = self.game.codec
        try:
            name = codec.name(int(action))
        except (TypeError, ValueError):
            name = "not an action id"
        if self.is_terminal():
            return f"illegal action {action!r} ({name}): the game is over"
        names = ", ".join(f"{a}={codec.name(a)}" for a in legal)
        return (
            f"illegal action {action!r} ({name}) for player_{self.current_player()}; "
            f"legal actions: [{names}]"
        )

    def returns(self) -> np.ndarray:
        """Terminal rewards (float64, one per player); zeros before the end.

        The reward scheme is the game's ``reward`` config (see its env docstring).
        """
        if not self.is_terminal():
            return np.zeros(self.num_players, dtype=np.float64)
        return self._terminal_returns()

    def observation_tensor(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """What ``player`` may see, as a float32 vector of shape ``(observation_size,)``.

        Seat-relative: the observer first, then the others in turn order.
        """
        self._check_player(player)
        if out is None:
            out = np.empty(self.game.encoder.layout.size, dtype=np.float32)
        self.game.encoder.encode(self, player, out)
        return out

    def action_to_string(self, action: int) -> str:
        return self.game.action_to_string(action)

    # ---- text views (what a seat is shown) ------------------------------------
    def observation_string(self, player: int) -> str:
        """What ``player`` may see, as text: the public board (``render_text``)
        and that seat's own private information (its hand, programmed Action
        tokens, Favours, ...), never another seat's secrets. A determinization
        for ``player`` (``resample_hidden``) gives the same text.

        Raises:
            ValueError: ``player`` is not a seat of this game.
        """
        self._check_player(player)
        return self._observation_string(player)

    def public_action_string(self, action: int, observer: int) -> str:
        """How ``action``, taken by the player to act in this state (before it is
        applied), is seen by seat ``observer``: its full name, in the game's terms,
        when ``observer`` may see it (their own move, or a public one), otherwise
        a redacted form (e.g. ``"PROGRAM(hidden Action token)"``).

        Raises:
            ValueError: ``observer`` is not a seat, or ``action`` is not legal here.
        """
        self._check_player(observer)
        if not is_action_id(action) or self.is_terminal() or not self._is_legal(int(action)):
            raise ValueError(self._illegal_message(action, self.legal_actions()))
        return self._public_action_string(int(action), observer)

    def end_reason(self) -> str:
        """Why the game ended and who won, in the game's terms (public); ``""``
        before the end."""
        return self._end_reason() if self.is_terminal() else ""

    def _observation_string(self, player: int) -> str:
        """Hook: ``observation_string`` for a checked seat (default: the public
        ``render_text``, for games where a seat holds no secret)."""
        return self.render_text()

    def _public_action_string(self, action: int, observer: int) -> str:
        """Hook: ``public_action_string`` for a legal action and a checked seat
        (default: the action's name, for games without secret moves)."""
        return self.action_to_string(action)

    def _end_reason(self) -> str:
        """Hook: ``end_reason`` at a terminal state."""
        return "game over"

    def _check_player(self, player: int) -> None:
        if not isinstance(player, (int, np.integer)) or isinstance(player, bool) \
                or not 0 <= player < self.game.num_players:
            raise ValueError(f"player must be a seat 0..{self.game.num_players - 1}, got {player!r}")

    def clone(self) -> "State":
        """An independent copy (the rng included); the game is shared."""
        return copy.deepcopy(self)

    def resample_hidden(self, player: int, rng: np.random.Generator) -> "State":
        """A determinization for ``player``: a new state consistent with all
        that ``player`` has seen, with hidden parts redrawn from ``rng`` and the
        state's chance generator reseeded from ``rng``.

        Perfect-information games only reseed the generator (future chance is
        unknown to every player).
        """
        self._check_player(player)
        s = self.clone()
        s._reseed(rng.integers(2**63))  # s.rng = np.random.default_rng(...), made when first drawn from
        s._redraw_hidden(player, rng)
        s._legal_memo = None
        return s

    def _redraw_hidden(self, player: int, rng: np.random.Generator) -> None:
        """Hook: redraw what ``player`` cannot see (in place)."""

    def render_text(self) -> str:
        """A readable picture of the game from a neutral (public) view."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.render_text()


def snapshot(obj: Any) -> Any:
    """A plain, comparable structure of a state (for tests and golden files).

    numpy arrays become lists, generators their bit-generator state, objects
    their ``__dict__`` (the shared ``game`` and a State's private, ``_``-prefixed
    caches are left out).
    """
    if isinstance(obj, np.random.Generator):
        return ("rng", snapshot(obj.bit_generator.state))
    if isinstance(obj, np.ndarray):
        return ("array", obj.dtype.str, obj.tolist())  # dtype.str: str(dtype) is slow
    if isinstance(obj, (np.integer, np.floating, np.bool_)):
        return obj.item()
    if isinstance(obj, dict):
        return {k: snapshot(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        if set(map(type, obj)) <= {int}:  # fast path (e.g. a long ``history``)
            return list(obj)
        return [snapshot(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(snapshot(v) for v in obj)
    if isinstance(obj, Game):
        return None
    if isinstance(obj, State):
        # private attributes ("_"-prefixed) are caches, not game state
        d = {k: v for k, v in obj.__dict__.items() if k != "game" and not k.startswith("_")}
        d["rng"] = ("rng", snapshot(obj.rng_state()))
        return {k: snapshot(v) for k, v in sorted(d.items())}
    slots = getattr(type(obj), "__slots__", None)
    if hasattr(obj, "__dict__") or slots:
        d = dict(getattr(obj, "__dict__", {}))
        for k in slots or ():
            if hasattr(obj, k):
                d[k] = getattr(obj, k)
        return {k: snapshot(v) for k, v in sorted(d.items()) if k != "game"}
    return obj
