"""MkDocs hooks of the ether-envs site (``mkdocs.yml``: ``hooks: [docs/hooks.py]``).

Nothing on the site is a second, hand-kept copy of something the code or the repository already
says. The hooks bring the repository's own files in and write the generated parts:

* ``on_files`` adds, without copying them into ``docs/``:

  * the notebooks (``notebooks/*.ipynb``): mkdocs-jupyter renders them with their committed
    outputs (animated GIF outputs given an HTML form: :func:`site_notebook`), and runs none of them; the pictures (``notebooks/images/*.png``) and learning curves
    (``notebooks/curves/**/*.png``). Each keeps its repository path on the site, so the README's
    relative links work there too;
  * each game's ``ether_envs/<game>/RULES.md`` as ``games/<game>-rules.md``; ``README.md`` as the
    home page ``index.md`` (the landing page is one text, on GitHub and on the site); ``CHANGELOG.md``
    and ``CONTRIBUTING.md`` as ``changelog.md`` and ``contributing.md``. Their links to files of the
    repository that are not pages become code spans (the site has no copy of the source tree).

* ``on_page_markdown`` replaces each directive ``<!-- gen:KIND GAME -->`` on a page with:

  =========== =========================================================================================
  KIND        what it writes, and from where
  =========== =========================================================================================
  header      the PettingZoo-style table: import line, env ids and version, players, kind
              (competitive or co-operative), information, chance, action space, observation shape,
              agents (``Game.spec``, the game at its default configuration, ``agents.pretrained``)
  actions     the action blocks (``game.codec.table_markdown()``, as ``python -m ether_envs.docs``)
  observation the observation slices (``game.layout.table_markdown()``, the same source)
  config      the keyword arguments of ``make``/``load_game``: the game's ``Config`` dataclass
              (fields, defaults, its docstring's ``Attributes``), then the env options
              (``BoardGameEnv``'s ``Args``, with the game's render modes)
  versions    the game's entry of ``CHANGELOG.md``
  results     the game's anchored ladders (with each stored ladder's date and command), reference
              rows and exploitability results, each named by its result file (``training.report``,
              from the committed result files)
  =========== =========================================================================================

  and ``<!-- gen:games all -->`` with the games table (one row per registered game: title, name,
  players, kind, information, PettingZoo env id, sizes, picture, page), links relative to the page.

  Kind and information are those of the default configuration, followed by each option that
  changes them: every configuration that changes one option of the default (a bool flipped, a
  str option set to another value of the rules module's tuple of allowed values) is built and
  asked ``utility()`` and ``has_hidden_information()``, so that, for example, Aethermon: Collect
  reads "perfect by default; imperfect with ``hidden_artefacts=True``".

* ``on_page_content`` mends the HTML that Markdown never saw:

  * the docstrings' Sphinx roles (``:class:`ether_envs.wrappers.SingleAgentEnv```, rendered by
    mkdocstrings as text): a role on a dotted name becomes a cross-reference to that object's API
    entry when it has one (mkdocs-autorefs, ``optional``: plain code where it has none), and the
    role's prefix is dropped everywhere;
  * the links of the notebooks' Markdown cells (relative to ``notebooks/`` in the repository): a
    link to a file that has a page points to the page, a link to any other file of the repository
    becomes its text.

A directive with an unknown KIND or game (or a site-wide KIND without ``all``), or a ``Config`` field
without an ``Attributes`` entry, stops the build with the directive's text.
"""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path
from typing import Any, Callable

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DIRECTIVE = re.compile(r"<!-- gen:(\w+) (\w+) -->")
ROOT_PAGES = {"README.md": "index.md", "CHANGELOG.md": "changelog.md", "CONTRIBUTING.md": "contributing.md"}
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


def _games() -> list[str]:
    import ether_envs

    return ether_envs.list_games()


# ---- files ---------------------------------------------------------------------------------------
def _page_for(repo_path: str) -> str | None:
    """The site page (docs-relative) that stands for a repository file, if there is one."""
    repo_path = repo_path.removeprefix("./")
    if repo_path in ROOT_PAGES:
        return ROOT_PAGES[repo_path]
    m = re.fullmatch(r"ether_envs/(\w+)/RULES\.md", repo_path)
    if m:
        return f"games/{m.group(1)}-rules.md"
    if repo_path.startswith("docs/") and repo_path.endswith(".md"):
        return repo_path[len("docs/"):]
    if re.fullmatch(r"notebooks/(\w+\.ipynb|images/.*\.png|curves/.*\.png)", repo_path):
        return repo_path
    return None


