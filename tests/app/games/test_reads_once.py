"""What a request reads of the game's units (issue 65: the API tier's cost per request, a hostile client's
too): a stand's card part refused to a seat for the stand's side reads that stand's row alone, not the game's
every unit (app/pages/stand_play.py, app/pages/stand_acts.py); the turn's needs built once a request has read
the units take that read (app.services.result.turn_now) rather than reading them again; a stand's card for its own
seat judges every act it draws on the one read of the game's units, no statement run twice."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlmodel import Session

from app.data.models import Game as GameRow
from app.guard.auth import COOKIE_NAME
from app.services import result
from app.services.units import list_units
from tests.app.games.conftest import advance_to, new_game, start_game, units_by_ref
from tests.app.games.test_fire_refusals import mg_facing
from tests.app.games.test_stand_acts import first, units


@contextmanager
def statements(http: TestClient) -> Iterator[list[str]]:
    """The SQL the app's engine runs inside the block."""
    engine = http.app.state.engine  # type: ignore[attr-defined]
    ran: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        ran.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", seen)
    try:
        yield ran
    finally:
        event.remove(engine, "before_cursor_execute", seen)


def unit_reads(ran: list[str]) -> tuple[int, int]:
    """(reads of every unit of a game, reads of one unit by its id) among the statements."""
    of_unit = [s for s in ran if "FROM unit " in s]
    one = [s for s in of_unit if "unit.id =" in s]
    return len(of_unit) - len(one), len(one)


def test_a_card_part_refused_for_the_stands_side_reads_its_row_alone(client: TestClient) -> None:
    g = new_game(client)
    mg, target = mg_facing(client, g)
    start_game(client, g)
    client.cookies.set(COOKIE_NAME, g.defender["Authorization"].removeprefix("Bearer "))
    try:
        for part in (f"play/shooting?target={target['id']}&act=Shoot", "targets/shooting"):
            with statements(client) as ran:
                answer = client.get(
                    f"/games/{g.id}/map/units/{mg['id']}/{part}", headers={"HX-Request": "true"}
                )
            assert answer.status_code == 403 and "may not resolve for a unit" in answer.text, part
            assert unit_reads(ran) == (0, 1), (part, ran)
        # The seat that may act reads them (the card's answer is judged on the whole table): as the worker keeps
        # them, brought up to date by the game's count of unit writes (app.services.kept_units).
        client.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
        with statements(client) as ran:
            answer = client.get(
                f"/games/{g.id}/map/units/{mg['id']}/targets/shooting", headers={"HX-Request": "true"}
            )
        assert answer.status_code == 200 and any("FROM game_units LEFT OUTER JOIN unit" in s for s in ran)
    finally:
        client.cookies.clear()


def test_the_turn_built_on_units_read_in_the_request_reads_none_and_says_the_same(client: TestClient) -> None:
    g = new_game(client)
    start_game(client, g)
    advance_to(client, g, "battalion-orders")
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        game = session.get(GameRow, g.id)
        assert game is not None
        read_here = result.turn_now(session, game)
        units = list_units(session, g.id)
        with statements(client) as ran:
            given = result.turn_now(session, game, units)
    assert read_here["step"] is not None and read_here["needs"]  # a step of needs, read from the stands
    assert given == read_here
    assert unit_reads(ran) == (0, 0), ran


def test_an_act_on_a_stand_reads_it_from_the_kept_units_not_again_by_its_id(client: TestClient) -> None:
    """Issue 88: an act on a stand (a move in set-up, a marker once the game runs) read the stand by its id beside
    the kept state's read of the units written since, which holds its row: it is read once, there."""
    g = new_game(client)
    units = units_by_ref(client, g)
    stand = next(u for u in units.values() if u["side"] == "attacker" and u["kind"] == "rifle-platoon")
    url = f"/api/v1/games/{g.id}/units/{stand['id']}"
    client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee)  # the kept state read before the acts
    with statements(client) as ran:
        moved = client.post(f"{url}/move", headers=g.attacker, json={"x": 5, "y": 5})
    assert moved.status_code == 200, moved.text
    # In set-up the score, stored from the first step on, is worked out of every stand's place, read apart.
    assert unit_reads(ran)[1] == 0 and any("FROM game_units LEFT OUTER JOIN unit" in s for s in ran), ran
    start_game(client, g)
    with statements(client) as ran:
        marked = client.post(f"{url}/markers", headers=g.referee, json={"delta": 1, "override": True})
    assert marked.status_code == 200, marked.text
    assert unit_reads(ran) == (0, 0) and any("FROM game_units LEFT OUTER JOIN unit" in s for s in ran), ran


