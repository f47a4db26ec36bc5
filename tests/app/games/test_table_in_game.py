"""The table inside a game: a rolling barrage and a gas cloud from the fire plan, what they cover as they
move, rolls made against the stands they reach, raw troops under fire, and the random-event pack."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.games.conftest import Game, new_game


def add(c: TestClient, g: Game, **unit: Any) -> dict[str, Any]:
    r = c.post(f"/api/v1/games/{g.id}/units", headers=g.referee, json=unit)
    assert r.status_code == 201, r.text
    return dict(r.json()["unit"])


def platoon(c: TestClient, g: Game, parent: dict[str, Any], name: str, x: float, y: float) -> dict[str, Any]:
    side = parent["side"]
    return add(
        c,
        g,
        side=side,
        parent_id=parent["id"],
        name=name,
        level="platoon",
        kind="rifle-platoon",
        base="infantry-platoon",
        quality=parent["quality"],
        x=x,
        y=y,
        facing_deg=90 if side == "attacker" else 270,
    )


def turn(c: TestClient, g: Game) -> dict[str, Any]:
    return dict(c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json())


def advance(c: TestClient, g: Game) -> dict[str, Any]:
    r = c.post(
        f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": turn(c, g)["version"]}
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


def resolve(c: TestClient, g: Game, who: dict[str, str], resolver: str, **body: Any) -> dict[str, Any]:
    r = c.post(f"/api/v1/games/{g.id}/resolve/{resolver}", headers=who, json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def unit(c: TestClient, g: Game, u: dict[str, Any]) -> dict[str, Any]:
    return dict(c.get(f"/api/v1/games/{g.id}/units/{u['id']}", headers=g.referee).json())


def board(c: TestClient, g: Game) -> dict[str, Any]:
    return dict(c.get(f"/api/v1/games/{g.id}/state", headers=g.defender).json()["board"])


def mid_game(c: TestClient) -> tuple[Game, dict[str, dict[str, Any]]]:
    """A mid-war attack on a bare 120 x 180 cm table: raw British defenders in two companies, a German
    platoon following its own rolling barrage, and a German offensive gas attack."""
    g = new_game(
        c,
        {
            "name": "Barrage and gas",
            "period": "mid",
            "attacker_nation": "german",
            "defender_nation": "british",
        },
    )
    bn = add(
        c, g, side="defender", name="1st Bn", level="battalion", kind="infantry-battalion", quality="raw"
    )
    add(c, g, side="defender", parent_id=bn["id"], name="1st Bn HQ", level="command",
        kind="battalion-command", base="battalion-command", is_command=True, quality="raw", x=60, y=170,
        facing_deg=270)  # fmt: skip
    co_a = add(c, g, side="defender", parent_id=bn["id"], name="A Coy", level="company", kind="rifle-company",
               quality="raw")  # fmt: skip
    co_b = add(c, g, side="defender", parent_id=bn["id"], name="B Coy", level="company", kind="rifle-company",
               quality="raw")  # fmt: skip
    de_bn = add(c, g, side="attacker", name="I/IR 1", level="battalion", kind="infantry-battalion",
                quality="experienced")  # fmt: skip
    de_co = add(c, g, side="attacker", parent_id=de_bn["id"], name="1. Kp", level="company",
                kind="rifle-company", quality="experienced")  # fmt: skip
    units = {
        "bn": bn,
        "co_a": co_a,
        "d1": platoon(c, g, co_a, "A1", 60, 50),  # under the barrage's start: y 40-60
        "d2": platoon(c, g, co_b, "B1", 30, 75),  # reached by its first advance (y 60-80)
        "d3": platoon(c, g, co_b, "B2", 60, 100),  # under the gas cloud as it lands (y 95-105)
        "d4": platoon(c, g, co_b, "B3", 60, 118),  # where the wind takes the cloud
        "a1": platoon(c, g, de_co, "Zug 1", 60, 36),  # 3.25 cm behind its own barrage
    }
    plan = f"/api/v1/games/{g.id}/fireplans/attacker"
    for item in (
        {"kind": "rolling-barrage", "start_up_cm": 40, "duration_turns": 5},
        {"kind": "gas", "grid": [60, 100], "gas": "offensive", "wind_deg": 90},
    ):
        r = c.post(f"{plan}/items", headers=g.attacker, json={"arrival_turn": 1, "item": item})
        assert r.status_code == 201, r.text
    assert c.post(f"{plan}/lock", headers=g.attacker).status_code == 200
    return g, units


def test_barrage_and_gas_reach_the_stands_under_them(client: TestClient) -> None:
    c = client
    g, u = mid_game(c)
    started = advance(c, g)
    assert "gas-arrived" in [e["kind"] for e in started["events"]]
    b = board(c, g)["barrages"][0]
    # "A Rolling Barrage covers an area 20cm wide which extends across the whole table top": from its start
    # line 40 cm up the table to 60 cm. A1 is under it; the German Zug 1 (front edge 36.75 cm) is 3.25 cm
    # behind it: "Roll a D6 to be safe ... the result must be less than the number of centimetres" -> 4, 5
    # or 6 put it at risk, 1/2.
    assert b["covers_y"] == [40, 60] and b["pending"] == [u["d1"]["id"]]
    assert b["danger"] == [
        {"unit": u["a1"]["id"], "distance_cm": 3.25, "at_risk": 0.5, "at_risk_exact": "1/2"}
    ]
    # "A gas attack is represented by an area 20cm wide by 10cm deep if launched by the attacker": B2 is in it.
    assert unit(c, g, u["d3"])["in_gas"] is True and unit(c, g, u["d4"])["in_gas"] is False

    t = advance(c, g)["turn"]
    assert t["step"]["id"] == "rolling-barrages"
    assert any("roll for the rolling barrage on " in n and str(u["d1"]["id"]) not in n for n in t["needs"])
    # Raw troops in the open: "if in Open increase by 2"; a 2 becomes 4: "3-5 Platoon is suppressed".
    rb = resolve(c, g, g.attacker, "rolling-barrage", target_id=u["d1"]["id"], dice=[2])
    assert {f["field"]: f["value"] for f in rb["filled"]}["cover"] == "open"
    assert rb["resolution"]["modifiers"][0]["value"] == 2 and rb["resolution"]["outcome"] == "suppressed"
    assert unit(c, g, u["d1"])["suppression"] == 1
    # Raw troops have now been fired on: "Raw troops until they receive any fire" +1 no longer holds.
    assert unit(c, g, u["bn"])["raw_under_fire"] is True
    # Asked (a question) in the attacker's turn: the defender's order roll would wait for its turn.
    asked = c.post(
        f"/api/v1/games/{g.id}/ask/order-roll",
        headers=g.defender,
        json={"unit_id": u["co_a"]["id"], "dice": [5]},
    )
    assert asked.status_code == 200 and "wait for your turn" in asked.json()["refused"]["detail"]
    order = asked.json()
    filled = {f["field"]: f["value"] for f in order["filled"]}
    assert (filled["quality"], filled["raw_under_fire"]) == ("raw", True)
    assert "Raw troops, not yet under fire" not in [m["label"] for m in order["resolution"]["modifiers"]]
    # The German platoon rolls 2 then 1 for its own barrage: 2 is less than 3.25 cm, safe.
    danger = resolve(c, g, g.attacker, "barrage-danger", target_id=u["a1"]["id"], dice=[2, 1])
    assert {f["field"]: f["value"] for f in danger["filled"]}["distance_cm"] == 3.25
    assert danger["resolution"]["outcome"] == "safe"
    b = board(c, g)["barrages"][0]
    assert b["pending"] == [] and b["danger"] == []

    t = advance(c, g)["turn"]
    assert (
        t["step"]["id"] == "gas"
        and "roll for the gas wind: the wind moves every gas cloud on the table" in t["needs"]
    )
    # "speed is determined by rolling 2D6 and adding 10": 3 + 4 + 10 = 17 cm in the stated direction (90,
    # towards the British), so the cloud's centre goes from 100 to 117 cm up the table.
    wind = resolve(c, g, g.attacker, "gas-wind", dice=[3, 4])
    assert {f["field"]: f["value"] for f in wind["filled"]}["direction_deg"] == 90
    assert wind["resolution"]["outcome"] == {"direction_deg": 90.0, "speed_cm": 17, "dispersed": False}
    cloud = board(c, g)["clouds"][0]
    assert cloud["center"] == [60, 117] and cloud["moves"] == 1
    # "As the gas sweeps over the table it will attack all the troops it passes over."
    assert cloud["passed"] == {"full": [u["d3"]["id"], u["d4"]["id"]], "partial": []}
    assert unit(c, g, u["d3"])["in_gas"] is False and unit(c, g, u["d4"])["in_gas"] is True
    # One wind a turn.
    again = c.post(f"/api/v1/games/{g.id}/resolve/gas-wind", headers=g.attacker, json={"dice": [1, 1, 1, 1]})
    assert again.status_code == 422 and again.json()["errors"][0]["loc"][-1] == "resolver"

    # Through the rest of the German turn and the British turn: at the start of the next German turn the
    # barrage "advances its own width", 60-80 cm, passing over A1 and B1.
    while (turn(c, g)["turn"], turn(c, g)["side_to_move"]) != (2, "attacker"):
        advance(c, g)
    b = board(c, g)["barrages"][0]
    assert b["covers_y"] == [60, 80] and b["pending"] == sorted([u["d1"]["id"], u["d2"]["id"]])
    # "At the start of every turn thereafter the attacking player rolls a D6": 1-2, same wind; the cloud
    # moves 17 cm again.
    for _ in range(2):
        advance(c, g)
    wind = resolve(c, g, g.attacker, "gas-wind", dice=[1, 1, 1, 1])
    assert {f["field"]: f["value"] for f in wind["filled"]}["wind"]["speed_cm"] == 17
    assert board(c, g)["clouds"][0]["center"] == [60, 134]
    assert unit(c, g, u["d4"])["in_gas"] is False


def test_random_event_pack_is_kept_per_game_and_hands_are_private(client: TestClient) -> None:
    c = client
    g, _u = mid_game(c)
    advance(c, g)
    # The pack in order 2H..AH, 2D..AD, 2C..AC, 2S..AS: the 13th card is the Ace of Hearts, beneficial and
    # kept ("red cards ten to ace ... MAY be played whenever a player wishes"). Only the referee (who sees
    # the pack) may say where in it a card is drawn; the attacker reads its draw in the log.
    entered = resolve(c, g, g.referee, "random-event", dice=[13])
    mine = c.get(f"/api/v1/games/{g.id}/events", headers=g.attacker).json()
    drawn = next(e["payload"] for e in mine if e["id"] == entered["event_id"])
    assert [d["card"] for d in drawn["resolution"]["outcome"]["drawn"]] == ["AH"]
    assert "opponent_hand" not in drawn["request"]
    me = c.get(f"/api/v1/games/{g.id}/me", headers=g.attacker).json()
    assert me["event_hand"] == ["AH"]
    assert c.get(f"/api/v1/games/{g.id}/me", headers=g.defender).json()["event_hand"] == []
    # The British see that a card was kept, not which.
    seen = c.get(f"/api/v1/games/{g.id}/events", headers=g.defender).json()
    public = [e for e in seen if e["kind"] == "roll" and e["payload"]["resolver"] == "random-event"]
    assert [e["id"] for e in public] == [entered["event_id"]]
    assert public[-1]["payload"]["kept"] == 1 and public[-1]["payload"]["cards_left"] == 51
    assert not {"request", "resolution", "filled", "changes"} & set(public[-1]["payload"])
    # The next draw is from the 51 left: the 13th is now the Two of Diamonds, a dummy.
    nxt = resolve(c, g, g.referee, "random-event", dice=[13])
    assert nxt["resolution"]["outcome"]["drawn"][0]["card"] == "2D"
    assert board(c, g)["events"] == {"out": ["2D"], "cards_left": 50}
    # Given pack or hands are refused inside a game.
    own = c.post(
        f"/api/v1/games/{g.id}/resolve/random-event", headers=g.attacker, json={"fields": {"hand": []}}
    )
    assert own.status_code == 422
    # Playing the Ace shows it to everyone.
    played = c.post(
        f"/api/v1/games/{g.id}/cards/play", headers=g.attacker, json={"side": "attacker", "card": "AH"}
    )
    assert played.status_code == 200, played.text
    assert played.json()["payload"]["card"]["title"] == "Big Bangs!"
    assert c.get(f"/api/v1/games/{g.id}/me", headers=g.attacker).json()["event_hand"] == []
    assert (
        c.post(
            f"/api/v1/games/{g.id}/cards/play", headers=g.attacker, json={"side": "attacker", "card": "AH"}
        ).status_code
        == 422
    )
    assert (
        c.post(
            f"/api/v1/games/{g.id}/cards/play", headers=g.defender, json={"side": "attacker", "card": "KH"}
        ).status_code
        == 403
    )
