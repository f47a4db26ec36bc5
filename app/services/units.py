"""A game's units: queries and writes, a unit as a viewer may read it, a row as the rules read it, and walking
the force tree. Every answer, log entry and page reads a unit through one `Reader`: the fields the rule set
keeps secret (the other side's aiming points) hidden until it shows them (its battery fires, the game is
over). A unit's rule-set state is one mapping on its row (`unit.state`), read, written, counted and hidden by
the names the hook's fields declare."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Row, Update, and_, bindparam, func, insert, true, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, select

from app.data.changes import UnitCounted, UnitSet
from app.data.held import held
from app.data.models import Game, Unit
from app.errors import Conflict
from app.sentences import humanized
from app.services.seating import Viewer
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import GameRules
from rules.core.game import ancestor_at as ancestor_at
from rules.core.game import ancestors as ancestors
from rules.core.game import leaves_under as leaves_under
from rules.core.records import StateField, UnitState
from rules.core.vocabulary import SIDES
from rules.registry import NO_RULES, game_rules_or_none


# -- units -----------------------------------------------------------------------------------------------
def list_units(session: Session, game_id: int) -> list[Unit]:
    return list(
        session.exec(
            select(Unit)
            .where(Unit.game_id == game_id)
            .order_by(col(Unit.id))
            .execution_options(populate_existing=True)
        )
    )


def find_unit(session: Session, game_id: int, unit_id: int) -> Unit | None:
    """A unit of this game read anew, or None: one row, so a request refused for its stand's side (the seat
    checked first) costs no read of the game's other units."""
    return session.exec(_FIND_UNIT, params={"unit_id": unit_id, "game_id": game_id}).first()


# Built once, its ids bound at each read (the statement's making cost more than its running: every act asks it).
_FIND_UNIT = (
    select(Unit)
    .where(Unit.id == bindparam("unit_id"), Unit.game_id == bindparam("game_id"))
    .execution_options(populate_existing=True)
)


def held_unit(session: Session, row: Row[Any]) -> Unit:
    """The unit of `row`, a whole unit row this unit of work read (a kept row: app.services.kept_units), as
    the session holds a unit it read, without a statement of its own (issue 88: an act read its stand again
    beside the kept state that had just read it)."""
    return held(session, Unit, row)


def get_unit(session: Session, game_id: int, unit_id: int, field: str | None = None) -> Unit:
    """A unit of this game. With `field`, a unit named in a request body: unknown is a 422 naming it."""
    unit = find_unit(session, game_id, unit_id)
    if unit is None:
        if field:
            named = humanized(field.rsplit(".", 1)[-1])
            raise RulesError(
                field, f"pick {named} among this game's units", why=unknown_why(game_id, unit_id)
            )
        raise NotFoundError("unit", str(unit_id))
    return unit


def unknown_unit(field: str, game_id: int, unit_id: object) -> RulesError:
    """A request's unit the game does not have: a 422 naming `field`."""
    return RulesError(field, "pick a stand of this game", why=unknown_why(game_id, unit_id))


def unknown_why(game_id: int, unit_id: object) -> str:
    """Why a unit is refused as not the game's: its id in words that read as such once a player's Why? puts a
    row's id into words (the hostile pass: "game 2 has no unit 5" read "Game 2 has no this unit.")."""
    return f"game {game_id} has no unit with id {unit_id}"


def get_units(session: Session, game_id: int, unit_ids: Iterable[int]) -> list[Unit]:
    """Units of this game by id, read anew in one statement (those the game has, in id order)."""
    ids = sorted(set(unit_ids))
    if not ids:
        return []
    return list(session.exec(_UNITS_BY_ID, params={"game_id": game_id, "ids": ids}))


_UNITS_BY_ID = (  # built once, as _FIND_UNIT
    select(Unit)
    .where(Unit.game_id == bindparam("game_id"), col(Unit.id).in_(bindparam("ids", expanding=True)))
    .order_by(col(Unit.id))
    .execution_options(populate_existing=True)
)


def add_unit_tree(
    session: Session,
    game_id: int,
    side: str,
    node: Any,
    placements: Mapping[str, Mapping[str, Any]],
    off_table: Iterable[str] = (),
    state: Mapping[str, Mapping[str, Any]] | None = None,
) -> Unit:
    """Insert one force tree (add_unit_trees); its root unit."""
    (root,) = add_unit_trees(session, [(game_id, side, node)], placements, off_table, state)
    unit = session.get(Unit, root)
    assert unit is not None
    return unit


