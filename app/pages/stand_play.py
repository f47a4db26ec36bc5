"""A stand's card on the table map playing a roll, rendered by the server (issue 67): the roll, its target, what
the table fills and the odds as the act pipeline works them out (`app.services.resolve.ask`, nothing written, the
same that answers POST /api/v1/games/{id}/ask/{resolver}) or its refusal, the dice to tap and, once every die is
tapped, the answer with what it would do to whom and its Apply. The card's state (the act, its target, the
order its hits fall in, a range by the tape, the dice tapped) is the request's query, and each control carries
the part it leads to or the roll it records (`app.pages.stand_next`); frontend/static/js/table-act.js follows
them and sends the roll through the outbox. Once recorded, the card is `app.pages.stand_done`'s."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any

from fastapi import Path, Query
from sqlmodel import Session

from app.core.routing import Router
from app.data.bounded import INT32_MAX
from app.data.models import Game
from app.deps import SessionDep
from app.pages.game_lookup import reading_refused
from app.pages.panels import panel_page
from app.pages.resolving import with_reading
from app.pages.seats import Seat
from app.pages.stand_acts import field_lines
from app.pages.stand_count import (
    CountView,
    again_forced,
    again_taps,
    count_certain,
    count_taps,
    lift_taps,
    lifted_forced,
)
from app.pages.stand_next import CardQuery, PlayState, Tap
from app.pages.templates import humanise
from app.services import resolve as resolve_service
from app.services import seats
from app.services.markers import kept_of, rules_of, table_read
from app.services.seating import Viewer
from app.services.units import find_unit, unknown_unit
from rules.core.consequences import odds_words
from rules.core.dice import Count
from rules.core.errors import RulesError
from rules.core.readings import reading_label, readings_deciding
from rules.core.records import StandAct
from rules.registry import get_ruleset

__all__ = ["AskedCard", "also_lines", "rolled_words", "stand_play", "stand_play_page"]

router = Router()


@dataclass(frozen=True)
class DiceRowView:
    """One die's row of faces to tap (`pressed`: the face tapped), each face's tap what it asks next (the card
    with that die, or the roll recorded where it is the last die of a roll with no target)."""

    label: str
    pressed: int
    taps: tuple[Tap, ...] = ()


@dataclass(frozen=True)
class DiceChoice:
    """Whose dice the stand's side rolls (`by`: "players" or "firestep"), and the seat's one tap changing it: the
    PUT it sends (`api`, api-action.js; table-act.js then asks the card again) and its body as JSON."""

    by: str
    api: str
    body: str


@dataclass(frozen=True)
class ReadingView:
    """An erratum whose reading decided the card's answer: its line ("Reading: <topic>: <reading>"), citing the
    reading; the other readings, each its label and the referee's change making it the game's (`api`, PATCH
    /api/v1/games/{id}, and its body as JSON: api-action.js sends it, table-act.js then asks the card again);
    or why this seat may not (`refused`)."""

    line: str
    source: str
    variant: bool
    api: str = ""
    others: tuple[tuple[str, str], ...] = ()
    refused: str = ""


@dataclass(frozen=True)
class AskedCard:
    """The card playing a roll for one seat: its title, the refusal of it as it stands (`refused`, `why`,
    `source`), else the dice rows (`count` of them) or, where the rule counts the dice reaching a number, the
    count to tap (`counted`), the answer once every die (or the count) is tapped (`outcome_key`,
    `outcome`, `also`, `said`), the order its hits fall in, the odds, the range by the tape, why this unit
    rolls and what the table filled in (its `lookup` to change any of it)."""

    unit_id: int
    title: str
    count: int
    refused: str = ""
    why_refused: str = ""
    source: str = ""
    answered: bool = False
    outcome_key: str = ""
    outcome: str = ""
    also: tuple[str, ...] = ()
    said: tuple[str, ...] = ()
    pool: bool = False
    rows: tuple[DiceRowView, ...] = ()
    counted: CountView | None = None
    order: bool = False
    order_names: tuple[str, ...] = ()
    odds: str = ""
    range_cm: str = ""
    why: str = ""
    filled: tuple[str, ...] = ()
    lookup: str = ""
    readings: tuple[ReadingView, ...] = ()
    dice: DiceChoice | None = None
    # What its controls ask next (app.pages.stand_next.PlayState.links): its own URL, the roll's POST and
    # its answer's, its target, a stand tapped on the map while its hits' order is given, Roll, the book's
    # order, the range by the tape; and Apply's body once answered.
    url: str = ""
    apply_to: str = ""
    done: str = ""
    play_target: int | None = None
    pick: str = ""
    roll: str = ""
    book: str = ""
    range_ask: str = ""
    apply: str = ""

    def context(self) -> dict[str, object]:
        """The context `_stand_play.html` renders (tests/app/games/test_stand_card_page.py holds the two together)."""
        return {"asked": self}


def also_lines(resolution: Mapping[str, Any], names: Mapping[int, str]) -> tuple[str, ...]:
    """Each other stand a shot attacks (its area, its beaten zone), by its short name (`names`: two platoons of
    one name told apart): its die, its modifiers, what it did."""
    return tuple(
        f"{names.get(a.get('unit_id') or 0, a['name'])}: {a['die']}"
        + ",".join(
            f" {'+' if x['value'] > 0 else ''}{x['value']} {str(x['label']).lower()}" for x in a["modifiers"]
        )
        + f", {humanise(str(a['outcome']))}"
        for a in resolution.get("also") or []
    )


def rolled_words(dice: Sequence[int], also: Sequence[object], target: str) -> tuple[str, str]:
    """A roll's dice as its line says them, and whom they are for: a shot attacking other stands besides its
    target ("Any infantry platoon or support weapon which falls fully with the area of effect are attacked",
    ARTILLERY BATTERIES AREA OF EFFECT: each on a die of its own, on its own line) names its target's dice
    alone, so that its answer is not read as the whole shot's."""
    first = list(dice)[: max(0, len(dice) - len(also))] if also else list(dice)
    return " and ".join(str(d) for d in first), f" for {target}" if also and target else ""


