"""Battle for 2mm Earth 1418 played as a game: the hook (rules.core.game.GameRules) assembled from its modules'
objects, each the rule set's own (its unit state, its bound, its rolls, its sealed artillery, its table, its new
games and its table kit)."""

from __future__ import annotations

from rules.core.game import GameRules, Rolls
from rules.earth2mm.play.artillery import EarthFirePlan
from rules.earth2mm.play.fields import EarthFields
from rules.earth2mm.play.kit import KIT
from rules.earth2mm.play.setup import EarthSetup
from rules.earth2mm.play.table import EarthTable
from rules.earth2mm.play.turn import EarthBound
from rules.earth2mm.ruleset import Earth2mm
from rules.registry import register_game

EARTH_GAME: GameRules = register_game(
    GameRules(
        Earth2mm.id,
        fields=EarthFields(),
        turn=EarthBound(),
        rolls=Rolls(),
        fire_plan=EarthFirePlan(),
        tabletop=EarthTable(),
        setup=EarthSetup(),
        kit=KIT,
    )
)
