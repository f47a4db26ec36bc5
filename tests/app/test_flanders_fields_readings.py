"""Issue 38's silent readings of Flanders Fields over HTTP: `GET /api/v1/rulesets/flanders-fields` lists each as
an erratum with both readings (the line each quotes and where), its default and why."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.conftest import _sqlite_clone, make_client


@pytest.fixture(scope="module")
def api(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One migrated SQLite app for the module: these lookups store nothing."""
    var_dir = tmp_path_factory.mktemp("flanders_readings")
    with make_client(_sqlite_clone(sqlite_template, var_dir), var_dir) as c:
        yield c


# erratum id -> (the default, the other reading, words of the line the default's reading quotes)
READINGS = {
    "commander-reach": ("battalion", "ordered-unit", "more than 25cm from its Battalion Commander"),
    "deep-suppression-on-table": ("playsheet", "main-text", "off table artillery support"),
    "range-measured": ("closest", "centres", "closest distance between"),
    "become-suppressed": ("stays-suppressed", "marker", "become Suppressed"),
    "aircraft-suppression-spread": ("platoon", "company", "infantry become suppressed"),
    "dead-commander-orders": ("no-modifier", "field-promotion", "no command stand modifier"),
    "road-march-cover": ("field-craft", "open", "experienced and veteran troops"),
    "assault-draw-cover": ("terrain", "soft", "fall back 3cm"),
}


def test_every_silent_reading_is_served_with_both_readings(api: TestClient) -> None:
    r = api.get("/api/v1/rulesets/flanders-fields")
    assert r.status_code == 200
    served = {e["id"]: e for e in r.json()["errata"]}
    for eid, (default, other, words) in READINGS.items():
        erratum = served[eid]
        readings = {x["id"]: x for x in erratum["readings"]}
        assert erratum["default"] == default and set(readings) == {default, other}, eid
        assert erratum["note"] and words in readings[default]["text"], eid
        assert all(x["source"].startswith("Flanders Fields") and x["text"] for x in readings.values()), eid
