"""The scenario editor's terrain (issue 67): scenario-editor.js draws a piece with leaflet-geoman and posts the
table's terrain whole as it changes; the server judges each piece as the scenario API does (its geometry read and
checked with Shapely, on the table, the rule set's own refusals) and answers the list of pieces on the table
(`_scenario_terrain.html`), or a 422 saying the first piece's problem in one sentence (the page then keeps the
terrain as it was). A new or an edited scenario's terrain is kept in this browser's draft
(app.pages.scenario_drafts); a game's table in set-up is judged only (the table's Save sends it to the game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError
from shapely.geometry import box

from app.core.routing import Router
from app.data.bounded import MAX_SCENARIO_BYTES, Terrain
from app.data.models import Game
from app.deps import GameId, SessionDep, SettingsDep
from app.pages.common import error_message
from app.pages.scenario_drafts import draft_write, edited, new, refused
from app.pages.scenario_editor import editor_data, kind_names
from app.pages.seats import game_seat
from app.pages.templates import humanise, templates
from app.services import scenario_drafts as drafts
from app.services.scenarios import playable
from rules.core.errors import RulesError
from rules.core.scenario import EDGE_TOLERANCE_CM
from rules.table.terrain import feature_from_geojson, widening_refused

router = Router(include_in_schema=False)

MAX_PIECE_NAME = 100  # a piece's name as its panel's input takes it (_terrain_kind.html's maxlength)
CROSSING = "Self-intersection"  # Shapely's reason for an outline that crosses itself


def problem(
    terrain: Terrain,
    ruleset_id: str,
    table: Mapping[str, Any],
    period: str | None,
    held: Sequence[Mapping[str, Any]] = (),
) -> str | None:
    """The first drawn piece's problem as the scenario API judges a document's terrain (its geometry valid, on
    the `table` {width_cm, length_cm}, then the rule set's own refusals), in one sentence; None when all fit. A
    piece as `held` already (a game's own terrain, which may hang over the edge) is not asked to be on the table."""
    _, rules = playable()[ruleset_id]
    width, length = float(table["width_cm"]), float(table["length_cm"])
    edges = box(0, 0, width, length).buffer(EDGE_TOLERANCE_CM, join_style="mitre")
    names = kind_names(ruleset_id)
    checked = []
    kept = [f.get("geometry") for f in held]
    features = terrain.as_geojson()["features"]
    try:
        widening_refused(features, "terrain.features")
    except RulesError as e:
        return error_message(e)
    for i, f in enumerate(features):
        kind = str(f["properties"].get("kind"))
        what = names.get(kind, humanise(kind)).lower()
        try:
            feature = feature_from_geojson(f, f"terrain.features.{i}", wire_belt_cm=rules.book.wire_belt_cm)
        except RulesError as e:
            if CROSSING in e.message:
                return f"That {what} crosses itself: draw its outline without crossing."
            return error_message(e)
        if f["geometry"] not in kept and not edges.covers(feature.geometry):
            return f"That {what} goes off the table: every point must be on the {width:g} by {length:g} cm table."
        checked.append(feature)
    try:
        rules.terrain_refused(checked, period, "terrain.features")
    except RulesError as e:
        return error_message(e)
    return None


async def _read(request: Request, ruleset_id: str) -> Terrain | Response:
    """The terrain posted (`terrain`: the GeoJSON collection in table cm), bounded as the format bounds it, with
    a piece's edit made to it (`piece`, its place in the collection: its `name`, its `piece_class`, or `delete`)."""
    posted = await request.form()
    raw = posted.get("terrain")
    if not raw:  # the page always sends its collection, empty or not: a post without it would wipe the table
        return refused("Terrain: send the table's terrain, a GeoJSON FeatureCollection.", 422)
    if not isinstance(raw, str) or len(raw) > MAX_SCENARIO_BYTES:
        return refused(f"Terrain: at most {MAX_SCENARIO_BYTES} characters of GeoJSON.", 422)
    try:
        terrain = Terrain.model_validate_json(raw)
    except ValidationError as e:  # the first field refused, by its name (a vertex's index names nothing)
        first = e.errors()[0]
        names = [str(part) for part in first["loc"] if isinstance(part, str)] or ["terrain"]
        return refused(f"Terrain {humanise(names[-1]).lower()}: {first['msg']}", 422)
    return _edited(terrain, {k: v for k, v in posted.items() if isinstance(v, str)}, ruleset_id)


def _edited(terrain: Terrain, posted: Mapping[str, str], ruleset_id: str) -> Terrain | Response:
    """The terrain with one piece's edit made, as its panel asks: renamed (an empty name: its kind's and its
    number again), its class picked (none: its kind's), or deleted; the terrain as posted when none is asked."""
    if "piece" not in posted:
        return terrain
    key = posted["piece"]
    if not (key.isdigit() and int(key) < len(terrain.features)):
        return refused("Piece: not a piece of the terrain drawn.", 422)
    features = list(terrain.features)
    piece = features[int(key)]
    properties = dict(piece.properties)
    if "delete" in posted:
        del features[int(key)]
    elif "name" in posted:
        name = posted["name"].strip()
        if len(name) > MAX_PIECE_NAME:
            return refused(f"Name: at most {MAX_PIECE_NAME} characters.", 422)
        properties.pop("name", None)
        properties |= {"name": name} if name else {}
    elif "piece_class" in posted:
        editor = editor_data(ruleset_id)
        chosen, field = posted["piece_class"], str(editor["class_property"])
        if chosen and chosen not in {str(c["id"]) for c in editor["classes"]}:
            return refused("Class: not a class of terrain this rule set knows.", 422)
        properties.pop(field, None)
        properties |= {field: chosen} if chosen else {}
    else:
        return refused("Piece: say its name, its class or its deletion.", 422)
    if "delete" not in posted:
        features[int(key)] = piece.model_copy(update={"properties": properties})
    return terrain.model_copy(update={"features": features})


def _listed(request: Request, terrain: Terrain, ruleset_id: str) -> Response:
    parts = {"terrain": terrain.as_geojson(), "kind_names": kind_names(ruleset_id)}
    return templates.TemplateResponse(request, "_scenario_terrain.html", parts)


async def _terrain(request: Request, session: SessionDep, target: tuple[str, str] | Response) -> Response:
    """The terrain drawn kept in this browser's draft, whole, once each piece fits the draft's table."""
    if isinstance(target, Response):
        return target
    ruleset_id, scenario = target
    terrain = await _read(request, ruleset_id)
    if isinstance(terrain, Response):
        return terrain

    def write(owner: str) -> Response:
        draft = drafts.set_terrain(session, owner, ruleset_id, terrain, scenario)
        document = draft.document
        table = document.get("table")
        said = problem(terrain, ruleset_id, table if isinstance(table, dict) else {}, _period(document))
        if said is not None:
            raise _Refused(said)  # nothing kept: the unit of work ends without its commit
        return _listed(request, terrain, ruleset_id)

    try:
        return draft_write(request, session, ruleset_id, scenario, write)
    except _Refused as e:
        return refused(str(e), 422)


class _Refused(Exception):
    """A drawn piece the rules do not take: its sentence."""


def _period(document: Mapping[str, Any]) -> str | None:
    period = document.get("period")
    return str(period) if period else None


@router.post("/scenarios/new/{ruleset_id}/terrain", response_class=HTMLResponse)
async def post_terrain(ruleset_id: str, request: Request, session: SessionDep) -> Response:
    return await _terrain(request, session, new(request, ruleset_id))


@router.post("/scenarios/{scenario_id}/edit/terrain", response_class=HTMLResponse)
async def post_edited_terrain(scenario_id: str, request: Request, session: SessionDep) -> Response:
    return await _terrain(request, session, edited(request, session, scenario_id))


@router.post("/games/{game_id}/table/terrain", response_class=HTMLResponse)
async def post_game_terrain(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """A game's table's terrain as its page holds it, judged on the game's table: the referee's only, before the
    game starts; nothing kept here (the table's Save sends it to the game)."""
    game = session.get(Game, game_id)
    seat = game_seat(request, session, settings, game_id) if game else None
    if game is None or seat is None or not seat.viewer.is_referee:
        return refused("Only the game's referee edits its table.", 403)
    if game.status != "setup":
        return refused("The game has started: its table can be edited only before it starts.", 409)
    terrain = await _read(request, game.ruleset)
    if isinstance(terrain, Response):
        return terrain
    table = {"width_cm": game.table_width_cm, "length_cm": game.table_length_cm}
    features = (game.terrain or {}).get("features")
    held = [f for f in features if isinstance(f, dict)] if isinstance(features, list) else []
    said = problem(terrain, game.ruleset, table, game.period, held)
    return refused(said, 422) if said is not None else _listed(request, terrain, game.ruleset)
