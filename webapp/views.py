"""What a seat is shown, and how values are written for the page: no HTTP here.

Everything a person is sent about a game in progress is built from their seat's view
only (``observation_string(seat)``, ``public_action_string(., seat)``, the public picture
``render_rgb``); the functions here turn those into the page's JSON, text and PNG.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import threading
from typing import Any

import ether_envs
from ether_envs.core import parse_config_value, short_repr

from . import explain

RENDER_LOCK = threading.RLock()
"""matplotlib is not thread-safe: one picture at a time (re-entrant)."""

SHORT = 60
"""Characters of a value echoed in an error message (:func:`short`)."""


def short(value: Any, limit: int = SHORT) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters followed by
    ``…`` and the full length (:func:`ether_envs.core.short_repr`, the engines' own).

    >>> short("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (1002 characters)"
    """
    return short_repr(value, limit)


def cut(message: str, limit: int = 2000) -> str:
    """``message`` cut to ``limit`` characters (the last guard of an error answer)."""
    return message if len(message) <= limit else f"{message[:limit]}… ({len(message)} characters)"


def private_text(state, seat: int) -> str:
    """The lines of ``state.observation_string(seat)`` after the public board
    (``render_text``): the seat's own private information ("" when it holds none)."""
    obs = state.observation_string(seat)
    public = state.render_text()
    return obs[len(public):].strip("\n") if obs.startswith(public) else obs


def seat_lines(text: str, seat: int) -> str:
    """Seat ``seat``'s private ``text`` with each line prefixed ``player_K: `` (and the
    seat's own "you are player_K" dropped), for the every-seat view of a replay."""
    text = re.sub(rf"^you are player_{seat}(?:[;,]\s*|\s*$)", "", text.strip("\n"))
    return "\n".join(f"player_{seat}: {line}" for line in (text.split("\n") if text else ["-"]))


def png_bytes(state) -> bytes:
    """The public picture of ``state`` (``render_rgb``) as PNG bytes (deterministic:
    the same position gives the same bytes).

    Raises:
        ImportError: matplotlib or pillow is missing (the ``render`` extra).
        ValueError: the game has no drawing module.
    """
    from PIL import Image

    from ether_envs.rendering import render_rgb

    with RENDER_LOCK:  # re-entrant: callers may hold it already
        rgb = render_rgb(state)
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def board_targets(state, actions: list[int]) -> list[dict[str, Any]]:
    """Where a click on the public picture of ``state`` (:func:`png_bytes`) makes one of
    ``actions`` (the seat's legal moves; ``[]`` when it is not the seat's turn):
    ``[{"action", "x", "y", "w", "h"}]``, boxes in pixels of the picture, origin at its top
    left (:func:`ether_envs.rendering.click_targets`: the public picture's geometry, so
    nothing another seat holds). No matplotlib needed."""
    from ether_envs.rendering import click_targets

    return click_targets(state, actions) if actions else []


def returns(state) -> list[float]:
    """``state.returns()`` as floats rounded to 6 decimals."""
    return [round(float(r), 6) for r in state.returns()]


def jsonable(x: Any) -> Any:
    """``x`` with numpy values and tuples made JSON-able (as records write them)."""
    from ether_envs.records import _jsonable

    return _jsonable(x)


def seed_text(seed: int | None) -> str | None:
    """A seed as the page receives it: a string of digits (``None`` stays ``None``).

    JavaScript numbers are exact only up to 2**53, and a deal's seed goes up to 2**63-1:
    as a JSON number, ``680802867637252887`` would reach the page as ``680802867637252900``.
    """
    return None if seed is None else str(int(seed))


def config_text(value: Any) -> str:
    """A configuration value as the form shows it: strings bare, the rest as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, tuple):
        value = list(value)
    return json.dumps(value)


config_value = parse_config_value
"""One configuration value as typed in the form (:func:`ether_envs.core.parse_config_value`)."""


def game_catalogue() -> list[dict[str, Any]]:
    """What the new-game form offers: every registered game with its title, player
    counts, ``utility`` in its default configuration (``"identical"``: co-operative, the
    other seats are team-mates) and configuration fields (name and default, written as
    the form takes it)."""
    out = []
    for name in ether_envs.list_games():
        game = ether_envs.load_game(name)
        fields = [{"name": f.name, "default": config_text(getattr(game.config, f.name))}
                  for f in dataclasses.fields(game.config)]
        out.append({"name": name, "title": game.spec.title, "min_players": game.spec.min_players,
                    "max_players": game.spec.max_players, "utility": game.utility(), "fields": fields,
                    **explain.catalogue_entry(game)})  # options (the form's controls), picture (its size)
    return out
