"""Games: create (by hand or from a scenario), join with a code, the turn sequence, resolving with the
game's state, and the after-action report."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import Body, Depends, Path, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from sqlmodel import Session

from app import errors
from app.core.routing import Router
from app.data.bounded import Terrain, Variants, Version, readable_json
from app.data.schemas import AskIn, DeviceId, GameCreate, JoinIn, ResolveIn
from app.data.schemas_answers import (
    AdvancedOut,
    AskedOut,
    EventOut,
    GameTurnOut,
    ResolvedOut,
    StandActsOut,
    TargetMarkOut,
)
from app.data.schemas_devices import DeviceOut
from app.data.schemas_report import ReportOut
from app.data.schemas_scenario import ScenarioBoard, TableObjectives
from app.deps import GameId, PageDep, SessionDep, SettingsDep
from app.guard import auth, security
from app.guard.auth import COOKIE_NAME, ViewerDep
from app.services import acts, campaign_battles, card, cards, game_setup, games, result, seating, seats
from app.services import events as events_service
from app.services import report as report_service
from app.services import resolve as resolve_service
from app.services import templates as table_templates
from app.services.event_seats import take_card
from app.services.markers import rules_of
from app.services.seating import Viewer
from app.services.writing import game_write, unit_of_work
from rules.core.acts import AdvanceTurn, PlayCard, Roll
from rules.core.game import terrain
from rules.core.kit import Drawn
from rules.core.vocabulary import Side

router = Router(prefix="/api/v1/games", tags=["games"])
join_router = Router(tags=["games"])


class GameOut(BaseModel):
    # Beside these, flat, the game's rule-set values (its table kit's: Flanders Fields' deep suppression).
    model_config = ConfigDict(extra="allow")

    id: int
    name: str
    ruleset: str
    period: str | None
    variants: dict[str, str] = Field(
        description="The errata readings the game is played by: erratum id -> reading id."
    )
    table_width_cm: float
    table_length_cm: float
    attacker_nation: str
    defender_nation: str
    scenario: str | None
    version: int
    created_at: datetime
    updated_at: datetime
    status: str
    turn: int
    side_to_move: str
    step: int
    notes: str


class GameDetail(GameOut):
    # Read back whatever is stored, even what an older version let in past today's limits.
    terrain: Annotated[dict[str, Any], BeforeValidator(readable_json)]
    board: Annotated[dict[str, Any], BeforeValidator(readable_json)]


class GameState(GameDetail):
    last_event_id: int = Field(
        description="The state is at least as new as this event (the newest this viewer may read): resume the "
        "stream after it"
    )
    board_drawn: list[Drawn] = Field(
        description="What the map draws of the board, as the rule set draws it: polygons (or points with a "
        "radius) in table cm, each with its style and label"
    )


class Created(BaseModel):
    game: GameOut
    referee_token: str = Field(description="Bearer token of the referee; shown once.")
    join_codes: dict[str, str] = Field(description="One code per side, for the players to join with.")


class GameJoined(BaseModel):
    game_id: int
    side: str
    token: str


class Me(BaseModel):
    game_id: int
    role: str
    event_hand: list[str] = Field(
        default_factory=list, description="Random-event cards this side holds (a player's own only)."
    )


class PlayCardIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    side: Side
    # Which cards exist is the rule set's: one the side does not hold is refused by the game.
    card: str = Field(
        pattern=r"^[0-9A-Za-z]{1,8}$", description="A card of the side's hand, e.g. 10H, JD, QH."
    )


class CardsDrawnIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    cards: list[Annotated[str, Field(pattern=r"^(10|[2-9JQKA])[HDCS]$")]] = Field(
        min_length=1,
        max_length=2,
        description="The cards the side drew from the club's own pack, rank then suit: 10H, JD, QC.",
    )


class GamePatch(BaseModel):
    """A whole-object edit by the referee: `version` must be the current one, else 409."""

    model_config = ConfigDict(extra="forbid")

    version: Version
    name: str | None = Field(default=None, min_length=1, max_length=200)
    variants: Variants | None = None
    terrain: Terrain | None = None
    # Its objectives on the table, as a scenario writes them (before the game starts only).
    table_objectives: TableObjectives | None = None
    # A game of counters' club data (its rule set's `CounterBoard.club`), replaced whole (before it starts only).
    club: ScenarioBoard | None = None
    notes: str | None = Field(default=None, max_length=4000)


class AdvanceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: Version = Field(description="The game version the client saw; a stale one gets 409.")


def game_out(game: Any, model: type[GameOut] = GameOut) -> Any:
    """The game as `model` answers it, with its rule set's values flat beside its own fields."""
    return model.model_validate(
        {**model.model_validate(game, from_attributes=True).model_dump(), **games.game_values(game)}
    )


