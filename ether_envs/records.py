"""Game records: a JSON record of one episode, and its exact replay.

A record holds what it takes to rebuild the episode: the game, its full
configuration, the seed of its chance, and the actions in order (plus the final
scores and returns as a check, who played which seat, and the versions)::

    import ether_envs
    from ether_envs.records import record_episode, save_record, load_record

    def policy(state):                                     # any policy(state) -> action id
        return state.legal_actions()[0]

    rec = record_episode("aethermon_collect", policy, seed=7, num_players=3)
    save_record(rec, "game.json")
    state = ether_envs.replay(load_record("game.json"))   # the identical final state

Records come from an engine state (:func:`record_from_state`), from a
PettingZoo env after its episode (:func:`record_from_env`), or by playing
policies (:func:`record_episode`). A *policy* is any callable
``policy(state) -> action id`` on the engine state, or an agent object with
``act(state, player) -> action id`` (the interface of ``agents.base.Agent``).
"""

from __future__ import annotations

import dataclasses
import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

FORMAT = 1
"""Version of the record format (the JSON key ``format``)."""

Policy = Callable[[Any], int]


@dataclass
class GameRecord:
    """One episode.

    Attributes:
        game: registered game name (``ether_envs.list_games()``).
        config: the game's full configuration (``Config`` fields, JSON values).
        seed: seed of ``game.new_initial_state(seed)``: all of the episode's chance.
        actions: action ids in the order applied.
        scores: final ``state.scores()`` (float per seat), checked by :func:`replay`.
        returns: final ``state.returns()`` (float per seat; zeros if not terminal).
        terminal: whether the episode reached the end of the game (False: truncated).
        players: optional label per seat (e.g. agent specs ``"random"``, ``"ppo:model.zip"``).
        game_version: the game's ``spec.version`` when recorded.
        version: the ``ether_envs`` version when recorded.
        metadata: free-form JSON-able extras (e.g. the tournament round).
        format: record format version (:data:`FORMAT`).
    """

    game: str
    config: dict[str, Any]
    seed: int
    actions: list[int]
    scores: list[float]
    returns: list[float]
    terminal: bool
    players: list[str] | None = None
    game_version: int = 0
    version: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    format: int = FORMAT

    def to_dict(self) -> dict[str, Any]:
        """A plain dict of JSON types."""
        return dataclasses.asdict(self)

    def to_json(self, indent: int | None = None) -> str:
        """The record as a JSON string."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GameRecord":
        """The record from :meth:`to_dict` output.

        Raises:
            ValueError: missing or unknown keys, a field of the wrong type (the message
                names the field and what it must be), or a newer record format.
        """
        if not isinstance(d, dict):
            raise ValueError(f"not a game record: expected a JSON object, got {type(d).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}
        required = {f.name for f in dataclasses.fields(cls)
                    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
        missing, unknown = required - set(d), set(d) - names
        if missing or unknown:
            raise ValueError(f"not a game record: missing keys {sorted(missing)}, unknown keys {sorted(unknown)}")
        _check_types(d)
        if d.get("format", FORMAT) > FORMAT:
            raise ValueError(f"record format {d['format']} is newer than this ether_envs reads ({FORMAT})")
        return cls(**d)

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        """The record from a JSON string (see :meth:`from_dict` for errors)."""
        return cls.from_dict(json.loads(text))

    def action_names(self) -> list[str]:
        """Readable names of ``actions`` (e.g. ``"MOVE(c3)"``), from the game's codec."""
        import ether_envs

        game = ether_envs.load_game(self.game, **self.config)
        return [game.action_to_string(a) for a in self.actions]

    def save(self, path: str | Path) -> Path:
        """Write the record as JSON to ``path``; returns the path."""
        return save_record(self, path)



def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _is_number(x: Any) -> bool:
    return _is_int(x) or isinstance(x, (float, np.floating))


