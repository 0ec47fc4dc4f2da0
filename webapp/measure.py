"""Measure the search budgets that keep a click of ``ether-envs serve`` near a target time.

    python -m webapp.measure                 # every game, every search kind, target 10 s
    python -m webapp.measure --games ethnos --kinds mcts --target 10
    python -m webapp.measure --check 8       # time 8 clicks of each game at the caps

One click of the page is the person's move and then every agent's reply until the person
is to move again: in a game of ``n`` players, about ``n - 1`` agent decisions. For each
search kind (:data:`webapp.specs.SEARCH_CAPS`) and each game, this times one decision of
an agent with a small probe budget at several positions of a random game (the start, then
later ones: a search from the start plays the longest rollouts), takes the slowest
seconds per simulation, and prints the budget per decision that keeps ``n - 1`` decisions
within ``--target`` seconds. ``mcts`` and ``openspiel`` are timed at each game's largest
player count; ``az`` at the game's default configuration (the shipped nets play only that
one, so that is where the form can ask for it).

The caps in :data:`webapp.specs.SEARCH_CAPS` are the smallest suggestion over the games,
rounded down; the measured figures are in ``docs/playing.md``. Nothing here is run by the
tests (a test never asserts a speed).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import ether_envs

PROBES = {  # kind -> (the probe spec, its budget in simulations)
    "mcts": ("mcts:simulations=100", 100),
    "az": ("az:simulations=32", 32),
    "openspiel": ("openspiel:mcts:simulations=50", 50),
    "rollout": ("rollout:rollouts=1", 1),
}
POSITIONS = (0, 15, 40)
"""Decisions of a random game (seed 0) after which a search is timed (those reached)."""


def positions(game, seed: int = 0) -> list:
    """States of a random game of ``game`` after each of :data:`POSITIONS` decisions."""
    rng = np.random.default_rng(seed)
    state, out = game.new_initial_state(seed=seed), []
    for n in range(max(POSITIONS) + 1):
        if n in POSITIONS and not state.is_terminal():
            out.append(state.clone())
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    return out


def seconds_per_simulation(spec: str, budget: int, game) -> float:
    """The slowest seconds per simulation of ``spec`` (a budget of ``budget``) over the
    :func:`positions` of ``game``."""
    from agents import make_agent

    agent = make_agent(spec, game, seed=0)
    states = positions(game)
    agent.act(states[0].clone(), states[0].current_player())  # warm up (a net is loaded on first use)
    worst = 0.0
    for state in states:
        t = time.perf_counter()
        agent.act(state, state.current_player())
        worst = max(worst, (time.perf_counter() - t) / budget)
    return worst


def click_times(game, spec: str, clicks: int, seed: int = 0) -> list[float]:
    """Seconds of each of ``clicks`` clicks of a person at seat 0 of ``game`` (a random
    legal move) against agents ``spec`` on the other seats: the person's move, then every
    agent's reply until the person is to move again (what the server does per click)."""
    from agents import make_agent

    rng = np.random.default_rng(seed)
    agents = {p: make_agent(spec, game, seed=seed + 1 + p) for p in range(1, game.num_players)}
    state, out = game.new_initial_state(seed=seed), []
    while len(out) < clicks and not state.is_terminal():
        t = time.perf_counter()
        if state.current_player() == 0:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        while not state.is_terminal() and state.current_player() != 0:
            p = state.current_player()
            state.apply_action(agents[p].act(state, p))
        out.append(time.perf_counter() - t)
    return out


def check(games: list[str], kinds: list[str], clicks: int) -> None:
    """Play ``clicks`` clicks of each game against each kind at its cap
    (:data:`webapp.specs.SEARCH_CAPS`) and print the slowest and the median click."""
    from webapp.specs import SEARCH_CAPS

    print(f"{'spec':<32} {'game':<18} {'players':>7} {'clicks':>6} {'median s':>9} {'slowest s':>10}")
    for kind in kinds:
        spec = PROBES[kind][0].replace(f"={PROBES[kind][1]}", f"={SEARCH_CAPS[kind]}")
        for name in games:
            game = measured_game(name, kind)
            try:
                times = click_times(game, spec, clicks)
            except (ValueError, ImportError) as e:
                print(f"{spec:<32} {name:<18} skipped: {e}")
                continue
            print(f"{spec:<32} {name:<18} {game.num_players:>7} {len(times):>6} {float(np.median(times)):>9.1f} "
                  f"{max(times):>10.1f}", flush=True)


def measured_game(name: str, kind: str):
    """The game a kind is measured on: its largest player count (the slowest click: the most
    agents thinking), except ``az``, measured at the default configuration its net was trained on."""
    game = ether_envs.load_game(name)
    return game if kind == "az" else ether_envs.load_game(name, num_players=game.spec.max_players)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m webapp.measure", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", nargs="*", default=ether_envs.list_games(), choices=ether_envs.list_games())
    p.add_argument("--kinds", nargs="*", default=list(PROBES), choices=list(PROBES))
    p.add_argument("--target", type=float, default=10.0, help="seconds a click may take (default 10)")
    p.add_argument("--check", type=int, default=0, metavar="CLICKS",
                   help="instead, play CLICKS clicks of each game against each kind at its cap and time them")
    args = p.parse_args(argv)
    if args.check:
        check(args.games, args.kinds, args.check)
        return
    print(f"{'kind':<10} {'game':<18} {'players':>7} {'ms/sim':>9} {'budget for a click':>19}")
    suggestions: dict[str, list[int]] = {}
    for kind in args.kinds:
        spec, budget = PROBES[kind]
        for name in args.games:
            game = measured_game(name, kind)
            try:
                per_sim = seconds_per_simulation(spec, budget, game)
            except (ValueError, ImportError) as e:
                print(f"{kind:<10} {name:<18} {'':>7} skipped: {e}")
                continue
            agents = max(1, game.num_players - 1)
            cap = int(args.target / (agents * per_sim))
            suggestions.setdefault(kind, []).append(cap)
            print(f"{kind:<10} {name:<18} {game.num_players:>7} {per_sim * 1000:>9.2f} {cap:>19}", flush=True)
    for kind, caps in suggestions.items():
        print(f"{kind}: at most {min(caps)} simulations per decision keeps every game's click within {args.target:g} s")


if __name__ == "__main__":
    main()
