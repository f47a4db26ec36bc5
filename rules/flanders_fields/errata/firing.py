"""Errata of ranged combat: the firing table, its modifiers, machine gun arcs and beaten zones, block
houses, light mortars and armour."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.common import PERIODS
from rules.flanders_fields.ruleset import FlandersFields, cite, cite_playsheets

BEATEN_ZONE_PENALTY = "beaten-zone-penalty"
RAW_FIRER_PENALTY = "raw-firer-penalty"
MID_FIRING_TABLE = "mid-firing-table"
EARLY_FIRERS_NOT_ON_PLAYSHEET = "early-firers-not-on-playsheet"
BLOCKHOUSE_RANGE = "blockhouse-range"
LIGHT_MORTAR_PARTIAL = "light-mortar-partial"
MG_ARC = "mg-arc"
ARMOUR_FIELD_ARTILLERY_OVER_75 = "armour-field-artillery-over-75"

DIRECT_FIRE_FACTORS = "DIRECT FIRE FACTORS"
SRC_NATURAL_ONE = cite("ROLLING A NATURAL ONE")

FlandersFields.add_errata(
    Erratum(
        BEATEN_ZONE_PENALTY,
        "Machine gun beaten zone: penalty for the targets beyond the first",
        (
            Reading(
                "per-target",
                "Up to three targets in the beaten zone are also attacked but at -1 on the die roll for the "
                "first target, -2 for the second etc.",
                cite("RANGED COMBAT, MACHINEGUN BEATEN ZONE"),
                "per-target",
            ),
            Reading(
                "flat",
                "Machinegun 'Beaten Zone' – 10 or 15cm beyond initial target -1",
                cite("RANGED COMBAT, DIRECT FIRE MODIFIERS"),
                "flat",
            ),
        ),
        default="per-target",
        note="Both readings are in the main text; the playsheets give the beaten zone's depth but no "
        "penalty. The beaten zone section is the specific rule, so a referee prefers it.",
        section="firing",
        short="Beaten zone penalty",
    ),
    Erratum(
        RAW_FIRER_PENALTY,
        "Raw troops shooting",
        (
            Reading(
                "playsheet",
                "-1 ... Raw Troops (in the list of DIRECT FIRE FACTORS)",
                cite_playsheets(DIRECT_FIRE_FACTORS, PERIODS),
                -1,
            ),
            Reading(
                "main-text",
                "DIRECT FIRE MODIFIERS lists no modifier for raw troops.",
                cite("RANGED COMBAT, DIRECT FIRE MODIFIERS"),
                0,
            ),
        ),
        default="playsheet",
        section="firing",
    ),
    Erratum(
        MID_FIRING_TABLE,
        "The mid 1915 to mid 1917 firing table is headed 'Mid 1917 to End of War'",
        (
            Reading(
                "mid-playsheet",
                "The table as printed on the mid playsheet: Gas 4 6 4 6 4 5 4 6 5 6; Flame Thrower 5 6 4 5 3 4 "
                "3 5 3 6.",
                cite("Firing table – Mid 1917 to End of War (as printed)", "mid"),
                "mid",
            ),
            Reading(
                "late-table",
                "Its heading names mid 1917 to the end of the war: use that table, Gas 4 6 4 6 4 6 4 6 4 6 and "
                "Flame Thrower ... 3 5 (the main text's flame thrower row also ends '3 5').",
                f"{cite('Firing table – Mid 1917 to End of War', 'late')}; "
                f"{cite('RANGED COMBAT, SHOOTING MATRIX')}",
                "late",
            ),
        ),
        default="mid-playsheet",
        periods=("mid",),
        note="Only the Gas row and the flame thrower's Fortifications kill differ between the two tables.",
        section="firing",
        short="Mid firing table's heading",
    ),
    Erratum(
        EARLY_FIRERS_NOT_ON_PLAYSHEET,
        "Super heavy artillery, heavy mortars and flame throwers, 1914 to mid 1915",
        (
            Reading(
                "main-text",
                "The early playsheet's firing table has no rows for them; the main text's SHOOTING MATRIX "
                "rows are used (Open to Hard Cover: the early sheet has no Fortifications column).",
                f"{cite('RANGED COMBAT, SHOOTING MATRIX')} (the playsheet is silent)",
                True,
            ),
            Reading(
                "unavailable",
                "Not on the period's playsheet, so not fielded in an early game.",
                f"{cite('Firing Table', 'early')} (no row: the playsheet is silent)",
                False,
            ),
        ),
        default="main-text",
        periods=("early",),
        note="The rule book says the main text fills what a playsheet does not say.",
        section="firing",
        short="Early firers not on the playsheet",
    ),
    Erratum(
        BLOCKHOUSE_RANGE,
        "Block house maximum range",
        (
            Reading(
                "block-houses",
                "Block Houses fire as machineguns but with a reduced range of 45cm and a reduced beaten "
                "zone of 10cm",
                cite("BLOCK HOUSES"),
                T.BLOCK_HOUSES_RANGE_CM,
            ),
            Reading(
                "weapon-ranges",
                "Block Houses 50cm (Beaten Zone 10cm)",
                cite("WEAPON RANGES"),
                T.WEAPON_RANGES["block-house"].max_cm,
            ),
        ),
        default="block-houses",
        note="Both readings are in the main text and the playsheets give no block house range; the "
        "block house section states the range with its reason, so a referee prefers it.",
        section="firing",
    ),
    Erratum(
        LIGHT_MORTAR_PARTIAL,
        "Light mortar: bases only partly under the 3 cm square",
        (
            Reading(
                "no-penalty",
                "The text is silent: MORTAR AREA OF EFFECT gives the -2 for bases not fully covered only for "
                "medium and heavy mortars; the 3 cm light mortar square is centred on a single base.",
                cite("MORTAR AREA OF EFFECT"),
                0,
            ),
            Reading(
                "general-rule",
                "if the platoon or weapon falls only partially within the area of effect it is attacked at -2",
                cite("ARTILLERY BATTERIES AREA OF EFFECT"),
                -2,
            ),
        ),
        default="no-penalty",
        section="firing",
    ),
    Erratum(
        MG_ARC,
        "Machine gun arc: 45 degrees each side of straight ahead, or 45 degrees in all",
        (
            Reading(
                "each-side",
                "The text is ambiguous: 'MACHINE GUNS 45° Arc'; block houses have 'an arc of fire of 45 "
                "degrees from each face calculated at the corners', read for MGs as lines at 45 degrees to "
                "straight ahead from the front corners. Value: degrees each side of straight ahead.",
                cite("ARCS OF FIRE"),
                45.0,
            ),
            Reading(
                "total",
                "'45° Arc' read as the whole arc: 22.5 degrees each side of straight ahead.",
                cite("ARCS OF FIRE"),
                22.5,
            ),
        ),
        default="each-side",
        note=(
            "Either reading measures the arc from the front corners of the base, as the machine gun rule "
            "says ('a 45° arc of fire determined from the front corners of their base') and as block houses "
            "are measured; the readings differ only in the angle."
        ),
        section="firing",
    ),
    Erratum(
        ARMOUR_FIELD_ARTILLERY_OVER_75,
        "Shooting at armour: 'Field artillery firing over 75 -1' gives no unit",
        (
            Reading(
                "range-over-75cm",
                "Read as field artillery firing at armour more than 75 cm away: -1.",
                f"{cite('RANGED COMBAT, SHOOTING WHEN TARGET IS ARMOUR')} (unit missing; referee's reading)",
                75,
            ),
            Reading(
                "not-applied",
                "The modifier is unreadable without its unit and is not applied.",
                f"{cite('RANGED COMBAT, SHOOTING WHEN TARGET IS ARMOUR')} (alternative reading)",
                None,
            ),
        ),
        default="range-over-75cm",
        section="armour",
        short="Field artillery over 75 at armour",
    ),
)