def add_unit_trees(
    session: Session,
    trees: Sequence[tuple[int, str, Any]],
    placements: Mapping[str, Mapping[str, Any]],
    off_table: Iterable[str] = (),
    state: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    done: Sequence[int] = (),
    limit: int | None = None,
) -> list[int]:
    """Insert rules.core.scenario force trees, each (game id, side, node: id, name, level, kind, base, quality,
    models, children, source); `placements` maps stand ids to {center, facing_deg}; units named in `off_table`
    (reinforcements, off-table batteries) and everything under them start off the table; `state` maps unit
    ids to the state they start with beside their rule set's defaults (a battery limbered). Returns each
    tree's root id (those written so far).

    Trees written in pieces (a round's first game, whose force alone held SQLite's write lock 90 ms: issue 63):
    `done` the ids of the walk's first units, written before (in its order: ids ascending); at most `limit`
    of the units after them written, each child's parent one of those or of `done`.

    Every unit is numbered in the order of its tree walked depth first (a parent, then each child's subtree),
    as the pages list them; the rows are written by one INSERT per thousand units and their parents set by one
    batched UPDATE, so a round of an event (hundreds of games of hundreds of units) costs a few statements, not
    one per unit (issue 63)."""
    off = set(off_table)
    kept = state or {}
    defaults: dict[int, dict[str, Any]] = {}
    rows: list[dict[str, Any]] = []  # the units to write: the walk's from len(done) on
    parents: list[int | None] = []  # each unit's parent, by its place in the walk
    stop = None if limit is None else len(done) + limit  # the walk goes no further than it writes

    def walk(game_id: int, side: str, node: Any, parent: int | None, off_parent: bool) -> None:
        if stop is not None and len(parents) >= stop:
            return
        me = len(parents)
        parents.append(parent)
        is_off = off_parent or node.id in off
        if me >= len(done):  # a unit written before is only its children's parent
            if game_id not in defaults:
                defaults[game_id] = state_defaults(session, game_id)
            place = placements.get(node.id)
            rows.append(
                {
                    "game_id": game_id,
                    "parent_id": None,
                    "side": side,
                    "ref": node.id,
                    "name": node.name,
                    "level": node.level,
                    "kind": node.kind,
                    "base": node.base,
                    "quality": node.quality,
                    "models": node.models,
                    "is_command": node.kind.endswith("-command"),
                    "off_table": is_off,
                    "x": float(place["center"][0]) if place else None,
                    "y": float(place["center"][1]) if place else None,
                    "facing_deg": float(place.get("facing_deg", 90.0)) if place else None,
                    "source": node.source,
                    "killed": False,
                    "special_uses": {},
                    "state": {**defaults[game_id], **kept.get(node.id, {})},
                    "version": 1,
                }
            )
        for child in node.children:
            walk(game_id, side, child, me, is_off)

    roots = []
    for game_id, side, node in trees:
        roots.append(len(parents))
        walk(game_id, side, node, None, False)
    start, end = len(done), len(parents)
    if not rows:
        return [done[i] for i in roots if i < start]
    session.flush()  # the games first: a Core statement does not flush the session
    table = Unit.__table__  # type: ignore[attr-defined]
    # One statement's rows are numbered in the order given (SQLite: the next rowid each; PostgreSQL: the
    # sequence's next value each), and each batch's after the last's: the ids, sorted, are the rows' in order
    # (asking RETURNING for that order, SQLAlchemy writes SQLite's rows one statement each).
    ids = [*done, *sorted(session.execute(insert(table).returning(table.c.id), rows).scalars())]
    children = [
        {"b_id": ids[i], "b_parent": ids[p]} for i, p in enumerate(parents[start:end], start) if p is not None
    ]
    if children:
        session.execute(
            update(table).where(table.c.id == bindparam("b_id")).values(parent_id=bindparam("b_parent")),
            children,
        )
    return [ids[i] for i in roots if i < end]


