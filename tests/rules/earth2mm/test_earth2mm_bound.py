"""2mm Earth 1418's bound as the game hook plays it, against the text: the steps in the book's order (BOUNDS,
PLANNING & EXECUTING), who may do what in which step, what the rules of play forbid (HIGH COMMANDS, DIGGING IN &
COVER, ASSAULTING & MELEE COMBAT, the characteristics chart) and what the end of the bound does (CASUALTIES &
ENDING THE BOUND). The shot's own table measures (range, sight, contact) are the rolls' (test_earth2mm_rolls)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from rules.core.acts import AddUnit, EditUnit, MoveStand, Roll
from rules.core.errors import RulesError
from rules.core.game import Position, edit_act, next_position, terrain
from rules.core.records import SetBoard, SetState, Snapshot, UnitState
from rules.earth2mm.data import EXECUTING_ORDER, PLANNING_ORDER
from rules.earth2mm.play import judge
from rules.earth2mm.play.card import EarthCardFields
from rules.earth2mm.play.ends import bound_ended, needs
from rules.earth2mm.play.fields import STATE_FIELDS, EarthFields
from rules.earth2mm.play.game import edited, moves
from rules.earth2mm.play.rolls import cover_of
from rules.earth2mm.play.shots import posture, shot
from rules.earth2mm.play.steps import STEP_INDEX, STEPS
from rules.earth2mm.play.table import ROUGH_GROUND_KEY, TERRAIN_CLASSES, terrain_class
from rules.earth2mm.play.turn import EarthBound
from rules.earth2mm.play.units import context
from rules.registry import get_game_rules
from rules.table.bases import BaseSpec

KINDS = ("line-inf", "reserve-inf", "machineguns", "mother-tank", "field-guns", "very-heavy-guns")
BASES = {k: BaseSpec(k, "rect", 2.0, 1.0, "test base") for k in KINDS}
DEFAULTS = {f.name: f.default for f in STATE_FIELDS}
TURN = get_game_rules("2mm-earth-1418")
# The attacker's 1st Battalion (SF 1, line): a line company (10: bases 11-13 at y 10), a tank company (40: 41-42)
# and a machine-gun company (70: 71-72); its guns (SF 3): field guns (50: 51) and very heavy guns (60: 61). The
# defender's battalion (SF 2, reserve): a reserve company (20: 21-23) 15 cm (150 m) in front, and its MGs (30:
# 31-32) 40 cm (400 m) away.
AT = {10: [(10, 10), (12.5, 10), (15, 10)], 20: [(10, 25), (12.5, 25), (15, 25)], 30: [(10, 50), (12.5, 50)]}
AT |= {40: [(30, 10), (33, 10)], 50: [(40, 2)], 60: [(50, 2)], 70: [(20, 8), (22.5, 8)]}
KIND = {10: "line-inf", 20: "reserve-inf", 30: "machineguns", 40: "mother-tank", 50: "field-guns"}
KIND |= {60: "very-heavy-guns", 70: "machineguns"}
SF_OF = {10: 1, 40: 1, 70: 1, 50: 3, 60: 3, 20: 2, 30: 2}


def snapshot(
    state: Mapping[int, Mapping[str, Any]] | None = None,
    step: str = "high-commands",
    board: Mapping[str, Any] | None = None,
    variants: Mapping[str, str] | None = None,
    turn: int = 1,
    terrain: Mapping[str, Any] | None = None,
) -> Snapshot:
    """The table above, each unit's state given by id over the defaults."""
    state = state or {}

    def unit(uid: int, parent: int | None, side: str, level: str, kind: str, **kw: Any) -> UnitState:
        return UnitState(
            uid, parent, side, level, kind, f"unit {uid}", state={**DEFAULTS, **state.get(uid, {})}, **kw
        )

    units = [
        unit(1, None, "attacker", "battalion", "formation", quality="line"),
        unit(2, None, "defender", "battalion", "formation", quality="reserve"),
        unit(3, None, "attacker", "battalion", "formation", quality="line"),
    ]
    for cid, places in AT.items():
        side = "defender" if SF_OF[cid] == 2 else "attacker"
        units.append(unit(cid, SF_OF[cid], side, "company", KIND[cid]))
        facing = 270.0 if side == "defender" else 90.0
        units += [
            unit(cid + 1 + i, cid, side, "platoon", KIND[cid], base=KIND[cid], x=x, y=y, facing_deg=facing)
            for i, (x, y) in enumerate(places)
        ]
    return Snapshot(
        "2mm-earth-1418",
        None,
        tuple(units),
        90.0,
        120.0,
        variants=dict(variants or {}),
        turn=turn,
        step=STEP_INDEX[step],
        board=dict(board or {}),
        terrain=terrain or {"type": "FeatureCollection", "features": []},
    )


def refused(snap: Snapshot, act: Any) -> list[str]:
    return [str(r) for r in judge.forbidden(judge.Board(snap, BASES), act)]