def _check_types(d: dict[str, Any]) -> None:
    """Raise ValueError naming the first field of ``d`` (a record as a dict) whose type
    is wrong."""
    def bad(key: str, what: str, value: Any) -> ValueError:
        text = repr(value)
        text = text if len(text) <= 60 else text[:57] + "..."
        return ValueError(f"game record field {key!r} must be {what}, got {text}")

    def list_of(key: str, ok: Callable[[Any], bool], what: str) -> None:
        value = d[key]
        if not isinstance(value, (list, tuple)):
            raise bad(key, f"a list of {what}", value)
        for i, v in enumerate(value):
            if not ok(v):
                raise ValueError(f"game record field {key!r} must be a list of {what}: item {i} is {v!r}")

    if not isinstance(d["game"], str):
        raise bad("game", "a game name (a string)", d["game"])
    if not isinstance(d["config"], dict):
        raise bad("config", "an object of configuration fields", d["config"])
    if not _is_int(d["seed"]) or not 0 <= d["seed"] < 2 ** 64:  # the benchmark's held-out deals start at 2**63
        raise bad("seed", "a whole number 0..2**64-1", d["seed"])
    list_of("actions", _is_int, "action ids (whole numbers)")
    list_of("scores", _is_number, "numbers")
    list_of("returns", _is_number, "numbers")
    if not isinstance(d["terminal"], (bool, np.bool_)):
        raise bad("terminal", "true or false", d["terminal"])
    if d.get("players") is not None:
        list_of("players", lambda v: isinstance(v, str), "strings")
    if not _is_int(d.get("game_version", 0)):
        raise bad("game_version", "a whole number", d["game_version"])
    if not isinstance(d.get("version", ""), str):
        raise bad("version", "a string", d["version"])
    if not isinstance(d.get("metadata", {}), dict):
        raise bad("metadata", "an object", d["metadata"])
    if not _is_int(d.get("format", FORMAT)):
        raise bad("format", f"a whole number (this ether_envs writes {FORMAT})", d["format"])

def _jsonable(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.ndarray):
        return _jsonable(x.tolist())
    if isinstance(x, (np.integer, np.floating, np.bool_)):
        return x.item()
    return x


def _game_name(game) -> str:
    import ether_envs

    name = game.spec.name
    if name not in ether_envs.GAMES:
        raise ValueError(f"game {name!r} is not registered in ether_envs.GAMES")
    return name


def record_from_state(state, seed: int, players: Sequence[str] | None = None,
                      **metadata: Any) -> GameRecord:
    """The record of the episode that led to engine ``state``.

    Args:
        state: a state built by ``game.new_initial_state(seed)`` and then only
            ``apply_action`` calls (its ``history`` is the action list).
        seed: the seed it was built with (an int: a record must be replayable).
        players: optional label per seat.
        **metadata: JSON-able extras stored in ``metadata``.

    Raises:
        ValueError: ``seed`` is not an int, ``players`` has the wrong length, or
            the game's config holds values JSON cannot store.
    """
    import ether_envs

    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"a replayable record needs an int seed, got {seed!r}")
    game = state.game
    if players is not None and len(players) != game.num_players:
        raise ValueError(f"players has {len(players)} labels for {game.num_players} seats")
    config = _jsonable(dataclasses.asdict(game.config))
    try:
        json.dumps(config)
    except TypeError as e:
        raise ValueError(f"{game.spec.name} config {game.config} cannot be written as JSON: {e}") from None
    return GameRecord(
        game=_game_name(game),
        config=config,
        seed=int(seed),
        actions=[int(a) for a in state.history],
        scores=[float(v) for v in state.scores()],
        returns=[float(v) for v in state.returns()],
        terminal=bool(state.is_terminal()),
        players=list(players) if players is not None else None,
        game_version=int(game.spec.version),
        version=ether_envs.__version__,
        metadata=_jsonable(metadata),
    )


def record_from_env(env, players: Sequence[str] | None = None, **metadata: Any) -> GameRecord:
    """The record of the episode an ``ether_envs`` PettingZoo env has played
    since its last ``reset`` (wrapped or raw env; works mid-game too).

    Raises:
        RuntimeError: the env was not reset.
    """
    raw = env.unwrapped
    if getattr(raw, "game_state", None) is None:
        raise RuntimeError("reset() the env and play before recording it")
    return record_from_state(raw.game_state, raw.game_seed, players=players, **metadata)


