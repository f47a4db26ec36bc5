"""The Jinja environment of the pages and the filters and globals the templates use."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fastapi.templating import Jinja2Templates

from app.core import shipped
from app.core.pdf_engine import pdf_engine_problem
from app.services.seating import acts_for
from playsheets import forms, ruleset_sheet, sheet
from rules.core.game import state_field
from rules.core.records import StateField
from rules.core.ruleset import PeriodDict
from rules.core.vocabulary import SIDES
from rules.registry import all_game_rules, game_rules_or_none, get_ruleset

FRONTEND = shipped.frontend()
STATIC_DIR = FRONTEND / "static"
templates = Jinja2Templates(directory=FRONTEND / "templates")
# The installed package's templates change only with the package (a restart, as its code): not a file's time
# asked of the disk at every page and live board frame.
templates.env.auto_reload = False


# Words the rule texts write in capitals; a label keeps them so ("SOS", "MG", "LMG unit").
ACRONYMS = {
    w.lower(): w
    for w in (
        "SOS",
        "MG",
        "MMG",
        "HMG",
        "LMG",
        "SMG",
        "BEF",
        "AIF",
        "MGC",
        "A7V",
        "VP",
        "HQ",
        "D3",
        "D6",
        "I",
        "II",
        "III",
        "IV",
    )
}
NUMBER_RANGE = re.compile(r"(?<=\d)-(?=\d)")


def humanise(name: str) -> str:
    """`raw_under_fire` -> "Raw under fire", `range_cm` -> "Range (cm)", `no-effect` -> "No effect",
    `sos` -> "SOS", and a table's range `2-4` -> "2–4" (an en dash, not a word break)."""
    text = str(name)
    unit = ""
    for suffix, label in (("_cm", "cm"), ("_deg", "degrees")):
        if text.endswith(suffix):
            text, unit = text[: -len(suffix)], f" ({label})"
    if re.fullmatch(r"[-+]?\d+(\.\d+)?", text):
        return text + unit  # a signed number keeps its sign
    text = NUMBER_RANGE.sub("–", text)
    words = [ACRONYMS.get(w.lower(), w) for w in text.replace("_", " ").replace("-", " ").split()]
    if not words:
        return text
    first = words[0]
    words[0] = first if first in ACRONYMS.values() else first[:1].upper() + first[1:]
    return " ".join(words) + unit


def most_used_first(resolvers: list[dict[str, Any]], ruleset_id: str) -> list[dict[str, Any]]:
    """The lookup's resolver buttons, the rule set's most used at the table first (issue 7)."""
    rank = {rid: i for i, rid in enumerate(get_ruleset(ruleset_id).most_used)}
    return sorted(resolvers, key=lambda r: rank.get(str(r["id"]), len(rank)))  # sorted() is stable


def num(value: Any) -> Any:
    """30.0 -> 30 in a number box; other values unchanged."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


templates.env.filters["humanise"] = humanise
templates.env.filters["num"] = num
templates.env.filters["most_used_first"] = most_used_first


STANDARD_ANSWER_KEYS = frozenset(
    {
        "ruleset",
        "resolver",
        "period",
        "dice",
        "rolled_by_server",
        "modifiers",
        "total",
        "outcome",
        "outcome_key",
        "probabilities",
        "probabilities_exact",
        "sources",
        "variants",
    }
)


def answer_details(answer: Mapping[str, Any]) -> dict[str, Any]:
    """The resolver-specific parts of an answer (thresholds, notes, consequences), for display."""
    return {k: v for k, v in answer.items() if k not in STANDARD_ANSWER_KEYS and v not in (None, [], {}, "")}


def period_labels(periods: list[PeriodDict]) -> dict[str, str]:
    """Period names without the words they all share ("Western Front ..."), short enough for a chip."""
    words = [str(p["name"]).split() for p in periods]
    shared = 0
    while len(words) > 1 and all(len(w) > shared + 1 and w[shared] == words[0][shared] for w in words):
        shared += 1
    return {p["id"]: " ".join(w[shared:]) for p, w in zip(periods, words, strict=True)}


def short_list(values: list[Any]) -> bool:
    """A few short scalars read best on one line ("2, 4"); anything longer as a list."""
    return len(values) <= 6 and all(len(str(v)) <= 12 for v in values)


@dataclass(frozen=True)
class RuleState:
    """What a game's pages show of its units' rule-set state (rules.core.records.StateField): the counter the
    marker buttons move, the flags with a badge on a unit's tile, the fields its card lists, the board's
    filters besides the marker's, and the fields a board tile, row or head marks while set (`flags`: the
    badges and the filters, which the board's filters read)."""

    marker: StateField | None
    badges: tuple[StateField, ...]
    card: tuple[StateField, ...]
    filters: tuple[StateField, ...] = ()
    flags: tuple[StateField, ...] = ()
    turn_word: str = "turn"  # the rules' word for a turn ("bound"), as the turn panels say it
    side_names: tuple[tuple[str, str], ...] = ()  # what the book calls each side (Book.side_names)
    # Each unit level and kind the book names (Book.unit_levels, unit_kinds): the map names its stands with them
    # in the words a stand's card says them (`as_json`'s "unit_words"; frontend/static/js/table-map.js).
    levels_and_kinds: tuple[str, ...] = ()

    def side_name(self, side: str, otherwise: str = "") -> str:
        """What the book calls `side`, else `otherwise`."""
        return dict(self.side_names).get(side, otherwise)

    def as_json(self) -> dict[str, Any]:
        def field(f: StateField) -> dict[str, Any]:
            return {"name": f.name, "label": f.label, "kind": f.kind}

        return {
            "marker": field(self.marker) if self.marker else None,
            "card": [field(f) for f in self.card if f is not self.marker],
            "turn_word": self.turn_word,
            "unit_words": {w: humanise(w) for w in self.levels_and_kinds},  # "mmg": "MMG"
        }


