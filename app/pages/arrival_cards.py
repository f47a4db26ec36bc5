"""The turn's arrived fire-plan fire as cards on the table map, rendered by the server (issues 26 and 67): what
arrived and where it lands, the stands under it fully, partly or too close to call, what is rolled with its odds,
and what this seat may tap (Roll and apply, the dice entered, the shots laid where the card leaves them to its
side) or, once applied, what it did in words with its Undo. Built from the one answer of the turn's cards,
`app.services.arrivals.cards` (the same that answers GET /api/v1/games/{id}/arrivals), per seat by
`_arrival_cards.html`; frontend/static/js/table-arrivals.js reads it anew on the live stream and keeps the taps
(a stand tapped on the map lays a shot, the apply and the Undo through the outbox). The shots laid so far are
the read's `shot` query: the card counts them as it draws them and carries the query each tap reads next (a shot
more, Clear) and the body its apply sends, so the script keeps no count of its own."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated
from urllib.parse import urlencode

from fastapi import Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlmodel import Session

from app.core.routing import Router
from app.data.models import Event, Game
from app.data.schemas_answers import CardAppliedOut, CardRollOut, DeviationOut, FireCardOut
from app.deps import GameId, SessionDep, SettingsDep
from app.pages.seats import game_page
from app.services import arrivals as arrivals_service
from app.services.markers import kept_of
from app.services.seating import Viewer
from app.services.undo import undo_refused
from rules.core.errors import RulesError

__all__ = ["ArrivalCard", "Arrivals", "arrivals", "arrivals_page"]

router = Router()

# Where a stand is under the fire, in the order the card lists them, and how each list is headed.
UNDER = (
    ("full", "Fully under"),
    ("partial", "Partly under, at -2"),
    ("close", "Too close to call, measure on the table"),
)
# A shot laid, as the read's query says it: "<item id>:<roll key>" (the API's roll key: "action" or a unit id).
SHOT = r"[0-9]{1,10}:(action|[0-9]{1,11})"


@dataclass(frozen=True)
class UnderLine:
    """The stands under the fire in one way (`under`: full, partial or close), named as the map names them."""

    under: str
    text: str
    count: int


@dataclass(frozen=True)
class DieInput:
    """One die to enter: its roll's key, its place in that roll's dice, the die's faces and its label."""

    key: str
    index: int
    faces: int
    label: str


@dataclass(frozen=True)
class DiceRow:
    who: str
    dice: tuple[DieInput, ...]


@dataclass(frozen=True)
class ShotButton:
    """A stand under the fire a shot may be laid on (its roll's key), the shots laid on it so far and, where one
    more would be refused, the sentence that says why (a tap shows it and lays nothing); else `read`, the shots
    query with this one more."""

    key: str
    unit_id: int
    text: str
    refused: str
    read: str = ""


@dataclass(frozen=True)
class Done:
    """The event that applied the card this turn: what it did in words, its Undo (or why not), and its dice."""

    event_id: int
    said: str
    undo: bool
    undo_refused: str
    effect: str
    dice: tuple[int, ...]


@dataclass(frozen=True)
class ArrivalCard:
    """One arrived item's card for one seat. `mine`: this seat applies it (its side or the referee);
    `laying`: the card whose shots a stand tapped on the map lays (one at most on the page); `laid` the shots
    laid so far of `shots` (0: the card makes every roll), by roll key in `laid_by`; `clear` the shots query
    without this card's, `body` what its Roll and apply sends."""

    item_id: int
    side: str
    what: str
    where: str
    under: tuple[UnderLine, ...]
    rolls: tuple[str, ...]
    odds: tuple[str, ...]
    notes: tuple[str, ...]
    mine: bool
    shots: int
    laid: int
    laying: bool
    shot_buttons: tuple[ShotButton, ...]
    dice_rows: tuple[DiceRow, ...]
    done: Done | None
    laid_by: tuple[tuple[str, int], ...] = ()
    clear: str = ""
    body: str = "{}"