def edit(uid: int, **values: Any) -> EditUnit:
    return EditUnit(unit_id=uid, version=1, values=values)


def now(step: str) -> Position:
    return Position(1, "attacker", STEP_INDEX[step])


# -- the steps ---------------------------------------------------------------------------------------------
def test_the_bound_runs_in_the_books_order_for_both_sides() -> None:
    # BOUNDS: commands, plans, execution, melee, a new bound; PLANNING (1)-(6) and EXECUTING (1)-(10) as printed.
    assert [s.id for s in STEPS] == [
        "high-commands",
        "plan-naval-railway",
        "plan-artillery",
        "plan-reserve",
        "plan-line",
        "plan-heavy-weapons",
        "plan-elite",
        *(f"execute-{n}" for n in range(1, 11)),
        "melee",
        "end-of-bound",
    ]
    assert [s.printed for s in STEPS[1:7]] == [f"({n}) {t}" for n, t in enumerate(PLANNING_ORDER, 1)]
    assert [s.printed for s in STEPS[7:17]] == [f"({n}) {t}" for n, t in enumerate(EXECUTING_ORDER, 1)]
    assert STEPS[0].printed == "High commands given to Strategic Formations"
    assert STEPS[-2].printed == "Resolve melee using the m side of Arming m/r"
    assert all(s.sides == ("attacker", "defender") for s in STEPS)
    assert [s.number for s in STEPS] == list(range(1, 20))
    # After the last step, the next bound.
    assert next_position(TURN, None, Position(1, "attacker", len(STEPS) - 1)) == Position(2, "attacker", 0)


def test_a_command_is_given_only_in_its_step_and_only_to_a_strategic_formation() -> None:
    assert (
        TURN.refusal("playing", None, now("high-commands"), "command-formation", "attacker", None, ()) is None
    )
    late = TURN.refusal("playing", None, now("plan-line"), "command-formation", "attacker", None, ())
    assert late is not None and late.startswith(
        "Not in planning step (4): a high command waits for high commands"
    )
    assert "High commands given to Strategic Formations" in late.why
    # In set-up nothing is a step's.
    assert TURN.refusal("setup", None, now("plan-line"), "command-formation", "attacker", None, ()) is None
    with pytest.raises(RulesError) as e:
        edited(snapshot(), edit(10, high_command="hold"))  # a company
    assert e.value.field == "high_command" and "strategic formation" in e.value.reason
    with pytest.raises(RulesError) as e:
        edited(snapshot(), edit(11, sub_plan="move"))  # a base
    assert e.value.field == "sub_plan" and "sub-unit" in e.value.reason


@pytest.mark.parametrize(
    ("uid", "step", "variants"),
    [
        (10, "plan-line", {}),  # a line SF's company
        (20, "plan-reserve", {}),  # a reserve SF's company
        (70, "plan-heavy-weapons", {}),  # "All Heavy Weapons plan": its MGs, whatever their SF
        (50, "plan-artillery", {}),  # "All normal Artillery plans shooting (Anon)"
        (60, "plan-naval-railway", {}),  # very heavy guns: erratum naval-railway
        (60, "plan-artillery", {"naval-railway": "none"}),
    ],
)
def test_a_sub_unit_plans_only_in_its_own_planning_step(
    uid: int, step: str, variants: dict[str, str]
) -> None:
    state = {SF_OF[uid]: {"high_command": "hold"}}
    plan = edit(uid, plan_target=20 if uid != 20 else 10)
    assert refused(snapshot(state, step, variants=variants), plan) == []
    other = "plan-elite"
    assert refused(snapshot(state, other, variants=variants), plan)[0].startswith(
        f"unit {uid} plans in planning step ("
    )


def test_a_plan_is_within_the_commands_chart_for_the_sub_units_situation() -> None:
    # "Hold: Stay put | Stay put | Stay put | Find cover" (dug in & safe, dug in & under fire, not dug in & safe,
    # not dug in & under fire).
    hold = {1: {"high_command": "hold"}}
    assert refused(snapshot(hold, "plan-line"), edit(10, sub_plan="stay put")) == []
    assert refused(snapshot(hold, "plan-line"), edit(10, sub_plan="move")) == [
        "Under HOLD, not dug in, safe, unit 10 may plan only: stay put"
    ]
    under_fire = {**hold, 10: {"under_fire": True}}
    assert refused(snapshot(under_fire, "plan-line"), edit(10, sub_plan="find cover")) == []
    # "Advance: Move | Stay put | Move | Move": dug in and under fire, the company has no choice but to stay put.
    dug_in = {1: {"high_command": "advance"}, 10: {"dug_in_bounds": 2, "under_fire": True}}
    assert refused(snapshot(dug_in, "plan-line"), edit(10, sub_plan="move"))[0].endswith(
        "may plan only: stay put"
    )
    # No command yet: "The Plans for a sub-unit are restricted to the Command given to the ... Strategic Formation".
    assert refused(snapshot({}, "plan-line"), edit(10, sub_plan="stay put")) == [
        "Give unit 10's strategic formation its high command first"
    ]


