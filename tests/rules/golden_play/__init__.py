"""Golden play scripts (python-chess's perft files are the model): each file here is a rule set, a starting
position (a shipped scenario, or a small force written as a scenario document in the file) and a list of acts,
each with what the rules answered when it was recorded: the changes (as plain data), what is shown, or the
refusal with its rule. `play` plays a script against the game hook without the app: the snapshot is built from
the scenario with `rules` functions only, each act is one mapping from its kind to the hook's calls, and the
changes are applied with `Snapshot.after` for the next act.

Re-record (only when a change of the rules' answers is intended): `python -m tests.rules.golden_play [name ...]`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, get_args

from rules import registry
from rules.core.acts import (
    Act,
    ApplyArrival,
    ArriveItem,
    EditUnit,
    LayTemplate,
    MoveFormation,
    MoveStand,
    PlaceMarker,
    PlanFire,
    PlayCard,
    RecoverMarker,
    Roll,
)
from rules.core.errors import RulesError
from rules.core.fire_cards import CardApplied
from rules.core.game import (
    BOARD_CHANGED,
    TURN_ENDED,
    TURN_STARTED,
    GameRules,
    Landed,
    Position,
    edit_act,
    first_position,
    leaves_under,
    next_position,
)
from rules.core.game import Answer as RulesAnswer
from rules.core.records import (
    AddToState,
    Change,
    PlanItem,
    SetBoard,
    SetSideState,
    SetState,
    Snapshot,
    UnitState,
)
from rules.core.rolls import Rolled
from rules.core.ruleset import RuleSet
from rules.core.scenario import ForceNode
from tests.skirmish import Skirmish

HERE = Path(__file__).parent
# Rule sets the tests define, registered beside the shipped ones while a script plays.
TEST_RULESETS: tuple[type[RuleSet], ...] = (Skirmish,)


def scripts() -> list[Path]:
    return sorted(HERE.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def save(path: Path, script: Mapping[str, Any]) -> None:
    path.write_text(json.dumps(script, indent=1, ensure_ascii=False) + "\n")


# -- the table as the script plays it ----------------------------------------------------------------------
@dataclass
class Table:
    """The snapshot, with what the game keeps beside it (its status and step, its fire plan) and the units'
    names in the script (their scenario ids) both ways."""

    ruleset: RuleSet
    rules: GameRules
    snap: Snapshot
    refs: dict[int, str]
    ids: dict[str, int]
    plan: list[PlanItem] = field(default_factory=list)
    arrived: set[int] = field(default_factory=set)
    status: str = "setup"
    step: int = 0

    def unit(self, ref: str | None) -> UnitState | None:
        return None if ref is None else self.snap.unit(self.ids[ref])

    def uid(self, ref: str | None) -> int | None:
        return None if ref is None else self.ids[ref]


def start(script: Mapping[str, Any]) -> Table:
    """The starting position: the scenario's forces as its rule set builds them (ids in the order the app
    stores them, a tree at a time, attacker first), each side's state as a game starts."""
    rs, rules = registry.get_ruleset(script["ruleset"]), registry.get_game_rules(script["ruleset"])
    begin = script["start"]
    doc = begin.get("document") or rules.book.scenarios[begin["scenario"]]
    ctx = rs.context(begin.get("period") or doc.get("period"), doc.get("variants", {}))
    made = rules.new_forces(ctx, doc)
    defaults = {f.name: f.default for f in rules.book.state_fields}
    units: list[UnitState] = []

    def add(side: str, node: ForceNode, parent: int | None, off: bool) -> None:
        uid = len(units) + 1
        off = off or node.id in made.off_table
        place = made.placements.get(node.id)
        units.append(
            UnitState(
                uid,
                parent,
                side,
                node.level,
                kind=node.kind,
                name=node.name,
                quality=node.quality,
                base=node.base,
                is_command=node.kind.endswith("-command"),
                off_table=off,
                x=float(place["center"][0]) if place else None,
                y=float(place["center"][1]) if place else None,
                facing_deg=float(place.get("facing_deg", 90.0)) if place else None,
                state={**defaults, **made.state.get(node.id, {})},
            )
        )
        refs.append(node.id)
        for child in node.children:
            add(side, child, uid, off)

    refs: list[str] = []
    for side, roots in made.forces.items():
        for root in roots:
            add(side, root, None, False)
    sides = doc.get("sides", {})
    snap = Snapshot(
        ruleset=rs.id,
        period=ctx.period,
        units=tuple(units),
        table_width_cm=float(doc.get("table", {}).get("width_cm", 120.0)),
        table_length_cm=float(doc.get("table", {}).get("length_cm", 180.0)),
        variants=dict(doc.get("variants", {})),
        nations={s: v["nationality"] for s, v in sides.items() if v.get("nationality")},
        terrain=doc.get("terrain") or {"type": "FeatureCollection", "features": []},
        board=dict(begin.get("board", {})),
        sides={
            s: {**rules.book.side_state, **begin.get("sides", {}).get(s, {})}
            for s in ("attacker", "defender")
        },
    )
    plan = [
        PlanItem(p["id"], p["side"], p["kind"], p["arrival_turn"], p["data"]) for p in begin.get("plan", ())
    ]
    return Table(
        rs, rules, snap, {i + 1: r for i, r in enumerate(refs)}, {r: i + 1 for i, r in enumerate(refs)}, plan
    )


