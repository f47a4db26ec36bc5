"""The acts of a stand's card on the map as the server renders them (app/pages/stand_acts.py, issue 67): the
fragment shows what the act pipeline's answer of the stand's acts says (GET .../units/{id}/acts, the same
function), each roll at its index, a direct roll with its dice and the table's odds, the acts refused greyed with
the pipeline's sentence, why nothing is offered out of turn, and to the other side's seat nothing of the stand
but what that seat's own answer holds; the template's context is the one `StandActs.context` builds. Its taps
are the browser's (tests/frontend/test_map_play.py)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from app.pages.stand_acts import Greyed, StandActs, StandEdited, StandEdits, StandPick, edit_parts
from app.pages.stand_done import StandDone
from app.pages.stand_play import AskedCard
from app.pages.templates import humanise
from tests.app.games.conftest import Game, advance_to, new_game, start_game
from tests.app.games.test_fire_refusals import mg_facing
from tests.app.games.test_stand_acts import first, units

TEMPLATE = Path(__file__).resolve().parents[3] / "frontend" / "templates" / "_stand_acts.html"


def fragment(http: TestClient, g: Game, seat: dict[str, str], unit_id: int, part: str = "acts") -> str:
    """The card's acts (or `part`: its target list) for the seat of `seat` (its device's cookie); the map's
    turn chip for `part` "turn"."""
    http.cookies.set(COOKIE_NAME, seat["Authorization"].removeprefix("Bearer "))
    path = "map/turn" if part == "turn" else f"map/units/{unit_id}/{part}"
    try:
        answer = http.get(f"/games/{g.id}/{path}", headers={"HX-Request": "true"})
    finally:
        http.cookies.clear()
    assert answer.status_code == 200, answer.text
    return answer.text


def data_of(part: str, name: str) -> Any:
    found = re.search(rf'data-{name}="([^"]*)"', part)
    assert found, part
    return json.loads(html.unescape(found.group(1)))


def words(part: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", part)))


def held(answer: dict[str, Any], step: int) -> dict[str, Any]:
    """What the card's buttons carry of the API's answer of the stand's acts: each roll's words, resolver,
    roller, whether a target is tapped next and its order's field; which part comes first (the edits also
    where no roll is offered but an edit is); and the game's step they are of (a play begun from them is of
    that step, whatever the device has heard yet)."""
    first = answer["first"] or ("edits" if not answer["acts"] and answer["edits"] else "")
    acts = [(a["label"], a["resolver"], a["unit_id"], a["target"], a["order"]) for a in answer["acts"]]
    return {"acts": acts, "first": first, "step": step}


ACT = re.compile(
    r'data-act-label="([^"]*)" data-act-resolver="([^"]*)" data-act-unit="(\d+)" data-act-target="([^"]*)"'
    r' data-act-order="([^"]*)"'
)


def carried(part: str) -> dict[str, Any]:
    """What the card's part carries for table-act.js: its rolls, as their buttons say them, its first part and
    its step."""
    acts = [(html.unescape(a), r, int(u), t == "1", o) for a, r, u, t, o in ACT.findall(part)]
    first, step = re.search(r'data-card-first="([^"]*)"', part), re.search(r'data-card-step="(\d+)"', part)
    assert first and step, part
    return {"acts": acts, "first": first.group(1), "step": int(step.group(1))}


def test_the_card_shows_what_the_pipeline_answers_for_the_stand(client: TestClient) -> None:
    g = new_game(client)
    api = f"/api/v1/games/{g.id}"
    platoon = first(units(client, g), "attacker", "rifle-platoon")
    # In set-up nothing is offered: the card holds no act.
    assert "data-act" not in fragment(client, g, g.attacker, platoon["id"])
    advance_to(client, g, "battalion-orders")
    answer = client.get(f"{api}/units/{platoon['id']}/acts", headers=g.attacker).json()
    part = fragment(client, g, g.attacker, platoon["id"])
    step = client.get(api, headers=g.attacker).json()["step"]
    assert step > 0 and carried(part) == held(answer, step)
    # The company's order roll: a direct roll (its die tapped records it) with the table's odds.
    assert [a["label"] for a in answer["acts"]] == ["Order roll"]
    assert (
        'data-act-direct="0"' in part and part.count('data-act-die="0"') == 6 and 'data-act-roll="0"' in part
    )
    # Each die's button named as a screen reader says it (the newcomer pass: "1" to "6"), its face its words.
    assert re.search(r'data-face="4"[^>]*aria-label="Die showing 4">4</button>', part), part
    asked = client.post(
        f"{api}/ask/order-roll", headers=g.attacker, json={"unit_id": answer["acts"][0]["unit_id"]}
    )
    odds = asked.json()["odds_words"]
    assert odds and all(f"{v}" in words(part) for v in odds.values()) and "Odds: " in words(part)
    # Each act the pipeline refuses is greyed with its sentence.
    for o in (o for o in answer["offers"] if o["refused"] and o["kind"] in ("roll", "edit")):
        assert f'data-act-greyed="{o["key"]}"' in part and o["refused"]["detail"] in words(part)
    # The other side's seat: nothing of the stand but what its own answer holds (no roll, no edit of it).
    theirs = client.get(f"{api}/units/{platoon['id']}/acts", headers=g.defender).json()
    other = fragment(client, g, g.defender, platoon["id"])
    assert carried(other) == held(theirs, step)
    assert "data-act=" not in other and "data-act-direct" not in other and "Order roll" not in words(other)
    # Out of turn, the card says why in one sentence.
    defender = first(units(client, g), "defender", "rifle-platoon")
    waiting = client.get(f"{api}/units/{defender['id']}/acts", headers=g.defender).json()
    assert waiting["refused"] and not waiting["acts"]
    assert "data-play-waiting" in (said := fragment(client, g, g.defender, defender["id"]))
    assert waiting["refused"]["detail"] in words(said)
    # Issue 69: the side chose firestep's dice, so the direct roll has no face to tap (the pipeline refuses
    # one): its Apply rolls the server's die.
    assert client.put(f"{api}/sides/attacker/dice", headers=g.attacker, json={"dice": "firestep"}).is_success
    ours = fragment(client, g, g.attacker, platoon["id"])
    assert "data-act-die" not in ours and re.search(r'data-act-roll="0">Apply<', ours), ours


def test_the_card_refuses_a_stand_of_no_game_by_its_field(client: TestClient) -> None:
    g = new_game(client)
    client.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    try:
        missing = client.get(f"/games/{g.id}/map/units/999999/acts", headers={"HX-Request": "true"})
        huge = client.get(f"/games/{g.id}/map/units/{2**40}/acts", headers={"HX-Request": "true"})
    finally:
        client.cookies.clear()
    assert missing.status_code == 422 and "Unit id: game" in html.unescape(missing.text)
    assert huge.status_code == 422 and "unit_id" in huge.text


def test_the_target_list_greys_each_stand_the_pipeline_refuses_with_why(client: TestClient) -> None:
    g = new_game(client)
    mg, target = mg_facing(client, g)
    start_game(client, g)
    marks = client.get(f"/api/v1/games/{g.id}/units/{mg['id']}/targets/shooting", headers=g.attacker).json()
    part = fragment(client, g, g.attacker, mg["id"], "targets/shooting")
    assert data_of(part, "target-marks") == marks and marks  # the map greys the same stands
    options = dict(re.findall(r'<option value="(\d+)"( disabled)?', part))
    assert int(next(iter(options))) == target["id"]  # nearest first, 28 cm straight ahead
    assert {int(i) for i, off in options.items() if off} == {m["unit_id"] for m in marks}
    assert all(f"· {m['mark']}</option>" in html.unescape(part) for m in marks)
    assert "Greyed stands may not be its target: tap one to see why." in words(part)
    # The other side's seat: refused as playing the roll is (it answered 200 with no stand greyed; issue 67).
    theirs = page_refusal(client, g, g.defender, f"{mg['id']}/targets/shooting")
    assert theirs == page_refusal(client, g, g.defender, f"{mg['id']}/play/shooting?act=Shoot")
    assert theirs[0] == 403 and "may not resolve for a unit" in theirs[1], theirs


def test_the_card_playing_a_roll_shows_what_the_table_answers(client: TestClient) -> None:
    """The MG's shot at the platoon before it: the odds and the dice as the table's answer asks them (nothing
    written), the answer once every die is tapped as the same dice asked of the API say it, a range by the tape
    given over the table's, and a roll the stand's card does not offer named by its field."""
    g = new_game(client)
    mg, target = mg_facing(client, g)
    advance_to(client, g, "battalion-orders")
    api = f"/api/v1/games/{g.id}"
    assert client.post(
        f"{api}/resolve/order-roll", headers=g.attacker, json={"unit_id": mg["id"], "dice": [6]}
    )
    logged = len(client.get(f"{api}/events", headers=g.referee).json())
    play = f"play/shooting?act=Shoot&target={target['id']}"
    body = {"unit_id": mg["id"], "target_id": target["id"]}
    asked = client.post(f"{api}/ask/shooting", headers=g.attacker, json=body).json()
    part = fragment(client, g, g.attacker, mg["id"], play)
    count = len(asked["resolution"]["dice"])
    assert f'data-dice-count="{count}"' in part and part.count('data-die-row="0"') == 6
    odds = " · ".join(f"{humanise(k)} {v}" for k, v in asked["odds_words"].items())
    assert asked["odds_words"] and f"Odds: {odds}" in words(part)
    assert "data-play-apply" not in part and "data-play-roll" in part
    dice = [1] * count
    answer = client.post(f"{api}/ask/shooting", headers=g.attacker, json={**body, "dice": dice}).json()
    done = fragment(client, g, g.attacker, mg["id"], f"{play}{''.join(f'&die={d}' for d in dice)}")
    assert f'data-play-outcome="{answer["resolution"]["outcome_key"]}"' in done and "data-play-apply" in done
    assert f"{answer['outcome_words']}." in words(done)
    assert all(line in words(done) for line in answer["said"] or ["Nothing changes on the table."])
    assert len(client.get(f"{api}/events", headers=g.referee).json()) == logged  # asked: nothing written
    taped = fragment(client, g, g.attacker, mg["id"], f"{play}&range_cm=12.5")
    assert 'value="12.5" data-play-range' in taped
    # Issue 69: whose dice a side rolls is its seat's choice, kept with the game, a tap on the card (the other
    # side's seat refused, a value not offered named); where firestep's, the card has no dice to enter.
    assert 'data-play-dice-by="players"' in part and '{"dice": "firestep"}' in html.unescape(part)
    choice = f"{api}/sides/attacker/dice"
    assert client.put(choice, headers=g.defender, json={"dice": "firestep"}).status_code == 403
    wrong = client.put(choice, headers=g.attacker, json={"dice": "mine"})
    assert wrong.status_code == 422 and wrong.json()["field"] == "dice", wrong.json()
    chosen = client.put(choice, headers=g.attacker, json={"dice": "firestep"})
    assert chosen.json() == {"side": "attacker", "dice": "firestep"}
    # Told to the other side in the log (the hostile pass: a switch to its own dice and back went unseen).
    told = client.get(f"{api}/events", headers=g.defender).json()
    assert told[-1]["kind"] == "dice-chosen" and told[-1]["payload"] == {
        "side": "attacker",
        "dice": "firestep",
    }
    rolled_for = fragment(client, g, g.attacker, mg["id"], f"{play}&die=1")
    assert 'data-play-dice-by="firestep"' in rolled_for and "data-die-row" not in rolled_for
    assert "Roll: firestep's dice" in words(rolled_for) and "data-play-apply" not in rolled_for
    # Chosen, it holds: the side's seat enters no dice of its own (the hostile pass), until it chooses again.
    entered = client.post(f"{api}/resolve/shooting", headers=g.attacker, json={**body, "dice": dice})
    assert entered.status_code == 422 and entered.json()["field"] == "dice", entered.json()
    assert client.put(choice, headers=g.attacker, json={"dice": "players"}).status_code == 200
    client.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    try:
        wrong = client.get(
            f"/games/{g.id}/map/units/{mg['id']}/play/shooting?act=Nonsense", headers={"HX-Request": "true"}
        )
    finally:
        client.cookies.clear()
    assert wrong.status_code == 422 and "Act: pick a roll" in html.unescape(wrong.text)
    # Recorded: the card says it as the roll's answer did (its dice, outcome and effects), with its Undo and the
    # stand's next acts as the pipeline now offers them; the other side's seat reads it too (the log is shared).
    rolled = client.post(f"{api}/resolve/shooting", headers=g.attacker, json={**body, "dice": dice}).json()
    after = fragment(client, g, g.attacker, mg["id"], f"done/{rolled['event_id']}?act=Shoot")
    # The target's die named with it, each other stand of its beaten zone on its own line (session 21).
    also = rolled["resolution"].get("also") or []
    whom = f" for {units(client, g)[target['id']]['short_name']}" if also else ""
    mine = " and ".join(map(str, dice[: len(dice) - len(also)]))
    assert f"Shoot: rolled {mine}{whom}, {rolled['outcome_words']}." in words(after)
    assert all(line in words(after) for line in rolled["said"] or ["Nothing changes on the table."])
    assert f'data-play-undo="{rolled["event_id"]}"' in after
    now = client.get(f"{api}/units/{mg['id']}/acts", headers=g.attacker).json()
    assert carried(after) == held(now, client.get(api, headers=g.attacker).json()["step"])
    assert ("data-play-next" in after) == bool(now["acts"])
    client.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    try:
        none = client.get(f"/games/{g.id}/map/units/{mg['id']}/done/999999", headers={"HX-Request": "true"})
    finally:
        client.cookies.clear()
    assert none.status_code == 404
    version = client.get(f"{api}/turn", headers=g.referee).json()["version"]
    assert client.post(f"{api}/finish", headers=g.referee, json={"version": version}).is_success
    over = client.put(choice, headers=g.attacker, json={"dice": "firestep"})
    assert over.status_code == 409 and "The game is over" in over.json()["detail"], over.json()


def page_refusal(http: TestClient, g: Game, seat: dict[str, str], path: str) -> tuple[int, str]:
    """A card part's status and the sentence its refusal page leads with, for `seat`."""
    http.cookies.set(COOKIE_NAME, seat["Authorization"].removeprefix("Bearer "))
    try:
        answer = http.get(f"/games/{g.id}/map/units/{path}", headers={"HX-Request": "true"})
    finally:
        http.cookies.clear()
    lead = re.search(r'class="lead"[^>]*>(.*?)</', answer.text, re.S)
    return answer.status_code, html.unescape(lead.group(1)).strip() if lead else answer.text


