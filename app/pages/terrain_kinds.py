"""The scenario editor's card of a terrain kind (issue 67): what the rule set says of the kind picked (its book's
name, its class, its cover alone and with other terrain, its movement in the draft's period), the typical widths
of a line of it and the breadth's label, rendered by the server (`_terrain_kind.html`) on the kind's, the class's
or the period's change, from the same data as the page's island (app.pages.scenario_editor.editor_data). A
drawn piece's card is the same words with its owner and height, for the kinds whose pieces have them
(rules.table.terrain.PIECE_PROPERTIES). Rule-set data only: any browser may read it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Annotated

from fastapi import Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from app.core.routing import Router
from app.data.bounded import JSON_MAX_STRING
from app.pages.scenario_drafts import refused
from app.pages.scenario_editor import editor_data, kind_names
from app.pages.templates import humanise, templates
from rules.registry import all_game_rules, get_ruleset
from rules.table.requests import MAX_FEATURES

router = Router(include_in_schema=False)

OWNERS = ("attacker", "defender")
MAX_HEIGHT_CM = (
    100.0  # the height input's own bound (scenario_editor.html), as a piece's (FeaturePropertiesIn)
)
HEIGHT_DECIMALS = 1  # a height said to the millimetre (the input's step is 0.5 cm): 1e-300 is "0"
# A height as the editor's script writes a number: Python's float() reads "1_0" as 10 and " 5 " as 5.
NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


class Width(BaseModel):
    cm: float
    text: str
    source: str


class Cover(BaseModel):
    cover: str
    text: str


class WithOthers(BaseModel):
    kinds: list[str]
    cover: str


class MoveRow(BaseModel):
    may_pass: bool = False
    crossing_actions: int | None = None
    allowance_cm: int | float | None = None  # an int stays one: "10 cm", not "10.0 cm"


class Move(BaseModel):
    terrain: str | None
    by_period: dict[str, dict[str, MoveRow]]


class Named(BaseModel):
    text: str
    source: str


class Kind(BaseModel):
    """A kind as the page's island has it (app.pages.scenario_editor._kind_card): read once, typed."""

    kind: str
    area: bool
    breadth: str | None
    properties: list[str]  # what a piece of it says of itself besides (rules.table.terrain.PIECE_PROPERTIES)
    name: str | None
    named: Named | None
    widths: list[Width]
    cover: Cover | None
    with_others: list[WithOthers] = Field(alias="with")
    move: Move | None


class TerrainClass(BaseModel):
    id: str
    text: str
    kinds: list[str]


@dataclass(frozen=True)
class KindCard:
    """What the card shows of a kind: its words, the breadth's label and typical widths, which rows it needs."""

    kind: str
    words: str
    as_its_kind: str | None  # the class list's first option (the class the kind has by itself), if it has one
    breadth_label: str
    widths: list[Width]
    typical: str
    breadth: bool
    area: bool
    properties: tuple[str, ...] = ()
    line_needs: str = ""  # said when its Line is pressed with no width given, for a kind whose line needs one


@cache
def _kinds(ruleset_id: str) -> tuple[dict[str, Kind], list[TerrainClass]]:
    editor = editor_data(ruleset_id)
    kinds = {k["kind"]: Kind.model_validate(k) for k in editor["kinds"]}
    return kinds, [TerrainClass.model_validate(c) for c in editor["classes"]]


def _class_of(classes: list[TerrainClass], kind: str, named: str = "") -> TerrainClass | None:
    """A piece's class: the one it names, else its kind's (a rule set reading the ground by classes)."""
    return next((c for c in classes if c.id == named), None) or next(
        (c for c in classes if kind in c.kinds), None
    )


def _cover_words(card: Kind) -> str:
    if not card.cover:
        return ""
    alone = f"Cover: {card.cover.cover} (“{card.cover.text}”)."
    return alone + "".join(f" With {' and '.join(w.kinds)}: {w.cover}." for w in card.with_others)


def _move_words(card: Kind, period: str) -> str:
    move = card.move
    if not move:
        return ""
    if not move.terrain:
        return " Movement: crossed by the wire rules, not the movement table."
    rows = move.by_period
    row = rows[period] if period in rows else next(iter(rows.values()), None)
    if row is None:
        return ""
    parts = [
        f"{humanise(mover)} may not pass"
        if not r.may_pass
        else f"{humanise(mover)} {r.crossing_actions} actions to cross"
        if r.crossing_actions
        else f"{humanise(mover)} {r.allowance_cm} cm"
        for mover, r in row.items()
    ]
    return f" Movement ({humanise(move.terrain)}): {', '.join(parts)}."


