"""The act pipeline: every act on a game (rules.core.acts) is played by one call, `play`, in the same steps.

1. The act is checked against the request (the viewer may act for the unit's side, the unit is in play, a
   template exists).
2. The rules of play: the turn's current step allows the act (app.services.turns.rules_of_play), else a 409
   naming the rule; the referee's override is recorded with the act.
3. One snapshot of the table: what the rule set's turn forbids of the act beyond the step and the side
   (`GameRules.forbidden`: what it costs and cannot pay, the actor's state, its target), a 409 like the
   step's unless overridden; then one call of the rule set on the same snapshot: `GameRules.play(snapshot,
   act)` answers the changes and what everyone is shown, or refuses with its rule: every act, a roll
   (rules.core.rolls.Rolled), arrived fire (a card's dice, CardApplied), a template's place and a formation's
   move (rules.table.frame) among them.
4. The one applier writes the changes (app.services.markers.apply_changes), and one event logs the act,
   in the current step, with the override.

Routes and pages call `play` once per act and never log, nor ask the rules of play, themselves (a test walks
them). Call within `lock_game` (app.services.writing.game_write); a formation move is planned before the lock
(`plan_formation`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, overload

from sqlalchemy.orm.util import identity_key
from sqlmodel import Session

from app.data.changes import LoggedChange, logged, side_of
from app.data.models import Event, Game, Unit
from app.data.overrides import Overridden
from app.data.schemas_answers import ResolvedOut
from app.data.schemas_table import TemplateOut
from app.errors import Refused, RuleRefused
from app.services import (
    arrivals,
    club_data,
    formations,
    game_acts,
    game_setup,
    resolve,
    score,
    templates,
    turns,
)
from app.services import clock as clock_service
from app.services import units as units_service
from app.services.events import record
from app.services.games import bump_game, readings_changed
from app.services.kept_units import KeptUnits
from app.services.markers import TableRead, apply_changes, kept_of, rules_of, snapshot_of, table_snapshot
from app.services.played import EventActs, Played, TemplateActs, Todo, UnitActs, Written
from app.services.result import advance_ends, caller, end_refusal, seat_ends
from app.services.seating import Viewer
from app.services.unit_names import told_apart
from rules.core.acts import (
    Act,
    AddUnit,
    AdvanceTurn,
    ApplyArrival,
    BuildForce,
    CallObjective,
    EditUnit,
    EndGame,
    GiveTime,
    LayTemplate,
    MoveFormation,
    MoveStand,
    MoveTemplate,
    PauseClock,
    PlaceMarker,
    PlayCard,
    RecoverMarker,
    RemoveTemplate,
    ResumeClock,
    Roll,
    SetClockLimits,
)
from rules.core.errors import NotFoundError, RulesError
from rules.core.fire_cards import CardApplied
from rules.core.forces import base_of
from rules.core.game import EDIT_ACT, Answer, Member, edit_act
from rules.core.records import Change, SetState, Snapshot, UnitChange, UnitState
from rules.core.rolls import Rolled
from rules.core.vocabulary import other_side

__all__ = ["edit_game", "finish_game", "plan_formation", "play", "refusal"]


@overload
def play(
    session: Session, game: Game, viewer: Viewer, act: Roll, formation: formations.Plan | None = None
) -> Played[ResolvedOut]: ...
@overload
def play(
    session: Session, game: Game, viewer: Viewer, act: UnitActs, formation: formations.Plan | None = None
) -> Played[Unit]: ...
@overload
def play(
    session: Session, game: Game, viewer: Viewer, act: TemplateActs, formation: formations.Plan | None = None
) -> Played[TemplateOut]: ...
@overload
def play(
    session: Session, game: Game, viewer: Viewer, act: EventActs, formation: formations.Plan | None = None
) -> Played[None]: ...
def play(
    session: Session, game: Game, viewer: Viewer, act: Act, formation: formations.Plan | None = None
) -> Played[Any]:
    """Play `act` on `game` (locked) for `viewer`: see the module's steps (`formation`: a formation move
    planned before the lock, `plan_formation`); the answer record typed by the act."""
    if isinstance(act, AdvanceTurn):  # the turn's own steps log what happens as it moves on
        _out_of_time(session, game, viewer, moving_on=True)
        ends = advance_ends(session, game)  # read once: the end asked and the end played are the same
        if ends:  # the game's end by itself waits for the calls, as the referee's End
            refused = end_refusal(score.game_score(session, game), False, caller(session, game))
            if refused is not None:
                raise turns.conflict(game, refused)
        evs = turns.advance(session, game, viewer, act.version, lambda: ends)
        return Played(evs[-1], [], None, evs)  # a step moved on is always logged
    todo, snapshot, override = _judged(session, game, viewer, act, formation)
    answer = _answered(game, act, todo, snapshot)
    written = todo.write(answer)
    payload, changes, out = written.payload, written.changes, written.answer
    said = payload.pop("override", None)  # what the rule set's answer overrode, as its payload logs it
    override = Overridden.merged(override, Overridden(**said) if said else None)
    if override:
        payload = {**payload, "override": override.logged()}
    step = turns.logged_step(game) if todo.in_step else ""
    ev = record(session, game, act.event, viewer.role, payload, step=step, private=todo.private or None)
    if todo.logged is not None:
        out = todo.logged(ev, out)
    ended = turns.decided(session, game, viewer)  # an instant win ends the game with the act that made it
    return Played(ev, changes, out, [ev, ended] if ended else [])


def _judged(
    session: Session,
    game: Game,
    viewer: Viewer,
    act: Act,
    formation: formations.Plan | None,
    read: TableRead | None = None,
) -> tuple[Todo, Snapshot, Overridden | None]:
    """Steps 1 to 3 of the pipeline short of the rule set's answer: the act checked against the request, the
    rules of play, the snapshot and what the turn forbids (each refusal raised, unless the referee overrides
    it: then its record). `read`: the game's units and their snapshot, read by a caller that writes nothing
    (a stand's card judging its acts): its snapshot is named as a refusal names the units throughout."""
    if act.override:
        viewer.require_referee("override the rules of play")
    # The caller's read, judging the act on it (its own stand too: not its row read again for each act judged); a
    # formation's plan: made before the lock, or on the read of a caller judging it.
    given: formations.Plan | TableRead | None = read
    if isinstance(act, MoveFormation):
        planned = formations.plan(session, game, viewer, act.unit_id, read.kept) if read else None
        given = formation or planned
    todo = _PREPARE[type(act)](session, game, viewer, act, given)
    if not isinstance(act, game_acts.CLOCK_ACTS):
        _out_of_time(session, game, viewer, read is not None)
    own = getattr(act, "unit_id", None)
    # The units the rules of play ask and the rule set plays on, read once (before the rules of play: not twice):
    # a caller's (the act's own too: a formation judged on it is planned on it, above), an act's own (a formation's
    # plan, arrived fire's aim), or the worker's kept state of the game, each unit decoded once per version and the
    # names that tell them apart worked out once (app.services.kept_units).
    kept = read.kept if read is not None else todo.kept
    if kept is None and todo.units is None:
        kept = kept_of(session, game)
    if read is not None:  # a card's snapshot is named as its refusals name the units, throughout
        snapshot = named = read.named(own)
        override = _rules_of_play(session, game, viewer, act, todo, read.units)
    elif kept is not None:
        snapshot = table_snapshot(session, game, kept.units)
        override = _rules_of_play(session, game, viewer, act, todo, kept.units)
        named = replace(snapshot, units=kept.told_apart(own))
    else:
        assert todo.units is not None  # else the kept state was read
        units = todo.units
        override = _rules_of_play(session, game, viewer, act, todo, units)
        snapshot = snapshot_of(session, game, units)
        # What the turn forbids names each unit so that no two read alike, on the card and in the API's refusal
        # alike.
        named = told_apart(snapshot, units, own)
    if isinstance(act, Roll):  # its step and its side, read from the table (its unit's, its target's)
        override = Overridden.merged(override, turns.roll_of_play(game, viewer, act, named))
    return todo, snapshot, _forbidden(game, viewer, act, named, override)


def _answered(game: Game, act: Act, todo: Todo, snapshot: Snapshot) -> Answer:
    """The rule set's answer to the act on the snapshot, one call of `GameRules.play` (its refusal a
    RulesError)."""
    return rules_of(game).play(snapshot, todo.act or act)


def refusal(
    session: Session,
    game: Game,
    viewer: Viewer,
    act: Act,
    answered: bool = True,
    read: TableRead | None = None,
) -> Refused | RulesError | None:
    """What `play` would refuse of `act` now, nothing written: the same steps, to the rule set's answer
    (`answered`: False for an act still to be completed, a roll whose target is not picked yet; `read`: the
    game's units and snapshot, when the caller judges many acts). A stand's card offers an act exactly when
    this says None."""
    try:
        todo, snapshot, _ = _judged(session, game, viewer, act, None, read)
        if answered:
            _answered(game, act, todo, snapshot)
    except (Refused, RulesError) as refused:
        return refused
    return None


def _rules_of_play(
    session: Session, game: Game, viewer: Viewer, act: Act, todo: Todo, units: Sequence[Member] | None
) -> Overridden | None:
    """Every rules-of-play question the act asks (of `units`, the game's as the act read them); the override's
    record, the refusals in one sentence."""
    refused: list[str] = []
    for action, unit, side in todo.asks:
        got = turns.rules_of_play(
            session, game, viewer, action, unit, side=side, override=act.override, units=units
        )
        if got:
            refused.append(got.refused)
    return Overridden(viewer.role, " ".join(dict.fromkeys(refused))) if refused else None


def _forbidden(
    game: Game, viewer: Viewer, act: Act, snapshot: Snapshot, override: Overridden | None
) -> Overridden | None:
    """What the rule set's turn forbids of the act beyond the step and the side (GameRules.forbidden): a 409
    with the first refusal's sentence, or with the referee's override every refusal in the record."""
    refusals = rules_of(game).forbidden(snapshot, act)
    if not refusals:
        return override
    if not act.override:
        raise turns.conflict(game, refusals[0])
    return Overridden.merged(
        override, Overridden(viewer.role, " ".join(dict.fromkeys(r.why for r in refusals)))
    )


# -- the force tree ------------------------------------------------------------------------------------------
def _add_unit(session: Session, game: Game, viewer: Viewer, act: AddUnit, _: Any) -> Todo:
    viewer.require_side(act.side, "add units")
    parent_id = act.fields.get("parent_id")

    def write(answer: Answer) -> Written:
        if parent_id is not None:
            parent = units_service.get_unit(session, game.pk, parent_id, "parent_id")
            if parent.side != act.side:
                raise RulesError(
                    "parent_id", f"{parent.name} belongs to the {parent.side}: pick a unit of the {act.side}"
                )
        game_setup.require_room_for_units(session, game.id, 1, "units")
        rules = rules_of(game)
        units_service.check_vocabulary(rules, act.fields.get("level"), act.fields.get("quality"))
        fields = dict(act.fields)
        # The state set with the unit (a counter's hex and values), judged by the rule set before it is written.
        defaults = {**units_service.state_defaults(session, game.pk), **(fields.pop("state", None) or {})}
        chart = rules.book.force_chart
        if fields.get("base") is None and chart is not None:  # a base of its kind, as a built force's
            fields["base"] = base_of(chart, fields["level"], fields.get("kind", ""))
        unit = Unit(game_id=game.pk, state=defaults, side=act.side, **fields)
        session.add(unit)
        session.flush()
        return Written({"unit": units_service.unit_dict(unit), "changes": []}, [], unit)

    return Todo([("build-forces", None, act.side)], None, write)


def _build_force(session: Session, game: Game, viewer: Viewer, act: BuildForce, _: Any) -> Todo:
    viewer.require_side(act.side, "add forces")

    def write(answer: Answer) -> Written:
        units = units_service.list_units(session, game.pk)
        roots = sum(u.parent_id is None for u in units)
        entry = {**act.entry, "side": act.side}
        tree = game_setup.table_force(game, entry, "", f"forces-{roots}")
        game_setup.require_room_for_units(session, game.id, game_setup.units_in(tree))
        root = units_service.add_unit_tree(session, game.pk, act.side, tree, {})
        return Written({"side": act.side, "table_id": act.entry.get("table_id"), "root": root.id}, [], root)

    return Todo([("build-forces", None, act.side)], None, write)


def _edit_unit(session: Session, game: Game, viewer: Viewer, act: EditUnit, read: TableRead | None) -> Todo:
    unit, kept = _stand(session, game, act.unit_id, read)
    rules = rules_of(game)
    viewer.require_side(unit.side, "change units")
    wanted = {edit_act(rules.book, k) for k in act.values} or {EDIT_ACT}

    def write(answer: Answer) -> Written:
        assert isinstance(unit, Unit)  # a caller's read judges, never writes
        changes: list[LoggedChange] = [
            *units_service.update_unit(session, unit, act.version, **_values_of(answer, unit))
        ]
        # What the edit costs (an action to limber or unpack): written by the one applier.
        changes += _costs(session, game, [c for c in answer.changes if not isinstance(c, SetState)], kept)
        return Written({"unit_id": act.unit_id, "changes": changes}, changes, unit)

    asks: list[tuple[str, Unit | UnitState | None, str | None]] = [(a, unit, None) for a in sorted(wanted)]
    return Todo(asks, None, write, kept=kept)


# -- the table -----------------------------------------------------------------------------------------------
def _stand(
    session: Session, game: Game, unit_id: int, read: TableRead | None
) -> tuple[Unit | UnitState, KeptUnits]:
    """The act's own stand and the game's units it is judged on, read once (issue 88): a caller's read judging
    acts (a stand's card, nothing written: its row was read anew for each act it judged, four times a card's
    head), else the worker's kept state, the stand made the session's own from its kept row, which the act
    writes (units.held_unit: not read again); a unit the game has not refused as `get_unit` refuses it."""
    kept = read.kept if read is not None else kept_of(session, game)
    row = kept.rows.get(unit_id)
    if row is None:
        raise NotFoundError("unit", str(unit_id))
    return (kept.by_id[unit_id] if read is not None else units_service.held_unit(session, row)), kept


def _move_stand(session: Session, game: Game, viewer: Viewer, act: MoveStand, read: TableRead | None) -> Todo:
    unit, kept = _stand(session, game, act.unit_id, read)
    viewer.require_side(unit.side, "move units")
    if unit.killed:
        raise RulesError(
            "unit_id", "that stand is already destroyed: pick another", why=f"unit {act.unit_id} is destroyed"
        )

    def write(answer: Answer) -> Written:
        assert isinstance(unit, Unit)  # a caller's read judges, never writes
        changes: list[LoggedChange] = [
            *units_service.update_unit(session, unit, act.version, **_values_of(answer, unit))
        ]
        # What the move costs beyond the stand itself (an action of its company): written by the one applier.
        rest = [c for c in answer.changes if not (isinstance(c, SetState) and c.unit_id == unit.id)]
        changes += _costs(session, game, rest, kept)
        return Written({"unit_id": act.unit_id, "changes": changes}, changes, unit)

    return Todo([("move-stands", unit, None)], None, write, kept=kept)


def _costs(
    session: Session, game: Game, changes: Sequence[Change], kept: KeptUnits | None = None
) -> list[LoggedChange]:
    """What a move costs beyond the stands' places (an action of the units moved), written by the one
    applier on those units' rows alone (a formation's stands are not read again); `kept`: the game's state
    read under the lock, the rows made from it (`_held_rows`)."""
    if not changes:
        return []
    rows = _held_rows(session, kept, changes)
    if rows is None:
        paying = {c.unit_id for c in changes if isinstance(c, UnitChange)}
        rows = units_service.get_units(session, game.pk, paying)
    return apply_changes(session, game, rows, changes)


def _held_rows(session: Session, kept: KeptUnits | None, changes: Sequence[Change]) -> list[Unit] | None:
    """The unit rows `changes` write, made the session's own from `kept` (the worker's state of the game at
    the version locked, app.services.kept_units) rather than read again by id (issue 88: a shot read its stand
    and its target anew to write them): a row the session holds already is left to `apply_changes`, which
    reads it by id (what this unit of work wrote of it stands). None without a kept state."""
    if kept is None:
        return None
    touched = {c.unit_id for c in changes if isinstance(c, UnitChange)}
    made = [
        u for u in sorted(touched) if u in kept.rows and identity_key(Unit, u) not in session.identity_map
    ]
    return [units_service.held_unit(session, kept.rows[u]) for u in made]


def _values_of(answer: Answer, unit: Unit) -> dict[str, Any]:
    """The fields the rules set on the unit, written in one write over the version the player saw."""
    return {c.field: c.value for c in answer.changes if isinstance(c, SetState) and c.unit_id == unit.id}


def plan_formation(session: Session, game_id: int, viewer: Viewer, act: MoveFormation) -> formations.Plan:
    """A formation's stands read before the game's write lock (app.services.formations), for `play`."""
    return formations.planned(session, game_id, viewer, act.unit_id)


def _move_formation(
    session: Session, game: Game, viewer: Viewer, act: MoveFormation, planned: formations.Plan | None
) -> Todo:
    p = planned or formations.plan(session, game, viewer, act.unit_id)

    def again() -> tuple[formations.Plan, dict[int, dict[str, float]]]:
        # Read anew under the lock (a stand changed meanwhile): the rules of play asked of its stands again,
        # and the rule set asked again where they go.
        anew = formations.plan(session, game, viewer, act.unit_id)
        units = anew.kept.units
        _rules_of_play(session, game, viewer, act, Todo(formations.asks(anew), None, write), units)
        moved = rules_of(game).play(table_snapshot(session, game, units), act)
        return anew, formations.places(anew, moved.changes)[0]

    def write(answer: Answer) -> Written:
        placed, costs = formations.places(p, answer.changes)  # where the rules put each stand, what it costs
        changes: list[LoggedChange] = [*formations.write(session, game, p, placed, again)]
        changes += _costs(session, game, costs)  # an action of each unit moved
        return Written({"unit_id": act.unit_id, "changes": changes}, changes)

    return Todo(formations.asks(p), None, write, kept=p.kept)


def _marker(
    session: Session, game: Game, viewer: Viewer, act: PlaceMarker | RecoverMarker, read: TableRead | None
) -> Todo:
    unit, kept = _stand(session, game, act.unit_id, read)
    if isinstance(act, RecoverMarker):
        # Markers land on the enemy's stands: either player (or the referee) may place them; a side
        # recovers its own.
        viewer.require_side(unit.side, "recover markers")
        if not act.spend_action and not viewer.is_referee:
            raise RulesError(
                "spend_action", "only the referee may recover a marker without an action", [True]
            )
    cause = act.cause if isinstance(act, PlaceMarker) else None

    def write(answer: Answer) -> Written:
        assert isinstance(unit, Unit)  # a caller's read judges, never writes
        changes = apply_changes(session, game, [unit], answer.changes)  # the others it changes read by id
        return Written({"unit_id": act.unit_id, "fire": cause, "changes": changes}, changes, unit)

    return Todo([(act.action, unit, None)], None, write, kept=kept)


def _lay_template(session: Session, game: Game, viewer: Viewer, act: LayTemplate, _: Any) -> Todo:
    laid = templates.laying(game, viewer, act.kind, act.side)

    def write(answer: Answer) -> Written:
        template = laid.placed(answer.shown)  # where the rules lay it
        return Written({"template": template}, [], template)

    def logged(ev: Event, template: Any) -> TemplateOut:
        return TemplateOut.model_validate(laid.saved(session, template, ev))

    return Todo([("lay-templates", None, laid.side)], None, write, False, logged=logged)


def _move_template(session: Session, game: Game, viewer: Viewer, act: MoveTemplate, _: Any) -> Todo:
    moving = templates.moving(game, viewer, act.template_id)

    def write(answer: Answer) -> Written:
        payload, after = moving.moved(answer.shown, act.version)  # where the rules lay it
        return Written(payload, [], after)

    def logged(ev: Event, after: Any) -> TemplateOut:
        return TemplateOut.model_validate(moving.saved(session, after, ev))

    return Todo([("lay-templates", None, moving.before["side"])], None, write, False, logged=logged)


def _remove_template(session: Session, game: Game, viewer: Viewer, act: RemoveTemplate, _: Any) -> Todo:
    gone = templates.removing(game, viewer, act.template_id)

    def write(answer: Answer) -> Written:
        return Written({"template": {k: v for k, v in gone.items() if k != "version"}}, [], gone)

    def logged(ev: Event, gone: Any) -> TemplateOut:
        templates.take_off(session, game, act.template_id)
        return TemplateOut.model_validate(
            {**gone, "version": ev.pk}
        )  # its last version, the event taking it off

    return Todo([("lay-templates", None, gone["side"])], None, write, False, logged=logged)


# -- rolls, fire, cards --------------------------------------------------------------------------------------
def _roll(session: Session, game: Game, viewer: Viewer, act: Roll, read: TableRead | None) -> Todo:
    # The units a caller judging acts read once (nothing written), else the game's as the worker keeps them
    # (decoded once per version, named once: app.services.kept_units); the rows a roll changes are read by id
    # as it writes them.
    kept: KeptUnits | None = None
    if read is not None:
        units = read.units
    else:
        kept = kept_of(session, game)
        units = kept.units
    resolve.checked(session, game, viewer, act, units)
    private: dict[str, Any] = {}

    def write(w: Answer) -> Written:
        if not isinstance(w, Rolled):
            raise TypeError(f"a roll is answered by a Rolled, not {type(w).__name__}")
        rows = _held_rows(session, kept, [*w.spent, *(w.changes if act.apply else ())])
        if w.spent:  # written, not logged: the roll's event says what was asked
            apply_changes(session, game, rows, w.spent)
        changes = apply_changes(session, game, rows, w.changes) if act.apply else []
        payload = w.logged(act, logged(changes))
        override = None
        if w.overridden:  # a value the table keeps, set by the referee: kept for the log with the others
            override = Overridden(viewer.role, " ".join(w.overridden)).logged()
            payload["override"] = override
        if w.seen is None:
            told = w if act.apply else replace(w, changes=())  # an unapplied roll says nothing done
            assert kept is not None  # a caller's read judges, never writes
            names = kept.short_names
            return Written(payload, changes, {**payload, **resolve.in_words(game, names, told)})
        # One event: what the opponent learns of the draw is public; the drawer reads its own draw and what
        # changed of its own, the opponent only what changed in its own hand (a card handed over), the referee
        # the whole draw.
        drawer = game.side_to_move
        public, seen = dict(w.seen[0]), dict(w.seen[1])
        mine = {**seen, "changes": [c for c in changes if (side_of(c) or drawer) == drawer]}
        if override:
            mine["override"] = override
        rival = other_side(drawer)
        theirs = [c for c in changes if side_of(c) == rival]
        private.update({drawer: mine, "referee": payload, **({rival: {"changes": theirs}} if theirs else {})})
        return Written(public, changes, payload if viewer.is_referee else mine)

    def answered(ev: Event, out: dict[str, Any]) -> ResolvedOut:
        return ResolvedOut.model_validate({**out, "event_id": ev.pk})

    return Todo([], None, write, private=private, logged=answered, kept=kept)


def _apply_arrival(session: Session, game: Game, viewer: Viewer, act: ApplyArrival, _: Any) -> Todo:
    aiming = arrivals.aimed(session, game, viewer, act.item_id)

    def write(answer: Answer) -> Written:
        if not isinstance(answer, CardApplied):
            raise TypeError(f"arrived fire is answered by a CardApplied, not {type(answer).__name__}")
        changes = apply_changes(session, game, aiming.units, answer.changes)
        return Written(aiming.payload(answer, changes), changes)

    return Todo([], aiming.units, write, act=replace(act, names=aiming.names))


def _play_card(session: Session, game: Game, viewer: Viewer, act: PlayCard, _: Any) -> Todo:
    viewer.require_side(act.side, "play the cards")
    units = units_service.list_units(session, game.pk)

    def write(answer: Answer) -> Written:
        changes = apply_changes(session, game, units, answer.changes)
        payload = {"side": act.side, **answer.shown, "changes": changes, "source": answer.source}
        return Written(payload, changes)

    return Todo([], units, write, False)


def _out_of_time(
    session: Session, game: Game, viewer: Viewer, judging: bool = False, moving_on: bool = False
) -> None:
    """A side out of time refused any act (app.services.clock.out_of_time): a 409 citing the clock."""
    refused = clock_service.out_of_time(session, game, viewer.role, judging, moving_on)
    if refused is not None:
        raise turns.conflict(game, refused)


_PREPARE: dict[type[Act], Callable[..., Todo]] = {
    AddUnit: _add_unit,
    BuildForce: _build_force,
    EditUnit: _edit_unit,
    MoveStand: _move_stand,
    MoveFormation: _move_formation,
    PlaceMarker: _marker,
    RecoverMarker: _marker,
    LayTemplate: _lay_template,
    MoveTemplate: _move_template,
    RemoveTemplate: _remove_template,
    Roll: _roll,
    ApplyArrival: _apply_arrival,
    PlayCard: _play_card,
    PauseClock: game_acts.clock,
    ResumeClock: game_acts.clock,
    GiveTime: game_acts.clock,
    SetClockLimits: game_acts.clock,
    CallObjective: game_acts.call_objective,
    EndGame: game_acts.end_game,
}


# -- the referee's edits of the game itself ------------------------------------------------------------------
def edit_game(session: Session, game: Game, viewer: Viewer, version: int, values: dict[str, Any]) -> Event:
    """The game's own fields edited by the referee (the caller checks the seat) over its `version`, logged;
    `table_objectives` its board's objectives (score.objectives_edited), `club` a game of counters' club data
    (club_data.club_edited): both before the game starts only."""
    fields = sorted(values)
    if "variants" in values and values["variants"] != game.variants and game.status == "finished":
        # As the lookup's reading line says (app.pages.game_lookup.reading_refused): PATCH took them (issue 69).
        raise RuleRefused("the game is finished: its readings stand as it was played")
    if "table_objectives" in values:
        values = {**values, "board": score.objectives_edited(game, values["table_objectives"])}
        del values["table_objectives"]
    if "club" in values:
        values = {**values, "board": club_data.club_edited(game, values["club"])}
        del values["club"]
    changed = readings_changed(game, values)  # named in the record and the seats' notice (issue 69)
    bump_game(session, game, version, **values)
    return record(session, game, "game-updated", viewer.role, {"fields": fields, **changed})


def finish_game(session: Session, game: Game, viewer: Viewer, version: int) -> Event:
    """The game ended (an `EndGame` act) by the referee, or at an event's table by its two seats each saying
    so (app.services.result.seat_ends; the first word is the event answered until the second): its fire plans
    become verifiable by everyone, and its result is the score as it stands (app.services.result)."""
    if not viewer.is_referee:
        word = seat_ends(session, game, viewer, version)
        if word is not None:
            return word
        version = game.version
    return play(session, game, viewer, EndGame(version=version)).event
