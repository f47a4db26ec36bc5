"""Battle for 2mm Earth 1418 played as a game (rules.core.game's hook), assembled in `game.py`.

`game.py` (`EarthGame`: the core's `play` with a unit edit checked and a move's bookkeeping: each base's
distance this bound, its sub-unit moved, a dugout left in the open written to the board as rough ground; the
book's data in its `BOOK`) inherits each module's `GameRules` subclass: `fields.py` (`EarthFields`: an SF's high command, a sub-unit's plan, target, digging, fire taken and
given, a battery packed to move, a base's injury; a battery's plan and target its side's secret until it
fires or moves, as the book plans artillery "Anon"); `turn.py` (`EarthBound`, a bound both sides act in) over
`steps.py` (the bound's steps in the book's order, each with its printed line and what it permits),
`judge.py` (what the rules of play forbid of an act by the sub-unit's kind, SF quality and situation) and
`ends.py` (what a step still needs; the end of the bound); `units.py` (the force tree's SFs, sub-units and
bases); `table.py` (`EarthTable`: the book's terrain classes); `setup.py` (its characteristics
chart as the `ForceChart` its forces are built from, the shipped demo battle); `rolls.py` (`EarthRolls`: a shot
filled from the table, its hits waiting for the aggressor's `allocate-hits`, the recovery die) over `shots.py`
(base contact, terrain class, posture, range and sight, measured once per request); `artillery.py`
(`EarthFirePlan`: a plan sealed each bound, each item landing in its executing step; `drifted`, the cordons'
drift as the bound ends); `kit.py` (a base for every chart kind, the bombardment circle and cordon
templates, what the board draws); `report.py` (`EarthReport`: the referee board's row of a sub-unit, losses
in bases). The game's silent readings are `errata.py`."""
