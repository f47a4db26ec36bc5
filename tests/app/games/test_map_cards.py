"""The table map's own cards as the server renders them per seat (app/pages/map_cards.py, issue 67): a stand
card's head (its names, markers and state as the seat reads the stand, the map's buttons the seat may use), the
chooser of the stands under one tap, a template's card; each refusing a stand or template of no game by its
field. Their taps are the browser's (tests/frontend/test_map.py, test_map_phone_pick.py, test_map_override.py)."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from app.pages.templates import humanise
from tests.app.games.conftest import Game, advance_to, new_game, start_game
from tests.app.games.test_stand_acts import first, units
from tests.app.games.test_stand_card_page import words


def card(http: TestClient, g: Game, seat: dict[str, str], path: str, page: str = "map/") -> tuple[int, str]:
    http.cookies.set(COOKIE_NAME, seat["Authorization"].removeprefix("Bearer "))
    try:
        answer = http.get(f"/games/{g.id}/{page}{path}", headers={"HX-Request": "true"})
    finally:
        http.cookies.clear()
    return answer.status_code, answer.text


def button(head: str, at: str) -> str:
    """The head's button carrying the attribute `at`, its tag as the browser reads it (entities unescaped)."""
    found = re.search(rf"<button[^>]*{at}[^>]*>", head)
    assert found is not None, head
    return html.unescape(found.group(0))


def test_the_map_s_cards_say_what_the_seat_may_read_and_do(client: TestClient) -> None:
    g = new_game(client)
    start_game(client, g)
    us = units(client, g)
    mine, theirs = first(us, "attacker", "rifle-platoon"), first(us, "defender", "rifle-platoon")
    marked = client.post(
        f"/api/v1/games/{g.id}/units/{mine['id']}/markers", headers=g.attacker, json={"delta": 1}
    )
    assert marked.status_code == 200, marked.text
    status, head = card(client, g, g.attacker, f"units/{mine['id']}/head")
    assert status == 200
    said = words(head)
    assert mine["short_name"] in said and mine["full_name"] in said and "Attacker · " in said
    assert 'data-stand-markers="1"' in head and "1 suppression marker " in said
    assert all(f'data-stand-action="{a}"' in head for a in ("add-marker", "recover", "move", "measure"))
    # The other side's stand: a marker may be placed on it and a measure taken from it, never moved.
    _, other = card(client, g, g.attacker, f"units/{theirs['id']}/head")
    assert "No suppression markers" in words(other) and "Defender · " in words(other)
    assert 'data-stand-action="add-marker"' in other and 'data-stand-action="move"' not in other
    assert 'data-stand-action="recover"' not in other
    assert card(client, g, g.attacker, "units/999999/head")[0] == 422
    # The chooser: the stands in the map's order, each by its short name and side.
    status, chooser = card(client, g, g.defender, f"choose?stand={theirs['id']}&stand={mine['id']}")
    assert status == 200
    assert words(chooser).index(f"{theirs['short_name']} · Defender") < words(chooser).index(
        f"{mine['short_name']} · Attacker"
    )
    assert card(client, g, g.defender, "choose?" + "&".join([f"stand={mine['id']}"] * 5))[0] == 422
    refused = card(client, g, g.defender, "choose?stand=999999")
    # Its reason names the id as such, not "this unit" (said_why puts "unit 999999" into words for a player).
    assert refused[0] == 422 and f"Stand: game {g.id} has no unit with id 999999" in words(refused[1])
    # A template's card: its buttons for its own side (the referee's as any act: Viewer.may_act_for), a sentence
    # for the other side.
    laid = client.post(
        f"/api/v1/games/{g.id}/templates", headers=g.attacker, json={"kind": "artillery", "x": 60, "y": 90}
    )
    assert laid.status_code == 201, laid.text
    tid = laid.json()["template"]["id"]
    for seat, movable in ((g.attacker, True), (g.defender, False)):
        status, part = card(client, g, seat, f"templates/{tid}/card")
        assert status == 200 and ('data-template-action="turn"' in part) is movable
        assert f'data-template-coverage="{tid}"' in part and "Artillery · Attacker" in words(part)
    assert "only they and the referee move it" in words(part)
    assert card(client, g, g.attacker, "templates/999/card")[0] == 404


