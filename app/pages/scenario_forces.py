"""A new scenario's forces kept in the browser's draft (issue 67; app.services.scenario_forces): the forces
panel's posts (a formation added from a table or the chart, regraded, renamed, removed) are kept in the draft and
answered by the side's formations as the server renders them (`_scenario_formations.html`), with the forces as
a JSON island for the map's deployment (scenario-deploy.js draws the stands from it); the Deploy tab's list of
formations and stands (`_scenario_deploy.html`) is read from the draft after each placement kept. A table's
formations are offered as `<option>`s the server lists. A refused value is a 422 naming its field in one sentence (net-status.js
shows it); CSRF as every post (app.guard.security)."""

from __future__ import annotations

import json
from collections.abc import Container
from dataclasses import dataclass
from typing import TypedDict

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import ValidationError
from shapely import Polygon
from starlette.datastructures import FormData

from app.core.routing import Router
from app.data.models import ScenarioDraft
from app.data.schemas_scenario import (
    FormationChanged,
    FormationDeployed,
    FormationPicked,
)
from app.deps import SessionDep
from app.errors import Conflict, refusal
from app.guard.security import NOTICE_HEADER
from app.pages.common import error_message
from app.pages.refused import PostedForm
from app.pages.scenario_drafts import DRAFT_COOKIE, owner_for_change, refused, with_key
from app.pages.scenario_drafts import edited as _edited
from app.pages.scenario_drafts import new as _new
from app.pages.scenario_drafts import playable as _playable
from app.pages.templates import humanise, templates
from app.services import scenario_drafts as drafts
from app.services import scenario_forces as forces
from app.services import scenarios as scenarios_service
from app.services.writing import unit_of_work
from rules.core import scenario as S
from rules.core.errors import RulesError
from rules.core.forces import chart_dict
from rules.registry import get_game_rules
from rules.table.frame import oriented_rect
from rules.table.layout import lay_out

# The gap between stands the editor lays out in line: firestep's spacing (as the game's own default deployment
# has), not a rule; each side's stands laid out face the enemy (the document's frame: 90 faces the defender).
LAYOUT_GAP_CM = 1.0
FACING = {"attacker": 90, "defender": 270}

router = Router(include_in_schema=False)


@dataclass(frozen=True)
class Shown:
    """A formation as the forces panel lists it: a unit tree of the format, or an organisation-table entry
    written by hand (`entry`: the game builds it), with the grades it may take and why not where it may not."""

    id: str
    name: str
    level: str = ""
    stands: int = 0
    entry: bool = False
    quality: str | None = None
    grades: tuple[str, ...] = ()
    by_reading: bool = False
    fixed: bool = True
    note: str = ""


def _shown(ruleset_id: str, side: str, i: int, unit: forces.Json) -> Shown:
    unit_id = str(unit.get("id") or f"entry-{i}")
    if unit.get("table_id"):
        grade = f", {unit['quality']}" if isinstance(unit.get("quality"), str) else ""
        return Shown(
            unit_id,
            str(unit.get("name") or humanise(f"{unit['table_id']} {unit.get('template') or ''}".strip())),
            entry=True,
            note=f"Built from the {unit['table_id']} table{grade}, and lined up at the {side}'s base edge when "
            "the game starts.",
        )
    quality = unit.get("quality")
    name, level, stands = (
        str(unit.get("name") or unit_id),
        str(unit.get("level") or ""),
        forces.stands_of(unit),
    )
    if isinstance(quality, dict):  # a grade per reading of an erratum: shown, changed in the file only
        note = f"The grade depends on the reading of {quality.get('by_reading')} (see Errata)."
        return Shown(unit_id, name, level, stands, by_reading=True, note=note)
    source = str(unit.get("source") or "")
    table = next((t for t in forces.org_tables(ruleset_id) if source.startswith(f"{t['source']}:")), None)
    chart = get_game_rules(ruleset_id).book.force_chart
    grades = table["qualities"] if table else chart.qualities if chart else [quality] if quality else []
    fixed = bool(unit.get("gun")) or unit.get("kind") in forces.crewed_kinds(ruleset_id) or not quality
    note = ("Crewed weapons keep their own grade." if fixed else table["quality_rule"]) if table else ""
    return Shown(unit_id, name, level, stands, False, quality, tuple(grades), False, fixed, note)


