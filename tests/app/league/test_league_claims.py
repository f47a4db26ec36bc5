"""A league's results from another tool's CSV (issue 70): a Best Coast Pairings or Longshanks file of pairings,
its columns named by the organiser, kept as the organiser's claim (never a signed, verified result): the table
counts them and says which lines rest on them; a malformed file is refused naming the row and the column; a
formula cell is kept as text and never written out as a formula."""

from __future__ import annotations

import re
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient

from app.club import signing
from app.services.league_claims import csv_cell
from tests.app.league.test_league import new_league, signed
from tests.csrf import form

BCP = (
    "Round,Player 1,Faction 1,Score 1,Player 2,Faction 2,Score 2,Result\r\n"
    'Round,"Ann",Ypres,14,Bob,Arras,6,W\r\n'
    "1,Cleo,Mons,8,Dirk,Lille,8,D\r\n"
    "2,Ann,Ypres,3,Cleo,Mons,17,L\r\n"
)
COLUMNS = {
    "round": "Round",
    "a_name": "Player 1",
    "a_club": "Faction 1",
    "a_points": "Score 1",
    "b_name": "Player 2",
    "b_club": "Faction 2",
    "b_points": "Score 2",
    "result": "Result",
}


def file_of(rows: str) -> str:
    return BCP.split("\r\n", 1)[0] + "\r\n" + rows


def test_a_csvs_rows_are_kept_as_the_organisers_claim_and_the_table_says_so(
    sqlite_client: TestClient,
) -> None:
    c = sqlite_client
    league_id, organiser = new_league(c)
    url = f"/api/v1/leagues/{league_id}"
    good = BCP.replace('Round,"Ann"', '1,"Ann"')
    body: dict[str, Any] = {"event": "Autumn GT", "csv": good, "columns": COLUMNS}
    assert c.post(f"{url}/claims", json=body).status_code == 401
    r = c.post(f"{url}/claims", headers=organiser, json=body)
    assert r.status_code == 201, r.text
    assert r.json()["imported"] == 3 and {k["kept_as"] for k in r.json()["claims"]} == {
        "the organiser's claim"
    }
    assert [(k["winner"], [k["first"]["points"], k["second"]["points"]]) for k in r.json()["claims"]] == [
        ("first", [14, 6]),
        (None, [8, 8]),
        ("second", [3, 17]),
    ]
    # A signed game beside them, its key trusted: Bob's line rests on one claim and one signed game.
    key = Ed25519PrivateKey.generate()
    bundle = signed(key, players={"attacker": ["Bob", "Arras"], "defender": ["Eve", "Arras"]})
    assert c.post(f"{url}/results", headers=organiser, json={"bundle": bundle}).status_code == 201
    assert c.post(
        f"{url}/keys", headers=organiser, json={"public_key": signing.public_hex(key), "club": "Ypres"}
    ).is_success
    lines = {line["player"]: line for line in c.get(url).json()["lines"]}
    assert (lines["Cleo"]["points"], lines["Cleo"]["played"], lines["Cleo"]["claimed"]) == (4, 2, 2)
    assert (lines["Bob"]["played"], lines["Bob"]["claimed"], lines["Eve"]["claimed"]) == (2, 1, 0)
    # The same file again keeps each row once; another result for a row kept is refused.
    again = c.post(f"{url}/claims", headers=organiser, json=body)
    assert (again.json()["imported"], again.json()["kept_already"]) == (0, 3)
    changed = c.post(f"{url}/claims", headers=organiser, json={**body, "csv": good.replace(",8,D", ",9,D")})
    assert changed.status_code == 409 and "Cleo v Dirk is here already with another result" in changed.text
    assert c.get(url).json()["lines"] == list(lines.values())
    # The page marks the lines resting on claims.
    c.cookies.clear()
    page = c.get(f"/leagues/{league_id}").text
    assert re.search(r"Cleo .*2 of 2 on the organiser's claim, not signed", page)
    assert "Eve" in page and page.count("data-claimed") == 4  # Ann, Bob, Cleo, Dirk: not Eve


