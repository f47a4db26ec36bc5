"""The body of a scenario import or replacement (docs/scenario-format.md): each top-level field typed and
bounded here, so a hostile value is refused naming its field before the document is read; the document's own
checks (its rule set's periods, nations, qualities, the units, every shape on the table) are
rules.core.scenario.validate's."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from app.data.bounded import (
    MAX_EDITOR_TABLE_CM,
    MIN_TABLE_CM,
    Float,
    Int,
    JsonObject,
    Position,
    Terrain,
    TerrainPolygon,
    Variants,
    nested_at_most,
)
from app.data.numbers import blank_as
from rules.core import scenario as S
from rules.core import victory as V
from rules.table import objectives as O

SideName = Literal["attacker", "defender"]
Text = Annotated[str, Field(max_length=S.MAX_TEXT)]
Name = Annotated[str, Field(min_length=1, max_length=100)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScenarioTable(_Strict):
    width_cm: Annotated[Float, Field(ge=1, le=S.MAX_TABLE_CM)]
    length_cm: Annotated[Float, Field(ge=1, le=S.MAX_TABLE_CM)]


class ScenarioSide(_Strict):
    nationality: Annotated[str, Field(max_length=32)]
    deployment_zone: TerrainPolygon | None = None
    # Units nest S.MAX_DEPTH levels (each a unit and its list of children) with a unit's own values below.
    forces: Annotated[
        list[dict[str, Any]], Field(max_length=S.MAX_UNITS), nested_at_most(2 * S.MAX_DEPTH + 4)
    ] = Field(
        description="Units (id, name, level, kind, base, quality, models, gun, source, placement, off_table, "
        "children) or organisation-table entries (table_id, template, quality, name, id, off_table)."
    )


class ObjectivePoint(_Strict):
    type: Literal["Point"]
    coordinates: Position


class ObjectiveProperties(_Strict):
    name: Annotated[str, Field(min_length=1, max_length=O.MAX_NAME)]
    vp: Annotated[Int, Field(ge=0, le=O.MAX_VP)]
    scored: Literal["each_turn", "game_end", "first_taken", "held_turns"]
    held_by: Literal["stands", "attacker", "defender"] | None = None
    turns: Annotated[Int, Field(ge=1, le=O.MAX_HELD_TURNS)] | None = None  # held_turns only
    consecutive: bool | None = None  # held_turns only: in a row, else in all
    # Only this side (and the referee) sees it until it scores (app.services.secret_objectives, issue 69).
    secret_to: Literal["attacker", "defender"] | None = None


class ObjectiveFeature(_Strict):
    type: Literal["Feature"]
    id: Annotated[str, Field(pattern=O.ID_PATTERN.pattern)] | None = None
    geometry: Annotated[ObjectivePoint | TerrainPolygon, Field(discriminator="type")]
    properties: ObjectiveProperties


class TableObjectives(_Strict):
    """The scenario's objectives on the table (rules.table.objectives): points or areas, in cm."""

    type: Literal["FeatureCollection"]
    features: Annotated[list[ObjectiveFeature], Field(max_length=O.MAX_OBJECTIVES)]


class VictoryCondition(_Strict):
    """A scenario's victory condition (rules.core.victory): its kind and the keys that kind takes (checked
    there against its objectives and its rule set)."""

    kind: Literal["points", "objective_taken", "side_broken"]
    points: Annotated[Int, Field(ge=1, le=V.MAX_THRESHOLD)] | None = None
    objective: Annotated[str, Field(pattern=O.ID_PATTERN.pattern)] | None = None
    side: SideName | None = None
    stands_lost: Annotated[Int, Field(ge=1, le=100)] | None = None


# A game of counters' values from the club's own copy (its rule set checks them): a scenario's `board`, and a
# game's own in set-up (PATCH /api/v1/games/{id} `club`).
ScenarioBoard = Annotated[dict[str, Any], Field(max_length=32), nested_at_most(4)]