def test_the_card_offers_undo_exactly_when_the_undo_service_takes_the_roll_back(client: TestClient) -> None:
    """The hostile pass of issue 67: the other side's seat read the attacker's recorded roll with an Undo the API
    then refused (403). Each seat's card of a recorded roll offers Undo as `undo` would answer it now, and says
    why not where it would not."""
    g = new_game(client)
    mg, _ = mg_facing(client, g)
    advance_to(client, g, "battalion-orders")
    api = f"/api/v1/games/{g.id}"
    rolled = client.post(
        f"{api}/resolve/order-roll", headers=g.attacker, json={"unit_id": mg["id"], "dice": [6]}
    ).json()
    done = f"done/{rolled['event_id']}?act=Order%20roll"
    undo = f'data-play-undo="{rolled["event_id"]}"'
    assert undo in fragment(client, g, g.attacker, mg["id"], done)
    assert undo in fragment(client, g, g.referee, mg["id"], done)
    theirs = fragment(client, g, g.defender, mg["id"], done)
    refused = client.post(f"{api}/events/{rolled['event_id']}/undo", headers=g.defender)
    assert undo not in theirs and refused.status_code == 403
    assert f"Undo: {refused.json()['detail']}" in words(theirs)


def test_a_card_parts_refusal_is_one_sentence_naming_its_field(client: TestClient) -> None:
    """The hostile pass of issue 67: an unknown roll's refusal listed the rule set's 30-odd rolls (347 characters),
    a die out of range answered bare text, a range of NaN was refused as too large."""
    g = new_game(client)
    mg, target = mg_facing(client, g)
    start_game(client, g)
    for path, field in (
        (f"{mg['id']}/targets/nope", "Resolver"),
        (f"{mg['id']}/play/shooting?act=Shoot&target={target['id']}&die=7", "Die"),
        (f"{mg['id']}/play/shooting?act=Shoot&target={target['id']}&order=0", "Order"),
    ):
        status, said = page_refusal(client, g, g.attacker, path)
        assert status == 422 and said.startswith(f"{field}: ") and len(said) <= 120, (path, said)
    nan = f"{mg['id']}/play/shooting?act=Shoot&target={target['id']}&range_cm=nan"
    status, said = page_refusal(client, g, g.attacker, nan)
    assert status == 422 and "finite" in said, said


