"""The table's drawing data (dataset terrain-drawing) holds to its printed lines: the trench widths are the two
ends of the felt lines' "1.5-2cm", the wire depths a standard belt and two, and the village is named as the
movement table names built-up areas."""

from __future__ import annotations

from rules.flanders_fields.book import terrain_drawing as T
from rules.flanders_fields.book.tables import WIRE_BELT_CM
from rules.registry import get_ruleset


def test_the_offered_widths_are_the_books() -> None:
    assert "about 1.5-2cm wide" in T.TRENCH_LINE and sorted(T.TRENCH_WIDTHS_CM) == [1.5, 2.0]
    assert "2cm wide" in T.WIRE_BELT_LINE and "every 2cm depth" in T.WIRE_DEPTH_LINE
    assert T.WIRE_DEPTHS_CM == (WIRE_BELT_CM, 2 * WIRE_BELT_CM)
    assert "BuA" in T.BUILT_UP_LINE and T.BUILT_UP_NAME.endswith("(BuA)")
    kinds = get_ruleset("flanders-fields").data("terrain-drawing")["kinds"]
    assert [w["cm"] for w in kinds["trench"]["widths"]] == list(T.TRENCH_WIDTHS_CM)
    assert [w["cm"] for w in kinds["wire"]["widths"]] == list(T.WIRE_DEPTHS_CM)
    assert kinds["village"]["name"] == T.BUILT_UP_NAME
    assert all(w["source"] and w["text"] for k in ("trench", "wire") for w in kinds[k]["widths"])
