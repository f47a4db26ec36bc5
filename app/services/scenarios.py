"""Scenario files on the server: the ones each rule set ships (read from its files through its game hook) and
the ones imported here (the `scenario` table), listed, read, imported, replaced and deleted. A document is
checked whole (rules.core.scenario.validate) and its forces built once with its own readings before anything
is stored, so a bad file changes nothing. Never commits: the route's unit of work does."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from typing import Any

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from app.data.bounded import MAX_SCENARIO_BYTES, MAX_SCENARIOS
from app.data.models import Scenario, ScenarioDraft, utcnow
from app.errors import Conflict, Forbidden, RuleRefused
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import GameRules
from rules.core.ruleset import RuleSet
from rules.core.scenario import ID_PATTERN, ID_RULE, units_in, validate
from rules.registry import NO_RULES, all_rulesets, game_rules_or_none


def playable() -> dict[str, tuple[RuleSet, GameRules]]:
    """The rule sets a scenario may name: those played as games."""
    return {
        rs.id: (rs, rules) for rs in all_rulesets() if (rules := game_rules_or_none(rs.id)) is not NO_RULES
    }


def shipped() -> dict[str, Mapping[str, Any]]:
    """The scenarios the rule sets ship, by id."""
    return {sid: doc for _, rules in playable().values() for sid, doc in rules.book.scenarios.items()}


def list_scenarios(session: Session) -> list[dict[str, Any]]:
    """Every scenario a game may start from: the shipped ones, then the imported ones by id (read from their
    own columns: the listing never loads the documents)."""
    keys = ("id", "title", "ruleset", "period")
    stored = session.exec(
        select(Scenario.id, Scenario.title, Scenario.ruleset, Scenario.period).order_by(col(Scenario.id))
    ).all()
    return [{**{k: d[k] for k in keys}, "shipped": True} for d in shipped().values()] + [
        {**dict(zip(keys, row, strict=True)), "period": row[3] or None, "shipped": False} for row in stored
    ]


def periods_played(session: Session, ruleset: str) -> list[str]:
    """The periods some scenario of the rule set plays: an event's period is one of them, as every round is
    drafted from a scenario of the event's."""
    listed = list_scenarios(session)
    return sorted({str(d["period"]) for d in listed if d["ruleset"] == ruleset and d["period"]})


def get_document(session: Session, scenario_id: str) -> dict[str, Any]:
    """A scenario's document as it was shipped or imported; 404 for an unknown id."""
    doc = shipped().get(scenario_id)
    if doc is not None:
        return copy.deepcopy(dict(doc))  # a game's terrain is its own, never the shipped file's
    # The column alone: decoded anew for this caller, no row of the session's to copy (the largest table's
    # document copied was 80 ms of a round's commit, issue 63).
    doc = session.exec(select(Scenario.document).where(col(Scenario.id) == scenario_id)).first()
    if doc is None:
        raise NotFoundError("scenario", scenario_id)
    return dict(doc)


def checked(document: Any) -> dict[str, Any]:
    """The document once it has passed every check: its size, its shape and limits, and its forces built with
    its own readings within its rule set's cap on a game's units. A RulesError names the first problem."""
    size = len(json.dumps(document, separators=(",", ":")))
    if size > MAX_SCENARIO_BYTES:
        raise RulesError(
            "body",
            f"the scenario is {size} bytes as JSON, over the limit",
            [f"0..{MAX_SCENARIO_BYTES} bytes"],
        )
    rulesets = playable()
    doc = dict(validate(document, rulesets))
    ruleset, rules = rulesets[doc["ruleset"]]
    made = rules.new_forces(ruleset.context(doc["period"], doc.get("variants", {})), doc)
    units = units_in(*(root for roots in made.forces.values() for root in roots))
    cap = rules.unit_cap()
    if cap is not None and units > cap[0]:
        raise RulesError("sides", f"the scenario builds {units} units; {cap[1]}", [f"0..{cap[0]} units"])
    return doc


def _new_id(session: Session, title: str) -> str:
    """An id from the title (a-z, 0-9 and -), numbered when taken."""
    stem = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:56]
    stem = stem if stem[:1].isalpha() else f"scenario-{stem}".rstrip("-")[:56]
    taken = set(shipped()) | set(session.exec(select(Scenario.id).where(col(Scenario.id).startswith(stem))))
    n = 1
    sid = stem
    while sid in taken:
        n += 1
        sid = f"{stem}-{n}"
    return sid