def copy_units(session: Session, source: int, games: Sequence[int]) -> None:
    """Every unit of game `source` as it stands copied into each game of `games` (games made of one scenario
    together: a club event's round, app.services.game_setup.create_games), numbered in the source's order,
    each copy's parent its own game's copy of the parent. Two statements however many games and units: the
    database copies the rows (issue 63)."""
    if not games:
        return
    session.flush()  # the games and the source's units first: a Core statement does not flush the session
    unit, game = Unit.__table__, Game.__table__  # type: ignore[attr-defined]
    kept = [c.name for c in unit.c if c.name not in ("id", "game_id", "parent_id")]
    first, last, n = session.execute(
        select(func.min(unit.c.id), func.max(unit.c.id), func.count()).where(unit.c.game_id == source)
    ).one()
    if session.get_bind().dialect.name == "sqlite" and n and last - first + 1 == n:
        # SQLite numbers each new row one past the greatest id, and this transaction holds the write lock (the
        # flush above wrote the games): every copy's id is known before it is written, the k-th game's copy of
        # a unit its id plus top + 1 - first + k * n, so each copy is written with its parent at once (64
        # copies of 2,000 units: no second pass over 128,000 rows, which was 0.4 s of CPU under the lock).
        top = session.execute(select(func.max(unit.c.id))).scalar_one()
        ranked = (
            select(game.c.id, (func.row_number().over(order_by=game.c.id) - 1).label("k"))
            .where(col(game.c.id).in_(games))
            .subquery()
        )
        parent = unit.c.parent_id + (top + 1 - first) + ranked.c.k * n
        copies = (
            select(ranked.c.id, parent, *(unit.c[name] for name in kept))
            .select_from(unit.join(ranked, true()))
            .where(unit.c.game_id == source)
            .order_by(ranked.c.id, unit.c.id)
        )
        session.execute(insert(unit).from_select(["game_id", "parent_id", *kept], copies))
        return
    # Inserted in the order selected, each copy's rows are numbered in the source's order (add_unit_trees).
    rows = (
        select(game.c.id, *(unit.c[name] for name in kept))
        .select_from(unit.join(game, true()))
        .where(unit.c.game_id == source, col(game.c.id).in_(games))
        .order_by(game.c.id, unit.c.id)
    )
    session.execute(insert(unit).from_select(["game_id", *kept], rows))
    # Each game's rows numbered without a gap (PostgreSQL unless another game's units were numbered meanwhile):
    # a copy is its source's id plus its game's offset,
    # and so is its parent, one look-up by id each (64 copies of 2,000 units: 0.1 s, where matching their
    # places below took 0.8 s of CPU under the write lock).
    spans = session.execute(
        select(unit.c.game_id, func.min(unit.c.id), func.max(unit.c.id), func.count())
        .where(col(unit.c.game_id).in_([source, *games]))
        .group_by(unit.c.game_id)
    ).all()
    if all(last - first + 1 == n for _, first, last, n in spans):
        start = next(first for game_id, first, _, _ in spans if game_id == source)
        offsets = (
            select(unit.c.game_id, (func.min(unit.c.id) - start).label("offset"))
            .where(col(unit.c.game_id).in_(games))
            .group_by(unit.c.game_id)
            .cte("offsets")
        )
        was = unit.alias("was")
        session.execute(
            update(unit)
            .where(
                unit.c.game_id == offsets.c.game_id,
                was.c.id == unit.c.id - offsets.c.offset,
                was.c.parent_id.is_not(None),
            )
            .values(parent_id=was.c.parent_id + offsets.c.offset)
        )
        return
    # A unit's place in its game (1, 2, ...) is its source's: a copy's parent is the copy at its source's
    # parent's place.
    placed = func.row_number().over(partition_by=unit.c.game_id, order_by=unit.c.id).label("place")
    was = select(unit.c.id, unit.c.parent_id, placed).where(unit.c.game_id == source).cte("was")
    now = select(unit.c.id, unit.c.game_id, placed).where(col(unit.c.game_id).in_(games)).cte("now")
    was_parent, now_parent = was.alias("was_parent"), now.alias("now_parent")
    parents = (
        select(now.c.id.label("child"), now_parent.c.id.label("parent"))
        .select_from(
            now.join(was, was.c.place == now.c.place)
            .join(was_parent, was_parent.c.id == was.c.parent_id)
            .join(
                now_parent,
                and_(now_parent.c.game_id == now.c.game_id, now_parent.c.place == was_parent.c.place),
            )
        )
        .cte("parents")
        .prefix_with("MATERIALIZED")  # read once, not again for each unit updated
    )
    session.execute(update(unit).where(unit.c.id == parents.c.child).values(parent_id=parents.c.parent))