def test_an_assault_is_planned_only_at_an_enemy_within_300_metres() -> None:
    state = {1: {"high_command": "assault"}}
    # The reserve company is 15 cm (150 m) away, the MGs 40 cm less a base's depth (390 m).
    assert refused(snapshot(state, "plan-line"), edit(10, sub_plan="assault", plan_target=20)) == []
    assert refused(snapshot(state, "plan-line"), edit(10, sub_plan="assault")) == [
        "Name the enemy sub-unit unit 10 assaults (its planned target)"
    ]
    assert refused(snapshot(state, "plan-line"), edit(10, sub_plan="assault", plan_target=30)) == [
        "unit 30 is 390 m away: assault an enemy within 300 m"
    ]


@pytest.mark.parametrize(
    ("uid", "command", "said"),
    [
        (10, "assault", "Under ASSAULT unit 10 may not dig in: only under ADVANCE or HOLD"),
        (10, "retreat", "Under RETREAT unit 10 may not dig in: only under ADVANCE or HOLD"),
        (40, "hold", "unit 40 is a vehicle: vehicles may never dig in"),
        (50, "hold", "unit 50 is artillery: artillery can never dig in"),
    ],
)
def test_digging_in_is_refused_where_the_book_says_no(uid: int, command: str, said: str) -> None:
    step = {10: "plan-line", 40: "plan-line", 50: "plan-artillery"}[uid]
    assert refused(snapshot({SF_OF[uid]: {"high_command": command}}, step), edit(uid, digging_in=True)) == [
        said
    ]


def test_digging_in_is_a_choice_under_advance_and_hold() -> None:
    # "(Can choose to dig in?) Yes but -1R if attacked | Yes but -1R if attacked | No | No"
    for command in ("advance", "hold"):
        assert refused(snapshot({1: {"high_command": command}}, "plan-line"), edit(10, digging_in=True)) == []


def test_a_unit_edit_takes_only_the_books_words_and_an_enemy_target() -> None:
    snap = snapshot()
    with pytest.raises(RulesError) as e:
        edited(snap, edit(1, high_command="charge"))
    assert e.value.field == "high_command" and e.value.allowed == [
        "",
        "advance",
        "hold",
        "assault",
        "retreat",
    ]
    with pytest.raises(RulesError) as e:
        edited(snap, edit(10, plan_target=40))  # its own side's tanks
    assert e.value.field == "plan_target" and 20 in (e.value.allowed or [])
    withdrawn = edited(snapshot({10: {"sub_plan": "move", "plan_target": 20}}), edit(10, sub_plan=""))
    assert {(c.field, c.value) for c in withdrawn if isinstance(c, SetState)} == {
        ("sub_plan", ""),
        ("plan_target", None),
    }


def test_a_unit_added_with_a_state_takes_only_the_books_words() -> None:
    """A unit given with its state (POST .../units, as a hostile player did) is held to the words an edit is: a
    high command the book lacks was stored, and its company's card then failed (KeyError in allowed_plans)."""
    rules = get_game_rules("2mm-earth-1418")
    add = AddUnit(side="attacker", fields={"level": "battalion", "state": {"high_command": "zzz"}})
    with pytest.raises(RulesError) as e:
        rules.play(snapshot(), add)
    assert e.value.field == "state.high_command" and "advance" in (e.value.allowed or [])
    assert rules.play(snapshot(), replace(add, fields={"state": {"high_command": "hold"}})).changes == ()


def test_a_stored_command_the_book_lacks_is_no_command() -> None:
    """A word stored before it was checked (an older firestep, a scenario file) gives no plan and leaves the
    high-commands step asking for a command, rather than failing the company's card."""
    stored = {1: {"high_command": "zzz"}}
    card = EarthCardFields.stand_edits(get_game_rules("2mm-earth-1418"), snapshot(stored, "plan-line"), 11)
    assert [e.field for e in card] == ["high_command"]  # the formation's command, no plan under "zzz"
    assert "a high command for unit 1" in needs(judge.Board(snapshot(stored), BASES), "high-commands")
    assert refused(snapshot(stored, "plan-line"), edit(10, sub_plan="stay put")) == [
        "Give unit 10's strategic formation its high command first"
    ]


# -- executing ---------------------------------------------------------------------------------------------
def test_a_sub_unit_moves_only_in_the_executing_step_that_names_it() -> None:
    moving = {10: {"sub_plan": "move"}}
    act = MoveStand(unit_id=11, x=10, y=14, facing_deg=90)
    assert refused(snapshot(moving, "execute-7"), act) == []  # "(7) Infantry moving normally move"
    assert refused(snapshot(moving, "execute-6"), act) == ["unit 10 moves in executing step (7): wait for it"]
    assaulting = {10: {"sub_plan": "assault", "plan_target": 20}}
    assert refused(snapshot(assaulting, "execute-6"), act) == []  # "(6) Assaulting infantry move"
    leaving = {10: {"sub_plan": "move", "dug_in_bounds": 1, "leaving_dugout": True}}
    assert refused(snapshot(leaving, "execute-8"), act) == []  # "(8) Dug-in infantry now move"
    # The step itself: moves wait for (6)-(8).
    step = TURN.refusal("playing", None, now("execute-5"), "move-stands", "attacker", None, ())
    assert step is not None and step.startswith(
        "Not in executing step (5): moving waits for executing steps (6)-(8)"
    )


