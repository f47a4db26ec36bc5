"""Flanders Fields. Importing the package registers the rule set with all its resolvers and data.

Each module imported below attaches its resolvers, datasets and errata to FlandersFields: `resolvers/` (what a
player asks at the table), `book/` (the book's tables as data), `play/` (the rule set played as a game) and
`planning/` (the ready scenarios); its geometry lookups last (play/geometry_*.py). They are imported in this order, which is the order the
rule set lists its resolvers in.
"""

# isort: off
from rules.flanders_fields.resolvers import air  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import artillery  # noqa: F401  (imported to register)
from rules.flanders_fields.book import artillery_tables  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import assault  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import barrage  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import casualties  # noqa: F401  (imported to register)
from rules.flanders_fields.book import cover  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import deviation  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import events  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import firewaltz  # noqa: F401  (imported to register)
from rules.flanders_fields.play import game  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import gas  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import heroic  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import morale  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import movement  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import orders  # noqa: F401  (imported to register)
from rules.flanders_fields.book import organisation  # noqa: F401  (imported to register)
from rules.flanders_fields.book import reference  # noqa: F401  (imported to register)
from rules.flanders_fields.planning import scenarios  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import reinforcements  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import shooting  # noqa: F401  (imported to register)
from rules.flanders_fields.book import special_rules  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import suppression  # noqa: F401  (imported to register)
from rules.flanders_fields.book import terrain_drawing  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import visibility  # noqa: F401  (imported to register)
from rules.flanders_fields.resolvers import wire  # noqa: F401  (imported to register)
from rules.flanders_fields.play import geometry_measure  # noqa: F401  (imported to register)
from rules.flanders_fields.play import geometry_fire  # noqa: F401  (imported to register)
from rules.flanders_fields.play import geometry_artillery  # noqa: F401  (imported to register)

# isort: on
from rules.flanders_fields.ruleset import FlandersFields

__all__ = ["FlandersFields"]
