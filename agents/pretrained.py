"""The reference agent zoo: small trained policy networks shipped with the package.

    import ether_envs
    from agents import make_agent
    game = ether_envs.load_game("ethnos")
    agent = make_agent("pretrained", game)                   # the game's shipped weights (the newest zoo)
    agent = make_agent("pretrained:zoo=1", game)             # zoo 1's
    # any weight file of ours: make_agent("pretrained:path=runs/ethnos/policy.npz", game)

A weight file is a numpy ``.npz`` archive read with ``allow_pickle=False`` (loading it runs no
code, unlike an SB3 ``model.zip``, which is a pickle). It holds one multilayer perceptron:

* ``hidden_<i>.weight`` ``(out, in)`` and ``hidden_<i>.bias`` ``(out,)`` for each ReLU layer,
* ``policy.weight`` ``(num_actions, last)`` / ``policy.bias``: the action logits,
* ``value.weight`` ``(1, last)`` / ``value.bias``: the value head (the learner's expected return),
* ``metadata``: a JSON string, :func:`agents.ppo.model_metadata` of the game it was trained on
  (game, version, config, action count, observation size and layout) plus ``format``
  (:data:`WEIGHTS_FORMAT`) and what produced it (``training``).

Play is one forward pass per decision in numpy (no torch, no search): the masked argmax of the
logits, or a sample from the masked softmax with ``deterministic=false``. Before use, the
file's layout record is checked against the game (:func:`agents.ppo.check_compatible`); a file
trained on another game, configuration, encoder or action count is refused with a
``ValueError`` naming each difference.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from .base import Agent

WEIGHTS_FORMAT = "ether-envs-mlp-1"
WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
"""Where the shipped weights live: ``<game>.npz``, the newest zoo's net of each game (for the
game's default configuration, playing every player count); ``<N>p/<game>.npz``, where there is
one, the newest zoo's net for ``N`` players only, which takes the place of ``<game>.npz`` at that
count (issue 25: "one net measured at each count, or one per count"); and ``zoo<N>/<game>.npz``,
the nets of an older zoo ``N`` kept as ladder anchors (``pretrained:zoo=N``)."""


def weights_zoo(path: str | Path) -> int:
    """The zoo a weight file belongs to: its metadata's ``zoo`` (files from before zoo 2 have none: 1)."""
    with np.load(path, allow_pickle=False) as z:
        return int(json.loads(str(z["metadata"])).get("zoo", 1))


def _check_count(num_players: Any) -> int:
    if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)) or num_players < 1:
        raise ValueError(f"num_players must be an int >= 1, got {num_players!r}")
    return int(num_players)


def shipped_weights(zoo: int | None = None, num_players: int | None = None) -> dict[str, Path]:
    """``{game name: weight file}`` of every game with shipped weights.

    Args:
        zoo: ``None`` (default): the newest net of each game (``agents/weights/<game>.npz``); an int
            ``N`` >= 1: zoo ``N``'s nets (``agents/weights/zoo<N>/<game>.npz``, or the newest file
            when it belongs to zoo ``N``).
        num_players: ``None`` (default): the files that play every player count; an int ``N`` >= 1:
            the files that play ``N`` players, where a game's net for ``N`` players only
            (``agents/weights/<N>p/<game>.npz``, :func:`count_weights_path`) takes the place of its
            every-count file when it belongs to the zoo asked for.

    Raises:
        ValueError: ``zoo`` not None or an int >= 1; ``num_players`` not None or an int >= 1.
    """
    if num_players is not None:
        num_players = _check_count(num_players)
    newest = {p.stem: p for p in sorted(WEIGHTS_DIR.glob("*.npz"))}
    if zoo is None:
        out = newest
    else:
        if isinstance(zoo, bool) or not isinstance(zoo, (int, np.integer)) or zoo < 1:
            raise ValueError(f"zoo must be an int >= 1, got {zoo!r}")
        out = {p.stem: p for p in sorted((WEIGHTS_DIR / f"zoo{zoo}").glob("*.npz"))}
        for name, p in newest.items():
            if name not in out and weights_zoo(p) == zoo:
                out[name] = p
    if num_players is not None:
        for folder in WEIGHTS_DIR.glob("*p"):  # the count folders there are (no path built from a huge count)
            if folder.name == f"{num_players}p":
                for p in sorted(folder.glob("*.npz")):
                    if zoo is None or weights_zoo(p) == zoo:
                        out[p.stem] = p
    return dict(sorted(out.items()))


