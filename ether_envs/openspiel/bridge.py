"""The generic adapter: any ether-envs ``core.Game``/``core.State`` as an OpenSpiel Python game.

One :class:`EtherGame` subclass per registered ether-envs game (``python_ether_<game>``), all
served by the same code; nothing here is game-specific except :func:`utility_range` (the
bounds of each reward scheme, which the engine API does not expose).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Callable

import numpy as np
import pyspiel

import ether_envs
from ether_envs.core.game import Game as CoreGame
from ether_envs.core.game import State as CoreState

PREFIX = "python_ether_"
"""OpenSpiel short names are ``PREFIX + <ether-envs game name>``."""
SEED_PARAM = "rng_seed"
"""The game parameter that seeds the deals (OpenSpiel's name for it in sampled-stochastic games)."""
LIST_SEP = "+"
"""Separator of the items of a tuple-valued config field in its string parameter (``a+b+c``)."""
UNSET = -1
"""Integer parameter value for an ``int | None`` or ``bool | None`` config field left at ``None``."""
MAX_SEED = 2**31 - 1
"""OpenSpiel integer parameters are C++ ``int``: the largest ``rng_seed``."""

_UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "general": pyspiel.GameType.Utility.GENERAL_SUM,
    "identical": pyspiel.GameType.Utility.IDENTICAL,
}


# ---- configuration <-> OpenSpiel game parameters ------------------------------------------
@dataclasses.dataclass(frozen=True)
class ParamSpec:
    """How one config field travels as an OpenSpiel game parameter.

    Attributes:
        name: the config field (and parameter) name.
        kind: ``"bool"``, ``"int"``, ``"float"``, ``"str"``, ``"list"`` (a tuple of strings, joined
            by :data:`LIST_SEP`), or ``"opt_int"``, ``"opt_bool"`` (an ``int`` parameter,
            :data:`UNSET` for ``None``; ``opt_bool`` takes 0/1), ``"opt_str"``, ``"opt_list"``
            (a string parameter, ``""`` for ``None``).
        default: the OpenSpiel default value (the field's default, encoded).
    """

    name: str
    kind: str
    default: Any

    def encode(self, value: Any) -> Any:
        """A config value as this parameter's OpenSpiel value.

        Raises:
            ValueError: a list item contains :data:`LIST_SEP`.
        """
        if value is None:
            return "" if self.kind in ("opt_str", "opt_list") else UNSET
        if self.kind in ("list", "opt_list"):
            items = [str(v) for v in value]
            bad = [v for v in items if LIST_SEP in v]
            if bad:
                raise ValueError(f"config {self.name}: items {bad} contain {LIST_SEP!r}, which separates items")
            return LIST_SEP.join(items)
        if self.kind == "opt_bool":
            return int(bool(value))
        if isinstance(value, np.generic):
            return value.item()
        return value

    def decode(self, value: Any) -> Any:
        """An OpenSpiel parameter value as the config value.

        Raises:
            ValueError: an ``opt_bool`` value other than -1, 0 or 1, or an ``opt_int`` below -1.
        """
        if self.kind == "list":
            return tuple(value.split(LIST_SEP)) if value else ()
        if self.kind == "opt_list":
            return tuple(value.split(LIST_SEP)) if value else None
        if self.kind == "opt_str":
            return value or None
        if self.kind == "opt_int":
            if value < UNSET:
                raise ValueError(f"{self.name} must be {UNSET} (the configuration's default) or a value the game "
                                 f"accepts, got {value!r}")
            return None if value == UNSET else value
        if self.kind == "opt_bool":
            if value not in (UNSET, 0, 1):
                raise ValueError(f"{self.name} must be {UNSET} (the configuration's default), 0 or 1, got {value!r}")
            return None if value == UNSET else bool(value)
        return value


def _param_spec(f: dataclasses.Field) -> ParamSpec:
    default = f.default
    if default is dataclasses.MISSING:
        raise TypeError(f"config field {f.name} has no default; OpenSpiel parameters need one")
    for typ, kind in ((bool, "bool"), (int, "int"), (float, "float"), (str, "str")):
        if isinstance(default, typ):
            return ParamSpec(f.name, kind, default)
    if isinstance(default, tuple):
        return ParamSpec(f.name, "list", LIST_SEP.join(default))
    annotation = str(f.type).replace(" ", "")
    if default is None:
        for prefix, kind, encoded in (("tuple", "opt_list", ""), ("int|", "opt_int", UNSET),
                                      ("bool|", "opt_bool", UNSET), ("str|", "opt_str", "")):
            if annotation.startswith(prefix):
                return ParamSpec(f.name, kind, encoded)
    raise TypeError(f"config field {f.name}: {f.type} (default {default!r}) has no OpenSpiel parameter mapping")


