"""A table's units carry their index by id, their places and their children from one change to the next
(`rules.core.records.Units`, issue 88): whatever changes, what is carried equals what the changed units would
work out afresh."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from rules.core.records import Snapshot, Units, UnitState, children_of


def _table(n: int) -> tuple[UnitState, ...]:
    """A force tree of `n` units, each under an earlier one (the first under none)."""
    return tuple(
        UnitState(id=i + 1, parent_id=(i + 1) // 3 or None, side="attacker", level="x") for i in range(n)
    )


def _afresh(units: tuple[UnitState, ...]) -> tuple[dict, dict, dict]:
    return {u.id: u for u in units}, {u.id: i for i, u in enumerate(units)}, children_of(tuple(units))


# Each change: a unit (by its place), whether it is moved on the table, and the unit it is put under (or none).
changes = st.lists(st.tuples(st.integers(0, 29), st.booleans(), st.none() | st.integers(1, 30)), max_size=6)


@given(st.lists(changes, min_size=1, max_size=4), st.booleans())
def test_what_the_units_carry_is_what_they_would_work_out(steps, children_asked):
    units = Units(_table(30))
    plain = tuple(units)
    for step in steps:
        if children_asked:
            # Worked out before the change: carried over, or worked out again.
            assert dict(units.children) == children_of(tuple(units))
        fresh = {}
        for place, moves, parent in step:
            u = fresh.get(plain[place].id, plain[place])
            u = replace(u, x=(u.x or 0) + 1) if moves else u
            fresh[u.id] = replace(u, parent_id=parent) if parent is not None else u
        units = units.changed(fresh)
        plain = tuple(fresh.get(u.id, u) for u in plain)
        assert tuple(units) == plain
        assert (dict(units.by_id), dict(units.places), dict(units.children)) == _afresh(plain)


def test_a_snapshot_changed_reads_its_units_by_id_and_their_children_as_changed():
    snap = Snapshot(ruleset="x", period=None, units=Units(_table(7)), table_width_cm=1, table_length_cm=1)
    moved = replace(snap.by_id[4], x=9.0)
    after = replace(snap, units=snap.units.changed({4: moved}))
    assert after.unit(4) is moved and after.children[1][1] is moved
    assert snap.unit(4).x is None  # the snapshot changed from is as it was
