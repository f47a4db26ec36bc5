"""2mm Earth 1418's rolls in a game against the text: a shot's request filled from the table (ARMING and
RESILIENCE, DIGGING IN & COVER, ASSAULTING & MELEE COMBAT, the characteristics chart, SHOOTING THROUGH
TERRAIN), the hits waiting for the aggressor and their allocation, the recovery die, and the rolls a stand's
card offers. The odds are the resolvers' (tested with them); here the table's readings and what follows."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.core.acts import Roll
from rules.core.errors import RulesError
from rules.core.records import FillRequest, SetState, Snapshot, UnitState
from rules.core.rolls import Rolled, work_out
from rules.earth2mm.data import SRC_ARMING
from rules.earth2mm.play.fields import STATE_FIELDS
from rules.earth2mm.play.game import BOOK, EarthGame
from rules.earth2mm.play.steps import STEPS
from rules.earth2mm.resolvers import ShootRequest
from rules.registry import get_ruleset
from rules.table.bases import BaseSpec

RS = get_ruleset("2mm-earth-1418")
BASES = {k: BaseSpec(k, "rect", 2.0, 1.0, "test base") for k in ("line-inf", "machineguns", "mother-tank")}


class TestBases(EarthGame):
    """The game with the test's bases."""

    book = dataclasses.replace(BOOK, kit=dataclasses.replace(BOOK.kit, bases=BASES))


GAME = TestBases()
DEFAULTS = {f.name: f.default for f in STATE_FIELDS}

# The attacker's line company A (bases 11-13) faces the defender's machine-gun company M (21-22) across 19 cm
# of open ground; the defender's tank company T (31-32) stands beside M.
SF_A, A, SF_D, M, T = 1, 10, 2, 20, 30


def unit(uid: int, parent: int | None, side: str, level: str, kind: str, **kw: Any) -> UnitState:
    state = {**DEFAULTS, **kw.pop("state", {})}
    base = kind if level == "platoon" else None
    return UnitState(
        uid, parent, side, level, kind, kw.pop("name", f"unit {uid}"), base=base, state=state, **kw
    )


def table(
    a: Mapping[str, Any] | None = None,
    m: Mapping[str, Any] | None = None,
    a_at: Sequence[tuple[float, float]] = ((10, 10), (12, 10), (14, 10)),
    m_at: Sequence[tuple[float, float]] = ((10, 30), (12, 30)),
    injuries: Mapping[int, Mapping[str, Any]] | None = None,
    terrain: Sequence[Mapping[str, Any]] = (),
    board: Mapping[str, Any] | None = None,
    variants: Mapping[str, str] | None = None,
    step: str = "execute-5",
) -> Snapshot:
    hurt = injuries or {}
    units = [
        unit(SF_A, None, "attacker", "battalion", "formation", quality="line", name="1st Bn"),
        unit(A, SF_A, "attacker", "company", "line-inf", name="A Coy", state=dict(a or {})),
        *(
            unit(
                11 + i,
                A,
                "attacker",
                "platoon",
                "line-inf",
                x=x,
                y=y,
                facing_deg=90.0,
                state=hurt.get(11 + i, {}),
            )
            for i, (x, y) in enumerate(a_at)
        ),
        unit(SF_D, None, "defender", "battalion", "formation", quality="reserve", name="2nd Bn"),
        unit(M, SF_D, "defender", "company", "machineguns", name="MG Coy", state=dict(m or {})),
        *(
            unit(
                21 + i,
                M,
                "defender",
                "platoon",
                "machineguns",
                x=x,
                y=y,
                facing_deg=270.0,
                state=hurt.get(21 + i, {}),
            )
            for i, (x, y) in enumerate(m_at)
        ),
        unit(T, SF_D, "defender", "company", "mother-tank", name="Tanks"),
        unit(31, T, "defender", "platoon", "mother-tank", x=20.0, y=30.0, facing_deg=270.0),
        unit(32, T, "defender", "platoon", "mother-tank", x=22.0, y=30.0, facing_deg=270.0),
    ]
    features = {"type": "FeatureCollection", "features": list(terrain)}
    return Snapshot(
        "2mm-earth-1418",
        None,
        tuple(units),
        120.0,
        180.0,
        variants=dict(variants or {}),
        turn=2,
        terrain=features,
        board=dict(board or {}),
        step=[s.id for s in STEPS].index(step),
    )


