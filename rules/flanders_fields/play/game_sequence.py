"""Flanders Fields' turn as the game follows it: the period's order sequence as the core's steps, what the
table may do now (whose orders reach a stand), what a step still needs, and what happens as a turn starts
(the deep suppression rolled anew, the rolling barrages advancing)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import cast

from rules.core.acts import Act, Roll
from rules.core.errors import Refusal
from rules.core.game import GameRules, Member, Position, ancestor_at
from rules.core.records import Change, SetBoard, Snapshot
from rules.core.records import by_id as units_by_id
from rules.core.turn import Notice, Permit, Step
from rules.flanders_fields.book import sequence as S
from rules.flanders_fields.book.common import PERIODS, PeriodId
from rules.flanders_fields.play import game_reinforcements
from rules.flanders_fields.play.board_items import Barrage
from rules.flanders_fields.play.changes import (
    ActionsLapsed,
    ActionUnderWay,
    DeepSuppressionSet,
    SuppressionCleared,
)
from rules.flanders_fields.play.game_fire import fire_forbidden
from rules.flanders_fields.play.game_orders import SRC_ACTIONS, orders_forbidden
from rules.flanders_fields.play.game_table import barrage_step
from rules.flanders_fields.play.game_turn import wind_due
from rules.flanders_fields.play.units import (
    ARTILLERY_KINDS,
    NO_READINGS,
    SRC_ORDERED_UNITS,
    order_unit,
    ordered_unit,
    suppression_level,
)
from rules.flanders_fields.resolvers.artillery import SRC_DEEP_SUPPRESSION
from rules.flanders_fields.resolvers.orders import BATTALION_UNITS
from rules.flanders_fields.resolvers.suppression import SRC_RECOVERY, recovers_automatically
from rules.flanders_fields.ruleset import cite
from rules.table.frame import Table

TURN_SOURCE = S.TURN_SOURCE
SET_UP_SOURCE = S.GAME_SEQUENCE
SET_UP_NEEDS = ("deploy both forces (defender first, a battalion at a time)",)
END_OF_TURN_SOURCE = cite("SUPPRESSION, RECOVERY FROM BATTLE SUPPRESSION")
# The acts a step's orders give to some units only: the rest need not know whose orders reach the stand
# (markers land wherever fire lands, states are recorded as they happen).
ORDERED_ACTS = frozenset({"move-stands", "recover-markers", "redirect-aiming-points"})

# "It advances its own width at the start of the attacking side's turn." (ROLLING BARRAGE)
BARRAGE_ADVANCE_CM = 20.0
BARRAGE_SOURCE = cite("ROLLING BARRAGE")


def period_of(period: str | None) -> PeriodId:
    return next((p for p in PERIODS if p == period), "early")


@cache
def _steps(period: PeriodId) -> tuple[Step, ...]:
    return tuple(
        Step(
            s.id,
            s.number,
            s.printed,
            s.title,
            s.source,
            s.does,
            tuple(Permit(p.action, tuple(p.units), p.quote, p.source) for p in s.permits),
            s.resolvers,
            s.attacker_only,
        )
        for s in S.SEQUENCES[period].steps
    )


def _classes_of(
    unit: Member, units: Sequence[Member], variants: Mapping[str, str] = NO_READINGS
) -> tuple[S.UnitClass, ...]:
    """Whose orders reach a stand: those of the nearest unit above it (or itself) that is ordered, as the
    order-roll resolver knows it by the game's readings (a platoon is ordered with its company, a battery as
    artillery, and under erratum artillery-roll-per: brigade its artillery group for it). A unit no table
    orders is under a battalion's orders when it stands under a battalion, unless it is artillery: an
    artillery group stands at a battalion's level but is the Regiment/Brigade commander's ("Only the
    Brigade commander may issue orders to the artillery batteries"), whoever rolls for it."""
    by_id: Mapping[int | None, Member] = units_by_id(units)  # the index the units carry, where they do
    parent = by_id.get(unit.parent_id)
    by_order = ordered_unit(unit, by_id, variants)
    ordered = order_unit(by_order, by_id, variants) if by_order is not None else None
    return S.unit_classes(
        is_command=unit.is_command,
        under_battalion=ordered in BATTALION_UNITS
        if ordered is not None
        else unit.kind not in ARTILLERY_KINDS and ancestor_at(unit, "battalion", by_id) is not None,
        commands_battalion=parent is not None and parent.level == "battalion",
    )


class FlandersFieldsTurn(GameRules):
    """Flanders Fields' alternating turn: the attacker's, then the defender's, each through the period's order
    sequence, whose steps say which stands may act (whose orders reach them)."""

    def steps(self, period: str | None) -> tuple[Step, ...]:
        return _steps(period_of(period))

    def allowed_now(self, status: str, period: str | None, now: Position) -> list[str]:
        return S.allowed_now(status, period_of(period), now.step, now.side)

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
        classes = _classes_of(unit, units) if unit is not None and action in ORDERED_ACTS else S.ANY_UNIT
        act = S.Act(cast(S.Action, action), side, classes)
        return S.refusal(status, period_of(period), now.step, now.side, act)

    def roll_refusal(
        self, status: str, snapshot: Snapshot, now: Position, roll: Roll, side: str
    ) -> str | None:
        """The step and the side a roll belongs to (book.sequence.roll_refusal), read from the table: its unit's
        side and whose orders reach it, and the side to move by its nation ("German")."""
        unit = snapshot.unit(roll.unit_id) if roll.unit_id is not None else None
        asked = S.RollAsked(
            roll.resolver,
            unit.side if unit is not None else side,
            _classes_of(unit, snapshot.units, snapshot.variants) if unit is not None else None,
        )
        mover = snapshot.nations.get(now.side, "").capitalize()
        return S.roll_refusal(status, period_of(snapshot.period), now.step, now.side, asked, mover)

    def forbidden(self, snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
        return (*orders_forbidden(snapshot, act), *fire_forbidden(snapshot, act))

    def needs(self, snapshot: Snapshot, step_id: str) -> list[str]:
        """What the step still needs beyond its own words: morale tests due, stands to roll under barrages, the
        gas-wind roll."""
        snap = snapshot
        needs: list[str] = game_reinforcements.needs(snap)
        due = [u for u in snap.units if u.state.get("morale_due")]
        if due:
            needs.append("morale tests due: " + ", ".join(u.name for u in due))
        if step_id == "rolling-barrages":
            for b in snap.board.get("barrages", ()):
                if b["side"] != snap.side_to_move:
                    continue
                lo, hi = b.get("covers_y", [b["front_y"], b["front_y"]])
                if b.get("pending"):
                    needs.append(
                        f"the barrage {lo:g}-{hi:g} cm up the table: roll for the rolling barrage on "
                        + ", ".join(snap.unit(i).name for i in b["pending"])
                    )
                if b.get("danger"):
                    needs.append(
                        f"the barrage {lo:g}-{hi:g} cm up the table: roll for the danger to "
                        + ", ".join(snap.unit(d["unit"]).name for d in b["danger"])
                        + " in the 6 cm behind it"
                    )
        if step_id == "gas" and wind_due(snap.board, snap.turn, snap.side_to_move):
            needs.append("roll for the gas wind: the wind moves every gas cloud on the table")
        return needs


def turn_started(snapshot: Snapshot) -> tuple[tuple[Notice, ...], tuple[Change, ...]]:
    """A new turn needs a new deep-suppression roll; the side's barrages fire another turn: lifted once
    their duration is over, else advanced (or halted, "A Rolling Barrage may be ordered to halt for one
    turn")."""
    snap = snapshot
    changes: list[Change] = []
    if snap.side_to_move == "attacker" and snap.board.get("deep_suppression"):
        changes.append(DeepSuppressionSet("a new turn needs a new roll", SRC_DEEP_SUPPRESSION, 0))
    notices: list[Notice] = []
    barrages: list[Barrage] = []
    table = Table(snap.table_width_cm, snap.table_length_cm)
    b: Barrage
    for b in snap.board.get("barrages", ()):
        if b["side"] == snap.side_to_move:
            b = {**b, "turns_fired": b["turns_fired"] + 1}
            if b["turns_fired"] > b["duration_turns"]:
                notices.append(Notice("barrage-lifted", {"barrage": b}, BARRAGE_SOURCE))
                continue
            halted = snap.turn in b.get("halts", [])
            b = barrage_step(b, 0.0 if halted else BARRAGE_ADVANCE_CM, snap.units, table)
            notices.append(
                Notice("barrage-halted" if halted else "barrage-advanced", {"barrage": b}, BARRAGE_SOURCE)
            )
        barrages.append(b)
    changes.append(SetBoard("the barrages fire another turn", BARRAGE_SOURCE, "barrages", tuple(barrages)))
    return tuple(notices), tuple(changes)


def turn_ended(snapshot: Snapshot, side: str) -> tuple[Change, ...]:
    """Battalion and higher command stands recover at the end of their own turn; unspent actions lapse."""
    changes: list[Change] = []
    for u in snapshot.units:
        if u.side != side or u.killed:
            continue
        if u.suppression and u.is_command and recovers_automatically(suppression_level(u)):
            changes.append(
                SuppressionCleared(f"{u.name} recovers at the end of its turn", SRC_RECOVERY, u.id)
            )
        if u.actions_left:
            changes.append(ActionsLapsed(f"{u.name}'s unspent actions lapse", SRC_ORDERED_UNITS, u.id))
        if u.state.get("action_under_way"):
            changes.append(ActionUnderWay(f"{u.name}'s turn is over", SRC_ACTIONS, u.id, None))
    return tuple(changes)
