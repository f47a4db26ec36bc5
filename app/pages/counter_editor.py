"""The scenario editor of a game played on the players' own board of counters (issue 62): not a table to draw
but the club's own data entered once from its copy of the game, as its rule set declares it
(`rules.core.kit.CounterBoard.club`, a model whose JSON schema this page renders as a form: lists of places,
pairs of places, places by kind, a sequence of words, rows of whole numbers, a number), and the order of battle
(each side's counters with their printed values: the word and number state fields a player sets by hand, the
place left to the set-up on the page of counters), both rendered filled in by the server (app.pages.club_form).
Saved as a scenario document (docs/scenario-format.md:
`board` and the sides' counters) as the scenario API saves it, or, for a game in set-up, to the game itself (its
`club`, then its counters, as the game's and the units API save them): app.pages.club_save, the form posted by htmx.
The page never names a rule set's words: every label comes from the rule set's declarations."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from pydantic import BaseModel

from app.data.models import Game, Unit
from app.pages import club_form
from app.pages.club_form import Counter
from app.pages.templates import templates
from rules.core.game import GameRules
from rules.registry import get_game_rules, get_ruleset
from rules.table.frame import TABLE_LENGTH_CM, TABLE_WIDTH_CM


def _single(spec: dict[str, Any]) -> dict[str, Any]:
    """A field's schema without its `null` alternative (every club field is optional)."""
    kinds = [k for k in spec.get("anyOf", [spec]) if k.get("type") != "null"]
    if len(kinds) != 1:
        raise TypeError(f"a club field of one shape, not {spec}")
    return kinds[0]


def _is_place(spec: dict[str, Any]) -> bool:
    return spec.get("type") == "string" and "pattern" in spec


