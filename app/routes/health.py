from __future__ import annotations

from fastapi import Request, Response
from pydantic import BaseModel
from sqlalchemy.exc import SQLAlchemyError

from app.core.db import current_revision, head_revision, schema_drift
from app.core.routing import Router
from app.deps import EngineDep

router = Router(tags=["health"])


class Health(BaseModel):
    status: str
    database: bool
    # False once a write failed on a full disk, until a later write commits (app.core.disk): free space.
    writable: bool
    revision: str | None
    head: str | None
    drift: list[str]  # what the models need that the database lacks (app.core.db.schema_drift)


@router.get(
    "/healthz",
    response_model=Health,
    summary="Database reachability, migration revision and schema drift",
    responses={
        503: {
            "model": Health,
            "description": "Degraded: unreachable, not writable (disk full), not at head, or schema drift",
        }
    },
)
def healthz(engine: EngineDep, request: Request, response: Response) -> Health:
    try:
        revision = current_revision(engine)
        with engine.connect() as conn:
            drift = schema_drift(conn)
        reachable = True
    except SQLAlchemyError:  # any driver error means "not reachable"; health reports it rather than raising
        reachable, revision, drift = False, None, []
    head = head_revision()
    writable = not request.app.state.writable.full
    ok = reachable and writable and revision == head and not drift
    if not ok:
        response.status_code = 503
    return Health(
        status="ok" if ok else "degraded",
        database=reachable,
        writable=writable,
        revision=revision,
        head=head,
        drift=drift,
    )
