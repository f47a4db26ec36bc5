"""The scenario editor (issue 27): a club's own table, forces and deployment built in the browser and saved as
a scenario document through the scenario API (docs/scenario-format.md). The page carries what the rule set
knows (terrain kinds with their cover and movement, organisation tables, periods, errata, base sizes); the
document is this browser's draft on the server (app.pages.scenario_drafts), saved, imported and started from
by app.pages.scenario_saving, exported through the JSON API. The same page
edits a game's table while it is in set-up (a campaign battle's generated one, or any): its terrain and where
its stands stand and its objectives, saved back to the game by the server as its API saves them
(app.pages.game_table_save; frontend/static/js/scenario-game-table.js posts the table as drawn)."""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from app.core.routing import Router
from app.data.board_state import read_board
from app.data.models import Game, Unit
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import RuleRefused
from app.guard.auth import ORGANISER_HEADER
from app.pages import counter_editor, game_table_save, scenario_drafts, scenario_forces, scenario_objectives
from app.pages.common import not_found
from app.pages.seats import Seat, game_page
from app.pages.table_map import map_sizes
from app.pages.templates import humanise, templates
from app.services import game_setup
from app.services import scenario_drafts as scenario_drafts_service
from app.services import scenarios as scenarios_service
from app.services import units as units_service
from app.services.scenario_forces import crewed_kinds, org_tables
from app.services.score import STARTED
from rules.core.errors import NotFoundError
from rules.core.forces import chart_dict
from rules.core.kit import TERRAIN_CLASS
from rules.core.ruleset import PeriodDict, RuleSet
from rules.registry import all_game_rules, get_game_rules, get_ruleset
from rules.table.move import TERRAIN_CLASSES, WATER_KINDS
from rules.table.terrain import AREA_KINDS, BUFFERED, FEATURE_KINDS, PIECE_PROPERTIES

router = Router(include_in_schema=False)

# The movers a terrain's card shows (the movement table has more columns; these are the ones on the table
# most often).
SHOWN_MOVERS = ("infantry", "cavalry", "field-artillery", "tank")


@router.get("/scenarios/new", response_class=HTMLResponse)
def new_scenario_page(request: Request, session: SessionDep, ruleset: str | None = None) -> Response:
    """A new scenario of a rule set played as a game (`?ruleset=`; by default the first): its particulars this
    browser's draft on the server (app.pages.scenario_drafts)."""
    playable = [r.book.ruleset_id for r in all_game_rules()]
    if ruleset is not None and ruleset not in playable:
        return not_found(request, NotFoundError("rule set", ruleset[:64], playable))
    ruleset_id = game_setup.new_game_rules(ruleset).book.ruleset_id
    if counter_editor.takes_club(ruleset_id):  # a game of counters: the club's data, not a table
        return counter_editor.page(request, ruleset_id)
    draft = scenario_drafts.context(request, session, ruleset_id)
    return _editor(
        request,
        None,
        ruleset_id,
        parts=draft
        | scenario_forces.shown(request, session, ruleset_id)
        | scenario_objectives.shown(request, session, ruleset_id),
    )


@router.get("/scenarios/{scenario_id}/edit", response_class=HTMLResponse)
def edit_scenario_page(request: Request, session: SessionDep, scenario_id: str) -> Response:
    # An id not listed is this page's 404 (HTML, never the API's 422); the listing also says whether it ships
    # with firestep (saving one that does makes a copy) and its rule set.
    listed = {s["id"]: s for s in scenarios_service.list_scenarios(session)}
    if scenario_id not in listed:
        return not_found(request, NotFoundError("scenario", scenario_id))
    found = listed[scenario_id]
    if counter_editor.takes_club(str(found["ruleset"])):
        document = scenarios_service.get_document(session, scenario_id)
        return counter_editor.page(
            request, str(found["ruleset"]), scenario_id, bool(found["shipped"]), document
        )
    # Its particulars, forces and objectives panels are the server's, on this browser's draft of the edit (or the
    # scenario as saved).
    ruleset = str(found["ruleset"])
    draft = scenario_drafts.context(request, session, ruleset, scenario_id)
    forces = scenario_forces.shown(request, session, ruleset, scenario_id)
    objectives = scenario_objectives.shown(request, session, ruleset, scenario_id)
    saved = {"saved_title": str(found["title"])}
    return _editor(request, scenario_id, ruleset, bool(found["shipped"]), draft | forces | objectives | saved)


