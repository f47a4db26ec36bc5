"""Mons 1914 ships as a scenario file and builds the game the code built before it moved into the file: the
golden file golden/mons-1914.json was recorded from build_mons_1914 as code (commit 8e49328) for each reading
of the errata the scenario names."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from rules.flanders_fields.planning.scenarios import HILL_HEIGHT_CM, ROAD_WIDTH_CM, build_mons_1914
from rules.flanders_fields.shipped import DOCUMENTS
from rules.registry import get_ruleset

GOLDEN = json.loads((Path(__file__).parent / "golden" / "mons-1914.json").read_text())
FF = get_ruleset("flanders-fields")


def readings() -> list[dict[str, str]]:
    errata = DOCUMENTS["mons-1914"]["errata"]
    choices = [[r.id for r in FF.errata[e].readings] for e in errata]
    return [dict(zip(errata, chosen, strict=True)) for chosen in itertools.product(*choices)]


def test_every_reading_of_the_scenarios_errata_was_recorded() -> None:
    assert len(readings()) == len(GOLDEN) == 4


@pytest.mark.parametrize("variants", readings(), ids=lambda v: ",".join(v.values()))
def test_the_file_builds_the_recorded_game(variants: dict[str, str]) -> None:
    key = ",".join(f"{k}={v}" for k, v in sorted(variants.items()))
    built = json.loads(json.dumps(build_mons_1914(variants).as_dict()))
    assert built == GOLDEN[key]


def test_roads_and_hills_are_the_layout_errata_values() -> None:
    features = DOCUMENTS["mons-1914"]["terrain"]["features"]
    assert {f["properties"]["width_cm"] for f in features if f["properties"]["kind"] == "road"} == {
        ROAD_WIDTH_CM
    }
    assert {f["properties"]["height_cm"] for f in features if f["properties"]["kind"] == "hill"} == {
        HILL_HEIGHT_CM
    }
