"""Resolving an action: filling a resolver's inputs from the table, running it, and applying its
consequences to the game (casualties, markers, morale, wind, barrages); heroic actions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from sqlmodel import Session

from app.auth import Viewer, other_side
from app.errors import Conflict
from app.models import Event, Game, Unit
from app.services.cards import apply_draw, deck_of, hands_of, public_draw, redact_opponent
from app.services.events import record
from app.services.games import game_state, set_game
from app.services.markers import add_suppression, gas_markers, kill, rifle_losses
from app.services.seats import get_side
from app.services.table import clouds_on_wind, shot, stand_of, target_cover, terrain_of
from app.services.turns import step_of, wind_due
from app.services.units import (
    ancestor_at,
    ancestors,
    get_unit,
    leaves_under,
    list_units,
    order_unit,
    quality_of,
    update_unit,
)
from rules.core.errors import RulesError
from rules.flanders_fields.orders import CREWED_UNITS, FLAG_UNITS
from rules.flanders_fields.shooting import FIRE_TYPE as SHOOTING_FIRE_TYPE
from rules.registry import get_ruleset


# -- resolving inside a game --------------------------------------------------------------------------------
@dataclass
class Filled:
    field: str
    value: Any
    why: str


# Organisation kinds -> the shooting resolver's firer ids.
FIRER = {
    "rifle-platoon": "infantry",
    "infantry": "infantry",
    "cavalry-troop": "cavalry",
    "mmg": "mg",
    "lmg": "lmg-unit",
    "field-battery": "field-gun",
    "howitzer-battery": "field-howitzer",
    "heavy-battery": "heavy-artillery",
    "light-mortar": "light-mortar",
    "medium-mortar": "medium-mortar",
    "heavy-mortar": "heavy-mortar",
    "flamethrower": "flamethrower",
}


# "Crewed Weapons such as artillery, machineguns and mortars" (TROOP QUALITY, EXPERIENCED): what a morale
# result of "abandon crewed weapons" abandons.
CREWED_KINDS = frozenset(
    {
        "mmg",
        "light-mortar",
        "medium-mortar",
        "heavy-mortar",
        "field-battery",
        "howitzer-battery",
        "heavy-battery",
    }
)


def fill(
    game: Game,
    resolver: str,
    fields: set[str],
    unit: Unit | None,
    target: Unit | None,
    units: list[Unit],
    given: dict[str, Any],
) -> list[Filled]:
    """The request fields the game's state knows, each with why; the resolver's own refusals decide the
    rest, so only what the rules let a unit claim is filled (crewed weapons are experienced, raw under
    fire only for raw troops, the flags only for the units they apply to)."""
    by_id: dict[int | None, Unit] = {u.id: u for u in units}
    out: list[Filled] = []

    def put(field: str, value: Any, why: str) -> None:
        if field in fields and field not in given:
            out.append(Filled(field, value, why))

    if unit is not None:
        chain = [unit, *ancestors(unit, by_id)]
        bn = ancestor_at(unit, "battalion", by_id)
        q = quality_of(unit, by_id)
        command = _command_stand(unit, units, by_id)
        stands = [u for u in leaves_under(unit, units) if not u.killed]
        if resolver == "order-roll":
            ou = given.get("unit") or order_unit(unit, by_id)
            if ou is not None:
                put("unit", ou, f"{unit.name} is a {unit.kind}")
            if ou in CREWED_UNITS:
                q = "experienced"
                put("quality", q, "Crewed Weapons ... are always classed as Experienced")
            flags = {f for f, allowed in FLAG_UNITS.items() if ou in allowed}
            if "platoon_beyond_25cm" in flags and bn is not None:
                far = _beyond(bn, units, by_id, 25.0)
                if far is not None:
                    put(
                        "platoon_beyond_25cm",
                        far,
                        f"a platoon of {bn.name} more than 25 cm from its commander",
                    )
            if "through_wire" in flags and any(u.stuck_on_wire for u in stands):
                put("through_wire", True, f"a platoon of {unit.name} is in wire")
            if unit.side == "defender" and game.deep_suppression:
                put("deep_suppression", game.deep_suppression, "the deep suppression in force this turn")
        if q:
            put("quality", q, f"quality of {bn.name if bn else chain[-1].name}")
            put("firer_raw", q == "raw", f"{unit.name} is {q}")
            if q == "raw":
                raw = any(a.raw_under_fire for a in chain)
                put(
                    "raw_under_fire", raw, "raw troops that have been fired on" if raw else "not yet fired on"
                )
        gas = [u.name for u in [*stands, *([command] if command else [])] if u.in_gas]
        put("in_gas", bool(gas), f"in a gas cloud: {', '.join(gas)}" if gas else "no stand in a gas cloud")
        put("firer_in_gas", unit.in_gas, f"{unit.name} is {'' if unit.in_gas else 'not '}in a gas cloud")
        if command is not None:
            put("command_suppression", command.suppression, f"suppression markers on {command.name}")
            put(
                "field_promotion",
                command.field_promotion,
                f"{command.name} is {'' if command.field_promotion else 'not '}a field promotion",
            )
        if resolver == "morale" and unit.level == "battalion":
            start, gone = rifle_losses(unit, units)
            put("starting_platoons", start, f"rifle platoons of {unit.name}")
            put("lost_platoons", gone, f"rifle platoons of {unit.name} destroyed")
        if resolver == "shooting" and unit.kind in FIRER:
            put("firer", FIRER[unit.kind], f"{unit.name} is a {unit.kind}")
        if resolver == "wire-crossing" and unit.stuck_on_wire:
            put("through_wire", True, f"{unit.name} is in wire")
    if target is not None:
        put(
            "target_is_command",
            target.is_command,
            f"{target.name} is {'' if target.is_command else 'not '}a command stand",
        )
        if target.kind in ("tank",) and "target" in fields:
            put("target", "armour", f"{target.name} is a tank")
        terrain = terrain_of(game)
        cover = target_cover(game, target, quality_of(target, by_id), terrain)
        if cover is not None:
            value = cover.value
            if target.kind == "tank":
                value = "open" if value == "open" else "cover"
            put(cover.field, value, cover.why)
        if unit is not None:
            for m in shot(game, unit, target, terrain):
                put(m.field, m.value, m.why)
        if resolver == "shooting" and given.get("firer", FIRER.get(unit.kind if unit else "")) == "gas":
            passed = [c.get("passed", {}) for c in game.board.get("clouds", [])]
            full = any(target.id in p.get("full", []) for p in passed)
            partial = any(target.id in p.get("partial", []) for p in passed)
            if full or partial:
                put(
                    "partial_template",
                    not full,
                    "the cloud only partly covered the base" if not full else "fully covered",
                )
        if resolver == "barrage-danger":
            for b in game.board.get("barrages", []):
                hit = next((d for d in b.get("danger", []) if d["unit"] == target.id), None)
                if hit is not None:
                    put(
                        "distance_cm",
                        hit["distance_cm"],
                        f"{target.name} is {hit['distance_cm']:g} cm behind barrage {b['item_id']}",
                    )
    if resolver == "gas-wind":
        wind = game.board.get("wind")
        if wind is not None:
            put("wind", wind, "the wind as it blew last turn (one wind for every cloud)")
        else:
            first = next(iter(game.board.get("clouds", [])), None)
            if first is not None:
                put(
                    "direction_deg",
                    first["wind_deg"],
                    f"the wind direction stated in fire plan item {first['item_id']}",
                )
    return out


def _spend_heroic_action(session: Session, game: Game, viewer: Viewer, unit: Unit | None) -> None:
    """ "Once per game each player may elect to attempt a Heroic Action" (HEROIC ACTIONS)."""
    if unit is None:
        raise RulesError("unit_id", "a heroic action is carried out by a single platoon stand: name it")
    row = get_side(session, game.id or 0, unit.side)
    left = int(row.special_uses.get("heroic-action", 0))
    if left < 1:
        raise RulesError("resolver", f"the {unit.side} player has had the one heroic action of the game")
    row.special_uses = {**row.special_uses, "heroic-action": left - 1}
    row.version += 1
    session.add(row)


def _command_stand(unit: Unit, units: Sequence[Unit], by_id: dict[int | None, Unit]) -> Unit | None:
    """The stand commanding a unit: the command stand of its battalion (or of its own formation)."""
    for a in [unit, *ancestors(unit, by_id)]:
        if a.level in ("battalion", "regiment", "brigade", "division"):
            for u in units:
                if u.parent_id == a.id and u.is_command and not u.killed:
                    return u
            return None
    return None


def _beyond(bn: Unit, units: Sequence[Unit], by_id: dict[int | None, Unit], limit_cm: float) -> bool | None:
    command = _command_stand(bn, units, by_id)
    cstand = stand_of(command) if command is not None else None
    if cstand is None:
        return None
    cpoly = cstand.polygon()
    placed = [
        s for s in (stand_of(u) for u in leaves_under(bn, units) if u.level == "platoon") if s is not None
    ]
    if not placed:
        return None
    return any(s.polygon().distance(cpoly) > limit_cm for s in placed)


def resolve(
    session: Session,
    game: Game,
    viewer: Viewer,
    resolver_id: str,
    fields: dict[str, Any],
    dice: list[int] | None,
    unit_id: int | None,
    target_id: int | None,
    apply: bool,
) -> tuple[dict[str, Any], Event]:
    rs = get_ruleset(game.ruleset)
    if resolver_id not in rs.resolvers:
        raise RulesError("resolver", f"unknown resolver {resolver_id!r}", sorted(rs.resolvers))
    if game.status != "playing":
        raise Conflict(f"the game is in {game.status}, not playing", current=game_state(game))
    units = list_units(session, game.id or 0)
    unit = get_unit(session, game.id or 0, unit_id, "unit_id") if unit_id is not None else None
    target = get_unit(session, game.id or 0, target_id, "target_id") if target_id is not None else None
    if unit is not None:
        viewer.require_side(unit.side, "resolve for a unit")
    if resolver_id == "heroic-action":
        _spend_heroic_action(session, game, viewer, unit)
    if resolver_id == "gas-wind" and apply and not wind_due(game):
        raise RulesError(
            "resolver",
            "no gas-wind roll is due: it is rolled once a turn by the attacker once a cloud is on the table "
            "(send apply: false to ask the table without moving the clouds)",
        )
    request_model = rs.resolvers[resolver_id].Request
    filled = fill(game, resolver_id, set(request_model.model_fields), unit, target, units, fields)
    drawer = game.side_to_move
    if resolver_id == "random-event":
        # "At the start of each turn a player must draw at least one card": the side to move draws.
        viewer.require_side(drawer, "draw the random event cards")
        hands = hands_of(session, game)
        rival = other_side(drawer)
        for name, value, why in (
            ("deck", deck_of(game, hands), "the cards left in the game's pack"),
            ("hand", hands[drawer], f"the {drawer}'s hand"),
            ("opponent_hand", hands[rival], f"the {rival}'s hand"),
        ):
            if name in fields:
                raise RulesError(f"fields.{name}", "inside a game the pack and hands are the game's", [])
            filled.append(Filled(name, value, why))
    body = {
        **{f.field: f.value for f in filled},
        **fields,
        "period": game.period,
        "variants": game.variants,
        "dice": dice,
    }
    try:
        req = request_model.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise RulesError(f"fields.{loc}" if loc not in ("dice",) else loc, err["msg"]) from None
    resolution = rs.resolve(resolver_id, req).as_dict()
    changes = _apply(session, game, resolver_id, req, resolution, unit, target) if apply else []
    payload = {
        "resolver": resolver_id,
        "unit_id": unit_id,
        "target_id": target_id,
        "request": req.model_dump(mode="json"),
        "filled": [f.__dict__ for f in filled],
        "resolution": resolution,
        "applied": apply,
        "changes": changes,
    }
    step = step_of(game)
    here = step.id if step else ""
    if resolver_id == "random-event":
        # One event: what the opponent learns of the draw is public; the drawer reads its own draw, the
        # opponent only what changed in its own hand (a card handed over), the referee the whole draw.
        mine = redact_opponent(payload, drawer)
        rival = other_side(drawer)
        theirs = [c for c in changes if c.get("side") == rival]
        private = {drawer: mine, "referee": payload, **({rival: {"changes": theirs}} if theirs else {})}
        ev = record(
            session, game, "roll", viewer.role, public_draw(resolution, apply), step=here, private=private
        )
        return (payload if viewer.is_referee else mine), ev
    return payload, record(session, game, "roll", viewer.role, payload, step=here)


def _apply(
    session: Session,
    game: Game,
    resolver_id: str,
    req: Any,
    res: dict[str, Any],
    unit: Unit | None,
    target: Unit | None,
) -> list[dict[str, Any]]:
    key = res["outcome_key"]
    outcome = res["outcome"]
    changes: list[dict[str, Any]] = []
    if resolver_id == "order-roll" and unit is not None and isinstance(outcome, dict):
        changes += update_unit(session, unit, actions_left=int(outcome.get("actions", 0)))
    elif resolver_id == "deep-suppression" and isinstance(outcome, dict):
        changes += set_game(session, game, deep_suppression=int(outcome["penalty"]))
    elif resolver_id == "morale" and unit is not None:
        changes += _apply_morale(session, game, unit, res)
    elif resolver_id == "heroic-action" and unit is not None:
        if key == "platoon-destroyed":  # "if a failure the platoon is immediately destroyed"
            changes += kill(session, game, unit)
    elif resolver_id == "gas-wind":
        changes += _apply_wind(session, game, outcome)
    elif resolver_id == "random-event":
        changes += apply_draw(session, game, outcome)
    if target is None:
        return changes
    if resolver_id in ("rolling-barrage", "barrage-danger"):
        changes += _rolled_under_barrage(session, game, resolver_id, target)
    if key in ("suppressed", "killed"):
        firer = getattr(req, "firer", None)
        fire = SHOOTING_FIRE_TYPE[firer] if firer else TEMPLATE_FIRE_TYPE.get(resolver_id)
        count = int(res.get("suppression_markers", 1))  # two dice: "two suppressions are two markers"
        changes += (
            kill(session, game, target)
            if key == "killed"
            else add_suppression(session, game, target, fire, count)
        )
    if resolver_id in ("shooting", *TEMPLATE_FIRE_TYPE):
        changes += _fired_on(session, game, target)
    return changes


# The suppression rules' fire types of the template resolvers (shooting uses the firer's).
TEMPLATE_FIRE_TYPE = {
    "rolling-barrage": "artillery",
    "barrage-danger": "artillery",
    "air-attack": "aircraft",
}


def _fired_on(session: Session, game: Game, target: Unit) -> list[dict[str, Any]]:
    """Raw troops are +1 on orders "until they receive any fire": being shot at counts, whatever the
    result, and the order roll is the battalion's, so the battalion is marked."""
    by_id: dict[int | None, Unit] = {u.id: u for u in list_units(session, game.id or 0)}
    if quality_of(target, by_id) != "raw":
        return []
    marked = ancestor_at(target, "battalion", by_id) or target
    return [] if marked.raw_under_fire else update_unit(session, marked, raw_under_fire=True)


