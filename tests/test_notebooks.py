"""The notebooks run (executed with nbclient, as CI does) and are committed with their outputs.

Each notebook keeps its own budget small (a few seconds); together they run well
under a minute. Equivalent: ``PYTHONPATH=$PWD pytest --nbmake notebooks/``.
"""

import os
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    names = [p.name for p in NOTEBOOKS]
    assert "01_quickstart.ipynb" in names and "05_speed.ipynb" in names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_committed_with_outputs_and_no_errors(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.execution_count for c in code), f"{path.name}: execute it before committing"
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{path.name} was committed with an error: {errors[0].get('ename')}"


NEEDS = {"07_openspiel": "pyspiel"}
"""Notebooks that need an optional extra's module (07: the openspiel extra, which has no wheel for Python 3.10)."""


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch):
    if path.stem in NEEDS and sys.version_info < (3, 11):
        pytest.importorskip(NEEDS[path.stem], reason=f"{path.name} needs {NEEDS[path.stem]} (the openspiel extra: "
                                                     "no open_spiel wheel for Python 3.10)")
    # the kernel must import this checkout's ether_envs, installed or not
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    # jupyter_client picks free TCP ports and the kernel binds them a moment later; under pytest -n 2
    # another worker can take one in between, and the kernel dies at start ("Address already in use",
    # "Kernel died before replying to kernel_info"). Only that start is retried, never a cell's failure.
    for attempt in range(3):
        nb = nbformat.read(path, as_version=4)
        client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                         resources={"metadata": {"path": str(path.parent)}})
        try:
            client.execute()  # raises CellExecutionError naming the failing cell
            return
        except RuntimeError as e:
            if "Kernel died before replying to kernel_info" not in str(e) or attempt == 2:
                raise


@pytest.mark.parametrize("game", __import__("ether_envs").list_games())
def test_every_game_has_a_walkthrough_notebook(game):
    found = [p for p in NOTEBOOKS if p.stem.split("_", 1)[-1] == game]
    if not found:
        pytest.skip(f"no walkthrough notebook for {game} yet (notebooks/02_{game}.ipynb, see notebooks/README.md)")
    nb = nbformat.read(found[0], as_version=4)
    text = "".join(c.source for c in nb.cells)
    assert "render_rgb" in text or "rgb_array" in text, "a walkthrough shows pictures of the game"
    assert "table_markdown" in text, "a walkthrough shows the observation and action tables"
