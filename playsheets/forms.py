"""Fire-plan forms, a side's locked fire plan, aiming-point cards and the organisation sheet, as plain data
ready for the templates. Inputs are plain dicts and lists, so these print the same from the games API, a
file, or a test.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from playsheets.tables import fmt, label
from rules.core.errors import RulesError
from rules.core.scenario import ForceNode
from rules.core.vocabulary import SIDES
from rules.registry import get_ruleset

DATA = Path(__file__).parent / "data"
FIRE_PLANS = "Flanders Fields rule book: FIRE PLANS"
GRID_HINT = (
    "Grid references in cm: along your own rear table edge from its left-hand corner, then up the table "
    "towards the enemy (e.g. 64 along, 120 up). Initial aiming points are pre-registered: they need an "
    "order to fire, not to acquire."
)
GRID_SOURCE = "Flanders Fields rule book: ARTILLERY FIRE PLANS"
BARRAGE_DURATION = "barrage-duration"


@dataclass
class FormRow:
    label: str
    fields: list[str]  # the blanks to fill in on this row, by heading


@dataclass
class FormSection:
    title: str
    rows: list[FormRow]
    text: str = ""
    source: str = FIRE_PLANS


@dataclass
class FireForm:
    side: str
    title: str
    sections: list[FormSection]
    notes: list[str] = field(default_factory=list)


AIM = ["Ref.", "cm along", "cm up", "Notes"]


def _check_side(side: str) -> None:
    if side not in SIDES:
        raise RulesError("side", f"unknown side {side!r}", SIDES)


def _barrage_line(variants: Mapping[str, str] | None, period: str) -> tuple[str, str]:
    """The rolling barrage duration as the game plays it: the engine's erratum, default or variant."""
    ctx = get_ruleset("flanders-fields").context(period, variants or {})
    base = ctx.value(BARRAGE_DURATION)
    text = f"Rolling barrage duration: number of turns available to attackers = {base} + D3"
    return text, ctx.citation(BARRAGE_DURATION)


def fire_plan_form(side: str, variants: Mapping[str, str] | None = None, period: str = "late") -> FireForm:
    """The appendix's ATTACKERS / DEFENDERS FIRE PLAN TEMPLATE as a form with blanks."""
    _check_side(side)
    if side == "attacker":
        duration, duration_src = _barrage_line(variants, period)
        sections = [
            FormSection(
                "Mortars: initial target points",
                # "Medium Mortar 1 / Medium Mortar 2 / Heavy Mortar 1"
                [FormRow(n, AIM) for n in ("Medium Mortar 1", "Medium Mortar 2", "Heavy Mortar 1")],
            ),
            FormSection(
                "Rolling barrage",
                [
                    FormRow(duration, ["D3 rolled", "Turns"]),
                    FormRow("Start line (cm up the table)", ["cm up", "First turn"]),
                    # "whether it will halt on a particular line and if so for how many turns"
                    FormRow("Rolling Barrage Special Orders: halts", ["On line (cm up)", "For turns"]),
                ],
                text="The duration and pattern of any rolling barrages and whether it will halt on a "
                "particular line and if so for how many turns.",
                source=f"{FIRE_PLANS}, ATTACKERS FIRE PLAN TEMPLATE; {duration_src}",
            ),
            FormSection(
                "Superimposed artillery: initial aiming points",
                [FormRow(f"Superimposed Artillery Battery {i}", AIM) for i in (1, 2, 3)],
            ),
            FormSection(
                "Gas attack",
                [
                    FormRow("Gas Attack Initial arrival point", ["cm along", "cm up", "Turn of arrival"]),
                    FormRow("Type (offensive or denying)", ["Type"]),
                    FormRow("Wind Direction", ["Direction"]),
                    FormRow("Wind Speed", ["cm"]),
                ],
                text="Gas attacks which have been written down arrive automatically at the start of the "
                "designated turn; once planned the schedule cannot change.",
                source=f"{FIRE_PLANS}, ATTACKERS FIRE PLAN TEMPLATE; {GRID_SOURCE}",
            ),
            FormSection("Air assets", [FormRow("Number of Ground attack missions", ["Missions", "Turns"])]),
        ]
        title = "Attacker's fire plan"
    else:
        sections = [
            FormSection("Mortars: initial target points", [FormRow("Medium Mortar", AIM)]),
            FormSection(
                "Divisional support artillery: initial aiming points",
                [
                    FormRow(f"Divisional Support Artillery Battery {i} initial aiming point", AIM)
                    for i in (1, 2, 3)
                ],
                text="The initial target points for any assigned divisional support artillery.",
                source=f"{FIRE_PLANS}, DEFENDERS FIRE PLAN TEMPLATE",
            ),
        ]
        title = "Defender's fire plan"
    return FireForm(side, title, sections, [GRID_HINT])