def rewrite_links(text: str, repo_dir: str, page_dir: str) -> str:
    """``text`` (a Markdown file of the repository, in ``repo_dir``) with its relative links made
    right for a page in ``page_dir`` of the site: a link to a file that has a page points to the
    page; any other relative link becomes the file's path as a code span."""
    import posixpath

    def one(m: re.Match) -> str:
        label, target = m.group(1), m.group(2)
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            return m.group(0)
        path, _, anchor = target.partition("#")
        repo_path = posixpath.normpath(posixpath.join(repo_dir, path))
        page = _page_for(repo_path)
        if page is None:
            return label if label.startswith("`") else f"{label} (`{repo_path}`)"
        rel = posixpath.relpath(page, page_dir or ".")
        return f"[{label}]({rel}{'#' + anchor if anchor else ''})"

    return LINK.sub(one, text)


def _repo_file(path: str, config) -> File:
    """A file of the repository, served at the same path on the site (so that the README's relative
    links to it work on the site too)."""
    return File(path, src_dir=str(ROOT), dest_dir=config["site_dir"], use_directory_urls=config["use_directory_urls"])


SITE_NOTEBOOKS = ROOT / ".cache" / "site-notebooks"
"""Where :func:`site_notebook` writes the notebooks as the site renders them (ignored by git)."""


def site_notebook(path: Path) -> Path:
    """A copy of notebook ``path`` (under :data:`SITE_NOTEBOOKS`, same relative path) in which every
    ``image/gif`` output also has a ``text/html`` form, ``<img src="data:image/gif;base64,...">``:
    nbconvert's HTML shows no GIF, so the walkthroughs' replays would read
    ``<IPython.core.display.Image object>`` on the site. The committed notebook is not changed."""
    import json

    nb = json.loads(path.read_text())
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/gif" in data and "text/html" not in data:
                gif = data["image/gif"]
                gif = "".join(gif) if isinstance(gif, list) else gif
                data["text/html"] = f'<img src="data:image/gif;base64,{gif.strip()}" alt="animated replay">'
    out = SITE_NOTEBOOKS / path.relative_to(ROOT)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(nb, indent=1, ensure_ascii=False)
    if not out.exists() or out.read_text() != text:
        out.write_text(text)
    return out


@event_priority(100)  # before mkdocs-jupyter's on_files, so that it renders the notebooks added here
def on_files(files: Files, config) -> Files:
    notebooks = ROOT / "notebooks"
    for path in sorted(notebooks.glob("*.ipynb")):
        site_notebook(path)
        files.append(File(path.relative_to(ROOT).as_posix(), src_dir=str(SITE_NOTEBOOKS), dest_dir=config["site_dir"],
                          use_directory_urls=config["use_directory_urls"]))
    for path in [*sorted((notebooks / "images").glob("*.png")), *sorted((notebooks / "curves").rglob("*.png"))]:
        files.append(_repo_file(path.relative_to(ROOT).as_posix(), config))
    for game in _games():
        text = (ROOT / "ether_envs" / game / "RULES.md").read_text().replace("][", "]\\[")  # [E][E]: not a reference link
        files.append(File.generated(config, f"games/{game}-rules.md",
                                    content=rewrite_links(text, f"ether_envs/{game}", "games")))
    for src, page in ROOT_PAGES.items():
        files.append(File.generated(config, page, content=rewrite_links((ROOT / src).read_text(), "", "")))
    return files


# ---- facts about a game that depend on its configuration ----------------------------------------
UTILITY_WORDS = {"zero_sum": "competitive (zero-sum)", "identical": "co-operative", "general": "general-sum"}


def _config_class(game_name: str) -> type:
    """The game's configuration dataclass (``<game>.rules.Config``)."""
    import ether_envs

    return type(ether_envs.load_game(game_name).config)


def _option_values(game_name: str) -> list[tuple[str, object]]:
    """``(option, value)`` for every configuration that changes one option of the default: each
    bool option flipped, and each str option set to the other values of the tuple constant of the
    rules module that lists its allowed values (the constant that holds its default, or is named
    after it: ``MODES`` for ``mode``). Values the configuration refuses on their own (an option
    that needs another one) are left out."""
    import dataclasses

    import ether_envs

    cls = _config_class(game_name)
    module = sys.modules[cls.__module__]
    choices = {name: value for name, value in vars(module).items()
               if name.isupper() and isinstance(value, tuple) and value and all(isinstance(v, str) for v in value)}
    out = []
    for f in dataclasses.fields(cls):
        default = f.default
        if isinstance(default, bool):
            values = [not default]
        elif default is None or isinstance(default, str):
            values = [v for name, allowed in choices.items()
                      if default in allowed or name.startswith(f.name.upper()) for v in allowed if v != default]
        else:
            continue
        for value in dict.fromkeys(values):
            try:
                ether_envs.load_game(game_name, **{f.name: value})
            except ValueError:
                continue
            out.append((f.name, value))
    return out