def area(kind: str, x0: float, y0: float, x1: float, y1: float, **props: Any) -> dict[str, Any]:
    ring = [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]]
    return {
        "type": "Feature",
        "geometry": {"type": "Polygon", "coordinates": [ring]},
        "properties": {"kind": kind, **props},
    }


def filled(
    snap: Snapshot, resolver: str, unit_id: int, target_id: int | None, **given: Any
) -> dict[str, Any]:
    fields = frozenset(RS.resolvers[resolver].Request.model_fields)
    return {
        f.field: f.value for f in GAME.fill(resolver, snap, FillRequest(fields, unit_id, target_id, given))
    }


def roll(
    snap: Snapshot,
    resolver: str,
    unit_id: int,
    target_id: int | None,
    dice: Sequence[int] | None,
    **given: Any,
) -> Rolled:
    act = Roll(resolver=resolver, unit_id=unit_id, target_id=target_id, dice=dice, fields=given)
    return work_out(GAME, GAME.book.roll_terms, RS, snap, act)


def refusal(snap: Snapshot, resolver: str, unit_id: int, target_id: int | None) -> RulesError:
    fields = frozenset(RS.resolvers[resolver].Request.model_fields)
    with pytest.raises(RulesError) as e:
        GAME._before_resolve(resolver, snap, FillRequest(fields, unit_id, target_id, {}), True)
    return e.value


# -- the shot filled from the table ------------------------------------------------------------------------------
def test_a_shot_counts_the_living_bases_and_the_target_as_it_stands() -> None:
    # "For every base more than two in the sub-unit, an extra die is rolled": the game counts A's three bases
    # (a stand of it picked stands for its company), the resolver the dice (2/1: one die, plus one).
    snap = table(injuries={21: {"base_injury": "old"}})
    got = filled(snap, "shoot", 12, 22)
    assert got == {
        "shooter": "line-inf",
        "melee": False,
        "bases": 3,
        "assaulting": False,
        "shooter_gassed": False,
        "target": "machineguns",
        "target_formation_resilience": 3,  # MGs are 'As S.F.': their SF is reserve, Reserve inf R3
        "target_cover": {"terrain": "open", "posture": "stationary", "from_terrain": None, "gassed": False},
        "target_bases": 2,
        "target_injured": 1,
    }
    assert RS.resolve("shoot", ShootRequest(**got)).as_dict()["dice_in_pool"] == 2
    killed = dataclasses.replace(
        snap, units=tuple(dataclasses.replace(u, killed=u.id == 13) for u in snap.units)
    )
    assert filled(killed, "shoot", A, M)["bases"] == 2


def test_the_why_of_each_field_says_the_range_in_cm_and_scale_metres() -> None:
    fields = frozenset(ShootRequest.model_fields)
    out = {f.field: f for f in GAME.fill("shoot", table(), FillRequest(fields, A, M, {}))}
    assert "19.0 cm (190 scale metres) away" in out["target"].why
    assert (
        "'As S.F.'" in out["target_formation_resilience"].why
        and "reserve" in out["target_formation_resilience"].why
    )
    assert all(f.source for f in out.values())


def test_assaulting_shoots_with_one_die_fewer() -> None:
    # "When Assaulting, a sub-unit ... can shoot along the way (shooting is done with -1A ...)".
    got = filled(table(a={"sub_plan": "assault"}), "shoot", A, M)
    assert got["assaulting"] is True
    assert RS.resolve("shoot", ShootRequest(**got)).as_dict()["dice_in_pool"] == 1


