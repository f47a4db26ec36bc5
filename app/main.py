"""The ASGI app: `app.main:app`, built by create_app()."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio.to_thread
from fastapi import FastAPI
from starlette_compress import CompressMiddleware

from app import errors, pages
from app import openapi as api_schema
from app.core import disk, live, watch
from app.core.config import Settings, get_settings
from app.core.datafolder import private_folder, running_version
from app.core.db import check_schema, make_engine
from app.core.pdf_engine import pdf_engine_problem
from app.data.models import utcnow
from app.guard import headers, idempotency, limits, notice, security, signed_out
from app.routes import api_routers
from app.services import league
from rules.registry import all_rulesets

DESCRIPTION = (
    "firestep resolves Great War miniatures rules exactly as written, with the odds and the rule "
    "book reference of every number. All distances are in cm. A list that grows answers a page: `limit` items "
    "(100 unless asked), after the item whose id is `after`. A PDF is `application/pdf` bytes (a generator that "
    "reads bytes only as `application/octet-stream`, openapi-python-client's, maps one to the other: its "
    "`content_type_overrides`). A stream (`text/event-stream`) lists its frames in `x-sse-frames`."
)


log = logging.getLogger("firestep")

# Tracked objects made (net) before the collector's youngest generation is collected (see the lifespan).
YOUNG_OBJECTS = 10_000


def create_app(settings: Settings | None = None, *, warm_schema: bool = False) -> FastAPI:
    """The app on `settings`; `warm_schema`: its /openapi.json built as it starts (the served app)."""
    settings = settings or get_settings()
    # The data folder keeps the secret key, the club's keys, kept sheets and (SQLite) the database: this
    # user's alone, an older install's made so too (app.core.datafolder).
    private_folder(settings.var_dir)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # A database this code cannot serve (not migrated, or stamped at head but lacking columns) refuses
        # the start with one sentence saying what to do, rather than answering requests with 500s.
        check_schema(app.state.engine)
        # Without the PDF engine the server still serves (every sheet's print view prints from the browser):
        # the club is told at the start, in one sentence with the remedy, not by a PDF failing on the night.
        if (problem := pdf_engine_problem()) is not None:
            log.warning(problem)
        await app.state.broker.start()
        # What is loaded by now (the rule books, the tables, the app) lives as long as the process: kept out
        # of the collector's full passes, each of which otherwise walked all of it (~130 ms, seen as one tap
        # in twenty answered 200 ms late while 500 devices were watching). No collection first: it would cost
        # a full pass at every start, and what little garbage is frozen is freed at shutdown.
        gc.freeze()
        # The youngest generation is collected after YOUNG_OBJECTS new objects rather than CPython's 700: a
        # live event sent to 300 devices makes ~3,000 short-lived ones at once, so each event ran ~4 young
        # collections, which moved every stream's waiting objects up to the old generation until a full pass
        # over the streams' objects (100-400 ms on a busy machine) fell in about one event in 25 (issue 35).
        threshold = gc.get_threshold()
        gc.set_threshold(YOUNG_OBJECTS, *threshold[1:])
        if warm_schema:
            # What a worker's first requests built is built before it serves: the API's schema (~1.5 s of CPU,
            # once built in a thread beside those requests, whose CPU it was: bench/league_import.py's warm-up
            # on PostgreSQL with 4 workers, 1.03 s for one request), every page template (~0.5 s) and each rule
            # set's version hash (a league import's first check). Waited for off the event loop.
            built = api_schema.warm(app)
            pages.compile_templates()
            for ruleset in all_rulesets():
                league.ruleset_hash(ruleset.id)
            if built is not None:  # a browser test's server builds no schema (tests/frontend/conftest.py)
                await anyio.to_thread.run_sync(built.join)
        yield
        gc.set_threshold(*threshold)
        gc.unfreeze()  # collectable again once this app is done (a process may build and drop several)
        await app.state.broker.stop()
        app.state.engine.dispose()

    app = FastAPI(
        title="firestep",
        version=running_version(),  # the build's (setup.py): a client sees which firestep it speaks to
        description=DESCRIPTION,
        lifespan=lifespan,
        # Each operation's id its function's name (checked unique below); the statuses the door answers are
        # declared where the operation's shape lets them happen (app/openapi.py).
        generate_unique_id_function=api_schema.operation_id,
    )
    app.state.settings = settings
    app.state.clock = utcnow  # the present moment, read at the edge (app.deps.NowDep); a test may set its own
    app.state.engine = make_engine(settings.database_url)
    app.state.broker = live.make_broker(app.state.engine)  # LISTEN/NOTIFY on PostgreSQL, else in-process
    app.state.boards = watch.Boards()  # each event's board read once a change for its streams, and their cap
    app.state.writable = disk.watch(app.state.engine)  # whether the database took its last write (/healthz)
    errors.install(app, page=pages.refusal_page)
    signed_out.install(app)  # a 401's sentence names the game, event, campaign or league asked for
    for router in api_routers():
        app.include_router(router)
    for router in pages.page_routers():
        app.include_router(router, include_in_schema=False)  # no page is an API operation
    api_schema.check_unique(app)
    app.openapi = api_schema.cached(app, app.openapi)  # type: ignore[method-assign]
    api_schema.serve(app)
    pages.mount_static(app)
    app.add_middleware(notice.HtmxNotice)  # innermost: a page's refusal to htmx worded in its notice header
    # Inside the CSRF check, so a refused request never claims or replays an answer.
    app.add_middleware(idempotency.IdempotentWrites)
    security.install(app, settings, pages.templates)
    # Every text response compressed (zstd, brotli or gzip, as the browser asks); inside the size limit.
    app.add_middleware(CompressMiddleware)
    # Outermost but for the headers: the size limit bounds every body before anything (CSRF included) reads it.
    limits.install(app, settings.max_body_bytes)
    # A write failing on a full disk anywhere inside (the idempotency claim included): 507 in words.
    app.add_middleware(disk.RefuseWhenFull, writable=app.state.writable)
    headers.install(app)  # outermost of all: the size limit's refusals carry the headers too
    return app


app = create_app(warm_schema=True)
