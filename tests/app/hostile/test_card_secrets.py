"""A stand's card panels (its head, its acts, its target list, the API's acts and targets) read the game's units
as the worker keeps them, one state shared by every seat and request (markers.TableRead, 829b0d36): what the
other side keeps secret (Flanders Fields: a battery's aiming point, and the version its writes bump) reaches no
seat but its own and the referee, whichever seat's card was read first; the units API's reader is the
measure."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests.app.games.conftest import Game, advance_to, new_game, start_game, units_by_ref
from tests.app.games.test_earth2mm_anon_plans import put

AIM = [52.5, 61.5]
SECRET = ("52.5", "61.5")


def _get(c: TestClient, path: str, who: dict[str, str], page: bool) -> str:
    if page:
        c.cookies.set(COOKIE_NAME, who["Authorization"].removeprefix("Bearer "))
    try:
        r = c.get(path, headers={} if page else who)
    finally:
        c.cookies.clear()
    assert r.status_code < 500, r.text
    return r.text


def _reads(c: TestClient, g: Game, battery: int, shooter: int, who: dict[str, str]) -> list[str]:
    """Every card panel and card answer naming the battery, as `who` reads it."""
    pages = [f"/games/{g.id}/map/units/{battery}/{tail}" for tail in ("head", "acts")]
    pages += [
        f"/games/{g.id}/map/units/{shooter}/targets/shooting",
        f"/games/{g.id}/map/units/{shooter}/head",
    ]
    api = [f"/api/v1/games/{g.id}/units/{battery}/acts", f"/api/v1/games/{g.id}/units/{shooter}/acts"]
    api += [f"/api/v1/games/{g.id}/units/{shooter}/targets/shooting"]
    return [_get(c, p, who, True) for p in pages] + [_get(c, p, who, False) for p in api]


def _aimed(c: TestClient) -> tuple[Game, dict[str, Any], dict[str, Any]]:
    g = new_game(c)
    units = c.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    battery = next(u for u in units if u["side"] == "defender" and u["level"] == "battery")
    shooter = next(u for u in units if u["side"] == "attacker" and u["base"] and u["x"] is not None)
    url = f"/api/v1/games/{g.id}/units/{battery['id']}"
    r = c.put(url, headers=g.defender, json={"version": battery["version"], "aiming_point": AIM})
    assert r.status_code == 200, r.text
    start_game(c, g)
    return g, battery, shooter


@pytest.mark.parametrize("first", ["defender", "referee", "attacker"])
def test_the_other_sides_aim_reaches_no_card_whoever_read_first(
    sqlite_client: TestClient, first: str
) -> None:
    c = sqlite_client
    g, battery, shooter = _aimed(c)
    _reads(c, g, battery["id"], shooter["id"], getattr(g, first))  # the kept state built by this seat's read
    for text in _reads(c, g, battery["id"], shooter["id"], g.attacker):
        assert not any(s in text for s in SECRET), text[:300]
    # The units API's reader agrees: the attacker reads the battery unaimed, its version without the aim's bump.
    seen = c.get(f"/api/v1/games/{g.id}/units/{battery['id']}", headers=g.attacker).json()
    assert seen["aiming_point"] is None and seen["version"] == battery["version"]
    own = c.get(f"/api/v1/games/{g.id}/units/{battery['id']}", headers=g.defender).json()
    assert own["aiming_point"] == AIM


def test_no_card_answer_carries_the_other_sides_version_of_a_stand(sqlite_client: TestClient) -> None:
    """A card's edit carries the version it writes over: for the other side's stand none is offered, so no
    count of its side's secret writes reaches the attacker through a card."""
    c = sqlite_client
    g, battery, _ = _aimed(c)
    card = c.get(f"/api/v1/games/{g.id}/units/{battery['id']}/acts", headers=g.attacker).json()
    assert card["edits"] == [] and all(o["kind"] in ("mark", "roll") for o in card["offers"]), card
    c.cookies.set(COOKIE_NAME, g.attacker["Authorization"].removeprefix("Bearer "))
    page = c.get(f"/games/{g.id}/map/units/{battery['id']}/acts").text
    c.cookies.clear()
    found = re.findall(r"(?:&#34;|\")version(?:&#34;|\"):\s*(\d+)", page)
    versions = {int(v) for v in found}
    assert versions <= {battery["version"]}, versions


def test_a_2mm_batterys_anon_plan_reaches_no_card_of_the_other_side(sqlite_client: TestClient) -> None:
    """2mm Earth 1418: a battery's plan and planned target are its side's until it fires ("Anon"); the cards of
    the battery and of its target, read by its side first (the kept units then hold the plan), say nothing of
    either to the other side."""
    c = sqlite_client
    g = new_game(c, {"scenario": "earth2mm-demo-ferme"})
    start_game(c, g)
    units = units_by_ref(c, g)
    battery, target = units["gb/ra/battery"], units["de/i-bn/1-kp"]
    put(c, g, g.attacker, units["gb/ra"], high_command="hold")
    put(c, g, g.attacker, units["gb/2-bn"], high_command="advance")
    advance_to(c, g, "plan-artillery")
    put(c, g, g.attacker, battery, sub_plan="stay put", plan_target=target["id"])
    paths = [
        (f"/games/{g.id}/map/units/{u}/{t}", True)
        for u in (battery["id"], target["id"])
        for t in ("head", "acts")
    ]
    paths += [(f"/api/v1/games/{g.id}/units/{u}/acts", False) for u in (battery["id"], target["id"])]
    assert "stay put" in _get(c, paths[1][0], g.attacker, True).lower()  # its own side reads its plan
    for path, page in paths:
        text = _get(c, path, g.defender, page).lower()
        assert "stay put" not in text and "plan_target" not in text and "planned" not in text, path
