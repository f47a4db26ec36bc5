"""Each unit kind of every organisation table ordered on its own table, as the book orders it: who rolls for a
stand (itself, its company or squadron, or nobody) and on which of the period's order tables. The issue's
faults are among them: a 1914 cavalry troop (not its regiment's MG), a late-war battalion HQ, a mid-war LMG
platoon and a tank battalion HQ (none of them the whole battalion as one rifle company)."""

from __future__ import annotations

import pytest

from rules.core.records import UnitState
from rules.flanders_fields.book.organisation import TABLES, Unit, build_force
from rules.flanders_fields.errata import UNNAMED_ORDER_UNITS
from rules.flanders_fields.play.units import order_unit, ordered_unit, unnamed_units
from rules.flanders_fields.resolvers.orders import BATTALION_UNITS, order_table
from rules.flanders_fields.ruleset import FlandersFields

FORMATIONS = [
    "infantry-division",
    "infantry-brigade",
    "infantry-regiment",
    "infantry-battalion",
    "storm-battalion",
    "pioneer-battalion",
    "mmg-battalion",
    "tank-battalion",
    "field-artillery-brigade",
    "howitzer-brigade",
    "field-artillery-regiment",
    "field-artillery-group",
    "cavalry-regiment",
    "mmg-company",
    "mmg-section",
    "tank-company",
    "heavy-weapons-platoon",
    "heavy-weapons-company",
    "light-mortar-battery",
]
COMMANDS = ("division-command", "brigade-command", "regiment-command", "battalion-command")
# kind -> (the kind of the unit that rolls for it, its order table); None: nobody orders it.
BY_KIND: dict[str, tuple[str, str] | None] = {
    **dict.fromkeys(FORMATIONS + list(COMMANDS)),
    "rifle-company": ("rifle-company", "rifle-company"),
    "rifle-platoon": ("rifle-company", "rifle-company"),  # "D6 ... Actions each Company may make"
    "mmg": ("mmg", "battalion-mg"),  # "Individual Battalion MGs"
    "field-battery": ("field-battery", "regimental-artillery"),
    "howitzer-battery": ("howitzer-battery", "regimental-artillery"),
    "heavy-battery": ("heavy-battery", "regimental-artillery"),
    "light-mortar": ("light-mortar", "regimental-mortar"),
    "medium-mortar": ("medium-mortar", "regimental-mortar"),
    "heavy-mortar": ("heavy-mortar", "regimental-mortar"),
    "tank": ("tank", "tank"),  # "Tanks etc. attached to the battalions" (each)
    # The erratum's default reading: the tables do not name these.
    "cavalry-squadron": ("cavalry-squadron", "rifle-company"),
    "cavalry-troop": ("cavalry-squadron", "rifle-company"),
    "lmg": ("lmg", "rifle-company"),
    "flamethrower-platoon": ("flamethrower-platoon", "rifle-company"),
    "flamethrower": ("flamethrower-platoon", "rifle-company"),
}
# Where the table puts a kind elsewhere: MGs of a division (or of a machine gun battalion, which has no
# battalion commander) and a cavalry regiment are Regimental/Brigade MGs; a storm battalion's mortar is its own.
BY_TABLE: dict[tuple[str, str], tuple[str, str]] = {
    ("gb-1915", "mmg"): ("mmg", "regimental-mg"),
    ("gb-1917", "mmg"): ("mmg", "regimental-mg"),
    ("gb-cavalry-regiment", "mmg"): ("mmg", "regimental-mg"),
    ("de-storm-battalion", "light-mortar"): ("light-mortar", "battalion-mortar"),
}


def _states(root: Unit) -> list[UnitState]:
    ids: dict[str, int] = {}
    out: list[UnitState] = []

    def walk(u: Unit, parent: int | None) -> None:
        ids[u.id] = len(ids) + 1
        out.append(
            UnitState(
                ids[u.id], parent, "attacker", u.level, u.kind, u.name, u.quality, u.base, u.kind in COMMANDS
            )
        )
        for c in u.children:
            walk(c, ids[u.id])

    walk(root, None)
    return out


ENTRIES = sorted({(t, u.kind) for t in TABLES for u in build_force(t).walk()})


@pytest.mark.parametrize(("table_id", "kind"), ENTRIES, ids=[f"{t}:{k}" for t, k in ENTRIES])
def test_each_unit_kind_rolls_on_its_own_table(table_id: str, kind: str) -> None:
    units = _states(build_force(table_id))
    by_id = {u.id: u for u in units}
    expected = BY_TABLE.get((table_id, kind), BY_KIND[kind])
    for u in (u for u in units if u.kind == kind):
        rolls = ordered_unit(u, by_id)
        got = (rolls.kind, order_unit(rolls, by_id)) if rolls is not None else None
        assert got == expected, u.name
    if expected is not None:
        for period in TABLES[table_id].periods:  # the period has that table
            assert order_table(expected[1], FlandersFields().context(period)) is not None, period


def test_every_reading_of_the_unnamed_units_orders_them_in_the_battalion_step() -> None:
    erratum = FlandersFields().errata[UNNAMED_ORDER_UNITS]
    for reading in erratum.readings:
        assert set(unnamed_units({UNNAMED_ORDER_UNITS: reading.id}).values()) <= BATTALION_UNITS
    lmg = _states(build_force("gb-1915"))
    by_id = {u.id: u for u in lmg}
    platoon = next(u for u in lmg if u.kind == "lmg")
    assert order_unit(platoon, by_id, {UNNAMED_ORDER_UNITS: "as-machine-guns"}) == "battalion-mg"