def test_a_sub_unit_that_stays_put_or_digs_in_does_not_move() -> None:
    act = MoveStand(unit_id=11, x=10, y=12, facing_deg=90)
    assert refused(snapshot({10: {"sub_plan": "stay put"}}, "execute-7"), act) == [
        "unit 10 planned to stay put: it stays put this bound"
    ]
    assert refused(snapshot({10: {"sub_plan": "move", "digging_in": True}}, "execute-7"), act) == [
        "unit 10 is digging in: it stays put this bound"
    ]


def test_a_base_moves_its_sub_units_distance_halved_by_fresh_injuries() -> None:
    # "Medium infantry 6cm"; "When the majority (50%+) of the sub-unit ... is injured, the unit suffers a halved
    # movement speed"; an assault "(+100% distance)".
    moving = {10: {"sub_plan": "move"}}
    assert refused(snapshot(moving, "execute-7"), MoveStand(unit_id=11, x=10, y=16, facing_deg=90)) == []
    too_far = refused(snapshot(moving, "execute-7"), MoveStand(unit_id=11, x=10, y=16.5, facing_deg=90))
    assert too_far == ["unit 11 may move 6 cm this bound (0 moved): move it at most 6 cm"]
    hurt = {**moving, 11: {"base_injury": "fresh"}, 12: {"base_injury": "fresh"}}
    assert refused(snapshot(hurt, "execute-7"), MoveStand(unit_id=11, x=10, y=13.5, facing_deg=90))[
        0
    ].startswith("unit 11 may move 3 cm")
    old = {**moving, 11: {"base_injury": "old"}, 12: {"base_injury": "old"}}
    assert refused(snapshot(old, "execute-7"), MoveStand(unit_id=11, x=10, y=16, facing_deg=90)) == []
    assault = {10: {"sub_plan": "assault", "plan_target": 20}}
    assert refused(snapshot(assault, "execute-6"), MoveStand(unit_id=11, x=10, y=22, facing_deg=90)) == []
    # What it has moved already counts: 4 cm done, 2.5 more is too far.
    done = {**moving, 11: {"moved_cm": 4.0}}
    assert refused(snapshot(done, "execute-7"), MoveStand(unit_id=11, x=10, y=12.5, facing_deg=90))[
        0
    ].endswith("move it at most 2 cm")


def test_a_move_writes_the_distance_and_leaves_a_dugout_in_the_open_as_rough_ground() -> None:
    snap = snapshot({10: {"sub_plan": "move", "dug_in_bounds": 2, "leaving_dugout": True}}, "execute-8")
    written = moves(judge.Board(snap, BASES), {11: (10.0, 14.0)})
    sets = {(c.unit_id, c.field): c.value for c in written if isinstance(c, SetState)}
    assert sets == {(11, "moved_cm"): 4.0, (10, "moved_this_bound"): True}
    [board] = [c for c in written if isinstance(c, SetBoard)]
    # "their original position becomes rough terrain if they originally dug-in in the open": every base's ground.
    assert board.key == ROUGH_GROUND_KEY and [s["unit_id"] for s in board.value] == [10, 10, 10]
    ground = judge.Ground({}, {ROUGH_GROUND_KEY: board.value})
    assert ground.moving_at((12.5, 10)) == "rough" and ground.moving_at((12.5, 30)) == "open"


def test_a_sub_unit_shoots_in_the_executing_step_its_kind_and_situation_name() -> None:
    def steps(state: Mapping[int, Mapping[str, Any]], uid: int) -> tuple[str, ...]:
        return judge.shooting_steps(snapshot(state).by_id[uid], judge.Board(snapshot(state), BASES))

    assert steps({}, 10) == ("execute-5",)  # "(5) Infantry who are not dug in and are NOT assaulting"
    assert steps({10: {"dug_in_bounds": 1}}, 10) == ("execute-4",)  # "(4) Dug in infantry ... NOT assaulting"
    assert steps({10: {"sub_plan": "assault"}}, 10) == ("execute-9",)  # "(9) Infantry who are assaulting"
    assert steps({70: {"dug_in_bounds": 1}}, 70) == (
        "execute-1",
        "execute-2",
    )  # "(1) All dug in ... Heavy Weapons"
    assert steps({70: {"moved_last_bound": True}}, 70) == ()  # "(2) ... who did not move or dig in last turn"
    assert steps({}, 50) == ("execute-2",)
    assert steps({50: {"sub_plan": "move"}}, 50) == ()  # "spend one bound packing or unpacking to move/fire"
    assert steps({}, 60) == ("execute-10",)  # "(10) Naval and railway artillery" (erratum naval-railway)
    snap = snapshot({}, "execute-4")
    shot = Roll(resolver="shoot", unit_id=11, target_id=21)
    said = TURN.roll_refusal("playing", snap, now("execute-4"), shot, "attacker")
    assert said == "unit 10 shoots in executing step (5) this bound"
    assert "(5) Infantry who are not dug in and are NOT assaulting" in said.why
    assert (
        TURN.roll_refusal(
            "playing", replace(snap, step=STEP_INDEX["execute-5"]), now("execute-5"), shot, "attacker"
        )
        is None
    )


