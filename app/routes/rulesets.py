"""Rule sets: list, describe, serve their datasets, and one POST route per resolver and per lookup.

Routes are generated from the registry so each resolver's request model appears in the OpenAPI schema.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Body, Query
from pydantic import BaseModel, RootModel

from app import errors
from app.core.routing import Router
from app.data.schemas import FormationIn
from app.data.schemas_answers import ForceChartOut, FormationUnitOut, ResolutionOut
from app.data.schemas_datasets import dataset_model
from rules.core.forces import ForceChart, build_force, chart_dict, document_units
from rules.core.ruleset import Lookup, ReadingValue, ResolveRequest, RuleSet
from rules.registry import all_rulesets, game_rules_or_none, get_ruleset


class PeriodOut(BaseModel):
    id: str
    name: str
    source: str


class DatasetOut(BaseModel):
    """A data table the rule set serves (its rows: `GET .../data/{name}`)."""

    name: str
    summary: str
    per_period: bool


class RuleSetSummary(BaseModel):
    id: str
    name: str
    source: str
    periods: list[PeriodOut]
    resolvers: list[dict[str, str]]
    datasets: list[DatasetOut]


class ReadingOut(BaseModel):
    """One way of reading a disputed rule (rules.core.ruleset.Reading): what it says, where, and the value the
    engine uses under it, in its erratum's own shape."""

    id: str
    text: str
    source: str
    value: ReadingValue


class ErratumOut(BaseModel):
    """A place where the texts disagree (rules.core.ruleset.Erratum): its topic, the reading used unless a game
    picks another, the periods where it matters (empty: every one), its note and section, and its readings."""

    id: str
    topic: str
    default: str
    periods: list[str]
    note: str
    section: str
    readings: list[ReadingOut]


class RuleSetOut(RuleSetSummary):
    errata: list[ErratumOut]


def _summary(rs: RuleSet) -> RuleSetSummary:
    return RuleSetSummary.model_validate(rs.describe())  # its errata left out


def _add_route(
    router: Router,
    rs: RuleSet,
    method: str,
    tail: str,
    endpoint: Callable[..., Any],
    answer: Any,
    summary: str,
    operation: str,
    request: Any = None,
    refused: bool = False,
) -> None:
    """A route of the rule set `rs`, at /api/v1/rulesets/{rs.id}/{tail} and tagged with its id: the summary
    opens with its name, `operation` is its operation id (each hyphen an underscore) and `request`, where given,
    the body FastAPI reads as the endpoint's `req` (a model known only at run time, which no annotation names);
    `refused`: its body may be refused (422)."""
    if request is not None:
        endpoint.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter("req", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=request)]
        )
    router.add_api_route(
        f"/api/v1/rulesets/{rs.id}/{tail}",
        endpoint,
        methods=[method],
        response_model=answer,
        summary=f"{rs.name}: {summary}",
        operation_id=operation.replace("-", "_"),
        tags=[rs.id],
        responses=errors.responses(422) if refused else None,
    )


def _add_resolver_route(router: Router, rs: RuleSet, resolver_id: str) -> None:
    resolver_cls = rs.resolvers[resolver_id]
    request_model: type[ResolveRequest] = resolver_cls.Request
    examples = {f"example {i + 1}": {"value": ex} for i, ex in enumerate(resolver_cls.examples)}

    # Pure CPU work of well under a millisecond (the slowest, a Flanders Fields deviation, ~15 ms): run in the
    # event loop, not sent to the threadpool and back, which cost more than the resolver itself.
    async def resolve(req: Any) -> ResolutionOut:
        return ResolutionOut.model_validate(rs.resolve(resolver_id, req).as_dict())

    # FastAPI reads the body type from the signature; each resolver gets its own request model.
    body = Annotated[request_model, Body(openapi_examples=examples or None)]  # type: ignore[valid-type]
    summary = resolver_cls.summary or resolver_id
    operation = f"resolve_{rs.id}_{resolver_id}"
    _add_route(router, rs, "POST", resolver_id, resolve, ResolutionOut, summary, operation, body)


