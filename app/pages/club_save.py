"""The counter editor's form read back by the server (issue 67): the club's data as its rule set declares it and
the order of battle, posted by htmx as the form holds them (`_club_data.html`, `_club_order.html` name every input),
made into the scenario document (docs/scenario-format.md: `board` and the sides' counters) and saved through the
scenario service the API uses, so what is written is what the script once built. A refusal is answered in place,
one sentence naming the field (`_club_said.html`), as is the saved scenario's id (the start form's, and the next
save's: a stored scenario is replaced). The file the club shares is the same document, sent as a download."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import Depends, File, Form, Request, UploadFile
from fastapi.responses import Response
from pydantic import BaseModel, Field, ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app.core.config import Settings
from app.core.routing import Router
from app.data.bounded import Version
from app.data.models import Game, Unit
from app.data.schemas_scenario import ScenarioBoard, ScenarioIn
from app.data.schemas_unit_edits import UnitEdit, UnitIn
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import Conflict, Forbidden, Unauthorized, refusal_body
from app.guard import security
from app.pages.counter_editor import editor_context, takes_club
from app.pages.refused import (
    PageRefused,
    PageRoute,
    PostedForm,
    Refusal,
    Render,
    posted,
    server_organiser,
    status_of,
)
from app.pages.seats import Seat, game_seat
from app.pages.templates import templates
from app.sentences import MAX_DETAIL, error_words, field_names, sentence, short
from app.services import acts
from app.services import scenarios as scenarios_service
from app.services import units as units_service
from app.services import units_by_hand as by_hand
from app.services.seating import Viewer
from app.services.writing import game_write, unit_of_work
from rules.core.errors import NotFoundError, RulesError
from rules.registry import all_game_rules

# A list of places is typed separated by spaces, commas or semicolons; a pair's two places joined by a dash.
WORDS = re.compile(r"[\s,;]+")
PAIR = re.compile(r"[-/]")
# How many counters a form may post (a side's order of battle is tens): more is refused, naming the field.
MOST_COUNTERS = 400
# The fields a form of that many counters posts (Starlette's default of 1,000 refused a page of 119 counters it had
# rendered itself: the hostile pass): the club's data's few dozen and each counter's ten at most.
MOST_FIELDS = 200 + 10 * MOST_COUNTERS
router = Router(include_in_schema=False, route_class=PageRoute, form_limits={"max_fields": MOST_FIELDS})
# A value posted is at most this long; the document's own checks bound each field more closely.
MOST_CHARACTERS = 20_000
# A scenario file imported is read this far (a larger one is refused as not a scenario file's JSON).
MOST_FILE_BYTES = 2_000_000


def _words(text: str) -> list[str]:
    return [w for w in WORDS.split(text) if w]


# A whole number as a form's number input sends it (ASCII digits: Python's int() would take "１" and "1_0").
WHOLE = re.compile(r"-?[0-9]{1,9}")


def _number(text: str) -> int | str:
    """A whole number as typed, or the text itself for the document's checks to refuse naming its field."""
    return int(text) if WHOLE.fullmatch(text) else text


def _whole(text: str) -> int | None:
    """A hidden id or version as the page rendered it; anything else is none (a new counter, a stale page)."""
    return int(text) if WHOLE.fullmatch(text) and not text.startswith("-") else None


