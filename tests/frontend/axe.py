"""axe-core in a page under test: the WCAG 2.2 AA violations of serious or critical impact (the project's bar)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

AXE_JS = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def serious_violations(page: Any) -> list[str]:
    """One line per serious or critical violation on the page as it is now: rule id, impact, the offending
    elements' selectors and axe's help text."""
    return _said(page, {"type": "tag", "values": WCAG_AA_TAGS}, ("serious", "critical"))


def _targets(nodes: list[dict[str, Any]], shown: int = 3) -> str:
    """The first few elements' selectors and how many more: one repeated control must not flood the report."""
    selectors = ", ".join(" ".join(n["target"]) for n in nodes[:shown])
    return selectors + (f" and {len(nodes) - shown} more" if len(nodes) > shown else "")


@cache
def _axe_source() -> str:
    return AXE_JS.read_text()


def rule_violations(page: Any, rules: list[str]) -> list[str]:
    """One line per violation of the named axe-core rules, whatever their impact or tag (best-practice rules
    such as `region` are of moderate impact, below serious_violations' bar)."""
    return _said(page, {"type": "rule", "values": rules}, None)


# A run that names no element: axe builds a CSS selector and the HTML of every element each check looks at (the
# violations' and the one kept of each other result: resultTypes), a fifth of a run's CPU on the referee board
# (renderer CPU, 0.6 s a run against 0.48 s without). Nothing is asserted of those; a run that finds a violation
# is run again with them, only to name its elements.
_UNNAMED = {"selectors": False, "noHtml": True}
_NAMED = {"selectors": True, "noHtml": False}


def _said(page: Any, only: dict[str, Any], impacts: tuple[str, ...] | None) -> list[str]:
    """The violations of axe's `only` (runOnly) of the given impacts (any, with None), one line each; each
    element named by its selector."""
    found = _violations(page, only, _UNNAMED, impacts)
    if not found:
        return []
    # The page as it was when the first run read it (a violation found is what the test reports): named where
    # the second run finds the same rules, else by rule alone.
    named = {v["id"]: v for v in _violations(page, only, _NAMED, impacts)}
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + (_targets(named[v["id"]]["nodes"]) if v["id"] in named else f"{len(v['nodes'])} elements")
        for v in found
    ]


def _violations(
    page: Any, only: dict[str, Any], options: dict[str, bool], impacts: tuple[str, ...] | None
) -> list[dict[str, Any]]:
    # resultTypes: axe still runs every check, but gathers the elements of its violations only (not of the
    # passes), which is most of its time on a big page such as the referee board. None where the page has no
    # axe yet (one call, not a look and a run).
    run = """([only, options]) => typeof window.axe === 'undefined' ? null
          : axe.run(document, {runOnly: only, resultTypes: ['violations'], ...options}).then(r => r.violations)"""
    violations: list[dict[str, Any]] | None = page.evaluate(run, [only, options])
    if violations is None:
        # Evaluated through the DevTools protocol: a <script> tag (add_script_tag) would be refused by the
        # page's Content-Security-Policy, which the test must leave as the app serves it.
        page.evaluate(_axe_source())
        violations = page.evaluate(run, [only, options])
    assert violations is not None
    return [v for v in violations if impacts is None or v["impact"] in impacts]