def test_the_games_lookup_and_fire_plan_pages_read_the_kept_units_not_every_row_again(
    client: TestClient,
) -> None:
    """Issue 88: a lookup page inside a game (the pickers, and a resolver's form preset for a stand) and the fire
    plan's table loaded every unit of the game as rows, decoded and named them for one page (150-210 ms of CPU at
    1,400 stands): they are read from the worker's kept state of the game's version, a stand picked read alone by
    its id."""
    g = new_game(client)
    mg, _ = mg_facing(client, g)
    start_game(client, g)
    client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee)  # the kept state read before the pages
    client.cookies.set(COOKIE_NAME, g.referee["Authorization"].removeprefix("Bearer "))
    try:
        # The pickers list the stand; its shooting form names it by its short name (the kept state's names).
        pages = {
            f"/lookup?game={g.id}": f'data-unit="{mg["id"]}"',
            f"/lookup/flanders-fields/shooting?game={g.id}&unit={mg['id']}": mg["short_name"],
            f"/games/{g.id}/fire-plan?side=attacker": "Fire plan",
            f"/games/{g.id}/report": "The luck ledger",
            f"/games/{g.id}/map/choose?stand={mg['id']}": mg["short_name"],  # the stands under a tap
        }
        for page, shows in pages.items():
            with statements(client) as ran:
                answer = client.get(page)
            assert answer.status_code == 200 and shows in answer.text, page
            assert unit_reads(ran)[0] == 0, (page, ran)
    finally:
        client.cookies.clear()


def test_a_shot_writes_its_stand_and_its_target_from_the_kept_units_not_read_again(
    client: TestClient,
) -> None:
    """Issue 88: a roll's changes (the target's suppression, the shooter's action) were written to rows read
    again by id beside the kept state's read of the units, which holds them: they are made from it."""
    g = new_game(client)
    mg, target = mg_facing(client, g)
    start_game(client, g)
    client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee)  # the kept state read before the shot
    shot = {"unit_id": mg["id"], "target_id": target["id"], "dice": [4, 4], "override": True}
    with statements(client) as ran:
        answer = client.post(f"/api/v1/games/{g.id}/resolve/shooting", headers=g.referee, json=shot)
    assert answer.status_code == 200, answer.text
    assert {c["unit"] for c in answer.json()["changes"]} >= {target["id"]}, answer.text
    assert unit_reads(ran) == (0, 0) and any("FROM game_units LEFT OUTER JOIN unit" in s for s in ran), ran


def test_an_undo_reads_the_units_it_takes_back_from_the_kept_units_not_one_by_one(client: TestClient) -> None:
    """Issue 88: an undo read each unit its act changed anew, twice (has it changed since, then its write): a
    2mm Earth 1418 shot's undo made six reads of its four stands. It reads them from the kept state with the
    game's units (one statement), and the table is as it was before the shot."""
    g = new_game(client)
    mg, target = mg_facing(client, g)
    start_game(client, g)
    before = units(client, g)
    shot = {"unit_id": mg["id"], "target_id": target["id"], "dice": [4, 4], "override": True}
    answer = client.post(f"/api/v1/games/{g.id}/resolve/shooting", headers=g.referee, json=shot)
    assert answer.status_code == 200 and answer.json()["changes"], answer.text
    with statements(client) as ran:
        undone = client.post(
            f"/api/v1/games/{g.id}/events/{answer.json()['event_id']}/undo", headers=g.referee
        )
    assert undone.status_code == 200, undone.text
    assert unit_reads(ran) == (0, 0) and any("FROM game_units LEFT OUTER JOIN unit" in s for s in ran), ran
    after = units(client, g)
    changed = {c["unit"] for c in answer.json()["changes"]}
    assert {uid: {k: v for k, v in after[uid].items() if k != "version"} for uid in changed} == {
        uid: {k: v for k, v in before[uid].items() if k != "version"} for uid in changed
    }


