"""What the page says about things: the effects of cards and moves, the decision being made,
hands written as a person would, and the new-game form's options.

Everything here is built from a game's static component data (``ether_envs/<game>/components.py``,
the action codec's block descriptions, the ``Config`` dataclass and its docstring) and from what
the seat is shown already: the seat's own text (``observation_string``), its own legal moves and
the public state (phase, decision, where tiles lie). Nothing reads another seat's hidden cards, so
a view stays the same when they are resampled (``tests/test_serve.py``).

Functions used by :mod:`webapp.sessions`:

* :func:`catalogue_entry`: a game's form options, picture size and smallest text (new-game form).
* :func:`annotate_view`: adds ``decision``, ``notes``, ``readable_private`` and each move's
  ``label`` and ``help`` (and each log entry's ``label``) to a seat's view.
* :func:`annotate_frame`: the same for a replay position (``decision``, ``notes``, ``readable_private``).
* :func:`readable`: a move or a hand written as a person would (``Giants/Grayx1`` -> ``1 Gray Giant``).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re
import sys
import types
import typing
from typing import Any, Callable

import ether_envs

# ---- the new-game form -----------------------------------------------------------------------


def docstring_entries(doc: str, section: str = "Attributes") -> dict[str, str]:
    """``ether_envs.docs.docstring_entries`` for the form: literals (````x````) made plain text."""
    from ether_envs.docs import docstring_entries as entries

    return {name: re.sub(r"``(.+?)``", r"\1", text) for name, text in entries(doc, section).items()}


def _type_args(annotation: Any) -> tuple[set[type], bool]:
    """The plain types of a field's (resolved) annotation and whether it takes None
    (``int | None`` -> ({int}, True); ``tuple[str, ...]`` -> ({tuple}, False))."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = typing.get_args(annotation)
    else:
        args = (annotation,)
    nullable = type(None) in args
    plain = {typing.get_origin(a) or a for a in args if a is not type(None)}
    return plain, nullable


def _named_values(value: Any) -> tuple[str, ...] | None:
    """A tuple constant of a module as the strings a configuration takes: the strings
    themselves, or the ``key``/``name`` of each item (``ARTEFACTS`` -> their keys); a dict
    constant with str keys as its keys (``GLORY_TOKEN_SETS``)."""
    if isinstance(value, dict) and value and all(isinstance(k, str) for k in value):
        return tuple(value)
    if not isinstance(value, tuple) or not value:
        return None
    if all(isinstance(v, str) for v in value):
        return value
    for attr in ("key", "name"):
        if all(isinstance(getattr(v, attr, None), str) for v in value):
            return tuple(getattr(v, attr) for v in value)
    return None


def _choices(cls: type, name: str, default: Any, help_text: str) -> list[str] | None:
    """The allowed values of a str option, or of the items of a tuple-of-str option: a tuple
    constant of the rules module or its ``components`` that holds the default (every item of
    it) or is named after the option (``TRIBES`` for ``tribes``); else the quoted values of
    the option's documentation (````"S4"```` or ````"S1"````)."""
    module = sys.modules[cls.__module__]
    spaces = [vars(module)]
    comps = sys.modules.get(module.__name__.rsplit(".", 1)[0] + ".components")
    if comps is not None:
        spaces.append(vars(comps))
    wanted = set(default) if isinstance(default, tuple) else {default} if isinstance(default, str) else set()
    for by_name in (False, True):
        for space in spaces:
            for const, value in space.items():
                if not const.isupper():
                    continue
                values = _named_values(value)
                if values is None:
                    continue
                if (by_name and const == name.upper()) or (not by_name and wanted and wanted <= set(values)):
                    return list(dict.fromkeys(values))
    quoted = re.findall(r'"([^"\s]+)"', help_text)
    return list(dict.fromkeys(quoted)) or None


def _range(name: str, help_text: str, game) -> tuple[int | None, int | None]:
    """``(min, max)`` of an int option: the players of the game's spec, else the first
    ``A..B`` of its documentation; ``(0, None)`` for "non-negative"."""
    if name == "num_players":
        return game.spec.min_players, game.spec.max_players
    m = re.search(r"(\d+)\s*\.\.\s*(\d+)", help_text)
    if m:
        return int(m.group(1)), int(m.group(2))
    if re.search(r"non-negative|number of|spaces|rounds", help_text):
        return (1 if "rounds" in help_text else 0), None
    return None, None


