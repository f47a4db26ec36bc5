"""A Firestorm campaign battle on a Flanders Fields table (rules/firestorm/table_battle.py), against the seed texts:
the turn's date and its period, the forces each Firestorm Troop brings, the generated table, and the table
result offered back to the campaign as its Great War score."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from shapely import box
from shapely.geometry import shape

from rules.core.errors import RulesError
from rules.firestorm.battle import TANKS_LAST_TURN, great_war_attacker_won
from rules.firestorm.campaign import BattleState, CampaignState, apply, legal_actions, new_campaign
from rules.firestorm.data import (
    ADJACENCY,
    AREAS,
    FIXED_ATTACKS,
    TANK_KINDS,
    TERRAIN,
    TROOP_BY_ID,
    TROOPS,
    Side,
)
from rules.firestorm.ruleset import Firestorm
from rules.firestorm.table_battle import (
    FORCE_TABLES,
    POSITION_VP,
    TableBattle,
    TableForce,
    TableOutcome,
    offer_from_outcome,
    offer_from_score,
    period_of,
    table_battle,
    table_objectives,
)
from rules.flanders_fields.book.organisation import ORGANISATION_TABLES, TABLES, build_force, build_template
from rules.flanders_fields.planning.scenarios import DEPLOY_DEPTH
from rules.flanders_fields.play.table_rules import WIRE_BELT_CM
from rules.registry import get_ruleset
from rules.table.frame import TABLE_LENGTH_CM, TABLE_WIDTH_CM
from rules.table.objectives import objectives_from_geojson
from rules.table.terrain import terrain_from_geojson

RS = get_ruleset("firestorm-villers-bretonneux")
NEW_ERRATA = (
    "campaign-turn-date",
    "firestorm-troop-to-force",
    "a7v-table",
    "out-of-supply-on-the-table",
    "campaign-table-layout",
    "table-result-to-campaign-vp",
)


def stands_of(force: TableForce) -> int:
    """The stands a force of the battle brings: its table's named part, or the whole table."""
    if force.template is None:
        return len(build_force(force.table, quality=force.quality).stands())
    return len(build_template(force.table, force.template, id_prefix="f", quality=force.quality).stands())


def fixed_battle(i: int, variants: dict[str, str] | None = None) -> CampaignState:
    """Turn 1, battle i: the fixed attack, the Germans committing the first two troops offered and the BEF
    every troop it may."""
    s = new_campaign(variants=variants).model_copy(update={"battle": i})
    s, _ = apply(s, {"type": "initiative"})
    offered = legal_actions(s)[0]["options"][0]
    s, _ = apply(
        s,
        {
            **{k: offered[k] for k in ("from_area", "to_area")},
            "type": "attack",
            "troops": offered["troops"][:2],
        },
    )
    s, _ = apply(s, {"type": "defend", "troops": legal_actions(s)[0]["troops"][:2]})
    return s


def at_resolve(
    attacker: Side,
    from_area: str,
    to_area: str,
    attackers: tuple[str, ...],
    defenders: tuple[str, ...] = (),
    *,
    turn: int = 2,
    variants: dict[str, str] | None = None,
    **battle: Any,
) -> CampaignState:
    """A campaign state with this battle waiting for its result (troops put where the battle needs them)."""
    s = new_campaign(variants=variants)
    where = {**dict.fromkeys(attackers, from_area), **dict.fromkeys(defenders, to_area)}
    troops = tuple(
        t.model_copy(update={"area": where[t.id], "status": "active"})
        if t.id in where
        # "At the end of turn 2 all tank Firestorm Troops that remain in play from both sides are removed."
        else t.model_copy(update={"area": None, "status": "withdrawn"})
        if turn > TANKS_LAST_TURN and TROOP_BY_ID[t.id].kind in TANK_KINDS
        else t
        for t in s.troops
    )
    control = {**s.control, from_area: attacker, to_area: "bef" if attacker == "german" else "german"}
    current = BattleState(
        attacker=attacker,
        from_area=from_area,
        to_area=to_area,
        attacker_troops=attackers,
        defender_troops=defenders,
        **battle,
    )
    return s.model_copy(
        update={"turn": turn, "phase": "resolve", "troops": troops, "control": control, "current": current}
    )


