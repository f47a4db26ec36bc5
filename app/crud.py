"""Reads and writes of the tables, kept out of the routes. Rules of play live in app/game_engine.py."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import delete, update
from sqlalchemy.orm import QueryableAttribute, defer
from sqlmodel import Session, col, func, select

from app import hidden, live
from app.auth import (
    SIDES,
    digest,
    issue_token,
    new_join_code,
    new_salt,
    normalise_code,
    revoke_all,
    revoke_device,
)
from app.errors import Conflict
from app.models import Event, FirePlanItem, Game, GameSide, Token, Unit, utcnow
from rules.core.errors import NotFoundError, RulesError


def list_games(session: Session) -> list[Game]:
    # Archived games have left the lobby (their tokens still read them). The lobby shows no terrain or board:
    # never load them here, however large they are (issue 12); a later read of one loads it then.
    query = (
        select(Game)
        .options(*(defer(cast("QueryableAttribute[Any]", c)) for c in (Game.terrain, Game.board)))
        .where(col(Game.archived_at).is_(None))
        .order_by(col(Game.id))
    )
    return list(session.exec(query))


def get_game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise NotFoundError("game", str(game_id))
    return game


def count_games(session: Session) -> int:
    return session.exec(select(func.count()).select_from(Game)).one()


def lock_game(session: Session, game_id: int) -> Game:
    """Start a write on a game: every write takes the game row first, so writes to one game run one at a
    time and event ids commit in order (Last-Event-ID resume relies on it). PostgreSQL: SELECT .. FOR
    UPDATE; SQLite: a no-op UPDATE, which takes the database's write lock at once."""
    if session.get_bind().dialect.name == "sqlite":
        session.execute(update(Game).where(col(Game.id) == game_id).values(version=Game.version))
    game = session.exec(
        select(Game).where(Game.id == game_id).with_for_update().execution_options(populate_existing=True)
    ).first()
    if game is None:
        raise NotFoundError("game", str(game_id))
    return game


def bump_game(session: Session, game: Game, expected_version: int | None = None, **values: Any) -> None:
    """Change game fields and its version; with `expected_version`, a stale client gets 409."""
    if expected_version is not None and expected_version != game.version:
        raise Conflict(f"game version is {game.version}, not {expected_version}", current=game_state(game))
    for k, v in values.items():
        setattr(game, k, v)
    game.version += 1
    game.updated_at = utcnow()
    session.add(game)


def game_state(game: Game) -> dict[str, Any]:
    return {
        "id": game.id,
        "version": game.version,
        "status": game.status,
        "turn": game.turn,
        "side_to_move": game.side_to_move,
        "step": game.step,
        "deep_suppression": game.deep_suppression,
        "board": game.board,
    }


# -- sides, join codes ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Credentials:
    referee_token: str
    join_codes: dict[str, str]


def create_sides(session: Session, secret_key: str, game: Game) -> Credentials:
    assert game.id is not None
    codes: dict[str, str] = {}
    nations = {"attacker": game.attacker_nation, "defender": game.defender_nation}
    for side in SIDES:
        code = new_join_code()
        codes[side] = code
        session.add(
            GameSide(
                game_id=game.id,
                side=side,
                nation=nations[side],
                join_code_hash=digest(secret_key, normalise_code(code)),
                special_uses={"heroic-action": 1},
                plan_salt=new_salt(),
            )
        )
    return Credentials(issue_token(session, secret_key, game.id, "referee"), codes)


def reissue_credentials(session: Session, secret_key: str, game_id: int) -> Credentials:
    """New referee token and join codes for a game. Every old credential stops working: the old codes, the
    old referee token and every side's token (its players join again with the new codes)."""
    game = lock_game(session, game_id)
    revoke_all(session, Token, game_id)
    codes: dict[str, str] = {}
    for side in sides(session, game_id):
        code = new_join_code()
        codes[side.side] = code
        side.join_code_hash = digest(secret_key, normalise_code(code))
        session.add(side)
    creds = Credentials(issue_token(session, secret_key, game_id, "referee"), codes)
    live.mark(session, game_id)  # wake open streams, so revoked devices' streams end now
    session.commit()
    session.refresh(game)
    return creds


# -- devices, archive, delete ----------------------------------------------------------------------------------
def revoke_game_device(session: Session, game_id: int, device_id: int) -> Token:
    lock_game(session, game_id)
    row = revoke_device(session, Token, game_id, device_id)
    live.mark(session, game_id)
    session.commit()
    session.refresh(row)
    return row