def test_melee_counts_only_the_bases_in_base_contact() -> None:
    # "Resolve melee using the m side of Arming m/r" (BOUNDS), and "count the number of bases in your sub-unit
    # as only the number of bases in base-to-base contact with the enemy": two of A's bases touch M's line (A's
    # front edge at y 10.5, M's rear at y 11.5 less 1 cm).
    at = {"a_at": ((10, 10), (12, 10), (30, 10)), "m_at": ((10, 11), (12, 11))}
    got = filled(table(a_at=at["a_at"], m_at=at["m_at"], step="melee"), "shoot", A, M)
    assert (got["melee"], got["bases"]) == (True, 2)
    assert "assaulting" not in got
    # In an executing step sub-units in contact shoot ("Infantry who are assaulting now shoot").
    got = filled(table(a_at=at["a_at"], m_at=at["m_at"], step="execute-9"), "shoot", A, M)
    assert (got["melee"], got["bases"]) == (False, 3)
    # In the melee step a sub-unit out of contact has no melee.
    e = refusal(table(step="melee"), "shoot", A, M)
    assert "No base of A Coy touches MG Coy: melee needs base contact" in e.reason


def test_a_shooter_under_short_term_gas_and_a_target_under_it() -> None:
    # "Short-term Gas ... Target suffers -1A -1R": a cordon on the board over one of A's bases.
    gas = {
        "cloud": "short-term-gas",
        "transparent": True,
        "polygon": [[9, 9], [11, 9], [11, 11], [9, 11], [9, 9]],
    }
    got = filled(table(board={"cordons": [gas]}), "shoot", A, M)
    assert got["shooter_gassed"] is True and got["target_cover"]["gassed"] is False
    got = filled(table(board={"cordons": [gas]}), "shoot", 21, 12)
    assert got["target_cover"]["gassed"] is True


@pytest.mark.parametrize(
    ("state", "posture"),
    [
        ({}, "stationary"),
        ({"digging_in": True}, "digging"),
        ({"dug_in_bounds": 2}, "dug-in"),
        ({"sub_plan": "move"}, "moving"),
        ({"dug_in_bounds": 2, "sub_plan": "move"}, "dug-in"),  # not yet moved: still in its dugout
        ({"dug_in_bounds": 2, "moved_this_bound": True}, "moving"),  # "If a company moves AT ALL"
    ],
)
def test_the_targets_posture_comes_from_its_state(state: dict[str, Any], posture: str) -> None:
    assert filled(table(m=state), "shoot", A, M)["target_cover"]["posture"] == posture


def test_a_target_planning_to_move_is_stationary_until_it_moves_under_the_other_reading() -> None:
    snap = table(m={"sub_plan": "move"}, variants={"moving-target": "moved-only"})
    assert filled(snap, "shoot", A, M)["target_cover"]["posture"] == "stationary"


def test_the_terrain_class_under_the_target_and_the_weaker_of_two_when_moving() -> None:
    # A village is defensible ground; a strongpoint a fortification (the table's terrain classes).
    village = area("village", 8, 28, 14, 32)
    assert filled(table(terrain=[village]), "shoot", A, M)["target_cover"]["terrain"] == "defensible"
    # "A unit moving from one type of terrain into another counts as being in whatever the weaker type was".
    half = area("strongpoint", 8, 28, 11, 32)
    cover = filled(table(m={"sub_plan": "move"}, terrain=[half]), "shoot", A, M)["target_cover"]
    assert (cover["terrain"], cover["from_terrain"]) == ("open", "fortification")
    # "their original position becomes rough terrain if they originally dug-in in the open": the board's spots.
    dugout = {"unit_id": 99, "polygon": area("trench", 8, 28, 14, 32)["geometry"]["coordinates"][0]}
    assert (
        filled(table(board={"rough-ground": [dugout]}), "shoot", A, M)["target_cover"]["terrain"] == "rough"
    )
    # Standing still astride two, it counts where most of its bases stand (erratum split-ground).
    assert (
        filled(table(terrain=[area("strongpoint", 8, 28, 14, 32, terrain_class="rough")]), "shoot", A, M)[
            "target_cover"
        ]["terrain"]
        == "rough"
    )


# -- what the table refuses of a shot ----------------------------------------------------------------------------
def test_a_target_beyond_the_charts_range_is_refused_in_cm_and_scale_metres() -> None:
    # Line/good inf RANGE 300 (scale metres; 1 cm is 10): M 35 cm away is beyond it.
    e = refusal(table(m_at=((10, 46), (12, 46))), "shoot", A, M)
    assert e.field == "target_id" and "35.0 cm (350 m) away, beyond A Coy's 300 m" in e.reason
    # The machine guns' 800 m reach A at 35 cm.
    assert filled(table(m_at=((10, 46), (12, 46))), "shoot", M, A)["target"] == "line-inf"


