"""Adding a rule set, as docs/architecture.md's "Adding a rule set" says, proved by a toy one defined here and
nowhere else: two steps (move, then shoot), a move, a d6 shot that scores a hit on 4+, its state field, its
turn, its table kit, its playsheet and its scenario. Registered for the test's time, it is played through the API
as a club would: made from the lobby from its scenario, an act, a refusal out of turn, an undo, the referee board
and the map's state; its sheet linked from the Print menus (the game's and the lookup's) and printed with the
scenario's objectives (the game's print view, and a PDF where the engine is), and the scenario's own sheet: no
file of the app or the playsheets names it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from app.core.pdf_engine import pdf_engine_problem
from playsheets.render import ruleset_sheet_pdf
from rules.core.game import Book, GameRules
from rules.core.kit import BoardKey, TableKit
from rules.core.records import AddToState, Change, SetState, Snapshot, StandAct, StandEdit, StateField
from rules.core.resolution import Evaluation
from rules.core.rolls import Outcome
from rules.core.ruleset import Context, Resolver, ResolveRequest, RuleSet
from rules.core.sheet import Playsheet, SheetSection, Table
from rules.core.turn import Step
from rules.registry import registered
from rules.table.bases import BaseSpec
from tests import csrf
from tests.app.games.conftest import new_game, start_game
from tests.playsheets import pdf

# 1. The rule set's own words and rules, each with the printed line it comes from.
SOURCE = "Toy rules: FIRE"
TURN_SOURCE = "Toy rules: THE TURN"
SHOT = "shot"


# 2. Its book: the state its stands carry (hits, a counter the board filters by), its turn's source and the
# acts only the side whose step it is may do, its table kit (the one base its stands stand on, and a game-wide
# value the turn panel shows) and its scenario, a document as docs/scenario-format.md writes one (a rule set of
# firestep's own reads it from a file in its package: rules/earth2mm/play/setup.py).
def stand(sid: str, name: str, y: float) -> dict[str, object]:
    placement = {"center": [50, y], "facing_deg": 90 if y < 60 else 270}
    return {
        "id": sid,
        "name": name,
        "level": "stand",
        "kind": "stand",
        "base": "toy-stand",
        "placement": placement,
    }


SCENARIO = {
    "format": "firestep-scenario/1",
    "id": "toy-test-hill",
    "title": "The hill",
    "ruleset": "toy-test",
    "period": None,
    "source": TURN_SOURCE,
    "table": {"width_cm": 100, "length_cm": 120},
    "turns": 3,
    "objectives": "The attacker takes the hill; the defender holds it.",
    "sides": {
        "attacker": {"nationality": "red", "forces": [stand("red/1", "Rifles", 20)]},
        "defender": {"nationality": "blue", "forces": [stand("blue/1", "Jaeger", 100)]},
    },
}
BOOK = Book(
    ruleset_id="toy-test",
    state_fields=(StateField("hits", "Hits", 0, counter=True, maximum=2, filter="Hit"),),
    turn_source=TURN_SOURCE,
    ordered_acts=frozenset({"move-stands"}),
    kit=TableKit(
        bases={"toy-stand": BaseSpec("toy-stand", "rect", 4.0, 2.0, SOURCE)},
        board_keys=(BoardKey("visibility_cm", "Visibility", 60, int, value=True, badge="Visibility {} cm"),),
    ),
    scenarios={SCENARIO["id"]: SCENARIO},
)
STEPS = (
    Step("move", 1, "1", "Move", TURN_SOURCE, "the side moves its stands"),
    Step("shoot", 2, "2", "Shoot", TURN_SOURCE, "the side shoots", resolvers=(SHOT,)),
)


# 3. Its game: the sides alternate (the hook's default), each side's turn two steps; every stand may shoot, a
# hit adding one to the target's hits, the second destroying it. Its playsheet: what the hook prints from its
# book (its base and state, its steps, its lookup's summary), and its own section, the shot's table as printed.
class ToyGame(GameRules):
    book = BOOK

    def steps(self, period: str | None) -> tuple[Step, ...]:
        return STEPS

    def playsheet(self, period: str | None) -> Playsheet:
        shot = Table(["d6", "Result"], [["1-3", "Miss"], ["4-6", "Hit: one more hit; the second destroys"]])
        fire = SheetSection("fire", "Fire", (shot,), (SOURCE,), page=1)
        book = super().playsheet(period)
        return replace(book, sections=(*book.sections, fire))

    def stand_card(self, snapshot: Snapshot, unit_id: int) -> tuple[StandAct | StandEdit, ...]:
        unit = snapshot.unit(unit_id)
        return (
            () if unit.killed else (StandAct("Shoot", SHOT, unit_id, f"{unit.name} may shoot", target=True),)
        )

    def _consequences(self, resolver_id: str, snapshot: Snapshot, outcome: Outcome) -> tuple[Change, ...]:
        if resolver_id != SHOT or outcome.target_id is None or outcome.resolution["outcome_key"] != "hit":
            return ()
        target = snapshot.unit(outcome.target_id, "target_id")
        hit: tuple[Change, ...] = (AddToState(f"a hit on {target.name}", SOURCE, target.id, "hits", 1),)
        if target.state.get("hits", 0) + 1 >= 2:
            hit += (SetState(f"{target.name} is destroyed", SOURCE, target.id, "killed", True),)
        return hit


# 4. The rule set: its lookups (a resolver) and its game rules.
class Toy(RuleSet):
    id = "toy-test"
    name = "Toy (test)"
    source = SOURCE
    game = ToyGame()


@Toy.resolver
class Shot(Resolver[ResolveRequest]):
    id = SHOT
    summary = "A shot hits on 4+ (one d6)"
    Request = ResolveRequest

    def evaluate(self, req: ResolveRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        key = "hit" if dice[0] >= 4 else "miss"
        return Evaluation(key, key, total=dice[0], sources=(SOURCE,))


@pytest.fixture
def toy() -> Iterator[None]:
    # 5. Registered: here for the test's time; a rule set of firestep's own in rules/registry.py.
    with registered(Toy):
        yield


def test_a_toy_rule_set_defined_in_the_test_plays_through_the_api(
    toy: None, sqlite_client: TestClient
) -> None:
    http = sqlite_client
    # Made from the lobby: it offers the rule set and its scenario, and a game is made from the scenario, its
    # stands where the document places them, with the rule set's state at its default.
    lobby = http.get("/").text
    assert (
        f'name="ruleset" value="{Toy.id}"' in lobby and f'name="scenario" value="{SCENARIO["id"]}"' in lobby
    )
    g = new_game(http, {"name": "Toy", "scenario": SCENARIO["id"]})
    api = f"/api/v1/games/{g.id}"
    game = http.get(api).json()
    assert (game["ruleset"], game["scenario"]) == (Toy.id, SCENARIO["id"])
    placed = {u["name"]: u for u in http.get(f"{api}/units", headers=g.referee).json()}
    assert {n: (u["side"], u["y"], u["hits"]) for n, u in placed.items()} == {
        "Rifles": ("attacker", 20, 0),
        "Jaeger": ("defender", 100, 0),
    }
    rifles, jaeger = placed["Rifles"]["id"], placed["Jaeger"]["id"]
    turn = start_game(http, g)
    assert (turn["turn"], turn["side_to_move"], turn["step"]["id"]) == (1, "attacker", "move")

    # An act: the attacker moves its stand in its move step.
    moved = http.post(
        f"{api}/units/{rifles}/move", headers=g.attacker, json={"x": 50, "y": 40, "facing_deg": 90}
    )
    assert moved.status_code == 200, moved.text

    # A refusal out of turn: the defender's stand waits for the defender's step, the rule beside it.
    waits = http.post(
        f"{api}/units/{jaeger}/move", headers=g.defender, json={"x": 50, "y": 90, "facing_deg": 270}
    )
    assert waits.status_code == 409, waits.text
    assert "only the attacker may move stands" in waits.json()["detail"]  # the hook's default sentence
    assert TURN_SOURCE in waits.json()["why"]

    # The shoot step: the stand's card offers the rule set's shot, and a 5 hits.
    version = http.get(f"{api}/turn", headers=g.referee).json()["version"]
    shoot = http.post(f"{api}/turn/advance", headers=g.attacker, json={"version": version}).json()["turn"]
    assert shoot["step"]["id"] == "shoot" and shoot["resolvers"] == [SHOT]
    offered = http.get(f"{api}/units/{rifles}/acts", headers=g.attacker).json()["acts"]
    assert [(a["label"], a["resolver"], a["unit_id"]) for a in offered] == [("Shoot", SHOT, rifles)]
    shot = {"fields": {}, "dice": [5], "unit_id": rifles, "target_id": jaeger}
    rolled = http.post(f"{api}/resolve/{SHOT}", headers=g.attacker, json=shot)
    assert rolled.status_code == 200, rolled.text
    assert {"unit": jaeger, "field": "hits", "delta": 1, "after": 1} in rolled.json()["changes"]

    # The board: the referee's screen filters by the rule set's field and shows its hits.
    signed_in = http.post(
        "/join", data=csrf.form(http, {"code": g.body["referee_token"]}), follow_redirects=False
    )
    assert signed_in.status_code == 303, signed_in.text
    board = http.get(f"/games/{g.id}/referee")
    assert board.status_code == 200, board.text
    assert ">Hit<" in board.text and "Jaeger" in board.text
    # Its Print menu's playsheet of this game: the PDF, or the print view without the engine.
    assert re.search(rf'href="/playsheets/games/{g.id}(\.pdf|\?paper=a4)"', board.text), "the game's sheet"
    http.cookies.clear()

    # An undo: the referee takes the shot back.
    undone = http.post(f"{api}/events/{rolled.json()['event_id']}/undo", headers=g.referee)
    assert undone.status_code == 200, undone.text
    units = {u["id"]: u for u in http.get(f"{api}/units", headers=g.defender).json()}
    assert units[jaeger]["hits"] == 0 and units[rifles]["y"] == 40

    # The map's state: the step, and the kit's game-wide value at its default; the board draws nothing.
    state = http.get(f"{api}/state", headers=g.attacker).json()
    assert (state["turn"], state["side_to_move"], state["step"]) == (1, "attacker", 1)
    assert state["visibility_cm"] == 60 and state["board_drawn"] == []

    # Its own sheet in the lookup's Print menu, as a rule set of firestep's own is.
    lookup = http.get("/lookup", params={"ruleset": Toy.id}).text
    assert re.search(rf'href="/playsheets/rulesets/{Toy.id}(\.pdf|\?paper=a4)"', lookup), "its own sheet"

    # Its playsheet, as the game's Print menu gives it: the print view, each section with its values and rule
    # (the scenario's objectives too).
    view = http.get(f"/playsheets/games/{g.id}", headers=g.referee)
    assert view.status_code == 200, view.text
    expected = {
        "Units": ["Toy stand", "4 × 2 cm (rect)", "Hits", "0 (at most 2)", SOURCE],
        "The turn": ["1. Move: the side moves its stands.", "2. Shoot: the side shoots.", TURN_SOURCE],
        "Lookups and tables": [f"Shot: {Shot.summary}"],
        "Fire": ["4-6", "Hit: one more hit; the second destroys", SOURCE],
        "Objectives": [f"{SCENARIO['title']}: {SCENARIO['objectives']}"],
    }
    for title, values in expected.items():
        section = view.text[view.text.index(f">{title}<") :]
        section = section[: section.index("</section>")]
        assert [v for v in values if v not in section] == [], title
    # Its scenario's own sheet, as the game's Print menu gives it, with the scenario's objectives.
    scenario_sheet = http.get(f"/api/v1/scenarios/{SCENARIO['id']}/sheet")
    assert scenario_sheet.status_code == 200, scenario_sheet.text
    assert SCENARIO["objectives"] in scenario_sheet.text and SCENARIO["title"] in scenario_sheet.text
    # And printed: the same words in the PDF where the engine is (the print view above otherwise).
    if pdf_engine_problem() is None:
        words = " ".join(pdf.text(ruleset_sheet_pdf(Toy.id), layout=False).split())
        assert [v for vs in expected.values() for v in vs if v not in words] == []
