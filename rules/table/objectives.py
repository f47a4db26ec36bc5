"""Objectives on the table: named points or areas (cm, the table frame) a scenario scores, and who holds each
from the stands' bases (Shapely, geometry only; what an objective is worth and when it scores is
rules.core.score's).

A scenario writes them as `table_objectives`, a GeoJSON FeatureCollection like its terrain
(docs/scenario-format.md): each feature a Point or a Polygon, its properties `name`, `vp` (0..100), `scored`
(one of `KINDS`: `each_turn`, `game_end`, `first_taken`, `held_turns` with its `turns` and `consecutive`) and
optionally `held_by` and `secret_to` (a side: only it sees the objective until it scores,
app.services.secret_objectives).

Holding (`holding`): an objective is held by the side with a stand on the table, not destroyed, within or
touching it (its base's outline meets the point or the area) while no stand of the other side is; with
`held_by: <side>` the scenario's own reading wins over that two-sides rule: that side holds it until a stand of
the other side is there alone (no stand there, or stands of both sides: still its; the Ferme du Bois' and a
Firestorm table's positions, errata demo-ferme-objectives and campaign-table-objectives). Contested: the holder would
change if a stand moved by 1 cm (`TOLERANCE_CM`, the tape's tolerance): a stand within 1 cm of the edge, in
or out, whose presence decides it; save a side's own objective (its `held_by` side, else its `secret_to`) held by
that side's stands, which its own stand stepping off would only leave to nobody: held, not contested (issue 89)."""

from __future__ import annotations

import bisect
import copy
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

import numpy
import shapely
from pydantic import JsonValue
from shapely.errors import GEOSException
from shapely.geometry import mapping, shape
from shapely.geometry.base import BaseGeometry

from rules.core.errors import RulesError
from rules.table.bases import Stand
from rules.table.geojson import GeoFeature

Scored = Literal["each_turn", "game_end", "first_taken", "held_turns"]
SCORED: tuple[str, ...] = get_args(Scored)
HELD_BY = ("stands", "attacker", "defender")  # "stands": only stands hold it (the default)
SIDES = ("attacker", "defender")
MAX_OBJECTIVES = 50
MAX_NAME = 80
MAX_VP = 100
MAX_POINTS = 2000  # vertices of all the objectives together
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
MAX_HELD_TURNS = 100  # a scenario's turns at most (rules.core.scenario.MAX_TURNS)
PROPERTY_KEYS = ("name", "vp", "scored", "held_by", "turns", "consecutive", "secret_to")


@dataclass(frozen=True)
class Kind:
    """A kind of objective as a scenario names it (`scored`), what it means in words and the properties only
    it takes (name, allowed values, required): read by the scenario format, its documentation and the editor,
    so that a new kind is declared once."""

    scored: str
    words: str
    label: str  # as the editor offers it: "At the end of each turn"
    fields: tuple[tuple[str, str, bool], ...] = ()


KINDS: tuple[Kind, ...] = (
    Kind(
        "each_turn",
        "to its holder as each turn, or bound, ends, and as the game ends",
        "At the end of each turn",
    ),
    Kind("game_end", "to its holder as the game ends", "At the end of the game"),
    Kind("first_taken", "once, to the first side to hold it", "The first time it is taken"),
    Kind(
        "held_turns",
        "once, to the first side to hold it at the end of `turns` turns (in a row when `consecutive`)",
        "Once held for a number of turns",
        (("turns", f"1..{MAX_HELD_TURNS}", True), ("consecutive", "true or false (false: in all)", False)),
    ),
)
assert tuple(k.scored for k in KINDS) == SCORED
# The tape's tolerance: a stand within this of an objective's edge might be in or out (issue 55).
TOLERANCE_CM = 1.0


