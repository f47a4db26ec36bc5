from __future__ import annotations

from pydantic import BaseModel

from app.core.db import current_revision, head_revision, ping
from app.core.routing import Router
from app.deps import EngineDep

router = Router(tags=["health"])


class Health(BaseModel):
    status: str
    database: bool
    revision: str | None
    head: str | None


@router.get("/healthz", response_model=Health, summary="Database reachability and migration revision")
def healthz(engine: EngineDep) -> Health:
    reachable = ping(engine)
    revision = current_revision(engine) if reachable else None
    head = head_revision()
    ok = reachable and revision == head
    return Health(status="ok" if ok else "degraded", database=reachable, revision=revision, head=head)
