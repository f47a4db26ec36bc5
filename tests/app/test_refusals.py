"""Issue 26: every refusal the API sends is one sentence of at most 120 characters that says what to do.

Found mechanically, not from a hand list:
- Every raise site in app/ and rules/ (an AST walk): the message of each `RulesError`, `Conflict`, `Forbidden`,
  `Unauthorized`, `TooManyRequests`, the `NotFoundError` sentence app/errors.py writes, and each refusal body
  the door-keepers build (`refusal`, `_refusal`). A message is a literal, an f-string (each placeholder counted
  at PLACEHOLDER characters), a sum or choice of those, a local name or a parameter of the enclosing function
  (followed to every assignment and every call of that function), an entry of a module's dict of literals, or
  the return of a function of the module. What none of these reaches is listed in DYNAMIC with why it is
  bounded; a new such site fails the test until it is listed. Every `ValueError` (a request model's validator
  answers it as "Fix <the field in words>: <message>.") is walked the same way.
- The rules of play's refusals, every status, period, step, act and side (they are built, not raised), of
  Flanders Fields and of 2mm Earth 1418.
- Issue 51: every refusal sentence says no id (a placeholder reading an id), no field name (snake_case) and no
  step id (steps by their printed names), and every refusal of the rules of play carries its rule's citation.
- The API itself: every JSON 4xx of every test client of tests/conftest.py (`make_client`) is checked there,
  and ErrorOut's `detail` carries the length and the one-sentence pattern, which the schemathesis suite
  checks on every documented 4xx it provokes.
"""

from __future__ import annotations

