"""The scenario editor's drafts (issue 67): what a club member enters in the editor is kept on the server as it
is entered, so a reload or a lost wifi loses nothing. A draft is one per browser, rule set and scenario edited
('' for a new one: an edit never writes over the new scenario being built); its owner is the sha256 of the browser's own random key (kept in its cookie, never stored), so a draft is found only by the
browser holding that key: no id in a URL, nothing another browser can name, read or change. A draft is
unchecked while it is built; `problem` asks the rule set's own checks (app.services.scenarios.checked) what it
still lacks, in their sentence. Never commits: the page's unit of work does."""

from __future__ import annotations

import copy
import hashlib
import re
import secrets
from collections.abc import Callable, Mapping
from datetime import timedelta
from functools import cache
from typing import Any, TypeVar

from pydantic import JsonValue
from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from app.data.bounded import MAX_SCENARIO_DRAFTS, Terrain
from app.data.models import ScenarioDraft, utcnow
from app.data.schemas_scenario import DraftParticulars, TableObjectives
from app.errors import Conflict, RuleRefused
from app.services import scenarios
from rules.core.errors import RulesError
from rules.registry import get_game_rules, get_ruleset
from rules.table.objectives import objectives_from_geojson

# A browser's key as this module mints it: 32 random bytes, URL-safe base64 (43 characters). A cookie of any other
# shape is no key (the browser is given a new one), so a hostile cookie reaches no query as sent.
KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")


T = TypeVar("T")
STALE_AFTER = timedelta(days=30)  # a draft untouched this long gives way to a new one at the cap


def new_key() -> str:
    return secrets.token_urlsafe(32)


def owner_of(key: str | None) -> str | None:
    """The owner a browser's key stands for (its sha256), or None for a missing or misshapen key."""
    if key is None or not KEY_SHAPE.fullmatch(key):
        return None
    return hashlib.sha256(key.encode()).hexdigest()


@cache
def zone_depth(ruleset_id: str) -> dict[str, Any] | None:
    """How deep a new scenario's deployment zones start: as the rule set's own ready scenario has them (Mons:
    "Both sides deploy 15cm onto the table"), else as its first shipped scenario's attacker zone, with its
    source; None when it has none to go by."""
    rs = get_ruleset(ruleset_id)
    if "scenarios" in rs.datasets:
        for scenario in rs.data("scenarios"):
            zone = scenario.get("deployment_zones", {}).get("attacker")
            if zone:
                return {"cm": zone[3] - zone[1], "source": scenario.get("source", "")}
    for doc in get_game_rules(ruleset_id).book.scenarios.values():
        polygon = (doc["sides"]["attacker"].get("deployment_zone") or {}).get("coordinates")
        if polygon:
            ys = [p[1] for p in polygon[0]]
            return {"cm": max(ys) - min(ys), "source": doc["title"]}
    return None


def empty_document(ruleset_id: str) -> dict[str, Any]:
    """A new scenario's document as the editor starts it: the format's fields, in the rule set's first period (as
    its form offers it), each side's zone as deep as `zone_depth` (the form shows it so: a first change of any
    part keeps it, session 23's newcomer found every Lay out refused), nothing else chosen yet."""
    periods = get_ruleset(ruleset_id).periods
    depth = zone_depth(ruleset_id)
    cm = int(depth["cm"]) if depth else None
    form = DraftParticulars(zone_attacker=cm, zone_defender=cm)  # the form's table, its zones this deep
    return {
        "format": "firestep-scenario/1",
        "title": "",
        "ruleset": ruleset_id,
        "period": periods[0].id if periods else None,
        "table": {"width_cm": form.width_cm, "length_cm": form.length_cm},
        "sides": {
            side: {"nationality": "", "deployment_zone": form.zone(side), "forces": []}
            for side in ("attacker", "defender")
        },
    }


def find(
    session: Session, owner: str | None, ruleset_id: str, scenario: str = "", for_change: bool = False
) -> ScenarioDraft | None:
    """This browser's draft of a scenario of this rule set (of the scenario edited; '' a new one), if it has one;
    `for_change` holds its row until the change is written: the panels post at once (a side's field's change and
    its add), and the document is written whole, so the later would otherwise lose the earlier's change."""
    if owner is None:
        return None
    query = select(ScenarioDraft).where(
        col(ScenarioDraft.owner) == owner,
        col(ScenarioDraft.ruleset) == ruleset_id,
        col(ScenarioDraft.scenario) == scenario,
    )
    return session.exec(query.with_for_update() if for_change else query).first()


def _started(session: Session, ruleset_id: str, scenario: str) -> dict[str, Any]:
    """What a draft starts from: the scenario edited as it is saved (404 for an unknown id, never a draft of
    nothing), or a new scenario's empty document."""
    if not scenario:
        return empty_document(ruleset_id)
    document = scenarios.get_document(session, scenario)
    if document.get("ruleset") != ruleset_id:  # a draft's rule set is its scenario's, never another's
        raise RulesError("ruleset", f"the scenario {scenario[:64]} is not of the rule set {ruleset_id[:64]}")
    return document


