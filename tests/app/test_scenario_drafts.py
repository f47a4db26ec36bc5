"""A new scenario's particulars kept on the server as they are entered (app.pages.scenario_drafts): a reload
shows them, a refused value is a 422 naming its field, and a draft is its browser's alone."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from app.core.config import Settings
from app.errors import TooManyRequests, is_one_sentence
from app.guard.security import CSRF_REFUSED_PAGE, NOTICE_HEADER, page_wait_message
from app.main import create_app
from app.pages.scenario_drafts import DRAFT_COOKIE
from tests.csrf import form

POST = "/scenarios/new/flanders-fields/particulars"
DISCARD = "/scenarios/new/flanders-fields/discard"


def fields(**changed: str) -> dict[str, str]:
    """The particulars as the page's form posts them."""
    base = {"title": "", "date": "", "forces_period": "mid", "turns": "", "first_side": "attacker"}
    return {
        **base,
        "objectives": "",
        "victory": "",
        "notes": "",
        "width_cm": "120",
        "length_cm": "180",
        **changed,
    }


def test_a_draft_is_kept_shown_again_refused_by_field_and_its_browsers_alone(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    page = c.get("/scenarios/new?ruleset=flanders-fields")
    assert "Each change here is kept on the server" in page.text and 'data-draft-kept="no"' in page.text

    entered = fields(
        title="The club's raid", turns="8", first_side="defender", notes="Guns arrive\nturn 3", width_cm="150"
    )
    entered |= {
        "attacker_force_nation": "french",
        "zone_attacker": "20",
        "zone_defender": "0",
        "fp.attacker.bombardment": "2",
        "special.defender": "pals",
        "erratum-artillery-action-mid": "main-text",  # of the period: kept
        "erratum-artillery-line-of-sight-early": "main-text",  # of another period: not
    }
    kept = c.post(POST, data=form(c, entered))
    assert kept.status_code == 200 and "kept on the server" in kept.text
    assert "Still to do: Nationality:" in kept.text  # the rule set's next check, its own sentence
    mine = c.cookies[DRAFT_COOKIE]

    again = c.get("/scenarios/new?ruleset=flanders-fields").text
    assert (
        'value="The club&#39;s raid"' in again
        and 'name="turns" type="number" min="1" max="100" step="1" inputmode="numeric" data-doc="turns" value="8"'
        in again
    )
    assert 'value="defender" data-doc-first checked' in again and ">Guns arrive\nturn 3</textarea>" in again
    assert 'data-table="width_cm" value="150"' in again
    assert 'name="zone_attacker" data-zone-depth="attacker" value="20"' in again
    assert 'name="zone_defender" data-zone-depth="defender" value=""' in again
    assert (
        'name="defender_force_nation" value="british" data-side-nation="defender" checked>' in again
    )  # its default
    assert 'name="attacker_force_nation" value="french" data-side-nation="attacker" checked>' in again
    assert 'data-plan-kind="bombardment" value="2"' in again and 'data-plan-kind="gas" value=""' in again
    assert 'value="pals" data-special-rule="pals" data-special-side="defender" checked' in again
    assert 'value="pals" data-special-rule="pals" data-special-side="attacker" >' in again
    checked = re.findall(r'name="erratum-([\w-]+)" value="([\w-]+)"[^>]*\bchecked>', again)
    assert ("artillery-action-mid", "main-text") in checked
    assert ("artillery-line-of-sight-early", "playsheet") in checked  # its default: another period's reading

    # Each field bounded: a 422 whose notice names the field, the draft as it was.
    for bad, named in (
        ({"turns": "1000"}, "Turns:"),
        ({"width_cm": "wide"}, "Width (cm):"),
        ({"title": "x" * 201}, "Title:"),
        ({"first_side": "referee"}, "First side:"),
        ({"fp.attacker.gas": "-1"}, "Gas:"),
    ):
        refused = c.post(POST, data=form(c, fields(**bad)))
        assert refused.status_code == 422 and refused.headers[NOTICE_HEADER].startswith(named), bad
        assert len(refused.headers[NOTICE_HEADER]) <= 120
    assert c.post("/scenarios/new/no-such-rules/particulars", data=form(c, fields())).status_code == 404

    # Another browser (its own key, or a cookie not of a key's shape) neither sees nor changes this draft.
    for other in ("x" * 43, "not-a-key'--drop"):
        c.cookies.set(DRAFT_COOKIE, other, path="/scenarios")
        assert "The club&#39;s raid" not in c.get("/scenarios/new?ruleset=flanders-fields").text
        assert c.post(POST, data=form(c, fields(title="Someone else's"))).status_code == 200
        discarded = c.post(DISCARD, data=form(c), follow_redirects=False)
        assert discarded.status_code == 303  # its own draft, if any, dropped
    c.cookies.set(DRAFT_COOKIE, mine, path="/scenarios")
    assert "The club&#39;s raid" in c.get("/scenarios/new?ruleset=flanders-fields").text
    # Its key is a cookie a browser sends on its own: a form from elsewhere (no token, or another port's page
    # with one) changes and drops nothing (the hostile pass: both were taken).
    other_port = {"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:9999"}
    assert c.post(POST, data=fields(title="PWNED")).status_code == 403
    assert c.post(POST, data=form(c, fields(title="PWNED")), headers=other_port).status_code == 403
    assert c.post(DISCARD, data=form(c), headers=other_port, follow_redirects=False).status_code == 403
    assert "The club&#39;s raid" in c.get("/scenarios/new?ruleset=flanders-fields").text

    # Start afresh (htmx): the draft dropped, the page sent again, blank.
    afresh = c.post(DISCARD, data=form(c), headers={"HX-Request": "true"})
    assert (
        afresh.status_code == 204
        and afresh.headers["HX-Redirect"] == "/scenarios/new?ruleset=flanders-fields"
    )
    assert 'data-draft-kept="no"' in c.get("/scenarios/new?ruleset=flanders-fields").text


def test_new_drafts_from_one_address_are_limited_as_scenario_imports(
    migrated_url: str, tmp_path: Path
) -> None:
    """The hostile pass: 1,000 drafts (the server's cap) from one address in 26 s; a new draft now counts as a
    scenario imported (20 a minute by default), a change to one's own draft does not."""
    settings = Settings(database_url=migrated_url, var_dir=tmp_path, scenario_import_limit="2 per 1 minute")
    with TestClient(create_app(settings)) as c:
        for _ in range(2):
            c.cookies.clear()
            assert c.post(POST, data=form(c, fields(title="Mine"))).status_code == 200
        assert c.post(POST, data=form(c, fields(title="Mine, changed"))).status_code == 200  # its own draft
        c.cookies.clear()
        over = c.post(POST, data=form(c, fields(title="One more")))
        assert over.status_code == 429 and over.headers[NOTICE_HEADER].startswith("Too many new drafts")
        assert int(over.headers["Retry-After"]) >= 1


def test_a_drafts_victory_conditions_are_the_rule_sets_to_check_and_shown_again(
    sqlite_client: TestClient,
) -> None:
    """A points threshold and a side broken, in the format's own `victory_conditions` (rules.core.victory):
    Flanders Fields declares no side broken, so its checks ask for the share of stands lost, naming it."""
    c = sqlite_client
    nations = {"attacker_force_nation": "french", "defender_force_nation": "british"}
    chosen = fields(title="Raid", victory_points="6", broken_side="defender", **nations)
    asked = c.post(POST, data=form(c, chosen))
    assert asked.status_code == 200 and "Still to do: Stands lost:" in asked.text, asked.text
    share = c.post(POST, data=form(c, {**chosen, "broken_stands_lost": "40"}))
    assert "The rules find nothing missing" in share.text, share.text
    again = c.get("/scenarios/new?ruleset=flanders-fields").text
    assert 'data-victory-points value="6"' in again and 'data-victory-lost value="40"' in again
    assert 'value="defender" data-victory-side checked' in again
    for bad, named in (
        ({"victory_points": "1001"}, "Victory points:"),
        ({"broken_side": "referee"}, "Broken side:"),
    ):
        refused = c.post(POST, data=form(c, {**chosen, **bad}))
        assert refused.status_code == 422 and refused.headers[NOTICE_HEADER].startswith(named), bad
    none = c.post(POST, data=form(c, {**chosen, "victory_points": "", "broken_side": "none"}))
    assert "The rules find nothing missing" in none.text
    assert 'data-victory-points value=""' in c.get("/scenarios/new?ruleset=flanders-fields").text


def test_a_refusals_notice_is_one_sentence_whatever_the_form_names(sqlite_client: TestClient) -> None:
    """The hostile pass of session 16: a fire-plan allowance is named by the form's own key, and a control
    character in it ended the connection (a header may not hold one); a key of several sentences made a notice
    of several, and one with no full stop no sentence; the page's CSRF refusal and a page's wait were two each."""
    c = sqlite_client
    c.get("/scenarios/new?ruleset=flanders-fields")
    for name in ("fp.attacker.a\x01b", "fp.attacker.a. B. C. D", "fp.attacker.<img src=x>"):
        r = c.post(POST, data=form(c, fields(**{name: "x"})), headers={"HX-Request": "true"})
        notice = r.headers[NOTICE_HEADER]
        assert r.status_code == 422 and is_one_sentence(notice) and notice.isprintable(), (name, notice)
    assert is_one_sentence(CSRF_REFUSED_PAGE)
    assert is_one_sentence(page_wait_message(TooManyRequests("too many new drafts", 60), "new drafts"))
