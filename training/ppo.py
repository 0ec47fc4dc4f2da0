"""Masked PPO in one file (CleanRL-style, plain torch), with kickstarting from a teacher policy.

    python -m training.ppo aethermon_collect --total-frames 1000000 --init runs/x/bc_policy.npz

The learner plays one seat of :class:`ether_envs.wrappers.SingleAgentEnv` (a random seat each
episode); the other seats are played inside the env by an opponent pool
(:class:`training.selfplay.OpponentPool`: agent specs such as ``heuristic`` and ``self`` =
frozen snapshots of the learner), so every sample in the rollout is one of the learner's own
decisions and the reward is the learner's own (no mixing of seats in one trajectory).

Algorithm (Schulman et al. 2017; the details of CleanRL's ``ppo.py``):

* rollouts of ``n_envs x n_steps`` learner decisions; the policy's logits are masked to the legal
  actions (Huang & Ontanon 2022) before sampling and in the loss;
* GAE(``gamma``, ``gae_lambda``) advantages, normalised per minibatch; clipped policy loss, value
  loss, entropy bonus, global gradient-norm clipping, Adam with the learning rate annealed to 0;
* ``epochs`` passes over the rollout in minibatches of ``minibatch`` samples;
* kickstarting (Schmitt et al. 2018): with ``--init FILE`` the net starts from a weight file
  (e.g. behaviour cloning of the heuristic, :mod:`training.bc`) and the loss adds
  ``kickstart * KL(teacher || learner)`` over the legal actions, the teacher being that file's
  frozen policy; the coefficient decays linearly to 0 at ``kickstart_frames``.

Terminal reward only (the game's return, e.g. +1/-1), optionally with the env's potential-based
score shaping (``score_shaping``; it leaves the optimal policy unchanged). A truncated game is
treated as ended (no game reaches its ``max_game_length``).

A run folder holds ``policy.npz`` (the final weights, :class:`agents.pretrained.MLPPolicy`,
loadable as ``pretrained:path=...``), ``checkpoint.pt`` (resumable: torch tensors and plain
values, read with ``weights_only=True``), ``snapshots/``, ``progress.csv`` (one row per update)
and ``eval.csv`` (win rates with Wilson intervals against ``eval_opponents`` over training,
by frames and wall-clock minutes; in a co-operative game the learner's team win rate with the
net in every seat, ``learner_team``, beside each eval spec's own team win rate, ``<spec>_team``). ``--resume`` continues a run folder from its checkpoint up to
``total_frames`` (same hyper-parameters; not bit-identical to an uninterrupted run, since the
games in flight are restarted). Without it, a folder that holds a run's checkpoint is refused
(its logs would be appended to and its weights overwritten); the logs and snapshots of a run
interrupted before its first checkpoint (nothing to resume) are removed and the run starts afresh.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import ether_envs
from agents.base import split_specs

from .evaluate import parse_config
from . import usage_error

WEIGHTS_NAME = "policy.npz"


@dataclass
class PPOConfig:
    """Every option of the trainer (the command line is generated from these fields)."""

    game: str = "aethermon_collect"
    config: dict = dataclasses.field(default_factory=dict)
    seed: int = 0
    total_frames: int = 1_000_000
    max_minutes: float = 0.0
    """Stop after the update that passes this wall-clock budget (0: no limit)."""
    n_envs: int = 16
    n_steps: int = 128
    n_procs: int = 2
    """Env worker processes (``ether_envs.vector`` sharded); 0: the envs run in this process."""
    hidden: str = "256,256"
    learning_rate: float = 2.5e-4
    anneal_lr: bool = True
    gamma: float = 0.995
    gae_lambda: float = 0.95
    minibatch: int = 512
    epochs: int = 4
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    opponents: str = "heuristic=0.6,self=0.3,random=0.1"
    score_shaping: float = 0.0
    init: str = ""
    """Weight file (``.npz``) the net starts from and the kickstarting teacher."""
    kickstart: float = 0.0
    kickstart_frames: int = 0
    snapshot_every: int = 100_000
    max_snapshots: int = 5
    eval_every: int = 100_000
    eval_deals: int = 25
    eval_opponents: str = "random,heuristic"
    checkpoint_every: int = 100_000
    run_dir: str = "runs/ppo"
    resume: bool = False
    torch_threads: int = 1
    progress: bool = True
    clock_offset: float = 0.0
    """Minutes already spent before this stage (e.g. behaviour cloning), added to the curves' wall clock."""


