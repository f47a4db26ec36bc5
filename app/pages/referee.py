"""The referee's board: every stand of both sides at a glance, in one compact block per battalion (or any
formation with stands of its own), the turn, and the log read as a game record. It follows the game live
from its stream (`?view=board`): each frame carries the pieces of the board its event changed (`board_view`),
so nothing is fetched per event; `/referee/changes?after=` answers the same pieces for a resync."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache, cached_property
from typing import Annotated, Any

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, Response
from jinja2 import meta
from pydantic import ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app.core import live
from app.core.config import Settings
from app.core.routing import Router
from app.core.touched import logged_kind, touched_units, touches_game
from app.data.changes import UnitCounted, UnitSet, changes_in
from app.data.models import Game
from app.data.numbers import whole_number
from app.data.schemas_answers import LoggedEvent
from app.data.schemas_clock import ClockLimits
from app.deps import DIGITS, GameId, NowDep, SessionDep, SettingsDep, cursor
from app.errors import Unauthorized
from app.pages import clock_panel, game_record, score_panel
from app.pages.common import is_htmx
from app.pages.refused import PageRoute, PostedForm, Refusal, posted
from app.pages.scenario_drafts import refused
from app.pages.seats import Seat, game_page, game_seat
from app.pages.secret_objective_form import Outcome, Posted, secret_form
from app.pages.secret_objective_form import give as give_secret
from app.pages.templates import humanise, templates
from app.services import acts, fireplans, games, markers, result, seats, tournaments, turns
from app.services import clock as clock_service
from app.services import events as events_service
from app.services import templates as table_templates
from app.services.board import UnitRow, board_units, shared_units, unit_row
from app.services.score import touches_score
from app.services.seating import Viewer
from app.services.unit_names import display_names, full_names
from app.services.writing import game_write
from rules.core.acts import SetClockLimits
from rules.core.clock import MAX_GAME_MINUTES, MAX_TURN_MINUTES, Limits
from rules.core.game import GameRules
from rules.core.kit import badges
from rules.core.vocabulary import SIDES

router = Router(include_in_schema=False, route_class=PageRoute)

LOG_LENGTH = 40  # log entries the board shows; older ones are in the report
CHANGES_LIMIT = 60  # more new events than this at once (a long time offline): the whole board is resent
# Events that change the board's structure rather than stands: the whole board is resent.
STRUCTURE_KINDS = frozenset({"unit-added", "force-added", "game-created"})
# Changes that alter a block's head: its losses, and the state the rule set shows there (StateField.on_head).
HEAD_FIELDS = frozenset({"killed"})
# The events after which the referee's clock form is drawn anew: its limits set (or undone), the game over.
CLOCK_FORM_KINDS = frozenset({SetClockLimits.event, *clock_service.ENDED})


@dataclass
class Row:
    """One line of a block: a company (or any formation of stands only) and its stands, or the block's own
    stands (label None)."""

    label: str | None
    unit: UnitRow | None
    stands: list[UnitRow]


@dataclass
class Block:
    """A battalion (or a regiment, a brigade, an artillery group: any formation with stands of its own), or
    a lone stand at the top of a force (a counter without a group unit): `lone`, its head then the stand's
    name alone and its one stand what the board says of it (its words, badges and buttons), each shown once."""

    unit: UnitRow
    rows: list[Row] = field(default_factory=list)
    losses: dict[str, int] | None = None
    lone: bool = False


@dataclass
class Board:
    units: list[UnitRow]
    names: dict[int, str]
    full: dict[int, str]
    blocks: dict[str, list[Block]]
    block_of: dict[int, int]  # unit id -> the id of the block it is shown in
    labels: dict[int, str] = field(default_factory=dict)  # a stand's or row's name inside its block
    row_of: dict[int, int] = field(default_factory=dict)  # a row's unit and its stands -> the row's unit id
    rules: GameRules | None = None  # the game's (what the board says of a unit in words)
    variants: Mapping[str, str] = field(default_factory=dict)  # the game's readings of the rules

    def block(self, unit_id: int) -> Block | None:
        found = self.block_of.get(unit_id)
        return next((b for bs in self.blocks.values() for b in bs if b.unit.id == found), None)

    @cached_property
    def _by_id(self) -> dict[int | None, UnitRow]:
        return {u.id: u for u in self.units}

    @cached_property
    def _children(self) -> dict[int | None, list[UnitRow]]:
        children: dict[int | None, list[UnitRow]] = {}
        for u in self.units:
            children.setdefault(u.parent_id, []).append(u)
        return children

    def notes(self, u: UnitRow) -> tuple[tuple[str, str], ...]:
        """What the game's rule set says of a unit in words beside its badges (GameRules.board_notes)."""
        if self.rules is None:
            return ()
        parent = self._by_id.get(u.parent_id)
        return self.rules.board_notes(u, parent, self._children.get(u.id, []), self.variants)