def test_a_seat_is_refused_a_stand_it_may_not_act_for_before_its_act_is_read(client: TestClient) -> None:
    """The hostile pass of issue 67: an act's label was checked before the seat, so the other side's seat read
    422 for a label the stand has not and 403 for one it has: an oracle of the stand's rolls."""
    g = new_game(client)
    mg, target = mg_facing(client, g)
    start_game(client, g)
    play = f"{mg['id']}/play/shooting?target={target['id']}&act="
    theirs = page_refusal(client, g, g.defender, f"{play}Shoot")
    assert theirs[0] == 403 and page_refusal(client, g, g.defender, f"{play}Nonsense") == theirs


def test_a_recorded_roll_of_no_such_event_is_refused_as_one_not_a_roll(client: TestClient) -> None:
    """The hostile pass of issue 67: done/{event} said "unknown event" for an id of no event and "unknown roll" for
    an event not a roll, telling a seat which event ids exist: one sentence for both."""
    g = new_game(client)
    mg, _ = mg_facing(client, g)
    start_game(client, g)
    events = client.get(f"/api/v1/games/{g.id}/events", headers=g.referee).json()
    not_a_roll = next(e["id"] for e in events if e["kind"] != "roll")
    gone = max(e["id"] for e in events) + 1000
    answers = [page_refusal(client, g, g.attacker, f"{mg['id']}/done/{i}") for i in (not_a_roll, gone)]
    assert [status for status, _ in answers] == [404, 404]
    assert answers[0][1].replace(str(not_a_roll), "N") == answers[1][1].replace(str(gone), "N"), answers


