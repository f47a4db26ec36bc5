"""Templates on the shared table: place, move or turn, and remove the templates every device of the game sees
(kept in the game's board, each change logged as an event so the open maps follow it)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Body, Path, Query
from pydantic import BaseModel, ConfigDict, Field, model_validator

from app import errors
from app.core.routing import Router
from app.data.bounded import Float, Version
from app.data.schemas import Override
from app.data.schemas_table import TemplateOut
from app.deps import GameId, SessionDep
from app.guard.auth import ViewerDep
from app.services import acts, games
from app.services import events as events_service
from app.services import templates as templates_service
from app.services.writing import game_write
from rules.core.acts import LayTemplate, MoveTemplate, RemoveTemplate
from rules.core.vocabulary import Side

router = Router(prefix="/api/v1/games/{game_id}/templates", tags=["templates"])

TemplateId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Template id")]
X = Annotated[Float, Field(ge=0, le=1000, description="cm from the attacker's left-hand edge")]
Y = Annotated[Float, Field(ge=0, le=1000, description="cm from the attacker's base edge")]
Rotation = Annotated[
    Float,
    Field(
        ge=-360,
        le=360,
        description="Degrees CCW from +x: the template's depth runs this way; 90 faces the defender",
    ),
]


class TemplatesOut(BaseModel):
    last_event_id: int = Field(description="The templates are at least as new as this event.")
    templates: list[TemplateOut]


class TemplateChangedOut(BaseModel):
    event_id: int
    template: TemplateOut


class PlaceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: str = Field(min_length=1, max_length=48, description="A template of the game's rule set (its kit).")
    side: Side | None = Field(
        default=None, description="Whose template: a player's own by default; the referee names it."
    )
    x: X
    y: Y
    rotation: Rotation = 90.0
    override: Override = False


class TemplateMoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    x: X | None = None
    y: Y | None = None
    rotation: Rotation | None = None
    version: Version | None = Field(default=None, description="When given, a stale version gets 409.")
    override: Override = False

    @model_validator(mode="after")
    def _changes_something(self) -> TemplateMoveIn:
        if self.x is None and self.y is None and self.rotation is None:
            raise ValueError("give x, y or rotation (or several)")
        return self


@router.get(
    "",
    response_model=TemplatesOut,
    summary="The templates on the table, as of an event id",
    responses=errors.responses(401, 403, 404),
)
def list_templates(game_id: GameId, viewer: ViewerDep, session: SessionDep) -> TemplatesOut:
    # The event id first: the templates read after it are at least that new.
    as_of = templates_service.last_event_id(session, game_id, events_service.roles_of(viewer))
    game = games.get_game(session, game_id)
    return TemplatesOut(
        last_event_id=as_of, templates=[TemplateOut(**t) for t in templates_service.templates_of(game)]
    )


@router.post(
    "",
    response_model=TemplateChangedOut,
    status_code=201,
    summary="Place a template on the table (a player's own side, in set-up or its own turn; the referee names "
    "the side)",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def place_template(
    game_id: GameId,
    body: Annotated[
        PlaceIn, Body(openapi_examples={"artillery": {"value": {"kind": "artillery", "x": 60, "y": 80}}})
    ],
    viewer: ViewerDep,
    session: SessionDep,
) -> TemplateChangedOut:
    with game_write(session, game_id) as game:
        played = acts.play(session, game, viewer, LayTemplate(**body.model_dump()))
    return TemplateChangedOut(event_id=played.event.pk, template=played.answer)


@router.patch(
    "/{template_id}",
    response_model=TemplateChangedOut,
    summary="Move or turn a template (its side's player or the referee); with `version`, 409 when stale",
    responses=errors.responses(401, 403, 404, 409, 422),
)
def move_template(
    game_id: GameId,
    template_id: TemplateId,
    body: Annotated[TemplateMoveIn, Body(openapi_examples={"turn": {"value": {"rotation": 135}}})],
    viewer: ViewerDep,
    session: SessionDep,
) -> TemplateChangedOut:
    with game_write(session, game_id) as game:
        act = MoveTemplate(template_id=template_id, **body.model_dump())
        played = acts.play(session, game, viewer, act)
    return TemplateChangedOut(event_id=played.event.pk, template=played.answer)


@router.delete(
    "/{template_id}",
    response_model=TemplateChangedOut,
    summary="Take a template off the table (its side's player in set-up or its own turn, or the referee)",
    responses=errors.responses(401, 403, 404, 409),
)
def remove_template(
    game_id: GameId,
    template_id: TemplateId,
    viewer: ViewerDep,
    session: SessionDep,
    override: Annotated[
        bool, Query(description="Referee only: take it off although the rules of play do not allow it now.")
    ] = False,
) -> TemplateChangedOut:
    with game_write(session, game_id) as game:
        played = acts.play(session, game, viewer, RemoveTemplate(template_id=template_id, override=override))
    return TemplateChangedOut(event_id=played.event.pk, template=played.answer)
