"""The game hook is small (issue 54): one object per rule set, `GameRules` (rules/core/game.py), whose methods
have defaults that play, in the manner of python-chess's variants; a rule set overrides only what its book
changes and declares its data in one frozen record, its `Book`.

Counted honestly, through every part the hook holds: every public member of `GameRules` (its `book` among
them); every member, beyond its data fields, of the records the book holds (`Book`, `TableKit`, `RollTerms`,
`FirePlanTerms`, `Claims`: a method or a property there is a member of the hook); and every underscore member
of `GameRules` that a rule set overrides (a registered one, the test's skirmish, or any class of rules/ or tests/
defining it: an underscore method a rule set overrides is a hook member in disguise). At most 40."""

from __future__ import annotations

import ast
import dataclasses
import functools
from pathlib import Path

from rules.core.game import Book, FirePlanTerms, GameRules
from rules.core.kit import TableKit
from rules.core.records import Claims
from rules.core.rolls import RollTerms
from rules.registry import all_game_rules
from tests.skirmish import SKIRMISH_GAME

ROOT = Path(__file__).resolve().parents[2]
MOST_MEMBERS = 40
RECORDS = (Book, TableKit, RollTerms, FirePlanTerms, Claims)


def _own(name: str) -> bool:
    return not name.startswith("__")


@functools.cache
def _overridden_underscores() -> frozenset[str]:
    """The underscore members of GameRules some rule set overrides: in a registered game's classes, the
    skirmish's, or any class of rules/ and tests/ that defines one (by its source: a rule set registered only
    for a test's time counts as well)."""
    hidden = {n for n in vars(GameRules) if n.startswith("_") and _own(n)}
    found = {
        n
        for game in (*all_game_rules(), SKIRMISH_GAME)
        for cls in type(game).__mro__
        if cls is not GameRules and cls is not object
        for n in vars(cls)
        if n in hidden
    }
    for folder in ("rules", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            if not any(f"def {n}(" in text for n in hidden):
                continue
            tree = ast.parse(text, str(path))
            for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name != "GameRules"):
                found |= {f.name for f in cls.body if isinstance(f, ast.FunctionDef) and f.name in hidden}
    return frozenset(found)


def hook_members() -> list[str]:
    """Every member of the hook, as `Part.name`."""
    members = {f"GameRules.{n}" for n in dir(GameRules) if not n.startswith("_")}
    for record in RECORDS:
        data = {f.name for f in dataclasses.fields(record)}
        members |= {f"{record.__name__}.{n}" for n in dir(record) if not n.startswith("_") and n not in data}
    members |= {f"GameRules.{n}" for n in _overridden_underscores()}
    return sorted(members)


def test_the_hook_has_at_most_forty_members_through_its_parts() -> None:
    members = hook_members()
    assert len(members) <= MOST_MEMBERS, (len(members), members)
    # The records the book holds are data: no member of their own beyond their fields.
    assert all(m.startswith("GameRules.") for m in members), members


def test_the_book_is_plain_data_and_every_member_has_a_default_that_plays() -> None:
    assert dataclasses.is_dataclass(Book) and Book.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert not dataclasses.is_dataclass(GameRules)  # the hook is behaviour; its data is its book
    bare = GameRules()
    assert bare.book == Book()
    for game in (*all_game_rules(), SKIRMISH_GAME):
        assert isinstance(game.book, Book) and game.book.ruleset_id, type(game).__name__


def test_the_finder_counts_an_underscore_method_a_rule_set_overrides() -> None:
    # Flanders Fields overrides a roll's consequences and the fire plan's rehearsal: both are counted.
    assert {"_consequences", "_rehearse", "_arrival_fired"} <= _overridden_underscores()
