"""Flanders Fields' playsheet, one per war period, as the period playsheets of the rule book lay it out: page 1
the numbered order sequence with its action tables, order-roll modifiers, deep suppression and artillery actions,
the rolling barrage (mid and late), the hurricane bombardment (late), barbed wire and SOS fire; page 2 the
movement distances, the firing table and direct fire factors, armour, the three-suppressions rule and morale.
A section naming datasets prints them whole (each by its view, rules.flanders_fields.play.sheet_views), their
citations shortened to "Playsheet" and "Rule book"; the sequence and SOS fire print the engine's own steps and
constants. The sheet carries the 1:1 template kit too (rules.flanders_fields.play.kit_sheet); playsheets/ prints
them all."""

from __future__ import annotations

from rules.core.game import GameRules
from rules.core.sheet import Block, Bullets, Group, Note, Playsheet, SheetSection, Table, fmt, short_sources
from rules.flanders_fields.book.sequence import SEQUENCES
from rules.flanders_fields.play.kit_sheet import kit_pages
from rules.flanders_fields.play.sheet_views import VIEWS
from rules.flanders_fields.play.table_rules import KIT_TEMPLATES
from rules.flanders_fields.resolvers.artillery import SOS_NEEDS, SRC_SOS
from rules.flanders_fields.ruleset import BOOK, PLAYSHEETS

# "THREE SUPPRESSIONS ON ANY UNIT EQUALS A KILL" (every period playsheet, above the morale table).
THREE_SUPPRESSIONS = "THREE SUPPRESSIONS ON ANY UNIT EQUALS A KILL"


def documents(period: str) -> dict[str, str]:
    """The cited texts' short names on the period's sheet."""
    return {PLAYSHEETS[period]: "Playsheet", BOOK: "Rule book"}


def sequence_section(period: str) -> SheetSection:
    """The numbered order sequence of the period's playsheet: the one the game follows."""
    seq = SEQUENCES[period]  # type: ignore[index]
    out: list[Block] = []
    for s in seq.steps:
        out.append(Group(f"{s.number}. {s.title}", [Bullets(list(s.parts))] if s.parts else []))
        if s.note:
            out.append(Note(s.note))
    return SheetSection("sequence", "Order sequence", tuple(out), (seq.source,))


def sos_section(period: str) -> SheetSection:
    """SOS fire from the engine's own SOS resolver constant and the SOS template."""
    sos = KIT_TEMPLATES["sos"]
    rows = [
        ["Area", f"{fmt(sos.width_cm)} cm wide × {fmt(sos.depth_cm)} cm deep"],
        ["Centre", "within 5 cm of a defended position, trench, block house etc."],
        ["Roll D6 − Deep Suppression", f"{SOS_NEEDS}+: aiming point moved AND one turn of fire arrives"],
        ["Limit", "each defending field battery answers one SOS call per turn"],
    ]
    sources = short_sources([SRC_SOS, sos.source], documents(period))
    return SheetSection("sos", "SOS fire", (Table(["", ""], rows),), tuple(sources), resolvers=("sos",))


class FlandersFieldsSheet(GameRules):
    def playsheet(self, period: str | None) -> Playsheet:
        """The period's sheet (asked without a period: the early war's)."""
        return Playsheet(sections(period or "early"), documents(period or "early"), kit_pages(), VIEWS)


def sections(period: str) -> tuple[SheetSection, ...]:
    """The sections of the period's sheet in print order (those of other periods left out by the renderer)."""
    return (
        sequence_section(period),
        SheetSection(
            "actions",
            "Action tables and order-roll modifiers",
            datasets=("order-tables",),
            resolvers=("order-roll",),
        ),
        SheetSection(
            "artillery",
            "Deep suppression and artillery actions",
            datasets=("artillery-action-table",),
            resolvers=("artillery-action", "deep-suppression"),
        ),
        # Rolling barrages are on the mid and late playsheets only (step 2 of their order sequence).
        SheetSection(
            "barrage",
            "Rolling barrage",
            datasets=("rolling-barrage-table",),
            periods=("mid", "late"),
            resolvers=("rolling-barrage", "barrage-danger", "barrage-duration"),
        ),
        # The German hurricane bombardment is a late-war rule of the main text (HURRICANE BOMBARDMENT
        # (FIREWALTZ)), not printed on the playsheet: firestep's late sheet carries it beside the barrage.
        SheetSection(
            "firewaltz", "Hurricane bombardment (Firewaltz)", datasets=("firewaltz-rules",), periods=("late",)
        ),
        SheetSection("wire", "Barbed wire", datasets=("wire-rules",), resolvers=("wire-crossing",)),
        sos_section(period),
        SheetSection(
            "movement",
            "Movement distances",
            datasets=("movement-table",),
            wide=True,
            page=1,
            resolvers=("movement",),
        ),
        SheetSection(
            "firing",
            "Firing table and direct fire factors",
            datasets=("firing-table",),
            wide=True,
            page=1,
            resolvers=("shooting",),
        ),
        SheetSection("armour", "Armour", datasets=("armour-table",), page=1, resolvers=("shooting",)),
        SheetSection(
            "suppression",
            "Suppression",
            (Note(THREE_SUPPRESSIONS),),
            ("Playsheet",),
            page=1,
            resolvers=("shooting", "suppression"),
        ),
        SheetSection("morale", "Morale", datasets=("morale-table",), page=1, resolvers=("morale",)),
    )
