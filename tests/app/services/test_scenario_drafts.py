"""The editor's drafts at their cap: a server keeping as many as it may refuses a new browser's first change
(409) and drops nobody's; a browser already holding one goes on changing it."""

from __future__ import annotations

from typing import Any

import pytest

from app.data.schemas_scenario import DraftParticulars
from app.errors import Conflict
from app.services import scenario_drafts as drafts
from app.services.writing import unit_of_work


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
