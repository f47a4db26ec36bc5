"""Rule sets: list, describe, serve their datasets, and one POST route per resolver and per lookup.

Routes are generated from the registry so each resolver's request model appears in the OpenAPI schema.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

from fastapi import Body, Query
from pydantic import BaseModel, RootModel

from app import errors
from app.core.routing import Router
from app.data.schemas import FormationIn
from app.data.schemas_answers import ForceChartOut, FormationUnitOut, ResolutionOut
from app.data.schemas_datasets import dataset_model
from rules.core.forces import ForceChart, build_force, chart_dict, document_units
from rules.core.ruleset import Lookup, ResolveRequest, RuleSet
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


class RuleSetOut(RuleSetSummary):
    errata: list[dict[str, Any]]


def _summary(rs: RuleSet) -> RuleSetSummary:
    return RuleSetSummary.model_validate(rs.describe())  # its errata left out


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
    resolve.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("req", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=body)]
    )
    router.add_api_route(
        f"/api/v1/rulesets/{rs.id}/{resolver_id}",
        resolve,
        methods=["POST"],
        response_model=ResolutionOut,
        summary=f"{rs.name}: {resolver_cls.summary or resolver_id}",
        operation_id=f"resolve_{rs.id}_{resolver_id}".replace("-", "_"),
        tags=[rs.id],
    )


def _add_lookup_route(router: Router, rs: RuleSet, lookup: Lookup) -> None:
    # Sent to the threadpool: a gas forecast samples for tens of milliseconds, which the event loop must not wait on.
    def answer(req: Any) -> BaseModel:
        return lookup.answer(req)

    answer.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("req", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=lookup.request_model)]
    )
    router.add_api_route(
        f"/api/v1/rulesets/{rs.id}/lookups/{lookup.id}",
        answer,
        methods=["POST"],
        response_model=lookup.answer_model,
        summary=f"{rs.name}: {lookup.summary}",
        operation_id=f"lookup_{rs.id}_{lookup.id}".replace("-", "_"),
        tags=[rs.id],
        responses=errors.responses(422),
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

    router.add_api_route(
        f"/api/v1/rulesets/{rs.id}/{name}",
        get_data,
        methods=["GET"],
        response_model=answer,
        summary=f"{rs.name}: {ds.summary}",
        operation_id=f"data_{rs.id}_{name}".replace("-", "_"),
        tags=[rs.id],
    )


def _add_force_chart_routes(router: Router, rs: RuleSet, chart: ForceChart) -> None:
    """A rule set whose forces are built from its chart: the chart, and a formation built from it (nothing
    stored: the scenario editor writes it into its document; a game builds one with POST .../formations)."""

    def get_chart() -> ForceChartOut:
        return ForceChartOut.model_validate(chart_dict(chart))

    def build(body: FormationIn) -> FormationUnitOut:
        return FormationUnitOut.model_validate(
            document_units(build_force(chart, body.model_dump(), "", "formation"))
        )

    router.add_api_route(
        f"/api/v1/rulesets/{rs.id}/force-chart",
        get_chart,
        methods=["GET"],
        response_model=ForceChartOut,
        summary=f"{rs.name}: what a force is built from (its {chart.title})",
        operation_id=f"force_chart_{rs.id}".replace("-", "_"),
        tags=[rs.id],
    )
    router.add_api_route(
        f"/api/v1/rulesets/{rs.id}/formations",
        build,
        methods=["POST"],
        response_model=FormationUnitOut,
        summary=f"{rs.name}: a {chart.formation} built from its {chart.title}, as a scenario's units",
        operation_id=f"build_formation_{rs.id}".replace("-", "_"),
        tags=[rs.id],
        responses=errors.responses(422),
    )


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