def _number(v: object) -> str:
    """A range as the tape's field shows it (30.0 -> "30", as the browser writes a number)."""
    return f"{v:g}" if isinstance(v, float) else str(v)


def _label(count: int, d: int, also: Sequence[Mapping[str, Any]], pool: bool) -> str:
    first = count - len(also)
    if d >= first:
        return f"The die for {also[d - first]['name']}"
    if count == 1:
        return "The die"
    if pool:
        return f"Die {d + 1} of the pool"
    return "The attacker's die" if d == 0 else "The defender's die"


def _answer(
    session: Session,
    game: Game,
    viewer: Viewer,
    roll: tuple[str, int, int | None],
    fields: Mapping[str, object],
    dice: Sequence[int],
) -> Mapping[str, Any] | None:
    """Every die tapped: the table's answer for them (asked once, its odds and fills the same as without them),
    or None where they are not the dice the roll takes now or it is refused (then asked without them)."""
    if not dice or not all(dice):
        return None
    resolver, unit_id, target = roll
    try:
        a = resolve_service.ask(session, game, viewer, resolver, dict(fields), list(dice), unit_id, target)
    except RulesError:
        return None
    rolled = (a.get("resolution") or {}).get("dice") or []
    return None if a.get("refused") or len(rolled) != len(dice) else a