def _add_lookup_route(router: Router, rs: RuleSet, lookup: Lookup) -> None:
    # Sent to the threadpool: a gas forecast samples for tens of milliseconds, which the event loop must not wait on.
    def answer(req: Any) -> BaseModel:
        return lookup.answer(req)

    tail = f"lookups/{lookup.id}"
    op = f"lookup_{rs.id}_{lookup.id}"
    request = lookup.request_model
    _add_route(
        router, rs, "POST", tail, answer, lookup.answer_model, lookup.summary, op, request, refused=True
    )


def _add_dataset_route(router: Router, rs: RuleSet, name: str) -> None:
    ds = rs.datasets[name]
    title = f"{rs.id} {name}".replace("-", " ").title().replace(" ", "")
    answer = dataset_model(
        title, lambda: [rs.data(name, p) for p in rs.period_ids] if ds.per_period else [rs.data(name)]
    )
    if ds.per_period:

        def get_data(
            period: str = Query(..., description=f"one of {', '.join(rs.period_ids)}"),
        ) -> RootModel[Any]:
            return answer(rs.data(name, period))

    else:

        def get_data() -> RootModel[Any]:  # type: ignore[misc]
            return answer(rs.data(name))

    _add_route(router, rs, "GET", name, get_data, answer, ds.summary, f"data_{rs.id}_{name}")


def _add_force_chart_routes(router: Router, rs: RuleSet, chart: ForceChart) -> None:
    """A rule set whose forces are built from its chart: the chart, and a formation built from it (nothing
    stored: the scenario editor writes it into its document; a game builds one with POST .../formations)."""

    def get_chart() -> ForceChartOut:
        return ForceChartOut.model_validate(chart_dict(chart))

    def build(body: FormationIn) -> FormationUnitOut:
        return FormationUnitOut.model_validate(
            document_units(build_force(chart, body.model_dump(), "", "formation"))
        )

    charted = f"what a force is built from (its {chart.title})"
    _add_route(router, rs, "GET", "force-chart", get_chart, ForceChartOut, charted, f"force_chart_{rs.id}")
    built = f"a {chart.formation} built from its {chart.title}, as a scenario's units"
    operation = f"build_formation_{rs.id}"
    _add_route(router, rs, "POST", "formations", build, FormationUnitOut, built, operation, refused=True)


def build_routers() -> list[Router]:
    """The list and the description of rule sets, then one router per rule set (so a request for one rule
    set's route is matched among that rule set's routes only: app/core/routing.py)."""
    router = Router(tags=["rulesets"])

    @router.get(
        "/api/v1/rulesets", response_model=list[RuleSetSummary], summary="Rule sets firestep can resolve"
    )
    def list_rulesets() -> list[RuleSetSummary]:
        return [_summary(rs) for rs in all_rulesets()]

    @router.get(
        "/api/v1/rulesets/{ruleset_id}", response_model=RuleSetOut, summary="One rule set, with errata"
    )
    def describe_ruleset(ruleset_id: str) -> RuleSetOut:
        return RuleSetOut(**get_ruleset(ruleset_id).describe())

    routers = [router]
    for rs in all_rulesets():
        ruleset_router = Router(tags=["rulesets"])
        for resolver_id in rs.resolvers:
            _add_resolver_route(ruleset_router, rs, resolver_id)
        for lookup in rs.lookups.values():
            _add_lookup_route(ruleset_router, rs, lookup)
        for name in rs.datasets:
            _add_dataset_route(ruleset_router, rs, name)
        chart = game_rules_or_none(rs.id).book.force_chart
        if chart is not None:
            _add_force_chart_routes(ruleset_router, rs, chart)
        routers.append(ruleset_router)
    return routers
