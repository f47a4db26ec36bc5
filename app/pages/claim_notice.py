"""A roll's claims as the other seats are told them on the map (issue 52; the server's since issue 67): a value
given over the table's (a range by the tape) said as the claim it is, in the roll's live frame (`claim`) to
every seat but the one that rolled; table-act.js shows it as a notice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlmodel import Session

from app.data.models import Game
from app.pages.templates import humanise, rule_state
from app.services.markers import kept_of
from rules.core.records import FilledDict


def claims_of(event: Mapping[str, Any]) -> list[FilledDict]:
    """The values a roll's seat gave over the table's (`filled`, each `given`), else none."""
    filled = (event.get("payload") or {}).get("filled") if event.get("kind") == "roll" else None
    return (
        [
            FilledDict(
                field=str(f.get("field", "")), value=f.get("value"), why=str(f.get("why", "")), given=True
            )
            for f in filled
            if isinstance(f, dict) and f.get("given") is True
        ]
        if isinstance(filled, list)
        else []
    )


def claim_line(session: Session, game: Game, event: Mapping[str, Any]) -> str:
    """The sentence the other seats read of a roll's claims: "<stand>'s <roll> at <target>: <field> <why>."
    (the stands' short names as the map's, each field as the rule set's card labels it), "" for none."""
    claims = claims_of(event)
    if not claims:
        return ""
    payload = event.get("payload") or {}
    names = kept_of(session, game).listed_names
    labels = {f.name: f.label for f in rule_state(game.ruleset).card}

    def short(key: str) -> str:
        at = payload.get(key)
        return names[at][1] if isinstance(at, int) and at in names else ""

    who = short("unit_id") or humanise(str(event.get("actor") or ""))
    at = f" at {short('target_id')}" if short("target_id") else ""
    said = []
    for f in claims:
        name = f["field"].removesuffix("_cm")
        said.append(f"{labels.get(name) or humanise(name)} {f['why']}")
    return f"{who}'s {humanise(str(payload.get('resolver') or 'roll')).lower()}{at}: {'; '.join(said)}."