def _zoo_numbers() -> list[int]:
    """The zoos that have shipped nets: each ``agents/weights/zoo<N>/`` and the newest files' zoos."""
    numbers = {int(d.name[3:]) for d in WEIGHTS_DIR.glob("zoo*") if d.is_dir() and d.name[3:].isdigit()}
    numbers |= {weights_zoo(p) for p in WEIGHTS_DIR.glob("*.npz")}
    numbers |= {weights_zoo(p) for p in WEIGHTS_DIR.glob("*p/*.npz")}
    return sorted(numbers)


def count_weights_path(game_name: str, num_players: int) -> Path:
    """Where a game's newest net for ``num_players`` players only is shipped:
    ``agents/weights/<num_players>p/<game_name>.npz`` (it takes the place of the every-count file
    ``agents/weights/<game_name>.npz`` at that count; :func:`shipped_weights`).

    Raises:
        ValueError: ``game_name`` not a registered game; ``num_players`` not an int >= 1.
    """
    import ether_envs

    ether_envs.load_game(game_name)  # an unknown name is its ValueError
    return WEIGHTS_DIR / f"{_check_count(num_players)}p" / f"{game_name}.npz"


def zoo_rows(games: list[str] | None = None) -> list[dict[str, Any]]:
    """What ``pretrained`` and ``pretrained:zoo=1`` load for each game at each player count it
    plays (``ether-envs zoo`` prints it): one dict a (game, count) with ``game``, ``players``,
    ``file`` (the newest net's file, relative to ``agents/weights``; ``None`` when the game ships
    none), ``zoo`` (int), ``sha256`` (hex), ``megabytes`` (float), ``stage`` (str: what its metadata
    says trained it last), ``frames`` (int or ``None``: that stage's learner frames) and
    ``zoo1_file`` (zoo 1's file, relative, or ``None``).

    Raises:
        ValueError: a name in ``games`` that is not a registered game.
    """
    import hashlib

    import ether_envs

    names = ether_envs.list_games() if games is None else list(games)
    specs = {name: ether_envs.load_game(name).spec for name in names}  # an unknown name is its ValueError
    rows = []
    for name, spec in specs.items():
        for n in range(spec.min_players, spec.max_players + 1):
            path, old = shipped_weights(num_players=n).get(name), shipped_weights(zoo=1, num_players=n).get(name)
            row: dict[str, Any] = {"game": name, "players": n, "file": None, "zoo": None, "sha256": None,
                                   "megabytes": None, "stage": None, "frames": None,
                                   "zoo1_file": old.relative_to(WEIGHTS_DIR).as_posix() if old else None}
            if path is not None:
                meta = MLPPolicy.load(path).metadata
                t = meta.get("training") or {}
                row.update(file=path.relative_to(WEIGHTS_DIR).as_posix(), zoo=int(meta.get("zoo", 1)),
                           sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
                           megabytes=path.stat().st_size / 1e6,
                           stage=str(t.get("stage") or t.get("algorithm") or "?"),
                           frames=int(t["frames"]) if t.get("frames") is not None else None)
            rows.append(row)
    return rows


def encoder_fingerprint(game, games: int = 2, max_steps: int = 300) -> str:
    """A hash of what the encoder and the action codec produce on fixed random games: the
    acting seat's observation, the legal-action mask and the action, at every step of ``games``
    games (seeds 0, 1, ...; at most ``max_steps`` steps each) played with uniform random legal
    actions from ``numpy.random.default_rng(seed)``.

    The layout record (piece names and sizes, action count) misses an encoder that changes what
    a feature means at the same size; this hash changes then too. Shipped weights store it
    (``metadata["encoder_fingerprint"]``) and ``tests/agents/test_pretrained.py`` compares it
    with the current engine's, so a changed encoder fails a test until the game is retrained.

    Returns:
        a hex SHA-256 digest (64 characters).
    """
    import hashlib

    h = hashlib.sha256()
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed=seed)
        for _ in range(max_steps):
            if state.is_terminal():
                break
            p = state.current_player()
            legal = state.legal_actions()
            a = int(legal[rng.integers(len(legal))])
            h.update(state.observation_tensor(p).tobytes())
            h.update(np.asarray(state.legal_actions_mask(), dtype=np.int8).tobytes())
            h.update(a.to_bytes(4, "little"))
            state.apply_action(a)
    return h.hexdigest()