@router.get("/games/{game_id}/table/edit", response_class=HTMLResponse)
def edit_game_table_page(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep
) -> Response:
    """The editor on a game's table before it starts: the referee's only (403), refused once it has started
    (409); its forces are the game's (not rebuilt here), so only the terrain, the objectives and the stands'
    places change. A game of counters: the club's data and its order of battle (counter_editor)."""

    def build(game: Game, seat: Seat) -> dict[str, object]:
        seat.viewer.require_referee("edit the table")
        if game.status != "setup":
            raise RuleRefused(STARTED)
        units = units_service.list_units(session, game_id)
        if counter_editor.takes_club(game.ruleset):
            return counter_editor.context(game.ruleset, game=(game, units))
        doc = game_document(game, units)
        deploy = scenario_forces.deploy_context(game.ruleset, doc, moves_only=True)
        url = f"/games/{game_id}/table/objectives"  # the page's own objectives, posted back with each change
        objectives = scenario_objectives.panel(doc.get("table_objectives"), url, game=True)
        return {
            **_context(game.ruleset),
            "scenario_id": None,
            "shipped": False,
            "game_doc": doc,
            **deploy,
            **objectives,
            **game_table_save.versions(game, units),
        }

    found = session.get(Game, game_id)
    page = (
        "counter_editor.html"
        if found and counter_editor.takes_club(found.ruleset)
        else "scenario_editor.html"
    )
    return game_page(request, session, settings, game_id, page, page, build)


def game_document(game: Game, units: list[Unit]) -> dict[str, Any]:
    """A game's table as the editor reads a scenario document: its terrain and objectives (its board's), and
    each side's units as a unit tree with the stands' placements. A unit's id is its id in the game, and its
    `version` goes with it, so a moved stand is saved through the move endpoint over the version it was read
    at."""
    children: dict[int | None, list[Unit]] = {}
    for u in units:
        if not u.killed:
            children.setdefault(u.parent_id, []).append(u)

    def node(u: Unit) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": str(u.id),
            "version": u.version,
            "name": u.name,
            "level": u.level,
            "kind": u.kind,
            "base": u.base,
            "quality": u.quality,
            "children": [node(c) for c in children.get(u.id, [])],
        }
        if u.off_table:
            out["off_table"] = True
        elif u.base and u.x is not None and u.y is not None:
            out["placement"] = {
                "center": [u.x, u.y],
                "facing_deg": u.facing_deg if u.facing_deg is not None else 90.0,
            }
        return out

    nations = {"attacker": game.attacker_nation, "defender": game.defender_nation}
    objectives = read_board(game).table_objectives
    return {
        "title": game.name,
        "ruleset": game.ruleset,
        "period": game.period,
        "table": {"width_cm": game.table_width_cm, "length_cm": game.table_length_cm},
        "terrain": game.terrain,
        **({"table_objectives": objectives} if objectives else {}),
        "sides": {
            side: {
                "nationality": nation,
                "deployment_zone": None,
                "forces": [node(u) for u in children.get(None, []) if u.side == side],
            }
            for side, nation in nations.items()
        },
    }


def _editor(
    request: Request,
    scenario_id: str | None,
    ruleset_id: str,
    shipped: bool = False,
    parts: dict[str, object] | None = None,
) -> Response:
    context = {"scenario_id": scenario_id, "shipped": shipped, **_context(ruleset_id), **(parts or {})}
    return templates.TemplateResponse(request, "scenario_editor.html", context)


def _context(ruleset_id: str) -> dict[str, object]:
    """What the editor's page shows of a rule set, for a scenario or a game's table: its forces come from its
    organisation tables or its chart of troops (`editor.chart`), and its own scenarios are there as examples."""
    rs = get_ruleset(ruleset_id)
    setup = get_game_rules(rs.id).book
    return {
        "ruleset_name": rs.name,
        "editor": editor_data(rs.id),
        "org_tables": org_tables(rs.id),
        "examples": [{"id": i, "title": d["title"]} for i, d in setup.scenarios.items()],
        "nations": sorted({t["nation"] for t in org_tables(rs.id)}),
        "qualities": list(dict.fromkeys(q for t in org_tables(rs.id) for q in t["qualities"])),
        "organiser_header": ORGANISER_HEADER,
        **scenario_drafts.readings(rs.id),
        "kind_names": kind_names(rs.id),
    }


