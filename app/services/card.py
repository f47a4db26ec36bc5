"""A stand's card in play: every act the rule set defines for the stand (the rolls and the
unit edits its `GameRules.stand_card` offers, a move, a marker recovered), each judged by the act pipeline's own
question (`acts.refusal`: the steps `acts.play` takes, nothing written), so the card offers an act exactly
when the pipeline would accept it now and greys the rest with the one sentence the pipeline would answer. A
refusal that names its remedy ("unpack it first") puts that act first."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypedDict

from pydantic import JsonValue
from sqlmodel import Session

from app.data.models import Game
from app.errors import Forbidden, Refused, refusal_body
from app.services import acts as pipeline
from app.services import counters
from app.services.formations import stands_under
from app.services.markers import TableRead, rules_of, table_read
from app.services.seating import Viewer
from app.services.units import unknown_unit
from rules.core.acts import Act, EditUnit, MoveFormation, MoveStand, PlaceMarker, RecoverMarker, Roll
from rules.core.errors import RulesError
from rules.core.records import Snapshot, StandAct, StandEdit, StandEditDict, UnitState
from rules.core.records import by_id as units_by_id

__all__ = ["MarkerOffer", "Offer", "formations", "marker_offers", "move_refusals", "offers", "stand_card"]

# A move judged for the card: a step this long towards the table's middle (its distance is the player's).
NUDGE_CM = 1.0
# The formations a stand's card moves as one (the map's "Move its company", "Move its battalion").
FORMATION_LEVELS = ("company", "battalion")


class Said(TypedDict):
    """A refusal as the card greys an act with it (`_said`)."""

    detail: str
    why: str
    source: str | None
    remedy: str


class CardOffer(TypedDict):
    """One act of the card as `stand_card` answers it: an `Offer`'s words with its refusal (None: accepted now)."""

    kind: str
    key: str
    label: str
    unit_id: int | None
    refused: Said | None
    values: dict[str, JsonValue]  # what a counter's move sets besides its place: its state fields' values
    places: list[str]
    typed: bool


class StandCard(TypedDict):
    """What a stand's card offers a viewer now (`stand_card`)."""

    acts: list[dict[str, Any]]  # StandActDicts (app.pages.counters_build spreads each into a StandAct)
    edits: list[StandEditDict]
    refused: Said | None
    offers: list[CardOffer]
    first: str  # "edits", "acts" or "": which the remedy of a refusal is


@dataclass(frozen=True)
class Offer:
    """One act of a stand's card: its kind ("roll", "edit", "move", "formation", "recover", "mark"), its key (a roll's resolver, an
    edit's field, a move's or a recovery's action), the act as the pipeline plays it (a roll without its
    target, `complete` False, is judged short of the rule set's answer), and the rule set's offer."""

    kind: str
    key: str
    label: str
    act: Act
    complete: bool = True
    roll: StandAct | None = None
    edit: StandEdit | None = None
    choice: int = 0
    # A counter's move (kind "place"): the places a step away it is judged by, one of them its place tapped
    # (`CounterBoard.near`); the move is offered when the pipeline takes it to one of them.
    near: tuple[str, ...] = ()


