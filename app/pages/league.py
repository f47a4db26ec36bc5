"""The league's pages (issue 63) and an event's bundle export: the leagues (make one: its organiser's token kept
on this device in the `firestep_league` cookie, as an event's organiser's is), a league's table, and for its
organiser the import of a bundle file, the clubs' keys it trusts (each with its fingerprint) and a yes or no for
each game waiting from a key not trusted; an event organiser's page of the settled tables' signed bundles, with
this club's key and fingerprint to give the league. Every write goes through app.services.league, the same
functions as the API (app/routes/league.py)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError
from sqlmodel import Session

from app.club import signing
from app.core.config import Settings
from app.core.routing import Router
from app.data.numbers import whole_number
from app.data.schemas_league import MAX_LEAGUE_GAMES, ResultBundle
from app.deps import SessionDep, SettingsDep
from app.errors import Forbidden, RuleRefused, Unauthorized, model_refusal
from app.guard import auth, security
from app.pages.refused import Endpoint, PageRefused, PageRoute, Refusal, Render, posted, server_organiser
from app.pages.seats import remember_seat
from app.pages.templates import templates
from app.services import league, league_claims, league_table, tournament_results, tournaments
from app.services.writing import unit_of_work
from rules.core.errors import NotFoundError, RulesError

router = Router(include_in_schema=False, route_class=PageRoute)

COOKIE = league.LEAGUE_COOKIE
MAX_UPLOAD = 2 * 1024 * 1024  # a bundle file, at most (the door's body limit)
MAX_FILES = 100  # bundles (and files) in one import: an event day's every table
PENDING_SHOWN = 50  # the games waiting for the organiser's yes that the page lists (their count beside)


def _not_found(request: Request, e: NotFoundError) -> Response:
    return templates.TemplateResponse(
        request, "error.html", {"title": "Not found", "message": e.message}, 404
    )


def is_organiser(request: Request, session: Session, settings: Settings, league_id: int) -> bool:
    try:
        league.require_organiser(session, settings.secret_key, league_id, organiser_token(request, league_id))
    except (Unauthorized, Forbidden):
        return False
    return True


def league_organiser(league_id: int, request: Request, session: SessionDep, settings: SettingsDep) -> None:
    """The dependency of the league organiser's writes: anyone else refused."""
    if not is_organiser(request, session, settings, league_id):
        raise Forbidden("only the league's organiser may do this: sign in with the league's token")


ORGANISER = Depends(league_organiser)


def organiser_token(request: Request, league_id: int) -> str | None:
    """This browser's organiser token for the league (it keeps one per league it runs, as for events)."""
    return auth.keyed_token(request.cookies.get(COOKIE), league_id)


def _keep_token(request: Request, response: Response, league_id: int, token: str) -> None:
    remember_seat(request, response, COOKIE, league_id, token)


def _back(league_id: int, anchor: str = "") -> RedirectResponse:
    return RedirectResponse(f"/leagues/{league_id}{anchor}", status_code=303)


# -- the leagues ---------------------------------------------------------------------------------------------
@router.get("/leagues", response_class=HTMLResponse)
def leagues_page(request: Request, session: SessionDep) -> Response:
    return _leagues(request, session)


def _leagues(request: Request, session: Session, error: str | None = None, status: int = 200) -> Response:
    return templates.TemplateResponse(
        request, "leagues.html", {"leagues": league.list_leagues(session), "error": error}, status
    )


def _leagues_refused(request: Request, session: Session, _settings: Settings, refusal: Refusal) -> Response:
    return _leagues(request, session, refusal.said, refusal.status)


@posted(router, "/leagues", _leagues_refused, server_organiser("a league"))
def make_league(
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    name: Annotated[str, Form(max_length=80)] = "",
) -> Response:
    with unit_of_work(session):  # a name with a direction override or an invisible letter refused
        row, token = league.create(session, settings.secret_key, " ".join(name.split()) or "Club league")
    response = _back(row.pk)
    _keep_token(request, response, row.pk, token)
    return response


