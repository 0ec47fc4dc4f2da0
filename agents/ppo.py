"""A trained MaskablePPO model as an agent, and the model metadata that ties a
model to the game, config and observation layout it was trained on.

The metadata is a JSON file ``ether_envs.json`` stored inside the SB3 model zip
(SB3 ignores it); :func:`check_compatible` refuses a model on any other game,
game version, config, action space or observation layout with a
:class:`ModelMismatchError` that names every difference.
"""

from __future__ import annotations

import dataclasses
import json
import warnings
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

import ether_envs

from .base import Agent

METADATA_FILE = "ether_envs.json"
METADATA_FORMAT = 1


class ModelMismatchError(ValueError):
    """A model was trained on a different game, config or observation layout."""


def _plain(x: Any) -> Any:
    return json.loads(json.dumps(x))


def model_metadata(game, **extra: Any) -> dict[str, Any]:
    """What a model must agree with to play ``game`` (a configured ``Game``), plus ``extra``."""
    return {
        "format": METADATA_FORMAT,
        "game": game.spec.name,
        "game_version": game.spec.version,
        "config": _plain(dataclasses.asdict(game.config)),
        "num_actions": int(game.num_distinct_actions()),
        "observation_size": int(game.observation_size()),
        "observation_layout": [[name, sl.start, sl.stop] for name, sl in game.observation_layout().items()],
        "ether_envs_version": ether_envs.__version__,
        **_plain(extra),
    }


def save_model(model, path: str | Path, game, **extra: Any) -> Path:
    """``model.save(path)`` and add the metadata for ``game`` (and ``extra``) to the zip.

    Returns:
        the path of the written ``.zip``.
    """
    path = Path(path)
    if path.suffix != ".zip":
        path = path.with_suffix(".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    with zipfile.ZipFile(path, "a") as zf:
        zf.writestr(METADATA_FILE, json.dumps(model_metadata(game, **extra), indent=1))
    return path


def read_metadata(path: str | Path) -> dict[str, Any]:
    """The metadata stored in a model zip.

    Raises:
        FileNotFoundError: no such file.
        ValueError: the path is a directory.
        ModelMismatchError: not a zip, or a zip without ether-envs metadata.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"model file not found: {path}")
    if path.is_dir():
        raise ValueError(f"{path} is a directory, not a model file (a .zip saved by agents.ppo.save_model)")
    try:
        with zipfile.ZipFile(path) as zf:
            if METADATA_FILE not in zf.namelist():
                raise ModelMismatchError(
                    f"{path} has no {METADATA_FILE}: not saved by ether-envs (use agents.ppo.save_model)")
            return json.loads(zf.read(METADATA_FILE))
    except zipfile.BadZipFile as e:
        raise ModelMismatchError(f"{path} is not a model zip: {e}") from None


def check_compatible(meta: dict[str, Any], game, source: str = "model", any_player_count: bool = False) -> None:
    """Raise :class:`ModelMismatchError` unless ``meta`` matches ``game`` exactly
    (game name and version, config, action count, observation layout).

    With ``any_player_count=True`` the config's ``num_players`` may differ: every game has one
    observation layout and action codec for every player count (seat-relative, padded to the
    maximum count), so a policy trained at one count plays the others; the layout, action count
    and version must still match. The ``pretrained`` agent uses it (its nets are measured at
    each count the benchmark protocol uses).

    A config field the model's metadata does not name (a field added to the game's
    ``Config`` after the model was saved) counts as that field's default, so adding a rule
    variant whose default is the rulebook's rule keeps existing models loadable; the
    observation layout, action count and (for pretrained weights) the encoder fingerprint
    still catch any change of what the model sees."""
    want = model_metadata(game)
    problems = []
    for key in ("game", "game_version", "num_actions", "observation_size"):
        if meta.get(key) != want[key]:
            problems.append(f"{key}: model {meta.get(key)!r}, env {want[key]!r}")
    if (meta.get("game") == want["game"] and isinstance(meta.get("game_version"), int)
            and meta.get("game_version") != want["game_version"]):
        problems.append(f"it was measured on ether/{want['game']}-v{meta.get('game_version')} and this env is "
                        f"ether/{want['game']}-v{want['game_version']} (CHANGELOG.md says what changed); "
                        "retrain it, or install the ether-envs release of that version")
    mcfg, ecfg = dict(meta.get("config", {})), want["config"]
    defaults = _plain({f.name: f.default for f in dataclasses.fields(game.config)
                       if f.default is not dataclasses.MISSING})
    for key in set(ecfg) - set(mcfg):
        if key in defaults:
            mcfg[key] = defaults[key]
    if any_player_count:
        mcfg.pop("num_players", None)
        ecfg = {k: v for k, v in ecfg.items() if k != "num_players"}
    for key in sorted(set(mcfg) | set(ecfg)):
        if mcfg.get(key) != ecfg.get(key):
            problems.append(f"config.{key}: model {mcfg.get(key)!r}, env {ecfg.get(key)!r}")
    if not problems and meta.get("observation_layout") != want["observation_layout"]:
        problems.append("observation_layout differs (the game's encoder changed)")
    if problems:
        raise ModelMismatchError(
            f"{source} was trained on {meta.get('game')!r} with another setup than this env; "
            + "; ".join(problems))


def _metadata_or_none(path: str | Path) -> dict[str, Any] | None:
    """:func:`read_metadata`, or ``None`` for a zip without it (a plain SB3 ``model.save()``)."""
    path = Path(path)
    if path.is_file() and zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as zf:
            if METADATA_FILE not in zf.namelist():
                return None
    return read_metadata(path)


def _setup(game) -> str:
    """``game``'s name and the config fields that differ from their defaults, in words."""
    changed = [f"{f.name}={getattr(game.config, f.name)!r}" for f in dataclasses.fields(game.config)
               if f.default is dataclasses.MISSING or getattr(game.config, f.name) != f.default]
    return f"{game.spec.name} ({', '.join(changed) or 'default configuration'})"


