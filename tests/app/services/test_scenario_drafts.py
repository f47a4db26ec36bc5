"""The editor's drafts at their cap: a server keeping as many as it may refuses a new browser's first change
(409) and drops nobody's; a browser already holding one goes on changing it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from app.data.schemas_scenario import DraftParticulars
from app.errors import Conflict
from app.services import scenario_drafts as drafts
from app.services import scenarios
from app.services.writing import unit_of_work
from rules.core.errors import RulesError


def test_at_its_cap_a_new_draft_is_refused_and_none_dropped(
    session: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(drafts, "MAX_SCENARIO_DRAFTS", 1)
    first = drafts.owner_of(drafts.new_key())
    second = drafts.owner_of(drafts.new_key())
    assert first and second
    with unit_of_work(session):
        drafts.set_particulars(session, first, "flanders-fields", DraftParticulars(title="Held"))
    with pytest.raises(Conflict, match="at most 1 drafts"), unit_of_work(session):
        drafts.set_particulars(session, second, "flanders-fields", DraftParticulars(title="New"))
    with unit_of_work(session):
        kept = drafts.set_particulars(session, first, "flanders-fields", DraftParticulars(title="Changed"))
    assert (kept.version, kept.document["title"]) == (2, "Changed")
    assert drafts.find(session, second, "flanders-fields") is None


def test_at_its_cap_a_draft_untouched_for_a_month_gives_way_to_a_new_one(
    session: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hostile pass: one client filled the cap in 26 s and drafts never went; a month-old one now makes room."""
    monkeypatch.setattr(drafts, "MAX_SCENARIO_DRAFTS", 1)
    old, new = drafts.owner_of(drafts.new_key()), drafts.owner_of(drafts.new_key())
    assert old and new
    with unit_of_work(session):
        left = drafts.set_particulars(session, old, "flanders-fields", DraftParticulars(title="Left"))
        left.updated_at = left.updated_at - drafts.STALE_AFTER - timedelta(minutes=1)
        session.add(left)
    with unit_of_work(session):
        drafts.set_particulars(session, new, "flanders-fields", DraftParticulars(title="New"))
    assert drafts.find(session, old, "flanders-fields") is None
    assert drafts.find(session, new, "flanders-fields") is not None


def test_an_edit_s_draft_starts_from_its_scenario_apart_from_the_new_one(
    session: Any,
) -> None:
    """Issue 67: the key gains the scenario edited, so an edit never writes over the new scenario being built;
    an edit's draft is of its scenario's rule set only."""
    owner = drafts.owner_of(drafts.new_key())
    assert owner
    mm, demo = "2mm-earth-1418", "earth2mm-demo-ferme"
    saved = scenarios.get_document(session, demo)
    with unit_of_work(session):
        drafts.set_particulars(session, owner, mm, DraftParticulars(title="Mine"))
        edit = drafts.set_particulars(session, owner, mm, DraftParticulars(title="Edited"), scenario=demo)
    forces = [edit.document["sides"][side]["forces"] for side in ("attacker", "defender")]
    assert forces == [saved["sides"][side]["forces"] for side in ("attacker", "defender")]  # from the file
    new = drafts.find(session, owner, mm)
    assert new is not None and new.document["title"] == "Mine"
    with pytest.raises(RulesError, match="not of the rule set"), unit_of_work(session):
        drafts.set_particulars(session, owner, "flanders-fields", DraftParticulars(), scenario=demo)
    with unit_of_work(session):
        drafts.discard(session, owner, mm, demo)
    assert drafts.find(session, owner, mm, demo) is None and drafts.find(session, owner, mm) is not None


def test_an_edit_s_draft_goes_when_its_scenario_is_replaced_or_deleted(session: Any) -> None:
    """Issue 67 (brief file-67): a draft is edits on the scenario as it was saved; once the scenario is replaced
    (an import's Replace, or a save from another tab) the draft's older forces would be shown and saved over the
    replacement, so every browser's draft of it is dropped and the panel starts again from what is saved."""
    mine, theirs = drafts.owner_of(drafts.new_key()), drafts.owner_of(drafts.new_key())
    assert mine and theirs
    mm = "2mm-earth-1418"
    with unit_of_work(session):
        doc = {**scenarios.get_document(session, "earth2mm-demo-ferme"), "title": "Farm"}
        del doc["id"]
        sid = scenarios.import_scenario(session, doc)["id"]
        drafts.set_particulars(session, mine, mm, DraftParticulars(title="Mine"), scenario=sid)
        drafts.set_particulars(session, theirs, mm, DraftParticulars(title="Theirs"), scenario=sid)
        drafts.set_particulars(
            session, mine, mm, DraftParticulars(title="New one")
        )  # another scenario's: kept
    replacement = {**doc, "id": sid, "title": "Farm, replaced"}
    replacement["sides"] = {**doc["sides"], "attacker": {**doc["sides"]["attacker"], "forces": []}}
    with unit_of_work(session):
        scenarios.replace_scenario(session, sid, replacement)
    assert drafts.find(session, mine, mm, sid) is None and drafts.find(session, theirs, mm, sid) is None
    assert drafts.find(session, mine, mm) is not None
    with unit_of_work(session):
        again = drafts.set_particulars(session, mine, mm, DraftParticulars(title="Again"), scenario=sid)
    assert again.document["sides"]["attacker"]["forces"] == []  # from the replacement, not the old draft
    with unit_of_work(session):
        scenarios.delete_scenario(session, sid)
    assert drafts.find(session, mine, mm, sid) is None
