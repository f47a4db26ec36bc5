"""Errata of planned fire, read by the fire-plan rehearsal, the game's arrival cards and the Firewaltz: how many
times a battery's artillery action roll lets it fire, who rolls it, whether a planned bombardment needs it,
whether planned fire deviates, and a Firewaltz strong point's cover."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.ruleset import FlandersFields, cite

ARTILLERY_TWO_ACTIONS = "artillery-two-actions"
ARTILLERY_ROLL_PER = "artillery-roll-per"
PLANNED_FIRE_DEVIATION = "planned-fire-deviation"
PLANNED_BOMBARDMENT_ORDER = "planned-bombardment-order"
FIREWALTZ_STRONG_POINT_COVER = "firewaltz-strong-point-cover"

# The heading of each period playsheet's artillery orders ("1 SUPPORT ORDERS", "5 SUPPORT ORDERS",
# "5 DIVISIONAL/REGIMENTAL/BRIGADE ORDERS").
ORDERS_HEADING = {
    "early": "1 SUPPORT ORDERS",
    "mid": "5 SUPPORT ORDERS",
    "late": "5 DIVISIONAL/REGIMENTAL/BRIGADE ORDERS",
}


def _orders(part: str) -> str:
    return "; ".join(cite(f"{heading}, {part}", period) for period, heading in ORDERS_HEADING.items())


SRC_ARTILLERY_ORDERS = _orders("III. Individual Regimental/Brigade Artillery")
SRC_DEVIATION_RULE = cite("ARTILLERY AIMING POINT - DEVIATION")
SRC_FIRE_PLANS = cite("ARTILLERY FIRE PLANS")
SRC_BOMBARDMENT_STEP = "; ".join(
    cite("ORDER SEQUENCE NOTES, 4 BARRAGES AND BOMBARDMENTS", period) for period in ("mid", "late")
)

FlandersFields.add_errata(
    Erratum(
        ARTILLERY_TWO_ACTIONS,
        "A battery's artillery action roll of 2 Actions: may it fire twice in the turn?",
        (
            Reading(
                "fire-twice",
                '\'D6 determines number of "Actions" each may make. "Actions" are: REMOVE A SUPPRESSION '
                "LEVEL, REDIRECT A BATTERY AIMING POINT, FIRE A BATTERY OR MOVE': nothing limits an action "
                "to once a turn, so 2 Actions may both be FIRE A BATTERY: two turns of fire.",
                SRC_ARTILLERY_ORDERS,
                2,
            ),
            Reading(
                "fire-once",
                "A battery delivers one turn of fire a turn (the fire plan counts 'turns of fire'; an SOS "
                "call brings 'one turn of fire'); a second action is for the other actions only.",
                f"{SRC_FIRE_PLANS} (silent on a second FIRE action; referee's reading)",
                1,
            ),
        ),
        default="fire-twice",
        note="Values are the most turns of fire a battery delivers in one turn. The action's thresholds are "
        "the period's (1914-15 and late war 6+ for 2 Actions; mid war: the erratum artillery-action-mid).",
        section="artillery",
    ),
    Erratum(
        ARTILLERY_ROLL_PER,
        "Who rolls the artillery action die: each battery, or one roll per regimental/brigade artillery",
        (
            Reading(
                "battery",
                "'Roll D6 for each unit': a battery is a unit ('If present on the table a gun model "
                "represents a battery'), so each battery rolls for its own actions.",
                _orders("Roll D6 for each unit"),
                "battery",
            ),
            Reading(
                "brigade",
                '\'III. Individual Regimental/Brigade Artillery; D6 determines number of "Actions" each may '
                "make ... FIRE A BATTERY': one roll for a brigade's artillery, each action firing one of its "
                "batteries, so two batteries of one brigade share one roll.",
                SRC_ARTILLERY_ORDERS,
                "brigade",
            ),
        ),
        default="battery",
        note="Both readings are the playsheets' own words; the rehearsal shares a roll only between the "
        "items its request names as one brigade's (`brigades`).",
        section="artillery",
    ),
    Erratum(
        PLANNED_FIRE_DEVIATION,
        "Does planned fire on a pre-registered aiming point deviate?",
        (
            Reading(
                "deviates",
                "'When unobserved off table artillery or ANY artillery delivered gas attack arrives roll a "
                "deviation dice and 2D6 to determine the direction and distance of the aiming point from the "
                "intended target' (12 o'clock 'directly ahead of the rolling player's base table edge').",
                f"{SRC_DEVIATION_RULE}; {cite('APPENDIXES, DEVIATION DICE')}",
                True,
            ),
            Reading(
                "pre-registered",
                "'This point will be pre-registered and does not require an order to acquire it, only an "
                "order to fire': read as falling where it was planned.",
                f"{SRC_FIRE_PLANS} (silent on deviation; alternative reading)",
                False,
            ),
        ),
        default="deviates",
        note="The deviation rule names no exception for planned points: pre-registration spares the order "
        "to acquire the point, not the 'uncertainty and the potential for deviation' of predicted fire. Under "
        "either reading a battery standing on the table is not 'off table artillery': the planned fire of a "
        "battery the plan names that stands on the table never deviates (its arrival card and the rehearsal "
        "alike); an item naming no battery of the table is taken as off-table fire.",
        section="artillery",
    ),
    Erratum(
        PLANNED_BOMBARDMENT_ORDER,
        "A planned bombardment arriving: rolled in its own step, or fired only on its battery's order?",
        (
            Reading(
                "rolls-effects",
                "'4 BARRAGES AND BOMBARDMENTS DEPLOY PRE-PLANNED BARRAGES AND BOMBARDMENTS - ROLL EFFECTS': the "
                "bombardment is deployed and its effects rolled in that step, before the support orders; one "
                "turn of fire, no artillery action roll.",
                SRC_BOMBARDMENT_STEP,
                False,
            ),
            Reading(
                "order-to-fire",
                "'This point will be pre-registered and does not require an order to acquire it, only an "
                "order to fire': the battery's artillery action roll decides whether it fires, each action one "
                "turn of fire.",
                SRC_FIRE_PLANS,
                True,
            ),
        ),
        default="rolls-effects",
        periods=("mid", "late"),
        note="The 1914 to mid 1915 playsheet has no barrages and bombardments step: there a planned "
        "bombardment fires, as any planned battery, on its battery's order (ARTILLERY FIRE PLANS).",
        section="artillery",
    ),
    Erratum(
        FIREWALTZ_STRONG_POINT_COVER,
        "The cover of a Firewaltz's 'Strong Point' (attacked once by Super Heavy Artillery)",
        (
            Reading(
                "hard",
                "Hard Cover: 'Particularly well made sections of trench and/or strong points built up with "
                "extra sandbags and other materials and often with some form of effective roof.'",
                cite("TYPES OF COVER"),
                "hard",
            ),
            Reading(
                "fortified",
                "'trenches and strong points dug into villages are classed as fortified': the Firewaltz's "
                "'Each Strong Point will be attacked once by Super Heavy Artillery' read as a fortified "
                "position.",
                f"{cite('TERRAIN AND ITS IMPACT ON COVER')}; {cite('HURRICANE BOMBARDMENT (FIREWALTZ)')}",
                "fortified",
            ),
        ),
        default="hard",
        periods=("late",),
        note="TYPES OF COVER names strong points under Hard Cover; a strong point in a village is fortified "
        "under either reading (give `cover`).",
        section="firewaltz",
    ),
)
