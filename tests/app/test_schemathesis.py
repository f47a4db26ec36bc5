"""Generated requests to every endpoint of the app's own OpenAPI schema: never a 5xx, always the schema."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.core.config import Settings
from app.core.db import migrate
from app.main import create_app

_tmp = Path(tempfile.mkdtemp(prefix="firestep-schemathesis-"))
_url = f"sqlite:///{_tmp / 'firestep.db'}"
migrate(_url)
app = create_app(Settings(database_url=_url, var_dir=_tmp))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


@schema.parametrize()
@settings(max_examples=30, suppress_health_check=list(HealthCheck))
def test_api_never_5xx_and_matches_schema(case: schemathesis.Case) -> None:
    # The contract: never a 5xx, every answer documented and matching its schema. Schema-valid bodies that
    # the rules refuse (a tank in 1914) are a documented 422, so "positive data acceptance" is not checked.
    case.call_and_validate(checks=CHECKS)