def import_scenario(session: Session, document: Any) -> dict[str, Any]:
    """Store a new scenario; answers its document with its id (assigned from the title when absent). An id
    already used (shipped or imported) is a 409 naming the one held: replace it with PUT, or import the
    document without its id to keep both."""
    doc = checked(document)
    count = session.exec(select(func.count()).select_from(Scenario)).one()
    if count >= MAX_SCENARIOS:
        raise RuleRefused(
            f"this server keeps at most {MAX_SCENARIOS} scenarios: delete one before importing another"
        )
    sid = doc.get("id") or _new_id(session, doc["title"])
    held = shipped().get(sid) or session.get(Scenario, sid)
    if held is not None:
        # The one held, so a client can offer the choice: replace it (PUT; not one that ships) or keep both.
        title, ships = (held["title"], True) if isinstance(held, Mapping) else (held.title, False)
        replace = f"a scenario {sid!r} exists already: replace it with PUT /api/v1/scenarios/{sid}"
        raise RuleRefused(
            replace,
            current={"id": sid, "title": title, "shipped": ships},
            why=f"{replace}, or import it without its id to keep both (a copy with a new id)",
        )
    doc = {**doc, "id": sid} if "id" not in doc else doc
    session.add(
        Scenario(id=sid, ruleset=doc["ruleset"], title=doc["title"], period=doc["period"] or "", document=doc)
    )
    try:
        session.flush()
    except IntegrityError:  # the same id imported at the same moment by another request
        raise Conflict(f"a scenario {sid!r} was imported at the same moment: try again") from None
    return doc


def _not_shipped(scenario_id: str, what: str) -> None:
    if scenario_id in shipped():
        raise Forbidden(
            f"{scenario_id} ships with firestep and cannot be {what}: import a copy under another id instead"
        )


def replace_scenario(session: Session, scenario_id: str, document: Any) -> dict[str, Any]:
    """Replace an imported scenario with a new document (its id absent or the same)."""
    if not ID_PATTERN.match(scenario_id):
        raise RulesError("id", f"a scenario id is {ID_RULE}", [ID_RULE])
    _not_shipped(scenario_id, "replaced")
    row = session.get(Scenario, scenario_id)
    if row is None:
        raise NotFoundError("scenario", scenario_id)
    doc = checked(document)
    if doc.get("id", scenario_id) != scenario_id:
        raise RulesError("id", f"the document's id must be this scenario's, {scenario_id}", [scenario_id])
    doc = {**doc, "id": scenario_id} if "id" not in doc else doc
    row.ruleset, row.title, row.period = doc["ruleset"], doc["title"], doc["period"] or ""
    row.document, row.updated_at = doc, utcnow()
    session.add(row)
    _drafts_dropped(session, scenario_id)
    session.flush()
    return doc


def _drafts_dropped(session: Session, scenario_id: str) -> None:
    """Every browser's edit draft of a scenario replaced or deleted goes: a draft is edits on the scenario as it
    was, so kept it would show (and a later save would write back) the older forces over the replacement. Dropped
    rather than refreshed: a draft's changes cannot be told from what it started from, so none can be merged."""
    session.execute(delete(ScenarioDraft).where(col(ScenarioDraft.scenario) == scenario_id))


def delete_scenario(session: Session, scenario_id: str) -> None:
    """Remove an imported scenario (games started from it keep their forces and terrain)."""
    _not_shipped(scenario_id, "deleted")
    row = session.get(Scenario, scenario_id)
    if row is None:
        raise NotFoundError("scenario", scenario_id)
    session.delete(row)
    _drafts_dropped(session, scenario_id)
    session.flush()


def deployment_zones(
    session: Session, scenario_id: str | None
) -> dict[str, tuple[float, float, float, float]]:
    """Each side's deployment zone in a scenario, as the box around it (x0, y0, x1, y1); none for a game
    made without one, or from one since deleted."""
    try:
        doc = get_document(session, scenario_id) if scenario_id else {}
    except NotFoundError:
        return {}
    out = {}
    for side, spec in doc.get("sides", {}).items():
        zone = spec.get("deployment_zone")
        if zone:
            points = [p for ring in zone["coordinates"] for p in ring]
            xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
            out[side] = (min(xs), min(ys), max(xs), max(ys))
    return out