def _readings(
    game: Game, viewer: Viewer, resolver: str, asked: Mapping[str, Any], dice: Sequence[int]
) -> tuple[ReadingView, ...]:
    """The errata whose reading decided the answer for these dice (the request as the table filled it and the
    player gave it), each with the other reading: the referee's change of the game's, or why not."""
    rs = get_ruleset(game.ruleset)
    body = {
        **{f["field"]: f["value"] for f in asked.get("filled") or []},
        **(asked.get("given") or {}),
        "period": game.period,
        "variants": dict(game.variants),
    }
    try:
        req = rs.resolvers[resolver].Request.model_validate(body)
        used = readings_deciding(rs, resolver, req, tuple(dice))
    except (ValueError, RulesError):
        return ()  # a request the card cannot rebuild names no reading rather than a wrong one
    refused = reading_refused(game, viewer)
    return tuple(
        ReadingView(
            u.line,
            u.here or u.used.source,  # the game's period's part of it (rules.core.readings.source_for)
            u.variant,
            f"/api/v1/games/{game.pk}",
            ()
            if refused
            else tuple(
                (
                    reading_label(r),
                    json.dumps(
                        {
                            "version": game.version,
                            "variants": with_reading(game.variants, rs, u.erratum.id, r.id),
                        }
                    ),
                )
                for r in u.others
            ),
            refused,
        )
        for u in used
    )


def stand_play(
    session: Session, game: Game, viewer: Viewer, stand_id: int, resolver: str, asked: CardQuery
) -> AskedCard:
    """The card of stand `stand_id` playing its roll `resolver`, as `viewer` asks the table for it with what the
    card's query gives (`CardQuery`: the act, its target, the order its hits fall in, a range by the tape, the
    dice tapped or their count, a stand tapped on the map)."""
    card, state = _asked(session, game, viewer, stand_id, resolver, asked)
    return replace(card, **state.links())  # type: ignore[arg-type]


