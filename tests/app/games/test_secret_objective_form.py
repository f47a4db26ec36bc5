"""The referee's form giving a side a secret objective on the board (issue 69, app.pages.secret_objective_form):
the same service call as the API (tests/app/games/test_secret_objectives.py proves the sealing, scoring and
revealing), drawn for the referee alone, its refusals one sentence in the fragment htmx swaps (a 4xx to a plain
post). That the other side reads nothing of it is the secrets walk's (tests/app/hostile/test_secrets_walk.py)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.guard.auth import COOKIE_NAME
from tests import csrf
from tests.app.games.conftest import Game, new_game, start_game
from tests.app.games.test_play_to_a_result import score
from tests.app.hostile.test_secrets import token_of

HTMX = {"HX-Request": "true", "Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
PLAIN = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
HILL = {"side": "defender", "name": "Hill of the Sealed Orders", "vp": "3", "scored": "first_taken",
        "x_cm": "61.5", "y_cm": "88.5"}  # fmt: skip


def as_seat(client: TestClient, who: dict[str, str]) -> None:
    client.cookies.set(COOKIE_NAME, token_of(who))


def post(client: TestClient, g: Game, fields: dict[str, str], headers: dict[str, str] = HTMX) -> str:
    r = client.post(
        f"/games/{g.id}/referee/secret-objectives", data=csrf.form(client, fields), headers=headers
    )
    return f"{r.status_code} {r.text}"


def test_the_referee_gives_a_secret_objective_from_the_board_and_a_seat_cannot(client: TestClient) -> None:
    g = new_game(client)
    as_seat(client, g.defender)
    assert 'id="secret-objective"' not in client.get(f"/games/{g.id}/referee").text
    assert post(client, g, HILL).startswith("403")
    as_seat(client, g.referee)
    assert 'id="secret-objective"' in client.get(f"/games/{g.id}/referee").text
    given = post(client, g, HILL)
    assert given.startswith("200") and "Given: Hill of the Sealed Orders, 3 VP, to the defender." in given
    assert "<strong>Hill of the Sealed Orders</strong>, 3 VP, the first time it is taken" in given
    mine = [(o["name"], o["secret_to"]) for o in score(client, g, g.defender)["objectives"] if o["secret_to"]]
    assert mine == [("Hill of the Sealed Orders", "defender")]
    # The points field is drawn blank with its 1 as a placeholder (a prefilled "1" and a typed "3" gave 13 VP),
    # and left blank it gives that 1.
    assert 'placeholder="1" value=""' in client.get(f"/games/{g.id}/referee").text
    blank = post(client, g, {**HILL, "name": "Crossroads", "vp": ""})
    assert "Given: Crossroads, 1 VP, to the defender." in blank and 'placeholder="1" value=""' in blank


def test_the_forms_refusals_are_one_sentence_naming_the_field(client: TestClient) -> None:
    g = new_game(client)
    as_seat(client, g.referee)
    refusals = {
        "VP: Input should be less than or equal to 100": {**HILL, "vp": "101"},
        # Read by pydantic's lax int as 30 (as int() reads it: the hostile pass of session 17), and "٣" as 3.
        "VP: give a whole number in plain digits, such as 3": {**HILL, "vp": "3_0"},
        "VP: give a whole number in plain digits": {**HILL, "vp": "\u0663"},
        "Turns:": {**HILL, "scored": "held_turns"},  # held for turns: how many is the format's to ask
        "Side: Input should be &#39;attacker&#39;": {**HILL, "side": "referee"},
    }
    for sentence, fields in refusals.items():
        said = post(client, g, fields)
        assert said.startswith("200") and f'role="alert">{sentence}' in said, said
        assert 'value="Hill of the Sealed Orders"' in said and 'value="61.5"' in said  # nothing typed lost
    outside = post(client, g, {**HILL, "x_cm": "500"}, PLAIN)  # a plain post: a 4xx, the whole board
    assert outside.startswith("422") and 'id="board"' in outside
    assert 'role="alert">Geometry: reaches off the table' in outside
    assert not [o for o in score(client, g, g.defender)["objectives"] if o["secret_to"]]  # nothing given
    start_game(client, g)
    started = post(client, g, HILL, PLAIN)
    assert (
        started.startswith("409") and "the game has started: secret objectives are given at set-up" in started
    )
    assert 'id="secret-objective"' not in client.get(f"/games/{g.id}/referee").text
    vimy = new_game(client, {"name": "Vimy", "ruleset": "vimy-ridge"})
    as_seat(client, vimy.referee)
    assert "keep their own score" in post(client, vimy, HILL)


def test_a_name_past_its_bound_is_refused_naming_it_and_kept(client: TestClient) -> None:
    """The form is its model (issue 90): a name past its bound is refused naming the field, in the fragment, with
    the name as typed kept whole (the form shown again cut it to its bound)."""
    g = new_game(client)
    as_seat(client, g.referee)
    long = "Hill " * 60
    said = post(client, g, {**HILL, "name": long})
    assert said.startswith("200") and "name" in said.split('role="alert">')[1][:60].lower()
    assert f'value="{long}"' in said and 'value="61.5"' in said
    plain = post(client, g, {**HILL, "name": long}, PLAIN)
    assert plain.startswith("422") and 'id="board"' in plain
    assert not [o for o in score(client, g, g.defender)["objectives"] if o["secret_to"]]  # nothing given