def test_a_seat_is_not_offered_a_marker_act_the_pipeline_refuses_it(client: TestClient) -> None:
    # The head's marker buttons as the pipeline judges them (each seat and side: tests/app/services/
    # test_card_offers.py); here as drawn. In set-up a marker is refused for now: greyed with the pipeline's words.
    g = new_game(client)
    us = units(client, g)
    mine, theirs = first(us, "attacker", "rifle-platoon"), first(us, "defender", "rifle-platoon")
    _, head = card(client, g, g.attacker, f"units/{mine['id']}/head")
    button = re.search(r'<button[^>]*data-stand-action="add-marker"[^>]*>', head)
    assert (
        button is not None
        and "data-act-greyed" in button.group(0)
        and 'aria-disabled="true"' in button.group(0)
    )
    assert "Wait for the game to start" in button.group(0)
    # In play, a marker on the defender's stand: only its own side and the referee are offered its "−S" on the
    # board, as only they may recover it (the attacker's write: 403).
    start_game(client, g)
    marker = f"/api/v1/games/{g.id}/units/{theirs['id']}/markers"
    assert client.post(marker, headers=g.attacker, json={"delta": 1}).status_code == 200
    for seat, offered in ((g.attacker, False), (g.defender, True), (g.referee, True)):
        assert (f'id="rm-{theirs["id"]}"' in card(client, g, seat, "referee", "")[1]) is offered
    assert client.post(marker, headers=g.attacker, json={"delta": -1}).status_code == 403


def test_the_head_s_marker_buttons_are_writes_through_the_outbox(client: TestClient) -> None:
    # A marker's button is the page's write (data-api, api-action.js), its delta its body; the referee's offers
    # to override once refused (data-override), even greyed; one refused to a side writes nothing (its tap says
    # why: in step 1 a rifle platoon recovers none).
    g = new_game(client)
    mine = first(units(client, g), "attacker", "rifle-platoon")
    start_game(client, g)
    client.post(f"/api/v1/games/{g.id}/units/{mine['id']}/markers", headers=g.referee, json={"delta": 1})
    url = f'data-api="/api/v1/games/{g.id}/units/{mine["id"]}/markers"'
    for seat, override in ((g.attacker, False), (g.referee, True)):
        head = card(client, g, seat, f"units/{mine['id']}/head")[1]
        for action, delta in (("add-marker", 1), ("recover", -1)):
            button = re.search(rf'<button[^>]*data-stand-action="{action}"[^>]*>', head)
            assert button is not None, (seat, action)
            written = override or "data-act-greyed" not in button.group(0)
            assert (url in button.group(0)) is written and ("data-override" in button.group(0)) is override
            assert (f"data-body='{{\"delta\": {delta}}}'" in button.group(0)) is written
        assert url in head and (action == "recover" and "data-act-greyed" in button.group(0)), head


