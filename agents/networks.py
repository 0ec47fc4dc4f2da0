"""Policy network pieces for MaskablePPO (torch; imported only when training or loading a model)."""

from __future__ import annotations

import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class SkipMLP(BaseFeaturesExtractor):
    """Features = ``[observation, MLP(observation)]``.

    The raw observation is passed through beside the MLP's output, so the
    (linear) policy and value heads on top see every observation feature
    directly: a linear path learns per-square / per-card preferences (the
    feature of a square and the action that targets it) in few samples, and
    the MLP adds the interactions. Generic: works on any flat observation.

    Args:
        observation_space: flat ``Box``.
        hidden: sizes of the MLP's hidden layers (its output is the last one).
    """

    def __init__(self, observation_space: spaces.Box, hidden: tuple[int, ...] = (256, 256)) -> None:
        n_in = int(observation_space.shape[0])
        super().__init__(observation_space, features_dim=n_in + (hidden[-1] if hidden else 0))
        layers: list[nn.Module] = []
        prev = n_in
        for h in hidden:
            layers += [nn.Linear(prev, h), nn.ReLU()]
            prev = h
        self.mlp = nn.Sequential(*layers)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return torch.cat([observations, self.mlp(observations)], dim=1)