# -- a game's locked fire plan ------------------------------------------------------------------------------
@dataclass
class PlanItem:
    kind: str
    arrival_turn: str
    details: list[tuple[str, str]]


@dataclass
class LockedPlan:
    side: str
    title: str
    game: str
    items: list[PlanItem]
    commitment: str = ""
    locked: bool = True


def locked_plan(
    side: str, items: Sequence[Mapping[str, Any]], game: str = "", commitment: str = "", locked: bool = True
) -> LockedPlan:
    """`items` are fire-plan entries ({side, kind, arrival_turn, data}); only `side`'s are kept, so a
    caller that passes both sides' plans still prints one."""
    _check_side(side)
    own = [i for i in items if i.get("side", side) == side]
    printed = [
        PlanItem(
            label(i.get("kind", "")),
            fmt(i.get("arrival_turn")),
            [(label(k), fmt(v)) for k, v in dict(i.get("data", {})).items()],
        )
        for i in own
    ]
    who = "Attacker" if side == "attacker" else "Defender"
    state = "locked" if locked else "DRAFT, not locked"
    title = f"{who}'s fire plan ({state})" + (f": {game}" if game else "")
    return LockedPlan(side, title, game, printed, commitment, locked)


# -- aiming-point cards -------------------------------------------------------------------------------------
CARDS = "aiming-points"  # the cards' name in their addresses and files
CARDS_TITLE = "Aiming-point cards"


@dataclass
class Card:
    ref: str
    gun: str
    side: str = ""
    aiming_point: str = ""


class AppendixCard(TypedDict):
    """An aiming-point reference card of the appendix: the nation, the gun and the card's reference."""

    nation: str
    gun: str
    ref: str


class AimingPoints(TypedDict):
    """The appendix's file (data/aiming_points.json): its source, a note on its reading, the cards."""

    source: str
    note: str
    cards: list[AppendixCard]


def appendix_cards() -> list[AppendixCard]:
    """The rule book's aiming-point reference cards (AIMING POINTS appendix)."""
    data: AimingPoints = json.loads((DATA / "aiming_points.json").read_text(encoding="utf-8"))
    return list(data["cards"])


def aiming_cards(cards: Sequence[Mapping[str, Any]] | None = None) -> list[Card]:
    """One card per battery or mortar: {ref, gun, side?, aiming_point?: [x, y]}; the appendix's by default."""
    chosen = appendix_cards() if cards is None else cards
    out = []
    for i, c in enumerate(chosen):
        if not str(c.get("ref", "")).strip():
            raise RulesError(
                f"cards.{i}.ref", "each battery or mortar card needs its reference letter or number"
            )
        ap = c.get("aiming_point")
        where = (
            f"{fmt(ap[0])} along, {fmt(ap[1])} up" if isinstance(ap, list | tuple) and len(ap) == 2 else ""
        )
        out.append(Card(str(c["ref"]), str(c.get("gun", "")), str(c.get("side", c.get("nation", ""))), where))
    return out


# -- organisation sheet -------------------------------------------------------------------------------------
@dataclass
class OrgLine:
    depth: int
    name: str
    detail: str
    boxes: int  # tick boxes for stands lost


@dataclass
class Organisation:
    title: str
    lines: list[OrgLine]
    source: str = ""


def _walk(node: ForceNode, depth: int, out: list[OrgLine]) -> None:
    children = node.children
    detail = ", ".join(
        fmt(v) for v in (node.level, node.kind, node.quality, node.base) if v not in (None, "")
    )
    out.append(OrgLine(depth, node.name, detail, 0 if children else node.models))
    for child in children:
        _walk(child, depth + 1, out)


def organisation(force: ForceNode) -> Organisation:
    """A force tree as its rule set builds it, down to stands (a box each to tick off a loss)."""
    lines: list[OrgLine] = []
    _walk(force, 0, lines)
    return Organisation(f"Organisation: {force.name}", lines, fmt(force.source))
