"""The scenario editor's terrain (issue 67): scenario-editor.js draws a piece with leaflet-geoman and posts the
table's terrain whole as it changes; the server judges each piece as the scenario API does (its geometry read and
checked with Shapely, on the table, the rule set's own refusals) and answers the list of pieces on the table
(`_scenario_terrain.html`), or a 422 saying the first piece's problem in one sentence (the page then keeps the
terrain as it was). A new or an edited scenario's terrain is kept in this browser's draft
(app.pages.scenario_drafts); a game's table in set-up is judged only (the table's Save sends it to the game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from pydantic import Field, TypeAdapter, ValidationError
from shapely.geometry import box

from app.core.routing import Router
from app.data.bounded import (
    MAX_FORM_PART,
    MAX_SCENARIO_BYTES,
    Terrain,
    TerrainFeature,
    TerrainLineString,
    TerrainMultiPolygon,
    TerrainPolygon,
)
from app.data.numbers import whole_number
from app.deps import GameId, SessionDep, SettingsDep
from app.pages.common import error_message
from app.pages.scenario_drafts import draft_write, edited, new, refused
from app.pages.scenario_editor import editor_data, kind_names
from app.pages.seats import Refused, table_editor
from app.pages.templates import humanise, templates
from app.pages.terrain_kinds import MAX_HEIGHT_CM, NUMBER, OWNERS
from app.sentences import error_words, field_names, sentence
from app.services import scenario_drafts as drafts
from app.services.scenarios import playable
from rules.core.errors import RulesError
from rules.core.scenario import EDGE_TOLERANCE_CM
from rules.table.terrain import feature_from_geojson, widening_refused

router = Router(include_in_schema=False)

MAX_PIECE_NAME = 100  # a piece's name as its panel's input takes it (_terrain_kind.html's maxlength)
CROSSING = "Self-intersection"
GEOMETRY: TypeAdapter[TerrainPolygon | TerrainMultiPolygon | TerrainLineString] = TypeAdapter(
    Annotated[TerrainPolygon | TerrainMultiPolygon | TerrainLineString, Field(discriminator="type")]
)  # Shapely's reason for an outline that crosses itself


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
    a piece drawn added to it (`add`) or a piece's edit made (`piece`, its place in it: `name`, `piece_class`, `delete`)."""
    posted = await request.form(max_part_size=MAX_FORM_PART)
    raw = posted.get("terrain")
    if not raw:  # the page always sends its collection, empty or not: a post without it would wipe the table
        return refused("Terrain: send the table's terrain, a GeoJSON FeatureCollection.", 422)
    if not isinstance(raw, str) or len(raw) > MAX_SCENARIO_BYTES:
        return refused(f"Terrain: at most {MAX_SCENARIO_BYTES:,} characters of GeoJSON.", 422)
    return _edited(_valid(raw), {k: v for k, v in posted.items() if isinstance(v, str)}, ruleset_id)


def _valid(terrain: str | list[TerrainFeature]) -> Terrain | Response:
    """The terrain, as posted or as edited here (its pieces checked again whole), within the format's bounds;
    else its first field refused."""
    try:
        if isinstance(terrain, str):
            return Terrain.model_validate_json(terrain)
        return Terrain.model_validate({"features": [f.model_dump(exclude_unset=True) for f in terrain]})
    except ValidationError as e:  # the first field refused, by its name (a vertex's index names nothing)
        first = e.errors()[0]
        names = [n for n in field_names(first["loc"]) if n != "terrain"]  # "Terrain terrain: ..." once
        named = f"Terrain {humanise(names[-1]).lower()}" if names else "Terrain"
        return refused(f"{named}: {error_words(first)}", 422)


