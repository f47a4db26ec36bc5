"""The campaign pages over HTTP: a whole campaign played through the tap forms (every kind of action the
page offers, as the page names its fields), and the refusals shown as sentences."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rules.firestorm import campaign
from tests import csrf
from tests.app.campaigns.conftest import choose


def form_of(action: dict[str, Any], dice: list[int], version: int) -> dict[str, Any]:
    """The form the page posts for an action: chips, checkboxes and die pads by name."""
    data: dict[str, Any] = {"version": str(version), "type": action["type"], "dice_count": str(len(dice))}
    for key in ("from_area", "to_area", "side"):
        if key in action:
            data[key] = action[key]
    if action.get("troops"):  # none ticked: the field is absent, as a browser sends it
        data["troops"] = action["troops"]
    for troop, area in action.get("moves", {}).items():
        data[f"move.{troop}"] = area
    for i, area in enumerate(action.get("areas", [])):
        data[f"area.{i}"] = area
    for i, face in enumerate(dice):
        data[f"dice.{i}"] = str(face)
    return data


@pytest.mark.long
def test_a_whole_campaign_through_the_tap_forms(sqlite_client: TestClient) -> None:
    c = sqlite_client
    r = c.post("/campaigns/new", data=csrf.form(c, {"name": "  Club   night "}))
    assert r.status_code == 200 and "Club night" in r.text
    cid = int(r.text.split('data-campaign-created="')[1].split('"')[0])
    rng = random.Random(7)
    state = campaign.new_campaign()
    version = 1
    kinds: set[str] = set()
    for _ in range(400):
        if state.phase == "finished":
            break
        snap = {
            "state": state.model_dump(mode="json"),
            "legal_actions": campaign.legal_actions(state),
            "version": version,
        }
        act, dice, _side = choose(snap, rng)
        page = c.get(f"/campaigns/{cid}")
        assert page.status_code == 200 and f'data-action="{act["type"]}"' in page.text
        for name in form_of(act, dice, version):
            if name not in ("version", "type", "dice_count", "from_area", "to_area", "side"):
                assert f'name="{name}"' in page.text, (act, name)
        data = form_of(act, dice, version)
        if act["type"] == "resolve" and rng.random() < 0.3:  # a Great War game was played instead
            act = {
                "type": "resolve",
                "great_war": {"attacker_vp": rng.randint(0, 8), "defender_vp": rng.randint(0, 8)},
            }
            dice = []
            data = {"version": str(version), "type": "resolve", "great_war": "true"}
            data |= {k: str(v) for k, v in act["great_war"].items()}
        r = c.post(f"/campaigns/{cid}/act", data=csrf.form(c, data), headers={"HX-Request": "true"})
        assert r.status_code == 200 and 'class="errors"' not in r.text, r.text[:3000]
        state, _ = campaign.apply(state, act, dice)
        version += 1
        kinds.add(act["type"])
        assert f'data-version="{version}"' in r.text and f'data-phase="{state.phase}"' in r.text
    assert state.phase == "finished"
    assert kinds >= {"initiative", "attack", "defend", "resolve", "destroy", "redeploy", "reinforce"}
    final = c.get(f"/campaigns/{cid}")
    result = campaign.result(state)
    assert "Campaign result" in final.text and result["outcome"] in final.text
    # Each roll in the campaign's log says whose dice it was, the players' own as well as firestep's (issue 89).
    assert "(the players&#39; dice)" in final.text or "(the players' dice)" in final.text


def test_refusals_are_sentences(sqlite_client: TestClient) -> None:
    c = sqlite_client
    c.post("/campaigns/new", data=csrf.form(c))
    # Turn 1 is fixed: D-3 into C-4 is the second battle, not the first ("D-2 into C-3" comes first).
    bad = {"version": "2", "type": "attack", "from_area": "D-3", "to_area": "C-4", "troops": "g-gr-5"}
    assert (
        c.post("/campaigns/1/act", data=csrf.form(c, {"version": "1", "type": "initiative"})).status_code
        == 200
    )
    r = c.post("/campaigns/1/act", data=csrf.form(c, bad))
    assert r.status_code == 422 and "german may not attack D-3 -&gt; C-4" in r.text
    # htmx sends the token as a header (hx-headers on <body>).
    r = c.post(
        "/campaigns/1/act",
        data={"version": "1", "type": "pass"},
        headers={"HX-Request": "true", **csrf.header(c)},
    )
    assert r.status_code == 200 and "another device" in r.text and '"detail"' not in r.text
    # A device with no seat is asked for a code; the player of one side may not act for the other.
    other = TestClient(c.app)
    assert other.get("/campaigns/1").status_code == 401
    codes = c.post("/api/v1/campaigns", json={}).json()["join_codes"]
    r = other.post("/campaigns/join", data=csrf.form(other, {"code": codes["bef"]}), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/campaigns/2"
    other.post("/campaigns/2/act", data=csrf.form(other, {"version": "1", "type": "initiative"}))
    r = other.post(
        "/campaigns/2/act",
        data=csrf.form(
            other,
            {"version": "2", "type": "attack", "from_area": "D-2", "to_area": "C-3", "troops": "group-i"},
        ),
    )
    assert r.status_code == 422 and "it is the german&#39;s decision" in r.text
    assert other.get("/campaigns/999").status_code == 404


def test_a_new_campaign_is_made_once_however_often_its_page_is_reloaded(sqlite_client: TestClient) -> None:
    """The newcomer pass: the campaign's POST answered its page, so a reload of it made a second campaign with new
    codes. POST/redirect/GET, as a new game: the codes shown once on the device that made it."""
    c = sqlite_client
    made = c.post("/campaigns/new", data=csrf.form(c, {"name": "Once"}), follow_redirects=False)
    assert made.status_code == 303 and made.headers["location"].endswith("/created"), made.text[-300:]
    page = c.get(made.headers["location"])
    assert page.status_code == 200 and "data-campaign-created=" in page.text
    again = c.get(made.headers["location"])  # the reload: the codes were shown once, nothing made
    assert again.status_code == 200 and "data-campaign-created=" not in again.text
    assert again.text.count("<strong>Once</strong>") == 1  # one campaign of that name listed