def test_terrain_smoke_and_gas_in_the_line_of_sight() -> None:
    woods = area("woods", 0, 18, 60, 22)
    e = refusal(table(terrain=[woods]), "shoot", A, M)
    assert (
        "No base of A Coy can see MG Coy (woods in the way)" in e.reason
        and "SHOOTING THROUGH TERRAIN" in (e.source or "")
    )
    smoke = {"cloud": "smoke", "polygon": [[0, 18], [60, 18], [60, 22], [0, 22], [0, 18]]}
    assert "smoke across the line" in refusal(table(board={"cordons": [smoke]}), "shoot", A, M).reason
    # "some gas is transparent and won't block line of sight"; "Troops partially in smoke can shoot out freely".
    clear = {**smoke, "cloud": "long-delayed-gas", "transparent": True}
    assert filled(table(board={"cordons": [clear]}), "shoot", A, M)["bases"] == 3
    around = {"cloud": "smoke", "polygon": [[0, 5], [60, 5], [60, 22], [0, 22], [0, 5]]}
    assert filled(table(board={"cordons": [around]}), "shoot", A, M)["bases"] == 3


def test_before_a_target_is_picked_the_shooter_is_filled_and_the_roll_refused() -> None:
    # The game's lookup form asks with the shooter only; a roll needs its target.
    assert filled(table(), "shoot", 12, None) == {
        "shooter": "line-inf",
        "melee": False,
        "bases": 3,
        "assaulting": False,
        "shooter_gassed": False,
    }
    assert refusal(table(), "shoot", A, None).field == "target_id"


def test_an_own_sub_unit_another_than_the_planned_target_and_one_with_hits_waiting_are_refused() -> None:
    assert "on your side" in refusal(table(), "shoot", A, A).reason
    e = refusal(table(a={"plan_target": T}), "shoot", A, M)
    assert "A Coy planned to shoot at Tanks" in e.reason
    e = refusal(table(m={"hits_to_allocate": 1, "hits_from": 99}), "shoot", A, M)
    assert "Allocate the 1 hit(s) waiting on MG Coy first" in e.reason and "removed as they happen" in (
        e.why or ""
    )


def test_target_marks_give_each_refused_base_its_reason() -> None:
    snap = table(a={"plan_target": M}, m_at=((10, 46), (12, 46)))
    marks = {m.unit_id: m.mark for m in GAME.target_marks(snap, 11, "shoot")}
    assert marks == {
        21: "out of range",
        22: "out of range",
        31: "not its planned target",
        32: "not its planned target",
    }


# -- what a shot does ---------------------------------------------------------------------------------------------
def changes_of(rolled: Rolled) -> dict[tuple[int, str], Any]:
    return {(c.unit_id, c.field): c.value for c in rolled.changes if isinstance(c, SetState)}


def test_a_shots_hits_wait_on_the_target_for_the_aggressor() -> None:
    # Two dice against R3 - 2 (stationary in the open) = R1: both hit.
    done = roll(table(), "shoot", A, M, [4, 5])
    assert done.resolution["outcome"] == {"hits": 2, "injuries": 2, "kills": 0}
    assert changes_of(done) == {
        (A, "fired_this_bound"): True,
        (M, "shot_at_by"): [A],
        (M, "hits_to_allocate"): 2,
        (M, "hits_from"): A,
    }


def test_allocated_hits_injure_then_remove_bases_and_the_injured_remember_their_shooter() -> None:
    snap = table(m={"hits_to_allocate": 3, "hits_from": A, "shot_at_by": [A]})
    assert filled(snap, "allocate-hits", A, M) == {
        "hits": 3,
        "sub_unit": [{"base": 21, "injury": ""}, {"base": 22, "injury": ""}],
        "melee": False,
    }
    done = roll(snap, "allocate-hits", A, 22, None, order=[22, 21, 22])
    assert changes_of(done) == {
        (21, "base_injury"): "fresh",
        (21, "injured_by"): A,
        (21, "injured_bound"): 2,
        (22, "killed"): True,
        (M, "hits_to_allocate"): 0,
        (M, "hits_from"): None,
    }


