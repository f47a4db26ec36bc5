"""A league's results from another tool's CSV, on the league's page (issue 70; app.services.league_claims): its
organiser picks the file and names the event, the next page offers the file's header as the choices for each
column (round, players, scores, clubs and result optional), and the rows are kept as the organiser's claims.
The file's text goes back in the form (a hidden field, bounded as the API bounds it): nothing is kept between
the two pages."""

from __future__ import annotations

from typing import Annotated

from fastapi import File, Form, Request, UploadFile
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field, StringConstraints, ValidationError
from sqlmodel import Session

from app.core.config import Settings
from app.core.routing import Router
from app.data.schemas_claims import MAX_CSV_CHARS, ClaimColumns
from app.deps import SessionDep, SettingsDep
from app.errors import Forbidden, sentence
from app.pages.common import USER_ERRORS, error_message
from app.pages.league import _league, league_refused, organiser_post
from app.pages.refused import PageRefused, PageRoute, Refusal
from app.pages.templates import templates
from app.services import league, league_claims
from app.services.league_claims import ColumnRefused
from app.services.writing import unit_of_work
from rules.core.errors import RulesError

router = Router(include_in_schema=False, route_class=PageRoute)
Event = Annotated[str, Form(max_length=200)]  # its name, its spaces run together: at most 80 characters

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


def _columns_page(
    request: Request,
    session: Session,
    league_id: int,
    event: str,
    text: str,
    names: list[str],
    error: str | None = None,
    chosen: dict[str, str] | None = None,
    refused: str | None = None,
) -> Response:
    """The file's header offered for each column: after a refusal, the sentence at the top and every choice,
    the event's name and the file kept (`refused` the role whose column to choose again). When the league
    keeps claims of the event already, the page offers to replace them with this file (a corrected one)."""
    read_by = league_claims.separator(text)
    context = {
        "league_id": league_id,
        "event": event,
        "csv": text,
        "names": names,
        "roles": ROLES,
        "separator": league_claims.SEPARATORS[read_by.char],
        "tied": league_claims.SEPARATORS.get(read_by.tied),
        "kept": league_claims.kept_of(session, league_id, event) if event else 0,
        "chosen": chosen or {},
        "refused": refused,
        "error": error,
    }
    response = templates.TemplateResponse(request, "league_claims.html", context, 422 if error else 200)
    response.headers["Cache-Control"] = "no-store"  # the organiser's file
    return response


def _role_words(role: str) -> str:
    """A role as a refusal names it: its label without the parenthesis ("Result for the first player")."""
    return next(words for field, words, _ in ROLES if field == role).split(" (")[0]


def _claims_refused(request: Request, session: Session, settings: Settings, refusal: Refusal) -> Response:
    """The league's page with the refusal, at its status (anyone but the organiser: 403)."""
    response = league_refused(request, session, settings, refusal)
    response.status_code = refusal.status
    return response


def _event_named(event: str) -> str:
    named = " ".join(event.split())
    if len(named) > 80:
        raise PageRefused("Event: name it in at most 80 characters.")
    return named


@organiser_post("/leagues/{league_id:id}/claims/columns", router, _claims_refused)
async def name_columns(
    league_id: int,
    request: Request,
    session: SessionDep,
    csv: Annotated[UploadFile | None, File()] = None,
    event: Event = "",
) -> Response:
    """The file read: its header offered as the choices for each column, or the league page saying why not."""
    if csv is None:  # the league's page says so, as for a file it cannot read
        raise PageRefused("Choose the CSV file your pairing tool exported.")
    raw = await csv.read(MAX_CSV_CHARS * 4 + 1)  # UTF-8: at most four bytes a character
    if len(raw) > MAX_CSV_CHARS * 4:  # cut short mid-character, it would be said not UTF-8: it is too long
        raise PageRefused(f"That file is over {MAX_CSV_CHARS:,} characters: split it by rounds.")
    try:
        text = raw.decode("utf-8")  # as the API reads it: a byte that is not UTF-8 is no name of anyone's
    except UnicodeDecodeError as e:
        raise PageRefused(
            f"Byte {e.start + 1} of that file is not UTF-8 text: export it again as a UTF-8 CSV."
        ) from e
    return _columns_page(request, session, league_id, _event_named(event), text, _header(text))


def _header(text: str) -> list[str]:
    """The file's header, or its refusal in the row and column (not "csv:")."""
    try:
        if len(text) > MAX_CSV_CHARS:
            raise Forbidden(f"that file is over {MAX_CSV_CHARS:,} characters: split it by rounds")
        return league_claims.header(text)
    except USER_ERRORS as e:
        raise PageRefused(sentence(e.reason if isinstance(e, RulesError) else error_message(e))) from e