def club_values(specs: Sequence[Mapping[str, Any]], form: FormData) -> dict[str, object]:
    """What the form says of each club field, as the document's `board` keeps it; a field left empty is left
    out. Inputs are named `club.<field>` (a list, a number), `club.<field>.<kind>` (places by kind),
    `club.<field>.<i>` (a sequence) and `club.<field>.<i>.<column>` (rows)."""
    out: dict[str, object] = {}

    def said(name: str) -> str:
        value = form.get(name)
        return value.strip()[:MOST_CHARACTERS] if isinstance(value, str) else ""

    for f in specs:
        key = f"club.{f['name']}"
        kind = f["kind"]
        if kind == "places" and (places := _words(said(key))):
            out[f["name"]] = places
        elif kind == "pairs" and (pairs := _words(said(key))):
            out[f["name"]] = [PAIR.split(p) for p in pairs]
        elif kind == "places_by_kind":
            by: dict[str, list[str]] = {}
            for k in f["kinds"]:
                for place in _words(said(f"{key}.{k['value']}")):
                    by.setdefault(place, []).append(k["value"])
            if by:
                out[f["name"]] = by
        elif kind == "sequence":
            cells = [said(f"{key}.{i}") for i in range(f["length"])]
            if any(cells):
                out[f["name"]] = cells
        elif kind == "rows":
            grid = [[said(f"{key}.{i}.{c}") for c in range(len(f["columns"]))] for i in range(f["length"])]
            if any(cell for row in grid for cell in row):
                out[f["name"]] = [[_number(c) if c else None for c in row] for row in grid]
        elif kind == "number" and (text := said(key)):
            out[f["name"]] = _number(text)
    return out


@dataclass(frozen=True)
class PostedCounter:
    """A counter as the form posts it: its side, name and printed values, and, read from a game, its unit's id
    and the version it was read at."""

    n: str
    side: str
    name: str
    state: Mapping[str, int | str]
    unit_id: int | None = None
    version: int | None = None


class CountersRefused(PageRefused):
    """Counters no form could post: more than it holds, or one of a side it has not (session 23's hostile pass:
    a counter posted for the `referee` was dropped from the scenario without a word). Its text names the field,
    said after "Not saved: "."""


def posted_counters(editor: Mapping[str, Any], form: FormData) -> list[PostedCounter]:
    """The order of battle in the order of the form's rows (`counter.<n>.side`, `.name`, `.f.<field>`, `.unit`,
    `.version`); a value left empty is left out of the counter's state."""
    edits = {f["name"]: f["edit"] for f in editor["counter_fields"]}
    sides = [s["side"] for s in editor["sides"]]
    rows: dict[str, dict[str, str]] = {}
    for name, value in form.multi_items():
        what, _, rest = name.partition(".")
        n, _, part = rest.partition(".")
        if what == "counter" and isinstance(value, str) and part:
            rows.setdefault(n, {})[part] = value.strip()[:MOST_CHARACTERS]
            if len(rows) > MOST_COUNTERS:
                raise CountersRefused(f"counter: at most {MOST_COUNTERS} counters")
    out = []
    for n, row in rows.items():
        if row.get("side", "") not in sides:
            raise CountersRefused(f"counter {n[:8]}'s side: choose {' or '.join(sides)}")
        state: dict[str, int | str] = {}
        for field, edit in edits.items():
            value = row.get(f"f.{field}", "")
            if value:
                state[field] = _number(value) if edit == "number" else value
        unit, version = row.get("unit", ""), row.get("version", "")
        out.append(
            PostedCounter(
                n,
                row.get("side", ""),
                row.get("name", ""),
                state,
                _whole(unit),
                _whole(version),
            )
        )
    return out


class ClubForm(BaseModel):
    """The counter editor's own fields, each bounded (its organiser key read by `server_organiser`); the club's data
    and the order of battle are its rule set's, read from the form as posted (`PostedForm`: club_values,
    posted_counters)."""

    title: str = Field("", max_length=200)  # as a scenario's (ScenarioIn)
    scenario: str = Field("", max_length=64)  # the stored scenario this form replaces ("" a new one)
    shipped: bool = False  # the form was read from a scenario that ships (saved as the club's own)
    version: str = Field("", max_length=12)  # the game's version the page read (read by ClubPatch)


def scenario_document(
    editor: Mapping[str, Any], club: ClubForm, form: FormData, counters: Sequence[PostedCounter]
) -> dict[str, object]:
    """The scenario document the form holds: its title, the club's data as `board`, each side's counters (ids
    `<side>-<i>` in the form's order, a counter with no name its number); a stored scenario's id kept."""
    sides: dict[str, object] = {}
    for s in editor["sides"]:
        mine = [c for c in counters if c.side == s["side"]]
        forces = [
            {
                "id": f"{s['side']}-{i}",
                "name": c.name or str(i),
                "level": editor["level"],
                "kind": editor["level"],
                "state": dict(c.state),
            }
            for i, c in enumerate(mine, start=1)
        ]
        sides[s["side"]] = {"nationality": s["nation"], "forces": forces}
    return {
        "format": "firestep-scenario/1",
        **({"id": club.scenario} if club.scenario and not club.shipped else {}),
        "title": club.title.strip(),
        "ruleset": editor["ruleset"],
        "period": None,
        "table": dict(editor["table"]),
        "board": club_values(editor["fields"], form),
        "sides": sides,
    }


