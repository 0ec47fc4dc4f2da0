"""MkDocs hooks of the ether-envs site (``mkdocs.yml``: ``hooks: [docs/hooks.py]``).

Nothing on the site is a second, hand-kept copy of something the code or the repository already
says. The hooks bring the repository's own files in and write the generated parts:

* ``on_files`` adds, without copying them into ``docs/``:

  * the notebooks (``notebooks/*.ipynb``): mkdocs-jupyter renders them with their committed
    outputs, and runs none of them; the pictures (``notebooks/images/*.png``) and learning curves
    (``notebooks/curves/**/*.png``). Each keeps its repository path on the site, so the README's
    relative links work there too;
  * each game's ``ether_envs/<game>/RULES.md`` as ``games/<game>-rules.md``, and ``CHANGELOG.md`` and
    ``CONTRIBUTING.md`` as ``changelog.md`` and ``contributing.md``. Their links to files of the
    repository that are not pages become code spans (the site has no copy of the source tree).

* ``on_page_markdown`` replaces each directive ``<!-- gen:KIND GAME -->`` on a page with:

  ========== ==========================================================================================
  KIND       what it writes, and from where
  ========== ==========================================================================================
  header     the PettingZoo-style table: import line, env ids and version, players, action space,
             observation shape, information, agents (``Game.spec``, ``ether_envs.docs``,
             ``agents.pretrained``)
  actions    the action blocks (``game.codec.table_markdown()``, as ``python -m ether_envs.docs``)
  observation the observation slices (``game.layout.table_markdown()``, the same source)
  versions   the game's entry of ``CHANGELOG.md``
  results    the game's anchored ladders, reference rows and exploitability results
             (``training.report``, from the committed result files)
  ========== ==========================================================================================

A directive with an unknown KIND or game stops the build with the directive's text.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DIRECTIVE = re.compile(r"<!-- gen:(\w+) (\w+) -->")
ROOT_PAGES = {"CHANGELOG.md": "changelog.md", "CONTRIBUTING.md": "contributing.md"}
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


def _games() -> list[str]:
    import ether_envs

    return ether_envs.list_games()


# ---- files ---------------------------------------------------------------------------------------
def _page_for(repo_path: str) -> str | None:
    """The site page (docs-relative) that stands for a repository file, if there is one."""
    repo_path = repo_path.lstrip("./")
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


@event_priority(100)  # before mkdocs-jupyter's on_files, so that it renders the notebooks added here
def on_files(files: Files, config) -> Files:
    notebooks = ROOT / "notebooks"
    for path in [*sorted(notebooks.glob("*.ipynb")), *sorted((notebooks / "images").glob("*.png")),
                 *sorted((notebooks / "curves").rglob("*.png"))]:
        files.append(_repo_file(path.relative_to(ROOT).as_posix(), config))
    for game in _games():
        text = (ROOT / "ether_envs" / game / "RULES.md").read_text().replace("][", "]\\[")  # [E][E]: not a reference link
        files.append(File.generated(config, f"games/{game}-rules.md",
                                    content=rewrite_links(text, f"ether_envs/{game}", "games")))
    for src, page in ROOT_PAGES.items():
        files.append(File.generated(config, page, content=rewrite_links((ROOT / src).read_text(), "", "")))
    return files


# ---- generated parts of a page -------------------------------------------------------------------
def header(game_name: str) -> str:
    """The header table of a game page (PettingZoo's environment pages have the same one)."""
    import ether_envs
    from agents.pretrained import shipped_weights, trained_player_counts, weights_zoo
    from agents.pretrained import MLPPolicy

    game = ether_envs.load_game(game_name)
    spec = game.spec
    n, size = game.num_distinct_actions(), game.observation_size()
    newest = shipped_weights()[game_name]
    meta = MLPPolicy.load(newest).metadata
    counts = ", ".join(str(c) for c in trained_player_counts(meta))
    utility = {"zero_sum": "competitive", "identical": "co-operative", "general": "competitive or co-operative"}
    rows = [
        ("Import", f'`ether_envs.make("{game_name}")` (AEC), `ether_envs.load_game("{game_name}")` (rules engine)'),
        ("PettingZoo id", f"`ether/{game_name}-v{spec.version}`"),
        ("Gymnasium id (single-agent view)", f"`ether_envs/{game_name}-v{spec.version}`"),
        ("Players", f"{spec.min_players}–{spec.max_players} (default {game.num_players}); "
                    f"{utility.get(spec.utility, spec.utility)}"),
        ("Information", f"{spec.information}; chance: {spec.chance}"),
        ("Action space", f"`Discrete({n})`, with an `action_mask` (int8, ({n},)) in every observation"),
        ("Observation", f'`{{"observation": Box(0, 1, ({size},), float32), "action_mask": ({n},) int8}}`'),
        ("Agents", "`random`, `heuristic`, `mcts`, `az`, "
                   f"`pretrained` (zoo {weights_zoo(newest)}, trained at {counts} players), `pretrained:zoo=1`"),
    ]
    return "| | |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows)


def versions(game_name: str) -> str:
    """The game's entry of CHANGELOG.md (its heading dropped)."""
    text = (ROOT / "CHANGELOG.md").read_text()
    m = re.search(rf"^### `ether/{game_name}-v\d+`.*?\n(.*?)(?=^#)", text, re.S | re.M)
    if m is None:
        raise ValueError(f"CHANGELOG.md has no entry headed ### `ether/{game_name}-vN`")
    return rewrite_links(m.group(1).strip(), "", "games")


def results(game_name: str) -> str:
    from training import report

    parts = ["**Anchored ladders** (`ether-envs ladder`; ratings are Elo with random = 0):",
             report.ladders_table(game=game_name)]
    rows = report.rows_tables(game=game_name)
    if rows.strip():
        parts += ["**Reference rows** (`ether-envs reference ALGO GAME`, protocol 1):", rows]
    exploit = report.exploit_table(game=game_name)
    if exploit.count("\n") > 1:
        parts += ["**Approximate exploitability** (`ether-envs exploit GAME SPEC`):", exploit]
    return "\n\n".join(parts)


def _generated(kind: str, game_name: str) -> str:
    from ether_envs import docs

    if kind == "header":
        return header(game_name)
    if kind in ("actions", "observation"):
        return docs.generated(game_name)[kind]
    if kind == "versions":
        return versions(game_name)
    if kind == "results":
        return results(game_name)
    raise ValueError(f"unknown kind {kind!r}")


def on_page_markdown(markdown: str, page, config, files) -> str:
    def one(m: re.Match) -> str:
        kind, game_name = m.group(1), m.group(2)
        if game_name not in _games():
            raise ValueError(f"{page.file.src_uri}: {m.group(0)} names no game; games: {_games()}")
        try:
            return _generated(kind, game_name)
        except ValueError as e:
            raise ValueError(f"{page.file.src_uri}: {m.group(0)}: {e}") from e

    return DIRECTIVE.sub(one, markdown)