import ast
import functools
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.errors import MAX_DETAIL, ONE_SENTENCE, ErrorOut, is_one_sentence, sentence
from rules.flanders_fields.book import sequence as S
from rules.flanders_fields.book.common import PERIODS

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = 12  # the width a placeholder is counted at: an id, a side, a period, a number, a short name
# The message's argument position of each refusal (a keyword `message` wins).
MESSAGE_ARG = {
    "RulesError": 1,
    "ColumnRefused": 1,  # app/services/league_claims.py: the API's sentence (the page's is proved by its test)
    "_fail": 1,  # rules/core/scenario.py's RulesError
    "Conflict": 0,
    "RuleRefused": 0,
    "Forbidden": 0,
    "Absent": 0,
    "Unauthorized": 0,
    "TooManyRequests": 0,
    "Unavailable": 0,
    "refusal": 0,
    "_refusal": 1,
    "Refusal": 0,
}
# Messages the walk cannot read, each bounded another way: app/errors.py answers a message that is not one
# sentence of at most 120 characters with a fixed sentence for its status (the `why` keeps the message).
DYNAMIC = {
    ("app/guard/signed_out.py", "one_sentence(exc.message, HTTP_SENTENCES[401])"): "a raised Unauthorized's "
    "message, walked where it is raised, held to one sentence by one_sentence as app/errors.py's handlers do",
    ("app/core/pdf_engine.py", "problem"): "problem_sentence() for each system, held to one sentence by "
    "tests/app/test_pdf_engine.py",
    ("app/services/rehearsal.py", "reason"): "re-raises a rehearsal's RulesError, walked where it is raised",
    ("app/services/turns.py", "refused"): "a rule set's Refusal: test_rules_of_play_refusals walks them all",
    (
        "app/services/undo.py",
        "message",
    ): "undo.refusal's own literal sentences (the record's Undo offers read "
    "the same function), each a short sentence in that function",
    (
        "app/services/fireplans.py",
        "refused",
    ): "fireplans.lock_refusal's own literal sentences (the plan's page "
    "shows the same function's in place of its Lock), each a short sentence in that function",
    (
        "app/services/game_acts.py",
        "refused",
    ): "the game clock's Refusal (rules.core.clock.refusal), each held to "
    "120 characters by tests/rules/core/test_clock.py",
    (
        "app/services/result.py",
        "refused",
    ): "result.end_refusal's sentence, held to one sentence of at most 120 "
    "characters where it is built (a contested objective's name cut to 48)",
    (
        "rules/earth2mm/play/shots.py",
        "str(r)",
    ): "a shot's Refusal built in the same module, walked where built",
    (
        "app/services/markers.py",
        "c.gone or f\"{unit.name} has no {c.field.replace('_', ' ')} left\"",
    ): "a change's words (rules/flanders_fields/play/changes.py), else the f-string",
    (
        "app/routes/tournaments.py",
        "str(e)",
    ): "app.club.signing.DamagedKey's sentence (a damaged result-signing key), "
    "held to one sentence by tests/app/events/test_bundle_record.py",
    ("app/guard/idempotency.py", "e.message"): "a TooManyRequests passed on, walked where it is raised",
    (
        "app/pages/refused.py",
        "said",
    ): "a page's refusal rendered again by its one handler: a form's worded by "
    "app.errors.model_refusal, a wait by security.page_wait_message, a service's walked where it is raised",
    ("app/guard/limits.py", "do.format(short(label_of(loc), 40))"): "limits._UNSTORABLE's two sentences, a "
    "short one each with the field's label cut to 40 characters",
    ("app/pages/counters_parts.py", "str(detail or '')"): "the page of counters' copy of a refusal the act "
    "pipeline answered (an ErrorOut, each checked on every test client, or a card's refused act, walked by "
    "test_rules_of_play_refusals)",
    ("rules/core/rolls.py", "err['msg']"): "pydantic's message for a resolver field",
    (
        "app/pages/scenario_forces.py",
        "bytes(answer.body).decode()",
    ): "a refusal's sentence, walked where it is "
    "made, sent again as JSON for the outbox (the editor's layout)",
    (
        "app/pages/scenario_forces.py",
        "str(first['msg']).lower()",
    ): "pydantic's message for a field of a formation "
    "laid out in the editor, named by its list (a stand's place)",
    (
        "app/services/units_by_hand.py",
        "e.errors()[0]['msg']",
    ): "pydantic's message for a state field given with a unit",
    ("rules/vimy_ridge/play/game.py", "e.reason"): "a scenario counter's hex or strength refusal re-raised "
    "under its path, walked where it is raised (rules/vimy_ridge/play/setup.py)",
    (
        "rules/vimy_ridge/play/game.py",
        "str(refused[0])",
    ): "a set-up Refusal of rules/vimy_ridge/play/setup.py "
    "re-raised under the counter's path, walked where it is built",
    ("rules/firestorm/campaign.py", "err['msg']"): "pydantic's message for a campaign action",
    ("rules/firestorm/campaign.py", "str(e)"): "the adjacency loader's message",
    ("rules/flanders_fields/resolvers/shooting.py", "e.reason"): "the shot's own refusal of another stand it "
    "attacks, walked where it is raised",
}


