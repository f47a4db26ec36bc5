"""What the map draws of Flanders Fields' board (its table kit's drawings), against the printed rules."""

from __future__ import annotations

from shapely import Polygon

from rules.core.kit import Drawn, drawn
from rules.flanders_fields.play.kit import KIT
from rules.table.frame import Table

TABLE = Table(120.0, 180.0)


def _bounds(d: Drawn) -> tuple[float, float, float, float]:
    return Polygon(d.polygon).bounds


def test_a_rolling_barrage_is_a_band_across_the_table_with_its_danger_zone_behind_it() -> None:
    # "There is a danger area 6cm behind the RB": on the side of the side that fired it.
    attacker, defender = drawn(
        KIT,
        {
            "barrages": [
                {"side": "attacker", "covers_y": [50, 70]},
                {"side": "defender", "covers_y": [120, 100]},
            ]
        },
        TABLE,
    )
    assert (attacker.style, attacker.label) == ("board-barrage", "Rolling barrage of the attacker")
    assert _bounds(attacker) == (0, 50, 120, 70)
    assert [(z.style, _bounds(z)) for z in attacker.zone] == [("board-danger", (0, 44, 120, 50))]
    assert [_bounds(z) for z in defender.zone] == [(0, 120, 120, 126)]


def test_a_barrage_and_its_zone_are_clipped_to_the_table() -> None:
    (near,) = drawn(KIT, {"barrages": [{"side": "attacker", "covers_y": [2, 22]}]}, TABLE)
    assert [_bounds(z) for z in near.zone] == [(0, 0, 120, 2)]
    # Rolled off the enemy's edge: only its danger zone is left on the table, a thing of its own.
    (left,) = drawn(KIT, {"barrages": [{"side": "attacker", "covers_y": [182, 202]}]}, TABLE)
    assert (left.style, _bounds(left)) == ("board-danger", (0, 176, 120, 180))


def test_a_gas_cloud_is_drawn_with_its_sides_template() -> None:
    # "an area 20cm wide by 10cm deep if launched by the attacker but only 10x5 if used by a defender" (GAS).
    attacker, defender = drawn(
        KIT,
        {
            "clouds": [
                {"side": "attacker", "center": [60, 100], "gas": "offensive"},
                {"side": "defender", "center": [60, 100]},
            ]
        },
        TABLE,
    )
    assert (attacker.label, _bounds(attacker)) == ("Offensive gas cloud of the attacker", (50, 95, 70, 105))
    assert (defender.label, _bounds(defender)) == ("Gas cloud of the defender", (55, 97.5, 65, 102.5))
    assert {attacker.style, defender.style} == {"board-gas"}


def test_fire_is_drawn_where_its_deviation_put_it_with_its_kinds_template() -> None:
    battery, mortar = drawn(
        KIT,
        {
            "fire": [
                # "a rectangle 10x10cm" (ARTILLERY BATTERIES AREA OF EFFECT), where it landed.
                {
                    "side": "attacker",
                    "kind": "aiming-point",
                    "battery": "A",
                    "point": [30, 100],
                    "lands": [33, 96],
                },
                {"side": "defender", "kind": "mortar", "point": [90, 100]},
                {"side": "attacker", "kind": "air-mission"},  # no point on the table: nothing to draw
            ]
        },
        TABLE,
    )
    assert (battery.style, battery.label) == ("board-fire", "Aiming point of the attacker (A)")
    assert _bounds(battery) == (28, 91, 38, 101)
    # A kind without a template: a mark at its point.
    assert (mortar.label, mortar.point, mortar.radius_cm, mortar.polygon) == (
        "Mortar of the defender",
        (90, 100),
        2,
        (),
    )


def test_an_empty_board_and_the_keys_without_a_drawing_draw_nothing() -> None:
    assert drawn(KIT, {}, TABLE) == []
    assert drawn(KIT, {"wind": {"direction": 3}, "aiming_points": {"7": [1, 2]}}, TABLE) == []