@dataclass(frozen=True)
class Standing:
    """A stand as the Deploy tab offers it to place: its name under its formation, and where it stands (`placed`,
    `not placed` or `outside its zone`)."""

    id: str
    label: str
    where: str


@dataclass(frozen=True)
class Deploying:
    """A formation as the Deploy tab lists it: an organisation-table entry (`note`: the game lines it up), or its
    stands to place one by one."""

    id: str
    name: str
    note: str = ""
    off_table: bool = False
    stands: tuple[Standing, ...] = ()
    layout: str = ""  # its Lay out button's plan (JSON): app.pages.scenario_forces.deploy_context

    @property
    def placed(self) -> int:
        return sum(1 for s in self.stands if s.where != "not placed")


class _Placement(TypedDict, total=False):
    center: list[float]
    facing_deg: float | None


class _Unit(TypedDict, total=False):
    """A unit of a document's forces as the Deploy tab reads it (app/services/scenario_forces.py writes it)."""

    id: str
    name: str
    base: str
    children: list[_Unit]
    placement: _Placement


def _labelled(formation: _Unit) -> list[tuple[_Unit, str]]:
    """Each stand with the boxes between it and its formation ("Infantry Company 2 · Infantry Platoon 1"): two
    "Infantry Platoon 1"s of a battalion are told apart."""
    out: list[tuple[_Unit, str]] = []

    def visit(unit: _Unit, path: list[str]) -> None:
        here = [] if unit is formation else [*path, str(unit.get("name") or "")]
        if unit.get("base"):
            out.append((unit, " · ".join(here) or str(unit.get("name") or unit.get("id"))))
        for child in unit.get("children") or []:
            visit(child, here)

    visit(formation, [])
    return out


