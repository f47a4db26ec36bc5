"""A game's units as its rule set reads them, kept by the worker between requests and brought up to date unit by
unit (issue 88: an act on a 1,400-stand game loaded, decoded, copied and named every unit for one marker).

The database counts each game's unit writes itself (app.data.log_index.GameUnits, migration 0032's triggers:
every unit row inserted, updated or deleted, by any path, moves the count on, and the row keeps the count of its
last write). A read asks for the count and the rows written since the count the worker kept, in one statement:
nothing more where nothing changed, the rows an act wrote where one did, the whole game again only after a
unit was deleted. A unit is decoded once per write, whatever the number of acts and the size of the game, and
an act on one stand costs the statements of that stand. What is worked out of the whole force tree (the names
that tell units apart) is worked out once, and carried over while the tree stays as it is.

What a transaction reads after writing units itself is its own, not yet the game's: a kept state built in a
transaction is dropped again unless that transaction commits (the session events below), so a write rolled
back never leaves its rows behind at a count another write may reach with other values."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cached_property
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Engine, Row, bindparam, event, select
from sqlalchemy.orm import ORMExecuteState, SessionTransaction
from sqlmodel import Session

from app.data.log_index import GameUnits
from app.data.models import Game, Unit
from app.services.unit_names import Named, display_names, names, plain_names, told_apart_names
from app.services.units import unit_state
from rules.core.records import StateField, Units, UnitState

__all__ = ["KEPT_GAMES", "KEPT_UNITS", "KeptUnits", "Key", "game_key", "kept_terrain", "kept_units"]

# What a worker keeps, the least recently read dropped first: the units of all its games together, and the
# terrains of as many games. A unit kept is about 5 KB, 11 KB with its three seats' lists (app.services.unit_list;
# measured at 1,400 stands): some 65 MB at most, four of the largest games or a club night's tables, whatever
# the number of games anyone makes (issue 88's hostile pass: 1.2 GB and growing with 42 of the largest).
KEPT_UNITS = 6_000
KEPT_GAMES = 64
# What a read asks, built once and its values bound at each (a statement's making cost more than its running):
# the game's count of unit writes and its deletions' (`now_seq`, `gone_at`), with each unit row written after
# count `since` (-1: every unit; none: one row of the counts alone).
_TABLE = Unit.__table__  # type: ignore[attr-defined]
_COUNTS = GameUnits.__table__  # type: ignore[attr-defined]
_WRITTEN_SINCE = (
    select(_COUNTS.c.seq.label("now_seq"), _COUNTS.c.gone.label("gone_at"), _TABLE)
    .select_from(
        _COUNTS.outerjoin(
            _TABLE, (_TABLE.c.game_id == _COUNTS.c.game_id) & (_TABLE.c.seq > bindparam("since"))
        )
    )
    .where(_COUNTS.c.game_id == bindparam("game_id"))
)  # not ordered: SQLite's planner would walk every unit of the game by id for it, not the rows written since
_PENDING = "kept_units_pending"  # session.info: the games whose kept state this transaction built


def _place(u: UnitState) -> Named:
    """What naming reads of a unit: its place in the force tree and its own name."""
    return Named(u.id, u.parent_id, u.side, u.level, u.kind, u.name)


@dataclass(frozen=True)
class KeptUnits:
    """The game's units at its count of unit writes `seq`, in id order, each as its rule set reads it; what is
    worked out of the force tree (the names) worked out once, and carried over while the tree stays as it is."""

    game_id: int
    units: Units  # with their index by id, their places and (once asked) their children
    seq: int  # the game's count of unit writes they were read at (app.data.log_index.GameUnits)
    rows: Mapping[int, Row[Any]]  # unit id -> its row as read (every column), for what answers a unit whole

    @property
    def by_id(self) -> Mapping[int, UnitState]:
        return self.units.by_id

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
    def _told_apart(self) -> Units:
        return Units((self._named(u) for u in self.units), places=self.units.places)

    def _named(self, u: UnitState) -> UnitState:
        name = self._told_apart_names.get(u.id, u.name)
        return u if name == u.name else replace(u, name=name)

    def told_apart(self, own: int | None) -> Units:
        """The units as a refusal names them (app.services.unit_names.told_apart): the act's own stand by its
        own name, every other whose name another unit shares by its short name."""
        units = self._told_apart
        mine = None if own is None else self.by_id.get(own)
        if mine is None or units.by_id[mine.id] is mine:
            return units
        return units.changed({mine.id: mine})

    def advanced(self, fresh: Mapping[int, UnitState], rows: Mapping[int, Row[Any]], seq: int) -> KeptUnits:
        """These units with `fresh` (the units written since, `rows` their rows) read again at count `seq`:
        where the same units stand in the same places of the tree under the same names (a marker, a move, a
        shot), what the tree's names are is carried over and only the fresh units are named again; else (a unit
        added, moved in the tree or renamed) everything is worked out anew."""
        places = self.units.places
        same_tree = all(uid in places and _place(u) == self._tree[places[uid]] for uid, u in fresh.items())
        if not same_tree:
            every = {**self.rows, **rows}
            ids = sorted(every)
            anew = Units(fresh.get(uid) or self.by_id[uid] for uid in ids)
            return KeptUnits(self.game_id, anew, seq, {uid: every[uid] for uid in ids})
        made = KeptUnits(self.game_id, self.units.changed(fresh), seq, {**self.rows, **rows})
        named = self._told_apart.changed({uid: self._named(u) for uid, u in fresh.items()})
        carried = {"_tree": self._tree, "short_names": self.short_names, "listed_names": self.listed_names,
                   "_told_apart_names": self._told_apart_names, "_told_apart": named}  # fmt: skip
        made.__dict__.update(carried)  # the cached properties' values, as each would work them out again
        return made


# A game is known by its database, its id and when it was made (a worker, a test run above all, may open several
# databases, each numbering its games from 1), and read as its rule set reads it (whose state fields it decodes).
Key = tuple[str, int, datetime, str]
_KEPT: OrderedDict[Key, KeptUnits] = OrderedDict()
_TERRAIN: OrderedDict[Key, tuple[int, Mapping[str, Any]]] = OrderedDict()  # -> (the game's version, terrain)


def game_key(session: Session, game: Game) -> Key:
    engine = session.get_bind().engine
    database = _DATABASES.get(engine)
    if database is None:
        database = _DATABASES[engine] = str(engine.url)
    return (database, game.pk, game.created_at, game.ruleset)


# Each engine's URL as text, made once (an act asks its game's key four times, and its making was 1.5% of a
# marker's CPU); an engine disposed of goes with its entry.
_DATABASES: WeakKeyDictionary[Engine, str] = WeakKeyDictionary()


_LOCK = threading.Lock()


def _by_id(row: Row[Any]) -> int:
    return int(row.id)


def kept_units(session: Session, game: Game, fields: Sequence[StateField]) -> KeptUnits:
    """The game's units as its rule set (`fields`, its state fields) reads them now: the worker's kept state
    where the game's count of unit writes is still the one it was read at, else brought up to date by the rows
    written since (read whole after a unit was deleted, or where the worker keeps none). A transaction that has
    written keeps what it reads for itself until it commits: no other request reads its writes before, nor
    after it rolls back (issue 88's hostile pass: a dirty read, and a rolled-back write kept)."""
    game_id, key = game.pk, game_key(session, game)
    own: dict[Key, KeptUnits] = session.info.setdefault(_OWN, {})
    with _LOCK:
        kept = own.get(key) or _KEPT.get(key)
        if kept is not None and key in _KEPT:
            _KEPT.move_to_end(key)
    got = session.execute(
        _WRITTEN_SINCE, {"game_id": game_id, "since": -1 if kept is None else kept.seq}
    ).all()
    if not got:  # the game is gone (deleted meanwhile): it has no units
        return KeptUnits(game_id, Units(), 0, {})
    seq, gone = got[0].now_seq, got[0].gone_at
    if kept is not None and seq == kept.seq:
        return kept
    # A unit deleted since (which one, no row can say), or this transaction reading the game as it was before
    # what the worker keeps: read whole.
    if kept is not None and (gone > kept.seq or seq < kept.seq):
        kept, got = None, session.execute(_WRITTEN_SINCE, {"game_id": game_id, "since": -1}).all()
        seq = got[0].now_seq
    rows = {row.id: row for row in sorted((r for r in got if r.id is not None), key=_by_id)}
    fresh = {uid: unit_state(row, fields) for uid, row in rows.items()}
    if kept is None:
        made = KeptUnits(game_id, Units(fresh.values()), seq, rows)
    else:
        made = kept.advanced(fresh, rows, seq)
    if _wrote(session):  # its own writes, not yet the game's: the worker keeps them once they are committed
        own[key] = made
    else:
        _keep(key, made)
    return made


def _keep(key: Key, made: KeptUnits) -> None:
    """`made` the worker's kept state of its game, unless it keeps a later one (a request whose transaction
    began before another's commit reads the game as it was), the least recently read dropped past the budget."""
    with _LOCK:
        now = _KEPT.get(key)
        if now is None or now.seq <= made.seq:
            _KEPT[key] = made
        _KEPT.move_to_end(key)
        while len(_KEPT) > 1 and (
            len(_KEPT) > KEPT_GAMES or sum(len(k.units) for k in _KEPT.values()) > KEPT_UNITS
        ):
            _KEPT.popitem(last=False)


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
    if _wrote(session):
        session.info.setdefault(_PENDING, set()).add(key)


def _wrote(session: Session) -> bool:
    return bool(session.info.get(_WROTE) or session.dirty or session.new or session.deleted)


# -- a kept state built after the transaction's own writes stands only once it commits --------------------------
_WROTE = (
    "kept_units_wrote"  # session.info: this transaction has written (a flush, or an UPDATE, INSERT or DELETE)
)
_OWN = "kept_units_own"  # session.info: the kept units this transaction read after its own writes, by game


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
    for key, made in session.info.pop(_OWN, {}).items():  # committed: the game's now
        _keep(key, made)


@event.listens_for(Session, "after_transaction_end")
def _ended(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is not None:  # a savepoint: the transaction goes on
        return
    session.info.pop(_WROTE, None)
    session.info.pop(_OWN, None)  # rolled back (after a commit: kept already)
    pending = session.info.pop(_PENDING, None)
    if pending:
        with _LOCK:
            for key in pending:
                _TERRAIN.pop(key, None)
