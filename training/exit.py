"""Expert iteration: the ``az`` search is the expert, the net its apprentice (Anthony et al. 2017).

    ether-envs exit aethermon_collect --seed 0                      # the game's settings (EXIT_SETTINGS)
    ether-envs exit ethnos --seed 0 --iterations 4 --games 40        # smaller
    ether-envs exit ethnos --seed 0                                  # run again: resumes
    ether-envs exit ethnos --seed 0 --export                         # ... and ship the net as zoo 2

Each iteration, in the run folder ``<out-dir>/<game>__exit__<seed>/``:

1. **Self-play.** ``games`` games in which every seat is :class:`agents.az.AZAgent` over the
   current net (``simulations`` per decision, Dirichlet noise at the root, moves drawn in
   proportion to the visits for each seat's first ``temperature_moves`` searched decisions, then
   the most visited). The player count cycles through ``players`` game by game, so one net learns
   every count (the observation layout is the same at every count). Game seeds are training
   seeds (``seed * 10**9 + iteration * 10**6 + game``; never held out). Every searched decision
   keeps the mover's observation (float16), its action mask, the root's visit counts (the policy
   target) and, once the game ends, the mover's return (the value target) -> ``data_<i>.npz``.
2. **Training.** The net is fitted to the samples of the last ``window`` iterations: cross-entropy
   between the masked policy and the visit distribution, plus ``value_coef`` times the squared
   error of the value head against the return; Adam, ``epochs`` passes, minibatch 256.
   -> ``net_<i>.npz`` (the weight format of :mod:`agents.pretrained`).
3. **Evaluation** (the learning curve, ``eval.csv``): the net alone (``pretrained``, greedy) and
   net + search (``az`` at ``eval_simulations``) against each of ``eval_opponents`` on
   ``eval_deals`` validation deals (``training.protocol.VALIDATION_BASE + i``, never the held-out
   ones), every deal once per seat, at the game's default player count; win credit with a Wilson
   95% interval, the samples seen so far and the wall clock. In a co-operative game each of them
   (and each opponent) plays as a whole team, and the team's win rate is reported.

Iteration 0's net is ``init`` (default: the game's zoo-1 net, ``agents/weights/zoo1/<game>.npz``).
Every stage writes its file last, and a run is resumed by running the same command again: finished
iterations are skipped, and an iteration's self-play data is reused when its file exists. A finished
run continues with a larger ``--iterations`` (and any ``--workers``: results do not depend on it);
any other changed setting is refused. The starting weights and the evaluation opponents are checked
before anything is written. All
randomness flows from ``seed`` (torch on one thread), so a run repeats exactly on this machine.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import multiprocessing as mp
import time
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

import ether_envs

from . import usage_error

MAX_TARGETS = 64
"""Visited root actions stored per sample (the most visited first); the rest are dropped."""


@dataclass(frozen=True)
class ExItConfig:
    """One expert-iteration run (see the module docstring)."""

    game: str
    seed: int = 0
    config: dict = field(default_factory=dict)
    players: tuple[int, ...] = ()
    """Player counts played in turn during self-play (default: the game's default count only)."""
    init: str = ""
    """Starting weights (default: the game's zoo-1 net)."""
    iterations: int = 6
    games: int = 100
    simulations: int = 32
    c: float = 1.5
    dirichlet: float = 0.3
    temperature_moves: int = 4
    window: int = 3
    epochs: int = 3
    learning_rate: float = 3e-4
    value_coef: float = 1.0
    keep: float = 1.0
    """Fraction of the searched decisions kept as samples (bounds memory on long games)."""
    eval_opponents: tuple[str, ...] = ("heuristic", "pretrained:zoo=1")
    eval_deals: int = 50
    eval_simulations: int = 32
    workers: int = 2

    def validate(self) -> None:
        """Raises ``ValueError`` naming the first bad field and what is allowed."""
        if self.game not in ether_envs.list_games():
            raise ValueError(f"unknown game {self.game!r}; games: {', '.join(ether_envs.list_games())}")
        for name in ("iterations", "games", "simulations", "window", "epochs", "eval_deals", "eval_simulations",
                     "workers"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be an int >= 1, got {v!r}")
        if self.temperature_moves < 0:
            raise ValueError(f"temperature_moves must be >= 0, got {self.temperature_moves}")
        for name, low, high in (("c", 0.0, math.inf), ("learning_rate", 0.0, 1.0), ("keep", 0.0, 1.0)):
            v = getattr(self, name)
            if not (math.isfinite(v) and low < v <= high):
                raise ValueError(f"{name} must be in ({low:g}, {high:g}], got {v!r}")
        for name in ("dirichlet", "value_coef"):
            v = getattr(self, name)
            if not (math.isfinite(v) and v >= 0):
                raise ValueError(f"{name} must be a finite number >= 0, got {v!r}")
        game = ether_envs.load_game(self.game, **self.config)
        spec = game.spec
        for n in self.players:
            if not spec.min_players <= n <= spec.max_players:
                raise ValueError(f"players: {self.game} plays {spec.min_players}-{spec.max_players} players, got {n}")
        if self.seed < 0 or self.seed >= 4000:
            raise ValueError(f"seed must be in [0, 4000) (game seeds are seed * 10**9 + ...), got {self.seed}")


EXIT_SETTINGS: dict[str, dict[str, Any]] = {
    "aethermon_collect": {"players": (2, 3, 4), "games": 150, "iterations": 4, "eval_deals": 30},
    "ethnos": {"players": (4, 2, 3, 5, 6), "games": 12, "iterations": 2, "keep": 0.5, "eval_deals": 4},
    "etherium": {"players": (2, 3, 4), "games": 40, "iterations": 3, "keep": 0.5, "eval_deals": 12},
    "ether_wars": {"players": (2, 3, 4), "games": 30, "iterations": 3, "keep": 0.5, "eval_deals": 10},
    "aetherspire": {"players": (2, 1, 3, 4), "games": 16, "iterations": 2, "keep": 0.3, "window": 2,
                    "eval_opponents": ("heuristic",), "eval_deals": 12},
}
"""Each game's settings (sized to the 2-core machine: docs/results/zoo2.md)."""


# ---- self-play ----------------------------------------------------------------------------------
def _self_play(args: tuple) -> dict[str, np.ndarray]:
    """Worker: the samples of the given ``(game seed, player count)`` list."""
    from agents.az import AZAgent
    from agents.pretrained import MLPPolicy

    from . import one_thread

    one_thread()  # a forkserver worker starts with numpy's default BLAS threads
    cfg_dict, weights, jobs = args
    cfg = ExItConfig(**cfg_dict)
    policy = MLPPolicy.load(weights)
    obs, masks, vidx, vnum, rets, gids = [], [], [], [], [], []
    for gseed, n in jobs:
        game = ether_envs.load_game(cfg.game, **{**cfg.config, "num_players": n})
        agent = AZAgent(game, simulations=cfg.simulations, c=cfg.c, dirichlet=cfg.dirichlet, policy=policy)
        agent.seed([cfg.seed, gseed])
        rng = np.random.default_rng([cfg.seed, gseed, 1])
        state = game.new_initial_state(seed=int(gseed))
        searched = [0] * n
        movers: list[int] = []
        while not state.is_terminal():
            p = state.current_player()
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            agent.temperature = 1.0 if searched[p] < cfg.temperature_moves else 0.0
            o = state.observation_tensor(p)
            a = agent.act(state, p)
            searched[p] += 1
            v = agent.last_visits
            if rng.random() < cfg.keep and v is not None and v.sum() > 0:
                top = np.argsort(-v, kind="stable")[:MAX_TARGETS]
                top = top[v[top] > 0]
                vi = np.full(MAX_TARGETS, -1, np.int16)
                vn = np.zeros(MAX_TARGETS, np.int16)
                vi[:len(top)], vn[:len(top)] = top, v[top]
                obs.append(o.astype(np.float16))
                masks.append(state.legal_actions_mask().astype(bool))
                vidx.append(vi)
                vnum.append(vn)
                movers.append(p)
                gids.append(gseed)
            state.apply_action(a)
        r = state.returns()
        rets.extend(float(r[p]) for p in movers)
    game = ether_envs.load_game(cfg.game, **cfg.config)
    size, na = game.observation_size(), game.num_distinct_actions()
    return {"obs": np.asarray(obs, np.float16).reshape(-1, size), "mask": np.asarray(masks, bool).reshape(-1, na),
            "visit_index": np.asarray(vidx, np.int16).reshape(-1, MAX_TARGETS),
            "visit_count": np.asarray(vnum, np.int16).reshape(-1, MAX_TARGETS),
            "return": np.asarray(rets, np.float32), "game": np.asarray(gids, np.int64)}


def self_play(cfg: ExItConfig, weights: Path, iteration: int) -> dict[str, np.ndarray]:
    """The samples of one iteration's ``cfg.games`` self-play games with the net in ``weights``.

    Returns:
        a dict of arrays: ``"obs"`` float16 ``(N, obs_size)``, ``"mask"`` bool ``(N, num_actions)``,
        ``"visit_index"`` int16 ``(N, 64)`` (visited root actions, -1 padding), ``"visit_count"``
        int16 ``(N, 64)``, ``"return"`` float32 ``(N,)`` (the mover's final return), ``"game"`` int64
        ``(N,)`` (the game seed).
    """
    from .protocol import check_training_seed

    game = ether_envs.load_game(cfg.game, **cfg.config)
    counts = cfg.players or (game.num_players,)
    base = cfg.seed * 10**9 + iteration * 10**6
    jobs = [(check_training_seed(base + i), counts[i % len(counts)]) for i in range(cfg.games)]
    chunks = [jobs[w::cfg.workers] for w in range(cfg.workers)]
    tasks = [(asdict(cfg), str(weights), c) for c in chunks if c]
    if len(tasks) == 1:
        parts = [_self_play(tasks[0])]
    else:
        with mp.get_context("forkserver").Pool(len(tasks)) as pool:
            parts = pool.map(_self_play, tasks)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


# ---- training -----------------------------------------------------------------------------------
def visit_targets(index: np.ndarray, count: np.ndarray, num_actions: int) -> np.ndarray:
    """Dense visit distributions, float32 ``(N, num_actions)``, from the stored sparse counts."""
    out = np.zeros((len(index), num_actions), np.float32)
    rows, cols = np.nonzero(index >= 0)
    out[rows, index[rows, cols]] = count[rows, cols]
    out /= np.maximum(out.sum(1, keepdims=True), 1.0)
    return out


def fit(net, data: dict[str, np.ndarray], num_actions: int, epochs: int, learning_rate: float, value_coef: float,
        seed: int, minibatch: int = 256) -> dict[str, float]:
    """Fit ``net`` (a :func:`training.ppo.make_net` net) in place: cross-entropy to the visit
    distributions plus ``value_coef`` x squared error to the returns. Returns the last epoch's
    mean losses ``{"policy_loss", "value_loss", "samples"}``."""
    import torch

    from .ppo import masked_log_probs

    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(net.parameters(), lr=learning_rate)
    n = len(data["return"])
    obs, mask = torch.as_tensor(data["obs"]), torch.as_tensor(data["mask"])
    ret = torch.as_tensor(data["return"])
    pl = vl = 0.0
    for _ in range(epochs):
        perm = torch.randperm(n, generator=gen)
        pl = vl = 0.0
        for s in range(0, n, minibatch):
            idx = perm[s:s + minibatch]
            target = torch.as_tensor(visit_targets(data["visit_index"][idx.numpy()],
                                                   data["visit_count"][idx.numpy()], num_actions))
            logits, value = net(obs[idx].float())
            lp = masked_log_probs(logits, mask[idx])
            policy_loss = -(target * lp.clamp(min=-1e4)).sum(1).mean()
            value_loss = ((value - ret[idx]) ** 2).mean()
            loss = policy_loss + value_coef * value_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            pl += float(policy_loss.detach()) * len(idx)
            vl += float(value_loss.detach()) * len(idx)
    return {"policy_loss": pl / max(n, 1), "value_loss": vl / max(n, 1), "samples": n}


# ---- evaluation ---------------------------------------------------------------------------------
def evaluate_net(cfg: ExItConfig, weights: Path) -> list[dict[str, Any]]:
    """The net alone and net + search against each evaluation opponent, on validation deals."""
    from agents.base import quote_spec_value

    from .evaluate import run_tournament
    from .protocol import VALIDATION_BASE

    w = quote_spec_value(str(weights))
    agents = {"net": f"pretrained:path={w}", "net+search": f"az:simulations={cfg.eval_simulations},path={w}"}
    rows = []
    game = ether_envs.load_game(cfg.game, **cfg.config)
    if game.utility() == "identical":  # co-operative: each agent's own team, and each opponent's
        from .baselines import team_result

        for kind, spec in [*agents.items(), *((o, o) for o in cfg.eval_opponents)]:
            games, rate, low, high = team_result(cfg.game, spec, cfg.config, cfg.eval_deals, VALIDATION_BASE,
                                                 workers=cfg.workers)
            rows.append({"agent": kind, "opponent": "team", "games": games, "win_rate": rate, "win_low": low,
                         "win_high": high})
        return rows
    for kind, spec in agents.items():
        specs = [spec, *cfg.eval_opponents]
        res = run_tournament(cfg.game, specs, cfg.config, deals=cfg.eval_deals, seed=VALIDATION_BASE, focal=True,
                             progress=False, workers=cfg.workers)
        for opp in cfg.eval_opponents:
            r = res.pairing(spec, opp)
            rows.append({"agent": kind, "opponent": opp, "games": r.games, "win_rate": r.win_rate,
                         "win_low": r.win_low, "win_high": r.win_high})
    return rows


# ---- the loop -----------------------------------------------------------------------------------
def run(cfg: ExItConfig, out_dir: str | Path = "runs", run_dir: str | Path | None = None, log=print) -> Path:
    """Run (or resume) expert iteration; returns the last iteration's weight file.

    Raises:
        ValueError: a bad setting (:meth:`ExItConfig.validate`), or a run folder holding another run.
    """
    import torch

    from agents.ppo import model_metadata
    from agents.pretrained import MLPPolicy, shipped_weights

    from . import one_thread
    from .ppo import net_from_policy, net_to_policy

    cfg.validate()
    one_thread()
    game = ether_envs.load_game(cfg.game, **cfg.config)
    init = Path(cfg.init) if cfg.init else shipped_weights(zoo=1).get(cfg.game)
    if init is None:
        raise ValueError(f"no zoo-1 net for {cfg.game!r}: give init=FILE.npz")
    from agents import make_agent
    from agents.ppo import check_compatible

    init_policy = MLPPolicy.load(init)  # FileNotFoundError / ValueError before anything is written
    check_compatible(init_policy.metadata, game, source=str(init), any_player_count=True)
    for spec in cfg.eval_opponents:
        make_agent(spec, game)  # an unknown or mistyped opponent fails here, not after an iteration
    run_dir = Path(run_dir) if run_dir is not None else Path(out_dir) / f"{cfg.game}__exit__{cfg.seed}"
    run_dir.mkdir(parents=True, exist_ok=True)
    record = {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(cfg).items()}
    cfg_file = run_dir / "config.json"
    if cfg_file.exists():
        stored = json.loads(cfg_file.read_text())
        diff = sorted(k for k in record if k not in ("iterations", "workers") and stored.get(k) != record[k])
        if diff:
            raise ValueError(f"{run_dir} holds an expert-iteration run with other settings ({', '.join(diff)}): "
                             "give another run folder, or the same settings to resume it (only iterations may "
                             "grow: a finished run continues)")
    cfg_file.write_text(json.dumps(record, indent=1))
    na = game.num_distinct_actions()
    net0 = run_dir / "net_0.npz"
    if not net0.exists():
        init_policy.save(net0)
    eval_csv = run_dir / "eval.csv"
    done_evals = set()
    if eval_csv.exists():
        with eval_csv.open() as f:
            done_evals = {int(r["iteration"]) for r in csv.DictReader(f)}
    clock_file = run_dir / "clock.json"
    clock = json.loads(clock_file.read_text()) if clock_file.exists() else {"minutes": 0.0, "samples": 0}
    t_start = time.perf_counter()
    minutes0 = clock["minutes"]

    def now() -> float:
        return minutes0 + (time.perf_counter() - t_start) / 60.0

    def evaluate(i: int, path: Path) -> None:
        if i in done_evals:
            return
        rows = evaluate_net(cfg, path)
        new = not eval_csv.exists()
        with eval_csv.open("a", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["iteration", "samples", "minutes", "agent", "opponent", "games",
                                              "win_rate", "win_low", "win_high"])
            if new:
                w.writeheader()
            for r in rows:
                w.writerow({"iteration": i, "samples": clock["samples"], "minutes": round(now(), 2), **r})
        for r in rows:
            against = "team" if r["opponent"] == "team" else f"vs {r['opponent']}"
            log(f"[exit] {cfg.game} iteration {i}: {r['agent']} {against}: {r['win_rate']:.1%} "
                f"[{r['win_low']:.1%}, {r['win_high']:.1%}] ({r['games']} games)")

    evaluate(0, net0)
    for i in range(1, cfg.iterations + 1):
        out = run_dir / f"net_{i}.npz"
        if out.exists():
            continue
        prev = run_dir / f"net_{i - 1}.npz"
        data_file = run_dir / f"data_{i}.npz"
        if not data_file.exists():
            t0 = time.perf_counter()
            data = self_play(cfg, prev, i)
            np.savez(data_file, **data)
            log(f"[exit] {cfg.game} iteration {i}: {len(data['return'])} searched decisions from {cfg.games} "
                f"self-play games ({time.perf_counter() - t0:.0f} s)")
        parts = []
        for j in range(max(1, i - cfg.window + 1), i + 1):
            with np.load(run_dir / f"data_{j}.npz", allow_pickle=False) as z:
                parts.append({k: z[k] for k in z.files})
        data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
        torch.manual_seed(cfg.seed * 1000 + i)
        policy = MLPPolicy.load(prev)
        net = net_from_policy(policy)
        stats = fit(net, data, na, cfg.epochs, cfg.learning_rate, cfg.value_coef, seed=cfg.seed * 1000 + i)
        clock["samples"] += int(np.load(data_file)["return"].shape[0])
        meta = {**model_metadata(game), "zoo": 2, "player_counts": list(cfg.players or (game.num_players,)),
                "training": {"algorithm": "expert iteration (az search, training.exit)", "iteration": i,
                             "seed": cfg.seed, "players": list(cfg.players or (game.num_players,)),
                             "simulations": cfg.simulations, "games_per_iteration": cfg.games,
                             "samples": clock["samples"], "init": str(init), **stats}}
        net_to_policy(net, meta).save(out)
        log(f"[exit] {cfg.game} iteration {i}: fitted on {stats['samples']} samples (policy loss "
            f"{stats['policy_loss']:.3f}, value loss {stats['value_loss']:.3f}) -> {out.name}")
        evaluate(i, out)
        clock["minutes"] = now()
        clock_file.write_text(json.dumps(clock))
        t_start, minutes0 = time.perf_counter(), clock["minutes"]
    return run_dir / f"net_{cfg.iterations}.npz"


def export(path: str | Path, game_name: str, log=print, num_players: int | None = None) -> Path:
    """Copy a net into the zoo as the game's newest net, ``agents/weights/<game>.npz`` (zoo 2), with
    the encoder's fingerprint (:func:`agents.pretrained.encoder_fingerprint`); zoo 1's net stays in
    ``agents/weights/zoo1/``. With ``num_players`` the net goes to
    ``agents/weights/<num_players>p/<game>.npz`` instead (:func:`agents.pretrained.count_weights_path`):
    the game's net at that player count only, in place of the every-count file, which stays.
    Everything is checked before the zoo's file is replaced: on an error nothing is written.

    Raises:
        ValueError: an unknown game, not a weight file of ``game_name``, a file over 5 MB even as
            float16, or (with ``num_players``) a count the game does not play or a net whose
            configuration is not the game's default one at ``num_players`` players.
    """
    import os
    import tempfile

    from agents.ppo import check_compatible
    from agents.pretrained import WEIGHTS_DIR, MLPPolicy, count_weights_path, encoder_fingerprint

    game = ether_envs.load_game(game_name)  # an unknown name is its ValueError
    policy = MLPPolicy.load(path)
    if policy.metadata.get("game") != game_name:
        raise ValueError(f"{path} is a net of {policy.metadata.get('game')!r}, not {game_name!r}")
    dest = WEIGHTS_DIR / f"{game_name}.npz"
    if num_players is not None:
        spec = game.spec
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)) \
                or not spec.min_players <= num_players <= spec.max_players:
            raise ValueError(f"num_players must be an int in {spec.min_players}..{spec.max_players} "
                             f"({game_name}), got {num_players!r}")
        game = ether_envs.load_game(game_name, num_players=int(num_players))
        check_compatible(policy.metadata, game, source=str(path))
        dest = count_weights_path(game_name, int(num_players))
    policy.metadata.update(zoo=2, encoder_fingerprint=encoder_fingerprint(game))
    dest.parent.mkdir(parents=True, exist_ok=True)
    # written next to the zoo's file (the same file system) in a hidden folder that no zoo lookup reads
    with tempfile.TemporaryDirectory(prefix=".export-", dir=dest.parent) as tmp_dir:
        tmp = policy.save(Path(tmp_dir) / dest.name)
        if tmp.stat().st_size > 5_000_000:  # stored as float16 (as zoo 1's Aetherspire net) to stay under 5 MB
            tmp = policy.save(tmp, dtype=np.float16)
        if tmp.stat().st_size > 5_000_000:
            raise ValueError(f"{path} is {tmp.stat().st_size / 1e6:.1f} MB even as float16, over the zoo's 5 MB; "
                             f"{dest} is unchanged")
        os.replace(tmp, dest)
    log(f"[exit] {path} -> {dest} (zoo 2, {dest.stat().st_size / 1e6:.2f} MB)")
    return dest


