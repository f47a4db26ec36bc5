"""Templates on the table: artillery, mortar, gas and barrage templates the players lay on the shared map, kept in
the game's board (`board["templates"]`) so every device sees the same ones. Each template carries the id of
the event that last changed it (`version`), so a device that gets a late or repeated frame keeps the newer
one. A side places, moves and removes its own templates, in set-up and in its own turn (the rules of play,
app.services.turns); the referee any, and may override the rules of play. Call within `lock_game`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, func, select

from app.data.board_state import read_board, write_board
from app.data.models import Event, Game
from app.errors import Conflict
from app.services.markers import rules_of
from app.services.seating import Viewer
from rules.core.errors import NotFoundError, RulesError
from rules.core.vocabulary import SIDES

MAX_TEMPLATES = 60  # on the table at once: far more than a game uses, few enough to draw on a phone


def templates_of(game: Game) -> list[dict[str, Any]]:
    return [dict(t) for t in read_board(game).templates]


def last_event_id(session: Session, game_id: int, roles: list[str]) -> int:
    """The newest event the viewer may read (0 if none): a state read after it is at least this new, and the
    stream resumes after it. Only events the viewer may see count, so the number says nothing of the others."""
    got = session.exec(
        select(func.max(Event.id)).where(Event.game_id == game_id, col(Event.visibility).in_(["all", *roles]))
    ).one()
    return int(got or 0)


def _owner(viewer: Viewer, side: str | None) -> str:
    if side is None:
        if viewer.is_referee:
            raise RulesError("side", "the referee names the side the template belongs to", SIDES)
        return viewer.role
    viewer.require_side(side, "place templates")
    return side


def _save(session: Session, game: Game, templates: list[dict[str, Any]], placed: int | None = None) -> None:
    # Not a bump of the game's version: a template moved on the map must not make the referee's next
    # "advance" stale. The board is replaced whole, so the JSON column sees the change.
    board = read_board(game)
    board.templates = tuple(templates)
    if placed is not None:
        board.templates_placed = placed
    write_board(game, board)
    session.add(game)
    session.flush()


def _find(templates: list[dict[str, Any]], template_id: int) -> dict[str, Any]:
    found = next((t for t in templates if t["id"] == template_id), None)
    if found is None:
        raise NotFoundError("template", str(template_id))
    return found


@dataclass(frozen=True)
class Laying:
    """A template about to be laid for `side` (checked: the kind exists, the table has room)."""

    game: Game
    kind: str
    side: str

    def placed(self, where: Mapping[str, Any]) -> dict[str, Any]:
        """The template where the rules lay it (`GameRules.play`'s answer to the act: x, y, rotation)."""
        template_id = read_board(self.game).templates_placed + 1  # ids are never reused
        return {
            "id": template_id,
            "kind": self.kind,
            "side": self.side,
            **{k: where[k] for k in ("x", "y", "rotation")},
        }

    def saved(self, session: Session, template: dict[str, Any], ev: Event) -> dict[str, Any]:
        """Kept on the board, its version the event that laid it."""
        template = {**template, "version": ev.id}
        _save(session, self.game, [*templates_of(self.game), template], placed=template["id"])
        return template


def laying(game: Game, viewer: Viewer, kind: str, side: str | None) -> Laying:
    kit = rules_of(game).book.kit.templates  # the game's rule set's templates
    if kind not in kit:
        raise RulesError("kind", f"no template {kind!r} in this game's rule set", sorted(kit))
    if len(templates_of(game)) >= MAX_TEMPLATES:
        raise RulesError("kind", f"{MAX_TEMPLATES} templates are on the table already: remove one first")
    return Laying(game, kind, _owner(viewer, side))


@dataclass(frozen=True)
class Moving:
    """A template on the table about to be moved by its side (or the referee)."""

    game: Game
    before: dict[str, Any]

    def moved(
        self, where: Mapping[str, Any], expected_version: int | None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The event's payload and the template as it will read where the rules lay it (`GameRules.play`'s
        answer to the act: x, y, rotation), its version set once logged."""
        before = self.before
        if expected_version is not None and expected_version != before["version"]:
            raise Conflict(
                "Someone moved this template meanwhile: look again and try again",
                current=before,
                why=f"template version is {before['version']}, not {expected_version}",
            )
        after = {**before, **{k: where[k] for k in ("x", "y", "rotation")}}
        moved = {k: v for k, v in after.items() if k != "version"}
        return {"template": moved, "before": {k: before[k] for k in ("x", "y", "rotation")}}, after

    def saved(self, session: Session, after: dict[str, Any], ev: Event) -> dict[str, Any]:
        after = {**after, "version": ev.id}
        _save(session, self.game, [after if t["id"] == after["id"] else t for t in templates_of(self.game)])
        return after


def moving(game: Game, viewer: Viewer, template_id: int) -> Moving:
    before = _find(templates_of(game), template_id)
    viewer.require_side(before["side"], "move templates")
    return Moving(game, before)


def removing(game: Game, viewer: Viewer, template_id: int) -> dict[str, Any]:
    """The template about to be taken off (its side's, or the referee's to take)."""
    gone = _find(templates_of(game), template_id)
    viewer.require_side(gone["side"], "remove templates")
    return gone


def take_off(session: Session, game: Game, template_id: int) -> None:
    _save(session, game, [t for t in templates_of(game) if t["id"] != template_id])
