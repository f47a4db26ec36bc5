"""The table map's own cards, rendered by the server per seat (issue 67): a stand card's head (its names, side,
markers and state as this seat may read them, and the map's buttons: a marker, Move, Measure), the chooser
of the stands under one tap, and a template's card. frontend/static/js/table-map.js keeps the drawing and the
taps and puts these in the card; the service worker keeps the last copy of each for the seat
(frontend/static/sw.js), so a card opened before still shows while the server cannot be reached. The acts
under the head are app/pages/stand_acts.py's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Path, Query
from sqlmodel import Session

from app.core.routing import Router
from app.data.bounded import INT32_MAX
from app.data.models import Game
from app.deps import SessionDep
from app.pages.game_record import Record
from app.pages.panels import panel_page
from app.pages.seats import Seat
from app.pages.templates import humanise, rule_state
from app.services import events as events_service
from app.services import undo as undo_service
from app.services import units as units_service
from app.services.card import MarkerOffer, formations, marker_offers, move_refusals, offers
from app.services.markers import kept_of, rules_of, table_read
from app.services.seating import Viewer
from app.services.templates import templates_of
from rules.core.errors import NotFoundError

__all__ = ["StandChoice", "StandHead", "TemplateCard", "stand_choice", "stand_head", "template_card"]

router = Router()

CHOICES = 4  # the stands a tap between them offers at most (table-map.js asks for the nearest few)
StandIds = Annotated[int, Path(ge=1, le=INT32_MAX)]


@dataclass(frozen=True)
class StandHead:
    """The head of a stand's card for one seat: its names, side and kind, its markers (`markers` None for a
    rule set without them), its state's line, and which of the map's buttons it offers."""

    unit_id: int
    name: str
    path: str
    side: str
    side_line: str
    markers: int | None
    markers_line: str
    states_line: str
    acts: bool  # the stand may be acted on (not destroyed, the game not over)
    own: bool  # the seat may act for its side (Recover, Move)
    # Its company and battalion the seat may move as one ("Move its company"): (formation id, level, the
    # pipeline's sentence while it would refuse the move, else ""), each with more than one stand on the table
    # (app.services.card.formations, as the card's acts judge them).
    formations: tuple[tuple[int, str, str], ...] = ()
    move_refused: str = ""  # the pipeline's sentence while it would refuse the stand's Move, else ""
    # Its marker buttons, each as the act pipeline judges it for the seat now (app.services.card.marker_offers):
    # one the seat may never play is not drawn, one refused for now is greyed with the pipeline's sentence.
    marker_acts: tuple[MarkerOffer, ...] = ()
    markers_api: str = ""  # where its marker buttons write (POST, through the outbox: api-action.js)
    # Its newest move or marker the seat may take back now (app.services.undo.card_undo): the event the Undo
    # takes back and its words ("Undo: moved 25 cm"), else None (session 23's newcomer found no Undo).
    undo_event: int | None = None
    undo_label: str = ""

    def context(self) -> dict[str, object]:
        """The context `_stand_head.html` renders."""
        return {"head": self}


def stand_head(session: Session, game: Game, viewer: Viewer, unit_id: int) -> StandHead:
    """The head of stand `unit_id`'s card as `viewer` reads the stand (the other side's secrets at their
    defaults, as the units API reads them)."""
    table = table_read(session, game)  # one read, as the worker keeps the game's units: the stand among them
    row = table.kept.rows.get(unit_id)
    if row is None:  # one of no game: get_unit's 422 naming it
        units_service.get_unit(session, game.pk, unit_id, "unit_id")
    assert row is not None  # else get_unit refused it
    u = table.kept.by_id[unit_id]
    read: dict[str, Any] = units_service.reader(game, viewer)(row)
    full, short, plain = table.kept.listed_names[u.id]
    state = rule_state(game.ruleset)
    marker = state.marker
    count = int(read.get(marker.name) or 0) if marker else None
    noun = marker.label.lower() if marker else ""
    states = [
        f"{f.label}: {read[f.name]}" if f.kind == "count" else f.label
        for f in state.card
        if f is not marker and read.get(f.name)
    ]
    acts = not u.killed and game.status != "finished"
    own = viewer.may_act_for(u.side)
    # The stand's acts worked out once for its marker buttons and its moves (the rule set's card asked once), and
    # judged only where the head draws them: a destroyed stand's, a finished game's, had its markers judged.
    offered = offers(table, game, u.id) if acts else []
    marker_acts = marker_offers(session, game, viewer, u.id, table, offered) if acts and marker else []
    refused = move_refusals(session, game, viewer, u.id, table, offered) if acts and own else {}
    undone = undo_service.card_undo(session, game, viewer, u.id, table.kept) if acts else None
    if undone is not None:
        names = {i: n[1] for i, n in table.kept.listed_names.items()}
        record = Record(names, table.kept.by_id, rules_of(game))
        what = record.entry(events_service.event_dict(undone, events_service.roles_of(viewer))).what
    return StandHead(
        unit_id=u.id,
        name=plain or short,
        path=f"{short} · {full}" if plain else full,
        side=u.side,
        side_line=f"{humanise(u.side)} · {humanise(u.kind or u.level)}",
        markers=count,
        markers_line=(f"{count} {noun} marker{'s' if count > 1 else ''}" if count else f"No {noun} markers")
        if count is not None
        else "",
        states_line=" · ".join(["Destroyed"] * bool(u.killed) + states) or "Nothing else to note",
        acts=acts,
        own=own,
        formations=tuple((f.id, f.level, refused.get(f.id, "")) for f in formations(table.units, u))
        if acts and own
        else (),
        move_refused=refused.get(u.id, ""),
        marker_acts=tuple(marker_acts),
        markers_api=f"/api/v1/games/{game.pk}/units/{u.id}/markers",
        undo_event=undone.pk if undone is not None else None,
        undo_label=f"Undo: {what}" if undone is not None else "",
    )


@dataclass(frozen=True)
class TurnChip:
    """The turn on the map's chip: its words, and as data its turn, its step's index, the side to move while
    the game is played (none outside play: the server refuses a draw before the start and after the end, and
    table-cards.js offers the draw to that side alone) and the game's status (map.css shows "Edit the table" in
    set-up alone, and no "Templates" once the game is over, which refuses them)."""

    turn: int
    step: int | None
    side_to_move: str
    words: str
    status: str

    def context(self) -> dict[str, object]:
        """The context `_map_turn.html` renders."""
        return {"chip": self}


def turn_chip(game: Game) -> TurnChip:
    """The map's turn chip of `game`, the same for every seat (the rules' word for a turn: "Bound 1 · ...")."""
    word = rule_state(game.ruleset).turn_word
    if game.status == "setup" and not game.turn:
        words = "Setting up"
    elif game.status == "finished":
        words = "Game over"
    else:
        words = f"{word[:1].upper()}{word[1:]} {game.turn} · {humanise(game.side_to_move or '')} to move"
    playing = game.status == "playing"
    return TurnChip(game.turn, game.step, (game.side_to_move or "") if playing else "", words, game.status)


@panel_page(router, "/games/{game_id}/map/turn", "_map_turn.html")
def turn_chip_page(game: Game, seat: Seat) -> TurnChip:
    """The map's turn chip (`turn_chip`), as a fragment: read as the map reads the game's state anew."""
    return turn_chip(game)


@panel_page(router, "/games/{game_id}/map/units/{unit_id}/head", "_stand_head.html")
def stand_head_page(game: Game, seat: Seat, session: SessionDep, unit_id: StandIds) -> StandHead:
    """The head of a stand's card for this seat (`stand_head`), as a fragment."""
    return stand_head(session, game, seat.viewer, unit_id)