# ---- the network --------------------------------------------------------------------------
def make_net(obs_size: int, num_actions: int, hidden: tuple[int, ...]):
    """A torch MLP: ReLU layers ``hidden``, a policy head (logits) and a value head, with
    orthogonal initialisation (gain sqrt 2; policy head 0.01, value head 1, as CleanRL)."""
    import torch
    from torch import nn

    class PolicyNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            sizes = [obs_size, *hidden]
            self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
            self.policy = nn.Linear(sizes[-1], num_actions)
            self.value = nn.Linear(sizes[-1], 1)
            for layer, gain in [*((h, 2 ** 0.5) for h in self.hidden), (self.policy, 0.01), (self.value, 1.0)]:
                nn.init.orthogonal_(layer.weight, gain)
                nn.init.zeros_(layer.bias)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            for layer in self.hidden:
                x = torch.relu(layer(x))
            return self.policy(x), self.value(x).squeeze(-1)

    return PolicyNet()


def net_to_policy(net, metadata: dict[str, Any]):
    """The numpy :class:`agents.pretrained.MLPPolicy` of a torch net from :func:`make_net`."""
    from agents.pretrained import MLPPolicy

    def arr(t):
        return t.detach().cpu().numpy().astype(np.float32)

    return MLPPolicy([(arr(h.weight), arr(h.bias)) for h in net.hidden], (arr(net.policy.weight), arr(net.policy.bias)),
                     (arr(net.value.weight), arr(net.value.bias)), metadata)


def net_from_policy(policy):
    """A torch net holding the weights of an :class:`agents.pretrained.MLPPolicy`."""
    import torch

    obs_size = policy.hidden[0][0].shape[1] if policy.hidden else policy.policy[0].shape[1]
    net = make_net(obs_size, policy.policy[0].shape[0], tuple(w.shape[0] for w, _ in policy.hidden))
    with torch.no_grad():
        for layer, (w, b) in zip([*net.hidden, net.policy, net.value], [*policy.hidden, policy.policy, policy.value]):
            layer.weight.copy_(torch.from_numpy(w))
            layer.bias.copy_(torch.from_numpy(b))
    return net


def masked_log_probs(logits, mask):
    """log softmax over the legal actions (``mask`` bool); illegal actions get a large negative."""
    import torch

    return torch.log_softmax(torch.where(mask, logits, torch.full_like(logits, -1e9)), dim=-1)


def parse_hidden(text: str, option: str = "hidden") -> tuple[int, ...]:
    """``"256,256"`` -> ``(256, 256)`` (``""``: no hidden layer).

    Raises:
        ValueError: a size that is not a positive integer; the message starts with ``option``.
    """
    try:
        sizes = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        sizes = (0,)
    if any(s < 1 for s in sizes):
        raise ValueError(f"{option}: expected comma-separated positive integers, got {text!r}")
    return sizes


# ---- training -----------------------------------------------------------------------------
def validate(cfg: PPOConfig) -> None:
    """Check every option before anything is created.

    Raises:
        ValueError: the first bad option, by name.
    """
    from .selfplay import parse_weights

    if cfg.game not in ether_envs.list_games():
        raise ValueError(f"unknown game {cfg.game!r}; known: {', '.join(ether_envs.list_games())}")
    for name in ("total_frames", "n_envs", "n_steps", "minibatch", "epochs", "torch_threads"):
        if int(getattr(cfg, name)) < 1:
            raise ValueError(f"{name} must be >= 1, got {getattr(cfg, name)}")
    for name in ("n_procs", "snapshot_every", "eval_every", "checkpoint_every", "kickstart_frames", "max_snapshots"):
        if int(getattr(cfg, name)) < 0:
            raise ValueError(f"{name} must be >= 0, got {getattr(cfg, name)}")
    if int(cfg.eval_deals) < 0:
        raise ValueError(f"eval_deals must be >= 0, got {cfg.eval_deals}")
    ranges = {"gamma": (cfg.gamma, 0.0, 1.0, "(0, 1]"), "gae_lambda": (cfg.gae_lambda, -1e-12, 1.0, "[0, 1]"),
              "clip": (cfg.clip, 0.0, 1.0, "(0, 1]"), "learning_rate": (cfg.learning_rate, 0.0, math.inf, "> 0")}
    for name, (value, low, high, allowed) in ranges.items():
        if not (math.isfinite(value) and low < value <= high):
            raise ValueError(f"{name} must be {allowed}, got {value}")
    for name in ("ent_coef", "vf_coef", "max_grad_norm", "kickstart", "max_minutes", "score_shaping"):
        value = getattr(cfg, name)
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"{name} must be a finite number >= 0, got {value}")
    parse_hidden(cfg.hidden)
    from agents import make_agent

    game = ether_envs.load_game(cfg.game, **cfg.config)
    for spec in [k for k in parse_weights(cfg.opponents) if k != "self"]:
        try:
            make_agent(spec, game)
        except (ValueError, FileNotFoundError) as e:
            raise ValueError(f"opponents: {e}") from None
    for spec in [s for s in split_specs(cfg.eval_opponents) if s]:
        try:
            make_agent(spec, game)
        except (ValueError, FileNotFoundError) as e:
            raise ValueError(f"eval_opponents: {e}") from None
    if cfg.init and not Path(cfg.init).exists():
        raise ValueError(f"init: weight file not found: {cfg.init}")
    if cfg.kickstart > 0 and not cfg.init:
        raise ValueError("kickstart > 0 needs a teacher: give --init FILE.npz")