def test_a_malformed_file_is_refused_naming_its_row_and_column(sqlite_client: TestClient) -> None:
    c = sqlite_client
    league_id, organiser = new_league(c)
    url = f"/api/v1/leagues/{league_id}/claims"

    def refused(csv: str, columns: dict[str, str] = COLUMNS) -> tuple[int, str, str]:
        r = c.post(url, headers=organiser, json={"event": "GT", "csv": csv, "columns": columns})
        return r.status_code, r.json().get("field", ""), r.json()["detail"]

    assert refused(BCP) == (422, "csv", "Row 2, column “Round”: “Round” is not a whole number from 1 to 99.")
    assert refused(file_of("1,Ann,Ypres,fourteen,Bob,Arras,6,W\r\n"))[2].startswith("Row 2, column “Score 1”")
    assert refused(file_of('1,"Ann,Ypres,14,Bob,Arras,6,W\r\n'))[2].startswith("Row 2 cannot be read as CSV")
    assert refused(file_of("1,Ann,Ypres,14,Bob,Arras,6\r\n"))[2] == "Row 2 has 7 cells, the header 8."
    assert refused(file_of("1,Ann,Ypres,14,Bob,Arras,6,maybe\r\n"))[2].startswith("Row 2, column “Result”")
    assert refused(file_of(f"1,Ann,{'Y' * 81},14,Bob,Arras,6,W\r\n"))[2].startswith(
        "Row 2, column “Faction 1”: over 80"
    )
    assert refused(file_of("1,Ann\u202e,Ypres,14,Bob,Arras,6,W\r\n"))[2].startswith(
        "Row 2, column “Player 1”"
    )
    assert refused(file_of(""))[2] == "The file has a header and no pairing under it."
    assert refused("A,A\r\n1,2\r\n")[2] == "Row 1, column 2: “A” names two columns."
    assert refused(file_of("1,Ann,Ypres,14,Bob,Arras,6,W\r\n"), {**COLUMNS, "round": "Rnd"})[:2] == (
        422,
        "columns.round",
    )
    too_big = c.post(url, headers=organiser, json={"event": "GT", "csv": "x" * 200_001, "columns": COLUMNS})
    assert too_big.status_code == 422 and too_big.json()["field"] == "csv"
    many = file_of("".join(f"1,P{i},,1,Q{i},,0,W\r\n" for i in range(2_001)))
    assert refused(many)[2] == "The file has over 2000 pairings: split it by rounds."
    assert c.get(f"/api/v1/leagues/{league_id}").json()["lines"] == []  # the whole file or nothing


def test_a_formula_in_a_cell_is_kept_as_text_and_never_written_out_as_one(sqlite_client: TestClient) -> None:
    c = sqlite_client
    league_id, organiser = new_league(c)
    formula = '=HYPERLINK("http://evil.example","x")'
    csv = file_of(f'1,"{formula.replace(chr(34), chr(34) * 2)}",Ypres,5,@Bob,Arras,3,W\r\n')
    r = c.post(
        f"/api/v1/leagues/{league_id}/claims",
        headers=organiser,
        json={"event": "GT", "csv": csv, "columns": COLUMNS},
    )
    assert r.status_code == 201 and r.json()["claims"][0]["first"]["name"] == formula, r.text
    assert csv_cell(formula) == "'" + formula and csv_cell("@Bob") == "'@Bob" and csv_cell("Bob") == "Bob"
    page = c.get(f"/leagues/{league_id}").text
    assert formula not in page and "=HYPERLINK(&#34;http://evil.example&#34;" in page