def _edited(terrain: Terrain | Response, posted: Mapping[str, str], ruleset_id: str) -> Terrain | Response:
    """The terrain with a piece drawn added (`add`), or one piece's edit made as its panel asks (`piece`: renamed,
    an empty name its kind's and its number again; its class picked, none its kind's; or deleted); the terrain as
    posted when none is asked."""
    if isinstance(terrain, Response) or not {"add", "piece"} & posted.keys():
        return terrain
    features = list(terrain.features)
    if "add" in posted:
        added = _added(features, posted, ruleset_id)
        return added if isinstance(added, Response) else _valid([*features, added])
    at = whole_number(posted["piece"], len(features))
    if at is None:
        return refused("Piece: not a piece of the terrain drawn.", 422)
    properties = dict(features[at].properties)
    if "delete" in posted:
        del features[at]
        return _valid(features)
    if "name" in posted:
        name = posted["name"].strip()
        if len(name) > MAX_PIECE_NAME:
            return refused(f"Name: at most {MAX_PIECE_NAME} characters.", 422)
        properties.pop("name", None)
        properties |= {"name": name} if name else {}
    elif "piece_class" in posted:
        chosen = _class(posted, ruleset_id)
        if isinstance(chosen, Response):
            return chosen
        properties.pop(str(editor_data(ruleset_id)["class_property"]), None)
        properties |= chosen
    else:
        return refused("Piece: say its name, its class or its deletion.", 422)
    features[at] = features[at].model_copy(update={"properties": properties})
    return _valid(features)


def _class(posted: Mapping[str, str], ruleset_id: str) -> dict[str, str] | Response:
    """The class picked (`piece_class`) as a piece's property, or none for its kind's."""
    editor = editor_data(ruleset_id)
    chosen = posted.get("piece_class", "")
    if chosen and chosen not in {str(c["id"]) for c in editor["classes"]}:
        return refused("Class: not a class of terrain this rule set knows.", 422)
    return {str(editor["class_property"]): chosen} if chosen else {}


def _cm(posted: Mapping[str, str], field: str) -> float | Response | None:
    """A number of cm the tools say (`breadth`, `height`), from 0 to 100; None when left empty."""
    said = posted.get(field, "").strip()
    if not said:
        return None
    if not (NUMBER.fullmatch(said) and 0 <= float(said) <= MAX_HEIGHT_CM):
        return refused(f"{field.capitalize()}: from 0 to {MAX_HEIGHT_CM:g} cm.", 422)
    return float(said)


def _added(
    features: list[TerrainFeature], posted: Mapping[str, str], ruleset_id: str
) -> TerrainFeature | Response:
    """A piece drawn (`add`: its geometry in table cm) of the kind picked (`piece_kind`), with what the tools say
    as its kind has it: a line's `breadth`, a trench's `owner`, a hill's `height` above 0, its `piece_class`; its
    id the first `t<n>` free."""
    card = next((k for k in editor_data(ruleset_id)["kinds"] if k["kind"] == posted.get("piece_kind")), None)
    if card is None:
        return refused("Terrain kind: not a kind of terrain this rule set draws.", 422)
    try:
        geometry = GEOMETRY.validate_json(posted["add"])
    except ValidationError as e:
        return refused(f"Geometry: {error_words(e.errors()[0])}", 422)
    properties = {"kind": card["kind"]}
    breadth, height, chosen = _cm(posted, "breadth"), _cm(posted, "height"), _class(posted, ruleset_id)
    for said in (breadth, height, chosen):
        if isinstance(said, Response):
            return said
    if card["breadth"] and geometry.type == "LineString" and breadth:
        properties[card["breadth"]] = breadth
    if "owner" in card["properties"]:
        if posted.get("owner") not in OWNERS:
            return refused("Owner: the attacker or the defender.", 422)
        properties["owner"] = posted["owner"]
    if "height_cm" in card["properties"] and height:
        properties["height_cm"] = height
    properties |= chosen if isinstance(chosen, dict) else {}
    taken, n = {str(f.id) for f in features}, len(features) + 1
    while f"t{n}" in taken:
        n += 1
    return TerrainFeature(type="Feature", id=f"t{n}", properties=properties, geometry=geometry)


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
    editing = table_editor(request, session, settings, game_id)
    if isinstance(editing, Refused):
        return refused(sentence(editing.clause), editing.status)
    game = editing[0]
    terrain = await _read(request, game.ruleset)
    if isinstance(terrain, Response):
        return terrain
    table = {"width_cm": game.table_width_cm, "length_cm": game.table_length_cm}
    features = (game.terrain or {}).get("features")
    held = [f for f in features if isinstance(f, dict)] if isinstance(features, list) else []
    said = problem(terrain, game.ruleset, table, game.period, held)
    return refused(said, 422) if said is not None else _listed(request, terrain, game.ruleset)