def deploy_context(ruleset_id: str, document: forces.Json, moves_only: bool = False) -> dict[str, object]:
    """What `_scenario_deploy.html` shows of a document's stands: each side's formations, the names of the
    stands outside their side's zone (its corners as the map draws them, a round base as its square), the map's
    counts and marks (`judged`: how many stands are placed, and the ids of those outside), each stand's name
    under its formation by its id (the map's labels, a formation still to arrive among them), and whether
    stands are only moved (a game's table: none laid out or taken off)."""
    bases = get_game_rules(ruleset_id).book.kit.bases

    def size(stand: _Unit) -> tuple[float, float]:
        spec = bases.get(str(stand.get("base")))
        return (spec.width_cm, spec.width_cm if spec.shape == "round" else spec.depth_cm) if spec else (2, 2)

    def footprint(stand: _Unit) -> Polygon | None:
        at = stand.get("placement")
        facing = at.get("facing_deg") if at else None
        if not at:
            return None
        x, y = at["center"]
        return oriented_rect((x, y), 90 if facing is None else facing, *size(stand))

    def where(side: str, box: Polygon | None) -> str:
        """Where a stand of the side whose footprint is `box` stands, as the list and the map say it."""
        zone = zones[side]
        if box is None:
            return "not placed"
        return "placed" if zone is None or zone.covers(box) else "outside its zone"

    def judged(stands: dict[str, str], only: Container[str] | None = None) -> dict[str, object]:
        """The map's counts and marks of the stands where they stand (`stands`: by id, as `where` says), the
        marks of those `only` (a Lay out's own: the script keeps the others')."""
        out = [i for i, w in stands.items() if w == "outside its zone" and (only is None or i in only)]
        return {"placed": sum(w != "not placed" for w in stands.values()), "outside": out}

    def laid_out(side: str, name: str, mine: list[_Unit], ring: list[list[float]] | None) -> str:
        """The formation laid out as its Lay out button puts it (its stands' places, facing, and the sentence
        said), with the map's counts and marks once it is: around the side's other stands placed (the script
        disables the buttons until this is read again)."""
        if not ring:
            return json.dumps({"said": f"The {side} has no deployment zone: give its depth under Scenario."})
        own = {id(s) for s in mine}
        taken = [b.bounds for s, _ in placed[side] if id(s) not in own and (b := footprint(s)) is not None]
        sized = [(str(s.get("id")), *size(s)) for s in mine]
        bounds = Polygon(ring).bounds  # as drawn (not widened by the edge's tolerance)
        laid = lay_out(bounds, side == "attacker", sized, taken, LAYOUT_GAP_CM)
        n = len(laid.at)
        stands = f"{n} stand{'' if n == 1 else 's'}"  # one said in the singular (session 23's newcomer)
        said = f"{name}: {stands} laid out; {laid.left} did not fit in the zone (place them by hand or make the zone deeper)."
        at = [[i, x, y, FACING[side]] for i, (x, y) in laid.at.items()]
        done = f"{name} laid out in the {side}'s zone: {stands}."
        then = stood | {str(s.get("id")): "not placed" for s in mine}
        for s in mine:
            if (i := str(s.get("id"))) in laid.at:
                then[i] = where(side, oriented_rect(laid.at[i], FACING[side], *size(s)))
        # Its own stands' marks alone: every button carrying every stand's was the square of the forces (a
        # 7.5 MB list: session 20's hostile pass).
        return json.dumps(
            {"at": at, "said": said if laid.left else done, "done": not laid.left} | judged(then, laid.at)
        )

    deploying: dict[str, list[Deploying]] = {}
    labels: dict[str, str] = {}
    placed = {
        side: [p for u in document["sides"][side]["forces"] for p in _labelled(u)] for side in forces.SIDES
    }
    zones = {
        side: Polygon(z["coordinates"][0]).buffer(1e-6)
        if (z := document["sides"][side].get("deployment_zone"))
        else None
        for side in forces.SIDES
    }  # on its edge is in it
    stood = {str(s.get("id")): where(side, footprint(s)) for side in forces.SIDES for s, _ in placed[side]}
    for side in forces.SIDES:
        spec = document["sides"][side]
        drawn = spec.get("deployment_zone")
        deploying[side] = []
        for i, unit in enumerate(spec["forces"]):
            shown = _shown(ruleset_id, side, i, unit)
            mine = _labelled(unit)
            labels.update((str(s.get("id")), label) for s, label in mine)
            stands = (
                ()
                if shown.entry
                else tuple(Standing(str(s.get("id")), label, stood[str(s.get("id"))]) for s, label in mine)
            )
            plan = (
                ""
                if shown.entry or moves_only
                else laid_out(
                    side, shown.name, [s for s, _ in mine], drawn["coordinates"][0] if drawn else None
                )
            )
            note = shown.note if shown.entry else ""
            deploying[side].append(
                Deploying(shown.id, shown.name, note, bool(unit.get("off_table")), stands, plan)
            )
    outside = [
        str(s.get("name"))
        for side in forces.SIDES
        for s, _ in placed[side]
        if stood[str(s.get("id"))] == "outside its zone"
    ]
    return {
        "deploying": deploying,
        "outside": outside,
        "judged": json.dumps(judged(stood)),
        "labels": labels,
        "moves_only": moves_only,
    }


def forces_url(ruleset_id: str, scenario: str = "") -> str:
    """Where the panel posts a draft's forces: a new scenario's, or the scenario's being edited."""
    return f"/scenarios/{scenario}/edit/forces" if scenario else f"/scenarios/new/{ruleset_id}/forces"


def context(ruleset_id: str, document: forces.Json, scenario: str = "") -> dict[str, object]:
    """What `_scenario_formations.html` shows of a draft's forces."""
    units = {side: document["sides"][side]["forces"] for side in forces.SIDES}
    return {
        "sides": {
            side: [_shown(ruleset_id, side, i, u) for i, u in enumerate(units[side])] for side in units
        },
        "forces": units,
        "forces_url": forces_url(ruleset_id, scenario),
    }


