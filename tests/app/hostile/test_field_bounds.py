"""Every bound written on a request field holds: a value just outside a `Field(ge=.., gt=.., le=.., lt=..)`
is refused with an error on that field. (Pydantic keeps one bound of each kind, so a bound inside a shared
type alias could silently replace a field's own narrower one: `arrival_turn: Int = Field(ge=1)` took -5.)"""

from __future__ import annotations

import ast
import importlib
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from app.data.schemas import PLAN_KINDS

ROOT = Path(__file__).resolve().parents[3]
BOUND_KEYWORDS = {"ge", "gt", "le", "lt"}


def _bounded_fields() -> Iterator[tuple[str, str, str, str, Any]]:
    """(module, class, field, bound keyword, bound value) for every bounded Field in app/ and in the rule sets'
    plan kinds (the API validates plan items by them: app.data.schemas.PLAN_KINDS)."""
    kits = {Path(str(sys.modules[m.__module__].__file__)) for m in PLAN_KINDS}
    for path in sorted({*(ROOT / "app").rglob("*.py"), *kits}):
        module_name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        tree = ast.parse(path.read_text())
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for stmt in cls.body:
                if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                    continue
                call = stmt.value
                if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "Field"):
                    continue
                for kw in call.keywords:
                    if kw.arg in BOUND_KEYWORDS:
                        yield module_name, cls.name, stmt.target.id, kw.arg, kw.value


def _cases() -> list[Any]:
    cases = []
    for module_name, cls_name, field, keyword, node in _bounded_fields():
        module = importlib.import_module(module_name)
        model = getattr(module, cls_name)
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            continue
        bound = eval(compile(ast.Expression(node), module_name, "eval"), vars(module))
        cases.append(pytest.param(model, field, keyword, bound, id=f"{cls_name}.{field}.{keyword}"))
    return cases


def _is_int(model: type[BaseModel], field: str) -> bool:
    annotation = model.model_fields[field].annotation
    args = typing.get_args(annotation) or (annotation,)
    return int in args and float not in args


CASES = _cases()


def test_the_scan_finds_the_request_bounds() -> None:
    names = {c.id for c in CASES}
    assert len(CASES) >= 20
    assert {"PlanItemIn.arrival_turn.ge", "FireItem.turns.ge"} <= names, sorted(names)


@pytest.mark.parametrize(("model", "field", "keyword", "bound"), CASES)
def test_a_value_outside_the_bound_is_refused_on_its_field(
    model: type[BaseModel], field: str, keyword: str, bound: float
) -> None:
    step = 1 if _is_int(model, field) else 0.5
    outside = {"ge": bound - step, "gt": bound, "le": bound + step, "lt": bound}[keyword]
    if _is_int(model, field):
        outside = int(outside)
    posted = model.model_fields[field].alias or field  # as the request names it (a form's "_game")
    with pytest.raises(ValidationError) as refused:
        model.model_validate({posted: outside})
    assert any(e["loc"][:1] == (posted,) and e["type"] != "missing" for e in refused.value.errors()), (
        f"{model.__name__}.{field}={outside!r} was accepted"
    )
