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


# Changes among 9 units under 3 parents (each: a unit by its place, whether it moves), and the parents asked for
# their children after them (0: the units under none): a parent changed, asked, changed again and asked is common.
few = st.lists(
    st.tuples(st.tuples(st.integers(0, 8), st.booleans()), st.lists(st.integers(0, 3), max_size=2))
)


@given(few.filter(bool))
def test_children_asked_now_and_then_are_the_children_worked_out_afresh(steps):
    """A parent's children asked of some of the units changed and not of others (a worker's kept units, act
    after act; a shot's snapshots): each is grouped again of the units now where a change made it stale."""
    units = Units(_table(9))
    assert dict(units.children) == children_of(tuple(units))
    plain = tuple(units)
    for step, asked in steps:
        place, moves = step
        u = plain[place]
        now = replace(u, x=(u.x or 0) + 1) if moves else u
        units = units.changed({u.id: now})
        plain = tuple(now if p.id == u.id else p for p in plain)
        afresh = children_of(plain)
        for parent in asked:
            assert units.children.get(parent or None) == afresh.get(parent or None)
    assert dict(units.children) == children_of(plain)


def test_a_snapshot_changed_reads_its_units_by_id_and_their_children_as_changed():
    snap = Snapshot(ruleset="x", period=None, units=Units(_table(7)), table_width_cm=1, table_length_cm=1)
    moved = replace(snap.by_id[4], x=9.0)
    after = replace(snap, units=snap.units.changed({4: moved}))
    assert after.unit(4) is moved and after.children[1][1] is moved
    assert snap.unit(4).x is None  # the snapshot changed from is as it was