def _lowered(text: str) -> str:
    return text[:1].lower() + text[1:]


def detail(e: Exception) -> tuple[str, str]:
    """A refusal's field (or '') and its one sentence, as the API's answer names them (app.errors)."""
    if isinstance(e, RulesError | Conflict | Forbidden):
        body = refusal_body(e)
        return body.get("field", ""), body["detail"]
    if isinstance(e, ValidationError):
        first = e.errors()[0]
        loc, named = (
            first.get("loc", ()),
            set(field_names(first.get("loc", ()))),
        )  # a union's type tags left out
        return ".".join(str(p) for p in loc if isinstance(p, int) or p in named), error_words(first)
    if isinstance(e, NotFoundError | Unauthorized):
        return "", str(e.message)
    raise e


def field_words(
    field: str, editor: Mapping[str, Any], counters: Sequence[PostedCounter] = (), document: Any = None
) -> str:
    """A refused field's path in the form's own words ("" for none), as the page labels it: a club field by its
    title (`board.artillery_track.1` "Artillery Track 2"), a counter by its name and the value's label
    (`sides.defender.forces.9.state.hex` "RIR 262's hex"); a path the form has no words for as it is."""
    parts = field.split(".")
    if len(parts) >= 2 and parts[0] in ("board", "club"):
        spec = next((f for f in editor["fields"] if f["name"] == parts[1]), None)
        if spec is not None:  # as the form labels its inputs: "Artillery Track 2: Allied", "Turn Track 3"
            at = [int(p) for p in parts[2:4] if p.isdecimal()]
            if spec["kind"] not in ("rows", "sequence") or not at:
                return str(spec["title"])
            columns = spec.get("columns") or ()
            column = f": {columns[at[1]]}" if len(at) > 1 and at[1] < len(columns) else ""
            return f"{spec['title']} {at[0] + 1}{column}"
    if len(parts) >= 4 and parts[0] == "sides" and parts[2] == "forces" and parts[3].isdecimal():
        name = _counter_name(parts[1], int(parts[3]), counters, document)
        labels = {f["name"]: f["label"] for f in editor["counter_fields"]}
        value = parts[5] if len(parts) >= 6 and parts[4] == "state" else ""
        label = labels.get(value) or value.replace("_", " ")
        if name:
            return f"{name}'s {label.lower()}" if label else name
    return field


def _counter_name(side: str, i: int, counters: Sequence[PostedCounter], document: Any) -> str:
    """The name of a side's i-th counter (from 0), as the form posted it or the file holds it ("" none)."""
    mine = [c.name for c in counters if c.side == side]
    if not mine and isinstance(document, Mapping):
        forces = ((document.get("sides") or {}).get(side) or {}).get("forces") or []
        mine = [str(f.get("name") or "") for f in forces if isinstance(f, Mapping)]
    return str(mine[i])[:40] if 0 <= i < len(mine) else ""


def refusal(e: Exception, doing: str = "saved", words: Callable[[str], str] | None = None) -> str:
    """The refusal in one sentence naming its field in the form's words (`words`, else its path): `Not saved:
    RIR 262's attack: …`, within MAX_DETAIL: its words in brackets left out, then a long path named by its
    innermost parts (`…coordinates.0`: session 22's hostile pass read 125 characters of a polygon's), then its
    words cut short."""
    field, said = detail(e)
    field = words(field) if words is not None and field else field
    said = _lowered(said).rstrip(".")
    head = f"Not {doing}: "
    if (
        len(head) + len(field) + len(said) + 3 > MAX_DETAIL
    ):  # the words in brackets go first ("(its extent…)")
        said = re.sub(r" \([^()]*\)", "", said)
    parts, room = field.split("."), MAX_DETAIL - len(head) - len(said) - 3  # ": " and the full stop
    while len(parts) > 1 and len(".".join(parts)) >= room:
        parts.pop(0)
    named = ("…" if len(parts) < field.count(".") + 1 else "") + ".".join(parts)
    text = sentence(f"{head}{named}: {said}" if field else f"{head}{said}")
    return text if len(text) <= MAX_DETAIL else f"{short(text, MAX_DETAIL - 1)}."


