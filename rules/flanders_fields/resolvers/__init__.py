"""What a player asks at the table: each module attaches its resolvers (a request in, a cited answer out)."""
