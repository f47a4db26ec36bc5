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
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol: a <script> tag (add_script_tag) would be refused by the
        # page's Content-Security-Policy, which the test must leave as the app serves it.
        page.evaluate(_axe_source())
    # resultTypes: axe still runs every check, but gathers the elements of its violations only (not of the
    # passes), which is most of its time on a big page such as the referee board.
    violations: list[dict[str, Any]] = page.evaluate(
        """(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
          .then(r => r.violations)""",
        WCAG_AA_TAGS,
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {_targets(v['nodes'])}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


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
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(_axe_source())
    violations: list[dict[str, Any]] = page.evaluate(
        """(rules) => axe.run(document, {runOnly: {type: 'rule', values: rules}, resultTypes: ['violations']})
          .then(r => r.violations)""",
        rules,
    )
    return [f"{v['id']} ({v['impact']}): {v['help']} at {_targets(v['nodes'])}" for v in violations]