def _said(
    request: Request,
    message: str,
    status: int = 200,
    scenario: str = "",
    title: str = "",
    focus: str = "",
    shipped: bool = False,
) -> Response:
    """The answer swapped in place of the message (and, saved, the scenario's id where the page keeps it);
    `focus` the id of the input to fix (the script focuses it); `shipped`: the page's mark of a shipped
    scenario, gone once saved as the club's own (only where the page has it: htmx logs a part with no target)."""
    said = {"message": message, "good": status < 400 and bool(scenario), "scenario": scenario, "title": title}
    return templates.TemplateResponse(
        request, "_club_said.html", {**said, "focus": focus, "shipped": shipped}, status_code=status
    )


def _unnamed(counters: Sequence[PostedCounter]) -> str:
    """The name input of the first counter with no name ('' when all have one)."""
    return next((f"club-c{c.n}-name" for c in counters if not c.name), "")


class Unfilled(PageRefused):
    """A field the form needs filled (a title, a counter's name): said with the id of its input to focus."""

    def __init__(self, message: str, focus: str) -> None:
        super().__init__(message)
        self.focus = focus


def not_done(doing: str, refused: Refusal) -> str:
    """An editor's refusal of a save (`doing`: "saved", "imported"): the organiser's key, a field of the form or
    counters no form could post after "Not saved: ", a sentence the page wrote whole (naming its field's words) and
    a wait (429) as they are."""
    whole = isinstance(refused.error, PageRefused) and not isinstance(refused.error, CountersRefused)
    return refused.said if whole or refused.status == 429 else f"Not {doing}: {_lowered(refused.said)}"


def _refused(doing: str) -> Render:
    """The answer in place saying why nothing was `doing`, a scenario's or a game's (none of it was saved)."""

    def render(request: Request, _session: Session, _settings: Settings, refused: Refusal) -> Response:
        return _said(
            request, not_done(doing, refused), refused.status, focus=getattr(refused.error, "focus", "")
        )

    return render


def _club_editor(ruleset_id: str) -> dict[str, Any]:
    """The editor of a rule set played on a board of counters (404 for any other)."""
    if not (any(r.book.ruleset_id == ruleset_id for r in all_game_rules()) and takes_club(ruleset_id)):
        raise NotFoundError("rule set", ruleset_id[:64])
    return editor_context(ruleset_id)


def _stored(e: Exception, doing: str, words: Callable[[str], str]) -> PageRefused:
    """The document's refusal in the form's words (`words`), at the API's status."""
    return PageRefused(refusal(e, doing, words), status_of(e))


@posted(router, "/scenarios/club/{ruleset_id}/save", _refused("saved"), server_organiser("scenarios"))
def save_scenario(
    ruleset_id: str,
    session: SessionDep,
    request: Request,
    club: Annotated[ClubForm, Form()],
    form: PostedForm,
) -> Response:
    """Save the form as a scenario: a new one stored, a stored one (its id posted, not a shipped one) replaced
    over the organiser's key as the scenario API takes it; answers the message, or the refusal naming its field."""
    editor = _club_editor(ruleset_id)
    counters = posted_counters(editor, form)
    document = scenario_document(editor, club, form, counters)
    if not document["title"]:
        raise Unfilled("Not saved: give the scenario a title.", "club-title")
    if _unnamed(counters):
        raise Unfilled("Not saved: give every counter its name.", _unnamed(counters))
    security.scenario_imported()
    try:
        with unit_of_work(session):
            checked = ScenarioIn.model_validate(document).document()  # as the API's body is, first
            if "id" in document:
                stored = scenarios_service.replace_scenario(session, str(document["id"]), checked)
            else:
                stored = scenarios_service.import_scenario(session, checked)
    except (RulesError, ValidationError, NotFoundError, Conflict) as e:
        raise _stored(e, "saved", partial(field_words, editor=editor, counters=counters)) from e
    return _said(
        request,
        "Saved: start a game from it here or on the start page.",
        scenario=str(stored["id"]),
        title=str(stored["title"]),
        shipped=club.shipped,
    )