def offers(read: TableRead, game: Game, unit_id: int) -> list[Offer]:
    """Every act the rule set defines for the stand now, as the pipeline's acts: a roll of its card (one at it,
    `StandAct.on_enemy`, rolled by the other side), each value of a unit edit, a move (a stand on the table, or
    a counter on a board of counters: its place named anew, `TableKit.counters`), its company's and
    battalion's moves as one (more than one stand of theirs on the table) and, where the rules have markers,
    one recovered and one placed."""
    rules, snapshot, version = rules_of(game), read.snapshot, read.version
    out: list[Offer] = []
    card = rules.stand_card(snapshot, unit_id)
    for a in (a for a in card if isinstance(a, StandAct)):
        if a.on_enemy:  # rolled by the viewer's side at this unit: complete as it stands
            at = Roll(resolver=a.resolver, target_id=a.unit_id)
            out.append(Offer("roll", a.resolver, a.label, at, roll=a))
            continue
        rolled = Roll(resolver=a.resolver, unit_id=a.unit_id)
        out.append(Offer("roll", a.resolver, a.label, rolled, not a.target, roll=a))
    for e in (e for e in card if isinstance(e, StandEdit)):
        for i, c in enumerate(e.choices):
            edit = EditUnit(unit_id=e.unit_id, version=version(e.unit_id), values={e.field: c.value})
            out.append(Offer("edit", e.field, c.label, edit, not c.needs_target, edit=e, choice=i))
    stand = snapshot.unit(unit_id)
    if stand.x is not None and stand.y is not None and not stand.killed and not stand.off_table:
        x, y = _nudged(snapshot, stand)
        move = MoveStand(unit_id=unit_id, x=x, y=y, facing_deg=stand.facing_deg or 0.0)
        out.append(Offer("move", MoveStand.action, "Move", move))
        for formation in formations(snapshot.units, stand):
            dx, dy = _kept_on(snapshot, formation, x - float(stand.x), y - float(stand.y))
            shifted = MoveFormation(unit_id=formation.id, dx=dx, dy=dy)
            out.append(Offer("formation", MoveFormation.action, f"Move its {formation.level}", shifted))
    counters = rules.book.kit.counters
    placed = counters is not None and bool(stand.state.get(counters.place_field)) and not stand.killed
    if counters is not None and placed:  # a counter on the players' board: moved by naming its new place
        here = str(stand.state.get(counters.place_field))
        now = {counters.place_field: here}
        near = tuple(sorted(counters.near(snapshot, here))) if counters.near is not None else ()
        moved = EditUnit(unit_id=unit_id, version=version(unit_id), values=now)
        out.append(
            Offer("place", counters.place_field, f"Move to another {counters.place_word}", moved, near=near)
        )
        for field, value, label in counters.place_results:  # a move applying a result (a combat's retreat)
            applied = EditUnit(unit_id=unit_id, version=version(unit_id), values={**now, field: value})
            out.append(Offer("place", counters.place_field, label, applied, near=near))
    back = counters.returned if counters is not None else None
    if counters is not None and back is not None and stand.state.get(back[0]) not in (None, back[1]):
        # Out of play: it comes back on a place typed with it (Vimy's replacement), the rules judging where.
        now = {counters.place_field: stand.state.get(counters.place_field) or ""}
        returned = EditUnit(unit_id=unit_id, version=version(unit_id), values={**now, back[0]: back[1]})
        out.append(Offer("place", counters.place_field, back[2], returned))
    on_table = stand.x is not None and stand.y is not None and not stand.killed and not stand.off_table
    if rules.book.marker_field and (on_table or placed):
        out.append(Offer("recover", RecoverMarker.action, "Recover a marker", RecoverMarker(unit_id=unit_id)))
        out.append(Offer("mark", PlaceMarker.action, "+1 marker", PlaceMarker(unit_id=unit_id)))
    return out


@dataclass(frozen=True)
class MarkerOffer:
    """A marker act of a stand's card for one seat ("mark": one placed, "recover": one recovered) and what the
    pipeline would refuse of it now (None: it takes it), as the card greys it."""

    kind: str
    label: str
    refused: str | None  # the pipeline's one sentence, as the API would answer it


def marker_offers(
    session: Session,
    game: Game,
    viewer: Viewer,
    unit_id: int,
    read: TableRead,
    offered: Sequence[Offer] | None = None,
) -> list[MarkerOffer]:
    """The stand's marker acts (`offers`: one placed, then one recovered) for `viewer`, each judged by the
    pipeline (`acts.refusal`) as the card's other acts are, whatever the game's status; an act the seat may
    never play (a 403: the other side's markers recovered) is left out, one refused for now is greyed.
    `offered`: the stand's `offers` on `read`, where the caller has them (a card's head judges its moves too)."""
    out = []
    for o in sorted(
        offers(read, game, unit_id) if offered is None else offered, key=lambda o: o.kind != "mark"
    ):
        if o.kind not in ("mark", "recover"):
            continue
        refused = pipeline.refusal(session, game, viewer, o.act, True, read)
        if not isinstance(refused, Forbidden):
            out.append(
                MarkerOffer(o.kind, o.label, _said(refused)["detail"] if refused is not None else None)
            )
    return out


