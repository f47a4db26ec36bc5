"""Vimy Ridge played as a game of counters on hexes: the club's values (club), the hook's parts (game) and the
victory tally (victory)."""