# -- the date and the period -------------------------------------------------------------------------------------
def test_the_turns_date_and_the_late_period() -> None:
    # Contents: "Turn 1 – 24. April – Morning", "Turn 2 – 24. April – Day", "Turn 3 – 25. April – Counter-attack",
    # "Turn 4 – 2627. April – Consolidation"; the title: "24-27 APRIL 1918".
    b = table_battle(fixed_battle(0), 1)
    assert b.date == "1918-04-24"
    # Flanders Fields: "WESTERN FRONT MID 1917 TO END OF WAR" is the playsheet of April 1918.
    assert b.period == "late"
    assert "Flanders Fields rule book: PLAYSHEETS, WESTERN FRONT MID 1917 TO END OF WAR" in b.sources
    assert "campaign-turn-date" in b.errata
    s = at_resolve("bef", "B-1", "B-2", ("15-bde-aif-a", "15-bde-aif-b"), turn=3)
    assert table_battle(s, 1).date == "1918-04-25"
    # "TURN THREE - 24 APRIL, COUNTER-ATTACK": the other reading.
    s3 = s.model_copy(update={"variants": {"campaign-turn-date": "turn-headings"}})
    assert table_battle(s3, 1).date == "1918-04-24"
    s4 = at_resolve("bef", "B-1", "B-2", ("15-bde-aif-a",), turn=4)
    assert table_battle(s4, 1).date == "1918-04-26"  # "TURN FOUR - 26-27 APRIL": its first day


def test_period_of_reads_the_printed_ranges() -> None:
    # "1914 TO MID 1915", "MID 1915 TO MID 1917", "MID 1917 TO END OF WAR"
    assert period_of("1914-09-05") == "early"
    assert period_of("1916-07-01") == "mid"
    assert period_of("1918-04-24") == "late"
    # "mid 1917": the playsheets do not say which month, so a 1917 date is refused, naming both periods.
    with pytest.raises(RulesError) as e:
        period_of("1917-06-01")
    assert e.value.field == "date" and e.value.allowed == ["mid", "late"]


# -- forces -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("troop", [t.id for t in TROOPS], ids=[t.id for t in TROOPS])
def test_each_troop_kind_maps_to_a_table_of_its_nation_and_period_that_builds(troop: str) -> None:
    spec = next(t for t in TROOPS if t.id == troop)
    enemy: Side = "bef" if spec.side == "german" else "german"
    frm, to = ("D-2", "C-3") if spec.side == "german" else ("C-3", "D-2")
    # Tanks fight on turns 1 and 2 only ("At the end of turn 2 all tank Firestorm Troops ... are removed").
    b = table_battle(at_resolve(spec.side, frm, to, (troop,), turn=2), 7)
    mine = [f for f in b.forces if f.troop == troop]
    assert len(mine) == 1 and mine[0].side == "attacker" and mine[0].name == spec.name
    meta = ORGANISATION_TABLES[mine[0].table]
    assert meta["nation"] == b.attacker_nation and b.period in meta["periods"]
    assert mine[0].quality is None or mine[0].quality in meta["qualities"]
    # One battalion-scale unit, not a division: "deploy their forces a battalion at a time".
    assert mine[0].template is None or mine[0].template in TABLES[mine[0].table].templates
    assert 3 <= stands_of(mine[0]) <= 24
    # The side that commits none still fights: "You do not need to have Firestorm Troops to fight."
    (theirs,) = [f for f in b.forces if f.side == "defender"]
    assert theirs.troop == "" and ORGANISATION_TABLES[theirs.table]["nation"] == b.defender_nation
    assert {b.attacker, enemy} == {"german", "bef"}


