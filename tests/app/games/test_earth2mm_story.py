"""A 2mm Earth 1418 game told in its words through HTTP: a few acts of the shipped demo battle (commands, plans,
a dig-in, a shot and its hits allocated), then the referee board (each sub-unit's injuries, posture, plan and
its formation's command, its filters, the live pieces), the game record, the luck ledger and the after-action
report read for them."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests import csrf
from tests.app.games.conftest import Game, advance_to, new_game, start_game, units_by_ref


class Demo:
    def __init__(self, c: TestClient) -> None:
        self.c = c
        self.g: Game = new_game(c, {"scenario": "earth2mm-demo-ferme"})
        start_game(c, self.g)
        self.ids = {ref: u["id"] for ref, u in units_by_ref(c, self.g).items()}

    def edit(self, ref: str, who: dict[str, str], **values: Any) -> Any:
        api = f"/api/v1/games/{self.g.id}/units/{self.ids[ref]}"
        version = self.c.get(api, headers=self.g.referee).json()["version"]
        r = self.c.put(api, headers=who, json={"version": version, **values})
        assert r.status_code == 200, r.text
        return r

    def roll(self, resolver: str, who: dict[str, str], unit: str, target: str, **body: Any) -> Any:
        r = self.c.post(
            f"/api/v1/games/{self.g.id}/resolve/{resolver}",
            headers=who,
            json={"unit_id": self.ids[unit], "target_id": self.ids[target], **body},
        )
        assert r.status_code == 200, r.text
        return r

    def page(self, path: str) -> str:
        """A page as the referee's device reads it (joined with the referee token: pages read the seat's
        cookie)."""
        if not self.c.cookies:
            token = self.g.referee["Authorization"].removeprefix("Bearer ")
            joined = self.c.post("/join", data=csrf.form(self.c, {"code": token}), follow_redirects=False)
            assert joined.status_code == 303, joined.text
        r = self.c.get(f"/games/{self.g.id}/{path}")
        assert r.status_code == 200, r.text
        return r.text


def piece(page: str, piece_id: str) -> str:
    """A board piece by its id (a row's head, a block's head, a stand's tile), up to the next piece."""
    found = re.search(
        rf'<(span|summary|li) class="[^"]*" id="{piece_id}"(.*?)(?=<(span|summary|li) class="[^"]*" id=|$)',
        page,
        re.S,
    )
    assert found, piece_id
    return found.group(0)


def notes(html: str) -> list[str]:
    return re.findall(r'<span class="note">([^<]*)</span>', html)


def test_the_demo_battle_told_in_its_words(sqlite_client: TestClient) -> None:
    d = Demo(sqlite_client)
    g, ids = d.g, d.ids
    kp, mg, coy = "de/i-bn/1-kp", "gb/1-bn/mg-coy", "gb/1-bn/a-coy"
    d.edit("gb/1-bn", g.attacker, high_command="advance")
    d.edit("de/i-bn", g.defender, high_command="hold")
    advance_to(d.c, g, "plan-line")
    d.edit(coy, g.attacker, sub_plan="move", plan_target=ids[kp])
    d.edit(kp, g.defender, sub_plan="stay put", digging_in=True)
    advance_to(d.c, g, "plan-heavy-weapons")
    d.edit(mg, g.attacker, sub_plan="move", plan_target=ids[kp])
    # Step (2): the MG company's three dice injure every platoon of the digging company (R1 in the open).
    advance_to(d.c, g, "execute-2")
    shot = d.roll("shoot", g.attacker, mg, kp, dice=[6, 6, 6])
    waiting = d.page(f"referee/changes?after={shot.json()['event_id'] - 1}")
    row = piece(waiting, f"row-{ids[kp]}")
    assert "data-flag-hits-to-allocate" in row and "hits to allocate: 3" in notes(row)
    platoons = [ids[f"{kp}/{n}"] for n in (1, 2, 3)]
    d.roll("allocate-hits", g.attacker, mg, kp, fields={"order": platoons})
    # Step (5): A Company's two hits on a company injured throughout remove two platoons.
    advance_to(d.c, g, "execute-5")
    d.roll("shoot", g.attacker, coy, kp, dice=[6, 6])
    removed = d.roll("allocate-hits", g.attacker, coy, kp, fields={"order": platoons[:2]})

    # The board: each sub-unit's row says its injuries, posture, plan and its SF's command; each SF's head
    # its command and its bases lost (no morale test to count towards); a platoon its injury.
    board = d.page("referee")
    # The turn panels say the rules' word: a bound (the map's script reads it from its rule state).
    assert '<span class="turn-big">Bound 1</span>' in board
    assert '"turn_word": "bound"' in d.page("map")
    assert notes(piece(board, f"row-{ids[kp]}")) == [
        "1 fresh injured",
        "digging",
        "plan: stay put",
        "SF: hold",
    ]
    assert notes(piece(board, f"row-{ids[coy]}")) == ["moving", "plan: move", "SF: advance"]
    head = piece(board, f"head-{ids['de/i-bn']}")
    assert "lost 2/5" in head and "tests at" not in head and notes(head) == ["command: hold"]
    assert notes(piece(board, f"unit-{platoons[2]}")) == ["fresh injury"]
    # Its filters, each marking the rows and tiles it shows.
    chips = re.findall(r'data-filter="(flag-[a-z-]+)" aria-pressed="false">([^<]*)<', board)
    assert dict(chips) == {
        "flag-digging-in": "Digging in",
        "flag-dug-in-bounds": "Dug in",
        "flag-under-fire": "Under fire",
        "flag-packed": "Packed",
        "flag-hits-to-allocate": "Hits to allocate",
        "flag-base-injury": "Injured",
    }
    assert "data-flag-digging-in" in piece(board, f"row-{ids[kp]}")
    assert "data-flag-base-injury" in piece(board, f"unit-{platoons[2]}")
    # The live pieces of the removal re-send the company's row and its SF's head with the tiles.
    live = d.page(f"referee/changes?after={removed.json()['event_id'] - 1}")
    assert notes(piece(live, f"row-{ids[kp]}"))[0] == "1 fresh injured"
    assert "lost 2/5" in piece(live, f"head-{ids['de/i-bn']}")

    # The game record, in the bound's words.
    lines = re.findall(r'<span class="event-line">([^<]*)</span>', board)
    assert "Defender · Defender 1 Bn · Unit update: high command hold · bound 1" in lines
    assert "Defender · Defender 1/1 Coy · Unit update: plan stay put, digging in · bound 1" in lines
    assert (
        "Attacker · Attacker 1/1 Coy · Unit update: plan move, planned target Defender 1/1 Coy · bound 1"
        in lines
    )
    assert any("Defender 1/1 Coy hits to allocate 0; 3 more bases injury fresh" in line for line in lines)
    assert any("Allocate hits → 0 injured, 2 removed" in line and "killed" in line for line in lines)
    assert (
        "Attacker · Attacker 1/1 Coy · Shoot: the players rolled 6, 6 → 2 hits · shot this bound; Defender 1/1 Coy "
        "hits to allocate 2 · bound 1" in lines
    )

    # The luck ledger and the report: the bound's story, a formation's platoons lost, the book's casualties.
    report = d.c.get(f"/api/v1/games/{g.id}/report", headers=g.referee).json()
    # The story of the bound in the book's words: the bases removed, the one left injured (the shots' hits
    # allocated are the shots' doing); at R1 every die hits, so no roll was against the odds.
    assert report["story"] == {
        "decisive": [],
        "turns": [
            {
                "turn": 1,
                "sentences": [
                    "The defender lost 2 bases (Defender 1/1 Coy 2).",
                    "Injured: Defender 1/1 Coy (1 base).",
                ],
            }
        ],
        "ending": None,  # the game goes on: no result yet
    }
    assert {r["resolver"] for r in report["ledger"]["sides"]["attacker"]["rolls"]} == {"shoot"}
    [bn] = [b for b in report["losses_by_battalion"] if b["unit_id"] == ids["de/i-bn"]]
    assert (bn["rifle_platoons"], bn["rifle_platoons_lost"], bn["bases_lost"]) == (5, 2, 2)
    casualties = report["casualties_by_side"]["defender"]
    assert (casualties["bases"], casualties["platoons"]) == (2, 2)
    assert "two hits remove a base (a platoon)" in casualties["words"] and casualties["sources"]
    page = d.page("report")
    for words in (
        "<strong>Bound 1.</strong>",
        '<th scope="col">Platoons lost</th>',
        "<td>2 of 5</td>",
        "Defender: bases 2",
    ):
        assert words in page, words
