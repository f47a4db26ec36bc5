"""Generated requests to every endpoint of the app's own OpenAPI schema: never a 5xx, always the schema. On
SQLite, one test per operation and one for its coverage phase; on PostgreSQL (issue 52: both backends) again every
operation that touches the database (the writes with the PostgreSQL budget, the reads with a smaller one, those on
a stored thing with fewer), which keeps the suite's time bounded: an operation that touches no database answers
the same on either."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    allow_header_conformance,
    content_type_conformance,
    missing_required_header,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)
from schemathesis.config import SchemathesisConfig
from schemathesis.generation.drivers import CoverageGenerator
from schemathesis.generation.feedback import FeedbackSources
from schemathesis.generation.meta import content_type_probes_first
from schemathesis.generation.overrides import with_config_headers
from schemathesis.python import asgi
from schemathesis.python._constants.orchestrator import make_constants_value_source
from schemathesis.schemas import BaseSchema

from app.core.config import Settings
from app.core.db import migrate
from app.main import create_app
from tests.conftest import _postgresql_base, _postgresql_database

_tmp = Path(tempfile.mkdtemp(prefix="firestep-schemathesis-"))
_url = f"sqlite:///{_tmp / 'firestep.db'}"
migrate(_url)
app = create_app(Settings(database_url=_url, var_dir=_tmp))
# Invalid data is refused with schemathesis's own list of statuses and 413 besides: a generated body past the
# door's size limit (a terrain of thousands of points, 3.8 MB) is refused there, before it is read, which is as
# much a refusal of it as a 422 (app.guard.limits; it failed a run that drew one).
REFUSED = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]
CONFIG: dict[str, Any] = {"checks": {"negative_data_rejection": {"expected-statuses": REFUSED}}}
# The coverage phase runs in tests of its own (test_coverage_cases_..., below), built when the test runs: as
# schemathesis attaches it, every operation's cases (12,000 requests' worth) are built at collection, by every
# xdist worker, for operations half of which it never runs; it was half the suite's collection time.
# The methods a path has not, sent to it (a 405 naming the ones it has): schemathesis's default list but for
# OPTIONS and QUERY, whose every step is another's in the list: the router refuses every method a path has
# not alike; the guards let OPTIONS through as TRACE (app.guard.security's SAFE_METHODS, and not a write to
# app.guard.limits or idempotency), and QUERY as PUT at the CSRF check and as GET or TRACE at limits and
# idempotency (not a write there). Two fewer requests a path (about 250).
UNEXPECTED_METHODS = ["get", "put", "post", "delete", "patch", "trace"]
NO_COVERAGE = SchemathesisConfig.from_dict(
    {**CONFIG, "phases": {"coverage": {"enabled": False, "unexpected-methods": UNEXPECTED_METHODS}}}
)
# The app's own schema, as its /openapi.json serves it, without a request for it (from_asgi started the app and
# asked, ~0.6 s of each test process's collection); its cases are sent to the app.
schema = schemathesis.openapi.from_dict(app.openapi(), config=NO_COVERAGE)
schema.app = app


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    # Data the schema forbids is refused (issue 12: `false` was accepted as a number, NaN as a float).
    negative_data_rejection,
    # A method a path does not have is a 405 with an Allow header naming the ones it has.
    unsupported_method,
    allow_header_conformance,
    missing_required_header,
]
# Left off, and why:
# - positive_data_acceptance: schema-valid bodies the rules refuse (a tank in 1914) are a documented 422.
# - use_after_free, ensure_resource_availability: need OpenAPI links between operations, which the schema
#   does not declare; deletion and creation are covered by tests/app/games.
# - ignored_auth, object_level_authorization: need credentials for each scheme; access is covered by
#   tests/app/games/test_access.py and tests/app/hostile.
# - max_response_time: timing on a shared machine is not a contract.


# Two groups, each with its budget. The generated lookups (a rule set's resolvers, about half the operations)
# are pure: their request models and resolvers are property-tested in tests/rules, and each route is the same
# generated code, so a few examples check the HTTP contract. The game, campaign, scenario, club, playsheet and
# geometry operations, each written by hand and with state behind it, get the full budget. Every operation also
# runs schemathesis's coverage phase (each field's bounds, wrong types, missing headers, other methods; in a
# test of its own, below), about half the module's time: the random examples on top of it are the budget's
# part a suite under 10 minutes sets.
# An operation whose path names a stored thing (a game, a campaign, an event...) meets this module's database,
# where a generated id rarely names one and a generated token never opens one: past the checks of its path,
# headers and body (the coverage phase walks each of their bounds and types) its random examples end at a
# refusal (401, 403 or 404), so a few of them are enough; the operations that make or list what is stored
# (creations, joins, the lists) and the geometry and playsheets get the full budget. Two, not five: every id
# in a path is bounded by its type before any query (app.deps.GameId and its kin, 1..2^31-1; the string ids
# by length and pattern), and what a few more random examples would add is another refusal.
LOOKUPS = r"^/api/v1/rulesets/[a-z0-9-]+/(?!lookups/)"  # a rule set's geometry lookups are written by hand
STORED_ID = r"\{(?!ruleset_id|table_id|side|period)\w+\}"
FULL_EXAMPLES = 15
STORED_EXAMPLES = 2
LOOKUP_EXAMPLES = 5


def _never_5xx_and_matches_schema(case: schemathesis.Case) -> None:
    # The contract: never a 5xx, every answer documented and matching its schema. Schema-valid bodies that
    # the rules refuse (a tank in 1914) are a documented 422, so "positive data acceptance" is not checked.
    case.call_and_validate(checks=CHECKS)


@schema.exclude(path_regex=LOOKUPS).exclude(path_regex=STORED_ID).parametrize()
@settings(max_examples=FULL_EXAMPLES, suppress_health_check=list(HealthCheck))
def test_api_never_5xx_and_matches_schema(case: schemathesis.Case) -> None:
    _never_5xx_and_matches_schema(case)


@schema.include(path_regex=STORED_ID).parametrize()
@settings(max_examples=STORED_EXAMPLES, suppress_health_check=list(HealthCheck))
def test_stored_things_never_5xx_and_match_schema(case: schemathesis.Case) -> None:
    _never_5xx_and_matches_schema(case)


# The lookups without the coverage phase (three quarters of their time): each is the same generated route over
# its rule set's request model, whose bounds are pydantic's own, and every request model's refusal of a field
# missing or of the wrong type is walked by tests/app/test_refusals.py.
@schema.include(path_regex=LOOKUPS).parametrize()
@settings(max_examples=LOOKUP_EXAMPLES, suppress_health_check=list(HealthCheck))
def test_lookups_never_5xx_and_match_schema(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)


# PostgreSQL: what a backend stores and refuses differs (integer ranges, text encodings, locking), so every
# operation that touches the database runs there too: each write with a third of SQLite's budget, each read
# (which stores nothing: its ids are bounded before any query, GameId) with a few examples; an operation on a
# stored thing (STORED_ID) with fewer again, as on SQLite: its generated id names nothing there either (or its
# generated token opens nothing), so each example is one lookup by a bounded id and a refusal. The operations
# that touch no database (PURE: the rule sets' resolvers, data and geometry lookups, the printables of
# fixed inputs; none takes a stored thing's id) run on SQLite only. The schema is the same app's; its requests
# go to the app on a PostgreSQL database the fixture makes.
PURE = r"^(/api/v1/rulesets|/playsheets/(?!games/))"
POSTGRESQL_EXAMPLES = 5
POSTGRESQL_READ_EXAMPLES = 3
POSTGRESQL_STORED_EXAMPLES = 2
POSTGRESQL_STORED_READ_EXAMPLES = 1


class OnPostgreSQL:
    """The app on this module's PostgreSQL database (set by the `on_postgresql` fixture)."""

    app: Any = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        assert self.app is not None, "the test takes the on_postgresql fixture"
        await self.app(scope, receive, send)


