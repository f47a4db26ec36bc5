"""Flanders Fields played as a game: filling a request from the table, consequences as change records, the table geometry's inputs."""
