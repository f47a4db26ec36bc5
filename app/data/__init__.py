"""Data shapes: the tables (models), the API's request and answer shapes (schemas), the board's stored state."""
