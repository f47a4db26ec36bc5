"""Issue 68: a deprecation our own code meets fails the test that meets it (pyproject.toml's filterwarnings),
while a dependency's notice about itself is shown, not failed: the suite says when an API we call is going."""

from __future__ import annotations

import warnings

import pytest


def test_a_deprecation_met_in_our_code_fails_the_test() -> None:
    for module in ("app.services.acts", "rules.core.game", "playsheets.render", "tests.app.test_cli"):
        with pytest.raises(DeprecationWarning):
            warnings.warn_explicit("going", DeprecationWarning, "x.py", 1, module=module)


def test_a_dependencys_notice_about_itself_is_shown_not_failed() -> None:
    for module in ("sqlalchemy.orm", "application", "rulesets"):
        with pytest.warns(DeprecationWarning):
            warnings.warn_explicit("going", DeprecationWarning, "x.py", 1, module=module)