def kind_card(ruleset_id: str, kind: str, named_class: str = "", period: str = "") -> KindCard:
    """The card of a kind of the rule set (KeyError for a kind it does not know)."""
    kinds, classes = _kinds(ruleset_id)
    card = kinds[kind]
    name = card.name or humanise(kind)
    found = _class_of(classes, kind, named_class)
    named = f"The book's “{card.named.text}” ({card.named.source}). " if card.named else ""
    words = (
        f"{name}.{' ' + found.text if found else ''} {named}{_cover_words(card)}{_move_words(card, period)}"
    )
    lines = list(dict.fromkeys(f"“{w.text}” ({w.source})" for w in card.widths))
    own = _class_of(classes, kind)
    optional = kind == "wire"  # its belt, if not given, is the rules' standard one
    return KindCard(
        kind=kind,
        words=words.strip(),
        as_its_kind=f"As its kind ({humanise(own.id if own else 'none')})" if classes else None,
        breadth_label="Depth of the belt (cm; blank: the rules' standard belt)"
        if optional
        else f"{name} width (cm, needed for a line)",
        widths=card.widths,
        typical=f"Typical: {'; '.join(lines)}." if lines else "",
        breadth=bool(card.breadth),
        area=card.area,
        properties=tuple(card.properties),
        line_needs=f"A {name.lower()} drawn as a line needs its width in cm: enter it first."
        if card.breadth and not card.area and not optional
        else "",
    )


@router.get("/scenarios/new/{ruleset_id}/terrain-kind", response_class=HTMLResponse)
def kind_card_fragment(
    ruleset_id: str,
    request: Request,
    terrain_kind: str = "",
    terrain_class: str = "",
    forces_period: str = "",
    piece: bool = False,
    owner: str = "",
    height: str = "",
    key: Annotated[int, Query(ge=0, lt=MAX_FEATURES)] = 0,
    name: Annotated[str, Query(max_length=JSON_MAX_STRING)] = "",
) -> Response:
    """The kind's card (its `hx-get` on the kind's, the class's or the period's change), or with `piece` a drawn
    piece's panel: its name (its own, else its kind's and its number: the `key`, its place in the terrain, as the
    list names it), its card's words with its trench's owner and its hill's height, its name to rename and its
    class to pick."""
    if ruleset_id not in {r.book.ruleset_id for r in all_game_rules()}:
        return refused("Rule set: not a rule set played as a game.", 422)
    kinds, classes = _kinds(ruleset_id)
    if terrain_kind not in kinds:
        return refused("Terrain kind: not a kind of terrain this rule set draws.", 422)
    if terrain_class and terrain_class not in {c.id for c in classes}:
        return refused("Terrain class: not a class of terrain this rule set knows.", 422)
    if forces_period and forces_period not in {p.id for p in get_ruleset(ruleset_id).periods}:
        return refused("Period: not a period of this rule set.", 422)
    has = kinds[terrain_kind].properties  # what a piece of the kind says of itself (PIECE_PROPERTIES)
    if owner and "owner" not in has:
        return refused(f"Owner: a piece of {humanise(terrain_kind).lower()} has none.", 422)
    if owner and owner not in OWNERS:
        return refused("Owner: the attacker or the defender.", 422)
    if height and "height_cm" not in has:
        return refused(f"Height: a piece of {humanise(terrain_kind).lower()} has none.", 422)
    if height and not (NUMBER.fullmatch(height) and 0 <= float(height) <= MAX_HEIGHT_CM):
        return refused(f"Height: from 0 to {MAX_HEIGHT_CM:g} cm.", 422)
    card = kind_card(ruleset_id, terrain_kind, terrain_class, forces_period)
    high = f"{round(float(height), HEIGHT_DECIMALS) + 0.0:g}" if height else None  # + 0.0: "-0" is 0
    title = name or f"{kind_names(ruleset_id).get(terrain_kind) or humanise(terrain_kind)} {key + 1}"
    context = {"card": card, "ruleset_id": ruleset_id, "piece": piece, "owner": owner, "height": high}
    context |= {"title": title, "name": name, "classes": classes, "chosen": terrain_class}
    return templates.TemplateResponse(request, "_terrain_kind.html", context)