# -- the answers as plain data -----------------------------------------------------------------------------
def plain(value: Any) -> Any:
    """JSON's own types (tuples as lists, keys as text), as the file keeps them."""
    return json.loads(json.dumps(value))


def change_data(t: Table, c: Change) -> dict[str, Any]:
    """A change record as the file writes it: its kind, whose, which field, the value, why and the rule."""
    out: dict[str, Any]
    if isinstance(c, AddToState):
        out = {"kind": "add", "unit": t.refs[c.unit_id], "field": c.field, "delta": c.delta}
    elif isinstance(c, SetState):
        out = {"kind": "set", "unit": t.refs[c.unit_id], "field": c.field, "value": plain(c.value)}
    elif isinstance(c, SetBoard):
        out = {"kind": "board", "field": c.key, "value": plain(c.value)}
    elif isinstance(c, SetSideState):
        out = {"kind": "side", "side": c.side, "field": c.key, "value": plain(c.value)}
    else:
        raise TypeError(f"no plain form for {type(c).__name__}")
    return {**out, "reason": c.reason, "citation": c.source}


class Refused(Exception):
    """An act the rules refuse: the answer is the refusal with its rule."""

    def __init__(self, answer: dict[str, Any]) -> None:
        self.answer = answer


def _refusal(refused: str) -> dict[str, Any]:
    return {
        "rule": str(refused),
        "why": getattr(refused, "why", None),
        "citation": getattr(refused, "source", None),
    }


@dataclass
class Answer:
    changes: list[Change] = field(default_factory=list)
    shown: dict[str, Any] = field(default_factory=dict)
    overridden: list[dict[str, Any]] = field(default_factory=list)


def rules_of_play(
    t: Table,
    act: Mapping[str, Any],
    out: Answer,
    action: str,
    ref: str | None = None,
    side: str | None = None,
) -> None:
    """The rules of play for an act on a unit or a side: refused, or overridden by the referee (the act's
    `override`) and recorded."""
    unit = t.unit(ref)
    ordered = unit is not None and action in t.rules.book.ordered_acts
    whose = side or (unit.side if unit is not None else None)
    s = t.snap
    now = Position(s.turn, s.side_to_move, t.step)
    refused = t.rules.refusal(t.status, s.period, now, action, whose, unit, s.units if ordered else ())
    _ruled(act, out, refused)


def _ruled(act: Mapping[str, Any], out: Answer, refused: str | None) -> None:
    """A refusal of the rules of play: the act refused, or overridden by the referee and recorded."""
    if refused is None:
        return
    if not act.get("override"):
        raise Refused({"refused": _refusal(refused)})
    out.overridden.append(_refusal(refused))


def forbidden(t: Table, act: Mapping[str, Any], asked: Act, out: Answer) -> None:
    """What the rule set's turn forbids of the act beyond the step and the side (GameRules.forbidden), on the
    same snapshot the rule set then plays on: refused, or overridden by the referee and recorded."""
    refusals = t.rules.forbidden(t.snap, asked)
    if refusals and not act.get("override"):
        raise Refused({"refused": _refusal(refusals[0])})
    out.overridden += [_refusal(r) for r in refusals]


