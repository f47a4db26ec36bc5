"""Every rule set firestep knows. A rule set's package registers its class on import."""

from __future__ import annotations

import importlib

from rules.core.errors import NotFoundError, RulesError
from rules.core.game import GameRules
from rules.core.ruleset import RuleSet

# Packages that define rule sets, imported on first use so the registry is complete.
RULESET_MODULES: tuple[str, ...] = (
    "rules.flanders_fields",
    "rules.earth2mm",
    "rules.firestorm",
    "rules.vimy_ridge",
)

_REGISTRY: dict[str, RuleSet] = {}
# Rule sets that can be played as a game (rules.core.game): the rest are lookups and dice assistants.
_GAMES: dict[str, GameRules] = {}
_loaded = False


def register(cls: type[RuleSet]) -> type[RuleSet]:
    if cls.id in _REGISTRY:
        raise ValueError(f"rule set {cls.id} registered twice")
    _REGISTRY[cls.id] = cls()
    return cls


def register_game(rules: GameRules) -> GameRules:
    if rules.ruleset_id in _GAMES:
        raise ValueError(f"game rules of {rules.ruleset_id} registered twice")
    _GAMES[rules.ruleset_id] = rules
    return rules


def _load() -> None:
    global _loaded
    if not _loaded:
        for mod in RULESET_MODULES:
            importlib.import_module(mod)
        _loaded = True


def all_rulesets() -> list[RuleSet]:
    _load()
    return list(_REGISTRY.values())


def get_ruleset(ruleset_id: str) -> RuleSet:
    _load()
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        raise NotFoundError("rule set", ruleset_id, _REGISTRY) from None


def all_game_rules() -> list[GameRules]:
    """The game rules of every rule set played as a game."""
    _load()
    return list(_GAMES.values())


def get_game_rules(ruleset_id: str) -> GameRules:
    """The rules a game of this rule set is played by; a rule set without them is refused (422)."""
    _load()
    try:
        return _GAMES[ruleset_id]
    except KeyError:
        raise RulesError(
            "ruleset",
            f"rule set {ruleset_id!r} cannot be played as a game here: firestep only looks its rules up",
            sorted(_GAMES),
        ) from None


# The hook's defaults: a game whose rule set has no game rules reads as one with no state and no consequences.
NO_RULES = GameRules()


def game_rules_or_none(ruleset_id: str) -> GameRules:
    """The game rules of a rule set, or the hook's do-nothing defaults when it has none (reading, not playing)."""
    _load()
    return _GAMES.get(ruleset_id, NO_RULES)