def test_allocation_is_refused_for_hits_that_do_not_wait_and_kills_before_every_base_is_injured() -> None:
    assert "no hits of A Coy wait on MG Coy" in refusal(table(), "allocate-hits", A, M).reason
    snap = table(m={"hits_to_allocate": 2, "hits_from": A})
    with pytest.raises(RulesError) as e:
        roll(snap, "allocate-hits", A, M, None, order=[21, 21])
    assert e.value.field == "order.1" and "cannot allocate kills until all bases have injuries" in (
        e.value.why or ""
    )
    with pytest.raises(RulesError) as e:
        roll(snap, "allocate-hits", A, M, None, order=[31])
    assert e.value.field == "order.0"


# -- what the table keeps is the table's (issue 52) ------------------------------------------------------------
def test_hits_claimed_over_those_waiting_are_refused_naming_the_field() -> None:
    # One hit of A waits on M: four claimed would remove both its bases ("Hits ... injure ... then kill").
    snap = table(m={"hits_to_allocate": 1, "hits_from": A, "shot_at_by": [A]})
    with pytest.raises(RulesError) as e:
        roll(snap, "allocate-hits", A, M, None, hits=4, order=[21, 22, 21, 22])
    assert e.value.field == "fields.hits" and e.value.source == SRC_ARMING
    assert e.value.reason == "the table keeps hits: 1 here, not 4; leave it out or ask the referee"
    assert e.value.why == "1 hit(s) of A Coy wait on MG Coy"
    # The bases it lands on are the table's too; the order is the aggressor's.
    with pytest.raises(RulesError) as e:
        roll(snap, "allocate-hits", A, M, None, sub_unit=[{"base": 21, "injury": "fresh"}, {"base": 22}])
    assert e.value.field == "fields.sub_unit"
    done = roll(snap, "allocate-hits", A, M, None, hits=1, order=[22])
    assert changes_of(done)[(22, "base_injury")] == "fresh" and not done.overridden


@pytest.mark.parametrize(
    ("field", "claim", "table_value"),
    [
        ("bases", 30, 3),
        ("target_formation_resilience", 9, 3),
        ("target_bases", 1, 2),
        ("target_injured", 2, 0),
        ("assaulting", True, False),
    ],
)
def test_a_shot_may_not_claim_what_the_table_counts(field: str, claim: Any, table_value: Any) -> None:
    with pytest.raises(RulesError) as e:
        roll(table(), "shoot", A, M, [4, 5], **{field: claim})
    assert e.value.field == f"fields.{field}"
    assert f"the table keeps {field}: {json.dumps(table_value)} here" in e.value.reason
    # The same value as the table's is the table's: nothing to claim.
    same = roll(table(), "shoot", A, M, [4, 5], **{field: table_value})
    assert next(f for f in same.filled if f.field == field).given is False


def test_the_referees_override_sets_a_kept_field_and_says_so() -> None:
    snap = table(m={"hits_to_allocate": 1, "hits_from": A, "shot_at_by": [A]})
    act = Roll(resolver="allocate-hits", unit_id=A, target_id=M, fields={"hits": 2}, override=True)
    done = work_out(GAME, GAME.book.roll_terms, RS, snap, act)
    hits = next(f for f in done.filled if f.field == "hits")
    assert (hits.value, hits.given, hits.table) == (2, True, 1)
    assert hits.why == "set by the referee: 2; the table keeps 1"
    assert done.overridden == ("The table keeps hits: 1 here, not 2 (1 hit(s) of A Coy wait on MG Coy).",)
    assert (
        changes_of(done)[(21, "base_injury")] == "fresh" and changes_of(done)[(22, "base_injury")] == "fresh"
    )


def test_each_field_the_table_fills_has_its_class() -> None:
    # Counts and states the app holds, and the bound's melee step, are kept; what the players see on the table
    # (cover, gas) is seen (erratum judged-by-eye); nothing is measured by the tape.
    claims = GAME.book.roll_terms.claims
    assert {"hits", "bases", "target_injured", "melee"} <= claims.kept and not claims.measured
    assert claims.seen == {"target_cover", "cover", "shooter_gassed"} and not claims.seen & claims.kept
    assert "judged-by-eye" in RS.errata


