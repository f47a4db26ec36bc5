"""The luck ledger of a game (issue 26): every roll at the odds it was rolled at. Each roll event keeps its
resolution, with the exact probability of every outcome (`probabilities_exact`) as the resolver gave it then,
so the ledger reads the log alone and later rule changes cannot alter it. Built from the events as this viewer
reads them (events.event_dict), so a secret another side holds (a card draw's odds, an aiming point) is no
more here than in the log."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.data.schemas_report import (
    LedgerOut,
    LuckRollOut,
    OutcomeTallyOut,
    ResolverTallyOut,
)
from app.services.events import ROLL_KINDS
from rules.core.consequences import odds_words
from rules.core.vocabulary import SIDES

NOT_RECORDED = "odds not recorded"  # a roll logged before its odds were kept
NOT_SHOWN = "odds not shown"  # a roll this viewer reads without its odds (the other side's draw)


@dataclass(frozen=True)
class Roll:
    event_id: int
    turn: int
    side: str
    unit_id: int | None
    unit: str
    resolver: str
    outcome: str  # the outcome's key ("killed", "retreat-20")
    odds: Mapping[str, Fraction] | None  # every outcome's exact probability when it was rolled
    missing: str  # why odds is None
    changed: bool  # the result changed the table (a change was written)
    by_app: bool = False  # firestep rolled the dice (else the players rolled theirs and entered them)

    @property
    def p(self) -> Fraction | None:
        return self.odds.get(self.outcome) if self.odds is not None else None

    def as_dict(self) -> LuckRollOut:
        p = self.p
        return {
            "event_id": self.event_id,
            "turn": self.turn,
            "side": self.side,
            "unit_id": self.unit_id,
            "unit": self.unit,
            "resolver": self.resolver,
            "outcome_key": self.outcome,
            "probability": _exact(p) if p is not None else None,
            "probabilities_exact": {k: _exact(v) for k, v in self.odds.items()} if self.odds else None,
            "odds": odds_words(p) if p is not None else self.missing,
            "changed_the_table": self.changed,
            "rolled_by": "firestep" if self.by_app else "players",
        }


def _exact(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _odds(res: Mapping[str, Any]) -> tuple[dict[str, Fraction] | None, str]:
    exact = res.get("probabilities_exact")
    if isinstance(exact, Mapping) and exact:
        return {str(k): Fraction(str(v)) for k, v in exact.items()}, ""
    # The other side's draw is read without its dice and odds; an old roll has its dice but no odds.
    return None, NOT_RECORDED if "dice" in res else NOT_SHOWN


def rolls(
    events: Iterable[Mapping[str, Any]],
    sides: Mapping[int, str],
    names: Mapping[int, str],
    undone: set[int],
) -> list[Roll]:
    """The rolls that stand (not undone) in the events, as a viewer reads them. A roll is its unit's side's,
    else the side that acted, else (a planned bombardment's roll) the side whose plan arrived."""
    out: list[Roll] = []
    planner = ""
    for ev in events:
        payload: Mapping[str, Any] = ev.get("payload") or {}
        if ev["kind"] == "fire-plan-arrival":
            planner = str((payload.get("item") or {}).get("side", ""))
        if ev["kind"] not in ROLL_KINDS or ev["id"] in undone or ev.get("reverses_id"):
            continue
        actor = str(ev.get("actor", ""))
        # An arrived item's fire is one event of many rolls (its action roll, one per stand under it): the
        # planner's, as its fire.
        planned = str((payload.get("item") or {}).get("side", "")) if "rolls" in payload else ""
        for one in payload.get("rolls") or [payload]:
            res: Mapping[str, Any] = one.get("resolution") or {}
            if res.get("dice") == []:  # worked out without a die (hits allocated): no luck in it
                continue
            unit_id = one.get("unit_id") if isinstance(one.get("unit_id"), int) else None
            side = (
                planned
                or sides.get(unit_id or -1)
                or (actor if actor in SIDES else planner if ev["kind"] == "arrival-roll" else "")
            )
            odds, missing = _odds(res)
            out.append(
                Roll(
                    event_id=int(ev["id"]),
                    turn=int(ev["turn"]),
                    side=side or str(ev.get("side", "")),
                    unit_id=unit_id,
                    unit=names.get(unit_id, "") if unit_id is not None else "",
                    resolver=str(one.get("resolver") or res.get("resolver", "")),
                    outcome=str(res.get("outcome_key", "")),
                    odds=odds,
                    missing=missing,
                    changed=bool(payload.get("changes")),
                    by_app=bool(res.get("rolled_by_server")),
                )
            )
    return out


def expected_against_actual(side_rolls: Sequence[Roll]) -> list[ResolverTallyOut]:
    """Per resolver, per outcome: how many the recorded odds made likely (the sum of that outcome's
    probability over the rolls) against how many came up."""
    out: list[ResolverTallyOut] = []
    for resolver in dict.fromkeys(r.resolver for r in side_rolls):
        mine = [r for r in side_rolls if r.resolver == resolver and r.odds is not None]
        if not mine:
            continue
        keys = dict.fromkeys(k for r in mine for k in (r.odds or {}))
        outcomes: list[OutcomeTallyOut] = []
        for key in keys:
            expected = sum(((r.odds or {}).get(key, Fraction(0)) for r in mine), Fraction(0))
            outcomes.append(
                {
                    "outcome_key": key,
                    "expected": _exact(expected),
                    "expected_approx": round(float(expected), 2),
                    "actual": sum(1 for r in mine if r.outcome == key),
                }
            )
        out.append({"resolver": resolver, "rolls": len(mine), "outcomes": outcomes})
    return out


def ledger(
    events: Sequence[Mapping[str, Any]],
    sides: Mapping[int, str],
    names: Mapping[int, str],
    undone: set[int],
) -> LedgerOut:
    """The ledger of the events a viewer reads: per side the expected against the actual results and its
    rolls. The story of the game (app.services.story) tells which rolls decided it."""
    all_rolls = rolls(events, sides, names, undone)
    return {
        "sides": {
            side: {
                "rolls": [r.as_dict() for r in all_rolls if r.side == side],
                "expected_against_actual": expected_against_actual([r for r in all_rolls if r.side == side]),
                "odds_missing": sum(1 for r in all_rolls if r.side == side and r.odds is None),
            }
            for side in SIDES
        },
    }
