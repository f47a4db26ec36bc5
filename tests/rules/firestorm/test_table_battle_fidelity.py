"""What a campaign battle fields on the table, against the Firestorm text (issue 23): the turn 1 gas halves the
BEF Firestorm Troops (and the trench HMG nests), the printed grades ('veteran infantry', 'trained infantry',
Stoss) become Flanders Fields grades in one place, the defender's trench HMG nests are stands in its front
trench, and the readings where the text is silent or disagrees with itself are errata with both readings."""

from __future__ import annotations

from typing import Any

import pytest
from shapely.geometry import Point

from rules.core.errors import RulesError
from rules.firestorm.great_war import BattleAreasRequest, TroopPointsRequest
from rules.firestorm.great_war_data import POINTS_CARDS
from rules.firestorm.table_battle import FRONT_TRENCH, TableBattle, TableForce, table_battle
from rules.flanders_fields.book.organisation import build_force, build_template
from rules.flanders_fields.play.table_rules import WIRE_BELT_CM
from rules.registry import get_ruleset
from rules.table.frame import TABLE_LENGTH_CM, TABLE_WIDTH_CM
from rules.table.terrain import terrain_from_geojson
from tests.rules.firestorm.test_table_battle import at_resolve, fixed_battle

RS = get_ruleset("firestorm-villers-bretonneux")


def built(force: TableForce) -> Any:
    """The force as create_game builds it (the organisation builders, with the force's counts)."""
    if force.template is None:
        return build_force(force.table, quality=force.quality, counts=force.counts)
    return build_template(
        force.table, force.template, id_prefix="f", quality=force.quality, counts=force.counts
    )


def kinds(unit: Any, kind: str) -> int:
    return sum(u.kind == kind for u in unit.walk())


def troop(b: TableBattle, tid: str) -> TableForce:
    (f,) = [f for f in b.forces if f.troop == tid]
    return f


# -- 1. the turn 1 gas ----------------------------------------------------------------------------------------
def test_turn_one_gas_halves_each_bef_troop_by_its_companies() -> None:
    # "all BEF Firestorm Troops and Trench defences are halved on turn 1": 25 Bde defends C-3 (battle 1).
    b = table_battle(at_resolve("german", "D-2", "C-3", ("48-rir",), ("25-bde",), turn=1), 1)
    gassed, full = troop(b, "25-bde"), build_template("gb-1917", "battalion", id_prefix="f")
    assert "gassed-bef-force" in b.errata
    # The chart's "Infantry Company (four boxes)": two of them, each whole (3 platoons, experienced).
    assert kinds(full, "rifle-company") == 4 and kinds(built(gassed), "rifle-company") == 2
    assert kinds(built(gassed), "rifle-platoon") == kinds(full, "rifle-platoon") // 2 == 6
    assert kinds(built(gassed), "battalion-command") == 1  # the HQ stays
    # The German attacker is not gassed.
    assert troop(b, "48-rir").counts == {}
    assert any("gas attack" in n and "half of its companies" in n for n in b.notes)
    # Turn 2: the same battle fields the whole battalion.
    b2 = table_battle(at_resolve("german", "D-2", "C-3", ("48-rir",), ("25-bde",), turn=2), 1)
    assert troop(b2, "25-bde").counts == {} and "gassed-bef-force" not in b2.errata


def test_the_gassed_machine_gun_battalion_keeps_half_its_vickers() -> None:
    # "two Vickers HMG instead of four Vickers HMG for a machine-gun platoon": 58 Bn MGC defends B-4.
    b = table_battle(at_resolve("german", "C-5", "B-4", ("257-rir",), ("58-bn-mgc",), turn=1), 1)
    full = build_template("gb-1917", "mg-battalion", id_prefix="f")
    assert kinds(full, "mmg") == 16 and kinds(built(troop(b, "58-bn-mgc")), "mmg") == 8


def test_all_bef_troops_are_halved_tanks_too() -> None:
    # "all BEF Firestorm Troops": a tank troop's Tank Battalion keeps 2 of its "Tank Company (three boxes)"
    # (half, rounded up), each with its 4 tanks.
    b = table_battle(at_resolve("german", "B-2", "A-2", ("48-rir",), ("a-coy-mitchell",), turn=1), 1)
    tanks = built(troop(b, "a-coy-mitchell"))
    assert kinds(build_force("gb-tank-battalion"), "tank-company") == 3
    assert kinds(tanks, "tank-company") == 2 and kinds(tanks, "tank") == 8