def test_melee_is_the_melee_steps_and_only_after_an_assault() -> None:
    melee = Roll(resolver="shoot", unit_id=11, target_id=21, fields={"melee": True})
    snap = snapshot({}, "execute-5")
    assert TURN.roll_refusal("playing", snap, now("execute-5"), melee, "attacker") == (
        "Melee is fought in the melee step, shooting in the executing steps"
    )
    # In the melee step a shot is melee unless the player says otherwise.
    unsaid = Roll(resolver="shoot", unit_id=11, target_id=21)
    in_melee = snapshot({}, "melee")
    assert TURN.roll_refusal("playing", in_melee, now("melee"), unsaid, "attacker") is None
    # "they do have to have been assaulted themselves. You cannot casually walk your troops into your enemy's!"
    assert refused(snapshot({}, "melee"), melee) == [
        "unit 10 and unit 20 fight in melee only if one assaulted the other"
    ]
    assert refused(snapshot({20: {"assault_target": 10}}, "melee"), melee) == []


def test_a_sub_unit_shoots_once_a_bound() -> None:
    shot = Roll(resolver="shoot", unit_id=11, target_id=21)
    assert refused(snapshot({10: {"fired_this_bound": True}}, "execute-5"), shot) == [
        "unit 10 has shot this bound: its plan was one shot"
    ]


def test_only_a_step_that_permits_it_takes_a_roll_and_a_question_is_asked_any_time() -> None:
    snap = snapshot({}, "plan-line")
    assert TURN.roll_refusal(
        "playing", snap, now("plan-line"), Roll(resolver="shoot", unit_id=11), "attacker"
    )
    assert TURN.roll_refusal("playing", snap, now("plan-line"), Roll(resolver="plans"), "attacker") is None
    assert TURN.roll_refusal("playing", snap, now("plan-line"), Roll(resolver="move"), "attacker") is None


# -- the end of the bound ----------------------------------------------------------------------------------
def ended(state: Mapping[int, Mapping[str, Any]]) -> dict[tuple[int, str], Any]:
    snap = snapshot(state, "end-of-bound")
    return {
        (c.unit_id, c.field): c.value
        for c in bound_ended(judge.Board(snap, BASES), None)
        if isinstance(c, SetState)
    }


def test_the_end_of_the_bound_digs_in_and_counts_the_bounds_dug_in() -> None:
    out = ended(
        {
            10: {"digging_in": True, "sub_plan": "stay put"},
            20: {"dug_in_bounds": 1},
            30: {"dug_in_bounds": 3, "moved_this_bound": True},
        }
    )
    assert out[(10, "dug_in_bounds")] == 1 and out[(10, "digging_in")] is False
    assert out[(20, "dug_in_bounds")] == 2
    assert out[(30, "dug_in_bounds")] == 0  # "If a company moves AT ALL, they no longer count as dug-in"
    # "who did not move or dig in last turn" (EXECUTING (2)).
    assert out[(10, "moved_last_bound")] is True and out[(30, "moved_last_bound")] is True
    assert out[(10, "sub_plan")] == ""


def test_the_end_of_the_bound_puts_the_shot_at_under_fire_and_clears_the_commands() -> None:
    out = ended({1: {"high_command": "advance"}, 20: {"shot_at_by": [10]}, 10: {"fired_this_bound": True}})
    assert out[(20, "under_fire")] is True and out[(20, "shot_at_by")] == ()
    assert out[(10, "fired_this_bound")] is False
    assert out[(1, "high_command")] == ""
    assert (10, "under_fire") not in out  # not shot at and not under fire before: nothing to write


def test_a_fresh_injury_no_longer_under_fire_becomes_old() -> None:
    # "old injuries are those that can move normally again but one more hit will finish them off".
    out = ended(
        {
            21: {"base_injury": "fresh", "injured_by": 10},
            11: {"base_injury": "fresh", "injured_by": 20},
            10: {"shot_at_by": [20]},
        }
    )
    assert out[(21, "base_injury")] == "old"
    assert (11, "base_injury") not in out  # still under fire from the same shooter: halved


