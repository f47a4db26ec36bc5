"""What a 2mm Earth 1418 stand's card offers besides its rolls: the unit edits of the bound's planning (HIGH
COMMANDS; PLANNING & EXECUTING; DIGGING IN & COVER). A base tapped on the map offers its strategic formation's
high command, its sub-unit's plan (the plans the high commands chart allows it, each with the enemy sub-unit it
shoots or assaults tapped on the map) and digging in, each where the judge (judge.forbidden) would allow it.
The step each edit's act belongs to is the turn's to check (steps.step_refusal, asked by the app)."""

from __future__ import annotations

from rules.core.acts import EditUnit
from rules.core.records import EditChoice, Snapshot, StandEdit
from rules.earth2mm.data import COMMANDS
from rules.earth2mm.play import units as U
from rules.earth2mm.play.fields import EarthFields
from rules.earth2mm.play.judge import Board, dug_in, forbidden
from rules.earth2mm.play.kit import KIT
from rules.earth2mm.resolvers import allowed_plans

TARGET_FIELD = "plan_target"


def _words(value: str) -> str:
    return value.capitalize()


class EarthCardFields(EarthFields):
    """The unit's state fields, with the edits its stand card offers."""

    def stand_edits(self, snapshot: Snapshot, unit_id: int) -> tuple[StandEdit, ...]:
        stand = snapshot.unit(unit_id)
        if snapshot.turn < 1 or stand.killed:
            return ()
        b = Board(snapshot, KIT.bases)
        company = U.sub_unit_of(stand, snapshot.by_id)
        sf = U.formation_of(stand, snapshot.by_id) if company is not None else None
        out: list[StandEdit] = []
        if sf is not None:
            now = sf.state.get("high_command", "")
            why = f"{sf.name}'s high command{f': now {now.upper()}' if now else ''}"
            out.append(
                StandEdit(
                    f"Command {sf.name}",
                    "high_command",
                    sf.id,
                    why,
                    tuple(EditChoice(c, _words(c)) for c in COMMANDS),
                )
            )
        if company is None:
            return tuple(out)
        command = b.command(company)

        def allowed(values: dict[str, str | bool]) -> bool:
            return not forbidden(b, EditUnit(unit_id=company.id, version=0, values=values))

        # Planned in its own planning step, under a command: the plans the chart allows it there.
        if command and allowed({"sub_plan": ""}):
            plans = allowed_plans(b.ctx, command, dug_in(company), bool(company.state.get("under_fire")))  # type: ignore[arg-type]
            # An assault waits for its target's tap; another plan is offered where the rules of play take it (a
            # sub-unit carrying its assault on plans nothing else).
            plans = [p for p in plans if p == "assault" or allowed({"sub_plan": p})]
            choices = tuple(EditChoice(p, _words(p), TARGET_FIELD, p == "assault") for p in plans)
            why = f"{company.name} plans under {command.upper()}"
            out.append(StandEdit(f"Plan {company.name}", "sub_plan", company.id, why, choices))
        if command and not company.state.get("digging_in") and allowed({"digging_in": True}):
            why = f"{company.name} may dig in under {command.upper()}"
            out.append(StandEdit("Dig in", "digging_in", company.id, why, (EditChoice(True, "Dig in"),)))
        return tuple(out)