def test_the_head_greys_the_map_s_moves_the_pipeline_refuses_with_its_sentence(client: TestClient) -> None:
    # The map's Move and "Move its company/battalion" as the act pipeline judges them for the seat (the API's
    # answer of the stand's acts, its `offers`): drawn greyed with the sentence by the server, as the markers
    # are; the referee's Move stays a button, its tap asking to override (tests/frontend/test_map_override.py).
    g = new_game(client)
    start_game(client, g)
    advance_to(client, g, "battalion-orders")
    mine = first(units(client, g), "attacker", "rifle-platoon")
    for seat, referee in ((g.attacker, False), (g.referee, True)):
        answer = client.get(f"/api/v1/games/{g.id}/units/{mine['id']}/acts", headers=seat).json()
        moves = [o for o in answer["offers"] if o["kind"] in ("move", "formation")]
        assert moves and all(o["refused"] for o in moves), moves
        _, head = card(client, g, seat, f"units/{mine['id']}/head")
        for o in moves:
            at = (
                'data-stand-action="move"' if o["kind"] == "move" else f'data-move-formation="{o["unit_id"]}"'
            )
            said = button(head, at)
            assert "data-act-greyed" in said and f'title="{o["refused"]["detail"]}"' in said, said
            overridable = referee and o["kind"] == "move"
            assert ('aria-disabled="true"' in said) is not overridable, said
            # Its name says it is refused, its title (read after the name) why: the reason said once, not twice
            # (session 24's newcomer heard "Wait for the defender's turn: …" twice on the referee's Move).
            state = "refused now, the referee may override" if overridable else "not now"
            assert f'aria-label="{o["label"]}, {state}"' in said, said


def test_a_template_s_card_writes_its_turn_and_removal_and_the_turn_chip_says_the_game_s_status(
    client: TestClient,
) -> None:
    """A template's Turn 45° and "Take it off the table" are the server's writes (issue 67): each a button writing
    to the template's URL through the outbox, the turn carrying the rotation 45 degrees on from where the template
    lies, once round past 360; and the turn chip carries the game's status, which map.css shows the table's editor
    and the templates by (set-up, then played)."""
    g = new_game(client)
    assert 'data-status="setup"' in card(client, g, g.attacker, "turn")[1]
    start_game(client, g)
    assert 'data-status="playing"' in card(client, g, g.attacker, "turn")[1]
    laid = client.post(
        f"/api/v1/games/{g.id}/templates",
        headers=g.attacker,
        json={"kind": "artillery", "x": 60, "y": 90, "rotation": 330},
    )
    tid = laid.json()["template"]["id"]
    api = f"/api/v1/games/{g.id}/templates/{tid}"
    part = html.unescape(card(client, g, g.attacker, f"templates/{tid}/card")[1])
    turn = re.search(
        r'data-template-action="turn" data-api="([^"]+)" data-method="PATCH" data-body=\'([^\']+)\'', part
    )
    assert turn is not None and turn.group(1) == api and turn.group(2) == '{"rotation": 15.0}', part
    assert f'data-template-action="remove" data-api="{api}" data-method="DELETE"' in part
    # The body as api-action.js sends it turns the template there.
    turned = client.patch(api, headers=g.attacker, json={"rotation": 15.0})
    assert turned.status_code == 200 and turned.json()["template"]["rotation"] == 15.0, turned.text
    part = html.unescape(card(client, g, g.attacker, f"templates/{tid}/card")[1])
    assert '{"rotation": 60.0}' in part