class MLPPolicy:
    """A policy/value MLP held as numpy arrays (float32).

    Args:
        hidden: ``[(weight (out, in), bias (out,)), ...]`` of the ReLU layers (may be empty).
        policy: ``(weight (num_actions, last), bias (num_actions,))``.
        value: ``(weight (1, last), bias (1,))``.
        metadata: the layout record (see the module docstring).

    Raises:
        ValueError: shapes that do not chain, or a metadata record without game/format.
    """

    def __init__(self, hidden: list[tuple[np.ndarray, np.ndarray]], policy: tuple[np.ndarray, np.ndarray],
                 value: tuple[np.ndarray, np.ndarray], metadata: dict[str, Any]) -> None:
        self.hidden = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in hidden]
        self.policy = tuple(np.asarray(x, np.float32) for x in policy)
        self.value = tuple(np.asarray(x, np.float32) for x in value)
        self.metadata = dict(metadata)
        self._first_t: np.ndarray | None = None  # the first layer's weight transposed, made on first use
        width = int(self.metadata.get("observation_size", -1))
        for i, (w, b) in enumerate([*self.hidden, self.policy, self.value]):
            if w.ndim != 2 or b.shape != (w.shape[0],) or (width >= 0 and w.shape[1] != width):
                raise ValueError(f"weight file layer {i}: shape {w.shape} / bias {b.shape} does not take "
                                 f"inputs of width {width}")
            if i < len(self.hidden):
                width = w.shape[0]  # the policy and value heads both read the last hidden layer
        if self.policy[0].shape[0] != int(self.metadata.get("num_actions", self.policy[0].shape[0])):
            raise ValueError(f"weight file has {self.policy[0].shape[0]} action logits but its metadata says "
                             f"{self.metadata.get('num_actions')} actions")
        if self.value[0].shape[0] != 1:
            raise ValueError(f"weight file value head has {self.value[0].shape[0]} outputs, expected 1")

    # -- forward ------------------------------------------------------------------------------
    def features(self, observation: np.ndarray) -> np.ndarray:
        """The last hidden layer's output for observations ``(obs_size,)`` or ``(batch, obs_size)``."""
        h = np.asarray(observation, dtype=np.float32)
        for w, b in self.hidden:
            h = np.maximum(h @ w.T + b, 0.0)
        return h

    def features_sparse(self, observations: np.ndarray) -> np.ndarray:
        """:meth:`features` of a batch, the first layer reading only the inputs that are nonzero in
        some row: ``observations[:, cols] @ W1.T[cols]``, ``cols`` those columns.

        Our observations are some 4-11% nonzero (Aethermon: Collect 159 of 2,197, Ethnos 107 of
        1,445), and a first layer of a few MB does not stay in cache across a search's steps,
        so reading ``len(cols)`` rows of its transpose instead of all of it is 5-17x faster on
        the large inputs (docs/speed.md). With finite weights the sums are the same terms added
        in another order: the result equals :meth:`features` up to float32 rounding (about 1e-6
        here; ``tests/agents/test_az.py``), not bit for bit (a NaN or infinite weight met by a
        zero input counts in :meth:`features` only). :class:`agents.az.AZAgent` uses it; the
        net alone (:class:`PretrainedAgent`) keeps :meth:`features`. The transpose is made on
        first use: a policy's layers are not to be replaced afterwards (none of ours are).

        Args:
            observations: float ``(batch, obs_size)``, or one observation ``(obs_size,)``.

        Returns:
            float32 ``(batch, last hidden width)`` (``(last hidden width,)`` for one
            observation; the input itself, as float32, for a net with no hidden layer).
        """
        h = np.asarray(observations, dtype=np.float32)
        if h.ndim == 1:
            return self.features_sparse(h[None, :])[0]
        if not self.hidden:
            return h
        if self._first_t is None:
            self._first_t = np.ascontiguousarray(self.hidden[0][0].T)  # (in, out), its rows gathered
        cols = np.flatnonzero(h.any(axis=0))
        h = np.maximum(h[:, cols] @ self._first_t[cols] + self.hidden[0][1], 0.0)
        for w, b in self.hidden[1:]:
            h = np.maximum(h @ w.T + b, 0.0)
        return h

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """Action logits, float32 ``(num_actions,)`` (or ``(batch, num_actions)``), unmasked."""
        w, b = self.policy
        return self.features(observation) @ w.T + b

    def value_of(self, observation: np.ndarray) -> np.ndarray:
        """The value head's estimate of the observer's return (float32, one per observation)."""
        w, b = self.value
        return (self.features(observation) @ w.T + b)[..., 0]

    def masked_probabilities(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The policy: softmax of the logits over the legal actions (float64 ``(num_actions,)``, 0 elsewhere).

        Raises:
            ValueError: a mask with no legal action.
        """
        mask = np.asarray(action_mask).astype(bool)
        if not mask.any():
            raise ValueError("action_mask has no legal action")
        z = self.logits(observation).astype(np.float64)
        z = np.where(mask, z, -np.inf)
        p = np.exp(z - z[mask].max())
        return p / p.sum()

    # -- files --------------------------------------------------------------------------------
    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays of the weight file (layers and the ``metadata`` JSON string), by name."""
        out: dict[str, np.ndarray] = {}
        for i, (w, b) in enumerate(self.hidden):
            out[f"hidden_{i}.weight"], out[f"hidden_{i}.bias"] = w, b
        out["policy.weight"], out["policy.bias"] = self.policy
        out["value.weight"], out["value.bias"] = self.value
        out["metadata"] = np.array(json.dumps({**self.metadata, "format": WEIGHTS_FORMAT}))
        return out

    def save(self, path: str | Path, dtype: Any = np.float32) -> Path:
        """Write the ``.npz`` weight file (compressed); returns its path.

        Args:
            dtype: how the layers are stored: ``numpy.float32`` (default) or ``numpy.float16`` (half
                the size, e.g. to keep a wide first layer under the zoo's 5 MB; play still computes
                in float32, from the rounded weights).
        """
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_suffix(".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {k: (v if k == "metadata" else v.astype(dtype)) for k, v in self.arrays().items()}
        np.savez_compressed(path, **arrays)
        return path

    @classmethod
    def load(cls, path: str | Path) -> "MLPPolicy":
        """Read a weight file written by :meth:`save` (``allow_pickle=False``: no code runs).

        Raises:
            FileNotFoundError: no such file.
            ValueError: an empty path, a directory, or not an ether-envs weight file (not an npz, no
                metadata, another format, missing or mis-shaped layers).
        """
        if str(path).strip() == "":
            raise ValueError("the weight file path is empty; give the path of a .npz written by training")
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"weight file not found: {path}")
        if path.is_dir():
            raise ValueError(f"{path} is a directory, not a weight file (a .npz written by training)")
        if not zipfile.is_zipfile(path):
            raise ValueError(f"{path} is not an ether-envs weight file (expected a .npz archive)")
        try:
            with np.load(path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
            reason = "it holds Python objects (pickles), which are never loaded" if "pickle" in str(e) else str(e)
            raise ValueError(f"{path} is not an ether-envs weight file: {reason}") from None
        if "metadata" not in arrays:
            raise ValueError(f"{path} has no 'metadata' record: not an ether-envs weight file")
        try:
            meta = json.loads(str(arrays.pop("metadata")))
        except json.JSONDecodeError:
            meta = None
        if not isinstance(meta, dict):
            raise ValueError(f"{path}: its 'metadata' record is not a JSON object")
        if meta.get("format") != WEIGHTS_FORMAT:
            raise ValueError(f"{path}: weight format {meta.get('format')!r}, expected {WEIGHTS_FORMAT!r}")
        try:
            n = sum(1 for k in arrays if k.startswith("hidden_") and k.endswith(".weight"))
            hidden = [(arrays[f"hidden_{i}.weight"], arrays[f"hidden_{i}.bias"]) for i in range(n)]
            policy = (arrays["policy.weight"], arrays["policy.bias"])
            value = (arrays["value.weight"], arrays["value.bias"])
        except KeyError as e:
            raise ValueError(f"{path} lacks the array {e.args[0]!r}") from None
        for name, a in arrays.items():
            if a.dtype.kind not in "fiu" or not np.isfinite(a).all():
                raise ValueError(f"{path}: array {name!r} is not all finite numbers")
        return cls(hidden, policy, value, meta)

    def num_parameters(self) -> int:
        """The number of weights and biases."""
        return int(sum(a.size for k, a in self.arrays().items() if k != "metadata"))


def trained_player_counts(metadata: dict[str, Any]) -> list[int]:
    """The player counts a weight file was trained at, when it says (expert iteration, zoo 2: its
    metadata's ``player_counts``, or ``training.players``); empty otherwise. A file given by path plays
    those counts besides the one of its configuration."""
    counts = metadata.get("player_counts") or (metadata.get("training") or {}).get("players") or []
    return [int(n) for n in counts] if isinstance(counts, list) else []


class PretrainedAgent(Agent):
    """A trained policy network of the zoo: one forward pass per decision, no search.

    Args:
        game: the configured ``Game`` it will play. The shipped weights play every player count of
            their game (one observation layout serves every count; the benchmark's ladders measure
            them at each count it uses); the rest of the configuration and the env version must match.
        path: a weight file (``.npz``); default: the game's shipped weights (``agents/weights/<game>.npz``,
            the newest zoo; or its net for this player count only, ``agents/weights/<N>p/<game>.npz``,
            where one is shipped: :func:`shipped_weights`). A file given by path must match the
            game's configuration, player count included, unless it was trained at several counts
            (:func:`trained_player_counts`).
        zoo: instead of the newest, the shipped net of zoo ``zoo`` (int >= 1; zoo 1 is the nets of
            issue 14, trained against the heuristic; ``pretrained:zoo=1``). Not with ``path``.
        deterministic: masked argmax (default) or a sample from the masked policy drawn with the
            agent's own generator.

    Raises:
        ValueError: no shipped weights for this game, or weights trained for another configuration
            (the message names the game's available weights), or a file whose layout record does not
            match the game (observation layout, action count: :class:`agents.ppo.ModelMismatchError`).
        FileNotFoundError: ``path`` does not exist.
    """

    name = "pretrained"
    uses_state = False

    def __init__(self, game, path: str | None = None, deterministic: bool = True, zoo: int | None = None) -> None:
        from .ppo import check_compatible

        super().__init__()
        self.deterministic = _as_bool(deterministic, "deterministic")
        if path is not None and zoo is not None:
            raise ValueError(f"give a weight file (path={path!r}) or a zoo (zoo={zoo!r}), not both")
        if path is None:
            shipped = shipped_weights(zoo, num_players=game.num_players)
            name = game.spec.name
            if name not in shipped:
                if zoo is None:
                    raise ValueError(f"no pretrained weights for {name!r}; available: {', '.join(shipped) or 'none'}")
                zoos = [str(n) for n in _zoo_numbers() if name in shipped_weights(n, num_players=game.num_players)]
                raise ValueError(f"no pretrained weights for {name!r} in zoo {zoo}; zoos with a net for it at "
                                 f"{game.num_players} players: {', '.join(zoos) or 'none'}")
            path = shipped[name]
            self.policy = MLPPolicy.load(path)
            for_count = path.parent.name == f"{game.num_players}p"
            try:
                check_compatible(self.policy.metadata, game, source=f"pretrained weights {path.parent.name}/{path.name}"
                                 if for_count else f"pretrained weights {path.name}", any_player_count=not for_count)
            except ValueError as e:
                raise ValueError(f"{e}. The pretrained {name!r} agent was trained for the configuration "
                                 f"{self.policy.metadata.get('config')}; use that configuration, or train "
                                 "your own (training/recipes.py) and load it with 'pretrained:path=FILE.npz'") from None
        else:
            self.policy = MLPPolicy.load(path)
            check_compatible(self.policy.metadata, game, source=str(path),
                             any_player_count=game.num_players in trained_player_counts(self.policy.metadata))
        self.path = Path(path)

    @classmethod
    def from_policy(cls, policy: MLPPolicy, deterministic: bool = True) -> "PretrainedAgent":
        """Wrap an in-memory :class:`MLPPolicy` (e.g. during training); no layout check."""
        agent = cls.__new__(cls)
        Agent.__init__(agent)
        agent.deterministic = _as_bool(deterministic, "deterministic")
        agent.policy, agent.path = policy, None
        return agent

    def act_observation(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        p = self.policy.masked_probabilities(observation, action_mask)
        if self.deterministic:
            return int(np.argmax(p))
        return int(self.rng.choice(len(p), p=p))


def _as_bool(value: Any, name: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise ValueError(f"{name} must be true or false, got {value!r}")