@dataclass(frozen=True)
class Objective:
    """An objective: its id (the feature's `id`, else `objective-<n>`), name, worth in victory points, when
    it scores, who holds it when no stand does ("stands": nobody) and its point or area."""

    id: str
    name: str
    vp: int
    scored: str
    held_by: str
    geometry: BaseGeometry
    turns: int = 0  # held_turns: the turns' ends it is held at to score (0: another kind)
    consecutive: bool = False  # held_turns: those turns in a row (False: in all)
    # The one side that sees it until it scores or the game ends (issue 69: app.services.secret_objectives).
    secret_to: str | None = None

    def as_geojson(self) -> GeoFeature:
        props: dict[str, JsonValue] = {"name": self.name, "vp": self.vp, "scored": self.scored}
        if self.held_by != "stands":
            props["held_by"] = self.held_by
        if self.scored == "held_turns":
            props["turns"] = self.turns
            props["consecutive"] = self.consecutive
        if self.secret_to is not None:
            props["secret_to"] = self.secret_to
        return {"type": "Feature", "id": self.id, "geometry": mapping(self.geometry), "properties": props}


@dataclass(frozen=True)
class Holding:
    """Who holds an objective now (None: nobody), the stands that hold it (the holder's within or
    touching), and whether a stand within 1 cm of its edge could change that (`contested`)."""

    objective_id: str
    holder: str | None
    stands: tuple[str, ...]
    contested: bool


def _fail(where: str, msg: str, allowed: Sequence[Any] | None = None) -> RulesError:
    return RulesError(where, msg, list(allowed) if allowed is not None else None)


def objectives_from_geojson(
    collection: Any, width_cm: float, length_cm: float, where: str = "table_objectives"
) -> list[Objective]:
    """The objectives of a FeatureCollection, each checked (a RulesError naming `<where>.features.<i>...` and
    the allowed values): a Point or a valid Polygon on the table, a name, a worth and when it scores."""
    if not isinstance(collection, dict) or set(collection) - {"type", "features"}:
        raise _fail(where, "must be a GeoJSON FeatureCollection", ["type", "features"])
    if collection.get("type") != "FeatureCollection":
        raise _fail(f"{where}.type", "must be a FeatureCollection", ["FeatureCollection"])
    features = collection.get("features")
    if not isinstance(features, list) or len(features) > MAX_OBJECTIVES:
        raise _fail(f"{where}.features", "must be a list of objectives", [f"0..{MAX_OBJECTIVES} features"])
    out: list[Objective] = []
    points = 0
    for i, obj in enumerate(features):
        at = f"{where}.features.{i}"
        made = _objective(obj, at, i)
        if made.id in {o.id for o in out}:
            raise _fail(f"{at}.id", "another objective has this id: give each its own", ["a unique id"])
        points += len(shapely.get_coordinates(made.geometry))
        if points > MAX_POINTS:
            raise _fail(at, f"the objectives have more than {MAX_POINTS} points", [f"0..{MAX_POINTS}"])
        x0, y0, x1, y1 = made.geometry.bounds
        if x0 < 0 or y0 < 0 or x1 > width_cm or y1 > length_cm:
            raise _fail(
                f"{at}.geometry",
                f"reaches off the table (its extent is x {x0:g}..{x1:g}, y {y0:g}..{y1:g} cm)",
                [f"x 0..{width_cm:g}, y 0..{length_cm:g} cm"],
            )
        out.append(made)
    return out


