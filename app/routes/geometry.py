"""Stateless table geometry: coverage, MG fire, distance, line of sight, arcs, moves, gas, barrages,
deviation and grid references. The geometry lives in rules/table; this module validates and serialises."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, model_validator
from shapely import box
from shapely.geometry import mapping
from shapely.geometry.base import BaseGeometry

from app import errors
from app.limits import MAX_FEATURES, MAX_VERTICES_TOTAL, Bool, Float, Int, count_vertices
from rules.core.errors import RulesError
from rules.core.ruleset import Context
from rules.flanders_fields import cover as ff_cover
from rules.flanders_fields import gas as ff_gas
from rules.flanders_fields import movement as ff_movement
from rules.flanders_fields import table_rules
from rules.flanders_fields import visibility as ff_visibility
from rules.flanders_fields.common import PeriodId, Quality
from rules.flanders_fields.errata import GAS_SPEED_BELOW_ZERO, SRC_BARRAGE_DANGER
from rules.flanders_fields.ruleset import cite
from rules.flanders_fields.table_rules import ARC_SIZES, DANGER_ZONE_CM, MG_RANGE_CM, MG_SIZES, WIRE_BELT_CM
from rules.registry import get_ruleset
from rules.table import arcs, barrage, coverage, frame, los, mgfire, move
from rules.table import gas as table_gas
from rules.table.bases import BASE_KINDS, BASES, Stand
from rules.table.templates import TEMPLATE_KINDS, TEMPLATES, Template
from rules.table.terrain import FEATURE_KINDS, TerrainIndex, terrain_from_geojson, terrain_to_geojson

router = APIRouter(prefix="/api/v1/geometry", tags=["geometry"])
ERRORS = errors.responses(422)

Coord = Annotated[Float, Field(ge=-1000, le=1000, allow_inf_nan=False)]
Angle = Annotated[Float, Field(ge=-720, le=720, allow_inf_nan=False, description="Degrees CCW from +x.")]
Cm = Annotated[Float, Field(ge=0, le=1000, allow_inf_nan=False)]
Point2 = tuple[Coord, Coord]
BaseKind = Literal[BASE_KINDS]  # type: ignore[valid-type]
TemplateKind = Literal[TEMPLATE_KINDS]  # type: ignore[valid-type]
FeatureKind = Literal[FEATURE_KINDS]  # type: ignore[valid-type]
MAX_STANDS = 2000
# Bases seen at the "Buildings, Fieldworks, Vehicles & Heavy Artillery" distance (VISIBILITY DISTANCES).
LARGE_BASES = frozenset({"tank", "heavy-artillery", "super-heavy-artillery"})
Variants = Annotated[
    dict[str, str],
    Field(default_factory=dict, max_length=20, description="Erratum id -> reading id (Flanders Fields)."),
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TableIn(Strict):
    width_cm: Float = Field(default=frame.TABLE_WIDTH_CM, gt=0, le=1000, allow_inf_nan=False)
    length_cm: Float = Field(default=frame.TABLE_LENGTH_CM, gt=0, le=1000, allow_inf_nan=False)

    def table(self) -> frame.Table:
        return frame.Table(self.width_cm, self.length_cm)


class StandIn(Strict):
    id: str = Field(min_length=1, max_length=64)
    side: str = Field(default="", max_length=32)
    base: BaseKind
    center: Point2
    facing_deg: Angle = 90.0

    def stand(self) -> Stand:
        return Stand(self.id, self.side, self.base, (self.center[0], self.center[1]), self.facing_deg)


class TemplateIn(Strict):
    kind: TemplateKind
    center: Point2
    facing_deg: Angle = Field(default=90.0, description="The template's depth runs along this direction.")

    def template(self) -> Template:
        return Template(self.kind, (self.center[0], self.center[1]), self.facing_deg)


Stands = Annotated[list[StandIn], Field(default_factory=list, max_length=MAX_STANDS)]


# -- GeoJSON terrain -----------------------------------------------------------------------------------------
Ring = Annotated[list[Point2], Field(min_length=4, max_length=500)]


class PolygonIn(Strict):
    type: Literal["Polygon"]
    coordinates: Annotated[list[Ring], Field(min_length=1, max_length=20)]


class MultiPolygonIn(Strict):
    type: Literal["MultiPolygon"]
    coordinates: Annotated[
        list[Annotated[list[Ring], Field(min_length=1, max_length=20)]], Field(max_length=50)
    ]


class LineStringIn(Strict):
    type: Literal["LineString"]
    coordinates: Annotated[list[Point2], Field(min_length=2, max_length=500)]


class FeaturePropertiesIn(Strict):
    kind: FeatureKind
    name: str | None = Field(default=None, max_length=100)
    height_cm: Float | None = Field(default=None, ge=0, le=100, allow_inf_nan=False)
    width_cm: Float | None = Field(default=None, gt=0, le=100, allow_inf_nan=False)
    depth_cm: Float | None = Field(default=None, gt=0, le=100, allow_inf_nan=False)


class FeatureIn(Strict):
    type: Literal["Feature"]
    id: str | None = Field(default=None, max_length=64)
    geometry: Annotated[PolygonIn | MultiPolygonIn | LineStringIn, Field(discriminator="type")]
    properties: FeaturePropertiesIn


class TerrainIn(Strict):
    type: Literal["FeatureCollection"] = "FeatureCollection"
    features: list[FeatureIn] = Field(default_factory=list, max_length=MAX_FEATURES)

    @model_validator(mode="after")
    def _total_vertices(self) -> TerrainIn:
        total = sum(count_vertices(f.geometry.type, f.geometry.coordinates) for f in self.features)
        if total > MAX_VERTICES_TOTAL:
            raise ValueError(f"{total} vertices in all (allowed 0..{MAX_VERTICES_TOTAL})")
        return self

    def index(self, where: str = "terrain") -> TerrainIndex:
        return TerrainIndex.build(
            terrain_from_geojson(self.model_dump(exclude_none=True), where, wire_belt_cm=WIRE_BELT_CM)
        )


# -- helpers --------------------------------------------------------------------------------------------------
def _context(variants: dict[str, str], period: str | None = None) -> Context:
    """Flanders Fields context for the errata the geometry reads (none of them depends on the period)."""
    rs = get_ruleset("flanders-fields")
    ctx = rs.context(period or rs.period_ids[0], variants)
    return ctx if period else replace(ctx, period=None)


def _stands(items: list[StandIn], where: str = "stands") -> list[Stand]:
    seen: set[str] = set()
    for i, s in enumerate(items):
        if s.id in seen:
            raise RulesError(f"{where}.{i}.id", f"stand id {s.id!r} is used twice")
        seen.add(s.id)
    return [s.stand() for s in items]


def _geo(geom: BaseGeometry | None) -> dict[str, Any] | None:
    if geom is None or geom.is_empty:
        return None
    return dict(mapping(geom))


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _round(v: float) -> float:
    return round(v, 6) + 0.0


# -- coverage -------------------------------------------------------------------------------------------------
class CoverageIn(Strict):
    template: TemplateIn
    stands: Stands
    tolerance_cm: Float = Field(default=coverage.DEFAULT_TOLERANCE_CM, ge=0, le=10, allow_inf_nan=False)
    table: TableIn = Field(default_factory=TableIn)


class CoverageOut(BaseModel):
    full: list[str]
    partial: list[str]
    outside: list[str]
    ambiguous: list[str] = Field(description="Stands a nudge of tolerance_cm could move to another class.")
    template: dict[str, Any] | None = Field(description="The template's area as a GeoJSON geometry.")
    sources: list[str]


@router.post(
    "/coverage", response_model=CoverageOut, responses=ERRORS, summary="Which stands a template covers"
)
def post_coverage(req: CoverageIn) -> CoverageOut:
    tpl = req.template.template()
    poly = tpl.polygon(req.table.table())
    cov = coverage.classify(poly, coverage.StandIndex.build(_stands(req.stands)), req.tolerance_cm)
    return CoverageOut(
        full=cov.full,
        partial=cov.partial,
        outside=cov.outside,
        ambiguous=cov.ambiguous,
        template=_geo(poly),
        sources=[tpl.spec.source],
    )


# -- MG fire --------------------------------------------------------------------------------------------------
class GunIn(Strict):
    kind: Literal["mg", "blockhouse"] = "mg"
    center: Point2
    facing_deg: Angle = 90.0
    base: BaseKind = "heavy-mg"
    id: str | None = Field(default=None, max_length=64, description="The gun's own stand id, never a target.")
    side: str | None = Field(default=None, max_length=32, description="Stands of this side are not targets.")
    width_cm: Float | None = Field(default=None, gt=0, le=50, allow_inf_nan=False, description="Block house")
    depth_cm: Float | None = Field(default=None, gt=0, le=50, allow_inf_nan=False, description="Block house")


class MGFireIn(Strict):
    gun: GunIn
    aim_deg: Angle
    stands: Stands
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
    lane: dict[str, Any] | None
    zone: dict[str, Any] | None
    sources: list[str]


MG_SOURCES = [cite("ARCS OF FIRE"), cite("MACHINEGUN BEATEN ZONE"), cite("DIRECT FIRE MODIFIERS")]


@router.post(
    "/mg-fire", response_model=MGFireOut, responses=ERRORS, summary="MG fire lane, first target, beaten zone"
)
def post_mg_fire(req: MGFireIn) -> MGFireOut:
    ctx = _context(req.variants)
    spec = BASES[req.gun.base]
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
        range_cm = float(ctx.value(ff_cover.BLOCKHOUSE_RANGE))
        sources.append(ctx.citation(ff_cover.BLOCKHOUSE_RANGE))
    else:
        range_cm = MG_RANGE_CM
        sources.append(ctx.citation(ff_cover.MG_ARC))
    fire = mgfire.mg_fire(
        gun,
        req.aim_deg,
        coverage.StandIndex.build(_stands(req.stands)),
        range_cm,
        float(ctx.value(ff_cover.MG_ARC)),
        MG_SIZES,
    )
    return MGFireOut(
        face=fire.face,
        range_cm=fire.range_cm,
        beaten_zone_cm=fire.zone_cm,
        first_target=fire.first_target,
        first_distance_cm=None if fire.first_distance_cm is None else _round(fire.first_distance_cm),
        short_range=fire.short_range,
        beaten_zone=[
            ZoneHitOut(id=h.id, distance_cm=_round(h.distance_cm), penalty=h.penalty)
            for h in fire.beaten_zone
        ],
        lane=_geo(fire.lane),
        zone=_geo(fire.zone),
        sources=sources,
    )


# -- distance -------------------------------------------------------------------------------------------------
class PlacedBaseIn(Strict):
    base: BaseKind
    center: Point2
    facing_deg: Angle = 90.0

    def stand(self, sid: str) -> Stand:
        return Stand(sid, "", self.base, (self.center[0], self.center[1]), self.facing_deg)


class DistanceIn(Strict):
    a: PlacedBaseIn
    b: PlacedBaseIn


class DistanceOut(BaseModel):
    distance_cm: float = Field(description="Closest distance between the two bases (0 when they touch).")


@router.post(
    "/distance", response_model=DistanceOut, responses=ERRORS, summary="Closest distance between bases"
)
def post_distance(req: DistanceIn) -> DistanceOut:
    return DistanceOut(distance_cm=_round(req.a.stand("a").polygon().distance(req.b.stand("b").polygon())))


# -- line of sight --------------------------------------------------------------------------------------------
class LineOfSightIn(Strict):
    viewer: StandIn
    target: StandIn
    terrain: TerrainIn = Field(default_factory=TerrainIn)
    viewer_type: ff_visibility.Viewer = "infantry"
    target_quality: Quality = "raw"
    target_fired: Bool = Field(default=False, description="The target has opened fire from cover.")


class FeatureRef(BaseModel):
    id: str
    kind: str


class LineOfSightOut(BaseModel):
    visible: bool
    line_clear: bool
    blocked_by: FeatureRef | None
    dead_ground: bool
    seen_over: list[str]
    distance_cm: float
    visibility_cm: int
    target_column: str
    target_cover: str
    sources: list[str]


@router.post(
    "/line-of-sight", response_model=LineOfSightOut, responses=ERRORS, summary="Can the viewer see the target"
)
def post_line_of_sight(req: LineOfSightIn) -> LineOfSightOut:
    terrain = req.terrain.index()
    viewer, target = req.viewer.stand(), req.target.stand()
    sight = los.line_of_sight(viewer, target, terrain)
    target_poly = target.polygon()
    cover = ff_cover.cover_for(terrain.kinds_at(target_poly), req.target_quality)
    column = (
        "buildings-vehicles-heavy-artillery"
        if target.base in LARGE_BASES
        else ("open" if cover == "open" else "cover")
    )
    reach = ff_visibility.visibility_cm(req.viewer_type, column, req.target_fired)
    dist = viewer.polygon().distance(target_poly)
    sources = [table_rules.SRC_LINE_OF_SIGHT, ff_cover.SRC_TERRAIN_COVER]
    blocked = sight.blocked_by
    return LineOfSightOut(
        visible=sight.clear and dist <= reach + 1e-9,
        line_clear=sight.clear,
        blocked_by=FeatureRef(id=blocked.id, kind=blocked.kind) if blocked else None,
        dead_ground=sight.dead_ground,
        seen_over=list(sight.seen_over),
        distance_cm=_round(dist),
        visibility_cm=reach,
        target_column=column,
        target_cover=cover,
        sources=sources,
    )


# -- arcs -----------------------------------------------------------------------------------------------------
class ArcIn(Strict):
    firer: StandIn
    firer_kind: arcs.FirerKind
    stands: Stands
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
    arc: dict[str, Any] | None
    sources: list[str]


@router.post(
    "/arc", response_model=ArcOut, responses=ERRORS, summary="Stands in the firer's arc, in priority order"
)
def post_arc(req: ArcIn) -> ArcOut:
    ctx = _context(req.variants)
    firer = req.firer.stand()
    width = req.width_cm or firer.spec.width_cm
    depth = req.depth_cm or firer.spec.depth_cm
    arc = arcs.arc_polygon(
        req.firer_kind,
        firer.center,
        firer.facing_deg,
        width,
        depth,
        ARC_SIZES,
        float(ctx.value(ff_cover.MG_ARC)),
    )
    others = [s for s in _stands(req.stands) if s.id != firer.id]
    index = coverage.StandIndex.build(others)
    order = arcs.target_priority(firer, arc, index, width, depth, ARC_SIZES)
    sources = [cite("ARCS OF FIRE"), cite("TARGET PRIORITY")]
    if req.firer_kind == "mg":
        sources.append(ctx.citation(ff_cover.MG_ARC))
    return ArcOut(
        in_arc=[p.id for p in order],
        priority=[
            PriorityOut(
                id=p.id,
                priority=p.priority,
                distance_cm=_round(p.distance_cm),
                straight_ahead=p.straight_ahead,
            )
            for p in order
        ],
        arc=_geo(arc.intersection(box(-2000, -2000, 2000, 2000))),
        sources=sources,
    )


# -- move -----------------------------------------------------------------------------------------------------
class FireZoneIn(Strict):
    id: str = Field(min_length=1, max_length=64)
    template: TemplateIn
    fired: Bool = Field(description="The zone has received at least one round of fire.")


class MoveIn(Strict):
    period: PeriodId
    mover: ff_movement.Mover
    stand: StandIn
    path: Annotated[list[Point2], Field(min_length=1, max_length=100)]
    final_facing_deg: Angle | None = None
    terrain: TerrainIn = Field(default_factory=TerrainIn)
    fire_zones: Annotated[list[FireZoneIn], Field(default_factory=list, max_length=50)]
    veteran: Bool = False
    storm: Bool = False
    light_tank: Bool = False
    variants: Variants


class WireOut(BaseModel):
    id: str
    belts: int = Field(description="Rolls to cross: one per 2 cm of wire depth.")


class WaterOut(BaseModel):
    id: str
    kind: str
    crossings: int
    actions_each: int | None


class ZoneEnteredOut(BaseModel):
    id: str
    penalty: int


class MoveOut(BaseModel):
    length_cm: float
    path_cm: float
    turn_cm: float
    by_terrain: dict[str, float]
    allowances: dict[str, int | None]
    used_fraction: float | None = Field(description="Share of one move's allowance used; null: cannot pass.")
    fits: bool
    reasons: list[str]
    wire: list[WireOut]
    water: list[WaterOut]
    fire_zones_entered: list[ZoneEnteredOut]
    sources: list[str]


@router.post(
    "/move", response_model=MoveOut, responses=ERRORS, summary="Length, terrain and hazards of a move"
)
def post_move(req: MoveIn) -> MoveOut:
    ctx = _context(req.variants, req.period)
    terrain = req.terrain.index()
    zones = [move.FireZone(z.id, z.template.template().polygon(), z.fired) for z in req.fire_zones]
    stand = req.stand.stand()
    geom = move.measure_move(
        stand,
        [(p[0], p[1]) for p in req.path],
        terrain,
        zones,
        req.final_facing_deg,
        bool(ctx.value(ff_cover.TURN_COST)),
        wire_belt_cm=WIRE_BELT_CM,
    )

    def allowance(t: str) -> int | None:
        return ff_movement.move_allowance_cm(
            req.period,
            req.mover,
            t,
            veteran=req.veteran,
            storm=req.storm,
            light_tank=req.light_tank,
            variants=dict(ctx.variants),
        )

    fit = move.fit_move(geom, allowance, str(ctx.value(ff_cover.MOVE_MIXED_TERRAIN)), req.mover)
    wire = [] if req.mover in move.WIRE_CRUSHERS else geom.wire
    sources = [table_rules.SRC_MANOEUVRE, cite("MOVEMENT, MOVEMENT DISTANCES")]
    if len(geom.by_terrain) > 1:
        sources.append(ctx.citation(ff_cover.MOVE_MIXED_TERRAIN))
    if geom.turn_cm:
        sources.append(ctx.citation(ff_cover.TURN_COST))
    if geom.wire:
        sources.append(table_rules.SRC_MOVING_THROUGH_WIRE)
    if geom.zones_entered:
        sources.append(table_rules.SRC_FIRE_ZONES)
    return MoveOut(
        length_cm=_round(geom.length_cm),
        path_cm=_round(geom.path_cm),
        turn_cm=_round(geom.turn_cm),
        by_terrain={k: _round(v) for k, v in geom.by_terrain.items()},
        allowances=fit.allowances,
        used_fraction=_round(fit.used) if math.isfinite(fit.used) else None,
        fits=fit.fits,
        reasons=fit.reasons,
        wire=[WireOut(id=i, belts=b) for i, b in wire],
        water=[
            WaterOut(
                id=i,
                kind=k,
                crossings=n,
                actions_each=ff_movement.crossing_actions(req.period, req.mover, k, dict(ctx.variants)),
            )
            for i, k, n in geom.water
        ],
        fire_zones_entered=[ZoneEnteredOut(id=z, penalty=move.FIRE_ZONE_PENALTY) for z in geom.zones_entered],
        sources=sources,
    )


# -- gas ------------------------------------------------------------------------------------------------------
class CloudIn(Strict):
    kind: Literal["gas-attacker", "gas-defender"] = "gas-attacker"
    center: Point2
    facing_deg: Angle = 90.0

    def template(self) -> Template:
        return Template(self.kind, (self.center[0], self.center[1]), self.facing_deg)


class GasDriftIn(Strict):
    cloud: CloudIn
    wind_deg: Angle
    speed_cm: Annotated[Float, Field(ge=0, le=100, allow_inf_nan=False)]
    stands: Stands


XY = Annotated[list[float], Field(min_length=2, max_length=2)]


class CloudOut(BaseModel):
    kind: str
    center: XY
    facing_deg: float


class PassedOut(BaseModel):
    full: list[str]
    partial: list[str]


class GasDriftOut(BaseModel):
    cloud: CloudOut
    polygon: dict[str, Any] | None
    swept: dict[str, Any] | None
    covered: PassedOut = Field(description="Stands under the cloud where it stops.")
    passed_over: PassedOut = Field(description="Stands the cloud passed over during the move.")
    sources: list[str]


@router.post(
    "/gas-drift", response_model=GasDriftOut, responses=ERRORS, summary="Move a gas cloud on the wind"
)
def post_gas_drift(req: GasDriftIn) -> GasDriftOut:
    tpl = req.cloud.template()
    moved_poly, swept = table_gas.drift(tpl.polygon(), req.wind_deg, req.speed_cm)
    dx, dy = table_gas.offset(req.wind_deg, req.speed_cm)
    index = coverage.StandIndex.build(_stands(req.stands))
    at_end = coverage.classify(moved_poly, index, 0.0)
    passed = coverage.classify(swept, index, 0.0)
    return GasDriftOut(
        cloud=CloudOut(
            kind=tpl.kind,
            center=[_round(tpl.center[0] + dx), _round(tpl.center[1] + dy)],
            facing_deg=tpl.facing_deg,
        ),
        polygon=_geo(moved_poly),
        swept=_geo(swept),
        covered=PassedOut(full=at_end.full, partial=at_end.partial),
        passed_over=PassedOut(full=passed.full, partial=passed.partial),
        sources=[ff_gas.SRC_GAS, tpl.spec.source],
    )


class GasForecastIn(Strict):
    cloud: CloudIn
    wind_deg: Angle
    speed_cm: Annotated[Int, Field(ge=0, le=100)]
    turns: Annotated[Int, Field(ge=1, le=ff_gas.OFFENSIVE_MAX_TURNS)]
    stands: Annotated[list[StandIn], Field(default_factory=list, max_length=200)]
    variants: Variants


class StandChanceOut(BaseModel):
    id: str
    covered: float
    covered_exact: str
    full: float
    full_exact: str


class TurnOut(BaseModel):
    turn: int
    dispersed: float
    dispersed_exact: str
    stands: list[StandChanceOut]


class GasForecastOut(BaseModel):
    method: Literal["exact", "exact-then-sampled"]
    exact_turns: int
    samples: int
    standard_error: float = Field(description="Worst-case standard error of the sampled turns (0 if exact).")
    turns: list[TurnOut]
    sources: list[str]


@router.post(
    "/gas-forecast",
    response_model=GasForecastOut,
    responses=ERRORS,
    summary="Chance the cloud covers each stand",
)
def post_gas_forecast(req: GasForecastIn) -> GasForecastOut:
    ctx = _context(req.variants)
    calm = str(ctx.value(GAS_SPEED_BELOW_ZERO))
    wind = ff_gas.Wind(ff_gas.normalise_deg(req.wind_deg), req.speed_cm)

    def step(w: Any) -> Any:
        return ff_gas.next_wind_distribution(w, calm)

    index = coverage.StandIndex.build(_stands(req.stands))
    fc = table_gas.forecast(req.cloud.template().polygon(), wind, req.turns, index, step)
    turns = [
        TurnOut(
            turn=t + 1,
            dispersed=float(fc.dispersed[t]),
            dispersed_exact=_frac(fc.dispersed[t]),
            stands=[
                StandChanceOut(
                    id=s.id,
                    covered=float(fc.covered[t][s.id]),
                    covered_exact=_frac(fc.covered[t][s.id]),
                    full=float(fc.full[t][s.id]),
                    full_exact=_frac(fc.full[t][s.id]),
                )
                for s in index.stands
            ],
        )
        for t in range(req.turns)
    ]
    return GasForecastOut(
        method="exact" if fc.exact else "exact-then-sampled",
        exact_turns=fc.exact_turns,
        samples=fc.samples,
        standard_error=fc.standard_error,
        turns=turns,
        sources=[ff_gas.SRC_GAS, ff_gas.SRC_GAS_MOVEMENT, ctx.citation(GAS_SPEED_BELOW_ZERO)],
    )


# -- rolling barrage ------------------------------------------------------------------------------------------
class BarrageIn(Strict):
    center: Point2
    facing_deg: Angle = Field(
        default=90.0, description="The direction it advances (its depth runs this way)."
    )


class BarrageAdvanceIn(Strict):
    barrage: BarrageIn
    distance_cm: Annotated[Float, Field(ge=0, le=200, allow_inf_nan=False)]
    stands: Stands
    table: TableIn = Field(default_factory=TableIn)


class DangerOut(BaseModel):
    id: str
    side: str
    distance_cm: float
    at_risk: float
    at_risk_exact: str


class BarrageOut(BaseModel):
    center: XY
    facing_deg: float


class BarrageAdvanceOut(BaseModel):
    barrage: BarrageOut
    polygon: dict[str, Any] | None
    swept: dict[str, Any] | None
    passed_over: PassedOut
    danger_zone: dict[str, Any] | None
    danger: list[DangerOut]
    sources: list[str]


@router.post(
    "/barrage-advance",
    response_model=BarrageAdvanceOut,
    responses=ERRORS,
    summary="Advance a rolling barrage",
)
def post_barrage_advance(req: BarrageAdvanceIn) -> BarrageAdvanceOut:
    b = req.barrage
    tpl = Template("rolling-barrage", (b.center[0], b.center[1]), b.facing_deg)
    adv = barrage.advance(
        tpl,
        req.distance_cm,
        coverage.StandIndex.build(_stands(req.stands)),
        DANGER_ZONE_CM,
        req.table.table(),
    )
    return BarrageAdvanceOut(
        barrage=BarrageOut(
            center=[_round(adv.moved.center[0]), _round(adv.moved.center[1])], facing_deg=b.facing_deg
        ),
        polygon=_geo(adv.polygon),
        swept=_geo(adv.swept),
        passed_over=PassedOut(full=adv.passed_over.full, partial=adv.passed_over.partial),
        danger_zone=_geo(adv.danger_zone),
        danger=[
            DangerOut(
                id=h.id,
                side=h.side,
                distance_cm=_round(h.distance_cm),
                at_risk=float(h.at_risk),
                at_risk_exact=_frac(h.at_risk),
            )
            for h in adv.danger
        ],
        sources=[
            TEMPLATES["rolling-barrage"].source,
            SRC_BARRAGE_DANGER,
        ],
    )


# -- deviation and grid references ----------------------------------------------------------------------------
class DeviateIn(Strict):
    side: frame.Side
    aim: Point2
    direction_clock: Annotated[
        int, Field(ge=1, le=12, description="12 is straight ahead of the side's base edge.")
    ]
    distance_cm: Annotated[Float, Field(ge=0, le=100, allow_inf_nan=False)]
    table: TableIn = Field(default_factory=TableIn)


class DeviateOut(BaseModel):
    point: XY
    direction_deg: float
    on_table: bool
    sources: list[str]


@router.post("/deviate", response_model=DeviateOut, responses=ERRORS, summary="Deviate an aiming point")
def post_deviate(req: DeviateIn) -> DeviateOut:
    x, y = frame.deviate(req.side, (req.aim[0], req.aim[1]), req.direction_clock, req.distance_cm)
    t = req.table.table()
    return DeviateOut(
        point=[_round(x), _round(y)],
        direction_deg=frame.clock_to_deg(req.side, req.direction_clock),
        on_table=0 <= x <= t.width_cm and 0 <= y <= t.length_cm,
        sources=[table_rules.SRC_DEVIATION],
    )


class GridRefIn(Strict):
    side: frame.Side
    along_cm: Coord = Field(description="Along the side's rear edge from its left-hand corner.")
    up_cm: Coord = Field(description="Up the table towards the enemy.")
    table: TableIn = Field(default_factory=TableIn)


class TablePointIn(Strict):
    side: frame.Side
    point: Point2
    table: TableIn = Field(default_factory=TableIn)


class GridRefOut(BaseModel):
    side: str
    along_cm: float
    up_cm: float
    point: XY
    sources: list[str]


@router.post(
    "/grid-to-table", response_model=GridRefOut, responses=ERRORS, summary="Fire-plan grid ref to table"
)
def post_grid_to_table(req: GridRefIn) -> GridRefOut:
    x, y = frame.grid_to_table(req.side, req.along_cm, req.up_cm, req.table.table())
    return GridRefOut(
        side=req.side,
        along_cm=req.along_cm,
        up_cm=req.up_cm,
        point=[x, y],
        sources=[table_rules.SRC_FIRE_PLANS],
    )


@router.post("/table-to-grid", response_model=GridRefOut, responses=ERRORS, summary="Table point to grid ref")
def post_table_to_grid(req: TablePointIn) -> GridRefOut:
    along, up = frame.table_to_grid(req.side, req.point[0], req.point[1], req.table.table())
    return GridRefOut(
        side=req.side,
        along_cm=along,
        up_cm=up,
        point=[req.point[0], req.point[1]],
        sources=[table_rules.SRC_FIRE_PLANS],
    )


# -- terrain and cover ----------------------------------------------------------------------------------------
class CoverStandIn(StandIn):
    quality: Quality = "raw"


class CoverIn(Strict):
    terrain: TerrainIn = Field(default_factory=TerrainIn)
    stands: Annotated[list[CoverStandIn], Field(default_factory=list, max_length=MAX_STANDS)]


class StandCoverOut(BaseModel):
    id: str
    terrain: list[str]
    cover: str


class CoverOut(BaseModel):
    terrain: dict[str, Any] = Field(description="The terrain as GeoJSON, lines buffered to their areas.")
    stands: list[StandCoverOut]
    sources: list[str]


@router.post(
    "/cover", response_model=CoverOut, responses=ERRORS, summary="Terrain under each stand and its cover"
)
def post_cover(req: CoverIn) -> CoverOut:
    terrain = req.terrain.index()
    _stands(list(req.stands))
    out = []
    for s in req.stands:
        kinds = terrain.kinds_at(s.stand().polygon())
        out.append(StandCoverOut(id=s.id, terrain=sorted(kinds), cover=ff_cover.cover_for(kinds, s.quality)))
    return CoverOut(
        terrain=terrain_to_geojson(terrain.features),
        stands=out,
        sources=[ff_cover.SRC_TERRAIN_COVER, ff_cover.SRC_TYPES_OF_COVER],
    )