def test_the_head_offers_the_undo_of_the_stand_s_newest_move_or_marker_the_seat_may_take_back(
    client: TestClient,
) -> None:
    """Session 23's newcomer moved a stand and put a marker on one, and the card offered no Undo (only the referee's
    log did): the head offers the stand's newest move or marker where the undo pipeline would take it back for
    this seat (app.services.undo: a player's own, back to the last roll), in the log's words, and nothing of
    the seat's own once another's act stands over it."""
    g = new_game(client)
    start_game(client, g)
    mine = first(units(client, g), "attacker", "rifle-platoon")
    api = f"/api/v1/games/{g.id}"

    def undo_of(seat: dict[str, str]) -> tuple[str, str] | None:
        """The URL the head's Undo takes back through (the map's Undo: the event's) and its words."""
        head = card(client, g, seat, f"units/{mine['id']}/head")[1]
        found = re.search(r'<button[^>]*data-stand-undo data-play-undo="(\d+)">([^<]+)<', head)
        return (f"{api}/events/{found.group(1)}/undo", html.unescape(found.group(2))) if found else None

    assert undo_of(g.attacker) is None and undo_of(g.referee) is None  # nothing done to it yet
    moved = client.post(
        f"{api}/units/{mine['id']}/move",
        headers=g.referee,
        json={"x": mine["x"] + 10, "y": mine["y"], "facing_deg": 90, "override": True},
    )
    assert moved.status_code == 200, moved.text
    # The referee's move: the referee's to take back, not the attacker's (a player undoes only its own).
    assert undo_of(g.referee) == (f"{api}/events/{moved.json()['event_id']}/undo", "Undo: moved 10 cm")
    assert undo_of(g.attacker) is None
    marked = client.post(f"{api}/units/{mine['id']}/markers", headers=g.attacker, json={"delta": 1})
    assert marked.status_code == 200, marked.text
    offered = undo_of(g.attacker)
    assert offered is not None and offered[1] == "Undo: +1 suppression", offered
    # Its tap is the undo pipeline's: taken back, the move under it is offered again to the referee.
    assert client.post(offered[0], headers=g.attacker, json={}).status_code == 200
    assert undo_of(g.attacker) is None
    assert undo_of(g.referee) == (f"{api}/events/{moved.json()['event_id']}/undo", "Undo: moved 10 cm")
    # A later act of another seat stands over the attacker's own: nothing under it is offered to the attacker.
    again = client.post(f"{api}/units/{mine['id']}/markers", headers=g.attacker, json={"delta": 1})
    assert again.status_code == 200 and undo_of(g.attacker) is not None
    theirs = client.post(f"{api}/units/{mine['id']}/markers", headers=g.defender, json={"delta": 1})
    assert theirs.status_code == 200, theirs.text
    assert undo_of(g.attacker) is None and undo_of(g.defender) is not None


def test_the_head_offers_no_undo_a_later_change_has_made_impossible(client: TestClient) -> None:
    """Session 23's second hostile pass: a marker by mortar fire spread over a company, then one of its stands
    recovered: the other stands' cards still offered the spread's Undo, which the undo refused ("too low to
    undo"). The card offers an Undo only while each of its changes can still be taken back."""
    g = new_game(client)
    start_game(client, g)
    us = units(client, g)
    mine = first(us, "attacker", "rifle-platoon")
    company = [u for u in us.values() if u["parent_id"] == mine["parent_id"] and u["id"] != mine["id"]]
    api = f"/api/v1/games/{g.id}"
    spread = client.post(
        f"{api}/units/{mine['id']}/markers", headers=g.referee, json={"delta": 1, "fire": "mortar"}
    )
    assert spread.status_code == 200 and len(spread.json()["changes"]) > 1, spread.text
    other = next(u for u in company if any(c["unit"] == u["id"] for c in spread.json()["changes"]))
    head = card(client, g, g.referee, f"units/{mine['id']}/head")[1]
    assert "data-stand-undo" in head  # the spread is the referee's to take back, whole
    back = {"delta": -1, "spend_action": False, "override": True}
    recovered = client.post(f"{api}/units/{other['id']}/markers", headers=g.referee, json=back)
    assert recovered.status_code == 200, recovered.text
    # The stand's newest act is still the spread, no longer undone whole: no Undo is offered, as the undo refuses.
    assert "data-stand-undo" not in card(client, g, g.referee, f"units/{mine['id']}/head")[1]
    refused = client.post(f"{api}/events/{spread.json()['event_id']}/undo", headers=g.referee, json={})
    assert refused.status_code == 409, refused.text


def map_island(client: TestClient, g: Game, name: str) -> tuple[str, dict[str, Any]]:
    """The attacker's map page and its JSON island `name` (a <script type="application/json">), read as its script
    reads it."""
    status, page = card(client, g, g.attacker, "map", page="")
    assert status == 200
    found = re.search(rf'<script type="application/json" id="{name}">(.+?)</script>', page)
    assert found is not None, name
    return page, json.loads(html.unescape(found.group(1)))