def _answer(
    request: Request,
    ruleset_id: str,
    draft: ScenarioDraft,
    minted: str | None,
    said: str | None,
    added: str | None = None,
) -> Response:
    """The formations as the change left them; after an add, its side's name field emptied (out of band) so the
    next formation takes its table's name unless named."""
    parts = context(ruleset_id, draft.document, draft.scenario) | {"said": said, "added": added}
    return with_key(templates.TemplateResponse(request, "_scenario_formations.html", parts), minted)


async def _change(
    request: Request,
    session: SessionDep,
    target: tuple[str, str] | Response,
    kind: str,
    form: FormData | None = None,
) -> Response:
    """One change to the draft's forces, of a kind (`add`, `change`, `remove`: its `form` as posted, its fields
    named by the side or the formation; `deploy`: a JSON body), answered by its formations."""
    if isinstance(target, Response):
        return target
    ruleset, scenario = target
    try:
        if form is None:
            deployed, picked, changed = _deployed(await request.body()), None, None
        else:
            deployed = None
            picked, changed = _posted(request, form) if kind != "add" else (_picked(form), None)
    except ValidationError as e:
        return _refused(kind, error_message(e).split("; ")[0], 422)  # the first field refused, named
    except RulesError as e:
        return _refused(kind, error_message(e), 422)
    found = owner_for_change(request, session, ruleset, scenario)
    if isinstance(found, Response):
        return found
    owner, minted = found

    def apply(document: forces.Json) -> str | None:
        """The change made on the draft's document, and the sentence the page says of it (an add's, a removal's)."""
        if deployed is not None:
            if not len(deployed.stand) == len(deployed.x) == len(deployed.y) == len(deployed.facing):
                raise RulesError("stand", "give each stand placed its x, y and facing")
            at = zip(deployed.x, deployed.y, deployed.facing, strict=True)
            forces.deploy(
                document, deployed.formation, deployed.off_table, dict(zip(deployed.stand, at, strict=True))
            )
            return None
        if picked is not None:
            unit = added(document)
            n = forces.stands_of(unit)
            return f"{unit.get('name')} added to the {picked.side}: {n} stand{'' if n == 1 else 's'}."
        if changed is not None and kind == "remove":
            return f"{forces.remove(document, changed.formation)} removed."
        if changed is not None:
            if changed.quality:
                forces.regrade(ruleset, document, changed.formation, changed.quality)
            if changed.name:
                forces.rename(document, changed.formation, changed.name)
        return None

    def added(document: forces.Json) -> forces.Json:
        assert picked is not None
        if get_game_rules(ruleset).book.force_chart is not None:
            if len(picked.kind) != len(picked.bases):
                raise RulesError("bases", "give each row its kind and its number of bases")
            rows = [{"kind": k, "bases": b} for k, b in zip(picked.kind, picked.bases, strict=True)]
            entry = {"quality": picked.quality or None, "sub_units": rows}
            return forces.add_from_chart(
                ruleset, document, picked.side, entry | ({"name": picked.name} if picked.name else {})
            )
        return forces.add_from_table(
            ruleset,
            document,
            picked.side,
            picked.table,
            picked.formation,
            picked.quality or None,
            picked.name,
        )

    try:
        with unit_of_work(session):
            draft, said = drafts.change_forces(session, owner, ruleset, apply, scenario)
            answer = _answer(request, ruleset, draft, minted, said, picked.side if picked else None)
    except RulesError as e:
        return _refused(kind, error_message(e), 422)
    except Conflict as e:
        return _refused(kind, str(e.message), 409)
    # A deployment's post changes nothing the panel shows (the map has drawn it already): no fragment to swap.
    return with_key(Response(status_code=204), minted) if deployed is not None else answer


def _refused(kind: str, sentence: str, status: int) -> Response:
    """A refusal in the notice header (htmx's posts); the deployment's, sent by the outbox (fetch), in its JSON
    `detail` too, so scenario-deploy.js says the field refused."""
    answer = refused(sentence, status)
    if kind != "deploy":
        return answer
    notice = answer.headers[NOTICE_HEADER]
    body = refusal(bytes(answer.body).decode(), status=status)
    return JSONResponse(dict(body), status, headers={NOTICE_HEADER: notice})


