"""Template coverage: full / partial / outside, touching is outside, and the 1 cm ambiguity flag."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.flanders_fields.book.table_sizes import BASES, TEMPLATES
from rules.table.bases import Stand
from rules.table.coverage import StandIndex, classify, classify_naive
from rules.table.templates import Template


def _stand(sid: str, x: float, y: float, base: str = "infantry-platoon", facing: float = 90) -> Stand:
    return Stand(sid, "defender", BASES[base], (x, y), facing)


def test_a_base_half_under_an_artillery_template_is_partial() -> None:
    # "all batteries firing have the same area of effect which is a rectangle 10x10cm" and "if the platoon
    # or weapon falls only partially within the area of effect it is attacked at -2": the template spans
    # x 45..55; a 3 cm base centred on its edge is half in.
    art = Template(TEMPLATES["artillery"], (50, 50)).polygon()
    cov = classify(art, StandIndex.build([_stand("half", 55, 50), _stand("in", 50, 50)]))
    assert cov.partial == ["half"]
    assert cov.full == ["in"]
    assert cov.ambiguous == []


def test_touching_edges_is_outside_but_ambiguous() -> None:
    art = Template(TEMPLATES["artillery"], (50, 50)).polygon()
    cov = classify(art, StandIndex.build([_stand("touch", 56.5, 50), _stand("far", 70, 50)]))
    assert cov.outside == ["touch", "far"]
    assert cov.ambiguous == ["touch"]  # a 1 cm nudge puts it half under


def test_a_base_just_inside_the_edge_is_full_but_ambiguous() -> None:
    art = Template(TEMPLATES["artillery"], (50, 50)).polygon()
    cov = classify(art, StandIndex.build([_stand("edge", 53, 50), _stand("deep", 50, 50)]))
    assert cov.full == ["edge", "deep"]
    assert cov.ambiguous == ["edge"]  # its right edge is 0.5 cm inside the template's
    assert classify(art, StandIndex.build([_stand("edge", 53, 50)]), 0.4).ambiguous == []


def test_a_rotated_template_covers_a_base_at_its_centre() -> None:
    mortar = Template(
        TEMPLATES["heavy-mortar"], (20, 20), 45
    ).polygon()  # "5cm square centred on a single platoon"
    cov = classify(mortar, StandIndex.build([_stand("target", 20, 20, facing=45)]))
    assert cov.full == ["target"]


@given(
    kind=st.sampled_from(tuple(TEMPLATES)),
    cx=st.floats(0, 120),
    cy=st.floats(0, 180),
    facing=st.floats(0, 360),
    stands=st.lists(
        st.tuples(st.sampled_from(tuple(BASES)), st.floats(0, 120), st.floats(0, 180), st.floats(0, 360)),
        max_size=30,
    ),
    tol=st.floats(0, 3),
)
def test_classes_partition_the_stands_and_agree_with_a_plain_loop(
    kind: str, cx: float, cy: float, facing: float, stands: list[tuple[str, float, float, float]], tol: float
) -> None:
    placed = [Stand(f"s{i}", "d", BASES[b], (x, y), f) for i, (b, x, y, f) in enumerate(stands)]
    template = Template(TEMPLATES[kind], (cx, cy), facing).polygon()
    cov = classify(template, StandIndex.build(placed), tol)
    ids = [s.id for s in placed]
    assert sorted(cov.full + cov.partial + cov.outside) == sorted(ids)
    assert len(set(cov.full) | set(cov.partial) | set(cov.outside)) == len(ids)
    assert set(cov.ambiguous) <= set(ids)
    naive = classify_naive(template, placed, tol)
    assert (naive.full, naive.partial, naive.outside) == (cov.full, cov.partial, cov.outside)
    assert naive.ambiguous == cov.ambiguous
