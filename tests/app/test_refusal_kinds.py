"""Issue 89: a refusal's kind decides its words. A player is shown a stale write's words ("Someone changed this
on another device") only where a version conflict happened; a rule's refusal (app.errors.RuleRefused) is said in
its own sentence, naming the rule, in `detail` and `said` alike. The walk holds every `Conflict(` of app/ to the
version conflicts listed here, each with why it is one; the three refusals the issue met are asked of the API."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from fastapi.testclient import TestClient

from app.errors import SHOWN_BY_STATUS
from app.guard.auth import COOKIE_NAME
from app.guard.security import NOTICE_HEADER
from tests import csrf
from tests.app.campaigns.test_table_battles import _between
from tests.app.events.test_event_seats import committed_table
from tests.app.games.conftest import new_game, start_game
from tests.app.games.test_play_to_a_result import a_stand, move, objective, score
from tests.app.games.test_secret_objectives import HILL
from tests.app.hostile.test_secrets import token_of

ROOT = Path(__file__).resolve().parents[2]
STALE_WORDS = SHOWN_BY_STATUS[409]

# Every place app/ makes a bare Conflict, by module and function, with how many it makes there: each is a write
# that another device's overtook (a version read before it moved on, or a race for the same row).
VERSION_CONFLICTS = {
    ("app/services/versioned.py", "check_version"): (1, "the version the client read is not the row's"),
    ("app/services/units.py", "update_units"): (1, "a stand's version moved on under the batch"),
    ("app/services/units.py", "_write_over_version"): (1, "the stand's version is not the one read"),
    ("app/services/formations.py", "write"): (1, "a stand of the formation moved on under the write"),
    ("app/services/templates.py", "moved"): (1, "the template's version is not the one read"),
    ("app/services/campaign_store.py", "_write"): (1, "the campaign's version is not the one read"),
    ("app/services/tournaments.py", "draft"): (1, "the event's version is not the one read"),
    ("app/services/tournaments.py", "edit_draft"): (1, "the draft's version is not the one read"),
    ("app/services/scenarios.py", "import_scenario"): (1, "the same scenario id imported at the same moment"),
    ("app/services/scenario_drafts.py", "_written"): (
        1,
        "the draft started at the same moment in another tab",
    ),
    ("app/services/league.py", "trust"): (1, "the key trusted at the same moment"),
    ("app/services/league.py", "import_bundle"): (1, "the game imported at the same moment"),
    ("app/guard/idempotency.py", "_mark_acted"): (1, "a repeat of the request took it over meanwhile"),
}


def bare_conflicts() -> Counter[tuple[str, str]]:
    """Each module and function of app/ that makes a bare Conflict (not a RuleRefused), with how many."""
    found: Counter[tuple[str, str]] = Counter()

    def walk(node: ast.AST, path: str, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            if isinstance(child, ast.Call):
                called = child.func
                name = getattr(called, "id", None) or getattr(called, "attr", None)
                if name == "Conflict":
                    found[(path, inner)] += 1
            walk(child, path, inner)

    for file in sorted((ROOT / "app").rglob("*.py")):
        walk(ast.parse(file.read_text(), str(file)), str(file.relative_to(ROOT)), "")
    return found


def test_no_rule_refusal_is_a_bare_conflict() -> None:
    """A bare Conflict is a stale write's, said to the player as one: every other 409 is a RuleRefused."""
    listed = {where: count for where, (count, _why) in VERSION_CONFLICTS.items()}
    assert dict(bare_conflicts()) == listed


def assert_the_rules_sentence(body: dict[str, str], sentence: str) -> None:
    assert body["detail"] == body["said"] == sentence, body
    assert STALE_WORDS not in body.values()