def test_the_kinds_tables_as_printed() -> None:
    late = FORCE_TABLES["late"]
    # "A Storm Troop battalion are always classed as Veteran" (the table's only grade, storm).
    stoss = late[("german", "stoss")]
    assert (stoss.table, stoss.quality, stoss.template) == ("de-storm-battalion", "storm", None)
    # Infantry troops: one Infantry Battalion of the division's table, not the division.
    assert (late[("german", "other-infantry")].table, late[("german", "other-infantry")].template) == (
        "de-1916",
        "battalion",
    )
    assert (late[("bef", "other-infantry")].table, late[("bef", "other-infantry")].template) == (
        "gb-1917",
        "battalion",
    )
    # HMG troops: the machine-gun units the tables print. 58 Bn MGC: the 1917 division's Machine Gun
    # Battalion (4 MMG Companies of 4 Vickers); a German MG troop: the Storm Battalion's MMG Company.
    assert (late[("bef", "hmg")].table, late[("bef", "hmg")].template) == ("gb-1917", "mg-battalion")
    assert (late[("german", "hmg")].table, late[("german", "hmg")].template) == (
        "de-storm-battalion",
        "mmg-company",
    )
    # The AIF are 'Veteran British'; "one quarter may be upgraded to Veteran". Their grade is Firestorm's
    # 'Veteran Infantry' (erratum firestorm-grade, test_table_battle_fidelity.py).
    assert late[("bef", "veteran-british")].table == "gb-1917"
    # "All tank battalions are Raw from the Autumn of 1916 to Mid 1917 after which they may be upgraded to
    # Experienced": April 1918 is after.
    assert late[("bef", "heavy-tank")].table == late[("bef", "whippet")].table == "gb-tank-battalion"
    assert late[("bef", "heavy-tank")].quality == "experienced"
    assert late[("bef", "heavy-tank")].template is None  # the tank table is itself a battalion
    for (side, _kind), choice in late.items():
        assert choice.template is None or choice.template in TABLES[choice.table].templates
        assert ORGANISATION_TABLES[choice.table]["nation"] == {"german": "german", "bef": "british"}[side]
        assert "late" in ORGANISATION_TABLES[choice.table]["periods"]


def test_the_a7v_has_no_table_and_takes_the_closest_printed_one() -> None:
    # Flanders Fields prints "A7V 1 x 57mm gun and multiple LMGs" but no German tank table.
    assert not [t for t, m in ORGANISATION_TABLES.items() if m["nation"] == "german" and "tank" in t]
    s = at_resolve("german", "D-2", "C-3", ("group-i",), turn=1)
    (a7v,) = [f for f in table_battle(s, 1).forces if f.troop == "group-i"]
    assert (a7v.table, a7v.quality) == ("de-storm-battalion", "storm")
    assert "a7v-table" in table_battle(s, 1).errata
    assert a7v.template is None  # the Storm Battalion table is one battalion
    other = s.model_copy(update={"variants": {"a7v-table": "infantry-division"}})
    (a7v,) = [f for f in table_battle(other, 1).forces if f.troop == "group-i"]
    assert (a7v.table, a7v.template) == ("de-1916", "battalion")


@pytest.mark.parametrize("i", range(len(FIXED_ATTACKS)))
def test_the_first_turns_fixed_battles_have_forces_on_both_sides(i: int) -> None:
    # "D-2 attacks C-3 / D-3 attacks C-4 / C-5 attacks B-4"
    s = fixed_battle(i)
    b = table_battle(s, 3)
    assert (b.from_area, b.area) == FIXED_ATTACKS[i] and b.attacker == "german"
    assert (b.attacker_nation, b.defender_nation) == ("german", "british")
    assert {f.side for f in b.forces} == {"attacker", "defender"}
    assert s.current is not None
    committed = {*s.current.attacker_troops, *s.current.defender_troops}
    assert committed == {f.troop for f in b.forces if f.troop}


def turn_one_battles(variants: dict[str, str] | None = None) -> list[CampaignState]:
    """Every battle turn 1 can have: each fixed attack with every choice of up to two of the troops it offers,
    against every choice of the defender's."""
    out = []
    for i in range(len(FIXED_ATTACKS)):
        s = new_campaign(variants=variants).model_copy(update={"battle": i})
        s, _ = apply(s, {"type": "initiative"})
        offer = legal_actions(s)[0]
        option = offer["options"][0]
        for n in range(1, offer["max_troops"] + 1):
            for attackers in combinations(option["troops"], n):
                a, _ = apply(
                    s,
                    {
                        "type": "attack",
                        **{k: option[k] for k in ("from_area", "to_area")},
                        "troops": attackers,
                    },
                )
                defend = legal_actions(a)[0]
                for m in range(0, defend["max_troops"] + 1):
                    for defenders in combinations(defend["troops"], m):
                        out.append(apply(a, {"type": "defend", "troops": list(defenders)})[0])
    return out