def _sources() -> Iterator[tuple[str, ast.Module]]:
    for folder in ("app", "rules"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield str(path.relative_to(ROOT)), ast.parse(path.read_text(), str(path))


@functools.cache
def modules() -> dict[str, ast.Module]:
    """Every module of app/ and rules/ parsed, once per process and only in the worker that runs a test of them
    (at import, both workers parsed them while collecting: ~1.5 s each)."""
    return dict(_sources())


def _name(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


@functools.cache
def calls_by_name() -> dict[str, list[tuple[str, ast.Call]]]:
    """Every call of app/ and rules/ by the name it calls, in module and walk order: the trees walked once, not
    once per parameter a message is followed through (that was most of this module's ~20 s)."""
    out: dict[str, list[tuple[str, ast.Call]]] = {}
    for path, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and (name := _name(node)) is not None:
                out.setdefault(name, []).append((path, node))
    return out


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


@functools.cache
def parents(path: str) -> dict[ast.AST, ast.AST]:
    return _parents(modules()[path])


def _enclosing(path: str, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    while (node := parents(path).get(node)) is not None:  # type: ignore[assignment]
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            return node
    return None


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    for k in call.keywords:
        if k.arg == keyword:
            return k.value
    return call.args[position] if len(call.args) > position else None


def templates(path: str, node: ast.expr, depth: int = 0) -> list[str] | None:
    """Every message `node` can be, with placeholders as PLACEHOLDER characters; None when unreadable."""
    if depth > 4:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [
            "".join(v.value if isinstance(v, ast.Constant) else "x" * PLACEHOLDER for v in node.values)  # type: ignore[misc]
        ]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = templates(path, node.left, depth + 1), templates(path, node.right, depth + 1)
        return None if left is None or right is None else [a + b for a in left for b in right]
    if isinstance(node, ast.IfExp):
        a, b = templates(path, node.body, depth + 1), templates(path, node.orelse, depth + 1)
        return None if a is None or b is None else a + b
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        return _dict_values(path, node.value.id, depth)
    if isinstance(node, ast.Call) and (name := _name(node)) is not None:
        return _returns(path, name, depth)
    if isinstance(node, ast.Name):
        return _name_values(path, node, depth)
    return None


def _dict_values(path: str, name: str, depth: int) -> list[str] | None:
    for stmt in modules()[path].body:
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and isinstance(stmt.value, ast.Dict):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                found = [templates(path, v, depth + 1) for v in stmt.value.values if v is not None]
                return None if any(f is None for f in found) else [t for f in found for t in f or []]
    return None


def _returns(path: str, name: str, depth: int) -> list[str] | None:
    defs = [
        n for n in ast.walk(modules()[path]) if isinstance(n, ast.FunctionDef) and n.name == name and n.body
    ]
    found = [
        templates(path, r.value, depth + 1)
        for d in defs
        for r in ast.walk(d)
        if isinstance(r, ast.Return) and r.value is not None
    ]
    if not found or any(f is None for f in found):
        return None
    return [t for f in found for t in f or []]


def _module_constant(path: str, name: str, depth: int) -> list[str] | None:
    for stmt in modules()[path].body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in stmt.targets
        ):
            return templates(path, stmt.value, depth + 1)
        if (
            isinstance(stmt, ast.ImportFrom) and stmt.module
        ):  # a constant imported from another module of the app
            for alias in stmt.names:
                source = stmt.module.replace(".", "/") + ".py"
                if (alias.asname or alias.name) == name and source in modules():
                    return _module_constant(source, alias.name, depth + 1)
    return None


def _name_values(path: str, node: ast.Name, depth: int) -> list[str] | None:
    func = _enclosing(path, node)
    if func is None:
        return _module_constant(path, node.id, depth)
    assigned = [
        a.value
        for a in ast.walk(func)
        if isinstance(a, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.id for t in a.targets)
    ]
    if assigned:
        found = [templates(path, v, depth + 1) for v in assigned]
        return None if any(f is None for f in found) else [t for f in found for t in f or []]
    params = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
    if node.id not in params:
        return _module_constant(path, node.id, depth)
    position = params.index(node.id)
    calls = calls_by_name().get(func.name, [])
    out: list[str] = []
    for p, call in calls:
        arg = _argument(call, position - (1 if params[:1] == ["self"] else 0), node.id)
        got = templates(p, arg, depth + 1) if arg is not None else None
        if got is None:
            return None
        out += got
    return out or None


@functools.cache
def raise_sites() -> tuple[tuple[str, int, str, ast.expr], ...]:
    """Every (path, line, name, message) a refusal is raised with: found once, read by each test of them."""
    return tuple(_raise_sites())


def _raise_sites() -> Iterator[tuple[str, int, str, ast.expr]]:
    for path, tree in modules().items():
        if path == "app/errors.py":
            continue  # the handlers: each passes on a raised message, and refusal() itself falls back
        # `refusal` is app/errors.py's body builder only where it is imported from there (not the rules'
        # sequence refusal, walked by test_rules_of_play_refusals).
        builds = any(
            isinstance(n, ast.ImportFrom)
            and n.module == "app.errors"
            and any(a.name == "refusal" for a in n.names)
            for n in tree.body
        )
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and (name := _name(node)) in MESSAGE_ARG:
                if name == "refusal" and not builds:
                    continue
                arg = _argument(node, MESSAGE_ARG[name], "message")
                if arg is not None:
                    yield path, node.lineno, name, arg


@pytest.mark.long
def test_every_raise_site_is_one_short_sentence() -> None:
    checked, unread, bad = 0, set(), []
    for path, line, name, arg in raise_sites():
        found = templates(path, arg)
        if found is None:
            unread.add((path, ast.unparse(arg)))
            continue
        for text in found:
            checked += 1
            said = sentence(text)
            if not is_one_sentence(said):
                bad.append(f"{path}:{line} {name} [{len(said)}] {said}")
    assert bad == [], "\n".join(bad)
    assert unread == set(DYNAMIC), sorted(unread ^ set(DYNAMIC))
    assert checked > 300  # the walk reaches the sites (~320 today), not an empty tree


def test_not_found_sentences_fit() -> None:
    """NotFoundError's sentence is app/errors.py's, with the name cut to 24 characters: each `what` fits."""
    whats = set()
    for path, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node) == "NotFoundError":
                what = _argument(node, 0, "what")
                assert what is not None
                whats.update(templates(path, what) or [f"unread {path}:{node.lineno}"])
    assert len(whats) > 10
    for what in whats:
        said = sentence(f"There is no {what} '{'x' * 24}': check it and try again")
        assert is_one_sentence(said), said


def test_rules_of_play_refusals() -> None:
    """Every refusal of Flanders Fields' turn sequence, for every status, period, step, act and side."""
    classes = [S.ANY_UNIT, *((c,) for c in S.WHO)]
    seen = 0
    for status, period, action, side, unit_classes in itertools.product(
        ("setup", "playing", "finished", "ended"), PERIODS, S.DOING, ("attacker", "defender", None), classes
    ):
        for step in range(len(S.SEQUENCES[period].steps) + 1):
            refused = S.refusal(status, period, step, "attacker", S.Act(action, side, unit_classes))
            if refused is not None:
                seen += 1
                assert is_one_sentence(refused), refused
                assert refused.why.startswith(refused[:8]) or len(refused.why) >= len(refused)
    assert seen > 100


def test_error_out_schema_holds_the_rule() -> None:
    schema = ErrorOut.model_json_schema()["properties"]["detail"]
    assert schema["maxLength"] == MAX_DETAIL == 120 and schema["pattern"] == ONE_SENTENCE
    import re

    for text, ok in (
        ("Pick a cover of open, soft or hard.", True),
        ("Move 1.5 cm (13.1).", True),
        ("Reload. Then try again.", False),
        ("No full stop", False),
        ("Why?", True),
    ):
        assert bool(re.fullmatch(ONE_SENTENCE, text)) is ok is is_one_sentence(text), text


def _body(r: Any) -> dict[str, Any]:
    body = r.json()
    assert isinstance(body, dict) and is_one_sentence(body["detail"]) and body["why"], body
    return body


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status", "field", "allowed"),
    [
        # Not found with a long list of allowed values: the list is beside the sentence, not in it.
        ("get", "/playsheets/organisation/no-such", {}, 404, "organisation table", 10),
        (
            "get",
            "/api/v1/rulesets/flanders-fields/movement-table",
            {"params": {"period": "1914"}},
            422,
            "period",
            3,
        ),
        (
            "post",
            "/api/v1/rulesets/flanders-fields/movement",
            {"json": {"variants": {"x": "y"}}},
            422,
            None,
            0,
        ),
        ("get", "/api/v1/no-such-thing", {}, 404, None, 0),
        ("delete", "/api/v1/scenarios", {}, 405, None, 0),
        (
            "post",
            "/api/v1/games",
            {"content": b"{", "headers": {"content-type": "application/json"}},
            422,
            None,
            0,
        ),
    ],
)
def test_api_refusals_have_the_shape(
    reading_client: TestClient,
    method: str,
    path: str,
    kwargs: dict[str, Any],
    status: int,
    field: str | None,
    allowed: int,
) -> None:
    r = getattr(reading_client, method)(path, **kwargs)
    assert r.status_code == status, r.text
    body = _body(r)
    if field is not None:
        assert body["field"] == field, body
    if allowed:
        assert len(body["allowed"]) >= allowed, body
    if allowed > 5:
        assert sum(str(a) in body["detail"] for a in body["allowed"]) <= 1, body
    if status == 422:
        assert body["errors"] and all({"loc", "msg", "type"} <= set(e) for e in body["errors"]), body