def test_the_templates_render_the_context_their_functions_build() -> None:
    """Each template's "Required context" names what its function's `context` gives it, and it reads only
    that type's fields."""
    for name, built in (
        ("_stand_acts.html", StandActs(1, (), (), (), None, "", 0, "")),
        ("_stand_pick.html", StandPick(1, "", (), "[]")),
        ("_stand_play.html", AskedCard(1, "", 0)),
        ("_stand_done.html", StandDone(1, "", (), (), StandActs(1, (), (), (), None, "", 0, ""))),
        ("_stand_edits.html", StandEdits(1)),
        ("_stand_edited.html", StandEdited(1, "")),
    ):
        text = (TEMPLATE.parent / name).read_text()
        kind = f"{type(built).__module__}.{type(built).__name__}"
        required = re.search(rf"Required context: (\w+) \({re.escape(kind)}\)", text)
        assert required and set(built.context()) == {required.group(1)}, name
        read = set(re.findall(r"\bs\.(\w+)", text))
        assert read and read <= set(type(built).__dataclass_fields__), (name, read)


def pieces(part: str) -> dict[str, str]:
    """The edits part's pieces (data-edits-state), each its HTML, as table-edit.js shows one at a time."""
    edits = part[part.index("data-stand-edits-part") :]
    found = re.findall(
        r'<div data-edits-state="([^"]+)">(.*?)</div></div>(?=<div data-edits-state|\s*</div>)', edits, re.S
    )
    return dict(found)


