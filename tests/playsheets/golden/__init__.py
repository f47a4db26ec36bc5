"""The period sheets, and the other sheets the Print menu offers outside a game (VIEWS, issue 58: each one's
print view is what a laptop without the PDF engine prints), as WeasyPrint prints them, kept as golden files:
each sheet's page count and the words it prints (sheets.json). tests/playsheets/test_sheet_golden.py holds them to WeasyPrint's render, and
tests/frontend/test_print_view.py holds Chromium's print of the print view to them, so the browser tier
renders no PDF of its own.

When a sheet changes on purpose, write the file again and read the change in its diff:

    .venv/bin/python -m tests.playsheets.golden
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playsheets import render
from playsheets.render import PAPERS

GOLDEN = Path(__file__).with_name("sheets.json")
PERIODS = ("early", "mid", "late")
SHEETS = [(period, paper) for period in PERIODS for paper in sorted(PAPERS)]


def _mons() -> dict[str, Any]:
    from rules.registry import get_game_rules

    return dict(get_game_rules("flanders-fields").book.scenarios["mons-1914"])


def _ruleset_pdf(ruleset: str, paper: str) -> bytes:
    from tests.playsheets.pdf import ruleset_pdf

    return ruleset_pdf(ruleset, paper)


# Each sheet's print view (its address on the server) and its PDF as the server renders it.
VIEWS: dict[str, tuple[str, Callable[[], bytes]]] = {
    "template-kit-a4": ("/playsheets/template-kit?paper=a4", lambda: render.template_kit_pdf("a4")),
    "template-kit-letter": (
        "/playsheets/template-kit?paper=letter",
        lambda: render.template_kit_pdf("letter"),
    ),
    "fire-plan-attacker-a4": (
        "/playsheets/fire-plan/attacker?paper=a4",
        lambda: render.html_to_pdf(render.fire_plan_form_html("attacker", "a4")),
    ),
    "aiming-points-letter": (
        "/playsheets/aiming-points?paper=letter",
        lambda: render.html_to_pdf(render.aiming_cards_html(None, "letter")),
    ),
    "2mm-earth-1418-a4": (
        "/playsheets/rulesets/2mm-earth-1418?paper=a4",
        # render.ruleset_sheet_pdf's steps, its render kept for the process: test_ruleset_sheet reads the same.
        lambda: _ruleset_pdf("2mm-earth-1418", "a4"),
    ),
    "mons-1914-letter": (
        "/api/v1/scenarios/mons-1914/sheet?paper=letter",
        lambda: render.scenario_sheet_pdf(_mons(), "letter"),
    ),
}


def words(text: str) -> list[str]:
    """A PDF's words (pdftotext -raw), sorted, once each: table values and labels. Hyphens and slashes are where
    either renderer may break a line, so they separate words ("mule/horse" may print as "mule/" + "horse")."""
    return sorted(set(re.findall(r"\w+", text)))


def printed(pdf: bytes) -> dict[str, Any]:
    """What the golden file keeps of a sheet's PDF: its pages and its words."""
    from tests.playsheets.pdf import page_count, text

    return {"pages": page_count(pdf), "words": words(text(pdf, layout=False))}


def load() -> dict[str, dict[str, Any]]:
    """The golden sheets by "period-paper"."""
    found: dict[str, dict[str, Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return found


def write() -> None:
    from tests.playsheets.pdf import sheet_pdf

    sheets = {f"{period}-{paper}": printed(sheet_pdf(period, paper)) for period, paper in SHEETS}
    sheets |= {name: printed(make()) for name, (_, make) in VIEWS.items()}
    GOLDEN.write_text(json.dumps(sheets, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