class ScenarioIn(_Strict):
    format: Literal["firestep-scenario/1"]
    id: Annotated[str, Field(pattern=S.ID_PATTERN.pattern)] | None = None
    title: Annotated[str, Field(min_length=1, max_length=200)]
    ruleset: Annotated[str, Field(max_length=64)]
    period: Annotated[str, Field(max_length=32)] | None  # null: a rule set that names no periods
    date: Annotated[str, Field(max_length=100)] | None = None
    source: Annotated[str, Field(max_length=1000)] | None = None
    table: ScenarioTable
    turns: Annotated[Int, Field(ge=1, le=S.MAX_TURNS)] | None = None
    first_side: SideName | None = None
    objectives: Text | None = None
    victory: Text | None = None
    notes: Annotated[
        list[Annotated[str, Field(max_length=S.MAX_NOTES_CHARS)]], Field(max_length=S.MAX_NOTES)
    ] = []
    special_rules: dict[SideName, Annotated[list[Name], Field(max_length=S.MAX_RULES)]] = {}
    fire_plan: JsonObject = {}
    variants: Variants = {}
    errata: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=50)] = []
    terrain: Terrain | None = None
    # A game of counters on the players' own board: the values it starts with (its rule set checks them).
    board: ScenarioBoard = {}
    table_objectives: TableObjectives | None = None
    victory_conditions: Annotated[list[VictoryCondition], Field(max_length=V.MAX_CONDITIONS)] | None = None
    sides: dict[SideName, ScenarioSide]

    def document(self) -> dict[str, Any]:
        """The document as it was sent (fields left out stay out)."""
        return self.model_dump(mode="json", exclude_unset=True)


ZoneDepth = Annotated[int, Field(ge=0, le=500)]
FormKey = Annotated[str, Field(min_length=1, max_length=64)]


def _depth(document: dict[str, Any], side: str) -> int | None:
    """How deep a side's zone in a document is, as the editor's field shows it (None: no zone)."""
    zone = ((document.get("sides") or {}).get(side) or {}).get("deployment_zone")
    if not zone:
        return None
    ys = [p[1] for p in zone["coordinates"][0]]
    return round(max(ys) - min(ys))


def _nation(document: dict[str, Any], side: str) -> str:
    return str(((document.get("sides") or {}).get(side) or {}).get("nationality") or "")


def _first_of(conditions: object, kind: str) -> VictoryCondition | None:
    """A document's first victory condition of the kind: the editor's fields show one of each."""
    for c in conditions if isinstance(conditions, list) else []:
        if isinstance(c, dict) and c.get("kind") == kind:
            return VictoryCondition.model_validate(c)
    return None


def _not_shown(conditions: object) -> list[Any]:
    """A document's victory conditions the editor's fields do not show (its first points, side broken and taken
    objective are the fields): a second of a kind, from a file: kept as read when the fields change."""
    shown: set[str] = set()
    kept = []
    for c in conditions if isinstance(conditions, list) else []:
        kind = c.get("kind") if isinstance(c, dict) else None
        if kind in ("points", "side_broken", "objective_taken") and kind not in shown:
            shown.add(kind)
        else:
            kept.append(c)
    return kept


_blank_is_none = blank_as(None)


# A secret objective's points left blank: its field's placeholder, never its prefilled value (a tap on a
# prefilled "1" and a "3" gave 13 VP).
SECRET_VP_BLANK = 1


