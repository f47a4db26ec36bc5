"""firestep's rules core: rule sets as data plus pure resolvers. No I/O, no clock, no web, no database."""
