"""Every rule set firestep knows, in one registry: each is one object (`RuleSet`) that owns its lookups and,
where it is played as a game, its game rules (`RuleSet.game`, a `GameRules`). A rule set's package registers
its class on import (`register`), then its game rules (`register_game`); a test adds its own for a block's time
(`registered`)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

from rules.core.campaign import Campaign
from rules.core.errors import NotFoundError, RulesError
from rules.core.game import GameRules
from rules.core.ruleset import REGISTERED, RuleSet

# Packages that define rule sets, imported on first use so the registry is complete.
RULESET_MODULES: tuple[str, ...] = (
    "rules.flanders_fields",
    "rules.earth2mm",
    "rules.firestorm",
    "rules.vimy_ridge",
)

_REGISTRY = REGISTERED
_loaded = False


def register(cls: type[RuleSet]) -> type[RuleSet]:
    if cls.id in _REGISTRY:
        raise ValueError(f"rule set {cls.id} registered twice")
    _REGISTRY[cls.id] = cls()
    return cls


def register_game(rules: GameRules) -> GameRules:
    """A rule set's game rules, given to its registered rule set (which its package registers first)."""
    rs = _REGISTRY.get(rules.book.ruleset_id)
    if rs is None:
        raise ValueError(f"register the rule set {rules.book.ruleset_id!r} before its game rules")
    if rs.game is not None:
        raise ValueError(f"game rules of {rules.book.ruleset_id} registered twice")
    type(rs).game = rules
    return rules


@contextmanager
def registered(cls: type[RuleSet]) -> Iterator[RuleSet]:
    """`cls` in the registry for the block's time, played as a game when it carries its game rules (`cls.game`):
    how a test adds a rule set of its own. An id already registered is refused."""
    _load()
    if cls.id in _REGISTRY:
        raise ValueError(f"rule set {cls.id} registered twice")
    rs = cls()
    if rs.game is not None and (not isinstance(rs.game, GameRules) or rs.game.book.ruleset_id != cls.id):
        raise ValueError(f"{cls.__name__}.game must be the GameRules of {cls.id}")
    _REGISTRY[cls.id] = rs
    try:
        yield rs
    finally:
        del _REGISTRY[cls.id]


def _load() -> None:
    global _loaded
    if not _loaded:
        for mod in RULESET_MODULES:
            importlib.import_module(mod)
        _loaded = True


def _rank(rs: RuleSet) -> int:
    """Its package's place in RULESET_MODULES (a test's own after them): the order does not depend on which
    package a process happened to import first."""
    module = type(rs).__module__
    return next((i for i, m in enumerate(RULESET_MODULES) if module.startswith(m)), len(RULESET_MODULES))


def all_rulesets() -> list[RuleSet]:
    """Every rule set, in the order of RULESET_MODULES (the first is firestep's default), tests' last."""
    _load()
    return sorted(_REGISTRY.values(), key=_rank)


def get_ruleset(ruleset_id: str) -> RuleSet:
    _load()
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        raise NotFoundError("rule set", ruleset_id, _REGISTRY) from None


def _game(rs: RuleSet | None) -> GameRules | None:
    # `RuleSet.game` is typed here: the hook's module sits above the rule set's (rules.core.ruleset).
    return rs.game if rs is not None and isinstance(rs.game, GameRules) else None


def the_campaign() -> Campaign:
    """The campaign the app plays: the first rule set's that declares one (`RuleSet.campaign`)."""
    found = [rs.campaign for rs in all_rulesets() if isinstance(rs.campaign, Campaign)]
    if not found:
        raise NotFoundError("campaign", "")
    return found[0]


def all_game_rules() -> list[GameRules]:
    """The game rules of every rule set played as a game."""
    return [g for rs in all_rulesets() if (g := _game(rs)) is not None]


def get_game_rules(ruleset_id: str) -> GameRules:
    """The rules a game of this rule set is played by; a rule set without them is refused (422)."""
    _load()
    game = _game(_REGISTRY.get(ruleset_id))
    if game is None:
        raise RulesError(
            "ruleset",
            f"rule set {ruleset_id!r} cannot be played as a game here: firestep only looks its rules up",
            sorted(g.book.ruleset_id for g in all_game_rules()),
        )
    return game


# The hook's defaults: a game whose rule set has no game rules reads as one with no state and no consequences.
NO_RULES = GameRules()


def game_rules_or_none(ruleset_id: str) -> GameRules:
    """The game rules of a rule set, or the hook's do-nothing defaults when it has none (reading, not playing)."""
    _load()
    return _game(_REGISTRY.get(ruleset_id)) or NO_RULES