def config_options(game) -> list[dict[str, Any]]:
    """The options of a game's configuration, for the new-game form: one dict per field of
    its ``Config`` dataclass, in order, with

    * ``name``, ``default`` (JSON: a tuple as a list);
    * ``kind``: ``"int"`` (a number input, ``min``/``max`` where known), ``"bool"`` (a
      checkbox; with ``nullable`` a choice of automatic/yes/no), ``"choice"`` (one of
      ``choices``), ``"list"`` (several of ``choices``, or free text when ``choices`` is
      None) or ``"text"``;
    * ``nullable``: whether ``None`` (the documented automatic value) is allowed;
    * ``help``: the field's entry of the docstring's ``Attributes`` section (one line).

    Args:
        game: a loaded game (``ether_envs.load_game``).
    """
    cls = type(game.config)
    helps = docstring_entries(inspect.getdoc(cls) or "")
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        default = f.default if f.default is not dataclasses.MISSING else getattr(game.config, f.name)
        plain, nullable = _type_args(hints[f.name])
        help_text = helps.get(f.name, "")
        option: dict[str, Any] = {"name": f.name, "default": list(default) if isinstance(default, tuple) else default,
                                  "nullable": nullable, "help": help_text, "choices": None, "min": None, "max": None}
        if plain == {bool}:
            option["kind"] = "bool"
        elif plain == {int}:
            option["kind"] = "int"
            option["min"], option["max"] = _range(f.name, help_text, game)
        elif plain == {str}:
            choices = _choices(cls, f.name, default, help_text)
            option["kind"] = "choice" if choices else "text"
            option["choices"] = choices
        elif plain == {tuple}:
            option["kind"] = "list"
            option["choices"] = _choices(cls, f.name, default, help_text)
        else:
            option["kind"] = "text"
        out.append(option)
    return out


SMALLEST_TEXT_PT_DEFAULT = 8.5
"""Point size of the smallest text :class:`ether_envs.rendering.Canvas`'s helpers draw by
default (a card's title and caption)."""


@functools.cache
def smallest_text_px(game_name: str) -> float:
    """Pixel height (of the natural picture) of the smallest font the game's drawing module
    asks for: the least ``size=`` number in its source (and the Canvas helpers' defaults), in
    points, times ``DPI / 72``. 0.0 when the game has no drawing module."""
    from ether_envs import rendering

    if not rendering.has_drawing(game_name):
        return 0.0
    source = inspect.getsource(sys.modules.get(rendering.drawing_module_name(game_name))
                               or __import__(rendering.drawing_module_name(game_name), fromlist=["draw"]))
    sizes = [float(x) for x in re.findall(r"\bsize=([0-9]+(?:\.[0-9]+)?)\b", source)]
    smallest = min(sizes + [SMALLEST_TEXT_PT_DEFAULT])
    return round(smallest * rendering.DPI / 72, 2)


def catalogue_entry(game) -> dict[str, Any]:
    """What the new-game form and the picture viewer need of a game, beside its name and
    title: ``options`` (:func:`config_options`), ``picture`` ``{width, height,
    smallest_text_px}`` (pixels of the natural picture; None without the drawing module)
    and ``words`` ``{raw: [one, many]}`` (see :func:`readable`)."""
    from ether_envs import rendering

    name = game.spec.name
    picture = None
    if rendering.has_drawing(name):
        w, h = rendering.picture_size(name)
        picture = {"width": w, "height": h, "smallest_text_px": smallest_text_px(name)}
    return {"options": config_options(game), "picture": picture}


# ---- what things do: per game, from the component data ---------------------------------------
def _components(game_name: str):
    return __import__(ether_envs.GAMES[game_name] + ".components", fromlist=["_"])


def _sentence(text: str) -> str:
    """``text`` as a sentence for a person: the codec's index notation taken out
    (``of kind 0..66``, ``tile*8+k``, ``(components.SPACES)``), capitalised, with a full stop."""
    text = re.sub(r"\s*\((?:see )?components\.[^)]*\)", "", text)
    text = re.sub(r"\s*\([^()]*\w\*\w[^()]*\)", "", text)
    text = re.sub(r"^[\w ]*\w\*\w+\+\w+:\s*", "", text)
    text = re.sub(r"\s\S*\w\*\w+\+\w+\S*", "", text)
    text = re.sub(r" of (?:kind|type) \d+\.\.\d+", "", text)
    text = re.sub(r" \d+\.\.\d+", "", text).strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?", ")")) else ".")