@dataclass(frozen=True)
class Arrivals:
    """The turn's arrival cards for one seat, the tool bar's words for them ("1 arrival") and the shots laid on
    them as the read's query (`query`: those the cards took, the next read's)."""

    cards: tuple[ArrivalCard, ...]
    label: str
    query: str = ""

    def context(self) -> dict[str, object]:
        """The context `_arrival_cards.html` renders (tests/app/games/test_arrival_cards_page.py holds the two together)."""
        return {"arrivals": self}


def _words(key: str) -> str:
    return key.replace("-", " ")


def _odds_line(said: Mapping[str, str]) -> str:
    """Each outcome's chance as the server words it (odds_words: the card, the story and the ledger alike)."""
    return ", ".join(f"{_words(k)} {p}" for k, p in said.items())


def _where(dev: DeviationOut) -> str:
    if dev.deviates:
        return (
            f"Lands {dev.distance_cm} cm towards {dev.clock} o'clock of its aiming point "
            "(deviation rolled as it arrived)."
        )
    return "Lands on its aiming point (no deviation: a 5 or 6)." if dev.dice else "Lands on its aiming point."


def _done(session: Session, game: Game, viewer: Viewer, side: str, applied: CardAppliedOut) -> Done:
    """The card applied: its Undo offered exactly when the undo service would take it back."""
    refused = ""
    if viewer.may_act_for(side):
        ev = session.get(Event, applied.event_id)
        refused = undo_refused(session, game, viewer, ev) if ev is not None else ""
    return Done(
        applied.event_id,
        " ".join(applied.said) or "Nothing changes on the table.",
        viewer.may_act_for(side) and not refused,
        refused,
        applied.effect,
        tuple(applied.dice),
    )


def _dice_rows(rolls: Sequence[CardRollOut], name: Mapping[int, str]) -> tuple[DiceRow, ...]:
    rows = []
    for r in rolls:
        who = name[r.unit_id] if r.unit_id is not None else "Artillery action"
        count = r.times * len(r.dice)
        rows.append(
            DiceRow(
                who,
                tuple(
                    DieInput(r.key, n, r.dice[0], f"{who}, turn of fire {n + 1}" if r.times > 1 else who)
                    for n in range(count)
                ),
            )
        )
    return tuple(rows)


def _shot_buttons(
    c: FireCardOut, stands: Sequence[CardRollOut], name: Mapping[int, str], laid: Mapping[str, int]
) -> tuple[ShotButton, ...]:
    total = sum(laid.values())
    out = []
    for r in stands:
        now, who = laid.get(r.key, 0), name[r.unit_id or 0]
        refused = (
            f"{who} takes at most {r.times} shots."
            if now >= r.times
            else f"All {c.shots} shots are laid: Roll and apply, or Clear."
            if total >= c.shots
            else ""
        )
        out.append(ShotButton(r.key, r.unit_id or 0, f"{who}: {now}/{r.times}", refused))
    return tuple(out)


def _laid(c: FireCardOut, stands: Sequence[CardRollOut], asked: Mapping[str, int]) -> dict[str, int]:
    """The shots the read names that the card would take, in its rolls' order: at most each roll's `times`
    and the card's `shots` in all (a shot beyond them, or on no roll of the card, is left off)."""
    laid: dict[str, int] = {}
    room = c.shots
    for r in stands:
        n = min(asked.get(r.key, 0), r.times, room)
        if n:
            laid[r.key] = n
            room -= n
    return laid


