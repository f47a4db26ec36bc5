"""Unit names people can tell apart: every unit of the Mons game gets a short name and a full name with its
place in the force tree, and no two units of the game share either."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.services.unit_names import display_names, full_names, plain_names, word
from rules.flanders_fields.book.organisation import ORGANISATION_TABLES, build_force
from tests import csrf
from tests.app.games.conftest import Game, new_game


def mons_units(client: TestClient) -> tuple[Game, list[Any]]:
    game = new_game(client)
    r = client.get(f"/api/v1/games/{game.id}/units", headers=game.referee)
    assert r.status_code == 200, r.text
    return game, [SimpleNamespace(**u, pk=u["id"]) for u in r.json()]


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
        return SimpleNamespace(pk=id, parent_id=parent, side=side, level=level, kind=kind, name=name)

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


def test_names_kept_for_a_tree_follow_its_changes_and_no_caller_changes_them() -> None:
    # The names of a force tree are kept (app.services.unit_names.Named): by what naming reads of each unit, so
    # a stand renamed or moved under another formation is named anew, and each caller gets its own answer.
    units = [
        SimpleNamespace(
            pk=1, parent_id=None, side="attacker", level="company", kind="rifle-company", name="Co"
        ),
        SimpleNamespace(
            pk=2, parent_id=1, side="attacker", level="platoon", kind="rifle-platoon", name="P 1"
        ),
        SimpleNamespace(
            pk=3, parent_id=1, side="attacker", level="platoon", kind="rifle-platoon", name="P 2"
        ),
    ]
    full = full_names(units)
    full[2] = "changed by a caller"
    assert full_names(units)[2] == "Co › P 1" and display_names(units)[2] == "Plt 1"
    units[1].name = "P 3"
    assert full_names(units)[2] == "Co › P 3" and display_names(units)[2] == "Plt 3"
    units[2].parent_id = None
    assert full_names(units)[3] == "P 2" and plain_names(units)[3] == "platoon"


def _tree_units(table_id: str) -> list[SimpleNamespace]:
    """Both sides built from one organisation table (the same tree twice), as a game stores them."""
    units: list[SimpleNamespace] = []

    def add(node: Any, parent: int | None, side: str) -> None:
        row = SimpleNamespace(
            pk=len(units) + 1, parent_id=parent, side=side, level=node.level, kind=node.kind, name=node.name
        )
        units.append(row)
        for child in node.children:
            add(child, row.pk, side)

    for side in ("attacker", "defender"):
        add(build_force(table_id), None, side)
    return units


@pytest.mark.parametrize("table_id", list(ORGANISATION_TABLES))
def test_no_two_units_of_a_side_share_a_name_in_any_organisation_table(table_id: str) -> None:
    units = _tree_units(table_id)
    short = display_names(units)
    for side in ("attacker", "defender"):
        shown = [short[u.pk] for u in units if u.side == side]
        assert len(set(shown)) == len(shown), [n for n in shown if shown.count(n) > 1][:5]
        # Told apart by the force tree, never by the last resort of a unit's row id.
        assert not [n for n in shown if "#" in n]
    # The names a stranger reads are as distinct, and spell the short name's words out.
    plain = plain_names(units)
    for side in ("attacker", "defender"):
        read = [plain[u.pk] for u in units if u.side == side]
        assert len(set(read)) == len(read), [n for n in read if read.count(n) > 1][:5]
        assert not [n for n in read if "#" in n or "Plt" in n or "Coy" in n]


def test_plain_names_spell_out_the_place_in_the_force() -> None:
    def unit(id: int, parent: int | None, level: str, kind: str, name: str) -> SimpleNamespace:
        return SimpleNamespace(pk=id, parent_id=parent, side="attacker", level=level, kind=kind, name=name)

    units = [
        unit(1, None, "battalion", "infantry-battalion", "1st Bn"),
        unit(2, None, "battalion", "infantry-battalion", "2nd Bn"),
        unit(3, 1, "company", "rifle-company", "Company 1"),
        unit(4, 1, "company", "rifle-company", "Company 2"),
        unit(5, 4, "platoon", "rifle-platoon", "Platoon 1"),
        unit(6, 4, "platoon", "rifle-platoon", "Platoon 2"),
        unit(7, 1, "platoon", "mmg", "MG 1"),
        unit(8, 1, "platoon", "mmg", "MG 2"),
        unit(9, 1, "stand", "battalion-command", "HQ"),
    ]
    plain = plain_names(units)
    assert plain[6] == "2nd platoon, 2nd company, 1st battalion"
    assert plain[8] == "MG 2, 1st battalion"
    assert plain[4] == "2nd company, 1st battalion"
    assert display_names(units)[6] == "1/2 Coy Plt 2"


def test_picker_board_map_and_fire_plan_show_the_same_name(client: TestClient) -> None:
    game, units = mons_units(client)
    short = display_names(units)
    assert {u.id: u.short_name for u in units} == short  # the API's units list says it too
    # The map names its stands from that list (nothing of its own): the plain name a stand's card heads with too.
    assert {u.id: u.plain_name for u in units} == plain_names(units)
    batteries = [u for u in units if u.side == "defender" and u.kind in ("field-battery", "howitzer-battery")]
    assert len(batteries) == 4 and len({short[b.id] for b in batteries}) == 4
    client.cookies.clear()
    token = game.referee["Authorization"].removeprefix("Bearer ")
    assert (
        client.post("/join", data=csrf.form(client, {"code": token}), follow_redirects=False).status_code
        == 303
    )
    picker = client.get(f"/lookup?game={game.id}").text
    board = client.get(f"/games/{game.id}/referee").text
    plan = client.get(f"/games/{game.id}/fire-plan?side=defender").text
    guns = re.findall(
        r"<option>([^<]+)</option>", plan.split('id="fp-battery"', 1)[1].split("</select>", 1)[0]
    )
    # Each battery stand by its short name; a formation of them (the brigade) by its own name (issue 51).
    stands = [html.escape(short[b.id]) for b in batteries]
    assert [g for g in guns if g in stands] == stands and set(guns) - set(stands) <= {
        "Field Artillery Brigade"
    }
    for b in batteries:
        name = html.escape(short[b.id])
        assert re.search(rf'data-unit="{b.id}"[^>]*>{re.escape(name)}<', picker), name
        assert f'id="unit-{b.id}"' in board and f'title="{name} · ' in board, name
    # The lookup names the unit it picked the same way.
    picked = client.get(f"/lookup?game={game.id}&unit={batteries[0].id}").text
    assert f'data-picked-unit="{batteries[0].id}">{html.escape(short[batteries[0].id])}<' in picked