def _described(game_name: str, fact: Callable[[Any], Any], words: Callable[[Any], str]) -> str:
    """``fact(game)`` at the default configuration, in ``words``, then each one-option change of
    the configuration (:func:`_option_values`) that changes it."""
    import ether_envs

    default = fact(ether_envs.load_game(game_name))
    text = words(default)
    changes: dict[object, list[str]] = {}
    for option, value in _option_values(game_name):
        other = fact(ether_envs.load_game(game_name, **{option: value}))
        if other != default:
            changes.setdefault(other, []).append(f"`{option}={value!r}`".replace("'", '"'))
    if not changes:
        return text
    return f"{text} by default; " + "; ".join(
        f"{words(other)} with {' or '.join(options)}" for other, options in changes.items())


@functools.cache
def kind(game_name: str) -> str:
    """Competitive or co-operative (``Game.utility()``), and the options that change it."""
    return _described(game_name, lambda game: game.utility(), lambda u: UTILITY_WORDS.get(u, u))


@functools.cache
def information(game_name: str) -> str:
    """Whether the game hides anything (``Game.has_hidden_information()``), and the options that
    change it."""
    return _described(game_name, lambda game: game.has_hidden_information(),
                      lambda hidden: "imperfect" if hidden else "perfect")


# ---- generated parts of a page -------------------------------------------------------------------
def header(game_name: str) -> str:
    """The header table of a game page (PettingZoo's environment pages have the same one)."""
    import ether_envs
    from agents.pretrained import MLPPolicy, shipped_weights, trained_player_counts, weights_zoo

    game = ether_envs.load_game(game_name)
    spec = game.spec
    n, size = game.num_distinct_actions(), game.observation_size()
    newest = shipped_weights()[game_name]
    meta = MLPPolicy.load(newest).metadata
    counts = ", ".join(str(c) for c in sorted(trained_player_counts(meta) or [meta["config"]["num_players"]]))
    chance = ("none" if spec.chance == "none"
              else f"{spec.chance}: drawn from the state's seeded `numpy.random.Generator` inside `apply_action`")
    rows = [
        ("Import", f'`ether_envs.make("{game_name}")` (AEC), `ether_envs.load_game("{game_name}")` (rules engine)'),
        ("PettingZoo id", f"`ether/{game_name}-v{spec.version}`"),
        ("Gymnasium id (single-agent view)", f"`ether_envs/{game_name}-v{spec.version}`"),
        ("Players", f"{spec.min_players}–{spec.max_players} (default {game.num_players}); {kind(game_name)}"),
        ("Information", information(game_name)),
        ("Chance", chance),
        ("Action space", f"`Discrete({n})`, with an `action_mask` (int8, ({n},)) in every observation"),
        ("Observation", f'`{{"observation": Box(0, 1, ({size},), float32), "action_mask": ({n},) int8}}`'),
        ("Agents", "`random`, `heuristic`, `mcts`, `az`, "
                   f"`pretrained` (zoo {weights_zoo(newest)}, trained at {counts} players), `pretrained:zoo=1`"),
    ]
    (k0, v0), rest = rows[0], rows[1:]  # the first row heads the table (a Markdown table needs a header)
    return f"| {k0} | {v0} |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rest)


def actions(game_name: str) -> str:
    """The action blocks, as ``python -m ether_envs.docs`` prints them (``game.codec.table_markdown()``)."""
    from ether_envs import docs

    return docs.generated(game_name)["actions"]


def observation(game_name: str) -> str:
    """The observation slices, as ``python -m ether_envs.docs`` prints them (``game.layout.table_markdown()``)."""
    from ether_envs import docs

    return docs.generated(game_name)["observation"]


def _docstring_entries(doc: str, section: str) -> dict[str, str]:
    """``ether_envs.docs.docstring_entries`` for a Markdown table: literals (````x````) made code
    spans, ``|`` escaped."""
    from ether_envs.docs import docstring_entries

    return {name: re.sub(r"``(.+?)``", r"`\1`", text).replace("|", "\\|")
            for name, text in docstring_entries(doc, section).items()}


