"""The ``ether-envs`` command line.

    ether-envs list                                    # registered games
    ether-envs play aethermon_collect --opponents heuristic
    ether-envs train aethermon_collect --total-timesteps 200000
    ether-envs train ethnos --backend rllib --num-env-runners 2   # Ray RLlib (distributed extra)
    ether-envs evaluate aethermon_collect ppo:runs/main/model.zip random heuristic --focal
    ether-envs merge runs/t/shard_* --out runs/t/all     # pool the shards of 'evaluate --shard I/N'
    ether-envs rate ether_wars pretrained:path=runs/s0/policy.npz --label mine   # the benchmark protocol's row
    ether-envs ladder --all                            # rebuild the stored anchored ladders (training/ladders/)
    ether-envs reference dqn ether_wars                # a reference row: train 3 seeds at the short budget, rate
    ether-envs exploit etherium pretrained             # approximate exploitability: a best response's win rate
    ether-envs exploit-pool a.json b.json --out c      # pool exploit seeds run apart into one result
    ether-envs league etherium --init NET.npz          # zoo 2's last stage: PPO against zoo 1, past selves, the heuristic
    ether-envs speed --games aethermon_collect --seconds 3   # env speed: steps/s beside connect_four_v3
    ether-envs speed-train                             # MaskablePPO training frames/s per vec env
    ether-envs baselines --deals 10 --simulations 200 --workers 2 --out results/baselines   # the per-game round robins (docs/benchmark.md)
    ether-envs recipe aethermon_collect --seed 0       # a game's reference-agent recipe (BC, then PPO); resumable
    ether-envs serve --port 8000                       # play and watch replays in a web browser
    ether-envs main                                    # train the default game, then a tournament

"bench" and "bench-train" are deprecated aliases of "speed" and "speed-train" ("benchmark" names
only the agent-evaluation protocol of "rate", "ladder", "reference" and "exploit").

A bad value (a spec, a config, a file) is answered with one error line and exit code 2; set
ETHER_ENVS_TRACEBACK=1 to see the traceback instead (where an error in the middle of a run came
from, e.g. a plug-in agent's).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

import ether_envs

from . import baselines as baselines_mod
from . import evaluate as evaluate_mod
from . import recipes as recipes_mod
from . import rllib as rllib_mod
from . import train as train_mod
from . import wants_traceback

MAIN_GAME = "aethermon_collect"
MAIN_CONFIG = {"num_players": 2}
MAIN_DEALS = 200
"""Deals per opponent in the main job's tournament (each played in both seats: 400 games)."""


# ---- list -----------------------------------------------------------------------------
def information(name: str) -> str:
    """What ``ether-envs list`` says of a game's information: ``"perfect"`` or ``"imperfect"`` at
    its default configuration (``Game.has_hidden_information``), and where the game's spec says
    imperfect but the default hides nothing, the variant that hides something, e.g.
    ``"perfect (imperfect with hidden_artefacts=True)"``.

    The variant is read from the game's ``conformance_configs`` (every mode and variant): the
    config keys of the first one that hides information which differ from the default, narrowed
    to one key where that key alone makes the game hide information."""
    game = ether_envs.load_game(name)
    if game.has_hidden_information():
        return "imperfect"
    if game.spec.information != "imperfect":
        return "perfect"
    for config in getattr(type(game), "conformance_configs", ()):
        if not ether_envs.load_game(name, **config).has_hidden_information():
            continue
        changed = {k: v for k, v in config.items() if getattr(game.config, k, object()) != v}
        alone = [k for k in changed if ether_envs.load_game(name, **{k: changed[k]}).has_hidden_information()]
        variant = {alone[0]: changed[alone[0]]} if alone else changed
        return "perfect (imperfect with " + ", ".join(f"{k}={v!r}" for k, v in variant.items()) + ")"
    return "perfect (imperfect in some configurations)"