def test_every_test_client_checks_the_refusals_it_gets() -> None:
    """tests/conftest.py's check is on: a refusal of two sentences fails whichever test gets it."""
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse

    bare = FastAPI()

    @bare.get("/")
    def two_sentences() -> JSONResponse:
        return JSONResponse({"detail": "Not now. Try later.", "why": "x"}, status_code=409)

    with pytest.raises(AssertionError, match="Not now"):
        TestClient(bare).get("/")


def test_value_errors_fit_as_field_refusals() -> None:
    """A ValueError raised in a request model's validator reaches the API as "Fix <the field>: <message>."
    (app/errors.py's validation_refusal): every ValueError message of app/ and rules/ fits so, the field at
    PLACEHOLDER characters."""
    checked, bad = 0, []
    for path, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node) == "ValueError" and node.args:
                for text in templates(path, node.args[0]) or [f"unread {path}:{node.lineno}"]:
                    checked += 1
                    said = sentence(f"Fix {'x' * PLACEHOLDER}: {text[:1].lower()}{text[1:]}")
                    if not is_one_sentence(said) or text.startswith("unread"):
                        bad.append(f"{path}:{node.lineno} {said}")
    assert bad == [], "\n".join(bad)
    assert checked > 30


def test_a_bad_field_names_its_allowed_values(reading_client: TestClient) -> None:
    """A request model's refusal carries what the field allows: a literal's values, a number's bounds."""
    r = reading_client.get("/playsheets/aiming-points", params={"paper": "x"})
    assert r.status_code == 422, r.text
    body = _body(r)
    assert (
        body["field"] == "paper"
        and "a4" in body["allowed"]
        and body["errors"][0]["allowed"] == body["allowed"]
    )


