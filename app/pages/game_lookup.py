"""Lookups inside a game: the form preset from the game's state, and the roll recorded in the game's log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlmodel import Session

from app.data.models import Game, Unit
from app.data.schemas import ResolveIn
from app.errors import Forbidden
from app.pages.common import USER_ERRORS, error_message
from app.pages.forms import PRESENT, request_body, walk_specs
from app.pages.lookup_cards import hand_context, referee_pack
from app.pages.resolving import (
    Lookup,
    errata_rows,
    new_lookup,
    note_readings,
    odds_rows,
    reading_tapped,
    show_cards,
    with_reading,
)
from app.pages.seats import Seat
from app.pages.templates import humanise
from app.services import acts, events, markers, resolve
from app.services import units as units_service
from app.services.kept_units import KeptUnits
from app.services.seating import Viewer
from app.services.writing import game_write
from rules.core.acts import Roll
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import GameRules
from rules.core.records import UnitState
from rules.core.vocabulary import SIDES
from rules.registry import get_ruleset


@dataclass
class GameLookup:
    """A lookup for a unit of a game: the form preset from what the game knows, and, once recorded, the
    in-game resolution (its event, the values the game filled in, the changes it applied)."""

    lk: Lookup
    unit: Unit | None
    filled: list[resolve.Filled]
    read: markers.TableRead  # the game's table as the form was preset from it
    recorded: dict[str, Any] | None = None


def picked_unit(session: Session, game: Game, seat: Seat, unit_id: int | None) -> Unit | None:
    if unit_id is None:
        return None
    unit = units_service.get_unit(session, game.pk, unit_id)
    if not seat.viewer.may_act_for(unit.side):
        raise Forbidden(f"{unit.name} is one of the {unit.side}'s units: pick one of your own")
    return unit


def game_lookup(session: Session, game: Game, seat: Seat, resolver: str, unit_id: int | None) -> GameLookup:
    """The lookup form with the game's period and errata, preset with the fields the game's state fills
    for this unit: the same filling the in-game resolve endpoint does (app.services.resolve.fill), so the form shows
    beforehand what the game will use."""
    unit = picked_unit(session, game, seat, unit_id)
    lk = new_lookup(game.ruleset, resolver, game.period)
    lk.variants = dict(game.variants)
    fields = set(lk.resolver_cls.Request.model_fields)
    # The table as the worker keeps it for the game's version (app.services.kept_units), not every unit read
    # anew: a lookup page of a game of 1,400 stands loaded, decoded and named them all for one form.
    read = markers.table_read(session, game)
    filled = resolve.fill(game, resolver, fields, unit.id if unit is not None else None, read)
    lk.hidden_values = referee_pack(session, game, seat.viewer, resolver)
    specs = {s.name: s for s in walk_specs(lk.specs)}
    for f in filled:
        spec = specs.get(f.field)
        if spec is None:
            continue  # a shape the form does not show (a list): the game fills it when recording
        spec.from_game = f.why
        if spec.kind == "group" and isinstance(f.value, dict):
            lk.values[spec.name + PRESENT] = True
            lk.values.update(
                {f"{spec.name}.{k}": v for k, v in f.value.items() if f"{spec.name}.{k}" in specs}
            )
        else:
            lk.values[spec.name] = f.value
    if unit is not None:
        # A choice with no default the game could not make for this unit (a regiment's order roll: its
        # companies, MGs and guns roll on different tables) is named, not left silently at the first option.
        known = {f.field for f in filled}
        for spec in specs.values():
            if spec.kind == "enum" and not (
                spec.has_default or spec.nullable or spec.hidden or spec.name in known
            ):
                spec.ask = "the game cannot tell this for the unit picked: choose it before rolling"
    return GameLookup(lk, unit, filled, read)


def recorded_roll(gl: GameLookup, server_rolls: bool) -> Roll:
    """The roll as the game records it (POST /api/v1/games/{id}/resolve/{resolver}): only the fields the player
    changed from the game's preset are sent, so the game fills the rest itself and says why; the dice tapped, or
    none where firestep rolls (`server_rolls`). A RulesError or a ValidationError where it cannot be sent."""
    lk = gl.lk
    preset = {f.field: f.value for f in gl.filled}
    body = request_body(lk.specs, lk.values)
    fields = {k: v for k, v in body.items() if k not in preset or preset[k] != v}
    dice = None if server_rolls or not lk.dice_sides else [d for d in lk.dice if d is not None]
    if dice is not None and len(dice) < len(lk.dice_sides):
        raise RulesError("dice", "tap the face of every die first, or ask firestep to roll")
    body_in = ResolveIn(fields=fields, dice=dice, unit_id=gl.unit.id if gl.unit else None)
    return Roll(
        resolver=lk.resolver_id,
        fields=body_in.fields,
        dice=body_in.dice,
        unit_id=body_in.unit_id,
        target_id=body_in.target_id,
        apply=body_in.apply,
    )


def record_refused(session: Session, game: Game, seat: Seat, gl: GameLookup, server_rolls: bool) -> str:
    """Why the game would not record this roll now, in the sentence recording it would answer ("" where it would
    take it): the act pipeline's own question (`acts.refusal`, nothing written), so the lookup offers to record a
    roll exactly when the pipeline accepts it, as a stand's card offers its acts (app.services.card)."""
    try:
        refused = acts.refusal(session, game, seat.viewer, recorded_roll(gl, server_rolls))
    except USER_ERRORS as e:
        return error_message(e)
    return "" if refused is None else error_message(refused)