# firestep's bound for a playable Flanders Fields table (not a rule): each side between MIN and MAX stands,
# neither more than RATIO times the other. Before the battalion-scale forces a 1917 British division was
# 195 stands, a German 1916 one 157.
MIN_STANDS, MAX_STANDS, RATIO = 10, 80, 4


def turn_one_sizes(variants: dict[str, str] | None) -> list[dict[str, int]]:
    battles = turn_one_battles(variants)
    assert len(battles) == 36  # 3 attacks x 6 choices of attackers x 2 of defenders
    sizes = []
    for s in battles:
        b = table_battle(s, 1)
        sizes.append(
            {r: sum(stands_of(f) for f in b.forces if f.side == r) for r in ("attacker", "defender")}
        )
    return sizes


@pytest.mark.parametrize(
    "variants", [None, {"a7v-table": "infantry-division"}], ids=["default", "a7v-infantry"]
)
def test_every_turn_one_battle_fields_battalion_scale_forces_of_a_playable_size(
    variants: dict[str, str] | None,
) -> None:
    sizes = turn_one_sizes(variants)
    for size in sizes:
        assert all(MIN_STANDS <= n <= MAX_STANDS for n in size.values()), size
        assert max(size.values()) <= RATIO * min(size.values()), size
    # The largest: the 5th Guard Grenadiers (a Storm Battalion) with an A7V (another, by default) against
    # 13 stands of British infantry.
    most = 48 if variants is None else 39
    assert max(s["attacker"] for s in sizes) == most and min(s["defender"] for s in sizes) == 13


def test_the_agreed_force_reading_stays_on_the_table_too() -> None:
    # Both sides start alike (one Infantry Battalion each) and the attacker's troops come on top: a defender
    # that commits none faces up to 54 stands with 13, the text's own odds; every side still fits the bound.
    for size in turn_one_sizes({"firestorm-troop-to-force": "agreed-force-plus-troops"}):
        assert all(MIN_STANDS <= n <= MAX_STANDS for n in size.values()), size


def test_the_agreed_force_reading_adds_the_troops_to_a_division() -> None:
    # "although you both start with the same number of points, any Firestorm Troops that you add to your force
    # are in addition to this"
    s = fixed_battle(1, {"firestorm-troop-to-force": "agreed-force-plus-troops"})
    b = table_battle(s, 3)
    for role, division in (("attacker", "de-1916"), ("defender", "gb-1917")):
        agreed = [(f.table, f.template) for f in b.forces if f.side == role and f.troop == ""]
        assert agreed == [(division, "battalion")]
    assert len([f for f in b.forces if f.troop]) == len(fixed_battle(1).current.attacker_troops) + len(  # type: ignore[union-attr]
        fixed_battle(1).current.defender_troops  # type: ignore[union-attr]
    )


def test_out_of_supply_is_listed_with_its_roll() -> None:
    # "Otherwise you must fight Out of Supply. Roll a D6 and consult the Out of Supply table."
    s = at_resolve("german", "C-3", "C-2", ("48-rir",), attacker_in_supply=False)
    b = table_battle(s, 1)
    assert "out-of-supply-on-the-table" in b.errata
    assert any("Out of Supply" in n and "Germans (attacker)" in n for n in b.notes)
    assert any("5. Check for Supply: Out of Supply Table" in src for src in b.sources)
    supplied = table_battle(at_resolve("german", "C-3", "C-2", ("48-rir",)), 1)
    assert "out-of-supply-on-the-table" not in supplied.errata


def test_the_firestorm_rules_of_the_battle_come_as_notes() -> None:
    b = table_battle(fixed_battle(0), 1)
    # "When attacking from your trench into an enemy trench you should play The Big Push."
    assert b.notes[0].startswith("Mission: The Big Push")
    # Gas, turn 1: "one HMG nest instead of two"
    assert any("1 trench HMG nest" in n for n in b.notes)
    assert any("gas attack" in n for n in b.notes)
    # Turn 3: "Start by playing two Night Fight battles"
    night = table_battle(at_resolve("bef", "B-1", "B-2", ("15-bde-aif-a", "15-bde-aif-b"), turn=3), 1)
    assert any(n.startswith("Night battle:") and "pinned down" in n for n in night.notes)
    assert not any("gas" in n for n in night.notes)


