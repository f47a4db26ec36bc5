"""The service layer: one module per concern of a game. Services never commit; their callers do."""