def move_refusals(
    session: Session,
    game: Game,
    viewer: Viewer,
    unit_id: int,
    read: TableRead,
    offered: Sequence[Offer] | None = None,
) -> dict[int, str]:
    """The map's Move and "Move its company/battalion" of the stand's card the pipeline would refuse `viewer`
    now, whatever the game's status (a suppressed stand may not move in set-up either), as the card greys them:
    the pipeline's one sentence by the unit moved (the stand's own id for its Move, the formation's for its).
    `offered`: as `marker_offers`'."""
    out = {}
    for o in offers(read, game, unit_id) if offered is None else offered:
        if o.kind in ("move", "formation"):
            refused = pipeline.refusal(session, game, viewer, o.act, True, read)
            if refused is not None:
                out[_unit_of(o.act) or unit_id] = _said(refused)["detail"]
    return out


def formations(units: Sequence[UnitState], stand: UnitState) -> list[UnitState]:
    """The stand's company and battalion with more than one stand on the table: the acts its card judges, and
    the map's buttons on its card's head (app.pages.map_cards.stand_head)."""
    by_id = units_by_id(units)

    def placed_under(f: UnitState) -> int:
        count = 0
        for u in units:
            if not u.base or u.x is None or u.y is None or u.killed or u.off_table:
                continue
            a: UnitState | None = u
            while a is not None and a.id != f.id:
                a = by_id.get(a.parent_id) if a.parent_id is not None else None
            count += a is not None
        return count

    out = []
    for level in FORMATION_LEVELS:
        a = by_id.get(stand.parent_id) if stand.parent_id is not None else None
        while a is not None and a.level != level:
            a = by_id.get(a.parent_id) if a.parent_id is not None else None
        if a is not None and placed_under(a) > 1:
            out.append(a)
    return out


def _nudged(snapshot: Snapshot, stand: UnitState) -> tuple[float, float]:
    x, y = float(stand.x or 0.0), float(stand.y or 0.0)
    dx = NUDGE_CM if x < snapshot.table_width_cm / 2 else -NUDGE_CM
    dy = NUDGE_CM if y < snapshot.table_length_cm / 2 else -NUDGE_CM
    return x + dx, y + dy


def _kept_on(snapshot: Snapshot, formation: UnitState, dx: float, dy: float) -> tuple[float, float]:
    """The step a formation's move is judged by (the stand's nudge), each way turned back where it would put one
    of the formation's stands off the table, or none that way where either would: the distance and the way are
    the player's, so a step the card makes up never greys a move the player may make (the hostile pass of stop
    18: a set-up company with stands at both edges had its Move greyed "that would put … off the table")."""
    placed = stands_under(snapshot.units, formation)  # the stands its move moves

    def along(step: float, at: list[float], most: float) -> float:
        return next((s for s in (step, -step) if all(0 <= v + s <= most for v in at)), 0.0)

    return (
        along(dx, [float(u.x or 0.0) for u in placed], snapshot.table_width_cm),
        along(dy, [float(u.y or 0.0) for u in placed], snapshot.table_length_cm),
    )


def _said(refused: RulesError | Refused) -> Said:
    """A refusal as the card greys an act with it: the pipeline's one sentence as the API answers it, the rule
    in full, its printed line and the act that lifts it."""
    body = refusal_body(refused)
    sentence = refused.reason if isinstance(refused, RulesError) else refused.message
    remedy = getattr(sentence, "remedy", "")
    return {"detail": body["detail"], "why": body["why"], "source": body.get("source"), "remedy": remedy}


