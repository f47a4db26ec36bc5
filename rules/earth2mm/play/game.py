"""Battle for 2mm Earth 1418 played as a game: the hook (rules.core.game.GameRules) assembled from its modules'
objects, each the rule set's own (its unit state, its bound, its rolls, its sealed artillery, its table, its new
games and its table kit), with what a unit edit and a move write besides their values."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from rules.core.acts import Act, AddUnit, EditUnit, MoveFormation, MoveStand
from rules.core.errors import RulesError
from rules.core.game import Answer, Book, GameRules
from rules.core.records import Change, SetBoard, SetState, Snapshot, StandAct, StandEdit
from rules.earth2mm.data import COMMANDS, SRC_COMMANDS, SRC_COVER, SRC_ORDER
from rules.earth2mm.play import units as U
from rules.earth2mm.play.artillery import FIRE_PLAN_TERMS, EarthFirePlan
from rules.earth2mm.play.card import EarthCardFields
from rules.earth2mm.play.errata import SCENARIO_VICTORY
from rules.earth2mm.play.fields import EDIT_ACTS, STATE_FIELDS, Earth2mmUnitState
from rules.earth2mm.play.judge import Board, destinations, dug_in
from rules.earth2mm.play.kit import KIT
from rules.earth2mm.play.report import EarthReport
from rules.earth2mm.play.rolls import ROLL_TERMS, EarthRolls
from rules.earth2mm.play.setup import CHART, DOCUMENTS, UNIT_KINDS
from rules.earth2mm.play.sheet import EarthSheet
from rules.earth2mm.play.shots import cover_terrain, stands
from rules.earth2mm.play.steps import SRC_BOUNDS, SRC_CASUALTIES
from rules.earth2mm.play.table import ROUGH_GROUND_KEY, EarthTable, RoughGround
from rules.earth2mm.play.turn import EarthBound
from rules.earth2mm.play.units import LEVELS, QUALITIES
from rules.earth2mm.resolvers import PLANS
from rules.earth2mm.ruleset import Earth2mm
from rules.registry import register_game
from rules.table.bases import Stand

# The fields of a unit edit that are a sub-unit's plan for the bound.
SUB_UNIT_FIELDS = frozenset({"sub_plan", "plan_target", "digging_in", "leaving_dugout"})
_PLANS = sorted({p for by_situation in PLANS.values() for plans in by_situation for p in plans})


BOOK = Book(
    ruleset_id=Earth2mm.id,
    bound=True,
    turn_word="bound",
    turn_source=SRC_BOUNDS,
    end_source=SRC_CASUALTIES,
    state_fields=STATE_FIELDS,
    unit_state=Earth2mmUnitState,
    edit_acts=EDIT_ACTS,
    roll_terms=ROLL_TERMS,
    plan_terms=FIRE_PLAN_TERMS,
    kit=KIT,
    tests_losses=False,
    losses_counted="platoons",
    stand_word="base",
    told_fields=("base_injury",),  # the story tells a base injured ("Injured"), its removal as a loss
    unit_levels=LEVELS,
    unit_kinds=UNIT_KINDS,
    qualities=QUALITIES,
    force_chart=CHART,
    scenarios=DOCUMENTS,
    victory_erratum=SCENARIO_VICTORY,
    victory_source=SRC_BOUNDS,
)


class EarthGame(EarthRolls, EarthFirePlan, EarthBound, EarthCardFields, EarthTable, EarthReport, EarthSheet):
    """The core's game with the words a unit edit may set checked, and a move's bookkeeping: how far each base
    has moved this bound, that its sub-unit moved, and the ground a dug-in sub-unit leaves in the open."""

    book = BOOK

    def stand_card(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct | StandEdit, ...]:
        """A stand's rolls (`EarthRolls.stand_acts`), then its sub-unit's and formation's edits (`stand_edits`)."""
        return (*self.stand_acts(snapshot, unit_id), *self.stand_edits(snapshot, unit_id))

    def play(self, snapshot: Snapshot, act: Act) -> Answer:
        if isinstance(act, EditUnit):
            return Answer(edited(snapshot, act))
        if isinstance(act, AddUnit):
            words_checked(act.fields.get("state") or {}, "state.")
        answer = super().play(snapshot, act)
        if snapshot.turn >= 1 and isinstance(act, MoveStand):
            moved = moves(Board(snapshot, self.book.kit.bases), {act.unit_id: (act.x, act.y)})
            return replace(answer, changes=(*answer.changes, *moved))
        if snapshot.turn >= 1 and isinstance(act, MoveFormation):
            b = Board(snapshot, self.book.kit.bases)
            return replace(answer, changes=(*answer.changes, *moves(b, destinations(b, act))))
        return answer