def kind_names(ruleset_id: str) -> dict[str, str]:
    """Each terrain kind's name in the rule set (its own, else the kind's): the terrain list's names."""
    return {k["kind"]: k["name"] or humanise(k["kind"]) for k in editor_data(ruleset_id)["kinds"]}


@cache
def editor_data(ruleset_id: str) -> dict[str, Any]:
    """What the editor's scripts read (once per process: it is the rule set's data, not a game's)."""
    rs = get_ruleset(ruleset_id)
    described = rs.describe()
    rules = get_game_rules(rs.id)
    return {
        "ruleset": rs.id,
        "has_periods": bool(described["periods"]),
        "sizes": map_sizes(rules),
        "kinds": [_kind_card(rs, kind, described["periods"]) for kind in FEATURE_KINDS],
        # A rule set reading the terrain by classes (its kit's): each feature's, named in TERRAIN_CLASS.
        "classes": [
            {"id": c.id, "text": c.text, "kinds": list(c.kinds), "source": c.source}
            for c in rules.book.kit.terrain_classes
        ],
        "class_property": TERRAIN_CLASS,
        "chart": chart_dict(rules.book.force_chart) if rules.book.force_chart else None,
        "errata": described["errata"],
        "zone_depth": scenario_drafts_service.zone_depth(rs.id),
        "plan_kinds": get_game_rules(rs.id).book.kit.plan_kind_names,
        "crewed_kinds": sorted(crewed_kinds(rs.id)),
    }


def _kind_card(rs: RuleSet, kind: str, periods: list[PeriodDict]) -> dict[str, Any]:
    """One terrain kind: its name in the rule set, how it is drawn (an area, or a line with the breadth it needs
    and the typical ones), the cover a stand in it has alone and with other terrain, and how the movement table
    counts it, each with its printed line."""
    drawing = rs.data("terrain-drawing")["kinds"].get(kind, {}) if "terrain-drawing" in rs.datasets else {}
    card: dict[str, Any] = {
        "kind": kind,
        "area": kind in AREA_KINDS,
        "breadth": BUFFERED.get(kind),
        "properties": list(
            PIECE_PROPERTIES.get(kind, ())
        ),  # what a piece of it says besides (a hill's height)
        # The rule set's own name for the kind, with its line, and the typical widths of a line drawn of it.
        "name": drawing.get("name"),
        "named": {"text": drawing["text"], "source": drawing["source"]} if "name" in drawing else None,
        "widths": drawing.get("widths", []),
        "cover": None,
        "with": [],
        "move": None,
    }
    if "cover-classes" in rs.datasets:
        cover = rs.data("cover-classes")
        # The dataset's own order: "the first rule whose kinds are all under the stand applies".
        alone = next((r for r in cover["rules"] if set(r["kinds"]) <= {kind}), None)
        open_ground = cover["open_ground"]
        card["cover"] = (
            {"cover": alone["cover"], "text": alone["text"], "source": alone["source"]}
            if alone
            else {"cover": open_ground["raw"], "text": open_ground["text"], "source": open_ground["source"]}
        )
        card["with"] = [
            {"kinds": [k for k in r["kinds"] if k != kind], "cover": r["cover"], "text": r["text"]}
            for r in cover["rules"]
            if kind in r["kinds"] and len(r["kinds"]) > 1
        ]
    if "movement-table" in rs.datasets:
        terrain = _move_terrain(kind)
        by_period = {}
        for p in periods:
            table = rs.data("movement-table", p["id"])
            row = table["terrain"].get(terrain) if terrain else None
            if row is not None:
                by_period[p["id"]] = {m: row[m] for m in SHOWN_MOVERS if m in row}
        card["move"] = {"terrain": terrain, "by_period": by_period}
    return card


def _move_terrain(kind: str) -> str | None:
    """The movement table's row for a terrain kind (rules.table.move's classes; water is crossed; wire has
    rules of its own, not a row)."""
    if kind in WATER_KINDS:
        return kind
    for terrain, kinds in TERRAIN_CLASSES:
        if kind in kinds:
            return terrain
    return None if kind == "wire" else "cross-country"