def _default_cell(value: object) -> str:
    """A default value for a table cell: ``repr`` as a code span, a long tuple as its length and
    its items."""
    if isinstance(value, tuple) and len(value) > 3:
        return f"all {len(value)}: " + ", ".join(f"`{v}`" for v in value)
    return f"`{value!r}`".replace("'", '"')


def config_table(game_name: str) -> str:
    """The keyword arguments of ``make`` and ``load_game``: the fields of the game's ``Config``
    dataclass with their defaults and the text of its docstring's ``Attributes`` section, then
    the env options of every AEC env (``BoardGameEnv``'s ``Args``) with the render modes this
    game has."""
    import dataclasses
    import importlib
    import inspect

    import ether_envs
    from ether_envs.core.aec import BoardGameEnv

    cls = _config_class(game_name)
    meaning = _docstring_entries(inspect.getdoc(cls), "Attributes")
    lines = [f"**The game's configuration** (`{cls.__module__}.{cls.__qualname__}`; keyword arguments of "
             "both `ether_envs.make` and `ether_envs.load_game`):", "",
             "| Argument | Default | Meaning |", "|---|---|---|"]
    for f in dataclasses.fields(cls):
        if f.name not in meaning:
            raise ValueError(f"{cls.__qualname__}'s docstring has no Attributes entry for {f.name!r}")
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        lines.append(f"| `{f.name}` | {_default_cell(default)} | {meaning[f.name]} |")
    env_args = _docstring_entries(inspect.getdoc(BoardGameEnv), "Args")
    signature = inspect.signature(BoardGameEnv.__init__).parameters
    modes = importlib.import_module(ether_envs.GAMES[game_name] + ".env").raw_env.metadata["render_modes"]
    lines += ["", "**Env options** (keyword arguments of `ether_envs.make` only; the same for every game, "
              "`ether_envs.core.aec.BoardGameEnv`):", "",
              "| Argument | Default | Meaning |", "|---|---|---|"]
    for name in ("render_mode", "illegal_action", "max_steps"):
        text = env_args[name]
        if name == "render_mode":
            text += " This game: " + ", ".join(f'`"{m}"`' for m in modes) + "."
        lines.append(f"| `{name}` | {_default_cell(signature[name].default)} | {text} |")
    return "\n".join(lines)


def versions(game_name: str) -> str:
    """The game's entry of CHANGELOG.md (its heading dropped)."""
    text = (ROOT / "CHANGELOG.md").read_text()
    m = re.search(rf"^### `ether/{game_name}-v\d+`.*?\n(.*?)(?=^#)", text, re.S | re.M)
    if m is None:
        raise ValueError(f"CHANGELOG.md has no entry headed ### `ether/{game_name}-vN`")
    return rewrite_links(m.group(1).strip(), "", "games")


def results(game_name: str) -> str:
    """The game's anchored ladders (with each stored ladder's date and command), reference rows
    and approximate-exploitability results, from the committed result files (``training.report``);
    each exploitability row starts with its result file's name, since the same target spec
    (``pretrained``) names zoo 1 in the older files and zoo 2 in the newer ones."""
    import json

    from training import exploit, protocol, report
    from training.ladder import LADDER_DIR

    parts = ["**Anchored ladders** (`ether-envs ladder`; ratings are Elo with random = 0; "
             "for a co-operative game, each anchor's team win rate):", report.ladders_table(game=game_name)]
    stored = [json.loads((LADDER_DIR / b.ladder_file).read_text()) for b in protocol.CONFIGS.values()
              if b.game == game_name and (LADDER_DIR / b.ladder_file).exists()]
    if stored:
        parts.append("Stored: " + "; ".join(f"`{rec['benchmark']}` on {rec['date']} (`{rec['command']}`)"
                                             for rec in stored) + ".")
    rows = report.rows_tables(game=game_name)
    if rows.strip():
        parts += ["**Reference rows** (`ether-envs reference ALGO GAME`, protocol 1):", rows]
    files = sorted(p for p in report.EXPLOIT_DIR.glob("*.json") if json.loads(p.read_text())["game"] == game_name)
    if files:
        head, rule = exploit.markdown_header().split("\n")
        table = ["| result " + head, "|---" + rule]
        table += [f"| `{p.stem.removeprefix(game_name + '_')}` " + exploit.markdown_row(json.loads(p.read_text()))
                  for p in files]
        parts += ["**Approximate exploitability** (`ether-envs exploit GAME SPEC`; result: the file "
                  f"`notebooks/reference_results/exploit/{game_name}_<result>.json`):", "\n".join(table)]
    return "\n\n".join(parts)