def test_the_cards_edits_are_each_value_the_pipeline_allows_and_its_answer_once_saved(
    sqlite_client: TestClient,
) -> None:
    """The 2mm bound's planning from the card's edits part (_stand_edits.html): the formation's command, each
    value the pipeline would accept a button carrying what its PUT sends, those it refuses greyed with its
    sentence; a plan's target prompt; once saved, the card's words, the stand stored as its target and Undo
    as the undo service answers each seat; the other side's seat reads no edit of the stand."""
    c = sqlite_client
    g = new_game(c, {"scenario": "earth2mm-demo-ferme"})
    start_game(c, g)
    api = f"/api/v1/games/{g.id}"
    named = {u["name"]: u for u in c.get(f"{api}/units", headers=g.referee).json()}
    platoon, coy, enemy = (named[n] for n in ("A Company, platoon 1", "A Company", "1. Kompanie, platoon 1"))
    answer = c.get(f"{api}/units/{platoon['id']}/acts", headers=g.attacker).json()
    part = fragment(c, g, g.attacker, platoon["id"])
    shown = pieces(part)
    [command] = answer["edits"]
    assert f">{html.escape(command['label'])}</button>" in shown["list"]
    values = re.findall(r'data-edit-value="([^"]*)"', shown["edit-0"])
    assert [json.loads(html.unescape(v)) for v in values] == [ch["value"] for ch in command["choices"]]
    assert f'data-edit-unit="{command["unit_id"]}" data-edit-field="high_command"' in shown["edit-0"]
    assert "data-edit" not in fragment(c, g, g.defender, platoon["id"]).replace("data-edits-", "")
    # Saved: the card's words for it, Undo for the seat that may take it back, why not for the other.
    sf = command["unit_id"]
    version = c.get(f"{api}/units/{sf}", headers=g.attacker).json()["version"]
    put = c.put(f"{api}/units/{sf}", headers=g.attacker, json={"version": version, "high_command": "advance"})
    event = put.json()["event_id"]
    said = f"edited/{event}?act={command['label']}: Advance"
    saved = fragment(c, g, g.attacker, platoon["id"], said)
    assert f"{command['label']}: Advance." in words(saved) and f'data-edit-undo="{event}"' in saved
    theirs = fragment(c, g, g.defender, platoon["id"], said)
    refused = c.post(f"{api}/events/{event}/undo", headers=g.defender)
    assert "data-edit-undo=" not in theirs and refused.status_code == 403
    assert f"Undo: {refused.json()['detail']}" in words(theirs)

    # The line's plan: its target tapped on the map (not needed: "No target"); saved, the stand the rules
    # stored is named (a base tapped names its sub-unit).
    advance_to(c, g, "plan-line")
    shown = pieces(fragment(c, g, g.attacker, platoon["id"]))
    assert (
        "Tap its target on the map." in words(shown["pick-0-0"])
        and "data-edit-untargeted" in shown["pick-0-0"]
    )
    assert 'data-edit-target="plan_target"' in shown["edit-0"]
    version = c.get(f"{api}/units/{coy['id']}", headers=g.attacker).json()["version"]
    body = {"version": version, "sub_plan": "move", "plan_target": enemy["id"]}
    event = c.put(f"{api}/units/{coy['id']}", headers=g.attacker, json=body).json()["event_id"]
    saved = fragment(c, g, g.attacker, platoon["id"], f"edited/{event}?act=Plan: Move&target=plan_target")
    assert re.search(r"Plan: Move at \S[^.]*\.", words(saved)), words(saved)
    assert "Plan: Move." in words(fragment(c, g, g.attacker, platoon["id"], f"edited/{event}?act=Plan: Move"))
    # Not an edit's event, or none: no card, in the one sentence of an event that does not exist.
    status, said = page_refusal(c, g, g.attacker, f"{platoon['id']}/edited/1")
    assert status == 404 and said == page_refusal(c, g, g.attacker, f"{platoon['id']}/edited/{2**31 - 1}")[
        1
    ].replace(str(2**31 - 1), "1"), said
    # The card of no stand of this game: refused as the stand's acts are (hostile pass: any unit id answered 200).
    for other in (2**31 - 1, coy["id"] + 100_000):
        status, said = page_refusal(c, g, g.attacker, f"{other}/edited/{event}?act=Plan: Move")
        assert status == 422 and f"has no unit with id {other}" in said, said
    # Words longer than a card's are refused by their field.
    status, said = page_refusal(c, g, g.attacker, f"{platoon['id']}/edited/{event}?act={'x' * 121}")
    assert status == 422 and json.loads(said)["field"] == "act", said