# The unit's own columns; every other field is its rule set's state (`Unit.state`). Its hidden writes are no
# field of it: a reader's version is made of them (`Reader`).
COLUMNS = tuple(name for name in Unit.model_fields if name not in ("state", "hidden_writes", "seq"))


def rules_of_unit(unit: Unit) -> GameRules:
    """The game rules of the unit's game (the hook's defaults for a rule set not played as a game)."""
    session = Session.object_session(unit)
    game = session.get(Game, unit.game_id) if session is not None else None
    return game_rules_or_none(game.ruleset) if game is not None else NO_RULES


def state_defaults(session: Session, game_id: int) -> dict[str, Any]:
    """A new unit's state in this game: each of its rule set's state fields at its default."""
    game = session.get(Game, game_id)
    rules = game_rules_or_none(game.ruleset) if game is not None else NO_RULES
    return {f.name: f.default for f in rules.book.state_fields}


def check_vocabulary(rules: GameRules, level: str | None = None, quality: str | None = None) -> None:
    """A unit's level and quality are words of its game's rule set (GameRules.book.unit_levels, .qualities; a rule
    set that lists none takes any): another is refused with a 422 naming the field and the words."""
    for name, given, words in (
        ("level", level, rules.book.unit_levels),
        ("quality", quality, rules.book.qualities),
    ):
        if given is not None and words and given not in words:
            raise RulesError(name, f"{given!r} is not a unit {name} of this game's rule set", words)


def value(unit: Unit, name: str) -> Any:
    """A field of a unit by name: one of its columns, or its rule set's state."""
    return getattr(unit, name) if name in COLUMNS else unit.state.get(name)


def secrets_of(unit: Unit, rules: GameRules | None = None) -> set[str]:
    """The unit's state fields that are its side's secret now, as its rule set declares them (GameRules.secret:
    a field's flag, or a rule set's own, 2mm Earth's battery plan while it has neither fired nor moved)."""
    rules = rules or rules_of_unit(unit)
    return {f.name for f in rules.book.state_fields if rules.secret(unit, f)}


def update_unit(
    session: Session, unit: Unit, expected_version: int | None = None, **values: Any
) -> list[UnitSet]:
    """Set fields on a unit, bumping its version; returns the changes as {unit, field, before, after}.
    With `expected_version` the write only lands on that version: else 409 with the current unit."""
    assert unit.id is not None
    secret = secrets_of(unit)
    changes: list[UnitSet] = []

    def written() -> dict[str, Any]:
        # A change to a side's secret names the side, so the log keeps it in that side's part (events.split).
        changes[:] = [
            UnitSet(
                unit=unit.pk, field=k, before=value(unit, k), after=v, side=unit.side if k in secret else None
            )
            for k, v in values.items()
            # A side's secret set again unchanged is logged as set: the other side sees it as any aim, not as a
            # change of nothing naming the stand (a plan saved again).
            if value(unit, k) != v or k in secret
        ]
        own = {k: v for k, v in values.items() if k in COLUMNS}
        state = {k: v for k, v in values.items() if k not in COLUMNS}
        # A write of its side's secret alone is a bump the other side is not shown (Reader): it would tell
        # which stand was given one.
        hidden = bool(changes) and all(c.side for c in changes)
        return (
            own
            | ({"state": {**unit.state, **state}} if state else {})
            | ({"hidden_writes": unit.hidden_writes + 1} if hidden else {})
        )

    _write_over_version(session, unit, written, expected_version)
    return changes


