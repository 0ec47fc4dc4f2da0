"""Masked double DQN in one file (CleanRL-style, plain torch).

    python -m training.dqn aethermon_collect --total-frames 50000 --seed 0 --run-dir runs/dqn

The learner plays one seat of :class:`ether_envs.wrappers.SingleAgentEnv` (a random seat each
game) in ``n_envs`` games batched in this process (:func:`ether_envs.vector.make_vec_env`,
``vec="inprocess"``); the other seats are played inside the env by an opponent pool
(:class:`training.selfplay.OpponentPool`, default the benchmark protocol's
:data:`training.protocol.TRAINING_OPPONENTS`), so every frame is one of the learner's own
decisions and the reward is the learner's own (the game's return at the end, 0 before).

Algorithm (the details of CleanRL's ``dqn.py``):

* DQN (Mnih et al. 2015, "Human-level control through deep reinforcement learning"): a replay
  buffer of the last ``buffer_size`` transitions, minibatches of ``batch_size`` sampled
  uniformly, a target network copied from the online network every ``target_every`` frames,
  the Huber loss (``smooth_l1_loss``) between ``Q(s, a)`` and the one-step target, Adam, global
  gradient-norm clipping;
* double Q-learning (van Hasselt, Guez & Silver 2016, "Deep Reinforcement Learning with Double
  Q-learning"): the online network chooses the next action, the target network values it:
  ``y = r + gamma * (1 - done) * Q_target(s', argmax_a' Q_online(s', a'))``;
* action masking: epsilon-greedy explores uniformly over the LEGAL actions only and exploits
  the argmax over the legal actions only (:func:`epsilon_greedy`); the target's argmax runs over
  the legal actions of ``s'`` only (:func:`double_q_target`), so the value of an illegal
  action is never chosen nor bootstrapped from;
* epsilon falls linearly from ``start_e`` to ``end_e`` over the first ``exploration_fraction``
  of ``total_frames``; no learning before ``learning_starts`` frames; then one gradient step
  every ``train_every`` frames (a replay ratio of ``batch_size / train_every`` samples per frame).

Transitions are ``(obs, mask, action, reward, next_obs, next_mask, done)``. The vec env resets a
finished game at once (SB3 semantics), so the observation it returns for that game is the next
game's first one: the next observation of a finished game is ``infos[i]["terminal_observation"]``,
and its next mask is irrelevant (``done`` stops the bootstrap; it is stored all-False). A
truncated game counts as ended, as in :mod:`training.ppo` (no game reaches its
``max_game_length``). Memory: the buffer holds two float32 observations per transition
(``2 x buffer_size x obs_size x 4`` bytes: 0.44 GB for Aethermon: Collect, 1.9 GB for
Aetherspire's 9,715 inputs at the default 25,000).

A run folder holds ``policy.npz``, an :class:`agents.pretrained.MLPPolicy` loadable as
``pretrained:path=<run_dir>/policy.npz``: the Q-network's hidden layers, its Q-values as the
policy logits (so the masked argmax, the pretrained agent's default play, is the greedy
policy; ``deterministic=false`` samples from the softmax of the Q-values, a Boltzmann policy at
temperature 1) and a value head of zeros (DQN learns no state value: ``value_of`` gives 0; the
state value would be the max of the legal Q-values, which no linear head expresses); the
metadata records the game setup, the encoder fingerprint and ``training`` (algorithm, frames,
minutes, seed, hidden, opponents). Also ``config.json`` and ``progress.csv`` (one row every
``log_every`` frames: frames, minutes, frames/s, episodes, the mean return of the last 100
episodes, the mean loss since the last row, epsilon). No checkpoint, no resume: a run is short.

Seeding: ``torch.manual_seed(seed)`` (the initial weights), ``venv.seed(seed)`` (game ``i`` from
``seed + i``; the env draws every game's seed below ``2**63``, so never a held-out deal of
:mod:`training.protocol`) and one ``numpy`` Generator from ``seed`` (exploration and
minibatches): a run is deterministic per seed on one torch thread.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import ether_envs

from .ppo import append_csv, dataclass_from_namespace, dataclass_parser, parse_hidden, run_trainer
from .protocol import TRAINING_OPPONENTS

WEIGHTS_NAME = "policy.npz"
MAX_SEED = 2**32
"""Seeds are ints in ``[0, MAX_SEED)`` (the env seeds ``seed + i`` stay far below ``2**63``)."""


@dataclass
class DQNConfig:
    """Every option of the trainer (the command line is generated from these fields)."""

    game: str = "aethermon_collect"
    config: dict = dataclasses.field(default_factory=dict)
    seed: int = 0
    total_frames: int = 50_000
    """Learner decisions to train for (rounded up to a multiple of ``n_envs``)."""
    n_envs: int = 8
    hidden: str = "256,256"
    buffer_size: int = 25_000
    batch_size: int = 128
    learning_rate: float = 2.5e-4
    gamma: float = 0.995
    train_every: int = 8
    """Frames between gradient steps (one step per vec-env step at ``n_envs=8``)."""
    target_every: int = 2_000
    """Frames between copies of the online network into the target network."""
    learning_starts: int = 2_000
    """Frames played (epsilon-greedy) before the first gradient step."""
    start_e: float = 1.0
    end_e: float = 0.05
    exploration_fraction: float = 0.3
    """Share of ``total_frames`` over which epsilon falls from ``start_e`` to ``end_e``."""
    max_grad_norm: float = 10.0
    opponents: str = TRAINING_OPPONENTS
    log_every: int = 2_000
    run_dir: str = "runs/dqn"
    torch_threads: int = 1
    progress: bool = True


# ---- the network and the masked helpers ------------------------------------------------------
def make_q_net(obs_size: int, num_actions: int, hidden: tuple[int, ...]):
    """A torch MLP: ReLU layers ``hidden`` and a linear head of one Q-value per action
    (PyTorch's default initialisation, as CleanRL's DQN)."""
    import torch
    from torch import nn

    class QNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            sizes = [obs_size, *hidden]
            self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
            self.q = nn.Linear(sizes[-1], num_actions)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            for layer in self.hidden:
                x = torch.relu(layer(x))
            return self.q(x)

    return QNet()


def q_net_to_policy(net, metadata: dict[str, Any]):
    """The numpy :class:`agents.pretrained.MLPPolicy` of a Q-network: Q-values as the policy
    logits, a value head of zeros (module docstring)."""
    from agents.pretrained import MLPPolicy

    def arr(t):
        return t.detach().cpu().numpy().astype(np.float32)

    last = net.q.weight.shape[1]
    zero_value = (np.zeros((1, last), np.float32), np.zeros(1, np.float32))
    return MLPPolicy([(arr(h.weight), arr(h.bias)) for h in net.hidden], (arr(net.q.weight), arr(net.q.bias)),
                     zero_value, metadata)


def masked_argmax(q, mask):
    """Per row, the legal action (``mask`` bool) with the highest value of ``q`` (torch tensors
    ``(batch, num_actions)``); a row without a legal action (a finished game) gives 0."""
    import torch

    return torch.where(mask, q, torch.full_like(q, -torch.inf)).argmax(dim=1)


def epsilon_greedy(q: np.ndarray, mask: np.ndarray, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """One action per row of ``q`` ``(n, num_actions)``: with probability ``epsilon`` a uniformly
    random LEGAL action (``mask`` bool, every row with at least one legal action), else the legal
    action with the highest Q-value. Never an illegal action."""
    greedy = np.where(mask, q, -np.inf).argmax(axis=1)
    random_legal = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)  # uniform over the legal
    explore = rng.random(len(q)) < epsilon
    return np.where(explore, random_legal, greedy)


def double_q_target(online_next, target_next, next_mask, reward, done, gamma: float):
    """The double-DQN target ``r + gamma * (1 - done) * Q_target(s', argmax_{a' legal} Q_online(s', a'))``
    (torch tensors; ``online_next`` / ``target_next`` ``(batch, num_actions)`` at ``s'``): the next
    action is chosen among the legal actions of ``s'`` only; a finished game (``done`` 1) does not
    bootstrap, whatever its mask."""
    best = masked_argmax(online_next, next_mask)
    next_value = target_next.gather(1, best[:, None]).squeeze(1)
    return reward + gamma * (1.0 - done) * next_value


def next_transition(next_obs: np.ndarray, next_mask: np.ndarray, done: np.ndarray,
                    infos: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """The next observation and mask of each game's transition, from a vec env's step: SB3's
    VecEnv resets a finished game at once and returns the next game's first observation, so a
    finished game's next observation is ``infos[i]["terminal_observation"]``; its next mask is
    set all-False (irrelevant: ``done`` stops the bootstrap). Returns new arrays."""
    next_obs, next_mask = next_obs.copy(), next_mask.copy()
    for i in np.flatnonzero(done):
        next_obs[i] = infos[i]["terminal_observation"]
        next_mask[i] = False
    return next_obs, next_mask


def epsilon_at(cfg: DQNConfig, frames: int) -> float:
    """Epsilon after ``frames``: linear from ``start_e`` to ``end_e`` over the first
    ``exploration_fraction`` of ``total_frames``, then ``end_e``."""
    span = cfg.exploration_fraction * cfg.total_frames
    if span <= 0:
        return cfg.end_e
    return cfg.start_e + (cfg.end_e - cfg.start_e) * min(1.0, frames / span)


class ReplayBuffer:
    """The last ``size`` transitions ``(obs, mask, action, reward, next_obs, next_mask, done)`` in
    preallocated numpy arrays (a ring); :meth:`sample` draws uniformly with the given Generator."""

    def __init__(self, size: int, obs_size: int, num_actions: int) -> None:
        self.size, self.pos, self.full = size, 0, False
        self.obs = np.zeros((size, obs_size), np.float32)
        self.next_obs = np.zeros((size, obs_size), np.float32)
        self.mask = np.zeros((size, num_actions), bool)
        self.next_mask = np.zeros((size, num_actions), bool)
        self.action = np.zeros(size, np.int64)
        self.reward = np.zeros(size, np.float32)
        self.done = np.zeros(size, np.float32)

    def __len__(self) -> int:
        return self.size if self.full else self.pos

    def add(self, obs, mask, action, reward, next_obs, next_mask, done) -> None:
        """Add a batch of transitions (one per game; fewer than ``size``), overwriting the oldest."""
        idx = (self.pos + np.arange(len(action))) % self.size
        self.obs[idx], self.mask[idx], self.action[idx], self.reward[idx] = obs, mask, action, reward
        self.next_obs[idx], self.next_mask[idx], self.done[idx] = next_obs, next_mask, done
        self.full = self.full or self.pos + len(action) >= self.size
        self.pos = int(idx[-1] + 1) % self.size

    def sample(self, batch_size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        idx = rng.integers(len(self), size=batch_size)
        return {k: getattr(self, k)[idx] for k in ("obs", "action", "reward", "next_obs", "next_mask", "done")}


# ---- training -----------------------------------------------------------------------------
def validate(cfg: DQNConfig) -> None:
    """Check every option before anything is created.

    Raises:
        ValueError: the first bad option, by name.
    """
    from agents import make_agent

    from .selfplay import parse_weights

    if cfg.game not in ether_envs.list_games():
        raise ValueError(f"unknown game {cfg.game!r}; known: {', '.join(ether_envs.list_games())}")
    if isinstance(cfg.seed, bool) or not isinstance(cfg.seed, int) or not 0 <= cfg.seed < MAX_SEED:
        raise ValueError(f"seed must be an int in [0, 2**32), got {cfg.seed!r}")
    for name in ("total_frames", "n_envs", "buffer_size", "batch_size", "train_every", "target_every", "log_every",
                 "torch_threads"):
        if int(getattr(cfg, name)) < 1:
            raise ValueError(f"{name} must be >= 1, got {getattr(cfg, name)}")
    if cfg.buffer_size < cfg.n_envs:
        raise ValueError(f"buffer_size must be >= n_envs ({cfg.n_envs}), got {cfg.buffer_size}")
    if int(cfg.learning_starts) < 0:
        raise ValueError(f"learning_starts must be >= 0, got {cfg.learning_starts}")
    ranges = {"gamma": (cfg.gamma, 0.0, 1.0, "(0, 1]"), "learning_rate": (cfg.learning_rate, 0.0, math.inf, "> 0"),
              "max_grad_norm": (cfg.max_grad_norm, 0.0, math.inf, "> 0")}
    for name, (value, low, high, allowed) in ranges.items():
        if not (math.isfinite(value) and low < value <= high):
            raise ValueError(f"{name} must be {allowed}, got {value}")
    for name in ("start_e", "end_e", "exploration_fraction"):
        value = getattr(cfg, name)
        if not (math.isfinite(value) and 0.0 <= value <= 1.0):
            raise ValueError(f"{name} must be in [0, 1], got {value}")
    parse_hidden(cfg.hidden)
    weights = parse_weights(cfg.opponents)
    if "self" in weights:
        raise ValueError("opponents: 'self' needs snapshots of the learner, which training.dqn does not keep")
    game = ether_envs.load_game(cfg.game, **cfg.config)
    for spec in weights:
        try:
            make_agent(spec, game)
        except (ValueError, FileNotFoundError) as e:
            raise ValueError(f"opponents: {e}") from None


def train(cfg: DQNConfig) -> Path:
    """Train; returns the path of the weight file ``<run_dir>/policy.npz``.

    Raises:
        ValueError: a bad option (:func:`validate`; then nothing is created).
    """
    import torch
    import torch.nn.functional as F

    from agents.ppo import model_metadata
    from agents.pretrained import encoder_fingerprint
    from ether_envs.vector import make_vec_env

    from .selfplay import OpponentPool, parse_weights

    validate(cfg)
    torch.set_num_threads(cfg.torch_threads)
    game = ether_envs.load_game(cfg.game, **cfg.config)
    hidden = parse_hidden(cfg.hidden)
    meta = {**model_metadata(game), "encoder_fingerprint": encoder_fingerprint(game)}
    run_dir = Path(cfg.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps(dataclasses.asdict(cfg), indent=1))
    progress_file = run_dir / "progress.csv"
    progress_file.unlink(missing_ok=True)

    torch.manual_seed(cfg.seed)
    obs_size, n_actions = game.observation_size(), game.num_distinct_actions()
    q_net = make_q_net(obs_size, n_actions, hidden)
    target_net = make_q_net(obs_size, n_actions, hidden)
    target_net.load_state_dict(q_net.state_dict())
    optimizer = torch.optim.Adam(q_net.parameters(), lr=cfg.learning_rate)
    rng = np.random.default_rng(cfg.seed)
    buffer = ReplayBuffer(cfg.buffer_size, obs_size, n_actions)

    pool = OpponentPool(cfg.game, cfg.config, parse_weights(cfg.opponents))
    venv = make_vec_env(cfg.game, cfg.config, cfg.n_envs, "inprocess", opponents=pool)
    venv.seed(cfg.seed)

    frames = grad_steps = 0
    last_target = last_log = 0
    losses: list[float] = []
    returns: deque[float] = deque(maxlen=100)
    episodes = 0
    bar = None
    if cfg.progress:
        from .progress import progress_bar

        bar = progress_bar(cfg.total_frames, f"dqn {cfg.game}", "frame", leave=True)
    started = time.perf_counter()

    def log() -> None:
        minutes = (time.perf_counter() - started) / 60.0
        row = {"frames": frames, "minutes": round(minutes, 3),
               "frames_per_second": round(frames / max(1e-9, 60.0 * minutes), 1), "episodes": episodes,
               "mean_return_100": round(float(np.mean(returns)), 4) if returns else "",
               "loss": round(float(np.mean(losses)), 6) if losses else "",
               "epsilon": round(epsilon_at(cfg, frames), 4)}
        append_csv(progress_file, row)
        losses.clear()
        if bar is not None:
            bar.set_postfix({"return": row["mean_return_100"], "eps": row["epsilon"]})

    obs = venv.reset()
    mask = venv.action_masks()
    try:
        while frames < cfg.total_frames:
            # -- act: epsilon-greedy over the legal actions of every game
            with torch.no_grad():
                q = q_net(torch.as_tensor(obs)).numpy()
            action = epsilon_greedy(q, mask, epsilon_at(cfg, frames), rng)
            next_obs, reward, done, infos = venv.step(action)
            next_mask = venv.action_masks()
            # -- store: a finished game's next observation is its terminal one (the env has reset it)
            real_next_obs, real_next_mask = next_transition(next_obs, next_mask, done, infos)
            buffer.add(obs, mask, action, reward, real_next_obs, real_next_mask, done.astype(np.float32))
            for i in np.flatnonzero(done):
                episodes += 1
                if "returns" in infos[i]:
                    returns.append(float(infos[i]["returns"][infos[i]["seat"]]))
            obs, mask = next_obs, next_mask
            frames += cfg.n_envs
            # -- learn: one gradient step every train_every frames after learning_starts
            if frames >= cfg.learning_starts:
                while grad_steps < (frames - cfg.learning_starts) // cfg.train_every + 1 and len(buffer) > 0:
                    b = {k: torch.as_tensor(v) for k, v in buffer.sample(cfg.batch_size, rng).items()}
                    with torch.no_grad():
                        y = double_q_target(q_net(b["next_obs"]), target_net(b["next_obs"]), b["next_mask"],
                                            b["reward"], b["done"], cfg.gamma)
                    q_taken = q_net(b["obs"]).gather(1, b["action"][:, None]).squeeze(1)
                    loss = F.smooth_l1_loss(q_taken, y)
                    optimizer.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(q_net.parameters(), cfg.max_grad_norm)
                    optimizer.step()
                    losses.append(loss.item())
                    grad_steps += 1
                if frames - last_target >= cfg.target_every:
                    target_net.load_state_dict(q_net.state_dict())
                    last_target = frames
            if frames - last_log >= cfg.log_every:
                log()
                last_log = frames
            if bar is not None:
                bar.update(frames - bar.n)
    finally:
        venv.close()
        if bar is not None:
            bar.close()
    if last_log != frames:
        log()
    minutes = (time.perf_counter() - started) / 60.0
    training = {"algorithm": "dqn", "frames": frames, "minutes": round(minutes, 2), "seed": cfg.seed,
                "hidden": list(hidden), "opponents": cfg.opponents}
    return q_net_to_policy(q_net, {**meta, "training": training}).save(run_dir / WEIGHTS_NAME)


# ---- command line -------------------------------------------------------------------------
def build_parser(p: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = p or argparse.ArgumentParser(prog="python -m training.dqn", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    return dataclass_parser(DQNConfig, p)


def config_from_namespace(ns: argparse.Namespace) -> DQNConfig:
    return dataclass_from_namespace(DQNConfig, ns)


def main(argv: list[str] | None = None) -> Path:
    return run_trainer(build_parser(), DQNConfig, train, argv)


if __name__ == "__main__":
    main()
