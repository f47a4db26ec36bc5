"""The acts on a stand's card on the table map, rendered by the server (issue 67): the rolls the rules offer the
stand now (a roll with nothing to choose but its die shown with its dice and its odds), the acts the pipeline
would refuse, greyed with its sentence, and why nothing is offered (out of turn). Built from the one answer of
what the act pipeline would accept now, `app.services.card.stand_card` (the same that answers
GET /api/v1/games/{id}/units/{unit_id}/acts), and `app.services.resolve.ask` for a direct roll's odds (nothing
written); rendered per seat by `_stand_acts.html`, each roll's button carrying the part it leads to or the roll
it records (`app.pages.stand_next`), brought into the card by frontend/static/js/table-act.js, which follows
them (the target tapped on the map, the writes through the outbox). Its unit edits
(a formation's command, a plan and its target, a dig-in) are a part of their own, `_stand_edits.html`: each value
the pipeline would accept a button, those it would refuse greyed with its sentence, and, once one is saved, its
answer and Undo with the edits then offered, which its Done leads back to (`_stand_edited.html`);
frontend/static/js/table-edit.js keeps their taps."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Annotated, Any

from fastapi import Path, Query
from sqlmodel import Session

from app.core.routing import Router
from app.data.bounded import INT32_MAX
from app.data.changes import UnitSet, changes_in
from app.data.models import Game
from app.deps import SessionDep
from app.errors import Refused
from app.pages.panels import panel_page
from app.pages.seats import Seat
from app.pages.stand_next import CardQuery, PlayState, act_ask, direct_bodies
from app.pages.templates import humanise, rule_state
from app.services import card as card_service
from app.services import events as events_service
from app.services import resolve as resolve_service
from app.services import seats
from app.services.markers import TableRead, kept_of, rules_of, table_read
from app.services.seating import Viewer
from app.services.undo import undo_refused
from app.services.units import find_unit, get_unit
from rules.core.errors import RulesError
from rules.core.records import UnitState

__all__ = [
    "ActButton",
    "EditChoiceButton",
    "EditPart",
    "Greyed",
    "StandActs",
    "StandEdited",
    "StandEdits",
    "StandPick",
    "edit_parts",
    "field_lines",
    "stand_acts",
    "stand_acts_page",
    "stand_edited",
    "stand_edited_page",
    "stand_pick",
    "stand_pick_page",
]

router = Router()

FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class ActButton:
    """A roll the card offers: a button that begins it, or, `direct` (no target, one die, nothing to choose),
    its dice to tap with the table's odds and what it filled; each carries what table-act.js plays of it (its
    resolver, the unit that rolls, whether a target is tapped next and the field its hits' order fills)."""

    index: int
    label: str
    why: str
    direct: bool
    resolver: str
    unit_id: int
    target: bool
    order: str
    odds: str = ""
    filled: tuple[str, ...] = ()
    lookup: str = ""
    by_firestep: bool = False  # the stand's side chose firestep's dice: its Apply rolls them, no face to tap
    ask: str = ""  # the part its tap leads to (the target's pick, or the roll's card): app.pages.stand_next
    apply_to: str = ""  # a direct roll's: where its POST goes, each face's body and the server's roll's,
    done: str = ""  # and its answer once recorded
    faces: tuple[str, ...] = ()
    rolled: str = ""


@dataclass(frozen=True)
class Greyed:
    """An act the pipeline would refuse now: its key, its words and the pipeline's one sentence."""

    key: str
    label: str
    detail: str


@dataclass(frozen=True)
class Waiting:
    """Why the card offers nothing now, in one sentence, with its rule."""

    detail: str
    why: str


@dataclass(frozen=True)
class EditChoiceButton:
    """One value an edit may set now, as its button carries it for the PUT table-edit.js sends: the unit and
    field, the value as JSON (the field's own kind), the unit field a stand tapped on the map fills (`target`:
    needed, or left to the player) and the card's words for it once chosen."""

    index: int
    label: str
    unit_id: int
    field: str
    value: str
    target: str
    needs_target: bool
    words: str


@dataclass(frozen=True)
class EditPart:
    """A unit edit the card offers now (its index in the edits part): its words, why, the values the pipeline
    would accept and those of it the pipeline would refuse, greyed with its sentence."""

    index: int
    label: str
    why: str
    choices: tuple[EditChoiceButton, ...]
    greyed: tuple[Greyed, ...]


@dataclass(frozen=True)
class StandEdits:
    """The edits part of one stand's card for one seat (`_stand_edits.html`): each edit offered, its values
    and, while one needs its target tapped, the prompt; the script shows one of them at a time."""

    unit_id: int
    edits: tuple[EditPart, ...] = ()

    def context(self) -> dict[str, object]:
        """The context `_stand_edits.html` renders (tests/app/games/test_stand_card_page.py holds the two together)."""
        return {"stand_edits": self}


