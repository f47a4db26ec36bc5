"""Undo: reversing a recorded change to the table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session

from app.core.touched import touched_units
from app.data.changes import GameSet, LoggedChange, SideSet, UnitCounted, UnitSet, read_changes
from app.data.models import Event, Game, Unit
from app.errors import Forbidden, RuleRefused, sentence
from app.services.events import (
    ROLL_KINDS,
    event_dict,
    get_event,
    last_roll_id,
    newest_event_id,
    record,
    roles_of,
    taken_back,
    unit_acts,
    view,
)
from app.services.games import bump_game, game_field, game_state
from app.services.kept_units import KeptUnits
from app.services.markers import apply_changes, kept_of, rules_of, snapshot_of
from app.services.seating import Viewer
from app.services.seats import get_side, set_side_allowance
from app.services.units import held_unit, increment, list_units, unit_dict, update_units, value
from rules.core.acts import TakeBackDraw
from rules.core.errors import NotFoundError, RulesError
from rules.core.vocabulary import SIDES

# -- undo ------------------------------------------------------------------------------------------------------
UNDOABLE = (
    "move",
    "marker",
    "unit-update",
    "roll",
    "arrival-roll",
    "arrival-fire",
    "unit-added",
    "objective-called",  # the referee's call on a contested objective: undone, the table's holder counts again
    "clock-limits-set",  # the clock's limits and settings as the referee set them: undone, the last set hold
    "side-ready",  # a seat's word at an event's table that it is ready to start or end: taken back
)


ENDED = "The game is over: its result stands, and nothing before the end is undone."
ALREADY_TAKEN_BACK = "That act is already taken back: its undo is in the game's record."
FIRESTEP_ROLLED = "Firestep's dice stand: only the referee takes back a roll firestep made, so none is rolled until it suits."


def rolled_by_firestep(kind: str, payload: Mapping[str, Any]) -> bool:
    """Whether a logged roll has dice firestep rolled (an arrived item's fire: any of its rolls)."""
    if kind not in ROLL_KINDS:
        return False
    rolls = payload.get("rolls") if kind == "arrival-fire" else [payload]
    return any((r.get("resolution") or {}).get("rolled_by_server") for r in rolls or [])


def refusal(
    kind: str,
    actor: str | None,
    event_id: int,
    *,
    role: str,
    finished: bool,
    last_roll: int,
    newest: int,
    started_on_it: bool = False,
) -> tuple[type[RuleRefused] | type[Forbidden], str] | None:
    """Why this viewer's undo of an event (its kind, actor and id) is refused now, or None: the one answer the
    undo pipeline and the record's Undo buttons both read. After the end nothing is undone, the referee's
    included: the result was scored on the table as it stood, and the end itself is not undone.
    `started_on_it`: a seat's word to start, the game now played."""
    if finished:
        return RuleRefused, ENDED
    if kind == "side-ready" and started_on_it:
        # The game started on both words: taken back, it would not start again (the log would say otherwise).
        return RuleRefused, "The game has started: a word to start it is not taken back"
    if role == "referee":
        return None
    # A player takes back the roll it has just applied (a mistaken Apply) while nothing has happened
    # since; an older roll is the referee's call.
    mine_just_now = actor == role and event_id == newest
    if kind in ROLL_KINDS and not mine_just_now:
        return Forbidden, "undoing a die roll is the referee's call"
    if actor != role:
        return Forbidden, "a player may undo only their own moves and markers"
    if event_id < last_roll:
        return Forbidden, "a player may undo only back to the last die roll; ask the referee"
    return None


@dataclass
class _Units:
    """The units an undo reads, each read once (issue 88: each change read its unit anew, twice, a statement each:
    an undo of a 2mm Earth 1418 shot made six reads of its four stands): the first time from the worker's kept
    state of the game (one statement for all of them), made the session's own (app.services.units.held_unit, as
    the act pipeline makes its stand), then that same object, which each write of the undo sets as written."""

    session: Session
    game: Game
    # The game's units as the caller read them (a stand's card), else read when the first unit is asked.
    kept: KeptUnits | None = None
    _read: dict[int, Unit] = field(default_factory=dict)

    def __call__(self, unit_id: int) -> Unit:
        unit = self._read.get(unit_id)
        if unit is None:
            if self.kept is None:
                self.kept = kept_of(self.session, self.game)
            row = self.kept.rows.get(unit_id)
            if row is None:
                raise NotFoundError("unit", str(unit_id))
            unit = self._read[unit_id] = held_unit(self.session, row)
        return unit


def undo_refusal(
    session: Session, game: Game, viewer: Viewer, ev: Event, units: _Units | None = None
) -> Exception | None:
    """Why `viewer` may not undo the event `ev` now (the refusal `undo` raises), or None: the card offers Undo
    exactly when `undo` would take it back (`units`: the units the undo reads, else read here)."""
    event_id = ev.pk
    if ev.kind not in UNDOABLE:
        return RulesError("event_id", f"{ev.kind} events cannot be undone", UNDOABLE)
    # Another seat's act is not this player's to undo, undone or not (session 24's hostile pass: "already undone"
    # told a seat that could never have undone it to reload and try again).
    theirs = not viewer.is_referee and ev.actor != viewer.role
    if not theirs and taken_back(session, game.pk, event_id):
        # A fact of the log, not a write another device overtook (no version is read): an undo sent again once
        # taken (a replay) is told what happened, not a stale write's "Someone changed this" (a hostile pass).
        return RuleRefused(ALREADY_TAKEN_BACK, current=game_state(game))
    drawn = ev.kind == "roll" and ev.payload.get("resolver") in rules_of(game).book.roll_terms.secret_draws
    if drawn and not viewer.is_referee:
        # Taken back, a card read would return to the pack: draw, read, take back, and the cards that never
        # come up are the opponent's hand.
        return Forbidden("a card drawn stays drawn: only the referee may take a draw back")
    if rolled_by_firestep(ev.kind, ev.payload) and not viewer.is_referee:
        # Undone, it is rolled again until it suits (issue 89: an order roll undone 5 times for its 6): in
        # every rule set firestep's dice stand, the referee's call alone; a player's own dice still undo.
        return Forbidden(FIRESTEP_ROLLED)
    asks_log = (
        not viewer.is_referee and game.status != "finished"
    )  # only a player's undo reads the log's ends
    refused = refusal(
        ev.kind,
        ev.actor,
        event_id,
        role=viewer.role,
        finished=game.status == "finished",
        last_roll=last_roll_id(session, game.pk) if asks_log else 0,
        newest=newest_event_id(session, game.pk) if asks_log else 0,
        started_on_it=game.status == "playing" and ev.payload.get("for") == "start",
    )
    if refused is not None:
        error, message = refused
        return RuleRefused(message, current=game_state(game)) if error is RuleRefused else error(message)
    # A change of it changed since is undone first (a roll whose result was applied since: the applications
    # undone before it), as `undo` refuses it (issue 89's newcomer pass: the card offered that Undo).
    return None if drawn else _stale(session, game, ev, units or _Units(session, game))


def _stale(session: Session, game: Game, ev: Event, units: _Units) -> RuleRefused | None:
    """What `undo` would refuse of the event's changes, taken back newest first as it takes them (a field the
    event set twice judged by its last), nothing written: a later change over one of them."""
    changes = read_changes(view(ev.payload, ev.private, [*SIDES, "referee"]).get("changes", []))
    seen: set[tuple[str, object, str]] = set()
    taken: dict[tuple[int, str], int] = {}  # a counted field's deltas taken back so far
    for c in reversed(changes):
        if isinstance(c, UnitCounted):
            taken[(c.unit, c.field)] = taken.get((c.unit, c.field), 0) + c.delta
            unit = units(c.unit)
            if (value(unit, c.field) or 0) - taken[(c.unit, c.field)] < 0:
                return _too_low(unit, c.field)
            continue
        owner = c.side if isinstance(c, SideSet) else c.game if isinstance(c, GameSet) else c.unit
        if (type(c).__name__, owner, c.field) in seen:
            continue
        seen.add((type(c).__name__, owner, c.field))
        if (stale := _changed_since(session, game, c, units)) is not None:
            return stale
    return None


def undo_refused(session: Session, game: Game, viewer: Viewer, ev: Event) -> str:
    """Why `viewer` may not undo `ev` now in the card's one sentence, or "" where the card offers its Undo."""
    refused = undo_refusal(session, game, viewer, ev)
    return "" if refused is None else sentence(str(getattr(refused, "message", refused)))


# What a stand's card takes back (app.pages.map_cards): its Move and its marker buttons' writes.
CARD_UNDOES = ("move", "marker")


def card_undo(
    session: Session, game: Game, viewer: Viewer, unit_id: int, kept: KeptUnits | None = None
) -> Event | None:
    """The stand's newest act as `viewer` reads the log when it is a move or a marker `viewer` may take back
    now (`undo_refusal`'s one answer, and none of its changes changed since), for its card's Undo; None where
    its newest is another act, or none. Read from the log by stand (`events.unit_acts`), however long the
    game: the card offers exactly the Undo the undo takes (`kept`: the game's units as the card read them)."""
    roles = roles_of(viewer)
    for ev in unit_acts(session, game.pk, unit_id):
        if not viewer.sees(ev.visibility) or unit_id not in touched_units(event_dict(ev, roles)):
            continue  # an act on the stand this viewer does not read: its newest is older
        # `undo_refusal` has asked whether a change of it changed since, as the undo asks it (`_stale`): asked
        # again here, change by change, each unit it changed was read twice.
        units = _Units(session, game, kept)
        return (
            ev if ev.kind in CARD_UNDOES and undo_refusal(session, game, viewer, ev, units) is None else None
        )
    return None


def undo(session: Session, game: Game, viewer: Viewer, event_id: int) -> Event:
    """Reverse an event by appending its opposite. Players undo their own moves and markers back to the
    last die roll, and their own roll while it is the game's latest event; any other roll is the referee's
    call."""
    ev = get_event(session, game.pk, event_id)
    if not viewer.sees(ev.visibility):
        raise NotFoundError("event", str(event_id))
    units = _Units(session, game)
    if (refused := undo_refusal(session, game, viewer, ev, units)) is not None:
        raise refused
    drawn = ev.kind == "roll" and ev.payload.get("resolver") in rules_of(game).book.roll_terms.secret_draws
    whole = view(ev.payload, ev.private, [*SIDES, "referee"])
    if drawn:
        return _take_back_draw(session, game, viewer, ev, whole)
    # The whole record (the referee's view): the reverse is split again into its public and private parts.
    reverse = _taken_back(session, game, reversed(read_changes(whole.get("changes", []))), units)
    return record(
        session,
        game,
        "undo",
        viewer.role,
        {"undoes": event_id, "kind": ev.kind, "changes": reverse},
        reverses_id=event_id,
    )


def _take_back_draw(session: Session, game: Game, viewer: Viewer, ev: Event, whole: dict[str, Any]) -> Event:
    """The referee takes a draw back as the rule set says, giving back no knowledge (the cards drawn stay
    out of play); the hands it changes are their sides' own, as the draw's were."""
    units = list_units(session, game.pk)
    snapshot = snapshot_of(session, game, units)
    taken = rules_of(game).play(snapshot, TakeBackDraw(resolver=str(ev.payload["resolver"]), payload=whole))
    changes = apply_changes(session, game, units, taken.changes)
    return record(
        session,
        game,
        "undo",
        viewer.role,
        {"undoes": ev.id, "kind": ev.kind, "changes": changes},
        reverses_id=ev.id,
    )


def _changed_since(session: Session, game: Game, change: LoggedChange, units: _Units) -> RuleRefused | None:
    """Why `change` can no longer be taken back as it was made (a later change over it), or None: what the undo
    refuses, and what a stand's card reads before it offers the Undo (session 23's hostile pass: a company's
    move offered after one of its stands had moved again, then refused)."""
    field, words = change.field, change.field.replace("_", " ")
    later = "has changed since: undo the later change first"
    if isinstance(change, SideSet):  # a side's row (a unit's secret names its side too, and its unit)
        row = get_side(session, game.pk, change.side)
        return (
            None
            if row.special_uses.get(field) == change.after
            else RuleRefused(f"the {row.side}'s {words} {later}")
        )
    if isinstance(change, GameSet):
        same = game_field(game, field) == change.after
        return None if same else RuleRefused(f"the game's {words} {later}", current=game_state(game))
    unit = units(change.unit)
    if isinstance(change, UnitCounted):
        return None if (value(unit, field) or 0) - change.delta >= 0 else _too_low(unit, field)
    return (
        None
        if value(unit, field) == change.after
        else RuleRefused(f"{unit.name}'s {words} {later}", current=unit_dict(unit))
    )


def _too_low(unit: Unit, field: str) -> RuleRefused:
    """A counted field (markers) taken below nought by the undo: a later change took it down first."""
    words = field.replace("_", " ")
    return RuleRefused(
        f"{unit.name}'s {words} is too low to undo: undo the later change first", current=unit_dict(unit)
    )


def _taken_back(
    session: Session, game: Game, changes: Iterable[LoggedChange], units: _Units
) -> list[LoggedChange]:
    """The changes that take `changes` (newest first) back, in that order: a run of units' fields set written
    in one statement per kind of row (app.services.units.update_units, as a formation's move writes them: an
    undo of a 1,070-stand battalion's move was 3,317 statements, 1.1 s of CPU on PostgreSQL; hostile pass, stop
    114), a counted field, a side's and the game's one by one. Each was judged as it is taken back by
    `undo_refusal` (`_stale`), under the game's lock: none is judged again here. A side's secret set again
    unchanged is logged as set (units.update_units), and once it is no secret the same value set is no change
    (an earlier hostile pass: a 2mm battery's plan saved again, then the battery moved)."""
    out: list[LoggedChange] = []
    run: list[tuple[Unit, str, Any]] = []
    for c in changes:
        if isinstance(c, UnitSet):
            run.append((units(c.unit), c.field, c.before))
            continue
        out += update_units(session, run)
        run = []
        out.append(_reverse(session, game, c, units))
    return out + update_units(session, run)


def _reverse(
    session: Session, game: Game, change: SideSet | GameSet | UnitCounted, units: _Units
) -> LoggedChange:
    """The change that takes a side's, the game's or a counted field's `change` back."""
    field = change.field
    if isinstance(change, SideSet):
        return set_side_allowance(session, get_side(session, game.pk, change.side), field, change.before)
    if isinstance(change, GameSet):
        before = game_field(game, field)
        bump_game(session, game, None, **{field: change.before})
        return GameSet(game=game.pk, field=field, before=before, after=change.before)
    unit = units(change.unit)
    got = increment(session, unit, field, -change.delta)
    if got is None:  # another write came first
        raise _too_low(unit, field)
    return got
