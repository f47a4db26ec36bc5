"""The league over the API (issue 63), on SQLite and PostgreSQL: one anonymous request broke the league for good
(a bundle whose players were not [name, club] pairs was stored and every read of the table answered 500) and
any key was trusted (a made-up result signed by a key made a second before was counted; one table counted again
whenever its signature's hex was re-spelt or it was exported under another club name). Here a league is its
organiser's (a token, like an event's), every field is checked at import naming the field, a game from a key the
league does not trust waits for its organiser's yes, and one game is one row whatever its bundle's spelling."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient
from sqlalchemy import event

from app.club import signing
from app.services.league import fingerprint, ruleset_hash
from rules.core.commitment import canonical, sha256


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_league(c: TestClient, name: str = "Flanders league") -> tuple[int, dict[str, str]]:
    made = c.post("/api/v1/leagues", json={"name": name})
    assert made.status_code == 201, made.text
    return made.json()["league"]["id"], bearer(made.json()["organiser_token"])


def signed(key: Ed25519PrivateKey, **changes: Any) -> dict[str, Any]:
    """A bundle a club's key signed: an event's round 1 table 1, its result set by its organiser."""
    record: dict[str, Any] = {"log": [], "ended": None}
    body: dict[str, Any] = {
        "format": "firestep-result/3",
        "club": "Ypres",
        "public_key": signing.public_hex(key),
        "event": "Club night",
        "event_id": 7,
        "round": 1,
        "table": 1,
        "ruleset": "flanders-fields",
        "ruleset_hash": ruleset_hash("flanders-fields"),
        "period": "early",
        "scenario": "",
        "scenario_hash": sha256({}),
        "forces_hash": sha256({}),
        "players": {"attacker": ["Ann", "Ypres"], "defender": ["Bob", "Arras"]},
        "result": {
            "winner": "attacker",
            "points": {"attacker": 6, "defender": 2},
            "losses": {"attacker": 1, "defender": 4},
            "reason": "set by the organiser",
        },
        "settled": "altered",
        "log_hash": sha256(record),
        "log_entries": 0,
        **changes,
    }
    return {**body, "signature": signing.sign(key, canonical(body)), "record": record}


@pytest.mark.storage
def test_a_league_is_its_organisers_and_every_field_is_checked_at_import(client: TestClient) -> None:
    c = client
    league_id, organiser = new_league(c)
    _, other = new_league(c, "Another league")
    url = f"/api/v1/leagues/{league_id}"
    key = Ed25519PrivateKey.generate()
    good = {"bundle": signed(key)}
    assert c.post(f"{url}/results", json=good).status_code == 401  # no token: nothing stored
    assert c.post(f"{url}/results", headers=other, json=good).status_code == 403
    assert c.post(f"{url}/results", headers=bearer("x" * 43), json=good).status_code == 401
    # Players not [name, club] pairs, signed by their own key: refused naming the field, the table still read.
    for players, field in (
        ({"attacker": 1, "defender": 2}, "bundle.players.attacker"),
        ({"attacker": ["Ann"], "defender": ["Bob", "Arras"]}, "bundle.players.attacker.1"),
        ({"attacker": ["Ann", "Ypres"], "defender": [2, 3]}, "bundle.players.defender.0"),
        ({"attacker": ["Ann", "Ypres"]}, "bundle.players.defender"),
    ):
        r = c.post(f"{url}/results", headers=organiser, json={"bundle": signed(key, players=players)})
        assert r.status_code == 422 and r.json()["field"] == field, (players, r.text)
    for changes, field in (
        ({"result": {"winner": "c", "points": {}, "losses": {}, "reason": ""}}, "bundle.result.winner"),
        ({"round": "1"}, "bundle.round"),
        ({"table": True}, "bundle.table"),
        ({"extra": 1}, "bundle.extra"),
    ):
        r = c.post(f"{url}/results", headers=organiser, json={"bundle": signed(key, **changes)})
        assert r.status_code == 422 and r.json()["field"] == field, (changes, r.text)
    older = c.post(
        f"{url}/results", headers=organiser, json={"bundle": signed(key, format="firestep-result/2")}
    )
    assert older.status_code == 422 and older.json()["field"] == "bundle.format", older.text
    assert older.json()["detail"].endswith(
        "a firestep-result/2 bundle has no round to tell its game apart: export it again."
    )
    assert c.get(url).status_code == 200 and c.get(url).json()["lines"] == []
    kept = c.post(f"{url}/results", headers=organiser, json=good)
    assert kept.status_code == 201 and kept.json()["status"] == "pending", kept.text
    assert c.get(url).json() == {**c.get(url).json(), "lines": [], "pending": 1}
    assert c.get(f"/api/v1/leagues/{league_id + 1}").json()["lines"] == []  # the other league has none


@pytest.mark.storage
def test_a_league_counts_the_keys_it_trusts_and_one_game_once(client: TestClient) -> None:
    c = client
    league_id, organiser = new_league(c)
    url = f"/api/v1/leagues/{league_id}"
    ours, stranger = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    trusted = c.post(
        f"{url}/keys",
        headers=organiser,
        json={"public_key": signing.public_hex(ours).upper(), "club": "Ypres"},
    )
    assert trusted.status_code == 201, trusted.text
    assert trusted.json()["fingerprint"] == fingerprint(signing.public_hex(ours))
    assert (
        c.post(f"{url}/keys", json={"public_key": signing.public_hex(stranger), "club": "X"}).status_code
        == 401
    )
    game = signed(ours)
    first = c.post(f"{url}/results", headers=organiser, json={"bundle": game}).json()
    assert first["status"] == "counted"
    # The same game re-spelt (the signature's case and spaces), or under another club's name: one row.
    upper = {**game, "signature": " ".join(game["signature"][i : i + 8].upper() for i in range(0, 128, 8))}
    renamed = signed(ours, club="Ypres Wargames Society")
    for again in (game, upper, renamed):
        r = c.post(f"{url}/results", headers=organiser, json={"bundle": again})
        assert r.status_code == 201 and r.json()["id"] == first["id"], r.text
    changed = signed(ours, result={**game["result"], "points": {"attacker": 10_000, "defender": 0}})
    clash = c.post(f"{url}/results", headers=organiser, json={"bundle": changed})
    assert clash.status_code == 409 and "already has Club night's round 1 table 1" in clash.json()["detail"]
    # A made-up win signed by a key made a second before waits for the organiser: not counted.
    made_up = signed(
        stranger, club="Nowhere", players={"attacker": ["Eve", "Nowhere"], "defender": ["Bob", "Arras"]}
    )
    waiting = c.post(f"{url}/results", headers=organiser, json={"bundle": made_up}).json()
    assert waiting["status"] == "pending"
    table = c.get(url).json()
    assert [(line["player"], line["played"], line["points"]) for line in table["lines"]] == [
        ("Ann", 1, 3),
        ("Bob", 1, 0),
    ]
    assert table["pending"] == 1
    # No: removed. Yes to another of its games: the key trusted under the bundle's club name, counted.
    assert c.delete(f"{url}/results/{waiting['id']}", headers=organiser).status_code == 204
    waiting = c.post(f"{url}/results", headers=organiser, json={"bundle": made_up}).json()
    yes = c.post(f"{url}/results/{waiting['id']}/accept", headers=organiser)
    assert yes.status_code == 200 and yes.json()["club"] == "Nowhere"
    assert c.get(url).json()["pending"] == 0 and len(c.get(url).json()["lines"]) == 3
    counted = c.delete(f"{url}/results/{waiting['id']}", headers=organiser)
    assert counted.status_code == 409 and "remove the key" in counted.json()["detail"]
    # Trust withdrawn: its games wait again.
    assert c.delete(f"{url}/keys/{yes.json()['id']}", headers=organiser).status_code == 204
    assert c.get(url).json()["pending"] == 1
    listed = c.get(f"{url}/results", headers=organiser).json()
    assert [g["status"] for g in listed] == ["counted", "pending"]
    assert c.get(f"{url}/results").status_code == 401


def test_forged_and_oversized_bundles_are_refused_in_one_sentence(sqlite_client: TestClient) -> None:
    c = sqlite_client
    league_id, organiser = new_league(c)
    url = f"/api/v1/leagues/{league_id}/results"
    key = Ed25519PrivateKey.generate()
    forged = signed(key)
    forged["result"] = {**forged["result"], "winner": "defender"}
    r = c.post(url, headers=organiser, json={"bundle": forged})
    assert (
        r.status_code == 422
        and r.json()["detail"] == "The bundle was changed after its club signed it: refused."
    )
    other_key = copy.deepcopy(signed(key))
    other_key["public_key"] = signing.public_hex(Ed25519PrivateKey.generate())
    assert c.post(url, headers=organiser, json={"bundle": other_key}).json()["field"] == "bundle.signature"
    junk = c.post(url, headers=organiser, json={"bundle": {"format": "firestep-result/1", "signature": "zz"}})
    assert junk.status_code == 422
    huge = signed(key, log_entries=1)
    huge["record"] = {"log": ["y" * 1_500_000], "ended": None}  # under the 2 MiB body
    big = c.post(url, headers=organiser, json={"bundle": huge})
    assert big.status_code == 422 and "at most 1,500,000 characters" in big.text


def test_a_name_that_would_print_as_anothers_is_refused_naming_the_field(sqlite_client: TestClient) -> None:
    """A signed bundle's player named with a right-to-left override, an invisible letter or a full-width
    spelling was kept: on the league's pages it printed as another player's name, or was a second player."""
    c = sqlite_client
    league_id, organiser = new_league(c)
    key = Ed25519PrivateKey.generate()
    for name, club, field in (
        ("La\u202ete", "Ypres", "bundle.players.attacker.0"),
        ("Late\u3164", "Ypres", "bundle.players.attacker.0"),
        ("Ｌａｔｅ", "Ypres", "bundle.players.attacker.0"),
        ("Late", "Yp\u200bres", "bundle.players.attacker.1"),
    ):
        players = {"attacker": [name, club], "defender": ["Bob", "Arras"]}
        r = c.post(
            f"/api/v1/leagues/{league_id}/results",
            headers=organiser,
            json={"bundle": signed(key, players=players)},
        )
        assert r.status_code == 422 and r.json()["field"] == field, (name, club, r.text)


def test_a_bundle_whose_player_plays_themselves_is_refused(sqlite_client: TestClient) -> None:
    """A signed bundle with one [name, club] on both sides (or a look-alike of it) was counted: the one player
    won and lost the same game, two games played. An event registers no look-alike, so no club exports one."""
    c = sqlite_client
    league_id, organiser = new_league(c)
    key = Ed25519PrivateKey.generate()
    for defender in (["Ann", "Ypres"], ["\u0410nn", "ypres"]):  # the same; a Cyrillic A and the club's case
        bundle = signed(key, players={"attacker": ["Ann", "Ypres"], "defender": defender})
        r = c.post(f"/api/v1/leagues/{league_id}/results", headers=organiser, json={"bundle": bundle})
        assert r.status_code == 422 and r.json()["field"] == "bundle.players.defender", r.text
    other_club = signed(key, players={"attacker": ["Ann", "Ypres"], "defender": ["Ann", "Arras"]})
    assert (
        c.post(
            f"/api/v1/leagues/{league_id}/results", headers=organiser, json={"bundle": other_club}
        ).status_code
        == 201
    )


@pytest.mark.storage
def test_a_yes_never_trusts_a_new_key_under_a_trusted_clubs_name(client: TestClient) -> None:
    """A game signed by a key made a second before and exported as 'Ypres', whose key the league trusts, waited
    with 'Yes, trust Ypres': one tap trusted the impostor's key as Ypres and counted its made-up results."""
    c = client
    league_id, organiser = new_league(c)
    url = f"/api/v1/leagues/{league_id}"
    ypres, impostor = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    trusted = c.post(
        f"{url}/keys", headers=organiser, json={"public_key": signing.public_hex(ypres), "club": "Ypres"}
    )
    assert trusted.status_code == 201, trusted.text
    for n, club in enumerate(("Ypres", "ypres", "Ypr\u0435s")):  # the name, its case, a Cyrillic e
        waiting = c.post(
            f"{url}/results", headers=organiser, json={"bundle": signed(impostor, club=club, table=n + 1)}
        )
        assert waiting.status_code == 201 and waiting.json()["status"] == "pending", waiting.text
        yes = c.post(f"{url}/results/{waiting.json()['id']}/accept", headers=organiser)
        assert yes.status_code == 409 and "trusted already with another key" in yes.json()["detail"], yes.text
    assert [k["club"] for k in c.get(f"{url}/keys").json()] == ["Ypres"]
    assert c.get(url).json()["lines"] == [] and c.get(url).json()["pending"] == 3
    other = c.post(
        f"{url}/results", headers=organiser, json={"bundle": signed(impostor, club="Arras", table=9)}
    )
    assert c.post(f"{url}/results/{other.json()['id']}/accept", headers=organiser).status_code == 200