@functools.cache
def terms(game_name: str) -> dict[str, str]:
    """``{name: what it does}`` of the game's named things a seat may hold or meet: Artefacts,
    tribes' Leader powers, Flash cards and Ability tokens, Favours, ability cards, Mercenaries
    and Events, spells and spire adaptations. Static data (the same for every seat). (An
    Aetherspire character's trigger, passive and upgrade are written in the seat's text.)"""
    C = _components(game_name)
    out: dict[str, str] = {}
    if game_name == "aethermon_collect":
        when = {"turn": "on your turn, before the Group Token moves", "post_move": "right after the Group Token moved",
                "game_end": "at final scoring"}
        for a in C.ARTEFACTS:
            out[a.name] = f"Artefact ({when.get(a.timing, a.timing)}, once): {a.text}"
    elif game_name == "ethnos":
        for tribe, power in C.LEADER_POWERS.items():
            out[tribe] = f"{tribe}' Leader power: {power}" if tribe.endswith("s") else f"{tribe} Leader power: {power}"
    elif game_name == "etherium":
        for c in C.FLASH_CARDS:
            when = "Flash card" if c.timing == "flash" else "Season card (phase 3)"
            out[c.name] = f"{when}: {c.text}"
        for a in C.ABILITIES:
            out.setdefault(a.name, f"Ability token ({a.vp} prestige): {a.text}")
    elif game_name == "ether_wars":
        timing = {"response": "only on top of another Favour", "any": "in any favour window",
                  "combat": "in a combat you take part in", "injury": "when your Units are injured",
                  "hire": "at the start of the Mercenaries phase"}
        for f in C.FAVOURS:
            out[f.name] = f"Favour ({timing.get(f.timing, f.timing)}): {f.text}"
        for a in C.ABILITIES:
            out[a.name] = f"{C.FACTIONS[a.faction]} ability card: {a.text}"
        for m in C.MERCENARIES:
            out[m.name] = _mercenary(C, m)
        for e in C.EVENTS:
            out[e.name] = f"Event: {e.text}"
    elif game_name == "aetherspire":
        for sp in C.SPELLS:
            out[sp.name] = f"Spell: {sp.text}"
        for a in C.ADAPTATIONS:
            out[a.name] = f"Spire adaptation: needs {a.requirement}; completed: {a.completed}."
    return out


def _mercenary(C, m) -> str:
    pips = ", ".join(str(p) + ("c" if c else "") for p, c in zip(m.faces, m.charge))
    return (f"Mercenary die (hire: 1 {C.RESOURCES[m.colour]} and 1 Protein); faces {pips} pips"
            + (" (c: Charge icon)" if any(m.charge) else "")
            + ("; may enter Limited areas and Silos held by two other players" if m.exempt else "") + ".")


