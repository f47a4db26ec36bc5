"""One router per resource. main.py includes every router listed here."""

from fastapi import APIRouter

from app.routes import games, health, pages, rulesets


def api_routers() -> list[APIRouter]:
    return [health.router, rulesets.build_router(), games.router, pages.router]
