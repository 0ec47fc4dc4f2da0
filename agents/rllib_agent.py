"""A policy trained with Ray RLlib (``training.rllib``) as an agent, and its RLModule.

Needs Ray and torch (the ``distributed`` extra). Spec: ``rllib:<run>/checkpoint``
(``deterministic=false`` to sample).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch.torch_rl_module import TorchRLModule

from .base import Agent
from .ppo import ModelMismatchError, check_compatible

POLICY_ID = "shared"
METADATA_FILE = "ether_envs.json"
_FLOAT_MIN = torch.finfo(torch.float32).min


def _mlp(n_in: int, hidden: list[int], n_out: int) -> torch.nn.Sequential:
    layers: list[torch.nn.Module] = []
    for h in hidden:
        layers += [torch.nn.Linear(n_in, h), torch.nn.Tanh()]
        n_in = h
    layers.append(torch.nn.Linear(n_in, n_out))
    return torch.nn.Sequential(*layers)


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI):
    """Masked MLP actor-critic for PPO on RLlib's new API stack.

    Observation space ``Dict(observation=Box float32 (obs_size,), action_mask=Box int8 (N,))``
    (an ether-envs AEC env's), action space ``Discrete(N)``. ``model_config["hidden"]``: hidden
    sizes of the two separate tanh MLPs, policy and value (default ``[256, 256]``).
    Outputs ``action_dist_inputs`` float32 ``(B, N)``: the policy logits with every action whose
    mask is 0 set to the float32 minimum (probability 0, so never sampled; an all-zero mask,
    as in terminal observations, gives a uniform distribution that is never sampled from);
    ``compute_values`` returns float32 ``(B,)``.
    """

    def setup(self):
        super().setup()
        hidden = [int(h) for h in (self.model_config or {}).get("hidden", [256, 256])]
        n_obs = int(self.observation_space["observation"].shape[0])
        self.pi = _mlp(n_obs, hidden, int(self.action_space.n))
        self.vf = _mlp(n_obs, hidden, 1)

    def _logits(self, obs: dict) -> torch.Tensor:
        logits = self.pi(obs["observation"].float())
        return torch.where(obs["action_mask"] > 0, logits, torch.full_like(logits, _FLOAT_MIN))

    def _forward(self, batch: dict, **kwargs: Any) -> dict:
        return {Columns.ACTION_DIST_INPUTS: self._logits(batch[Columns.OBS])}

    def _forward_train(self, batch: dict, **kwargs: Any) -> dict:
        return {Columns.ACTION_DIST_INPUTS: self._logits(batch[Columns.OBS])}

    def compute_values(self, batch: dict, embeddings: Any = None) -> torch.Tensor:
        return self.vf(batch[Columns.OBS]["observation"].float()).squeeze(-1)


def module_path(checkpoint: str | Path) -> Path:
    """Where ``Algorithm.save_to_path`` puts the shared policy's RLModule inside a checkpoint."""
    return Path(checkpoint) / "learner_group" / "learner" / "rl_module" / POLICY_ID


class RLlibAgent(Agent):
    """Plays the shared policy of a ``training.rllib`` checkpoint (never a masked-out action).

    Args:
        game: the configured ``Game`` it will play; ``checkpoint/ether_envs.json`` must match it.
        checkpoint: the run's ``checkpoint`` folder.
        deterministic: argmax of the masked logits (default) or a sample drawn with the
            agent's own generator.
        module: an in-memory :class:`MaskedActorCritic` instead of a checkpoint (no check).

    Raises:
        FileNotFoundError: no checkpoint or no metadata there.
        ModelMismatchError: trained on another game, config or observation layout.
    """

    name = "rllib"
    uses_state = False

    def __init__(self, game, checkpoint: str | None = None, deterministic: bool = True, module: Any = None) -> None:
        super().__init__()
        self.deterministic = bool(deterministic)
        if module is None:
            if checkpoint is None:
                raise ValueError("rllib agent needs a checkpoint folder, e.g. 'rllib:runs/<run>/checkpoint'")
            meta = Path(checkpoint) / METADATA_FILE
            if not meta.exists():
                raise FileNotFoundError(f"no {METADATA_FILE} in {checkpoint}: not a training.rllib checkpoint")
            try:
                check_compatible(json.loads(meta.read_text()), game, source=str(checkpoint))
            except json.JSONDecodeError as e:
                raise ModelMismatchError(f"{meta} is not valid JSON: {e}") from None
            from ray.rllib.core.rl_module.rl_module import RLModule

            module = RLModule.from_checkpoint(module_path(checkpoint).resolve())
        self.module = module
        self.module.eval()

    def act_observation(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mask = np.asarray(action_mask, dtype=np.int8)
        if not mask.any():
            raise ValueError("action_mask has no legal action")
        obs = {"observation": torch.as_tensor(np.asarray(observation, dtype=np.float32)[None]),
               "action_mask": torch.as_tensor(mask[None])}
        with torch.no_grad():
            logits = self.module.forward_inference({Columns.OBS: obs})[Columns.ACTION_DIST_INPUTS][0]
        logits = logits.double().numpy()
        legal = np.flatnonzero(mask)
        if self.deterministic:
            return int(legal[np.argmax(logits[legal])])
        z = logits[legal] - logits[legal].max()
        p = np.exp(z) / np.exp(z).sum()
        return int(self.rng.choice(legal, p=p))