def build_board(
    units: list[UnitRow],
    rules: GameRules,
    detail: Iterable[int] | None = None,
    variants: Mapping[str, str] | None = None,
) -> Board:
    """The board's blocks, each block's losses counted by the game's `rules` (read under `variants`). `detail`:
    the units whose full names and block losses are needed (all by default; the live changes need only those
    of the units they show)."""
    wanted = None if detail is None else set(detail)
    children: dict[int | None, list[UnitRow]] = {}
    for u in units:
        children.setdefault(u.parent_id, []).append(u)
    is_group = {u.id for u in units if children.get(u.id)}
    blocks: dict[str, list[Block]] = {side: [] for side in SIDES}
    block_of: dict[int, int] = {}
    row_of: dict[int, int] = {}

    def stands_only(u: UnitRow) -> bool:
        return u.id in is_group and all(c.id not in is_group for c in children[u.id])

    def visit(u: UnitRow) -> None:
        kids = children.get(u.id, [])
        own = [c for c in kids if c.id not in is_group]
        rows = [Row(None, None, own)] if own else []
        rows += [Row(None, c, children[c.id]) for c in kids if stands_only(c)]
        if rows:
            block = Block(u, rows, _losses(u, units, rules) if wanted is None or u.id in wanted else None)
            blocks.setdefault(u.side, []).append(block)
            block_of[u.pk] = u.pk
            for row in rows:
                if row.unit is not None:
                    block_of[row.unit.pk] = u.pk
                    row_of[row.unit.pk] = row.unit.pk
                for s in row.stands:
                    block_of[s.pk] = u.pk
                    if row.unit is not None:
                        row_of[s.pk] = row.unit.pk
        for c in kids:
            if c.id in is_group and not stands_only(c):
                visit(c)

    for root in children.get(None, []):
        if root.id in is_group:
            visit(root)
        else:  # a lone stand at the top of a force
            blocks.setdefault(root.side, []).append(Block(root, [Row(None, None, [root])], lone=True))
            block_of[root.pk] = root.pk
    names = display_names(units)
    labels: dict[int, str] = {}
    for bs in blocks.values():
        for b in bs:
            block_name = names[b.unit.pk]
            for row in b.rows:
                row_name = names[row.unit.pk] if row.unit is not None else block_name
                if row.unit is not None:
                    row.label = labels[row.unit.pk] = _inside(row_name, block_name)
                for s in row.stands:
                    # A lone stand is named by its block's head: inside, nothing more to tell it apart.
                    labels[s.pk] = "" if b.lone else _inside(names[s.pk], row_name, block_name)
    return Board(
        units, names, full_names(units, wanted), blocks, block_of, labels, row_of, rules, variants or {}
    )


