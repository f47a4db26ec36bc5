"""The turn's arrival cards on the map as the server renders them (app/pages/arrival_cards.py, issue 67): each card
shows what the turn's cards answer (GET /api/v1/games/{id}/arrivals, the same function) for the seat reading it:
the stands under it by the names the map gives them, each roll's dice to enter, Roll and apply to its side alone
and, applied, what it did in words with the Undo the undo service would take; a card that leaves its shots to
its side counts the shots the read names, at most what the card takes, and says why one more is refused; an
item not landed is in no seat's cards. The template's context is the one `Arrivals.context` builds. Its taps are
the browser's (tests/frontend/test_map_arrivals.py, tests/frontend/test_earth2mm_bound.py)."""

from __future__ import annotations

import html
import re
from pathlib import Path

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from app.pages.arrival_cards import ArrivalCard, Arrivals, DiceRow, DieInput, Done, ShotButton, UnderLine
from app.services.undo import FIRESTEP_ROLLED
from tests.app.games.conftest import Game, advance_to, new_game, start_game
from tests.app.games.test_arrivals_api import ON_TARGET, plan_bombardment

TEMPLATE = Path(__file__).resolve().parents[3] / "frontend" / "templates" / "_arrival_cards.html"


def fragment(http: TestClient, g: Game, seat: dict[str, str], query: str = "", status: int = 200) -> str:
    """The arrival cards for the seat of `seat` (its device's cookie)."""
    http.cookies.set(COOKIE_NAME, seat["Authorization"].removeprefix("Bearer "))
    try:
        answer = http.get(f"/games/{g.id}/map/arrivals{query}", headers={"HX-Request": "true"})
    finally:
        http.cookies.clear()
    assert answer.status_code == status, answer.text
    return answer.text


