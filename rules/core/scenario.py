"""Scenario files: one JSON document per scenario (docs/scenario-format.md), checked here whatever its rule set.

A document names its rule set; `validate` checks its shape and limits against that rule set (its periods, errata,
nations, qualities and the table's terrain kinds) and raises a RulesError naming the field and the allowed
values. A game is made from a checked document by its rule set's hook (`GameRules.new_forces`), which may use
`forces_from_document` here: the unit trees as written, values chosen by the game's readings, and the
organisation-table entries the rule set expands.

Table frame: cm, origin at the attacker's left-hand rear corner, x along the attacker's base edge
(0..width_cm), y towards the defender (0..length_cm), degrees counter-clockwise from +x.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

import shapely
from shapely.errors import GEOSException
from shapely.geometry import box, shape

from rules.core.errors import RulesError
from rules.core.victory import Broken, conditions_from_json
from rules.table.objectives import objectives_from_geojson
from rules.table.terrain import Feature, feature_from_geojson, widening_refused

if TYPE_CHECKING:
    from rules.core.kit import TableKit
    from rules.core.records import StateField
    from rules.core.ruleset import Context, RuleSet


class ScenarioBook(Protocol):
    """What the format reads of a rule set's book (rules.core.game.Book): the words a document may use, the
    state a unit may start a game with, how its wire is drawn, and its table kit."""

    @property
    def nations(self) -> tuple[str, ...]: ...
    @property
    def qualities(self) -> tuple[str, ...]: ...
    @property
    def special_rules(self) -> tuple[str, ...]: ...
    @property
    def unit_levels(self) -> tuple[str, ...]: ...
    @property
    def unit_kinds(self) -> tuple[str, ...]: ...
    @property
    def guns(self) -> tuple[str, ...]: ...
    @property
    def state_fields(self) -> tuple[StateField, ...]: ...
    @property
    def wire_belt_cm(self) -> float | None: ...
    @property
    def kit(self) -> TableKit: ...
    @property
    def broken(self) -> Broken | None: ...


class ScenarioRules(Protocol):
    """What the format reads of a rule set's game rules (rules.core.game.GameRules has it): its book, and which
    terrain its period has no place for. A protocol, so the format sits below the game hook."""

    @property
    def book(self) -> ScenarioBook: ...
    def terrain_refused(self, features: Sequence[Feature], period: str | None, where: str) -> None: ...


FORMAT = "firestep-scenario/1"
SIDES = ("attacker", "defender")
ID_PATTERN = re.compile(r"^[a-z][a-z0-9-]{0,63}$")
ID_RULE = "1 to 64 of a-z, 0-9 and -, starting with a letter"

# -- limits: what one document may hold (the server also caps its bytes and how many it keeps) ---------------
MAX_TABLE_CM = 1000.0  # a side of the table, as a game's own cap
MAX_FEATURES = 500  # terrain features, as a game's terrain
MAX_POINTS = 20_000  # vertices of the terrain and the deployment zones together
MAX_UNITS = 2000  # units written in the document (a game built from it is capped again by its rule set)
MAX_ID = 120  # characters of a unit's id, as a game stores it (its `ref`)
MAX_DEPTH = 8  # unit tree levels (division .. stand is six)
MAX_TURNS = 100
MAX_NOTES = 50
MAX_NOTES_CHARS = 4000  # the notes become the game's notes, which hold 4000 characters
MAX_TEXT = 4000  # objectives, victory
MAX_RULES = 30  # special rules per side
MAX_PLAIN_VALUES = 200  # free JSON: the fire-plan allowances, a feature's properties
EDGE_TOLERANCE_CM = 1e-6  # a shape drawn on the edge is on the table

TOP_KEYS = (
    "format",
    "id",
    "title",
    "ruleset",
    "period",
    "date",
    "source",
    "table",
    "turns",
    "first_side",
    "objectives",
    "victory",
    "notes",
    "special_rules",
    "fire_plan",
    "variants",
    "errata",
    "terrain",
    "board",
    "table_objectives",
    "victory_conditions",
    "sides",
)
SIDE_KEYS = ("nationality", "deployment_zone", "forces")
UNIT_KEYS = (
    "id",
    "name",
    "level",
    "kind",
    "base",
    "quality",
    "models",
    "gun",
    "source",
    "placement",
    "off_table",
    "state",
    "children",
)
ENTRY_KEYS = ("table_id", "template", "quality", "name", "id", "off_table")
BY_READING_KEYS = ("by_reading", "values")


# -- what a game is made of ----------------------------------------------------------------------------------
class ForceNode(Protocol):
    """A unit of a force tree to be stored in a game (a rule set's own unit type may stand in)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def level(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def base(self) -> str | None: ...
    @property
    def quality(self) -> str | None: ...
    @property
    def models(self) -> int: ...
    @property
    def source(self) -> str: ...
    @property
    def children(self) -> Sequence[ForceNode]: ...


@dataclass(frozen=True)
class ForceUnit:
    """A unit as a document writes it, its values chosen by the game's readings."""

    id: str
    name: str
    level: str
    kind: str
    base: str | None
    quality: str | None
    models: int
    children: tuple[ForceNode, ...]
    source: str
    gun: str | None = None


class StandPlacement(TypedDict):
    """Where a stand stands as a game starts: its centre (table cm) and facing (degrees)."""

    center: list[float]
    facing_deg: float


@dataclass(frozen=True)
class NewForces:
    """A new game's forces: each side's unit trees, where each stand stands (stand id -> {center, facing_deg})
    and the units that start off the table (with everything under them)."""

    forces: Mapping[str, tuple[ForceNode, ...]]
    placements: Mapping[str, StandPlacement] = field(default_factory=dict)
    off_table: tuple[str, ...] = ()
    # Unit id -> the state it starts with beside the rule set's defaults (a unit's `state` in the document).
    state: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


# A rule set's builder of an organisation-table entry: (side, entry with its values chosen, field, id prefix).
TableEntry = Callable[[str, Mapping[str, Any], str, str], ForceNode]


# -- checking a document -------------------------------------------------------------------------------------
def _fail(where: str, msg: str, allowed: Sequence[Any] | None = None) -> RulesError:
    return RulesError(where, msg, list(allowed) if allowed is not None else None)


def _object(value: Any, where: str, keys: Sequence[str], required: Sequence[str] = ()) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise _fail(where or "body", "must be a JSON object", list(keys))
    for key in value:
        if key not in keys:
            raise _fail(_at(where, str(key)), f"unknown key {str(key)[:64]!r}", list(keys))
    for key in required:
        if key not in value:
            raise _fail(_at(where, key), "is required", None)
    return value


def _at(where: str, key: str | int) -> str:
    return f"{where}.{key}" if where else str(key)


def _text(value: Any, where: str, most: int, *, optional: bool = True, least: int = 0) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str) or not least <= len(value) <= most:
        raise _fail(where, f"must be text of {least} to {most} characters", [f"text, {least}..{most} chars"])


