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