def stand_card(
    session: Session,
    game: Game,
    viewer: Viewer,
    unit_id: int,
    read: TableRead | None = None,
) -> StandCard:
    """What a stand's card offers this viewer now, while the game is played, for a side the viewer may act for:
    `offers`, every act of the stand with its refusal (None: the pipeline would accept it); `acts` the rolls
    offered and `edits` the unit edits offered (with the values offered), the remedy of a refusal first
    (`first`: "edits" when it is an edit); `refused`, when nothing is offered, why in one sentence (out of turn:
    "It is the German battalion-orders step: wait for your turn."). For the other side's stand, only the
    marker its shots place on it and the rolls made at it (`StandAct.on_enemy`). `read`: the game's units and
    their snapshot, as the caller read them for this request (its page asks each roll on the same read)."""
    nothing: StandCard = {"acts": [], "edits": [], "refused": None, "offers": [], "first": ""}
    read = read or table_read(session, game)  # read once: judging the acts writes nothing
    unit = read.kept.by_id.get(unit_id)
    if unit is None:
        raise unknown_unit("unit_id", game.pk, unit_id)
    if game.status != "playing":
        return nothing
    own = viewer.may_act_for(unit.side)
    judged: list[tuple[Offer, Said | None]] = []
    places: dict[int, list[str]] = {}
    typed: set[int] = set()  # a result's move the pipeline takes past its places a step away: typed too
    for o in offers(read, game, unit_id):
        at_it = o.roll is not None and o.roll.on_enemy  # a roll the other side makes at the stand
        if not own and o.kind != "mark" and not at_it:
            continue  # the other side's stand: a marker placed on it, a roll at it
        if own and at_it and not viewer.is_referee:
            continue  # one's own stand: never a roll at it
        if o.edit is not None and not o.complete:
            refused = _targeted(session, game, viewer, o, read, unit.side)
        elif o.near:
            refused = _placed(session, game, viewer, o, read)
            if refused is None and _with_place(o):  # a result's move: each place a tap may name for it
                places[id(o)] = _places(session, game, viewer, o, read)
                if _beyond(session, game, viewer, o, read):
                    typed.add(id(o))
        else:
            refused = pipeline.refusal(session, game, viewer, o.act, o.complete, read)
        if refused is not None and o.roll is not None and o.roll.options:
            refused = _chosen(session, game, viewer, o, read, refused)
        judged.append((o, _said(refused) if refused is not None else None))
    remedies = {r["remedy"] for _, r in judged if r is not None and r["remedy"]}
    first = [o for o, r in judged if r is None and o.key in remedies]
    rolls: list[dict[str, Any]] = [
        dict(o.roll.as_dict()) for o, r in _ordered(judged, first) if r is None and o.roll is not None
    ]
    edits = _edits([o for o, r in _ordered(judged, first) if r is None and o.edit is not None])
    refusals = [r for _, r in judged if r is not None]
    return {
        "acts": rolls,
        "edits": edits,
        "refused": refusals[0] if own and refusals and not rolls and not edits else None,
        "offers": [
            {
                "kind": o.kind,
                "key": o.key,
                "label": o.label,
                "unit_id": _unit_of(o.act),
                "refused": r,
                # A move's result set with the place the player names (a retreat): sent as it is.
                "values": _with_place(o),
                # The places a step away the pipeline takes that move to now (a retreat's, an advance's).
                "places": places.get(id(o), []),
                # Its place typed as well: a result's move taken farther than a step (else its taps are all).
                "typed": id(o) in typed or not places.get(id(o)),
            }
            for o, r in _ordered(judged, first)
        ],
        "first": "edits" if any(o.edit is not None for o in first) else "acts" if first else "",
    }


def _targeted(
    session: Session,
    game: Game,
    viewer: Viewer,
    o: Offer,
    read: TableRead,
    side: str,
) -> Refused | RulesError | None:
    """An edit's value that needs an enemy stand tapped as its target (a plan's): None when the pipeline would
    accept it at one of the other side's formations (a stand of each tried, as a tap names its formation),
    else the refusal at the first."""
    snapshot = read.snapshot
    tried: dict[int | None, int] = {}
    for u in snapshot.units:
        if u.side != side and not u.killed and u.x is not None and not u.off_table:
            tried.setdefault(u.parent_id, u.id)
    if o.edit is None or not isinstance(o.act, EditUnit) or not tried:
        return pipeline.refusal(session, game, viewer, o.act, False, read)
    field = o.edit.choices[o.choice].target
    act = o.act
    at = (
        EditUnit(unit_id=act.unit_id, version=act.version, values={**act.values, field: t})
        for t in tried.values()
    )
    return _first_refusal(session, game, viewer, at, read)