def games_table(page_dir: str) -> str:
    """The games table of the site: one row per registered game, from ``Game.spec`` and the
    default configuration, with its picture and page (links relative to ``page_dir``)."""
    import posixpath

    import ether_envs

    def rel(path: str) -> str:
        return posixpath.relpath(path, page_dir or ".")

    lines = ["| | Game (name for `make`) | Players | Kind | Information | Env id | Actions, observation |",
             "|---|---|---|---|---|---|---|"]
    for name in ether_envs.list_games():
        game = ether_envs.load_game(name)
        spec = game.spec
        page = rel(f"games/{name}.md")
        picture = f"[![{spec.title}]({rel(f'notebooks/images/{name}.png')}){{ width=\"120\" }}]({page})"
        lines.append(
            f"| {picture} | [{spec.title}]({page}) (`{name}`) | {spec.min_players}–{spec.max_players} "
            f"(default {game.num_players}) | {kind(name)} | {information(name)} | `ether/{name}-v{spec.version}` "
            f"| `Discrete({game.num_distinct_actions()})`, ({game.observation_size()},) |")
    return "\n".join(lines)


PER_GAME = {
    "header": header,
    "actions": actions,
    "observation": observation,
    "config": config_table,
    "versions": versions,
    "results": results,
}
"""Directive kinds written for one game: ``<!-- gen:KIND GAME -->``."""

SITE_WIDE = {"games": games_table}
"""Directive kinds written for the whole site: ``<!-- gen:KIND all -->``; each takes the page's
folder (for relative links)."""


def _generated(kind_name: str, argument: str, page_dir: str) -> str:
    """The generated part of the directive ``<!-- gen:kind_name argument -->`` on a page in ``page_dir``.

    Raises:
        ValueError: an unknown kind, a game kind without a registered game, or a site-wide kind
            without ``all``.
    """
    if kind_name in SITE_WIDE:
        if argument != "all":
            raise ValueError(f"{kind_name!r} is written for the whole site: <!-- gen:{kind_name} all -->")
        return SITE_WIDE[kind_name](page_dir)
    if kind_name not in PER_GAME:
        raise ValueError(f"unknown kind {kind_name!r}; kinds: {[*PER_GAME, *SITE_WIDE]}")
    if argument not in _games():
        raise ValueError(f"names no game; games: {_games()}")
    return PER_GAME[kind_name](argument)


def on_page_markdown(markdown: str, page, config, files) -> str:
    """``markdown`` with each directive replaced by its generated part (see the module docstring)."""
    import posixpath

    page_dir = posixpath.dirname(page.file.src_uri)

    def one(m: re.Match) -> str:
        try:
            return _generated(m.group(1), m.group(2), page_dir)
        except ValueError as e:
            raise ValueError(f"{page.file.src_uri}: {m.group(0)}: {e}") from e

    return DIRECTIVE.sub(one, markdown)


# ---- HTML that Markdown never saw ------------------------------------------------------------------
ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj|const):<code>([^<]+)</code>")
ANCHOR = re.compile(r'<a ([^>]*?)href="([^"]+)"([^>]*)>(.*?)</a>', re.S)


def _role(m: re.Match) -> str:
    name = m.group(1).strip("~").removesuffix("()")
    code = f"<code>{m.group(1)}</code>"
    if re.fullmatch(r"(ether_envs|agents|training)(\.\w+)+", name):
        return f'<autoref optional identifier="{name}">{code}</autoref>'
    return code


def notebook_links(html: str, page_uri: str) -> str:
    """The links of a rendered notebook (``page_uri``, e.g. ``notebooks/02_ethnos.ipynb``) made right
    for the site: see the module docstring."""
    import posixpath

    page_dir = posixpath.dirname(page_uri)

    def one(m: re.Match) -> str:
        href = m.group(2)
        if re.match(r"^[a-z]+:", href) or href.startswith("#"):
            return m.group(0)
        path, _, anchor = href.partition("#")
        target = _page_for(posixpath.normpath(posixpath.join(page_dir, path)))
        if target is None:
            return m.group(4)
        url = posixpath.relpath(re.sub(r"\.(md|ipynb)$", ".html", target), page_dir)
        return f'<a {m.group(1)}href="{url}{"#" + anchor if anchor else ""}"{m.group(3)}>{m.group(4)}</a>'

    return ANCHOR.sub(one, html)


def on_page_content(html: str, page, config, files) -> str:
    html = ROLE.sub(_role, html)
    if page.file.src_uri.endswith(".ipynb"):
        html = notebook_links(html, page.file.src_uri)
    return html
