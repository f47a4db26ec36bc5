"""What a 2mm Earth 1418 game tells of its units in the book's words: a sub-unit's injuries, posture, plan and
its strategic formation's command on the referee board, and a formation's bases lost in the after-action
report (no morale test: the book has none)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core.game import Casualties, GameRules, Held, Member, leaves_under
from rules.core.records import UnitState
from rules.earth2mm.data import SRC_ARMING
from rules.earth2mm.play import units as U
from rules.earth2mm.play.fields import STATE_FIELDS, plan_anonymous
from rules.earth2mm.play.shots import posture
from rules.earth2mm.play.steps import ALLOCATE, BOMBARD, RECOVERY, SHOOT
from rules.earth2mm.ruleset import Earth2mm, cite

SRC_FORMATIONS = cite("STRATEGIC FORMATIONS")
# A base is a platoon ("Each sub-unit constitutes a number of bases (platoons)", STRATEGIC FORMATIONS), and
# "One hit injures, two hits removes permanently" (ARMING and RESILIENCE): a base lost is a platoon gone.
CASUALTY_WORDS = "one hit injures, two hits remove a base (a platoon) permanently"
_DEFAULTS = {f.name: f.default for f in STATE_FIELDS}


class EarthCasualties(Casualties):
    """The platoons the bases removed stand for, in the book's words (it counts no men)."""

    platoons: int
    words: str


class EarthReport(GameRules):
    """2mm Earth 1418's report: the referee board's words of a unit, a roll in the book's words, the bases
    lost."""

    def board_notes(
        self, unit: Held, parent: Held | None, children: Sequence[Held], variants: Mapping[str, str]
    ) -> tuple[tuple[str, str], ...]:
        """A sub-unit's injured bases (fresh and old), its posture, its plan and its SF's command; a base's
        injury; an SF's command."""
        if unit.level == U.BASE:
            injury = unit.state.get("base_injury")
            return (("", f"{injury} injury"),) if injury else ()
        if unit.level != U.SUB_UNIT:
            command = unit.state.get("high_command")
            return (("command", str(command)),) if command else ()
        notes: list[tuple[str, str]] = []
        bases = [b.state.get("base_injury") for b in children if not b.killed]
        injured = [f"{bases.count(kind)} {kind}" for kind in ("fresh", "old") if bases.count(kind)]
        if injured:
            notes.append(("", f"{', '.join(injured)} injured"))
        state = {**_DEFAULTS, **unit.state}
        company = UnitState(unit.id or 0, unit.parent_id, "", unit.level, unit.kind, state=state)
        kind, _ = posture(company, Earth2mm().context(None, variants))
        dug = int(unit.state.get("dug_in_bounds", 0))
        notes.append(("", f"dug in ({dug} bound{'s' if dug > 1 else ''})" if kind == "dug-in" else kind))
        if unit.state.get("sub_plan"):
            # A battery's plan is made "Anon" (PLANNING (1)-(2)): the board, read by both sides, says only that
            # it has one until it fires or moves.
            notes.append(("plan", "anon" if plan_anonymous(unit) else str(unit.state["sub_plan"])))
        if unit.state.get("hits_to_allocate"):
            notes.append(("hits to allocate", str(unit.state["hits_to_allocate"])))
        if parent is not None and parent.state.get("high_command"):
            notes.append(("SF", str(parent.state["high_command"])))
        return tuple(notes)

    def roll_words(
        self, resolver: str, resolution: Mapping[str, Any], target: str, decisive: bool = False
    ) -> str:
        """A shot, a melee, hits allocated, a recovery die and a bombardment, each in the book's words ("fought
        1. Kompanie in melee: 2 hits") for a decisive moment; the story tells none of them in a bound's
        sentences (its bases injured and removed say what they did)."""
        if not decisive:
            return ""
        key = str(resolution.get("outcome_key", ""))
        at = f" {target}" if target else ""
        if resolver == SHOOT:  # a shot's details say whether it was fought with the m side of Arming
            return f"fought{at} in melee: {key}" if resolution.get("melee") else f"shot at{at}: {key}"
        if resolver == ALLOCATE:
            return f"allocated its hits on{at}: {key}"
        if resolver == RECOVERY:
            return f"rolled its recovery die: {key.replace('-', ' ')}"
        if resolver == BOMBARD:
            return f"bombarded{at}: {key}"
        return ""

    def losses(self, formation: Member, units: Sequence[Member]) -> tuple[int, int]:
        """A formation's bases: (at the start, removed)."""
        bases = [u for u in leaves_under(formation, units) if u.level == U.BASE]
        return len(bases), sum(1 for u in bases if u.killed)

    def casualties(self, period: str | None, variants: Mapping[str, str], bases: int) -> EarthCasualties:
        """The platoons `bases` removed stand for: the book counts no men."""
        return {
            "bases": bases,
            "platoons": bases,
            "words": CASUALTY_WORDS,
            "sources": [SRC_FORMATIONS, SRC_ARMING],
        }
