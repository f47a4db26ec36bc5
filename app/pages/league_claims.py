"""A league's results from another tool's CSV, on the league's page (issue 70; app.services.league_claims): its
organiser picks the file and names the event, the next page offers the file's header as the choices for each
column (round, players, scores, clubs and result optional), and the rows are kept as the organiser's claims.
The file's text goes back in the form (a hidden field, bounded as the API bounds it): nothing is kept between
the two pages."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError
from starlette.datastructures import UploadFile

from app.core.routing import Router
from app.data.schemas_claims import MAX_CSV_CHARS, ClaimColumns
from app.deps import SessionDep, SettingsDep
from app.errors import Forbidden, sentence
from app.pages.common import USER_ERRORS, error_message
from app.pages.league import _league, is_organiser, organiser_write
from app.pages.templates import templates
from app.services import league, league_claims
from rules.core.errors import RulesError

router = Router(include_in_schema=False)

# Each column the organiser names: its form field, its words, whether it must be named.
ROLES = [
    ("round", "Round", True),
    ("a_name", "First player", True),
    ("a_points", "First player's score", True),
    ("b_name", "Second player", True),
    ("b_points", "Second player's score", True),
    ("a_club", "First player's club", False),
    ("b_club", "Second player's club", False),
    ("result", "Result for the first player (W, L or D)", False),
]


def _columns_page(request: Request, league_id: int, event: str, text: str, names: list[str], error: str | None,
                  status: int = 200) -> Response:  # fmt: skip
    context = {
        "league_id": league_id,
        "event": event,
        "csv": text,
        "names": names,
        "roles": ROLES,
        "error": error,
    }
    response = templates.TemplateResponse(request, "league_claims.html", context, status)
    response.headers["Cache-Control"] = "no-store"  # the organiser's file
    return response


@router.post("/leagues/{league_id:int}/claims/columns", response_class=HTMLResponse)
async def name_columns(
    league_id: int, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """The file read: its header offered as the choices for each column, or the league page saying why not."""
    form = await request.form()
    if not is_organiser(request, session, settings, league_id):
        raise Forbidden("only the league's organiser may do this: sign in with the league's token")
    upload, event = form.get("csv"), " ".join(str(form.get("event", "")).split())[:80]
    if not isinstance(upload, UploadFile):  # the league's page says so, as for a file it cannot read
        return _league(
            league_id,
            request,
            session,
            settings,
            error=sentence("choose the CSV file your pairing tool exported"),
        )
    raw = await upload.read(MAX_CSV_CHARS * 4 + 1)  # UTF-8: at most four bytes a character
    try:
        text = raw.decode("utf-8")  # as the API reads it: a byte that is not UTF-8 is no name of anyone's
    except UnicodeDecodeError as e:
        said = f"byte {e.start + 1} of that file is not UTF-8 text: export it again as a UTF-8 CSV"
        return _league(league_id, request, session, settings, error=sentence(said))
    try:
        if len(text) > MAX_CSV_CHARS:
            raise Forbidden(f"that file is over {MAX_CSV_CHARS} characters: split it by rounds")
        names = league_claims.header(text)
    except USER_ERRORS as e:
        said = e.reason if isinstance(e, RulesError) else error_message(e)  # the row and column, not "csv:"
        return _league(league_id, request, session, settings, error=sentence(said))
    return _columns_page(request, league_id, event, text, names, None)


@router.post("/leagues/{league_id:int}/claims", response_class=HTMLResponse)
async def import_claims(
    league_id: int, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    async def act(form: Any) -> str:
        # The file as read on the first page: a browser sends a form's line breaks as CRLF.
        text = str(form.get("csv", "")).replace("\r\n", "\n")
        if len(text) > MAX_CSV_CHARS:
            raise Forbidden(f"that file is over {MAX_CSV_CHARS} characters: split it by rounds")
        chosen = {role: str(form.get(role, "")).strip() or None for role, _, _ in ROLES}
        try:
            columns = ClaimColumns.model_validate(chosen)
        except ValidationError as e:  # a column not chosen, or a name no header of the file has (too long)
            role = str(e.errors()[0]["loc"][0])
            words = next(words for field, words, _ in ROLES if field == role)
            raise Forbidden(
                f"choose the column of the {words[0].lower()}{words[1:]} from the file's header"
            ) from None
        event = " ".join(str(form.get("event", "")).split())[:80]
        if not event:
            raise Forbidden("name the event the file is of")
        league.lock_league(session, league_id)
        try:
            rows, already = league_claims.import_claims(session, league_id, event, text, columns)
        except RulesError as e:  # said by its row and column, not by the API's field ("csv")
            raise Forbidden(e.reason) from None
        kept = f" ({already} here already, kept once)" if already else ""
        return f"Imported {len(rows)} games from the file{kept}, kept as the organiser's claim: not signed by a club."

    return await organiser_write(request, session, settings, league_id, act)