# Issue 51: a refusal's sentence names no id, no field and no step id; the rule is beside it.
SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")  # a field name: target_id, hits_to_allocate
STEP_ID = re.compile(r"\b(?:execute-[0-9]+|plan-[a-z-]+|high-commands|end-of-bound)\b")
AN_ID = re.compile(r"(?:^|[._])ids?$")  # a placeholder reading an id: unit.id, unit_id, done['event_id']
# Where the id a sentence names is the name the client sent (a rule set's, a resolver's, a scenario's) or the
# API's own request shape, not a unit or event of a game.
NAMES_SENT = {
    ("rules/table/requests.py", "s.id"): "a geometry lookup's own stand ids, echoed to its client",
    ("app/routes/playsheets.py", "game_id"): "the address's game, asked for a playsheet",
    ("app/services/scenarios.py", "scenario_id"): "a scenario's id is its name (mons-1914)",
    ("rules/core/rolls.py", "resolver_id"): "a resolver's id is its name (shoot)",
    ("rules/flanders_fields/book/special_rules.py", "rule_id"): "a special rule's id is its name",
    ("rules/flanders_fields/book/special_rules.py", "resolver_id"): "a resolver's id is its name",
    ("rules/flanders_fields/planning/scenarios.py", "scenario_id"): "a scenario's id is its name",
    ("rules/registry.py", "ruleset_id"): "a rule set's id is its name (flanders-fields)",
}
# The Refusals that are not a rule's: the game is over or not being played.
# Refusals of the game's state, not of a rule of the book: the game is over (every rule set), not started yet.
NO_RULE = {("rules/core/game.py", "said"), ("rules/flanders_fields/book/sequence.py", "said")}


def _placeholders(path: str, node: ast.expr, depth: int = 0) -> list[str]:
    """The expressions an f-string message reads, followed through the local names it is assigned from."""
    found = [ast.unparse(v.value) for v in ast.walk(node) if isinstance(v, ast.FormattedValue)]
    func = _enclosing(path, node)
    if isinstance(node, ast.Name) and func is not None and depth < 2:
        for a in ast.walk(func):
            if isinstance(a, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == node.id for t in a.targets
            ):
                found += _placeholders(path, a.value, depth + 1)
    return found


