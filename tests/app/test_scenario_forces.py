"""A new scenario's forces panel posts to the browser's draft (issue 67; app.pages.scenario_forces): a table's
formations offered as options, a formation added, renamed, refused by field and removed, each post answered by the
side's formations and the forces' JSON island; CSRF as every post."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.guard.security import NOTICE_HEADER
from app.services import scenario_forces as forces
from tests.csrf import form

FF = "flanders-fields"


def test_the_forces_panel_posts_keep_the_draft_s_forces_and_refuse_by_field(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    url = f"/scenarios/new/{FF}/forces"
    options = c.get(f"{url}/choices", params={"table": "gb-1915"}).text
    assert options.startswith('<option value="gb-1915">') and options.count("<option") == len(
        forces.choices(FF, "gb-1915")
    )
    assert c.get(f"{url}/choices", params={"table": "x" * 65}).text == ""
    picked = {"side": "defender", "defender_table": "gb-1915", "defender_formation": "gb-1915/mmg-company-1"}
    added = c.post(url, data=form(c, picked | {"defender_name": "Vickers"}))
    assert added.status_code == 200 and 'data-formation="defender-1/gb-1915/mmg-company-1"' in added.text
    assert "Remove Vickers" in added.text and '<option value="veteran" >Veteran</option>' in added.text
    fid = "defender-1/gb-1915/mmg-company-1"
    renamed = c.post(
        f"{url}/change", data=form(c, {f"name.{fid}": "The guns"}), headers={"HX-Trigger-Name": f"name.{fid}"}
    )
    assert "Remove The guns" in renamed.text and '"name": "The guns"' in renamed.text  # the JSON island too
    for post, sent, field in (
        (
            url,
            {"side": "defender", "defender_table": "gb-1915", "defender_formation": "nothing"},
            "formation",
        ),
        (url, {"side": "neither"}, "side"),
        (url, picked | {"defender_name": "n" * 201}, "name"),
        (f"{url}/change", {f"quality.{fid}": "legendary"}, "quality"),
    ):
        refused = c.post(post, data=form(c, sent), headers={"HX-Trigger-Name": next(iter(sent))})
        assert refused.status_code == 422 and field in refused.headers[NOTICE_HEADER].lower(), refused.text
    removed = c.post(f"{url}/remove", data=form(c, {}), headers={"HX-Trigger-Name": f"remove.{fid}"})
    assert removed.status_code == 200 and removed.text.count("None yet.") == 2
    assert c.post(url, data={"side": "defender"}).status_code == 403  # no CSRF token
