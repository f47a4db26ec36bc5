"""A 401's sentence names what its address asks for (the newcomer and hostile passes of session 16: the
organiser's board and a campaign's routes said "this game"): a game's seat joins again with its code (an
event table's with the organiser's), an event's or a league's organiser signs in with its token, a campaign's
player joins again with the organiser's code. The API's refusal carries it as `said` (the handler below, in place of app.errors' one sentence a
status), a page's to htmx in the notice header (app.guard.notice)."""

from __future__ import annotations

import re

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from app.errors import HTTP_SENTENCES, SHOWN_BY_STATUS, Unauthorized, one_sentence, refusal

# By the address's first part (after /api/v1); any other's (a game's) is app.errors' sentence for a 401.
SIGNED_OUT = {
    "campaigns": "Join again with a code from the campaign's organiser: this device is not signed in to this "
    "campaign.",
    "events": "Sign in with the event's organiser token: this device is not signed in to this event.",
    "leagues": "Sign in with the league's organiser token: this device is not signed in to this league.",
}
# An event table's seat confirms or disputes its result with its game's token, whose code the organiser gives
# (the round's join cards, a lost tablet's new code), not the game's referee: the table's sentence.
SEAT_ACTS = re.compile(r"^/events/[^/]+/tables/[^/]+/(confirm|dispute)/?$")
SEAT_SIGNED_OUT = (
    "Join again with a code from the event's organiser: this device is not signed in to this table's game."
)


def said(path: str) -> str:
    """The sentence a player is shown for a 401 at `path`."""
    local = path.removeprefix("/api/v1")
    first = local.lstrip("/").split("/", 1)[0]
    if SEAT_ACTS.match(local):
        return SEAT_SIGNED_OUT
    if first in SIGNED_OUT:
        return SIGNED_OUT[first]
    return SHOWN_BY_STATUS[401]


def install(app: FastAPI) -> None:
    """The 401's handler: the refusal's body as app.errors words it, its `said` naming what was asked for."""

    @app.exception_handler(Unauthorized)
    async def _unauthorized(req: Request, exc: Unauthorized) -> JSONResponse:
        body = refusal(one_sentence(exc.message, HTTP_SENTENCES[401]), status=401, why=exc.why)
        body["said"] = said(req.url.path)
        return JSONResponse(status_code=401, content=body, headers={"WWW-Authenticate": "Bearer"})