def _deployed(body: bytes) -> FormationDeployed:
    """A formation's deployment as scenario-deploy.js posts it through the outbox (JSON, so a flaky wifi loses
    nothing): `formation`, `off_table`, and each placed stand's `stand`, `x`, `y` and `facing` in step."""
    try:
        return FormationDeployed.model_validate_json(body)
    except ValidationError as e:  # a list's item is refused at its index: the refusal names the list's field
        first = e.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "body"  # not JSON at all: the body is refused
        raise RulesError(field, str(first["msg"]).lower()) from None


def _picked(form: FormData) -> FormationPicked:
    """The side's picker as the add button posts it (its side in `side`, each of its fields `<side>_<field>`,
    a chart's rows as `<side>_kind` and `<side>_bases` once a row)."""
    side = form.get("side")
    at = f"{side}_" if side in forces.SIDES else "-"
    fields: forces.Json = {"side": side}
    for name in ("table", "formation", "quality", "name"):
        fields[name] = form.get(at + name, "")
    for name in ("kind", "bases"):
        fields[name] = form.getlist(at + name)
    return FormationPicked.model_validate(fields)


def _posted(request: Request, form: FormData) -> tuple[None, FormationChanged]:
    """The change a formation's control posts: the control by its name (`name.<id>`, `quality.<id>`,
    `remove.<id>`: htmx's HX-Trigger-Name), its value from the form."""
    control = request.headers.get("HX-Trigger-Name", "")[: 2 * S.MAX_ID]
    what, _, formation = control.partition(".")
    value = form.get(control, "")
    fields = (
        {"formation": formation, what: value} if what in ("name", "quality") else {"formation": formation}
    )
    return None, FormationChanged.model_validate(fields)


def _form_changes(kind: str, suffix: str) -> None:
    """The routes of one kind of change posted by a form, on this browser's new draft and on an existing scenario's
    draft (its own, apart from the browser's new one: the first change starts it from the scenario as saved)."""

    async def on_new(ruleset_id: str, request: Request, session: SessionDep, form: PostedForm) -> Response:
        return await _change(request, session, _new(request, ruleset_id), kind, form)

    async def on_edited(
        scenario_id: str, request: Request, session: SessionDep, form: PostedForm
    ) -> Response:
        return await _change(request, session, _edited(request, session, scenario_id), kind, form)

    router.post(f"/scenarios/new/{{ruleset_id}}/forces{suffix}", response_class=HTMLResponse)(on_new)
    router.post(f"/scenarios/{{scenario_id}}/edit/forces{suffix}", response_class=HTMLResponse)(on_edited)


# A formation added to a side (from a table, or from the chart's rows), regraded or renamed, or dropped.
for _kind, _suffix in (("add", ""), ("change", "/change"), ("remove", "/remove")):
    _form_changes(_kind, _suffix)


@router.post("/scenarios/new/{ruleset_id}/forces/deploy", response_class=HTMLResponse)
async def deploy_formation(ruleset_id: str, request: Request, session: SessionDep) -> Response:
    """Where a formation's stands stand, kept in the draft (the map's drag or lay-out): a reload keeps it."""
    return await _change(request, session, _new(request, ruleset_id), "deploy")


@router.post("/scenarios/{scenario_id}/edit/forces/deploy", response_class=HTMLResponse)
async def deploy_edited_formation(scenario_id: str, request: Request, session: SessionDep) -> Response:
    return await _change(request, session, _edited(request, session, scenario_id), "deploy")


@router.get("/scenarios/{scenario_id}/edit/forces", response_class=HTMLResponse)
def edited_formations(scenario_id: str, request: Request, session: SessionDep) -> Response:
    """The panel of a scenario read into the page (opened, imported or saved anew: scenario-file.js): this
    browser's draft of it, or as it is saved."""
    target = _edited(request, session, scenario_id)
    if isinstance(target, Response):
        return target
    parts = shown(request, session, *target)
    return templates.TemplateResponse(request, "_scenario_formations.html", parts)