def test_an_edits_refused_values_are_greyed_among_its_values() -> None:
    """A value of an edit offered that the pipeline refuses is greyed with its sentence among the edit's values
    (its card's offers of that unit and field), not those of another unit's edit of the same field."""
    refused = {"detail": "Not now: the chart allows a move only.", "remedy": ""}
    card = {
        "edits": [
            {
                "label": "Plan A Company",
                "field": "sub_plan",
                "unit_id": 2,
                "why": "its plan",
                "choices": [
                    {"value": "move", "label": "Move", "target": "plan_target", "needs_target": False}
                ],
            }
        ],
        "offers": [
            {"kind": "edit", "key": "sub_plan", "label": "Move", "unit_id": 2, "refused": None},
            {"kind": "edit", "key": "sub_plan", "label": "Assault", "unit_id": 2, "refused": refused},
            {"kind": "edit", "key": "sub_plan", "label": "Hold", "unit_id": 5, "refused": refused},
        ],
    }
    [plan] = edit_parts(card)
    assert [c.words for c in plan.choices] == ["Plan A Company: Move"] and plan.choices[0].value == '"move"'
    assert plan.greyed == (Greyed("sub_plan", "Assault", refused["detail"]),)


def test_the_head_offers_the_formations_the_seat_may_move_as_one(client: TestClient) -> None:
    """A stand's head offers "Move its company" (and its battalion's) where more than one of their stands is on
    the table, to a seat that may act for it alone (issue 67: the server's, no longer built by table-formation.js)."""
    g = new_game(client)
    us = units(client, g)
    company = next(u for u in us.values() if u["side"] == "attacker" and u["kind"] == "rifle-company")
    stand = next(u for u in us.values() if u["parent_id"] == company["id"] and u["x"] is not None)
    offered = re.findall(
        r'data-move-formation="(\d+)"[^>]*>Move its (\w+)<',
        fragment(client, g, g.attacker, stand["id"], "head"),
    )
    assert offered[0] == (str(company["id"]), "company"), offered
    assert "data-move-formation" not in fragment(client, g, g.defender, stand["id"], "head")


def test_the_map_s_turn_chip_says_the_turn_and_the_side_to_move_only_in_play(client: TestClient) -> None:
    """The map's turn chip is the server's (issue 67): set-up, then the rules' turn and the side to move, that
    side as data only while the game is played (table-cards.js offers the draw to it)."""
    g = new_game(client)
    chip = fragment(client, g, g.attacker, 0, "turn")
    assert "Setting up" in chip and 'data-side-to-move=""' in chip, chip
    start_game(client, g)
    chip = fragment(client, g, g.defender, 0, "turn")
    assert re.search(
        r'data-turn="1"[^>]*data-side-to-move="attacker"[^>]*>\w+ 1 · Attacker to move<', chip
    ), chip