# -- the acts: one mapping each from the act's kind to the hook's calls ----------------------------------------
def roll(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    """A resolver asked in the game and applied (an order roll, a shot, an assault, a morale test, a draw ...):
    worked out in one call, as the app's act pipeline does (rules.core.rolls)."""
    apply = act.get("apply", True)
    asked = Roll(
        resolver=act["resolver"],
        fields=dict(act.get("fields", {})),
        dice=act["dice"],
        unit_id=t.uid(act.get("unit")),
        target_id=t.uid(act.get("target")),
        apply=apply,
    )
    # The step and the side it belongs to (a roll for no unit is the act's `side`'s, else the side to move's).
    now = Position(t.snap.turn, t.snap.side_to_move, t.step)
    side = act.get("side", t.snap.side_to_move)
    _ruled(act, out, t.rules.roll_refusal(t.status, t.snap, now, asked, side))
    forbidden(t, act, asked, out)
    w = t.rules.play(t.snap, asked)
    assert isinstance(w, Rolled)
    out.changes += [*w.spent, *(w.changes if apply else ())]
    out.shown["outcome"] = w.resolution["outcome_key"]
    if w.seen is not None:
        out.shown["public"] = dict(w.seen[0])


def _played(t: Table, act: Mapping[str, Any], asked: Act, out: Answer) -> RulesAnswer:
    """What the turn forbids of the act, then the rule set's one call for it (GameRules.play), its changes
    kept."""
    forbidden(t, act, asked, out)
    answer = t.rules.play(t.snap, asked)
    out.changes += answer.changes
    return answer


def marker_added(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    rules_of_play(t, act, out, "place-markers", act["unit"])
    _played(
        t,
        act,
        PlaceMarker(unit_id=t.ids[act["unit"]], cause=act.get("cause"), count=act.get("count", 1)),
        out,
    )


def marker_removed(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    rules_of_play(t, act, out, "recover-markers", act["unit"])
    _played(
        t, act, RecoverMarker(unit_id=t.ids[act["unit"]], spend_action=act.get("spend_action", True)), out
    )


def _placed(t: Table, unit: UnitState, x: float, y: float, facing: float) -> list[Change]:
    now = {"x": round(x, 2), "y": round(y, 2), "facing_deg": round(facing % 360, 2), "off_table": False}
    return [SetState("", "", unit.id, k, v) for k, v in now.items() if unit.value(k) != v]


def move(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    """A stand placed or moved by hand: the rules of play, then where it stands (kept on the table)."""
    rules_of_play(t, act, out, "move-stands", act["unit"])
    moved = MoveStand(
        unit_id=t.ids[act["unit"]], x=act["x"], y=act["y"], facing_deg=act.get("facing_deg", 90.0)
    )
    _played(t, act, moved, out)


def formation_move(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    """A formation moved as one: the rules of play once per kind of stand under one parent, then each stand
    shifted and turned about the formation's centre (kept on the table)."""
    s = t.snap
    top = s.unit(t.ids[act["unit"]])
    stands = [
        u
        for u in leaves_under(top, s.units)
        if u.x is not None and u.y is not None and not u.killed and not u.off_table
    ]
    asked: set[tuple[Any, ...]] = set()
    for u in stands:
        key = (u.parent_id, u.side, u.level, u.kind, u.is_command)
        if key not in asked:
            asked.add(key)
            rules_of_play(t, act, out, "move-stands", t.refs[u.id])
    moved = MoveFormation(unit_id=top.id, dx=act["dx"], dy=act["dy"], turn_deg=act.get("turn_deg", 0.0))
    _played(t, act, moved, out)


def template_laid(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    """A template laid on the table by a side: the rules of play, then the board's templates."""
    rules_of_play(t, act, out, "lay-templates", side=act["side"])
    s = t.snap
    asked = LayTemplate(
        kind=act["template"], side=act["side"], x=act["x"], y=act["y"], rotation=act.get("rotation", 0.0)
    )
    lies = _played(t, act, asked, out).shown
    placed = int(s.board.get("templates_placed", 0)) + 1
    laid = {
        "id": placed,
        "kind": act["template"],
        "side": act["side"],
        **{k: lies[k] for k in ("x", "y", "rotation")},
    }
    out.changes += [
        SetBoard("", "", "templates", (*s.board.get("templates", ()), laid)),
        SetBoard("", "", "templates_placed", placed),
    ]


def arrival_applied(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    """An arrived fire-plan item's card applied with every die it rolls given."""
    if all(c.item_id != act["item"] for c in t.rules.arrival_cards(t.snap, {})):
        raise Refused({"refused": {"field": "item", "rule": f"no arrived fire {act['item']} this turn"}})

    # The card keys a stand's roll by its id: the script by its name.
    def keyed(by: Mapping[str, Any]) -> dict[str, Any]:
        return {str(t.ids.get(k, k)): v for k, v in by.items()}

    dice, measured = keyed(act["dice"]), keyed(act.get("measured", {}))
    applied = _played(t, act, ApplyArrival(item_id=act["item"], dice=dice, measured=measured), out)
    assert isinstance(applied, CardApplied)
    fired = applied.fired
    out.shown.update(
        effect=fired.effect,
        rolls=[
            {
                "unit": t.refs.get(r["unit_id"]),
                "resolver": r["resolver"],
                "outcome": r["resolution"]["outcome_key"],
            }
            for r in fired.rolls
        ],
    )


def plan_written(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    """An item written into a side's plan for the current turn (a plan sealed each turn: Book.plan_terms.
    sealed_each_turn): the rules of play ("plan-fire" only in the steps that allow it), the item's kind as the
    kit models it and as the rule set allows it; it lands in its arrival step."""
    side, item = act["side"], act["item"]
    rules_of_play(t, act, out, "plan-fire", side=side)
    model = next(
        m for m in t.rules.book.kit.plan_kinds if item["kind"] in get_args(m.model_fields["kind"].annotation)
    )
    model.model_validate(item)
    t.rules.play(t.snap, PlanFire(side=side, kind=item["kind"], nation=t.snap.nations.get(side, "")))
    data = {k: v for k, v in item.items() if k != "kind"}
    t.plan.append(PlanItem(len(t.plan) + 1, side, item["kind"], t.snap.turn, data))
    out.shown["item"] = len(t.plan)


def card_played(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    played = _played(t, act, PlayCard(side=act["side"], card=act["card"]), out)
    out.shown.update(plain(dict(played.shown)), citation=played.source)


def unit_edited(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    """A unit's fields set by hand: each field's act under the rules of play, then the values."""
    values = act["values"]
    for action in sorted({edit_act(t.rules.book, k) for k in values}):
        rules_of_play(t, act, out, action, act["unit"])
    _played(t, act, EditUnit(unit_id=t.ids[act["unit"]], version=0, values=values), out)


def advance(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    """The turn advanced by the rule set's turn model: from set-up the game starts; then a step at a time,
    past the last the side's turn ends and the next one starts (what happens by itself, then its fire-plan
    items arriving)."""
    rules, s = t.rules, t.snap
    seq = rules.steps(s.period)
    if t.status == "setup":
        first = first_position(rules)
        t.status, t.step = "playing", first.step
        t.snap = replace(s, turn=first.turn, side_to_move=first.side, step=first.step)
        started = True
    else:
        then = next_position(rules, s.period, Position(s.turn, s.side_to_move, t.step))
        started = (then.turn, then.side) != (s.turn, s.side_to_move)
        if started:
            _apply(t, out, rules.between_turns(s, TURN_ENDED)[1])
            t.snap = replace(t.snap, turn=then.turn, side_to_move=then.side)
        t.step = then.step
        t.snap = replace(t.snap, step=t.step)
    out.shown.update(turn=t.snap.turn, side_to_move=t.snap.side_to_move, step=seq[t.step].id if seq else None)
    if started:
        _start_of_turn(t, act, out)
    else:
        _land_due(t, act, out)


def _start_of_turn(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    """What happens by itself as the side's turn starts, then its items due this turn arriving, each with the
    dice it rolls given by the act (`arrival_dice`, and `arrival_rolls` for a roll made for it)."""
    notices, changes = t.rules.between_turns(t.snap, TURN_STARTED)
    out.shown["notices"] = [{"kind": n.kind, **plain(dict(n.shown)), "citation": n.source} for n in notices]
    _apply(t, out, changes)
    _land_due(t, act, out)


def _land_due(t: Table, act: Mapping[str, Any], out: Answer) -> None:
    """The plan's items due now arriving, each with the dice it rolls given by the act (`arrival_dice`, and
    `arrival_rolls` for a roll made for it): those of this turn whose step (Book.plan_terms.arrival_steps; none: as
    the turn starts) the turn has reached; one plan for the game lands the side to move's, a plan sealed each
    turn both sides'."""
    terms = t.rules.book.plan_terms
    ids = [s.id for s in t.rules.steps(t.snap.period)]
    dice = act.get("arrival_dice", {})
    for item in t.plan:
        step = terms.arrival_steps.get(item.kind)
        if (
            item.id in t.arrived
            or (item.side != t.snap.side_to_move and not terms.sealed_each_turn)
            or item.arrival_turn != t.snap.turn
            or (ids.index(step) if step in ids else 0) > t.step
        ):
            continue
        t.arrived.add(item.id)
        given = tuple(dice.get(str(item.id), ()))
        asked = t.rules._arrival_dice(t.snap, item, {})
        if len(given) != len(asked):
            raise ValueError(
                f"item {item.id} arrives with {len(asked)} dice ({asked}): give them in arrival_dice"
            )
        rolls = act.get("arrival_rolls", {}).get(str(item.id))
        answer = t.rules.play(t.snap, ArriveItem(item=item, dice=given, roll_dice=rolls))
        assert isinstance(answer, Landed)
        landed = answer.arrival
        board = [SetBoard("", landed.source, k, v) for k, v in landed.board.items()]
        _apply(t, out, board)
        out.shown.setdefault("arrivals", []).append(
            {"item": item.id, "event": landed.event, **plain(dict(landed.shown)), "roll": landed.roll}
        )
        if landed.event:
            _apply(t, out, t.rules.between_turns(t.snap, BOARD_CHANGED)[1])
        if answer.resolution is not None:  # a roll the server makes for the item: the script gives its dice
            out.shown["arrivals"][-1]["outcome"] = answer.resolution["outcome_key"]
            _apply(t, out, answer.changes)


def _apply(t: Table, out: Answer, changes: Iterable[Change]) -> None:
    changes = list(changes)
    out.changes += changes
    t.snap = t.snap.after(changes)


ACTS: dict[str, Callable[[Table, Mapping[str, Any], Answer], None]] = {
    "order-roll": roll,
    "shot": roll,
    "assault": roll,
    "morale-test": roll,
    "roll": roll,
    "card-drawn": roll,
    "marker-added": marker_added,
    "marker-removed": marker_removed,
    "move": move,
    "formation-move": formation_move,
    "template-laid": template_laid,
    "arrival-applied": arrival_applied,
    "card-played": card_played,
    "turn-advanced": advance,
    "unit-edited": unit_edited,
    "plan-written": plan_written,
}


def play_act(t: Table, act: Mapping[str, Any], seen: list[Change] | None = None) -> dict[str, Any]:
    """One act played: its answer as the file keeps it, the table moved on past it; its changes added to
    `seen` (the rule set's own records, before the file's form of them)."""
    out = Answer()
    before = t.snap
    try:
        ACTS[act["kind"]](t, act, out)
    except Refused as r:
        t.snap = before
        return r.answer
    except RulesError as e:
        t.snap = before
        return {"refused": {"field": e.field, "rule": e.message}}
    if act["kind"] != "turn-advanced":  # the turn applies its changes as they happen
        t.snap = before.after(out.changes)
    if seen is not None:
        seen += out.changes
    answer: dict[str, Any] = {"changes": [change_data(t, c) for c in out.changes]}
    if out.shown:
        answer["shown"] = plain(out.shown)
    if out.overridden:
        answer["overridden"] = out.overridden
    return answer


def play(script: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every act of a script played in order: their answers."""
    with ExitStack() as stack:
        for cls in TEST_RULESETS:
            stack.enter_context(registry.registered(cls))
        t = start(script)
        return [play_act(t, step["act"]) for step in script["acts"]]


def record(paths: Sequence[Path]) -> None:
    for path in paths:
        script = load(path)
        answers = play(script)
        script["acts"] = [
            {"act": s["act"], "answer": a} for s, a in zip(script["acts"], answers, strict=True)
        ]
        save(path, script)
        print(f"recorded {path.name}: {len(answers)} acts")
