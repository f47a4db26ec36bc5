"""Before the game: ready scenarios, and the rehearsal of a side's fire plan."""
