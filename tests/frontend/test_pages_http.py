"""The HTML routes without a browser: page or fragment by HX-Request, every resolver's form for every period,
the installable-app files, and errors as pages rather than JSON."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli import app as cli
from app.pages.forms import form_specs, walk_specs
from app.pages.templates import humanise, period_labels
from rules.registry import all_game_rules, all_rulesets, get_ruleset
from tests import csrf

RESOLVERS = [
    (rs.id, rid, p) for rs in all_rulesets() for rid in rs.resolvers for p in (rs.period_ids or (None,))
]


def test_lookup_is_a_page_or_a_fragment(reading_client: TestClient) -> None:
    page = reading_client.get("/lookup")
    assert page.status_code == 200 and page.text.lstrip().startswith("<!doctype html>")
    fragment = reading_client.get("/lookup", headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    assert "<html" not in fragment.text and 'id="panel"' in fragment.text


@pytest.mark.parametrize(("ruleset", "resolver", "period"), RESOLVERS)
def test_every_resolver_form_renders_and_rolls(
    reading_client: TestClient, ruleset: str, resolver: str, period: str | None
) -> None:
    q = f"?period={period}" if period else ""
    form = reading_client.get(f"/lookup/{ruleset}/{resolver}{q}", headers={"HX-Request": "true"})
    assert form.status_code == 200, form.text
    # Required numbers (a range, a count of platoons) are never filled in by the page: the player enters them.
    specs = form_specs(get_ruleset(ruleset).resolvers[resolver].Request)
    required = [s for s in walk_specs(specs) if s.required]
    if any(s.required for s in specs):
        assert "No answer yet: enter" in form.text
    entered = {s.name: str(int(s.minimum or 0) + 1) for s in required}
    rolled = reading_client.post(
        f"/lookup/{ruleset}/{resolver}",
        data={"period": period or "", "action": "roll", **entered},
        headers={"HX-Request": "true"},
    )
    assert rolled.status_code == 200, rolled.text
    # Either an answer or a refusal in words; never a raw JSON body.
    assert 'id="answer"' in rolled.text or 'class="errors"' in rolled.text
    assert '{"detail"' not in rolled.text


def test_unknown_resolver_is_an_html_404(reading_client: TestClient) -> None:
    r = reading_client.get("/lookup/flanders-fields/no-such-thing")
    assert r.status_code == 404
    assert "text/html" in r.headers["content-type"] and "unknown resolver" in r.text


def test_game_pages_ask_to_join_without_a_seat(sqlite_client: TestClient) -> None:
    created = sqlite_client.post("/api/v1/games", json={"scenario": "mons-1914"}).json()
    gid = created["game"]["id"]
    for page in ("referee", "map", "fire-plan"):
        r = sqlite_client.get(f"/games/{gid}/{page}")
        assert r.status_code == 401 and "Join code" in r.text
    assert sqlite_client.get("/games/999999/referee").status_code == 404


def test_bad_join_code_is_a_message(reading_client: TestClient) -> None:
    r = reading_client.post("/join", data=csrf.form(reading_client, {"code": "ZZZZZ-ZZZZZ"}))
    assert r.status_code == 422 and "not known here" in r.text


def test_installable_app_files(reading_client: TestClient) -> None:
    manifest = json.loads(reading_client.get("/manifest.webmanifest").text)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/lookup"
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    # One purpose an entry: "any maskable" together makes a browser use the padded maskable art as the plain
    # icon too (Chrome's installability audit warns of it); each PNG is listed once for each.
    purposes = {(i["src"], i.get("purpose", "any")) for i in manifest["icons"]}
    assert all(purpose in ("any", "maskable") for _, purpose in purposes), purposes
    pngs = {src for src, _ in purposes if src.endswith(".png")}
    assert {(src, p) for src in pngs for p in ("any", "maskable")} <= purposes
    for icon in manifest["icons"]:
        assert reading_client.get(icon["src"]).status_code == 200
    sw = reading_client.get("/sw.js")
    assert sw.status_code == 200 and "javascript" in sw.headers["content-type"]
    for line in sw.text.splitlines():  # every file the worker caches exists
        line = line.strip().rstrip(",")
        if line.startswith('"/'):
            assert reading_client.get(line.strip('"')).status_code == 200, line


def test_form_specs_from_a_schema() -> None:
    from rules.registry import get_ruleset

    specs = {s.name: s for s in form_specs(get_ruleset("flanders-fields").resolvers["order-roll"].Request)}
    assert specs["quality"].kind == "enum" and "veteran" in specs["quality"].options
    assert specs["command_suppression"].kind == "int" and specs["command_suppression"].minimum == 0
    assert specs["in_gas"].kind == "bool"
    assert "period" not in specs and "dice" not in specs


def test_labels() -> None:
    assert humanise("range_cm") == "Range (cm)"
    assert humanise("no-effect") == "No effect"
    periods = [
        {"id": "a", "name": "Western Front 1914 to 1915"},
        {"id": "b", "name": "Western Front 1916 on"},
    ]
    assert period_labels(periods) == {"a": "1914 to 1915", "b": "1916 on"}


def test_ranges_and_acronyms_in_labels() -> None:
    # 1914 playsheet, Battalion Rifle Companies: "2-4 = 1 Action", "5-6 = 2 Actions": a range, not two numbers.
    assert humanise("2-4") == "2–4"
    assert humanise("5-6") == "5–6"
    assert humanise("-1") == "-1"  # a modifier keeps its sign
    assert humanise("sos") == "SOS"
    assert humanise("mg-indirect") == "MG indirect"
    assert humanise("lmg-unit") == "LMG unit"
    assert humanise("battalion-mg") == "Battalion MG"


def test_resolvers_most_used_first(reading_client: TestClient) -> None:
    from app.pages.templates import most_used_first
    from rules.registry import get_ruleset

    MOST_USED = get_ruleset("flanders-fields").most_used
    described = get_ruleset("flanders-fields").describe()["resolvers"]
    ordered = [r["id"] for r in most_used_first(described, "flanders-fields")]
    assert ordered[: len(MOST_USED)] == list(MOST_USED)
    assert sorted(ordered) == sorted(r["id"] for r in described)
    page = reading_client.get("/lookup?ruleset=flanders-fields").text
    nav = page[page.index('aria-label="What to resolve"') :]
    positions = [nav.index(f"/lookup/flanders-fields/{rid}?") for rid in MOST_USED]
    assert positions == sorted(positions)
    assert ">SOS<" in nav


def test_fire_plan_form_offers_exactly_what_the_api_accepts() -> None:
    """Every field of every kind of plan item the API takes (the rule sets' kits) has its input on the form,
    shown by its model's index, which app.css shows for up to 8 models."""
    from pathlib import Path

    from app.data import schemas

    form = (Path(__file__).resolve().parents[2] / "frontend/templates/_fire_plan.html").read_text()
    css = (Path(__file__).resolve().parents[2] / "frontend/static/css/app.css").read_text()
    for rules in all_game_rules():
        models = rules.book.kit.plan_kinds
        assert set(models) <= set(schemas.PLAN_KINDS)
        if not models:  # a game without a fire plan (Vimy Ridge's, on a board of counters)
            continue
        assert f'input[data-plan-model="{len(models) - 1}"]' in css
        for name in {f for m in models for f in m.model_fields} - {"kind"}:
            assert f'data-plan-fields="{{{{ plan_fields.{name} }}}}"' in form, name


def test_the_fire_plan_page_offers_a_firewaltz_to_a_late_german_attacker_only(
    sqlite_client: TestClient,
) -> None:
    from tests.app.games.conftest import new_game

    c = sqlite_client
    late = new_game(c, {"name": "Kaiserschlacht", "period": "late", "attacker_nation": "german"})
    mid = new_game(c, {"name": "Arras", "period": "mid", "attacker_nation": "german"})

    def kinds(game: Any, side: str) -> list[str]:
        c.cookies.clear()  # the referee signs in on this device with the referee token and reads both plans
        token = game.referee["Authorization"].removeprefix("Bearer ")
        assert c.post("/join", data=csrf.form(c, {"code": token}), follow_redirects=False).status_code == 303
        page = c.get(f"/games/{game.id}/fire-plan?side={side}")
        assert page.status_code == 200, page.text
        return re.findall(r'name="kind" value="([a-z-]+)"', page.text)

    assert "firewaltz" in kinds(late, "attacker")
    assert "firewaltz" not in kinds(late, "defender")  # "when the Germans are attacking"
    assert "firewaltz" not in kinds(mid, "attacker")  # late war only


def test_game_lookup_presets_from_the_game_and_refuses_the_other_side(sqlite_client: TestClient) -> None:
    created = sqlite_client.post("/games/new", data=csrf.form(sqlite_client, {"scenario": "mons-1914"}))
    assert created.status_code == 200
    games = sqlite_client.get("/api/v1/games").json()
    gid = max(g["id"] for g in games)
    units = sqlite_client.get(f"/api/v1/games/{gid}/units").json()
    company = next(u for u in units if u["side"] == "attacker" and u["kind"] == "rifle-company")
    page = sqlite_client.get(f"/lookup/flanders-fields/order-roll?game={gid}&unit={company['id']}")
    assert page.status_code == 200
    assert "From the game:</strong> " + f"{company['name']} is a rifle-company" in page.text
    # "Change unit" keeps the roll: it opens the same resolver's unit picker.
    change = f'href="/lookup/flanders-fields/order-roll?game={gid}"'
    assert change in page.text
    picker = sqlite_client.get(f"/lookup/flanders-fields/order-roll?game={gid}")
    assert picker.status_code == 200 and f"unit={company['id']}" in picker.text
    assert sqlite_client.get(f"/lookup?game={gid}&unit=999999").status_code == 404
    # A player's device is refused the other side's units, in words.
    codes = created.text
    code = codes[codes.index('data-join-code="defender">') :].split(">", 1)[1].split("<", 1)[0].strip()
    sqlite_client.cookies.clear()
    assert (
        sqlite_client.post(
            "/join", data=csrf.form(sqlite_client, {"code": code}), follow_redirects=False
        ).status_code
        == 303
    )
    refused = sqlite_client.get(f"/lookup/flanders-fields/order-roll?game={gid}&unit={company['id']}")
    assert refused.status_code == 403 and "pick one of your own" in refused.text


def test_start_page_names_where_a_pipx_install_printed_the_referee_token(sqlite_client: TestClient) -> None:
    """The join hint names `firestep serve` (what an organiser who installed the wheel ran) as well as the
    checkout's `make run`, and every firestep command it names is one the CLI has."""
    hint = re.search(r'<p id="join-hint"[^>]*>(.*?)</p>', sqlite_client.get("/").text, re.S)
    assert hint is not None
    named = re.findall(r"<code>firestep ([a-z-]+)</code>", hint.group(1))
    assert "serve" in named and "<code>make run</code>" in hint.group(1), hint.group(1)
    out = CliRunner().invoke(cli, ["--help"], terminal_width=200).output
    assert all(command in out for command in named), named


def test_start_page_forces_from_tables_and_refusals_in_words(sqlite_client: TestClient) -> None:
    start = sqlite_client.get("/")
    # The period chips come from the rule set games are played with (Flanders Fields), in both set-ups.
    assert start.text.count('value="late"') == 2 and 'href="/campaigns"' in start.text
    form = {
        "scenario": "tables",
        "forces_period": "early",
        "attacker_force_nation": "german",
        "attacker_table": "gb-1914",  # what a device without the filtering script could send
        "defender_force_nation": "british",
        "defender_table": "gb-1914",
    }
    refused = sqlite_client.post("/games/new", data=csrf.form(sqlite_client, form))
    assert refused.status_code == 422 and "<html" in refused.text and '"detail"' not in refused.text
    assert (
        "Attacker organisation table: British and Empire Division 1914-15 is not a german table"
        in refused.text
    )
    assert "(allowed: de-1914)" in refused.text
    refused = sqlite_client.post(
        "/games/new",
        data=csrf.form(sqlite_client, {**form, "attacker_table": "de-1914", "defender_quality": "raw"}),
    )
    assert refused.status_code == 422
    assert (
        "Defender quality: British and Empire Division 1914-15 may not be graded &#39;raw&#39;"
        in refused.text
    )
    created = sqlite_client.post(
        "/games/new", data=csrf.form(sqlite_client, {**form, "attacker_table": "de-1914"})
    )
    assert created.status_code == 200, created.text
    (game,) = sqlite_client.get("/api/v1/games").json()
    assert (game["period"], game["attacker_nation"], game["defender_nation"]) == (
        "early",
        "german",
        "british",
    )


def test_firestorm_option_labels_keep_the_printed_capitals() -> None:
    # Firestorm's troop cards and tank groups: "Group I", "Mark IV", "AIF", "58 Bn MGC", "A7V".
    assert humanise("group-i") == "Group I"
    assert humanise("group-iii") == "Group III"
    assert humanise("mark-iv") == "Mark IV"
    assert humanise("aif") == "AIF"
    assert humanise("58-bn-mgc") == "58 bn MGC"
    assert humanise("a7v") == "A7V"


def test_a_fire_plan_page_shows_the_other_side_its_commitment_never_its_plan(
    sqlite_client: TestClient,
) -> None:
    """What the fire plan page serves each side (moved from test_fire_plan.py, issue 33: server HTML): the other
    side's commitment once locked, but neither its items, nor its marks on the table, nor its rehearsal."""
    from tests.app.games.conftest import new_game

    c = sqlite_client
    g = new_game(c)
    plan = f"/api/v1/games/{g.id}/fireplans"

    def point(battery: str, along: int, up: int = 168) -> dict[str, Any]:
        return {"arrival_turn": 1, "item": {"kind": "aiming-point", "grid": [along, up], "battery": battery}}

    attack = c.post(f"{plan}/attacker/items", headers=g.attacker, json=point("Attack battery", 30, 40))
    assert attack.status_code == 201, attack.text
    locked = c.post(f"{plan}/attacker/lock", headers=g.attacker)
    assert locked.status_code == 200, locked.text
    commitment = c.get(f"{plan}/attacker/verify", headers=g.attacker).json()["commitment"]
    for n, along in enumerate((60, 100)):
        added = c.post(f"{plan}/defender/items", headers=g.defender, json=point(f"Battery {n}", along))
        assert added.status_code == 201, added.text

    def page(side: dict[str, str], query: str = "") -> Any:
        c.cookies.set("firestep_token", side["Authorization"].removeprefix("Bearer "))
        return c.get(f"/games/{g.id}/fire-plan{query}")

    # Each side sees its own marks and rehearsal, and the other's commitment once it is locked.
    own = page(g.defender)
    assert own.status_code == 200 and f'data-commitment="attacker">{commitment}<' in own.text
    marks = re.findall(r'class="fp-mark[^"]*" d="([^"]+)"', own.text)
    assert marks and "data-heat" in own.text and "Battery 0" in own.text
    # The other side's plan: the page refused in words, with none of it; the API refuses its items too.
    for viewer, other, secret in (
        (g.defender, "attacker", "Attack battery"),
        (g.attacker, "defender", "168"),
    ):
        refused = page(viewer, f"?side={other}")
        assert refused.status_code == 403 and "<h1>Not for your eyes</h1>" in refused.text
        # Its words, not its assets' version tags: a stylesheet's hash once read "...1684..." (ci58).
        shown = re.sub(r"\?v=[0-9a-f]+", "", refused.text)
        assert "fp-mark" not in shown and secret not in shown and "grid" not in shown
        assert c.get(f"{plan}/{other}/items", headers=viewer).status_code == 403
    theirs = page(g.attacker).text  # its own plan's marks and rehearsal, none of the defender's
    assert not any(d in theirs for d in marks) and "Battery 0" not in theirs and "Battery 1" not in theirs
    c.cookies.clear()


def test_the_fire_plan_form_writes_a_plan_sealed_each_bound(sqlite_client: TestClient) -> None:
    """A 2mm Earth 1418 side's page writes its bound's plan: the turn is the bound's own, the battery offered
    by the name its plan names, the cordon's batteries and cloud from the rule set's words."""
    from tests.app.games.conftest import new_game, start_game

    c = sqlite_client
    g = new_game(c, {"scenario": "earth2mm-demo-ferme"})
    start_game(c, g)
    token = g.attacker["Authorization"].removeprefix("Bearer ")
    assert c.post("/join", data=csrf.form(c, {"code": token}), follow_redirects=False).status_code == 303
    page = c.get(f"/games/{g.id}/fire-plan").text
    assert 'name="arrival_turn" value="1"' in page and 'id="fp-turn"' not in page
    assert '<option value="18-pounder Battery">' in page
    cloud = re.findall(r'name="cloud" value="([a-z-]+)"', page)
    assert cloud and cloud[0] == "smoke"
    url = f"/games/{g.id}/fire-plan/attacker"
    for form in (
        {"kind": "circle-bombardment", "battery": "18-pounder Battery", "grid_x": "38", "grid_y": "84"},
        {"kind": "smoke-cordon", "batteries": "18-pounder Battery", "cloud": cloud[-1], "grid_x": "30"},
    ):
        body = {"action": "add", "arrival_turn": "1", "square_in": "6", "grid_y": "60", **form}
        assert c.post(url, data=csrf.form(c, body)).status_code == 200
    items = c.get(f"/api/v1/games/{g.id}/fireplans/attacker/items", headers=g.attacker).json()
    assert [(i["kind"], i["data"].get("battery"), i["data"].get("batteries")) for i in items] == [
        ("circle-bombardment", "18-pounder Battery", None),
        ("smoke-cordon", None, ["18-pounder Battery"]),
    ]
    assert items[1]["data"]["cloud"] == cloud[-1] and items[1]["data"]["transparent"] is False
    # Issue 51: the batteries by their own name, each cordon as chosen, and no rehearsal the rule set lacks.
    page = c.get(f"/games/{g.id}/fire-plan").text
    assert "<option>18-pounder Battery</option>" in page and " Coy</option>" not in page
    listed = re.findall(r'data-plan-item="[^"]*"><strong>([^<]*)</strong>', page)
    assert listed == ["Circle bombardment", f"{cloud[-1].replace('-', ' ').capitalize()} cordon"], listed
    assert "What the plan will likely do" not in page and "rehearsal" not in page.lower().split("</h1>")[1]


def test_a_game_made_by_hand_leads_the_referee_to_edit_its_table(sqlite_client: TestClient) -> None:
    """Issue 51: a 2mm game made by the lobby's by-hand form has nothing on its table; the created page leads
    the referee first to "Edit the table", and so do the referee screen and the map while it is in set-up."""
    c = sqlite_client
    created = c.post("/games/new", data=csrf.form(c, {"ruleset": "2mm-earth-1418", "name": "By hand"}))
    assert created.status_code == 200, created.text
    gid = int(re.search(r"/games/(\d+)/created", str(created.url)).group(1))  # type: ignore[union-attr]
    edit = f'href="/games/{gid}/table/edit" data-edit-table'
    first = re.search(r'<a class="button primary" ([^>]*)>', created.text)
    assert (
        first is not None
        and edit in first.group(1)
        and "No stand is on the table yet: lay its terrain and the stands out first." in created.text
    )
    for page in ("referee", "map"):
        assert edit in c.get(f"/games/{gid}/{page}").text, page
    assert c.get(f"/games/{gid}/table/edit").status_code == 200
    # Once the game is started the table is the game's: the referee screen no longer offers its editor.
    token = re.search(r"data-referee-token>([^<]+)<", created.text).group(1)  # type: ignore[union-attr]
    referee = {"Authorization": f"Bearer {token}"}
    turn = c.get(f"/api/v1/games/{gid}/turn", headers=referee).json()
    started = c.post(f"/api/v1/games/{gid}/turn/advance", headers=referee, json={"version": turn["version"]})
    assert started.status_code == 200, started.text
    assert "data-edit-table" not in c.get(f"/games/{gid}/referee").text
