"""The scenario editor's objectives panel (`_scenario_objectives.html`): the list of the objectives drawn and the
selected one's form (name, worth, scoring, who sees it), rendered from this browser's draft of a new or an edited
scenario, or on a game's table from the collection its page holds (the game keeps it when the table is saved).
Each change is one post naming the objective by its id: a field of its form, one put down or moved or reshaped
(its geometry from scenario-objectives.js, which keeps only the map's gestures), one deleted or selected. The
whole collection is checked as the format checks it before it is kept or shown."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field, Json, ValidationError
from starlette.datastructures import FormData

from app.core.routing import Router
from app.data.bounded import MAX_FORM_PART, MAX_SCENARIO_BYTES, TerrainPolygon
from app.data.schemas_scenario import (
    DraftParticulars,
    ObjectiveFeature,
    ObjectivePoint,
    ObjectiveProperties,
    TableObjectives,
)
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Conflict
from app.pages.refused import PostedForm
from app.pages.scenario_drafts import edited, new, owner_for_change, refused, with_key
from app.pages.scenario_forces import _document, forces_url
from app.pages.seats import Refused, table_editor
from app.pages.templates import humanise, templates
from app.sentences import error_words, field_names, sentence
from app.services import scenario_drafts as drafts
from app.services import score
from app.services.writing import unit_of_work
from rules.core.errors import RulesError
from rules.core.scenario import MAX_TABLE_CM
from rules.table import objectives as O

router = Router(include_in_schema=False)
MAX_CM = MAX_TABLE_CM  # a tap's place, in table cm, within the largest table (its own size checked after)
MAX_GEOMETRY = 40_000  # characters of one objective's GeoJSON geometry (MAX_POINTS vertices at most)


Geometry = Annotated[ObjectivePoint | TerrainPolygon, Field(discriminator="type")]


class ObjectiveChange(BaseModel):
    """One post of the panel, as its form sends it (a field not sent is left as it was)."""

    do: Literal["select", "set", "add", "shape", "relocate", "delete"]
    objective_id: Annotated[str, Field(pattern=f"^$|{O.ID_PATTERN.pattern}")] = ""
    obj_name: Annotated[str, Field(max_length=O.MAX_NAME)] | None = None
    obj_vp: Annotated[int, Field(ge=0, le=O.MAX_VP)] | None = None
    obj_scored: Literal[tuple(k.scored for k in O.KINDS)] | None = None  # type: ignore[valid-type]
    obj_turns: Annotated[int, Field(ge=1, le=O.MAX_HELD_TURNS)] | None = None
    obj_consecutive: bool | None = None
    obj_secret_to: Literal["", "attacker", "defender"] | None = None
    obj_held_by: Literal["stands", "attacker", "defender"] | None = None
    obj_geometry: Json[Geometry] | None = None  # at most MAX_GEOMETRY characters (_read)
    obj_x: Annotated[float, Field(ge=-MAX_CM, le=MAX_CM)] | None = None  # where a move puts its middle
    obj_y: Annotated[float, Field(ge=-MAX_CM, le=MAX_CM)] | None = None


FIELDS = {"obj_name": "Name", "obj_vp": "Victory points", "obj_scored": "Scored", "obj_turns": "Turns held"}


def _fresh_id(features: list[ObjectiveFeature]) -> str:
    taken = {f.id for f in features}
    n = len(features) + 1
    while f"objective-{n}" in taken:
        n += 1
    return f"objective-{n}"


def changed(
    features: list[ObjectiveFeature], change: ObjectiveChange
) -> tuple[list[ObjectiveFeature], str | None, str]:
    """The objectives after one change, the one selected after it, and what it did in a sentence (or "")."""
    found = next((f for f in features if f.id == change.objective_id), None)
    if change.do == "select":  # none (""), or one gone since: none selected
        return features, found.id if found else None, ""
    if change.do != "add" and found is None:
        raise RulesError("objective_id", "no such objective: the list was read again")
    geometry = change.obj_geometry
    if change.do in ("add", "shape") and geometry is None:
        raise RulesError("obj_geometry", "a GeoJSON point or polygon is needed")
    if change.do == "add" and geometry is not None:
        if len(features) >= O.MAX_OBJECTIVES:
            raise RulesError("table_objectives", f"a scenario has at most {O.MAX_OBJECTIVES} objectives")
        made = _fresh_id(features)
        name = f"Objective {made.rsplit('-', 1)[1]}"
        properties = ObjectiveProperties(name=name, vp=1, scored="each_turn")
        features.append(ObjectiveFeature(type="Feature", id=made, geometry=geometry, properties=properties))
        return features, made, f"{name} placed: name it and give its worth."
    assert found is not None
    if change.do == "delete":
        return [f for f in features if f is not found], None, f"{found.properties.name} deleted."
    update: dict[str, object] = {}
    if change.do == "shape":
        update["geometry"] = geometry
    if change.do == "relocate":
        if change.obj_x is None or change.obj_y is None:
            raise RulesError("obj_x", "where its middle goes is needed")
        update["geometry"] = _relocated(found.geometry, change.obj_x, change.obj_y)
    if change.do == "set":
        update["properties"] = _set(found.properties, change)
    return [found.model_copy(update=update) if f is found else f for f in features], found.id, ""


def _relocated(g: ObjectivePoint | TerrainPolygon, x: float, y: float) -> ObjectivePoint | TerrainPolygon:
    """An objective moved whole so that its middle (its corners' mean, where the map labels it) is at (x, y),
    to a tenth of a cm as the editor places it."""
    if isinstance(g, ObjectivePoint):
        return ObjectivePoint(type="Point", coordinates=[round(x, 1), round(y, 1)])
    ring = g.coordinates[0]
    corners = ring[:-1] or ring
    dx, dy = (v - sum(p[i] for p in corners) / len(corners) for i, v in enumerate((x, y)))
    moved = [[round(p[0] + dx, 1), round(p[1] + dy, 1)] for p in ring]
    return TerrainPolygon(type="Polygon", coordinates=[moved])


def _set(p: ObjectiveProperties, c: ObjectiveChange) -> ObjectiveProperties:
    """An objective's properties as its form says them (a field not sent as it was): turns only where held for
    turns, the defaults ("by nobody", "both sides") left out. Checked whole with the collection after."""
    scored = c.obj_scored or p.scored
    held_for = scored == "held_turns"
    held_by = c.obj_held_by or p.held_by
    secret_to = p.secret_to if c.obj_secret_to is None else c.obj_secret_to
    return ObjectiveProperties.model_construct(
        name=p.name if c.obj_name is None else c.obj_name.strip(),
        vp=p.vp if c.obj_vp is None else c.obj_vp,
        scored=scored,
        held_by=None if held_by == "stands" else held_by,
        turns=(c.obj_turns or p.turns or 1) if held_for else None,
        consecutive=(p.consecutive or False if c.obj_consecutive is None else c.obj_consecutive)
        if held_for
        else None,
        secret_to=secret_to or None,
    )


def panel(collection: object, url: str, selected: str | None = None, game: bool = False) -> dict[str, object]:
    """What `_scenario_objectives.html` shows: each objective's line, the selected one's form, the collection
    for the map (scenario-objectives.js draws it) and, on a game's table, posted back with each change."""
    features = collection.get("features") if isinstance(collection, dict) else None
    listed = [f for f in (features if isinstance(features, list) else []) if isinstance(f, dict)]
    picked = next((f for f in listed if f.get("id") == selected), None)
    return {
        "objectives": [
            {
                "id": f.get("id"),
                "worth": f"{f['properties'].get('name') or f.get('id')} · {f['properties'].get('vp', 0)} VP",
            }
            for f in listed
        ],
        "picked": picked
        and {
            "id": picked["id"],
            "point": picked["geometry"]["type"] == "Point",
            **{k: picked["properties"].get(k) for k in O.PROPERTY_KEYS},
        },
        "objectives_json": {"type": "FeatureCollection", "features": listed},
        "objectives_url": url,
        "objectives_game": game,
        "objective_kinds": O.KINDS,
        "max_held_turns": O.MAX_HELD_TURNS,
    }


def draft_url(ruleset_id: str, scenario: str = "") -> str:
    return forces_url(ruleset_id, scenario).removesuffix("/forces") + "/objectives"


def shown(request: Request, session: SessionDep, ruleset_id: str, scenario: str = "") -> dict[str, object]:
    """The panel for the editor's page: this browser's draft's objectives (or the scenario's as saved)."""
    document = _document(request, session, ruleset_id, scenario)
    return panel(document.get("table_objectives"), draft_url(ruleset_id, scenario))


def _read(form: FormData) -> ObjectiveChange | Response:
    """The change posted, read from the form as posted, not by FastAPI's form model: FastAPI reads a blank field as
    one not sent, and this panel tells a name emptied, a secret made public or none selected from a field not sent
    (left as it was)."""
    values = {k: v for k, v in form.items() if k in ObjectiveChange.model_fields and isinstance(v, str)}
    # A number field emptied while typed, or a field the panel hides, says nothing.
    values = {
        k: v for k, v in values.items() if v != "" or k in ("objective_id", "obj_secret_to", "obj_name")
    }
    if len(values.get("obj_geometry", "")) > MAX_GEOMETRY:
        return refused(f"Geometry: at most {MAX_GEOMETRY:,} characters of GeoJSON.", 422)
    try:
        return ObjectiveChange.model_validate(values)
    except ValidationError as e:  # the first field refused, by its label
        first = e.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else "do"
        return refused(f"{FIELDS.get(name, humanise(name.removeprefix('obj_')))}: {error_words(first)}", 422)


def _invalid(e: ValidationError) -> Response:
    """The first field refused, by its name (a vertex's index names nothing)."""
    names = field_names(e.errors()[0]["loc"]) or ["table_objectives"]
    return refused(f"{humanise(names[-1])}: {error_words(e.errors()[0])}", 422)


def _checked(features: list[ObjectiveFeature]) -> TableObjectives | Response:
    """The collection after a change, checked whole as the format has it (a change's fields are not checked as
    they are made: an emptied name, say, is refused here by its field)."""
    dumped = [f.model_dump(mode="json", exclude_none=True) for f in features]
    try:
        return TableObjectives.model_validate({"type": "FeatureCollection", "features": dumped})
    except ValidationError as e:
        return _invalid(e)


def _refused_answer(e: RulesError) -> Response:
    """A whole objective refused (`...features.<i>`) is named by its place in the list; a change by its field."""
    at = e.field.rsplit(".", 1)[-1]
    if at.isdecimal():
        return refused(f"Objective {int(at) + 1}: {e.message}", 422)
    return refused(f"{FIELDS.get(at, humanise(at.removeprefix('obj_')))}: {e.message}", 422)


def _answer(request: Request, parts: dict[str, object], do: str, said: str) -> Response:
    """The whole panel (the form of the one selected), or after a field or a geometry changed only its list (the
    form being typed in, the shape being reshaped, stay): where it goes named by the answer (HX-Retarget), found
    as it arrives (a post waits its turn: the panel it was made in may have been swapped since)."""
    listed = do in ("set", "shape", "relocate")
    page = "_scenario_objective_list.html" if listed else "_scenario_objectives.html"
    answer = templates.TemplateResponse(request, page, parts | {"said": said, "focus_name": do == "add"})
    answer.headers["HX-Retarget"] = "#scn-objective-list" if listed else "#scn-objective-panel"
    answer.headers["HX-Reswap"] = "outerHTML"
    return answer


def _post(
    request: Request, session: SessionDep, target: tuple[str, str] | Response, form: FormData
) -> Response:
    """One change to this browser's draft's objectives, kept as the format checks them on the draft's table."""
    if isinstance(target, Response):
        return target
    ruleset, scenario = target
    change = _read(form)
    if isinstance(change, Response):
        return change
    document = _document(request, session, ruleset, scenario)
    held = document.get("table_objectives")
    try:
        kept = TableObjectives.model_validate(held).features if isinstance(held, dict) else []
        features, selected, said = changed(list(kept), change)
    except ValidationError as e:
        return _invalid(e)
    except RulesError as e:
        return _refused_answer(e)
    if change.do == "select":  # nothing changes: the panel as the draft (or the scenario as saved) has it
        return _answer(request, panel(held, draft_url(ruleset, scenario), selected), change.do, said)
    objectives = _checked(features)
    if isinstance(objectives, Response):
        return objectives
    found = owner_for_change(request, session, ruleset, scenario)
    if isinstance(found, Response):
        return found
    owner, minted = found
    try:
        with unit_of_work(session):
            draft = drafts.set_objectives(session, owner, ruleset, objectives, scenario)
            parts = panel(draft.document.get("table_objectives"), draft_url(ruleset, scenario), selected)
            # A new scenario's "an objective taken wins" offers the objectives the draft now holds.
            taken = {"draft": DraftParticulars.of(draft.document), "taken_oob": True} if not scenario else {}
            choices = drafts.public_objectives(draft.document)
    except RulesError as e:
        return _refused_answer(e)
    except Conflict as e:
        return refused(str(e.message), 409)
    return with_key(_answer(request, parts | taken | {"taken_choices": choices}, change.do, said), minted)


@router.post("/scenarios/new/{ruleset_id}/objectives", response_class=HTMLResponse)
def post_objectives(ruleset_id: str, request: Request, session: SessionDep, form: PostedForm) -> Response:
    return _post(request, session, new(request, ruleset_id), form)


@router.post("/scenarios/{scenario_id}/edit/objectives", response_class=HTMLResponse)
def post_edited_objectives(
    scenario_id: str, request: Request, session: SessionDep, form: PostedForm
) -> Response:
    return _post(request, session, edited(request, session, scenario_id), form)


@router.post(
    "/games/{game_id}/table/objectives",
    response_class=HTMLResponse,
    form_limits={"max_part_size": MAX_FORM_PART},
)
def post_game_objectives(
    game_id: GameId,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    form: PostedForm,
    objectives_held: Annotated[str, Form()] = '{"features": []}',  # bounded below, said in words
) -> Response:
    """One change to a game's table's objectives as its page holds them (posted back whole, `objectives_held`):
    the referee's only, before the game starts; nothing kept here (the table's Save sends them to the game)."""
    editing = table_editor(request, session, settings, game_id)
    if isinstance(editing, Refused):
        return refused(sentence(editing.clause), editing.status)
    game = editing[0]
    change = _read(form)
    if isinstance(change, Response):
        return change
    if len(objectives_held) > MAX_SCENARIO_BYTES:
        return refused(f"Table objectives: at most {MAX_SCENARIO_BYTES:,} characters of GeoJSON.", 422)
    try:  # the page's own collection, checked as any before the change is made to it
        features, selected, said = changed(
            list(TableObjectives.model_validate_json(objectives_held).features), change
        )
    except ValidationError as e:
        return _invalid(e)
    except RulesError as e:
        return _refused_answer(e)
    objectives = _checked(features)
    if isinstance(objectives, Response):
        return objectives
    collection = objectives.model_dump(mode="json", exclude_unset=True)
    try:  # as the table's Save will judge them (a forged secret one was taken here, refused there)
        score.objectives_edited(game, collection)
    except RulesError as e:
        return _refused_answer(e)
    except Conflict as e:
        return refused(sentence(str(e.message)), 409)
    parts = panel(collection, f"/games/{game_id}/table/objectives", selected, game=True)
    return _answer(request, parts, change.do, said)
