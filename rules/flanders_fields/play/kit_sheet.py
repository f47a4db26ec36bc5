"""Flanders Fields' 1:1 template kit (`Playsheet.kit`): every area-of-effect template at exact scale, laid out for
A4 and US Letter (playsheets/ prints it).

Sizes come from the table kit (the same specs the table geometry uses); the layout is decided here. Positions
are in mm from the top-left corner of the page's printable area, which is the same size on both papers
(rules.core.sheet), so one layout serves both. Each piece has its own colour so a test can find it in a
rendered page and measure it.
"""

from __future__ import annotations

from rules.core.sheet import TOP_MM, KitPage, KitPiece
from rules.flanders_fields.play.table_rules import DANGER_ZONE_CM, KIT_TEMPLATES, MG_RANGE_CM, MG_SIZES

# The beaten zones, the lane and the barrage's danger area as the rules define them (rules/flanders_fields).
MG_BEATEN_ZONE_CM = MG_SIZES.beaten_zone_cm["mg"]
BLOCKHOUSE_BEATEN_ZONE_CM = MG_SIZES.beaten_zone_cm["blockhouse"]
MG_LANE_WIDTH_CM = MG_SIZES.lane_width_cm
# Fire lane printed ahead of the beaten zone: only a stub, the lane runs on to the maximum range.
MG_LANE_STUB_CM = 8.0
BARRAGE_DANGER_CM = DANGER_ZONE_CM
# A segment of the band: the band runs across the whole table, the page shows 15 cm of it.
BARRAGE_SEGMENT_CM = 15.0


def _mm(cm: float) -> float:
    return cm * 10.0


def _cm(value: float) -> str:
    return f"{value:g}"


def _template(
    kind: str, title: str, x: float, y: float, colour: str, tint: str, note_w_mm: float = 60.0
) -> KitPiece:
    """A template as the rules give it, its width across the page and its depth down the page."""
    spec = KIT_TEMPLATES[kind]
    size = f"{_cm(spec.width_cm)} cm wide × {_cm(spec.depth_cm)} cm deep"
    w, h = _mm(spec.width_cm), _mm(spec.depth_cm)
    return KitPiece(kind, title, size, x, y, w, h, colour, tint, spec.source, note_w_mm=max(w, note_w_mm))


def kit_pages() -> tuple[KitPage, ...]:
    """The kit's pages, in print order."""
    barrage = KIT_TEMPLATES["rolling-barrage"]
    mg_len = MG_LANE_STUB_CM + MG_BEATEN_ZONE_CM
    return (
        KitPage(
            "portrait",
            "Artillery, SOS, mortars, indirect MG, defender's gas",
            (
                _template("artillery", "Artillery battery", 0, TOP_MM, "#8b1a1a", "#f6e3e3"),
                _template("mg-indirect", "MG indirect, per gun", 106, TOP_MM, "#5b3a8b", "#ece6f5", 24),
                _template("heavy-mortar", "Heavy mortar", 134, TOP_MM, "#1a5e8b", "#e1edf6"),
                _template("medium-mortar", "Medium mortar", 134, TOP_MM + 63, "#1a7f6e", "#dff3ef"),
                _template("light-mortar", "Light mortar", 134, TOP_MM + 116, "#6b6b16", "#f1f1d9"),
                _template("sos", "SOS fire", 0, TOP_MM + 110, "#b35a00", "#fbeadb"),
                _template("gas-defender", "Gas cloud, defender", 0, TOP_MM + 168, "#2f7a1f", "#e4f3df"),
            ),
        ),
        KitPage(
            "landscape",
            "Attacker's gas cloud, MG fire lane and beaten zone",
            (
                _template("gas-attacker", "Gas cloud, attacker", 0, TOP_MM, "#3d6b12", "#e9f2dc"),
                KitPiece(
                    "mg-beaten-zone",
                    "MG fire lane and beaten zone",
                    f"{_cm(MG_LANE_WIDTH_CM)} cm lane; beaten zone {_cm(MG_BEATEN_ZONE_CM)} cm beyond the first target",
                    0,
                    TOP_MM + 112,
                    _mm(mg_len),
                    _mm(MG_LANE_WIDTH_CM),
                    "#7a1f5c",
                    "#f5e1ee",
                    "Flanders Fields rule book: MACHINEGUN BEATEN ZONE; playsheets: firing table notes",
                    note=(
                        f"The lane runs on to {_cm(MG_RANGE_CM)} cm; cut at the first target's rear edge mark. Block houses: "
                        f"{_cm(BLOCKHOUSE_BEATEN_ZONE_CM)} cm."
                    ),
                    marks=(
                        (_mm(MG_LANE_STUB_CM), "first target"),
                        (_mm(MG_LANE_STUB_CM + BLOCKHOUSE_BEATEN_ZONE_CM), "block house zone ends"),
                    ),
                ),
            ),
        ),
        KitPage(
            "landscape",
            "Rolling barrage band segment",
            (
                # Drawn with its depth across the page: the band advances to the right, the attackers
                # follow on the left, where the danger area is.
                KitPiece(
                    "rolling-barrage",
                    "Rolling barrage band (segment)",
                    f"{_cm(barrage.depth_cm)} cm deep (advancing →), across the whole table; "
                    f"this segment {_cm(BARRAGE_SEGMENT_CM)} cm",
                    _mm(BARRAGE_DANGER_CM),
                    TOP_MM,
                    _mm(barrage.depth_cm),
                    _mm(BARRAGE_SEGMENT_CM),
                    "#4a4a4a",
                    "#ececec",
                    barrage.source,
                    note="Cut several and lay them side by side across the table.",
                    apron=(
                        _mm(BARRAGE_DANGER_CM),
                        f"danger area {_cm(BARRAGE_DANGER_CM)} cm behind the barrage",
                    ),
                ),
            ),
        ),
    )
