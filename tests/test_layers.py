"""The layers, lowest first: ``ether_envs`` (the games and envs), ``agents``, ``webapp`` (the
browser app of ``ether-envs serve``), ``training``. A layer imports nothing from a higher
one (``training`` may import ``webapp``: its command line wires ``ether-envs serve``),
anywhere in a module: at the top, in a function, under ``if`` or ``try``, absolute or
relative, or through ``importlib.import_module`` with a literal name. (``ether_envs`` finds
the agent specs of ``SingleAgentEnv(opponents=...)`` through an entry point, not an import.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"ether_envs": ("agents", "webapp", "training"), "agents": ("webapp", "training"),
             "webapp": ("training",)}


def imported_modules(path: Path, root: Path) -> list[str]:
    """Every module name that ``path`` (a module under ``root``) imports, relative imports
    resolved to absolute names (``from .. import x`` counts as importing ``<package>.x``)."""
    package = list(path.relative_to(root).with_suffix("").parts[:-1])  # the module's package
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            # ``from pkg import name`` may import the submodule ``pkg.name``
            out += [f"{module}.{alias.name}" if module else alias.name for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            out.append(node.args[0].value)
    return out


def forbidden_imports(package: str, root: Path = ROOT) -> list[str]:
    bad = []
    for path in sorted((root / package).rglob("*.py")):
        for name in imported_modules(path, root):
            if name.split(".")[0] in FORBIDDEN[package]:
                bad.append(f"{path.relative_to(root)} imports {name}")
    return bad


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_lower_layers_import_nothing_from_higher_ones(package):
    assert len(list((ROOT / package).rglob("*.py"))) > 3
    assert forbidden_imports(package) == [], f"{package} must import nothing from {', '.join(FORBIDDEN[package])}"


def test_the_check_sees_function_level_relative_and_dynamic_imports(tmp_path):
    path = tmp_path / "ether_envs" / "sub" / "probe.py"
    path.parent.mkdir(parents=True)
    path.write_text("import numpy\n"
                    "def f():\n    from agents import make_agent\n"
                    "def g():\n    try:\n        import training.evaluate\n    except ImportError:\n        pass\n"
                    "from ... import agents\n"
                    "from .. import core\n"
                    "import importlib\nimportlib.import_module('agents.plugin')\n")
    assert sorted(imported_modules(path, tmp_path)) == sorted(
        ["numpy", "agents.make_agent", "training.evaluate", "agents", "ether_envs.core", "importlib", "agents.plugin"])
    assert sorted(forbidden_imports("ether_envs", tmp_path)) == sorted(
        f"{Path('ether_envs/sub/probe.py')} imports {name}"
        for name in ["agents.make_agent", "training.evaluate", "agents", "agents.plugin"])
