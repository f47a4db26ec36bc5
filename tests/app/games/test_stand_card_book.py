"""A newcomer's stand card on the map says nothing that contradicts itself or the book (session 21's card6):
a shot at an area names each stand on its own die and its line (ARTILLERY BATTERIES AREA OF EFFECT: "Any
infantry platoon or support weapon which falls fully with the area of effect are attacked"), destroys the
stands its dice and its markers destroy, none also said to gain a marker from it (erratum
shot-suppresses-company for a company two of whose platoons it suppresses), says its target's die beside the
others' results; an edit's words say its name once and its Done leads to the edits now offered; a greyed act
names the unit whose action is missing so that no two read alike."""

from __future__ import annotations

import html
import re
from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, new_game, start_game
from tests.app.games.test_stand_acts import events, units
from tests.app.games.test_stand_card_page import fragment


def _move(client: TestClient, g: Game, u: dict[str, Any], x: float, y: float, facing: float) -> None:
    r = client.post(
        f"/api/v1/games/{g.id}/units/{u['id']}/move",
        headers=g.referee,
        json={"x": x, "y": y, "facing_deg": facing},
    )
    assert r.status_code == 200, r.text


def battery_over_six(client: TestClient) -> tuple[Game, dict[str, Any], list[dict[str, Any]]]:
    """Mons' first 77mm battery 35 cm short of six British platoons (a company's four, then two of the next),
    all fully under its 10 cm square on the first, ordered (two actions) and unlimbered."""
    g = new_game(client)
    us = units(client, g)
    bat = next(u for u in us.values() if u["side"] == "attacker" and u["kind"] == "field-battery")
    plts = [u for u in us.values() if u["side"] == "defender" and u["kind"] == "rifle-platoon"][:6]
    moved = {bat["id"], *(p["id"] for p in plts)}

    def clear(x: float, y: float) -> bool:
        return all(
            u["x"] is None or u["id"] in moved or abs(u["x"] - x) > 12 or abs(u["y"] - y) > 12
            for u in us.values()
        )

    x0, y0 = next(
        (x, y) for x in range(10, 115, 5) for y in range(50, 170, 5) if clear(x, y) and clear(x, y - 40)
    )
    _move(client, g, bat, x0, y0 - 40, 90)
    for i, p in enumerate(plts):
        _move(client, g, p, x0 - 1.6 + 3.2 * (i % 2), y0 - 2 + 2 * (i // 2), 270)
    start_game(client, g)
    order = {"unit_id": bat["id"], "dice": [6]}
    assert client.post(f"/api/v1/games/{g.id}/resolve/order-roll", headers=g.attacker, json=order).is_success
    version = client.get(f"/api/v1/games/{g.id}/units/{bat['id']}", headers=g.attacker).json()["version"]
    r = client.put(
        f"/api/v1/games/{g.id}/units/{bat['id']}",
        headers=g.attacker,
        json={"version": version, "limbered": False},
    )
    assert r.status_code == 200, r.text
    return g, bat, plts


def _items(part: str, name: str) -> list[str]:
    found = re.search(rf"<ul[^>]*{name}[^>]*>(.*?)</ul>", part, re.S)
    return [html.unescape(i) for i in re.findall(r"<li>(.*?)</li>", found.group(1))] if found else []


def test_a_shot_at_an_area_says_each_die_once_on_its_stand_and_destroys_only_what_they_destroy(
    client: TestClient,
) -> None:
    g, bat, plts = battery_over_six(client)
    short = {u["id"]: u["short_name"] for u in units(client, g).values()}
    # Soft cover: 4 suppresses, 5 kills. The target and three others destroyed; two of the first company's
    # platoons suppressed on their own dice.
    dice = [6, 4, 4, 6, 6, 6]
    q = f"act=Shoot&target={plts[0]['id']}" + "".join(f"&die={d}" for d in dice)
    card = fragment(client, g, g.attacker, bat["id"], f"play/shooting?{q}")
    outcome = re.search(r"data-play-outcome=\"[^\"]*\">([^<]*)<", card)
    assert outcome and html.unescape(outcome.group(1)) == f"Rolled 6 for {short[plts[0]['id']]}: killed."
    also = _items(card, "data-play-also")
    # A line for each die: the target's, then each other stand's, no two stands named alike.
    assert 1 + len(also) == len(dice)
    assert [a.split(":")[0] for a in also] == [short[p["id"]] for p in plts[1:]]
    body = {"unit_id": bat["id"], "target_id": plts[0]["id"], "dice": dice, "apply": True}
    r = client.post(f"/api/v1/games/{g.id}/resolve/shooting", headers=g.attacker, json=body)
    assert r.status_code == 200, r.text
    after = units(client, g)
    destroyed = {i for i, u in after.items() if u["killed"]}
    # Destroyed: the stands whose own die destroyed them; the company's two platoons suppressed, each
    # suppressing its company (erratum shot-suppresses-company's default), two markers on each left standing.
    assert destroyed == {plts[0]["id"], plts[3]["id"], plts[4]["id"], plts[5]["id"]}
    assert [after[p["id"]]["suppression"] for p in plts[1:3]] == [2, 2]
    done = fragment(client, g, g.attacker, bat["id"], f"done/{events(client, g)[-1]['id']}?act=Shoot")
    said = _items(done, "data-play-effects")
    gained = next(s for s in said if "gain" in s)
    assert not any(short[i] in gained for i in destroyed), said  # none destroyed and marked in one breath


def test_the_other_reading_suppresses_a_company_once_however_many_platoons_the_shot_suppresses(
    client: TestClient,
) -> None:
    """Erratum shot-suppresses-company's other reading: the shot is one attack, so two of a company's
    platoons suppressed by it are one marker on each of its stands."""
    g, bat, plts = battery_over_six(client)
    api = f"/api/v1/games/{g.id}"
    version = client.get(f"{api}/turn", headers=g.referee).json()["version"]
    change = {"version": version, "variants": {"shot-suppresses-company": "once"}}
    assert client.patch(api, headers=g.referee, json=change).status_code == 200
    body = {"unit_id": bat["id"], "target_id": plts[0]["id"], "dice": [6, 4, 4, 6, 6, 6], "apply": True}
    r = client.post(f"{api}/resolve/shooting", headers=g.attacker, json=body)
    assert r.status_code == 200, r.text
    after = units(client, g)
    assert [after[p["id"]]["suppression"] for p in plts[1:3]] == [1, 1]


def test_a_shot_s_line_names_its_target_s_die_beside_the_others_results(client: TestClient) -> None:
    g, bat, plts = battery_over_six(client)
    short = {u["id"]: u["short_name"] for u in units(client, g).values()}
    body = {"unit_id": bat["id"], "target_id": plts[0]["id"], "dice": [1, 6, 6, 6, 6, 6], "apply": True}
    r = client.post(f"/api/v1/games/{g.id}/resolve/shooting", headers=g.attacker, json=body)
    assert r.status_code == 200, r.text
    done = fragment(client, g, g.attacker, bat["id"], f"done/{events(client, g)[-1]['id']}?act=Shoot")
    line = re.search(r"data-play-done=\"\d+\">([^<]*)<", done)
    # The 1 was the target's die alone ("a roll of 1 on the die is always a failure"): the 6s destroyed the
    # others, each said on its own line.
    assert line and html.unescape(line.group(1)) == f"Shoot: rolled 1 for {short[plts[0]['id']]}, no effect."
    assert [a.split(":")[0] for a in _items(done, "data-play-also")] == [short[p["id"]] for p in plts[1:]]


def test_firestep_s_dice_are_said_the_same_way(client: TestClient) -> None:
    """ "firestep rolled ..., no effect" was shown beside lines saying "Suppressed": the dice firestep rolls
    for the side are said as the side's own are, its target's named with it."""
    g, bat, plts = battery_over_six(client)
    api = f"/api/v1/games/{g.id}"
    assert client.put(f"{api}/sides/attacker/dice", headers=g.attacker, json={"dice": "firestep"}).is_success
    body = {"unit_id": bat["id"], "target_id": plts[0]["id"], "apply": True}
    r = client.post(f"{api}/resolve/shooting", headers=g.attacker, json=body)
    assert r.status_code == 200, r.text
    res = r.json()["resolution"]
    done = fragment(client, g, g.attacker, bat["id"], f"done/{events(client, g)[-1]['id']}?act=Shoot")
    line = re.search(r"data-play-done=\"\d+\">([^<]*)<", done)
    whom = units(client, g)[plts[0]["id"]]["short_name"]
    assert line and html.unescape(line.group(1)) == (
        f"Shoot: firestep rolled {res['dice'][0]} for {whom}, {r.json()['outcome_words']}."
    )
    assert len(_items(done, "data-play-also")) == len(res["dice"]) - 1 == len(res["also"]) == 5


def test_an_edit_s_words_say_its_name_once(client: TestClient) -> None:
    g, bat, _ = battery_over_six(client)
    edits = fragment(client, g, g.attacker, bat["id"])
    said = [html.unescape(w) for w in re.findall(r'data-edit-words="([^"]*)"', edits)]
    assert said == ["Limber"], said


def test_a_greyed_formation_move_names_the_unit_missing_its_action_apart_from_the_stand(
    client: TestClient,
) -> None:
    g, bat, _ = battery_over_six(client)
    us = units(client, g)
    sibling = next(u for u in us.values() if u["parent_id"] == bat["parent_id"] and u["id"] != bat["id"])
    assert sibling["name"] == bat["name"] == "77mm Battery"  # two batteries of one name
    head = fragment(client, g, g.attacker, bat["id"], "head")
    greyed = re.search(rf'data-move-formation="{bat["parent_id"]}"[^>]*title="([^"]*)"', head)
    assert greyed, head
    sentence = html.unescape(greyed.group(1))
    # The battery with two actions is not the one named: the other, by a name no other unit has.
    assert sentence == f"{sibling['short_name']} has no action left: roll its order first.", sentence
    assert sibling["short_name"] != bat["short_name"]


def test_an_edit_s_answer_carries_the_edits_its_done_leads_back_to(client: TestClient) -> None:
    """After Unlimber and Done the card offered Unlimber again until a second Done: the edits drawn before the
    edit. Its answer carries the stand's edits as now offered: Limber, "Machineguns, Light Mortars and
    Artillery require 1 order to limber or unlimber" (its one action left)."""
    g, bat, _ = battery_over_six(client)
    ev = events(client, g)[-1]
    assert ev["kind"] == "unit-update"
    edited = fragment(client, g, g.attacker, bat["id"], f"edited/{ev['id']}?act=Unlimber&target=")
    assert "data-stand-edits-part" in edited
    offered = [html.unescape(w) for w in re.findall(r'data-edit-words="([^"]*)"', edited)]
    assert offered == ["Limber"], offered
