"""Ready scenarios: the specimen game (German attack near Mons, autumn 1914) with terrain, forces and stands
placed on the table.

Table frame: cm, origin at the attacker's left-hand rear corner, x along the attacker's base edge
(0..table_width_cm), y towards the defender (0..table_length_cm), degrees counter-clockwise from +x
(90 faces the defender, 270 the attacker).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core.errors import RulesError
from rules.core.ruleset import Context
from rules.flanders_fields import errata
from rules.flanders_fields.book.organisation import CREWED_QUALITY, Unit, build_template
from rules.flanders_fields.ruleset import FlandersFields, cite
from rules.table.frame import TABLE_LENGTH_CM, TABLE_WIDTH_CM
from rules.table.terrain import FEATURE_KINDS

# The feature kinds a scenario may use are the ones the table geometry models.
TERRAIN_KINDS: tuple[str, ...] = FEATURE_KINDS


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    period: str
    attacker_nation: str
    defender_nation: str
    table_width_cm: float
    table_length_cm: float
    terrain: dict[str, Any]  # GeoJSON FeatureCollection; feature properties carry `kind`
    forces: Mapping[str, tuple[Unit, ...]]  # side -> the side's whole order of battle
    placements: Mapping[str, dict[str, Any]]  # stand id -> {"center": [x, y], "facing_deg": deg}
    notes: tuple[str, ...]
    source: str
    # unit ids (whole battalions) that start off table as reinforcements; their stands have no placement
    off_table: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # side -> [x_min, y_min, x_max, y_max] where the side deploys
    deployment_zones: Mapping[str, tuple[float, float, float, float]] = field(default_factory=dict)
    special_rules: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    errata: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "period": self.period,
            "attacker_nation": self.attacker_nation,
            "defender_nation": self.defender_nation,
            "table_width_cm": self.table_width_cm,
            "table_length_cm": self.table_length_cm,
            "terrain": self.terrain,
            "forces": {side: [u.as_dict() for u in units] for side, units in self.forces.items()},
            "placements": dict(self.placements),
            "off_table": {side: list(ids) for side, ids in self.off_table.items()},
            "deployment_zones": {side: list(z) for side, z in self.deployment_zones.items()},
            "special_rules": {side: list(r) for side, r in self.special_rules.items()},
            "notes": list(self.notes),
            "errata": list(self.errata),
            "source": self.source,
        }


# ----------------------------------------------------------------------------------------------------------
# German attack on the BEF somewhere near Mons, autumn 1914
MONS = cite("SPECIMEN GAMES, GERMAN ATTACK ON THE BEF SOMEWHERE NEAR MONS, AUTUMN 1914")
WIDTH, LENGTH = TABLE_WIDTH_CM, TABLE_LENGTH_CM
DEPLOY_DEPTH = 15.0  # "Both sides deploy 15cm onto the table"
RIVER_Y = (
    LENGTH - LENGTH / 3
)  # "about one third of the way across the table from the British deployment zone"
BRIDGES_X = (WIDTH / 3, 2 * WIDTH / 3)  # "two bridges equally spaced along it"
# Not in the text (erratum mons-table-layout): roads 2 cm wide, "small hills" one level (1 cm) high.
ROAD_WIDTH_CM = 2.0
HILL_HEIGHT_CM = 1.0


def _feature(kind: str, geometry: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {"type": "Feature", "properties": {"kind": kind, **props}, "geometry": geometry}


def _poly(*pts: tuple[float, float]) -> dict[str, Any]:
    ring = [list(p) for p in (*pts, pts[0])]
    return {"type": "Polygon", "coordinates": [ring]}


def _line(*pts: tuple[float, float]) -> dict[str, Any]:
    return {"type": "LineString", "coordinates": [list(p) for p in pts]}


def _mons_terrain() -> dict[str, Any]:
    # "a few small hills, woods and a village or two", kept clear of both 15 cm deployment zones.
    features = [
        _feature("river", _line((0.0, RIVER_Y), (WIDTH, RIVER_Y)), name="the river"),
        *(
            _feature(
                "road",
                _line((x, 0.0), (x, LENGTH)),
                name=f"road over bridge {i}",
                bridge_at=[x, RIVER_Y],
                width_cm=ROAD_WIDTH_CM,
            )
            for i, x in enumerate(BRIDGES_X, start=1)
        ),
        _feature(
            "hill",
            _poly((85, 50), (110, 50), (110, 70), (85, 70)),
            name="German-side hill",
            height=1,
            height_cm=HILL_HEIGHT_CM,
        ),
        _feature(
            "hill",
            _poly((10, 140), (30, 140), (30, 158), (10, 158)),
            name="British-side hill",
            height=1,
            height_cm=HILL_HEIGHT_CM,
        ),
        _feature("woods", _poly((55, 70), (72, 70), (72, 88), (55, 88)), name="central wood"),
        _feature("woods", _poly((98, 135), (115, 135), (115, 152), (98, 152)), name="riverside wood"),
        _feature("village", _poly((30, 92), (50, 92), (50, 106), (30, 106)), name="village by bridge 1"),
        _feature("village", _poly((72, 136), (90, 136), (90, 150), (72, 150)), name="village by bridge 2"),
    ]
    return {"type": "FeatureCollection", "features": features}


class _Layout:
    """Places stands in rows; y runs towards the defender, so the defender's front row has the lower y."""

    def __init__(self) -> None:
        self.placements: dict[str, dict[str, Any]] = {}

    def put(self, unit: Unit, x: float, y: float, facing: float) -> None:
        assert unit.base is not None, unit.id
        self.placements[unit.id] = {"center": [x, y], "facing_deg": facing}

    def battalion(
        self, bn: Unit, x0: float, front_y: float, second_y: float, hq_y: float, facing: float
    ) -> None:
        companies = [c for c in bn.children if c.kind == "rifle-company"]
        per_row = 2
        for ci, coy in enumerate(companies):
            y = front_y if ci < per_row else second_y
            start = x0 + 3 + (ci % per_row) * (3.5 * len(coy.children) + 2)
            for pi, pl in enumerate(coy.children):
                self.put(pl, start + 3.5 * pi, y, facing)
        hq = next(u for u in bn.children if u.kind == "battalion-command")
        self.put(hq, x0 + 17.5, hq_y, facing)
        weapons = [u for u in bn.stands() if u.kind == "mmg"]
        for wi, w in enumerate(weapons):
            self.put(w, x0 + 5 + 20 * wi if len(weapons) > 1 else x0 + 36, hq_y, facing)


