"""This engine's errata: registered once, defaults are the playsheet readings, each variant changes answers."""

from __future__ import annotations

from rules.flanders_fields import errata as E
from tests.rules.flanders_fields import FF

PLAYSHEET_DEFAULTS = {
    E.RAW_ORDER_MODIFIER,
    E.STAFF_SUPPORT_BONUS,
    E.ARTILLERY_LINE_OF_SIGHT_EARLY,
    E.RAW_FIRER_PENALTY,
    E.MID_FIRING_TABLE,
    E.EARLY_WIRE_CROSSING,
}
# Every erratum but the referee's rulings where the text offers no second reading (issue 55: how a game is won,
# and the bridges at Mons as its objectives).
RULINGS = {E.ORG_DEFAULT_QUALITY, E.MONS_TABLE_LAYOUT, E.SCENARIO_VICTORY, E.MONS_BRIDGES}
ERRATA = [e for e in FF.errata.values() if e.id not in RULINGS]


def test_errata_are_registered_with_two_located_readings() -> None:
    for erratum in ERRATA:
        assert FF.errata[erratum.id] is erratum
        assert len(erratum.readings) == 2
        assert all(r.source.startswith("Flanders Fields") and r.text for r in erratum.readings)
        assert erratum.id == erratum.id.lower() and " " not in erratum.id


def test_playsheet_is_the_default_where_a_playsheet_is_a_reading() -> None:
    for erratum in ERRATA:
        # A playsheet reading that states something (not a silence the erratum fills) is the default.
        sheet_readings = [
            r.id
            for r in erratum.readings
            if "playsheet" in r.source.split(":")[0] and "silent" not in r.source
        ]
        if erratum.id in PLAYSHEET_DEFAULTS:
            assert erratum.default in sheet_readings, erratum.id
        if sheet_readings and erratum.default not in sheet_readings:
            raise AssertionError(f"{erratum.id}: a playsheet reading exists but is not the default")


def test_ruleset_description_lists_the_errata() -> None:
    ids = {e["id"] for e in FF.describe()["errata"]}
    assert {e.id for e in ERRATA} <= ids


def test_every_erratum_names_its_section() -> None:
    # The playsheet's sections, and a topic for the rest; every erratum has one.
    sections = {e.id: e.section for e in FF.errata.values()}
    assert all(sections.values()), [i for i, s in sections.items() if not s]
    assert sections[E.RAW_FIRER_PENALTY] == "firing"
    assert sections[E.EARLY_WIRE_CROSSING] == "wire"
    assert {"actions", "artillery", "barrage", "wire", "movement", "firing", "armour"} <= set(
        sections.values()
    )
    assert FF.describe()["errata"][0]["section"] == next(iter(FF.errata.values())).section