def _sb3_load(cls: Any, path: str | Path) -> Any:
    """``cls.load(path)`` on the CPU, any failure of SB3's loader (a zip without SB3's
    ``data``, a broken pickle or tensor file) raised as a ``ValueError`` naming the file.

    Raises:
        ValueError: ``PATH is not a Stable-Baselines3 model zip: ...``.
    """
    try:
        return cls.load(path, device="cpu")
    except Exception as e:  # SB3 asserts, KeyErrors, pickle and torch errors alike
        raise ValueError(f"{path} is not a Stable-Baselines3 model zip: {type(e).__name__}: "
                         f"{str(e)[:200]}") from e


def _load_plain_model(cls: Any, path: str | Path, game) -> Any:
    """A plain SB3 zip (no metadata) for ``game``: loaded with a ``UserWarning`` (nothing but its
    spaces can be checked, and loading it runs code), refused unless its spaces fit the game."""
    if game is None:
        raise ModelMismatchError(f"{path} records no game or config (a plain SB3 model.save()); name the game "
                                 "it plays (agents.make_agent(spec, game))")
    warnings.warn(
        f"{path} records no game or config (no {METADATA_FILE}: a plain SB3 model.save(), not agents.ppo.save_model), "
        f"so only its observation and action sizes are checked against {_setup(game)}, not the "
        "configuration or observation layout it was trained on; an SB3 zip is a pickle, which runs code when "
        "loaded: load only files you trust", UserWarning, stacklevel=3)
    model = _sb3_load(cls, path)
    obs_shape = tuple(getattr(model.observation_space, "shape", None) or ())
    num_actions = getattr(model.action_space, "n", None)
    want_obs, want_actions = (int(game.observation_size()),), int(game.num_distinct_actions())
    problems = []
    if obs_shape != want_obs:
        problems.append(f"observation space shape: model {obs_shape}, game {want_obs}")
    if num_actions is None or int(num_actions) != want_actions:
        problems.append(f"action space size: model {num_actions}, game {want_actions}")
    if problems:
        raise ModelMismatchError(f"{path} (a plain SB3 zip) does not fit {_setup(game)}: "
                                 + "; ".join(problems))
    return model


class PPOAgent(Agent):
    """Plays a MaskablePPO model saved by :func:`save_model` (never a masked-out action).

    A plain SB3 zip (``model.save()``, without the metadata) is accepted too, with a
    ``UserWarning``: it records no game or config, so only its observation shape and action
    count are checked against ``game`` (a ``ModelMismatchError`` naming both when they differ).

    Args:
        game: the configured ``Game`` it will play; the model's metadata must match.
        path: the model ``.zip``.
        deterministic: argmax of the masked policy (default) or a sample drawn
            with the agent's own generator.

    Raises:
        FileNotFoundError, ModelMismatchError: see :func:`read_metadata`, :func:`check_compatible`;
            a plain zip whose spaces do not fit ``game``.
        ValueError: a zip that SB3 cannot load (``PATH is not a Stable-Baselines3 model zip: ...``).
    """

    name = "ppo"
    uses_state = False

    def __init__(self, game, path: str | None = None, deterministic: bool = True, model: Any = None) -> None:
        super().__init__()
        self.deterministic = bool(deterministic)
        if model is None:
            if path is None:
                raise ValueError("ppo agent needs a model path, e.g. 'ppo:runs/main/model.zip'")
            meta = _metadata_or_none(path)
            if meta is not None:
                check_compatible(meta, game, source=str(path))
            from sb3_contrib import MaskablePPO

            if meta is None:
                model = _load_plain_model(MaskablePPO, path, game)
            else:
                model = _sb3_load(MaskablePPO, path)
        self.model = model

    @classmethod
    def from_model(cls, model, deterministic: bool = True) -> "PPOAgent":
        """Wrap an in-memory model (e.g. during training); no metadata check."""
        return cls(None, deterministic=deterministic, model=model)

    def act_observation(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        import torch

        mask = np.asarray(action_mask, dtype=bool)
        if not mask.any():
            raise ValueError("action_mask has no legal action")
        policy = self.model.policy
        with torch.no_grad():
            obs_t = torch.as_tensor(np.asarray(observation, dtype=np.float32)[None], device=policy.device)
            dist = policy.get_distribution(obs_t, action_masks=mask[None])
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs[~mask] = 0.0
        if self.deterministic:
            return int(np.argmax(probs))
        probs /= probs.sum()
        return int(self.rng.choice(len(probs), p=probs))