def _asked(
    session: Session, game: Game, viewer: Viewer, stand_id: int, resolver: str, query: CardQuery
) -> tuple[AskedCard, PlayState]:
    label, target, order, range_cm, pick = query.label, query.target, query.order, query.range_cm, query.pick
    dice, reached, lifted, again = query.dice, query.reached, query.lifted, query.again
    if any(not 0 <= d <= 6 for d in dice):
        raise RulesError("die", "tap each die 1 to 6, or 0 while it is not tapped yet")
    if any(not 1 <= i <= INT32_MAX for i in order):
        raise RulesError("order", "give each hit's stand by its id")
    stand = find_unit(session, game.pk, stand_id)
    if stand is None:
        raise unknown_unit("unit_id", game.pk, stand_id)
    # The seat before the act: a label refused (422) for a stand it may not act for would tell it the label exists.
    # Checked on the stand's row alone: the game's units are read for an allowed seat only.
    viewer.require_side(stand.side, "resolve for a unit")
    read = table_read(session, game)  # the game's units as the worker keeps them: the stand among them
    by = seats.get_side(session, game.pk, stand.side).dice
    other = "players" if by == "firestep" else "firestep"
    choice = DiceChoice(by, f"/api/v1/games/{game.pk}/sides/{stand.side}/dice", json.dumps({"dice": other}))
    if by == "firestep":  # the app rolls this side's dice: none to enter
        dice, reached, lifted, again = (), None, None, None
    card = rules_of(game).stand_card(read.snapshot, stand_id)
    act = next(
        (a for a in card if isinstance(a, StandAct) and a.resolver == resolver and a.label == label), None
    )
    if act is None:
        raise RulesError("act", "pick a roll the stand's card offers now")
    names = read.kept.listed_names
    if pick is not None:  # a stand tapped: the target, and where the hits' order is given, the next hit
        if pick not in names:
            raise unknown_unit("pick", game.pk, pick)
        target = pick if target is None or not act.order else target
        order = (*order, pick) if act.order else order
        if len(order) > 64:
            raise RulesError("order", "give at most 64 hits in order")
    if target is not None and target not in names:
        raise unknown_unit("target", game.pk, target)
    state = PlayState(
        game_id=game.pk,
        stand=stand_id,
        resolver=resolver,
        label=act.label,
        unit_id=act.unit_id,
        target=target,
        order_field=act.order or "",
        order=order,
        range_cm=range_cm,
        dice=dice,
        reached=reached,
    )
    fields: dict[str, object] = {act.order: list(order)} if act.order and order else {}
    if range_cm is not None:
        fields["range_cm"] = range_cm
    title = f"{act.label}: {names[stand_id][1]}{f' at {names[target][1]}' if target else ''}"
    answer = _answer(session, game, viewer, (resolver, act.unit_id, target), fields, dice)
    asked = answer or resolve_service.ask(
        session, game, viewer, resolver, dict(fields), None, act.unit_id, target, read=read
    )
    if refused := asked.get("refused"):
        return AskedCard(
            stand_id,
            title,
            0,
            refused=str(refused.get("detail") or ""),
            why_refused=str(refused.get("why") or ""),
            source=str(refused.get("source") or ""),
        ), state
    resolution = asked.get("resolution") or {}
    count = len(resolution["dice"]) if resolution else act.dice
    counted = asked.get("counted")
    certain = count_certain(counted) if counted and by == "players" else None
    if certain is not None:  # the newcomer pass: "Odds: 3 hits certain", and still a count to tap
        reached = certain
    lifting: tuple[Tap, ...] = ()
    rerolled: tuple[Tap, ...] = ()
    if counted and reached is not None:
        lifted, again = lifted_forced(counted, reached, lifted), again_forced(counted, reached, again)
        state = state.model_copy(update={"dice": (), "reached": reached, "lifted": lifted, "again": again})
        lifting = lift_taps(state, act.target, count) if lifted_forced(counted, reached, None) is None else ()
        asks_again = again_forced(counted, reached, None) is None and counted.get("again")
        rerolled = again_taps(state, act.target, counted["dice"]) if asks_again else ()
        if lifted is not None and (again is not None or not counted.get("again")):  # the count whole
            c = _counted(
                session,
                game,
                viewer,
                (stand_id, title),
                act,
                target,
                fields,
                Count(counted["dice"], reached, lifted, again),
                counted,
            )
            taps = count_taps(state, act.target, c.count, counted)
            by_count = (
                replace(c.counted, taps=taps, lift_taps=lifting, again_taps=rerolled) if c.counted else None
            )
            return replace(c, dice=choice, apply=state.body(count=c.count), counted=by_count), state
    tapped = [*dice[:count], *([0] * max(0, count - len(dice)))][:count]
    state = state.model_copy(update={"dice": () if lifting or rerolled else tuple(tapped)})

    def row(d: int) -> DiceRowView:  # each face's tap: the card with it, or a roll of no target recorded
        taps = [tuple(n if i == d else t for i, t in enumerate(tapped)) for n in range(1, 7)]
        went: tuple[Tap, ...] = tuple(
            ("apply", state.body(t)) if all(t) and not act.target else state.ask(dice=t) for t in taps
        )
        return DiceRowView(_label(count, d, also, act.pool), tapped[d], went)

    also = resolution.get("also") or []
    out = {
        "pool": act.pool,
        "rows": () if counted or by == "firestep" else tuple(row(d) for d in range(count)),
        "counted": CountView(
            counted["dice"],
            counted["reach"],
            reached if lifting or rerolled else None,
            certain is not None,
            count_taps(state, act.target, count, counted),
            counted.get("lift", 0),
            bool(counted.get("first_only")),
            lifting,
            again_taps=rerolled,
        )
        if counted and by == "players"
        else None,
        "dice": choice,
        "order": bool(act.order),
        "order_names": tuple(names[i][1] if i in names else str(i) for i in order) if act.order else (),
        "odds": " · ".join(f"{humanise(k)} {v}" for k, v in (asked.get("odds_words") or {}).items()),
        "why": act.why,
        "filled": field_lines(game, asked.get("filled") or []),
        "lookup": f"/lookup/{game.ruleset}/{resolver}?game={game.id}&unit={act.unit_id}",
    }
    ranged = next((f for f in asked.get("filled") or [] if f["field"] == "range_cm"), None)
    if range_cm is not None or ranged is not None:
        out["range_cm"] = _number(range_cm if range_cm is not None else ranged["value"] if ranged else "")
    if count and all(tapped):
        a = answer or resolve_service.ask(
            session, game, viewer, resolver, dict(fields), tapped, act.unit_id, target
        )
        res = a.get("resolution") or {}
        readings = _readings(game, viewer, resolver, {**a, "given": fields}, res.get("dice") or tapped)
        short = {i: n[1] for i, n in names.items()}
        at = short.get(target, "") if target is not None else ""
        rolled, whom = rolled_words(res.get("dice") or tapped, res.get("also") or [], at)
        return AskedCard(
            stand_id,
            title,
            count,
            answered=True,
            outcome_key=str(res.get("outcome_key") or ""),
            outcome=f"Rolled {rolled}{whom}: {a.get('outcome_words')}.",
            also=also_lines(res, short),
            said=tuple(a.get("said") or ()),
            readings=readings,
            apply=state.body(tuple(tapped)),
            **out,  # type: ignore[arg-type]
        ), state
    return AskedCard(stand_id, title, count, **out), state  # type: ignore[arg-type]


