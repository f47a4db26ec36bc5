"""Rule set package (modules register on import)."""
