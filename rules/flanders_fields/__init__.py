"""Flanders Fields. Importing the package registers the rule set with all its resolvers and data.

Each module imported below attaches its resolvers, datasets and errata to FlandersFields.
"""

from rules.flanders_fields.ruleset import FlandersFields

__all__ = ["FlandersFields"]