@posted(router, "/scenarios/club/{ruleset_id}/export", _refused("exported"))
def export_scenario(ruleset_id: str, club: Annotated[ClubForm, Form()], form: PostedForm) -> Response:
    """The form as the scenario file the club shares (a download, saved nowhere)."""
    editor = _club_editor(ruleset_id)
    document = scenario_document(editor, club, form, posted_counters(editor, form))
    slug = re.sub(r"[^a-z0-9]+", "-", str(document["title"]).lower()).strip("-") or "scenario"
    return Response(
        json.dumps(document, indent=2, ensure_ascii=False),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{slug[:80]}.json"'},
    )


@posted(router, "/scenarios/club/{ruleset_id}/import", _refused("imported"), server_organiser("scenarios"))
async def import_file(
    ruleset_id: str, session: SessionDep, file: Annotated[UploadFile | None, File()] = None
) -> Response:
    """A file the club shares, stored as a new scenario (checked as the scenario API checks it), then edited:
    htmx is sent to its editor; a refusal is said in place."""
    editor = _club_editor(ruleset_id)
    if file is None:
        raise PageRefused("Not imported: file: choose the scenario's .json file.")
    try:
        document = json.loads(await file.read(MOST_FILE_BYTES + 1))
    except (ValueError, UnicodeDecodeError, RecursionError):  # not JSON, or nested past the parser's depth
        raise PageRefused("Not imported: the file is not a scenario file (JSON).") from None
    security.scenario_imported()
    try:
        checked = ScenarioIn.model_validate(document).document()
        try:
            with unit_of_work(session):
                stored = scenarios_service.import_scenario(session, checked)
        except Conflict as e:
            held = e.current if isinstance(e.current, dict) else {}
            if not checked.get("id") or held.get("id") != checked["id"]:
                raise
            # Its id is saved here already (a file exported here, shared back): kept both, the file's a copy with
            # a new id, its editor next (the newcomer pass: "reload and try again" again and again).
            with unit_of_work(session):
                stored = scenarios_service.import_scenario(
                    session, {k: v for k, v in checked.items() if k != "id"}
                )
    except (RulesError, ValidationError, Conflict) as e:
        raise _stored(e, "imported", partial(field_words, editor=editor, document=document)) from e
    return Response(status_code=204, headers={"HX-Redirect": f"/scenarios/{quote(str(stored['id']))}/edit"})


def _save_counter(
    session: Session, game_id: int, viewer: Viewer, level: str, counter: PostedCounter, read: Unit | None
) -> Kept | None:
    """One counter of the game saved as the units API saves it: a new one added with its values in one act
    (refused whole), one read from the game saved over the version it was read at (a stale one a 409); one
    unchanged since it was read is not written (None)."""
    if read is not None and counter.version is not None:
        if read.name == counter.name and all(read.state.get(k) == v for k, v in counter.state.items()):
            return None
        edit = UnitEdit.model_validate({"version": counter.version, "name": counter.name, **counter.state})
        with game_write(session, game_id) as game:
            unit = by_hand.edit_unit(session, game, viewer, read.pk, edit).answer
    else:
        added = UnitIn.model_validate(
            {"side": counter.side, "name": counter.name, "level": level, "state": dict(counter.state)}
        )
        with game_write(session, game_id) as game:
            unit = by_hand.add_unit(session, game, viewer, added).answer
    session.refresh(unit)
    return Kept(counter.n, unit.id, unit.version, added=read is None or counter.version is None)


class ClubPatch(BaseModel):
    """A game's club data as the form posts it, over the version the page read (as PATCH .../games/{id} takes
    its `club`)."""

    version: Version
    club: ScenarioBoard