def _objective(obj: Any, at: str, i: int) -> Objective:
    if not isinstance(obj, dict) or set(obj) - {"type", "id", "properties", "geometry"}:
        raise _fail(at, "must be a GeoJSON Feature", ["type", "id", "properties", "geometry"])
    if obj.get("type") != "Feature":
        raise _fail(f"{at}.type", "must be a Feature", ["Feature"])
    fid = obj.get("id", f"objective-{i + 1}")
    if not isinstance(fid, str) or not ID_PATTERN.match(fid):
        raise _fail(f"{at}.id", "an objective id is 1 to 40 of a-z, 0-9 and -", ["a-z 0-9 -, 1..40"])
    props = obj.get("properties")
    if not isinstance(props, dict):
        raise _fail(f"{at}.properties", "must be an object", list(PROPERTY_KEYS))
    for key in props:
        if key not in PROPERTY_KEYS:
            raise _fail(f"{at}.properties.{str(key)[:40]}", "unknown property", list(PROPERTY_KEYS))
    name = props.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        raise _fail(
            f"{at}.properties.name", f"must be text of 1 to {MAX_NAME} characters", [f"1..{MAX_NAME}"]
        )
    vp = props.get("vp")
    if isinstance(vp, bool) or not isinstance(vp, int) or not 0 <= vp <= MAX_VP:
        raise _fail(f"{at}.properties.vp", "must be a whole number of victory points", [f"0..{MAX_VP}"])
    scored = props.get("scored")
    if scored not in SCORED:
        raise _fail(f"{at}.properties.scored", f"unknown value {str(scored)[:40]!r}", SCORED)
    held_by = props.get("held_by") or "stands"
    if held_by not in HELD_BY:
        raise _fail(f"{at}.properties.held_by", f"unknown value {str(held_by)[:40]!r}", HELD_BY)
    turns, consecutive = _held_turns(props, f"{at}.properties", str(scored))
    secret_to = props.get("secret_to")
    if secret_to is not None and secret_to not in SIDES:
        raise _fail(f"{at}.properties.secret_to", f"unknown side {str(secret_to)[:40]!r}", SIDES)
    geometry = obj.get("geometry")
    if not isinstance(geometry, dict) or geometry.get("type") not in ("Point", "Polygon"):
        raise _fail(f"{at}.geometry.type", "an objective is a point or an area", ["Point", "Polygon"])
    try:
        geom = shape(geometry)
    except (GEOSException, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise _fail(f"{at}.geometry", f"not a usable GeoJSON geometry: {str(exc)[:60]}") from exc
    coords = shapely.get_coordinates(geom)
    if geom.is_empty or not geom.is_valid or not all(math.isfinite(v) for v in coords.flat):
        raise _fail(f"{at}.geometry", f"the shape is empty or not valid: {shapely.is_valid_reason(geom)}")
    return Objective(fid, name, vp, str(scored), str(held_by), geom, turns, consecutive, secret_to)


def _held_turns(props: Mapping[str, Any], at: str, scored: str) -> tuple[int, bool]:
    """A held_turns objective's `turns` (required, 1..100) and `consecutive` (true or false, false by default);
    another kind takes neither (a stray one would read as a rule the score does not keep)."""
    if scored != "held_turns":
        for key in ("turns", "consecutive"):
            if key in props:
                raise _fail(
                    f"{at}.{key}", "only an objective held for a number of turns takes it", ["held_turns"]
                )
        return 0, False
    turns = props.get("turns")
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= MAX_HELD_TURNS:
        raise _fail(f"{at}.turns", "must be a whole number of turns", [f"1..{MAX_HELD_TURNS}"])
    consecutive = props.get("consecutive", False)
    if not isinstance(consecutive, bool):
        raise _fail(f"{at}.consecutive", "must be true or false", [True, False])
    return turns, consecutive


def _edge(o: Objective) -> BaseGeometry:
    """What a stand crosses to come in or go out: an area's outline, a point itself."""
    return o.geometry if o.geometry.geom_type == "Point" else o.geometry.boundary


def _firmly_in(o: Objective, s: Stand) -> bool:
    """Whether the stand still meets the objective however it moves by the tolerance: some point of the
    objective lies 1 cm inside the base, or some point of the base 1 cm inside the area (sufficient, so a
    stand this does not prove firm counts as near the edge)."""
    footprint = s.polygon()
    inner = _inner(s)
    geometry, core, _ = _prepared(o)
    if not inner.is_empty and geometry.intersects(inner):
        return True
    return core is not None and not core.is_empty and core.intersects(footprint)


def _inner(s: Stand) -> BaseGeometry:
    """The stand's base 1 cm in, kept on it: one stand is measured against every objective."""
    inner = s.__dict__.get("_inner")
    if inner is None:
        inner = s.polygon().buffer(-TOLERANCE_CM)
        object.__setattr__(s, "_inner", inner)
    return inner


def _prepared(o: Objective) -> tuple[BaseGeometry, BaseGeometry | None, tuple[float, float, float, float]]:
    """The objective's shape and its area 1 cm in (None: a point), each prepared (shapely.prepare), and its
    bounds: a log replayed measures every stand against them, so they are worked out once per objective (kept
    on it, as a stand keeps its outline: no hash of the shape per stand)."""
    made = o.__dict__.get("_prepared")
    if made is None:
        shapely.prepare(o.geometry)
        core = None if o.geometry.geom_type == "Point" else o.geometry.buffer(-TOLERANCE_CM)
        if core is not None:
            shapely.prepare(core)
        made = (o.geometry, core, o.geometry.bounds)
        object.__setattr__(o, "_prepared", made)
    return made


def _relation(o: Objective, s: Stand) -> tuple[bool, bool, bool]:
    """Whether the stand meets the objective, meets it however it moves by the tolerance, and (not meeting
    it) is within the tolerance of its edge. Worked out once per stand's place: a game's log replayed puts
    only the stands an act moved (`HeldTally`), so no cache of places is kept."""
    fp = s.polygon()
    if _prepared(o)[0].intersects(fp):
        return True, _firmly_in(o, s), True
    return False, False, fp.distance(_edge(o)) <= TOLERANCE_CM


def _owner(o: Objective) -> str | None:
    """The side an objective is its own (its scenario's `held_by` side, else the side it is secret to), or None."""
    return o.held_by if o.held_by in SIDES else o.secret_to


def _disputes(o: Objective, holder: str | None, moved: str | None, side: str) -> bool:
    """Whether a stand of `side` near the edge, by moving 1 cm, disputes the holder: it changes it, save from the
    objective's own side to nobody by that side's own stand (the side's own objective under its own stand, no
    enemy near, is held, not contested: issue 89, a secret "hold this farm" read contested from set-up)."""
    if moved == holder:
        return False
    return not (side == holder == _owner(o) and moved is None)


def _holder(o: Objective, sides_in: set[str]) -> str | None:
    if o.held_by in SIDES:  # the scenario's side, until the other side's stands alone are there
        return next(iter(sides_in)) if len(sides_in) == 1 else o.held_by
    return next(iter(sides_in)) if len(sides_in) == 1 else None


def holding(o: Objective, stands: Sequence[Stand]) -> Holding:
    """Who holds `o` among `stands` (the living stands on the table: rules.table.placed.stand_of), the
    stands that hold it, and whether it is contested (a stand within 1 cm of its edge, in or out, whose
    presence alone would change the holder)."""
    reach = TOLERANCE_CM
    x0, y0, x1, y1 = o.geometry.bounds
    inside: list[Stand] = []
    near: list[tuple[Stand, bool]] = []  # (stand, in now) within the tolerance of the edge
    for s in stands:
        cx, cy = s.center
        r = _radius(s) + reach  # the base's outline lies within this of its centre: most stands are far off
        if cx + r < x0 or cx - r > x1 or cy + r < y0 or cy - r > y1:
            continue
        meets, firm, close = _relation(o, s)
        if meets:
            inside.append(s)
            if not firm:
                near.append((s, True))
        elif close:
            near.append((s, False))
    holder = _holder(o, {s.side for s in inside})
    contested = False
    for s, is_in in near:
        others = [t for t in inside if t is not s]
        moved = others if is_in else [*inside, s]
        if _disputes(o, holder, _holder(o, {t.side for t in moved}), s.side):
            contested = True
            break
    held = tuple(sorted((s.id for s in inside if s.side == holder), key=_id_key))
    return Holding(o.id, holder, held, contested)


def _radius(s: Stand) -> float:
    """How far a stand's base reaches from its centre: half its diagonal (its radius when round)."""
    spec = s.spec
    return spec.width_cm / 2 if spec.shape == "round" else math.hypot(spec.width_cm, spec.depth_cm) / 2


def _id_key(stand_id: str) -> tuple[int, str]:
    return (int(stand_id), "") if stand_id.isdigit() else (0, stand_id)


def holdings(objectives: Sequence[Objective], stands: Sequence[Stand]) -> Mapping[str, Holding]:
    """Each objective's holding among `stands`, by objective id."""
    return {o.id: holding(o, stands) for o in objectives}


# How a stand stands to an objective, where it counts (`HeldTally.place`): its side, whether it meets the objective,
# meets it firmly and (not meeting it) is within the tolerance of its edge.
Standing = tuple[str, bool, bool, bool]


class HeldTally:
    """Each objective's holding kept as stands come, move and go (rules.core.score replays a log of thousands
    of moves over up to 50 objectives and 1,400 stands): a stand's standings are put as it changes, and only an
    objective a changed standing touches is worked out again, from counts by side, not from every stand. Its
    `holding` is `holding`'s over the same stands (a property test holds it to that)."""

    def __init__(self, objectives: Sequence[Objective]) -> None:
        self._objectives = {o.id: o for o in objectives}
        self._standings: dict[str, dict[str, Standing]] = {o.id: {} for o in objectives}
        self._counts: dict[str, dict[str, int]] = {o.id: {} for o in objectives}  # stands in, by side
        # The stands in, by side, in `holding`'s order: their sort keys and ids side by side (a copy is a tuple).
        self._keys: dict[str, dict[str, list[tuple[tuple[int, str], str]]]] = {o.id: {} for o in objectives}
        self._ids: dict[str, dict[str, list[str]]] = {o.id: {} for o in objectives}
        # The stands within 1 cm of the edge, by side and whether in now: which of them decides is all one.
        self._near: dict[str, dict[tuple[str, bool], int]] = {o.id: {} for o in objectives}
        self._filling = True  # the stands first put are sorted once, as the first holding is read
        # The objectives as arrays, so a stand is measured against all of them in one call of each predicate.
        self._order = [o.id for o in objectives]
        made = [_prepared(o) for o in objectives]
        self._shapes = numpy.array([m[0] for m in made], dtype=object)
        self._cores = numpy.array([m[1] for m in made], dtype=object)
        self._edges = numpy.array([_edge(o) for o in objectives], dtype=object)
        self._bounds = numpy.array([m[2] for m in made], dtype=float).reshape(-1, 4)

    def copy(self) -> HeldTally:
        """A tally that goes on from this one's stands, this one left as it is (a kept replay's: rules.core.score
        `Replay`): the standings copied, the objectives' shapes shared (never changed)."""
        out = copy.copy(self)
        out._standings = {oid: dict(d) for oid, d in self._standings.items()}
        out._counts = {oid: dict(d) for oid, d in self._counts.items()}
        out._keys = {oid: {side: list(k) for side, k in d.items()} for oid, d in self._keys.items()}
        out._ids = {oid: {side: list(k) for side, k in d.items()} for oid, d in self._ids.items()}
        out._near = {oid: dict(d) for oid, d in self._near.items()}
        return out

    def place(self, stand_id: str, s: Stand | None) -> set[str]:
        """The stand put as it stands now against every objective (None: gone from the table); the ids of the
        objectives whose standings it changed. The same standings as `holding` reads stand by stand, in one call of each predicate."""
        now: list[Standing | None] = [None] * len(self._order)
        if s is not None and self._order:
            cx, cy = s.center
            r = _radius(s) + TOLERANCE_CM
            b = self._bounds
            (near,) = numpy.nonzero(
                (cx + r >= b[:, 0]) & (cx - r <= b[:, 2]) & (cy + r >= b[:, 1]) & (cy - r <= b[:, 3])
            )
            if len(near):
                fp = s.polygon()
                meets = shapely.intersects(self._shapes[near], fp)
                inner = _inner(s)
                firm = shapely.intersects(self._cores[near], fp)
                if not inner.is_empty:
                    firm |= shapely.intersects(self._shapes[near], inner)
                close = meets.copy()
                out = ~meets  # a stand that meets it is close; of the others, those within 1 cm of its edge
                close[out] = shapely.distance(self._edges[near[out]], fp) <= TOLERANCE_CM
                for k, i in enumerate(near.tolist()):
                    if close[k]:
                        now[i] = (s.side, bool(meets[k]), bool(meets[k] and firm[k]), True)
        return {oid for oid, st in zip(self._order, now, strict=True) if self.put(oid, stand_id, st)}

    def size(self) -> int:
        """The standings it holds: what it costs to keep (about 250 bytes each; the largest table's 50 objectives
        over 1,400 stands, some 53,000 of them, are 13 MB)."""
        return sum(len(d) for d in self._standings.values())

    def standings(self) -> dict[str, dict[str, Standing]]:
        """Each objective's stands that count, as `put` takes them: all a tally is (a stored score keeps them and
        puts them in a new tally of the same objectives, app.services.score)."""
        return {oid: dict(d) for oid, d in self._standings.items() if d}

    def _filled(self) -> None:
        if self._filling:
            self._filling = False
            for oid, by_side in self._keys.items():
                for side, keys in by_side.items():
                    keys.sort()
                    self._ids[oid][side] = [i for _, i in keys]

    def put(self, oid: str, stand_id: str, now: Standing | None) -> bool:
        """The stand's standing to the objective now (None: it counts for nothing); whether that changed."""
        standings = self._standings[oid]
        was = standings.get(stand_id)
        if was == now:
            return False
        if was is not None:
            del standings[stand_id]
            self._count(oid, stand_id, was, -1)
        if now is not None:
            standings[stand_id] = now
            self._count(oid, stand_id, now, 1)
        return True

    def _count(self, oid: str, stand_id: str, standing: Standing, n: int) -> None:
        side, meets, firm, close = standing
        if meets:
            self._counts[oid][side] = self._counts[oid].get(side, 0) + n
            key = (_id_key(stand_id), stand_id)
            if self._filling and n > 0:
                self._keys[oid].setdefault(side, []).append(key)
            else:
                self._filled()
                keys, ids = self._keys[oid].setdefault(side, []), self._ids[oid].setdefault(side, [])
                i = bisect.bisect_left(keys, key)
                if n > 0:
                    keys.insert(i, key)
                    ids.insert(i, stand_id)
                else:
                    del keys[i], ids[i]
        if (meets and not firm) or (not meets and close):
            near = self._near[oid]
            near[side, meets] = near.get((side, meets), 0) + n

    def holding(self, oid: str) -> Holding:
        """The objective's holding now, as `holding` works it out over the stands put."""
        self._filled()
        o = self._objectives[oid]
        counts = self._counts[oid]
        sides_in = {side for side, n in counts.items() if n}
        holder = _holder(o, sides_in)
        contested = False
        for (side, is_in), n in self._near[oid].items():
            if not n:
                continue
            # Were one in moved out, its side would be in only by its other stands; were one out moved in, it is.
            kept_in = sides_in if counts.get(side, 0) > 1 else sides_in - {side}
            moved = kept_in if is_in else sides_in | {side}
            if _disputes(o, holder, _holder(o, moved), side):
                contested = True
                break
        held = tuple(self._ids[oid][holder]) if holder in sides_in else ()
        return Holding(oid, holder, held, contested)
