"""A club event day, knowing no rule set: Swiss pairing and table assignment (`rules.event.pairing`) and the
standings with the event's tie-breakers (`rules.event.standings`). Pure: the records come in as arguments.

None of these values is a rule book's: how many event points a win, a draw, a loss or a bye is worth and the
order of the tie-breakers are the organiser's choice when the event is made (`EventScoring`), with the
common club defaults (3 / 1 / 0, a bye as a win; points, then victory-point difference, then strength of
schedule)."""