def _placed(
    session: Session, game: Game, viewer: Viewer, o: Offer, read: TableRead
) -> Refused | RulesError | None:
    """A counter's move (`Offer.near`): None when the pipeline would take it to one of the places a step away,
    as a tap names one, else the refusal of the first (Zero Hour's, the night's, out of its phase); a move to
    its own place moves nothing, and was offered where every real move was refused."""
    if not isinstance(o.act, EditUnit):
        return None
    act = o.act
    moves = (replace(act, values={**act.values, o.key: place}) for place in o.near)
    return _first_refusal(session, game, viewer, moves, read)


def _first_refusal(
    session: Session, game: Game, viewer: Viewer, acts: Iterable[Act], read: TableRead
) -> Refused | RulesError | None:
    """None when the pipeline would take one of `acts` now (tried in order, as taps would name them), else the
    refusal of the first; None for no acts."""
    first: Refused | RulesError | None = None
    for act in acts:
        refused = pipeline.refusal(session, game, viewer, act, True, read)
        if refused is None:
            return None
        first = first or refused
    return first


def _places(session: Session, game: Game, viewer: Viewer, o: Offer, read: TableRead) -> list[str]:
    """The places a step away (`Offer.near`) the pipeline would take a counter's move to now."""
    if not isinstance(o.act, EditUnit):
        return []
    return [
        p
        for p in o.near
        if pipeline.refusal(
            session, game, viewer, replace(o.act, values={**o.act.values, o.key: p}), True, read
        )
        is None
    ]


def _beyond(session: Session, game: Game, viewer: Viewer, o: Offer, read: TableRead) -> bool:
    """Whether the pipeline would take a counter's move to a place two steps away (a reading that lets the
    players count a retreat's places): then a tap per place a step away is not all it takes."""
    counters = rules_of(game).book.kit.counters
    if counters is None or counters.near is None or not isinstance(o.act, EditUnit):
        return False
    here = str(o.act.values.get(o.key, ""))
    farther = {p for n in o.near for p in counters.near(read.snapshot, n)} - {*o.near, here}
    return any(
        pipeline.refusal(session, game, viewer, replace(o.act, values={**o.act.values, o.key: p}), True, read)
        is None
        for p in sorted(farther)
    )


def _chosen(
    session: Session,
    game: Game,
    viewer: Viewer,
    o: Offer,
    read: TableRead,
    refused: Refused | RulesError,
) -> Refused | RulesError | None:
    """A roll with options the player chooses on the card (`StandAct.options`: the players' call that its
    target is observed, how many markers): None when the pipeline would accept it with one of them chosen
    (each value of each option tried in turn), else its refusal as it stands."""
    if o.roll is None or not isinstance(o.act, Roll):
        return refused
    specs = counters.roll_options(game.ruleset).get(o.roll.resolver, {})
    for name in o.roll.options:
        for value in counters.option_values(specs[name]) if name in specs else ():
            chosen = replace(o.act, fields={**o.act.fields, name: value})
            if pipeline.refusal(session, game, viewer, chosen, o.complete, read) is None:
                return None
    return refused


def _ordered(judged: list[tuple[Offer, Said | None]], first: list[Offer]) -> list[tuple[Offer, Said | None]]:
    """The card's acts with the remedies of its refusals first."""
    return sorted(judged, key=lambda j: j[0] not in first)


def _edits(offered: list[Offer]) -> list[StandEditDict]:
    """The unit edits offered, each with the values the pipeline would accept now (in the rule set's order)."""
    out: dict[tuple[int, str], StandEditDict] = {}
    for o in offered:
        if o.edit is None:
            continue
        e = out.setdefault((o.edit.unit_id, o.edit.field), {**o.edit.as_dict(), "choices": []})
        e["choices"].append(o.edit.choices[o.choice].as_dict())
    return list(out.values())


def _with_place(o: Offer) -> dict[str, JsonValue]:
    """What a move of a counter sets besides its place (`CounterBoard.place_results`), else nothing."""
    if o.kind != "place" or not isinstance(o.act, EditUnit):
        return {}
    return {k: v for k, v in o.act.values.items() if k != o.key}


def _unit_of(act: Act) -> int | None:
    return getattr(act, "unit_id", None)
