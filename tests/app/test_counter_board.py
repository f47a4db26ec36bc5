"""A game without a table (issue 56), proved generic by a toy rule set defined here and nowhere else: its kit
names a board of counters (`rules.core.kit.CounterBoard`: a counter's place in its "hex" field, grouped under
its division, two printed values), a track of two turns (`GameRules.counter_notes`), its counters one roll
of their own at an enemy counter (joined by more of their side's) and one at them (`StandAct.on_enemy`),
offered though refused until the players make the call its option is (`StandAct.options`).
Played through the API as a club would: the page of counters in place of the map (the lobby's link, the
seat's home), what it reads (`GET .../counters`), a counter's card offering exactly what the pipeline would
accept (a move by naming its new place, the rolls), a joined roll, and the referee board and report."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from rules.core.acts import Act, Roll
from rules.core.errors import Refusal
from rules.core.game import Book, GameRules
from rules.core.kit import CounterBoard, CounterNotes, TableKit, TrackTurn
from rules.core.records import (
    Change,
    Filled,
    FillRequest,
    SetState,
    Snapshot,
    StandAct,
    StandEdit,
    StateField,
)
from rules.core.resolution import Evaluation
from rules.core.rolls import Outcome
from rules.core.ruleset import Context, Resolver, ResolveRequest, RuleSet
from rules.core.turn import Step
from rules.registry import registered
from tests import csrf
from tests.app.games.conftest import new_game, start_game

SOURCE = "Toy counters: COMBAT"
TURN = "Toy counters: THE TURN"
ATTACK, SHELL = "toy-attack", "toy-shell"


class ToyGame(GameRules):
    """One step, the fight; a counter's card: an attack others of its side may join, and shelling at it, offered
    though refused until the players say it is aimed (its option)."""

    book = Book(
        ruleset_id="toy-counters",
        # "hex" is the place (a word a player sets by hand); the printed value a count.
        state_fields=(
            StateField("hex", "Hex", "", edit="word"),
            StateField("strength", "Strength", 0),
            StateField("shaken", "Shaken", False, badge="SHAKEN"),
        ),
        turn_source=TURN,
        turn_word="game turn",
        kit=TableKit(counters=CounterBoard("hex", "hex", "division", ("strength",))),
    )

    def counter_notes(self, snapshot: Snapshot) -> CounterNotes:
        return CounterNotes(
            track=(
                TrackTurn(1, "Dawn", "Shelling doubled (T.1)"),
                TrackTurn(2, "Dusk", "No attack (T.2)", dark=True),
            ),
            places={"0101": "the crossroads (T.3)"},
        )

    def steps(self, period: str | None) -> tuple[Step, ...]:
        return (Step("fight", 1, "1", "Fight", TURN, "the side fights", resolvers=(ATTACK, SHELL)),)

    def forbidden(self, snapshot: Snapshot, act: Act) -> tuple[Refusal, ...]:
        # Shelling is the players' call that it is aimed (an option the card offers).
        if isinstance(act, Roll) and act.resolver == SHELL and act.fields.get("aimed") is not True:
            return (
                Refusal("Say the shelling is aimed (T.4).", "only aimed shelling falls", "Toy counters: T.4"),
            )
        return ()

    def stand_card(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct | StandEdit, ...]:
        u = snapshot.unit(unit_id)
        if u.level != "counter" or u.killed:
            return ()
        return (
            StandAct("Attack", ATTACK, u.id, target=True, joined="attackers"),
            StandAct("Shell", SHELL, u.id, on_enemy=True, options=("aimed",)),
        )

    def fill(self, resolver_id: str, snapshot: Snapshot, request: FillRequest) -> tuple[Filled, ...]:
        if resolver_id != ATTACK or "attackers" not in request.given:
            return ()
        units = [snapshot.unit(i, "attackers") for i in request.given["attackers"]]
        return (
            Filled(
                "total", sum(u.state.get("strength", 0) for u in units), "the attackers' strengths", SOURCE
            ),
        )

    def _consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        if outcome.target_id is None or outcome.resolution["outcome_key"] != "win":
            return ()
        return (SetState("shaken", SOURCE, outcome.target_id, "shaken", True),)


class AttackRequest(ResolveRequest):
    attackers: list[int] = []
    total: int = 0


class ToyRuleSet(RuleSet):
    id = "toy-counters"
    name = "Toy counters (test)"
    source = SOURCE
    game = ToyGame()


@ToyRuleSet.resolver
class Attack(Resolver[AttackRequest]):
    id = ATTACK
    summary = "An attack wins on the die at or under the attackers' total"
    Request = AttackRequest

    def evaluate(self, req: AttackRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        key = "win" if dice[0] <= req.total else "lose"
        return Evaluation(key, key, total=req.total, sources=(SOURCE,))


class ShellRequest(ResolveRequest):
    aimed: bool = False


@ToyRuleSet.resolver
class Shell(Resolver[ShellRequest]):
    id = SHELL
    summary = "Shelling shakes on a 6"
    Request = ShellRequest

    def evaluate(self, req: ShellRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        return Evaluation(
            "win" if dice[0] == 6 else "lose", "shaken" if dice[0] == 6 else "missed", sources=(SOURCE,)
        )


@pytest.fixture
def toy() -> Iterator[None]:
    with registered(ToyRuleSet):
        yield


def test_a_game_without_a_table_plays_from_its_page_of_counters(toy: None, sqlite_client: TestClient) -> None:
    http = sqlite_client
    g = new_game(http, {"name": "Toy counters", "ruleset": ToyRuleSet.id})
    api = f"/api/v1/games/{g.id}"

    def add(side: str, name: str, level: str, parent: int | None = None, where: str = "") -> int:
        body = {"side": side, "name": name, "level": level, "parent_id": parent}
        made = http.post(f"{api}/units", headers=g.referee, json=body)
        assert made.status_code == 201, made.text
        uid = int(made.json()["unit"]["id"])
        if where:
            put = http.put(f"{api}/units/{uid}", headers=g.referee, json={"version": 1, "hex": where})
            assert put.status_code == 200, put.text
        return uid

    first = add("attacker", "1st Division", "division")
    a, b = add("attacker", "A", "counter", first, "0101"), add("attacker", "B", "counter", first, "0102")
    enemy = add("defender", "Z", "counter", None, "0201")

    # What the page reads: the place field and word, the groups, the printed values, the track, the places.
    board = http.get(f"{api}/counters", headers=g.attacker).json()
    assert board["place_field"] == "hex" and board["group_level"] == "division"
    assert board["track"][1] == {"number": 2, "label": "Dusk", "note": "No attack (T.2)", "dark": True}
    assert board["places"] == {"0101": "the crossroads (T.3)"}

    # A game on a table has no board of counters (its map is its page).
    mons = new_game(http)
    assert http.get(f"/api/v1/games/{mons.id}/counters", headers=mons.attacker).status_code == 404
    assert http.get(f"/games/{mons.id}/counters", follow_redirects=False).headers["location"] == (
        f"/games/{mons.id}/map"
    )

    # The game's links: its map is its page of counters, a side's seat opens on it.
    assert (
        http.get(f"/games/{g.id}/map", follow_redirects=False).headers["location"]
        == f"/games/{g.id}/counters"
    )
    seated = http.post("/join", data=csrf.form(http, {"code": g.codes["attacker"]}), follow_redirects=False)
    assert seated.headers["location"] == f"/games/{g.id}/counters"
    page = http.get(f"/games/{g.id}/counters")
    assert page.status_code == 200 and "Dusk" in page.text and 'data-group-by="group"' in page.text
    http.cookies.clear()

    start_game(http, g)
    # A counter's card: its own rolls, a move by naming its place; the enemy's: the roll at it.
    own = http.get(f"{api}/units/{a}/acts", headers=g.attacker).json()
    assert [(x["label"], x["joined"]) for x in own["acts"]] == [("Attack", "attackers")]
    assert {
        "kind": "place",
        "key": "hex",
        "label": "Move to another hex",
        "unit_id": a,
        "refused": None,
        "values": {},
    } in own["offers"]
    # The roll at it is offered though refused as it stands: its option (the players' call) lifts the refusal.
    at_enemy = http.get(f"{api}/units/{enemy}/acts", headers=g.attacker).json()
    assert [(x["label"], x["on_enemy"], x["options"]) for x in at_enemy["acts"]] == [
        ("Shell", True, ["aimed"])
    ]
    # The defender may not shell its own counter, nor move it out of its turn.
    assert http.get(f"{api}/units/{enemy}/acts", headers=g.defender).json()["acts"] == []

    # A counter moved by naming its new place.
    moved = http.put(f"{api}/units/{b}", headers=g.attacker, json={"version": 2, "hex": "0103"})
    assert moved.status_code == 200 and moved.json()["unit"]["hex"] == "0103", moved.text

    # An attack joined by B: the table fills in both attackers' strengths.
    attack = {"unit_id": a, "target_id": enemy, "fields": {"attackers": [a, b]}, "dice": [1]}
    asked = http.post(f"{api}/ask/{ATTACK}", headers=g.attacker, json=attack).json()
    assert [(f["field"], f["value"]) for f in asked["filled"]] == [("total", 0)]
    rolled = http.post(f"{api}/resolve/{ATTACK}", headers=g.attacker, json=attack)
    assert rolled.status_code == 200, rolled.text

    # A roll at the enemy counter, rolled by the attacker's side.
    unaimed = http.post(f"{api}/resolve/{SHELL}", headers=g.attacker, json={"target_id": enemy, "dice": [6]})
    assert unaimed.status_code == 409 and "aimed" in unaimed.json()["detail"], unaimed.text
    aimed = {"target_id": enemy, "dice": [6], "fields": {"aimed": True}}
    shelled = http.post(f"{api}/resolve/{SHELL}", headers=g.attacker, json=aimed)
    assert shelled.status_code == 200, shelled.text
    assert {"unit": enemy, "field": "shaken", "before": False, "after": True} in shelled.json()["changes"]

    # The referee board and the report read a game of counters (no stand has a place on a table).
    http.post("/join", data=csrf.form(http, {"code": g.body["referee_token"]}), follow_redirects=False)
    assert http.get(f"/games/{g.id}/referee").status_code == 200
    report = http.get(f"/games/{g.id}/report")
    assert report.status_code == 200 and "Toy shell" in report.text
    http.cookies.clear()
