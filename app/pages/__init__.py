"""HTML pages (Jinja2 + htmx), one module per concern, assembled into one router. One URL serves the
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

__all__ = ["mount_static", "refusal_page", "router", "templates"]

router = Router(include_in_schema=False)
for pages in (
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
):
    router.include_router(pages.router)


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
