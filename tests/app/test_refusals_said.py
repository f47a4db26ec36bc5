"""Issue 67: every refusal carries `said`, the one sentence a player is shown (net-status.js shows it and words
nothing itself): the rule's or the field's own sentence where the player can act on it, in plain words (a row
not by its id, no field's name), else a fixed one for its status; a page's refusal to htmx carries the same
words in the notice header (app.guard.notice)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field, ValidationError

from app import errors, pages
from app.errors import MAX_DETAIL, ONE_SENTENCE, ErrorOut, is_one_sentence
from app.guard import signed_out
from app.guard.notice import HtmxNotice
from app.guard.security import CSRF_HEADER, NOTICE_HEADER
from rules.core.errors import RulesError


class Shot(BaseModel):
    dice: int


def refusing_app() -> FastAPI:
    app = FastAPI()
    errors.install(app, page=pages.refusal_page)
    app.add_middleware(HtmxNotice)
    refusals = {
        "rule": errors.RuleRefused(
            "Leave unit 12 where it is: it moved this turn.",
            source="p. 3",
            current={"allowed_now": ["markers"]},
        ),
        "stale": errors.Conflict("Someone changed this unit meanwhile: reload and try again."),
        "field": RulesError("cover", "The cover is not one the rules know", ["open", "soft", "hard"]),
        "named": RulesError("spend_action", "No action left for unit 17: roll its order first"),
        "wait": errors.TooManyRequests("too many join codes from this address", 30),
        "gone": errors.Absent("This game has no aiming points."),
        "side": errors.Forbidden("Act in your own turn: it is the attacker's."),
        "pdf": errors.Unavailable("Install the PDF engine to print this."),
    }

    @app.get("/refused/{kind}")
    def refused(kind: str) -> None:
        raise refusals[kind]

    @app.post("/shot")
    def shot(body: Shot) -> None:
        """A body the page sent wrong (a field missing): not a rule's refusal."""

    @app.get("/shots")
    def shots(dice: int) -> None:
        """A link with a query the server does not take: a GET, which changes nothing, so no page to reload."""

    @app.get("/page/{status}")
    def page(status: int) -> HTMLResponse:
        return HTMLResponse(
            "<p>Refused.</p>", status, headers={"Retry-After": "7"} if status == 429 else None
        )

    return app


def test_said_is_the_players_sentence_for_each_kind_of_refusal() -> None:
    client = TestClient(refusing_app())
    kinds = ("rule", "stale", "field", "named", "wait", "gone", "side", "pdf")
    said = {kind: client.get(f"/refused/{kind}").json()["said"] for kind in kinds}
    said["missing"] = client.post("/shot", json={}).json()["said"]
    said["link"] = client.get("/shots?dice=many").json()["said"]
    said["csrf"] = errors.refusal("Send the token.", status=403, field=CSRF_HEADER)["said"]
    assert said == {
        "rule": "Leave this unit where it is: it moved this turn.",  # the rule's, a row named without its id
        "stale": errors.SHOWN_BY_STATUS[409],
        "field": "The cover is not one the rules know: pick open, soft or hard.",
        "named": "No action left for this unit: roll its order first.",  # neither its id nor the field's name
        "wait": "Too many tries from this device: wait 30 seconds and try again.",
        "gone": "That is no longer there: it may have been removed on another device.",
        "side": "Act in your own turn: it is the attacker's.",
        "pdf": "The server could not do that (error 503): try again, and tell the referee if it keeps on.",
        "missing": errors.NOT_TAKEN,
        "link": "That link asks for something the server does not take: check it, or open it again from its page.",
        "csrf": errors.STALE_PAGE,
    }
    assert all(is_one_sentence(s) for s in said.values()), said
    schema = ErrorOut.model_json_schema()["properties"]["said"]
    assert schema["maxLength"] == MAX_DETAIL and schema["pattern"] == ONE_SENTENCE
    # A page's refusal (HTML) to htmx: the same words in the header; one not asked by htmx has none.
    htmx = {"HX-Request": "true"}
    assert client.get("/page/404", headers=htmx).headers[NOTICE_HEADER] == said["gone"]
    assert "wait 7 seconds" in client.get("/page/429", headers=htmx).headers[NOTICE_HEADER]
    assert NOTICE_HEADER not in client.get("/page/404").headers


def test_a_links_nul_is_the_links_to_check_and_a_writes_the_pages_to_reload(
    reading_client: TestClient,
) -> None:
    """The hostile pass of session 17: a GET with a NUL in its query, refused at the door (app.guard.limits),
    still said to reload the page; a write's is the page's to reload."""
    got = reading_client.get("/api/v1/games?after=1%00")
    assert got.status_code == 422 and got.json()["said"] == errors.LINK_NOT_TAKEN, got.text
    sent = reading_client.post("/api/v1/games?after=1%00", json={})
    assert sent.status_code == 422 and sent.json()["said"] == errors.NOT_TAKEN, sent.text