# Only schema-valid data there: what the schema forbids is refused before any query, by the same code on
# either backend (the request models, the door), and its refusal is checked on SQLite (negative_data_rejection
# over the coverage phase's negative cases and the random ones); what reaches storage is valid data.
POSITIVE = {**CONFIG, "generation": {"mode": "positive"}}
postgresql_schema = schemathesis.openapi.from_dict(
    app.openapi(),
    config=SchemathesisConfig.from_dict({**POSITIVE, "phases": {"coverage": {"enabled": False}}}),
)
postgresql_schema.app = OnPostgreSQL()


@pytest.fixture(scope="session")
def on_postgresql(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Once per process (schemathesis starts an app's lifespan once and keeps it: this one, through the
    proxy), ended before its database is dropped."""
    template = request.getfixturevalue("postgresql_template")
    with _postgresql_database(_postgresql_base(), template=template) as url:
        postgresql_schema.app.app = create_app(
            Settings(database_url=url, var_dir=tmp_path_factory.mktemp("var"))
        )
        yield
        asgi.shutdown_lifespans()
        postgresql_schema.app.app.state.engine.dispose()


@pytest.mark.storage
@postgresql_schema.exclude(path_regex=PURE).exclude(path_regex=STORED_ID).exclude(method="GET").parametrize()
@settings(max_examples=POSTGRESQL_EXAMPLES, suppress_health_check=list(HealthCheck))
def test_writes_on_postgresql_never_5xx_and_match_schema(
    case: schemathesis.Case, on_postgresql: None
) -> None:
    case.call_and_validate(checks=CHECKS)


@pytest.mark.storage
@postgresql_schema.exclude(path_regex=PURE).include(path_regex=STORED_ID).exclude(method="GET").parametrize()
@settings(max_examples=POSTGRESQL_STORED_EXAMPLES, suppress_health_check=list(HealthCheck))
def test_writes_to_stored_things_on_postgresql_never_5xx_and_match_schema(
    case: schemathesis.Case, on_postgresql: None
) -> None:
    case.call_and_validate(checks=CHECKS)


# The reads' bounds are walked by the coverage phase on SQLite (the same routes, checked before any query):
# here only their random examples, on PostgreSQL's storage.
postgresql_reads = schemathesis.openapi.from_dict(app.openapi(), config=NO_COVERAGE)
postgresql_reads.app = postgresql_schema.app


@pytest.mark.storage
@postgresql_reads.exclude(path_regex=PURE).exclude(path_regex=STORED_ID).include(method="GET").parametrize()
@settings(max_examples=POSTGRESQL_READ_EXAMPLES, suppress_health_check=list(HealthCheck))
def test_reads_on_postgresql_never_5xx_and_match_schema(case: schemathesis.Case, on_postgresql: None) -> None:
    case.call_and_validate(checks=CHECKS)


@pytest.mark.storage
@postgresql_reads.exclude(path_regex=PURE).include(path_regex=STORED_ID, method="GET").parametrize()
@settings(max_examples=POSTGRESQL_STORED_READ_EXAMPLES, suppress_health_check=list(HealthCheck))
def test_reads_of_stored_things_on_postgresql_never_5xx_and_match_schema(
    case: schemathesis.Case, on_postgresql: None
) -> None:
    case.call_and_validate(checks=CHECKS)


# The coverage phase: for each operation, each field's bounds, wrong types, a required part missing, a wrong
# content type and the methods the path has not, one request each. The cases are schemathesis's own (its
# CoverageGenerator, ordered as its pytest plugin orders them), built when the test runs, so only the worker
# that runs an operation builds its cases. On SQLite every operation but the generated lookups (see above); on
# PostgreSQL every write that makes a stored thing (no STORED_ID in its path), with valid data only (POSITIVE).
# A write to a stored thing is left to its random examples there: its path's id is bounded before any query
# (GameId and its kin) and its generated id or token opens nothing, so each of its valid cases, however its
# body's bounds are walked, reached PostgreSQL as one lookup by id and ended in a refusal (401, 403, 404).
METHODS = ("get", "put", "post", "delete", "patch")
OPERATIONS = [(m.upper(), p) for p, item in app.openapi()["paths"].items() for m in item if m in METHODS]
COVERED = [f"{method} {path}" for method, path in OPERATIONS if not re.match(LOOKUPS, path)]
COVERED_ON_POSTGRESQL = [
    f"{m} {p}" for m, p in OPERATIONS if not re.match(PURE, p) and not re.search(STORED_ID, p) and m != "GET"
]


_feedback: dict[int, FeedbackSources] = {}  # by the schema's id: a schema is not hashable


def _feedback_of(tested: BaseSchema) -> FeedbackSources:
    """What the plugin gives each schema's tests: the constants of the app's code, read once."""
    if id(tested) not in _feedback:
        _feedback[id(tested)] = FeedbackSources(constants_value_source=make_constants_value_source(tested))
    return _feedback[id(tested)]


def _coverage_cases(tested: BaseSchema, label: str) -> list[schemathesis.Case]:
    method, path = label.split(" ", 1)
    operation = tested[path][method]
    generation = tested.config.generation_for(operation=operation, phase="coverage")
    generator = CoverageGenerator(
        operation=operation,
        generation_modes=generation.modes,
        generation_config=generation,
        auth_storage=None,
        override=with_config_headers(tested.config, operation=operation),
        feedback=_feedback_of(tested),
    )
    # The plugin attaches them as Hypothesis examples, which run last first: the content-type probes last.
    cases = content_type_probes_first(generator)[::-1]
    assert cases, label
    return cases


def _coverage_never_5xx_and_matches_schema(tested: BaseSchema, label: str) -> None:
    for case in _coverage_cases(tested, label):
        _never_5xx_and_matches_schema(case)


@pytest.mark.parametrize("label", COVERED)
def test_coverage_cases_never_5xx_and_match_schema(label: str) -> None:
    _coverage_never_5xx_and_matches_schema(schema, label)


@pytest.mark.storage
@pytest.mark.parametrize("label", COVERED_ON_POSTGRESQL)
def test_coverage_cases_on_postgresql_never_5xx_and_match_schema(label: str, on_postgresql: None) -> None:
    _coverage_never_5xx_and_matches_schema(postgresql_schema, label)


def test_a_body_over_the_size_limit_counts_as_refused() -> None:
    """Each schema this module tests with takes the door's 413 as a refusal of invalid data."""
    for tested in (schema, postgresql_schema, postgresql_reads):
        statuses = tested.config.checks.negative_data_rejection.expected_statuses
        assert "413" in (statuses or []), tested


def test_the_two_groups_cover_every_operation() -> None:
    """No operation falls between the groups, and the lookups are the generated resolvers only."""
    paths = app.openapi()["paths"]
    lookups = [p for p in paths if re.match(LOOKUPS, p)]
    assert len(lookups) > 90
    assert all(p.startswith("/api/v1/rulesets/") and "{" not in p.split("/")[4] for p in lookups)
    assert "/api/v1/rulesets/{ruleset_id}" in paths and not re.match(LOOKUPS, "/api/v1/rulesets/{ruleset_id}")
    # What runs on SQLite only takes no stored thing's id (a game, campaign, scenario, unit, event...), and
    # every operation under the games, campaigns and scenarios runs on PostgreSQL too.
    pure = [p for p in paths if re.match(PURE, p)]
    assert set(lookups) < set(pure)
    assert [p for p in pure if re.search(STORED_ID, p)] == []
    assert not [p for p in lookups if re.search(STORED_ID, p)], "the stored things' group takes no lookup"
    stored = [
        p for p in paths if re.match(r"^/(api/v1/(games|campaigns|scenarios|join)|playsheets/games/)", p)
    ]
    assert len(stored) > 50 and not set(stored) & set(pure)
    # Every operation but the generated lookups has its coverage phase's test, and every write off PURE that
    # makes a stored thing (a game, campaign, scenario, event, league, a join) again on PostgreSQL.
    labels = {f"{m.upper()} {p}" for p, item in paths.items() for m in item if m in METHODS}
    assert labels == {f"{m} {p}" for m, p in OPERATIONS}
    assert set(COVERED) == {label for label in labels if not re.match(LOOKUPS, label.split(" ", 1)[1])}
    assert len(COVERED) > 150
    creations = {
        "POST /api/v1/games",
        "POST /api/v1/campaigns",
        "POST /api/v1/scenarios",
        "POST /api/v1/join",
    }
    assert creations <= set(COVERED_ON_POSTGRESQL)


def test_every_schema_name_is_one_model() -> None:
    """Two models of one name (say two `CampaignOut`) would each be renamed after their module path
    (app__routes__x__CampaignOut): a client's generated code would change with our file layout."""
    names = list(app.openapi()["components"]["schemas"])
    assert len(names) > 100
    assert [n for n in names if "__" in n] == []


def test_a_rolls_filled_fields_are_one_described_model() -> None:
    """/ask and /resolve answer the fields the table filled as `FilledOut` (issue 52: a claim marked)."""
    doc = app.openapi()
    filled = doc["components"]["schemas"]["FilledOut"]
    assert set(filled["properties"]) == {"field", "value", "why", "source", "given", "table"}
    assert set(filled["required"]) == {"field", "value", "why"}
    for out in ("ResolvedOut", "AskedOut"):
        items = doc["components"]["schemas"][out]["properties"]["filled"]["items"]
        assert items == {"$ref": "#/components/schemas/FilledOut"}, out


@pytest.mark.storage
def test_the_second_run_is_on_postgresql(on_postgresql: None) -> None:
    assert postgresql_schema.app.app.state.engine.dialect.name == "postgresql"
    assert schema.app.state.engine.dialect.name == "sqlite"
