"""A club event day over HTTP (issue 57; app/services/tournaments.py and tournament_results.py): the
organiser makes an event (its token shown once), registers players, drafts a round's pairing, reviews it and
commits it (a game per table); each table's two seats confirm (or dispute) the result their finished game
offers; the organiser alters a result, follows every table and exports the standings (CSV too) and each
settled table's signed result bundle (the league that imports it: app/routes/league.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body, Depends
from fastapi.responses import JSONResponse, Response
from sqlmodel import Session

from app import errors
from app.club import signing
from app.core.routing import Router
from app.data.models import Tournament, TournamentRound, TournamentTable
from app.data.schemas_events import (
    ClubEventOut,
    Committed,
    Committing,
    DisputeIn,
    DraftIn,
    EventCreate,
    EventCreated,
    EventId,
    ExportIn,
    HandEditOut,
    PlayerId,
    PlayerMarked,
    PlayerOut,
    PlayersIn,
    PlayerStatusIn,
    Rekeyed,
    RekeyIn,
    RekeyOffer,
    RekeyOfferIn,
    ResultIn,
    RoundNo,
    RoundOut,
    StandingOut,
    SwapIn,
    TableCards,
    TableId,
    TableOut,
    TableSeats,
    TimerIn,
)
from app.data.schemas_league import ResultBundle
from app.deps import NowDep, PageDep, SessionDep, SettingsDep
from app.guard import auth, security
from app.guard.organiser import Token, organiser_only
from app.services import (
    event_roster,
    event_seats,
    league,
    round_commit,
    seating,
    tournament_results,
    tournaments,
)
from app.services.seating import Viewer
from app.services.writing import step_by_step, unit_of_work
from rules.core.errors import NotFoundError
from rules.event.standings import EventScoring

router = Router(prefix="/api/v1", tags=["club events"])

SeatToken = Annotated[str | None, Depends(auth.presented_token)]  # a table game's seat


# -- answers -------------------------------------------------------------------------------------------------
def event_out(row: Tournament) -> ClubEventOut:
    return ClubEventOut.model_validate(row, from_attributes=True)


def round_out(
    session: Session, rnd: TournamentRound, tables: list[TournamentTable] | None = None
) -> RoundOut:
    tables = tables if tables is not None else tournaments.tables_of(session, rnd.pk)
    people = tournament_results.table_players(session, tables)
    row = tournaments.get(session, rnd.tournament_id)
    return RoundOut(
        number=rnd.number,
        scenario=rnd.scenario,
        status=rnd.status,
        minutes=rnd.minutes,
        bye_player_id=rnd.bye_player_id,
        tables=[tournament_results.table_out(t, people) for t in sorted(tables, key=lambda t: t.table)],
        version=row.version,
        warnings=tournaments.draft_warnings(session, row, rnd, tables),
        hand_edits=[
            HandEditOut.model_validate(e) for e in tournaments.hand_edits(session, row.pk, rnd.number)
        ],
    )


def _seat(session: Session, settings: Any, event_id: int, table_id: int, token: str | None) -> Viewer:
    # The device first: without a seat, a missing event or table answers as one there does (401, not 404).
    row = auth.seat_row(session, seating.GAME, settings.secret_key, token)
    table = tournament_results.get_table(session, event_id, table_id)
    if table.game_id is None:
        raise NotFoundError("table", str(table_id))
    return auth.viewer_of(seating.GAME, row, table.game_id)


# -- the event ----------------------------------------------------------------------------------------------
@router.get(
    "/events", response_model=list[ClubEventOut], summary="Events in this database (the lobby: no token)"
)
def list_club_events(session: SessionDep, page: PageDep) -> list[ClubEventOut]:
    rows = tournaments.list_events(session, page.limit, page.older_than())
    return [event_out(r) for r in rows]


@router.post(
    "/events",
    response_model=EventCreated,
    status_code=201,
    summary="Make an event of N rounds for one rule set and period: returns the organiser's token",
    responses=errors.responses(401, 403, 404, 422),
    dependencies=[Depends(auth.require_organiser)],
)
def create_club_event(
    body: Annotated[
        EventCreate,
        Body(openapi_examples={"3 rounds": {"value": {"name": "Club night", "ruleset": "<a rule set id>"}}}),
    ],
    session: SessionDep,
    settings: SettingsDep,
) -> EventCreated:
    s = body.scoring
    scoring = EventScoring(s.win, s.draw, s.loss, s.bye, tuple(s.order))
    with unit_of_work(session):
        row, token = tournaments.create(
            session, settings.secret_key, name=body.name, ruleset=body.ruleset, period=body.period,
            rounds=body.rounds, scoring=scoring, time_zone=body.time_zone,
        )  # fmt: skip
    return EventCreated(event=event_out(row), organiser_token=token)


@router.get("/events/{event_id:int}", response_model=ClubEventOut, responses=errors.responses(404, 422),
            summary="One event (no token)")  # fmt: skip
def get_event(event_id: EventId, session: SessionDep) -> ClubEventOut:
    return event_out(tournaments.get(session, event_id))


@router.get("/events/{event_id:int}/players", response_model=list[PlayerOut], responses=errors.responses(404, 422),
            summary="The players registered")  # fmt: skip
def list_players(event_id: EventId, session: SessionDep, page: PageDep) -> list[PlayerOut]:
    tournaments.get(session, event_id)
    rows = page.of(tournaments.players(session, event_id), lambda p: p.pk)
    return [PlayerOut.model_validate(p, from_attributes=True) for p in rows]


@router.post(
    "/events/{event_id:int}/players",
    response_model=list[PlayerOut],
    status_code=201,
    summary="Register players (organiser): name, club, force list by name",
    responses=errors.responses(401, 403, 404, 422),
)
def register(
    event_id: EventId, body: PlayersIn, token: Token, session: SessionDep, settings: SettingsDep
) -> list[PlayerOut]:
    organiser_only(session, settings, event_id, token)
    entries = [tournaments.PlayerEntry(p.name, p.club, p.force_list) for p in body.players]
    with unit_of_work(session):
        rows = tournaments.register(session, event_id, entries)
    return [PlayerOut.model_validate(p, from_attributes=True) for p in rows]


@router.put(
    "/events/{event_id:int}/players/{player_id:int}",
    response_model=PlayerMarked,
    summary="Drop a player, mark a no-show or put one back in (organiser): paired from the next round drafted "
    "on; a draft under review is discarded",
    responses=errors.responses(401, 403, 404, 422),
)
def mark_player(
    event_id: EventId, player_id: PlayerId, body: PlayerStatusIn, token: Token, session: SessionDep,
    settings: SettingsDep,
) -> PlayerMarked:  # fmt: skip
    organiser_only(session, settings, event_id, token)
    with unit_of_work(session):
        done = event_roster.set_status(session, event_id, player_id, body.status)
        player = PlayerOut.model_validate(done.player, from_attributes=True)
    return PlayerMarked(player=player, status=body.status, discarded_draft=done.discarded_draft)


# -- rounds --------------------------------------------------------------------------------------------------
@router.post(
    "/events/{event_id:int}/rounds",
    response_model=RoundOut,
    status_code=201,
    summary="Draft the next round's pairing for review (organiser); drafting again replaces the draft",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def draft(
    event_id: EventId, body: DraftIn, token: Token, session: SessionDep, settings: SettingsDep
) -> RoundOut:
    organiser_only(session, settings, event_id, token)
    with unit_of_work(session):
        rnd, tables = tournaments.draft(session, event_id, body.scenario, body.minutes)
        out = round_out(session, rnd, tables)
    return out


@router.get("/events/{event_id:int}/rounds/{number:int}", response_model=RoundOut,
            responses=errors.responses(401, 403, 404, 422),
            summary="A round's pairing and its tables (before it is committed, the organiser's alone)")  # fmt: skip
def get_round(
    event_id: EventId, number: RoundNo, token: Token, session: SessionDep, settings: SettingsDep
) -> RoundOut:
    rnd = tournaments.get_round(session, event_id, number)
    if rnd.status != "committed":  # a draft is the organiser's to review and edit: no player reads it before
        organiser_only(session, settings, event_id, token)
    return round_out(session, rnd)


@router.post(
    "/events/{event_id:int}/rounds/{number:int}/swap",
    response_model=RoundOut,
    summary="Edit the draft by hand (organiser): swap two players (the bye's too) or two pairs' tables; the "
    "answer warns of what the hand pairing breaks",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def swap_drafted(
    event_id: EventId, number: RoundNo, body: SwapIn, token: Token, session: SessionDep, settings: SettingsDep
) -> RoundOut:
    organiser_only(session, settings, event_id, token)
    with unit_of_work(session):
        rnd, tables = tournaments.edit_draft(
            session, event_id, number, body.version, body.swap, body.first, body.second
        )
        out = round_out(session, rnd, tables)
    return out


@router.post(
    "/events/{event_id:int}/rounds/{number:int}/commit",
    response_model=Committed,
    summary="Commit the drafted round (organiser): a game per table from the round's scenario, the timer started",
    responses={
        202: {
            "model": Committing,
            "description": "Still committing: this request spent its CPU budget (commit_cpu_seconds); the games "
            "made so far are kept, hidden, and the same POST again carries on",
        },
        **errors.responses(401, 403, 404, 409, 422),
    },
)
def commit_drafted(
    event_id: EventId, number: RoundNo, token: Token, session: SessionDep, settings: SettingsDep
) -> Committed | Response:
    organiser_only(session, settings, event_id, token)
    job = round_commit.RoundCommit(settings.secret_key, event_id, number, round_commit.step_budget(session))

    def seats_of() -> list[TableSeats]:
        return [
            TableSeats(
                table_id=m.table.pk,
                game_id=m.game.pk,
                referee_token=m.credentials.referee_token,
                join_codes=m.credentials.join_codes,
            )
            for m in job.finish(session)
        ]

    # Short units of work, no other table's write waiting long behind the round's (RoundCommit), and no more
    # CPU a request than its budget: a large round is committed over a few requests
    seats = step_by_step(session, lambda: job.begin(session), lambda: job.make_some(session), seats_of,
                         settings.commit_cpu_seconds)  # fmt: skip
    if seats is None:
        made, tables, _ = round_commit.progress(session, event_id, number)
        return JSONResponse(Committing(made=made, tables=tables).model_dump(), status_code=202)
    out = round_out(session, tournaments.get_round(session, event_id, number))
    return Committed(**out.model_dump(), seats=seats)


@router.post(
    "/events/{event_id:int}/rounds/{number:int}/join-codes",
    response_model=list[TableCards],
    summary="New join codes for every table of the round (organiser): the cards printed before stop working; "
    "seated devices keep their seats",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def new_join_codes(
    event_id: EventId, number: RoundNo, token: Token, session: SessionDep, settings: SettingsDep
) -> list[TableCards]:
    organiser_only(session, settings, event_id, token)
    with unit_of_work(session):
        codes = tournaments.new_cards(session, settings.secret_key, event_id, number)
        tables = tournaments.tables_of(session, tournaments.get_round(session, event_id, number).pk)
        out = [
            TableCards(table_id=t.pk, game_id=t.game_id, join_codes=codes[t.game_id])
            for t in tables
            if t.game_id is not None
        ]
    return out


@router.put(
    "/events/{event_id:int}/timer",
    response_model=ClubEventOut,
    summary="Move the round's end or stop its timer (organiser)",
    responses=errors.responses(401, 403, 404, 422),
)
def set_timer(
    event_id: EventId, body: TimerIn, token: Token, session: SessionDep, settings: SettingsDep
) -> ClubEventOut:
    organiser_only(session, settings, event_id, token)
    with unit_of_work(session):
        row = tournaments.set_timer(session, event_id, body.ends_at)
    return event_out(row)


# -- results ---------------------------------------------------------------------------------------------------
@router.post(
    "/events/{event_id:int}/tables/{table_id:int}/confirm",
    response_model=TableOut,
    summary="Confirm the result the table's finished game offers (a player's seat of that game)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def confirm_table_result(
    event_id: EventId, table_id: TableId, token: SeatToken, session: SessionDep, settings: SettingsDep
) -> TableOut:
    who = _seat(session, settings, event_id, table_id, token)
    with unit_of_work(session):
        t = tournament_results.confirm(session, event_id, table_id, who)
    return tournament_results.table_out(t, tournament_results.table_players(session, [t]))


@router.post(
    "/events/{event_id:int}/tables/{table_id:int}/dispute",
    response_model=TableOut,
    summary="Dispute the result the table's game offers (a player's seat): the organiser settles it",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def dispute_table_result(
    event_id: EventId,
    table_id: TableId,
    body: DisputeIn,
    token: SeatToken,
    session: SessionDep,
    settings: SettingsDep,
) -> TableOut:
    who = _seat(session, settings, event_id, table_id, token)
    with unit_of_work(session):
        t = tournament_results.dispute(session, event_id, table_id, who, body.why)
    return tournament_results.table_out(t, tournament_results.table_players(session, [t]))


@router.put(
    "/events/{event_id:int}/tables/{table_id:int}/result",
    response_model=TableOut,
    summary="Set a table's result (organiser; logged with the result before)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def alter(
    event_id: EventId,
    table_id: TableId,
    body: ResultIn,
    token: Token,
    session: SessionDep,
    settings: SettingsDep,
) -> TableOut:
    organiser_only(session, settings, event_id, token)
    result = tournament_results.TableResult(**body.model_dump(exclude={"why"}), reason="set by the organiser")
    with unit_of_work(session):
        t = tournament_results.alter(session, event_id, table_id, result, body.why)
    return tournament_results.table_out(t, tournament_results.table_players(session, [t]))


@router.post(
    "/events/{event_id:int}/tables/{table_id:int}/rekey",
    response_model=RekeyOffer,
    summary="A lost tablet's seat to a new device (organiser): a code for that side, good once, shown to the "
    "organiser only",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def offer_rekey(
    event_id: EventId,
    table_id: TableId,
    body: RekeyOfferIn,
    token: Token,
    session: SessionDep,
    settings: SettingsDep,
    now: NowDep,
) -> RekeyOffer:
    organiser_only(session, settings, event_id, token)
    with unit_of_work(session):
        code = event_seats.offer_rekey(session, settings.secret_key, event_id, table_id, body.side, now)
    return RekeyOffer(side=body.side, code=code, minutes=event_seats.REKEY_MINUTES)


@router.post(
    "/events/rekey",
    response_model=Rekeyed,
    summary="A lost tablet's seat back with the code the organiser gave: a new device, the side's old ones "
    "revoked, the code spent",
    responses=errors.responses(404, 422, 429),
)
def rekey(body: RekeyIn, session: SessionDep, settings: SettingsDep, now: NowDep) -> Rekeyed:
    with security.guessing_a_code(), unit_of_work(session):
        game_id, side, token = event_seats.rekey(session, settings.secret_key, body.code, now)
    return Rekeyed(game_id=game_id, side=side, token=token)


# -- standings ---------------------------------------------------------------------------------------------------
@router.get("/events/{event_id:int}/standings", response_model=list[StandingOut],
            responses=errors.responses(404, 422), summary="The standings by the event's tie-breakers")  # fmt: skip
def get_standings(event_id: EventId, session: SessionDep) -> list[StandingOut]:
    lines, people = tournament_results.event_standings(session, event_id)
    return [
        StandingOut(
            **{k: v for k, v in s.__dict__.items() if k != "player"},
            player_id=s.player,
            name=people[s.player].name,
            club=people[s.player].club,
        )
        for s in lines
    ]


@router.get(
    "/events/{event_id:int}/standings.csv",
    response_class=Response,
    summary="The standings as CSV",
    responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}}, **errors.responses(404, 422)},
)
def standings_csv(event_id: EventId, session: SessionDep) -> Response:
    text = tournament_results.standings_csv(session, event_id)
    return Response(
        text, media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="event-{event_id}-standings.csv"'},
    )  # fmt: skip


# -- the result bundle ---------------------------------------------------------------------------------------------
@router.post(
    "/events/{event_id:int}/tables/{table_id:int}/bundle",
    response_model=ResultBundle,
    summary="The settled table's result as a bundle signed with this club's key (organiser)",
    responses=errors.responses(401, 403, 404, 409, 422, 503),
)
def export_bundle(
    event_id: EventId,
    table_id: TableId,
    body: ExportIn,
    token: Token,
    session: SessionDep,
    settings: SettingsDep,
) -> ResultBundle:
    organiser_only(session, settings, event_id, token)
    try:
        key = signing.result_key(settings.var_dir)
    except signing.DamagedKey as e:
        raise errors.Unavailable(str(e)) from None
    return league.export_bundle(session, key, body.club, event_id, table_id)
