"""Vocabulary shared by all Flanders Fields resolvers: request base, periods, qualities, cover."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field

from rules.core.ruleset import ResolveRequest

PeriodId = Literal["early", "mid", "late"]
Quality = Literal["raw", "experienced", "veteran", "storm"]
Cover = Literal["open", "soft", "medium", "hard", "fortified"]

PERIODS: tuple[PeriodId, ...] = get_args(PeriodId)
QUALITIES: tuple[Quality, ...] = get_args(Quality)
COVERS: tuple[Cover, ...] = get_args(Cover)


class FFRequest(ResolveRequest):
    """Every Flanders Fields resolve request names its war period."""

    period: PeriodId = Field(
        description="War period: early (1914 to mid 1915), mid (mid 1915 to mid 1917), late."
    )