def record_in_game(session: Session, game: Game, seat: Seat, gl: GameLookup, server_rolls: bool) -> None:
    """Resolve as the in-game endpoint does (POST /api/v1/games/{id}/resolve/{resolver}): the game records
    the roll in its log and applies it (`recorded_roll`)."""
    lk = gl.lk
    try:
        act = recorded_roll(gl, server_rolls)
        with game_write(session, game.pk) as locked:
            played = acts.play(session, locked, seat.viewer, act)
            out, event = played.answer, played.event
    except USER_ERRORS as e:
        session.rollback()
        lk.errors.append({"field": "game", "label": "Not recorded", "message": error_message(e)})
        return
    answer = out.resolution.model_dump(exclude_unset=True)
    order = [row["key"] for row in lk.odds]
    exact = {k: Fraction(v) for k, v in answer.get("probabilities_exact", {}).items()}
    ranked = sorted(exact, key=lambda k: order.index(k) if k in order else len(order))
    lk.odds = odds_rows({k: exact[k] for k in ranked}, answer["outcome_key"])
    lk.answer = answer
    lk.dice = list(answer.get("dice", []))  # a side's own card draw does not say where in the pack
    show_cards(lk)
    note_readings(lk)
    labels = lk.labels
    gl.recorded = {
        "event_id": event.pk,
        "applied": out.applied,
        # What it did in the rule set's words (a stand card says the same); a draw shows its cards instead.
        "said": out.said or [],
        "filled": [
            {**f.model_dump(exclude_unset=True), "label": labels.get(f.field, humanise(f.field))}
            for f in out.filled
        ],
    }


def reading_refused(game: Game, viewer: Viewer) -> str:
    """Why this seat cannot change the reading a game plays from an answer ("" when it can): the referee's
    change, as PATCH /api/v1/games/{id} makes it, while the game is not finished."""
    if not viewer.is_referee:
        return "Only the referee changes the readings this game plays."
    if game.status == "finished":
        return "The game is finished: its readings stand as it was played."
    return ""


def read_otherwise(session: Session, game: Game, seat: Seat, gl: GameLookup, form: Any) -> None:
    """The reading tapped under an answer made the game's (the referee's change of its variants, logged as
    any edit of the game), so the lookup is asked again by it; refused in the panel when the seat may not."""
    try:
        tapped = reading_tapped(gl.lk.ruleset, form)
        refused = reading_refused(game, seat.viewer)
        if tapped is None or refused:
            gl.lk.errors.append(
                {"field": "_reading", "label": "Reading", "message": refused or "none tapped"}
            )
            return
        with game_write(session, game.pk) as locked:
            variants = with_reading(locked.variants, gl.lk.ruleset, *tapped)
            get_ruleset(locked.ruleset).game_context(
                locked.period, variants, locked.variants
            )  # of its period
            if variants != locked.variants:  # the reading it plays already: no edit, no new version
                acts.edit_game(session, locked, seat.viewer, locked.version, {"variants": variants})
    except USER_ERRORS as e:
        session.rollback()
        gl.lk.errors.append({"field": "_reading", "label": "Reading", "message": error_message(e)})
        return
    gl.lk.variants = dict(variants)


