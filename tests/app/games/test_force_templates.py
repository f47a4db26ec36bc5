"""A force built from one named part of an organisation table (ForceIn.template, e.g. one "battalion"), not
the whole table, through the API on SQLite and PostgreSQL; the organisation-tables dataset lists each table's
parts."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from rules.flanders_fields.book.organisation import build_template, count_units
from tests.app.games.conftest import new_game, units_by_ref


def _error(r: Any) -> dict[str, Any]:
    assert r.status_code == 422, r.text
    (err,) = r.json()["errors"]
    return dict(err)


def test_a_force_is_one_battalion_of_a_table(client: TestClient) -> None:
    g = new_game(
        client,
        {
            "period": "late",
            "forces": [
                {"side": "attacker", "table_id": "de-storm-battalion", "template": "mmg-company"},
                {"side": "defender", "table_id": "gb-1917", "template": "battalion", "quality": "veteran"},
                {"side": "defender", "table_id": "gb-1917", "template": "mg-battalion"},
            ],
        },
    )
    units = list(units_by_ref(client, g).values())
    for side, parts in (
        ("attacker", [("de-storm-battalion", "mmg-company", None)]),
        ("defender", [("gb-1917", "battalion", "veteran"), ("gb-1917", "mg-battalion", None)]),
    ):
        mine = [u for u in units if u["side"] == side]
        want: dict[str, dict[str, int]] = {}
        for table, template, quality in parts:
            built = build_template(table, template, id_prefix="x", quality=quality)
            for level, kinds in count_units(built).items():
                for kind, n in kinds.items():
                    want.setdefault(level, {}).setdefault(kind, 0)
                    want[level][kind] += n
        got: dict[str, dict[str, int]] = {}
        for u in mine:
            got.setdefault(u["level"], {}).setdefault(u["kind"], 0)
            got[u["level"]][u["kind"]] += 1
        assert got == want
    defenders = [u for u in units if u["side"] == "defender"]
    # "Infantry Battalion": a Battalion HQ and four companies "reduced to three platoons" when Veteran.
    assert sum(u["kind"] == "infantry-battalion" for u in defenders) == 1
    assert sum(u["kind"] == "rifle-platoon" for u in defenders) == 12
    # "Machine Gun Battalion": four MMG Companies of four Vickers.
    assert sum(u["kind"] == "mmg" for u in defenders) == 16
    roots = sorted(u["ref"] for u in units if u["parent_id"] is None)
    assert roots == [
        "forces-0/de-storm-battalion/mmg-company",
        "forces-1/gb-1917/battalion",
        "forces-2/gb-1917/mg-battalion",
    ]
    # Every stand of a battalion-scale force is on the table, none left off.
    assert not [u for u in units if u["off_table"]]


def test_an_unknown_part_is_422_naming_the_field_and_the_parts(client: TestClient) -> None:
    r = client.post(
        "/api/v1/games",
        json={"forces": [{"side": "defender", "table_id": "gb-1917", "template": "brigade"}]},
    )
    err = _error(r)
    assert err["loc"] == ["body", "forces", 0, "template"]
    assert err["allowed"] == ["battalion", "mg-battalion"]
    # A table printed as one battalion names no parts.
    r = client.post(
        "/api/v1/games",
        json={
            "forces": [
                {"side": "attacker", "table_id": "de-1916"},
                {"side": "defender", "table_id": "gb-tank-battalion", "template": "battalion"},
            ]
        },
    )
    err = _error(r)
    assert err["loc"] == ["body", "forces", 1, "template"] and err["allowed"] == []
    assert "omit template" in err["msg"]
    # Bounded like every field: empty or overlong is refused by the request model.
    for template in ("", "x" * 65):
        r = client.post(
            "/api/v1/games",
            json={"forces": [{"side": "defender", "table_id": "gb-1917", "template": template}]},
        )
        assert _error(r)["loc"] == ["body", "forces", 0, "template"]
    assert client.get("/api/v1/games").json() == []


def test_the_tables_dataset_lists_each_tables_parts(sqlite_client: TestClient) -> None:
    listing = sqlite_client.get("/api/v1/rulesets/flanders-fields/organisation-tables").json()
    parts = {t["id"]: [p["id"] for p in t["templates"]] for t in listing}
    assert parts["gb-1917"] == ["battalion", "mg-battalion"]
    assert parts["de-storm-battalion"] == ["mmg-company"]
    assert parts["gb-tank-battalion"] == []
    gb = next(t for t in listing if t["id"] == "gb-1917")
    assert gb["templates"][1] == {"id": "mg-battalion", "name": "Machine Gun Battalion", "level": "battalion"}
