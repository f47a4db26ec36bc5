"""Generated requests to every endpoint of the app's own OpenAPI schema: never a 5xx, always the schema."""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings

from app.core.config import Settings
from app.core.db import migrate
from app.main import create_app

_tmp = Path(tempfile.mkdtemp(prefix="firestep-schemathesis-"))
_url = f"sqlite:///{_tmp / 'firestep.db'}"
migrate(_url)
app = create_app(Settings(database_url=_url, var_dir=_tmp))
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(max_examples=30, suppress_health_check=list(HealthCheck))
def test_api_never_5xx_and_matches_schema(case: schemathesis.Case) -> None:
    case.call_and_validate()
