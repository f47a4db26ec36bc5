"""Flanders Fields. Importing the package registers the rule set with all its resolvers and data.

Each module imported below attaches its resolvers, datasets and errata to FlandersFields.
"""

from rules.flanders_fields import (  # noqa: F401  (imported to register, not used here)
    air,
    artillery,
    artillery_tables,
    assault,
    barrage,
    casualties,
    cover,
    deviation,
    events,
    firewaltz,
    game,
    gas,
    heroic,
    morale,
    movement,
    orders,
    organisation,
    reference,
    scenarios,
    shooting,
    special_rules,
    suppression,
    visibility,
    wire,
)
from rules.flanders_fields.ruleset import FlandersFields

__all__ = ["FlandersFields"]