def club_field(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    """How the form enters one club field, from its JSON schema: its kind and what bounds it. A shape the
    form has no widget for is a TypeError (the page test renders every rule set's fields)."""
    one = _single(spec)
    out: dict[str, Any] = {
        "name": name,
        "title": str(spec.get("title") or name),
        "description": str(spec.get("description") or ""),
    }
    items = one.get("items", {})
    if one.get("type") == "integer":
        return {**out, "kind": "number", "minimum": one.get("minimum", 0), "maximum": one.get("maximum")}
    if one.get("type") == "array" and _is_place(items):
        return {**out, "kind": "places", "pattern": items["pattern"], "most": one.get("maxItems")}
    if one.get("type") == "array" and items.get("type") == "array" and _is_place(items.get("items", {})):
        return {**out, "kind": "pairs", "pattern": items["items"]["pattern"], "most": one.get("maxItems")}
    if one.get("type") == "array" and "enum" in items and one.get("minItems") == one.get("maxItems"):
        return {**out, "kind": "sequence", "length": one["maxItems"], "values": list(items["enum"])}
    if (
        one.get("type") == "array"
        and one.get("minItems") == one.get("maxItems")
        and items.get("type") == "array"
        and items.get("items", {}).get("type") == "integer"
    ):
        inner = items["items"]
        columns = list(spec.get("columns") or [str(i + 1) for i in range(int(items["maxItems"]))])
        return {
            **out,
            "kind": "rows",
            "length": one["maxItems"],
            "columns": columns,
            "minimum": inner.get("minimum", 0),
            "maximum": inner.get("maximum"),
        }
    patterns = one.get("patternProperties", {})
    if one.get("type") == "object" and len(patterns) == 1:
        ((pattern, value),) = patterns.items()
        words = list(value.get("items", {}).get("enum", []))
        labels = dict(spec.get("labels") or {})
        return {
            **out,
            "kind": "places_by_kind",
            "pattern": pattern,
            "kinds": [{"value": w, "label": labels.get(w, w)} for w in words],
        }
    raise TypeError(f"no form for the club field {name}: {one}")


def club_fields(model: type[BaseModel]) -> list[dict[str, Any]]:
    properties = model.model_json_schema().get("properties", {})
    return [club_field(name, spec) for name, spec in properties.items()]


def counter_fields(rules: GameRules) -> list[dict[str, Any]]:
    """A counter's printed values in the order of battle: the word and number state fields a player sets by
    hand, its place left out (placed at set-up on the page of counters), its group first."""
    board = rules.book.kit.counters
    place = board.place_field if board else ""
    group = board.group_field if board else ""
    fields = [
        {"name": f.name, "label": f.label, "edit": f.edit, "maximum": f.maximum}
        for f in rules.book.state_fields
        if f.edit in ("word", "number") and f.shown and f.name != place
    ]
    fields.sort(key=lambda f: f["name"] != group)
    return fields


def editor_context(ruleset_id: str) -> dict[str, Any]:
    """What the page and its script read of a rule set played on counters."""
    rules = get_game_rules(ruleset_id)
    board = rules.book.kit.counters
    assert board is not None and board.club is not None, ruleset_id
    _period, nations = rules.forces_setup(())
    level = rules.book.unit_levels[-1] if rules.book.unit_levels else "counter"
    return {
        "ruleset": ruleset_id,
        "fields": club_fields(board.club),
        "counter_fields": counter_fields(rules),
        "group_field": board.group_field,
        # The groups the book names, by side: chosen from, not typed (Vimy's German divisions, 19.1).
        "group_words": {side: {board.group_field: list(w)} for side, w in board.group_words.items()},
        "level": level,
        # A scenario names a table; a game of counters has none, so it keeps a game's own default.
        "table": {"width_cm": TABLE_WIDTH_CM, "length_cm": TABLE_LENGTH_CM},
        "sides": [
            {"side": side, "nation": nations.get(side) or (*rules.book.nations, "", "")[i]}
            for i, side in enumerate(("attacker", "defender"))
        ],
    }


def takes_club(ruleset_id: str) -> bool:
    """Whether a rule set is played on counters with club data, so its scenarios are edited here."""
    board = get_game_rules(ruleset_id).book.kit.counters
    return board is not None and board.club is not None


def _game_form(rules: GameRules, game: Game, units: list[Unit]) -> tuple[dict[str, object], list[Counter]]:
    """A game's club data (its board's club keys) and its counters as the editor reads them: each with its
    id and version, so an edit is saved over the version it was read at."""
    board = rules.book.kit.counters
    assert board is not None and board.club is not None
    keys = set(board.club.model_fields)
    names = [f["name"] for f in counter_fields(rules)]
    kept = {k: v for k, v in (game.board or {}).items() if k in keys}
    return kept, club_form.game_counters(units, names)


def context(
    ruleset_id: str,
    scenario_id: str | None = None,
    shipped: bool = False,
    document: Mapping[str, Any] | None = None,
    game: tuple[Game, list[Unit]] | None = None,
) -> dict[str, object]:
    """The page's context: a new scenario, a stored one (`scenario_id`, its `document`) or a game's own in
    set-up (`game`: it and its units); the club's data and the order of battle filled in from it
    (app.pages.club_form)."""
    editor = editor_context(ruleset_id)
    board: Mapping[str, object] = {}
    counters: list[Counter] = []
    if game is not None:
        board, counters = _game_form(get_game_rules(ruleset_id), *game)
    elif document is not None:
        board, counters = document.get("board") or {}, club_form.scenario_counters(document)
    return {
        "ruleset_name": get_ruleset(ruleset_id).name,
        "editor": editor,
        "scenario_id": scenario_id,
        "shipped": shipped,
        "in_game": game is not None,
        "title": str((document or {}).get("title") or ""),
        "club": club_form.club_data(editor["fields"], board),
        "order": club_form.order_of_battle(
            editor["sides"], editor["counter_fields"], counters, editor["group_words"]
        ),
    }


def page(
    request: Request,
    ruleset_id: str,
    scenario_id: str | None = None,
    shipped: bool = False,
    document: Mapping[str, Any] | None = None,
) -> Response:
    return templates.TemplateResponse(
        request, "counter_editor.html", context(ruleset_id, scenario_id, shipped, document)
    )
