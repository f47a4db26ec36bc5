"""A game's table saved from the scenario editor before the game starts (issue 67): the page posts the table as
drawn (its terrain, its objectives and each placed stand's place), and the server writes what differs from the
game as the API would (one edit of the game over the version the page holds, then each stand moved over its own
version), the first refusal stopping the rest (what was saved before it stays saved). Its answer is the Save
panel's message (`_game_table_said.html`) and, out of band, the versions the page's next save goes over. A save
stops between two stands once it has spent its CPU budget (table_save_cpu_seconds) and answers what it saved with
a carry-on request the page sends by itself over the versions answered (each stand saved once; one act each)."""

from __future__ import annotations

import math
import time
from typing import Annotated, Any

from fastapi import Form, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError, field_validator
from sqlmodel import Session

from app.core.config import Settings
from app.core.routing import Router
from app.data.board_state import read_board
from app.data.bounded import MAX_FORM_PART, MAX_SCENARIO_BYTES, Float, Terrain, Version
from app.data.models import Game, Unit
from app.data.schemas_scenario import TableObjectives
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Conflict, Forbidden, Unauthorized
from app.pages.club_save import detail, not_done, refusal
from app.pages.refused import PageRoute, Refusal, posted, status_of
from app.pages.seats import Refused, table_editor
from app.pages.templates import templates
from app.sentences import MAX_DETAIL, sentence, short
from app.services import acts
from app.services import units as units_service
from app.services.markers import rules_of
from app.services.writing import game_write
from rules.core.acts import MoveStand
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import terrain as checked_terrain

router = Router(
    include_in_schema=False,
    route_class=PageRoute,
    form_limits={"max_fields": 8, "max_part_size": MAX_FORM_PART},
)

# A game's stands, at most (a side's order of battle is a few hundred stands).
MOST_STANDS = 2_000
STALE = "not saved: the game was changed elsewhere; reload the page to edit the table as it is now."


class Placement(BaseModel):
    """A stand's place as the scenario format writes it: its centre in cm and its facing."""

    model_config = ConfigDict(extra="forbid")

    center: tuple[Annotated[Float, Field(ge=0, le=1000)], Annotated[Float, Field(ge=0, le=1000)]]
    facing_deg: Annotated[Float, Field(ge=-360, le=360)] = 90.0


class StandPlace(BaseModel):
    """A placed stand as the page holds it: its unit's id in the game and its placement."""

    model_config = ConfigDict(extra="forbid")

    id: Annotated[int, Field(ge=1)]
    placement: Placement


class PostedTable(BaseModel):
    """The table as the page draws it (the `table` field, JSON)."""

    model_config = ConfigDict(extra="forbid")

    terrain: Terrain
    table_objectives: TableObjectives
    stands: Annotated[list[StandPlace], Field(max_length=MOST_STANDS)] = []

    @field_validator("stands")
    @classmethod
    def each_stand_once(cls, stands: list[StandPlace]) -> list[StandPlace]:
        """A stand listed twice is no table the page draws: each would be one more move (2,000 entries of one
        stand were 24 s of CPU: session 20's hostile pass)."""
        if len({s.id for s in stands}) != len(stands):
            raise ValueError("each stand once")
        return stands


class Versions(BaseModel):
    """The versions the page's save goes over (the `saved` field, JSON, as this module rendered it)."""

    model_config = ConfigDict(extra="forbid")

    version: Version
    stands: Annotated[dict[str, Version], Field(max_length=MOST_STANDS)] = {}


def versions(game: Game, units: list[Unit]) -> dict[str, object]:
    """The page's context: the game's version and each unit's, as its first save goes over them."""
    return {"table_saved": {"version": game.version, "stands": {str(u.id): u.version for u in units}}}


def _plain(value: Any) -> JsonValue:
    """A JSON value compared as JSON reads it (a whole-numbered float and its int the same number)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _said(
    request: Request, message: str, status: int, saved: Versions | None, carry_on: int | None = None
) -> Response:
    """The Save panel's message; `carry_on`, the game whose save the page carries on by itself (budget spent)."""
    context = {
        "message": message,
        "good": status < 400,
        "table_saved": saved.model_dump() if saved else None,
        "carry_on": carry_on,
    }
    return templates.TemplateResponse(request, "_game_table_said.html", context, status_code=status)


def of_stand(name: str, said: str) -> str:
    """`said` of a stand, named first and cut short so the sentence stays within MAX_DETAIL (a long name ran
    "{name} not saved: ..." past it: session 21's hostile pass); a refusal with no room for a name, alone."""
    room = MAX_DETAIL - len(said) - 1
    return f"{short(name, room)} {said}" if room >= 12 else sentence(said.removeprefix("not saved: "))


