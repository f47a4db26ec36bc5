"""A league's results from another tool's CSV (issue 70): a club that ran its event in Best Coast Pairings or
Longshanks has a file of pairings, a row a game (round, the two players, their scores), not signed bundles.
Its organiser names which column is which (by the header); each row is kept as the organiser's claim
(app.data.models.LeagueClaim), apart from the signed games: the league table counts it and says how many of a
line's games rest on claims, and nothing calls it verified.

Bounded before anything is kept: the file's characters, rows, columns and every cell's length; a malformed
file is refused in one sentence naming its row and column (the whole file or nothing). Names are kept as an
event keeps them (app.services.player_names). A cell such as `=HYPERLINK(...)` is kept as text: HTML and JSON
escape it, and `csv_cell` is how any CSV written from it must write it. One game is one row: its identity is
the event, the round and the two players, however a tool spells their case or lists them first; the same
row again is the row kept, another result for it is refused, and a name the league keeps already (a signed
game's, an earlier claim's) is kept as the league first spelt it. Nothing here commits: the route or page wraps the import in `app.services.writing.unit_of_work`."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import NamedTuple

from sqlalchemy import delete as sa_delete
from sqlalchemy import insert as sa_insert
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, func, select

from app.data.models import LeagueClaim, LeagueGame, utcnow
from app.data.schemas_claims import (
    MAX_CELL_CHARS,
    MAX_CSV_CHARS,
    MAX_CSV_COLUMNS,
    MAX_CSV_ROWS,
    ClaimColumns,
)
from app.data.schemas_events import MAX_POINTS
from app.data.schemas_league import MAX_LEAGUE_GAMES
from app.errors import RuleRefused
from app.services import league_table, player_names
from rules.core.commitment import sha256
from rules.core.errors import RulesError

MAX_ROUND = 99  # a league's event may run more rounds than a firestep event (12)
WON, LOST, DRAWN = ("w", "win", "won", "1"), ("l", "loss", "lost", "0"), ("d", "draw", "drawn", "tie", "0.5")
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet reads a cell starting so as a formula
SEPARATORS = {",": "commas", ";": "semicolons", "\t": "tabs"}  # what a file's columns are read apart by


_look = league_table.look  # what a name looks like whatever its case: one player, one event


def csv_cell(text: str) -> str:
    """A cell as any CSV written from a claim writes it: a leading formula character quoted away (OWASP)."""
    return "'" + text if text.startswith(FORMULA) else text


class ColumnRefused(RulesError):
    """A named column's cell refused: the API says its row and column, the page which choice to make again
    (`role`, the ClaimColumns field) and what the cell held (`said`: after the role's words, one clause)."""

    def __init__(self, role: str, reason: str, said: str) -> None:
        super().__init__("csv", reason)
        self.role, self.said = role, said


SAMPLE_RECORDS = (
    20  # the rows a separator is judged on: a quoted line break or a tie in the header fools none
)


class Separator(NamedTuple):
    """What a file's columns are read apart by, and `tied` the other separator that read it as well (or "")."""

    char: str
    tied: str


def separator(text: str) -> Separator:
    """The file's separator: of SEPARATORS, the one that reads its header (a record: a quoted line break inside
    it) in the most columns, then the one that reads as many in most of its next SAMPLE_RECORDS rows; on a tie the first of
    SEPARATORS (the comma), and the other named, so that the page says which it chose. Excel in a European
    locale writes semicolons, read with commas as one column."""
    sample = text.lstrip("\ufeff")[: SAMPLE_RECORDS * MAX_CSV_COLUMNS * (MAX_CELL_CHARS + 3)]
    cut = len(sample) < len(text.lstrip("\ufeff"))  # its last record may be cut short: not judged
    scores: dict[str, tuple[int, int]] = {}  # the header's columns, then the rows with as many
    for d in SEPARATORS:
        widths: list[int] = []
        try:
            for row in csv.reader(io.StringIO(sample, newline=""), delimiter=d, strict=True):
                if any(cell.strip() for cell in row):
                    widths.append(len(row))
                if len(widths) > SAMPLE_RECORDS:
                    break
        except csv.Error:  # read as _rows reads it, which names the row
            pass
        if cut and len(widths) > 1:
            widths.pop()
        scores[d] = (widths[0], widths.count(widths[0])) if widths else (0, 0)
    best = max(SEPARATORS, key=lambda d: scores[d])  # max keeps the first of equals: the comma
    tied = next((d for d in SEPARATORS if d != best and scores[d] == scores[best] and scores[d][0] > 1), "")
    return Separator(best, tied)


def delimiter(text: str) -> str:
    return separator(text).char


def _rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """The file's rows with their line numbers (from 1, the header's), blank lines skipped; a row the csv
    module cannot read (an unclosed quote) refused naming it."""
    if len(text) > MAX_CSV_CHARS:
        raise RulesError("csv", f"the file is over {MAX_CSV_CHARS:,} characters: split it by rounds")
    reader = csv.reader(
        io.StringIO(text.lstrip("\ufeff"), newline=""), delimiter=delimiter(text), strict=True
    )
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            raise RulesError("csv", f"row {reader.line_num} cannot be read as CSV ({str(e)[:40]})") from None
        if any(cell.strip() for cell in row):
            yield reader.line_num, row


def header(text: str) -> list[str]:
    """The file's column names (its first row), each once: the choices the organiser names columns from."""
    first = next(_rows(text), None)
    if first is None:
        raise RulesError("csv", "the file is empty: choose the CSV your pairing tool exported")
    names = [cell.strip() for cell in first[1]]
    if len(names) > MAX_CSV_COLUMNS:
        raise RulesError("csv", f"the header has {len(names)} columns: at most {MAX_CSV_COLUMNS}")
    for i, name in enumerate(names):
        if not name or len(name) > MAX_CELL_CHARS:
            raise RulesError(
                "csv", f"row 1, column {i + 1}: a column's name is 1 to {MAX_CELL_CHARS} characters"
            )
        if name in names[:i]:
            raise RulesError("csv", f"row 1, column {i + 1}: “{name[:30]}” names two columns")
    return names


@dataclass(slots=True)
class Claim:
    """One game as a file's row gives it, before it is kept (`pk` 0) or as the league keeps it: its columns, as
    LeagueClaim stores them, read and written a file's rows at a time (an ORM object a row took a league's
    largest file past its second of CPU)."""

    identity: str
    result_hash: str
    event: str
    round: int
    a_name: str
    a_club: str
    b_name: str
    b_club: str
    a_points: int
    b_points: int
    winner: str | None
    pk: int = 0


_STORED = [f.name for f in fields(Claim) if f.name != "pk"]  # LeagueClaim's columns of the same names
_READ = sa_select(*(LeagueClaim.__table__.c[name] for name in _STORED), col(LeagueClaim.id))  # type: ignore[attr-defined]


class _Cell(NamedTuple):
    """A named column's cell in a row: its text, where the API says it is, and the column's role."""

    text: str
    line: int
    at: str  # "row 2, column “Army”"
    role: str

    def short(self) -> str:  # a cell as a page's sentence quotes it: that sentence stays under 120 characters
        return self.text if len(self.text) <= 16 else self.text[:15] + "…"


def _number(cell: _Cell, lowest: int, highest: int) -> int:
    text = cell.text.strip()
    if not text.isascii() or not text.isdecimal() or len(text) > 9 or not lowest <= int(text) <= highest:
        raise ColumnRefused(
            cell.role,
            f"{cell.at}: “{cell.text[:20]}” is not a whole number from {lowest} to {highest}",
            f"row {cell.line}'s “{cell.short()}” is not a whole number from {lowest} to {highest}: "
            "choose another column",
        )
    return int(text)


def _name(cell: _Cell, required: bool) -> str:
    if not cell.text.strip():
        if required:
            said = f"row {cell.line} has no name in it: choose another column"
            raise ColumnRefused(cell.role, f"{cell.at}: a player's name is missing", said)
        return ""
    try:
        return player_names.normalised(cell.text, "csv")
    except RulesError as e:
        why = e.reason.split(" (")[0][:60]  # one sentence, short
        raise ColumnRefused(cell.role, f"{cell.at}: {why}", f"row {cell.line}: {why}") from None


def _winner(a: int, b: int, result: _Cell | None = None) -> str | None:
    """The higher score's player, or the result column's word for the first player: on equal scores it says
    who won (a tie-break), and a word the scores contradict (a win on the lower score, a draw on unequal
    ones) is refused, naming the row and the column."""
    by_score = "a" if a > b else "b" if b > a else None
    if result is None:
        return by_score
    said = result.text.strip().casefold()
    if said not in WON + LOST + DRAWN:
        raise ColumnRefused(
            result.role,
            f"{result.at}: “{result.text[:20]}” is not W, L or D for the first player",
            f"row {result.line}'s “{result.short()}” is not W, L or D: choose another column",
        )
    winner = "a" if said in WON else "b" if said in LOST else None
    if by_score is not None and winner != by_score:
        raise ColumnRefused(
            result.role,
            f"{result.at}: “{result.text[:20]}” contradicts the scores {a}–{b}",
            f"row {result.line}'s “{result.short()}” contradicts its scores {a}–{b}: correct the file",
        )
    return winner


def _claim(event: str, line: int, row: list[str], names: list[str], where: dict[str, int]) -> Claim:
    """One row as a claim: its named cells read, a refusal naming the row and column of the first at fault."""

    def cell(role: str) -> _Cell:
        return _Cell(row[where[role]], line, f"row {line}, column “{names[where[role]][:30]}”", role)

    a_points, b_points = _number(cell("a_points"), 0, MAX_POINTS), _number(cell("b_points"), 0, MAX_POINTS)
    rnd = _number(cell("round"), 1, MAX_ROUND)
    a_club = _name(cell("a_club"), required=False) if "a_club" in where else ""
    b_club = _name(cell("b_club"), required=False) if "b_club" in where else ""
    a = [_name(cell("a_name"), required=True), a_club]
    b = [_name(cell("b_name"), required=True), b_club]
    look_a, look_b = ([_look(t) for t in p] for p in (a, b))
    if look_a == look_b:  # one player counted twice, won and lost (an event registers no look-alike)
        raise RulesError("csv", f"row {line}: the second player is the first (the same name and club)")
    winner = _winner(a_points, b_points, cell("result")) if "result" in where else _winner(a_points, b_points)
    # One game whichever player a tool lists first and however it spells the event or a name's case: the same
    # pairing again is the row kept, and another result for it is a conflict, never a second game.
    sides = sorted([(look_a, a_points, winner == "a"), (look_b, b_points, winner == "b")])
    return Claim(
        identity=sha256([_look(event), rnd, [look for look, _, _ in sides]]),
        result_hash=sha256([[points, won] for _, points, won in sides]),
        event=event,
        round=rnd,
        a_name=a[0],
        a_club=a[1],
        b_name=b[0],
        b_club=b[1],
        a_points=a_points,
        b_points=b_points,
        winner=winner,
    )


def parse(event: str, text: str, columns: ClaimColumns) -> list[Claim]:
    """The file's rows as claims (not yet kept), or a refusal naming the first row and column at fault."""
    names = header(text)
    where: dict[str, int] = {}
    for role, name in columns.model_dump().items():
        if name is None:
            continue
        if name not in names:
            raise RulesError(
                f"columns.{role}", f"the file has no column “{name[:30]}”: choose one of its header"
            )
        where[role] = names.index(name)
    claims: list[Claim] = []
    for i, (line, row) in enumerate(_rows(text)):
        if i == 0:
            continue  # the header, however many lines its quoted cells span (the hostile pass: "S2\n")
        if len(claims) >= MAX_CSV_ROWS:
            raise RulesError("csv", f"the file has over {MAX_CSV_ROWS} pairings: split it by rounds")
        if len(row) != len(names):
            raise RulesError("csv", f"row {line} has {len(row)} cells, the header {len(names)}")
        for i, text_of in enumerate(row):
            if len(text_of) > MAX_CELL_CHARS:
                raise RulesError(
                    "csv", f"row {line}, column “{names[i][:30]}”: over {MAX_CELL_CHARS} characters"
                )
        claims.append(_claim(event, line, row, names, where))
    if not claims:
        raise RulesError("csv", "the file has a header and no pairing under it")
    return claims


def import_claims(
    session: Session, league_id: int, event: str, text: str, columns: ClaimColumns, replace: bool = False
) -> tuple[list[Claim], int]:
    """The file's games kept for the league as the organiser's claims, each once however often the file lists
    it, and how many of them the league kept already. `replace`: the event's claims kept before are removed
    first (a corrected file), in the same unit of work, so a file refused leaves them as they were."""
    event = player_names.normalised(event, "event")
    parsed = parse(event, text, columns)
    if replace:
        remove_event(session, league_id, event)
    spelt = _spellings(session, league_id)
    for claim in parsed:  # a player is one line of the table however a tool spells their name's case
        claim.a_name, claim.a_club, claim.b_name, claim.b_club = (
            spelt.setdefault(_look(t), t) if t else t
            for t in (claim.a_name, claim.a_club, claim.b_name, claim.b_club)
        )
    kept: list[Claim] = []
    new: list[Claim] = []
    already = 0
    count = session.exec(
        select(func.count()).select_from(LeagueClaim).where(LeagueClaim.league_id == league_id)
    ).one()
    in_file: dict[str, Claim] = {}  # a per-player export lists each game twice: one game, kept once
    # The league's claims of the file's games, read in a few statements and written by _insert (the second
    # hostile pass: a statement and a flush a row took 2,000 rows to 1 s of CPU).
    identities = list(dict.fromkeys(c.identity for c in parsed))
    stored: dict[str, Claim] = {}
    for at in range(0, len(identities), 500):
        ours = col(LeagueClaim.identity).in_(identities[at : at + 500])
        for row in session.execute(_READ.where(col(LeagueClaim.league_id) == league_id, ours)):
            stored[row.identity] = Claim(*row)
    for claim in parsed:
        seen = in_file.get(claim.identity)
        if seen is not None:
            if seen.result_hash != claim.result_hash:
                raise RuleRefused(
                    f"the file gives round {claim.round}'s {claim.a_name[:30]} v {claim.b_name[:30]} two "
                    "results: refused"
                )
            continue
        found = stored.get(claim.identity)
        if found is not None:
            if found.result_hash != claim.result_hash:
                raise RuleRefused(
                    f"round {claim.round}'s {claim.a_name[:30]} v {claim.b_name[:30]} is here already with "
                    "another result: refused"
                )
            in_file[claim.identity] = found
            kept.append(found)
            already += 1
            continue
        if count >= MAX_LEAGUE_GAMES:
            raise RuleRefused(f"a league keeps at most {MAX_LEAGUE_GAMES} claimed games: start a new league")
        in_file[claim.identity] = claim
        kept.append(claim)
        new.append(claim)
        count += 1
    _insert(session, league_id, new)
    return kept, already


def _insert(session: Session, league_id: int, new: list[Claim]) -> None:
    """The claims kept, each given its number (RETURNING, in the order the rows were sent): on PostgreSQL one
    statement a thousand rows; on SQLite, whose RETURNING promises no order, SQLAlchemy sends one a row."""
    if not new:
        return
    at = utcnow()
    rows = [{**{name: getattr(claim, name) for name in _STORED}, "league_id": league_id, "imported_at": at}
            for claim in new]  # fmt: skip
    # Into the table, not the ORM's class: the ORM leaves a None (a draw's winner) out of its row's columns, and a
    # row of other columns begins another statement (the hostile pass: a file of draws, 107 statements, not 2).
    table = LeagueClaim.__table__  # type: ignore[attr-defined]
    insert = sa_insert(table).returning(table.c.id, sort_by_parameter_order=True)
    for claim, (pk,) in zip(new, session.execute(insert, rows), strict=True):
        claim.pk = pk


def _spellings(session: Session, league_id: int) -> dict[str, str]:
    """Each name and club the league keeps (its signed games' and its claims'), by what it looks like: a claim
    naming one as another tool spells it is kept as the league first spelt it."""
    kept: dict[str, str] = {}
    for g in (LeagueGame, LeagueClaim):
        names = (col(g.a_name), col(g.a_club), col(g.b_name), col(g.b_club))
        rows = session.execute(sa_select(*names).where(col(g.league_id) == league_id).order_by(col(g.id)))
        for row in rows:
            for text in row:
                if text:
                    kept.setdefault(_look(text), text)
    return kept


def _event_names(session: Session, league_id: int, event: str) -> list[str]:
    """The event's names as kept, its name as it looks (the identity's way: case and look-alike letters aside),
    found from the league's event names: only their rows are read or removed."""
    looks = _event_look(event)
    return [name for name, _ in _event_counts(session, league_id) if _look(name) == looks]


def _event_look(event: str) -> str:
    """What an event's name looks like, read as an import keeps it (NFKC, its spaces run together, as
    player_names.spelt: "ＧＴ  Open" is "GT Open"), without its refusals: a name no import keeps finds none.
    The hostile pass: removing an event's claims, and the count the columns page offers to replace, read the name
    as typed, and found none of the claims its import kept."""
    return _look(player_names.spelt(event))


def events(session: Session, league_id: int) -> list[tuple[str, int]]:
    """Each event the league keeps claims of, as first named, and how many games: the organiser's list to
    remove an event's claims from."""
    counts: dict[str, tuple[str, int]] = {}
    for name, n in _event_counts(session, league_id):
        first, kept = counts.get(_look(name), (name, 0))
        counts[_look(name)] = (first, kept + n)
    return list(counts.values())


class Removed(NamedTuple):
    """An event's claims removed: how many, and the file that imports them again (None: past a file's bounds)."""

    event: str
    games: int
    csv: str | None


def _event_counts(session: Session, league_id: int) -> list[tuple[str, int]]:
    """Each event name as kept and its claims, the first imported first."""
    rows = session.execute(
        sa_select(col(LeagueClaim.event), func.count())
        .where(col(LeagueClaim.league_id) == league_id)
        .group_by(col(LeagueClaim.event))
        .order_by(func.min(col(LeagueClaim.id)))
    )
    return [(name, n) for name, n in rows]


def kept_of(session: Session, league_id: int, event: str) -> int:
    """How many games of the event the league keeps (counted by event name, not read row by row)."""
    looks = _event_look(event)
    return sum(n for name, n in _event_counts(session, league_id) if _look(name) == looks)


def remove_event(session: Session, league_id: int, event: str) -> Removed:
    """The event's claims removed (not committed here), with the file that would put them back."""
    ours = (
        col(LeagueClaim.league_id) == league_id,
        col(LeagueClaim.event).in_(_event_names(session, league_id, event)),
    )
    removed = [Claim(*row) for row in session.execute(_READ.where(*ours).order_by(col(LeagueClaim.id)))]
    session.execute(sa_delete(LeagueClaim).where(*ours))
    return Removed(removed[0].event if removed else event, len(removed), as_csv(removed))


# The columns of the file that puts removed claims back (`as_csv`): its header, named as ClaimColumns names them.
UNDO_COLUMNS = ClaimColumns(
    round="Round",
    a_name="First",
    a_club="First club",
    a_points="First score",
    b_name="Second",
    b_club="Second club",
    b_points="Second score",
    result="Result",
)


def as_csv(rows: list[Claim]) -> str | None:
    """The claims as a file of UNDO_COLUMNS that imports them again as they were, or None when it would be
    past a file's bounds (MAX_CSV_ROWS, MAX_CSV_CHARS): then they cannot be put back in one tap."""
    if len(rows) > MAX_CSV_ROWS:
        return None
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    names = UNDO_COLUMNS
    writer.writerow([names.round, names.a_name, names.a_club, names.a_points, names.b_name, names.b_club,
                     names.b_points, names.result])  # fmt: skip
    for r in rows:
        result = "W" if r.winner == "a" else "L" if r.winner == "b" else "D"
        writer.writerow([r.round, r.a_name, r.a_club, r.a_points, r.b_name, r.b_club, r.b_points, result])
    text = out.getvalue()
    return text if len(text) <= MAX_CSV_CHARS else None
