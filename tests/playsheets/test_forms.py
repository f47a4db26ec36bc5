"""Fire-plan forms, a side's fire plan (never the other side's), aiming-point cards, organisation sheet."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from playsheets import forms
from playsheets.render import (
    aiming_cards_html,
    fire_plan_form_html,
    fire_plan_html,
    html_to_pdf,
    letter_ref,
    organisation_html,
)
from rules.core.scenario import ForceUnit
from rules.registry import get_ruleset
from tests.playsheets import pdf


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_attacker_form_has_every_line_of_the_appendix_template() -> None:
    data = html_to_pdf(fire_plan_form_html("attacker", "a4"))
    pdf.save_artifacts(data, "fire-plan-form-attacker")
    assert pdf.page_count(data) == 1
    text = squash(pdf.text(data, layout=False))
    # ATTACKERS FIRE PLAN TEMPLATE: "Medium Mortar 1", "Medium Mortar 2", "Heavy Mortar 1",
    # "Superimposed Artillery Battery 1..3 initial aiming point", "Gas Attack Initial arrival point",
    # "Wind Direction", "Wind Speed", "Air Assets Number of Ground attack missions".
    for line in (
        "Medium Mortar 1",
        "Medium Mortar 2",
        "Heavy Mortar 1",
        "Superimposed Artillery Battery 1",
        "Superimposed Artillery Battery 2",
        "Superimposed Artillery Battery 3",
        "Gas Attack Initial arrival point",
        "Wind Direction",
        "Wind Speed",
        "Number of Ground attack missions",
        "Rolling Barrage Special Orders",
    ):
        assert line in text, line
    # The duration prints as the engine's erratum reads it: main text "four plus D3 turns" by default.
    assert (
        f"= {get_ruleset('flanders-fields').errata['barrage-duration'].reading('main-text').value} + D3"
        in text
    )
    assert "= 4 + D3" in text


def test_barrage_duration_variant_prints_the_template_reading() -> None:
    # "Rolling Barrage duration - Number of turns available to attackers – Normally 3 +D3"
    text = squash(
        pdf.text(
            html_to_pdf(
                fire_plan_form_html("attacker", "letter", {"barrage-duration": "fire-plan-template"})
            ),
            layout=False,
        )
    )
    assert "= 3 + D3" in text and "[variant]" in text


def test_defender_form() -> None:
    data = html_to_pdf(fire_plan_form_html("defender", "letter"))
    pdf.save_artifacts(data, "fire-plan-form-defender")
    text = squash(pdf.text(data, layout=False))
    # DEFENDERS FIRE PLAN TEMPLATE: "Medium Mortar", "Divisional Support Artillery Battery 1..3 initial aiming point"
    for i in (1, 2, 3):
        assert f"Divisional Support Artillery Battery {i} initial aiming point" in text
    assert "Medium Mortar" in text and "Superimposed" not in text and "Gas" not in text


PLAN = [
    {
        "side": "attacker",
        "kind": "aiming-point",
        "arrival_turn": 1,
        "data": {"kind": "aiming-point", "grid": [64, 120], "battery": "ATTACKERBATTERY"},
    },
    {
        "side": "attacker",
        "kind": "rolling-barrage",
        "arrival_turn": 2,
        "data": {"kind": "rolling-barrage", "start_up_cm": 55, "duration_turns": 6, "halts": [4]},
    },
    {
        "side": "defender",
        "kind": "aiming-point",
        "arrival_turn": 1,
        "data": {"kind": "aiming-point", "grid": [31, 77], "battery": "DEFENDERSECRET"},
    },
]


def test_locked_plan_prints_its_own_side_only() -> None:
    data = html_to_pdf(fire_plan_html("attacker", PLAN, "a4", "Mons 1914", commitment="ab" * 32))
    pdf.save_artifacts(data, "fire-plan-attacker-locked")
    text = squash(pdf.text(data, layout=False))
    assert "ATTACKERBATTERY" in text and "64, 120" in text and "55" in text
    assert "DEFENDERSECRET" not in text and "31, 77" not in text
    assert "ab" * 32 in text


@given(
    st.lists(
        st.tuples(st.sampled_from(forms.SIDES), st.integers(1, 9), st.text("XYZQ", min_size=6, max_size=8)),
        max_size=6,
    )
)
def test_other_sides_items_never_appear(items: list[tuple[str, int, str]]) -> None:
    plan = [
        {"side": s, "kind": "mortar", "arrival_turn": t, "data": {"battery": f"{s[:3]}{tag}"}}
        for s, t, tag in items
    ]
    for side in forms.SIDES:
        printed = forms.locked_plan(side, plan)
        shown = {v for item in printed.items for _, v in item.details}
        assert shown == {f"{s[:3]}{tag}" for s, _, tag in items if s == side}


def test_appendix_aiming_cards_all_printed_with_cut_lines() -> None:
    cards = forms.appendix_cards()
    # AIMING POINTS appendix: 82 cards, e.g. "British 18ld Field Gun 11" ... "German 105mm Howitzer 11".
    assert len(cards) == 82
    assert cards[0] == {"nation": "British", "gun": "British 18pdr Field Gun", "ref": "11"}
    html = aiming_cards_html(None, "a4")
    assert html.count('class="card"') == 82 and "dashed" in html
    data = html_to_pdf(html)
    pdf.save_artifacts(data, "aiming-cards-appendix")
    text = pdf.text(data)
    for c in cards:
        assert re.search(rf"(?m)^\s*{re.escape(c['ref'])}\b|\s{re.escape(c['ref'])}\s", text), c


def test_game_cards_number_guns_and_letter_mortars() -> None:
    assert [letter_ref(i) for i in (0, 1, 25, 26)] == ["A", "B", "Z", "AA"]
    html = aiming_cards_html(
        [{"ref": "1", "gun": "German 77mm Field Guns", "side": "defender", "aiming_point": [64, 120]}],
        "letter",
    )
    text = squash(pdf.text(html_to_pdf(html), layout=False))
    assert "German 77mm Field Guns" in text and "64 along, 120 up" in text


def test_organisation_sheet_prints_the_tree() -> None:
    def unit(
        name: str,
        level: str = "",
        kind: str = "",
        quality: str | None = None,
        models: int = 0,
        children: tuple[ForceUnit, ...] = (),
    ) -> ForceUnit:
        return ForceUnit(name, name, level, kind, None, quality, models, children, "")

    platoons = unit("Rifle platoons", kind="infantry-platoon", models=4)
    company = unit("A Company", level="company", children=(platoons,))
    mgs = unit("MG section", kind="heavy-mg", models=2)
    force = unit("1st Battalion", level="battalion", quality="veteran", children=(company, mgs))
    html = organisation_html(force, "a4")
    assert html.count("&#9744;") == 6  # a box per stand: 4 platoons + 2 MGs
    text = squash(pdf.text(html_to_pdf(html), layout=False))
    for name in ("1st Battalion", "A Company", "Rifle platoons", "MG section", "veteran"):
        assert name in text


def test_organisation_sheet_of_every_table_over_http(sqlite_client) -> None:  # type: ignore[no-untyped-def]
    from rules.flanders_fields.book.organisation import ORGANISATION_TABLES, build_force

    for table_id in ORGANISATION_TABLES:
        force = build_force(table_id)
        html = sqlite_client.get(f"/playsheets/organisation/{table_id}").text
        assert force.name in html
        # Every battalion of the force is on its sheet.
        for unit in force.walk():
            if unit.level == "battalion":
                assert unit.name in html, (table_id, unit.name)
    pdf = sqlite_client.get("/playsheets/organisation/gb-1914.pdf?paper=letter")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    # The tree starts on page 1 and breaks between rows (it once left page 1 blank but for the title).
    import subprocess

    first_page = subprocess.run(
        ["pdftotext", "-l", "1", "-", "-"], input=pdf.content, capture_output=True, check=True
    ).stdout.decode()
    assert "Infantry Platoon 1" in first_page
    missing = sqlite_client.get("/playsheets/organisation/xx-1900")
    assert missing.status_code == 404 and "gb-1917" in missing.json()["why"]