def _apply_morale(session: Session, game: Game, bn: Unit, res: dict[str, Any]) -> list[dict[str, Any]]:
    """Carry out a morale result at once ("Troops which have suffered from a poor morale result carry out
    the result as soon as it is determined"): removed from play on a rout; on a retreat every stand is
    suppressed and the battalion's crewed weapons are abandoned (the players move the stands back by
    `retreat_cm`)."""
    units = list_units(session, game.id or 0)
    changes: list[dict[str, Any]] = []
    if res.get("test_due"):
        stage = 2 if res.get("at_75_percent") else 1
        changes += update_unit(session, bn, morale_stage=max(stage, bn.morale_stage))
    changes += update_unit(session, bn, morale_due=False)
    living = [u for u in leaves_under(bn, units) if not u.killed]
    if res.get("removed"):
        for u in living:
            changes += update_unit(session, u, killed=True)
        return changes
    if res.get("suppressed"):
        for u in living:
            # "become Suppressed": a stand already suppressed stays so; no marker is added that could kill.
            if u.suppression == 0:
                changes += update_unit(session, u, suppression=1)
    if res.get("abandon_crewed_weapons"):
        for u in living:
            if u.kind in CREWED_KINDS and not u.crew_abandoned:
                changes += update_unit(session, u, crew_abandoned=True)
    return changes


def _apply_wind(session: Session, game: Game, wind: dict[str, Any]) -> list[dict[str, Any]]:
    """The wind blows every cloud on the table (all offensive gas shares "the same vagaries of weather");
    stands under a cloud are marked in gas, the others no longer."""
    units = list_units(session, game.id or 0)
    kept, gone = clouds_on_wind(game.board.get("clouds", []), wind, units)
    board = {**game.board, "wind": wind, "wind_turn": game.turn, "clouds": kept}
    if gone:
        board["clouds_gone"] = [*game.board.get("clouds_gone", []), *gone]
    return set_game(session, game, board=board) + gas_markers(session, kept, units)


def _rolled_under_barrage(
    session: Session, game: Game, resolver_id: str, target: Unit
) -> list[dict[str, Any]]:
    """A stand rolled for stops being due under every barrage."""
    listed = "pending" if resolver_id == "rolling-barrage" else "danger"
    barrages = []
    for b in game.board.get("barrages", []):
        keep = [x for x in b.get(listed, []) if (x if listed == "pending" else x["unit"]) != target.id]
        barrages.append({**b, listed: keep})
    if barrages == game.board.get("barrages", []):
        return []
    return set_game(session, game, board={**game.board, "barrages": barrages})
