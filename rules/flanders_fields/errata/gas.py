"""Errata of gas: a cloud whose wind drops to nothing."""

from __future__ import annotations

from rules.core.ruleset import Erratum, Reading
from rules.flanders_fields.ruleset import FlandersFields, cite

GAS_SPEED_BELOW_ZERO = "gas-speed-below-zero"

SRC_GAS_MOVEMENT = cite("GAS, GAS MOVEMENT table")

FlandersFields.add_errata(
    Erratum(
        GAS_SPEED_BELOW_ZERO,
        "Gas Movement table: speed decreased by 1D6 to 0 or below",
        (
            Reading(
                "halt",
                "The text is silent. With no wind the cloud hangs where it is: speed 0 cm, it goes on "
                "attacking what it covers, and a later 3 or 5 on the table sets it moving again.",
                f"{SRC_GAS_MOVEMENT} (silent; referee's reading)",
                "halt",
            ),
            Reading(
                "disperse",
                "The text is silent. A wind that dies away leaves the cloud to disperse, as on a 6.",
                f"{SRC_GAS_MOVEMENT} (silent; alternative reading)",
                "disperse",
            ),
        ),
        default="halt",
        note="Result 4 reads 'Direction of gas cloud continues as for previous turn, speed decreases by "
        "1D6cm' and gives no floor.",
        section="gas",
    ),
)
