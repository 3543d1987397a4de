"""The architecture holds: the layers of DESIGN.md, and no loops inside a package.

``lint-imports`` checks the contracts in ``pyproject.toml`` (``[tool.importlinter]``):
dependencies point down (cli → app → api → runtime → store | games → engine → config);
the games import the engine contract only (no web, database, clock or randomness of their
own) and never each other; the engine knows no web, database or network; no package's
modules import each other in a loop, function-level and ``TYPE_CHECKING`` imports included;
inside the runtime nothing imports upward (the hub, the loader, the live match, what
the match owns, what they share, the leaves); and Rival Restaurants is a one-way stack
(the game, the views, the expansion, the phases, what they share, the primitives, the
moment bus, the data).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")

# Where an import inside a function is the point: a command imports only what it runs (so
# `potluck migrate` starts without the web stack), and Redis is imported only when used.
LAZY_ON_PURPOSE = {"server/cli.py", "server/runtime/fanout.py"}


@pytest.mark.skipif(not LINT.exists(), reason="import-linter is not installed (pip install -e '.[dev]')")
def test_import_contracts_are_kept() -> None:
    done = subprocess.run([str(LINT), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def function_level_imports(path: Path) -> list[str]:
    """``name:line import …`` for every import statement inside a function of ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [f"{node.name}:{inner.lineno} {ast.unparse(inner)}" for inner in ast.walk(node)
                      if isinstance(inner, (ast.Import, ast.ImportFrom))]
    return found


def test_no_import_inside_a_function() -> None:
    """An import inside a function hides a dependency from the reader and from the layer
    contracts' order; a cycle it papers over is a module with two jobs."""
    found = {}
    for path in sorted((ROOT / "server").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name not in LAZY_ON_PURPOSE and (imports := function_level_imports(path)):
            found[name] = imports
    assert not found, found
