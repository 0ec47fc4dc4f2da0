"""Every Python example in the docstrings of the API reference's modules runs, as written.

The API pages (``docs/api/*.md``) render the docstrings of the modules they name (``::: module``)
with mkdocstrings; an indented block in a docstring (after a blank line or a line ending in ``::``)
is shown as code. Each such block that is Python (it compiles) runs here on its own, in a fresh
namespace and a temporary working directory, so an example on the site can't rot. Shell commands
in docstrings (``ether-envs ...``, ``python -m ...``) do not compile as Python and are skipped.
"""

from __future__ import annotations

import importlib
import inspect
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def documented_modules() -> list[str]:
    """The modules the API pages render (``::: name`` lines of ``docs/api/*.md``)."""
    names: list[str] = []
    for page in sorted((ROOT / "docs" / "api").glob("*.md")):
        names += re.findall(r"^::: ([\w.]+)", page.read_text(), re.M)
    return names


def docstrings(module_name: str):
    """(qualified name, docstring) of the module and its public classes, functions and methods."""
    module = importlib.import_module(module_name)
    seen: set[int] = set()

    def walk(obj, qual):
        doc = obj.__doc__ if inspect.ismodule(obj) else inspect.getdoc(obj)
        if doc and id(obj) not in seen:
            seen.add(id(obj))
            yield qual, inspect.cleandoc(doc)
        members = vars(obj).items() if (inspect.ismodule(obj) or inspect.isclass(obj)) else ()
        for key, value in members:
            if key.startswith("_"):
                continue
            if isinstance(value, property):
                value = value.fget
            if inspect.ismodule(obj) and not ((inspect.isclass(value) or inspect.isfunction(value))
                                              and getattr(value, "__module__", None) == obj.__name__):
                continue
            if inspect.isclass(obj) and not inspect.isfunction(value):
                continue
            yield from walk(value, f"{qual}.{key}")

    yield from walk(module, module_name)


def code_blocks(doc: str) -> list[str]:
    """The indented blocks of a (cleaned) docstring that start after a blank line or a ``::`` line."""
    lines, blocks, i = doc.split("\n"), [], 0
    while i < len(lines):
        if lines[i].startswith("    ") and (i == 0 or not lines[i - 1].strip() or lines[i - 1].rstrip().endswith("::")):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            blocks.append(textwrap.dedent("\n".join(lines[i:j])).strip("\n"))
            i = j
        else:
            i += 1
    return blocks


def python_examples() -> list[tuple[str, str]]:
    examples = []
    for name in documented_modules():
        for qual, doc in docstrings(name):
            for block in code_blocks(doc):
                try:
                    compile(block, qual, "exec")
                except SyntaxError:
                    continue  # a shell command or prose, not Python
                examples.append((qual, block))
    return examples


EXAMPLES = python_examples()


def test_the_api_reference_has_examples() -> None:
    assert len(EXAMPLES) >= 8, [q for q, _ in EXAMPLES]


@pytest.mark.parametrize("qual, block", EXAMPLES, ids=[f"{q}-{i}" for i, (q, _) in enumerate(EXAMPLES)])
def test_docstring_example_runs(qual: str, block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(block, f"<docstring of {qual}>", "exec"), {"__name__": "__docstring_example__"})