def test_melee_on_a_shot_is_the_steps() -> None:
    # "Resolve melee using the m side of Arming m/r" (BOUNDS): the melee step says whether a shot is melee.
    with pytest.raises(RulesError) as e:
        roll(table(), "shoot", A, M, [4, 5], melee=True)
    assert e.value.field == "fields.melee"
    assert e.value.reason == "the table keeps melee: false here, not true; leave it out or ask the referee"


def test_a_cover_and_gas_seen_by_the_player_are_taken_and_marked_beside_the_maps() -> None:
    open_ground = filled(table(), "shoot", A, M)["target_cover"]
    mine = {**open_ground, "terrain": "defensible"}
    done = roll(table(), "shoot", A, M, [4], target_cover=mine, shooter_gassed=True)  # gassed: -1A
    seen = {f.field: f for f in done.filled}
    assert done.request.target_cover.terrain == "defensible" and done.request.shooter_gassed
    cover = seen["target_cover"]
    assert (cover.value, cover.given, cover.table) == (mine, True, open_ground)
    assert cover.why.startswith("seen by the player: terrain defensible, posture stationary")
    assert "; the map reads terrain open, posture stationary" in cover.why
    assert seen["shooter_gassed"].why == "seen by the player: yes; the map reads no"
    # The map's own reading given back is the table's.
    same = roll(table(), "shoot", A, M, [4, 5], target_cover=open_ground)
    assert next(f for f in same.filled if f.field == "target_cover").given is False


# -- the recovery die ---------------------------------------------------------------------------------------------
def test_a_fresh_injury_under_a_new_shooters_fire_rolls_recovery_against_its_resilience_in_cover() -> None:
    # Base 21 was injured by A; the tanks' company T's... here a second attacker sub-unit, 77, shot at M.
    hurt = {21: {"base_injury": "fresh", "injured_by": A}}
    assert (
        "no other rolls a recovery die"
        in refusal(table(m={"shot_at_by": [A]}, injuries=hurt), "recovery", 21, None).reason
    )
    snap = table(m={"shot_at_by": [A, 77]}, injuries=hurt)
    got = filled(snap, "recovery", 21, None)
    assert got == {
        "resilience": 3,
        "cover": {"terrain": "open", "posture": "stationary", "from_terrain": None, "gassed": False},
    }
    ok = roll(snap, "recovery", 21, None, [3])
    assert changes_of(ok) == {(21, "base_injury"): "old"}
    failed = roll(snap, "recovery", 21, None, [6])  # "a roll of 6 fails"
    assert changes_of(failed) == {(21, "injured_by"): 77}
    with pytest.raises(RulesError):
        roll(
            snap.after(failed.changes), "recovery", 21, None, [1]
        )  # once a shooter (erratum recovery-repeat)


# -- the stand card -------------------------------------------------------------------------------------------------
def labels(snap: Snapshot, unit_id: int) -> list[tuple[str, str, int]]:
    return [(a.label, a.resolver, a.unit_id) for a in GAME.stand_acts(snap, unit_id)]


def dice(snap: Snapshot, unit_id: int) -> list[int]:
    return [a.dice for a in GAME.stand_acts(snap, unit_id)]


def test_the_card_offers_the_rolls_the_sub_units_state_allows() -> None:
    assert labels(table(), 12) == [("Shoot", "shoot", A)]
    assert labels(table(a={"sub_plan": "assault"}), 12) == [("Assault shooting", "shoot", A)]
    assert labels(table(a={"fired_this_bound": True}), 12) == []
    touching = table(a_at=((10, 10), (12, 10), (30, 10)), m_at=((10, 11), (12, 11)), step="melee")
    assert labels(touching, 11) == [("Melee", "shoot", A)]
    assert labels(table(step="melee"), 11) == []
    # The dice its pool rolls before a target is picked: 2/1 with three bases shooting (1 + 1), one fewer
    # assaulting, and the m side for the two bases in contact (2 + 0).
    assert (dice(table(), 12), dice(table(a={"sub_plan": "assault"}), 12), dice(touching, 11)) == (
        [2],
        [1],
        [2],
    )
    waiting = table(m={"hits_to_allocate": 1, "hits_from": A}, a={"fired_this_bound": True})
    assert labels(waiting, 11) == [("Allocate hits", "allocate-hits", A)]
    hurt = table(m={"shot_at_by": [77]}, injuries={22: {"base_injury": "fresh", "injured_by": A}})
    assert labels(hurt, 22)[-1] == ("Recovery die", "recovery", 22)
    assert ("Recovery die", "recovery", 21) not in labels(hurt, 21)


