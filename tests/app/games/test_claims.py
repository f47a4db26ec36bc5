"""What the table keeps is the table's; a player's tape measurement is shown as theirs (issue 52), through the
API and its storage on each backend: a count the table keeps claimed by a player is refused naming the field
and writes nothing, the referee's override of one is recorded in the log, and a range by the tape is taken,
marked as given in the answer (/ask and /resolve) and in the log every side reads. The rules' readings of each
claim are tests/rules (test_earth2mm_rolls.py, test_table_answers.py); the record's and the story's words
tests/app/test_game_record.py and tests/app/services/test_story.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.core import live
from app.errors import is_one_sentence
from app.routes import events as events_route
from app.services.seating import Viewer
from tests.app.games.conftest import advance_to, new_game
from tests.app.games.test_earth2mm_bound import Table
from tests.app.games.test_stand_acts import events, ordered_mg

pytestmark = pytest.mark.storage  # what a refused claim leaves and an override records, on each backend


def test_hits_claimed_over_those_waiting_are_refused_and_the_referees_override_is_recorded(
    client: TestClient,
) -> None:
    t = Table(client)
    g = t.g
    advance_to(client, g, "high-commands")
    assert t.edit("attacker SF", g.attacker, high_command="advance").status_code == 200
    assert t.edit("defender SF", g.defender, high_command="hold").status_code == 200
    advance_to(client, g, "plan-line")
    planned = t.edit("attacker coy", g.attacker, sub_plan="move", plan_target=t.ids["defender coy"])
    assert planned.status_code == 200, planned.text
    advance_to(client, g, "execute-5")
    shot = t.roll("shoot", g.attacker, "attacker coy", "defender coy", dice=[6])
    assert shot.status_code == 200 and t.unit("defender coy")["hits_to_allocate"] == 1, shot.text
    logged = len(events(client, g))
    # One hit waits: four claimed would remove both bases of the defender's company.
    both = [t.ids["defender 1"], t.ids["defender 2"]]
    claim = {"fields": {"hits": 4, "order": [*both, *both]}}
    for route in ("ask", "resolve"):
        url = f"/api/v1/games/{g.id}/{route}/allocate-hits"
        ids = {"unit_id": t.ids["attacker coy"], "target_id": t.ids["defender coy"]}
        refused = client.post(url, headers=g.attacker, json={**ids, **claim})
        assert refused.status_code == 422, refused.text
        body = refused.json()
        assert body["field"] == "fields.hits" and body["source"] and body["why"], body
        assert body["detail"] == "The table keeps hits: 1 here, not 4; leave it out or ask the referee."
        assert is_one_sentence(body["detail"]) and len(body["detail"]) <= 120
    assert len(events(client, g)) == logged
    assert [t.unit(f"defender {n}")["killed"] for n in (1, 2)] == [False, False]
    assert t.unit("defender coy")["hits_to_allocate"] == 1
    # The referee may set it, as a recorded override.
    overridden = t.roll("allocate-hits", g.referee, "attacker coy", "defender coy", override=True, **claim)
    assert overridden.status_code == 200, overridden.text
    hits = next(f for f in overridden.json()["filled"] if f["field"] == "hits")
    assert (hits["value"], hits["given"], hits["table"]) == (4, True, 1)
    logged_roll = events(client, g)[-1]
    assert logged_roll["actor"] == "referee" and logged_roll["payload"]["override"]["by"] == "referee"
    assert "The table keeps hits: 1 here, not 4" in logged_roll["payload"]["override"]["refused"]
    assert [t.unit(f"defender {n}")["killed"] for n in (1, 2)] == [True, True]


def test_a_range_by_the_tape_is_taken_and_every_side_reads_it_as_the_shooters_claim(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = new_game(client)
    mg, target = ordered_mg(client, g, 60)
    body: dict[str, Any] = {"unit_id": mg["id"], "target_id": target["id"], "fields": {"range_cm": 5}}
    asked = client.post(f"/api/v1/games/{g.id}/ask/shooting", headers=g.attacker, json=body)
    assert asked.status_code == 200, asked.text
    taped = next(f for f in asked.json()["filled"] if f["field"] == "range_cm")
    measured = taped["table"]
    assert taped["value"] == 5 and taped["given"] is True and 55 < measured < 60
    assert taped["why"] == f"by the tape: 5 cm; the map measures {measured:g} cm"
    dice = [4, *[1] * len(asked.json()["resolution"].get("also", []))]  # a die for each stand it also attacks
    shot = client.post(
        f"/api/v1/games/{g.id}/resolve/shooting", headers=g.attacker, json={**body, "dice": dice}
    )
    assert shot.status_code == 200, shot.text
    assert shot.json()["request"]["range_cm"] == 5
    assert next(f for f in shot.json()["filled"] if f["field"] == "range_cm") == {
        "field": "range_cm",
        "value": 5,
        "why": taped["why"],
        "given": True,
        "table": measured,
    }
    # The defender reads the claim in the log as the shooter's, as do the referee and the stream (one view).
    for who in (g.defender, g.referee):
        logged = client.get(f"/api/v1/games/{g.id}/events", headers=who).json()[-1]
        assert (
            logged["kind"] == "roll"
            and {"given": True, "why": taped["why"]}.items()
            <= next(f for f in logged["payload"]["filled"] if f["field"] == "range_cm").items()
        )
        # The map's live frame tells the other seats the claim in a sentence (app.pages.claim_notice), the
        # shooter's own seat nothing (table-act.js shows it); a frame too big for its parts still tells it.
        role = "defender" if who is g.defender else "referee"
        for seat, told, cut in ((role, True, False), ("attacker", False, False), (role, True, True)):
            monkeypatch.setattr(live, "FRAME_BYTES", 100 if cut else 8_000)
            with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
                frame = json.loads(
                    events_route._with_view(
                        session, g.id, Viewer(g.id, seat), "map", [logged], live.Shared()
                    )[0]
                )
            said = f"{mg['short_name']}'s shooting at {target['short_name']}: Range {taped['why']}."
            assert frame.get("claim") == (said if told else None), (seat, frame.get("claim"))
            assert bool(frame.get("refetch")) is cut


def test_a_cover_seen_by_the_shooter_is_taken_and_marked_in_the_answer_and_the_log(
    client: TestClient,
) -> None:
    g = new_game(client)
    mg, target = ordered_mg(client, g, 60)
    body: dict[str, Any] = {"unit_id": mg["id"], "target_id": target["id"], "fields": {"cover": "hard"}}
    asked = client.post(f"/api/v1/games/{g.id}/ask/shooting", headers=g.attacker, json=body).json()
    dice = [4, *[1] * len(asked["resolution"].get("also", []))]
    shot = client.post(
        f"/api/v1/games/{g.id}/resolve/shooting", headers=g.attacker, json={**body, "dice": dice}
    )
    assert shot.status_code == 200, shot.text
    assert shot.json()["request"]["cover"] == "hard"
    cover = next(f for f in shot.json()["filled"] if f["field"] == "cover")
    assert cover == {
        "field": "cover",
        "value": "hard",
        "why": f"seen by the player: hard; the map reads {cover['table']}",
        "given": True,
        "table": cover["table"],
    }
    assert cover["table"] != "hard"
    logged = client.get(f"/api/v1/games/{g.id}/events", headers=g.defender).json()[-1]
    assert next(f for f in logged["payload"]["filled"] if f["field"] == "cover") == cover
    # An entry the table filled alone keeps its shape: no claim marks on it.
    assert all(
        set(f) == {"field", "value", "why"} for f in shot.json()["filled"] if f["field"] not in ("cover",)
    )


def test_a_firer_given_as_no_word_is_refused_naming_it(client: TestClient) -> None:
    """The hostile pass of stop 20: the table read the firer given before the request was checked, and a list or an
    object there was a 500 (unhashable) on /ask and /resolve alike."""
    g = new_game(client)
    mg, target = ordered_mg(client, g, 60)
    for firer in (["mg"], {"a": [1]}):
        body = {"unit_id": mg["id"], "target_id": target["id"], "fields": {"firer": firer}}
        for route in ("ask", "resolve"):
            refused = client.post(f"/api/v1/games/{g.id}/{route}/shooting", headers=g.attacker, json=body)
            assert refused.status_code == 422 and refused.json()["field"] == "fields.firer", refused.text
