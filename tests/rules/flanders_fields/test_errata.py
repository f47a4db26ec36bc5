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


def test_errata_are_registered_with_two_located_readings() -> None:
    for erratum in E.ERRATA:
        assert FF.errata[erratum.id] is erratum
        assert len(erratum.readings) == 2
        assert all(r.source.startswith("Flanders Fields") and r.text for r in erratum.readings)
        assert erratum.id == erratum.id.lower() and " " not in erratum.id


def test_playsheet_is_the_default_where_a_playsheet_is_a_reading() -> None:
    for erratum in E.ERRATA:
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
    assert {e.id for e in E.ERRATA} <= ids