def test_the_map_draws_each_template_kind_labelled_in_the_server_s_words(client: TestClient) -> None:
    """A template's label on the map says its kind as the page's own buttons do (app.pages.templates.humanise,
    from the rule set's table kit): the map's sizes carry each kind's words, so the script says none itself."""
    g = new_game(client)
    page, sizes = map_island(client, g, "map-sizes")
    kinds = sizes["templates"]
    assert kinds["artillery"]["name"] == "Artillery" and kinds["light-mortar"]["name"] == "Light mortar"
    for kind, size in kinds.items():
        assert f'data-add-template="{kind}">{size["name"]}</button>' in page


def test_the_map_names_each_stand_s_kind_in_its_card_s_words(client: TestClient) -> None:
    """A stand on the map is named for a screen reader with its kind as its card's head says it (issue 92:
    "mmg" is "MMG", not the script's plain capital): the map's rule-set island carries each level and kind of
    the book in the server's words (app.pages.templates.humanise), so the script says none the card would not."""
    g = new_game(client)
    said = map_island(client, g, "map-state")[1]["unit_words"]
    assert said["mmg"] == "MMG" and said["rifle-platoon"] == "Rifle platoon"
    placed = {u["kind"]: u for u in units(client, g).values() if u["base"]}
    assert len(placed) > 2, placed.keys()
    for kind, u in placed.items():
        head = card(client, g, g.attacker, f"units/{u['id']}/head")[1]
        assert f"{humanise(u['side'])} · {said[kind]}</p>" in head, (kind, words(head))


def test_the_head_greys_a_move_the_pipeline_refuses_in_set_up_too(client: TestClient) -> None:
    """The newcomer pass: in set-up a stand given a suppression marker (the referee's) kept its Move offered on its
    card while the pipeline refused the move ("… is suppressed and may not move"). The head judges its moves by
    the pipeline whatever the game's status, as its markers are judged."""
    g = new_game(client)
    mine = first(units(client, g), "attacker", "rifle-platoon")
    marked = client.post(
        f"/api/v1/games/{g.id}/units/{mine['id']}/markers",
        headers=g.referee,
        json={"delta": 1, "override": True},
    )
    assert marked.status_code == 200, marked.text
    moved = client.post(
        f"/api/v1/games/{g.id}/units/{mine['id']}/move",
        headers=g.attacker,
        json={"x": mine["x"], "y": mine["y"] + 2, "facing_deg": mine["facing_deg"]},
    )
    assert moved.status_code == 409, moved.text
    _, head = card(client, g, g.attacker, f"units/{mine['id']}/head")
    said = button(head, 'data-stand-action="move"')
    assert "data-act-greyed" in said and f'title="{moved.json()["detail"]}"' in said, said


def test_a_formation_s_move_is_judged_by_a_step_that_keeps_it_on_the_table(client: TestClient) -> None:
    """The hostile pass: the card judged "Move its company" by the stand's own step towards the table's middle, so
    a company with a stand at the other edge was greyed "that would put … off the table" while the pipeline took
    its move (the way and the distance are the player's). Its step is turned back where it would put one off."""
    g = new_game(client)
    us = units(client, g)
    a = first(us, "attacker", "rifle-platoon")
    b = next(
        u
        for u in us.values()
        if u["parent_id"] == a["parent_id"] and u["id"] != a["id"] and u["x"] is not None
    )
    for u, x in ((b, 0.5), (a, 100.0)):
        at = {"x": x, "y": u["y"], "facing_deg": u["facing_deg"]}
        moved = client.post(f"/api/v1/games/{g.id}/units/{u['id']}/move", headers=g.attacker, json=at)
        assert moved.status_code == 200, moved.text
    _, head = card(client, g, g.attacker, f"units/{a['id']}/head")
    assert "data-act-greyed" not in button(head, f'data-move-formation="{a["parent_id"]}"')
    shifted = client.post(
        f"/api/v1/games/{g.id}/units/{a['parent_id']}/move-formation",
        headers=g.attacker,
        json={"dx": 5, "dy": 0},
    )
    assert shifted.status_code == 200, shifted.text
