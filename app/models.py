"""Database tables. Alembic migrations (migrations/versions) are the only source of the schema."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


class Game(SQLModel, table=True):
    __tablename__ = "game"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=200)
    ruleset: str = Field(max_length=64, index=True)
    period: str | None = Field(default=None, max_length=32)
    variants: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    table_width_cm: float = 120.0
    table_length_cm: float = 180.0
    attacker_nation: str = Field(default="", max_length=32)
    defender_nation: str = Field(default="", max_length=32)
    scenario: str | None = Field(default=None, max_length=64)
    version: int = 1
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