def set_archived(session: Session, game_id: int, archived: bool) -> Game:
    """Archived games leave the lobby; their tokens still read them. Not a play change: the version stays."""
    game = lock_game(session, game_id)
    game.archived_at = (game.archived_at or utcnow()) if archived else None
    session.add(game)
    session.commit()
    session.refresh(game)
    return game


def delete_game(session: Session, game_id: int) -> None:
    """The game and everything under it (sides, tokens, units, plans, events: ON DELETE CASCADE)."""
    lock_game(session, game_id)
    session.execute(delete(Game).where(col(Game.id) == game_id))
    live.mark(session, game_id)
    session.commit()


def join(session: Session, secret_key: str, code: str) -> tuple[int, str, str]:
    row = session.exec(
        select(GameSide).where(GameSide.join_code_hash == digest(secret_key, normalise_code(code)))
    ).first()
    if row is None:
        raise NotFoundError("join code", code)
    token = issue_token(session, secret_key, row.game_id, row.side)
    session.commit()
    return row.game_id, row.side, token


def sides(session: Session, game_id: int) -> list[GameSide]:
    return list(session.exec(select(GameSide).where(GameSide.game_id == game_id).order_by(col(GameSide.id))))


def get_side(session: Session, game_id: int, side: str) -> GameSide:
    row = session.exec(select(GameSide).where(GameSide.game_id == game_id, GameSide.side == side)).first()
    if row is None:
        raise NotFoundError("side", side, SIDES)
    return row


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


def get_unit(session: Session, game_id: int, unit_id: int, field: str | None = None) -> Unit:
    """A unit of this game. With `field`, a unit named in a request body: unknown is a 422 naming it."""
    unit = session.exec(
        select(Unit)
        .where(Unit.id == unit_id, Unit.game_id == game_id)
        .execution_options(populate_existing=True)
    ).first()
    if unit is None:
        if field:
            raise RulesError(field, f"game {game_id} has no unit {unit_id}")
        raise NotFoundError("unit", str(unit_id))
    return unit


def add_unit_tree(
    session: Session,
    game_id: int,
    side: str,
    node: Any,
    placements: Mapping[str, Mapping[str, Any]],
    parent_id: int | None = None,
    off_table: Iterable[str] = (),
    off_parent: bool = False,
) -> Unit:
    """Insert a rules.flanders_fields.organisation.Unit tree (id, name, level, kind, base, quality, models,
    children, source); `placements` maps stand ids to {center, facing_deg}; units named in `off_table`
    (reinforcements, off-table batteries) and everything under them start off the table."""
    off = set(off_table)
    place = placements.get(node.id)
    row = Unit(
        game_id=game_id,
        parent_id=parent_id,
        side=side,
        ref=node.id,
        name=node.name,
        level=node.level,
        kind=node.kind,
        base=node.base,
        quality=node.quality,
        models=node.models,
        is_command=node.kind.endswith("-command"),
        off_table=off_parent or node.id in off,
        x=float(place["center"][0]) if place else None,
        y=float(place["center"][1]) if place else None,
        facing_deg=float(place.get("facing_deg", 90.0)) if place else None,
        source=node.source,
    )
    session.add(row)
    session.flush()
    assert row.id is not None
    for child in node.children:
        add_unit_tree(session, game_id, side, child, placements, row.id, off, row.off_table)
    return row


def update_unit(
    session: Session, unit: Unit, expected_version: int | None = None, **values: Any
) -> list[dict]:
    """Set fields on a unit, bumping its version; returns the changes as {unit, field, before, after}.
    With `expected_version` the write only lands on that version: else 409 with the current unit."""
    assert unit.id is not None
    changes = [
        {"unit": unit.id, "field": k, "before": getattr(unit, k), "after": v}
        for k, v in values.items()
        if getattr(unit, k) != v
    ]
    stmt = update(Unit).where(col(Unit.id) == unit.id)
    if expected_version is not None:
        stmt = stmt.where(col(Unit.version) == expected_version)
    result = session.execute(stmt.values(version=Unit.version + 1, **values))
    if result.rowcount == 0:  # type: ignore[attr-defined]
        session.refresh(unit)
        raise Conflict(f"unit version is {unit.version}, not {expected_version}", current=unit_dict(unit))
    session.refresh(unit)
    return changes


