"""The organiser's hand edits of a draft pairing through the API (issue 57): two players swapped (the bye's
too), two pairs' tables swapped; what the hand pairing breaks said as warnings; a stale draft, a committed
round, a swap of what the draft has not and anyone but the organiser refused; the committed round keeps its
hand edits."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.events.test_event_day import SCENARIO, new_event


def test_the_organiser_swaps_players_and_tables_of_a_draft_warned_of_what_it_breaks(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    event_id, organiser = new_event(c, rounds=2)
    url = f"/api/v1/events/{event_id}"
    players = [{"name": "Ann", "club": "Ypres"}, {"name": "Bob", "club": "Ypres"}, {"name": "Cat", "club": "Arras"},
               {"name": "Dan", "club": "Arras"}, {"name": "Eve"}]  # fmt: skip
    ids = {
        p["name"]: p["id"]
        for p in c.post(f"{url}/players", headers=organiser, json={"players": players}).json()
    }
    draft = c.post(f"{url}/rounds", headers=organiser, json={"scenario": SCENARIO}).json()
    assert draft["warnings"] == [] and draft["hand_edits"] == []

    def swap(version: int, kind: str, first: int, second: int, who: dict[str, str] = organiser) -> object:
        body = {"version": version, "swap": kind, "first": first, "second": second}
        return c.post(f"{url}/rounds/1/swap", headers=who, json=body)

    def opponent(rnd: dict, pid: int) -> int:
        t = next(t for t in rnd["tables"] if pid in (t["a_player_id"], t["b_player_id"]))
        return t["b_player_id"] if t["a_player_id"] == pid else t["a_player_id"]

    # Bob takes the place of Ann's opponent: two of Ypres meet in round 1, warned in words, not refused.
    edited = swap(draft["version"], "players", opponent(draft, ids["Ann"]), ids["Bob"]).json()
    assert opponent(edited, ids["Ann"]) == ids["Bob"]
    assert {"Ann and Bob are both of Ypres in round 1", "Bob and Ann are both of Ypres in round 1"} & set(
        edited["warnings"]
    ), edited["warnings"]
    stale = swap(draft["version"], "tables", 1, 2)
    assert stale.status_code == 409 and "read it again" in stale.json()["detail"]  # no lost update
    tables = swap(edited["version"], "tables", 1, 2).json()
    assert [(t["a_player_id"], t["b_player_id"]) for t in tables["tables"]] == [
        (t["a_player_id"], t["b_player_id"]) for t in reversed(edited["tables"])
    ]
    on_bye = tables["bye_player_id"]
    byed = swap(tables["version"], "players", ids["Ann"], on_bye).json()
    assert byed["bye_player_id"] == ids["Ann"] and opponent(byed, on_bye) == ids["Bob"]
    for bad, field in (((byed["version"], "players", ids["Ann"], 999_999), "second"),
                       ((byed["version"], "tables", 3, 1), "first"),
                       ((byed["version"], "players", ids["Ann"], ids["Ann"]), "second"),
                       ((byed["version"], "players", 0, 1), "first")):  # fmt: skip
        refused = swap(*bad)
        assert refused.status_code == 422 and refused.json()["field"].endswith(field), refused.text
    assert swap(byed["version"], "tables", 1, 2, who={}).status_code == 401
    assert swap(byed["version"], "tables", 1, 2, who=new_event(c)[1]).status_code == 403

    assert c.post(f"{url}/rounds/1/commit", headers=organiser).status_code == 200
    committed = c.get(f"{url}/rounds/1").json()
    assert [e["swap"] for e in committed["hand_edits"]] == ["players", "tables", "players"]
    assert swap(committed["version"], "tables", 1, 2).status_code == 409

    # Round 2: Ann (the bye in round 1) and Bob's round-1 opponent... put Bob against Ann again: a rematch.
    for t in committed["tables"]:
        done = c.put(f"{url}/tables/{t['id']}/result", headers=organiser,
                     json={"winner": "a", "a_points": 3, "b_points": 1, "why": "played on paper"})  # fmt: skip
        assert done.status_code == 200, done.text
    second = c.post(f"{url}/rounds", headers=organiser, json={"scenario": SCENARIO}).json()
    assert second["hand_edits"] == [] and not any("rematch" in w for w in second["warnings"])
    cat_opponent = opponent(committed, ids["Cat"])
    if opponent(second, ids["Cat"]) != cat_opponent:
        body = {
            "version": second["version"],
            "swap": "players",
            "first": opponent(second, ids["Cat"]),
            "second": cat_opponent,
        }
        second = c.post(f"{url}/rounds/2/swap", headers=organiser, json=body).json()
    names = {v: k for k, v in ids.items()}
    assert any(w.endswith("have played each other before: a rematch") and names[cat_opponent] in w
               for w in second["warnings"]), second["warnings"]  # fmt: skip


def test_an_event_of_a_rule_set_with_no_periods_plays_its_scenarios(sqlite_client: TestClient) -> None:
    # 2mm Earth has no periods: the event's is "" and its shipped scenario's null, which drafting refused in
    # words that named neither ("the scenario is of the None period, the event "), so no such event had a round.
    c = sqlite_client
    made = c.post("/api/v1/events", json={"name": "2mm night", "ruleset": "2mm-earth-1418", "rounds": 1})
    assert made.status_code == 201, made.text
    event_id, organiser = (
        made.json()["event"]["id"],
        {"Authorization": f"Bearer {made.json()['organiser_token']}"},
    )
    players = [{"name": n} for n in ("Ann", "Bob")]
    assert c.post(
        f"/api/v1/events/{event_id}/players", headers=organiser, json={"players": players}
    ).is_success
    draft = c.post(
        f"/api/v1/events/{event_id}/rounds", headers=organiser, json={"scenario": "earth2mm-demo-ferme"}
    )
    assert draft.status_code == 201, draft.text
    committed = c.post(f"/api/v1/events/{event_id}/rounds/1/commit", headers=organiser)
    assert committed.status_code == 200 and len(committed.json()["seats"]) == 1, committed.text
    other = c.post(f"/api/v1/events/{event_id}/rounds", headers=organiser, json={"scenario": "mons-1914"})
    assert other.status_code == 422 and other.json()["field"] == "scenario"