def _counted(
    session: Session,
    game: Game,
    viewer: Viewer,
    card: tuple[int, str],
    act: StandAct,
    target: int | None,
    fields: Mapping[str, object],
    count: Count,
    counted: Mapping[str, Any],
) -> AskedCard:
    """The card of a roll entered as its count: how many of its dice reached the number (and a die a bonus
    lifted), the answer for it beside the exact odds of that count, and its Apply (a count the dice cannot show
    refused naming it)."""
    n, reach, reached = counted["dice"], counted["reach"], count.reached
    a = resolve_service.ask(
        session, game, viewer, act.resolver, dict(fields), None, act.unit_id, target, count
    )
    res = a.get("resolution") or {}
    odds = odds_words((res.get("count") or {}).get("odds") or "0")
    lift = "" if not counted.get("lift") else " and one lifted" if count.lifted else " and none lifted"
    lift += "" if count.again is None else f" and {count.again} again"
    return AskedCard(
        card[0],
        card[1],
        n,
        answered=True,
        outcome_key=str(res.get("outcome_key") or ""),
        outcome=f"{reached} of {n} dice reached {reach}+{', another lifted to it' if count.lifted else ''}"
        f"{f', {count.again} of them again' if count.again is not None else ''} "
        f"(the chance of exactly {reached}{lift}: {odds}): {a.get('outcome_words')}.",
        also=also_lines(res, {i: n[1] for i, n in kept_of(session, game).listed_names.items()}),
        said=tuple(a.get("said") or ()),
        pool=act.pool,
        counted=CountView(
            n,
            reach,
            reached,
            count_certain(counted) is not None,
            lift=counted.get("lift", 0),
            first_only=bool(counted.get("first_only")),
            lifted=count.lifted,
            again=count.again,
        ),
        why=act.why,
        filled=field_lines(game, a.get("filled") or []),
        lookup=f"/lookup/{game.ruleset}/{act.resolver}?game={game.id}&unit={act.unit_id}",
    )


@panel_page(router, "/games/{game_id}/map/units/{unit_id}/play/{resolver}", "_stand_play.html")
def stand_play_page(
    game: Game,
    seat: Seat,
    session: SessionDep,
    unit_id: Annotated[int, Path(ge=1, le=INT32_MAX)],
    resolver: Annotated[str, Path(max_length=64)],
    asked: Annotated[CardQuery, Query()],
) -> AskedCard:
    """The card of a stand playing its roll `resolver` (its query: `CardQuery`) for this seat."""
    return stand_play(session, game, seat.viewer, unit_id, resolver, asked)