def test_the_organiser_names_the_columns_from_the_files_header_on_the_page(sqlite_client: TestClient) -> None:
    c = sqlite_client
    made = c.post("/leagues", data=form(c, {"name": "CSV league"}), follow_redirects=False)
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    assert "Import another tool's results (CSV)" in c.get(f"/leagues/{league_id}").text
    good = BCP.replace('Round,"Ann"', '1,"Ann"')
    files = {"csv": ("round.csv", good.encode(), "text/csv")}
    page = c.post(f"/leagues/{league_id}/claims/columns", data=form(c, {"event": "Autumn GT"}), files=files)
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    offered = re.findall(r'<select id="cl-round" name="round" required>(.*?)</select>', page.text, re.S)[0]
    assert re.findall(r'<option value="([^"]*)">', offered) == ["", *COLUMNS.values()]
    kept_text = re.search(r'name="csv" value="([^"]*)"', page.text)
    assert kept_text is not None
    chosen = {**COLUMNS, "a_club": "", "b_club": "", "event": "Autumn GT", "csv": good}
    missing = c.post(f"/leagues/{league_id}/claims", data=form(c, {**chosen, "b_points": ""}))
    assert (
        missing.status_code == 422
        and "choose the column of the second player&#39;s score" in missing.text.lower()
    )
    malformed = c.post(f"/leagues/{league_id}/claims", data=form(c, {**chosen, "csv": BCP}))
    assert "The round: row 2&#39;s “Round” is not a whole number from 1 to 99: choose another column." in (
        malformed.text
    )
    done = c.post(f"/leagues/{league_id}/claims", data=form(c, chosen))
    assert "3 new games kept, 0 already here: the organiser&#39;s claim, not signed by a club." in done.text
    assert "2 of 2 on the organiser's claim, not signed" in done.text
    bad = c.post(
        f"/leagues/{league_id}/claims/columns",
        data=form(c, {"event": "GT"}),
        files={"csv": ("x.csv", b"", "text/csv")},
    )
    assert bad.status_code == 422 and "The file is empty" in bad.text


def test_one_game_is_one_claim_however_a_tool_spells_or_orders_it(sqlite_client: TestClient) -> None:
    """The hostile pass of this session: a row under another case of its event, its players the other way
    round, or a player's name in another case was a second game; a player paired with themselves counted."""
    c = sqlite_client
    league_id, organiser = new_league(c)
    url = f"/api/v1/leagues/{league_id}"
    cols = {k: v for k, v in COLUMNS.items() if k not in ("a_club", "b_club", "result")}
    head = "Round,Player 1,Score 1,Player 2,Score 2\r\n"

    def send(event: str, rows: str) -> Any:
        return c.post(
            f"{url}/claims", headers=organiser, json={"event": event, "csv": head + rows, "columns": cols}
        )

    assert send("Dup Open", "1,Dora,10,Eve,5\r\n").json()["imported"] == 1
    for event, row in (("dup open", "1,Dora,10,Eve,5\r\n"), ("DUP OPEN", "1,Eve,5,Dora,10\r\n")):
        again = send(event, row)
        assert again.status_code == 201 and (again.json()["imported"], again.json()["kept_already"]) == (0, 1)
    reversed_other_result = send("Dup Open", "1,Eve,10,Dora,5\r\n")
    assert reversed_other_result.status_code == 409
    assert (
        send("Dup Open", "2,DORA,7,eve,7\r\n").json()["imported"] == 1
    )  # a second round: the same two players
    lines = {line["player"]: line["played"] for line in c.get(url).json()["lines"]}
    assert lines == {"Dora": 2, "Eve": 2}
    itself = send("Dup Open", "3,Same,1,SAME,2\r\n")
    assert itself.status_code == 422 and itself.json()["detail"] == (
        "Row 2: the second player is the first (the same name and club)."
    )