def words(part: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", part)))


def short_names(http: TestClient, g: Game) -> dict[int, str]:
    units = http.get(f"/api/v1/games/{g.id}/units", headers=g.referee).json()
    return {u["id"]: u["short_name"] for u in units}


def test_the_card_shows_what_the_turn_s_cards_answer_to_each_seat(client: TestClient) -> None:
    g = new_game(client, ON_TARGET)
    assert 'data-count="0"' in fragment(client, g, g.attacker)  # in set-up no fire arrives
    item_id, kept = plan_bombardment(client, g)
    start_game(client, g)
    [card] = client.get(f"/api/v1/games/{g.id}/arrivals", headers=g.attacker).json()["cards"]
    part = fragment(client, g, g.attacker)
    assert 'data-count="1"' in part and 'data-label="1 arrival"' in part
    said = words(part)
    assert card["what"] in said and "Lands on its aiming point" in said
    # Every stand under it, in its list, by the name the map gives it (the card's own name aside).
    for under in ("full", "partial", "close"):
        n = len(card["stands"][under])
        assert f'data-arrival-under="{under}" data-count="{n}"' in part
    for s in card["stands"]["full"] + card["stands"]["partial"]:
        assert s["name"] in said or s["unit_id"] in {int(k) for k in re.findall(r'data-die="(\d+)"', part)}
        assert f'data-die="{s["key"]}" data-index="0"' in part
        assert all(p in said for p in s["odds_words"].values())
    assert 'data-die="action"' in part and f'data-arrival-apply="{item_id}"' in part
    # The defender reads the same card, with no tap of the attacker's fire.
    theirs = fragment(client, g, g.defender)
    assert card["what"] in words(theirs) and "The attacker rolls it." in words(theirs)
    assert "data-arrival-apply" not in theirs and "data-die" not in theirs
    # The attacker's item not landed yet is in no seat's cards, nor its id.
    assert all(str(kept["later"]) not in p for p in (part, theirs))

    # The action die entered, the stands' dice left to firestep: they stand (issue 89), so no Undo is offered
    # to the seat that applied it, the refusal's sentence is.
    r = client.post(
        f"/api/v1/games/{g.id}/arrivals/{item_id}/apply", headers=g.attacker, json={"dice": {"action": [4]}}
    )
    assert r.status_code == 200, r.text
    applied = r.json()["cards"][0]["applied"]
    done = fragment(client, g, g.attacker)
    assert f'data-arrival-effect="{applied["event_id"]}"' in done
    assert (" ".join(applied["said"]) or "Nothing changes on the table.") in words(done)
    assert "data-arrival-undo=" not in done and "data-arrival-apply" not in done
    assert FIRESTEP_ROLLED in words(done), words(done)
    assert f"The dice ({len(applied['dice'])})" in words(done)
    # The defender: what it did, no Undo of the attacker's fire.
    other = fragment(client, g, g.defender)
    assert f'data-arrival-effect="{applied["event_id"]}"' in other and "data-arrival-undo" not in other
    # A later event in the log: the Undo the undo service would refuse is not offered, its sentence is.
    advance_to(client, g, "battalion-orders")
    later = fragment(client, g, g.attacker)
    refused = client.post(
        f"/api/v1/games/{g.id}/events/{applied['event_id']}/undo", headers=g.attacker, json={}
    )
    assert refused.status_code >= 400 and "data-arrival-undo=" not in later
    assert refused.json()["detail"] in words(later), words(later)


def test_the_shots_laid_are_counted_to_what_the_card_takes(sqlite_client: TestClient) -> None:
    c = sqlite_client
    g = new_game(c, {"scenario": "earth2mm-demo-ferme"})
    start_game(c, g)
    item = {"kind": "circle-bombardment", "battery": "18-pounder Battery", "grid": [38, 84]}
    made = c.post(
        f"/api/v1/games/{g.id}/fireplans/attacker/items",
        headers=g.attacker,
        json={"arrival_turn": 1, "item": item},
    )
    assert made.status_code == 201, made.text
    advance_to(c, g, "execute-2")
    [card] = c.get(f"/api/v1/games/{g.id}/arrivals", headers=g.attacker).json()["cards"]
    first, second = card["stands"]["full"]
    i = card["item_id"]
    none = fragment(c, g, g.attacker)
    assert 'data-arrival-shots="0"' in none and "data-arrival-laying" in none
    assert f'data-unit="{first["unit_id"]}"' in none and "Roll 0 shots and apply" in words(none)
    # Two shots on the first stand: its most ("up to half the shots on a single target").
    two = fragment(c, g, g.attacker, f"?shot={i}:{first['key']}&shot={i}:{first['key']}")
    assert 'data-arrival-shots="2"' in two and "Roll 2 shots and apply" in words(two)
    names = short_names(c, g)
    assert f"{names[first['unit_id']]} takes at most 2 shots." in html.unescape(two)
    # A third on it, and a shot on no roll of the card, are left off.
    over = fragment(
        c,
        g,
        g.attacker,
        f"?shot={i}:{first['key']}&shot={i}:{first['key']}&shot={i}:{first['key']}&shot={i}:1",
    )
    assert 'data-arrival-shots="2"' in over
    full = "&".join(f"shot={i}:{s['key']}" for s in (first, first, second, second))
    all_laid = html.unescape(fragment(c, g, g.attacker, f"?{full}"))
    assert "Roll 4 shots and apply" in words(all_laid) and all_laid.count("takes at most 2 shots.") == 2
    # The defender lays none and is offered nothing of it.
    theirs = fragment(c, g, g.defender, f"?{full}")
    assert "data-arrival-shot" not in theirs and "data-arrival-laying" not in theirs
    # A shot not named as <item>:<key>, or too many of them: one sentence naming its field.
    for query, field in (("?shot=x", "Shot"), ("?" + "&".join([f"shot={i}:1"] * 201), "shot")):
        said = words(fragment(c, g, g.attacker, query, status=422))
        assert field in said, said
    lead = re.search(r'class="lead"[^>]*>(.*?)</', fragment(c, g, g.attacker, "?shot=x", status=422), re.S)
    assert lead and len(html.unescape(lead.group(1)).strip()) <= 120, lead


def test_each_tap_carries_the_shots_it_reads_next_and_the_apply_its_body(sqlite_client: TestClient) -> None:
    """The shots laid are the read's query, the card's own (issue 67): the part says the shots it took, each stand's
    button the query with one shot more (none where one more is refused), the card's Clear the query without its
    shots, and Roll and apply the body it sends, so table-arrivals.js counts nothing itself."""
    c = sqlite_client
    g = new_game(c, {"scenario": "earth2mm-demo-ferme"})
    start_game(c, g)
    item = {"kind": "circle-bombardment", "battery": "18-pounder Battery", "grid": [38, 84]}
    made = c.post(
        f"/api/v1/games/{g.id}/fireplans/attacker/items",
        headers=g.attacker,
        json={"arrival_turn": 1, "item": item},
    )
    assert made.status_code == 201, made.text
    advance_to(c, g, "execute-2")
    [card] = c.get(f"/api/v1/games/{g.id}/arrivals", headers=g.attacker).json()["cards"]
    first, second = card["stands"]["full"]
    i, one, two = (
        card["item_id"],
        f"shot={card['item_id']}%3A{first['key']}",
        f"shot={card['item_id']}%3A{second['key']}",
    )
    part = html.unescape(fragment(c, g, g.attacker, f"?{one}&shot=999:1"))
    assert 'data-query="' + one + '"' in part, part  # a shot the cards did not take is not carried on
    assert (
        f'data-arrival-shot="{first["key"]}" data-item="{i}" data-unit="{first["unit_id"]}" data-read="{one}&{one}"'
        in part
    )
    assert (
        f'data-arrival-shot="{second["key"]}" data-item="{i}" data-unit="{second["unit_id"]}" data-read="{one}&{two}"'
        in part
    )
    assert f'data-arrival="{i}" data-clear=""' in part
    assert 'data-body="{"shots": {"' + first["key"] + '": 1}}"' in part
    full = html.unescape(fragment(c, g, g.attacker, f"?{one}&{one}"))
    assert (
        f'data-unit="{first["unit_id"]}" data-refused=' in full
        and 'data-body="{"shots": {"' + first["key"] + '": 2}}"' in full
    )


def test_the_template_renders_the_context_its_function_builds() -> None:
    """Its "Required context" names what `Arrivals.context` gives it, and it reads only those types' fields."""
    text = TEMPLATE.read_text()
    kind = f"{Arrivals.__module__}.{Arrivals.__name__}"
    required = re.search(rf"Required context: (\w+) \({re.escape(kind)}\)", text)
    assert required and set(Arrivals((), "0 arrivals").context()) == {required.group(1)}
    for var, made in (("a", Arrivals), ("c", ArrivalCard), ("b", ShotButton), ("d", DieInput), ("row", DiceRow),
                      ("u", UnderLine)):  # fmt: skip
        read = set(re.findall(rf"\b{var}\.(\w+)", text))
        assert read and read <= set(made.__dataclass_fields__), (var, read)
    done = set(re.findall(r"\bc\.done\.(\w+)", text))
    assert done and done <= set(Done.__dataclass_fields__), done