@router.get("/scenarios/new/{ruleset_id}/forces/choices", response_class=HTMLResponse)
def table_choices(ruleset_id: str, request: Request, table: str = "", side: str = "") -> Response:
    """The formations a table offers, as the options of the side's formation list (its `hx-get` on the side's
    table or nationality changed, the table as `<side>_table`): an unknown table offers none."""
    ruleset = _playable(ruleset_id)
    side = side if side in forces.SIDES else ""
    table = table or (request.query_params.get(f"{side}_table", "") if side else "")
    if ruleset is None or len(table) > 64:
        return HTMLResponse("")
    try:
        found = forces.choices(ruleset, table)
    except RulesError:
        found = ()
    return templates.TemplateResponse(request, "_scenario_formation_choices.html", {"choices": found})


@router.get("/scenarios/new/{ruleset_id}/forces/row", response_class=HTMLResponse)
def chart_row(ruleset_id: str, request: Request, side: str = "", drop: bool = False) -> Response:
    """One more row of a side's chart formation (its `<side>_kind`, `<side>_bases` and `<side>_row` as the rows
    hold them: the new one of the last one's kind and bases), or none for a row dropped (`drop`, its button
    swapping it out); at the chart's most rows a 422 saying so."""
    ruleset = _playable(ruleset_id)
    chart = get_game_rules(ruleset).book.force_chart if ruleset else None
    if chart is None or side not in forces.SIDES:
        return refused("side: a side of a rule set with a chart of troops", 422)
    if drop:
        return HTMLResponse("")
    query = request.query_params
    kinds, bases, rows = (query.getlist(f"{side}_{name}") for name in ("kind", "bases", "row"))
    if len(kinds) >= chart.most_sub_units:
        return refused(f"A {chart.formation} has at most {chart.most_sub_units} {chart.sub_unit}s.", 422)
    numbers = [int(r) for r in rows if r.isdecimal() and len(r) < 4]
    kind = kinds[-1] if kinds and kinds[-1] in {k.id for k in chart.kinds} else chart.kinds[0].id
    count = (
        int(bases[-1])
        if bases and bases[-1].isdecimal() and len(bases[-1]) < 4 and 1 <= int(bases[-1]) <= chart.most_bases
        else 2
    )
    row = {"side": side, "i": max(numbers, default=-1) + 1, "kind": kind, "bases": count}
    return templates.TemplateResponse(
        request,
        "_scenario_chart_row.html",
        {"chart": chart_dict(chart), "row": row, "rows_url": request.url.path},
    )


def _document(request: Request, session: SessionDep, ruleset_id: str, scenario: str = "") -> forces.Json:
    """This browser's draft's document (of the scenario edited), or the scenario as saved, or an empty one."""
    draft = drafts.find(session, drafts.owner_of(request.cookies.get(DRAFT_COOKIE)), ruleset_id, scenario)
    if draft is not None:
        return draft.document
    saved = scenarios_service.get_document(session, scenario) if scenario else None
    return saved or drafts.empty_document(ruleset_id)


def shown(request: Request, session: SessionDep, ruleset_id: str, scenario: str = "") -> dict[str, object]:
    """The forces panel's formations and the Deploy tab's list for the editor's page, from `_document`."""
    document = _document(request, session, ruleset_id, scenario)
    return context(ruleset_id, document, scenario) | deploy_context(ruleset_id, document)


def _deploy_list(request: Request, session: SessionDep, target: tuple[str, str] | Response) -> Response:
    if isinstance(target, Response):
        return target
    parts = deploy_context(target[0], _document(request, session, *target))
    return templates.TemplateResponse(request, "_scenario_deploy.html", parts)


@router.get("/scenarios/new/{ruleset_id}/forces/deploy", response_class=HTMLResponse)
def deploy_list(ruleset_id: str, request: Request, session: SessionDep) -> Response:
    """The Deploy tab's list as the draft holds it: read again by scenario-deploy.js after a placement is kept."""
    return _deploy_list(request, session, _new(request, ruleset_id))


@router.get("/scenarios/{scenario_id}/edit/forces/deploy", response_class=HTMLResponse)
def edited_deploy_list(scenario_id: str, request: Request, session: SessionDep) -> Response:
    return _deploy_list(request, session, _edited(request, session, scenario_id))
