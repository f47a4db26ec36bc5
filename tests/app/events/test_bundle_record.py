"""A signed result bundle carries its finished game's record as every side may read it once over (issue 57):
the importer recomputes the log hash over it, checks it ends the game and that a confirmed result is the
game's own, and refuses a bundle that fails any of it in one sentence naming what failed; a first-format
bundle (no record) is refused; a result set by the organiser is told apart, not checked against the game's."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient

from app.club import signing
from app.services.league import fingerprint
from rules.core.commitment import canonical
from tests.app.events.test_event_day import SCENARIO, bearer, new_event, register
from tests.app.events.test_event_seats import committed_table
from tests.csrf import form


def resigned(bundle: dict[str, Any], key: Ed25519PrivateKey, **changes: Any) -> dict[str, Any]:
    """The bundle changed and signed again (a club's own key: the signature holds, the record must not)."""
    body = {k: v for k, v in {**bundle, **changes}.items() if k not in ("signature", "record")}
    body["public_key"] = signing.public_hex(key)
    return {**body, "signature": signing.sign(key, canonical(body)), "record": bundle["record"]}


def test_the_importer_checks_the_games_record_against_the_signed_hash_and_the_result(
    sqlite_client: TestClient, tmp_path: Path
) -> None:
    c = sqlite_client
    event_id, organiser, seat = committed_table(c)
    url = f"/api/v1/events/{event_id}"
    game, referee = f"/api/v1/games/{seat['game_id']}", bearer(seat["referee_token"])
    for call in ("turn/advance", "finish"):
        version = c.get(f"{game}/turn", headers=referee).json()["version"]
        assert c.post(f"{game}/{call}", headers=referee, json={"version": version}).status_code == 200
    for side in ("attacker", "defender"):
        token = c.post("/api/v1/join", json={"code": seat["join_codes"][side]}).json()["token"]
        assert c.post(f"{url}/tables/{seat['table_id']}/confirm", headers=bearer(token)).is_success
    c.cookies.clear()  # another club's server: no seat's cookie
    # A key file a full disk left empty (before issue 63: every export a bare 500) is said in one sentence.
    (tmp_path / "club").mkdir(mode=0o700)
    (tmp_path / "club" / "results.key").write_bytes(b"")
    damaged = c.post(f"{url}/tables/{seat['table_id']}/bundle", headers=organiser, json={})
    assert damaged.status_code == 503 and damaged.json()["detail"].startswith(
        "The result-signing key club/results.key is empty or damaged: move it away"
    ), damaged.text
    (tmp_path / "club" / "results.key").unlink()
    bundle = c.post(
        f"{url}/tables/{seat['table_id']}/bundle", headers=organiser, json={"club": "Ypres"}
    ).json()
    record = bundle["record"]
    # The organiser's page gives the same signed file, and this club's key with its fingerprint.
    c.cookies.set("firestep_organiser", organiser["Authorization"].split()[1])
    page = c.get(f"{url.removeprefix('/api/v1')}/bundles").text
    assert bundle["public_key"] in page and fingerprint(bundle["public_key"]) in page
    downloaded = c.post(
        f"{url.removeprefix('/api/v1')}/bundles/{seat['table_id']}", data=form(c, {"club": "Ypres"})
    )
    assert downloaded.headers["content-disposition"].endswith('-round-1-table-1.json"')
    assert downloaded.json() == bundle
    c.cookies.clear()
    assert bundle["format"] == "firestep-result/3" and bundle["settled"] == "confirmed"
    assert bundle["log_entries"] == len(record["log"]) and record["log"][-1][4] == "game-finished"
    assert record["ended"]["points"] == bundle["result"]["points"]
    # As every side reads it: the public view of the events all may see, none of a side's private part.
    seen = c.get(f"{game}/events", headers=bearer(seat["referee_token"])).json()
    assert [e[0] for e in record["log"]] == [e["id"] for e in seen if e["visibility"] == "all"]

    made = c.post("/api/v1/leagues", json={"name": "League"}).json()
    results, league = f"/api/v1/leagues/{made['league']['id']}/results", bearer(made["organiser_token"])

    def refused(b: dict[str, Any]) -> tuple[str, str]:
        r = c.post(results, headers=league, json={"bundle": b})
        assert r.status_code == 422, r.text
        return r.json()["field"], r.json()["detail"]

    forged = copy.deepcopy(bundle)
    forged["record"]["log"][0][6] = {"forged": True}
    assert refused(forged) == (
        "bundle.record",
        "The game's record is not the one whose log hash the club signed: refused.",
    )
    assert refused({k: v for k, v in bundle.items() if k != "record"})[0] == "bundle.record"
    key = Ed25519PrivateKey.generate()
    other = {
        **bundle["result"],
        "winner": "attacker" if bundle["result"]["winner"] != "attacker" else "defender",
    }
    assert refused(resigned(bundle, key, result=other)) == (
        "bundle.result",
        "The result is not the one the game's record ends with: refused.",
    )
    # A result the organiser set is told apart: the record is checked, the result not against it.
    by_hand = resigned(bundle, key, result=other, settled="altered")
    altered = c.post(results, headers=league, json={"bundle": by_hand})
    assert altered.status_code == 201 and "set by its organiser, not by the game" in altered.json()["checked"]
    kept = c.post(results, headers=league, json={"bundle": bundle})
    assert kept.status_code == 201 and "the one the game ended with" in kept.json()["checked"], kept.text


def test_the_bundles_page_names_a_winner_the_points_do_not(sqlite_client: TestClient) -> None:
    """A result typed from paper is a winner and no points: the settled table on the bundles page says who won,
    not a bare '0–0' (issue 63 newcomer pass: 'Dan v Fay 0–0' was Fay's win)."""
    c = sqlite_client
    event_id, organiser, seat = committed_table(c)
    url = f"/api/v1/events/{event_id}"
    paper = {"winner": "b", "a_points": 0, "b_points": 0}
    assert c.put(f"{url}/tables/{seat['table_id']}/result", headers=organiser, json=paper).status_code == 200
    c.cookies.set("firestep_organiser", organiser["Authorization"].split()[1])
    page = c.get(f"{url.removeprefix('/api/v1')}/bundles").text
    line = page.split("Round 1, table 1:")[1].split("</div>")[0]
    defender = re.findall(r"<strong>([^<]+)</strong>", line)[1]
    attacker = re.findall(r"<strong>([^<]+)</strong>", line)[0]
    assert line.strip().endswith(f"{defender} won: {attacker} 0, {defender} 0"), line


def test_every_settled_table_downloads_in_files_a_league_imports_whole(
    sqlite_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every settled table's bundles come in files of at most the league's import (100 tables; 2 here), one
    button a file: one file of a 200-table day of three rounds was 3.5 s of CPU (issue 63 hostile pass, N2)."""
    from app.pages import league as league_pages

    monkeypatch.setattr(league_pages, "MAX_FILES", 2)
    c = sqlite_client
    event_id, organiser = new_event(c, rounds=1)
    register(c, event_id, organiser, n=6)
    url = f"/api/v1/events/{event_id}"
    assert c.post(f"{url}/rounds", headers=organiser, json={"scenario": SCENARIO}).is_success
    for seat in c.post(f"{url}/rounds/1/commit", headers=organiser).json()["seats"]:
        paper = {"winner": "a", "a_points": 1, "b_points": 0}
        assert (
            c.put(f"{url}/tables/{seat['table_id']}/result", headers=organiser, json=paper).status_code == 200
        )
    c.cookies.set("firestep_organiser", organiser["Authorization"].split()[1])
    page = c.get(f"/events/{event_id}/bundles").text
    assert (
        "Download settled tables 1–2 (one file)" in page and "Download settled tables 3–3 (one file)" in page
    )
    files = [
        c.post(f"/events/{event_id}/bundles", data=form(c, {"club": "Ypres", "part": k})) for k in (1, 2)
    ]
    assert [len(f.json()) for f in files] == [2, 1]
    assert files[1].headers["content-disposition"].endswith('every-table-part-2.json"')
    assert [b["table"] for f in files for b in f.json()] == [1, 2, 3]
    past = c.post(f"/events/{event_id}/bundles", data=form(c, {"club": "Ypres", "part": "3"}))
    assert past.status_code == 422 and "choose a part from 1 to 2 of the tables" in past.text
