"""The physical table, modelled with Shapely 2: bases, templates, terrain and the queries over them.

Pure geometry in the table frame (cm; origin at the attacker's left-hand rear corner, x along the
attacker's base edge, y towards the defender; angles counter-clockwise from +x).
"""
