"""Ready scenarios: the scenario files the rule set ships (rules.flanders_fields.shipped) built by the same
builder as an imported one, and the values of the specimen game's table layout other code reuses.

Table frame: cm, origin at the attacker's left-hand rear corner, x along the attacker's base edge
(0..table_width_cm), y towards the defender (0..table_length_cm), degrees counter-clockwise from +x
(90 faces the defender, 270 the attacker).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from rules.core.errors import RulesError
from rules.core.scenario import SIDES, StandPlacement
from rules.flanders_fields.book.organisation import Unit, UnitRow
from rules.flanders_fields.play.game_setup import DEPLOY_DEPTH as DEPLOY_DEPTH
from rules.flanders_fields.play.game_setup import FlandersFieldsSetup
from rules.flanders_fields.ruleset import FlandersFields
from rules.flanders_fields.shipped import DOCUMENTS
from rules.table.geojson import FeatureCollection
from rules.table.terrain import FEATURE_KINDS

# The feature kinds a scenario may use are the ones the table geometry models.
TERRAIN_KINDS: tuple[str, ...] = FEATURE_KINDS
# Not in the text (erratum mons-table-layout): roads 2 cm wide, "small hills" one level (1 cm) high. The Mons
# file writes them on its roads and hills; a generated table (rules.firestorm.table_battle) reuses them.
ROAD_WIDTH_CM = 2.0
HILL_HEIGHT_CM = 1.0


class ScenarioRow(TypedDict):
    """A built scenario as the dataset serves it: its period, nations, table, terrain, forces, placements,
    reinforcements, deployment zones, special rules, notes, errata and source."""

    id: str
    name: str
    period: str
    attacker_nation: str
    defender_nation: str
    table_width_cm: float
    table_length_cm: float
    terrain: FeatureCollection
    forces: dict[str, list[UnitRow]]
    placements: dict[str, StandPlacement]  # stand id -> its placement, as Scenario.placements
    off_table: dict[str, list[str]]
    deployment_zones: dict[str, list[float]]
    special_rules: dict[str, list[str]]
    notes: list[str]
    errata: list[str]
    source: str


@dataclass(frozen=True)
class Scenario:
    """A scenario document as one game's readings build it."""

    id: str
    name: str
    period: str
    attacker_nation: str
    defender_nation: str
    table_width_cm: float
    table_length_cm: float
    terrain: FeatureCollection  # feature properties carry `kind`
    forces: Mapping[str, tuple[Unit, ...]]  # side -> the side's whole order of battle
    placements: Mapping[str, StandPlacement]  # stand id -> where it stands
    notes: tuple[str, ...]
    source: str
    # unit ids (whole battalions) that start off table as reinforcements; their stands have no placement
    off_table: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # side -> [x_min, y_min, x_max, y_max] of the side's deployment zone
    deployment_zones: Mapping[str, tuple[float, float, float, float]] = field(default_factory=dict)
    special_rules: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    errata: tuple[str, ...] = ()

    def as_dict(self) -> ScenarioRow:
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


def _zone_bounds(zone: Mapping[str, Any] | None) -> tuple[float, float, float, float] | None:
    if not zone:
        return None
    xs = [float(p[0]) for ring in zone["coordinates"] for p in ring]
    ys = [float(p[1]) for ring in zone["coordinates"] for p in ring]
    return (min(xs), min(ys), max(xs), max(ys))


def scenario_from_document(doc: Mapping[str, Any], variants: Mapping[str, str] | None = None) -> Scenario:
    """A (checked) document built with the chosen readings (the document's own, then the defaults)."""
    ctx = FlandersFields().context(doc["period"], {**doc.get("variants", {}), **(variants or {})})
    made = FlandersFieldsSetup.new_forces(ctx, doc)
    off = set(made.off_table)
    sides = doc["sides"]
    zones = {s: _zone_bounds(sides[s].get("deployment_zone")) for s in SIDES}
    # Flanders Fields builds its forces as organisation-table units (play/game_setup.FlandersFieldsSetup.new_forces).
    forces = {s: tuple(u for u in made.forces[s] if isinstance(u, Unit)) for s in SIDES}
    return Scenario(
        id=doc["id"],
        name=doc["title"],
        period=doc["period"],
        attacker_nation=sides["attacker"]["nationality"],
        defender_nation=sides["defender"]["nationality"],
        table_width_cm=float(doc["table"]["width_cm"]),
        table_length_cm=float(doc["table"]["length_cm"]),
        terrain=doc.get("terrain") or FeatureCollection(type="FeatureCollection", features=[]),
        forces=forces,
        placements=made.placements,
        notes=tuple(doc.get("notes", ())),
        source=doc.get("source", ""),
        off_table={s: tuple(u.id for r in forces[s] for u in r.walk() if u.id in off) for s in SIDES},
        deployment_zones={s: z for s, z in zones.items() if z is not None},
        special_rules={s: tuple(r) for s, r in doc.get("special_rules", {}).items()},
        errata=tuple(doc.get("errata", ())),
    )


def build_scenario(scenario_id: str, variants: Mapping[str, str] | None = None) -> Scenario:
    """A shipped scenario built with the chosen readings (the defaults for the rest); refuses an unknown
    scenario or reading with a RulesError naming the field."""
    doc = DOCUMENTS.get(scenario_id)
    if doc is None:
        raise RulesError("scenario", f"unknown scenario {scenario_id!r}", sorted(DOCUMENTS))
    return scenario_from_document(copy.deepcopy(doc), variants)


def build_mons_1914(variants: Mapping[str, str] | None = None) -> Scenario:
    """German attack on the BEF somewhere near Mons, autumn 1914 (SPECIMEN GAMES), from its file."""
    return build_scenario("mons-1914", variants)


# Each scenario at the default readings, for listings and the dataset (names, table, sources).
SCENARIOS: dict[str, Scenario] = {sid: build_scenario(sid) for sid in DOCUMENTS}


@FlandersFields.dataset("scenarios", "Ready scenarios: terrain, forces and placed stands")
def _scenarios(period: str | None) -> list[ScenarioRow]:
    return [s.as_dict() for s in SCENARIOS.values()]