@dataclass(frozen=True)
class Choice:
    unit_id: int
    side: str
    label: str


@dataclass(frozen=True)
class StandChoice:
    """The stands a tap between them may have meant, nearest first, a button each."""

    choices: tuple[Choice, ...]

    def context(self) -> dict[str, object]:
        """The context `_stand_choice.html` renders."""
        return {"stand_choice": self}


def stand_choice(session: Session, game: Game, unit_ids: list[int]) -> StandChoice:
    """The stands `unit_ids` of this game in that order (the map's, nearest the finger first), each by its
    short name and side; an id the game has not is a 422 naming the field."""
    kept = kept_of(session, game)  # the game's units as the worker keeps them, named there once
    by_id, names = kept.by_id, kept.listed_names
    missing = next((i for i in unit_ids if i not in by_id), None)
    if missing is not None:
        raise units_service.unknown_unit("stand", game.pk, missing)

    def label(i: int) -> str:  # its side once: a short name most often starts with it (the newcomer pass)
        short, side = names[i][1], humanise(by_id[i].side)
        return short if short.startswith(side) else f"{short} · {side}"

    return StandChoice(tuple(Choice(i, by_id[i].side, label(i)) for i in dict.fromkeys(unit_ids)))


@panel_page(router, "/games/{game_id}/map/choose", "_stand_choice.html")
def stand_choice_page(
    game: Game,
    seat: Seat,
    session: SessionDep,
    stand: Annotated[
        list[Annotated[int, Query(ge=1, le=INT32_MAX)]], Query(min_length=1, max_length=CHOICES)
    ],
) -> StandChoice:
    """The chooser of the stands under one tap (`stand_choice`), as a fragment."""
    return stand_choice(session, game, stand)


@dataclass(frozen=True)
class TemplateCard:
    """A template's card for one seat: its title, a line saying who may move it, and its buttons where the
    seat may (its coverage filled in below by table-coverage.js): each a write to `api`, the template's own
    URL, through the outbox (api-action.js), Turn 45° carrying the rotation it turns it to."""

    template_id: int
    title: str
    line: str
    movable: bool
    api: str = ""
    turned: float = 0.0  # the rotation "Turn 45°" sets: 45 degrees on from where it lies

    def context(self) -> dict[str, object]:
        """The context `_template_card.html` renders."""
        return {"template_card": self}


def template_card(game: Game, viewer: Viewer, template_id: int) -> TemplateCard:
    """The card of template `template_id` on the table, as `viewer` may handle it."""
    t = next((x for x in templates_of(game) if x["id"] == template_id), None)
    if t is None:
        raise NotFoundError("template", str(template_id))
    over = game.status == "finished"
    movable = viewer.may_act_for(str(t["side"])) and not over
    line = (
        "Drag its label on the map to move it."
        if movable
        else "The game is over: it stays where it lies."
        if over
        else "The other side's template: only they and the referee move it."
    )
    return TemplateCard(
        template_id,
        f"{humanise(str(t['kind']))} · {humanise(str(t['side']))}",
        line,
        movable,
        f"/api/v1/games/{game.pk}/templates/{template_id}",
        (float(t["rotation"]) + 45) % 360,
    )


@panel_page(router, "/games/{game_id}/map/templates/{template_id}/card", "_template_card.html")
def template_card_page(
    game: Game, seat: Seat, template_id: Annotated[int, Path(ge=1, le=INT32_MAX)]
) -> TemplateCard:
    """A template's card for this seat (`template_card`), as a fragment."""
    return template_card(game, seat.viewer, template_id)