def test_no_refusal_names_an_id_a_field_or_a_step_id() -> None:
    bad = []
    for path, line, name, arg in raise_sites():
        for text in templates(path, arg) or []:
            for pattern in (SNAKE, STEP_ID):
                if (m := pattern.search(text)) is not None:
                    bad.append(f"{path}:{line} {name} names {m.group()!r}: {text}")
        for expr in _placeholders(path, arg):
            if AN_ID.search(expr.strip("[]'\"")) and (path, expr) not in NAMES_SENT:
                bad.append(f"{path}:{line} {name} reads an id, {expr}")
    assert bad == [], "\n".join(bad)


def test_every_refusal_of_the_rules_of_play_cites_its_rule() -> None:
    bare = []
    for path, tree in modules().items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node) == "Refusal":
                cited = len(node.args) >= 3 or any(k.arg == "source" for k in node.keywords)
                if not cited and (path, ast.unparse(node.args[0])) not in NO_RULE:
                    bare.append(f"{path}:{node.lineno} {ast.unparse(node)[:90]}")
    assert bare == [], "\n".join(bare)


def test_earth2mm_step_refusals() -> None:
    """Every refusal of 2mm Earth 1418's bound, in every step for every act: one sentence naming the steps by
    their printed names, the rule in full and its printed line beside it."""
    from rules.core.game import Position
    from rules.earth2mm.play.steps import PERMITTED, STEPS, step_refusal

    said = set()
    for i, action in itertools.product(range(len(STEPS)), PERMITTED):
        refused = step_refusal(Position(1, "attacker", i), action)
        if refused is not None:
            text = sentence(refused)
            said.add(text)
            assert is_one_sentence(text) and STEP_ID.search(text) is None, text
            assert refused.why and refused.source, refused
    assert len(said) > 100
    assert (
        "Not in executing step (6): shooting waits for executing steps (1)-(2), (4)-(5), (9) or melee."
        in said
    )


def test_a_name_with_an_ordinal_is_one_sentence() -> None:
    """ "1. Kompanie" and "I. Bataillon" are names (the demo battle's): their full stop ends no sentence."""
    for text, ok in (
        ("1. Kompanie planned to stay put: it stays put this bound.", True),
        ("A Company and 1. Kompanie fight in melee only if one assaulted the other.", True),
        ("I. Bataillon is out of reach (12. Regiment).", True),
        ("Roll a die. Then apply it.", False),
        ("Move 2 cm. Then stop.", False),
    ):
        assert bool(re.fullmatch(ONE_SENTENCE, text)) is ok is is_one_sentence(text), text


def test_a_rule_refused_is_never_a_stale_write() -> None:
    """A refusal of the rules of play (a 409 citing its rule) that is not one sentence falls back to the rules'
    sentence, never to "This changed meanwhile: reload and try again." (issue 51)."""
    from fastapi import FastAPI

    from app import errors, pages

    app = FastAPI()
    errors.install(app, page=pages.refusal_page)
    long = "A Company planned to do nothing: " + "it stays put " * 12

    @app.get("/rule")
    def rule() -> None:
        raise errors.Conflict(long, why="the rule in full", source="the printed line")

    @app.get("/stale")
    def stale() -> None:
        raise errors.Conflict(long)

    client = TestClient(app)
    assert client.get("/rule").json()["detail"] == errors.RULES_FALLBACK
    assert client.get("/stale").json()["detail"] == errors.HTTP_SENTENCES[409]


