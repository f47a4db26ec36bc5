"""What the table fills into a roll and what the answer then does, as the book says (issue 38): cover by what
the target is, deep shelters, the artillery's commanders, air attacks, a field filled once, and the silent
readings listed as errata. Each roll is worked out as the app's act pipeline does (rules.core.rolls)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.core.acts import Roll
from rules.core.errors import RulesError
from rules.core.records import SetState, Snapshot, UnitState
from rules.core.rolls import Rolled, work_out
from rules.flanders_fields import errata as E
from rules.flanders_fields.book.cover import CAVALRY_LINE, WIRE_LINE
from rules.flanders_fields.book.tables import SRC_CAVALRY, SRC_WIRE
from rules.flanders_fields.play.changes import STATE_FIELDS, BecameSuppressed, SuppressionAdded
from rules.flanders_fields.play.units import SRC_ARTILLERY_COMMANDER
from rules.registry import get_game_rules, get_ruleset
from tests.rules.golden_play import start

GAME = get_game_rules("flanders-fields")
DEFAULTS = {f.name: f.default for f in STATE_FIELDS}
RULESET = get_ruleset("flanders-fields")
WOOD = {
    "type": "Feature",
    "properties": {"kind": "woods"},
    "geometry": {"type": "Polygon", "coordinates": [[[0, 90], [40, 90], [40, 110], [0, 110], [0, 90]]]},
}
ROAD = {
    "type": "Feature",
    "properties": {"kind": "road", "width_cm": 4.0},
    "geometry": {"type": "LineString", "coordinates": [[80, 0], [80, 180]]},
}


def stand(
    uid: int, parent: int | None, kind: str, x: float, y: float, side: str = "attacker", **values: Any
) -> UnitState:
    """A stand on the table: its own fields (level, base, quality ...) and its state (suppression ...)."""
    own = {k: values.pop(k) for k in list(values) if k in UnitState.__dataclass_fields__}
    own.setdefault("level", "platoon")
    own.setdefault("base", "infantry-platoon")
    return UnitState(
        uid, parent, side, kind=kind, name=f"unit {uid}", x=x, y=y, **own, state={**DEFAULTS, **values}
    )


def unit(uid: int, parent: int | None, level: str, kind: str, name: str, **own: Any) -> UnitState:
    return UnitState(uid, parent, own.pop("side", "attacker"), level, kind, name, **own, state=DEFAULTS)


def table(
    *units: UnitState, period: str = "early", variants: dict[str, str] | None = None, **board: Any
) -> Snapshot:
    """An attacking MG (id 1) and a super heavy battery (id 2), and the stands given (the defender's)."""
    mg = stand(1, None, "mmg", 10, 60, base="heavy-mg", quality="experienced")
    guns = stand(2, None, "heavy-battery", 60, 5, base="super-heavy-artillery")
    return Snapshot(
        "flanders-fields",
        period,
        (mg, guns, *units),
        120.0,
        180.0,
        variants=variants or {},
        terrain={"type": "FeatureCollection", "features": [WOOD, ROAD]},
        board=board,
    )


def target(uid: int, kind: str, x: float, y: float = 90.0, **values: Any) -> UnitState:
    base = {"cavalry-troop": "cavalry-platoon", "tank": "tank"}.get(kind, "infantry-platoon")
    values.setdefault("base", base)
    return stand(uid, None, kind, x, y, side="defender", facing_deg=270.0, **values)


def roll(
    snap: Snapshot,
    resolver: str,
    dice: list[int],
    unit_id: int | None,
    target_id: int | None = None,
    **fields: Any,
) -> Rolled:
    asked = Roll(
        resolver=resolver, fields=fields, dice=dice, unit_id=unit_id, target_id=target_id, apply=True
    )
    return work_out(GAME, GAME.book.roll_terms, RULESET, snap, asked)


def filled(w: Rolled) -> dict[str, Any]:
    return {f.field: f for f in w.filled}


def killed(w: Rolled) -> list[int]:
    return [c.unit_id for c in w.changes if isinstance(c, SetState) and c.field == "killed" and c.value]


# -- 1. cover by what the target is ------------------------------------------------------------------------
def test_troops_stuck_on_the_wire_count_as_in_the_open() -> None:
    # "If the test is failed then the troops may not cross and count as being in the open": a veteran
    # platoon, else in soft cover by field craft, is suppressed by an MG's 3 (open: "MG 3 4").
    on_wire = target(10, "rifle-platoon", 60, 60, quality="veteran", stuck_on_wire=True)
    w = roll(table(on_wire), "shooting", [3], 1, 10)
    cover = filled(w)["cover"]
    assert (cover.value, cover.source) == ("open", SRC_WIRE) and WIRE_LINE
    assert w.resolution["outcome_key"] == "suppressed"
    off_wire = replace(on_wire, state={**on_wire.state, "stuck_on_wire": False})
    assert roll(table(off_wire), "shooting", [3], 1, 10).resolution["outcome_key"] == "no-effect"


def test_cavalry_count_as_in_the_open_unless_in_a_wood_or_built_up_area() -> None:
    # "Cavalry always count as in the open unless in a wood or built up area." (CAVALRY)
    in_open = target(10, "cavalry-troop", 60, 60, quality="experienced")
    cover = filled(roll(table(in_open), "shooting", [3], 1, 10))["cover"]
    assert (cover.value, cover.source) == ("open", SRC_CAVALRY) and CAVALRY_LINE
    in_wood = target(10, "cavalry-troop", 20, 100, quality="experienced")
    assert filled(roll(table(in_wood), "shooting", [3], 1, 10))["cover"].value == "soft"


def test_a_tank_in_the_open_is_shot_on_the_armour_tables_in_open_column() -> None:
    # No field craft for a tank: an experienced tank in the open is "In Open", where an MG's 6 suppresses.
    tank = target(10, "tank", 60, 60, quality="experienced")
    w = roll(table(tank, period="late"), "shooting", [6], 1, 10)
    assert filled(w)["cover"].value == "open" and w.request.target == "armour"
    assert w.resolution["outcome_key"] == "suppressed"


# -- 2. deep shelters ----------------------------------------------------------------------------------------
def test_troops_in_deep_shelters_are_safe_from_all_but_super_heavy_artillery() -> None:
    # "German troops may shelter in deep dugouts, safe from everything except Super Heavy artillery which
    # requires a 6 for a kill"
    sheltered = target(10, "rifle-platoon", 10, 80, deep_shelter=True)
    snap = table(sheltered, period="late")
    mg = roll(snap, "shooting", [6], 1, 10)
    assert filled(mg)["target_in_deep_shelter"].value is True
    assert mg.resolution["outcome_key"] == "not-possible" and not mg.changes
    super_heavy = {"firer": "super-heavy-artillery", "indirect": True}
    assert roll(snap, "shooting", [5], 2, 10, **super_heavy).resolution["outcome_key"] == "no-effect"
    heavy = roll(snap, "shooting", [6], 2, 10, **super_heavy)
    assert heavy.resolution["outcome_key"] == "killed" and killed(heavy) == [10]


def test_an_arrival_card_does_not_roll_a_sheltered_stand_like_anyone_else() -> None:
    company = unit(10, None, "company", "rifle-company", "Coy", side="defender")
    sheltered = replace(target(11, "rifle-platoon", 60, 120, deep_shelter=True), parent_id=10)
    fire = {"item_id": 5, "side": "attacker", "kind": "bombardment", "turn": 1, "grid": [60, 120]}
    snap = replace(
        table(company, sheltered),
        turn=1,
        side_to_move="attacker",
        board={"fire": [{**fire, "point": [60, 120]}]},
    )
    (card,) = GAME.arrival_cards(snap, {})
    (roll_of,) = [s for s in card.stands if s.unit_id == 11]
    assert roll_of.request["target_in_deep_shelter"] is True
    assert roll_of.odds == {"not-possible": 1}
    fired = GAME._arrival_fired(snap, card, {"action": [6], "11": [6, 6]}, {}, {})
    assert not [c for c in fired.changes if getattr(c, "unit_id", None) == 11]


# -- 3. the artillery's commanders ---------------------------------------------------------------------------
def test_a_battery_orders_with_the_commander_the_book_names() -> None:
    # "The artillery is attached at Regimental level and may only be commanded by the Regimental commander";
    # "-1 For each Suppression marker on a Unit's Command Stand".
    t = start({"ruleset": "flanders-fields", "start": {"scenario": "mons-1914"}})
    hq = t.ids["mons-1914/de/infantry-regiment-1/regiment-command-1"]
    battery = t.ids["mons-1914/de/infantry-regiment-1/field-artillery-group-1/field-battery-1"]
    snap = t.snap.after([SetState("", "", hq, "suppression", 2)])
    w = roll(snap, "order-roll", [4], battery)
    got = filled(w)["command_suppression"]
    assert (got.value, got.source) == (2, SRC_ARTILLERY_COMMANDER)
    assert w.resolution["outcome"]["actions"] == 0  # 4 - 2: "1 -2 = No Action"
    # "Only the Brigade commander may issue orders to the artillery batteries": a field promotion there.
    brigade_hq = t.ids["mons-1914/gb/infantry-brigade-1/brigade-command-1"]
    guns = t.ids["mons-1914/gb/infantry-brigade-1/field-artillery-brigade-1/field-battery-1"]
    promoted = t.snap.after([SetState("", "", brigade_hq, "field_promotion", True)])
    assert filled(roll(promoted, "order-roll", [4], guns))["field_promotion"].value is True


# -- 6. air attacks ------------------------------------------------------------------------------------------
def test_an_air_attack_won_by_three_destroys_the_target_and_knows_its_kind() -> None:
    # "Win by 3 or more, the looser is destroyed"; "Target is Artillery or support weapons +2".
    mg = target(10, "mmg", 60, 60, base="heavy-mg")
    w = roll(table(mg, period="late"), "air-attack", [6, 5], None, 10)
    assert filled(w)["target"].value == "machine-gun"
    assert "Aircraft: target is artillery or a support weapon" in [
        m["label"] for m in w.resolution["modifiers"]
    ]
    assert w.resolution["outcome_key"] == "destroyed" and killed(w) == [10]


# -- 9. a field filled once, the range's section -------------------------------------------------------------
def test_an_order_roll_fills_quality_once_and_the_range_cites_the_weapon_ranges() -> None:
    snap = table(target(10, "rifle-platoon", 60, 60))
    w = roll(snap, "order-roll", [4], 1)
    assert [f.field for f in w.filled].count("quality") == 1 and filled(w)["quality"].value == "experienced"
    shot = filled(roll(snap, "shooting", [4], 1, 10))["range_cm"]
    assert "MEASURING" not in shot.source and "RANGED COMBAT, WEAPON RANGES" in shot.source


def test_a_range_by_the_tape_is_taken_and_marked_beside_the_maps() -> None:
    # Issue 52: a range is measured on the table, so the tape's reading is the player's to give; it is taken,
    # and marked as given beside what the map measures.
    snap = table(target(10, "rifle-platoon", 60, 60))
    measured = filled(roll(snap, "shooting", [4], 1, 10))["range_cm"].value
    taped = roll(snap, "shooting", [4], 1, 10, range_cm=5)
    said = filled(taped)["range_cm"]
    assert taped.request.range_cm == 5 and (said.value, said.given, said.table) == (5, True, measured)
    assert said.why == f"by the tape: 5 cm; the map measures {measured:g} cm" and said.source
    assert said.as_dict() == {
        "field": "range_cm",
        "value": 5,
        "why": said.why,
        "given": True,
        "table": measured,
    }


def test_a_count_or_state_the_table_keeps_is_refused_naming_it() -> None:
    # "Crewed Weapons ... are always classed as Experienced": the MG's quality is the table's.
    snap = table(target(10, "rifle-platoon", 60, 60))
    with pytest.raises(RulesError) as e:
        roll(snap, "order-roll", [4], 1, quality="veteran")
    assert e.value.field == "fields.quality" and e.value.source
    assert (
        e.value.reason
        == "the table keeps quality: experienced here, not veteran; leave it out or ask the referee"
    )


def test_each_field_the_table_fills_has_its_class() -> None:
    # The playsheet's counts and flags are kept, the tape's distances measured, what the players judge on the
    # table seen (erratum judged-by-eye: the book does not say who judges cover, sight or an assault's stands).
    claims = GAME.book.roll_terms.claims
    assert {"through_wire", "target_in_deep_shelter", "deep_suppression", "raw_under_fire"} <= claims.kept
    assert dict(claims.measured) == {"range_cm": "cm", "distance_cm": "cm"}
    assert claims.seen == {"cover", "defender_cover", "direct_line_of_sight", "attacker", "defender"}
    assert not claims.seen & claims.kept and E.JUDGED_BY_EYE in RULESET.errata


def test_a_cover_and_a_line_of_sight_seen_by_the_player_are_taken_and_marked_beside_the_maps() -> None:
    snap = table(target(10, "rifle-platoon", 60, 60))
    table_says = filled(roll(snap, "shooting", [4], 1, 10))
    assert (table_says["cover"].value, table_says["direct_line_of_sight"].value) == ("open", True)
    seen = roll(snap, "shooting", [4], 1, 10, cover="soft", direct_line_of_sight=False)
    cover, sight = filled(seen)["cover"], filled(seen)["direct_line_of_sight"]
    assert seen.request.cover == "soft" and seen.request.direct_line_of_sight is False
    assert (cover.value, cover.given, cover.table) == ("soft", True, "open")
    assert cover.why == "seen by the player: soft; the map reads open"
    assert sight.why == "seen by the player: no; the map reads yes" and sight.given
    # The map's own reading given back is the table's: nothing to mark.
    same = filled(roll(snap, "shooting", [4], 1, 10, cover="open"))["cover"]
    assert same.given is False and same.why == table_says["cover"].why
    # Under the erratum's other reading the map judges: a cover given other than its reading is refused.
    with pytest.raises(RulesError) as e:
        roll(
            table(target(10, "rifle-platoon", 60, 60), variants={E.JUDGED_BY_EYE: "the-map"}),
            "shooting",
            [4],
            1,
            10,
            cover="soft",
        )
    assert e.value.field == "fields.cover" and "the table keeps cover: open here, not soft" in e.value.reason


def test_an_assaults_stand_brought_with_its_support_from_the_rear_is_marked_as_the_players() -> None:
    snap = table(target(10, "rifle-platoon", 12, 60, quality="experienced"))
    mine = {
        "kind": "infantry",
        "quality": "experienced",
        "suppressed": False,
        "in_deep_shelter": False,
        "supported_from_rear": True,
    }
    w = roll(snap, "assault", [4, 3], 1, 10, attacker=mine)
    attacker = filled(w)["attacker"]
    assert w.request.attacker.supported_from_rear and attacker.given and attacker.value == mine
    assert attacker.why.startswith("seen by the player: kind infantry") and "supported from rear yes" in (
        attacker.why
    )


@pytest.mark.parametrize(
    ("resolver", "field", "claim", "table_value"),
    [
        ("shooting", "target_in_deep_shelter", True, "false"),
        ("order-roll", "deep_suppression", 2, "0"),  # the attacker's MG: deep suppression is the defender's
        ("order-roll", "through_wire", True, "false"),  # no stand of it in wire
    ],
)
def test_a_kept_flag_claimed_where_the_table_says_it_does_not_apply_is_refused(
    resolver: str, field: str, claim: Any, table_value: str
) -> None:
    snap = table(target(10, "rifle-platoon", 60, 60))
    unit_id, target_id = (1, 10) if resolver == "shooting" else (1, None)
    with pytest.raises(RulesError) as e:
        roll(snap, resolver, [4], unit_id, target_id, **{field: claim})
    assert e.value.field == f"fields.{field}"
    assert e.value.reason == (
        f"the table keeps {field}: {table_value} here, not {str(claim).lower()}; leave it out or ask the referee"
    )


# -- the silent readings, each other reading -----------------------------------------------------------------
def test_range_read_centre_to_centre() -> None:
    pl = target(10, "rifle-platoon", 10, 70)
    closest = filled(roll(table(pl), "shooting", [4], 1, 10))["range_cm"].value
    centres = table(pl, variants={E.RANGE_MEASURED: "centres"})
    assert filled(roll(centres, "shooting", [4], 1, 10))["range_cm"].value == 10.0 > closest


def test_troops_on_a_road_in_the_open_whatever_their_quality() -> None:
    pl = target(10, "rifle-platoon", 80, 60, quality="veteran")
    assert filled(roll(table(pl), "shooting", [4], 1, 10))["cover"].value == "soft"
    marching = table(pl, variants={E.ROAD_MARCH_COVER: "open"})
    assert filled(roll(marching, "shooting", [4], 1, 10))["cover"].value == "open"


def test_an_aircrafts_suppression_reaches_the_company_under_the_other_reading() -> None:
    company = unit(10, None, "company", "rifle-company", "Coy", side="defender")
    a, b = (replace(target(i, "rifle-platoon", x, 60), parent_id=10) for i, x in ((11, 60), (12, 70)))

    def hit(variants: dict[str, str]) -> list[int]:
        w = roll(table(company, a, b, period="late", variants=variants), "air-attack", [1, 2], None, 11)
        return sorted(c.unit_id for c in w.changes if isinstance(c, SuppressionAdded))

    assert hit({}) == [11]
    assert hit({E.AIRCRAFT_SUPPRESSION_SPREAD: "company"}) == [11, 12]


def test_become_suppressed_adds_a_marker_under_the_other_reading() -> None:
    bn = replace(
        unit(10, None, "battalion", "infantry-battalion", "Bn", quality="experienced"), side="defender"
    )
    pl = replace(target(11, "rifle-platoon", 60, 60, suppression=2), parent_id=10)
    fresh = replace(target(12, "rifle-platoon", 70, 60), parent_id=10)
    # Half its rifle platoons lost, as the table counts them.
    lost = [replace(target(i, "rifle-platoon", 70 + i, 60, killed=True), parent_id=10) for i in (13, 14)]

    def retreat(variants: dict[str, str]) -> list[Any]:
        snap = table(bn, pl, fresh, *lost, variants=variants)
        return list(roll(snap, "morale", [2], 10).changes)

    stays = retreat({})
    assert [c.unit_id for c in stays if isinstance(c, BecameSuppressed)] == [12]
    marked = retreat({E.BECOME_SUPPRESSED: "marker"})
    assert sorted(c.unit_id for c in marked if isinstance(c, SuppressionAdded)) == [11, 12]
    assert 11 in [c.unit_id for c in marked if isinstance(c, SetState) and c.field == "killed" and c.value]


def test_a_dead_commander_orders_as_a_field_promotion_under_the_other_reading() -> None:
    bn = unit(10, None, "battalion", "infantry-battalion", "Bn", quality="experienced")
    hq = stand(
        11,
        10,
        "battalion-command",
        10,
        20,
        level="stand",
        base="battalion-command",
        is_command=True,
        killed=True,
    )
    coy = unit(12, 10, "company", "rifle-company", "Coy")
    pl = stand(13, 12, "rifle-platoon", 10, 30)
    assert "field_promotion" not in filled(roll(table(bn, hq, coy, pl), "order-roll", [4], 12))
    read = table(bn, hq, coy, pl, variants={E.DEAD_COMMANDER_ORDERS: "field-promotion"})
    assert filled(roll(read, "order-roll", [4], 12))["field_promotion"].value is True


def test_the_25cm_counts_only_the_ordered_units_platoons_under_the_other_reading() -> None:
    bn = unit(10, None, "battalion", "infantry-battalion", "Bn", quality="experienced")
    hq = stand(11, 10, "battalion-command", 10, 20, level="stand", base="battalion-command", is_command=True)
    near, far = unit(12, 10, "company", "rifle-company", "A"), unit(14, 10, "company", "rifle-company", "B")
    units = (
        bn,
        hq,
        near,
        stand(13, 12, "rifle-platoon", 10, 30),
        far,
        stand(15, 14, "rifle-platoon", 10, 90),
    )
    assert filled(roll(table(*units), "order-roll", [4], 12))["platoon_beyond_25cm"].value is True
    own = table(*units, variants={E.COMMANDER_REACH: "ordered-unit"})
    assert filled(roll(own, "order-roll", [4], 12))["platoon_beyond_25cm"].value is False


def test_deep_suppression_reaches_only_batteries_off_the_table_by_the_playsheet() -> None:
    # "Deep Suppression modifiers are applied if testing for off table artillery support."
    on = replace(stand(10, None, "field-battery", 60, 170, base="field-artillery"), side="defender")
    off = replace(on, id=11, off_table=True, x=None, y=None)
    snap = table(on, off, period="mid", deep_suppression=1)
    assert "deep_suppression" not in filled(roll(snap, "order-roll", [4], 10))
    assert filled(roll(snap, "order-roll", [4], 11))["deep_suppression"].value == 1
    main = replace(snap, variants={E.DEEP_SUPPRESSION_ON_TABLE: "main-text"})
    assert filled(roll(main, "order-roll", [4], 10))["deep_suppression"].value == 1


def test_a_sheltered_stand_is_safe_under_a_rolling_barrage_and_from_aircraft() -> None:
    sheltered = target(10, "rifle-platoon", 10, 80, deep_shelter=True)
    snap = table(
        sheltered,
        period="late",
        barrages=({"item_id": 1, "side": "attacker", "front_y": 70.0, "pending": [10], "danger": []},),
    )
    w = roll(snap, "rolling-barrage", [], None, 10)
    assert w.resolution["outcome_key"] == "no-effect" and filled(w)["target_in_deep_shelter"].value is True
    with pytest.raises(RulesError) as refused:
        roll(snap, "air-attack", [6, 1], None, 10)
    assert refused.value.field == "target_in_deep_shelter"