def param_specs(game_name: str) -> dict[str, ParamSpec]:
    """Every config field of ``game_name`` as a :class:`ParamSpec`, in field order (a new dict).

    Raises:
        ValueError: unknown game.
    """
    return dict(_param_specs(game_name))


@functools.lru_cache(maxsize=None)
def _param_specs(game_name: str) -> tuple[tuple[str, ParamSpec], ...]:
    config_cls = type(ether_envs.load_game(game_name).config)
    return tuple((f.name, _param_spec(f)) for f in dataclasses.fields(config_cls))


def parameter_specification(game_name: str) -> dict[str, Any]:
    """The OpenSpiel ``parameter_specification`` of ``game_name``: every config field's default
    (encoded) plus ``rng_seed`` (default 0)."""
    spec = {name: p.default for name, p in param_specs(game_name).items()}
    spec[SEED_PARAM] = 0
    return spec


def params_from_config(game: CoreGame, rng_seed: int = 0) -> dict[str, Any]:
    """The OpenSpiel game parameters of a configured ether-envs game (its full config)."""
    specs = param_specs(game.spec.name)
    params = {name: specs[name].encode(getattr(game.config, name)) for name in specs}
    params[SEED_PARAM] = rng_seed
    return params


def config_from_params(game_name: str, params: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """``(config kwargs, rng_seed)`` from OpenSpiel game parameters (missing ones take their defaults).

    Raises:
        ValueError: an unknown parameter (the message lists the valid ones), a value of the wrong
            type, or an ``rng_seed`` outside ``0..2**31-1``.
    """
    specs = param_specs(game_name)
    valid = [*specs, SEED_PARAM]
    unknown = sorted(set(params) - set(valid))
    if unknown:
        raise ValueError(f"{PREFIX}{game_name}: unknown parameter(s) {unknown}; valid: {sorted(valid)}")
    seed = params.get(SEED_PARAM, 0)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"{PREFIX}{game_name}: {SEED_PARAM} must be an int in 0..{MAX_SEED}, got {seed!r}")
    config = {}
    for name, spec in specs.items():
        if name not in params:
            continue
        value = params[name]
        want = {"bool": bool, "float": (float, int), "str": str, "list": str, "opt_str": str,
                "opt_list": str}.get(spec.kind, int)
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise ValueError(f"{PREFIX}{game_name}: parameter {name} must be of type "
                             f"{type(spec.default).__name__} (like its default {spec.default!r}), got {value!r}")
        config[name] = spec.decode(value)
    return config, int(seed)


def game_string(game: CoreGame | str, rng_seed: int = 0, **config: Any) -> str:
    """The OpenSpiel game string of a configured game, e.g.
    ``game_string("ethnos", num_players=3)`` -> ``"python_ether_ethnos(num_players=3)"``.

    Args:
        game: an ether-envs ``Game`` (its whole config is written) or a game name (only the
            given ``config`` keys are written; the others take their defaults).
        rng_seed: written when not 0.

    Raises:
        ValueError: unknown game or config key.
    """
    if isinstance(game, str):
        specs = param_specs(game)
        unknown = sorted(set(config) - set(specs))
        if unknown:
            raise ValueError(f"{game}: unknown config key(s) {unknown}; valid keys: {list(specs)}")
        name, params = game, {k: specs[k].encode(v) for k, v in config.items()}
        if rng_seed:
            params[SEED_PARAM] = rng_seed
    else:
        name, params = game.spec.name, params_from_config(game, rng_seed)
    inner = ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in params.items())
    return f"{PREFIX}{name}({inner})" if inner else f"{PREFIX}{name}"


# ---- what the game declares ------------------------------------------------------------------
def utility_range(game: CoreGame) -> tuple[float, float]:
    """``(min, max)`` of one seat's terminal return under ``game``'s configuration.

    Win/loss rewards (every zero-sum configuration, and the co-operative ``reward="win"``) are
    in [-1, 1]; Aetherspire's ``reward="score"`` and Aethermon: Collect's co-operative score are
    in [0, 1]; Aethermon: Collect's competitive ``reward="score"`` is a (team) score, at most
    all the points on the grid: 26 per Element.
    """
    name, cfg = game.spec.name, game.config
    if name == "aethermon_collect" and cfg.reward_scheme == "score":
        return (0.0, 1.0) if cfg.cooperative else (0.0, 26.0 * cfg.grid[0])
    if name == "aetherspire" and cfg.reward == "score":
        return 0.0, 1.0
    return -1.0, 1.0