class DraftParticulars(BaseModel):
    """The scenario's particulars as the editor's form posts them (app.pages.scenario_drafts): each field bounded
    as the format bounds it, text read as typed (a form sends strings; numbers are read from them here). A blank
    title is kept: a draft is checked as a whole by the rule set, which says what it still needs."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    title: Annotated[str, Field(max_length=200)] = ""
    date: Annotated[str, Field(max_length=100)] = ""
    period: Annotated[str, Field(max_length=32)] | None = None
    turns: Annotated[Annotated[int, Field(ge=1, le=S.MAX_TURNS)] | None, _blank_is_none] = None
    first_side: SideName = "attacker"
    objectives: Text = ""
    victory: Text = ""
    notes: Text = ""  # one a line, as the form's textarea holds them
    width_cm: Annotated[int, Field(ge=MIN_TABLE_CM, le=MAX_EDITOR_TABLE_CM)] = 120
    length_cm: Annotated[int, Field(ge=MIN_TABLE_CM, le=MAX_EDITOR_TABLE_CM)] = 180
    # Each side's zone, as deep as this from its own edge across the table (blank or 0: none).
    zone_attacker: Annotated[ZoneDepth | None, _blank_is_none] = None
    zone_defender: Annotated[ZoneDepth | None, _blank_is_none] = None
    fire_plan: dict[
        SideName, Annotated[dict[FormKey, Annotated[int, Field(ge=0, le=99)]], Field(max_length=40)]
    ] = {}
    special_rules: dict[
        SideName, Annotated[list[Annotated[str, Field(max_length=100)]], Field(max_length=S.MAX_RULES)]
    ] = {}
    variants: Annotated[dict[FormKey, FormKey], Field(max_length=50)] = {}  # readings chosen, not defaults
    # Each side's nationality, as the Forces panel names its fields (org-tables.js reads them by these names).
    attacker_force_nation: Annotated[str, Field(max_length=32)] = ""
    defender_force_nation: Annotated[str, Field(max_length=32)] = ""
    # The victory conditions the editor offers (rules.core.victory): a points threshold (blank: none) and a side
    # broken (`broken_side` "none": no such condition; "either": whichever side) at a share of its stands lost
    # (blank: as its rule set declares a side broken, which the rule set's checks refuse where it declares none).
    victory_points: Annotated[Annotated[int, Field(ge=1, le=V.MAX_THRESHOLD)] | None, _blank_is_none] = None
    broken_side: Literal["none", "either", "attacker", "defender"] = "none"
    broken_stands_lost: Annotated[Annotated[int, Field(ge=1, le=100)] | None, _blank_is_none] = None
    # An objective taken wins (blank: no such condition): one of the draft's public objectives by its id, checked
    # against them by the rule set's checks (a secret one's name would reach the other side).
    taken_objective: Annotated[str, Field(pattern=f"^$|{O.ID_PATTERN.pattern}")] = ""
    taken_side: SideName = "attacker"

    def conditions(self) -> list[VictoryCondition]:
        """The victory conditions as the format writes them, in the form's order."""
        points = [VictoryCondition(kind="points", points=self.victory_points)] if self.victory_points else []
        side: SideName | None = None if self.broken_side in ("none", "either") else self.broken_side  # type: ignore[assignment]
        broken = VictoryCondition(kind="side_broken", side=side, stands_lost=self.broken_stands_lost)
        taken = VictoryCondition(
            kind="objective_taken", objective=self.taken_objective or None, side=self.taken_side
        )
        return [
            *points,
            *([broken] if self.broken_side != "none" else []),
            *([taken] if taken.objective else []),
        ]

    def _depth(self, side: str) -> int | None:
        return self.zone_attacker if side == "attacker" else self.zone_defender

    def zone(self, side: SideName) -> dict[str, Any] | None:
        """A side's zone as the format draws it: the table's breadth, from its own edge."""
        depth = min(self._depth(side) or 0, self.length_cm)
        if not depth:
            return None
        y0, y1 = (0, depth) if side == "attacker" else (self.length_cm - depth, self.length_cm)
        w = self.width_cm
        return {"type": "Polygon", "coordinates": [[[0, y0], [w, y0], [w, y1], [0, y1], [0, y0]]]}

    def into(self, document: dict[str, Any]) -> dict[str, Any]:
        """The draft's document with these particulars in it, in the format's own fields."""
        notes = [line.strip() for line in self.notes.splitlines() if line.strip()]
        sides = document.get("sides") or {}
        # A side's zone as the document holds it (a file's, of any shape) while its depth and the table are as the
        # form shows them; drawn anew across the table from its edge once either changes.
        table = {"width_cm": self.width_cm, "length_cm": self.length_cm}
        kept_zone = {
            side: (sides.get(side) or {}).get("deployment_zone")
            if document.get("table") == table and _depth(document, side) == self._depth(side)
            else self.zone(side)
            for side in ("attacker", "defender")
        }
        shown = [c.model_dump(exclude_none=True) for c in self.conditions()]
        conditions = [*_not_shown(document.get("victory_conditions")), *shown]
        kept = {k: v for k, v in document.items() if k != "victory_conditions"}  # none: the key left out
        return {
            **kept,
            **({"victory_conditions": conditions} if conditions else {}),
            "sides": {
                side: {
                    **(sides.get(side) or {"forces": []}),
                    "nationality": self.attacker_force_nation
                    if side == "attacker"
                    else self.defender_force_nation,
                    "deployment_zone": kept_zone[side],
                }
                for side in ("attacker", "defender")
            },
            "fire_plan": self.fire_plan,
            "special_rules": self.special_rules,
            "variants": self.variants,
            "title": self.title,
            "date": self.date,
            "period": self.period or None,
            "turns": self.turns,
            "first_side": self.first_side,
            "objectives": self.objectives,
            "victory": self.victory,
            "notes": notes,
            "table": table,
        }

    @classmethod
    def of(cls, document: dict[str, Any]) -> DraftParticulars:
        """A draft's particulars as its form shows them (a document of another shape: the defaults)."""
        table = document.get("table") or {}
        try:
            points = _first_of(document.get("victory_conditions"), "points")
            broken = _first_of(document.get("victory_conditions"), "side_broken")
            taken = _first_of(document.get("victory_conditions"), "objective_taken")
            return cls.model_validate(
                {
                    **{k: document.get(k) or "" for k in ("title", "date", "objectives", "victory")},
                    "period": document.get("period"),
                    "turns": document.get("turns"),
                    "first_side": document.get("first_side") or "attacker",
                    "notes": "\n".join(str(n) for n in document.get("notes") or []),
                    "width_cm": table.get("width_cm", 120),
                    "length_cm": table.get("length_cm", 180),
                    **{f"zone_{side}": _depth(document, side) for side in ("attacker", "defender")},
                    **{f"{side}_force_nation": _nation(document, side) for side in ("attacker", "defender")},
                    **{k: document.get(k) or {} for k in ("fire_plan", "special_rules", "variants")},
                    "victory_points": points.points if points else None,
                    "broken_side": (broken.side or "either") if broken else "none",
                    "broken_stands_lost": broken.stands_lost if broken else None,
                    "taken_objective": (taken.objective or "") if taken else "",
                    "taken_side": (taken.side or "attacker") if taken else "attacker",
                }
            )
        except ValidationError:
            return cls()