def train(cfg: PPOConfig) -> Path:
    """Train; returns the path of the final weight file ``<run_dir>/policy.npz``.

    Raises:
        ValueError: a bad option (:func:`validate`), an init/resume file for another game setup, or,
            without ``resume``, a ``run_dir`` that holds a run's ``checkpoint.pt`` already.
    """
    import torch

    from agents.ppo import check_compatible, model_metadata
    from agents.pretrained import MLPPolicy, encoder_fingerprint
    from ether_envs.vector import make_vec_env

    from . import one_thread
    from .selfplay import OpponentPool, parse_weights

    validate(cfg)
    torch.set_num_threads(cfg.torch_threads)
    # one torch thread: numpy's BLAS on one thread too, here and in each env worker, where the
    # opponents' nets (self-play snapshots) play (ether_envs.vector, "Worker set-up")
    worker_init = one_thread if cfg.torch_threads == 1 else None
    if worker_init is not None:
        worker_init()
    torch.distributions.Distribution.set_default_validate_args(False)
    game = ether_envs.load_game(cfg.game, **cfg.config)
    run_dir = Path(cfg.run_dir)
    ckpt_path = run_dir / "checkpoint.pt"
    hidden = parse_hidden(cfg.hidden)
    layout = model_metadata(game)
    meta = {**layout, "encoder_fingerprint": encoder_fingerprint(game)}

    teacher = None
    if cfg.init:
        init_policy = MLPPolicy.load(cfg.init)
        check_compatible(init_policy.metadata, game, source=cfg.init)
        net = net_from_policy(init_policy)
        if cfg.kickstart > 0:
            teacher = net_from_policy(init_policy).eval()
    else:
        torch.manual_seed(cfg.seed)
        net = make_net(game.observation_size(), game.num_distinct_actions(), hidden)
    optimizer = torch.optim.Adam(net.parameters(), lr=cfg.learning_rate, eps=1e-5)
    state = {"frames": 0, "updates": 0, "minutes": 0.0, "eval_minutes": 0.0, "snapshots": [], "last": {}}
    if cfg.resume:
        if not ckpt_path.exists():
            raise ValueError(f"resume: no checkpoint in {run_dir}")
        ck = torch.load(ckpt_path, weights_only=True)
        if ck["metadata"] != json.dumps(layout):
            raise ValueError(f"resume: {ckpt_path} was trained on another game setup")
        stored = json.loads((run_dir / "config.json").read_text()) if (run_dir / "config.json").exists() else {}
        if stored.get("seed", cfg.seed) != cfg.seed:
            raise ValueError(f"resume: {run_dir} holds a run of seed {stored['seed']}, not {cfg.seed}; "
                             "give another run folder")
        net.load_state_dict(ck["net"])
        optimizer.load_state_dict(ck["optimizer"])
        state = json.loads(ck["state"])
    elif ckpt_path.exists():
        raise ValueError(f"{run_dir} holds a run already ({ckpt_path.name}): resume=True (--resume) continues it, "
                         f"or give another run folder")
    else:
        # an interrupted run's logs and snapshots, with no checkpoint to resume
        for stale in [run_dir / "progress.csv", run_dir / "eval.csv", *(run_dir / "snapshots").glob("frames_*.npz")]:
            stale.unlink(missing_ok=True)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps(dataclasses.asdict(cfg), indent=1))

    pool = OpponentPool(cfg.game, cfg.config, parse_weights(cfg.opponents), state["snapshots"],
                        snapshot_spec="pretrained:path={path},deterministic=false")
    vec = "sharded" if cfg.n_procs > 0 else "inprocess"
    venv = make_vec_env(cfg.game, cfg.config, cfg.n_envs, vec, n_procs=cfg.n_procs or None, opponents=pool,
                        score_shaping=cfg.score_shaping, worker_init=worker_init)
    venv.seed(cfg.seed + 1000 * state["updates"])
    gen = torch.Generator().manual_seed(cfg.seed + state["updates"])

    n, T = cfg.n_envs, cfg.n_steps
    obs_size, n_actions = game.observation_size(), game.num_distinct_actions()
    buf_obs = torch.zeros((T, n, obs_size))
    buf_mask = torch.zeros((T, n, n_actions), dtype=torch.bool)
    buf_act = torch.zeros((T, n), dtype=torch.long)
    buf_logp, buf_val, buf_rew, buf_done = (torch.zeros((T, n)) for _ in range(4))
    progress_file = run_dir / "progress.csv"
    eval_file = run_dir / "eval.csv"

    def export(path: Path, **extra: Any) -> Path:
        training = {"algorithm": "ppo", "frames": state["frames"], "minutes": round(state["minutes"], 2),
                    "wall_minutes": round(state["minutes"] + cfg.clock_offset, 2), "seed": cfg.seed,
                    "hidden": list(hidden), "init": Path(cfg.init).name if cfg.init else None,
                    "kickstart": cfg.kickstart, "opponents": cfg.opponents, **extra}
        return net_to_policy(net, {**meta, "training": training}).save(path)

    def evaluate() -> None:
        from agents.pretrained import PretrainedAgent

        from .evaluate import run_tournament

        specs = [s for s in split_specs(cfg.eval_opponents) if s]
        if not specs or cfg.eval_deals < 1:
            return
        t0 = time.perf_counter()
        learner = PretrainedAgent.from_policy(net_to_policy(net, meta))
        row: dict[str, Any] = {"frames": state["frames"], "minutes": round(state["minutes"] + cfg.clock_offset, 2)}

        def put(label: str, rate: float, low: float, high: float, games: int) -> None:
            row.update({f"win_rate_vs_{label}": round(rate, 4), f"low_vs_{label}": round(low, 4),
                        f"high_vs_{label}": round(high, 4), f"games_vs_{label}": games})

        from .baselines import is_cooperative, team_result

        if is_cooperative(game):
            # co-operative: the learner plays every seat as one team; each eval spec's own team
            # win rate on the same deals is the reference ("<spec>_team")
            seed = cfg.seed + 10_000
            games, rate, low, high = team_result(cfg.game, "learner", cfg.config, cfg.eval_deals, seed, agent=learner)
            put("learner_team", rate, low, high, games)
            for spec in specs:
                put(f"{spec}_team", *team_result(cfg.game, spec, cfg.config, cfg.eval_deals, seed)[1:], cfg.eval_deals)
        else:
            res = run_tournament(cfg.game, ["learner", *specs], cfg.config, deals=cfg.eval_deals,
                                 seed=cfg.seed + 10_000, focal=True, progress=False, agents={"learner": learner})
            for r in res.pairings:
                put(r.opponent, r.win_rate, r.win_low, r.win_high, r.games)
        append_csv(eval_file, row)
        state["eval_minutes"] += (time.perf_counter() - t0) / 60.0
        if bar is not None:
            bar.set_postfix({k.replace("win_rate_vs_", "vs "): f"{v:.0%}" for k, v in row.items() if k.startswith("win")})
        else:
            print(json.dumps(row), flush=True)

    def due(key: str, every: int) -> bool:
        if every > 0 and state["frames"] - state["last"].get(key, 0) >= every:
            state["last"][key] = state["frames"]
            return True
        return False

    def checkpoint() -> None:
        tmp = ckpt_path.with_suffix(".tmp")
        torch.save({"net": net.state_dict(), "optimizer": optimizer.state_dict(), "state": json.dumps(state),
                    "metadata": json.dumps(layout)}, tmp)
        tmp.replace(ckpt_path)

    bar = None
    if cfg.progress:
        from .progress import progress_bar

        budget = f" (stops after {cfg.max_minutes:g} min or {cfg.total_frames:,} frames)" if cfg.max_minutes else ""
        bar = progress_bar(cfg.total_frames, f"ppo {cfg.game}{budget}", "frame", initial=state["frames"],
                           leave=True)
    started = time.perf_counter() - 60.0 * state["minutes"]
    if state["frames"] == 0 and cfg.eval_every > 0 and "eval" not in state["last"]:
        state["last"]["eval"] = 0
        evaluate()
        state["minutes"] = (time.perf_counter() - started) / 60.0
    obs = torch.as_tensor(venv.reset())
    mask = torch.as_tensor(venv.action_masks())
    ep_returns: list[float] = []
    try:
        while state["frames"] < cfg.total_frames and not (cfg.max_minutes and state["minutes"] >= cfg.max_minutes):
            frac = state["frames"] / cfg.total_frames
            if cfg.anneal_lr:
                optimizer.param_groups[0]["lr"] = cfg.learning_rate * (1.0 - frac)
            # -- rollout: n_steps decisions of the learner in each env
            for t in range(T):
                with torch.no_grad():
                    logits, value = net(obs)
                    logp_all = masked_log_probs(logits, mask)
                    action = torch.multinomial(logp_all.exp(), 1, generator=gen).squeeze(1)
                buf_obs[t], buf_mask[t], buf_act[t], buf_val[t] = obs, mask, action, value
                buf_logp[t] = logp_all.gather(1, action[:, None]).squeeze(1)
                next_obs, reward, done, infos = venv.step(action.numpy())
                buf_rew[t] = torch.as_tensor(reward, dtype=torch.float32)
                buf_done[t] = torch.as_tensor(done, dtype=torch.float32)
                for i in np.flatnonzero(done):
                    if "returns" in infos[i]:
                        ep_returns.append(float(infos[i]["returns"][infos[i]["seat"]]))
                obs = torch.as_tensor(next_obs)
                mask = torch.as_tensor(venv.action_masks())
            # -- GAE advantages (a finished game does not bootstrap from the next one)
            with torch.no_grad():
                next_value = net(obs)[1]
            adv = torch.zeros((T, n))
            last = torch.zeros(n)
            for t in reversed(range(T)):
                nv = next_value if t == T - 1 else buf_val[t + 1]
                live = 1.0 - buf_done[t]
                delta = buf_rew[t] + cfg.gamma * nv * live - buf_val[t]
                last = delta + cfg.gamma * cfg.gae_lambda * live * last
                adv[t] = last
            ret = adv + buf_val
            # -- update
            b_obs, b_mask = buf_obs.reshape(T * n, -1), buf_mask.reshape(T * n, -1)
            b_act, b_logp, b_adv, b_ret = buf_act.reshape(-1), buf_logp.reshape(-1), adv.reshape(-1), ret.reshape(-1)
            ks = cfg.kickstart * max(0.0, 1.0 - state["frames"] / cfg.kickstart_frames) if cfg.kickstart_frames else cfg.kickstart
            if teacher is not None and ks > 0:
                with torch.no_grad():
                    b_teacher = masked_log_probs(teacher(b_obs)[0], b_mask)
            stats = {"pg_loss": 0.0, "v_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0, "clipfrac": 0.0, "kickstart_kl": 0.0}
            n_mb = 0
            for _epoch in range(cfg.epochs):
                perm = torch.randperm(T * n, generator=gen)
                for start in range(0, T * n, cfg.minibatch):
                    idx = perm[start:start + cfg.minibatch]
                    logits, value = net(b_obs[idx])
                    logp_all = masked_log_probs(logits, b_mask[idx])
                    logp = logp_all.gather(1, b_act[idx, None]).squeeze(1)
                    log_ratio = logp - b_logp[idx]
                    ratio = log_ratio.exp()
                    a = b_adv[idx]
                    a = (a - a.mean()) / (a.std() + 1e-8)
                    pg_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip, 1 + cfg.clip)).mean()
                    v_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                    probs = logp_all.exp()
                    entropy = -(probs * logp_all).sum(1).mean()
                    loss = pg_loss + cfg.vf_coef * v_loss - cfg.ent_coef * entropy
                    if teacher is not None and ks > 0:
                        t_logp = b_teacher[idx]
                        kl = (t_logp.exp() * (t_logp - logp_all)).sum(1).mean()
                        loss = loss + ks * kl
                        stats["kickstart_kl"] += kl.item()
                    optimizer.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
                    optimizer.step()
                    with torch.no_grad():
                        stats["approx_kl"] += float(((ratio - 1) - log_ratio).mean())
                        stats["clipfrac"] += float(((ratio - 1).abs() > cfg.clip).float().mean())
                    stats["pg_loss"] += pg_loss.item()
                    stats["v_loss"] += v_loss.item()
                    stats["entropy"] += entropy.item()
                    n_mb += 1
            state["frames"] += T * n
            state["updates"] += 1
            state["minutes"] = (time.perf_counter() - started) / 60.0
            row = {"frames": state["frames"], "minutes": round(state["minutes"] + cfg.clock_offset, 3),
                   "frames_per_second": round(state["frames"] / max(1e-9, 60 * (state["minutes"] - state["eval_minutes"])), 1),
                   "kickstart": round(ks, 4), "lr": optimizer.param_groups[0]["lr"],
                   "episodes": len(ep_returns), "mean_return": round(float(np.mean(ep_returns)), 4) if ep_returns else ""}
            row.update({k: round(v / max(1, n_mb), 5) for k, v in stats.items()})
            append_csv(progress_file, row)
            ep_returns.clear()
            if bar is not None:
                bar.update(state["frames"] - bar.n)
            if due("snapshot", cfg.snapshot_every):
                snap = export(run_dir / "snapshots" / f"frames_{state['frames']}.npz")
                state["snapshots"] = (state["snapshots"] + [str(snap)])[-cfg.max_snapshots:] if cfg.max_snapshots else []
                pool.snapshots = list(state["snapshots"])
                venv.env_method("set_opponents", pool)
            if due("eval", cfg.eval_every):
                evaluate()
            if due("checkpoint", cfg.checkpoint_every):
                checkpoint()
    finally:
        venv.close()
        if bar is not None:
            bar.close()
    if cfg.eval_every > 0 and state["last"].get("eval") != state["frames"]:
        state["last"]["eval"] = state["frames"]
        evaluate()
    checkpoint()
    return export(run_dir / WEIGHTS_NAME)


