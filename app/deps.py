"""Typed dependencies for the routes. The engine and settings belong to the app instance (app.state),
so a test or a second app can run on its own database without touching globals."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Path, Request
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.config import Settings


def get_engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_session(engine: Annotated[Engine, Depends(get_engine)]) -> Iterator[Session]:
    with Session(engine) as session:
        yield session


def get_now(request: Request) -> datetime:
    """The present moment, from the app's clock (`app.state.clock`, the system's by default): the one place a
    route reads the time it answers as of (the game clock's `as_of`)."""
    now: datetime = request.app.state.clock()
    return now


EngineDep = Annotated[Engine, Depends(get_engine)]
SessionDep = Annotated[Session, Depends(get_session)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
NowDep = Annotated[datetime, Depends(get_now)]

# Ids are 32-bit on every backend; larger numbers cannot name a row and are refused as 422, not a 500.
GameId = Annotated[int, Path(ge=1, le=2_147_483_647, description="Game id")]
