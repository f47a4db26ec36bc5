"""What each template on the table covers, rendered by the server (issue 67): for every template, the stands
under it fully, partly or too close to call, as the rule set's coverage lookup answers it (the same function
that answers POST /api/v1/rulesets/{id}/lookups/coverage; none where the rule set has no such lookup), named as
the map names them, with one tap to put a marker on every stand fully under it beyond doubt. Rendered per seat
by `_template_coverage.html` (the table is public: every seat reads the same) and brought in by
frontend/static/js/table-coverage.js, which reads it anew as the map changes, marks the stands on the map and
sends the markers through the markers API (the same rules of play as a marker placed by hand)."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ValidationError
from sqlmodel import Session

from app.core.routing import Router
from app.data.models import Game
from app.deps import GameId, SessionDep, SettingsDep
from app.errors import sentence
from app.pages.seats import game_page
from app.pages.templates import humanise
from app.services import templates as table_templates
from app.services.markers import kept_of, rules_of
from rules.core.errors import RulesError
from rules.core.records import UnitState
from rules.registry import get_ruleset

__all__ = ["Coverage", "TemplateCoverage", "coverage", "coverage_page"]

router = Router()


class Covered(BaseModel):
    """The part of a coverage lookup's answer the panel reads: stand ids (as the request gave them) by class."""

    full: list[str]
    partial: list[str]
    ambiguous: list[str]


@dataclass(frozen=True)
class CoverLine:
    """The stands under a template in one way (`kind`: full, partial or ambiguous), named as the map names them."""

    kind: str
    text: str
    count: int


@dataclass(frozen=True)
class TemplateCoverage:
    """One template's block: its kind and side, its lists, the stands its one tap marks (`sure`, fully under
    with no nudge of the tolerance taking them out) and that button's words; `refused`: why the lookup could
    not answer it."""

    id: int
    title: str
    lines: tuple[CoverLine, ...]
    sure: tuple[int, ...]
    mark: str
    refused: str


@dataclass(frozen=True)
class Coverage:
    """Every template's coverage for one seat, each stand's class on the map (`cover`, as JSON: unit id ->
    "cov-full" or "cov-partial"), and what the panel says when it lists none (`empty`)."""

    templates: tuple[TemplateCoverage, ...]
    cover: str
    empty: str

    def context(self) -> dict[str, object]:
        """The context `_template_coverage.html` renders (tests/app/games/test_template_coverage_page.py holds the two together)."""
        return {"coverage": self}


def _line(kind: str, text: str, ids: Sequence[int], name: dict[int, str]) -> CoverLine:
    return CoverLine(kind, f"{text} ({len(ids)}): {', '.join(name[i] for i in ids) or 'none'}", len(ids))


def _block(t: dict[str, object], cov: Covered, name: dict[int, str]) -> TemplateCoverage:
    """A template's lists, each stand in one only: those too close to call are left off full and partial."""
    doubt = [int(i) for i in cov.ambiguous]
    sure = tuple(int(i) for i in cov.full if int(i) not in doubt)
    partial = [int(i) for i in cov.partial if int(i) not in doubt]
    lines = [_line("full", "Fully under", sure, name), _line("partial", "Partly under", partial, name)]
    if doubt:
        lines.append(_line("ambiguous", "Too close to call, measure on the table", doubt, name))
    many = f"{len(sure)} stands: {', '.join(name[i] for i in sure)}"
    mark = f"+1 marker on {name[sure[0]] if len(sure) == 1 else many}" if sure else ""
    return TemplateCoverage(int(str(t["id"])), _title(t), tuple(lines), sure, mark, "")


def _title(t: dict[str, object]) -> str:
    return f"{humanise(str(t['kind']))} · {str(t['side']).capitalize()}"


Stand = tuple[int, str, str | None, float | None, float | None, float]  # id, side, base, x, y, facing


# Every device with the map open reads the panel after each change of the map, and a template dragged changes only
# its own line: each template's answer is kept for the stands and table it was worked out for (a pure function of
# them), so one change is worked out once, not once per device and per template (60 templates over 942 stands
# took ~1 s a read: the hostile pass of s11).
@functools.lru_cache(maxsize=256)
def _covered(
    ruleset: str,
    table: tuple[float, float],
    template: tuple[str, float, float, float],
    stands: tuple[Stand, ...],
) -> Covered | str:
    """What the rule set's coverage lookup says `template` (kind, x, y, rotation) covers of `stands`, or why it
    could not answer (its sentence)."""
    lookup = get_ruleset(ruleset).lookups["coverage"]
    kind, x, y, rotation = template
    try:
        request = lookup.request_model.model_validate(
            {
                "template": {"kind": kind, "center": [x, y], "facing_deg": rotation},
                "stands": [
                    {"id": str(i), "side": side, "base": base, "center": [sx, sy], "facing_deg": facing}
                    for i, side, base, sx, sy, facing in stands
                ],
                "table": {"width_cm": table[0], "length_cm": table[1]},
            }
        )
        return Covered.model_validate(lookup.answer(request).model_dump())
    except (RulesError, ValidationError) as e:
        return sentence(str(getattr(e, "message", e)).splitlines()[0])


def coverage(session: Session, game: Game) -> Coverage:
    """Every template on the table, what the rule set's coverage lookup says it covers of the stands on it."""
    templates = sorted(table_templates.templates_of(game), key=lambda t: int(t["id"]))
    lookup = get_ruleset(game.ruleset).lookups.get("coverage")
    if not templates or lookup is None:  # no such lookup in the rule set: the panel lists no stands
        return Coverage((), "{}", "" if templates else "No template is on the table.")
    kept = kept_of(session, game)  # the game's units as the worker keeps them, named there once
    units = kept.units
    name = {uid: short for uid, (_, short, _) in kept.listed_names.items()}
    bases = rules_of(game).book.kit.bases

    def on_table(u: UnitState) -> bool:
        return u.x is not None and u.y is not None and bool(u.base) and not u.off_table and not u.killed

    stands = tuple(
        (u.id, u.side, u.base, u.x, u.y, 90.0 if u.facing_deg is None else u.facing_deg)
        for u in units
        if on_table(u) and u.base in bases
    )
    table = (game.table_width_cm, game.table_length_cm)
    blocks: list[TemplateCoverage] = []
    cover: dict[str, str] = {}  # unit id -> its class on the map: fully under any template wins
    for t in templates:
        at = (str(t["kind"]), float(t["x"]), float(t["y"]), float(t["rotation"]))
        cov = _covered(game.ruleset, table, at, stands)
        if isinstance(cov, str):
            blocks.append(TemplateCoverage(int(t["id"]), _title(t), (), (), "", cov))
            continue
        blocks.append(_block(t, cov, name))
        for i in cov.partial:
            cover.setdefault(i, "cov-partial")
        for i in cov.full:
            cover[i] = "cov-full"
    return Coverage(tuple(blocks), json.dumps(cover), "")


@router.get("/games/{game_id}/map/coverage", response_class=HTMLResponse)
def coverage_page(game_id: GameId, request: Request, session: SessionDep, settings: SettingsDep) -> Response:
    """What each template on the table covers (`coverage`), as a fragment."""
    return game_page(
        request,
        session,
        settings,
        game_id,
        "_template_coverage.html",
        "_template_coverage.html",
        lambda game, seat: coverage(session, game).context(),
    )