def test_a_refusal_names_at_most_fifty_fields(reading_client: TestClient) -> None:
    """The hostile pass of session 16: a body of 130,000 unknown keys was answered field by field (11.7 MB
    for 1.7 MB sent); the refusal names the first FIELD_ERRORS_SHOWN, its sentence the first's."""
    body = {"ruleset": "flanders-fields", **{f"k{i}": 1 for i in range(200)}}
    r = reading_client.post("/api/v1/games", json=body)
    assert r.status_code == 422 and len(r.json()["errors"]) == errors.FIELD_ERRORS_SHOWN == 50, r.text[:300]


def test_a_401_names_what_was_asked_for(reading_client: TestClient) -> None:
    """The passes of session 16: the organiser's board and a campaign's routes answered a device signed in to
    nothing "...not signed in to this game". A 401's `said` names the game, event, campaign or league its address
    asks for (an event table's seat acts with its game's token, its code the organiser's), and so does the notice of a
    page's 401 to htmx."""
    game = errors.SHOWN_BY_STATUS[401]
    for path, words in (
        ("/api/v1/games/1/me", game),
        ("/api/v1/events/1/stream", signed_out.SIGNED_OUT["events"]),
        ("/api/v1/campaigns/1/legal-actions", signed_out.SIGNED_OUT["campaigns"]),
    ):
        r = reading_client.get(path)
        assert r.status_code == 401 and r.json()["said"] == words, (path, r.text)
    # An event table's seats get their codes from the organiser (its cards), not from a referee (session 17).
    seat = signed_out.said("/api/v1/events/1/tables/2/confirm")
    assert seat == signed_out.said("/events/1/tables/2/dispute") == signed_out.SEAT_SIGNED_OUT
    assert "from the event's organiser" in seat and is_one_sentence(seat)
    assert signed_out.said("/events/1") == signed_out.SIGNED_OUT["events"]
    assert signed_out.said("/api/v1/leagues/1/results") == signed_out.SIGNED_OUT["leagues"]
    assert all(is_one_sentence(s) for s in signed_out.SIGNED_OUT.values())

    app = FastAPI()
    app.add_middleware(HtmxNotice)

    @app.get("/campaigns/{campaign_id}")
    def campaign_page(campaign_id: int) -> HTMLResponse:
        return HTMLResponse("<p>Join this campaign.</p>", 401)

    notice = TestClient(app).get("/campaigns/3", headers={"HX-Request": "true"}).headers[NOTICE_HEADER]
    assert notice == signed_out.SIGNED_OUT["campaigns"]


def test_said_why_is_the_reason_as_the_players_why_opens_it() -> None:
    """Issue 67: the reason behind a notice's "Why?" is worded by the server, `said_why` (net-status.js shows it as
    it comes): `why` as a sentence, a row named without its id; a reason cut short keeps its ellipsis."""
    client = TestClient(refusing_app())
    named = client.get("/refused/named").json()
    assert named["why"] == "No action left for unit 17: roll its order first"
    assert named["said_why"] == "No action left for this unit: roll its order first."
    assert (
        client.get("/refused/rule").json()["said_why"] == "Leave this unit where it is: it moved this turn."
    )
    assert errors.refusal("Wait.", status=409, why="stand 4 moved!")["said_why"] == "This stand moved!"
    cut = errors.refusal("Wait.", status=409, why="x" * (errors.WHY_MAX + 5))["said_why"]
    assert cut.endswith("x…") and len(cut) == errors.WHY_MAX
    assert errors.refusal("Wait.", status=409)["said_why"] == "Wait."
    assert "said_why" in ErrorOut.model_json_schema()["required"]


class Point(BaseModel):
    type: Literal["Point"]


class Line(BaseModel):
    type: Literal["Line"]


class Tagged(BaseModel):
    kind: Annotated[str, Field(max_length=8)] | int
    shape: Annotated[Point | Line, Field(discriminator="type")] | None = None


def test_a_union_refused_names_its_field_and_the_tags_it_takes() -> None:
    """pydantic names a union's members in an error's location ("constrained-str", "int") and a tagged union's
    miss in its own words: the refusal names the field and the tags it takes (session 20's hostile pass read
    "Terrain constrained str" and, for a Point where a line or polygon is drawn, "That value is not allowed here.")."""
    for value, said in (
        ({"kind": [1]}, "Fix the kind: input should be a valid string."),
        (
            {"kind": 1, "shape": {"type": "Circle"}},
            "Fix the shape: its type Circle is not taken here: give Point or Line.",
        ),
    ):
        try:
            Tagged.model_validate(value)
        except ValidationError as e:
            body = errors.model_refusal(e.errors(), Tagged)
        assert body["detail"] == said and is_one_sentence(body["detail"]), body