@dataclass(frozen=True)
class Kept:
    """A counter saved to the game: its row's number on the page, its unit's id and the version it is now at."""

    n: str
    unit_id: int
    version: int
    added: bool = (
        False  # a new counter: its row's Remove goes (a counter of the game is taken off by its card)
    )


def _game_said(
    request: Request,
    message: str,
    status: int,
    version: int | None,
    kept: list[Kept],
    focus: str = "",
    carry_on: int | None = None,
) -> Response:
    """The game's answer: the message, and where the page keeps them the game's version and each counter saved
    (its unit and version: the next save is over them; no longer removed here); `carry_on`, the game whose save
    the page carries on by itself (its CPU budget spent)."""
    return templates.TemplateResponse(
        request,
        "_club_said.html",
        {
            "message": message,
            "good": status < 400,
            "scenario": "",
            "version": version,
            "kept": kept,
            "focus": focus,
            "carry_on": carry_on,
        },
        status_code=status,
    )


def _referee_seat(game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep) -> Seat:
    """The game's referee, who alone saves its club data: asked before its form is read (a field past its bound
    is the referee's to be told of; the hostile pass found it said to any device)."""
    seat = game_seat(request, session, settings, game_id)
    if seat is None or session.get(Game, game_id) is None:
        raise Unauthorized("open this game with its referee token first")
    seat.viewer.require_referee("edit the game")
    return seat


@posted(router, "/games/{game_id}/club/save", _refused("saved"))
def save_to_game(
    game_id: GameId,
    seat: Annotated[Seat, Depends(_referee_seat)],
    request: Request,
    session: SessionDep,
    settings: SettingsDep,
    club: Annotated[ClubForm, Form()],
    form: PostedForm,
) -> Response:
    """A game in set-up saved as its API saves it (the referee's): its `club` over the version the page read,
    then each counter new or changed, in the form's order; the first refused stops it, said in place with its
    rule's sentence after the counter's name (what was saved before it stays saved, as the page then shows).
    Each counter added is an act that reads the game's units: a save stops between two counters once it has
    spent its CPU budget (table_save_cpu_seconds, as the table's Save) and the page sends the rest by itself
    over the units and versions answered (session 24's hostile pass: 400 counters took 4.6 s, the server held)."""
    started = time.process_time()
    game = session.get(Game, game_id)
    assert game is not None  # else the referee's seat was refused
    if not takes_club(game.ruleset):
        raise NotFoundError("game of counters", str(game_id))
    editor = editor_context(game.ruleset)
    counters = posted_counters(editor, form)
    if _unnamed(counters):
        raise Unfilled("Not saved: give every counter its name.", _unnamed(counters))
    try:
        patch = ClubPatch.model_validate(
            {"version": _whole(club.version) or 0, "club": club_values(editor["fields"], form)}
        )
        with game_write(session, game_id) as held:
            acts.edit_game(session, held, seat.viewer, patch.version, {"club": patch.club})
        session.refresh(game)
        now = game.version
    except (RulesError, ValidationError, NotFoundError, Conflict, Forbidden, Unauthorized) as e:
        raise _stored(e, "saved", partial(field_words, editor=editor, counters=counters)) from e
    kept: list[Kept] = []
    read = {u.id: u for u in units_service.list_units(session, game_id)}
    for counter in counters:
        if kept and time.process_time() - started >= settings.table_save_cpu_seconds:
            # 202: taken, not all done (the page carries on until a 200 says every counter is saved).
            said = f"Saved {len(kept)} of the counters: saving the rest..."
            return _game_said(request, said, 202, now, kept, carry_on=game_id)
        try:
            saved = _save_counter(
                session, game_id, seat.viewer, editor["level"], counter, read.get(counter.unit_id or 0)
            )
        except (RulesError, ValidationError, NotFoundError, Conflict, Forbidden, Unauthorized) as e:
            session.rollback()
            said = f"{counter.name}: {detail(e)[1]}"
            return _game_said(request, said, status_of(e), now, kept, f"club-c{counter.n}-name")
        if saved is not None:
            kept.append(saved)
    return _game_said(request, "Saved to the game.", 200, now, kept)