def update_units(session: Session, sets: Sequence[tuple[Unit, str, Any]]) -> list[UnitSet]:
    """Fields set on units one after another (unit, field, value), as `update_unit` sets each in turn (every
    set bumps its unit's version; the changes {unit, field, before, after}, in order), written in one
    statement per kind of row: a move's bookkeeping over a formation of hundreds of stands costs the
    statements of one stand's (issue 52). Over the versions read: 409 when a unit changed meanwhile."""
    if not sets:
        return []
    rules = rules_of_unit(sets[0][0])
    secret: dict[int, set[str]] = {}  # unit id -> its side's secret fields, as read before its first set
    now: dict[int, dict[str, Any]] = {}  # unit id -> the values set so far
    bumps: dict[int, int] = {}
    hidden: dict[int, int] = {}  # unit id -> the sets that changed its side's secret alone (as update_unit's)
    rows: dict[int, Unit] = {}
    changes: list[UnitSet] = []
    for unit, name, after in sets:
        uid = unit.pk
        rows[uid] = unit
        mine = now.setdefault(uid, {})
        if uid not in secret:
            secret[uid] = secrets_of(unit, rules)
        its_secrets = secret[uid]
        before = mine[name] if name in mine else value(unit, name)
        # A side's secret set again unchanged is logged as set, as update_unit logs it (its bump hidden).
        if before != after or name in its_secrets:
            changes.append(
                UnitSet(
                    unit=uid,
                    field=name,
                    before=before,
                    after=after,
                    side=unit.side if name in its_secrets else None,
                )
            )
            if name in its_secrets:
                hidden[uid] = hidden.get(uid, 0) + 1
        mine[name] = after
        bumps[uid] = bumps.get(uid, 0) + 1
    kinds: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    written: dict[int, dict[str, Any]] = {}
    for uid, values in now.items():
        unit = rows[uid]
        own = {k: v for k, v in values.items() if k in COLUMNS}
        state = {k: v for k, v in values.items() if k not in COLUMNS}
        after = own | ({"state": {**unit.state, **state}} if state else {})
        if uid in hidden:
            after["hidden_writes"] = unit.hidden_writes + hidden[uid]
        written[uid] = after | {"version": unit.version + bumps[uid]}
        row = {"uid": uid, "seen": unit.version, "bump": bumps[uid]} | {f"n_{k}": v for k, v in after.items()}
        kinds.setdefault(tuple(sorted(after)), []).append(row)
    landed = 0
    for names, batch in kinds.items():
        result = session.execute(_over_version(names), batch)
        landed += result.rowcount  # type: ignore[attr-defined]
    if landed != len(now):
        raise Conflict("Someone changed a stand meanwhile: look again and try again")
    for uid, after in written.items():  # the rows as now written, without reading them again
        for k, v in after.items():
            set_committed_value(rows[uid], k, v)
    return changes


@functools.cache
def _over_version(names: tuple[str, ...]) -> Update:
    """A unit's `names` set (bound `n_<name>`) over the version read (`seen`), its version moved on by `bump`:
    of the table (Core: the ORM's own UPDATE doubled an act's cost of it), built once for each set of names (a
    statement's making cost as much as its running)."""
    c = Unit.__table__.c  # type: ignore[attr-defined]
    return (
        update(Unit.__table__)  # type: ignore[attr-defined]
        .where(and_(c.id == bindparam("uid"), c.version == bindparam("seen")))
        .values(version=c.version + bindparam("bump"), **{k: bindparam(f"n_{k}") for k in names})
    )


def _write_over_version(
    session: Session,
    unit: Unit,
    written: Callable[[], dict[str, Any] | None],
    expected_version: int | None = None,
) -> bool:
    """Write the values `written()` makes of the unit as read, only over the version it was read at (the
    state is written whole): when another write came first, the unit is read again and they are made again,
    so concurrent devices never lose an update; with `expected_version`, a 409 with the current unit instead.
    False (nothing written) when `written()` says None of the row as it is now (read again to be sure: the
    unit may have been read before another write)."""
    read_again = False
    while True:
        values = written()
        if values is None and read_again:
            return False
        if values is None:
            session.refresh(unit)
            read_again = True
            continue
        version = unit.version if expected_version is None else expected_version
        bound = {"uid": unit.id, "seen": version, "bump": 1} | {f"n_{k}": v for k, v in values.items()}
        result = session.execute(_over_version(tuple(sorted(values))), bound)
        if result.rowcount:  # type: ignore[attr-defined]
            for name, now in {**values, "version": version + 1}.items():  # the row as written, not read again
                set_committed_value(unit, name, now)
            return True
        session.refresh(unit)
        read_again = True
        if expected_version is not None:
            # Refused to whoever may write the stand (its side, the referee): the stand as its side reads it,
            # its secrets and the version it writes over (not the other side's defaults: its own aim as null).
            raise Conflict(
                "Someone changed this stand meanwhile: look again and try again",
                current=unit_dict(unit, Reader(frozenset({unit.side}))),
                why=f"unit version is {unit.version}, not {expected_version}",
            )