# -- the game's fill answers what the lookup answers --------------------------------------------------------------
@given(
    st.sampled_from(["", "move", "stay put"]),
    st.integers(0, 2),
    st.booleans(),
    st.lists(st.integers(1, 6), min_size=6, max_size=6),
    st.floats(12, 29),
)
def test_a_game_filled_shot_answers_what_the_lookup_answers(
    plan: str, dug: int, hurt: bool, dice: list[int], y: float
) -> None:
    snap = table(
        m={"sub_plan": plan, "dug_in_bounds": dug},
        m_at=((10, y), (12, y)),
        injuries={21: {"base_injury": "old"}} if hurt else {},
    )
    for shooter, target in ((A, M), (M, A), (A, T)):
        done = roll(snap, "shoot", shooter, target, None)
        n = len(done.resolution["dice"])
        done = roll(snap, "shoot", shooter, target, dice[:n] + [1] * (n - len(dice[:n])))
        asked = {f.field: f.value for f in done.filled}
        lookup = RS.resolve("shoot", ShootRequest(**asked, dice=list(done.resolution["dice"]))).as_dict()
        assert {k: v for k, v in done.resolution.items() if k != "rolled_by_server"} == {
            k: v for k, v in lookup.items() if k != "rolled_by_server"
        }


def test_target_marks_read_the_terrain_once_and_draw_no_line_to_a_target_already_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 52: the map's marks re-read the terrain for each enemy sub-unit and traced every line of sight,
    even to a target out of range (4 s of CPU on the largest table). Now the terrain is read once a request
    and a line drawn only while nothing else refuses the target (the mark is the first refusal)."""
    from rules.earth2mm.play import shots

    read, drawn = [], []
    index, lines = shots.terrain_index, shots.lines_of_sight
    monkeypatch.setattr(shots, "terrain_index", lambda t: read.append(1) or index(t))
    monkeypatch.setattr(shots, "lines_of_sight", lambda *a: drawn.append(a[0]) or lines(*a))
    woods = [area("woods", 0, 40, 40, 44)]
    snap = table(a={"plan_target": M}, m_at=((10, 46), (12, 46)), terrain=woods)
    assert {m.mark for m in GAME.target_marks(snap, 11, "shoot")} == {
        "out of range",
        "not its planned target",
    }
    assert len(read) <= 1 and drawn == []
    read.clear()
    snap = table(m_at=((10, 30), (12, 30)), terrain=[area("woods", 0, 20, 40, 22)])
    marks = {m.unit_id: m.mark for m in GAME.target_marks(snap, 11, "shoot")}
    assert marks == dict.fromkeys((21, 22, 31, 32), "no line of sight")
    # Read once; each of our 3 bases' lines to a sub-unit's bases drawn in one call: 3 calls a sub-unit.
    assert len(read) == 1 and len(drawn) == 3 * 2


def test_the_ground_under_many_stands_writes_the_terrain_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 52: a bombardment's card measured each stand's ground by writing the whole terrain out as its
    cache key (70 ms a stand on the largest table). Now a terrain object is written out once, its rough ground
    apart; a new terrain object (a changed table) is written out anew."""
    from rules.earth2mm.play import shots

    written = []
    dumps = shots.json.dumps
    monkeypatch.setattr(shots.json, "dumps", lambda *a, **k: written.append(a[0]) or dumps(*a, **k))
    snap = table(terrain=[area("woods", 0, 20, 40, 22)])
    for _ in range(5):
        assert shots.ground_index(snap.terrain, snap.board) is shots.terrain_index(snap.terrain)
    assert written == [snap.terrain]
    changed = table(terrain=[area("woods", 0, 20, 40, 23)])
    shots.terrain_index(changed.terrain)
    assert written == [snap.terrain, changed.terrain]
