"""A game played on the players' own board of counters, not on a table (its rule set's kit names a
`rules.core.kit.CounterBoard`): what the page of counters shows besides the units themselves, read from the
rule set through the hook: the field holding a counter's place and what a place is called, the level the
counters are grouped under, the values printed on a counter, the game's turn track and its named places."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlmodel import Session

from app.data.models import Game
from app.services.markers import rules_of, snapshot_of
from app.services.units import list_units
from rules.core.errors import NotFoundError
from rules.core.kit import TrackTurn, badges
from rules.registry import get_ruleset


@dataclass(frozen=True)
class CounterBoardView:
    """What a page of counters reads of the game's rule set and state (the units come from `/units`)."""

    place_field: str
    place_word: str
    group_level: str
    group_field: str
    values: tuple[str, ...]
    track: tuple[TrackTurn, ...]
    dark_means: str  # what a dark box of the track means, with its rule: the track's key
    places: dict[str, str]
    marks: dict[int, str]  # what lies on each counter besides its state ("2 bombardment markers"), by unit id
    badges: tuple[str, ...]  # the rule set's game-wide values set, in words (an allotment left)
    steps: tuple[str, ...] = ()  # each step of a turn as the book prints it ("Combat phase"), in order
    flipped: tuple[str, tuple[str, ...]] = ("", ())  # the flag turning a counter, the values printed then


def plays_on_counters(game: Game) -> bool:
    """Whether the game is played on a board of counters (its page of counters replaces the table map)."""
    return rules_of(game).book.kit.counters is not None


def counter_board(session: Session, game: Game) -> CounterBoardView:
    """The game's board of counters as the page shows it; a 404 for a game played on a table."""
    rules = rules_of(game)
    board = rules.book.kit.counters
    if board is None:
        raise NotFoundError("board of counters", str(game.id))
    notes = rules.counter_notes(snapshot_of(session, game, list_units(session, game.pk)))
    return CounterBoardView(
        place_field=board.place_field,
        place_word=board.place_word,
        group_level=board.group_level,
        group_field=board.group_field,
        values=board.values,
        track=notes.track,
        dark_means=notes.dark_means,
        places=dict(notes.places),
        marks=dict(notes.marks),
        badges=tuple(badges(rules.book.kit, game.state)),
        steps=tuple(s.title for s in rules.steps(game.period)),
        flipped=board.flipped,
    )


# The most values an option of a roll is offered as, buttons on a counter's card.
MOST_CHOICES = 6


@cache
def roll_options(ruleset_id: str) -> dict[str, dict[str, dict[str, Any]]]:
    """The fields a card's roll may offer the player as options (`StandAct.options`), by resolver and field,
    as each resolver's request declares them: a yes or no, one of a few words (or the few a request offers of
    a longer list, `x-choices`, each with its label), or a whole number in a short range. Made once a rule set
    (its requests' schemas are its code's; each made anew was a sixth of judging a Vimy card, issue 65), and
    so read-only: its readers copy what they change."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for rid, resolver in get_ruleset(ruleset_id).resolvers.items():
        fields: dict[str, dict[str, Any]] = {}
        for name, spec in resolver.Request.model_json_schema().get("properties", {}).items():
            kinds = {k.get("type") for k in spec.get("anyOf", [spec])} - {"null"}
            title = str(spec.get("title") or name)
            words = [w for k in spec.get("anyOf", [spec]) for w in k.get("enum", ()) if w]
            offered = spec.get("x-choices")  # [value, label] pairs a card offers of a longer list, in order
            if kinds == {"boolean"}:
                fields[name] = {"kind": "flag", "title": title, "default": spec.get("default")}
            elif kinds == {"string"} and isinstance(offered, list) and 0 < len(offered) <= MOST_CHOICES:
                fields[name] = {
                    "kind": "word",
                    "title": title,
                    "default": spec.get("default"),
                    "values": [str(value) for value, _label in offered],
                    "labels": {str(value): str(label) for value, label in offered},
                }
            elif kinds == {"string"} and 0 < len(words) <= MOST_CHOICES:
                fields[name] = {
                    "kind": "word",
                    "title": title,
                    "default": spec.get("default"),
                    "values": words,
                }
            elif kinds == {"integer"} and "minimum" in spec and "maximum" in spec:
                low, high = int(spec["minimum"]), int(spec["maximum"])
                if high - low < MOST_CHOICES:
                    fields[name] = {
                        "kind": "count",
                        "title": title,
                        "default": spec.get("default"),
                        "values": list(range(low, high + 1)),
                    }
        out[rid] = fields
    return out


def option_values(spec: dict[str, Any]) -> list[Any]:
    """The values an option may be chosen as: yes for a flag, else each of its values."""
    return [True] if spec["kind"] == "flag" else list(spec["values"])


@dataclass(frozen=True)
class CounterEntry:
    """What the referee enters of a counter from the club's own set (the page's form): its level, and the
    state fields a player sets by hand as a word or a number (its place, its group, its printed values)."""

    level: str
    fields: tuple[tuple[str, str, str], ...]  # (name, label, "word" or "number"), the place first
    # The group's field and the groups the book names, by side (`CounterBoard.group_words`): chosen, not typed.
    group: str = ""
    words: tuple[tuple[str, tuple[str, ...]], ...] = ()


def entry_of(game: Game) -> CounterEntry:
    """The form of a counter entered by hand: its level (the rule set's smallest, else "counter") and fields."""
    rules = rules_of(game)
    board = rules.book.kit.counters
    place = board.place_field if board is not None else ""
    levels = rules.book.unit_levels
    fields = [f for f in rules.book.state_fields if f.edit in ("word", "number") and f.shown]
    fields.sort(key=lambda f: f.name != place)
    return CounterEntry(
        levels[-1] if levels else "counter",
        tuple((f.name, f.label, f.edit) for f in fields),
        board.group_field if board is not None else "",
        tuple(board.group_words.items()) if board is not None else (),
    )