@dataclass(frozen=True)
class StandActs:
    """The acts part of one stand's card for one seat, with the game's step they are of (a play begun from them
    is of it) and which part comes first (`first`: "edits" above the rolls); its unit edits the part `edits`
    renders."""

    unit_id: int
    acts: tuple[ActButton, ...]
    greyed: tuple[Greyed, ...]
    said: tuple[str, ...]
    waiting: Waiting | None
    whys: str
    step: int
    first: str
    edits: StandEdits | None = None

    def context(self) -> dict[str, object]:
        """The context `_stand_acts.html` renders (tests/app/games/test_stand_card_page.py holds the two together)."""
        return {"stand_acts": self}


def _direct(a: Mapping[str, object]) -> bool:
    return (
        not a["target"]
        and a["dice"] == 1
        and not a["pool"]
        and not a["order"]
        and not a["joined"]
        and not a["options"]
    )


def _value(v: object) -> str:
    if isinstance(v, dict):
        return " ".join(x for x in v.values() if isinstance(x, str))
    return str(v)


def field_lines(game: Game, filled: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """What the table filled in for a roll, a line each ("Range: 28 cm (base edge to edge)"), a flag only
    where it is set: the field's label on the card, else its name in words."""
    state = rule_state(game.ruleset)
    labels = {f.name: f.label for f in state.card if f is not state.marker}
    return tuple(
        f"{labels.get(f['field']) or humanise(str(f['field']).replace('_', '-'))}: {_value(f['value'])}"
        f"{' cm' if f['field'] == 'range_cm' else ''} ({f['why']})"
        for f in filled
        if not isinstance(f["value"], bool) or f["value"]
    )


def _odds(
    session: Session,
    game: Game,
    viewer: Viewer,
    a: Mapping[str, object],
    read: TableRead,
) -> ActButton:
    """A direct roll's button with the table's odds and what it filled in (asked, nothing written); without
    them where the table refuses it as it stands."""
    unit_id, resolver = a["unit_id"], str(a["resolver"])
    uid = unit_id if isinstance(unit_id, int) else 0
    plain = ActButton(int(str(a["index"])), str(a["label"]), str(a["why"]), True, resolver, uid, False, "")
    try:
        asked = resolve_service.ask(session, game, viewer, resolver, {}, None, uid or None, None, read=read)
    except (RulesError, Refused):
        return plain
    if asked.get("refused"):
        return plain
    odds = " · ".join(f"{humanise(k)} {v}" for k, v in (asked.get("odds_words") or {}).items())
    filled = field_lines(game, asked.get("filled") or [])
    lookup = f"/lookup/{game.ruleset}/{resolver}?game={game.id}&unit={unit_id}"
    return replace(plain, odds=odds, filled=filled, lookup=lookup)


def stand_acts(session: Session, game: Game, viewer: Viewer, unit_id: int) -> StandActs:
    """What the stand's card offers `viewer` now, as the act pipeline answers it (`card.stand_card`)."""
    # The units and their snapshot read once for the card and the odds of each of its rolls (nothing here
    # writes): a card of four rolls read the units five times.
    read = table_read(session, game)
    card = card_service.stand_card(session, game, viewer, unit_id, read)
    # A side that chose firestep's dice has no face to enter (the pipeline refuses one): its direct rolls are
    # an Apply the server rolls.
    side = read.kept.by_id[unit_id].side  # the stand is among the units read: the card refuses one of no game
    by_firestep = seats.get_side(session, game.pk, side).dice == "firestep"
    buttons = []
    for i, a in enumerate(card["acts"]):
        if _direct(a):
            odds = _odds(session, game, viewer, {**a, "index": i}, read)
            state = PlayState(
                game_id=game.pk, stand=unit_id, resolver=a["resolver"], label=a["label"], unit_id=odds.unit_id
            )
            faces, rolled = direct_bodies(state)
            done = state.done
            buttons.append(
                replace(
                    odds,
                    by_firestep=by_firestep,
                    apply_to=state.apply_to,
                    done=done,
                    faces=faces,
                    rolled=rolled,
                )
            )
        else:
            why, target, order = a["why"] or "", bool(a["target"]), a["order"] or ""
            ask = act_ask(game.pk, unit_id, a["resolver"], a["label"], target)
            buttons.append(
                ActButton(i, a["label"], why, False, a["resolver"], a["unit_id"], target, order, ask=ask)
            )
    refused = card["refused"]
    waiting = Waiting(refused["detail"], refused.get("why") or "") if refused else None
    edits = edit_parts(card)
    # A value of an edit offered is greyed among its values (table-edit.js); an edit of no value now, here.
    offered = {(e["unit_id"], e["field"]) for e in card["edits"]}
    greyed = tuple(
        Greyed(o["key"], o["label"], o["refused"]["detail"])
        for o in card["offers"]
        if o["refused"]
        and (o["kind"] == "roll" or (o["kind"] == "edit" and (o["unit_id"], o["key"]) not in offered))
    )
    remedies = [
        o["refused"]["detail"]
        for o in card["offers"]
        if o["refused"] and o["kind"] in ("roll", "edit") and o["refused"]["remedy"]
    ]
    said = tuple(d for d in dict.fromkeys(remedies) if waiting is None or d != waiting.detail)
    whys = " · ".join(dict.fromkeys(a["why"] for a in card["acts"] if a["why"]))
    # The edits come first where a refusal's remedy is one, and where the stand may make no roll now (its
    # greyed rolls below them): on a phone what it may do stays in view.
    first = card["first"] or ("edits" if not card["acts"] and card["edits"] else "")
    # The step these acts are the game's in: a play begun from them is of that step, though the device may not yet
    # have heard the frame that moved the game to it (a late frame would end the play as a step change, ci86).
    return StandActs(
        unit_id, tuple(buttons), greyed, said, waiting, whys, game.step, first, StandEdits(unit_id, edits)
    )


def edit_parts(card: Mapping[str, Any]) -> tuple[EditPart, ...]:
    """The card's unit edits offered (`card.stand_card`'s `edits`), each value a button, and the values of each
    the pipeline would refuse (its `offers`), greyed with its sentence."""
    parts = []
    for i, e in enumerate(card["edits"]):
        choices = tuple(
            EditChoiceButton(
                j,
                c["label"],
                e["unit_id"],
                e["field"],
                json.dumps(c["value"]),
                c["target"],
                c["needs_target"],
                e["label"] if c["label"] == e["label"] else f"{e['label']}: {c['label']}",
            )
            for j, c in enumerate(e["choices"])
        )
        greyed = tuple(
            Greyed(o["key"], o["label"], o["refused"]["detail"])
            for o in card["offers"]
            if o["refused"] and o["kind"] == "edit" and (o["unit_id"], o["key"]) == (e["unit_id"], e["field"])
        )
        parts.append(EditPart(i, e["label"], e["why"], choices, greyed))
    return tuple(parts)


@panel_page(router, "/games/{game_id}/map/units/{unit_id}/acts", "_stand_acts.html")
def stand_acts_page(
    game: Game, seat: Seat, session: SessionDep, unit_id: Annotated[int, Path(ge=1, le=INT32_MAX)]
) -> StandActs:
    """The acts part of a stand's card on the map for this seat (`stand_acts`), as a fragment."""
    return stand_acts(session, game, seat.viewer, unit_id)


@dataclass(frozen=True)
class StandEdited:
    """The card once a unit edit is saved, as its event says it: the edit and its value in the card's words,
    at the stand stored as its target, and its Undo (or why this seat may not undo it now)."""

    event_id: int
    line: str
    undo_refused: str = ""
    # The stand's edits as the pipeline offers them once this one is saved (Limber after Unlimber): what its
    # Done leads back to, not the part read before the edit.
    edits: StandEdits | None = None

    def context(self) -> dict[str, object]:
        """The context `_stand_edited.html` renders (tests/app/games/test_stand_card_page.py holds the two together)."""
        return {"edited": self}


def stand_edited(
    session: Session, game: Game, viewer: Viewer, unit_id: int, event_id: int, words: str, target: str
) -> StandEdited:
    """The card after the edit `words` ("Plan A Company: Assault") was saved as event `event_id`, as `viewer`
    reads it (none the viewer may not read, nor one of another game or kind), naming the stand the rules stored
    in its field `target` (a base tapped names its sub-unit)."""
    get_unit(session, game.pk, unit_id, "unit_id")  # the card of a stand of this game, as its acts are
    ev = events_service.readable(session, game.pk, viewer, event_id, "unit-update")
    payload = events_service.event_dict(ev, events_service.roles_of(viewer))["payload"]
    stored = next(
        (c.after for c in changes_in(payload) if isinstance(c, UnitSet) and c.field == target), None
    )
    names = kept_of(session, game).listed_names if target else {}
    at = f" at {names[stored][1]}" if isinstance(stored, int) and stored in names else ""
    now = StandEdits(unit_id, edit_parts(card_service.stand_card(session, game, viewer, unit_id)))
    return StandEdited(ev.pk, f"{words or 'Saved'}{at}.", undo_refused(session, game, viewer, ev), now)


@panel_page(router, "/games/{game_id}/map/units/{unit_id}/edited/{event_id}", "_stand_edited.html")
def stand_edited_page(
    game: Game,
    seat: Seat,
    session: SessionDep,
    unit_id: Annotated[int, Path(ge=1, le=INT32_MAX)],
    event_id: Annotated[int, Path(ge=1, le=INT32_MAX)],
    act: Annotated[str, Query(max_length=120)] = "",
    target: Annotated[str, Query(max_length=64)] = "",
) -> StandEdited:
    """The card of stand `unit_id` once its edit (`act`: the card's words for it; `target`: the field its
    target stand fills) is saved, for this seat (`stand_edited`)."""
    return stand_edited(session, game, seat.viewer, unit_id, event_id, act, target)


@dataclass(frozen=True)
class TargetOption:
    """A stand the act may take as its target, as the list names it (its distance, why not where it may not)."""

    id: int
    text: str
    disabled: bool


@dataclass(frozen=True)
class TargetGroup:
    label: str
    options: tuple[TargetOption, ...]


@dataclass(frozen=True)
class StandPick:
    """The card while its act's target is picked: the prompt, the other side's stands on the table by company,
    nearest first, each it may not take greyed with why; `marks` the same as JSON for the map (greyed stands,
    a tap on one says its sentence)."""

    unit_id: int
    prompt: str
    groups: tuple[TargetGroup, ...]
    marks: str
    url: str = ""  # this part's own ask, read anew as the card is drawn again
    pick: str = ""  # the roll's card for a stand tapped (its id appended): app.pages.stand_next

    def context(self) -> dict[str, object]:
        """The context `_stand_pick.html` renders (tests/app/games/test_stand_card_page.py holds the two together)."""
        return {"stand_pick": self}


def stand_pick(
    session: Session, game: Game, viewer: Viewer, unit_id: int, resolver: str, act: str = ""
) -> StandPick:
    """The target list of the stand's roll `resolver` (`act`: the card's words for it, else its first roll of
    that resolver taking a target) for `viewer`: the stands it may not take, as the pipeline would refuse them
    (`resolve.target_marks`), greyed."""
    # The units and the snapshot are read once for the marks and the label; the seat's side is checked first,
    # on the stand's row alone, so a refused card reads none of the game's other units.
    stand = find_unit(session, game.pk, unit_id)
    u = resolve_service.target_of(game, [stand] if stand is not None else [], unit_id, resolver)
    viewer.require_side(u.side, "resolve for a unit")  # as play/{resolver} refuses it: 403, not an empty list
    read = table_read(session, game)  # the stand among them, as the worker keeps the game's units
    units, by_id = read.units, read.kept.by_id
    marks = {
        m.unit_id: m for m in resolve_service.target_marks(session, game, viewer, unit_id, resolver, read)
    }
    labels = [
        a.label
        for a in rules_of(game).stand_card(read.snapshot, unit_id)
        if getattr(a, "resolver", None) == resolver and getattr(a, "target", False)
    ]
    label = act if act in labels else next(iter(labels), humanise(resolver))
    names = read.kept.listed_names

    def far(t: UnitState) -> float:
        if u.x is None or u.y is None or t.x is None or t.y is None:
            return math.inf
        return math.hypot(t.x - u.x, t.y - u.y)

    enemy = [
        t
        for t in units
        if t.base and t.side != u.side and not t.killed and t.x is not None and not t.off_table
    ]
    groups: dict[str, list[TargetOption]] = {}
    for t in sorted(enemy, key=far):
        parent = by_id.get(t.parent_id) if t.parent_id is not None else None
        away = f" · {far(t):.0f} cm" if far(t) != math.inf else ""
        mark = marks.get(t.id)
        text = f"{names[t.id][1]}{away}{f' · {mark.mark}' if mark else ''}"
        groups.setdefault(names[parent.id][0] if parent else "", []).append(
            TargetOption(t.id, text, bool(mark))
        )
    greyed = " Greyed stands may not be its target: tap one to see why." if marks else ""
    return StandPick(
        unit_id,
        f"{label}: tap the target on the map.{greyed}",
        tuple(TargetGroup(g or "Other stands", tuple(o)) for g, o in groups.items()),
        json.dumps([asdict(m) for m in marks.values()]),
        act_ask(game.pk, unit_id, resolver, label, True),
        PlayState(game_id=game.pk, stand=unit_id, resolver=resolver, label=label, unit_id=0).pick_ask,
    )


@panel_page(router, "/games/{game_id}/map/units/{unit_id}/targets/{resolver}", "_stand_pick.html")
def stand_pick_page(
    game: Game,
    seat: Seat,
    session: SessionDep,
    unit_id: Annotated[int, Path(ge=1, le=INT32_MAX)],
    resolver: Annotated[str, Path(max_length=64)],
    asked: Annotated[CardQuery, Query()],
) -> StandPick:
    """The card of a stand while its roll (its query's `act`: the card's words for it) has its target picked,
    for this seat (`stand_pick`), as a fragment."""
    return stand_pick(session, game, seat.viewer, unit_id, resolver, asked.label)
