"""The state a 2mm Earth 1418 unit carries in a game: a strategic formation's high command, a sub-unit's plan
and situation (dug in, digging, under fire and by whom, moved), a base's injury (the book's red and black
smoke markers). `STATE_FIELDS` is the one list of it: the stand card, the board and the turn
read it from here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from rules.core.game import GameRules, Held
from rules.core.records import StateField
from rules.earth2mm.play.units import SUB_UNIT, is_artillery

# The acts of the rules of play a unit edit of these fields is (rules.core.game.Book.edit_acts).
COMMAND_ACT = "command-formation"
PLAN_ACT = "plan-sub-unit"
DIG_ACT = "dig-in"
LEAVE_ACT = "mark-leaving"
# The fields of a sub-unit's plan: an artillery sub-unit plans them anonymously (PLANNING (1)-(2): "Anon").
ANON_FIELDS = frozenset({"sub_plan", "plan_target"})


def plan_anonymous(unit: Held) -> bool:
    """Whether a sub-unit's plan is its side's alone now: an artillery sub-unit's, until it fires or moves
    ("(1) Naval and railway artillery plan shooting (Anon) (2) All normal Artillery plans shooting (Anon)",
    PLANNING; the other sub-units' plans are "(Mark)"ed on the table)."""
    if unit.level != SUB_UNIT or not is_artillery(unit.kind):
        return False
    return not (unit.state.get("fired_this_bound") or unit.state.get("moved_this_bound"))


# The state a unit carries (its book's `state_fields`).
STATE_FIELDS: tuple[StateField, ...] = (
    # On a strategic formation: the high command it was given this bound (HIGH COMMANDS).
    StateField("high_command", "High command", "", edit="word", on_head=True, on_turn=True),
    # On a sub-unit (a company): its plan for the bound, the enemy sub-unit it shoots or assaults, whether
    # it digs in this bound, and how many bounds it has been dug in (DIGGING IN & COVER).
    StateField("sub_plan", "Plan", "", edit="word", on_turn=True),
    StateField("plan_target", "Planned target", None, edit="unit", on_turn=True),
    StateField(
        "digging_in",
        "Digging in",
        badge="DIGGING",
        filter="Digging in",
        edit="flag",
        on_turn=True,
        words=("digging in", "no longer digging in"),
    ),
    StateField(
        "dug_in_bounds",
        "Dug in (bounds)",
        0,
        maximum=100,
        filter="Dug in",
        on_turn=True,
        words=("bound dug in", "bounds dug in"),
    ),
    # The planning situation: under fire last bound, and who has shot at it this bound (ARMING and
    # RESILIENCE: an injury halves movement "for as long as the target platoon is under fire from the
    # SAME shooter").
    StateField("under_fire", "Under fire", badge="UNDER FIRE", filter="Under fire", on_turn=True),
    StateField("shot_at_by", "Shot at by", (), shown=False),
    # Whether it shot this bound (a sub-unit's plan is one shot), how far its bases have moved this bound,
    # and whether it moved this bound and last (EXECUTING (2): "who did not move or dig in last turn").
    StateField("fired_this_bound", "Shot this bound", on_turn=True),
    StateField("moved_this_bound", "Moved this bound", on_turn=True),
    StateField("moved_last_bound", "Moved or dug in last bound", shown=False, on_turn=True),
    # ARTILLERY: "all artillery has to spend one bound packing or unpacking to move/fire": a battery that
    # planned a move spends its first bound packing (packed as it ends), moves while packed, and spends the
    # first bound it plans no move unpacking (no longer packed as it ends).
    StateField(
        "packed",
        "Packed to move",
        badge="PACKED",
        filter="Packed",
        on_turn=True,
        words=("is packed to move", "is unpacked"),
    ),
    # EXECUTING (3): "Dug in infantry planning to leave their position are now marked".
    StateField(
        "leaving_dugout",
        "Leaving the dugout",
        badge="LEAVING",
        edit="flag",
        on_turn=True,
        words=("begins to leave the dugout", "stays in the dugout"),
    ),
    # An assault carried into the next bound ("If the troops fall short of their target, they must
    # continue assaulting the next turn").
    StateField(
        "assault_target",
        "Assaulting",
        None,
        on_turn=True,
        words=("must carry its assault on into the next bound", "no longer assaulting"),
    ),
    # Hits a shooter scored that wait for its side to allocate them ("Hit allocation is up to the
    # aggressor's choice").
    StateField(
        "hits_to_allocate",
        "Hits to allocate",
        0,
        maximum=100,
        filter="Hits to allocate",
        on_turn=True,
        words=("hit to allocate", "hits to allocate"),
    ),
    StateField("hits_from", "Hits from", None, shown=False),
    # On a base (a platoon): its injury, fresh (red smoke) or old (black smoke), the sub-unit whose hit
    # injured it and the bound it did (ARMING and RESILIENCE: halved "for as long as the target platoon is
    # under fire from the SAME shooter"; "from a different shooter, it rolls a recovery die").
    StateField("base_injury", "Injury", "", filter="Injured"),
    StateField("injured_by", "Injured by", None, shown=False),
    StateField("injured_bound", "Injured in bound", 0, shown=False, maximum=1000),
    # How far a base has moved this bound (cm), against its sub-unit's distance.
    StateField("moved_cm", "Moved this bound (cm)", 0.0, shown=False),
)


class Earth2mmUnitState(BaseModel):
    """A 2mm Earth 1418 unit's state, one field per STATE_FIELDS entry at its default (a unit named by its id)."""

    model_config = ConfigDict(frozen=True)

    high_command: str = ""
    sub_plan: str = ""
    plan_target: int | None = None
    digging_in: bool = False
    dug_in_bounds: int = 0
    under_fire: bool = False
    shot_at_by: tuple[int, ...] = ()
    fired_this_bound: bool = False
    moved_this_bound: bool = False
    moved_last_bound: bool = False
    packed: bool = False
    leaving_dugout: bool = False
    assault_target: int | None = None
    hits_to_allocate: int = 0
    hits_from: int | None = None
    base_injury: str = ""
    injured_by: int | None = None
    injured_bound: int = 0
    moved_cm: float = 0.0


class EarthFields(GameRules):
    """A unit's state as its side reads it alone."""

    def secret(self, unit: Held, field: StateField, board: Mapping[str, Any] | None = None) -> bool:
        """A battery's plan and planned target are its side's until it fires or moves (plan_anonymous)."""
        return field.secret or (field.name in ANON_FIELDS and plan_anonymous(unit))


# The acts of the rules of play a unit edit of these fields is (its book's `edit_acts`).
EDIT_ACTS = {
    "high_command": COMMAND_ACT,
    "sub_plan": PLAN_ACT,
    "plan_target": PLAN_ACT,
    "digging_in": DIG_ACT,
    "leaving_dugout": LEAVE_ACT,
}
