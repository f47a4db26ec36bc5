"""The seal's check as the page says it (app/pages/plan_verify.py, issue 67): a fire plan's or a side's secret
objectives' verdict, the same as the JSON verify routes' (a match, no match, and each refusal to the same seats),
in one sentence swapped into the Check button's [data-verify-result]; the template's context is the function's.
The button's tap and swap are the browser's (tests/frontend/test_fire_plan.py)."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from jinja2 import StrictUndefined, meta
from sqlmodel import Session, select

from app.data.models import FirePlanItem
from app.data.schemas_answers import PlanCheckedOut, PlanVerifiedOut
from app.pages.plan_verify import Verdict, plan_words
from app.pages.templates import templates
from tests.app.games.conftest import Game, new_game, start_game
from tests.app.games.test_secret_objectives import HILL
from tests.app.test_score_panel import seated, words

HTMX = {"HX-Request": "true"}
HILL_NAME = "Hill of the Sealed Orders"  # HILL's, given to the attacker


def check(http: TestClient, g: Game, seat: dict[str, str], url: str) -> tuple[int, str]:
    """The verdict `seat` is shown (htmx's request), in words."""
    seated(http, g, seat)
    r = http.get(url, headers=HTMX)
    return r.status_code, words(r.text).strip()


def test_a_fire_plan_s_check_says_the_verify_route_s_verdict_to_the_seats_it_answers(
    client: TestClient,
) -> None:
    c = client
    g = new_game(c)
    api, page = f"/api/v1/games/{g.id}/fireplans", f"/games/{g.id}/fire-plan"
    item = {"arrival_turn": 1, "item": {"kind": "aiming-point", "grid": [60, 168], "battery": "Battery 0"}}
    assert c.post(f"{api}/defender/items", headers=g.defender, json=item).status_code == 201
    assert c.post(f"{api}/defender/lock", headers=g.defender).status_code == 200
    assert check(c, g, g.attacker, f"{page}/attacker/verify") == (
        200,
        "Not yet: the plan is checked once it is locked.",
    )
    answer = c.get(f"{api}/defender/verify", headers=g.defender).json()
    match = (
        f"Match: the 1 item revealed gives exactly the commitment published at locking "
        f"({answer['recomputed'][:12]}…). The plan was not changed."
    )
    assert answer["verified"]
    for seat in (g.defender, g.referee):
        assert check(c, g, seat, f"{page}/defender/verify") == (200, match)
    # The other side mid-game: the API's 403, in the page's sentence, to be swapped (htmx swaps a 2xx only).
    assert c.get(f"{api}/defender/verify", headers=g.attacker).status_code == 403
    not_yet = (200, "Not yet: the other side's plan can be checked once the game is over.")
    assert check(c, g, g.attacker, f"{page}/defender/verify") == not_yet
    assert c.get(f"{page}/defender/verify").status_code == 403  # asked by no htmx: the API's status
    for bad in (f"{page}/nobody/verify", "/games/0/fire-plan/defender/verify"):
        assert c.get(bad, headers=HTMX).status_code == 422
    c.cookies.clear()
    assert (
        c.get(f"{page}/defender/verify", headers=HTMX).status_code
        == 401
        == c.get(f"{api}/defender/verify").status_code
    )

    version = c.get(f"/api/v1/games/{g.id}/turn", headers=g.referee).json()["version"]
    assert (
        c.post(f"/api/v1/games/{g.id}/finish", headers=g.referee, json={"version": version}).status_code
        == 200
    )
    assert check(c, g, g.attacker, f"{page}/defender/verify") == (200, match)  # everyone's, once it is over
    with Session(c.app.state.engine) as s:  # type: ignore[attr-defined]
        row = s.exec(select(FirePlanItem).where(FirePlanItem.game_id == g.id)).one()
        row.data = {**row.data, "battery": "Battery 9"}
        s.add(row)
        s.commit()
    answer = c.get(f"{api}/defender/verify", headers=g.attacker).json()
    assert not answer["verified"]
    assert check(c, g, g.attacker, f"{page}/defender/verify") == (
        200,
        f"No match: the plan revealed gives {answer['recomputed'][:12]}…, not the commitment published "
        f"({answer['commitment'][:12]}…). Tell the referee.",
    )


def test_secret_objectives_check_refuses_alike_whether_the_side_holds_some_or_none(
    client: TestClient,
) -> None:
    c = client
    g = new_game(c)
    give = {"side": "attacker", "objective": HILL}
    assert c.post(f"/api/v1/games/{g.id}/objectives/secret", headers=g.referee, json=give).status_code == 201
    start_game(c, g)
    api, page = f"/api/v1/games/{g.id}/objectives", f"/games/{g.id}/objectives"
    answer = c.get(f"{api}/attacker/verify", headers=g.attacker).json()
    assert answer["verified"]
    assert check(c, g, g.attacker, f"{page}/attacker/verify") == (
        200,
        f"Match: the 1 item revealed gives exactly the commitment published as the game started "
        f"({answer['recomputed'][:12]}…). The secret objectives were not changed.",
    )
    # Nothing revealed yet: the API's 409 to the other side, one sentence whether the side holds one or none.
    for seat, side in ((g.defender, "attacker"), (g.attacker, "defender")):
        assert c.get(f"{api}/{side}/verify", headers=seat).status_code == 409
        seated(c, g, seat)
        r = c.get(f"{page}/{side}/verify", headers=HTMX)
        said = f"Not yet: the {side}'s secret objectives can be checked once one scores, or at the end."
        assert (r.status_code, words(r.text).strip()) == (200, said) and HILL_NAME not in r.text
    assert c.get(f"{page}/defender/verify").status_code == 409  # asked by no htmx: the API's status


def test_a_plan_sealed_each_turn_is_said_match_only_when_every_turn_matches() -> None:
    """2mm Earth 1418's verify answer (`turns`, one per bound sealed; its full game: test_earth2mm_plans.py)."""

    def sealed(turn: int, recomputed: str) -> PlanCheckedOut:
        return PlanCheckedOut(
            turn=turn, locked=True, commitment="c" * 64, recomputed=recomputed, verified=recomputed == "c" * 64,
            capacity=64, padding_salt="s", items=[], how_to_check="",
        )  # fmt: skip

    def said(*turns: PlanCheckedOut) -> Verdict:
        return plan_words(
            PlanVerifiedOut(side="attacker", verified=False, capacity=64, how_to_check="", turns=[*turns])
        )

    assert said(sealed(1, "c" * 64), sealed(2, "c" * 64)) == Verdict(
        "Match: with no item (none was sealed) the seal gives exactly the commitment published at each of its 2 "
        "lockings. The plan was not changed.",
        good=True,
    )
    assert said(sealed(1, "c" * 64), sealed(2, "d" * 64)).said == (
        f"No match: the plan revealed gives {'d' * 12}…, not the commitment published ({'c' * 12}…). Tell the referee."
    )
    assert said().said == "Not yet: the plan is checked once it is locked."


def test_the_template_s_context_is_the_verdict_s() -> None:
    env = templates.env
    source = env.loader.get_source(env, "_plan_verified.html")[0]  # type: ignore[union-attr]
    verdict = Verdict("Match: it is the one published.", good=True)
    read = meta.find_undeclared_variables(env.parse(source)) - set(env.globals)
    assert read == set(verdict.context()), read
    said = re.search(r"Required context: (.*?)\. The answer", source, re.S)
    assert said is not None and all(n in said.group(1) for n in ("verdict", "said", "good"))
    shown = env.overlay(undefined=StrictUndefined).from_string(source).render(**verdict.context())
    assert 'class="good"' in shown and "Match: it is the one published." in shown