def increment(session: Session, unit: Unit, field: str, delta: int, floor: int = 0) -> UnitCounted | None:
    """`field = field + delta` (never below `floor`), written over the version it was read at and read again
    when another write came first: two devices adding a marker at once make two. Returns the change, or None
    when it would go below the floor."""
    assert unit.id is not None

    def written() -> dict[str, Any] | None:
        now = value(unit, field) or 0
        return None if now + delta < floor else {"state": {**unit.state, field: now + delta}}

    # Written over the version read: a row another write moved on meanwhile is read again and counted again.
    if not _write_over_version(session, unit, written):
        return None
    return UnitCounted(unit=unit.pk, field=field, delta=delta, after=value(unit, field))


# -- what a viewer reads of a unit -------------------------------------------------------------------------
# A side's secret state (Flanders Fields: where its batteries are aimed) is its own until the rules put it on
# the table (`GameRules.secret`), or the game is over. Every answer, log entry and page that carries a
# unit reads it through a Reader.
@dataclass(frozen=True)
class Reader:
    """What one viewer reads of a game's units: the secret state of the sides in `sides` (its own; both for
    the referee, or once the game is over), and of the other side only what the rules have shown, its version
    bumped by the other writes only."""

    sides: frozenset[str] = frozenset()
    board: Mapping[str, Any] = field(default_factory=dict)
    rules: GameRules | None = None  # the game's rules, read once (None: each unit's game's)

    def __call__(self, unit: Unit | Row[Any]) -> dict[str, Any]:  # a row read whole reads as a Unit does
        out = {name: getattr(unit, name) for name in COLUMNS}  # loads a row expired by a commit
        if self.rules is not None:
            rules = self.rules
        else:
            assert isinstance(unit, Unit)  # a row read whole is read with its game's rules (`reader`)
            rules = rules_of_unit(unit)
        for f in rules.book.state_fields:
            value = unit.state.get(f.name, f.default)
            if unit.side not in self.sides and rules.secret(unit, f, self.board):
                value = f.default
            out[f.name] = value
        if unit.side not in self.sides:  # without the bumps of its side's secrets (`Unit.hidden_writes`)
            out["version"] = unit.version - unit.hidden_writes
        return out


PUBLIC = Reader()  # what anyone may read (a device without a token, and the public part of the log)


def reader(game: Game, viewer: Viewer | None) -> Reader:
    sees_all = game.status == "finished" or (viewer is not None and viewer.is_referee)
    sides: frozenset[str] = frozenset(SIDES if sees_all else [viewer.role] if viewer is not None else [])
    return Reader(sides, dict(game.board), game_rules_or_none(game.ruleset))


def unit_dict(unit: Unit, read: Reader = PUBLIC) -> dict[str, Any]:
    """A unit as `read`'s viewer may read it; by default as anyone may."""
    return read(unit)


# -- the force tree ---------------------------------------------------------------------------------------
# Walking the tree (ancestors, ancestor_at, leaves_under) is rules.core.game's: it reads the rows as they are.
def subtree(root: Unit, units: Sequence[Unit]) -> list[Unit]:
    """The root and everything under it, in id order."""
    inside = {root.id}
    for u in sorted(units, key=lambda u: u.pk):  # parents are inserted before their children
        if u.parent_id in inside:
            inside.add(u.id)
    return [u for u in units if u.id in inside]


def unit_state(u: Unit | Row[Any], fields: Iterable[StateField]) -> UnitState:
    """A unit row (stored, or its columns as read: app.services.kept_units) as the rules read it
    (rules.core.game), with the state `fields` of its rule set."""
    assert u.id is not None
    stored = u.state  # read once, not once a field: each read of a row's attribute goes through the ORM
    return UnitState(
        id=u.id,
        parent_id=u.parent_id,
        side=u.side,
        level=u.level,
        kind=u.kind,
        name=u.name,
        quality=u.quality,
        base=u.base,
        is_command=u.is_command,
        off_table=u.off_table,
        x=u.x,
        y=u.y,
        facing_deg=u.facing_deg,
        killed=u.killed,
        state={f.name: stored.get(f.name, f.default) for f in fields},
    )
