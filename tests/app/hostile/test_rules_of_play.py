"""The game's own rules of play, tried as a careless or hostile player would: markers, moves, unit edits and
new units follow the game's status and the current step of the period's turn sequence (set-up: deployment
and force building; play: what the step's printed line allows; finished: nothing). The referee may override,
and the log says so. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, new_game, units_by_ref

DE_BN1 = "mons-1914/de/infantry-regiment-1/infantry-battalion-1"
GB_BN1 = "mons-1914/gb/infantry-brigade-1/infantry-battalion-1"


def api(g: Game, path: str) -> str:
    return f"/api/v1/games/{g.id}{path}"


def turn(c: TestClient, g: Game) -> dict[str, Any]:
    return dict(c.get(api(g, "/turn"), headers=g.referee).json())


def advance(c: TestClient, g: Game, who: dict[str, str]) -> dict[str, Any]:
    r = c.post(api(g, "/turn/advance"), headers=who, json={"version": turn(c, g)["version"]})
    assert r.status_code == 200, r.text
    return dict(r.json()["turn"])


def marker(c: TestClient, g: Game, who: dict[str, str], unit: dict[str, Any], **body: Any) -> Any:
    return c.post(api(g, f"/units/{unit['id']}/markers"), headers=who, json={"delta": 1, **body})


def move(
    c: TestClient, g: Game, who: dict[str, str], unit: dict[str, Any], dy: float = 1, **body: Any
) -> Any:
    return c.post(
        api(g, f"/units/{unit['id']}/move"),
        headers=who,
        json={"x": unit["x"], "y": unit["y"] + dy, "facing_deg": 90, **body},
    )


def order(c: TestClient, g: Game, unit_id: int) -> None:
    """The attacker orders a unit with a 6 (two actions for a company or a battery in 1914)."""
    r = c.post(api(g, "/resolve/order-roll"), headers=g.attacker, json={"unit_id": unit_id, "dice": [6]})
    assert r.status_code == 200, r.text


def unit_now(c: TestClient, g: Game, unit: dict[str, Any]) -> dict[str, Any]:
    return dict(c.get(api(g, f"/units/{unit['id']}"), headers=g.referee).json())


def refused(r: Any, *words: str) -> str:
    """A 409 that says what to do in one sentence, with the rule (and what is allowed now) in full beside it."""
    assert r.status_code == 409, r.text
    body = r.json()
    for w in words:
        assert w in body["why"], (w, body["why"])
    assert body["current"]["allowed_now"] == turn_allowed(body)
    assert len(body["detail"]) <= 120 and (body.get("source") or "over" in body["why"]), body
    return str(body["why"])


def turn_allowed(body: dict[str, Any]) -> list[str]:
    return list(body["current"]["allowed_now"])


def events_of(c: TestClient, g: Game, who: dict[str, str], kind: str) -> list[dict[str, Any]]:
    return [e for e in c.get(api(g, "/events"), headers=who).json() if e["kind"] == kind]


def test_markers_in_set_up_are_refused(client: TestClient) -> None:
    c, g = client, new_game(client)
    units = units_by_ref(c, g)
    target = units[f"{GB_BN1}/rifle-company-1/rifle-platoon-1"]
    # Three taps used to kill a stand before the first turn.
    for who in (g.attacker, g.defender, g.referee):
        msg = refused(marker(c, g, who, target, fire="rifle"), "not started", "deploy")
        assert "Allowed now" in msg and "place suppression markers" in msg
    assert unit_now(c, g, target)["suppression"] == 0
    assert events_of(c, g, g.referee, "marker") == []
    # Recovering is refused too; deployment and force building go on.
    refused(
        c.post(
            api(g, f"/units/{target['id']}/markers"),
            headers=g.referee,
            json={"delta": -1, "spend_action": False},
        ),
        "not started",
    )
    assert move(c, g, g.defender, target).status_code == 200
    hq = units[f"{GB_BN1}/battalion-command-1"]
    assert (
        c.put(
            api(g, f"/units/{hq['id']}"), headers=g.defender, json={"version": hq["version"], "name": "HQ"}
        ).status_code
        == 200
    )
    added = c.post(
        api(g, "/units"), headers=g.defender, json={"side": "defender", "name": "Sappers", "level": "platoon"}
    )
    assert added.status_code == 201, added.text
    # The turn endpoint says what set-up allows.
    assert "place suppression markers" not in " ".join(turn(c, g)["allowed_now"])
    assert "move stands" in turn(c, g)["allowed_now"]


def test_after_finish_every_write_is_refused_for_sides(client: TestClient) -> None:
    c, g = client, new_game(client)
    units = units_by_ref(c, g)
    advance(c, g, g.referee)
    platoon = units[f"{DE_BN1}/rifle-company-1/rifle-platoon-1"]
    enemy = units[f"{GB_BN1}/rifle-company-1/rifle-platoon-1"]
    assert marker(c, g, g.attacker, enemy, fire="rifle").status_code == 200
    finished = c.post(api(g, "/finish"), headers=g.referee, json={"version": turn(c, g)["version"]})
    assert finished.status_code == 200 and finished.json()["allowed_now"] == []
    before = units_by_ref(c, g)
    for side, own in ((g.attacker, platoon), (g.defender, enemy)):
        writes = [
            marker(c, g, side, enemy, fire="mg"),
            marker(c, g, side, platoon, fire="mg"),
            c.post(api(g, f"/units/{own['id']}/markers"), headers=side, json={"delta": -1}),
            move(c, g, side, own),
            c.put(
                api(g, f"/units/{own['id']}"),
                headers=side,
                json={"version": unit_now(c, g, own)["version"], "in_gas": True},
            ),
            c.put(
                api(g, f"/units/{own['id']}"),
                headers=side,
                json={"version": unit_now(c, g, own)["version"], "name": "x"},
            ),
            c.post(
                api(g, "/units"), headers=side, json={"side": own["side"], "name": "Late", "level": "platoon"}
            ),
            c.post(
                api(g, "/forces"),
                headers=side,
                json={"side": own["side"], "table_id": "de-1914" if own is platoon else "gb-1914"},
            ),
        ]
        for r in writes:
            refused(r, "over")
        # The rest was already refused once the game is over.
        assert (
            c.post(api(g, "/turn/advance"), headers=side, json={"version": turn(c, g)["version"]}).status_code
            == 409
        )
        assert (
            c.post(
                api(g, "/resolve/movement"),
                headers=side,
                json={"unit_id": own["id"], "fields": {"mover": "infantry", "terrain": "cross-country"}},
            ).status_code
            == 409
        )
    # Nor may a side undo what it did before the end.
    (placed,) = events_of(c, g, g.attacker, "marker")
    undone = c.post(api(g, f"/events/{placed['id']}/undo"), headers=g.attacker)
    assert undone.status_code == 409 and "over" in undone.json()["why"], undone.text
    assert units_by_ref(c, g) == before
    # A side may not claim the referee's override.
    assert move(c, g, g.attacker, platoon, override=True).status_code == 403


def test_after_finish_every_write_is_refused_for_sides_in_every_rule_set(client: TestClient) -> None:
    """Issue 64's hostile pass: "nothing on the table changes any more" was Flanders Fields' own sentence, and
    every other rule set allowed all once its game was over (2mm Earth: a side laid a template, renamed a stand,
    added one and logged a marker after the result). The game's end is every rule set's; the referee's override
    still corrects the record, logged as such (test_referee_override_is_accepted_and_logged)."""
    c, g = client, new_game(client, {"scenario": "earth2mm-demo-ferme"})
    advance(c, g, g.referee)
    finished = c.post(api(g, "/finish"), headers=g.referee, json={"version": turn(c, g)["version"]})
    assert finished.status_code == 200, finished.text
    units = c.get(api(g, "/units"), headers=g.referee).json()
    before = len(c.get(api(g, "/events"), headers=g.referee).json())
    for side, who in (("attacker", g.attacker), ("defender", g.defender)):
        own = next(u for u in units if u["side"] == side and u["x"] is not None)
        writes = [
            marker(c, g, who, own),
            c.post(api(g, "/templates"), headers=who, json={"kind": "smoke-cordon", "x": 60, "y": 80}),
            c.put(
                api(g, f"/units/{own['id']}"),
                headers=who,
                json={"version": unit_now(c, g, own)["version"], "name": "Renamed"},
            ),
            c.post(api(g, "/units"), headers=who, json={"side": side, "name": "Late", "level": "platoon"}),
        ]
        for r in writes:
            refused(r, "over")
    assert len(c.get(api(g, "/events"), headers=g.referee).json()) == before  # nothing logged after the end


def test_each_step_allows_what_its_printed_line_says(client: TestClient) -> None:
    c, g = client, new_game(client)
    units = units_by_ref(c, g)
    platoon = units[f"{DE_BN1}/rifle-company-1/rifle-platoon-1"]
    hq = units[f"{DE_BN1}/battalion-command-1"]
    battery = next(
        u for r, u in units.items() if u["side"] == "attacker" and "field-battery" in r and u["x"] is not None
    )
    enemy = units[f"{GB_BN1}/rifle-company-1/rifle-platoon-1"]
    enemy_hq = units[f"{GB_BN1}/battalion-command-1"]
    t = advance(c, g, g.referee)
    # 1 SUPPORT ORDERS: "Regiment/Brigade commanders may only issue orders to any of its own or attached
    # assets": the battery moves and fires ("REMOVE A SUPPRESSION LEVEL, MOVE or FIRE"), the rifles wait.
    assert t["step"]["id"] == "support-orders" and t["step"]["printed"].startswith("1 SUPPORT ORDERS")
    order(c, g, battery["id"])  # a move is one of its actions (issue 37)
    assert move(c, g, g.attacker, battery).status_code == 200
    msg = refused(
        move(c, g, g.attacker, platoon), "1. Support orders", "regimental/brigade MGs, artillery and mortars"
    )
    assert "ORDER SEQUENCE NOTES, 1 SUPPORT ORDERS" in msg
    assert marker(c, g, g.attacker, enemy, fire="artillery").status_code == 200
    # It is the attacker's turn: "one side moving and firing before the other side takes a turn".
    refused(move(c, g, g.defender, enemy), "attacker's turn")
    refused(move(c, g, g.referee, enemy), "attacker's turn")
    t = advance(c, g, g.attacker)
    # 2 BATTALION ORDERS: "Battalion Rifle Companies ... REMOVE A SUPPRESSION LEVEL, FIRE or MOVE".
    assert t["step"]["id"] == "battalion-orders"
    order(c, g, platoon["parent_id"])
    assert move(c, g, g.attacker, platoon).status_code == 200
    refused(move(c, g, g.attacker, battery), "2. Battalion orders")
    refused(move(c, g, g.attacker, hq), "2. Battalion orders")
    assert marker(c, g, g.attacker, enemy, fire="rifle").status_code == 200
    t = advance(c, g, g.attacker)
    # 3 MOVE COMMAND STANDS: "All command stands ... may move twice": no fire, no other stand moves.
    assert t["step"]["id"] == "move-command-stands"
    assert move(c, g, g.attacker, hq).status_code == 200
    refused(move(c, g, g.attacker, platoon), "3. Move command stands", "command stands")
    msg = refused(marker(c, g, g.attacker, enemy_hq, fire="rifle"), "3. Move command stands")
    assert "Allowed now: move stands (the attacker's command stands)" in msg
    # What befell a stand is recorded in any step, by its own side.
    assert (
        c.put(
            api(g, f"/units/{enemy['id']}"),
            headers=g.defender,
            json={"version": unit_now(c, g, enemy)["version"], "raw_under_fire": True},
        ).status_code
        == 200
    )
    # Force building is over.
    refused(
        c.put(
            api(g, f"/units/{platoon['id']}"),
            headers=g.attacker,
            json={"version": unit_now(c, g, platoon)["version"], "quality": "veteran"},
        ),
        "set-up",
    )
    refused(
        c.post(
            api(g, "/units"),
            headers=g.attacker,
            json={"side": "attacker", "name": "Extra", "level": "platoon"},
        ),
        "set-up",
    )
    t = advance(c, g, g.attacker)
    # The defender's turn: its support orders; "Remove suppression" needs an ordered unit's action, and a
    # rifle platoon recovers in its battalion's orders, not in the support orders.
    assert (t["side_to_move"], t["step"]["id"]) == ("defender", "support-orders")
    refused(
        c.post(
            api(g, f"/units/{enemy['id']}/markers"),
            headers=g.referee,
            json={"delta": -1, "spend_action": False},
        ),
        "1. Support orders",
    )
    advance(c, g, g.defender)
    rec = c.post(
        api(g, f"/units/{enemy['id']}/markers"), headers=g.referee, json={"delta": -1, "spend_action": False}
    )
    assert rec.status_code == 200, rec.text
    # Every act is logged with the step it was done in.
    steps = [e["step"] for e in events_of(c, g, g.referee, "move")]
    assert steps == ["support-orders", "battalion-orders", "move-command-stands"]


def test_mid_war_barrage_steps_place_markers_but_move_nothing(client: TestClient) -> None:
    c = client
    g = new_game(
        c,
        {
            "period": "mid",
            "attacker_nation": "british",
            "defender_nation": "german",
            "forces": [
                {"side": "attacker", "table_id": "gb-1915"},
                {"side": "defender", "table_id": "de-1916"},
            ],
        },
    )
    units = units_by_ref(c, g)
    enemy = next(u for u in units.values() if u["side"] == "defender" and u["kind"] == "rifle-platoon")
    mine = next(u for u in units.values() if u["side"] == "attacker" and u["kind"] == "rifle-platoon")
    mine = {**mine, "x": 10.0, "y": 10.0}
    t = advance(c, g, g.referee)
    # "1 ROLL D6 FOR DEEP SUPPRESSION (DS) FACTOR": a roll, nothing else.
    assert t["step"]["id"] == "deep-suppression" and t["allowed_now"] == ["record what happened to a stand"]
    refused(marker(c, g, g.attacker, enemy, fire="artillery"), "1. Roll D6 for deep suppression")
    for step in ("rolling-barrages", "gas", "barrages-and-bombardments"):
        t = advance(c, g, g.attacker)
        # "ADVANCE AND ROLL EFFECTS", the gas "will attack all the troops it passes over", "ROLL EFFECTS".
        assert t["step"]["id"] == step
        assert marker(c, g, g.attacker, enemy, fire="rifle").status_code == 200
        refused(move(c, g, g.attacker, mine), f"{t['step']['number']}. ")


def test_referee_override_is_accepted_and_logged(client: TestClient) -> None:
    c, g = client, new_game(client)
    units = units_by_ref(c, g)
    enemy = units[f"{GB_BN1}/rifle-company-1/rifle-platoon-1"]
    platoon = units[f"{DE_BN1}/rifle-company-1/rifle-platoon-1"]
    # Set-up: the referee puts a marker on by override (a scenario that starts with suppressed stands).
    refused(marker(c, g, g.referee, enemy, fire="rifle"), "not started")
    assert marker(c, g, g.attacker, enemy, fire="rifle", override=True).status_code == 403
    done = marker(c, g, g.referee, enemy, fire="rifle", override=True)
    assert done.status_code == 200, done.text
    assert done.json()["unit"]["suppression"] == 1
    (logged,) = events_of(c, g, g.defender, "marker")  # the log every device reads
    assert logged["actor"] == "referee" and logged["step"] == "setup"
    assert logged["payload"]["override"]["by"] == "referee"
    assert "not started" in logged["payload"]["override"]["refused"]
    # A permitted act carries no override, even when asked for one.
    advance(c, g, g.referee)
    advance(c, g, g.attacker)
    order(c, g, platoon["parent_id"])  # its company's action: nothing is refused
    ok = move(c, g, g.referee, platoon, override=True)
    assert ok.status_code == 200
    assert "override" not in events_of(c, g, g.referee, "move")[-1]["payload"]
    # After the game its result stands: no override of the referee's changes the table the result was scored on
    # (session 23's hostile pass: a move and a rename after the end changed a finished game's result).
    c.post(api(g, "/finish"), headers=g.referee, json={"version": turn(c, g)["version"]})
    refused(move(c, g, g.referee, platoon, dy=2, override=True), "over")
    edit = c.put(
        api(g, f"/units/{platoon['id']}"),
        headers=g.referee,
        json={"version": unit_now(c, g, platoon)["version"], "name": "1. Zug", "override": True},
    )
    refused(edit, "over")


PERIOD_ONLY_ITEMS = {
    "deep-suppression": {"kind": "deep-suppression"},
    "rolling-barrage": {"kind": "rolling-barrage", "start_up_cm": 50, "duration_turns": 5, "halts": [3]},
}


def test_a_fire_plan_holds_only_what_its_period_has(client: TestClient) -> None:
    """ "1 SUPPORT ORDERS - DIVISION/REGIMENT/BRIGADE" opens the 1914 to mid 1915 order sequence: no Deep
    Suppression or rolling barrage step, so an early plan cannot hold either (it would arrive in a step the
    game never reaches); a mid-war plan can."""
    early = new_game(client)
    for kind, item in PERIOD_ONLY_ITEMS.items():
        r = client.post(
            f"/api/v1/games/{early.id}/fireplans/attacker/items",
            headers=early.attacker,
            json={"arrival_turn": 1, "item": item},
        )
        assert r.status_code == 422, (kind, r.text)
        (detail,) = r.json()["errors"]
        assert detail["loc"] == ["body", "item", "kind"] and "not in the early period" in detail["msg"], (
            detail
        )
    mid = new_game(
        client,
        {
            "period": "mid",
            "attacker_nation": "british",
            "defender_nation": "german",
            "forces": [
                {"side": "attacker", "table_id": "gb-1915"},
                {"side": "defender", "table_id": "de-1916"},
            ],
        },
    )
    for kind, item in PERIOD_ONLY_ITEMS.items():
        r = client.post(
            f"/api/v1/games/{mid.id}/fireplans/attacker/items",
            headers=mid.attacker,
            json={"arrival_turn": 1, "item": item},
        )
        assert r.status_code == 201, (kind, r.text)


def test_templates_follow_the_status_and_the_turn(client: TestClient) -> None:
    """Templates are laid in set-up and in the side's own turn; never by a side once the game is over, nor
    in the other side's turn (409 naming the rule). The referee may override while the game is played, and the
    log says so."""
    c, g = client, new_game(client)

    def place(who: dict[str, str], **body: Any) -> Any:
        return c.post(api(g, "/templates"), headers=who, json={"kind": "artillery", "x": 60, "y": 90, **body})

    def moved(who: dict[str, str], tid: int, **body: Any) -> Any:
        return c.patch(api(g, f"/templates/{tid}"), headers=who, json={"y": 95, **body})

    defenders = place(g.defender).json()["template"]["id"]  # set-up: laid out freely
    attackers = place(g.attacker).json()["template"]["id"]
    assert advance(c, g, g.referee)["side_to_move"] == "attacker"
    # The attacker's turn: its own templates move; the defender's do not, nor may it place or remove any.
    assert moved(g.attacker, attackers).status_code == 200
    assert place(g.attacker, rotation=45).status_code == 201
    for r in (
        moved(g.defender, defenders),
        place(g.defender),
        c.delete(api(g, f"/templates/{defenders}"), headers=g.defender),
    ):
        refused(r, "attacker's turn", "one side moving and firing")
    # The referee moves the defender's template by override; the log records it.
    assert moved(g.referee, defenders).status_code == 409
    assert moved(g.attacker, defenders, override=True).status_code == 403
    done = moved(g.referee, defenders, override=True)
    assert done.status_code == 200, done.text
    logged = events_of(c, g, g.defender, "template-moved")[-1]
    assert (
        logged["payload"]["override"]["by"] == "referee"
        and "turn" in logged["payload"]["override"]["refused"]
    )
    # Once the game is over nothing changes on the table, for either side.
    c.post(api(g, "/finish"), headers=g.referee, json={"version": turn(c, g)["version"]})
    before = c.get(api(g, "/templates"), headers=g.referee).json()["templates"]
    for who, own in ((g.attacker, attackers), (g.defender, defenders)):
        for r in (
            place(who),
            moved(who, own),
            c.delete(api(g, f"/templates/{own}"), headers=who),
        ):
            refused(r, "over")
    assert c.get(api(g, "/templates"), headers=g.referee).json()["templates"] == before
    # Nor by the referee's override (session 23's hostile pass).
    refused(
        c.delete(api(g, f"/templates/{attackers}"), headers=g.referee, params={"override": "true"}), "over"
    )
    assert c.get(api(g, "/templates"), headers=g.referee).json()["templates"] == before


def test_a_marker_s_step_is_a_number_not_true_or_a_string(client: TestClient) -> None:
    """`"delta": true` was taken as 1 (a Literal compares True equal to 1: the session 20 hostile pass); refused,
    naming the field, before any rule of play is asked."""
    c, g = client, new_game(client)
    target = units_by_ref(c, g)[f"{GB_BN1}/rifle-company-1/rifle-platoon-1"]
    for step in (True, False, "1", 0, 2):
        r = marker(c, g, g.referee, target, delta=step, fire="rifle")
        assert r.status_code == 422, (step, r.text)
        assert r.json()["errors"][0]["loc"] == ["body", "delta"], r.text
        assert r.json()["detail"] == "Fix the delta: input should be 1 or -1.", r.text
    assert events_of(c, g, g.referee, "marker") == []


def test_an_undo_is_not_undone_and_the_refusal_reads_as_words(sqlite_client: TestClient) -> None:
    """Session 24's hostile pass: undoing an undo said "A undo event cannot be undone."."""
    c = sqlite_client
    g = new_game(c)
    unit = next(u for u in units_by_ref(c, g).values() if u["side"] == "attacker" and u.get("x") is not None)
    moved = move(c, g, g.referee, unit, override=True)
    assert moved.status_code == 200, moved.text
    back = c.post(api(g, f"/events/{moved.json()['event_id']}/undo"), headers=g.referee)
    assert back.status_code == 200, back.text
    again = c.post(api(g, f"/events/{back.json()['id']}/undo"), headers=g.referee)
    assert again.status_code == 422 and again.json()["detail"].startswith("Undo events cannot be undone"), (
        again.text
    )


def test_another_seat_s_act_undone_is_still_not_this_seat_s_to_undo(sqlite_client: TestClient) -> None:
    """Session 24's hostile pass: the defender posting the undo of the attacker's act, already undone, was told 409
    "That is already undone" (reload and try again) rather than that it is not the defender's to undo."""
    c = sqlite_client
    g = new_game(c)
    unit = next(u for u in units_by_ref(c, g).values() if u["side"] == "attacker" and u.get("x") is not None)
    placed = move(c, g, g.attacker, unit)  # in set-up, where a side deploys its own stands
    assert placed.status_code == 200, placed.text
    undo = api(g, f"/events/{placed.json()['event_id']}/undo")
    assert c.post(undo, headers=g.attacker).status_code == 200
    assert c.post(undo, headers=g.attacker).status_code == 409  # its own, undone already
    theirs = c.post(undo, headers=g.defender)
    assert theirs.status_code == 403 and "only their own" in theirs.json()["detail"], theirs.text