def game_type(game: CoreGame) -> pyspiel.GameType:
    """The OpenSpiel ``GameType`` of a configured game: sequential, sampled-stochastic chance
    (``spec.chance == "sampled"``; deterministic otherwise), perfect or imperfect information
    (``game.has_hidden_information()``), its ``utility()``, terminal rewards, observation string
    and tensor (no information-state string or tensor: see the package docstring)."""
    name = game.spec.name
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"{game.spec.title} (ether-envs)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if game.spec.chance == "sampled"
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if game.has_hidden_information()
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=_UTILITY[game.utility()],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.spec.max_players,
        min_num_players=game.spec.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(name),
    )


def game_info(game: CoreGame) -> pyspiel.GameInfo:
    """The OpenSpiel ``GameInfo``: the action count, no explicit chance outcomes, the player
    count, :func:`utility_range`, utility sum 0 when zero-sum, ``max_game_length()``."""
    low, high = utility_range(game)
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=0,
        num_players=game.num_players,
        min_utility=low,
        max_utility=high,
        utility_sum=0.0 if game.utility() == "zero_sum" else None,
        max_game_length=game.max_game_length(),
    )


# ---- the game ----------------------------------------------------------------------------------
class EtherGame(pyspiel.Game):
    """An ether-envs game inside OpenSpiel (``pyspiel.load_game("python_ether_<game>(...)")``).

    Subclassed once per ether-envs game by :func:`register` (``game_name`` set). Its game
    parameters are the game's config fields plus ``rng_seed``; ``get_type()`` and the sizes
    describe this configuration.

    Seeding: the ``k``-th initial state this game object hands out (``k = 0, 1, ...``, counted
    when the state is first used) is deal ``rng_seed + k``: the same deal as
    ``ether_envs.load_game(name, **config).new_initial_state(seed=rng_seed + k)``.
    ``new_initial_state(seed=s)`` (from Python) gives deal ``s`` and does not count.

    Attributes:
        engine: the configured ether-envs ``core.Game``.
        rng_seed: the first deal's seed.
    """

    game_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None):
        config, seed = config_from_params(self.game_name, dict(params or {}))
        engine = ether_envs.load_game(self.game_name, **config)
        full = params_from_config(engine, seed)
        super().__init__(game_type(engine), game_info(engine), full)
        self.engine = engine
        self.rng_seed = seed
        self._deals = 0
        self._peeked: tuple[int, CoreState] | None = None  # (seed, state) of the next deal, observed

    def _next_seed(self) -> int:
        seed = self.rng_seed + self._deals
        self._deals += 1
        return seed

    def new_initial_state(self, seed: int | None = None) -> "EtherState":
        """A new game: deal ``seed`` (a non-negative int), or with ``None`` the next deal of
        this game object (see the class docstring).

        Raises:
            ValueError: ``seed`` is not ``None`` or a non-negative int.
        """
        if seed is None:
            return EtherState(self)
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be None or a non-negative int, got {seed!r}")
        return EtherState(self, self.engine.new_initial_state(seed=int(seed)), int(seed))

    def wrap(self, state: CoreState) -> "EtherState":
        """An OpenSpiel state holding a clone of the ether-envs ``state`` (of this game's
        configuration). Its OpenSpiel ``history()`` is empty and it serializes by pickling the
        engine state (its seed is unknown).

        Raises:
            ValueError: ``state`` belongs to another game or configuration.
        """
        if state.game.spec.name != self.game_name or state.game.config != self.engine.config:
            raise ValueError(f"state of {state.game!r} does not belong to {self.engine!r}")
        return EtherState(self, state.clone(), None)

    def __reduce__(self):
        # pickles as the game string and the deals handed out (OpenSpiel's own pickling needs
        # Game.GetRNGState(), which a Python game cannot provide)
        return _unpickle_game, (str(self), self._deals)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict | None = None) -> "EtherObserver":
        """The observer of OpenSpiel's observation API (:class:`EtherObserver`)."""
        return EtherObserver(self, iig_obs_type, params)


def _unpickle_game(text: str, deals: int) -> EtherGame:
    game = pyspiel.load_game(text)
    game._deals = deals
    return game


