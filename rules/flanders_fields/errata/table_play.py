"""Errata of play from the table: where the book is silent (or its texts disagree) on what the table fills
into a roll and what an answer then does to it. Where the book is silent the default is the game's reading
before the erratum was listed; where its texts disagree, the period playsheet's."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.common import PERIODS
from rules.flanders_fields.errata.fire_plan import ORDERS_HEADING
from rules.flanders_fields.errata.order_rolls import ORDER_MODIFIERS
from rules.flanders_fields.ruleset import FlandersFields, cite, cite_playsheets

COMMANDER_REACH = "commander-reach"
DEEP_SUPPRESSION_ON_TABLE = "deep-suppression-on-table"
RANGE_MEASURED = "range-measured"
BECOME_SUPPRESSED = "become-suppressed"
AIRCRAFT_SUPPRESSION_SPREAD = "aircraft-suppression-spread"
SHOT_SUPPRESSES_COMPANY = "shot-suppresses-company"
DEAD_COMMANDER_ORDERS = "dead-commander-orders"
ROAD_MARCH_COVER = "road-march-cover"
ASSAULT_DRAW_COVER = "assault-draw-cover"
JUDGED_BY_EYE = "judged-by-eye"

SRC_WEAPON_RANGES = cite("RANGED COMBAT, WEAPON RANGES")
SRC_OPEN_GROUND = cite("TYPES OF COVER, Open Ground (No Cover)")
SRC_DRAW = cite("CLOSE COMBAT (ASSAULTING)")
SRC_AIR = cite("AIR SUPPORT")
_SILENT = "silent; the game's reading"
_OTHER = "silent; the other reading"

FlandersFields.add_errata(
    Erratum(
        JUDGED_BY_EYE,
        "Who judges a stand's cover, a line of sight and an assault's stands",
        (
            Reading(
                "the-players",
                "The players judge them on the table: a cover, a line of sight or a stand's description they "
                "give is taken, marked as theirs beside what the map reads, for the other side to see.",
                f"{cite('TYPES OF COVER')}; {cite('RANGED COMBAT')}; {SRC_DRAW} ({_SILENT})",
                True,
            ),
            Reading(
                "the-map",
                "The map judges them as the table draws them: a value given other than the map's is refused, "
                "naming it, unless the referee overrides.",
                f"{cite('TYPES OF COVER')}; {cite('RANGED COMBAT')}; {SRC_DRAW} ({_OTHER})",
                False,
            ),
        ),
        default="the-players",
        note=(
            "'The rules recognise four different types of cover', 'Direct = Shooting unit must have a direct "
            "line of sight to the target' and 'supported by one stand to the rear' say what counts, not who "
            "judges it. The game's reading leaves it to the players, as over a table's models; the map draws only "
            "bases and outlines."
        ),
        section="firing",
    ),
    Erratum(
        COMMANDER_REACH,
        "Order rolls: whose platoons the 25 cm from the battalion commander counts",
        (
            Reading(
                "battalion",
                "-1 If any platoon is more than 25cm from its Battalion Commander: any platoon of the "
                "battalion counts, for the order roll of each of its units.",
                f"{cite_playsheets(ORDER_MODIFIERS, PERIODS)} ({_SILENT})",
                "battalion",
            ),
            Reading(
                "ordered-unit",
                "Only the platoons of the unit whose order is rolled count.",
                f"{cite_playsheets(ORDER_MODIFIERS, PERIODS)} ({_OTHER})",
                "ordered-unit",
            ),
        ),
        default="battalion",
        note=(
            "The line names the battalion commander, not the unit ordered; the game reads it for the "
            "battalion."
        ),
        section="actions",
    ),
    Erratum(
        DEEP_SUPPRESSION_ON_TABLE,
        "Deep suppression on the order rolls of batteries on the table",
        (
            Reading(
                "main-text",
                "Deep Suppression is applied to all Artillery and other assets which are classed as not "
                'being in the "Front Line": every defending order roll that takes it, on the table or off.',
                cite("SUPPRESSION, Deep Suppression (DS)"),
                True,
            ),
            Reading(
                "playsheet",
                "Deep Suppression modifiers are applied if testing for off table artillery support: only "
                "batteries off the table.",
                "; ".join(
                    cite(f"{ORDERS_HEADING[p]}, III. Individual Regimental/Brigade Artillery and Mortars", p)
                    for p in ("mid", "late")
                ),
                False,
            ),
        ),
        default="playsheet",
        periods=("mid", "late"),
        note="The texts disagree, so the period playsheet governs; the game read the main text before this "
        "erratum (deep suppression on every defending battery's order roll).",
        section="artillery",
    ),
    Erratum(
        RANGE_MEASURED,
        "Where a shot's range is measured from and to",
        (
            Reading(
                "closest",
                "The closest distance between the firer's and the target's bases.",
                f"{SRC_WEAPON_RANGES} ({_SILENT})",
                "closest",
            ),
            Reading(
                "centres",
                "From the centre of the firer's base to the centre of the target's.",
                f"{SRC_WEAPON_RANGES} ({_OTHER})",
                "centres",
            ),
        ),
        default="closest",
        note=(
            "The book gives ranges but not where they are measured from; the game measures between the bases."
        ),
        section="firing",
    ),
    Erratum(
        BECOME_SUPPRESSED,
        'Morale: "become Suppressed" on a stand already suppressed',
        (
            Reading(
                "stays-suppressed",
                "Retreat 20cm, become Suppressed: a stand already suppressed stays so and gets no marker.",
                f"{cite(T.MORALE_SECTION)} ({_SILENT})",
                False,
            ),
            Reading(
                "marker",
                "Every stand gets a suppression marker, so a stand with two already is killed by the third.",
                f"{cite(T.MORALE_SECTION)} ({_OTHER})",
                True,
            ),
        ),
        default="stays-suppressed",
        note="The morale table says the stands become suppressed, not that a marker is placed on each.",
        section="morale",
    ),
    Erratum(
        AIRCRAFT_SUPPRESSION_SPREAD,
        "Air attacks: whether an aircraft's suppression spreads to the company",
        (
            Reading(
                "platoon",
                "Win by 1 or 2 infantry become suppressed: the platoon attacked only (the company-wide rule "
                "names MACHINE GUNS, MORTARS OR ARTILLERY).",
                f"{SRC_AIR} ({_SILENT})",
                False,
            ),
            Reading(
                "company",
                "The aircraft's guns and bombs suppress the whole company, as MG and artillery fire do.",
                f"{cite('SUPPRESSION, BATTLE SUPPRESSION (BS)')} ({_OTHER})",
                True,
            ),
        ),
        default="platoon",
        periods=("late",),
        note="The company-wide rule names machine guns, mortars and artillery only.",
        section="artillery",
    ),
    Erratum(
        SHOT_SUPPRESSES_COMPANY,
        "One shot suppressing two or more platoons of one company (an area, a beaten zone)",
        (
            Reading(
                "each-platoon",
                "Each platoon the shot suppresses suppresses its whole company: a company with two platoons "
                "suppressed gains two markers on each stand (a third marker kills it).",
                f"{cite('SUPPRESSION, BATTLE SUPPRESSION (BS)')} ({_SILENT})",
                False,
            ),
            Reading(
                "once",
                "The shot is one attack: the company it suppresses gains one marker on each stand, however many "
                "of its platoons the shot suppressed.",
                f"{cite('SUPPRESSION, BATTLE SUPPRESSION (BS)')} ({_OTHER})",
                True,
            ),
        ),
        default="each-platoon",
        note="The book suppresses the whole company when MG, mortar or artillery fire suppresses a platoon, and "
        "again 'if it comes under multiple attacks'; it does not say whether one area or beaten zone "
        "suppressing two platoons of one company is one attack or two. Either way each stand is attacked on "
        "a die of its own, once a shot, and a stand the shot destroys gains no marker from it.",
        section="artillery",
    ),
    Erratum(
        DEAD_COMMANDER_ORDERS,
        "Order rolls of a unit whose commander is dead and not replaced",
        (
            Reading(
                "no-modifier",
                "The unit orders with no command stand modifier until a field promotion is placed.",
                f"{cite_playsheets(ORDER_MODIFIERS, PERIODS)} ({_SILENT})",
                False,
            ),
            Reading(
                "field-promotion",
                '-1 If Commanding Stand is a "Field Promotion" following Death of original Command stand: '
                "the unit orders as under a field promotion.",
                f"{cite_playsheets(ORDER_MODIFIERS, PERIODS)} ({_OTHER})",
                True,
            ),
        ),
        default="no-modifier",
        note=(
            "The modifier names a field promotion placed after the death; the game waits for it to be placed."
        ),
        section="actions",
    ),
    Erratum(
        ROAD_MARCH_COVER,
        "Cover of troops on a road",
        (
            Reading(
                "field-craft",
                "A road is open ground: experienced and veteran troops on it are in soft cover, as anywhere "
                "in open ground.",
                f"{SRC_OPEN_GROUND} ({_SILENT})",
                False,
            ),
            Reading(
                "open",
                "Open ground also covers troops marching in close order on roads: troops on a road are in "
                "the open whatever their quality.",
                f"{SRC_OPEN_GROUND} ({_OTHER})",
                True,
            ),
        ),
        default="field-craft",
        note=(
            "The line describes troops in close order; the game keeps no close order, so field craft applies."
        ),
        section="firing",
    ),
    Erratum(
        ASSAULT_DRAW_COVER,
        "Assault draw: the attackers' cover after falling back",
        (
            Reading(
                "terrain",
                "If combat is a draw attackers fall back 3cm: their cover is then the ground they stand on.",
                f"{SRC_DRAW} ({_SILENT})",
                False,
            ),
            Reading(
                "soft",
                "If combat is a draw attackers fall back 3cm and stay in Soft Cover: soft cover wherever "
                "they fall back to, until they move.",
                f"{SRC_DRAW} ({_OTHER})",
                True,
            ),
        ),
        default="terrain",
        note=(
            "The game keeps no state for fallen-back attackers: under the soft reading the players give "
            'their cover ("cover": "soft") when they are shot at.'
        ),
        section="assault",
    ),
)
