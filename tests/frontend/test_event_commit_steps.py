"""A round's commit over several requests in the browser (issue 63): each request stops once it has spent its
CPU budget (here none: one step a request), and the organiser's page carries the commit on by itself after the
one tap; a continuation lost on the way (a flaky wifi) leaves the page's one "Finish committing" button. What
each request answers is tests/app/events/test_round_commit_steps.py's; here what the browser adds (htmx sending
the form again on load, each answer's section swapped in, the finished round's page)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import REFEREE_SCREEN, module_server
from tests.frontend.test_event_day import make_event

pytestmark = pytest.mark.browser


# This module's server: a commit request's CPU budget none, so every commit takes several requests.
server_url = module_server({"FIRESTEP_COMMIT_CPU_SECONDS": "0"})


def drafted(organiser: Any) -> None:
    make_event(organiser)
    organiser.get_by_label("One a line: name, club, force list").fill(
        "Ann, Ypres\nBob, Ypres\nCat, Arras\nDan, Arras\nEve, Lens\nFay, Lens"
    )
    organiser.get_by_role("button", name="Register them").click()
    organiser.get_by_role("button", name="Draft the pairing").click()
    expect(organiser.locator("#draft ol")).to_contain_text("Table 3")


def test_one_tap_commits_a_round_over_several_requests_and_a_lost_one_leaves_the_finish_button(
    new_page: Any,
) -> None:
    organiser = new_page(REFEREE_SCREEN)
    drafted(organiser)
    commits: list[str] = []

    def second_lost(route: Any) -> None:  # the first carrying-on request lost on the way
        commits.append(route.request.method)
        route.abort() if len(commits) == 2 else route.continue_()

    organiser.route("**/rounds/1/commit", second_lost)
    # The tap's page carries on by itself, its second commit request lost; another request failing meanwhile (a
    # loaded run: 1 commit request seen when the event came) is not the one awaited.
    with organiser.expect_event("requestfailed", predicate=lambda r: r.url.endswith("/rounds/1/commit")):
        organiser.get_by_role("button", name="Commit round 1: make the games").click()
    assert len(commits) == 2
    status = organiser.locator("#draft [role=status]")
    expect(status).to_contain_text(re.compile(r"Committing round 1: [1-3] of 3 tables made"))
    finish = organiser.get_by_role("button", name="Finish committing round 1")
    expect(finish).to_be_visible()  # the page as it was: its one button
    finish.click()  # its page carries on by itself from there, as after the first tap
    tables = organiser.locator("#tables")
    expect(tables.locator("tbody tr")).to_have_count(3)
    expect(organiser.locator("#draft")).not_to_contain_text("Committing round 1")
    assert len(commits) > 3 and set(commits) == {"POST"}, commits  # after the second tap, more than one
