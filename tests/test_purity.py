"""rules/ is the pure core: it may not import the service, the playsheets, the database, the web, or do I/O.
(`make lint` also checks the layers with import-linter: the contracts in pyproject.toml.)"""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[1] / "rules"
FORBIDDEN = {
    "app",
    "playsheets",
    "fastapi",
    "starlette",
    "sqlmodel",
    "sqlalchemy",
    "alembic",
    "httpx",
    "requests",
    "socket",
    "subprocess",
    "uvicorn",
    "time",
    "datetime",
}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_rules_import_nothing_from_app_or_io() -> None:
    files = sorted(RULES.rglob("*.py"))
    assert files, "rules/ has no Python files"
    bad = {str(p.relative_to(RULES)): sorted(_imports(p) & FORBIDDEN) for p in files}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_check_catches_an_app_import(tmp_path: Path) -> None:
    p = tmp_path / "x.py"
    p.write_text("from app.main import app\nimport fastapi\n")
    assert _imports(p) & FORBIDDEN == {"app", "fastapi"}


def _module(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _rules_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of rules/ a file imports, type-checking and function-local imports included (a name
    imported from a package that is a module of its own counts as that module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {f"{node.module}.{a.name}" for a in node.names} & modules or {node.module}
    return found & modules


def import_circles(root: Path) -> list[list[str]]:
    """Each import circle among the modules of the package at `root`, as the modules around it (one per circle
    a depth-first walk finds)."""
    files = {_module(p, root): p for p in sorted(root.rglob("*.py"))}
    graph = {m: sorted(_rules_imports(p, set(files)) - {m}) for m, p in files.items()}
    circles: list[list[str]] = []
    done: set[str] = set()

    def walk(m: str, path: list[str]) -> None:
        for n in graph[m]:
            if n in path:
                circles.append(path[path.index(n) :])
            elif n not in done:
                walk(n, [*path, n])
        done.add(m)

    for m in sorted(graph):
        if m not in done:
            walk(m, [m])
    return circles


def test_rules_have_no_import_circle() -> None:
    assert import_circles(RULES) == []


def test_the_check_catches_a_type_checking_circle(tmp_path: Path) -> None:
    root = tmp_path / "rules"
    (root / "core").mkdir(parents=True)
    (root / "core" / "a.py").write_text("from rules.core.b import B\n")
    (root / "core" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rules.core import a\n"
    )
    assert import_circles(root) == [["rules.core.a", "rules.core.b"]]