def test_the_other_reading_halves_each_company() -> None:
    variants = {"gassed-bef-force": "half-each-company"}
    s = at_resolve("german", "D-2", "C-3", ("48-rir",), ("25-bde", "58-bn-mgc"), turn=1, variants=variants)
    b = table_battle(s, 1)
    inf, mg = built(troop(b, "25-bde")), built(troop(b, "58-bn-mgc"))
    # Every company keeps half of its platoons, rounded up ("3x SMLE rifle team ... instead of ... 5x"): 2 of 3.
    assert kinds(inf, "rifle-company") == 4 and kinds(inf, "rifle-platoon") == 8
    assert kinds(mg, "mmg-company") == 4 and kinds(mg, "mmg") == 8  # "(4 Models)" each: two Vickers
    assert any("half of each company's platoons" in n for n in b.notes)
    assert "Gas Attack" in " ".join(b.sources) and "[variant]" in " ".join(b.sources)


def test_a_bef_force_without_firestorm_troops_is_not_halved() -> None:
    # Only Firestorm Troops are halved: the battalion a side fields without one is not.
    b = table_battle(at_resolve("german", "D-2", "C-3", ("48-rir",), (), turn=1), 1)
    (bef,) = [f for f in b.forces if f.side == "defender"]
    assert bef.troop == "" and bef.counts == {}


def test_a_force_may_not_keep_more_than_its_chart_draws() -> None:
    with pytest.raises(RulesError) as e:
        build_template("gb-1917", "battalion", id_prefix="f", counts={"rifle-company": 5})
    assert e.value.field == "counts.rifle-company" and e.value.allowed == [1, 2, 3, 4]
    with pytest.raises(RulesError) as e:
        build_template("gb-1917", "battalion", id_prefix="f", counts={"tank": 1})
    assert e.value.field == "counts"


# -- 2. grades --------------------------------------------------------------------------------------------------
def test_the_printed_grades_come_to_the_table() -> None:
    # "478 RIR (veteran infantry ...)", "48 RIR (veteran infantry), 207 RIR (veteran infantry ...)",
    # "93 RIR (veteran infantry ...)", "419 RIR (trained infantry ...)".
    for src, dst, troops in (
        ("D-2", "C-3", ("48-rir", "207-rir")),
        ("D-3", "C-4", ("93-rir", "g-gr-5")),
        ("D-1", "C-2", ("478-rir",)),
        ("C-5", "B-4", ("419-rir", "257-rir")),
    ):
        b = table_battle(at_resolve("german", src, dst, troops, turn=2), 1)
        assert "firestorm-grade" in b.errata
        for t in troops:
            want = {"419-rir": "experienced", "g-gr-5": "storm", "257-rir": "storm"}.get(t, "veteran")
            assert troop(b, t).quality == want, t
            assert {u.quality for u in built(troop(b, t)).stands() if u.kind == "rifle-platoon"} <= {want}
    # The AIF: "four Veteran Infantry Firestorm Troops".
    b = table_battle(at_resolve("bef", "C-1", "D-1", ("14-bde-aif",), turn=2), 1)
    assert troop(b, "14-bde-aif").quality == "veteran"
    # A Line Division brigade has no printed grade: its table's ("All battalions may be Experienced").
    b = table_battle(at_resolve("bef", "C-3", "D-2", ("25-bde",), turn=2), 1)
    assert troop(b, "25-bde").quality is None and "firestorm-grade" not in b.errata


def test_trained_may_be_read_as_raw() -> None:
    s = at_resolve("german", "C-5", "B-4", ("419-rir", "257-rir"), turn=2)
    s = s.model_copy(update={"variants": {"firestorm-grade": "trained-is-raw"}})
    b = table_battle(s, 1)
    assert troop(b, "419-rir").quality == "raw" and troop(b, "257-rir").quality == "storm"


# -- 3. trench HMG nests on the table ---------------------------------------------------------------------------
def front_trench(b: TableBattle) -> Any:
    features = terrain_from_geojson(b.terrain, wire_belt_cm=WIRE_BELT_CM)
    (front,) = [f for f in features if f.kind == "trench" and f.properties.get("name") == FRONT_TRENCH]
    return front.geometry


@pytest.mark.parametrize("seed", [1, 2, 3, 11])
def test_two_nests_stand_in_the_defenders_front_trench(seed: int) -> None:
    # "If your trenches are attacked from trenches that started in enemy control you get two HMG nests."
    b = table_battle(at_resolve("german", "D-2", "C-3", ("48-rir",), ("25-bde",), turn=2), seed)
    assert len(b.nests) == 2 and "hmg-nest-on-the-table" in b.errata
    trench = front_trench(b)
    for nest in b.nests:
        assert nest.center is not None
        x, y = nest.center
        assert 0 < x < TABLE_WIDTH_CM and TABLE_LENGTH_CM / 2 < y < TABLE_LENGTH_CM
        assert trench.contains(Point(x, y))
        # A machine gun of the defender's nation: 'Crewed Weapons ... are always classed as Experienced'.
        u = nest.unit
        assert (u.kind, u.base, u.quality, u.models, u.children) == ("mmg", "heavy-mg", "experienced", 1, ())
        assert "Vickers" in u.name and "HMG Nest" in u.source
        assert nest.facing_deg == 270.0  # towards the attacker's edge
    assert len({n.unit.id for n in b.nests}) == 2 and b.nests[0].center != b.nests[1].center
    assert any("2 trench HMG nest(s)" in n and "in its front trench" in n for n in b.notes)