def test_an_end_refused_over_a_contested_objective_says_the_rule(client: TestClient) -> None:
    g = new_game(client)
    start_game(client, g)
    german = a_stand(client, g, "attacker", "infantry-platoon")
    tommy = a_stand(client, g, "defender", "infantry-platoon")
    move(client, g, german, 40.0, 120.0, 90.0)  # onto bridge 1
    move(client, g, tommy, 40.0, 123.5, 270.0)  # at its far edge: contested
    assert objective(score(client, g), "bridge-1")["settled"] == "contested"
    version = client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    refused = client.post(f"/api/v1/games/{g.id}/finish", headers=g.referee, json={"version": version})
    assert refused.status_code == 409
    assert_the_rules_sentence(refused.json(), "Bridge 1 is contested: call it before the game ends.")


def test_a_secret_objective_given_after_the_start_says_the_rule(sqlite_client: TestClient) -> None:
    g = new_game(sqlite_client)
    start_game(sqlite_client, g)
    given = sqlite_client.post(
        f"/api/v1/games/{g.id}/objectives/secret",
        headers=g.referee,
        json={"side": "defender", "objective": HILL},
    )
    assert given.status_code == 409
    assert_the_rules_sentence(given.json(), "The game has started: secret objectives are given at set-up.")


def test_a_bundle_asked_before_its_result_is_settled_says_the_rule(sqlite_client: TestClient) -> None:
    event_id, organiser, seat = committed_table(sqlite_client)
    bundle = sqlite_client.post(
        f"/api/v1/events/{event_id}/tables/{seat['table_id']}/bundle",
        headers=organiser,
        json={"club": "Ypres"},
    )
    assert bundle.status_code == 409
    assert_the_rules_sentence(bundle.json(), "Table 1's result is not settled yet: confirm it first.")


def test_a_stale_write_is_still_said_as_one(sqlite_client: TestClient) -> None:
    g = new_game(sqlite_client)
    read = sqlite_client.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    start_game(sqlite_client, g)  # another device moved the game on since this one read it
    stale = sqlite_client.post(
        f"/api/v1/games/{g.id}/turn/advance", headers=g.referee, json={"version": read}
    )
    assert stale.status_code == 409 and stale.json()["said"] == STALE_WORDS, stale.text


def test_a_game_pages_rule_refusal_is_said_in_its_notice_too(sqlite_client: TestClient) -> None:
    """A game's page refused by a rule (its table edited once the game has started) shows the rule, and so does
    the notice net-status.js shows for it (app.guard.notice gave a 409 the stale write's words)."""
    g = new_game(sqlite_client)
    start_game(sqlite_client, g)
    sqlite_client.cookies.set(COOKIE_NAME, token_of(g.referee))
    page = sqlite_client.get(f"/games/{g.id}/table/edit", headers={"HX-Request": "true"})
    rule = "The game has started, and its table can be edited only before it starts."
    assert page.status_code == 409 and page.headers[NOTICE_HEADER] == rule, page.headers
    assert rule.removesuffix(".")[1:] in page.text


def test_a_campaign_pages_rule_refusal_says_the_rule(sqlite_client: TestClient) -> None:
    """The campaign's page said every 409 as "Someone changed the campaign on another device": a table battle's
    result confirmed before one is offered now says the rule."""
    c = sqlite_client
    r = c.post("/campaigns/new", data=csrf.form(c, {"name": "Table night"}))
    cid = int(_between(r.text, 'data-campaign-created="', '"'))
    forms = [
        {"type": "initiative", "dice_count": "0"},
        {"type": "attack", "from_area": "D-2", "to_area": "C-3", "troops": "group-i"},
        {"type": "defend", "troops": "25-bde"},
    ]
    for version, form in enumerate(forms, start=1):
        assert c.post(
            f"/campaigns/{cid}/act", data=csrf.form(c, {"version": str(version), **form})
        ).is_success
    assert (
        c.post(f"/campaigns/{cid}/table-battle", data=csrf.form(c), follow_redirects=False).status_code == 303
    )
    refused = c.post(f"/campaigns/{cid}/table-battles/1/confirm", data=csrf.form(c, {"version": "5"})).text
    assert "no result has been offered yet: end the table game" in refused
    assert "Someone changed the campaign" not in refused
