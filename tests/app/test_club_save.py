"""The counter editor's form read back and saved by the server (app/pages/club_save.py, issue 67): the form as the
page renders it, posted untouched, is the document it was rendered from (what the editor's script once wrote);
a scenario saved through it is refused naming the field, then stored and replaced over its id, exported as its
file, and a shared file imported (its editor next); a game in set-up saved through it over its version (a stale
one a 409 in words), a counter refused with its rule's sentence after its name and nothing left of it, an
unchanged one not written again. The taps are the browser's: tests/frontend/test_counter_scenario_editor.py."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

from fastapi.testclient import TestClient
from starlette.datastructures import FormData

from app.guard.auth import COOKIE_NAME
from app.pages import club_form, club_save, counter_editor
from app.pages.templates import templates
from tests.app.games.conftest import new_game
from tests.app.games.test_counter_scenario_file import _page, editor_document
from tests.csrf import form

VIMY = "vimy-ridge"
SAVE = f"/scenarios/club/{VIMY}/save"


class _Fields(HTMLParser):
    """A form's named values as a browser posts them: inputs, textareas, a select's chosen option; none inside
    a <template> (a blank row is not the form's)."""

    def __init__(self) -> None:
        super().__init__()
        self.items: list[tuple[str, str]] = []
        self._in_template = 0
        self._text: str | None = None
        self._select: str | None = None
        self._name = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "template":
            self._in_template += 1
        if self._in_template or ("name" not in a and tag != "option"):
            return
        if tag == "input":
            self.items.append((a["name"], a.get("value", "")))
        elif tag == "textarea":
            self._name, self._text = a["name"], ""
        elif tag == "select":
            self._select = a["name"]
            self.items.append((a["name"], ""))
        elif tag == "option" and self._select and "selected" in a:
            self.items[-1] = (self._select, a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "template":
            self._in_template -= 1
        elif tag == "textarea" and self._text is not None:
            self.items.append((self._name, self._text))
            self._text = None
        elif tag == "select":
            self._select = None

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text += data


def _sent(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Pairs in their order as the client's form data (a name's values together)."""
    out: dict[str, list[str]] = {}
    for name, value in pairs:
        out.setdefault(name, []).append(value)
    return out


def _posted(page: str) -> list[tuple[str, str]]:
    fields = _Fields()
    fields.feed(page)
    return fields.items


def test_the_form_as_rendered_reads_back_as_the_document_it_was_rendered_from() -> None:
    doc = editor_document()
    ctx = counter_editor.context(VIMY, "our-vimy", document=doc)
    club = ctx["club"]
    order = ctx["order"]
    assert isinstance(club, club_form.ClubData) and isinstance(order, club_form.OrderOfBattle)
    shown = templates.get_template("_club_data.html").render(**club.context())
    shown += templates.get_template("_club_order.html").render(**order.context())
    posted = FormData(_posted(shown))
    editor = counter_editor.editor_context(VIMY)
    club = club_save.ClubForm(title=doc["title"], scenario="our-vimy")
    read = club_save.scenario_document(editor, club, posted, club_save.posted_counters(editor, posted))
    assert read == {**doc, "id": "our-vimy"}


def test_a_scenario_saved_by_its_form_is_refused_by_field_then_stored_replaced_and_exported(
    sqlite_client: TestClient,
) -> None:
    http = sqlite_client
    doc = editor_document()
    page = http.get(f"/scenarios/new?ruleset={VIMY}").text
    fields = [(n, v) for n, v in _posted(page) if n not in ("csrftoken", "scenario", "title")]
    counters = [
        ("counter.1.side", "defender"),
        ("counter.1.name", "RIR 261"),
        ("counter.1.f.division", "79th Reserve"),
        ("counter.1.f.attack", "100"),
    ]
    sent = dict(form(http, {"title": doc["title"]}))
    refused = http.post(SAVE, data=_sent([*sent.items(), *fields, *counters]))
    assert refused.status_code == 422 and "Not saved: RIR 261&#39;s attack: " in refused.text
    counters[-1] = ("counter.1.f.attack", "4")
    saved = http.post(SAVE, data=_sent([*sent.items(), *fields, *counters]))
    assert saved.status_code == 200 and "Saved: start a game" in saved.text, saved.text
    # No part for what this page has not (a shipped scenario's mark): htmx logs one with no target (newcomer B).
    assert 'id="club-shipped"' not in saved.text
    found = re.search(r'id="club-scenario" name="scenario" value="([^"]+)" hx-swap-oob', saved.text)
    assert found is not None
    sid = found.group(1)
    renamed = [*{**sent, "title": "Our Vimy, again", "scenario": sid}.items(), *fields, *counters]
    again = http.post(SAVE, data=_sent(renamed))
    assert again.status_code == 200 and f'value="{sid}"' in again.text, again.text
    back = http.get(f"/api/v1/scenarios/{sid}").json()
    assert (
        back["title"] == "Our Vimy, again" and back["sides"]["defender"]["forces"][0]["state"]["attack"] == 4
    )
    exported = http.post(f"/scenarios/club/{VIMY}/export", data=_sent(renamed))
    assert exported.headers["content-disposition"] == 'attachment; filename="our-vimy-again.json"'
    assert exported.json()["sides"] == back["sides"] and exported.json()["id"] == sid
    imported = http.post(
        f"/scenarios/club/{VIMY}/import",
        data=form(http),
        files={"file": ("v.json", json.dumps(doc).encode())},
    )
    assert imported.status_code == 204 and imported.headers["HX-Redirect"].endswith("/edit"), imported.text
    # The exported file shared back, its id saved here: kept both, the file a copy under a new id (the newcomer
    # pass: a 409 "reload and try again", again and again).
    back_again = http.post(
        f"/scenarios/club/{VIMY}/import", data=form(http), files={"file": ("v.json", exported.content)}
    )
    copy = back_again.headers.get("HX-Redirect", "")
    assert back_again.status_code == 204 and copy.endswith("/edit") and f"/{sid}/" not in copy, (
        back_again.text
    )
    junk = http.post(f"/scenarios/club/{VIMY}/import", data=form(http), files={"file": ("v.json", b"{oops")})
    assert junk.status_code == 422 and "not a scenario file" in junk.text
    # The hostile pass: JSON nested past the parser's depth was a 500; a form of more than 1,000 fields (119
    # counters as the page renders them) a 400 naming nothing.
    deep = http.post(
        f"/scenarios/club/{VIMY}/import", data=form(http), files={"file": ("v.json", b"[" * 100_000)}
    )
    assert deep.status_code == 422 and "not a scenario file" in deep.text
    many = [
        (f"counter.{i}.{field}", value)
        for i in range(1, 261)
        for field, value in (
            ("side", "defender"),
            ("name", f"RIR {i}"),
            ("f.division", "79th"),
            ("f.attack", "4"),
        )
    ]
    big = http.post(
        f"/scenarios/club/{VIMY}/export", data=_sent([*renamed[: len(sent) + len(fields)], *many])
    )
    assert big.status_code == 200 and len(big.json()["sides"]["defender"]["forces"]) == 260, big.text[:300]
    untitled = http.post(SAVE, data=_sent([*{**sent, "title": " "}.items(), *fields, *counters]))
    assert untitled.status_code == 422 and "give the scenario a title" in untitled.text
    # Session 23's hostile pass: a counter of a side the form has not (`referee`) was dropped without a word.
    forged = [("counter.2.side", "referee"), ("counter.2.name", "Ref")]
    for url in (SAVE, f"/scenarios/club/{VIMY}/export"):
        refused = http.post(url, data=_sent([*sent.items(), *fields, *counters, *forged]))
        assert (
            refused.status_code == 422
            and "counter 2&#39;s side: choose attacker or defender." in refused.text
        )


def test_a_game_s_form_saves_over_its_version_and_a_refused_counter_leaves_nothing(
    sqlite_client: TestClient,
) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Vimy", "ruleset": VIMY})
    page = _page(http, f"/games/{g.id}/table/edit", g.referee).text
    fields = [(n, v) for n, v in _posted(page) if n not in ("csrftoken",)]
    version = dict(fields)["version"]
    new = [
        ("counter.1.side", "defender"),
        ("counter.1.name", "RIR 266"),
        ("counter.1.f.division", "5th Guards"),
    ]
    token = g.referee["Authorization"].removeprefix("Bearer ")
    url = f"/games/{g.id}/club/save"

    def post(data: list[tuple[str, str]]) -> tuple[int, str]:
        http.cookies.clear()
        http.cookies.set(COOKIE_NAME, token)
        r = http.post(url, data=_sent([*form(http).items(), *data]))
        http.cookies.clear()
        return r.status_code, r.text

    status, said = post([*fields, *new])
    assert status == 409 and re.match(r"<span data-focus=\"club-c1-name\">RIR 266: .*\(19\.1\)", said), said
    now = re.search(r'id="club-version" name="version" value="(\d+)"', said)
    assert now is not None and now.group(1) != version
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    assert not any(u["name"] == "RIR 266" for u in units)
    stale = post([*fields, *new])  # the version the page read, before its club was saved
    assert stale[0] == 409 and stale[1].startswith("<span>Not saved: "), stale
    odd = post([*[(n, "²" if n == "version" else v) for n, v in fields], *new])  # int() would take it
    assert odd[0] == 422 and odd[1].startswith("<span>Not saved: version: "), odd
    fixed = [(n, now.group(1) if n == "version" else v) for n, v in fields]
    status, said = post([*fixed, *new[:2], ("counter.1.f.division", "79th Reserve")])
    assert status == 200 and said.startswith('<span class="good">Saved to the game.</span>'), said
    kept = re.search(
        r'name="counter.1.unit" value="(\d+)"><input type="hidden" name="counter.1.version" value="(\d+)"',
        said,
    )
    assert kept is not None and 'id="club-c1-remove" hx-swap-oob="delete"' in said
    now = re.search(r'id="club-version" name="version" value="(\d+)"', said)
    assert now is not None
    as_read = [(n, now.group(1) if n == "version" else v) for n, v in fields]
    unit = [("counter.1.unit", kept.group(1)), ("counter.1.version", kept.group(2))]
    status, again = post([*as_read, *new[:2], ("counter.1.f.division", "79th Reserve"), *unit])
    assert status == 200 and "club-c1-kept" not in again, again  # nothing to write: the unit as it was read
    # A counter of the game changed: saved over its version, and no Remove to take away (it has none: htmx
    # logged the part with no target, newcomer B).
    then = re.search(r'id="club-version" name="version" value="(\d+)"', again)
    assert then is not None
    at_then = [(n, then.group(1) if n == "version" else v) for n, v in fields]
    changed = [*at_then, *new[:2], ("counter.1.f.division", "1st Bavarian Reserve"), *unit]
    status, over = post(changed)
    assert status == 200 and "club-c1-kept" in over and "club-c1-remove" not in over, over


def test_a_game_s_save_of_many_counters_stops_at_its_cpu_budget_and_the_page_carries_on(
    sqlite_client: TestClient,
) -> None:
    """Session 24's hostile pass: 400 new counters saved to a game took 4.6 s of CPU in one request (each an act
    that reads the game's units), the server serving no one meanwhile. A save stops between two counters once
    it has spent table_save_cpu_seconds (none here: one counter a request), answers what it saved, its units and
    the game's version, and a carry-on the page posts by itself as its Save button; each counter is added once."""
    http = sqlite_client
    http.app.state.settings.table_save_cpu_seconds = 0.0  # type: ignore[attr-defined]
    g = new_game(http, {"name": "Vimy", "ruleset": VIMY})
    page = _page(http, f"/games/{g.id}/table/edit", g.referee).text
    held = dict((n, v) for n, v in _posted(page) if n != "csrftoken")
    names = ["RIR 261", "RIR 262", "RIR 263"]
    for i, name in enumerate(names, start=1):
        held |= {
            f"counter.{i}.side": "defender",
            f"counter.{i}.name": name,
            f"counter.{i}.f.division": "79th Reserve",
        }
    token = g.referee["Authorization"].removeprefix("Bearer ")
    url = f"/games/{g.id}/club/save"

    def post() -> Any:
        http.cookies.clear()
        http.cookies.set(COOKIE_NAME, token)
        r = http.post(url, data=_sent([*form(http).items(), *held.items()]))
        http.cookies.clear()
        return r

    answers = [post()]
    first = answers[0]
    assert first.status_code == 202 and ">Saved 1 of the counters: saving the rest...</span>" in first.text
    assert (
        f'<span hidden hx-post="{url}" hx-include="[data-club-form]" hx-target="[data-club-message]" hx-trigger="load">'
        in first.text
    )
    while answers[-1].status_code == 202:
        assert len(answers) <= len(names)
        # What htmx swaps in out of band before the carry-on posts: the game's version, each saved counter's unit.
        held |= dict(
            re.findall(
                r'<input type="hidden" (?:id="club-version" )?name="([^"]+)" value="([^"]*)"',
                answers[-1].text,
            )
        )
        answers.append(post())
    assert answers[-1].status_code == 200 and "Saved to the game." in answers[-1].text, answers[-1].text
    units = [u["name"] for u in http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()]
    assert sorted(n for n in units if n in names) == names


def test_the_editors_own_fields_are_its_form_model_s_refused_naming_each(sqlite_client: TestClient) -> None:
    """The counter editor's own fields are one form model (issue 90): a title past a scenario's 200 characters is
    refused naming it on the export too (it was exported whatever its length), in the editor's answer, not JSON."""
    http = sqlite_client
    page = http.get(f"/scenarios/new?ruleset={VIMY}").text
    fields = [(n, v) for n, v in _posted(page) if n not in ("csrftoken", "scenario", "title")]
    sent = dict(form(http, {"title": "T" * 201}))
    for url, doing in ((f"/scenarios/club/{VIMY}/export", "exported"), (SAVE, "saved")):
        refused = http.post(url, data=_sent([*sent.items(), *fields]))
        assert refused.status_code == 422 and refused.text.startswith(f"<span>Not {doing}: "), refused.text
        assert "title" in refused.text.lower() and "200" in refused.text