def record_episode(game: str, policies: Policy | Sequence[Policy], seed: int,
                   players: Sequence[str] | None = None, max_steps: int | None = None,
                   metadata: dict[str, Any] | None = None, **config: Any) -> GameRecord:
    """Play one episode of ``game`` on the engine and record it.

    Args:
        game: registered game name.
        policies: one policy for every seat, or one per seat: a callable
            ``policy(state) -> action`` or an agent with ``act(state, player)``.
        seed: seed of the game's chance.
        players: label per seat (default: each agent's ``name`` or policy's ``__name__``).
        max_steps: stop (truncate) after this many actions (default: play to the end).
        metadata: JSON-able extras for the record.
        **config: the game's configuration.

    Raises:
        ValueError: wrong number of policies, or a policy chose an illegal action.
    """
    import ether_envs

    g = ether_envs.load_game(game, **config)
    if callable(policies) or hasattr(policies, "act"):
        policies = [policies] * g.num_players
    if len(policies) != g.num_players:
        raise ValueError(f"{len(policies)} policies for {g.num_players} seats")
    if players is None:
        players = [_label(p) for p in policies]
    choose = [_as_policy(p) for p in policies]
    state = g.new_initial_state(seed=seed)
    limit = g.max_game_length() if max_steps is None else max_steps
    while not state.is_terminal() and len(state.history) < limit:
        state.apply_action(choose[state.current_player()](state))
    return record_from_state(state, seed, players=players, **(metadata or {}))


def _as_policy(p) -> Policy:
    """``policy(state)`` for a callable or for an agent with ``act(state, player)``."""
    if hasattr(p, "act"):
        return lambda state: p.act(state, state.current_player())
    return p


def _label(p) -> str:
    return str(getattr(p, "name", None) or getattr(p, "__name__", None) or type(p).__name__)


def save_record(record: GameRecord, path: str | Path) -> Path:
    """Write ``record`` as JSON (indented) to ``path``; returns the path."""
    path = Path(path)
    path.write_text(record.to_json(indent=1) + "\n", encoding="utf-8")
    return path


def load_record(path: str | Path) -> GameRecord:
    """Read a record written by :func:`save_record`.

    Raises:
        ValueError: the file is not a game record (or is of a newer format).
    """
    return GameRecord.from_json(Path(path).read_text(encoding="utf-8"))


def _as_record(record: GameRecord | dict | str | Path) -> GameRecord:
    if isinstance(record, GameRecord):
        return record
    if isinstance(record, dict):
        return GameRecord.from_dict(record)
    return load_record(record)


def _play(rec: GameRecord) -> Iterator[Any]:
    """The live state of a replay: yielded once initially, then after each action."""
    import ether_envs

    game = ether_envs.load_game(rec.game, **rec.config)
    if game.spec.version != rec.game_version:
        warnings.warn(f"record of {rec.game} v{rec.game_version} replayed on v{game.spec.version}: "
                      "the rules may have changed", stacklevel=3)
    state = game.new_initial_state(seed=rec.seed)
    yield state
    for i, a in enumerate(rec.actions):
        try:
            state.apply_action(a)
        except ValueError as e:
            raise ValueError(f"record does not replay: action {i} ({a}) is illegal: {e}") from None
        yield state


def replay_states(record: GameRecord | dict | str | Path) -> Iterator[Any]:
    """The episode's states in order: the initial state, then the state after
    each action (``len(actions) + 1`` independent states, each a clone).

    Raises:
        ValueError: unknown game, invalid config, or an action illegal in replay.
    """
    for state in _play(_as_record(record)):
        yield state.clone()


def replay(record: GameRecord | dict | str | Path, check: bool = True):
    """Rebuild the final state of a recorded episode (``ether_envs.replay``).

    Args:
        record: a :class:`GameRecord`, its dict, or the path of its JSON file.
        check: verify that the replayed scores, returns and end match the record.

    Returns:
        The engine state after the record's last action: identical to the
        recorded episode's final state (same fields, same chance generator).

    Raises:
        ValueError: unknown game, invalid config, an illegal action, or (with
            ``check``) a final position that differs from the record.
    """
    rec = _as_record(record)
    for state in _play(rec):
        pass
    if check:
        got = ([float(v) for v in state.scores()], [float(v) for v in state.returns()], bool(state.is_terminal()))
        want = (list(rec.scores), list(rec.returns), rec.terminal)
        if got != want:
            raise ValueError(f"replay differs from the record: (scores, returns, terminal) "
                             f"replayed {got}, recorded {want}")
    return state


__all__ = ["FORMAT", "GameRecord", "load_record", "record_episode", "record_from_env", "record_from_state",
           "replay", "replay_states", "save_record"]
