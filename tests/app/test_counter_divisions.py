"""A counter's division where the book names the divisions (Vimy Ridge 19.1: the German 16th Bavarian, 79th
Reserve and 1st Bavarian Reserve; `CounterBoard.group_words`): chosen from a list in the order-of-battle editor
and in the referee's counter entry, not typed (a newcomer's tap mid-word merged two names in one); a side the
book names none of (the Allied: the club's own counters) types its own, beside the list in the entry."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from app.pages import club_form, counter_editor
from app.pages.templates import templates
from tests.app.games.conftest import new_game
from tests.app.test_counter_entry import post

GERMAN = ["16th Bavarian", "79th Reserve", "1st Bavarian Reserve"]


def _options(select: str) -> list[str]:
    return re.findall(r"<option[^>]*>([^<]*)</option>", select)


def test_the_order_of_battle_offers_the_books_divisions_to_choose() -> None:
    order = counter_editor.context("vimy-ridge")["order"]
    assert isinstance(order, club_form.OrderOfBattle)
    shown = templates.get_template("_club_order.html").render(**order.context())
    german = re.search(
        r'<select id="club-c__N__-division"[^>]*>(.*?)</select>',
        shown.split('data-club-blank="defender"')[1],
        re.S,
    )
    assert german is not None and _options(german.group(1)) == ["None", *GERMAN]
    allied = shown.split('data-club-blank="attacker"')[1].split("</template>")[0]
    assert 'id="club-c__N__-division" type="text"' in allied and "<select" not in allied


def test_the_referees_entry_chooses_a_named_division_or_types_another(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c, {"name": "Vimy", "ruleset": "vimy-ridge"})
    url, api = f"/games/{g.id}/counters/enter", f"/api/v1/games/{g.id}"
    c.cookies.set(COOKIE_NAME, g.referee["Authorization"].removeprefix("Bearer "))
    page = c.get(f"/games/{g.id}/counters").text
    c.cookies.clear()
    select = re.search(r'<select[^>]* name="division"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None and '<optgroup label="German">' in select.group(1)
    assert _options(select.group(1)) == ["Another (type it)", *GERMAN]
    assert 'name="division_typed"' in page
    chosen = post(
        c, g.referee, url, {"side": "defender", "name": "RIR 262", "hex": "1011", "division": GERMAN[1]}
    )
    assert chosen.status_code == 200, chosen.text
    assert f'<option value="{GERMAN[1]}" selected>' in chosen.text  # kept for the next counter
    typed = {
        "side": "attacker",
        "name": "1st Bn",
        "hex": "0910",
        "division": "",
        "division_typed": "1st Canadian",
    }
    answer = post(c, g.referee, url, typed)
    assert answer.status_code == 200, answer.text
    assert (
        'name="division_typed" type="text" maxlength="64" autocomplete="off" value="1st Canadian"'
        in answer.text
    )
    units = {u["name"]: u["division"] for u in c.get(f"{api}/units", headers=g.referee).json()}
    assert units == {"RIR 262": GERMAN[1], "1st Bn": "1st Canadian"}