def increment(session: Session, unit: Unit, field: str, delta: int, floor: int = 0) -> dict[str, Any] | None:
    """An atomic `field = field + delta` (never below `floor`): two devices adding a marker at once make two.
    Returns the change, or None when it would go below the floor."""
    assert unit.id is not None
    column = getattr(Unit, field)
    stmt = update(Unit).where(col(Unit.id) == unit.id)
    if delta < 0:
        stmt = stmt.where(column + delta >= floor)
    result = session.execute(stmt.values({field: column + delta, "version": Unit.version + 1}))
    if result.rowcount == 0:  # type: ignore[attr-defined]
        return None
    session.refresh(unit)
    return {"unit": unit.id, "field": field, "delta": delta, "after": getattr(unit, field)}


def unit_dict(unit: Unit) -> dict[str, Any]:
    return unit.model_dump(mode="json")


# -- fire plans --------------------------------------------------------------------------------------------
def plan_items(session: Session, game_id: int, side: str) -> list[FirePlanItem]:
    return list(
        session.exec(
            select(FirePlanItem)
            .where(FirePlanItem.game_id == game_id, FirePlanItem.side == side)
            .order_by(col(FirePlanItem.id))
        )
    )


def get_plan_item(session: Session, game_id: int, side: str, item_id: int) -> FirePlanItem:
    item = session.exec(
        select(FirePlanItem).where(
            FirePlanItem.id == item_id, FirePlanItem.game_id == game_id, FirePlanItem.side == side
        )
    ).first()
    if item is None:
        raise NotFoundError("fire plan item", str(item_id))
    return item


# -- events ------------------------------------------------------------------------------------------------
def record(
    session: Session,
    game: Game,
    kind: str,
    actor: str,
    payload: dict[str, Any],
    *,
    step: str = "",
    visibility: str = "all",
    reverses_id: int | None = None,
    private: Mapping[str, Mapping[str, Any]] | None = None,
) -> Event:
    """Append to the log (call within lock_game); streams are woken once the transaction commits. What a
    side alone may read goes to `private` (by role); side-row changes are moved there by hidden.split."""
    assert game.id is not None
    payload, parts = hidden.split(payload, private)
    ev = Event(
        game_id=game.id,
        turn=game.turn,
        side=game.side_to_move,
        step=step,
        kind=kind,
        actor=actor,
        visibility=visibility,
        payload=payload,
        private=parts,
        reverses_id=reverses_id,
    )
    session.add(ev)
    session.flush()
    live.mark(session, game.id)
    return ev


def list_events(
    session: Session,
    game_id: int,
    roles: Iterable[str],
    after_id: int = 0,
    limit: int = 1000,
    turn: int | None = None,
) -> list[Event]:
    """Events a viewer may see (visibility 'all' or one of `roles`), in id order."""
    q = select(Event).where(
        Event.game_id == game_id, col(Event.id) > after_id, col(Event.visibility).in_(["all", *roles])
    )
    if turn is not None:
        q = q.where(Event.turn == turn)
    return list(session.exec(q.order_by(col(Event.id)).limit(limit)))


def get_event(session: Session, game_id: int, event_id: int) -> Event:
    ev = session.exec(select(Event).where(Event.id == event_id, Event.game_id == game_id)).first()
    if ev is None:
        raise NotFoundError("event", str(event_id))
    return ev


def reversed_ids(session: Session, game_id: int) -> set[int]:
    rows = session.exec(
        select(Event.reverses_id).where(Event.game_id == game_id, col(Event.reverses_id).is_not(None))
    )
    return {r for r in rows if r is not None}


def last_roll_id(session: Session, game_id: int) -> int:
    """The id of the latest die roll in the game (0 if none): players may undo back to it, no further."""
    got = session.exec(
        select(func.max(Event.id)).where(Event.game_id == game_id, col(Event.kind).in_(ROLL_KINDS))
    ).one()
    return int(got or 0)


ROLL_KINDS = ("roll", "arrival-roll")


DEMO_NAME = "Demo: German attack on the BEF near Mons, autumn 1914"


def ensure_demo(session: Session, secret_key: str | None = None) -> Game | None:
    """Load the Mons 1914 specimen game into an empty database; do nothing otherwise. Returns the new game.
    Its referee token and join codes are not kept: get them with `reissue_credentials`."""
    from app.core.config import get_settings
    from app.game_engine import create_game

    if count_games(session):
        return None
    game, _creds = create_game(
        session, secret_key or get_settings().secret_key, scenario="mons-1914", name=DEMO_NAME
    )
    return game