@router.get("", response_model=list[GameOut], summary="Games in this database (the lobby: no token needed)")
def list_games(session: SessionDep, page: PageDep) -> list[GameOut]:
    return [game_out(g) for g in page.of(games.list_games(session), lambda g: g.pk)]


@router.post(
    "",
    response_model=Created,
    status_code=201,
    summary="Create a game, by hand or from a scenario; returns the referee token and a join code per side "
    "(X-Organiser-Key when the server requires one)",
    responses=errors.responses(401, 403, 422),
    dependencies=[Depends(auth.require_organiser)],
)
def create_game(
    body: Annotated[
        GameCreate,
        Body(
            openapi_examples={
                "Mons 1914": {"value": {"scenario": "mons-1914"}},
                "forces from the organisation tables": {
                    "value": {
                        "period": "early",
                        "forces": [
                            {"side": "attacker", "table_id": "de-1914", "quality": "veteran"},
                            {"side": "defender", "table_id": "gb-1914"},
                        ],
                    }
                },
                "by hand": {
                    "value": {
                        "name": "Trench raid",
                        "period": "mid",
                        "attacker_nation": "british",
                        "defender_nation": "german",
                    }
                },
            }
        ),
    ],
    session: SessionDep,
    settings: SettingsDep,
) -> Created:
    with unit_of_work(session):
        game, creds = game_setup.create_game(
            session, settings.secret_key, **body.model_dump(exclude_none=True)
        )
    return Created(game=game_out(game), referee_token=creds.referee_token, join_codes=creds.join_codes)


@join_router.post(
    "/api/v1/join",
    response_model=GameJoined,
    summary="Join a game with a side's code: returns a token (also set as the firestep_token cookie)",
    responses=errors.responses(409, 422, 429),
)
def join_game(
    body: Annotated[JoinIn, Body(openapi_examples={"code": {"value": {"code": "ABCDE-FGH23"}}})],
    response: Response,
    session: SessionDep,
    settings: SettingsDep,
) -> GameJoined:
    with security.guessing_a_code(), unit_of_work(session):
        game_id, side = seating.side_of_code(session, seating.GAME, settings.secret_key, body.code)
        take_card(session, settings.secret_key, game_id, side, body.code)  # a card seats one
        token = seating.issue(session, seating.GAME, settings.secret_key, game_id, side)
    response.set_cookie(COOKIE_NAME, token, httponly=True, samesite="lax", max_age=60 * 60 * 24 * 30)
    return GameJoined(game_id=game_id, side=side, token=token)


@router.get(
    "/{game_id}", response_model=GameOut, summary="One game (the lobby view)", responses=errors.responses(404)
)
def get_game(game_id: GameId, session: SessionDep) -> GameOut:
    return game_out(games.get_game(session, game_id))


