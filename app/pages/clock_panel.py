"""The game clock's panel, rendered by the server (issues 55 and 67): each side's face (what it shows: the time
left in the turn or the game, whichever is tighter, else the time it used; running or not; out of time), "Paused"
or "Paused for a dispute", and the buttons the seat may press: the referee's Pause or Resume and "+1 min" per
side, a player's "Stop the clock: dispute" where the clock's settings let a player stop it. Rendered as
`_clock_panel.html` from the same `GameClock` that `GET /api/v1/games/{id}/clock` answers, in the map's score
panel and on the referee's board, and carried by a live frame of an event the clock reads (`frame_clock_panel`,
once per kind of seat), so no request follows that frame; after a resync, this device's write or a frame too big
to carry it, htmx reads it again (its `hx-get`). frontend/static/js/game-clock.js runs the running faces on once a
second from the seconds each face carries (a face's words are drawn there, as the seconds pass)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session

from app.core import live
from app.core.routing import Router
from app.data.models import Game
from app.data.schemas_clock import GameClock, SideClockOut
from app.deps import NowDep, SessionDep
from app.pages.panels import panel_page
from app.pages.seats import Seat
from app.pages.templates import rule_state, templates
from app.services import clock as clock_service

__all__ = ["ClockPanel", "clock_panel", "clock_panel_page", "frame_clock_panel"]

router = Router()

GIVEN_SECONDS = 60  # the referee's "+1 min": one minute given back a tap


@dataclass(frozen=True)
class Face:
    """One side's face: its name as the book calls it, the seconds it shows as the clock was read (`left`: counting
    down what is left, else up the time used), which time that is in words, whether it runs and has run out."""

    side: str
    name: str
    seconds: float
    left: bool
    what: str
    running: bool
    out: bool


@dataclass(frozen=True)
class ClockButton:
    """A button writing to the clock's API through the outbox (api-action.js): its words, URL and JSON body."""

    label: str
    api: str
    body: str = ""


@dataclass(frozen=True)
class ClockPanel:
    """The clock as `_clock_panel.html` draws it for one seat. `state`: ended, paused, running or stopped."""

    faces: tuple[Face, ...]
    paused: str
    buttons: tuple[ClockButton, ...]
    state: str
    read: str = ""  # the panel's own address, read again by htmx after a resync or a write (`hx-trigger`)

    def context(self) -> dict[str, Any]:
        return {"clock_panel": self}


def face_of(side: SideClockOut, name: str) -> Face:
    """What a side's face shows: the tighter of the time left in the game and in the turn, else the time it used
    (issue 64: "Attacker 10:00" did not say the turn's or the game's)."""
    game, turn = side.remaining_seconds, side.turn_remaining_seconds
    if game is None and turn is None:
        seconds, left, what = side.used_seconds - side.given_seconds, False, "used"
    elif game is None or (turn is not None and turn <= game):
        seconds, left, what = float(turn or 0), True, "left this turn"
    else:
        seconds, left, what = game, True, "left in the game"
    return Face(side.side, name, seconds, left, what, side.running, side.out_of_time)


def clock_panel(game: Game, clock: GameClock, referee: bool) -> ClockPanel:
    """The clock's panel for the referee's seat (`referee`) or any other."""
    names = rule_state(game.ruleset)
    faces = tuple(face_of(s, names.side_name(s.side, s.side.capitalize())) for s in clock.sides)
    base = f"/api/v1/games/{game.pk}/clock"
    playing = clock.started and not clock.ended
    buttons: list[ClockButton] = []
    if playing and referee:
        buttons.append(
            ClockButton("Resume clock", f"{base}/resume")
            if clock.paused
            else ClockButton("Pause clock", f"{base}/pause")
        )
        buttons += [
            ClockButton(
                f"+1 min {s.side}", f"{base}/give", json.dumps({"side": s.side, "seconds": GIVEN_SECONDS})
            )
            for s in clock.sides
        ]
    elif playing and not clock.paused and clock.limits.dispute_pause:
        buttons.append(ClockButton("Stop the clock: dispute", f"{base}/dispute"))
    paused = ("Paused for a dispute" if clock.dispute else "Paused") if clock.paused else ""
    state = (
        "ended" if clock.ended else "paused" if clock.paused else "running" if clock.running else "stopped"
    )
    return ClockPanel(faces, paused, tuple(buttons), state, f"/games/{game.pk}/clock/panel")


def panel_for(session: Session, game: Game, referee: bool, now: datetime) -> ClockPanel:
    """The panel as `GET /api/v1/games/{id}/clock` answers the clock now."""
    return clock_panel(game, GameClock.of(clock_service.game_clock(session, game, now)), referee)


@panel_page(router, "/games/{game_id}/clock/panel", "_clock_panel.html")
def clock_panel_page(game: Game, seat: Seat, session: SessionDep, now: NowDep) -> ClockPanel:
    """The clock's panel for this seat (read as the page opens again after a resync, and after a clock event
    whose frame did not carry it)."""
    return panel_for(session, game, seat.viewer.is_referee, now)


def frame_clock_panel(game: Game, clock: GameClock, referee: bool, shared: live.Shared) -> str:
    """The panel a live frame of a clock event carries (`clock_panel`): the referee's or any other seat's,
    rendered once per wake-up of the feed for each."""
    html: str = shared.get(
        ("clock-panel", referee, clock.as_of),
        lambda: templates.get_template("_clock_panel.html").render(
            **clock_panel(game, clock, referee).context()
        ),
    )
    return html