def test_a_leagues_and_a_trusted_clubs_names_are_kept_as_an_events(sqlite_client: TestClient) -> None:
    """A league's name and a trusted key's club were kept as typed: a right-to-left override printed 'Stop
    trusting Yp‮res' reversed on the page, a zero-width or full-width spelling was another club."""
    c = sqlite_client
    league_id, organiser = new_league(c)
    keys = f"/api/v1/leagues/{league_id}/keys"
    for club in ("Yp\u202eres", "Yp\u200bres", "\u3164"):
        r = c.post(keys, headers=organiser, json={"public_key": "ab" * 32, "club": club})
        assert r.status_code == 422 and r.json()["field"] == "club", r.text
    assert (
        c.post(keys, headers=organiser, json={"public_key": "ab" * 32, "club": "Ｙｐｒｅｓ"}).json()["club"]
        == "Ypres"
    )
    made = c.post("/api/v1/leagues", json={"name": "Flanders\u202e league"})
    assert made.status_code == 422 and made.json()["field"] == "name", made.text
    assert c.post("/api/v1/leagues", json={"name": "Ｆｌａｎｄｅｒｓ"}).json()["league"]["name"] == "Flanders"


@pytest.mark.storage
def test_the_organisers_list_of_results_is_paged_in_the_database(client: TestClient) -> None:
    """Issue 91: a page of the league's games read the whole league, then sliced it (1.05-1.41 s of CPU for 100
    rows at 10,000 games). The same rows, a page read at a time."""
    c = client
    league_id, organiser = new_league(c)
    _, other = new_league(c, "Another league")
    ours = Ed25519PrivateKey.generate()
    url = f"/api/v1/leagues/{league_id}/results"
    for table in range(1, 6):
        signed_bundle = {"bundle": signed(ours, table=table)}
        assert c.post(url, headers=organiser, json=signed_bundle).status_code == 201
        theirs = {"bundle": signed(ours, table=table, event_id=8)}  # between ours: another league's ids
        assert (
            c.post(f"/api/v1/leagues/{league_id + 1}/results", headers=other, json=theirs).status_code == 201
        )
    whole = c.get(url, headers=organiser).json()
    assert [g["table"] for g in whole] == [1, 2, 3, 4, 5] and all(g["status"] == "pending" for g in whole)
    ids = [g["id"] for g in whole]
    pages, after = [], None
    while True:
        page = c.get(
            url, headers=organiser, params={"limit": 2, **({"after": after} if after else {})}
        ).json()
        if not page:
            break
        pages.append(page)
        after = str(page[-1]["id"])
    assert [len(p) for p in pages] == [2, 2, 1] and [g for p in pages for g in p] == whole
    # After an id no longer the league's (another league's, between two of ours): the games above it.
    assert [g["id"] for g in c.get(url, headers=organiser, params={"after": str(ids[2] - 1)}).json()] == ids[
        2:
    ]
    for past in ("2147483647", "2147483648", "9" * 64):
        assert c.get(url, headers=organiser, params={"after": past}).json() == []
    refused = c.get(url, headers=organiser, params={"after": "abc"})
    assert refused.status_code == 422 and refused.json()["field"] == "after"
    engine = c.app.state.engine  # type: ignore[attr-defined]
    asked: list[str] = []
    record = lambda *a: asked.append(a[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", record)
    try:
        assert c.get(url, headers=organiser, params={"limit": 2}).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", record)
    [listed] = [q for q in asked if "FROM league_game" in q]
    assert "LIMIT" in listed and "ORDER BY league_game.id" in listed, listed