# -- the table -----------------------------------------------------------------------------------------------------
def battles_into_every_area() -> list[tuple[Side, str, str]]:
    out: list[tuple[Side, str, str]] = []
    for to in AREAS:
        frm = ADJACENCY[to][0]
        out.append(("german" if to in ("A-2", "B-2", "A-3", "B-1", "C-4", "C-3", "B-4") else "bef", frm, to))
    return out


def an_attacker(side: Side) -> tuple[str, ...]:
    return ("48-rir",) if side == "german" else ("23-bde",)


@pytest.mark.parametrize(("attacker", "frm", "to"), battles_into_every_area(), ids=lambda v: str(v))
def test_the_table_is_inside_180_by_120_clear_of_the_zones_and_accepted(
    attacker: Side, frm: str, to: str
) -> None:
    b = table_battle(at_resolve(attacker, frm, to, an_attacker(attacker)), 11)
    assert (b.table_width_cm, b.table_length_cm) == (TABLE_WIDTH_CM, TABLE_LENGTH_CM) == (120.0, 180.0)
    # What create_game checks (terrain_from_geojson), with the rule book's standard wire belt.
    features = terrain_from_geojson(b.terrain, wire_belt_cm=WIRE_BELT_CM)
    assert features
    table = box(0, 0, TABLE_WIDTH_CM, TABLE_LENGTH_CM)
    between = box(0, DEPLOY_DEPTH, TABLE_WIDTH_CM, TABLE_LENGTH_CM - DEPLOY_DEPTH)
    for f in features:
        assert table.contains(f.geometry), f.id
        if f.kind != "road":  # roads run edge to edge; everything else leaves the deployment zones clear
            assert between.contains(f.geometry), (f.id, f.kind)
    areas = [f for f in features if f.kind in ("woods", "village", "hill", "shell-torn")]
    assert all(not a.geometry.intersects(b_.geometry) for a in areas for b_ in areas if a is not b_)
    assert b.deployment_zones["attacker"] == (0.0, 0.0, TABLE_WIDTH_CM, DEPLOY_DEPTH)


def kinds(b: TableBattle) -> list[str]:
    return [f["properties"]["kind"] for f in b.terrain["features"]]


def test_the_table_reflects_the_areas_terrain() -> None:
    # "B-4, B-5, C-1, C-3, C-4 (British) and C-5, D-1, D-2 and D-3 (German) are all trenches, A-2 (D'Arquenne)
    # and D-4 (Lancer) are woods and B-2 Villers-Bretonneux is a town/city."
    trench = table_battle(fixed_battle(0), 5)
    assert trench.terrain_kind == "trench" and {"trench", "wire"} <= set(kinds(trench))
    assert any(f["properties"]["name"] == "the Germans' front trench" for f in trench.terrain["features"])
    wood = table_battle(at_resolve("german", "B-3", "A-2", ("48-rir",)), 5)
    assert wood.terrain_kind == "wood" and wood.area_name == "D'Arquenne Wood"
    woods = [shape(f["geometry"]) for f in wood.terrain["features"] if f["properties"]["kind"] == "woods"]
    assert len(woods) >= 3 and any(
        f["properties"]["name"] == "D'Arquenne Wood" for f in wood.terrain["features"]
    )
    # "this should not cover the whole playing area"
    assert sum(w.area for w in woods) < TABLE_WIDTH_CM * TABLE_LENGTH_CM / 3
    town = table_battle(at_resolve("german", "C-2", "B-2", ("48-rir",)), 5)
    assert town.terrain_kind == "city" and kinds(town).count("village") >= 3 and "road" in kinds(town)
    assert not {"trench", "wire"} & set(kinds(town))
    # "Note that A-3 Cachy has a small trench line but certainly does not count as trenches."
    cachy = table_battle(at_resolve("german", "B-3", "A-3", ("48-rir",)), 5)
    assert cachy.terrain_kind == "open"
    names = {f["properties"].get("name") for f in cachy.terrain["features"]}
    assert {"Cachy", "Cachy switch line"} <= names
    assert TERRAIN["B-3"] == "open"


def test_the_layout_is_the_same_for_a_seed_and_varies_with_it() -> None:
    s = fixed_battle(0)
    assert table_battle(s, 42) == table_battle(s, 42)
    assert table_battle(s, 42).terrain != table_battle(s, 43).terrain
    assert table_battle(s, 42).forces == table_battle(s, 43).forces