# -- a league ------------------------------------------------------------------------------------------------
@router.get("/leagues/{league_id:id}", response_class=HTMLResponse)
def league_page(league_id: int, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    return _league(league_id, request, session, settings)


def _league(
    league_id: int,
    request: Request,
    session: Session,
    settings: Settings,
    error: str | None = None,
    said: str | None = None,
    undo: league_claims.Removed | None = None,
    typed: Mapping[str, str] | None = None,
) -> Response:
    """The league's page; refused, with what was typed in its forms kept (`typed`: a club and its key)."""
    try:
        row = league.get(session, league_id)
    except NotFoundError as e:
        return _not_found(request, e)
    organiser = is_organiser(request, session, settings, league_id)
    # The first games waiting, their count beside them: a league keeps 10,000 games, and its page listed every
    # one (4.6 MB, 0.25 s of CPU on each import's answer, the 100th file's import 1.0 s).
    waiting = league.waiting(session, league_id, PENDING_SHOWN) if organiser else []
    said = said or (_kept_said(request) if organiser else None)
    context = {
        "league": row,
        "organiser": organiser,
        "organiser_token": organiser_token(request, league_id) if organiser else None,
        "lines": league_table.table(session, league_id),
        "keys": [(k, league.fingerprint(k.public_key)) for k in league.keys(session, league_id)],
        "pending": [(g, league.fingerprint(g.club_key)) for g in waiting],
        "pending_count": league.pending(session, league_id) if organiser else 0,
        "claimed": league_claims.events(session, league_id) if organiser else [],
        "undo": undo,
        "undo_columns": league_claims.UNDO_COLUMNS.model_dump(),
        "error": error,
        "said": said,
        "typed": typed or {},
    }
    response = templates.TemplateResponse(request, "league.html", context, 422 if error else 200)
    response.headers["Cache-Control"] = "no-store"  # the organiser's page shows the organiser's token
    return response


def _kept_said(request: Request) -> str | None:
    """What a CSV import kept, from the address it redirected to (/leagues/1?kept=3&already=1, see
    app.pages.league_claims): numbers only, each bounded, so that a link cannot put words in the page."""
    q = request.query_params
    kept, already = (whole_number(q.get(k, ""), MAX_LEAGUE_GAMES + 1) for k in ("kept", "already"))
    if kept is None or already is None:
        return None
    replaced = whole_number(q.get("replaced", ""), MAX_LEAGUE_GAMES + 1)
    before = f"{replaced} game{'' if replaced == 1 else 's'} replaced: " if replaced is not None else ""
    games = f"{kept} new game{'' if kept == 1 else 's'} kept, {already} already here"
    return f"{before}{games}: the organiser's claim, not signed by a club."


def league_refused(request: Request, session: Session, settings: Settings, refusal: Refusal) -> Response:
    return _league(
        request.path_params["league_id"], request, session, settings, error=refusal.said, typed=refusal.typed
    )


def organiser_post(
    path: str, on: APIRouter = router, render: Render = league_refused
) -> Callable[[Endpoint], Endpoint]:
    """A league organiser's write (a route of `on`): behind their dependency, its refusal `render`'s page."""
    return posted(on, path, render, ORGANISER)


@posted(router, "/leagues/{league_id:id}/sign-in", league_refused)
def sign_in(
    league_id: int,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    token: Annotated[str, Form(max_length=100)] = "",
) -> Response:
    token = token.strip()
    with security.guessing_a_code(Unauthorized, Forbidden):
        league.require_organiser(session, settings.secret_key, league_id, token)
    response = _back(league_id)
    _keep_token(request, response, league_id, token)
    return response


def _bundles_of(text: str) -> list[ResultBundle]:
    """The uploaded file as bundles: one JSON object (a table's bundle) or a list of them (an event's every
    table, as its bundles page downloads them in one file), typed field by field (a refusal names the field)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested past what the parser follows
        raise Forbidden("that file is not a result bundle: choose the .json file the club exported") from None
    items = data if isinstance(data, list) else [data]
    if not items or not all(isinstance(i, dict) for i in items):
        raise Forbidden("that file is not a result bundle: choose the .json file the club exported")
    if len(items) > MAX_FILES:  # an event's every table past 100: it is one, just too many to take at once
        raise Forbidden(f"that file holds {len(items)} tables' bundles: import at most {MAX_FILES} at a time")
    try:
        return [ResultBundle.model_validate(i) for i in items]
    except ValidationError as e:  # a bundle's field: named in words and by its path
        refused = model_refusal(e.errors())
        raise PageRefused(f"{refused['detail'].rstrip('.')} (bundle.{refused['field']}).") from None


@organiser_post("/leagues/{league_id:id}/import")
async def import_bundle(
    league_id: int,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    bundle: Annotated[list[UploadFile], File()] = [],  # noqa: B006 (FastAPI copies a default)
) -> Response:
    """Several files in one pick, each one table's bundle or an event's every table: all imported or, one
    refused, none."""
    uploads = bundle[: MAX_FILES + 1]
    if not uploads:
        raise Forbidden("choose a bundle file to import")
    if len(uploads) > MAX_FILES:
        raise Forbidden(f"choose at most {MAX_FILES} bundle files at a time")
    bundles: list[ResultBundle] = []
    for upload in uploads:
        raw = await upload.read(MAX_UPLOAD + 1)
        if len(raw) > MAX_UPLOAD:
            raise Forbidden("that file is over 2 MB: a result bundle is smaller")
        bundles += _bundles_of(raw.decode("utf-8", "replace"))
    if len(bundles) > MAX_FILES:
        raise Forbidden(f"choose at most {MAX_FILES} tables' bundles at a time")
    with unit_of_work(session):
        league.lock_league(session, league_id)
        already = league.kept_already(session, league_id, bundles)
        batch = league.Batch()  # each scenario hashed and the league's games counted once for every bundle
        rows = [league.import_bundle(session, league_id, bundle, batch) for bundle in bundles]
        trusted = league.trusted(session, league_id)
    waiting = sum(row.club_key not in trusted for row in rows)
    if len(rows) > 1:
        where = f", {waiting} waiting for your yes below (a club's key not trusted yet)" if waiting else ""
        kept = f" ({already} here already, kept once)" if already else ""
        said = f"Imported {len(rows)} games{kept}: {len(rows) - waiting} counted{where}."
    else:
        where = "waiting for your yes below: its club's key is not trusted yet" if waiting else "counted"
        game = f"{rows[0].a_name} v {rows[0].b_name} ({rows[0].event}, round {rows[0].round}, table {rows[0].table})"
        said = f"{game} is here already, kept once: {where}." if already else f"Imported {game}: {where}."
    return _league(league_id, request, session, settings, said=said)


@organiser_post("/leagues/{league_id:id}/keys")
def add_key(
    league_id: int,
    session: SessionDep,
    public_key: Annotated[str, Form(max_length=200)] = "",
    club: Annotated[str, Form(max_length=80)] = "",
) -> Response:
    public, club = "".join(public_key.split()), " ".join(club.split())
    if len(public) != 64 or any(c not in "0123456789abcdefABCDEF" for c in public):
        raise Forbidden("a club's key is 64 hex digits: copy it from the club's bundle page")
    if not club:
        raise Forbidden("give the club's name")
    with unit_of_work(session):
        league.trust(session, league_id, public, club)
    return _back(league_id)


@organiser_post("/leagues/{league_id:id}/keys/{key_id:id}/remove")
def remove_key(league_id: int, key_id: int, session: SessionDep) -> Response:
    with unit_of_work(session):
        league.distrust(session, league_id, key_id)
    return _back(league_id)


@organiser_post("/leagues/{league_id:id}/games/{game_id:id}/{answer:str}")
def answer_pending(league_id: int, game_id: int, answer: str, session: SessionDep) -> Response:
    if answer not in ("yes", "no"):
        raise NotFoundError("answer", answer[:8])
    with unit_of_work(session):
        (league.accept if answer == "yes" else league.refuse)(session, league_id, game_id)
    return _back(league_id)


# -- an event's bundles ----------------------------------------------------------------------------------------
def _club_key(settings: Settings) -> tuple[str, str] | str:
    """This club's public key and its fingerprint, or the sentence saying why the key cannot be read."""
    try:
        public = signing.public_hex(signing.result_key(settings.var_dir))
    except signing.DamagedKey as e:
        return str(e)
    return public, league.fingerprint(public)


@router.get("/events/{event_id:id}/bundles", response_class=HTMLResponse)
def bundles_page(event_id: int, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    return _bundles(event_id, request, session, settings)


def _bundles(
    event_id: int, request: Request, session: Session, settings: Settings, error: str | None = None
) -> Response:
    try:
        row = tournaments.get(session, event_id)
        tournaments.require_organiser(
            session,
            settings.secret_key,
            event_id,
            auth.keyed_token(request.cookies.get(tournaments.ORGANISER_COOKIE), event_id),
        )
    except NotFoundError as e:
        return _not_found(request, e)
    except (Unauthorized, Forbidden):
        return RedirectResponse(f"/events/{event_id}", status_code=303)
    settled = []
    for r in tournaments.rounds_of(session, event_id):
        tables = [t for t in tournaments.tables_of(session, r.pk) if t.status in tournaments.SETTLED]
        people = tournament_results.table_players(session, tables)
        settled += [
            (r.number, t, people[t.a_player_id], people[t.b_player_id])
            for t in sorted(tables, key=lambda t: t.table)
        ]
    key = _club_key(settings)
    clubs = Counter(p.club for p in tournaments.players(session, event_id) if p.club)
    context = {
        "event": row,
        "club": clubs.most_common(1)[0][0] if clubs else "",
        "settled": settled,
        # Each file of every settled table at most MAX_FILES of them, as a league imports them: (part, first, last).
        "parts": [
            (k // MAX_FILES + 1, k + 1, min(k + MAX_FILES, len(settled)))
            for k in range(0, len(settled), MAX_FILES)
        ],
        "key": key if isinstance(key, tuple) else None,
        "error": error or (key if isinstance(key, str) else None),
    }
    return templates.TemplateResponse(request, "event_bundles.html", context, 422 if error else 200)


def _bundles_refused(request: Request, session: Session, settings: Settings, refusal: Refusal) -> Response:
    """The bundles page saying why (anyone but the event's organiser sent to the event's page by it)."""
    return _bundles(request.path_params["event_id"], request, session, settings, error=refusal.said)


Club = Annotated[str, Form(max_length=200)]  # the club's name, its spaces run together: at most 80 characters


@posted(router, "/events/{event_id:id}/bundles/{table_id:id}", _bundles_refused)
def download_bundle(
    event_id: int,
    table_id: int,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    club: Club = "",
) -> Response:
    return _download(event_id, [table_id], request, session, settings, club)


@posted(router, "/events/{event_id:id}/bundles", _bundles_refused)
def download_every_bundle(
    event_id: int,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    club: Club = "",
    part: Annotated[int, Form(ge=1, le=1_000_000)] = 1,
) -> Response:
    """Every settled table's bundle in files of at most MAX_FILES tables (`part`, from 1), one tap a file: a
    league imports a file whole, MAX_FILES tables at a time, and each file is signed within a request's CPU
    (about 6 ms a table: a 200-table day of three rounds in one file was 3.5 s)."""
    return _download(event_id, None, request, session, settings, club, part)


def _download(
    event_id: int,
    table_ids: list[int] | None,
    request: Request,
    session: Session,
    settings: Settings,
    club: str,
    part: int = 1,
) -> Response:
    """The tables' signed bundles as a file to download: one table's bundle, or (table_ids None) a list of
    every settled table's."""
    club = " ".join(club.split())
    if len(club) > 80:
        raise PageRefused("Club: name it in at most 80 characters.")
    token = auth.keyed_token(request.cookies.get(tournaments.ORGANISER_COOKIE), event_id)
    tournaments.require_organiser(session, settings.secret_key, event_id, token)
    try:
        key = signing.result_key(settings.var_dir)
    except signing.DamagedKey as e:
        raise PageRefused(str(e)) from e
    if table_ids is None:
        settled = _settled_ids(session, event_id)
        ids = settled[(part - 1) * MAX_FILES : part * MAX_FILES]
        if not ids:
            raise RulesError("part", f"choose a part from 1 to {-(-len(settled) // MAX_FILES)} of the tables")
    else:
        ids = table_ids
    read: dict[str, tuple[dict[str, Any], str]] = {}  # each scenario read once for every table
    bundles = [league.export_bundle(session, key, club, event_id, t, read) for t in ids]
    if table_ids is None:
        name = f"event-{event_id}-every-table{'' if len(settled) <= MAX_FILES else f'-part-{part}'}.json"
        body = "[" + ",".join(b.model_dump_json() for b in bundles) + "]"
    else:
        name = f"event-{event_id}-round-{bundles[0].round}-table-{bundles[0].table}.json"
        body = bundles[0].model_dump_json()
    return Response(
        body, media_type="application/json", headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


def _settled_ids(session: Session, event_id: int) -> list[int]:
    ids = [
        t.pk
        for r in tournaments.rounds_of(session, event_id)
        for t in sorted(tournaments.tables_of(session, r.pk), key=lambda t: t.table)
        if t.status in tournaments.SETTLED
    ]
    if not ids:
        raise RuleRefused("no table's result is settled yet: both players confirm it, or you set it")
    return ids
