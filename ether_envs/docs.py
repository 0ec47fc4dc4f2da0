"""The generated parts of each env's module docstring (``ether_envs/<game>/env.py``).

    python -m ether_envs.docs etherium            # print them, to paste into the docstring
    python -m ether_envs.docs etherium --write    # or replace them in env.py in place

The generated parts are the action table (``game.codec.table_markdown()``), the observation
table (``game.layout.table_markdown()``) and the sizes (``Discrete(N)`` and the observation
shape). Each game's docstring-table test (``tests/<game>/``) fails with :func:`regenerate_hint`,
which names this command. Every game has one layout for all of its configs, so the default
config is used.
"""

from __future__ import annotations

import argparse
import importlib
import re
from pathlib import Path

import ether_envs


def regenerate_hint(name: str) -> str:
    """The failure message of a docstring-table test: how to regenerate the tables."""
    return (f"ether_envs/{name}/env.py's docstring tables or sizes differ from the ones generated from "
            f"the codec and the observation layout: run `python -m ether_envs.docs {name} --write` "
            f"(or without --write to print them), then review the diff")


def generated(name: str) -> dict[str, str]:
    """``{"actions": table, "observation": table, "sizes": lines}`` for game ``name``."""
    game = ether_envs.load_game(name)
    n, size = game.num_distinct_actions(), game.observation_size()
    sizes = (f"| Action values | Discrete({n}) |\n"
             f'| Observation shape | `{{"observation": ({size},) float32, "action_mask": ({n},) int8}}` |')
    return {"sizes": sizes, "observation": game.layout.table_markdown(), "actions": game.codec.table_markdown()}


def _replace_table(doc: str, table: str) -> str:
    """``doc`` with the table whose header line is ``table``'s first line replaced by ``table``."""
    lines = doc.split("\n")
    start = lines.index(table.split("\n")[0])
    stop = start
    while stop < len(lines) and lines[stop].startswith("|"):
        stop += 1
    return "\n".join(lines[:start] + table.split("\n") + lines[stop:])


def write(name: str) -> Path:
    """Replace the generated parts of ``ether_envs/<name>/env.py``'s docstring; returns the file."""
    path = Path(importlib.import_module(f"ether_envs.{name}.env").__file__)
    text = path.read_text()
    end = text.index('"""', 3) + 3  # the module docstring
    doc, rest = text[:end], text[end:]
    parts = generated(name)
    doc = _replace_table(_replace_table(doc, parts["observation"]), parts["actions"])
    game = ether_envs.load_game(name)
    n, size = game.num_distinct_actions(), game.observation_size()
    doc = re.sub(r"Discrete\(\d+\)", f"Discrete({n})", doc)
    doc = re.sub(r'"observation": \(\d+,\)', f'"observation": ({size},)', doc)
    doc = re.sub(r'"action_mask": \(\d+,\)', f'"action_mask": ({n},)', doc)
    path.write_text(doc + rest)
    return path


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ether_envs.docs", description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=ether_envs.list_games())
    parser.add_argument("--write", action="store_true", help="replace them in the game's env.py docstring")
    args = parser.parse_args(argv)
    if args.write:
        print(f"wrote {write(args.game)}")
    else:
        print("\n\n".join(generated(args.game).values()))


if __name__ == "__main__":
    main()