def test_the_empty_table_reading() -> None:
    s = fixed_battle(0, {"campaign-table-layout": "empty"})
    assert table_battle(s, 1).terrain == {"type": "FeatureCollection", "features": []}


def test_only_a_battle_waiting_for_its_result() -> None:
    s = new_campaign()
    with pytest.raises(RulesError) as e:
        table_battle(s, 1)
    assert e.value.field == "battle"
    s, _ = apply(s, {"type": "initiative"})
    with pytest.raises(RulesError) as e:
        table_battle(s, 1)
    assert e.value.field == "battle"
    for bad in (-1, 2**31, True):
        with pytest.raises(RulesError) as e:
            table_battle(fixed_battle(0), bad)
        assert e.value.field == "layout_seed"


# -- the result back to the campaign ---------------------------------------------------------------------------
CTX = RS.context(None)


def test_holding_the_field_with_fewer_losses_wins() -> None:
    b = table_battle(fixed_battle(0), 1)
    offer = offer_from_outcome(TableOutcome(100, 150, 10, 40, "attacker"), b)
    # Each side's share of the enemy's stands on the 0 to 8 scale: 40/150 -> 2, 10/100 -> 0; holding the field
    # lifts the attacker to "at least three Victory Points ... and more Victory Points than you".
    assert (offer.attacker_vp, offer.defender_vp) == (3, 0)
    assert offer.winner == "german" and offer.attacker_won
    assert great_war_attacker_won(CTX, offer.attacker_vp, offer.defender_vp)
    # "8+ 4+ / 7 5+ / 3 or 6 6 / 2 or less No roll"
    assert "Firestorm Troops of the BEF (defender) are destroyed on a 6." in offer.reasons
    assert "Firestorm Troops of the Germans (attacker) are not rolled for." in offer.reasons
    held = offer_from_outcome(TableOutcome(100, 150, 30, 20, "defender"), b)
    assert held.winner == "bef" and not held.attacker_won
    assert held.defender_vp > held.attacker_vp


def test_a_draw_counts_for_the_defender() -> None:
    # "In case of a 3-3 tie, the defender wins."
    offer = offer_from_outcome(TableOutcome(100, 100, 25, 25, None))
    assert offer.attacker_vp == offer.defender_vp == 2
    assert offer.winner == "draw" and not offer.attacker_won
    assert not great_war_attacker_won(CTX, offer.attacker_vp, offer.defender_vp)
    assert any("defender victory" in r for r in offer.reasons)


def test_losses_only_reading_ignores_the_field() -> None:
    b = table_battle(fixed_battle(0, {"table-result-to-campaign-vp": "losses-only"}), 1)
    offer = offer_from_outcome(TableOutcome(100, 150, 10, 40, "attacker"), b)
    assert (offer.attacker_vp, offer.defender_vp) == (2, 0)
    # "If neither side scores 4 points" / "at least three": 2 does not take the area.
    assert offer.winner == "bef" and not offer.attacker_won


@pytest.mark.parametrize(
    "outcome",
    [
        TableOutcome(0, 0, 0, 0, None),
        TableOutcome(10, 10, 10, 10, "attacker"),
        TableOutcome(10, 10, 10, 10, "defender"),
        TableOutcome(1, 500, 0, 500, None),
        TableOutcome(500, 1, 500, 0, "attacker"),
        TableOutcome(200, 200, 199, 1, "attacker"),
        TableOutcome(200, 200, 1, 199, "defender"),
    ],
)
@pytest.mark.parametrize("victory", ["three", "four"])
def test_scores_stay_in_bounds_and_the_winner_agrees_with_the_campaign(
    outcome: TableOutcome, victory: str
) -> None:
    variants = {"great-war-victory": victory}
    offer = offer_from_outcome(outcome, variants=variants)
    assert 0 <= offer.attacker_vp <= 20 and 0 <= offer.defender_vp <= 20
    won = great_war_attacker_won(RS.context(None, variants), offer.attacker_vp, offer.defender_vp)
    assert offer.attacker_won == won
    assert (offer.winner == "attacker") == won
    if outcome.field_held_by == "attacker":
        assert won
    if outcome.field_held_by == "defender":
        assert offer.winner == "defender"
    # The campaign takes the offer as it is.
    s = fixed_battle(0)
    great_war = {"attacker_vp": offer.attacker_vp, "defender_vp": offer.defender_vp}
    s = s.model_copy(update={"variants": variants})
    _, events = apply(s, {"type": "resolve", "great_war": great_war})
    assert events[0]["attacker_won"] == won


