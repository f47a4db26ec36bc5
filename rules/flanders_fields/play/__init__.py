"""Flanders Fields played as a game: filling a request from the table, consequences as change records, the table
geometry's inputs.

The game is one hook, `game.py`'s `FlandersFieldsGame` (the core's `play` with what a move spends and what a
marker placed by hand does, and the book's data in its `BOOK`), inheriting its modules' classes, each a
`GameRules` overriding what its concern changes: `game_consequences.py` its markers and its table; `game_sequence.py` its turn, with
`game_orders.py` (a unit ordered once a turn; a shot, a move, an assault, a recovery spending an action of the
unit a stand is ordered with; a command stand's two moves a turn); `game_acts.py` its rolls over `game_fill.py`
(with `game_area.py`: the stands a shot's area or beaten zone also attacks, rolled in the same roll);
`game_turn.py` and `game_cards.py` (the random-event pack); `game_arrivals.py` its fire plan with
`game_rehearsal.py` (a planned battery standing on the table fires as fire that does not deviate);
`game_report.py`; `game_setup.py` (the organisation tables' builders and firestep's default deployment);
`changes.py` the stand card's state fields and its words for the changes, each a subclass of a generic kind;
`units.py` the unit classes; `game_table.py` the game's stands and terrain as `rules.table` objects, cached by
their content; `table_rules.py` the numbers the table geometry takes; `kit.py` its table kit."""