def _moved(unit: Unit, place: StandPlace) -> bool:
    if unit.x is None or unit.y is None:
        return True
    facing = unit.facing_deg if unit.facing_deg is not None else 90.0
    at = (*place.placement.center, place.placement.facing_deg)
    return not all(
        math.isclose(a, b, abs_tol=1e-6) for a, b in zip((unit.x, unit.y, facing), at, strict=True)
    )


class TableSave(BaseModel):
    """The Save form: the table as the page draws it and the versions it goes over, each a field of JSON read by its
    model (`PostedTable`, `Versions`), whose refusal names the path in it."""

    table: str = Field("", max_length=MAX_SCENARIO_BYTES)
    saved: str = Field("", max_length=MAX_SCENARIO_BYTES)


def _refused(request: Request, _session: Session, _settings: Settings, refused: Refusal) -> Response:
    """The Save panel saying why nothing was saved (a field of the form past its bound, named)."""
    return _said(request, not_done("saved", refused), refused.status, None)


@posted(router, "/games/{game_id}/table/save", _refused)
def save_table(
    game_id: GameId,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    form: Annotated[TableSave, Form()],
) -> Response:
    """The referee's Save the table: the terrain and objectives in one edit of the game over the version the page
    holds (a stale one refused), then each stand whose place differs from the game's moved over its version,
    stopping between two stands once the request has spent its CPU budget (the page's carry-on saves the rest)."""
    started = time.process_time()
    editing = table_editor(request, session, settings, game_id)
    if isinstance(editing, Refused):
        return _said(request, f"Not saved: {editing.clause}.", editing.status, None)
    game, seat = editing
    try:
        posted, held = PostedTable.model_validate_json(form.table), Versions.model_validate_json(form.saved)
    except ValidationError as e:
        return _said(request, refusal(e), 422, None)
    values: dict[str, Any] = {}
    terrain = posted.model_dump(exclude_none=True, include={"terrain"})["terrain"]
    if _plain(terrain) != _plain(game.terrain):
        values["terrain"] = terrain
    objectives = posted.table_objectives.model_dump(mode="json", exclude_unset=True)
    if _plain(objectives["features"]) != _plain(
        (read_board(game).table_objectives or {}).get("features", [])
    ):
        values["table_objectives"] = objectives
    done = 0
    if values:
        what = " and ".join(
            w for w, k in (("terrain", "terrain"), ("objectives", "table_objectives")) if k in values
        )
        try:
            if "terrain" in values:
                checked_terrain(rules_of(game), values["terrain"], period=game.period)
            with game_write(session, game_id) as locked:
                acts.edit_game(session, locked, seat.viewer, held.version, values)
        except (RulesError, ValidationError, NotFoundError, Conflict, Forbidden, Unauthorized) as e:
            session.rollback()
            if isinstance(e, Conflict) and game.version != held.version:
                return _said(request, f"The {what} {STALE}", 409, held)
            return _said(request, refusal(e, f"saved: the {what}"), status_of(e), held)
        session.refresh(game)
        held = held.model_copy(update={"version": game.version})
        done += 1
    units = {u.pk: u for u in units_service.list_units(session, game_id)}
    changed = [p for p in posted.stands if p.id in units and _moved(units[p.id], p)]
    for n, place in enumerate(changed):
        unit = units[place.id]
        if n and time.process_time() - started >= settings.table_save_cpu_seconds:
            said = f"Saved {n} of {len(changed)} stands: saving the rest..."
            return _said(request, said, 202, held, carry_on=game_id)  # 202: the rest still to come
        if (
            str(place.id) not in held.stands
        ):  # the page renders every stand's version: a move over none is stale
            return _said(request, of_stand(unit.name, STALE), 409, held)
        act = MoveStand(
            unit_id=place.id,
            x=place.placement.center[0],
            y=place.placement.center[1],
            facing_deg=place.placement.facing_deg,
            version=held.stands[str(place.id)],
        )
        try:
            with game_write(session, game_id) as locked:
                acts.play(session, locked, seat.viewer, act)
        except (RulesError, NotFoundError, Conflict, Forbidden, Unauthorized) as e:
            session.rollback()
            return _said(request, of_stand(unit.name, f"not saved: {detail(e)[1]}"), status_of(e), held)
        session.refresh(unit)
        held = held.model_copy(update={"stands": {**held.stands, str(place.id): unit.version}})
        done += 1
    said = "The table is saved to the game." if done else "Nothing has changed since the last save."
    return _said(request, said, 200, held)
