"""Which agents the browser app builds for the other seats: the agent specs a page may ask
for, and what the server refuses.

A page is any client on the network (and, in a browser, any web page may try to reach a
server on ``127.0.0.1``), so the server refuses specs that would run code on it, or read
or probe its files, and caps the search budgets so that no agent thinks for minutes:

* ``python:...`` is always refused (it imports and runs a module's code).
* Specs that name a file (``ppo:PATH``, ``pretrained:path=...``, ``az:path=...``,
  ``rllib:...``) are refused unless the person who starts the server names a folder with
  ``--allow-weights-dir DIR``; then only files under that folder load (the path resolved,
  symlinks and ``..`` included). The refusal is the same whether the file exists or not.
  ``ppo`` files are pickles: loading one runs code, so name only a folder of files you trust.
* Search budgets are capped per kind (:data:`SEARCH_CAPS`, simulations per decision).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .views import short

REFUSED_KINDS = ("python",)
"""Agent kinds the server always refuses (``python:`` imports and runs a module's code)."""

FILE_KINDS = {"ppo": ("path", 0), "rllib": ("checkpoint", 0), "pretrained": ("path", 0), "az": ("path", 2)}
"""Agent kinds that may name a file: ``kind: (its key, its position)`` in the spec
(``ppo:runs/m.zip`` and ``ppo:path=runs/m.zip`` alike; ``az``'s third positional value)."""

MAX_SPEC = 500
"""Longest agent spec accepted, in characters (a kind, a few options and a path): a longer
one is refused before it is parsed, so that no message echoes it whole."""

SEARCH_CAPS = {"mcts": 200, "az": 64, "openspiel": 80, "rollout": 8}
"""Largest search budget per decision of each search kind, in simulations (for
``openspiel``, ``simulations`` times ``rollouts`` times ``worlds``); a larger budget is
refused (400). Chosen from ``python -m webapp.measure`` (per-simulation times at three
positions of a random game: the smallest budget over the games that keeps a click, about
``n - 1`` agent decisions, within 10 s, rounded down) and checked with ``python -m
webapp.measure --check 6`` on the 2-core machine (busy, 2026-12-05): the slowest click was
13.1 s (``mcts``, 6-player Ethnos; median 3.3 s), 11.7 s (``openspiel``, 6-player Ethnos),
6.5 s (``az``, Aethermon: Collect). ``rollout`` counts ``rollouts`` per legal action; its
cap 8 comes from ``python -m webapp.measure --kinds rollout`` on the busy machine
(2026-12-05: 228 ms a decision per rollout on 6-player Ethnos). docs/playing.md has the figures."""


class SpecRefused(ValueError):
    """An agent spec the server does not build (the message says why and what to do)."""


def split_opponents(value: Any, other_seats: int) -> list[str]:
    """The ``opponents`` field as a list of specs: one string of specs separated by ``;``
    or a list of spec strings. With no other seat (a 1-player game) nothing is built, and
    the field is not read beyond its type (empty, absent or any specs).

    Raises:
        SpecRefused: not a string or a list of strings; an empty spec; more specs than
            ``other_seats``.
    """
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        text = ";".join(value)
    elif isinstance(value, str):
        text = value
    else:
        raise SpecRefused(f"opponents must be agent specs as a string separated by ';' or a list of strings "
                          f"(e.g. \"heuristic;random\" or [\"heuristic\", \"random\"]), got {short(value)}")
    if other_seats == 0:
        return []
    specs = [s.strip() for s in text.split(";")]
    if not all(specs):
        raise SpecRefused(f"opponents: an agent spec is empty in {short(text)} (e.g. random, heuristic, "
                          "pretrained, mcts:simulations=200; several separated by ';')")
    return specs


def check_spec(spec: str, weights_dir: Path | None = None) -> None:
    """Refuse ``spec`` before it is built when it would run code on the server or name a
    file outside ``weights_dir`` (``None``: no file at all).

    Raises:
        SpecRefused: a ``python:`` spec; a spec naming a file while no folder is allowed,
            or a file outside the allowed folder (the same message whether it exists or not).
        ValueError: a spec longer than :data:`MAX_SPEC` characters, an unknown kind (the
            message lists the kinds), or a spec that does not parse (:func:`agents.parse_spec`).
    """
    from agents import AGENT_KINDS, parse_spec

    kind = spec.partition(":")[0].strip().lower()
    if len(spec) > MAX_SPEC:
        raise ValueError(f"an agent spec is at most {MAX_SPEC} characters, got {len(spec)}: a kind "
                         f"({', '.join(AGENT_KINDS)}) and a few options, e.g. mcts:simulations=200")
    if kind not in AGENT_KINDS:
        raise ValueError(f"unknown agent kind {short(kind)}; known: {', '.join(AGENT_KINDS)}")
    if kind in REFUSED_KINDS:
        raise SpecRefused(f"agent spec {short(spec)}: this server does not run python: agents (they import and run "
                          "a module's code on the server); play your own agent with ether-envs play or "
                          "ether-envs evaluate on your machine")
    if kind not in FILE_KINDS:
        return
    _, args, kwargs = parse_spec(spec)
    key, position = FILE_KINDS[kind]
    named = [kwargs[key]] if key in kwargs else []
    named += [v for v in args[position:position + 1] if isinstance(v, str)]
    if weights_dir is None and (named or kind in ("ppo", "rllib")):  # those two always load a file
        raise SpecRefused(f"agent spec {short(spec)}: this server loads no files named by a page "
                          f"({', '.join(FILE_KINDS)} with a path); the person who starts it may allow a "
                          "folder of trusted files with ether-envs serve --allow-weights-dir DIR")
    for value in named:
        if not isinstance(value, str) or not under(Path(value), weights_dir):
            raise SpecRefused(f"agent spec {short(spec)}: the file {short(value)} is not under the folder this "
                              f"server loads files from (--allow-weights-dir {weights_dir})")


def under(path: Path, folder: Path) -> bool:
    """Whether ``path`` (relative to the working directory, as the agents open it) is
    inside ``folder`` once both are resolved (symlinks followed, ``..`` applied); the
    answer does not depend on whether ``path`` exists."""
    try:
        resolved = Path.cwd().joinpath(path).resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL byte
        return False
    folder = folder.resolve()
    return resolved != folder and resolved.is_relative_to(folder)


def search_budget(kind: str, agent: Any) -> int:
    """Simulations per decision of a search agent (``simulations``; times ``rollouts`` and
    ``worlds`` for ``openspiel``; ``rollouts`` per legal action for ``rollout``), 0 for any other agent."""
    if kind == "rollout":
        return int(getattr(agent, "rollouts", 0))
    sims = getattr(agent, "simulations", None)
    if isinstance(sims, bool) or not isinstance(sims, int):
        return 0
    extra = getattr(agent, "_kwargs", {}) or {}
    factor = 1
    for key in ("rollouts", "worlds"):
        v = extra.get(key, 1)
        factor *= v if isinstance(v, int) and v > 1 else 1
    return sims * factor


def check_budget(spec: str, agent: Any) -> None:
    """Refuse an agent whose search is larger than its kind's cap (:data:`SEARCH_CAPS`).

    Raises:
        SpecRefused: naming the budget and the cap.
    """
    kind = spec.partition(":")[0].strip().lower()
    budget = search_budget(kind, agent)
    cap = SEARCH_CAPS.get(kind)
    if budget and cap is not None and budget > cap:
        unit = "rollouts per legal action" if kind == "rollout" else "simulations per move"
        raise SpecRefused(f"agent spec {short(spec)}: a search of {budget} {unit} is more than "
                          f"this server allows for {kind} ({cap}: a click would take far longer than 10 s)")