def words_checked(values: Mapping[str, object], at: str = "") -> None:
    """A high command and a plan are the book's words (a RulesError naming `<at><field>` otherwise), whether
    edited or given with a unit as it is added: a stored word the book lacks has no plans to offer."""
    for name, allowed, source in (
        ("high_command", COMMANDS, SRC_COMMANDS),
        ("sub_plan", _PLANS, SRC_COMMANDS),
    ):
        if name in values and values[name] not in ("", *allowed):
            raise RulesError(
                f"{at}{name}", f"give one of the book's {name.replace('_', ' ')}s", ["", *allowed], source
            )


def edited(snapshot: Snapshot, act: EditUnit) -> tuple[Change, ...]:
    """A unit edit's values, its words checked (a RulesError naming the field); a plan withdrawn takes its
    target with it."""
    unit = snapshot.unit(act.unit_id)
    values = dict(act.values)
    if "high_command" in values and not (
        unit.kind == U.FORMATION_KIND
        and any(u.parent_id == unit.id and u.level == U.SUB_UNIT for u in snapshot.units)
    ):
        raise RulesError(
            "high_command",
            "give high commands to a strategic formation, the parent of companies",
            source=SRC_COMMANDS,
            why="“Each command the player gives to Strategic Formation will allow (or rather limit) which "
            "actions the sub-units become capable of doing” (HIGH COMMANDS)",
        )
    planned = sorted(k for k in values if k in SUB_UNIT_FIELDS)
    if planned and unit.level != U.SUB_UNIT:
        raise RulesError(
            planned[0],
            "plan with a sub-unit (a company): its bases carry out its plan",
            source=SRC_COMMANDS,
            why="“Every sub-unit's action is made using the Plan/Execute system” (HIGH COMMANDS); “Most "
            "companies move as one” (STRATEGIC FORMATIONS)",
        )
    words_checked(values)
    if "plan_target" in values:
        # A base tapped on the map names its sub-unit.
        tapped = snapshot.by_id.get(values["plan_target"])
        target = U.sub_unit_of(tapped, snapshot.by_id) if tapped is not None else None
        if target is None or target.level != U.SUB_UNIT or target.side == unit.side or target.killed:
            enemies = [
                u.id for u in snapshot.units if u.level == U.SUB_UNIT and u.side != unit.side and not u.killed
            ]
            raise RulesError(
                "plan_target", "plan a shot or an assault at an enemy sub-unit", enemies, SRC_ORDER
            )
        values["plan_target"] = target.id
    if values.get("sub_plan") == "" and unit.state.get("plan_target") is not None:
        values.setdefault("plan_target", None)
    if values.get("sub_plan") not in (None, "", "assault") and unit.state.get("assault_target") is not None:
        # "unless their orders or situation changes so that they are not allowed to assault" (ASSAULTING &
        # MELEE COMBAT): a sub-unit let plan otherwise no longer carries its assault on.
        values["assault_target"] = None
    return tuple(SetState("", "", unit.id, k, v) for k, v in values.items())


def moves(b: Board, to: Mapping[int, tuple[float, float]]) -> tuple[Change, ...]:
    """What moving bases to `to` writes besides their places: each base's distance this bound, its sub-unit
    moved, and a dug-in sub-unit's ground in the open left as rough ground (DIGGING IN & COVER: "If a company
    moves AT ALL, they no longer count as dug-in, but their original position becomes rough terrain if they
    originally dug-in in the open")."""
    out: list[Change] = []
    left: list[RoughGround] = []
    marked: set[int | None] = set()  # the sub-units already written as moved
    for uid, (x, y) in to.items():
        base = b.snap.unit(uid)
        company = U.sub_unit_of(base, b.by_id)
        if company is None or base.level != U.BASE or base.x is None or base.y is None:
            continue
        cm = round(float(base.state.get("moved_cm", 0.0)) + math.hypot(x - base.x, y - base.y), 2)
        out.append(
            SetState(f"{base.name} has moved {cm:g} cm this bound", SRC_COVER, base.id, "moved_cm", cm)
        )
        if company.state.get("moved_this_bound") or company.id in marked:
            continue
        marked.add(company.id)
        out.append(SetState(f"{company.name} moved", SRC_ORDER, company.id, "moved_this_bound", True))
        if dug_in(company):
            left += [
                {"unit_id": company.id, "polygon": _ring(s)}
                for _, s in stands(company, b.snap, b.bases)
                if cover_terrain(s, b.ground.index, b.ctx) == "open"
            ]
    if left:
        spots = [*b.snap.board.get(ROUGH_GROUND_KEY, ()), *left]
        out.append(
            SetBoard("a dugout left in the open becomes rough ground", SRC_COVER, ROUGH_GROUND_KEY, spots)
        )
    return tuple(out)


def _ring(stand: Stand) -> list[list[float]]:
    return [[round(x, 2), round(y, 2)] for x, y in stand.polygon().exterior.coords]


EARTH_GAME: GameRules = register_game(EarthGame())