def answered_again(session: Session, game: Game, changed: int | None) -> str:
    """The line over an open answer asked again because the referee changed a reading the game plays (result-line.js
    sends the form again with the change's event id, `changed`, as every seat hears it): the readings the game now
    plays, as the seats' notice names them; "" where it was not asked again."""
    if changed is None:
        return ""
    try:
        ev = events.get_event(session, game.pk, changed)
    except NotFoundError:
        ev = None
    readings = ev.payload.get("readings") if ev is not None and ev.kind == "game-updated" else None
    if not readings:
        return "Answered again by the readings this game now plays."
    return f"Answered again by the reading the referee now plays: {'; '.join(map(str, readings))}."


def game_lookup_context(
    session: Session, game: Game, seat: Seat, unit: Unit | None, kept: KeptUnits | None = None
) -> dict[str, Any]:
    """The game's side of the lookup page: the unit picker and the game's period and readings. `kept`: the
    game's units as this request already read them."""
    if kept is None:
        kept = markers.kept_of(session, game)
    tree = unit_tree(kept.units, markers.rules_of(game))
    # The picker names each unit as the board, the map and the fire plan do ("1 Rgt Bty 2", never one of
    # three "77mm Battery"): the names worked out once for the game's units as they are kept.
    names = kept.short_names

    def named(nodes: list[dict[str, Any]]) -> None:
        for n in nodes:
            n["name"] = names.get(n["unit"].id, n["unit"].name)
            named(n["children"])

    for nodes in tree.values():
        named(nodes)
    return {
        "unit_name": names.get(unit.pk, unit.name) if unit is not None else "",
        "rulesets": [],
        "period": game.period,
        "errata": [],
        "errata_count": 0,
        "game_variants": len(game.variants),
        # The newest event the page holds: its stream (live.js) tells it of later ones, the referee's change of
        # a reading among them, and an answer asked before that change is marked (result-line.js).
        "live_after": events.newest_event_id(session, game.pk),
        "unit": unit,
        "unit_tree": {side: nodes for side, nodes in tree.items() if seat.viewer.may_act_for(side)},
    }


def game_lookup_response(
    session: Session, game: Game, seat: Seat, gl: GameLookup, errata_open: bool = False, reasked: str = ""
) -> dict[str, Any]:
    """The game's period and readings are fixed: the errata that touch the resolver are shown, not offered.
    `reasked`: the answer's line saying it was asked again by a reading the referee changed (answered_again)."""
    rows = errata_rows(gl.lk)
    # The roll the page offers to record, judged as the pipeline would judge it: the answer's (its dice), else
    # firestep's roll ("Let firestep roll and record it").
    refused = "" if gl.recorded else record_refused(session, game, seat, gl, not gl.lk.answer)
    return {
        # A recorded roll changed the units: read again; else the ones the form was preset from.
        **game_lookup_context(session, game, seat, gl.unit, None if gl.recorded else gl.read.kept),
        "rs": gl.lk.ruleset.describe(),
        "lk": gl.lk,
        **hand_context(session, game, seat.viewer, gl.lk.resolver_cls),
        "recorded": gl.recorded,
        "record_refused": refused,
        "reasked": "" if gl.recorded else reasked,
        "reading_refused": reading_refused(game, seat.viewer),
        "errata_count": len(rows),
        "errata": rows if errata_open else [],
    }


def unit_tree(units: Sequence[UnitState], rules: GameRules) -> dict[str, list[dict[str, Any]]]:
    """Each side's units as nested nodes (division .. stand), with battalion casualties (counted by the
    game's `rules`) against the 50% and 75% morale thresholds."""
    children: dict[int | None, list[UnitState]] = {}
    for u in units:
        children.setdefault(u.parent_id, []).append(u)

    def node(u: UnitState) -> dict[str, Any]:
        kids = [node(c) for c in children.get(u.id, [])]
        out: dict[str, Any] = {"unit": u, "children": kids, "leaf": not kids}
        if u.level == "battalion" or (
            u.level != "company" and any(k["unit"].level == "company" for k in kids)
        ):
            total, lost = rules.losses(u, units)
            if total:
                out["losses"] = {
                    "lost": lost,
                    "total": total,
                    "half": -(-total // 2),
                    "three_quarters": -(-3 * total // 4),
                }
        return out

    roots = [u for u in units if u.parent_id is None]
    return {side: [node(u) for u in roots if u.side == side] for side in SIDES}