@router.get(
    "/{game_id}/state",
    response_model=GameState,
    summary="The game with its terrain and board (gas clouds, barrages, fire and templates on the table)",
    responses=errors.responses(401, 403, 404),
)
def get_state(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> GameState:
    # The event id first: the game read after it is at least that new.
    as_of = table_templates.last_event_id(session, game_id, events_service.roles_of(viewer))
    game = games.get_game(session, game_id)
    detail = game_out(game, GameDetail)
    return GameState(**detail.model_dump(), last_event_id=as_of, board_drawn=games.board_drawing(game))


@router.get(
    "/{game_id}/me", response_model=Me, summary="Who this token is", responses=errors.responses(401, 403, 404)
)
def me(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> Me:
    hand: list[str] = []
    if not viewer.is_referee:
        hand = cards.hand_of(session, game_id, viewer.role)
    return Me(game_id=viewer.game_id, role=viewer.role, event_hand=hand)


@router.post(
    "/{game_id}/cards/play",
    response_model=EventOut,
    summary="Play a random-event card from a side's hand: shown to everyone, then out of play",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def play_card(
    game_id: GameId,
    body: Annotated[
        PlayCardIn, Body(openapi_examples={"good shooting": {"value": {"side": "attacker", "card": "QD"}}})
    ],
    viewer: ViewerDep,
    session: SessionDep,
) -> EventOut:
    with game_write(session, game_id) as game:
        played = acts.play(session, game, viewer, PlayCard(side=body.side, card=body.card))
    return EventOut(**events_service.event_dict(played.event))


@router.post(
    "/{game_id}/cards/drawn",
    response_model=ResolvedOut,
    response_model_exclude_unset=True,
    summary="Enter the cards the side to move drew at the table from the club's own pack (a game option): "
    "kept as secret as cards firestep deals",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def cards_drawn(
    game_id: GameId,
    body: Annotated[CardsDrawnIn, Body(openapi_examples={"a card": {"value": {"cards": ["QC"]}}})],
    viewer: ViewerDep,
    session: SessionDep,
) -> ResolvedOut:
    with game_write(session, game_id) as game:
        played = acts.play(session, game, viewer, cards.drawn_at_table(game, body.cards))
    return played.answer


@router.patch(
    "/{game_id}",
    response_model=GameDetail,
    summary="Edit the game (referee): carries the version, 409 with the current state when stale",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def patch_game(
    game_id: GameId,
    body: Annotated[GamePatch, Body(openapi_examples={"rename": {"value": {"version": 1, "name": "Mons"}}})],
    viewer: ViewerDep,
    session: SessionDep,
) -> GameDetail:
    viewer.require_referee("edit the game")
    with game_write(session, game_id) as game:
        values = body.model_dump(exclude_none=True, exclude={"version"})
        if "variants" in values:
            from rules.registry import get_ruleset

            get_ruleset(game.ruleset).game_context(game.period, values["variants"], game.variants)
        if "terrain" in values:
            terrain(rules_of(game), values["terrain"], period=game.period)
        acts.edit_game(session, game, viewer, body.version, values)
    session.refresh(game)
    return game_out(game, GameDetail)


@router.post(
    "/{game_id}/credentials",
    response_model=Created,
    summary="New join codes and a new referee token (referee); every old token and join code is revoked",
    responses=errors.responses(401, 403, 404),
)
def reissue_credentials(
    game_id: GameId, viewer: ViewerDep, session: SessionDep, settings: SettingsDep
) -> Created:
    viewer.require_referee("issue new join codes")
    with unit_of_work(session):
        creds = seats.reissue_credentials(session, settings.secret_key, game_id)
    return Created(
        game=game_out(games.get_game(session, game_id)),
        referee_token=creds.referee_token,
        join_codes=creds.join_codes,
    )


class ArchivedOut(BaseModel):
    id: int
    archived: bool
    archived_at: datetime | None


@router.get(
    "/{game_id}/devices",
    response_model=list[DeviceOut],
    summary="The game's devices (referee): role, when issued, last seen, revoked",
    responses=errors.responses(401, 403, 404),
)
def list_devices(game_id: GameId, viewer: ViewerDep, session: SessionDep, page: PageDep) -> list[DeviceOut]:
    viewer.require_referee("see the game's devices")
    rows = page.of(seats.devices(session, game_id), lambda d: d.pk)
    return [seating.device_out(d, viewer.token_id) for d in rows]


@router.post(
    "/{game_id}/devices/{device_id}/revoke",
    response_model=DeviceOut,
    summary="Revoke one device (referee): its token answers 401 everywhere from now on",
    responses=errors.responses(401, 403, 404),
)
def revoke_device(game_id: GameId, device_id: DeviceId, viewer: ViewerDep, session: SessionDep) -> DeviceOut:
    viewer.require_referee("revoke a device")
    with unit_of_work(session):
        row = seats.revoke_game_device(session, game_id, device_id)
    return seating.device_out(row, viewer.token_id)


def _set_archived(session: Session, viewer: Viewer, game_id: int, archived: bool, doing: str) -> ArchivedOut:
    """The referee's archiving of the game, or bringing it back (`doing`: what a player is refused)."""
    viewer.require_referee(doing)
    with unit_of_work(session):
        game = games.set_archived(session, game_id, archived)
    return ArchivedOut(id=game.id, archived=game.archived_at is not None, archived_at=game.archived_at)


@router.post(
    "/{game_id}/archive",
    response_model=ArchivedOut,
    summary="Archive the game (referee): out of the lobby, still readable with its tokens",
    responses=errors.responses(401, 403, 404),
)
def archive(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> ArchivedOut:
    return _set_archived(session, viewer, game_id, True, "archive the game")


@router.delete(
    "/{game_id}/archive",
    response_model=ArchivedOut,
    summary="Bring an archived game back to the lobby (referee)",
    responses=errors.responses(401, 403, 404),
)
def unarchive(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> ArchivedOut:
    return _set_archived(session, viewer, game_id, False, "bring the game back from the archive")


@router.delete(
    "/{game_id}",
    status_code=204,
    response_class=Response,
    summary="Delete the game and everything under it (referee): sides, devices, units, plans, the log",
    responses=errors.responses(401, 403, 404),
)
def delete_game(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> Response:
    viewer.require_referee("delete the game")
    with unit_of_work(session):
        campaign_battles.delete_game(session, game_id)  # its campaign battle, if any, is abandoned (logged)
    return Response(status_code=204)


@router.get(
    "/{game_id}/turn",
    response_model=GameTurnOut,
    response_model_exclude_unset=True,
    summary="The turn sequence: whose turn, which step, what it needs, what comes next",
    responses=errors.responses(401, 403, 404),
)
def get_turn(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> GameTurnOut:
    return GameTurnOut.model_validate(result.turn_now(session, games.get_game(session, game_id)))


@router.post(
    "/{game_id}/turn/advance",
    response_model=AdvancedOut,
    response_model_exclude_unset=True,
    summary="Next step (the side to move or the referee); from set-up the referee starts the game (at an event's "
    "table each seat says it is ready, and the game starts at the second)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def advance(
    game_id: GameId,
    body: Annotated[AdvanceIn, Body(openapi_examples={"advance": {"value": {"version": 3}}})],
    viewer: ViewerDep,
    session: SessionDep,
) -> AdvancedOut:
    with game_write(session, game_id) as game:
        events = acts.play(session, game, viewer, AdvanceTurn(version=body.version)).events
    session.refresh(game)
    return AdvancedOut.model_validate(
        {
            "turn": result.turn_now(session, game),
            "events": [events_service.event_dict(e) for e in events if viewer.sees(e.visibility)],
        }
    )


@router.post(
    "/{game_id}/finish",
    response_model=GameTurnOut,
    response_model_exclude_unset=True,
    summary="End the game (the referee; at an event's table each seat, the game ending at the second): fire plans "
    "become verifiable by everyone",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def finish(game_id: GameId, body: AdvanceIn, viewer: ViewerDep, session: SessionDep) -> GameTurnOut:
    with game_write(session, game_id) as game:
        acts.finish_game(session, game, viewer, body.version)
    session.refresh(game)
    return GameTurnOut.model_validate(result.turn_now(session, game))


@router.post(
    "/{game_id}/resolve/{resolver}",
    response_model=ResolvedOut,
    response_model_exclude_unset=True,
    summary="Resolve a rule inside the game: modifiers from the game state, the result recorded and applied",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def resolve(
    game_id: GameId,
    resolver: Annotated[str, Path(max_length=64, examples=["order-roll"])],
    body: Annotated[
        ResolveIn,
        Body(
            openapi_examples={
                "order a company": {
                    "value": {"unit_id": 12, "fields": {"unit": "rifle-company"}, "dice": [4]}
                },
                "shoot at a platoon": {
                    "value": {
                        "unit_id": 30,
                        "target_id": 101,
                        "fields": {"firer": "mg", "target": "troops", "cover": "open", "range_cm": 30},
                        "dice": [5],
                    }
                },
                "morale of a battalion": {"value": {"unit_id": 8, "dice": [3]}},
            }
        ),
    ],
    viewer: ViewerDep,
    session: SessionDep,
) -> ResolvedOut:
    with game_write(session, game_id) as game:
        act = Roll(
            resolver=resolver,
            fields=body.fields,
            dice=body.dice,
            count=body.counted(),
            unit_id=body.unit_id,
            target_id=body.target_id,
            apply=body.apply,
            override=body.override,
        )
        played = acts.play(session, game, viewer, act)
    return played.answer


@router.post(
    "/{game_id}/ask/{resolver}",
    response_model=AskedOut,
    response_model_exclude_unset=True,
    summary="Work a roll out against the table without recording it: what the table fills, the odds, the "
    "answer for the dice given and what it would do to whom",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def ask(
    game_id: GameId,
    resolver: Annotated[str, Path(max_length=64, examples=["shooting"])],
    body: AskIn,
    viewer: ViewerDep,
    session: SessionDep,
) -> AskedOut:
    game = games.get_game(session, game_id)
    return AskedOut.model_validate(
        resolve_service.ask(
            session,
            game,
            viewer,
            resolver,
            body.fields,
            body.dice,
            body.unit_id,
            body.target_id,
            body.counted(),
        )
    )


@router.get(
    "/{game_id}/units/{unit_id}/acts",
    response_model=StandActsOut,
    summary="The rolls a stand's card offers this device now (order roll, shoot, assault, morale test), the "
    "unit edits it offers (unpack, limber, a command, a plan, digging in: `edits`), every act of the stand with "
    "the pipeline's refusal (`offers`), and when nothing is offered (out of turn) why, in one sentence",
    responses=errors.responses(401, 403, 404, 422),
)
def stand_acts(
    game_id: GameId, unit_id: Annotated[int, Path(ge=1, le=2**31 - 1)], viewer: ViewerDep, session: SessionDep
) -> StandActsOut:
    return StandActsOut.model_validate(
        card.stand_card(session, games.get_game(session, game_id), viewer, unit_id)
    )


@router.get(
    "/{game_id}/units/{unit_id}/targets/{resolver}",
    response_model=list[TargetMarkOut],
    summary="The stands a stand's roll (shooting) may not take as its target now, each with its reason (out of "
    "range, out of sight, out of arc ...), as /resolve would refuse them: the map marks them while a target is "
    "picked",
    responses=errors.responses(401, 403, 404, 422),
)
def target_marks(
    game_id: GameId,
    unit_id: Annotated[int, Path(ge=1, le=2**31 - 1)],
    resolver: Annotated[str, Path(max_length=64, examples=["shooting"])],
    viewer: ViewerDep,
    session: SessionDep,
) -> list[TargetMarkOut]:
    marks = resolve_service.target_marks(session, games.get_game(session, game_id), viewer, unit_id, resolver)
    return [TargetMarkOut.model_validate(m, from_attributes=True) for m in marks]


@router.get(
    "/{game_id}/report",
    response_model=ReportOut,
    summary="After-action report: the story of the game, the log by turn, losses by battalion, the rule book's "
    "casualty estimate and the luck ledger",
    responses=errors.responses(401, 403, 404),
)
def report(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> ReportOut:
    return ReportOut.model_validate(report_service.report(session, games.get_game(session, game_id), viewer))