def _number(value: Any, where: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _fail(where, "must be a number", [f"{low}..{high}"])
    if not low <= value <= high:
        raise _fail(where, f"{value} is outside {low}..{high}", [f"{low}..{high}"])
    return float(value)


def _choice(value: Any, where: str, allowed: Sequence[str | None]) -> None:
    if value not in allowed:
        raise _fail(where, f"unknown value {str(value)[:64]!r}", allowed)


def validate(document: Any, rulesets: Mapping[str, tuple[RuleSet, ScenarioRules]]) -> Mapping[str, Any]:
    """Check a scenario document against its rule set (one of `rulesets`, those played as games); returns it
    unchanged. Refuses the first problem found with a RulesError naming the field and the allowed values."""
    if isinstance(document, dict):  # the format first: another one's keys are not this one's
        _choice(document.get("format"), "format", [FORMAT])
    doc = _object(document, "", TOP_KEYS, ("format", "title", "ruleset", "period", "table", "sides"))
    if "id" in doc and (not isinstance(doc["id"], str) or not ID_PATTERN.match(doc["id"])):
        raise _fail("id", f"a scenario id is {ID_RULE}", [ID_RULE])
    _choice(doc["ruleset"], "ruleset", sorted(rulesets))
    ruleset, rules = rulesets[doc["ruleset"]]
    # A rule set of one period (no periods named) takes null.
    if not ruleset.periods and doc["period"] is not None:  # "pick None" said nothing to a person
        raise _fail("period", f"{ruleset.name} has no periods: give none (null)", [None])
    _choice(doc["period"], "period", [p.id for p in ruleset.periods] or [None])
    _text(doc["title"], "title", 200, optional=False, least=1)
    _text(doc.get("date"), "date", 100)
    _text(doc.get("source"), "source", 1000)
    _text(doc.get("objectives"), "objectives", MAX_TEXT)
    _text(doc.get("victory"), "victory", MAX_TEXT)
    table = _object(doc["table"], "table", ("width_cm", "length_cm"), ("width_cm", "length_cm"))
    width = _number(table["width_cm"], "table.width_cm", 1, MAX_TABLE_CM)
    length = _number(table["length_cm"], "table.length_cm", 1, MAX_TABLE_CM)
    if doc.get("turns") is not None and (
        isinstance(doc["turns"], bool)
        or not isinstance(doc["turns"], int)
        or not 1 <= doc["turns"] <= MAX_TURNS
    ):
        raise _fail("turns", "must be a whole number of turns, or null", [f"1..{MAX_TURNS}", None])
    if "first_side" in doc:
        _choice(doc["first_side"], "first_side", SIDES)
    _notes(doc.get("notes", []))
    rules_by_side = _object(doc.get("special_rules", {}), "special_rules", SIDES)
    for side, names in rules_by_side.items():
        if not isinstance(names, list) or len(names) > MAX_RULES:
            raise _fail(f"special_rules.{side}", "must be a list of rule names", [f"0..{MAX_RULES} names"])
        for i, name in enumerate(names):
            _word(name, f"special_rules.{side}.{i}", 100, rules.book.special_rules, optional=False)
    _fire_plan(doc.get("fire_plan", {}))
    variants = doc.get("variants", {})
    if not isinstance(variants, dict) or not all(isinstance(r, str) for r in variants.values()):
        raise _fail("variants", "must be an object of erratum id: reading id", sorted(ruleset.errata))
    ruleset.game_context(doc["period"], variants)  # names an unknown erratum or reading, or another period's
    errata = doc.get("errata", [])
    if not isinstance(errata, list):
        raise _fail("errata", "must be a list of erratum ids", sorted(ruleset.errata))
    for i, eid in enumerate(errata):
        _choice(eid, f"errata.{i}", sorted(ruleset.errata))
    points = _terrain(doc.get("terrain"), rules, width, length, doc["period"])
    board = doc.get("board", {})
    if not isinstance(board, dict):
        raise _fail("board", "must be an object of the rule set's board values")
    if board and rules.book.kit.counters is None:
        # A game on a table keeps its things on the table; a game of counters names its places on its board
        # (its rule set checks the values as it builds the game's forces: GameRules.new_forces).
        raise _fail(
            f"board.{sorted(board)[0]}", "only a game of counters takes board values from a scenario", []
        )
    objectives = []
    if doc.get("table_objectives") is not None:
        objectives = objectives_from_geojson(doc["table_objectives"], width, length)
    # A condition names a public objective only: a secret one's name would reach the other side in its words.
    public = {o.id for o in objectives if o.secret_to is None}
    conditions_from_json(doc.get("victory_conditions"), public, rules.book.broken)
    sides = _object(doc["sides"], "sides", SIDES, SIDES)
    ids: set[str] = set()
    units = 0
    for side in SIDES:
        where = f"sides.{side}"
        spec = _object(sides[side], where, SIDE_KEYS, ("nationality", "forces"))
        nations = rules.book.nations or ()
        if nations:
            _choice(spec["nationality"], f"{where}.nationality", nations)
        _text(spec["nationality"], f"{where}.nationality", 32, optional=False)
        zone = spec.get("deployment_zone")
        if zone is not None:
            points += _zone(zone, f"{where}.deployment_zone", width, length)
        forces = spec["forces"]
        if not isinstance(forces, list):
            raise _fail(f"{where}.forces", "must be a list of units or organisation-table entries")
        for i, unit in enumerate(forces):
            units += _unit(unit, f"{where}.forces.{i}", ruleset, rules, width, length, ids, 1)
            if units > MAX_UNITS:
                raise _fail(f"{where}.forces.{i}", f"a scenario holds at most {MAX_UNITS} units", [MAX_UNITS])
    if points > MAX_POINTS:
        raise _fail("terrain", f"{points} points in all (allowed 0..{MAX_POINTS})", [f"0..{MAX_POINTS}"])
    return doc


def _notes(notes: Any) -> None:
    if not isinstance(notes, list) or len(notes) > MAX_NOTES:
        raise _fail("notes", "must be a list of lines", [f"0..{MAX_NOTES} lines"])
    for i, line in enumerate(notes):
        _text(line, f"notes.{i}", MAX_NOTES_CHARS, optional=False)
    if len("\n".join(notes)) > MAX_NOTES_CHARS:
        raise _fail("notes", f"the notes hold at most {MAX_NOTES_CHARS} characters in all", [MAX_NOTES_CHARS])


def _fire_plan(plan: Any) -> None:
    """Free JSON (the allowances a scenario gives each side's fire plan), kept small and plain."""
    if not isinstance(plan, dict):
        raise _fail("fire_plan", "must be a JSON object")
    _plain(plan, "fire_plan")


def _plain(value: Any, where: str, most: int = MAX_PLAIN_VALUES, deepest: int = 4) -> None:
    """Free JSON kept small and plain: at most `most` values, `deepest` levels, texts of 1000 characters."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    seen = 0
    while stack:
        node, at, depth = stack.pop()
        seen += 1
        if seen > most or depth > deepest:
            raise _fail(where, "is too large", [f"at most {most} values, {deepest} levels deep"])
        if isinstance(node, dict):
            stack.extend((v, _at(at, str(k)[:64]), depth + 1) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, _at(at, i), depth + 1) for i, v in enumerate(node))
        elif isinstance(node, str):
            _text(node, at, 1000)
        elif isinstance(node, float) and not math.isfinite(node):
            raise _fail(at, "must be a finite number")


def _on_table(geom: Any, where: str, width: float, length: float) -> None:
    table = box(0, 0, width, length).buffer(EDGE_TOLERANCE_CM, join_style="mitre")
    if not table.covers(geom):
        x0, y0, x1, y1 = geom.bounds
        raise _fail(
            where,
            f"reaches off the table (its extent is x {x0:g}..{x1:g}, y {y0:g}..{y1:g} cm)",
            [f"x 0..{width:g}, y 0..{length:g} cm"],
        )


def _count_points(geometry: Any) -> int:
    coords = geometry.get("coordinates") if isinstance(geometry, dict) else None
    count = 0
    stack = [coords]
    while stack:
        c = stack.pop()
        if isinstance(c, list) and c and all(isinstance(v, int | float) for v in c):
            count += 1
        elif isinstance(c, list):
            stack.extend(c)
    return count


def _terrain(terrain: Any, rules: ScenarioRules, width: float, length: float, period: str | None) -> int:
    if terrain is None:
        return 0
    collection = _object(terrain, "terrain", ("type", "features"), ("type", "features"))
    _choice(collection["type"], "terrain.type", ["FeatureCollection"])
    features = collection["features"]
    if not isinstance(features, list) or len(features) > MAX_FEATURES:
        raise _fail("terrain.features", "must be a list of features", [f"0..{MAX_FEATURES} features"])
    widening_refused(features, "terrain.features")
    points = 0
    checked: list[Feature] = []
    for i, obj in enumerate(features):
        where = f"terrain.features.{i}"
        _object(obj, where, ("type", "id", "properties", "geometry"), ("type", "properties", "geometry"))
        _choice(obj["type"], f"{where}.type", ["Feature"])
        if not isinstance(obj["properties"], dict) or len(obj["properties"]) > 32:
            raise _fail(f"{where}.properties", "must be an object with `kind`", ["0..32 properties"])
        _plain(obj["properties"], f"{where}.properties", 64, 2)
        points += _count_points(obj["geometry"])
        if points > MAX_POINTS:
            raise _fail(where, f"the terrain has more than {MAX_POINTS} points", [f"0..{MAX_POINTS}"])
        feature = feature_from_geojson(obj, where, wire_belt_cm=rules.book.wire_belt_cm)
        _on_table(feature.geometry, f"{where}.geometry", width, length)
        checked.append(feature)
    rules.terrain_refused(checked, period, "terrain.features")
    return points


def _zone(zone: Any, where: str, width: float, length: float) -> int:
    _object(zone, where, ("type", "coordinates"), ("type", "coordinates"))
    _choice(zone["type"], f"{where}.type", ["Polygon"])
    try:
        geom = shape(zone)
    except (GEOSException, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise _fail(where, f"not a usable GeoJSON Polygon: {exc}") from exc
    if geom.is_empty or not geom.is_valid:
        raise _fail(where, f"the zone is empty or not valid: {shapely.is_valid_reason(geom)}")
    _on_table(geom, where, width, length)
    return _count_points(zone)


def _is_by_reading(value: Any) -> bool:
    return isinstance(value, dict) and "by_reading" in value


def _each_reading(value: Any, where: str, ruleset: RuleSet) -> list[tuple[str, Any]]:
    """A value as each reading has it: [(where, value)], one for a plain value."""
    if not _is_by_reading(value):
        return [(where, value)]
    _object(value, where, BY_READING_KEYS, BY_READING_KEYS)
    eid = value["by_reading"]
    _choice(eid, f"{where}.by_reading", sorted(ruleset.errata))
    readings = [r.id for r in ruleset.errata[eid].readings]
    values = value["values"]
    if not isinstance(values, dict) or sorted(values) != sorted(readings):
        raise _fail(f"{where}.values", f"must give a value for each reading of {eid}", readings)
    return [(f"{where}.values.{r}", values[r]) for r in readings]


def _unit(
    unit: Any,
    where: str,
    ruleset: RuleSet,
    rules: ScenarioRules,
    width: float,
    length: float,
    ids: set[str],
    depth: int,
) -> int:
    """Check one unit or organisation-table entry (and its children); returns how many units it writes."""
    if depth > MAX_DEPTH:
        raise _fail(where, f"units nest at most {MAX_DEPTH} levels deep", [MAX_DEPTH])
    if isinstance(unit, dict) and "table_id" in unit:
        entry = _object(unit, where, ENTRY_KEYS, ("table_id",))
        _text(entry["table_id"], f"{where}.table_id", 64, optional=False, least=1)
        _text(entry.get("template"), f"{where}.template", 64)
        _text(entry.get("name"), f"{where}.name", 200)
        if "id" in entry:
            _text(entry["id"], f"{where}.id", 40, optional=False, least=1)
            _unique(entry["id"], f"{where}.id", ids)
        for at, value in _each_reading(entry.get("quality"), f"{where}.quality", ruleset):
            _quality(value, at, rules)
        _flag(entry.get("off_table", False), f"{where}.off_table")
        return 1
    u = _object(unit, where, UNIT_KEYS, ("id", "name", "level", "kind"))
    _text(u["id"], f"{where}.id", MAX_ID, optional=False, least=1)
    _unique(u["id"], f"{where}.id", ids)
    checks: dict[str, Callable[[Any, str], None]] = {
        "name": lambda v, at: _text(v, at, 200, optional=False),
        "level": lambda v, at: _word(v, at, 32, rules.book.unit_levels, optional=False),
        "kind": lambda v, at: _word(v, at, 48, rules.book.unit_kinds, optional=False),
        "base": lambda v, at: _base(v, at, rules),
        "quality": lambda v, at: _quality(v, at, rules),
        "models": lambda v, at: _whole(v, at, 0, 1000),
        "gun": lambda v, at: _word(v, at, 64, rules.book.guns),
        "source": lambda v, at: _text(v, at, 300),
        "off_table": _flag,
        "placement": lambda v, at: _placement(v, at, width, length),
        "state": lambda v, at: _state(v, at, rules),
    }
    for key, check in checks.items():
        for at, value in _each_reading(u.get(key), f"{where}.{key}", ruleset):
            if key in u or key in ("name", "level", "kind"):
                check(value, at)
    if u.get("placement") is not None and u.get("base") is None:
        raise _fail(f"{where}.placement", "only a stand (a unit with a base) is placed on the table")
    children = u.get("children", [])
    if not isinstance(children, list):
        raise _fail(f"{where}.children", "must be a list of units")
    return 1 + sum(
        _unit(c, f"{where}.children.{i}", ruleset, rules, width, length, ids, depth + 1)
        for i, c in enumerate(children)
    )


def _state(value: Any, where: str, rules: ScenarioRules) -> None:
    """A unit's state as the game starts (limbered, on its pack animals ...): the rule set's flags a player
    sets by hand, true or false, its words a player sets by hand (a counter's place on a board of counters:
    a text of up to 64 characters, the rules check it in play), and its whole-number fields, 0 to their
    maximum (100 when none)."""
    fields = {
        f.name: f
        for f in rules.book.state_fields
        if (f.kind == "flag" and f.edit) or f.kind == "count" or f.edit == "word"
    }
    state = _object(value, where, sorted(fields))
    for name, v in state.items():
        f = fields[name]
        if f.kind == "flag":
            _flag(v, f"{where}.{name}")
        elif f.edit == "word":
            _text(v, f"{where}.{name}", 64, optional=False, least=1)
        else:
            _whole(v, f"{where}.{name}", 0, f.maximum if f.maximum is not None else 100)


def _word(value: Any, where: str, longest: int, allowed: Sequence[str], optional: bool = True) -> None:
    """A text from the rule set's own vocabulary (any text within `longest` when it names none)."""
    _text(value, where, longest, optional=optional, least=1)
    if value is not None and allowed:
        _choice(value, where, sorted(allowed))


def _base(value: Any, where: str, rules: ScenarioRules) -> None:
    if value is not None:
        _choice(value, where, sorted(rules.book.kit.bases))


def _quality(value: Any, where: str, rules: ScenarioRules) -> None:
    if value is not None and rules.book.qualities:
        _choice(value, where, rules.book.qualities)
    elif value is not None:
        _text(value, where, 16)


def _unique(uid: str, where: str, ids: set[str]) -> None:
    if uid in ids:
        raise _fail(where, f"the id {uid!r} is used twice: each unit's id is its own", None)
    ids.add(uid)


def _flag(value: Any, where: str) -> None:
    if not isinstance(value, bool):
        raise _fail(where, "must be true or false", [True, False])


def _whole(value: Any, where: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, "must be a whole number", [f"{low}..{high}"])


def _placement(value: Any, where: str, width: float, length: float) -> None:
    if value is None:
        return
    p = _object(value, where, ("center", "facing_deg"), ("center",))
    center = p["center"]
    if not isinstance(center, list) or len(center) != 2:
        raise _fail(f"{where}.center", "must be [x, y] in table cm", [f"x 0..{width:g}", f"y 0..{length:g}"])
    _number(center[0], f"{where}.center.0", 0, width)
    _number(center[1], f"{where}.center.1", 0, length)
    if "facing_deg" in p:
        _number(p["facing_deg"], f"{where}.facing_deg", -360, 360)


# -- reading a checked document ------------------------------------------------------------------------------
def chosen(value: Any, ctx: Context) -> Any:
    """A value as the game's readings have it (a per-reading value picks its reading's)."""
    if _is_by_reading(value):
        return value["values"][ctx.reading(value["by_reading"])]
    return value


def walk_units(forces: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every unit and entry written in a list of forces, parents first."""
    for unit in forces:
        yield unit
        yield from walk_units(unit.get("children", []))


def _nodes(*trees: ForceNode) -> Iterator[ForceNode]:
    stack = list(trees)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def units_in(*trees: ForceNode) -> int:
    """How many units (formations and stands) these force trees hold."""
    return sum(1 for _ in _nodes(*trees))


def forces_from_document(
    document: Mapping[str, Any], ctx: Context, table_entry: TableEntry | None
) -> tuple[NewForces, dict[str, list[ForceNode]]]:
    """A checked document's forces by the game's readings (`ctx`): units as written, organisation-table entries
    built by `table_entry` (None: the rule set builds none, refused naming the entry). Returns them with the
    entries built per side, which have no placements: the rule set deploys them."""
    forces: dict[str, tuple[ForceNode, ...]] = {}
    placements: dict[str, StandPlacement] = {}
    off_table: list[str] = []
    state: dict[str, Mapping[str, Any]] = {}
    built: dict[str, list[ForceNode]] = {side: [] for side in SIDES}

    def node(side: str, u: Mapping[str, Any], where: str, index: int) -> ForceNode:
        if "table_id" in u:
            if table_entry is None:
                raise _fail(f"{where}.table_id", "these rules build no forces from organisation tables", [])
            entry = {k: chosen(v, ctx) for k, v in u.items()}
            tree = table_entry(side, entry, where, str(entry.get("id") or f"{side}-{index}"))
            longest = max((n.id for n in _nodes(tree)), key=len)
            if len(longest) > MAX_ID:
                raise _fail(
                    f"{where}.id",
                    f"the entry builds a unit id of {len(longest)} characters ({longest[:40]}...): shorten its id",
                    [f"unit ids of at most {MAX_ID} characters"],
                )
            if entry.get("off_table"):
                off_table.append(tree.id)
            else:
                built[side].append(tree)
            return tree
        v = {k: chosen(u.get(k), ctx) for k in UNIT_KEYS}
        if v["placement"] is not None:
            place = dict(v["placement"])
            placements[v["id"]] = {
                "center": list(place["center"]),
                "facing_deg": place.get("facing_deg", 90.0),
            }
        if v["off_table"]:
            off_table.append(v["id"])
        if v["state"]:
            state[v["id"]] = dict(v["state"])
        return ForceUnit(
            id=v["id"],
            name=v["name"],
            level=v["level"],
            kind=v["kind"],
            base=v["base"],
            quality=v["quality"],
            models=v["models"] or 0,
            children=tuple(
                node(side, c, f"{where}.children.{i}", i) for i, c in enumerate(u.get("children", []))
            ),
            source=v["source"] or "",
            gun=v["gun"],
        )

    for side in SIDES:
        spec = document["sides"][side]
        forces[side] = tuple(
            node(side, u, f"sides.{side}.forces.{i}", i) for i, u in enumerate(spec["forces"])
        )
    return NewForces(forces, placements, tuple(off_table), state), built
