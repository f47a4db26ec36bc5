"""Every rule set firestep knows. A rule set's package registers its class on import."""

from __future__ import annotations

import importlib

from rules.core.errors import NotFoundError
from rules.core.ruleset import RuleSet

# Packages that define rule sets, imported on first use so the registry is complete.
RULESET_MODULES: tuple[str, ...] = (
    "rules.flanders_fields",
    "rules.earth2mm",
    "rules.firestorm",
    "rules.vimy_ridge",
)

_REGISTRY: dict[str, RuleSet] = {}
_loaded = False


def register(cls: type[RuleSet]) -> type[RuleSet]:
    if cls.id in _REGISTRY:
        raise ValueError(f"rule set {cls.id} registered twice")
    _REGISTRY[cls.id] = cls()
    return cls


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
