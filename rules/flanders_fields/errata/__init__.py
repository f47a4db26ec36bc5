"""Errata of Flanders Fields, one module per topic.

An erratum is a place where two texts disagree (or one is silent): each quotes both readings with their
locations. Where a period playsheet is one of them it is the default (the rule book: the period's quick
reference sheet governs a game); where the text is silent the erratum says so and the default is a referee's
reading. Each erratum's `section` names the part of the period playsheet that prints it (actions,
artillery, barrage, wire, movement, firing, armour) or, for topics the playsheet has no section
for, the topic itself. Importing this package registers them all on FlandersFields.
"""

from __future__ import annotations

from rules.flanders_fields.errata.artillery import (
    AIR_ATTACK_MACHINE_GUN,
    AIR_MISSION_ORDER,
    ARTILLERY_ACTION_MID,
    ARTILLERY_LINE_OF_SIGHT_EARLY,
    ARTILLERY_LINE_OF_SIGHT_LATE,
    DEEP_SHELTER_VETERAN,
    SRC_AIR,
    SRC_ARTILLERY_ACTION,
    SRC_DEEP_SHELTERS,
)
from rules.flanders_fields.errata.assault import (
    ASSAULT_ACTION,
    CAVALRY_VS_OTHER_FOOT,
    DEFENDER_REAR_SUPPORT,
)
from rules.flanders_fields.errata.barrage import (
    BARRAGE_DANGER_ROW,
    BARRAGE_DURATION,
    BARRAGE_UPHILL,
    ROLLING_BARRAGE_NATURAL_ONE,
    SRC_BARRAGE_DANGER,
    SRC_FIRE_PLAN,
    SRC_ROLLING_BARRAGE,
)
from rules.flanders_fields.errata.campaign import (
    CASUALTY_ROUNDING,
    EVENTS_PACK,
    EVENTS_PACK_EXHAUSTED,
    SRC_CASUALTIES,
    SRC_EVENTS,
)
from rules.flanders_fields.errata.fire_plan import (
    ARTILLERY_ROLL_PER,
    ARTILLERY_TWO_ACTIONS,
    FIREWALTZ_STRONG_POINT_COVER,
    PLANNED_BOMBARDMENT_ORDER,
    PLANNED_FIRE_DEVIATION,
)
from rules.flanders_fields.errata.firing import (
    ARMOUR_FIELD_ARTILLERY_OVER_75,
    BEATEN_ZONE_PENALTY,
    BLOCKHOUSE_RANGE,
    DIRECT_FIRE_FACTORS,
    EARLY_FIRERS_NOT_ON_PLAYSHEET,
    LIGHT_MORTAR_PARTIAL,
    MG_ARC,
    MID_FIRING_TABLE,
    RAW_FIRER_PENALTY,
    SRC_NATURAL_ONE,
)
from rules.flanders_fields.errata.gas import (
    GAS_SPEED_BELOW_ZERO,
    SRC_GAS_MOVEMENT,
)
from rules.flanders_fields.errata.movement import (
    EARLY_WIRE_CROSSING,
    MAIN_MOVEMENT,
    MOVE_CLOSE_INFANTRY,
    MOVE_MANHANDLED_ROUNDING,
    MOVE_MIXED_TERRAIN,
    MOVE_MOTOR_BROKEN_GROUND,
    MOVE_TRENCH_FIELD_ARTILLERY,
    MOVEMENT,
    PLAYSHEET_MOVEMENT,
    TURN_COST,
)
from rules.flanders_fields.errata.national_rules import (
    ELAN_IN_ASSAULT,
    MAD_MINUTE_LIMIT,
    PRUSSIAN_DISCIPLINE_MORALE,
)
from rules.flanders_fields.errata.order_rolls import (
    EARLY_REGIMENTAL_MORTAR_ORDERS,
    ORDER_MODIFIERS,
    RAW_ORDER_MODIFIER,
    STAFF_SUPPORT_BONUS,
    UNNAMED_ORDER_UNITS,
)
from rules.flanders_fields.errata.organisation import (
    ORG_CHART_MULTIPLES,
    ORG_DEFAULT_QUALITY,
    ORG_INFANTRY_FORMATIONS_PER_DIVISION,
)
from rules.flanders_fields.errata.scenarios import (
    MONS_BRIDGES,
    MONS_GERMAN_QUALITY,
    MONS_HOWITZER_CALIBRE,
    MONS_TABLE_LAYOUT,
    REINFORCEMENT_ROLL_PER,
    SCENARIO_VICTORY,
)
from rules.flanders_fields.errata.table_play import (
    AIRCRAFT_SUPPRESSION_SPREAD,
    ASSAULT_DRAW_COVER,
    BECOME_SUPPRESSED,
    COMMANDER_REACH,
    DEAD_COMMANDER_ORDERS,
    DEEP_SUPPRESSION_ON_TABLE,
    JUDGED_BY_EYE,
    RANGE_MEASURED,
    ROAD_MARCH_COVER,
    SHOT_SUPPRESSES_COMPANY,
)