def test_flanders_fields_roll_refusals_name_no_step_id() -> None:
    """Every refusal of a roll in Flanders Fields' turn (each period, step, resolver, side and unit class): one
    sentence, its steps and its roll in the playsheet's words, never their ids ("battalion-orders")."""
    ids = {s.id for seq in S.SEQUENCES.values() for s in seq.steps if "-" in s.id}
    resolvers = {r for seq in S.SEQUENCES.values() for s in seq.steps for r in s.resolvers} | set(
        S.ROLL_PERMITS
    )
    seen = 0
    for period, resolver, side, classes in itertools.product(
        PERIODS, sorted(resolvers), ("attacker", "defender"), (None, *((c,) for c in S.WHO))
    ):
        for step in range(len(S.SEQUENCES[period].steps)):
            asked = S.RollAsked(resolver, side, classes)
            refused = S.roll_refusal("playing", period, step, "attacker", asked, "German")
            if refused is not None:
                seen += 1
                assert is_one_sentence(sentence(refused)) and refused.source, refused
                assert not [i for i in ids | {r for r in resolvers if "-" in r} if i in refused], refused
    assert seen > 100


# A sentence that names an id: "the target id", "ids".
ID_WORD = re.compile(r"\bids?\b", re.IGNORECASE)


def _wrong(annotation: Any) -> Any:
    """A value of the wrong type for a field: a list of lists (no request field takes one), or, for a field
    that takes lists, an object."""
    text = repr(annotation).lower()
    return {"x": 1} if "list" in text or "tuple" in text or "sequence" in text else [[1]]


def test_every_request_models_refusal_is_one_sentence_in_words(reading_client: TestClient) -> None:
    """Issue 51: a request model's 422 (app/errors.py `model_refusal`, as the API answers it) names the field
    in words, its path in `field`: for every JSON body model of the API (each route's, as /openapi.json lists
    them), each required field missing and each field of the wrong type, one sentence of at most 120
    characters, no field name (snake_case), no id."""
    from fastapi.routing import iter_route_contexts
    from pydantic import TypeAdapter, ValidationError

    from app.errors import body_model, field_of, model_refusal

    documented = reading_client.get("/openapi.json").json()["paths"]
    models: dict[str, Any] = {}
    for route in iter_route_contexts(reading_client.app.router.routes):  # type: ignore[attr-defined]
        model = body_model(route)
        if getattr(route, "path", None) in documented and hasattr(model, "model_fields"):
            models.setdefault(model.__name__, model)
    assert len(models) > 30, sorted(models)
    bad, said = [], set()
    for name, model in sorted(models.items()):
        asked = [{}] + [{f: _wrong(info.annotation)} for f, info in model.model_fields.items()]
        for body in asked:
            try:
                TypeAdapter(model).validate_python(body)
            except ValidationError as e:
                errors = [{**err, "loc": ("body", *err["loc"])} for err in e.errors()]
            else:
                continue
            for err in errors:
                if body and err["loc"][1] not in body:
                    continue  # a wrong type's answer, not the fields still missing
                out = model_refusal([err], model)
                detail = out["detail"]
                said.add(detail)
                if not is_one_sentence(detail) or SNAKE.search(detail) or ID_WORD.search(detail):
                    bad.append(f"{name} {err['loc']}: {detail}")
                if out["field"] != field_of(err["loc"]):
                    bad.append(f"{name} {err['loc']}: field {out['field']}")
    assert bad == [], "\n".join(bad)
    assert len(said) > 50
    assert "Give the target: it is required." in said or any(d.startswith("Fix the target:") for d in said)


@pytest.mark.parametrize(
    "path",
    [
        "/playsheets/{long}",
        "/playsheets/{long}.pdf",
        "/playsheets/organisation/{long}",
        "/playsheets/rulesets/flanders-fields/{long}",
        "/playsheets/mid?variant={long}:b",
    ],
)
def test_a_refusal_echoes_a_long_value_cut(reading_client: TestClient, path: str) -> None:
    """A refusal's reason names the value it refuses, cut (app.errors.WHY_MAX): an unknown period of 60,000
    characters answered 120 KB, the value in `why` and again in `errors` (the hostile pass of issue 66)."""
    answer = reading_client.get(path.format(long="x" * 60_000))
    assert 400 <= answer.status_code < 500 and len(answer.content) < 10_000, (
        answer.status_code,
        len(answer.content),
    )