@pytest.mark.parametrize(
    ("outcome", "field"),
    [
        (TableOutcome(10, 10, 11, 0, None), "outcome.attacker_lost"),
        (TableOutcome(10, -1, 0, 0, None), "outcome.defender_bases"),
        (TableOutcome(10, 10, 0, 0, "nobody"), "outcome.field_held_by"),  # type: ignore[arg-type]
    ],
)
def test_a_bad_outcome_is_refused_naming_the_field(outcome: TableOutcome, field: str) -> None:
    with pytest.raises(RulesError) as e:
        offer_from_outcome(outcome)
    assert e.value.field == field


# -- errata -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("eid", NEW_ERRATA)
def test_the_new_errata_list_two_readings_a_default_and_sources(eid: str) -> None:
    e = RS.errata[eid]
    assert len(e.readings) >= 2 and e.default in {r.id for r in e.readings}
    assert all(r.source and r.text for r in e.readings)


def test_the_errata_quote_the_seed_lines() -> None:
    assert RS.errata["campaign-turn-date"].reading("contents").value == [
        "1918-04-24",
        "1918-04-24",
        "1918-04-25",
        "1918-04-26",
    ]
    assert "Turn 3 – 25. April – Counter-attack" in RS.errata["campaign-turn-date"].reading("contents").text
    assert "TURN THREE - 24 APRIL" in RS.errata["campaign-turn-date"].reading("turn-headings").text
    assert (
        "8+ 4+ / 7 5+ / 3 or 6 6" in RS.errata["table-result-to-campaign-vp"].reading("field-and-losses").text
    )
    assert "A7V 1 x 57mm gun" in RS.errata["a7v-table"].reading("storm-battalion").text


# -- issue 55: the points a table battle scored, as the campaign reads them -----------------------------------------
def test_the_campaign_tables_objectives_are_the_defenders_three_positions_worth_three_each() -> None:
    erratum = Firestorm().errata["campaign-table-objectives"]
    assert "'three Victory Points'" in erratum.readings[0].text and POSITION_VP == 3
    found = objectives_from_geojson(table_objectives(120.0, 180.0), 120.0, 180.0)
    assert [(o.id, o.vp, o.scored, o.held_by) for o in found] == [
        (f"position-{i}", 3, "game_end", "defender") for i in (1, 2, 3)
    ]
    assert [o.geometry.centroid.coords[0] for o in found] == [(20.0, 120.0), (60.0, 120.0), (100.0, 120.0)]


def test_the_points_scored_on_the_table_decide_the_battle_as_firestorm_prints() -> None:
    reading = Firestorm().errata["table-result-to-campaign-vp"].reading("table-score")
    assert (
        "'If your opponent scored at least three Victory Points in the game and scored more Victory Points than "
        "you did, then you have been defeated and must retreat'" in reading.text
    )
    # "Example: the Battle ends as 3-1 for the attacker. He captures the area since the attacker has at least
    # three points and more points than the defender. The attacker does not capture the area if he has only 2
    # points or loses the battle. In case of a 3-3 tie, the defender wins."
    assert offer_from_score(3, 1).attacker_won and offer_from_score(3, 1).winner == "attacker"
    assert not offer_from_score(2, 1).attacker_won and offer_from_score(2, 1).winner == "defender"
    assert offer_from_score(3, 3).winner == "draw" and not offer_from_score(3, 3).attacker_won
    # The Roll to Destroy table: "8+ 4+ / 7 5+ / 3 or 6 6 / 2 or less No roll", read by each side's own points.
    said = offer_from_score(9, 2).reasons
    assert "Firestorm Troops of the defender are destroyed on 4+." in said
    assert "Firestorm Troops of the attacker are not rolled for." in said
    assert "Firestorm Troops of the defender are destroyed on 5+." in offer_from_score(7, 0).reasons
    assert "Firestorm Troops of the attacker are destroyed on a 6." in offer_from_score(0, 3).reasons
    with pytest.raises(RulesError) as bad:
        offer_from_score(-1, 0)
    assert bad.value.field == "score.attacker_vp"
