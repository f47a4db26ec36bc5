"""The special rules and errata the scenario editor offers (issue 67, _scenario_readings.html): rendered by the
server from the draft, only those of the scenario's period and each side's nationality shown; a change to the
period or a nationality answered with them again (swapped in place), any other change without them."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.app.test_scenario_drafts import POST, fields
from tests.csrf import form


def offered(text: str, side: str) -> list[str]:
    """The special rules shown (not hidden) for a side."""
    return re.findall(
        rf'<label class="toggle scn-toggle" title="[^"]*" ><input [^>]*value="([^"]+)" [^>]*data-special-side="{side}"',
        text,
    )


def errata_shown(text: str) -> set[str]:
    return set(
        re.findall(
            r'<fieldset class="field field-enum" ><legend>[^<]*</legend><div class="chips">\s*<label class="chip" title="[^"]*"><input type="radio" name="erratum-([^"]+)"',
            text,
        )
    )


def test_the_rules_and_readings_offered_follow_the_period_and_the_nationalities(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    page = c.get("/scenarios/mons-1914/edit").text
    assert offered(page, "defender") == ["long-range-marksmanship", "mad-minute"]  # British, 1914
    assert offered(page, "attacker") == ["prussian-discipline"]
    shown = errata_shown(page)
    assert "artillery-line-of-sight-early" in shown and "artillery-action-mid" not in shown
    # The period and the defender's nationality changed: both offered again, swapped in place.
    changed = c.post(POST, data=form(c, fields(forces_period="mid", defender_force_nation="french")))
    assert changed.status_code == 200 and 'id="scn-special-rules" hx-swap-oob="true"' in changed.text
    assert offered(changed.text, "defender") == ["elan", "stubborn-resistance", "mutiny"]
    assert "artillery-action-mid" in errata_shown(changed.text)
    # Another change (the title): the rules as they were, not sent again.
    titled = c.post(
        POST, data=form(c, fields(title="A raid", forces_period="mid", defender_force_nation="french"))
    )
    assert titled.status_code == 200 and "scn-special-rules" not in titled.text