def test_an_assault_that_falls_short_carries_on_into_the_next_bound() -> None:
    # "If the troops fall short of their target, they must continue assaulting the next turn".
    out = ended({10: {"sub_plan": "assault", "plan_target": 20}})
    assert out[(10, "assault_target")] == 20


def test_each_step_says_what_it_still_needs() -> None:
    snap = snapshot({}, "high-commands")
    b = judge.Board(snap, BASES)
    assert needs(b, "high-commands") == [f"a high command for unit {u}" for u in (1, 2, 3)]
    planned = snapshot({10: {"sub_plan": "move"}})
    assert needs(judge.Board(planned, BASES), "plan-line") == ["a plan for unit 40"]
    assert needs(judge.Board(snap, BASES), "plan-reserve") == ["a plan for unit 20"]
    # Hits waiting name the sub-unit whose card allocates them (the one that scored them), for the board's link.
    hit = needs(judge.Board(snapshot({20: {"hits_to_allocate": 2, "hits_from": 40}}), BASES), "execute-5")
    assert hit[0] == "allocate the 2 hit(s) on unit 20" and getattr(hit[0], "unit_id", None) == 40


# -- the table ---------------------------------------------------------------------------------------------
def test_a_feature_names_its_terrain_class_or_takes_its_kinds() -> None:
    square = {"type": "Polygon", "coordinates": [[[0, 0], [5, 0], [5, 5], [0, 5], [0, 0]]]}
    named = {
        "type": "FeatureCollection",
        "features": [
            {"type": "Feature", "geometry": square, "properties": {"kind": "woods", "terrain_class": "swamp"}}
        ],
    }
    with pytest.raises(RulesError) as e:
        terrain(get_game_rules("2mm-earth-1418"), named)
    assert e.value.field == "terrain.features.0.properties.terrain_class"
    assert e.value.allowed == ["open", "rough", "defensible", "fortification", "impractical", "road"]
    ok = {
        "type": "FeatureCollection",
        "features": [{"type": "Feature", "geometry": square, "properties": {"kind": "marsh"}}],
    }
    assert judge.Ground(ok, {}).moving_at((2, 2)) == "impractical"  # "Moving from or in impractical terrain"


def test_the_game_is_registered_with_its_bound() -> None:
    game = get_game_rules("2mm-earth-1418")
    assert isinstance(game, EarthBound) and game.book.bound and game.book.turn_word == "bound"
    assert edit_act(game.book, "high_command") == "command-formation"
    assert edit_act(game.book, "sub_plan") == edit_act(game.book, "plan_target") == "plan-sub-unit"
    assert edit_act(game.book, "digging_in") == "dig-in"


def test_only_dug_in_infantry_planning_to_leave_are_marked_leaving() -> None:
    # "(3) Dug in infantry planning to leave their position are now marked to show they have begun to leave".
    leaving = {10: {"dug_in_bounds": 1, "sub_plan": "move"}}
    assert refused(snapshot(leaving, "execute-3"), edit(10, leaving_dugout=True)) == []
    assert refused(snapshot({10: {"sub_plan": "move"}}, "execute-3"), edit(10, leaving_dugout=True)) == [
        "Only dug in infantry planning to leave are marked: unit 10 is not one"
    ]
    assert refused(
        snapshot({70: {"dug_in_bounds": 1, "sub_plan": "move"}}, "execute-3"), edit(70, leaving_dugout=True)
    )


def test_rough_ground_left_by_a_dugout_is_the_shots_cover_too() -> None:
    spot = {"unit_id": 20, "polygon": [[8, 24], [17, 24], [17, 26], [8, 26], [8, 24]]}
    snap = snapshot({20: {"sub_plan": "stay put"}}, "execute-5", board={ROUGH_GROUND_KEY: [spot]})
    cover, _ = cover_of(snap.by_id[20], snap, BASES, judge.Board(snap, BASES).ctx)
    assert cover["terrain"] == "rough"  # "Other than counting as rough terrain it has no other effects"


def test_the_demo_battle_has_what_a_bound_needs() -> None:
    doc = get_game_rules("2mm-earth-1418").book.scenarios["earth2mm-demo-ferme"]
    assert doc["source"] == "demo: not from the book" and doc["period"] is None
    for side in ("attacker", "defender"):
        sfs = [u for u in doc["sides"][side]["forces"] if len(u["children"]) >= 2]
        assert len(sfs) >= 2 and all(u["kind"] == "formation" and u["level"] == "battalion" for u in sfs)
    kinds = {c["kind"] for side in doc["sides"].values() for sf in side["forces"] for c in sf["children"]}
    assert {"line-inf", "reserve-inf", "elite-inf", "machineguns", "mother-tank", "field-guns"} <= kinds
    classes = {terrain_class(f) for f in terrain(get_game_rules("2mm-earth-1418"), doc["terrain"])}
    assert classes == set(TERRAIN_CLASSES)


