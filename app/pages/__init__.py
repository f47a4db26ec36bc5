"""HTML pages (Jinja2 + htmx), one module per concern, each its own router. One URL serves the
whole page, or for an htmx request (HX-Request header) only the fragment it swaps. Pages never import the
JSON routes (app/routes): they call the same game logic and commit themselves."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import FileResponse

from app.core.routing import Router
from app.pages import (
    after_action,
    arrival_cards,
    campaign_battles,
    campaigns,
    clock_panel,
    club_save,
    counter_entry,
    counters_panel,
    drawn_cards,
    events,
    fire_plan,
    game_table_save,
    games,
    join_cards,
    league,
    league_claims,
    lookup,
    map_cards,
    plan_verify,
    referee,
    scenario_drafts,
    scenario_editor,
    scenario_forces,
    scenario_objectives,
    scenario_saving,
    scenario_terrain,
    score_panel,
    stand_acts,
    stand_done,
    stand_play,
    table_map,
    template_coverage,
    terrain_kinds,
    theme,
    trust,
)
from app.pages.common import refusal_page
from app.pages.static_files import VersionedStaticFiles
from app.pages.templates import STATIC_DIR, templates

__all__ = ["mount_static", "page_routers", "refusal_page", "router", "templates"]

# The app includes each page module's router itself, one level under the app (`page_routers`), not one router
# holding them all: FastAPI resolves every route of an included router again for each router that includes it, so
# the pages' 129 routes were resolved once more as the app took the holding router (~0.3 s of a worker's start).
router = Router(include_in_schema=False)  # the pages' own routes (the service worker, the manifest)
PAGE_MODULES = (
    games,
    referee,
    table_map,
    map_cards,
    stand_acts,
    stand_done,
    stand_play,
    arrival_cards,
    template_coverage,
    counters_panel,
    counter_entry,
    score_panel,
    clock_panel,
    drawn_cards,
    lookup,
    fire_plan,
    plan_verify,
    campaigns,
    campaign_battles,
    trust,
    theme,
    join_cards,
    scenario_editor,
    scenario_drafts,
    scenario_forces,
    scenario_objectives,
    scenario_saving,
    scenario_terrain,
    game_table_save,
    terrain_kinds,
    club_save,
    after_action,
    events,
    league,
    league_claims,
)


def page_routers() -> list[Router]:
    """Every page router, in the order the app tries them (the pages' own last)."""
    return [*(pages.router for pages in PAGE_MODULES), router]


def compile_templates() -> int:
    """Every page template compiled, as a served app starts (app.main): compiled at a page's first request, they
    were ~0.5 s of CPU over a worker's first pages. How many."""
    names = [name for name in templates.env.list_templates() if name.endswith(".html")]
    for name in names:
        templates.env.get_template(name)
    return len(names)


def mount_static(app: FastAPI) -> None:
    app.mount("/static", VersionedStaticFiles(directory=STATIC_DIR), name="static")


@router.get("/sw.js")
def service_worker() -> FileResponse:
    # Served from the root so its scope covers every page.
    return FileResponse(
        STATIC_DIR / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )


@router.get("/manifest.webmanifest")
def manifest() -> FileResponse:
    return FileResponse(STATIC_DIR / "manifest.webmanifest", media_type="application/manifest+json")