def build_mons_1914(variants: Mapping[str, str] | None = None) -> Scenario:
    ctx: Context = FlandersFields().context("early", variants)
    layout = _Layout()
    prefix = "mons-1914"

    # GERMAN FORCES: "Two Infantry Regiments each with three infantry battalions. Each infantry battalion has 4
    # infantry companies of three platoons in addition each battalion has two Maxim machinegun models."
    german_quality = str(ctx.value(errata.MONS_GERMAN_QUALITY))
    regiments: list[Unit] = []
    off_de: list[str] = []
    # "The first Group has three batteries each of one 77mm field gun model while the second group has 2
    # batteries of field guns and one battery of 105mm howitzers"
    groups = (("77mm-field-gun",) * 3, ("77mm-field-gun", "77mm-field-gun", "105mm-howitzer"))
    for r in (1, 2):
        rid = f"{prefix}/de/infantry-regiment-{r}"
        battalions = [
            build_template(
                "de-1914",
                "battalion",
                id_prefix=f"{rid}/infantry-battalion-{b}",
                quality=german_quality,
                name=f"{r}. Regiment, Battalion {b}",
            )
            for b in (1, 2, 3)
        ]
        # "one battalion from each of the German regiments ... are off table as reinforcements"
        off_de.append(battalions[2].id)
        rhq = Unit(
            f"{rid}/regiment-command-1",
            "Regimental HQ",
            "stand",
            "regiment-command",
            "regimental-command",
            german_quality,
            4,
            (),
            f"{MONS}: Regimental HQ 4 Figs (German 1914-15 table)",
        )
        gid = f"{rid}/field-artillery-group-1"
        batteries = tuple(
            Unit(
                f"{gid}/{'howitzer' if 'howitzer' in gun else 'field'}-battery-{i}",
                "105mm Howitzer Battery" if "howitzer" in gun else "77mm Battery",
                "battery",
                "howitzer-battery" if "howitzer" in gun else "field-battery",
                "field-artillery",
                CREWED_QUALITY,
                1,
                (),
                f"{MONS}: Field Artillery Group {r}",
                gun,
            )
            for i, gun in enumerate(groups[r - 1], start=1)
        )
        # "The artillery is attached at Regimental level and may only be commanded by the Regimental commander."
        group = Unit(
            gid,
            f"Field Artillery Group {r}",
            "battalion",
            "field-artillery-group",
            None,
            CREWED_QUALITY,
            0,
            batteries,
            f"{MONS}: one Field Artillery Regiment with two Field Artillery Groups, each "
            "supporting one Infantry Regiment",
        )
        regiments.append(
            Unit(
                rid,
                f"Infantry Regiment {r}",
                "regiment",
                "infantry-regiment",
                None,
                german_quality,
                0,
                (rhq, *battalions, group),
                f"{MONS}: GERMAN FORCES",
            )
        )
        # Two battalions of each regiment on table, 30 cm of frontage each; guns and HQ behind them.
        for b in (0, 1):
            layout.battalion(
                battalions[b], x0=60 * (r - 1) + 30 * b, front_y=12, second_y=9, hq_y=5.5, facing=90
            )
        layout.put(rhq, 60 * (r - 1) + 30, 5.5, 90)
        for i, bty in enumerate(batteries):
            layout.put(bty, 60 * (r - 1) + (10, 20, 40)[i], 2.2, 90)

    # BRITISH FORCES: "one Infantry Brigade of four battalions. Each battalion has four companies each with four
    # rifle platoons, in addition each Battalion has one Vickers machinegun model. Two battalions of infantry
    # are classed as veteran." 1914 BEF divisions "are considered to be Experienced".
    bid = f"{prefix}/gb/infantry-brigade-1"
    gb_battalions = [
        build_template(
            "gb-1914",
            "battalion",
            id_prefix=f"{bid}/infantry-battalion-{b}",
            quality="veteran" if b <= 2 else "experienced",
            name=f"Battalion {b}",
        )
        for b in (1, 2, 3, 4)
    ]
    bhq = Unit(
        f"{bid}/brigade-command-1",
        "Brigade HQ",
        "stand",
        "brigade-command",
        "regimental-command",
        "experienced",
        4,
        (),
        f"{MONS}: Brigade HQ 4 Figs (British 1914-15 table)",
    )
    howitzer = ctx.value(errata.MONS_HOWITZER_CALIBRE)
    # "a field artillery brigade with three field artillery batteries each of 1 18ld model and one field howitzer
    # battery with one 4.2" howitzer model. Only the Brigade commander may issue orders to the artillery"
    fab_id = f"{bid}/field-artillery-brigade-1"
    gb_guns = (
        *(
            Unit(
                f"{fab_id}/field-battery-{i}",
                f"18pdr Battery {i}",
                "battery",
                "field-battery",
                "field-artillery",
                CREWED_QUALITY,
                1,
                (),
                f"{MONS}: three field artillery batteries each of 1 18ld model",
                "18pdr-field-gun",
            )
            for i in (1, 2, 3)
        ),
        Unit(
            f"{fab_id}/howitzer-battery-1",
            "Field Howitzer Battery",
            "battery",
            "howitzer-battery",
            "field-artillery",
            CREWED_QUALITY,
            1,
            (),
            ctx.citation(errata.MONS_HOWITZER_CALIBRE),
            "4.5in-field-howitzer" if howitzer == "4.5in-howitzer" else None,
        ),
    )
    fab = Unit(
        fab_id,
        "Field Artillery Brigade",
        "brigade",
        "field-artillery-brigade",
        None,
        CREWED_QUALITY,
        0,
        gb_guns,
        f"{MONS}: In support there is a field artillery brigade",
    )
    brigade = Unit(
        bid,
        "Infantry Brigade",
        "brigade",
        "infantry-brigade",
        None,
        "experienced",
        0,
        (bhq, *gb_battalions, fab),
        f"{MONS}: BRITISH FORCES",
    )
    # "one battalion from the Brigade starts the game off table"
    off_gb = [gb_battalions[3].id]
    for b in (0, 1, 2):
        layout.battalion(
            gb_battalions[b],
            x0=40 * b,
            front_y=LENGTH - 12,
            second_y=LENGTH - 9,
            hq_y=LENGTH - 5.5,
            facing=270,
        )
    layout.put(bhq, 70, LENGTH - 2.5, 270)
    for x, gun in zip((10, 30, 50, 90), gb_guns, strict=True):
        layout.put(gun, x, LENGTH - 2.2, 270)

    return Scenario(
        id="mons-1914",
        name="German attack on the BEF somewhere near Mons, autumn 1914",
        period="early",
        attacker_nation="german",
        defender_nation="british",
        table_width_cm=WIDTH,
        table_length_cm=LENGTH,
        terrain=_mons_terrain(),
        forces={"attacker": tuple(regiments), "defender": (brigade,)},
        placements=layout.placements,
        off_table={"attacker": tuple(off_de), "defender": tuple(off_gb)},
        deployment_zones={
            "attacker": (0.0, 0.0, WIDTH, DEPLOY_DEPTH),
            "defender": (0.0, LENGTH - DEPLOY_DEPTH, WIDTH, LENGTH),
        },
        special_rules={
            "attacker": ("prussian-discipline",),
            "defender": ("long-range-marksmanship", "mad-minute"),
        },
        notes=(
            "The British and Germans are racing to secure the bridges over a small river.",
            "Reinforcements arrive on the table at the start of turn two if a 6 is rolled on a die, on the next "
            "turn the roll is reduced to a 5, then a 4 etc. until they arrive.",
            "All artillery is limbered and all machineguns start on pack animals.",
            "Prussian Discipline: each Regimental Commander and each Battalion commander may add +2 to any action "
            "or morale roll three times in a game, stated BEFORE the order die is rolled.",
            "Long Range Marksmanship extends maximum rifle range to 60cm; Mad Minute: each rifle company fires "
            "twice at a target for a single battalion order, once per battalion per game.",
            "Table size and positions are firestep's layout (erratum mons-table-layout).",
        ),
        source=MONS,
        errata=(
            errata.MONS_TABLE_LAYOUT,
            errata.MONS_GERMAN_QUALITY,
            errata.MONS_HOWITZER_CALIBRE,
        ),
    )


# A scenario is a function of the game's readings: an erratum can change its forces (German quality at Mons),
# so a game is built with `build_scenario(id, variants)`, never from a copy built with other readings.
SCENARIO_BUILDERS: dict[str, Callable[[Mapping[str, str] | None], Scenario]] = {
    "mons-1914": build_mons_1914,
}

# Each scenario at the default readings, for listings and the dataset (names, table, sources).
SCENARIOS: dict[str, Scenario] = {sid: build(None) for sid, build in SCENARIO_BUILDERS.items()}


def build_scenario(scenario_id: str, variants: Mapping[str, str] | None = None) -> Scenario:
    """The scenario built with the chosen readings (the defaults for the rest); refuses an unknown scenario
    or reading with a RulesError naming the field."""
    build = SCENARIO_BUILDERS.get(scenario_id)
    if build is None:
        raise RulesError("scenario", f"unknown scenario {scenario_id!r}", sorted(SCENARIO_BUILDERS))
    return build(variants)


@FlandersFields.dataset("scenarios", "Ready scenarios: terrain, forces and placed stands")
def _scenarios(period: str | None) -> list[dict[str, Any]]:
    return [s.as_dict() for s in SCENARIOS.values()]
