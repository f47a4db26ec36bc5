"""A formation of one stand is said in the singular (session 23's newcomer pass read "MMG Platoon added to the
defender: 1 stands." and "Name (battery, 1 stands)"): the add's notice and the formation's name field alike."""

from __future__ import annotations

import html

from fastapi.testclient import TestClient

from tests.csrf import form

URL = "/scenarios/new/flanders-fields/forces"


def added(c: TestClient, formation: str, name: str) -> str:
    picked = {"side": "defender", "defender_table": "gb-1915", "defender_formation": formation}
    answer = c.post(URL, data=form(c, picked | {"defender_name": name}))
    assert answer.status_code == 200, answer.text
    return html.unescape(answer.text)


def test_one_stand_is_said_in_the_singular(sqlite_client: TestClient) -> None:
    one = added(sqlite_client, "gb-1915/mmg-company-1/mmg-1", "Vickers")
    assert 'data-scn-said="Vickers added to the defender: 1 stand."' in one, one
    assert "(platoon, 1 stand)</label>" in one and "1 stands" not in one, one
    several = added(sqlite_client, "gb-1915/light-mortar-battery-1", "Stokes")
    assert 'data-scn-said="Stokes added to the defender: 4 stands."' in several, several
    assert "(battery, 4 stands)</label>" in several