def test_german_nests_are_maxims_and_the_gas_leaves_the_bef_one() -> None:
    b = table_battle(at_resolve("bef", "C-3", "D-2", ("25-bde",), ("48-rir",), turn=2), 1)
    assert [n.unit.name for n in b.nests] == [
        "Trench HMG nest 1 (Maxim MMG)",
        "Trench HMG nest 2 (Maxim MMG)",
    ]
    # "one HMG nest instead of two".
    assert len(table_battle(fixed_battle(0), 1).nests) == 1


def test_no_nest_in_a_captured_trench_or_in_the_open() -> None:
    # "You get no bonus for defending in trenches you have captured from the enemy."
    assert table_battle(at_resolve("bef", "B-3", "C-3", ("25-bde",), ("48-rir",)), 1).nests == ()
    assert table_battle(at_resolve("german", "C-3", "B-2", ("48-rir",), ("24-bde",)), 1).nests == ()


def test_on_a_table_laid_by_hand_the_nests_start_off_the_table() -> None:
    s = at_resolve("german", "D-2", "C-3", ("48-rir",), ("25-bde",), turn=2)
    b = table_battle(s.model_copy(update={"variants": {"campaign-table-layout": "empty"}}), 1)
    assert len(b.nests) == 2 and all(n.center is None for n in b.nests)
    assert any("off the table: place them in its front trench" in n for n in b.notes)


# -- 8. nests "attacked from an enemy trench" -------------------------------------------------------------------
def nests(variants: dict[str, str]) -> int:
    # The Germans attack BEF-built C-4 from C-3, a BEF trench they captured.
    req = BattleAreasRequest(turn=2, attacker="german", from_area="C-3", to_area="C-4", variants=variants)
    out: int = RS.resolve("trench-hmg-nests", req).as_dict()["outcome"]["hmg_nests"]
    return out


def test_the_cards_enemy_trench_is_a_reading() -> None:
    # "trenches that started in enemy control": C-3 started in BEF control, so "any other area": one.
    assert nests({}) == 1
    # The card: "2x HMG nests if attacked from an enemy trench": C-3 is held by the enemy.
    assert nests({"hmg-nests-enemy-trench": "enemy-held-trench"}) == 2
    s = at_resolve("german", "C-3", "C-4", ("48-rir",), ("23-bde",), turn=2)
    assert len(table_battle(s, 1).nests) == 1
    s = s.model_copy(update={"variants": {"hmg-nests-enemy-trench": "enemy-held-trench"}})
    assert len(table_battle(s, 1).nests) == 2


# -- 13. troop points on turn 1 -----------------------------------------------------------------------------------
def points(card: Any, turn: int | None, variants: dict[str, str] | None = None) -> int:
    req = TroopPointsRequest(force_points=100, first_troop=card, turn=turn, variants=variants or {})
    out: int = RS.resolve("troop-points", req).as_dict()["outcome"]["added_points"]
    return out


def test_turn_one_gas_halves_bef_troop_points() -> None:
    line, mg = POINTS_CARDS["line"].points, POINTS_CARDS["58-bn-mgc"].points
    assert (line, mg) == (10, 13)  # "10 POINTS 23rd, 24th, 25th ...", "13 POINTS 58 Bn MGC"
    assert points("line", 1) == 5 and points("58-bn-mgc", 1) == 7  # halved, rounded up as 5 rifle teams to 3
    assert points("line", 2) == 10 and points("line", None) == 10
    assert points("jager", 1) == POINTS_CARDS["jager"].points  # the Germans are not gassed
    assert points("58-bn-mgc", 1, {"gassed-troop-points": "full"}) == 13


# -- the errata -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("erratum", "readings"),
    [
        ("gassed-bef-force", 2),
        ("firestorm-grade", 2),
        ("hmg-nests-enemy-trench", 2),
        ("gassed-troop-points", 2),
        ("hmg-nest-on-the-table", 1),
    ],
)
def test_each_reading_is_an_erratum_with_its_printed_lines(erratum: str, readings: int) -> None:
    e = RS.errata[erratum].as_dict()
    assert len(e["readings"]) == readings and e["default"] == e["readings"][0]["id"]
    for r in e["readings"]:
        assert r["source"].startswith("Firestorm: Villers-Bretonneux: ") and "'" in r["text"]
