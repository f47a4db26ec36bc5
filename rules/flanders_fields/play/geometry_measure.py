"""Flanders Fields' geometry lookups, measuring: the distance between bases, line of sight, the length and hazards
of a move, and the terrain and cover under each stand. The geometry lives in rules/table, the request models it
shares in rules.table.requests; this module reads the rules beside it and serialises."""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import BaseModel, Field

from rules.flanders_fields.play import table_rules as ff
from rules.flanders_fields.ruleset import FlandersFields
from rules.table import los, move
from rules.table.bases import Stand
from rules.table.requests import (
    MAX_STANDS,
    Angle,
    Bool,
    Point2,
    Strict,
    TerrainIn,
    Variants,
    kit_item,
    rounded,
    stand_list,
)
from rules.table.terrain import terrain_to_geojson


# -- distance -------------------------------------------------------------------------------------------------
class PlacedBaseIn(Strict):
    base: ff.BaseKind
    center: Point2
    facing_deg: Angle = 90.0

    def stand(self, sid: str) -> Stand:
        return Stand(sid, "", kit_item(ff.KIT_BASES, self.base, "base"), self.center, self.facing_deg)


class DistanceIn(Strict):
    a: PlacedBaseIn
    b: PlacedBaseIn


class DistanceOut(BaseModel):
    distance_cm: float = Field(description="Closest distance between the two bases (0 when they touch).")


@FlandersFields.lookup("distance", "Closest distance between bases")
def post_distance(req: DistanceIn) -> DistanceOut:
    return DistanceOut(distance_cm=rounded(req.a.stand("a").polygon().distance(req.b.stand("b").polygon())))


# -- line of sight --------------------------------------------------------------------------------------------
class LineOfSightIn(Strict):
    viewer: ff.StandIn
    target: ff.StandIn
    terrain: TerrainIn = Field(default_factory=TerrainIn)
    viewer_type: ff.visibility.Viewer = "infantry"
    target_quality: ff.Quality = "raw"
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


@FlandersFields.lookup("line-of-sight", "Can the viewer see the target")
def post_line_of_sight(req: LineOfSightIn) -> LineOfSightOut:
    terrain = req.terrain.index(wire_belt_cm=ff.WIRE_BELT_CM)
    viewer, target = req.viewer.stand(ff.KIT_BASES), req.target.stand(ff.KIT_BASES)
    sight = los.line_of_sight(viewer, target, terrain)
    target_poly = target.polygon()
    cover = ff.cover.cover_for(terrain.kinds_at(target_poly), req.target_quality)
    column = (
        "buildings-vehicles-heavy-artillery"
        if target.base in ff.LARGE_BASES
        else ("open" if cover == "open" else "cover")
    )
    reach = ff.visibility.visibility_cm(req.viewer_type, column, req.target_fired)
    dist = viewer.polygon().distance(target_poly)
    sources = [ff.SRC_LINE_OF_SIGHT, ff.cover.SRC_TERRAIN_COVER]
    blocked = sight.blocked_by
    return LineOfSightOut(
        visible=sight.clear and dist <= reach + 1e-9,
        line_clear=sight.clear,
        blocked_by=FeatureRef(id=blocked.id, kind=blocked.kind) if blocked else None,
        dead_ground=sight.dead_ground,
        seen_over=list(sight.seen_over),
        distance_cm=rounded(dist),
        visibility_cm=reach,
        target_column=column,
        target_cover=cover,
        sources=sources,
    )


# -- move -----------------------------------------------------------------------------------------------------
class FireZoneIn(Strict):
    id: str = Field(min_length=1, max_length=64)
    template: ff.TemplateIn
    fired: Bool = Field(description="The zone has received at least one round of fire.")


class MoveIn(Strict):
    period: ff.PeriodId
    mover: ff.movement.Mover
    stand: ff.StandIn
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


@FlandersFields.lookup("move", "Length, terrain and hazards of a move")
def post_move(req: MoveIn) -> MoveOut:
    ctx = ff.context(req.variants, req.period)
    terrain = req.terrain.index(wire_belt_cm=ff.WIRE_BELT_CM)
    zones = [
        move.FireZone(z.id, z.template.template(ff.KIT_TEMPLATES).polygon(), z.fired) for z in req.fire_zones
    ]
    stand = req.stand.stand(ff.KIT_BASES)
    geom = move.measure_move(
        stand,
        [(p[0], p[1]) for p in req.path],
        terrain,
        zones,
        req.final_facing_deg,
        bool(ctx.value(ff.cover.TURN_COST)),
        wire_belt_cm=ff.WIRE_BELT_CM,
    )

    def allowance(t: str) -> int | None:
        return ff.movement.move_allowance_cm(
            req.period,
            req.mover,
            t,
            veteran=req.veteran,
            storm=req.storm,
            light_tank=req.light_tank,
            variants=dict(ctx.variants),
        )

    fit = move.fit_move(geom, allowance, str(ctx.value(ff.cover.MOVE_MIXED_TERRAIN)), req.mover)
    wire = [] if req.mover in move.WIRE_CRUSHERS else geom.wire
    sources = [ff.SRC_MANOEUVRE, ff.cite("MOVEMENT, MOVEMENT DISTANCES")]
    if len(geom.by_terrain) > 1:
        sources.append(ctx.citation(ff.cover.MOVE_MIXED_TERRAIN))
    if geom.turn_cm:
        sources.append(ctx.citation(ff.cover.TURN_COST))
    if geom.wire:
        sources.append(ff.SRC_MOVING_THROUGH_WIRE)
    if geom.zones_entered:
        sources.append(ff.SRC_FIRE_ZONES)
    return MoveOut(
        length_cm=rounded(geom.length_cm),
        path_cm=rounded(geom.path_cm),
        turn_cm=rounded(geom.turn_cm),
        by_terrain={k: rounded(v) for k, v in geom.by_terrain.items()},
        allowances=fit.allowances,
        used_fraction=rounded(fit.used) if math.isfinite(fit.used) else None,
        fits=fit.fits,
        reasons=fit.reasons,
        wire=[WireOut(id=i, belts=b) for i, b in wire],
        water=[
            WaterOut(
                id=i,
                kind=k,
                crossings=n,
                actions_each=ff.movement.crossing_actions(req.period, req.mover, k, dict(ctx.variants)),
            )
            for i, k, n in geom.water
        ],
        fire_zones_entered=[ZoneEnteredOut(id=z, penalty=move.FIRE_ZONE_PENALTY) for z in geom.zones_entered],
        sources=sources,
    )


# -- terrain and cover ----------------------------------------------------------------------------------------
class CoverStandIn(ff.StandIn):
    quality: ff.Quality = "raw"


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


@FlandersFields.lookup("cover", "Terrain under each stand and its cover")
def post_cover(req: CoverIn) -> CoverOut:
    terrain = req.terrain.index(wire_belt_cm=ff.WIRE_BELT_CM)
    stand_list(list(req.stands), ff.KIT_BASES)
    out = []
    for s in req.stands:
        kinds = terrain.kinds_at(s.stand(ff.KIT_BASES).polygon())
        out.append(StandCoverOut(id=s.id, terrain=sorted(kinds), cover=ff.cover.cover_for(kinds, s.quality)))
    return CoverOut(
        terrain=terrain_to_geojson(terrain.features),
        stands=out,
        sources=[ff.cover.SRC_TERRAIN_COVER, ff.cover.SRC_TYPES_OF_COVER],
    )
