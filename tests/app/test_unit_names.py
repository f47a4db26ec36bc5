"""Unit names people can tell apart: every unit of the Mons game gets a short name and a full name with its
place in the force tree, and no two units of the game share either."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from app.services.unit_names import display_names, full_names, word
from tests.app.games.conftest import Game, new_game


def mons_units(client: TestClient) -> tuple[Game, list[Any]]:
    game = new_game(client)
    r = client.get(f"/api/v1/games/{game.id}/units", headers=game.referee)
    assert r.status_code == 200, r.text
    return game, [SimpleNamespace(**u) for u in r.json()]


def by_ref(units: list[Any], ref_end: str, side: str) -> Any:
    return next(u for u in units if u.ref.endswith(ref_end) and u.side == side)


def test_every_mons_unit_has_a_unique_short_and_full_name(client: TestClient) -> None:
    _, units = mons_units(client)
    short, full = display_names(units), full_names(units)
    assert set(short) == set(full) == {u.id for u in units}
    assert len(set(short.values())) == len(units), [
        n for n in short.values() if list(short.values()).count(n) > 1
    ]
    assert len(set(full.values())) == len(units)
    # The organisation table's own names repeat in every company: the reason for all this.
    assert len({u.name for u in units}) < len(units) / 3


def test_short_names_carry_the_force_tree_path(client: TestClient) -> None:
    _, units = mons_units(client)
    short, full = display_names(units), full_names(units)
    # The BEF brigade has one of each formation above its battalions: battalion 1, company 2, platoon 3.
    plt = by_ref(units, "infantry-battalion-1/rifle-company-2/rifle-platoon-3", "defender")
    assert short[plt.id] == "1/2 Coy Plt 3"
    assert full[plt.id] == "Infantry Brigade › Battalion 1 › Infantry Company 2 › Infantry Platoon 3"
    # Two German regiments: the regiment's number leads.
    de = by_ref(units, "infantry-regiment-2/infantry-battalion-3/rifle-company-4/rifle-platoon-1", "attacker")
    assert short[de.id] == "2/3/4 Coy Plt 1"
    hq = by_ref(units, "infantry-regiment-1/infantry-battalion-2/battalion-command-1", "attacker")
    assert short[hq.id] == "1/2 Bn HQ"
    # Batteries named alike ("77mm Battery" three times) are numbered by their order.
    batteries = sorted(
        (u for u in units if u.side == "attacker" and u.kind == "field-battery" and "regiment-1/" in u.ref),
        key=lambda u: u.id,
    )
    assert [short[b.id] for b in batteries] == ["1 Rgt Bty 1", "1 Rgt Bty 2", "1 Rgt Bty 3"]
    assert short[by_ref(units, "infantry-battalion-2", "defender").id] == "2 Bn"


def test_identical_trees_on_both_sides_stay_apart() -> None:
    def unit(id: int, parent: int | None, side: str, level: str, kind: str, name: str) -> SimpleNamespace:
        return SimpleNamespace(id=id, parent_id=parent, side=side, level=level, kind=kind, name=name)

    units = [
        unit(1, None, "attacker", "company", "rifle-company", "Company"),
        unit(2, 1, "attacker", "platoon", "rifle-platoon", "Platoon 1"),
        unit(3, 1, "attacker", "platoon", "rifle-platoon", "Platoon 2"),
        unit(4, None, "defender", "company", "rifle-company", "Company"),
        unit(5, 4, "defender", "platoon", "rifle-platoon", "Platoon 1"),
        unit(6, 4, "defender", "platoon", "rifle-platoon", "Platoon 2"),
        unit(7, 4, "defender", "platoon", "rifle-platoon", "Platoon 2"),
    ]
    short = display_names(units)
    assert short[2] == "Attacker Plt 1" and short[5] == "Defender Plt 1"
    assert len(set(short.values())) == len(units)
    assert word(units[0]) == "Coy"