def notes(game_name: str, text: str) -> list[list[str]]:
    """``[[name, what it does], ...]`` for every name of :func:`terms` that ``text`` mentions
    (whole words; longest names first, each once), in the order they appear."""
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    for name in sorted(terms(game_name), key=len, reverse=True):  # "Field Medic" before "Medic"
        first = None
        for m in re.finditer(r"(?<![\w@>-])" + re.escape(name) + r"(?![\w-])", text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            first = m.start() if first is None else first
        if first is not None:
            found.append((first, name))
    return [[name, terms(game_name)[name]] for _, name in sorted(found)]


# ---- hands and moves as a person writes them ---------------------------------------------------
_SINGULAR = {"Dwarves": "Dwarf", "Elves": "Elf", "Merfolk": "Merfolk", "Wingfolk": "Wingfolk"}


def _tribe_one(tribe: str) -> str:
    return _SINGULAR.get(tribe, tribe[:-1] if tribe.endswith("s") else tribe)


@functools.cache
def _words(game_name: str) -> tuple[tuple[str, str, str], ...]:
    """``(raw, one, many)``: how a card name written by the game's text reads for a person
    (``many`` has ``{n}`` for the count); longest raw names first."""
    C = _components(game_name)
    out: list[tuple[str, str, str]] = []
    if game_name == "ethnos":
        for tribe in C.TRIBES:
            for colour in C.KINGDOMS:
                one = f"{colour} {_tribe_one(tribe)}"
                out.append((f"{tribe}/{colour}", one, "{n} " + one + ("" if one.endswith("folk") else "s")))
        out.append(("Skeleton", "Skeleton", "{n} Skeletons"))
    elif game_name == "etherium":
        out += [(c.name, c.name, "{n} \u00d7 " + c.name) for c in C.FLASH_CARDS]
    elif game_name == "ether_wars":
        out += [(f.name, f.name, "{n} \u00d7 " + f.name) for f in C.FAVOURS]
    return tuple(sorted(out, key=lambda w: len(w[0]), reverse=True))


def readable(game_name: str, text: str) -> str:
    """``text`` (a move's name, a hand) with the game's card names written as a person
    would: Ethnos' ``Giants/Grayx2`` -> ``2 Gray Giants`` and ``TAKE_FACE_UP(Giants/Blue)``
    -> ``TAKE_FACE_UP(Blue Giant)``; Etherium's and Ether Wars' ``Re-roll x1`` -> ``Re-roll``,
    ``Field Medic x2`` -> ``2 × Field Medic``. Hands are listed with commas."""
    words = _words(game_name)
    if not words:
        return text
    by_raw = {raw: (one, many) for raw, one, many in words}
    pattern = re.compile("(?<![\\w/])(" + "|".join(re.escape(raw) for raw, _, _ in words) + r")(?:\s?x(\d+))?(?![\w/])")

    def one(m: re.Match) -> str:
        single, many = by_raw[m.group(1)]
        if m.group(2) is None:
            return single
        n = int(m.group(2))
        if game_name == "ethnos":
            return f"1 {single}" if n == 1 else many.format(n=n)
        return single if n == 1 else many.format(n=n)

    out = pattern.sub(one, text)
    if game_name == "ethnos":  # a hand's cards are separated by spaces: "1 Red Orc 2 Blue Elves" -> commas
        out = re.sub(r"(?<=[a-z]) (?=\d+ )", ", ", out)
    return out


# ---- the decision being made ---------------------------------------------------------------------
def decision(state) -> str:
    """What the player to move decides now, in words (the picture's "decides:" line), e.g.
    ``"where to place the Control marker"``; "" when the game is over. Public: read from the
    phase and the pending decision, which every seat sees."""
    if state.is_terminal():
        return ""
    fn = _DECISIONS.get(state.game.spec.name)
    return fn(state) if fn else ""


def _aethermon(s) -> str:
    from ether_envs.aethermon_collect import components as C
    from ether_envs.aethermon_collect import rules as R

    if s.phase == R.PENDING:
        e = s.pending
        name = "the Trade Token (the card to take)" if e == R.TRADE_TAKE else C.ARTEFACTS[e].name
        return f"the target of {name}"
    return {R.PLACE_TOKEN: "which corner the Group Token starts on", R.DRAFT: "which Artefact group to take",
            R.TURN: "where to move the Group Token (or which Artefact to use first)",
            R.POST_MOVE: "whether to use an Artefact now or end the turn",
            R.SATCHEL: "which set the Satchel completes"}.get(s.phase, R.PHASE_NAMES[s.phase].replace("_", " "))


def _ethnos(s) -> str:
    from ether_envs.ethnos import rules as R

    return {R.TURN: "recruit an Ally or play a band", R.FACE_UP: "which face-up Ally to recruit",
            R.LEADER: "the Leader and key (tribe or colour) of the band", R.BUILD: "add cards to the band, or end it",
            R.MARKER: "where to place the Control marker (DECLINE: place none)",
            R.CENTAUR: "Centaurs: play another band? (DECLINE: no)",
            R.MERFOLK: "Merfolk: where to place the checkpoint's Control marker (DECLINE: none)",
            R.WIZARD: "Wizards: draw cards? (DECLINE: no)", R.KEEP: "Elves: which cards to keep",
            R.ORC: "Orcs: cash in the Horde markers? (DECLINE: no)"}.get(s.phase, R.PHASE_NAMES[s.phase])


def _etherium(s) -> str:
    from ether_envs.etherium import rules as R

    k = s.decision()
    if k < R.D_FIRST:
        return R.PHASE_NAMES[s.phase].replace("_", " ")
    name = R.DECISION_NAMES[k - R.D_FIRST].replace("_", " ")
    return {"flash window": "whether to play a Flash card now (PASS: none)",
            "program": "where your next Action token goes (hidden until the reveal)",
            "season reveal action": "whether to carry out the revealed action"}.get(name, name)


def _ether_wars(s) -> str:
    from ether_envs.ether_wars.codec import DECISION_NAMES, PHASE_NAMES

    name = DECISION_NAMES[s.decision].replace("_", " ")
    return {"faction": "your faction", "window": "whether to play a Favour now (PASS: none)",
            "response": "whether to answer the Favour (PASS: no)",
            "ability": "your ability card for this round (hidden until all have chosen)",
            "keep favour": "which Favour to keep from your draft pack",
            "discard favour": "which Favour to discard from your draft pack",
            "hire": "which Mercenary to hire (PASS: none)",
            "place": "where to place dice this turn (PASS: no more placing this round)",
            "add die": "which die to add to the chosen area (DONE: end this placement turn)",
            "move": "which die to move (DONE: stop moving)", "move to": "where the die moves",
            "resolve": "which of your areas to resolve next", "shield": "how many injured Units to shield",
            "reroll": "which Unit die to reroll (PASS: none)", "gain": "which resource to gain",
            "raid": "which resource to take from the Silo", "market": "what to buy at the Market (DONE: stop)",
            "pay": "which resource to pay with", "factory": "whether to clone a Unit (DONE: no more)",
            "smuggle seat": "Smuggler: whom to steal from", "smuggle resource": "Smuggler: which resource to steal",
            "end ether": "whether to pay for one more Ether (PASS: no)",
            "conduit": "Conduit: whether to pay for one more Ether (PASS: no)",
            "none": PHASE_NAMES[s.phase].replace("_", " ")}.get(name, name)


def _aetherspire(s) -> str:
    from ether_envs.aetherspire import codec as K

    if s.queue:
        return K.STEP_NAMES[s.queue[-1][0]].replace("_", " ")
    return "the main choice of the build step" if s.phase == K.BUILD else K.PHASE_NAMES[s.phase]


_DECISIONS: dict[str, Callable[[Any], str]] = {
    "aethermon_collect": _aethermon, "ethnos": _ethnos, "etherium": _etherium, "ether_wars": _ether_wars,
    "aetherspire": _aetherspire,
}


# ---- a move's effect ---------------------------------------------------------------------------
def move_help(state, action: int, name: str) -> str:
    """What the move ``action`` (one of the seat's legal moves, named ``name`` as the seat
    sees it) does: its action block's description, then the effect of the card, Artefact,
    spell or Mercenary it names, and for an Aetherspire space or room where it is."""
    game = state.game
    block, index = game.codec.decode(int(action))
    b = next(x for x in game.codec.blocks if x.name == block)
    lines = [_sentence(b.describe)]
    where = _where(state, block, index)
    if where:
        lines.insert(0, where)
    lines += [f"{n}: {effect}" for n, effect in notes(game.spec.name, name)]
    return "\n".join(lines)


def _where(state, block: str, index: int) -> str:
    """Aetherspire: where a space or a room is in the fortress picture."""
    if state.game.spec.name != "aetherspire" or block not in ("SPACE", "ROOM"):
        return ""
    from ether_envs.aetherspire import components as C

    if block == "SPACE":
        t, k = divmod(index, C.MAX_SPACES)
        return f"{_tile_where(state, t)}; space {k}: the square numbered {k} on that tile in the picture"
    t, k = divmod(index, C.MAX_ROOMS)
    return f"{_tile_where(state, t)}; {_ordinal(k + 1)} room from the left"


def _tile_where(state, t: int) -> str:
    from ether_envs.aetherspire import components as C

    level = state.level[t]
    f = _foundation(state, t)
    place = f"level L{level} above foundation {f}" if level > 1 else f"level L1 on foundation {f}"
    return f"tile #{t} ({C.TILES[t].name}) at {place}" if f is not None else f"tile #{t} ({C.TILES[t].name})"


def _foundation(state, t: int) -> int | None:
    from ether_envs.aetherspire import components as C

    seen = 0
    while seen < 64:
        b = state.base_of[t]
        if b <= -2:
            return -2 - b
        if b < 0:
            return None
        t = b // C.MAX_ROOMS
        seen += 1
    return None


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def move_label(state, action: int, name: str) -> str:
    """The move's button label: ``name`` written by :func:`readable`; an Aetherspire space
    names the number the picture writes under its square and where its tile is
    (``SPACE(tile #30, space 4: air large, L1 on foundation 2)``), a room counts from the
    left (``ROOM(tile #30, 2nd room from the left: air large, L1 on foundation 2)``)."""
    game_name = state.game.spec.name
    block, index = state.game.codec.decode(int(action))
    if game_name == "aetherspire" and block in ("SPACE", "ROOM"):
        from ether_envs.aetherspire import components as C

        if block == "SPACE":
            t, k = divmod(index, C.MAX_SPACES)
            which = f"space {k}"
        else:
            t, k = divmod(index, C.MAX_ROOMS)
            which = f"{_ordinal(k + 1)} room from the left"
        level, f = state.level[t], _foundation(state, t)
        at = ""
        if f is not None:
            at = f", L{level} above foundation {f}" if level > 1 else f", L1 on foundation {f}"
        return f"{block}(tile #{t}, {which}: {C.TILES[t].name}{at})"
    return readable(game_name, name)


# ---- the view and the replay frame ----------------------------------------------------------------
def annotate_view(view: dict[str, Any], state, seat: int) -> dict[str, Any]:
    """Add to a seat's view (``PlaySession.view``) what the page explains: ``decision`` (what
    the player to move decides, :func:`decision`), ``readable_private`` (the seat's private
    text by :func:`readable`), ``notes`` (the effects of what its private text names, then
    of what the rest of its text names, :func:`notes`), each
    move's ``label`` and ``help`` (:func:`move_label`, :func:`move_help`) and each log entry's
    ``label``. Reads only the view, the seat's own moves and public state; returns ``view``."""
    name = state.game.spec.name
    view["decision"] = decision(state)
    view["readable_private"] = readable(name, view.get("private") or "")
    view["notes"] = _notes_of(name, view.get("private") or "", view.get("text") or "")
    view["moves"] = [dict(m, label=move_label(state, m["action"], m["name"]),
                          help=move_help(state, m["action"], m["name"])) for m in view.get("moves", [])]
    view["log"] = [dict(e, label=_located(state, readable(name, e["move"]))) for e in view.get("log", [])]
    return view


def _located(state, text: str) -> str:
    """Aetherspire: ``SPACE(#30 air large, space 4)`` in a logged move said as its button
    said it (:func:`move_label`): a floor tile never moves once built, so where it is now is
    where it was."""
    if state.game.spec.name != "aetherspire":
        return text
    from ether_envs.aetherspire import components as C

    def one(m: re.Match) -> str:
        t, k = int(m.group(1)), int(m.group(3))
        if not (0 <= t < C.NUM_TILES and 0 <= k < C.MAX_SPACES) or state.base_of[t] == -1:
            return m.group(0)
        return move_label(state, state.game.codec.encode("SPACE", t * C.MAX_SPACES + k), m.group(0))

    return re.sub(r"SPACE\(#(\d+) ([^,()]+(?:\([^)]*\))?), space (\d+)\)", one, text)


def _notes_of(game_name: str, private: str, text: str) -> list[list[str]]:
    """The notes of what the seat holds (``private``), then of the rest its text names (the
    public board: Artefacts held, an Event, the Mercenaries)."""
    mine = notes(game_name, private)
    seen = {n for n, _ in mine}
    return mine + [note for note in notes(game_name, text) if note[0] not in seen]


def annotate_frame(frame: dict[str, Any], state) -> dict[str, Any]:
    """Add ``decision``, ``readable_private`` and ``notes`` to a replay position's frame
    (``ReplaySession.frame``); returns ``frame``."""
    name = state.game.spec.name
    frame["decision"] = decision(state)
    frame["readable_private"] = readable(name, frame.get("private") or "")
    frame["notes"] = _notes_of(name, frame.get("private") or "", frame.get("text") or "")
    return frame


def annotate_summary(summary: dict[str, Any]) -> dict[str, Any]:
    """Add each move's ``label`` (:func:`readable`) to a replay's summary; returns it."""
    summary["moves"] = [dict(m, label=readable(summary["game"], m["name"])) for m in summary.get("moves", [])]
    return summary