def _losses(u: UnitRow, units: list[UnitRow], rules: GameRules) -> dict[str, int] | None:
    """A block head's losses as its rule set counts them (None: it counts none)."""
    total, lost = rules.losses(u, units)
    if not total:
        return None
    if not rules.book.tests_losses:
        return {"lost": lost, "total": total}
    return {"lost": lost, "total": total, "half": -(-total // 2), "three_quarters": -(-3 * total // 4)}


def _inside(name: str, *containers: str) -> str:
    """A name shortened to what tells it apart inside its container ("1/1/2 Coy Plt 3" in "1/1/2 Coy" is
    "Plt 3"; "1/1/2 Coy" in "1/1 Bn" is "2 Coy")."""
    for container in containers:
        if container and name.startswith(container + " "):
            return name[len(container) + 1 :]
    return name.rsplit("/", 1)[-1] if "/" in name else name


def markers_allowed(game: Game) -> list[str]:
    """The sides whose stands may take a suppression marker now (none in set-up): the board hides "+S"."""
    rules = markers.rules_of(game)
    return [
        side
        for side in SIDES
        if rules.refusal(game.status, game.period, turns.position(game), "place-markers", side, None, [])
        is None
    ]


def _roles(seat: Seat) -> list[str]:
    return ["referee", *SIDES] if seat.viewer.is_referee else [seat.viewer.role]


def _common(session: Session, game: Game, board: Board, with_turn: bool = True) -> dict[str, Any]:
    return {**_game_now(session, game, with_turn), "board": board, "record": _record(board, game)}


def _game_now(
    session: Session, game: Game, with_turn: bool, log: tuple[int, Iterable[int]] | None = None
) -> dict[str, Any]:
    """What the board shows of the game itself, the same for every viewer; `log`: its last die roll and the
    entries undone as a kept board knows them (else read)."""
    last_roll, undone = log or (
        events_service.last_roll_id(session, game.pk),
        events_service.reversed_ids(session, game.pk),
    )
    return {
        "turn": result.turn_now(session, game) if with_turn else None,
        # A finished game's result, said first in its turn panel (issue 62).
        "result_line": result.game_result(session, game.pk)
        if with_turn and game.status == "finished"
        else None,
        # At an event's table, its result for both seats to confirm, one tap from the board's "Game over".
        "event_table": tournaments.table_link(session, game.pk)
        if with_turn and game.status == "finished"
        else None,
        "turn_badges": badges(
            markers.rules_of(game).book.kit, game.state
        ),  # the rule set's values set, in words
        # In set-up, the sides whose fire plans starting the game locks as they stand (said by its button: a
        # newcomer read "lock the attacker's fire plan" under Next as a step of its own, not what Start does).
        "start_locks": [s.side for s in seats.sides(session, game.pk) if not s.plan_locked]
        if with_turn and game.status == "setup" and not fireplans.each_turn(game)
        else [],
        "markers_ok": markers_allowed(game),
        "last_roll": last_roll,
        "undone": set(undone),
        "templates_on_table": table_templates.templates_of(game),
    }


def _record(board: Board, game: Game) -> game_record.Record:
    return game_record.Record(board.names, {u.pk: u for u in board.units}, markers.rules_of(game))


def _board_page(
    request: Request,
    session: Session,
    settings: Settings,
    game_id: int,
    now: datetime,
    give: Posted | None = None,
    refused: Outcome | None = None,
) -> Response:
    """The board page as this seat sees it; with `give`, the referee's secret objective form posted first
    (app.pages.secret_objective_form), or `refused` by its form model: htmx swaps the form's fragment alone, a
    plain post is shown the whole board again (a refusal's 4xx with it: htmx swaps only a 2xx, so the refusal is
    in the fragment)."""
    outcome = refused or Outcome()
    posting = give is not None or refused is not None

    def build(game: Game, seat: Seat) -> dict[str, Any]:
        nonlocal outcome
        if posting:  # a seat: 403, before the form is read or its refusal said (the form is the referee's)
            seat.viewer.require_referee("give a secret objective")
        if give is not None:
            outcome = give_secret(session, game_id, seat.viewer, give)
            session.expire_all()
            game = games.get_game(session, game_id)
        shown = {"secret_form": secret_form(session, game, seat.viewer, outcome)}
        if posting and is_htmx(request):
            return shown
        roles = _roles(seat)
        events = events_service.list_events(session, game_id, roles, 0, 100_000)
        board = build_board(board_units(session, game_id), markers.rules_of(game), variants=game.variants)
        return {
            **_common(session, game, board),
            **shown,
            "events": [events_service.event_dict(e, roles) for e in reversed(events[-LOG_LENGTH:])],
            "upto": events[-1].id if events else 0,
            # The clock as set, for the referee's form that sets it (issue 64; drawn anew by the live changes).
            "clock_set": clock_service.game_clock(session, game).limits if seat.viewer.is_referee else None,
            "clock_sides": markers.rules_of(game).book.sides,
            "clock_panel": clock_panel.panel_for(session, game, seat.viewer.is_referee, now),
        }

    fragment = "_secret_objective.html" if posting else "_referee_board.html"
    page = game_page(request, session, settings, game_id, "referee.html", fragment, build)
    if page.status_code == 200 and not is_htmx(request):
        page.status_code = outcome.status
    return page


@router.get("/games/{game_id}/referee", response_class=HTMLResponse)
def referee_page(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep, now: NowDep
) -> Response:
    return _board_page(request, session, settings, game_id, now)


def _secret_refused(request: Request, session: Session, settings: Settings, refused: Refusal) -> Response:
    """The board again, the form's refusal (a field past its bound) in its fragment, what was typed kept."""
    typed = Posted.model_construct(
        None, **{k: v for k, v in refused.typed.items() if k in Posted.model_fields}
    )
    outcome = Outcome(error=refused.said, status=refused.status, posted=typed)
    game_id, now = int(request.path_params["game_id"]), request.app.state.clock()
    return _board_page(request, session, settings, game_id, now, refused=outcome)


@posted(router, "/games/{game_id}/referee/secret-objectives", _secret_refused)
def give_secret_objective(
    game_id: GameId,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    now: NowDep,
    given: Annotated[Posted, Form()],
) -> Response:
    """The referee gives a side a secret objective from the board's form (app.pages.secret_objective_form)."""
    return _board_page(request, session, settings, game_id, now, given)


# The clock form's answer to limits set as they stood: no act, nothing logged.
NOTHING_CHANGED = "Nothing changed: the clock was already set so."
# A limit's unit as its select sends it (_macros.html clock_limit); none sent: minutes.
MINUTES, SECONDS = "60", "1"


def _seconds(form: FormData, name: str) -> int | str | None:
    """A limit of the clock form as seconds: its number times its unit's seconds (the unit's select: 60 or 1),
    none where left empty; anything but a whole number left as typed, for ClockLimits to refuse naming it."""
    typed = str(form.get(name) or "").strip()
    number = whole_number(typed, 1_000_000)
    if number is None:
        return typed or None
    return number * (1 if form.get(f"{name}_unit") == SECONDS else 60)


def _limit_words(name: str) -> str:
    """A limit of the clock form (its field's name: game_<side>, turn_<side>, end_under) as its label names it."""
    kind, _, side = name.partition("_")
    if kind == "end":
        return "The time left that ends the game"
    return f"{humanise(side)}, {'each turn' if kind == 'turn' else 'for the game'}"


def _limit_refused(e: ValidationError) -> str:
    """The first limit ClockLimits refused, named as the form labels it, with the numbers it takes."""
    loc = e.errors()[0]["loc"]
    most = MAX_TURN_MINUTES if loc[0] == "turn_seconds" else MAX_GAME_MINUTES
    which = _limit_words(f"{str(loc[0]).removesuffix('_seconds')}_{loc[1]}" if len(loc) > 1 else "end_under")
    return f"{which}: a whole number from 1 to {most:,} minutes ({most * 60:,} seconds)."


def clock_said(limits: Limits) -> str:
    """The clock form's line once its limits are set: what they are, in the story's words."""
    return f"Clock set: {clock_service.settings_told(limits)}."


@router.post("/games/{game_id}/referee/clock", response_class=HTMLResponse)
def set_clock(
    game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep, form: PostedForm
) -> Response:
    """The referee board's clock form (`clock_form` in _referee_parts.html, posted by htmx) set as PUT
    /api/v1/games/{id}/clock/limits sets it, one act through the pipeline; its answer the form again, as set, open,
    with the panel's own line saying what was set beside its button (the newcomer pass: on a phone the form folded
    with nothing in sight saying it took). A refusal is the page's notice (app/guard/notice.py); the log's entry
    and its Undo come live."""
    seat = game_seat(request, session, settings, game_id)
    if seat is None:
        raise Unauthorized("open this game with its referee token first")
    sides = markers.rules_of(games.get_game(session, game_id)).book.sides
    # A unit the form's select does not offer is refused, not read as minutes (the hostile pass: "3600" set
    # minutes), as the new game's form refuses it (app.pages.games).
    names = [*(f"game_{s}" for s in sides), *(f"turn_{s}" for s in sides), "end_under"]
    odd_unit = next((n for n in names if form.get(f"{n}_unit", MINUTES) not in (MINUTES, SECONDS)), None)
    if odd_unit is not None:
        return refused(f"{_limit_words(odd_unit)}: its unit is min or s.", 422)
    # Every limit's box is on the board's form, empty for none: a body short of one (another content type read as
    # an empty form, or one box alone) is refused naming the first missing, not read as no limit there (the hostile
    # passes: none of them, then one empty box alone, cleared every limit with a 200).
    missing = next((n for n in names if n not in form), None)
    if missing is not None:
        return refused(f"{_limit_words(missing)}: missing from the form.", 422)
    try:
        body = ClockLimits.model_validate(
            {
                "game_seconds": {s: _seconds(form, f"game_{s}") for s in sides},
                "turn_seconds": {s: _seconds(form, f"turn_{s}") for s in sides},
                "dispute_pause": "dispute_pause" in form,
                "finish_act": "finish_act" in form,
                "end_under_seconds": _seconds(form, "end_under"),
            }
        )
    except ValidationError as e:  # a limit past the clock's longest (its box has no max) or not a number
        return refused(_limit_refused(e), 422)
    limits = clock_service.limits_of(body.model_dump(), sides)
    act = SetClockLimits(**clock_service.payload(limits))
    with game_write(session, game_id) as game:
        # The limits as they stand, set again, are no act (the hostile pass: each such tap logged a new entry), where
        # the pipeline would take the act: else its refusal (a seat's, a game over) is answered as before.
        standing = clock_service.game_clock(session, game).limits
        unchanged = clock_service.same_limits(standing, limits, sides)
        if unchanged and acts.refusal(session, game, seat.viewer, act) is None:
            said = NOTHING_CHANGED
        else:
            acts.play(session, game, seat.viewer, act)
            said = clock_said(limits)
    set_now = {
        "clock_set": clock_service.game_clock(session, game).limits,
        "clock_sides": sides,
        "clock_said": said,
        "game": game,
    }
    return templates.TemplateResponse(request, "_clock_set.html", set_now)


def _needs_turn_panel(events: Sequence[LoggedEvent], rules: GameRules) -> bool:
    """The turn panel changes with the game (its turn, step, board) and with the state the turn's steps read
    (a morale test falling due)."""
    read = {f.name for f in rules.book.state_fields if f.on_turn}
    for ev in events:
        if touches_game(ev):
            return True
        if any(c.field in read for c in changes_in(ev["payload"])):
            return True
    return False


# Changes to these reshape the board for other units too (names, the force tree): the whole board is read.
TREE_FIELDS = frozenset({"name", "parent_id", "level", "kind", "side", "ref", "is_command"})
EVERY_ROLE = ["referee", *SIDES]


def _reshapes(event: LoggedEvent) -> bool:
    """Whether an event (as the referee reads it) may change more of the board than the units it names: new
    units, the game itself (a turn may change stands it does not name), a name or a place in the tree."""
    kind = logged_kind(event)
    if kind in STRUCTURE_KINDS or event["kind"] in STRUCTURE_KINDS or touches_game(event):
        return True
    return any(c.field in TREE_FIELDS for c in changes_in(event["payload"]))


class _Skeleton:
    """The board's shape as of a full read: its blocks, names and labels (which change only with the force
    tree or a name: a full read again), and every unit's full name. Its rows' state is as old as the read: the
    pieces take each unit's current row."""

    def __init__(self, rows: list[UnitRow], rules: GameRules) -> None:
        self.board = build_board(rows, rules, ())
        self.shown = {
            s.id for bs in self.board.blocks.values() for b in bs for row in b.rows for s in row.stands
        }
        self.full = full_names(rows)  # every unit's, once: an event's pieces then name theirs for free


class _Kept:
    """A feed's board between events (`live.Feed.kept`): every unit's row as of event `upto`, the board's
    shape, and what the board reads of the log (its last die roll, the entries undone). An event that changes
    only the stands it names re-reads those rows alone; one that may reshape the board (new units, a name, the
    turn), all of them (the board re-read every unit and rebuilt itself on every event, issue 35). The events
    are the feed read's where it reaches back to `upto` (`live.Shared.since`), else read."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.rows: list[UnitRow] = []
        self.index: dict[int, int] = {}
        self.skeleton: _Skeleton | None = None
        self.upto = -1  # nothing read yet
        self.last_roll = 0
        self.undone: set[int] = set()
        self.full_reads = 0

    def units(self, session: Session, game: Game, shared: live.Shared | None = None) -> _Board:
        with self.lock:
            self._sync(session, game.pk, shared or live.Shared())
            if self.skeleton is None:
                self.skeleton = _Skeleton(self.rows, markers.rules_of(game))
            return _Board(list(self.rows), self.skeleton, self.last_roll, frozenset(self.undone))

    def _read_all(self, session: Session, game_id: int) -> None:
        self.upto = events_service.newest_event_id(session, game_id)  # first: the rows are as new or newer
        self.rows = board_units(session, game_id)
        self.index = {u.id: i for i, u in enumerate(self.rows)}
        self.skeleton = None
        self.last_roll = events_service.last_roll_id(session, game_id)
        self.undone = events_service.reversed_ids(session, game_id)
        self.full_reads += 1

    def _sync(self, session: Session, game_id: int, shared: live.Shared) -> None:
        if self.upto < 0:
            self._read_all(session, game_id)
            return
        new = shared.since(self.upto)
        if new is None:
            new = events_service.list_events(session, game_id, EVERY_ROLE, self.upto, CHANGES_LIMIT + 1)
        if not new:
            return
        seen = [events_service.event_dict(e, EVERY_ROLE) for e in new]
        touched = set().union(*(touched_units(e) for e in seen))
        if len(new) > CHANGES_LIMIT or any(_reshapes(e) for e in seen) or not touched <= self.index.keys():
            self._read_all(session, game_id)
            return
        for unit in shared_units(session, game_id, touched, shared):
            self.rows[self.index[unit.pk]] = unit_row(unit)
        rolls = [e.pk for e in new if e.kind in events_service.ROLL_KINDS]
        self.last_roll = max([self.last_roll, *rolls])
        self.undone |= {e.reverses_id for e in new if e.reverses_id is not None}
        self.upto = seen[-1]["id"]


@dataclass(frozen=True)
class _Board:
    """The kept board as one rendering reads it."""

    rows: list[UnitRow]
    skeleton: _Skeleton
    last_roll: int
    undone: frozenset[int]


class _Now:
    """The board as it now is, read once for every viewer of the events rendered together (`shared`: the live
    frames' render keys share it; its `kept` the feed's board between events)."""

    def __init__(self, session: Session, game: Game, shared: live.Shared | None = None) -> None:
        self.session = session
        self.game = game
        self.shared = shared or live.Shared()

    def units(self) -> _Board:
        kept: _Kept = self.shared.kept.get("board", _Kept)
        got: _Board = self.shared.get("units", lambda: kept.units(self.session, self.game, self.shared))
        return got

    def pieces(self, touched: set[int], losses: set[int], with_turn: bool) -> dict[str, Any]:
        """The stands in `touched`, the heads of the blocks of `losses`, and what the board shows of the game."""
        key = ("pieces", frozenset(touched), frozenset(losses), with_turn)
        got: dict[str, Any] = self.shared.get(key, lambda: self._pieces(touched, losses, with_turn))
        return got

    def _pieces(self, touched: set[int], losses: set[int], with_turn: bool) -> dict[str, Any]:
        rules = markers.rules_of(self.game)
        if not touched:  # events that touch no unit (the turn, templates, fire plans) need no stand at all
            board, stands, rows, heads, log = build_board([], rules, ()), [], [], [], None
        else:
            kept = self.units()
            units, shape, log = kept.rows, kept.skeleton, (kept.last_roll, kept.undone)
            by_id: dict[int | None, UnitRow] = {u.id: u for u in units}
            # The shape's names and labels, each unit's current row: a block head's losses counted anew.
            shown = shape.board
            board = Board(
                units,
                shown.names,
                shape.full,
                {},
                shown.block_of,
                shown.labels,
                shown.row_of,
                rules,
                self.game.variants,
            )
            stands = [by_id[i] for i in sorted(touched) if i in shape.shown and i in by_id]
            # A row says what its unit's rule set reads of it, its stands and its formation: a change to any.
            row_ids = {r for i in touched if (r := shown.row_of.get(i)) is not None}
            row_ids |= {r for r in set(shown.row_of.values()) if shown.block_of.get(r) in touched}
            rows = [by_id[i] for i in sorted(row_ids) if i in by_id]
            by_block = {
                bid: Block(by_id[bid], [], _losses(by_id[bid], units, rules), lone=bid in shape.shown)
                for uid in sorted(losses)
                if (bid := shape.board.block_of.get(uid)) is not None and bid in by_id
            }
            heads = list(by_block.values())
        game_now = self.shared.get(
            ("game", with_turn), lambda: _game_now(self.session, self.game, with_turn, log)
        )
        return {
            **game_now,
            "board": board,
            "record": _record(board, self.game),
            "stands": stands,
            "rows": rows,
            "heads": heads,
            "with_turn": with_turn,
        }


def changes_context(now: _Now, roles: list[str], events: list[LoggedEvent], after: int) -> dict[str, Any]:
    """What changed on the board after event `after` with `events` (as `roles` read them): the stands and
    block heads they touched, their log entries (and the entries they undid), and the turn panel when the
    turn moved on; or a reload of the whole board."""
    if len(events) > CHANGES_LIMIT or any(e["kind"] in STRUCTURE_KINDS for e in events):
        return {"reload": True, "upto": after}
    if not events:  # up to date already (a resync, or an event fetched by an earlier call)
        return {"reload": False, "nothing": True, "upto": after}
    touched = set().union(*(touched_units(e) for e in events))
    rules = markers.rules_of(now.game)
    head_fields = HEAD_FIELDS | {f.name for f in rules.book.state_fields if f.on_head}
    # Block heads count losses and show a morale test due: re-sent only when those can have changed.
    losses = {
        c.unit
        for e in events
        for c in changes_in(e["payload"])
        if isinstance(c, UnitSet | UnitCounted) and c.field in head_fields
    }
    again = []  # entries shown before that the new events undid
    undone = {u for e in events if e["kind"] == "undo" and isinstance(u := e["payload"].get("undoes"), int)}
    for undone_id in sorted(undone):
        if undone_id <= after:
            ev = events_service.get_event(now.session, now.game.pk, undone_id)
            if ev.visibility in ("all", *roles):
                again.append(events_service.event_dict(ev, roles))
    return {
        **now.pieces(touched, losses, _needs_turn_panel(events, rules)),
        **_clock_form(now, roles, events),
        "reload": False,
        "upto": events[-1]["id"],
        "new_events": list(reversed(events)),
        "again": again,
    }


def _clock_form(now: _Now, roles: list[str], events: list[LoggedEvent]) -> dict[str, object]:
    """The referee's form that sets the clock, drawn anew as set after its limits are set or undone (the game
    over: gone); a seat has none. Not in every frame the clock reads: a turn's frames keep their bytes."""
    if "referee" not in roles or not any(logged_kind(e) in CLOCK_FORM_KINDS for e in events):
        return {"clock_set": None}
    limits = now.shared.get("clock-limits", lambda: clock_service.game_clock(now.session, now.game).limits)
    # The frame of limits set says so as the form's own answer does (its line beside the button, in sight where
    # the device that set them tapped): the frame swaps the form that answer drew, so the line stays.
    newest = next(e for e in reversed(events) if logged_kind(e) in CLOCK_FORM_KINDS)
    said = clock_said(limits) if newest["kind"] == SetClockLimits.event else ""
    return {"clock_set": limits, "clock_sides": markers.rules_of(now.game).book.sides, "clock_said": said}


@router.get("/games/{game_id}/referee/changes", response_class=HTMLResponse)
def referee_changes(
    game_id: GameId,
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    after: Annotated[int, DIGITS, cursor("The last event the board shows")],
) -> Response:
    """What changed on the board since event `after`: what a resync, a reconnect or a frame too big to carry
    it reads (each live frame carries its own, `board_view`)."""

    def build(game: Game, seat: Seat) -> dict[str, Any]:
        roles = _roles(seat)
        rows = events_service.list_events(session, game_id, roles, after, CHANGES_LIMIT + 1)
        if not rows and after > events_service.newest_event_id(session, game_id):
            return {"reload": True, "upto": after}  # a cursor ahead of the log: the board read anew
        return changes_context(
            _Now(session, game), roles, [events_service.event_dict(e, roles) for e in rows], after
        )

    return game_page(
        request, session, settings, game_id, "_referee_changes.html", "_referee_changes.html", build
    )


@live.view_warm("board")
def board_warm(session: Session, game: Game, kept: live.Shared) -> None:
    """As a board's stream opens: the feed's board read (once per feed) and the frames' templates compiled."""
    kept.get("board", _Kept).units(session, game)
    for name in (*_with_imports("_referee_changes.html"), *_with_imports("_score_panel.html")):
        templates.get_template(name)


@cache
def _with_imports(name: str) -> tuple[str, ...]:
    """A template and every template it imports or includes, all the way down: Jinja compiles those only as
    the template first renders (the macros of the board's parts: ~25 ms, in the first live frame otherwise)."""
    env = templates.env
    source = env.loader.get_source(env, name)[0] if env.loader else ""
    found = meta.find_referenced_templates(env.parse(source))
    return (name, *(n for ref in found if ref for n in _with_imports(ref)))


@live.view("board")
def board_view(
    session: Session, game: Game, viewer: Viewer, events: list[LoggedEvent], shared: live.Shared
) -> list[dict[str, Any]]:
    """The live frames' part for the board: each event's changes to the board, rendered as
    `/referee/changes?after=<the id before it>` would answer them to this viewer, and where it may change the
    score the score's panels for this seat (app.pages.score_panel.frame_panel)."""
    now = _Now(session, game, shared)
    roles = events_service.roles_of(viewer)
    page = templates.get_template("_referee_changes.html")
    parts = [
        {"board": page.render(game=game, role=viewer.role, **changes_context(now, roles, [e], e["id"] - 1))}
        for e in events
    ]
    at = clock_service.logged_at(events) if events else None
    for e, part in zip(events, parts, strict=True):
        if touches_score(e) and at is not None:
            panel = score_panel.frame_panel(session, game, viewer.role, "board", shared, at)
            if panel is not None:  # none where they show what this seat's streams were last sent
                part["score_panel"] = panel
    return parts