def rule_state(ruleset: str) -> RuleState:
    rules = game_rules_or_none(ruleset)
    marker = state_field(rules.book, rules.book.marker_field) if rules.book.marker_field else None
    fields = rules.book.state_fields
    filters = tuple(f for f in fields if f.filter and f is not marker)
    return RuleState(
        marker,
        tuple(f for f in fields if f.badge),
        tuple(f for f in fields if f.shown),
        filters,
        tuple(f for f in fields if f.badge or f in filters),
        rules.book.turn_word,
        tuple(rules.book.side_names.items()),
        (*rules.book.unit_levels, *rules.book.unit_kinds),
    )


templates.env.globals["rule_state"] = rule_state
templates.env.globals["acts_for"] = acts_for  # whose stands a seat acts for, as the act pipeline asks it
# A game played on the players' own board of counters has a page of counters where others have a table map.
templates.env.globals["on_counters"] = lambda ruleset_id: (
    game_rules_or_none(ruleset_id).book.kit.counters is not None
)
# What a stand is in the rules' words ("counter"), for the pages that name one.
templates.env.globals["stand_word"] = lambda ruleset_id: game_rules_or_none(ruleset_id).book.stand_word
templates.env.globals["answer_details"] = answer_details
templates.env.globals["short_list"] = short_list
templates.env.globals["period_labels"] = period_labels
templates.env.globals["ruleset_title"] = lambda ruleset_id: get_ruleset(ruleset_id).name  # "Flanders Fields"
# A die's button as a screen reader names it, its face the button's words (the newcomer pass: "1" to "6" said
# nothing of a die): a stand's card's dice, a counter's.
templates.env.filters["die_face"] = lambda face: f"Die showing {face}"


class PrintedSheets:
    """What the print menu links to (playsheets/), read from the registry each time the menu is drawn, so a rule
    set registered later is in it: the rule sets printing their own playsheet and those printing one per war
    period, each period's sheet and its label, and the aiming-point cards' name and title."""

    cards = forms.CARDS
    cards_title = forms.CARDS_TITLE

    @property
    def own(self) -> tuple[str, ...]:
        return ruleset_sheet.own_sheets()

    @property
    def by_period(self) -> tuple[str, ...]:
        return sheet.period_rulesets()

    def periods(self, ruleset_id: str | None = None) -> list[tuple[str, str]]:
        """Each period sheet's path and label: of the rule set `ruleset_id` when it prints them, else of every
        rule set that does (its name in the label when there are several). The first such rule set's are at
        `/playsheets/{period}`, every other's under its own id (app/routes/playsheets.py)."""
        printed = self.by_period
        chosen = [ruleset_id] if ruleset_id in printed else list(printed)
        links: list[tuple[str, str]] = []
        for rs_id in chosen:
            rs = get_ruleset(rs_id)
            labels = period_labels([{"id": p.id, "name": p.name, "source": p.source} for p in rs.periods])
            base = "/playsheets" if rs_id == printed[0] else f"/playsheets/rulesets/{rs_id}"
            named = f"{rs.name}, " if len(chosen) > 1 else ""
            links += [
                (f"{base}/{p}", f"Playsheet, {named}{label[:1].upper()}{label[1:]}")
                for p, label in labels.items()
            ]
        return links

    @staticmethod
    def aimed(ruleset_id: str) -> bool:
        """A game of a rule set without aiming points prints no aiming-point cards (the route answers 404)."""
        return game_rules_or_none(ruleset_id).book.plan_terms.aiming_field is not None

    @staticmethod
    def blanks(ruleset_id: str | None) -> list[tuple[str, str]]:
        """The blank sheets of the rule set `ruleset_id` (of every one when None), each path and label: the
        fire-plan forms of the book whose form is printed, the 1:1 template kit of a book that declares one."""
        # A campaign's rule set (no game of its own) prints no blank sheet.
        played = {r.book.ruleset_id: r for r in all_game_rules()}
        chosen = list(played) if ruleset_id is None else [ruleset_id]
        links = [
            (f"/playsheets/fire-plan/{side}", f"Blank fire-plan form ({side})")
            for side in SIDES
            if forms.FORM_RULESET in chosen
        ]
        if any(played[r].playsheet(None).kit for r in chosen if r in played):
            links.append(("/playsheets/template-kit", "Template kit (1:1)"))
        return links


# Without the PDF engine the menu offers each sheet's print view instead (app/core/pdf_engine.py).
templates.env.globals["pdf_engine_problem"] = pdf_engine_problem
templates.env.globals["sheets"] = PrintedSheets()
