"""Flanders Fields' geometry lookups, what the artillery and the gas put on the table: gas clouds drifting on the
wind and their forecast, rolling barrages, deviation of an aiming point and fire-plan grid references. The
geometry lives in rules/table, the request models it shares in rules.table.requests."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from rules.flanders_fields.play import table_rules as ff
from rules.flanders_fields.ruleset import FlandersFields
from rules.table import barrage, coverage, frame
from rules.table import gas as table_gas
from rules.table.geojson import GeoGeometry
from rules.table.requests import (
    Angle,
    Coord,
    Float,
    Int,
    Point2,
    Strict,
    TableIn,
    Variants,
    fraction_text,
    geojson,
    rounded,
    stand_list,
)
from rules.table.templates import Template


# -- gas ------------------------------------------------------------------------------------------------------
class CloudIn(Strict):
    kind: Literal["gas-attacker", "gas-defender"] = "gas-attacker"
    center: Point2
    facing_deg: Angle = 90.0

    def template(self) -> Template:  # a cloud's kinds are Flanders Fields' gas templates
        return Template(ff.KIT_TEMPLATES[self.kind], self.center, self.facing_deg)


class GasDriftIn(Strict):
    cloud: CloudIn
    wind_deg: Angle
    speed_cm: Annotated[Float, Field(ge=0, le=100, allow_inf_nan=False)]
    stands: ff.Stands


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
    polygon: GeoGeometry | None
    swept: GeoGeometry | None
    covered: PassedOut = Field(description="Stands under the cloud where it stops.")
    passed_over: PassedOut = Field(description="Stands the cloud passed over during the move.")
    sources: list[str]


@FlandersFields.lookup("gas-drift", "Move a gas cloud on the wind")
def post_gas_drift(req: GasDriftIn) -> GasDriftOut:
    tpl = req.cloud.template()
    moved_poly, swept = table_gas.drift(tpl.polygon(), req.wind_deg, req.speed_cm)
    dx, dy = table_gas.offset(req.wind_deg, req.speed_cm)
    index = coverage.StandIndex.build(stand_list(req.stands, ff.KIT_BASES))
    at_end = coverage.classify(moved_poly, index, 0.0)
    passed = coverage.classify(swept, index, 0.0)
    return GasDriftOut(
        cloud=CloudOut(
            kind=tpl.kind,
            center=[rounded(tpl.center[0] + dx), rounded(tpl.center[1] + dy)],
            facing_deg=tpl.facing_deg,
        ),
        polygon=geojson(moved_poly),
        swept=geojson(swept),
        covered=PassedOut(full=at_end.full, partial=at_end.partial),
        passed_over=PassedOut(full=passed.full, partial=passed.partial),
        sources=[ff.gas.SRC_GAS, tpl.spec.source],
    )


class GasForecastIn(Strict):
    cloud: CloudIn
    wind_deg: Angle
    speed_cm: Annotated[Int, Field(ge=0, le=100)]
    turns: Annotated[Int, Field(ge=1, le=ff.gas.OFFENSIVE_MAX_TURNS)]
    stands: Annotated[list[ff.StandIn], Field(default_factory=list, max_length=200)]
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


@FlandersFields.lookup("gas-forecast", "Chance the cloud covers each stand")
def post_gas_forecast(req: GasForecastIn) -> GasForecastOut:
    ctx = ff.context(req.variants)
    calm = str(ctx.value(ff.GAS_SPEED_BELOW_ZERO))
    wind = ff.gas.Wind(ff.gas.normalise_deg(req.wind_deg), req.speed_cm)

    def step(w: Any) -> Any:
        return ff.gas.next_wind_distribution(w, calm)

    index = coverage.StandIndex.build(stand_list(req.stands, ff.KIT_BASES))
    fc = table_gas.forecast(req.cloud.template().polygon(), wind, req.turns, index, step)
    turns = [
        TurnOut(
            turn=t + 1,
            dispersed=float(fc.dispersed[t]),
            dispersed_exact=fraction_text(fc.dispersed[t]),
            stands=[
                StandChanceOut(
                    id=s.id,
                    covered=float(fc.covered[t][s.id]),
                    covered_exact=fraction_text(fc.covered[t][s.id]),
                    full=float(fc.full[t][s.id]),
                    full_exact=fraction_text(fc.full[t][s.id]),
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
        sources=[ff.gas.SRC_GAS, ff.gas.SRC_GAS_MOVEMENT, ctx.citation(ff.GAS_SPEED_BELOW_ZERO)],
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
    stands: ff.Stands
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
    polygon: GeoGeometry | None
    swept: GeoGeometry | None
    passed_over: PassedOut
    danger_zone: GeoGeometry | None
    danger: list[DangerOut]
    sources: list[str]


@FlandersFields.lookup("barrage-advance", "Advance a rolling barrage")
def post_barrage_advance(req: BarrageAdvanceIn) -> BarrageAdvanceOut:
    b = req.barrage
    tpl = Template(ff.KIT_TEMPLATES[ff.BARRAGE_TEMPLATE], (b.center[0], b.center[1]), b.facing_deg)
    adv = barrage.advance(
        tpl,
        req.distance_cm,
        coverage.StandIndex.build(stand_list(req.stands, ff.KIT_BASES)),
        ff.DANGER_ZONE_CM,
        req.table.table(),
    )
    return BarrageAdvanceOut(
        barrage=BarrageOut(
            center=[rounded(adv.moved.center[0]), rounded(adv.moved.center[1])], facing_deg=b.facing_deg
        ),
        polygon=geojson(adv.polygon),
        swept=geojson(adv.swept),
        passed_over=PassedOut(full=adv.passed_over.full, partial=adv.passed_over.partial),
        danger_zone=geojson(adv.danger_zone),
        danger=[
            DangerOut(
                id=h.id,
                side=h.side,
                distance_cm=rounded(h.distance_cm),
                at_risk=float(h.at_risk),
                at_risk_exact=fraction_text(h.at_risk),
            )
            for h in adv.danger
        ],
        sources=[
            tpl.spec.source,
            ff.SRC_BARRAGE_DANGER,
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


@FlandersFields.lookup("deviate", "Deviate an aiming point")
def post_deviate(req: DeviateIn) -> DeviateOut:
    x, y = frame.deviate(req.side, (req.aim[0], req.aim[1]), req.direction_clock, req.distance_cm)
    t = req.table.table()
    return DeviateOut(
        point=[rounded(x), rounded(y)],
        direction_deg=frame.clock_to_deg(req.side, req.direction_clock),
        on_table=0 <= x <= t.width_cm and 0 <= y <= t.length_cm,
        sources=[ff.SRC_DEVIATION],
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


@FlandersFields.lookup("grid-to-table", "Fire-plan grid ref to table")
def post_grid_to_table(req: GridRefIn) -> GridRefOut:
    x, y = frame.grid_to_table(req.side, req.along_cm, req.up_cm, req.table.table())
    return GridRefOut(
        side=req.side,
        along_cm=req.along_cm,
        up_cm=req.up_cm,
        point=[x, y],
        sources=[ff.SRC_FIRE_PLANS],
    )


@FlandersFields.lookup("table-to-grid", "Table point to grid ref")
def post_table_to_grid(req: TablePointIn) -> GridRefOut:
    along, up = frame.table_to_grid(req.side, req.point[0], req.point[1], req.table.table())
    return GridRefOut(
        side=req.side,
        along_cm=along,
        up_cm=up,
        point=[req.point[0], req.point[1]],
        sources=[ff.SRC_FIRE_PLANS],
    )
