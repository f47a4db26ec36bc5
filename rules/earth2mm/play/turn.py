"""2mm Earth 1418's bound as the game hook's turn (rules.core.game.Book.bound): its steps (steps.py), who may do
what in which step, what the rules of play forbid of an act (judge.py), what a step still needs and what the
end of the bound does to the table (ends.py)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.acts import Act, Roll
from rules.core.errors import Refusal
from rules.core.game import TURN_ENDED, GameRules, Member, Position
from rules.core.records import Change, Snapshot
from rules.core.turn import Notice, Step
from rules.earth2mm.play import units as U
from rules.earth2mm.play.artillery import drifted
from rules.earth2mm.play.ends import bound_ended, needs
from rules.earth2mm.play.fields import DIG_ACT, LEAVE_ACT, PLAN_ACT
from rules.earth2mm.play.judge import Board, forbidden, shooting_steps
from rules.earth2mm.play.shots import melee_now
from rules.earth2mm.play.steps import (
    SHOOT,
    SRC_BOUNDS,
    STEP_INDEX,
    STEP_ROLLS,
    STEPS,
    printed_number,
    step_refusal,
)
from rules.earth2mm.ruleset import Earth2mm
from rules.registry import get_game_rules

_SUB_UNIT_ACTS = (PLAN_ACT, DIG_ACT, LEAVE_ACT)


def board(snapshot: Snapshot) -> Board:
    """The snapshot with the game's table kit (its bases' sizes)."""
    return Board(snapshot, get_game_rules(Earth2mm.id).book.kit.bases)


class EarthBound(GameRules):
    """The bound: every step both sides' (BOUNDS: "a series of actions performed by both players")."""

    def steps(self, period: str | None) -> tuple[Step, ...]:
        return STEPS

    def allowed_now(self, status: str, period: str | None, now: Position) -> list[str]:
        if status != "playing" or now.step >= len(STEPS):
            return []
        return [f"{p.action.replace('-', ' ')}: “{p.quote}”" for p in STEPS[now.step].permits]

    def refusal(
        self,
        status: str,
        period: str | None,
        now: Position,
        action: str,
        side: str | None,
        unit: Member | None,
        units: Sequence[Member],
    ) -> str | None:
        """The step that permits the act (the unit it is done to is the unit edit's to check: game.edited)."""
        return None if status != "playing" else step_refusal(now, action)

    def roll_refusal(
        self, status: str, snapshot: Snapshot, now: Position, roll: Roll, side: str
    ) -> str | None:
        """A roll only in the step that names it, and a shot only in the step that names its sub-unit."""
        if status != "playing" or roll.resolver not in STEP_ROLLS:
            return None
        refused = step_refusal(now, roll.resolver)
        if refused is not None or roll.resolver != SHOOT or roll.unit_id is None:
            return refused
        b = board(snapshot)
        company = b.sub_unit(roll.unit_id)
        step = STEPS[now.step]
        melee = melee_now(snapshot, roll.fields)
        if melee != (step.id == "melee"):
            return Refusal(
                "Melee is fought in the melee step, shooting in the executing steps",
                f"“{STEPS[STEP_INDEX['melee']].printed}” follows the executing steps (BOUNDS)",
                SRC_BOUNDS,
            )
        if company is None or melee or company.kind not in U.UNITS:
            return None
        named = shooting_steps(company, b)
        if step.id in named:
            return None
        where = [STEPS[STEP_INDEX[s]] for s in named]
        return Refusal(
            f"{company.name} shoots in executing step {' or '.join(printed_number(s) for s in where) or 'none'} "
            "this bound",
            "“Execute moving and shooting as shown in Order chart”: "
            + (
                "; ".join(f"“{s.printed}”" for s in where)
                or "no executing step names it (it moved or dug in last bound)"
            )
            + " (PLANNING & EXECUTING)",
            STEPS[STEP_INDEX["execute-1"]].source,
        )

    def forbidden(self, snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
        return forbidden(board(snapshot), act)

    def needs(self, snapshot: Snapshot, step_id: str) -> list[str]:
        return needs(board(snapshot), step_id)

    def between_turns(self, snapshot: Snapshot, moment: str) -> tuple[tuple[Notice, ...], tuple[Change, ...]]:
        """As the bound ends: its casualties, hits and clouds (ends.bound_ended)."""
        return (), bound_ended(board(snapshot), drifted) if moment == TURN_ENDED else ()