class _Engine:
    """Holds an :class:`EtherState`'s engine state: the only Python attribute OpenSpiel's
    ``Clone()`` deep-copies and ``Serialize()`` pickles.

    A fresh state takes its deal (the game's next seed) when first used (``get``), so the
    throwaway initial state that OpenSpiel's ``Clone()`` creates and overwrites takes none.
    Observing a fresh state (``peek``, as OpenSpiel's ``ObservationTensorShape()`` does on a
    throwaway state) shows the next deal without taking it. Copying goes through the engine's
    ``clone()``; pickling writes a game record (seed and actions) when the state came from a
    seed and ``apply_action`` only, else the engine state itself.
    """

    __slots__ = ("game", "state", "seed")

    def __init__(self, game: EtherGame | None, state: CoreState | None = None, seed: int | None = None):
        self.game, self.state, self.seed = game, state, seed

    def get(self) -> CoreState:
        s = self.state
        if s is None:
            game = self.game
            seed = game._next_seed()
            peeked = game._peeked
            if peeked is not None and peeked[0] == seed:
                s, game._peeked = peeked[1], None
            else:
                s = game.engine.new_initial_state(seed=seed)
            self.state, self.seed, self.game = s, seed, None
        return s

    def peek(self) -> CoreState:
        """The engine state to observe (not to change): a fresh state's next deal, not taken
        (kept by the game for the next fresh state to take)."""
        if self.state is not None:
            return self.state
        game = self.game
        seed = game.rng_seed + game._deals
        if game._peeked is None or game._peeked[0] != seed:
            game._peeked = (seed, game.engine.new_initial_state(seed=seed))
        return game._peeked[1]

    def __deepcopy__(self, memo) -> "_Engine":
        return _Engine(None, self.get().clone(), self.seed)

    def __reduce__(self):
        s = self.get()
        if self.seed is None:
            return _engine_from_state, (s,)
        from ether_envs.records import record_from_state

        return _engine_from_record, (record_from_state(s, self.seed).to_json(),)


def _engine_from_record(text: str) -> _Engine:
    from ether_envs.records import GameRecord, replay

    rec = GameRecord.from_json(text)
    return _Engine(None, replay(rec), rec.seed)


def _engine_from_state(state: CoreState) -> _Engine:
    return _Engine(None, state, None)


class EtherState(pyspiel.State):
    """An OpenSpiel state over an ether-envs engine state (``engine``).

    Chance happens inside ``apply_action`` (sampled stochastic): there are no chance nodes.
    ``clone()`` copies the engine state with its ``clone()``; ``serialize()`` writes a game
    record (seed and actions; see :class:`_Engine`); ``resample_from_infostate`` redraws what
    the player cannot see with the engine's ``resample_hidden``.
    """

    def __init__(self, game: EtherGame, engine: CoreState | None = None, seed: int | None = None):
        super().__init__(game)
        self._engine = _Engine(game if engine is None else None, engine, seed)

    @property
    def engine(self) -> CoreState:
        """The ether-envs engine state (``core.State``), live: do not change it."""
        return self._engine.get()

    @property
    def seed(self) -> int | None:
        """The deal's seed, or ``None`` for a determinization or a wrapped engine state."""
        self._engine.get()
        return self._engine.seed

    def current_player(self) -> int:
        p = self._engine.get().current_player()
        return p if p >= 0 else pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return self._engine.get().legal_actions()

    # Python callers (OpenSpiel's Python algorithms) reach these directly instead of through
    # OpenSpiel's C++ State, which calls back into Python several times per call; same answers.
    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal actions of ``player`` (default: the player to act); ``[]`` for another
        player and at the end."""
        s = self._engine.get()
        if player is not None and player != s.current_player():
            return []
        return s.legal_actions()

    def is_chance_node(self) -> bool:
        """Always False: chance is sampled inside ``apply_action``."""
        return False

    def _apply_action(self, action: int) -> None:
        self._engine.get().apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._engine.get().game.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._engine.get().is_terminal()

    def returns(self) -> list[float]:
        return self._engine.get().returns().tolist()

    def __str__(self) -> str:
        return self._engine.get().render_text()

    def __reduce__(self):
        # pickles as the game and serialize() (OpenSpiel's own pickling goes through
        # Game::Serialize(), which needs Game.GetRNGState(): not available to a Python game)
        return _unpickle_state, (self.get_game(), self.serialize())

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> "EtherState":
        """A determinization for ``player_id``: a copy of this state with everything that player
        cannot see (other seats' hidden cards, the order of hidden decks, the future of chance)
        redrawn by the engine's ``resample_hidden``, seeded from two draws of
        ``probability_sampler`` (a ``pyspiel.UniformProbabilitySampler`` or any callable
        returning a float in [0, 1)). The copy keeps this state's OpenSpiel history.

        Raises:
            ValueError: ``player_id`` is not a seat.
        """
        words = [int(probability_sampler() * 2**32) & 0xFFFFFFFF for _ in range(2)]
        det = self._engine.get().resample_hidden(player_id, np.random.default_rng(words))
        held = self._engine
        self._engine = _Handoff(det)  # the clone takes the determinization without copying it
        try:
            out = self.clone()
        finally:
            self._engine = held
        return out


def _unpickle_state(game: EtherGame, text: str) -> EtherState:
    return game.deserialize_state(text)


class _Handoff:
    """A one-use holder whose deep copy is a holder of its state itself (no engine copy)."""

    __slots__ = ("state",)

    def __init__(self, state: CoreState):
        self.state = state

    def __deepcopy__(self, memo) -> _Engine:
        return _Engine(None, self.state, None)


# ---- observations --------------------------------------------------------------------------
class EtherObserver:
    """OpenSpiel's observer (the ``PyObserver`` interface) for an :class:`EtherGame`.

    ``tensor`` is the engine's seat-relative observation (the PettingZoo env's
    ``observation``), ``dict`` its named pieces (reshaped views of ``tensor``). ``string_from``
    is the engine's per-seat text view ``State.observation_string(player)``.

    Only the default observation type is supported: public information plus the observing
    player's private information, without perfect recall.

    Raises:
        ValueError: another observation type (perfect recall, all players' or no private
            information, no public information), or observer parameters.
    """

    def __init__(self, game: EtherGame, iig_obs_type: pyspiel.IIGObservationType | None, params: dict | None):
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        if iig_obs_type is not None:
            if iig_obs_type.perfect_recall:
                raise ValueError(f"{game.get_type().short_name} has no perfect-recall information states; "
                                 "use the default observation (perfect_recall=False)")
            if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
                raise ValueError("only the default observation type is supported (public_info=True, "
                                 f"private_info=SINGLE_PLAYER), got private_info={iig_obs_type.private_info}, "
                                 f"public_info={iig_obs_type.public_info}")
        layout = game.engine.layout
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = layout.views(self.tensor)

    def set_from(self, state: EtherState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor`` (and so ``dict``)."""
        state._engine.peek().observation_tensor(player, out=self.tensor)

    def string_from(self, state: EtherState, player: int) -> str:
        """``player``'s observation of ``state`` as text (see the class docstring)."""
        return state._engine.peek().observation_string(player)


