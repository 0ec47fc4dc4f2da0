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


def docstring_entries(doc: str | None, section: str = "Attributes") -> dict[str, str]:
    """``{name: text}`` of a Google-style docstring section (``Attributes:``, ``Args:``), each
    entry's lines joined with spaces; the text is as written (reStructuredText literals
    ````x```` kept). Empty if the section is missing. The site's ``config`` tables
    (``docs/hooks.py``) and the new-game form of ``ether-envs serve`` read the games' ``Config``
    docstrings with it."""
    m = re.search(rf"^{section}:\n((?:[ \t]+\S.*\n?|\n)+)", doc or "", re.M)
    if m is None:
        return {}
    entries: dict[str, list[str]] = {}
    indent = None
    for line in m.group(1).split("\n"):
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        indent = depth if indent is None else indent
        if depth == indent:
            name, _, text = line.strip().partition(":")
            entries[name.strip("*")] = [text.strip()]
        elif entries:
            entries[list(entries)[-1]].append(line.strip())
    return {name: " ".join(lines) for name, lines in entries.items()}


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
    """``doc`` with the table whose header line is ``table``'s first line replaced by ``table``:
    every row up to the first line that is not a table row, and stray rows of the same width
    after blank lines (a blank line inside a table splits it in two).

    Raises:
        ValueError: ``doc`` has no line equal to the table's header line.
    """
    lines = doc.split("\n")
    header = table.split("\n")[0]
    if header not in lines:
        raise ValueError(f"the docstring has no table headed {header!r} (the generated header); "
                         "put that header line back where the table belongs, then run --write again")
    start = lines.index(header)
    stop = start
    width = header.count("|")
    while True:
        while stop < len(lines) and lines[stop].startswith("|"):
            stop += 1
        after = stop
        while after < len(lines) and not lines[after].strip():
            after += 1
        if after < len(lines) and lines[after].startswith("|") and lines[after].count("|") == width \
                and after > stop:  # a stray part of the same table after blank lines
            stop = after
            continue
        break
    return "\n".join(lines[:start] + table.split("\n") + lines[stop:])


def rewritten(name: str, doc: str) -> str:
    """``doc`` (an env module docstring) with its generated parts replaced by
    :func:`generated`'s: the two tables and every ``Discrete(N)`` and observation/mask size.

    Raises:
        ValueError: a table's header line is missing from ``doc``.
    """
    parts = generated(name)
    doc = _replace_table(_replace_table(doc, parts["observation"]), parts["actions"])
    game = ether_envs.load_game(name)
    n, size = game.num_distinct_actions(), game.observation_size()
    doc = re.sub(r"Discrete\(\d+\)", f"Discrete({n})", doc)
    doc = re.sub(r'"observation": \(\d+,\)', f'"observation": ({size},)', doc)
    return re.sub(r'"action_mask": \(\d+,\)', f'"action_mask": ({n},)', doc)


def env_docstring(name: str) -> tuple[Path, str, str]:
    """``(path, docstring, rest of the file)`` of ``ether_envs/<name>/env.py``."""
    path = Path(importlib.import_module(f"ether_envs.{name}.env").__file__)
    text = path.read_text()
    end = text.index('"""', 3) + 3  # the module docstring
    return path, text[:end], text[end:]


def write(name: str) -> tuple[Path, bool]:
    """Replace the generated parts of ``ether_envs/<name>/env.py``'s docstring; returns the
    file and whether it changed."""
    path, doc, rest = env_docstring(name)
    new = rewritten(name, doc)
    if new != doc:
        path.write_text(new + rest)
    return path, new != doc


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ether_envs.docs", description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=ether_envs.list_games())
    parser.add_argument("--write", action="store_true", help="replace them in the game's env.py docstring")
    args = parser.parse_args(argv)
    if args.write:
        try:
            path, changed = write(args.game)
        except ValueError as e:
            parser.error(str(e))
        print(f"wrote {path}" if changed else f"{path}: already up to date, nothing written")
    else:
        print("\n\n".join(generated(args.game).values()))


if __name__ == "__main__":
    main()