# -- issue 53: the book's words played --------------------------------------------------------------------
def _ground(*pieces: tuple[str, tuple[float, float, float, float]]) -> dict[str, Any]:
    """Terrain of (kind, (x0, y0, x1, y1)) rectangles."""
    return {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "geometry": {
                    "type": "Polygon",
                    "coordinates": [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]],
                },
                "properties": {"kind": kind},
            }
            for kind, (x0, y0, x1, y1) in pieces
        ],
    }


def test_a_sub_unit_finding_cover_ends_in_or_nearer_to_a_better_cover_location() -> None:
    # "Sub-units choosing to find cover may move in any direction the player chooses, as long as they will end
    # up in or nearer to a better cover location" (HIGH COMMANDS). The line company stands in a wood (rough),
    # a village (defensible) 15 cm to its east.
    wood, village = ("woods", (5.0, 5.0, 20.0, 15.0)), ("village", (30.0, 5.0, 40.0, 15.0))
    finding = {10: {"sub_plan": "find cover", "under_fire": True}}
    snap = snapshot(finding, "execute-7", terrain=_ground(wood, village))
    # 6 cm out of the wood into the open, away from the village: refused.
    assert refused(snap, MoveStand(unit_id=11, x=4.0, y=10.0, facing_deg=90)) == [
        "unit 10 finds cover: end the move in or nearer to cover better than rough ground"
    ]
    # Nearer to the village (4 cm of the wood's 4.5), or into it: the book's words allow both.
    assert refused(snap, MoveStand(unit_id=13, x=19.0, y=10.0, facing_deg=90)) == []
    into = snapshot(finding, "execute-7", terrain=_ground(("village", (16.5, 5.0, 25.0, 15.0))))
    assert refused(into, MoveStand(unit_id=13, x=17.0, y=10.0, facing_deg=90)) == []
    # Without better cover on the table a company finding cover stays where it is.
    alone = refused(
        snapshot(finding, "execute-7", terrain=_ground(wood)),
        MoveStand(unit_id=11, x=10, y=12, facing_deg=90),
    )
    assert alone == ["unit 10 finds cover: end the move in or nearer to cover better than rough ground"]
    [why] = judge.forbidden(
        judge.Board(snapshot(finding, "execute-7", terrain=_ground(wood)), BASES),
        MoveStand(unit_id=11, x=10, y=12, facing_deg=90),
    )
    assert "in or nearer to a better cover location" in why.why and "find-cover" not in why
    # Erratum find-cover: "nearer to a better cover location" is any (the rule's words), or the nearest (its
    # example's "move to the nearest cover location"). In the open, the village 15 cm east and the wood far
    # to the north west: a step west is nearer the wood alone.
    open_ground = _ground(("village", (25.0, 5.0, 30.0, 15.0)), ("woods", (0.0, 30.0, 3.0, 40.0)))
    west = MoveStand(unit_id=11, x=8.0, y=10.0, facing_deg=90)
    assert refused(snapshot(finding, "execute-7", terrain=open_ground), west) == []
    nearest = snapshot(finding, "execute-7", terrain=open_ground, variants={"find-cover": "nearest-better"})
    assert refused(nearest, west) == [
        "unit 10 finds cover: end the move in or nearer to cover better than open ground"
    ]


def test_a_sub_unit_that_fell_short_carries_its_assault_on_while_its_command_allows_it() -> None:
    # "If the troops fall short of their target, they must continue assaulting the next turn (unless their
    # orders or situation changes so that they are not allowed to assault" (ASSAULTING & MELEE COMBAT). Under
    # fire and not dug in, ASSAULT allows "Assault or Find cover": the company that fell short must assault.
    short = {1: {"high_command": "assault"}, 10: {"assault_target": 20, "under_fire": True}}
    carry = "unit 10 fell short of unit 20: it must plan to assault unit 20 again"
    assert refused(snapshot(short, "plan-line"), edit(10, sub_plan="find cover")) == [carry]
    assert refused(snapshot(short, "plan-line"), edit(10, sub_plan="assault", plan_target=20)) == []
    assert (
        refused(snapshot(short, "plan-line"), edit(10, sub_plan="assault", plan_target=21)) == []
    )  # its base
    assert carry in refused(snapshot(short, "plan-line"), edit(10, sub_plan="assault", plan_target=30))
    [why] = judge.forbidden(judge.Board(snapshot(short, "plan-line"), BASES), edit(10, sub_plan="find cover"))
    assert "they must continue assaulting the next turn" in why.why
    # The stand's card offers it the assault alone.
    offered = {
        e.field: [c.value for c in e.choices]
        for e in EarthCardFields().stand_edits(snapshot(short, "plan-line"), 11)
    }
    assert offered["sub_plan"] == ["assault"]
    # A company with no assault to carry on finds cover as the chart allows.
    free = {1: {"high_command": "assault"}, 10: {"under_fire": True}}
    assert refused(snapshot(free, "plan-line"), edit(10, sub_plan="find cover")) == []
    # Under HOLD it may no longer assault: it finds cover, and its assault is over.
    held = {**short, 1: {"high_command": "hold"}}
    assert refused(snapshot(held, "plan-line"), edit(10, sub_plan="find cover")) == []
    ended = edited(snapshot(held, "plan-line"), edit(10, sub_plan="find cover"))
    assert {(c.field, c.value) for c in ended if isinstance(c, SetState)} == {
        ("sub_plan", "find cover"),
        ("assault_target", None),
    }


