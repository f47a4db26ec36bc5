"""Flanders Fields. Importing the package registers the rule set with all its resolvers and data.

Each module imported below attaches its resolvers, datasets and errata to FlandersFields.
"""

from rules.flanders_fields.ruleset import FlandersFields
from rules.flanders_fields import movement  # noqa: F401  (engine II B: movement)
from rules.flanders_fields import reference, organisation, artillery_tables, scenarios  # noqa: F401  (engine II B)
from rules.flanders_fields import gas  # noqa: F401  (engine II: gas)
from rules.flanders_fields import artillery, barrage, air, heroic  # noqa: F401  (engine II A)
from rules.flanders_fields import visibility, deviation, events, casualties  # noqa: F401  (engine II A)
from rules.flanders_fields import cover  # noqa: F401  (table geometry: cover classes)
from rules.flanders_fields import orders, shooting, morale, assault, wire, suppression, special_rules  # noqa: F401  (engine I)

__all__ = ["FlandersFields"]
