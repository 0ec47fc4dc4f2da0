"""Behaviour cloning: imitate an agent (by default the game's heuristic) from its own games.

    python -m training.bc ethnos --games 2000 --out runs/ethnos_bc/bc_policy.npz

1. :func:`demonstrations` plays ``games`` games with the teacher in every seat (game seeds
   ``seed, seed+1, ...``) and keeps, from each seat's point of view, the observation, the action
   mask, the teacher's action and the seat's final return. Forced decisions (one legal action)
   teach nothing and are skipped; ``keep`` samples the rest to bound memory (observations are
   stored as float16: every observation feature lies in [0, 1]).
2. :func:`clone` fits the policy head to the teacher's actions (cross-entropy over the legal
   actions) and the value head to the final returns (squared error), with Adam, on 95% of the
   samples; the other 5% (whole games) measure how often the net picks the teacher's action.

The result is the starting point and the kickstarting teacher of :mod:`training.ppo`
(DeltaDou and AlphaGo also began from a supervised policy; see docs/training.md).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time
from pathlib import Path
from typing import Any

import numpy as np

import ether_envs

from .evaluate import parse_config
from . import usage_error


def _play_games(args: tuple) -> dict[str, np.ndarray]:
    """Worker: the samples of the given game seeds (see :func:`demonstrations`)."""
    from agents import make_agent

    from . import one_thread

    one_thread()  # a forkserver worker starts with numpy's default BLAS threads
    game_name, config, teacher_spec, seeds, keep, seed, student_spec = args
    game = ether_envs.load_game(game_name, **config)
    n = game.num_players
    rng = np.random.default_rng([seed, seeds[0] if seeds else 0])
    student = make_agent(student_spec, game, seed=seed) if student_spec else None
    obs, masks, acts, seats, game_ids = [], [], [], [], []
    returns = []
    for gi, gseed in enumerate(seeds):
        teachers = [make_agent(teacher_spec, game, seed=int(gseed) * 16 + p) for p in range(n)]
        student_seat = int(gseed) % n if student is not None else -1
        state = game.new_initial_state(seed=int(gseed))
        first = len(acts)
        while not state.is_terminal():
            p = state.current_player()
            mask = state.legal_actions_mask()
            a = teachers[p].act(state, p)
            recorded = student is None or p == student_seat
            if recorded and mask.sum() > 1 and rng.random() < keep:
                obs.append(state.observation_tensor(p).astype(np.float16))
                masks.append(mask.astype(bool))
                acts.append(a)
                seats.append(p)
                game_ids.append(gseed)
            if p == student_seat:
                a = student.act(state, p)  # DAgger: the student moves, the teacher's choice is the label
            state.apply_action(a)
        r = state.returns()
        returns.extend(float(r[s]) for s in seats[first:])
    size, na = game.observation_size(), game.num_distinct_actions()
    return {"obs": np.asarray(obs, np.float16).reshape(-1, size), "mask": np.asarray(masks, bool).reshape(-1, na),
            "action": np.asarray(acts, np.int64), "return": np.asarray(returns, np.float32),
            "game": np.asarray(game_ids, np.int64)}


CHUNK_GAMES = 20
"""Games per work unit of :func:`demonstrations` (fixed, so the samples do not depend on ``workers``)."""


def demonstrations(game_name: str, config: dict | None = None, teacher: str = "heuristic", games: int = 1000,
                   seed: int = 0, keep: float = 1.0, workers: int = 1, student: str | None = None,
                   progress: bool = False) -> dict[str, np.ndarray]:
    """Samples of ``teacher`` playing every seat of ``games`` games.

    With ``student`` (an agent spec, e.g. ``pretrained:path=bc_policy.npz``), DAgger (Ross,
    Gordon & Bagnell 2011): in each game the student plays one seat (game ``i``: seat ``i mod n``)
    against the teacher in the others, and only the student's decisions are kept, labelled with
    the action the teacher would have chosen there; so the net learns to recover from the states
    its own mistakes lead to, which plain cloning never shows it.

    The games are played in work units of :data:`CHUNK_GAMES` consecutive seeds, gathered in
    order, so the samples are the same for any number of ``workers``; ``progress`` shows a bar
    of the games played (:func:`training.progress.progress_bar`).

    Returns:
        a dict of arrays: ``"obs"`` float16 ``(N, obs_size)``, ``"mask"`` bool ``(N, num_actions)``,
        ``"action"`` int64 ``(N,)``, ``"return"`` float32 ``(N,)`` (the deciding seat's final
        return), ``"game"`` int64 ``(N,)`` (the game seed).

    Raises:
        ValueError: ``games < 1``, ``keep`` outside (0, 1], ``workers < 1``.
    """
    if games < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    if not 0 < keep <= 1:
        raise ValueError(f"keep must be in (0, 1], got {keep}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    from .protocol import check_training_seed

    check_training_seed(seed)
    check_training_seed(seed + games - 1)  # the game seeds are seed .. seed + games - 1
    from .progress import progress_bar

    config = dict(config or {})
    chunks = [list(range(s, min(s + CHUNK_GAMES, seed + games))) for s in range(seed, seed + games, CHUNK_GAMES)]
    tasks = [(game_name, config, teacher, c, keep, seed, student) for c in chunks]
    bar = progress_bar(games, f"{teacher} plays {game_name}" + (" (DAgger)" if student else ""), "game",
                       enabled=progress)
    parts = []
    with bar:
        if workers == 1:
            results = map(_play_games, tasks)
            for t, part in zip(tasks, results):
                parts.append(part)
                bar.update(len(t[3]))
        else:
            with mp.get_context("forkserver").Pool(workers) as pool:
                for t, part in zip(tasks, pool.imap(_play_games, tasks)):  # in order: the same for any workers
                    parts.append(part)
                    bar.update(len(t[3]))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def clone(net, data: dict[str, np.ndarray], epochs: int = 10, minibatch: int = 512, learning_rate: float = 1e-3,
          value_coef: float = 0.5, seed: int = 0, log=print) -> dict[str, float]:
    """Fit ``net`` (a :func:`training.ppo.make_net` net) to ``data`` from :func:`demonstrations` in place.

    Returns:
        ``{"train_accuracy", "heldout_accuracy", "heldout_loss", "samples", "seconds"}``: how often
        the net's masked argmax is the teacher's action.
    """
    import torch

    from .ppo import masked_log_probs

    t0 = time.perf_counter()
    gen = torch.Generator().manual_seed(seed)
    held = (data["game"] % 20) == 19  # whole games held out, so the test samples are not near-copies
    if held.all() or not held.any():
        held = np.arange(len(held)) % 20 == 19
    tensors = {k: torch.as_tensor(data[k]) for k in ("obs", "mask", "action", "return")}
    train_idx, test_idx = torch.as_tensor(np.flatnonzero(~held)), torch.as_tensor(np.flatnonzero(held))
    opt = torch.optim.Adam(net.parameters(), lr=learning_rate)

    def batch(idx):
        return (tensors["obs"][idx].float(), tensors["mask"][idx], tensors["action"][idx], tensors["return"][idx])

    def accuracy(idx) -> tuple[float, float]:
        hits, loss, net_ = 0, 0.0, net
        with torch.no_grad():
            for s in range(0, len(idx), 4096):
                o, m, a, _ = batch(idx[s:s + 4096])
                lp = masked_log_probs(net_(o)[0], m)
                hits += int((lp.argmax(1) == a).sum())
                loss += float(-lp.gather(1, a[:, None]).sum())
        return hits / max(1, len(idx)), loss / max(1, len(idx))

    steps = 0
    for epoch in range(epochs):
        lr = learning_rate * (1 - epoch / epochs)
        for g in opt.param_groups:
            g["lr"] = lr
        perm = train_idx[torch.randperm(len(train_idx), generator=gen)]
        for s in range(0, len(perm), minibatch):
            o, m, a, r = batch(perm[s:s + minibatch])
            logits, value = net(o)
            lp = masked_log_probs(logits, m)
            loss = -lp.gather(1, a[:, None]).mean() + value_coef * ((value - r) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            steps += 1
        acc, ce = accuracy(test_idx)
        log(f"bc epoch {epoch + 1}/{epochs}: held-out accuracy {acc:.3f}, cross-entropy {ce:.3f}")
    train_acc, _ = accuracy(train_idx[:20000])
    test_acc, test_ce = accuracy(test_idx)
    return {"train_accuracy": train_acc, "heldout_accuracy": test_acc, "heldout_loss": test_ce,
            "samples": int(len(train_idx)), "seconds": time.perf_counter() - t0}


def main(argv: list[str] | None = None) -> Path:
    from agents.ppo import model_metadata

    from .ppo import make_net, net_to_policy, parse_hidden

    p = argparse.ArgumentParser(prog="python -m training.bc", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", choices=ether_envs.list_games())
    p.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE")
    p.add_argument("--teacher", default="heuristic", help="agent spec to imitate (default heuristic)")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--keep", type=float, default=1.0, help="fraction of (unforced) decisions kept")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--hidden", default="256,256")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", default="runs/bc/bc_policy.npz")
    a = p.parse_args(argv)
    import torch

    hidden = parse_hidden(a.hidden)
    config = parse_config(a.config)
    game = ether_envs.load_game(a.game, **config)
    torch.manual_seed(a.seed)
    try:
        data = demonstrations(a.game, config, a.teacher, a.games, a.seed, a.keep, a.workers)
    except (ValueError, FileNotFoundError) as e:
        usage_error(p, e)
    print(f"{len(data['action'])} samples from {a.games} games")
    net = make_net(game.observation_size(), game.num_distinct_actions(), hidden)
    stats = clone(net, data, epochs=a.epochs, seed=a.seed)
    meta: dict[str, Any] = {**model_metadata(game), "training": {"algorithm": "bc", "teacher": a.teacher,
                                                                  "games": a.games, **stats}}
    path = net_to_policy(net, meta).save(a.out)
    print(f"weights written to {path}")
    return path


if __name__ == "__main__":
    main()