# ---- registration -------------------------------------------------------------------------------
def game_class(game_name: str) -> type[EtherGame]:
    """The :class:`EtherGame` subclass registered for ``game_name``.

    Raises:
        ValueError: unknown game.
    """
    if game_name not in ether_envs.GAMES:
        raise ValueError(f"unknown game {game_name!r}; registered games: {ether_envs.list_games()}")
    cls = _CLASSES.get(game_name)
    if cls is None:
        title = "".join(w.capitalize() for w in game_name.split("_"))
        cls = _CLASSES[game_name] = type(f"{title}OpenSpielGame", (EtherGame,), {
            "game_name": game_name, "__module__": __name__,
            "__doc__": f"{ether_envs.load_game(game_name).spec.title} inside OpenSpiel ({PREFIX}{game_name})."})
    return cls


_CLASSES: dict[str, type[EtherGame]] = {}


def register(game_name: str) -> str:
    """Register ``game_name`` with OpenSpiel as ``python_ether_<game_name>`` (once); its
    registered type is that of its default configuration. Returns the short name."""
    short = PREFIX + game_name
    cls = game_class(game_name)
    if short not in pyspiel.registered_names():
        pyspiel.register_game(game_type(ether_envs.load_game(game_name)), cls)
    return short


def load_game(game: CoreGame | str, rng_seed: int = 0, **config: Any) -> EtherGame:
    """The OpenSpiel game of an ether-envs game and configuration (``pyspiel.load_game``).

    Args:
        game: a configured ether-envs ``Game`` (its config is used) or a game name with ``config``.
        rng_seed: the first deal's seed (see :class:`EtherGame`).

    Raises:
        ValueError: unknown game, invalid config or seed (OpenSpiel's parameter errors are
            ``pyspiel.SpielError``).
    """
    if isinstance(game, str):
        engine = ether_envs.load_game(game, **config)
    else:
        if config:
            raise ValueError("pass config keys with a game name, not with a Game")
        engine = game
    register(engine.spec.name)
    return pyspiel.load_game(PREFIX + engine.spec.name, params_from_config(engine, rng_seed))
