"""Every Python example of the README and the documentation site runs, as written (mktestdocs).

Each ```` ```python ```` block of ``README.md``, ``CONTRIBUTING.md`` and ``docs/**/*.md`` is
executed, the blocks of one page in order and in one namespace (a later block may use what an
earlier one made), in a fresh temporary working directory (examples that write files write them
there). A block that is not meant to run is not Python: shell commands are ```` ```bash ````,
output is ```` ```text ````. The examples are sized to run in seconds; a page's blocks together
must finish inside the suite's timeout.
"""

from __future__ import annotations

from pathlib import Path

import pytest

mktestdocs = pytest.importorskip("mktestdocs", reason="mktestdocs is in the dev extra (pip install -e '.[dev]')")

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]


def python_blocks(path: Path) -> list[str]:
    """The Python blocks of one Markdown file, as mktestdocs finds them."""
    return mktestdocs.grab_code_blocks(path.read_text(), lang="python")


@pytest.mark.parametrize("path", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_python_block_runs(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not python_blocks(path):
        pytest.skip(f"{path.name} has no Python block")
    monkeypatch.chdir(tmp_path)
    mktestdocs.check_md_file(path, memory=True)


def test_the_readme_and_the_site_have_python_examples() -> None:
    """The pages that teach the API show it in code that runs (not only in prose)."""
    assert python_blocks(ROOT / "README.md"), "the README's quick start has no Python block"
    assert python_blocks(ROOT / "docs" / "quickstart.md"), "docs/quickstart.md has no Python block"


def test_the_readme_is_a_landing_page() -> None:
    """The README stays a landing page (at most 200 lines); the detail lives on the site's pages."""
    lines = (ROOT / "README.md").read_text().count("\n")
    assert lines <= 200, f"README.md has {lines} lines; move detail to a page of docs/ and link it (at most 200)"
