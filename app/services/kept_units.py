"""A game's units as its rule set reads them, kept by the worker between requests and brought up to date unit by
unit (issue 88: an act on a 1,400-stand game loaded, decoded, copied and named every unit for one marker).

Each unit row carries a version that every write of it bumps (app.services.units, app.services.formations). A
read asks the database for the game's (id, version) pairs, one small statement, and decodes again only the rows
whose version the worker has not seen: a unit is decoded once per version, whatever the number of acts, and an
act on one stand costs the statements of that stand. What is worked out of the whole force tree (the names
that tell units apart) is worked out once per set of versions. Another worker's write, a unit added, a row
changed by any path: each shows as a version the kept state does not hold, so nothing stale is ever read.

What a transaction reads after writing units itself is its own, not yet the game's: a kept state built in a
transaction is dropped again unless that transaction commits (the session events below), so a write rolled
back never leaves its rows behind as a version another write may reach with other values."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cached_property
from typing import Any

from sqlalchemy import Row, bindparam, event, select
from sqlalchemy.orm import ORMExecuteState, SessionTransaction
from sqlmodel import Session

from app.data.models import Game, Unit
from app.services.unit_names import Named, display_names, names, plain_names, told_apart_names
from app.services.units import unit_state
from rules.core.records import StateField, UnitState

__all__ = ["KEPT_GAMES", "KEPT_UNITS", "KeptUnits", "Key", "game_key", "kept_terrain", "kept_units"]

# What a worker keeps, the least recently read dropped first: the units of all its games together, and the
# terrains of as many games. A unit kept is about 5 KB, 11 KB with its three seats' lists (app.services.unit_list;
# measured at 1,400 stands): some 65 MB at most, four of the largest games or a club night's tables, whatever
# the number of games anyone makes (issue 88's hostile pass: 1.2 GB and growing with 42 of the largest).
KEPT_UNITS = 6_000
KEPT_GAMES = 64
# What a read asks, built once and its values bound at each (a statement's making cost more than its running).
_TABLE = Unit.__table__  # type: ignore[attr-defined]
_VERSIONS = (
    select(_TABLE.c.id, _TABLE.c.version)
    .where(_TABLE.c.game_id == bindparam("game_id"))
    .order_by(_TABLE.c.id)
)
_ROWS = select(_TABLE).where(_TABLE.c.game_id == bindparam("game_id"))
_ROWS_OF = _ROWS.where(_TABLE.c.id.in_(bindparam("ids", expanding=True)))
_IN_CLAUSE = 500  # ids asked at once (SQLite's and PostgreSQL's bound parameters stay far below their limits)
_PENDING = "kept_units_pending"  # session.info: the games whose kept state this transaction built


def _place(u: UnitState) -> Named:
    """What naming reads of a unit: its place in the force tree and its own name."""
    return Named(u.id, u.parent_id, u.side, u.level, u.kind, u.name)


@dataclass(frozen=True)
class KeptUnits:
    """The game's units at the versions in `versions`, in id order, each as its rule set reads it; what is
    worked out of the force tree (the names) worked out once, and carried over while the tree stays as it is."""

    game_id: int
    units: tuple[UnitState, ...]
    versions: Mapping[int, int]  # unit id -> the version its UnitState was read at
    rows: Mapping[int, Row[Any]]  # unit id -> its row as read (every column), for what answers a unit whole

    @cached_property
    def by_id(self) -> dict[int, UnitState]:
        return {u.id: u for u in self.units}

    @cached_property
    def _index(self) -> dict[int, int]:
        return {u.id: i for i, u in enumerate(self.units)}

    @cached_property
    def _tree(self) -> tuple[Named, ...]:
        return tuple(_place(u) for u in self.units)

    @cached_property
    def short_names(self) -> dict[int, str]:
        """Each unit's short name ("1/1/2 Coy Plt 3"), as a roll's words name the units it changed."""
        return display_names(self._tree)

    @cached_property
    def listed_names(self) -> dict[int, tuple[str, str, str]]:
        """Each unit's full, short and plain names, as the list of a game's units gives them."""
        named, plain = names(self._tree), plain_names(self._tree)
        return {uid: (full, short, plain[uid]) for uid, (full, short) in named.items()}

    @cached_property
    def _told_apart_names(self) -> dict[int, str]:
        return told_apart_names(self._tree)

    @cached_property
    def _told_apart(self) -> tuple[UnitState, ...]:
        return tuple(self._named(u) for u in self.units)

    def _named(self, u: UnitState) -> UnitState:
        name = self._told_apart_names.get(u.id, u.name)
        return u if name == u.name else replace(u, name=name)

    def told_apart(self, own: int | None) -> tuple[UnitState, ...]:
        """The units as a refusal names them (app.services.unit_names.told_apart): the act's own stand by its
        own name, every other whose name another unit shares by its short name."""
        units = self._told_apart
        if own is None or own not in self.by_id or self.by_id[own] is units[self._index[own]]:
            return units
        out = list(units)
        out[self._index[own]] = self.by_id[own]
        return tuple(out)

    def advanced(
        self, fresh: Mapping[int, UnitState], rows: Mapping[int, Row[Any]], versions: Mapping[int, int]
    ) -> KeptUnits:
        """These units with `fresh` read again at `versions`: where the same units stand in the same places
        of the tree under the same names (a marker, a move, a shot), what the tree's names are is carried
        over and only the fresh units are named again; else everything is worked out anew."""
        same_tree = versions.keys() == self.versions.keys() and all(
            _place(u) == self._tree[self._index[uid]] for uid, u in fresh.items()
        )
        rows = {uid: rows[uid] if uid in rows else self.rows[uid] for uid in versions}
        if not same_tree:
            anew = tuple(fresh.get(uid) or self.by_id[uid] for uid in versions)
            return KeptUnits(self.game_id, anew, versions, rows)
        units, named = list(self.units), list(self._told_apart)
        for uid, u in fresh.items():
            i = self._index[uid]
            units[i], named[i] = u, self._named(u)
        made = KeptUnits(self.game_id, tuple(units), versions, rows)
        carried = {"_index": self._index, "_tree": self._tree, "short_names": self.short_names,
                   "_told_apart_names": self._told_apart_names,
                   "listed_names": self.listed_names, "_told_apart": tuple(named),
                   "by_id": {**self.by_id, **fresh}}  # fmt: skip
        made.__dict__.update(carried)  # the cached properties' values, as each would work them out again
        return made


# A game is known by its database, its id and when it was made (a worker, a test run above all, may open several
# databases, each numbering its games from 1), and read as its rule set reads it (whose state fields it decodes).
Key = tuple[str, int, datetime, str]
_KEPT: OrderedDict[Key, KeptUnits] = OrderedDict()
_TERRAIN: OrderedDict[Key, tuple[int, Mapping[str, Any]]] = OrderedDict()  # -> (the game's version, terrain)


def game_key(session: Session, game: Game) -> Key:
    return (str(session.get_bind().engine.url), game.pk, game.created_at, game.ruleset)


_LOCK = threading.Lock()


def kept_units(session: Session, game: Game, fields: Sequence[StateField]) -> KeptUnits:
    """The game's units as its rule set (`fields`, its state fields) reads them now: the worker's kept state
    where every version still holds, the rows whose version changed (and the units added) read again."""
    game_id, key = game.pk, game_key(session, game)
    now: dict[int, int] = dict(session.execute(_VERSIONS, {"game_id": game_id}).all())
    with _LOCK:
        kept = _KEPT.get(key)
        if kept is not None:
            _KEPT.move_to_end(key)
    if kept is not None and kept.versions == now:
        return kept
    seen = kept.versions if kept is not None else {}
    stale = sorted(uid for uid, _ in now.items() - seen.items())  # the pairs compared in C, not one by one
    rows = _read(session, game_id, None if len(stale) == len(now) else stale)
    fresh = {uid: unit_state(row, fields) for uid, row in rows.items()}
    # Each unit at the version its state was read at: a row written between the two statements is read as
    # it is now (a unit gone between them is left out until the next read).
    versions = {
        uid: rows[uid].version if uid in rows else now[uid] for uid in now if uid in rows or uid in seen
    }
    if kept is None:
        rows = {uid: rows[uid] for uid in versions}  # in id order, as the units are (and a list is answered)
        made = KeptUnits(game_id, tuple(fresh[uid] for uid in versions), versions, rows)
    else:
        made = kept.advanced(fresh, rows, versions)
    with _LOCK:
        _KEPT[key] = made
        _KEPT.move_to_end(key)
        while len(_KEPT) > 1 and (
            len(_KEPT) > KEPT_GAMES or sum(len(k.units) for k in _KEPT.values()) > KEPT_UNITS
        ):
            _KEPT.popitem(last=False)
    _kept_once_committed(session, key)
    return made


def kept_terrain(session: Session, game: Game) -> Mapping[str, Any]:
    """The game's terrain decoded once per version of the game (every change of it bumps the version,
    app.services.games.bump_game): a table of the largest accepted size is hundreds of kilobytes of GeoJSON,
    read by no act on a stand that does not ask its rule set about the ground. The game row's lock leaves the
    column unread (app.services.games.lock_game); it is read here only when the worker has not kept it."""
    key = game_key(session, game)
    with _LOCK:
        kept = _TERRAIN.get(key)
    if kept is not None and kept[0] == game.version:
        return kept[1]
    terrain = game.terrain
    with _LOCK:
        _TERRAIN[key] = (game.version, terrain)
        _TERRAIN.move_to_end(key)
        while len(_TERRAIN) > KEPT_GAMES:
            _TERRAIN.popitem(last=False)
    _kept_once_committed(session, key)
    return terrain


def _kept_once_committed(session: Session, key: Key) -> None:
    """What the session read after its own writes (flushed or not) stands once it commits, not before."""
    if session.info.get(_WROTE) or session.dirty or session.new or session.deleted:
        session.info.setdefault(_PENDING, set()).add(key)


def _read(session: Session, game_id: int, ids: Sequence[int] | None) -> dict[int, Row[Any]]:
    """The rows of `ids` (None: all the game's), each as it is now (a row written since the versions were
    asked is read at its new version, and kept at it)."""
    if ids is None:
        return {row.id: row for row in session.execute(_ROWS, {"game_id": game_id})}
    if len(ids) <= _IN_CLAUSE:
        return {row.id: row for row in session.execute(_ROWS_OF, {"game_id": game_id, "ids": list(ids)})}
    # Many units changed at once (a formation moved): the game's rows, the others passed over.
    wanted = set(ids)
    return {row.id: row for row in session.execute(_ROWS, {"game_id": game_id}) if row.id in wanted}


# -- a kept state built after the transaction's own writes stands only once it commits --------------------------
_WROTE = (
    "kept_units_wrote"  # session.info: this transaction has written (a flush, or an UPDATE, INSERT or DELETE)
)


@event.listens_for(Session, "after_flush")
def _flushed(session: Session, _: Any) -> None:
    session.info[_WROTE] = True


@event.listens_for(Session, "do_orm_execute")
def _executed(state: ORMExecuteState) -> None:
    if state.is_update or state.is_insert or state.is_delete:
        state.session.info[_WROTE] = True


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    session.info.pop(_PENDING, None)
    session.info.pop(_WROTE, None)


@event.listens_for(Session, "after_transaction_end")
def _ended(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is not None:  # a savepoint: the transaction goes on
        return
    session.info.pop(_WROTE, None)
    pending = session.info.pop(_PENDING, None)
    if pending:
        with _LOCK:
            for key in pending:
                _KEPT.pop(key, None)
                _TERRAIN.pop(key, None)