def cmd_zoo(args: argparse.Namespace) -> None:
    from agents.pretrained import zoo_rows

    rows = zoo_rows(args.game or None)
    print("| game | players | `pretrained` loads (agents/weights/) | zoo | SHA-256 | MB | last trained by | "
          "`pretrained:zoo=1` loads |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        old = f"`{r['zoo1_file']}`" if r["zoo1_file"] else "none"
        if r["file"] is None:
            print(f"| {r['game']} | {r['players']} | none | | | | | {old} |")
            continue
        stage = r["stage"].split(" (")[0] + (f", {r['frames']:,} frames" if r["frames"] is not None else "")
        print(f"| {r['game']} | {r['players']} | `{r['file']}` | {r['zoo']} | {r['sha256'][:12]} | "
              f"{r['megabytes']:.2f} | {stage} | {old} |")


def cmd_list(args: argparse.Namespace) -> None:
    from agents.heuristic import load_heuristic

    print("| game | title | players | information (default configuration) | actions | observation | heuristic |")
    print("|---|---|---|---|---|---|---|")
    for name in ether_envs.list_games():
        game = ether_envs.load_game(name)
        spec = game.spec
        try:
            load_heuristic(name)
            heur = "yes"
        except ValueError:
            heur = "no"
        print(f"| {name} | {spec.title} | {spec.min_players}-{spec.max_players} | {information(name)} "
              f"| {game.num_distinct_actions()} | {game.observation_size()} | {heur} |")


# ---- play -----------------------------------------------------------------------------
def cmd_play(args: argparse.Namespace, input_fn: Callable[[str], str] = input) -> None:
    """A person plays ``args.seat`` against agents in the terminal. The person is shown only
    what their seat may see: ``observation_string(seat)`` at each of their decisions (with
    the moves named by ``public_action_string``), their own move echoed, the others' moves
    as seen from their seat, and at the end why the game ended and the returns."""
    from agents import make_agent

    config = evaluate_mod.parse_config(args.config)
    env = ether_envs.make(args.game, **config)
    raw = env.unwrapped
    n = raw.game.num_players
    if not 0 <= args.seat < n:
        raise ValueError(f"--seat must be 0..{n - 1} for {n} players, got {args.seat}")
    specs = args.opponents.split(";") if ";" in args.opponents else [args.opponents]
    secret_seed = args.seed is None
    if secret_seed:  # a known seed would let the person rebuild the deal and the others' cards
        import secrets
        args.seed = secrets.randbelow(2**31)
    others = [p for p in range(n) if p != args.seat]
    bots = {p: make_agent(specs[i % len(specs)], raw.game, seed=args.seed + 1 + p) for i, p in enumerate(others)}
    env.reset(seed=args.seed)
    human = f"player_{args.seat}"
    print(f"You are {human}. Enter the number of a move, or q to quit.")
    for agent in env.agent_iter():
        _obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        state = raw.game_state
        if agent == human:
            print()
            print(play_view(state, args.seat))
            legal = state.legal_actions()
            choice = _ask(input_fn, len(legal))
            if choice is None:
                print("quit")
                if secret_seed:
                    print(f"the deal was seed {args.seed}")
                _save_play_record(args, raw, specs, others)
                return
            print(f"you ({human}) play {seen_move(state, legal[choice], args.seat)}")
            env.step(legal[choice])
        else:
            bot = bots[raw.agent_name_mapping[agent]]
            a = bot.act_env(env)
            print(f"{agent} ({bot.name}) plays {seen_move(state, a, args.seat)}")
            env.step(a)
    state = raw.game_state
    print()
    print(state.observation_string(args.seat))
    print(f"the game ended: {state.end_reason()}")
    returns = state.returns()
    print("returns: " + ", ".join(f"player_{p} {returns[p]:+.2f}" for p in range(n)))
    if secret_seed:
        print(f"the deal was seed {args.seed}")
    _save_play_record(args, raw, specs, others)


def play_view(state, seat: int) -> str:
    """What the person at ``seat`` is shown at their decision: the seat's
    ``observation_string`` and the numbered legal moves, named as the seat sees them."""
    lines = [state.observation_string(seat)]
    lines += [f"  {i:>3}) {seen_move(state, a, seat)}" for i, a in enumerate(state.legal_actions(), 1)]
    return "\n".join(lines)


def seen_move(state, action: int, seat: int) -> str:
    """``action`` of the player to act in ``state``, as ``seat`` sees it (``public_action_string``)."""
    return state.public_action_string(action, seat)


def _save_play_record(args: argparse.Namespace, raw, specs: list[str], others: list[int]) -> Path | None:
    """With ``--save-records DIR``: write the game played so far (finished or not) to DIR."""
    if not getattr(args, "save_records", None):
        return None
    from ether_envs.records import record_from_env, save_record

    labels = ["human"] * raw.game.num_players
    for i, p in enumerate(others):
        labels[p] = specs[i % len(specs)]
    out = Path(args.save_records)
    out.mkdir(parents=True, exist_ok=True)
    path = save_record(record_from_env(raw, players=labels), out / f"play_{args.game}_seed{args.seed}_{time.strftime('%Y%m%d-%H%M%S')}.json")
    print(f"game record written to {path}")
    return path


def _ask(input_fn: Callable[[str], str], k: int) -> int | None:
    while True:
        try:
            text = input_fn(f"your move [1-{k}]: " if k > 1 else "your move [1, the only one]: ").strip()
        except EOFError:
            return None
        if text.lower() in ("q", "quit", "exit"):
            return None
        if text.isdigit() and 1 <= int(text) <= k:
            return int(text) - 1
        print(f"invalid choice {text!r}: enter a number from 1 to {k}, or q to quit")


# ---- train / evaluate / speed ------------------------------------------------------------
def cmd_train(args: argparse.Namespace) -> None:
    if args.backend == "rllib":
        rllib_mod.run_from_args(args)
        return
    path = train_mod.train(train_mod.args_from_namespace(args))
    print(f"model saved to {path}")


def cmd_evaluate(args: argparse.Namespace) -> None:
    _one_thread()
    evaluate_mod.run_from_args(args)


def cmd_merge(args: argparse.Namespace) -> None:
    evaluate_mod.merge_from_args(args)


def cmd_baselines(args: argparse.Namespace) -> None:
    _one_thread()
    baselines_mod.run_from_args(args)


def cmd_recipe(args: argparse.Namespace) -> Path:
    path = recipes_mod.run_recipe(args.game, seed=args.seed, out_dir=args.out_dir, minutes=args.minutes,
                                  frames=args.frames, export=args.export, workers=args.workers,
                                  eval_deals=args.eval_deals, progress=args.progress)
    print(f"weights: {path}")
    return path


def cmd_speed_train(args: argparse.Namespace) -> None:
    from . import throughput

    throughput.run_from_args(args)


def cmd_speed(args: argparse.Namespace) -> None:
    from ether_envs import speed

    speed.main(args.rest, prog="ether-envs speed")


DEPRECATED_COMMANDS = {"bench": "speed", "bench-train": "speed-train"}
"""Old command names that still work, with a note on stderr: "benchmark" names only the
agent-evaluation protocol; the environments' throughput is "speed"."""


# ---- main job -------------------------------------------------------------------------------
def cmd_main(args: argparse.Namespace) -> Any:
    """Train the default game's reference agent with its recipe, then play it against the baselines."""
    from agents.pretrained import PretrainedAgent

    from . import recipes

    for name in ("deals", "workers", "simulations"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name} must be >= 1, got {getattr(args, name)}")
    _one_thread()
    t0 = time.time()
    out = Path(args.out)
    recipe = recipes.RECIPES[MAIN_GAME]
    minutes = recipe.minutes if args.minutes is None else args.minutes
    frames = recipe.frames if args.frames is None else args.frames
    games = args.bc_games or recipe.bc_games
    cap = "no wall-clock cap: the same work on any machine" if minutes is None else f"stops after {minutes:g} min"
    print(f"[main] training {MAIN_GAME} {MAIN_CONFIG} with its recipe, seed {args.seed} ({cap}):\n"
          f"[main]   stage 1/3: behaviour cloning of {recipe.teacher} from {games:,} games (a progress bar "
          f"counts the games)\n"
          f"[main]   stage 2/3: kickstarted PPO for {frames:,} frames (a progress bar counts the frames)\n"
          f"[main]   stage 3/3: a tournament against random, heuristic and mcts:simulations={args.simulations}, "
          f"{args.deals} held-out deals each in both seats", flush=True)
    weights = recipes.run_recipe(MAIN_GAME, seed=args.seed, minutes=minutes, frames=args.frames,
                                 bc_games=args.bc_games, run_dir=out, progress=not args.no_progress,
                                 eval_deals=args.eval_deals)
    t_train = time.time() - t0
    print(f"[main] trained in {t_train / 60:.1f} min -> {weights}\n[main] stage 3/3: the tournament", flush=True)
    game = ether_envs.load_game(MAIN_GAME, **MAIN_CONFIG)
    agent = PretrainedAgent(game, path=str(weights))
    specs = ["trained", "random", "heuristic", f"mcts:simulations={args.simulations}"] + list(args.extra)
    from .protocol import HELD_OUT_BASE

    result = evaluate_mod.run_tournament(MAIN_GAME, specs, MAIN_CONFIG, deals=args.deals, seed=HELD_OUT_BASE,
                                         focal=True, progress=not args.no_progress, out_dir=out / "tournament",
                                         agents={"trained": agent}, workers=args.workers)
    print(f"\nAethermon: Collect, 2 players: the trained agent ('trained' = {weights}, seed {args.seed}) "
          f"vs baselines, {args.deals} deals per opponent, both seats")
    print(result.table())
    print(f"[main] total {(time.time() - t0) / 60:.1f} min; results in {out}/tournament/")
    for opp in specs[1:4]:
        r = result.pairing("trained", opp)
        verdict = "beats it" if r.win_low > 0.5 else ("loses to it" if r.win_high < 0.5 else "not separated")
        print(f"[main] vs {opp}: {r.win_rate:.1%} [{r.win_low:.1%}, {r.win_high:.1%}] -> {verdict} "
              "(Wilson 95% interval against 50%)")
    return result


def _one_thread() -> None:
    from . import one_thread

    one_thread()


# ---- parser ---------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ether-envs", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    s = sub.add_parser("list", help="list the registered games")
    s.set_defaults(func=cmd_list)

    s = sub.add_parser("zoo", help="which shipped net `pretrained` (and `pretrained:zoo=1`) loads for each game "
                                   "and player count")
    s.add_argument("game", nargs="*", metavar="GAME",
                   help=f"games to list (default: every game: {', '.join(ether_envs.list_games())})")
    s.set_defaults(func=cmd_zoo)

    s = sub.add_parser("play", help="play a game against agents in the terminal")
    s.add_argument("game", choices=ether_envs.list_games())
    s.add_argument("--config", nargs="*", default=[], metavar="KEY=VALUE", help="game config, e.g. num_players=3")
    s.add_argument("--opponents", default="heuristic",
                   help="agent spec for the other seats; several separated by ';' (default heuristic)")
    s.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    s.add_argument("--seed", type=int, default=None,
                   help="deal seed (default: a secret one, printed when the game ends or you quit: "
                        "a known seed lets you rebuild the others' hidden cards)")
    s.add_argument("--save-records", default=None, metavar="DIR",
                   help="write the game's JSON record to DIR when it ends or you quit (replay with "
                        "ether_envs.replay); the record holds every seat's secrets")
    s.set_defaults(func=cmd_play)

    from webapp import cli as serve_mod  # the browser app (webapp/), a layer of its own

    s = sub.add_parser("serve", help="play the games and watch game records in a web browser (a local web app)",
                       description=serve_mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    serve_mod.add_arguments(s)
    s.set_defaults(func=serve_mod.run_from_args)

    s = sub.add_parser("train", help="train MaskablePPO by self-play (see python -m training.train --help)",
                       description=train_mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    train_mod.build_parser(s)
    s.add_argument("--backend", choices=("sb3", "rllib"), default="sb3",
                   help="sb3: MaskablePPO against an opponent pool (default); rllib: multi-agent self-play PPO "
                        "on Ray RLlib, locally or on a cluster (needs the distributed extra; see training/rllib.py)")
    rllib_mod.add_arguments(s.add_argument_group("RLlib backend (--backend rllib)"))
    s.set_defaults(func=cmd_train)

    s = sub.add_parser("evaluate", help="tournament between agent specs",
                       description=evaluate_mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    evaluate_mod.add_arguments(s)
    s.set_defaults(func=cmd_evaluate)

    s = sub.add_parser("merge", help="pool the shards of one tournament (evaluate --shard I/N) into its results",
                       description=evaluate_mod.merge_results.__doc__,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    evaluate_mod.add_merge_arguments(s)
    s.set_defaults(func=cmd_merge)

    s = sub.add_parser("baselines", help="the per-game round robin: random, heuristic, MCTS and pretrained, round robin, "
                                         "every game",
                       description=baselines_mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    baselines_mod.add_arguments(s)
    s.set_defaults(func=cmd_baselines)

    s = sub.add_parser("recipe", help="train a game's reference agent (behaviour cloning, then PPO); rerun to resume",
                       description=recipes_mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    recipes_mod.build_parser(s)
    s.set_defaults(func=cmd_recipe)

    from . import exploit as exploit_mod
    from . import ladder as ladder_mod
    from . import rate as rate_mod
    from . import reference as reference_mod

    s = sub.add_parser("rate", help="the benchmark protocol's evaluation of an agent (one spec per training seed): "
                                    "win rates against the anchors, its place on the anchored ladder, a result row",
                       description=rate_mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    rate_mod.build_parser(s)
    s.set_defaults(func=lambda a: (_one_thread(), rate_mod.main(args=a)))

    s = sub.add_parser("ladder", help="rebuild the stored anchored ladder of a benchmark configuration",
                       description=ladder_mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ladder_mod.build_parser(s)
    s.set_defaults(func=lambda a: (_one_thread(), ladder_mod.main(args=a)))

    s = sub.add_parser("reference", help="a reference row: train an algorithm (ppo, maskable_ppo, dqn) on the "
                                         "protocol's seeds and budget, then rate it",
                       description=reference_mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    reference_mod.build_parser(s)
    s.set_defaults(func=reference_mod.run_from_args)

    s = sub.add_parser("exploit", help="approximate exploitability: train best responses against a frozen agent, "
                                       "report their win rate",
                       description=exploit_mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    exploit_mod.build_parser(s)
    s.set_defaults(func=lambda a: (_one_thread(), exploit_mod.run_from_args(a)))

    s = sub.add_parser("exploit-pool", help="pool exploit results of one target whose seeds ran apart into one result",
                       description="Pool the results (OUT.json) of 'ether-envs exploit' runs of one target whose "
                                   "seeds ran apart (other sessions, other machines) into the result one run over all "
                                   "their seeds would have written: the same procedure, deals and target weights, "
                                   "disjoint seeds; a fresh IQM over every seed and pooled Wilson interval over every "
                                   "game. Writes OUT.json and OUT.md.")
    exploit_mod.add_pool_arguments(s)
    s.set_defaults(func=exploit_mod.pool_from_args)

    from . import exit as exit_mod

    s = sub.add_parser("exit", help="expert iteration: self-play with the az search, train the net on its visits "
                                    "and the outcomes, repeat; rerun to resume",
                       description=exit_mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    exit_mod.build_parser(s)
    s.set_defaults(func=lambda a: exit_mod.main(args=a))

    from . import league as league_mod

    s = sub.add_parser("league", help="league fine-tuning (zoo 2): PPO against zoo 1, past selves and the heuristic",
                       description=league_mod.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    league_mod.build_parser(s)
    s.set_defaults(func=lambda a, parser=s: league_mod.main_from_args(parser, a))

    from . import agent_speed

    s = sub.add_parser("agent-speed", help="milliseconds a decision of agent specs on every game (the table of docs/speed.md)",
                       description=agent_speed.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    agent_speed.build_parser(s)
    s.set_defaults(func=lambda a: agent_speed.main(args=a))

    sub.add_parser("speed", aliases=["bench"], add_help=False,
                   help="env speed: steps/s of the engines and wrapped envs beside connect_four_v3 "
                        "(ether-envs speed --help; bench: deprecated alias)")

    from . import throughput

    s = sub.add_parser("speed-train", aliases=["bench-train"],
                       help="MaskablePPO training frames/s with each vec env (bench-train: deprecated alias)",
                       description=throughput.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    throughput.add_arguments(s)
    s.set_defaults(func=cmd_speed_train)

    s = sub.add_parser("main", help="the main job: train Aethermon: Collect (2 players) with its recipe, then a "
                                    "tournament against random, heuristic and MCTS")
    s.add_argument("--minutes", type=float, default=None,
                   help="a wall-clock cap on training (default: none; the recipe is fixed in work, "
                        "training/recipes.py); a cap can stop PPO early and give a weaker agent")
    s.add_argument("--frames", type=int, default=None, help="PPO frame budget (default: the recipe's)")
    s.add_argument("--bc-games", type=int, default=None, help="teacher games for behaviour cloning (default: the recipe's)")
    s.add_argument("--eval-deals", type=int, default=50, help="deals per evaluation during training (default 50)")
    s.add_argument("--simulations", type=int, default=200, help="MCTS opponent's simulations (default 200)")
    s.add_argument("--workers", type=int, default=2, help="processes playing the tournament (default 2)")
    s.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    s.add_argument("--deals", type=int, default=MAIN_DEALS, help=f"tournament deals per opponent (default {MAIN_DEALS})")
    s.add_argument("--out", default="runs/main", help="run folder (default runs/main)")
    s.add_argument("--extra", nargs="*", default=[], help="more opponents for the tournament, e.g. mcts:simulations=100")
    s.add_argument("--no-progress", action="store_true", help="no progress bars")
    s.set_defaults(func=cmd_main)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] and argv[0] in DEPRECATED_COMMANDS:
        new = DEPRECATED_COMMANDS[argv[0]]
        print(f"note: 'ether-envs {argv[0]}' is deprecated; use 'ether-envs {new}'", file=sys.stderr)
        argv[0] = new
    if argv[:1] == ["speed"]:  # everything after "speed" goes to ether_envs.speed's own parser
        cmd_speed(argparse.Namespace(rest=argv[1:]))
        return 0
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except (ValueError, OSError) as e:  # OSError: a missing file, a folder that cannot be made, a lost connection
        if wants_traceback():  # ETHER_ENVS_TRACEBACK=1: where it came from
            raise
        print(f"ether-envs {args.command}: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
