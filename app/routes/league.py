"""The league over HTTP (issue 63; app/services/league.py): an organiser makes a league (its token shown once,
like an event's), imports clubs' signed result bundles, trusts clubs' keys (each shown with its fingerprint)
and says yes or no to a game waiting from a key not trusted; anyone reads the table of the games it counts.
Every write needs the league organiser's token: Authorization: Bearer, else the league page's cookie."""

from __future__ import annotations

from typing import Annotated

from fastapi import Cookie, Depends, Query, Request, Response

from app import errors
from app.core.routing import Router
from app.data.models import League, LeagueGame, LeagueKey
from app.data.schemas_claims import CLAIM, ClaimOut, ClaimPlayer, ClaimsIn, ClaimsOut, ClaimsRemoved
from app.data.schemas_league import (
    BundleIn,
    KeyIn,
    KeyOut,
    LeagueCreate,
    LeagueCreated,
    LeagueGameOut,
    LeagueId,
    LeagueOut,
    LeagueTableOut,
    RowId,
    bundle_schema,
)
from app.deps import PageDep, SessionDep, SettingsDep
from app.guard import auth, security
from app.services import league, league_claims, league_table
from app.services.writing import unit_of_work

router = Router(prefix="/api/v1", tags=["league"])


def league_token(
    request: Request,
    token: Annotated[str | None, Depends(auth.presented_token)],
    cookie: Annotated[
        str | None, Cookie(alias=league.LEAGUE_COOKIE, max_length=auth.KEYED_COOKIE_CHARS)
    ] = None,
) -> str | None:
    """The league organiser's token: Authorization: Bearer, else this league's in the organiser's cookie the
    league page set (one per league this browser runs)."""
    return auth.bearer_else_keyed(request, token, cookie, request.path_params.get("league_id"))


Token = Annotated[str | None, Depends(league_token)]
SCHEMA_OF_A_SCHEMA = {  # what the format's answer holds, in OpenAPI's words: a JSON Schema of a bundle's fields
    "type": "object",
    "required": ["$schema", "$id", "properties"],
    "properties": {
        "$schema": {"const": "https://json-schema.org/draft/2020-12/schema"},
        "$id": {"type": "string"},
        "title": {"type": "string"},
        "properties": {"type": "object", "description": "Each field of a bundle with its constraints."},
    },
}
WRITES = errors.responses(401, 403, 404, 409, 422)


def organiser(league_id: LeagueId, token: Token, session: SessionDep, settings: SettingsDep) -> None:
    """The league's organiser only, checked before the body is read (a stranger's bundle is never parsed)."""
    try:
        league.require_organiser(session, settings.secret_key, league_id, token)
    except errors.Unauthorized:
        security.token_failed()
        raise


Organiser = [Depends(organiser)]


def league_out(row: League) -> LeagueOut:
    return LeagueOut(id=row.pk, name=row.name, created_at=row.created_at)


def key_out(row: LeagueKey) -> KeyOut:
    return KeyOut(
        id=row.pk, public_key=row.public_key, club=row.club, fingerprint=league.fingerprint(row.public_key)
    )


def game_out(row: LeagueGame, trusted: set[str]) -> LeagueGameOut:
    return LeagueGameOut(
        id=row.pk,
        status="counted" if row.club_key in trusted else "pending",
        club=row.club,
        club_key=row.club_key,
        fingerprint=league.fingerprint(row.club_key),
        event=row.event,
        round=row.round,
        table=row.table,
        players={"attacker": (row.a_name, row.a_club), "defender": (row.b_name, row.b_club)},
        winner="attacker" if row.winner == "attacker" else "defender" if row.winner == "defender" else None,
        points={"attacker": row.a_points, "defender": row.b_points},
        checked=league.checked_words(row.settled),
    )


@router.get(
    "/leagues/formats/firestep-result-3.schema.json",
    response_class=Response,
    summary="The result bundle's format as a JSON Schema (draft 2020-12; no token)",
    responses={200: {"content": {"application/schema+json": {"schema": SCHEMA_OF_A_SCHEMA}}}},
)
def result_format() -> Response:
    """Public and the same for everyone (it changes only with a release): any cache may keep it a day."""
    return Response(
        bundle_schema(),
        media_type="application/schema+json",
        headers={"Cache-Control": "public, max-age=86400"},
    )


@router.get("/leagues", response_model=list[LeagueOut], summary="The leagues on this server (no token)")
def list_leagues(session: SessionDep, page: PageDep) -> list[LeagueOut]:
    rows = league.list_leagues(session, page.limit, page.older_than())
    return [league_out(r) for r in rows]


@router.post(
    "/leagues",
    response_model=LeagueCreated,
    status_code=201,
    summary="Make a league: returns its organiser's token (shown once)",
    responses=errors.responses(401, 403, 422),
    dependencies=[Depends(auth.require_organiser)],
)
def create_league(body: LeagueCreate, session: SessionDep, settings: SettingsDep) -> LeagueCreated:
    with unit_of_work(session):
        row, token = league.create(session, settings.secret_key, body.name)
    return LeagueCreated(league=league_out(row), organiser_token=token)