__all__ = [
    "AIRCRAFT_SUPPRESSION_SPREAD",
    "AIR_ATTACK_MACHINE_GUN",
    "AIR_MISSION_ORDER",
    "ARMOUR_FIELD_ARTILLERY_OVER_75",
    "ARTILLERY_ACTION_MID",
    "ARTILLERY_LINE_OF_SIGHT_EARLY",
    "ARTILLERY_LINE_OF_SIGHT_LATE",
    "ARTILLERY_ROLL_PER",
    "ARTILLERY_TWO_ACTIONS",
    "ASSAULT_ACTION",
    "ASSAULT_DRAW_COVER",
    "BARRAGE_DANGER_ROW",
    "BARRAGE_DURATION",
    "BARRAGE_UPHILL",
    "BEATEN_ZONE_PENALTY",
    "BECOME_SUPPRESSED",
    "BLOCKHOUSE_RANGE",
    "CASUALTY_ROUNDING",
    "CAVALRY_VS_OTHER_FOOT",
    "COMMANDER_REACH",
    "DEAD_COMMANDER_ORDERS",
    "DEEP_SHELTER_VETERAN",
    "DEEP_SUPPRESSION_ON_TABLE",
    "DEFENDER_REAR_SUPPORT",
    "DIRECT_FIRE_FACTORS",
    "EARLY_FIRERS_NOT_ON_PLAYSHEET",
    "EARLY_REGIMENTAL_MORTAR_ORDERS",
    "EARLY_WIRE_CROSSING",
    "ELAN_IN_ASSAULT",
    "EVENTS_PACK",
    "EVENTS_PACK_EXHAUSTED",
    "FIREWALTZ_STRONG_POINT_COVER",
    "GAS_SPEED_BELOW_ZERO",
    "JUDGED_BY_EYE",
    "LIGHT_MORTAR_PARTIAL",
    "MAD_MINUTE_LIMIT",
    "MAIN_MOVEMENT",
    "MG_ARC",
    "MID_FIRING_TABLE",
    "MONS_BRIDGES",
    "MONS_GERMAN_QUALITY",
    "MONS_HOWITZER_CALIBRE",
    "MONS_TABLE_LAYOUT",
    "MOVEMENT",
    "MOVE_CLOSE_INFANTRY",
    "MOVE_MANHANDLED_ROUNDING",
    "MOVE_MIXED_TERRAIN",
    "MOVE_MOTOR_BROKEN_GROUND",
    "MOVE_TRENCH_FIELD_ARTILLERY",
    "ORDER_MODIFIERS",
    "ORG_CHART_MULTIPLES",
    "ORG_DEFAULT_QUALITY",
    "ORG_INFANTRY_FORMATIONS_PER_DIVISION",
    "PLANNED_BOMBARDMENT_ORDER",
    "PLANNED_FIRE_DEVIATION",
    "PLAYSHEET_MOVEMENT",
    "PRUSSIAN_DISCIPLINE_MORALE",
    "RANGE_MEASURED",
    "RAW_FIRER_PENALTY",
    "RAW_ORDER_MODIFIER",
    "REINFORCEMENT_ROLL_PER",
    "ROAD_MARCH_COVER",
    "ROLLING_BARRAGE_NATURAL_ONE",
    "SCENARIO_VICTORY",
    "SHOT_SUPPRESSES_COMPANY",
    "SRC_AIR",
    "SRC_ARTILLERY_ACTION",
    "SRC_BARRAGE_DANGER",
    "SRC_CASUALTIES",
    "SRC_DEEP_SHELTERS",
    "SRC_EVENTS",
    "SRC_FIRE_PLAN",
    "SRC_GAS_MOVEMENT",
    "SRC_NATURAL_ONE",
    "SRC_ROLLING_BARRAGE",
    "STAFF_SUPPORT_BONUS",
    "TURN_COST",
    "UNNAMED_ORDER_UNITS",
]
