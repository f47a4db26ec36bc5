"""One router per resource. main.py includes every router listed here."""

from fastapi import APIRouter

from app.routes import events, fireplans, forces, games, health, pages, playsheets, rulesets
from app.routes import geometry
from app.routes import campaigns


def api_routers() -> list[APIRouter]:
    routers = [health.router, rulesets.build_router(), games.router, pages.router, playsheets.router]
    routers += [games.join_router, forces.router, fireplans.router, events.router]  # games that last (issue 6)
    routers += [geometry.router]  # the table in Shapely (issue 4)
    routers += [campaigns.router]  # the Firestorm campaign, stateless (issue 9)
    return routers
