"""A formation moved as one: every placed, living stand under a company or battalion (or any unit) shifted and
turned about the formation's centre, keeping its shape, in one write and one event (one Undo). Where each stand
goes is the rules' (`GameRules.play` for the act, rules.table.frame); this reads the stands and writes them.

In time linear in the stands (issue 35: 690 stands cost 16.7 s of CPU when each stand read every unit again):
the stands are read once before the game's write lock is taken (`plan`), and their places written under the lock
in one statement over the versions they were read at (`write`, through app.services.acts); if a stand changed in
between, the move is read and played again under the lock."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, update
from sqlalchemy.orm.util import identity_key
from sqlmodel import Session

from app.data.changes import UnitSet
from app.data.models import Game, Unit
from app.errors import Conflict
from app.services.kept_units import KeptUnits
from app.services.markers import kept_of
from app.services.seating import Viewer
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import leaves_under
from rules.core.records import Change, SetState, UnitState

FIELDS = ("x", "y", "facing_deg")  # a stand's place, in table cm and degrees


@dataclass(frozen=True)
class Plan:
    """A move's stands read once: the game's units as the worker keeps them, the formation's stands on the
    table, each over its version."""

    unit_id: int
    kept: KeptUnits  # the game's units as read (the rules of play read the force tree from them)
    stands: list[UnitState]
    versions: dict[int, int]
    table: tuple[float, float]


def stands_under(units: Sequence[UnitState], formation: UnitState) -> list[UnitState]:
    """The formation's stands on the table and in play (the formation itself, when it is a stand)."""
    return [
        u
        for u in leaves_under(formation, units)
        if u.x is not None and u.y is not None and not u.killed and not u.off_table
    ]


def plan(session: Session, game: Game, viewer: Viewer, unit_id: int, kept: KeptUnits | None = None) -> Plan:
    """The formation's stands from one read of the worker's kept units (no lock needed: the write checks the
    versions read); `kept`: as a caller judging acts read them (a stand's card)."""
    kept = kept or kept_of(session, game)
    formation = kept.by_id.get(unit_id)
    if formation is None:
        raise RulesError("unit_id", "the game has no such unit: pick one of its units")
    viewer.require_side(formation.side, "move units")
    stands = stands_under(kept.units, formation)
    if not stands:
        raise RulesError("unit_id", f"{formation.name} has no stand on the table to move")
    versions = {u.id: int(kept.rows[u.id].version) for u in stands}
    return Plan(unit_id, kept, stands, versions, (game.table_width_cm, game.table_length_cm))


def asks(p: Plan) -> list[tuple[str, Unit | UnitState | None, str | None]]:
    """The rules of play asked once per kind of stand under one parent (what they read of a stand: its kind,
    whether it commands and the units above it), not once per stand: the same answer for each."""
    out: dict[tuple[Any, ...], tuple[str, Unit | UnitState | None, str | None]] = {}
    for stand in p.stands:
        key = (stand.parent_id, stand.side, stand.level, stand.kind, stand.is_command)
        out.setdefault(key, ("move-stands", stand, None))
    return list(out.values())


def places(p: Plan, changes: Sequence[Change]) -> tuple[dict[int, dict[str, float]], list[Change]]:
    """The rules' answer split: each stand's new place (the fields it changes), and the rest (what the move
    costs the units moved)."""
    ids = set(p.versions)
    placed: dict[int, dict[str, float]] = {}
    rest: list[Change] = []
    for c in changes:
        if isinstance(c, SetState) and c.unit_id in ids and c.field in FIELDS:
            placed.setdefault(c.unit_id, {})[c.field] = c.value
        else:
            rest.append(c)
    return placed, rest


def _write(session: Session, p: Plan, placed: dict[int, dict[str, float]]) -> list[UnitSet] | None:
    """Every stand's new place in one statement, each over the version it was read at; None (nothing kept)
    when a stand changed since."""
    table = Unit.__table__  # type: ignore[attr-defined]
    c = table.c
    now = [(u, {name: placed.get(u.id, {}).get(name, getattr(u, name)) for name in FIELDS}) for u in p.stands]
    rows = [
        {"uid": u.id, "seen": p.versions[u.id], "nx": to["x"], "ny": to["y"], "nf": to["facing_deg"]}
        for u, to in now
    ]
    result = session.execute(
        update(table)
        .where(and_(c.id == bindparam("uid"), c.version == bindparam("seen")))
        .values(x=bindparam("nx"), y=bindparam("ny"), facing_deg=bindparam("nf"), version=c.version + 1),
        rows,
    )
    if result.rowcount != len(rows):  # type: ignore[attr-defined]
        return None
    changes: list[UnitSet] = []
    for u, to in now:
        for name in FIELDS:
            if getattr(u, name) != to[name]:
                changes.append(UnitSet(unit=u.id, field=name, before=getattr(u, name), after=to[name]))
        read = session.identity_map.get(identity_key(Unit, u.id))
        if read is not None:  # the rows were written past the ORM: a row the session holds is read anew
            session.expire(read)
    return changes


def write(
    session: Session,
    game: Game,
    p: Plan,
    placed: dict[int, dict[str, float]],
    again: Callable[[], tuple[Plan, dict[int, dict[str, float]]]],
) -> list[UnitSet]:
    """The move written under the game's lock (`game`, locked); when a stand (or the table) changed since its
    stands were read, read and played again under the lock (`again`: the plan and the places anew)."""
    changes = None
    if p.table == (game.table_width_cm, game.table_length_cm):
        changes = _write(session, p, placed)
    if changes is None:
        p, placed = again()
        changes = _write(session, p, placed)
        if changes is None:
            raise Conflict("A stand of the formation changed meanwhile: look again and try again")
    return changes


def planned(session: Session, game_id: int, viewer: Viewer, unit_id: int) -> Plan:
    """`plan` before the game's write lock: the game read without locking it (404 for an unknown game)."""
    game = session.get(Game, game_id)
    if game is None:
        raise NotFoundError("game", str(game_id))
    return plan(session, game, viewer, unit_id)