def test_an_undo_of_a_company_s_move_writes_its_stands_as_the_move_wrote_them(client: TestClient) -> None:
    """Issue 88 (this stop's hostile pass): an undo wrote each field of each stand it took back in a statement
    of its own (a 1,070-stand battalion's move on 2mm Earth 1418's largest table: 3,317 statements, 1.1 s of CPU
    on PostgreSQL); a run of fields set is written as the move wrote them, one statement per kind of row."""
    g = new_game(client)
    before = units(client, g)
    company = next(u for u in before.values() if u["side"] == "attacker" and u["kind"] == "rifle-company")
    stands = {uid for uid, u in before.items() if u["parent_id"] == company["id"] and u["x"] is not None}
    assert len(stands) > 2
    url = f"/api/v1/games/{g.id}/units/{company['id']}/move-formation"
    with statements(client) as moving:
        moved = client.post(url, headers=g.attacker, json={"dx": 5, "dy": 20, "turn_deg": 90})
    assert moved.status_code == 200, moved.text
    with statements(client) as undoing:
        undone = client.post(
            f"/api/v1/games/{g.id}/events/{moved.json()['event_id']}/undo", headers=g.attacker
        )
    assert undone.status_code == 200, undone.text
    writes = [[s for s in ran if s.startswith("UPDATE unit ")] for ran in (moving, undoing)]
    assert 0 < len(writes[1]) <= len(writes[0]), writes
    after = units(client, g)
    assert {uid: (after[uid]["x"], after[uid]["y"], after[uid]["facing_deg"]) for uid in stands} == {
        uid: (before[uid]["x"], before[uid]["y"], before[uid]["facing_deg"]) for uid in stands
    }


def test_a_stand_s_card_judges_its_acts_on_one_read_and_runs_no_statement_twice(client: TestClient) -> None:
    """Issue 88: a tap's two reads (the card's head and its acts) read the stand's row anew for each act they
    judged (its markers', its Move's: four times a head), and the head's Undo read the units its act changed twice.
    The acts are judged on the read of the game's units (app.services.acts: the caller's read); the head's Undo
    asks its own question (has it changed since: app.services.undo) of the worker's kept units, reading no unit
    by id."""
    g = new_game(client)
    start_game(client, g)
    mine = first(units(client, g), "attacker", "rifle-platoon")
    marked = client.post(
        f"/api/v1/games/{g.id}/units/{mine['id']}/markers", headers=g.attacker, json={"delta": 1}
    )
    assert marked.status_code == 200, marked.text
    client.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    try:
        read: dict[str, tuple[str, list[str]]] = {}
        for part in ("head", "acts"):
            with statements(client) as ran:
                answer = client.get(
                    f"/games/{g.id}/map/units/{mine['id']}/{part}", headers={"HX-Request": "true"}
                )
            assert answer.status_code == 200, answer.text
            read[part] = (answer.text, ran)
    finally:
        client.cookies.clear()
    head, ran = read["head"]
    # What it judged: its marker buttons, its Move and the Undo of the seat's own marker.
    assert all(f'data-stand-action="{a}"' in head for a in ("add-marker", "recover", "move")), head
    assert "data-stand-undo" in head, head
    assert unit_reads(ran) == (0, 0), ran
    assert len(ran) == len(set(ran)), ran
    acts, ran = read["acts"]
    assert "data-stand-acts-part" in acts and "Shoot" in acts, acts
    assert unit_reads(ran) == (0, 0), ran
    assert len(ran) == len(set(ran)), ran
