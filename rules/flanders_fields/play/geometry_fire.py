"""Flanders Fields' geometry lookups, direct fire: which stands a template covers, MG fire (lane, first target,
beaten zone) and the stands in a firer's arc in priority order. The geometry lives in rules/table, the request
models it shares in rules.table.requests."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field
from shapely import box

from rules.flanders_fields.play import table_rules as ff
from rules.flanders_fields.ruleset import FlandersFields
from rules.table import arcs, coverage, mgfire
from rules.table.geojson import GeoGeometry
from rules.table.requests import (
    Angle,
    Float,
    Point2,
    Strict,
    TableIn,
    Variants,
    geojson,
    kit_item,
    rounded,
    stand_list,
)


# -- coverage -------------------------------------------------------------------------------------------------
class CoverageIn(Strict):
    template: ff.TemplateIn
    stands: ff.Stands
    tolerance_cm: Float = Field(default=coverage.DEFAULT_TOLERANCE_CM, ge=0, le=10, allow_inf_nan=False)
    table: TableIn = Field(default_factory=TableIn)


class CoverageOut(BaseModel):
    full: list[str]
    partial: list[str]
    outside: list[str]
    ambiguous: list[str] = Field(description="Stands a nudge of tolerance_cm could move to another class.")
    template: GeoGeometry | None = Field(description="The template's area as a GeoJSON geometry.")
    sources: list[str]


@FlandersFields.lookup("coverage", "Which stands a template covers")
def post_coverage(req: CoverageIn) -> CoverageOut:
    tpl = req.template.template(ff.KIT_TEMPLATES)
    poly = tpl.polygon(req.table.table())
    cov = coverage.classify(
        poly, coverage.StandIndex.build(stand_list(req.stands, ff.KIT_BASES)), req.tolerance_cm
    )
    return CoverageOut(
        full=cov.full,
        partial=cov.partial,
        outside=cov.outside,
        ambiguous=cov.ambiguous,
        template=geojson(poly),
        sources=[tpl.spec.source],
    )


# -- MG fire --------------------------------------------------------------------------------------------------
class GunIn(Strict):
    kind: Literal["mg", "blockhouse"] = "mg"
    center: Point2
    facing_deg: Angle = 90.0
    base: ff.BaseKind = "heavy-mg"
    id: str | None = Field(default=None, max_length=64, description="The gun's own stand id, never a target.")
    side: str | None = Field(default=None, max_length=32, description="Stands of this side are not targets.")
    width_cm: Float | None = Field(default=None, gt=0, le=50, allow_inf_nan=False, description="Block house")
    depth_cm: Float | None = Field(default=None, gt=0, le=50, allow_inf_nan=False, description="Block house")


class MGFireIn(Strict):
    gun: GunIn
    aim_deg: Angle
    stands: ff.Stands
    variants: Variants


class ZoneHitOut(BaseModel):
    id: str
    distance_cm: float
    penalty: int


class MGFireOut(BaseModel):
    face: str
    range_cm: float
    beaten_zone_cm: float
    first_target: str | None
    first_distance_cm: float | None
    short_range: bool
    beaten_zone: list[ZoneHitOut]
    lane: GeoGeometry | None
    zone: GeoGeometry | None
    sources: list[str]


MG_SOURCES = [ff.cite("ARCS OF FIRE"), ff.cite("MACHINEGUN BEATEN ZONE"), ff.cite("DIRECT FIRE MODIFIERS")]


@FlandersFields.lookup("mg-fire", "MG fire lane, first target, beaten zone")
def post_mg_fire(req: MGFireIn) -> MGFireOut:
    ctx = ff.context(req.variants)
    spec = kit_item(ff.KIT_BASES, req.gun.base, "gun.base")
    g = req.gun
    gun = mgfire.Gun(
        g.kind,
        (g.center[0], g.center[1]),
        g.facing_deg,
        g.width_cm or spec.width_cm,
        g.depth_cm or spec.depth_cm,
        g.side,
        g.id,
    )
    sources = list(MG_SOURCES)
    if g.kind == "blockhouse":
        range_cm = float(ctx.value(ff.cover.BLOCKHOUSE_RANGE))
        sources.append(ctx.citation(ff.cover.BLOCKHOUSE_RANGE))
    else:
        range_cm = ff.MG_RANGE_CM
        sources.append(ctx.citation(ff.cover.MG_ARC))
    fire = mgfire.mg_fire(
        gun,
        req.aim_deg,
        coverage.StandIndex.build(stand_list(req.stands, ff.KIT_BASES)),
        range_cm,
        float(ctx.value(ff.cover.MG_ARC)),
        ff.MG_SIZES,
    )
    return MGFireOut(
        face=fire.face,
        range_cm=fire.range_cm,
        beaten_zone_cm=fire.zone_cm,
        first_target=fire.first_target,
        first_distance_cm=None if fire.first_distance_cm is None else rounded(fire.first_distance_cm),
        short_range=fire.short_range,
        beaten_zone=[
            ZoneHitOut(id=h.id, distance_cm=rounded(h.distance_cm), penalty=h.penalty)
            for h in fire.beaten_zone
        ],
        lane=geojson(fire.lane),
        zone=geojson(fire.zone),
        sources=sources,
    )


# -- arcs -----------------------------------------------------------------------------------------------------
class ArcIn(Strict):
    firer: ff.StandIn
    firer_kind: arcs.FirerKind
    stands: ff.Stands
    width_cm: Float | None = Field(default=None, gt=0, le=50, allow_inf_nan=False, description="Block house")
    depth_cm: Float | None = Field(default=None, gt=0, le=50, allow_inf_nan=False, description="Block house")
    variants: Variants


class PriorityOut(BaseModel):
    id: str
    priority: int = Field(
        description="1 closest; 2 in arc within 15 cm; 3 straight ahead within 30 cm; 4 other"
    )
    distance_cm: float
    straight_ahead: bool


class ArcOut(BaseModel):
    in_arc: list[str]
    priority: list[PriorityOut]
    arc: GeoGeometry | None
    sources: list[str]


@FlandersFields.lookup("arc", "Stands in the firer's arc, in priority order")
def post_arc(req: ArcIn) -> ArcOut:
    ctx = ff.context(req.variants)
    firer = req.firer.stand(ff.KIT_BASES)
    width = req.width_cm or firer.spec.width_cm
    depth = req.depth_cm or firer.spec.depth_cm
    arc = arcs.arc_polygon(
        req.firer_kind,
        firer.center,
        firer.facing_deg,
        width,
        depth,
        ff.ARC_SIZES,
        float(ctx.value(ff.cover.MG_ARC)),
    )
    others = [s for s in stand_list(req.stands, ff.KIT_BASES) if s.id != firer.id]
    index = coverage.StandIndex.build(others)
    order = arcs.target_priority(firer, arc, index, width, depth, ff.ARC_SIZES)
    sources = [ff.cite("ARCS OF FIRE"), ff.cite("TARGET PRIORITY")]
    if req.firer_kind == "mg":
        sources.append(ctx.citation(ff.cover.MG_ARC))
    return ArcOut(
        in_arc=[p.id for p in order],
        priority=[
            PriorityOut(
                id=p.id,
                priority=p.priority,
                distance_cm=rounded(p.distance_cm),
                straight_ahead=p.straight_ahead,
            )
            for p in order
        ],
        arc=geojson(arc.intersection(box(-2000, -2000, 2000, 2000))),
        sources=sources,
    )
