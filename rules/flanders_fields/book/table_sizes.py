"""Flanders Fields' stand bases and area templates, each with its printed line: its table kit's sizes
(rules.table gives them their shapes on the table)."""

from __future__ import annotations

from rules.table.bases import BaseSpec, max_extent_cm
from rules.table.frame import DEFAULT_TABLE
from rules.table.templates import TemplateSpec

BOOK = "Flanders Fields rule book"
BASE_SIZES = f"{BOOK}: BASING AND ORGANISING TROOPS, BASE SIZES"


def _round(kind: str, diameter_cm: float) -> BaseSpec:
    return BaseSpec(kind, "round", diameter_cm, diameter_cm, BASE_SIZES)


def _rect(kind: str, width_cm: float, depth_cm: float) -> BaseSpec:
    return BaseSpec(kind, "rect", width_cm, depth_cm, BASE_SIZES)


# Each line quotes BASE SIZES (given in mm; here in cm). "Square or circular base approx 20mm x 20mm" (support
# weapons, heavy MGs) is modelled square, one of the two shapes the text allows, so every such stand has one
# footprint.
BASES: dict[str, BaseSpec] = {
    b.kind: b
    for b in (
        _round("battalion-command", 2.0),  # "Circular base approx 20mm diameter."
        _rect("infantry-platoon", 3.0, 1.5),  # "Rectangular base 30 mm wide by 15mm deep."
        _rect("cavalry-platoon", 3.0, 2.0),  # "Rectangular base 30 mm wide by 20mm deep."
        _rect("support-weapon", 2.0, 2.0),  # "Square or circular base approx 20mm x 20mm."
        _rect("heavy-mg", 2.0, 2.0),  # "Square or circular base approx 20mm x 20mm."
        _round("flamethrower", 2.0),  # "Flamethrower or Anti-Tank Rifle Circular base 20mm diameter."
        _round("anti-tank-rifle", 2.0),
        _round("heavy-support-weapon", 2.5),  # "Circular base 25mm diameter."
        _round("regimental-command", 2.5),  # "Regiment/Brigade Command Circular base 25mm diameter."
        _rect("field-artillery", 6.0, 4.0),  # "Rectangular base 60 mm wide by 40mm deep"
        _rect("heavy-artillery", 8.0, 4.0),  # "Rectangular base 80 mm wide by 40mm deep."
        _rect("super-heavy-artillery", 8.0, 5.0),  # "Rectangular base 80 mm wide by 50mm deep."
        _rect("tank", 3.0, 6.0),  # "Tanks Rectangular base 30 mm wide by 60mm deep."
        _round("divisional-command", 3.0),  # "Circular base approx 30mm diameter."
    )
}
# The longest straight line across any of its bases.
MAX_BASE_EXTENT_CM = max_extent_cm(BASES.values())

TEMPLATES: dict[str, TemplateSpec] = {
    t.kind: t
    for t in (
        # "all batteries firing have the same area of effect which is a rectangle 10x10cm"
        TemplateSpec("artillery", 10.0, 10.0, f"{BOOK}: ARTILLERY BATTERIES AREA OF EFFECT"),
        # "SOS fire covers an area of effect 10cm wide by 5cm deep"
        TemplateSpec("sos", 10.0, 5.0, f"{BOOK}: SOS TARGETS"),
        # "Light Mortars have an area of effect 3cm square"
        TemplateSpec("light-mortar", 3.0, 3.0, f"{BOOK}: MORTAR AREA OF EFFECT"),
        # "Medium Mortars have an area of effect 4cm square"
        TemplateSpec("medium-mortar", 4.0, 4.0, f"{BOOK}: MORTAR AREA OF EFFECT"),
        # "Heavy Mortars have an area of effect 5cm square"
        TemplateSpec("heavy-mortar", 5.0, 5.0, f"{BOOK}: MORTAR AREA OF EFFECT"),
        # "a machine gun platoon of 1 model covers an area of 2x10cm" (per gun; 2 wide, 10 deep)
        TemplateSpec("mg-indirect", 2.0, 10.0, f"{BOOK}: ARTILLERY BATTERIES AREA OF EFFECT"),
        # "an area 20cm wide by 10cm deep if launched by the attacker"
        TemplateSpec("gas-attacker", 20.0, 10.0, f"{BOOK}: GAS"),
        # "but only 10x5 if used by a defender"
        TemplateSpec("gas-defender", 10.0, 5.0, f"{BOOK}: GAS"),
        # "A Rolling Barrage covers an area 20cm wide which extends across the whole table top" (its width is
        # the default table's, for reference: on the table it spans the table it is placed on)
        TemplateSpec(
            "rolling-barrage",
            DEFAULT_TABLE.width_cm,
            20.0,
            f"{BOOK}: ROLLING BARRAGE AREA OF EFFECT",
            across_table=True,
        ),
    )
}