def _kept(session: Session, owner: str, ruleset_id: str, scenario: str = "") -> ScenarioDraft:
    """This browser's draft of the rule set (and scenario edited), made on its first change. A server at its cap
    of drafts refuses a new one (409) rather than drop another member's."""
    draft = find(session, owner, ruleset_id, scenario, for_change=True)
    if draft is not None:
        draft.version += 1
        return draft
    held = session.exec(select(func.count()).select_from(ScenarioDraft)).one()
    if held >= MAX_SCENARIO_DRAFTS:  # drafts left a month make room first (the hostile pass: a cap filled)
        stale = col(ScenarioDraft.updated_at) < utcnow() - STALE_AFTER
        session.execute(delete(ScenarioDraft).where(stale))
        held = session.exec(select(func.count()).select_from(ScenarioDraft)).one()
    if held >= MAX_SCENARIO_DRAFTS:
        raise RuleRefused(
            f"this server keeps at most {MAX_SCENARIO_DRAFTS} drafts: save one as a scenario first"
        )
    document = _started(session, ruleset_id, scenario)
    return ScenarioDraft(owner=owner, ruleset=ruleset_id, scenario=scenario, document=document)


def _written(session: Session, draft: ScenarioDraft, document: dict[str, Any]) -> ScenarioDraft:
    draft.document = document  # a new object: the JSON column is written whole
    draft.updated_at = utcnow()
    session.add(draft)
    try:
        session.flush()
    except IntegrityError:  # the same browser's first change sent twice at once (two tabs)
        raise Conflict("this draft was started at the same moment in another tab: reload the page") from None
    return draft


def set_particulars(
    session: Session, owner: str, ruleset_id: str, particulars: DraftParticulars, scenario: str = ""
) -> ScenarioDraft:
    """Keep the particulars in this browser's draft of the rule set (and scenario edited)."""
    draft = _kept(session, owner, ruleset_id, scenario)
    return _written(session, draft, particulars.into(dict(draft.document)))


def change_forces(
    session: Session,
    owner: str,
    ruleset_id: str,
    change: Callable[[dict[str, Any]], T],
    scenario: str = "",
) -> tuple[ScenarioDraft, T]:
    """One change to the forces of this browser's draft (app.services.scenario_forces), made on a copy of its
    document, kept only when the change is allowed (a RulesError leaves the draft as it was)."""
    draft = _kept(session, owner, ruleset_id, scenario)
    document = copy.deepcopy(draft.document)
    answer = change(document)
    return _written(session, draft, document), answer


def set_objectives(
    session: Session, owner: str, ruleset_id: str, objectives: TableObjectives, scenario: str = ""
) -> ScenarioDraft:
    """Keep the objectives drawn (scenario-objectives.js's collection, whole) in this browser's draft, each
    checked as the format checks it on the draft's table (a RulesError naming the feature's field). A taken
    objective's condition naming one no longer public goes with it: deleted or made secret, it can name none."""
    draft = _kept(session, owner, ruleset_id, scenario)
    document = copy.deepcopy(draft.document)
    collection = objectives.model_dump(mode="json", exclude_unset=True)
    table = document.get("table")
    size = [table.get(k) if isinstance(table, dict) else None for k in ("width_cm", "length_cm")]
    width, length = (float(v) if isinstance(v, int | float) else 0.0 for v in size)
    found = objectives_from_geojson(collection, width, length)
    public = {o.id for o in found if o.secret_to is None}
    # None drawn: the key left out, as a scenario without objectives writes it.
    document.pop("table_objectives", None)
    if collection["features"]:
        document["table_objectives"] = collection
    held = document.pop("victory_conditions", None)
    conditions = [
        c
        for c in (held if isinstance(held, list) else [])
        if not (
            isinstance(c, dict) and c.get("kind") == "objective_taken" and c.get("objective") not in public
        )
    ]
    if conditions:
        document["victory_conditions"] = conditions
    return _written(session, draft, document)


def set_terrain(
    session: Session, owner: str, ruleset_id: str, terrain: Terrain, scenario: str = ""
) -> ScenarioDraft:
    """Keep the terrain drawn (scenario-editor.js's collection, whole) in this browser's draft: bounded as the
    format bounds it, checked on the table by the rule set's checks when it is saved."""
    draft = _kept(session, owner, ruleset_id, scenario)
    return _written(session, draft, {**draft.document, "terrain": terrain.as_geojson()})


def put_document(
    session: Session, owner: str, ruleset_id: str, document: dict[str, JsonValue], scenario: str = ""
) -> ScenarioDraft:
    """A whole document (a file imported, checked as the scenario API checks it) made this browser's draft of
    the scenario: what Replace or Keep both then saves."""
    return _written(session, _kept(session, owner, ruleset_id, scenario), copy.deepcopy(document))


def public_objectives(document: Mapping[str, JsonValue]) -> list[tuple[str, str]]:
    """The draft's objectives a condition may name (id, name): the public ones, as the rule set's checks allow."""
    collection = document.get("table_objectives")
    features = collection.get("features") if isinstance(collection, dict) else None
    shown = []
    for i, f in enumerate(features if isinstance(features, list) else []):
        properties = (f.get("properties") if isinstance(f, dict) else None) or {}
        fid = str(
            (f.get("id") if isinstance(f, dict) else None) or f"objective-{i + 1}"
        )  # as the rules name it
        if isinstance(properties, dict) and not properties.get("secret_to"):
            shown.append((fid, str(properties.get("name") or fid)))
    return shown


def problem(document: dict[str, Any]) -> RulesError | None:
    """What the rule set's checks say a draft's document still lacks (the first, in its own sentence), None when
    it would save as it is."""
    try:
        scenarios.checked(document)
    except RulesError as e:
        return e
    return None


def discard(session: Session, owner: str | None, ruleset_id: str, scenario: str = "") -> None:
    """Drop this browser's draft of the rule set (Start afresh): nothing of another browser's is reachable here."""
    draft = find(session, owner, ruleset_id, scenario)
    if draft is not None:
        session.delete(draft)
        session.flush()