def test_the_pages_two_steps_take_any_file_the_first_accepts_and_refuse_in_a_sentence(
    sqlite_client: TestClient,
) -> None:
    """The hostile pass: a column name past 80 characters sent to the second step was a 500; a file near the
    limit with LF line breaks came back from the browser as CRLF and was refused as too long; bytes that are not
    UTF-8 were read as replacement characters and kept as a player's name; no file at all answered JSON."""
    c = sqlite_client
    made = c.post("/leagues", data=form(c, {"name": "CSV league"}), follow_redirects=False)
    league_id = int(made.headers["location"].rsplit("/", 1)[1])
    good = BCP.replace('Round,"Ann"', '1,"Ann"')
    chosen = {**COLUMNS, "event": "Autumn GT", "csv": good}
    long_name = c.post(f"/leagues/{league_id}/claims", data=form(c, {**chosen, "a_club": "F" * 81}))
    assert long_name.status_code == 422
    assert (
        "choose the column of the first player&#39;s club from the file&#39;s header"
        in long_name.text.lower()
    )
    # 1,990 pairings of LF lines, under the limit as uploaded; sent back with each line break as CRLF.
    rows = "".join(f"{1 + i % 9},P{i:04d}{'x' * 58},,1,Q{i:04d}{'y' * 20},,0,W\n" for i in range(1_990))
    near = BCP.split("\r\n", 1)[0] + "\n" + rows
    assert 200_000 - 2_000 < len(near) <= 200_000 < len(near.replace("\n", "\r\n"))
    files = {"csv": ("near.csv", near.encode(), "text/csv")}
    step_one = c.post(f"/leagues/{league_id}/claims/columns", data=form(c, {"event": "Big"}), files=files)
    assert step_one.status_code == 200
    sent_back = {**chosen, "event": "Big", "csv": near.replace("\n", "\r\n")}
    assert (
        "1990 new games kept, 0 already here"
        in c.post(f"/leagues/{league_id}/claims", data=form(c, sent_back)).text
    )
    not_utf8 = {"csv": ("x.csv", b"Round,P1,S1,P2,S2\n1,Ann\xff,1,B,2\n", "text/csv")}
    refused = c.post(f"/leagues/{league_id}/claims/columns", data=form(c, {"event": "GT"}), files=not_utf8)
    assert "Byte 24 of that file is not UTF-8 text: export it again as a UTF-8 CSV." in refused.text
    assert "Ann\ufffd" not in c.get(f"/leagues/{league_id}").text
    no_file = c.post(f"/leagues/{league_id}/claims/columns", data=form(c, {"event": "GT"}))
    assert no_file.headers["content-type"].startswith("text/html")
    assert "Choose the CSV file your pairing tool exported." in no_file.text


def _columns_page(c: TestClient, league_id: int, text: str, event: str = "Autumn GT") -> Any:
    files = {"csv": ("round.csv", text.encode("utf-8"), "text/csv")}
    return c.post(f"/leagues/{league_id}/claims/columns", data=form(c, {"event": event}), files=files)


def _page_league(c: TestClient) -> int:
    made = c.post("/leagues", data=form(c, {"name": "CSV league"}), follow_redirects=False)
    return int(made.headers["location"].rsplit("/", 1)[1])


def test_a_refusal_on_the_columns_page_keeps_the_file_the_event_and_every_choice(
    sqlite_client: TestClient,
) -> None:
    """The newcomer pass: a wrong column chosen sent the organiser back to the league page, far above its form
    at 390 wide, the file, the event's name and every choice lost. Now the columns page again, its sentence
    first and naming the column's role, the choice to make again marked."""
    c = sqlite_client
    league_id = _page_league(c)
    good = BCP.replace('Round,"Ann"', '1,"Ann"')
    chosen = {**COLUMNS, "a_points": "Faction 1", "event": "Autumn GT", "csv": good}
    wrong = c.post(f"/leagues/{league_id}/claims", data=form(c, chosen))
    assert wrong.status_code == 422
    said = "The first player's score: row 2's “Ypres” is not a whole number from 0 to 10000: choose another column."
    main = wrong.text.split("<main", 1)[1]
    first = re.search(
        r'<h1 id="claims-h">.*?</h1>\s*<div class="errors" role="alert" id="cl-error"><p>(.*?)</p>',
        main,
        re.S,
    )
    assert first is not None and first.group(1).replace("&#39;", "'") == said and len(said) <= 120
    assert 'name="event" value="Autumn GT"' in wrong.text
    kept = re.search(r'name="csv" value="([^"]*)"', wrong.text)
    assert kept is not None and kept.group(1).replace("&#34;", '"').replace("\r\n", "\n") == good.replace(
        "\r\n", "\n"
    )
    for role in COLUMNS:
        chosen_column = chosen[role]
        select = re.search(rf'<select id="cl-{role}"[^>]*>(.*?)</select>', wrong.text, re.S)
        assert select is not None
        assert re.findall(r'<option value="([^"]*)" selected>', select.group(1)) == [chosen_column], role
    assert re.search(r'<select id="cl-a_points" name="a_points" required aria-invalid="true"', wrong.text)
    # The longest cell and row number still a sentence of at most 120 characters.
    rows = (
        "".join(f"{r % 99 + 1},P{r},1,1,Q{r},y,0,W\n" for r in range(1, 1_999))
        + "5,Z,Ypresxxxxxxxxxxxxxxxxxxxxxx,1,Y,y,0,W\n"
    )
    long = c.post(
        f"/leagues/{league_id}/claims",
        data=form(c, {**chosen, "a_points": "Faction 1", "csv": file_of(rows)}),
    )
    refusal = re.search(r'role="alert" id="cl-error"><p>(.*?)</p>', long.text)
    assert refusal is not None and "row 2000&#39;s “Ypresxxxxxxxxxx…”" in refusal.group(1)
    assert len(refusal.group(1).replace("&#39;", "'")) <= 120
    # A file refused in the second step (two results for one game) keeps the page too.
    twice = file_of("1,Ann,x,3,Bob,y,1,W\n1,Bob,y,3,Ann,x,1,W\n")
    refused = c.post(
        f"/leagues/{league_id}/claims", data=form(c, {**chosen, "a_points": "Score 1", "csv": twice})
    )
    assert refused.status_code == 422
    assert "two results: refused." in refused.text and 'name="event" value="Autumn GT"' in refused.text