def test_artillery_spends_a_bound_packing_before_it_moves_and_one_unpacking_before_it_fires() -> None:
    # "Note that all artillery has to spend one bound packing or unpacking to move/fire" (ARTILLERY).
    move = MoveStand(unit_id=51, x=40.0, y=4.0, facing_deg=90)
    packing = {50: {"sub_plan": "move"}}
    assert refused(snapshot(packing, "execute-7"), move) == [
        "unit 50 spends this bound packing its guns: it moves next bound"
    ]
    [why] = judge.forbidden(judge.Board(snapshot(packing, "execute-7"), BASES), move)
    assert "one bound packing or unpacking to move/fire" in why.why and "ARTILLERY" in why.source
    assert not [
        n for n in needs(judge.Board(snapshot(packing, "execute-7"), BASES), "execute-7") if "50" in n
    ]
    # The bound it packs ends with it packed; packed, it moves the next, and fires in none of them.
    ended = bound_ended(judge.Board(snapshot(packing, "end-of-bound"), BASES), None)
    assert ("packed", True) in {
        (c.field, c.value) for c in ended if isinstance(c, SetState) and c.unit_id == 50
    }
    moving = {50: {"sub_plan": "move", "packed": True}}
    assert refused(snapshot(moving, "execute-7"), move) == []
    board = judge.Board(snapshot(moving, "execute-7"), BASES)
    # Its plan is its side's alone until it moves ("Anon", PLANNING): the step's needs, read on every device,
    # do not tell it.
    assert not [n for n in needs(board, "execute-7") if "50" in n]
    assert judge.shooting_steps(board.by_id[50], board) == ()
    # Packed and planning no move, it spends the bound unpacking: no shot, unpacked as the bound ends.
    unpacking = {50: {"sub_plan": "stay put", "packed": True, "plan_target": 20}}
    board = judge.Board(snapshot(unpacking, "execute-2"), BASES)
    assert judge.shooting_steps(board.by_id[50], board) == ()
    ended = bound_ended(judge.Board(snapshot(unpacking, "end-of-bound"), BASES), None)
    assert ("packed", False) in {
        (c.field, c.value) for c in ended if isinstance(c, SetState) and c.unit_id == 50
    }


def test_a_batterys_plan_is_anonymous_until_it_fires_or_moves() -> None:
    # "(2) All normal Artillery plans shooting (Anon)"; "(4) Line SF sub-units plan moving and shooting (Mark)".
    fields = EarthFields()
    plan, target = (next(f for f in STATE_FIELDS if f.name == n) for n in ("sub_plan", "plan_target"))
    planned = {
        50: {"sub_plan": "stay put", "plan_target": 20},
        10: {"sub_plan": "stay put", "plan_target": 20},
    }
    snap = snapshot(planned, "execute-1")
    battery, company = snap.by_id[50], snap.by_id[10]
    assert fields.secret(battery, plan) and fields.secret(battery, target)
    assert not fields.secret(company, plan) and not fields.secret(company, target)
    assert not fields.secret(battery, next(f for f in STATE_FIELDS if f.name == "packed"))
    for landed in ({"fired_this_bound": True}, {"moved_this_bound": True}):
        shown = snapshot({50: {**planned[50], **landed}}).by_id[50]
        assert not fields.secret(shown, plan) and not fields.secret(shown, target)
    # The board, read by both sides, says only that it has a plan; shot at, a battery is moving once it moves.
    notes = get_game_rules("2mm-earth-1418").board_notes(battery, snap.by_id[3], (), {})
    assert ("plan", "anon") in notes and ("plan", "stay put") not in notes
    moving = snapshot({50: {"sub_plan": "move", "packed": True}}).by_id[50]
    assert posture(moving, judge.Board(snap, BASES).ctx)[0] == "stationary"


def test_a_shot_is_measured_once_per_snapshot_and_a_snapshot_after_nothing_is_itself() -> None:
    # A roll's refusal before it is rolled and its fill measure the same shot on the same table (issue 88: half a
    # 2mm shot's CPU was measuring it twice); a changed table is another snapshot, measured anew.
    snap = snapshot(step="execute-1")
    shooter, target = snap.unit(10), snap.unit(20)
    ctx = context(snap)
    first = shot(snap, shooter, target, BASES, ctx, False)
    assert shot(snap, shooter, target, BASES, ctx, False) is first
    assert snap.after(()) is snap
    moved = snap.after((SetState("moved", "test", unit_id=21, field="x", value=10.0),))
    assert shot(moved, moved.unit(10), moved.unit(20), BASES, context(moved), False) is not first
