"""Before the game: the ready scenarios, built by the game's own set-up (rules.flanders_fields.play)."""