@router.get(
    "/leagues/{league_id:int}",
    response_model=LeagueTableOut,
    summary="The league table from the games it counts (no token)",
    responses=errors.responses(404, 422),
)
def get_table(league_id: LeagueId, session: SessionDep) -> LeagueTableOut:
    row = league.get(session, league_id)
    waiting = league.pending(session, league_id)
    lines = league_table.table(session, league_id)
    return LeagueTableOut(league=league_out(row), lines=lines, pending=waiting)


@router.post(
    "/leagues/{league_id:int}/results",
    response_model=LeagueGameOut,
    status_code=201,
    summary="Import a club's signed result bundle (organiser): checked field by field, its signature and "
    "hashes verified; counted once its club's key is trusted, else pending",
    responses=WRITES,
    dependencies=Organiser,
)
def import_bundle(league_id: LeagueId, body: BundleIn, session: SessionDep) -> LeagueGameOut:
    with unit_of_work(session):
        row = league.import_bundle(session, league_id, body.bundle)
        out = game_out(row, league.trusted(session, league_id))
    return out


@router.get(
    "/leagues/{league_id:int}/results",
    response_model=list[LeagueGameOut],
    summary="The games imported, counted or pending (organiser)",
    responses=errors.responses(401, 403, 404, 422),
    dependencies=Organiser,
)
def list_league_results(league_id: LeagueId, session: SessionDep, page: PageDep) -> list[LeagueGameOut]:
    trusted = league.trusted(session, league_id)
    games = league.games_page(session, league_id, page.newer_than(), page.limit)
    return [game_out(g, trusted) for g in games]


@router.post(
    "/leagues/{league_id:int}/results/{result_id:int}/accept",
    response_model=KeyOut,
    summary="Yes to a pending game (organiser): its club's key trusted, its games counted",
    responses=WRITES,
    dependencies=Organiser,
)
def accept(league_id: LeagueId, result_id: RowId, session: SessionDep) -> KeyOut:
    with unit_of_work(session):
        out = key_out(league.accept(session, league_id, result_id))
    return out


@router.delete(
    "/leagues/{league_id:int}/results/{result_id:int}",
    status_code=204,
    summary="No to a pending game (organiser): removed",
    responses=WRITES,
    dependencies=Organiser,
)
def refuse(league_id: LeagueId, result_id: RowId, session: SessionDep) -> None:
    with unit_of_work(session):
        league.refuse(session, league_id, result_id)


@router.get(
    "/leagues/{league_id:int}/keys",
    response_model=list[KeyOut],
    summary="The clubs' keys the league trusts, with their fingerprints (no token)",
    responses=errors.responses(404, 422),
)
def list_keys(league_id: LeagueId, session: SessionDep, page: PageDep) -> list[KeyOut]:
    league.get(session, league_id)
    return [key_out(k) for k in page.of(league.keys(session, league_id), lambda k: k.pk)]


@router.post(
    "/leagues/{league_id:int}/keys",
    response_model=KeyOut,
    status_code=201,
    summary="Trust a club's result-signing key (organiser): its games count",
    responses=WRITES,
    dependencies=Organiser,
)
def add_key(league_id: LeagueId, body: KeyIn, session: SessionDep) -> KeyOut:
    with unit_of_work(session):
        out = key_out(league.trust(session, league_id, body.public_key, body.club))
    return out


@router.delete(
    "/leagues/{league_id:int}/keys/{key_id:int}",
    status_code=204,
    summary="Stop trusting a key (organiser): its games wait again, not counted",
    responses=WRITES,
    dependencies=Organiser,
)
def remove_key(league_id: LeagueId, key_id: RowId, session: SessionDep) -> None:
    with unit_of_work(session):
        league.distrust(session, league_id, key_id)


def claim_out(row: league_claims.Claim) -> ClaimOut:
    return ClaimOut(
        id=row.pk,
        kept_as=CLAIM,
        event=row.event,
        round=row.round,
        first=ClaimPlayer(name=row.a_name, club=row.a_club, points=row.a_points),
        second=ClaimPlayer(name=row.b_name, club=row.b_club, points=row.b_points),
        winner="first" if row.winner == "a" else "second" if row.winner == "b" else None,
    )


@router.post(
    "/leagues/{league_id:int}/claims",
    response_model=ClaimsOut,
    status_code=201,
    summary="Import results from another tool's CSV (organiser), its columns named: kept as the organiser's "
    "claim, never as a signed result",
    responses=WRITES,
    dependencies=Organiser,
)
def import_claims(league_id: LeagueId, body: ClaimsIn, session: SessionDep) -> ClaimsOut:
    with unit_of_work(session):
        league.lock_league(session, league_id)
        rows, already = league_claims.import_claims(
            session, league_id, body.event, body.csv, body.columns, body.replace
        )
        out = ClaimsOut(
            imported=len(rows) - already, kept_already=already, claims=[claim_out(r) for r in rows]
        )
    return out


@router.delete(
    "/leagues/{league_id:int}/claims",
    response_model=ClaimsRemoved,
    summary="Remove an event's claims (organiser): its name as it looks, case and look-alike letters aside",
    responses=WRITES,
    dependencies=Organiser,
)
def remove_claims(
    league_id: LeagueId,
    event: Annotated[str, Query(min_length=1, max_length=80, description="The event the claims are of.")],
    session: SessionDep,
) -> ClaimsRemoved:
    with unit_of_work(session):
        league.lock_league(session, league_id)
        removed = league_claims.remove_event(session, league_id, event)
    return ClaimsRemoved(event=removed.event, removed=removed.games)
