"""`make run` installs what serving needs and no test tool (issue 28): the test tools come with the `test`
extra, which only `make test` installs. Checked on pyproject.toml, on the Makefile, and on the closure of the
serving requirements as this environment's installed packages declare them (a serving dependency that
pulled in pytest would show there); building a fresh environment here would take minutes."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
TEST_TOOLS = {
    "pytest",
    "pytest-xdist",
    "playwright",
    "hypothesis",
    "schemathesis",
    "ruff",
    "mypy",
    "import-linter",
}


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", Requirement(requirement).name).lower()


def _serving_closure() -> set[str]:
    """Every distribution the serving install brings, following each installed one's own requirements
    (markers evaluated for this interpreter, no extras but those a requirement names)."""
    seen: set[tuple[str, str]] = set()  # (distribution, extra)
    todo = [(Requirement(r), "") for r in PYPROJECT["project"]["dependencies"]]
    while todo:
        req, extra = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra}):
            continue
        name = _name(str(req))
        wanted = {(name, e) for e in ("", *req.extras)}
        if wanted <= seen:
            continue
        seen |= wanted
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue  # not installed for this platform: nothing further to follow
        for sub in requires:
            for e in ("", *req.extras):
                todo.append((Requirement(sub), e))
    return {name for name, _ in seen}


def test_the_serving_install_has_no_test_tool() -> None:
    serving = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    test = {_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["test"]}
    assert {"pytest", "playwright", "hypothesis", "schemathesis"} <= test
    assert not serving & TEST_TOOLS
    closure = _serving_closure()
    assert {"fastapi", "uvicorn", "segno", "cryptography"} <= closure
    assert not closure & TEST_TOOLS, sorted(closure & TEST_TOOLS)


def test_make_run_installs_without_extras_and_make_test_with_them() -> None:
    makefile = (ROOT / "Makefile").read_text()
    rules = dict(re.findall(r"^(\S+):[^\n]*\n((?:\t[^\n]*\n)+)", makefile, re.M))
    stamp_rule = rules["$(STAMP)"]
    assert re.search(r"pip install -q -e \.\s*$", stamp_rule, re.M), stamp_rule
    assert ".[test]" not in stamp_rule
    assert ".[test]" in rules["$(TEST_STAMP)"]
    prerequisites = dict(re.findall(r"^([a-z][\w-]*):\s*([^\n]*)$", makefile, re.M))
    assert prerequisites["run"] == "$(STAMP)" and prerequisites["club"] == "$(STAMP)"
    for target in ("lint", "types", "pytest"):
        assert prerequisites[target] == "$(TEST_STAMP)", target