def _checked(value: Any) -> Any:
    """A form's checkbox: sent ("on") when ticked, absent when not."""
    return value in (True, "on", "true")


class SecretObjectiveForm(BaseModel):
    """The referee's form giving a side a secret objective at set-up (app.pages.secret_objective_form): a point
    on the table, typed as a form sends it (strings read as numbers here), made into the objective the API
    takes (`objective`). `turns` and `consecutive` are read for `held_turns` only, as the format keeps them."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    side: SideName
    name: Annotated[str, Field(min_length=1, max_length=O.MAX_NAME)]
    vp: Annotated[int, Field(ge=0, le=O.MAX_VP), blank_as(SECRET_VP_BLANK)] = SECRET_VP_BLANK
    scored: Literal["each_turn", "game_end", "first_taken", "held_turns"]
    turns: Annotated[Annotated[int, Field(ge=1, le=O.MAX_HELD_TURNS)] | None, _blank_is_none] = None
    consecutive: Annotated[bool, BeforeValidator(_checked)] = False
    x_cm: Annotated[float, Field(ge=0, le=S.MAX_TABLE_CM, allow_inf_nan=False)]
    y_cm: Annotated[float, Field(ge=0, le=S.MAX_TABLE_CM, allow_inf_nan=False)]

    def objective(self) -> ObjectiveFeature:
        held = {"turns": self.turns, "consecutive": self.consecutive} if self.scored == "held_turns" else {}
        properties = {"name": self.name, "vp": self.vp, "scored": self.scored, **held}
        return ObjectiveFeature.model_validate(
            {
                "type": "Feature",
                "geometry": {"type": "Point", "coordinates": [self.x_cm, self.y_cm]},
                "properties": {k: v for k, v in properties.items() if v is not None},
            }
        )


FormName = Annotated[str, Field(max_length=200)]
Grade = Annotated[str, Field(max_length=32)]


class FormationPicked(BaseModel):
    """A formation the editor's forces panel adds to a side (app.pages.scenario_forces): a box of an organisation
    table (`table`, `formation`) or, where the rule set has a chart of troops, rows of its sub-units (`kind`
    and `bases` posted once a row). Blank grade or name: the table's own."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    side: SideName
    table: Annotated[str, Field(max_length=64)] = ""
    formation: Annotated[str, Field(max_length=S.MAX_ID)] = ""
    quality: Grade = ""
    name: FormName = ""
    kind: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=50)] = []
    bases: Annotated[list[Annotated[int, Field(ge=1, le=100)]], Field(max_length=50)] = []


class FormationChanged(BaseModel):
    """One change to a formation already in the draft: its grade or its name (blank: unchanged)."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)

    formation: Annotated[str, Field(min_length=1, max_length=S.MAX_ID)]
    quality: Grade = ""
    name: FormName = ""


Cm = Annotated[
    float, Field(allow_inf_nan=False)
]  # bounded by the table's size in the service, which knows it


class FormationDeployed(BaseModel):
    """Where a formation's stands stand, as the map's deployment posts it after a drag or a lay-out
    (scenario-deploy.js): each placed stand once (`stand`, `x`, `y`, `facing` in step), the others not placed;
    or the whole formation off the table."""

    model_config = ConfigDict(extra="ignore")

    formation: Annotated[str, Field(min_length=1, max_length=S.MAX_ID)]
    off_table: bool = False
    stand: Annotated[list[Annotated[str, Field(max_length=S.MAX_ID)]], Field(max_length=S.MAX_UNITS)] = []
    x: Annotated[list[Cm], Field(max_length=S.MAX_UNITS)] = []
    y: Annotated[list[Cm], Field(max_length=S.MAX_UNITS)] = []
    facing: Annotated[list[Annotated[float, Field(ge=-360, le=360)]], Field(max_length=S.MAX_UNITS)] = []