def test_a_semicolon_separated_file_is_read_by_its_separator(sqlite_client: TestClient) -> None:
    """Excel in a European locale writes semicolons, with a byte-order mark: read as one column before."""
    c = sqlite_client
    league_id = _page_league(c)
    excel = '\ufeffRound;Player 1;Score 1;Player 2;Score 2\r\n1;Ann;14;Bob;6\r\n1;Cleo;8;"Dirk; Jr";8\r\n'
    page = _columns_page(c, league_id, excel)
    assert page.status_code == 200 and "read as separated by semicolons." in page.text
    offered = re.findall(r'<select id="cl-round" name="round" required>(.*?)</select>', page.text, re.S)[0]
    assert re.findall(r'<option value="([^"]*)">', offered) == [
        "",
        "Round",
        "Player 1",
        "Score 1",
        "Player 2",
        "Score 2",
    ]
    assert "read as separated by commas." in _columns_page(c, league_id, BCP).text
    cols = {k: v for k, v in COLUMNS.items() if k not in ("a_club", "b_club", "result")}
    done = c.post(f"/leagues/{league_id}/claims", data=form(c, {**cols, "event": "GT", "csv": excel}))
    assert "2 new games kept, 0 already here" in done.text and "Dirk; Jr" in done.text


def test_a_game_listed_twice_is_counted_once_in_what_the_import_says(sqlite_client: TestClient) -> None:
    """A per-player export lists each game twice, once from each side: the page said "Imported 4 games"."""
    c = sqlite_client
    league_id = _page_league(c)
    head = "Round,Player 1,Score 1,Player 2,Score 2\r\n"
    per_player = head + "1,Ann,14,Bob,6\r\n1,Bob,6,Ann,14\r\n1,Cleo,8,Dirk,8\r\n1,Dirk,8,Cleo,8\r\n"
    cols = {k: v for k, v in COLUMNS.items() if k not in ("a_club", "b_club", "result")}
    chosen = {**cols, "event": "GT", "csv": per_player}
    assert (
        "2 new games kept, 0 already here"
        in c.post(f"/leagues/{league_id}/claims", data=form(c, chosen)).text
    )
    again = head + "1,Ann,14,Bob,6\r\n1,Bob,6,Ann,14\r\n2,Ann,1,Cleo,0\r\n"
    said = c.post(f"/leagues/{league_id}/claims", data=form(c, {**chosen, "csv": again})).text
    assert "1 new game kept, 1 already here" in said
    # The API counts games as the page does.
    c.cookies.clear()  # the page's organiser cookie: the API is asked with the organiser's bearer token
    api_league, organiser = new_league(c)
    body = {"event": "GT", "csv": per_player, "columns": cols}
    r = c.post(f"/api/v1/leagues/{api_league}/claims", headers=organiser, json=body).json()
    assert (r["imported"], r["kept_already"], len(r["claims"])) == (2, 0, 2)