def append_csv(path: Path, row: dict[str, Any]) -> None:
    new = not path.exists()
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(row))
        if new:
            w.writeheader()
        w.writerow(row)


# ---- command line -------------------------------------------------------------------------
def dataclass_parser(cls: type, p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add one option per field of the config dataclass ``cls`` (``game`` positional, ``config`` as
    KEY=VALUE items, bools as ``--x/--no-x``); the trainers' command lines (this one, training.dqn)."""
    for f in dataclasses.fields(cls):
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        if f.name == "game":
            p.add_argument("game", choices=ether_envs.list_games())
        elif f.name == "config":
            p.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE", help="game configuration")
        elif isinstance(default, bool):
            p.add_argument(f"--{f.name.replace('_', '-')}", action=argparse.BooleanOptionalAction, default=default)
        else:
            p.add_argument(f"--{f.name.replace('_', '-')}", type=type(default), default=default,
                           help=f"(default {default!r})")
    return p


def dataclass_from_namespace(cls: type, ns: argparse.Namespace) -> Any:
    """The ``cls`` config of a namespace parsed by :func:`dataclass_parser`."""
    values = {f.name: getattr(ns, f.name) for f in dataclasses.fields(cls)}
    values["config"] = parse_config(ns.config)
    return cls(**values)


def build_parser(p: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = p or argparse.ArgumentParser(prog="python -m training.ppo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    return dataclass_parser(PPOConfig, p)


def config_from_namespace(ns: argparse.Namespace) -> PPOConfig:
    return dataclass_from_namespace(PPOConfig, ns)


def run_trainer(parser: argparse.ArgumentParser, cls: type, train_fn: Any, argv: list[str] | None) -> Path:
    """Parse ``argv`` into a ``cls`` config, train with ``train_fn``, print and return the weight
    file (a bad option is a usage error); the trainers' ``main`` (this one, training.dqn)."""
    cfg = dataclass_from_namespace(cls, parser.parse_args(argv))
    try:
        path = train_fn(cfg)
    except (ValueError, FileNotFoundError) as e:
        usage_error(parser, e)
    print(f"weights written to {path}")
    return path


def main(argv: list[str] | None = None) -> Path:
    return run_trainer(build_parser(), PPOConfig, train, argv)


if __name__ == "__main__":
    main()
