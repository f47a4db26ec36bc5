"""Battalion morale: due at 50% rifle platoons lost, again at 75% with -2; one D6 on the morale table."""

from __future__ import annotations

from typing import TypedDict

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier, ModifierDict
from rules.core.ruleset import Context, Resolver
from rules.flanders_fields import errata as E
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.common import FFRequest, Quality
from rules.flanders_fields.book.special_rules import SpecialRuleId, accept_special_rule, refuse, rules_for
from rules.flanders_fields.ruleset import FlandersFields, cite

RESOLVER = "morale"


class MoraleDetails(TypedDict):
    """What a morale answer says besides its result: whether a test was due (and at 75%), the band's words and
    what it does to the battalion, and the notes."""

    test_due: bool
    at_75_percent: bool
    meaning: str
    retreat_cm: int
    suppressed: bool
    abandon_crewed_weapons: bool
    removed: bool
    notes: list[str]


class MoraleResult(TypedDict):
    """A line of the morale table: the roll as printed, its outcome and what it does."""

    roll: str
    outcome: str
    text: str
    retreat_cm: int
    suppressed: bool
    abandon_crewed_weapons: bool
    removed: bool


class MoraleTable(TypedDict):
    period: str | None
    source: str
    when: str
    results: list[MoraleResult]
    modifiers: list[ModifierDict]
    notes: list[str]


class MoraleRequest(FFRequest):
    quality: Quality = Field(default="experienced", description="The battalion's quality.")
    starting_platoons: int = Field(
        ge=1, le=100, description="Rifle platoons the battalion started the game with."
    )
    lost_platoons: int = Field(ge=0, le=100, description="Rifle platoons lost so far.")
    special_rule: SpecialRuleId | None = Field(
        default=None, description="pals, stubborn-resistance, storm-troops or (variant) prussian-discipline."
    )


def morale_test_due(starting: int, lost: int) -> tuple[bool, bool]:
    """(a test is due, at the 75% level): 'reduced to 50% of its starting strength' and '75%'."""
    return 2 * lost >= starting, 4 * lost >= 3 * starting


@FlandersFields.resolver
class Morale(Resolver[MoraleRequest]):
    id = RESOLVER
    summary = "Battalion morale test (50% and 75% rifle platoon losses)"
    Request = MoraleRequest
    examples = (
        {"period": "early", "quality": "veteran", "starting_platoons": 12, "lost_platoons": 6, "dice": [2]},
        {
            "period": "mid",
            "quality": "raw",
            "starting_platoons": 16,
            "lost_platoons": 12,
            "special_rule": "pals",
        },
        {
            "period": "late",
            "starting_platoons": 12,
            "lost_platoons": 9,
            "special_rule": "stubborn-resistance",
        },
    )

    def check(self, req: MoraleRequest, ctx: Context) -> None:
        if req.lost_platoons > req.starting_platoons:
            raise RulesError(
                "lost_platoons", f"cannot lose more than the {req.starting_platoons} platoons it started with"
            )
        rule = accept_special_rule(req.special_rule, ctx.period, RESOLVER)
        if rule is None:
            return
        allowed = rules_for(RESOLVER, ctx.period)
        if rule.id == "pals" and req.quality != "raw":
            raise refuse(rule, "only raw battalions may invoke it", allowed)
        if rule.id == "prussian-discipline" and not ctx.value(E.PRUSSIAN_DISCIPLINE_MORALE):
            raise refuse(
                rule,
                f"applies to action rolls only (variant {E.PRUSSIAN_DISCIPLINE_MORALE}=action-or-morale adds morale)",
                [r for r in allowed if r != "prussian-discipline"],
            )
        if rule.id == "storm-troops" and req.quality != "storm":
            raise RulesError(
                "quality", "a Storm Troop battalion is always classed as Veteran (quality storm)", ["storm"]
            )

    def evaluate(self, req: MoraleRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        sheet = cite(T.MORALE_SECTION, ctx.period)
        due, at_75 = morale_test_due(req.starting_platoons, req.lost_platoons)
        mods: list[Modifier] = []
        notes: list[str] = []
        if T.MORALE_QUALITY[req.quality]:
            label = "Veteran Troops" if T.MORALE_QUALITY[req.quality] > 0 else "Raw Troops"
            mods.append(Modifier(label, T.MORALE_QUALITY[req.quality], sheet))
        if at_75:
            mods.append(Modifier("75% Casualties", T.MORALE_75, sheet))
        rule = accept_special_rule(req.special_rule, ctx.period, RESOLVER)
        if rule is not None and rule.modifier:
            src = (
                ctx.citation(E.PRUSSIAN_DISCIPLINE_MORALE)
                if rule.id == "prussian-discipline"
                else rule.source
            )
            mods.append(Modifier(rule.name, rule.modifier, src))
        total = dice[0] + sum(m.value for m in mods)
        band = T.morale_band(total)
        if not due:
            notes.append("No test due: the battalion has not lost 50% of its rifle platoons.")
            band = T.MORALE_BANDS[-1]
        elif rule is not None and rule.id == "stubborn-resistance" and band.key != "ok":
            notes.append(
                f"Stubborn Resistance: the result '{band.text}' is ignored; the battalion remains in place."
            )
            band = T.MORALE_BANDS[-1]
        notes.append(
            "Troops which have suffered from a poor morale result carry out the result as soon as it is determined."
        )
        notes.append(
            "Non battalion crewed weapons (and block houses) roll separately when their rifle battalion routs or is destroyed."
        )
        details: MoraleDetails = {
            "test_due": due,
            "at_75_percent": at_75,
            "meaning": band.text,
            "retreat_cm": band.retreat_cm,
            "suppressed": band.suppressed,
            "abandon_crewed_weapons": band.abandon_crewed_weapons,
            "removed": band.removed,
            "notes": notes,
        }
        return Evaluation(
            band.key, band.key, tuple(mods) if due else (), total if due else None, (sheet,), details
        )


def morale_table_dataset(period: str | None) -> MoraleTable:
    sheet = cite(T.MORALE_SECTION, period)
    return {
        "period": period,
        "source": sheet,
        "when": "If a battalion's RIFLE PLATOONS are reduced to 50% it must roll morale. Roll again at -2 when "
        "rifle company casualties reach 75%.",
        "results": [
            {
                "roll": b.printed,
                "outcome": b.key,
                "text": b.text,
                "retreat_cm": b.retreat_cm,
                "suppressed": b.suppressed,
                "abandon_crewed_weapons": b.abandon_crewed_weapons,
                "removed": b.removed,
            }
            for b in T.MORALE_BANDS
        ],
        "modifiers": [
            {"label": "Veteran Troops", "value": 1, "source": sheet},
            {"label": "Raw Troops", "value": -1, "source": sheet},
            {"label": "75% Casualties", "value": T.MORALE_75, "source": sheet},
        ],
        "notes": [
            "Any troops who are suppressed may be recovered in the normal manner.",
            "Non battalion crewed weapons roll separately when their supporting rifle battalion routs or is "
            "destroyed.",
        ],
    }


FlandersFields.dataset("morale-table", "Battalion morale table", per_period=True)(morale_table_dataset)