def build_parser(p: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    p = p or argparse.ArgumentParser(prog="python -m training.exit", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=ether_envs.list_games())
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out-dir", default="runs")
    p.add_argument("--run-dir", default=None, help="run folder (default <out-dir>/<game>__exit__<seed>)")
    for f in fields(ExItConfig):
        if f.name in ("game", "seed", "config"):
            continue
        name = "--" + f.name.replace("_", "-")
        if f.name in ("players", "eval_opponents"):
            p.add_argument(name, default=None, help=f"comma-separated (default: the game's setting)")
        else:
            p.add_argument(name, type=type(f.default), default=None, help="default: the game's setting")
    p.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE")
    p.add_argument("--export", action="store_true",
                   help="copy the last net into the zoo: agents/weights/<game>.npz (zoo 2)")
    return p


def config_from_args(a: argparse.Namespace) -> ExItConfig:
    from agents.base import split_specs

    from .evaluate import parse_config

    kw: dict[str, Any] = {"game": a.game, "seed": a.seed, "config": parse_config(a.config),
                          **EXIT_SETTINGS.get(a.game, {})}
    for f in fields(ExItConfig):
        v = getattr(a, f.name, None)
        if f.name in ("game", "seed", "config") or v is None:
            continue
        if f.name == "players":
            try:
                v = tuple(int(x) for x in v.split(","))
            except ValueError:
                raise ValueError(f"--players must be comma-separated ints, got {v!r}") from None
        elif f.name == "eval_opponents":
            v = tuple(split_specs(v))
        kw[f.name] = v
    return ExItConfig(**kw)


def main(argv: list[str] | None = None, args: argparse.Namespace | None = None) -> Path:
    p = build_parser()
    a = args if args is not None else p.parse_args(argv)
    try:
        cfg = config_from_args(a)
        path = run(cfg, a.out_dir, a.run_dir)
        if a.export:
            export(path, cfg.game)
    except (ValueError, FileNotFoundError) as e:
        usage_error(p, e)
    print(f"weights: {path}")
    return path


if __name__ == "__main__":
    main()
