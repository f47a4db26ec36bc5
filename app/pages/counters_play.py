"""The card of the page of counters playing a roll (issue 67): its target asked for, the odds as the act
pipeline works them out (`app.services.resolve.ask`, nothing written) or its refusal with the options that may
lift it, the options, the dice to tap, and once recorded the roll's result with its Undo."""

from __future__ import annotations

import json
from typing import Protocol

from sqlmodel import Session

from app.data.models import Game
from app.errors import Refused, refusal_body
from app.pages.counters_parts import (
    Counter,
    DiceRow,
    Face,
    OptionButton,
    OptionRow,
    Play,
    PlayArea,
    ResultFor,
    Want,
    refusal,
    value_words,
)
from app.pages.templates import RuleState, humanise
from app.services import resolve as resolve_service
from app.services.seating import Viewer
from rules.core.errors import RulesError


class Seat(Protocol):
    """What the card's play reads of the seat's panels being built (`app.pages.counters_build.Builder` is one):
    the seat and what it shows, the game's counters and sides as it reads them, and a recorded roll's result."""

    session: Session
    game: Game
    viewer: Viewer
    want: Want
    rules: RuleState
    sides: dict[str, str]
    units: dict[int, Counter]

    def results_of(self, play: Play) -> tuple[tuple[ResultFor, ...], tuple[str, ...]]: ...


def play_area(b: Seat, c: Counter, play: Play) -> PlayArea:
    """The card's play of `play.act` by (or at) `c`, as the seat of `b` reads it."""
    w, act, game = b.want, play.act, b.game
    target = b.units.get(play.target or 0)
    joined = [b.units[j].short for j in play.joined]
    t_name = target.short if target else ""
    who = (
        f"{act.label}: {t_name}"
        if act.on_enemy
        else f"{act.label}: {' + '.join([c.short, *joined])}{f' at {t_name}' if target else ''}"
    )
    out = PlayArea(title=who, cancel=Want(w.group, w.unit).query(), done=play.done)
    if play.done is not None:
        undo = {
            "url": f"/api/v1/games/{game.id}/events/{play.done.event_id}/undo",
            "method": "POST",
            "body": {},
        }
        results, theirs = b.results_of(play)
        return PlayArea(
            title=who,
            cancel=out.cancel,
            done=play.done,
            undo_json=json.dumps(undo),
            results=results,
            theirs=theirs,
        )
    if act.target and play.target is None:
        other = b.sides["defender" if c.side == "attacker" else "attacker"]
        joins = "; tap more of your counters to join" if act.joined else ""
        return PlayArea(
            title=who, cancel=out.cancel, prompt=f"Tap the {other} counter it {act.label.lower()}s{joins}."
        )
    try:
        asked = resolve_service.ask(
            b.session, game, b.viewer, act.resolver, dict(play.fields), None, play.unit_id, play.target
        )
    except (RulesError, Refused) as e:
        body = refusal_body(e)
        why = refusal(body["detail"], body.get("why"), body.get("source"))
        return PlayArea(title=who, cancel=out.cancel, refused=why, options=_options(play, w, frozenset()))
    filled = asked.get("filled") or []
    by_board = frozenset(f["field"] for f in filled if not f.get("given"))
    if refused := asked.get(
        "refused"
    ):  # refused as it stands: its options may lift it ("say it is observed")
        why = refusal(refused.get("detail"), refused.get("why"), refused.get("source"))
        return PlayArea(title=who, cancel=out.cancel, refused=why, options=_options(play, w, by_board))
    labels = {f.name: f.label for f in b.rules.card}
    shown = [(labels.get(f["field"]) or humanise(f["field"]), f) for f in filled]
    dice = (asked.get("resolution") or {}).get("dice") or []
    count = len(dice) or act.dice or 1
    url = f"/api/v1/games/{game.id}/resolve/{act.resolver}"
    rows = tuple(
        DiceRow(
            "The die: tap what it shows" if count == 1 else f"Die {row + 1}",
            tuple(_face(play, w, url, count, row, n) for n in range(1, 7)),
        )
        for row in range(count)
    )
    on = "" if act.on_enemy else f"&unit={act.unit_id}"
    return PlayArea(
        title=who,
        cancel=out.cancel,
        detail=" · ".join(
            f"{label} {value_words(f['value'])}" for label, f in shown if not isinstance(f["value"], dict)
        ),
        filled=tuple(f"{label}: {value_words(f['value'])} ({f['why']})" for label, f in shown),
        odds=tuple(f"{humanise(k)} {v}" for k, v in (asked.get("odds_words") or {}).items()),
        options=_options(play, w, by_board),
        dice=rows,
        roll=play.roll(url),
        then=w.query(dice=()),
        joins=bool(act.joined),
        lookup=f"/lookup/{game.ruleset}/{act.resolver}?game={game.id}{on}",
    )


def _face(play: Play, w: Want, url: str, count: int, row: int, n: int) -> Face:
    """A die's face: tapped, it is kept (the roll's other dice still to tap) or the roll is recorded."""
    dice = [*w.dice[:count], *([0] * max(0, count - len(w.dice)))]
    pressed = dice[row] == n
    dice[row] = n
    if all(dice):
        return Face(n, pressed, write=play.roll(url, dice))
    return Face(n, pressed, go=w.query(dice=tuple(dice)))


def _options(play: Play, w: Want, by_board: frozenset[str]) -> tuple[OptionRow, ...]:
    """The act's options as buttons, each its value tapped anew (those the board fills left out unless given)."""
    specs, given = play.specs, play.given
    named = [n for n in play.act.options if n in specs and (n not in by_board or n in given)]

    def now(n: str) -> object:
        return given.get(n, specs[n].default)

    def button(n: str, value: object, text: str, pressed: bool) -> OptionButton:
        raw = str(value).lower() if isinstance(value, bool) else str(value)
        return OptionButton(text, pressed, w.query(given=w.chosen(n, raw), dice=(), done=None))

    def text(n: str, v: str | int) -> str:
        spec = specs[n]
        return (spec.labels.get(str(v)) or humanise(str(v))) if spec.kind == "word" else str(v)

    rows = [
        OptionRow(specs[n].title, tuple(button(n, v, text(n, v), now(n) == v) for v in specs[n].values))
        for n in named
        if specs[n].kind != "flag"
    ]
    if flags := [n for n in named if specs[n].kind == "flag"]:
        rows.append(
            OptionRow("Choices", tuple(button(n, not now(n), specs[n].title, bool(now(n))) for n in flags))
        )
    return tuple(rows)
