"""docs/architecture.md stays true: every file or folder it names exists, and every service module it lists is
a module of app/services (and the other way round), so a move or a new concern shows up here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "architecture.md").read_text()


def test_every_path_the_doc_names_exists() -> None:
    paths = {p for p in re.findall(r"`([\w./-]+/[\w./-]*)`", DOC) if not p.startswith("/")}
    assert len(paths) > 20
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert missing == []


def test_the_doc_lists_every_service_module() -> None:
    section = DOC[DOC.index("## app/services/") : DOC.index("## app/routes/")]
    named = set(re.findall(r"`(\w+)`", section))
    modules = {p.stem for p in (ROOT / "app" / "services").glob("*.py") if p.stem != "__init__"}
    assert modules - named == set()
