"""Draw the pictures of the README and the game pages: one mid-game position of every game with a drawing module.

    python -m ether_envs.rendering                      # notebooks/images/<game>.png
    python -m ether_envs.rendering --out pics --gif     # also <game>.gif (a whole random game)

Each picture is the position halfway through a random game (uniform among the
legal actions, seeded), in the game's default configuration unless ``--config``
says otherwise; the same seed always gives the same picture.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from ether_envs.speed import _parse_config
from ether_envs.records import record_episode, replay_states

from . import games_with_drawings, render_rgb, save_gif


def random_record(game: str, seed: int, **config):
    """A random game of ``game`` (uniform legal actions, seeded), recorded."""
    rng = np.random.default_rng(seed)

    def random_policy(state):
        legal = state.legal_actions()
        return legal[rng.integers(len(legal))]

    return record_episode(game, random_policy, seed=seed, **config)


def main(argv: list[str] | None = None) -> list[Path]:
    parser = argparse.ArgumentParser(prog="python -m ether_envs.rendering", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=games_with_drawings(),
                        help="games to draw (default: every game with a drawing module)")
    parser.add_argument("--out", default="notebooks/images", help="output folder (default notebooks/images)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random game (default 0)")
    parser.add_argument("--config", nargs="*", default=[], help="game config as key=value pairs")
    parser.add_argument("--gif", action="store_true", help="also write an animated GIF of the whole game")
    args = parser.parse_args(argv)
    for g in args.games:
        if g not in games_with_drawings():
            parser.error(f"no drawing module for {g!r}; games with pictures: {games_with_drawings()}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from PIL import Image

    written = []
    for game in args.games:
        record = random_record(game, args.seed, **_parse_config(args.config))
        states = list(replay_states(record))
        path = out / f"{game}.png"
        Image.fromarray(render_rgb(states[len(states) // 2])).save(path, optimize=True)
        written.append(path)
        if args.gif:
            written.append(save_gif(record, out / f"{game}.gif", fps=3, max_frames=40, scale=0.6))
    for p in written:
        print(p)
    return written


if __name__ == "__main__":
    main()