def _card(
    session: Session,
    game: Game,
    viewer: Viewer,
    c: FireCardOut,
    name: Mapping[int, str],
    asked: Mapping[str, int],
) -> ArrivalCard:
    stands = [s for u, _ in UNDER for s in c.stands.get(u, [])]
    # As the map names each stand under it, else as the card does.
    name = {**{s.unit_id or 0: s.name or str(s.unit_id) for s in stands}, **name}

    def called(s: CardRollOut) -> str:
        return f"{name[s.unit_id or 0]} (as placed: {s.measured})" if s.measured else name[s.unit_id or 0]

    under = []
    for u, text in UNDER:
        listed = [called(s) for s in c.stands.get(u, [])]
        under.append(UnderLine(u, f"{text} ({len(listed)}): {', '.join(listed) or 'none'}", len(listed)))
    rolls = []
    if c.first:
        rolls.append(f"First the battery's artillery action D6: {_odds_line(c.first.odds_words)}.")
    if stands:
        firer = stands[0].request.get("firer")
        row = f", on the {_words(str(firer))} row" if firer else ""
        rolls.append(f"Then a D6 for each stand under it per turn of fire{row}.")
    odds = tuple(
        f"{name[s.unit_id or 0]}: {_odds_line(s.odds_words)} ({'; '.join(f.why for f in s.filled)})"
        for s in stands
    )
    mine = viewer.may_act_for(c.side)
    laid = _laid(c, stands, asked) if c.shots and mine and c.applied is None else {}
    return ArrivalCard(
        item_id=c.item_id,
        side=c.side,
        what=c.what,
        where=_where(c.deviation),
        under=tuple(under),
        rolls=tuple(rolls),
        odds=odds,
        notes=tuple(c.notes),
        mine=mine,
        shots=c.shots,
        laid=sum(laid.values()),
        laying=False,
        shot_buttons=_shot_buttons(c, stands, name, laid) if c.shots else (),
        dice_rows=_dice_rows([*([c.first] if c.first else []), *stands], name),
        done=_done(session, game, viewer, c.side, c.applied) if c.applied else None,
        laid_by=tuple(laid.items()),
        body=json.dumps({"shots": laid} if c.shots else {}),
    )


def _with_queries(cards: Sequence[ArrivalCard]) -> tuple[tuple[ArrivalCard, ...], str]:
    """Each card's taps with the shots query they read next: a shot more on a stand, or this card's cleared."""
    held = [(c.item_id, k) for c in cards for k, n in c.laid_by for _ in range(n)]

    def query(shots: Sequence[tuple[int, str]]) -> str:
        return urlencode([("shot", f"{i}:{k}") for i, k in shots])

    out = []
    for c in cards:
        more = tuple(
            replace(b, read="" if b.refused else query([*held, (c.item_id, b.key)])) for b in c.shot_buttons
        )
        out.append(replace(c, shot_buttons=more, clear=query([h for h in held if h[0] != c.item_id])))
    return tuple(out), query(held)


def arrivals(session: Session, game: Game, viewer: Viewer, shots: Sequence[str] = ()) -> Arrivals:
    """The turn's arrival cards as `viewer` sees them (arrived fire is public: every seat reads every card; only
    its side and the referee are offered its taps), with the shots laid so far (`shots`, "<item>:<key>" a
    shot) counted on the card that takes them."""
    asked: dict[int, Counter[str]] = {}
    for s in shots:  # checked before the cards are worked out: a malformed read costs nothing
        if not re.fullmatch(SHOT, s):
            raise RulesError(
                "shot", "name each shot laid as <item id>:<roll key>, as 12:action or 12:345", []
            )
        item, key = s.split(":", 1)
        asked.setdefault(int(item), Counter())[key] += 1
    answer = arrivals_service.cards(session, game)
    # The stands' names only for cards that name them (read on every live frame of every map, and most turns
    # have no arrival), as the worker keeps them: named once per version of the game's units.
    listed = kept_of(session, game).listed_names if answer.cards else {}
    name = {uid: short for uid, (_, short, _) in listed.items()}
    cards = [_card(session, game, viewer, c, name, asked.get(c.item_id, {})) for c in answer.cards]
    # The first card this seat lays the shots of takes the stands tapped on the map.
    laying = next((i for i, c in enumerate(cards) if c.shots and c.mine and c.done is None), None)
    if laying is not None:
        cards[laying] = replace(cards[laying], laying=True)
    n = len(cards)
    taps, query = _with_queries(cards)
    return Arrivals(taps, f"{n} arrival{'' if n == 1 else 's'}", query)


@router.get("/games/{game_id}/map/arrivals", response_class=HTMLResponse)
def arrivals_page(
    game_id: GameId,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    shot: Annotated[list[str] | None, Query(max_length=200)] = None,
) -> Response:
    """The turn's arrival cards on the map for this seat (`arrivals`), as a fragment."""
    return game_page(
        request,
        session,
        settings,
        game_id,
        "_arrival_cards.html",
        "_arrival_cards.html",
        lambda game, seat: arrivals(session, game, seat.viewer, shot or ()).context(),
    )