def _chosen_columns(chosen: dict[str, str]) -> ClaimColumns:
    try:
        return ClaimColumns.model_validate({role: name or None for role, name in chosen.items()})
    except ValidationError as e:  # a column not chosen, or a name no header of the file has (too long)
        role = str(e.errors()[0]["loc"][0])
        words = _role_words(role)
        raise ColumnRefused(
            role, f"choose the column of the {words[0].lower()}{words[1:]} from the file's header", ""
        ) from None


# A header's name as chosen, bounded by ClaimColumns, which names the role refused on the columns page again.
Chosen = Annotated[str, StringConstraints(strip_whitespace=True)]


class ClaimsPosted(BaseModel):
    """The columns page's form: the file's text as read on the first page, the event's name, its second button
    ("yes": the event's claims replaced) and each role's column as chosen from the header (checked by
    ClaimColumns, which names the role refused)."""

    csv: str = ""  # bounded as the API bounds it by _header, which says so in words
    event: str = Field("", max_length=200)  # its name, its spaces run together: at most 80 characters
    replace: bool = False
    round: Chosen = ""
    a_name: Chosen = ""
    a_points: Chosen = ""
    b_name: Chosen = ""
    b_points: Chosen = ""
    a_club: Chosen = ""
    b_club: Chosen = ""
    result: Chosen = ""


@organiser_post("/leagues/{league_id:id}/claims", router, _claims_refused)
def import_claims(
    league_id: int, request: Request, session: SessionDep, posted: Annotated[ClaimsPosted, Form()]
) -> Response:
    """The rows kept as claims, or the columns page again: its refusal at the top, the file, the event's name
    and every choice kept, so that the organiser chooses again what was refused and nothing else."""
    text = posted.csv.replace("\r\n", "\n")  # the file as read on the first page: a browser sends CRLF
    event, names = (
        _event_named(posted.event),
        _header(text),
    )  # not the file the first page read: that page again
    chosen = posted.model_dump(include={role for role, _, _ in ROLES})
    try:
        columns = _chosen_columns(chosen)
        if not event:
            raise Forbidden("name the event the file is of")
        with unit_of_work(session):
            league.lock_league(session, league_id)
            replaced = league_claims.kept_of(session, league_id, event) if posted.replace else 0
            rows, already = league_claims.import_claims(
                session, league_id, event, text, columns, posted.replace
            )
    except ColumnRefused as e:  # the column's role named, so that the organiser chooses it again
        session.rollback()
        words = _role_words(e.role)
        said = f"the {words[0].lower()}{words[1:]}: {e.said}" if e.said else e.reason
        return _columns_page(request, session, league_id, event, text, names, sentence(said), chosen, e.role)
    except USER_ERRORS as e:
        session.rollback()
        said = e.reason if isinstance(e, RulesError) else error_message(e)  # the row and column, not "csv:"
        return _columns_page(request, session, league_id, event, text, names, sentence(said), chosen)
    # Redirected (303), so that a reload reads the league again and imports nothing: the page says what was
    # kept from the address's numbers (app.pages.league._kept_said).
    after = f"&replaced={replaced}" if posted.replace else ""
    return RedirectResponse(
        f"/leagues/{league_id}?kept={len(rows) - already}&already={already}{after}#claims", status_code=303
    )


@organiser_post("/leagues/{league_id:id}/claims/remove", router, _claims_refused)
def remove_claims(
    league_id: int, request: Request, session: SessionDep, settings: SettingsDep, event: Event = ""
) -> Response:
    """An event's claims removed, the league page offering them back in one tap (their rows as a file the
    import reads; an event past a file's bounds cannot be, and the page says so)."""
    event = _event_named(event)
    with unit_of_work(session):
        league.lock_league(session, league_id)
        removed = league_claims.remove_event(session, league_id, event)
    if not removed.games:  # a reload of this page's POST, or another device removed them first
        said = f"the league keeps no claims of {event[:40] or 'that event'}: removed already"
        return _league(league_id, request, session, settings, error=sentence(said))
    games = f"{removed.games} game{'' if removed.games == 1 else 's'}"
    if removed.csv is None:
        said = f"Removed {removed.event[:30]}'s {games}: too many to put back in one tap, import their files again."
        return _league(league_id, request, session, settings, said=said)
    said = f"Removed {removed.event[:40]}'s {games}: the button below puts them back."  # at most 120
    return _league(league_id, request, session, settings, said=said, undo=removed)
