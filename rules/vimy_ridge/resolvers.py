"""Vimy Ridge resolvers: a ground attack on the CRT, a bombardment, what a turn brings, and victory."""

from __future__ import annotations

from typing import Literal, TypedDict

from pydantic import Field

from rules.core.errors import RulesError
from rules.core.resolution import Evaluation, Modifier
from rules.core.ruleset import Context, Resolver
from rules.vimy_ridge.data import (
    AIRCRAFT_MODIFIER,
    ALLIED_TARGET_MODIFIER,
    BOMBARD_SOURCE,
    BOMBARDMENT_TABLE,
    CRT_LINES,
    CRT_RESULTS,
    CRT_SOURCE,
    EAST_EDGE_UNITS,
    GAS_MODIFIER,
    HEX_FEATURES,
    LAST_TURN,
    MAX_MARKERS_PER_UNIT,
    MODIFIER_SOURCE,
    NIGHT_MODIFIER,
    PEAK_HEXES,
    PETIT_VIMY_SUPPLY_HEX,
    REPLACEMENTS_PER_NIGHT,
    TERRAIN_MODIFIERS,
    TERRAINS,
    TOTAL_MARKERS,
    TURNS,
    VIMY_TOWN_HEXES,
    VP_TO_WIN,
    HexFeature,
    Terrain,
    line_columns,
    line_of,
)
from rules.vimy_ridge.ruleset import VimyRequest, VimyRidge, cite

Side = Literal["allied", "german"]
CLUB_TRACK = "the club's own copy of the game (map, counters and tracks), as entered for this game"
TurnNumber = Field(ge=1, le=LAST_TURN, description=f"Game turn, 1 (9 April Morning) to {LAST_TURN}.")


def is_night(ctx: Context, turn: int) -> bool:
    return bool(ctx.value("turn-track")[turn])


class TurnOutcome(TypedDict):
    """What a game turn brings (the turn resolver's outcome)."""

    turn: int
    date: str
    part: str
    night: bool
    bombardment_markers: dict[str, int]
    allied_gas_allowed: bool
    movement_and_attacks_allowed: bool
    replacements_per_side: int
    allied_aircraft_markers_lost: int
    line_of_sight: str


class CrtLine(TypedDict):
    """A terrain line of the combat results table: its terrains, its columns' labels, each die's results."""

    line: str
    terrains: list[str]
    columns: list[str]
    results: dict[str, list[str]]


class CombatResultsTable(TypedDict):
    source: str
    lines: list[CrtLine]
    results_by_die_all_columns: dict[str, list[str]]


class BombardmentTable(TypedDict):
    """The bombardment results table: each die's result, the automatic hit, the modifiers, the most markers."""

    source: str
    results: dict[str, str]
    automatic_hit_on: int
    terrain_modifiers_highest_applies: dict[str, int]
    gas: int
    allied_aircraft: int
    allied_unit_targeted: int
    night: int
    max_markers_per_unit: int


class TrackTurn(TypedDict):
    turn: int
    date: str
    part: str
    night: bool
    bombardment_markers: dict[str, int]


class TurnTrack(TypedDict):
    total_bombardment_markers: int
    turns: list[TrackTurn]
    errata: list[str]


def allotment(ctx: Context, turn: int) -> dict[str, int]:
    allied, german = ctx.value("artillery-track")["night" if is_night(ctx, turn) else "day"]
    return {"allied": allied, "german": german}


def crt_column(terrain: Terrain, differential: int, aligned: str = "left") -> tuple[int, str]:
    """Column index (0-based, on the 12-column table) and its printed label for a differential; a shorter
    line's columns read from the table's first (the crt-alignment erratum's default) or end at its last."""
    cols = line_columns(line_of(terrain))
    shift = len(CRT_RESULTS[1]) - len(cols) if aligned == "right" else 0
    d = min(max(differential, cols[0][0]), cols[-1][1])
    for i, (lo, hi) in enumerate(cols):
        if lo <= d <= hi:
            label = f"{lo:+d}" if lo == hi else f"{lo:+d}, {hi:+d}"
            return i + shift, label.replace("+0", "0")
    raise AssertionError(d)


class CombatRequest(VimyRequest):
    terrain: Terrain = Field(
        description="Terrain line: 'trench' when the attack crosses a trench hexside, else the hex's terrain."
    )
    attack_strength: int = Field(ge=0, le=200, description="Total attack strength of the attacking units.")
    defense_strength: int = Field(ge=0, le=200, description="Printed defence strength of the defender.")
    no_mans_land: bool = Field(
        default=False, title="No Man's Land", description="The defender is in a No Man's Land hex (14.1)."
    )
    turn: int | None = Field(
        default=None, ge=1, le=LAST_TURN, description="Game turn; attacks are refused at night."
    )


@VimyRidge.resolver
class Combat(Resolver[CombatRequest]):
    id = "combat"
    summary = "A ground attack on the integrated combat results table"
    Request = CombatRequest
    examples = (
        {"terrain": "clear", "attack_strength": 9, "defense_strength": 4, "dice": [3]},
        {"terrain": "trench", "attack_strength": 7, "defense_strength": 6, "turn": 1},
        {"terrain": "clear", "attack_strength": 6, "defense_strength": 5, "no_mans_land": True},
    )

    def check(self, req: CombatRequest, ctx: Context) -> None:
        if req.turn is not None and is_night(ctx, req.turn):
            raise RulesError(
                "turn",
                "no attack may occur during a night turn (13.1)",
                [t.number for t in TURNS if not is_night(ctx, t.number)],
            )
        if req.no_mans_land and req.terrain == "trench":
            allowed = [t for t in TERRAINS if t != "trench"]
            raise RulesError(
                "terrain",
                "a unit attacked in No Man's Land is never advantaged by a trench line (14.1)",
                allowed,
            )

    def evaluate(self, req: CombatRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        mods: list[Modifier] = []
        defense = req.defense_strength
        if req.no_mans_land:
            # 14.1 "The defense factor ... is halved (fractions rounded down)"
            halved = defense // 2
            mods.append(
                Modifier(
                    "defender in No Man's Land: defence halved", halved - defense, cite("14.1 No Man's Land")
                )
            )
            defense = halved
        differential = req.attack_strength - defense
        col, label = crt_column(req.terrain, differential, ctx.value("crt-alignment"))
        cols = line_columns(line_of(req.terrain))
        sources = [ctx.citation("crt-alignment")]
        if not cols[0][0] <= differential <= cols[-1][1]:
            sources.append(ctx.citation("crt-off-table"))
        result = CRT_RESULTS[dice[0]][col]
        if not result:
            result = ctx.value("crt-blank-cell")
            sources.append(ctx.citation("crt-blank-cell"))
        said = result_said(ctx, result)
        return Evaluation(
            key=result,
            outcome=result,
            modifiers=tuple(mods),
            total=differential,
            sources=tuple(sources),
            details={
                "line": line_of(req.terrain),
                "column": label,
                "differential": differential,
                **({"notes": [said]} if said else {}),
            },
        )


# What each printed result of the CRT lays on the counters, in words (the crt-codes erratum's by-letter
# reading: "The letter names the counters it falls on: A the attackers, D the defender, Ex both, each losing a
# step (the attackers may advance only after their loss); 'e' eliminated; a number or (A) a retreat or steps
# lost, the players' choice; the attackers may advance once the result falls on the defender").
_ON_ATTACKERS = "falls on the attackers: a retreat or steps lost, the players' choice"
_ON_DEFENDER = (
    "falls on the defender: a retreat or steps lost, the players' choice; the attackers may advance"
)
RESULT_WORDS = {
    "(A)": _ON_ATTACKERS,
    "A1": _ON_ATTACKERS,
    "A2": _ON_ATTACKERS,
    "A3": _ON_ATTACKERS,
    "Ae": "the attackers are eliminated",
    "Ex": "an exchange: the attackers and the defender each lose a step; the attackers may advance after "
    "their loss",
    "D2": _ON_DEFENDER,
    "D3": _ON_DEFENDER,
    "De": "the defender is eliminated; the attackers may advance",
}


def result_said(ctx: Context, result: str) -> str:
    """A CRT result in words beside its code with its rule ("Ex: an exchange: ... (Integrated Combat Results
    Table; ...)"), as the crt-codes reading in force reads it; "" for no effect."""
    if result not in RESULT_WORDS or "crt-codes" not in ctx.ruleset.errata:
        return ""
    words = RESULT_WORDS[result]
    if ctx.reading("crt-codes") != ctx.ruleset.errata["crt-codes"].default:  # the players read the letters
        words = "any result on any counter of the attack, as the players read the standard rules"
    return f"{result}: {words} ({ctx.citation('crt-codes')})"


class BombardmentRequest(VimyRequest):
    bombarding_side: Side = Field(
        description="Whose markers these are; the target is a unit of the other side."
    )
    terrain: list[HexFeature] = Field(
        default_factory=lambda: list[HexFeature](["clear"]),
        min_length=1,
        max_length=5,
        description="Terrain in the target hex.",
    )
    la_folie_woods: bool = Field(
        default=False, description="A woods hex within seven hexes of Petit Vimy (18.2)."
    )
    markers: int = Field(
        default=1, ge=1, le=MAX_MARKERS_PER_UNIT, description="Markers on the unit (17.2: at most two)."
    )
    turn: int = TurnNumber
    gas: bool = Field(default=False, description="Allied gas, first game turn only (17.6).")
    aircraft: bool = Field(
        default=False, description="An Allied aircraft marker added to the hex (at most one)."
    )
    night: Literal["by-turn-track", "night", "day"] = Field(
        default="by-turn-track",
        description="A night turn by the club's turn track; unset: the turn-track reading.",
    )
    observed: Literal["", "observed", "not observed"] = Field(
        default="",
        description="The players' call whether the target is observed (17.3); 'not observed' is refused.",
    )
    table_result: Literal["hit", "no effect"] | None = Field(
        default=None,
        description="The result as read from the club's own printed Bombardment Table; no dice are then rolled.",
    )


@VimyRidge.resolver
class Bombardment(Resolver[BombardmentRequest]):
    id = "bombardment"
    summary = "Bombard an observed enemy unit with one or two markers (at most one hit)"
    Request = BombardmentRequest
    examples = (
        {"bombarding_side": "allied", "terrain": ["trench"], "turn": 1, "gas": True, "markers": 2},
        {"bombarding_side": "german", "terrain": ["no-mans-land"], "turn": 3, "dice": [3]},
    )

    def dice(self, req: BombardmentRequest, ctx: Context) -> tuple[int, ...]:
        if req.table_result is not None:
            return ()
        return (6,) * req.markers  # 17.4 "one six-sided die is rolled per each assigned bombardment marker"

    def check(self, req: BombardmentRequest, ctx: Context) -> None:
        if req.la_folie_woods and (
            req.bombarding_side == "allied" or ctx.value("la-folie-woods-bombardment") == "all"
        ):
            raise RulesError(
                "la_folie_woods",
                "no Allied bombardment is ever permitted in La Folie Woods (18.2)"
                if req.bombarding_side == "allied"
                else "no bombardment is ever possible in La Folie Woods (17.2)",
                [False],
            )
        if req.bombarding_side == "allied" and req.turn == 1 and not ctx.value("zero-hour"):
            raise RulesError(
                "turn",
                "the game begins with the Allied combat phase: no Allied turn-1 bombardment (15.2)",
                range(2, LAST_TURN + 1),
            )
        if req.gas and (req.bombarding_side != "allied" or req.turn != 1):
            raise RulesError(
                "gas", "only the Allied player, during the first game turn, may use gas (17.6)", [False]
            )
        if req.observed == "not observed":
            raise RulesError(
                "observed", "only observed enemy units can ever be bombarded (17.2, 17.3)", ["observed"]
            )
        if req.aircraft and req.bombarding_side != "allied":
            raise RulesError("aircraft", "aircraft markers are Allied (11.1, 17.3)", [False])

    def modifiers(self, req: BombardmentRequest, ctx: Context) -> tuple[Modifier, ...]:
        mods: list[Modifier] = []
        feature = max(req.terrain, key=lambda f: TERRAIN_MODIFIERS[f])
        if TERRAIN_MODIFIERS[feature]:
            mods.append(
                Modifier(f"terrain: {feature} (highest in hex)", TERRAIN_MODIFIERS[feature], MODIFIER_SOURCE)
            )
        signed = ctx.value("minus-signs")
        signs = ctx.citation("minus-signs")
        if req.gas:
            mods.append(Modifier("gas attack", signed["gas"], f"{cite('17.6 Gas')}; {signs}"))
        if req.aircraft:
            mods.append(Modifier("Allied aircraft over the hex", signed["aircraft"], signs))
        if req.bombarding_side == "german":
            mods.append(Modifier("an Allied unit is the target", signed["allied_target"], signs))
        by_track = req.night == "by-turn-track"
        if is_night(ctx, req.turn) if by_track else req.night == "night":
            night_source = ctx.citation("turn-track") if by_track else CLUB_TRACK
            mods.append(Modifier("night turn", NIGHT_MODIFIER, night_source))
        return tuple(mods)

    def evaluate(self, req: BombardmentRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        mods = self.modifiers(req, ctx)
        net = sum(m.value for m in mods)
        if req.table_result is not None:
            return Evaluation(
                key=req.table_result,
                outcome=f"{req.table_result}: as read from the club's printed Bombardment Table",
                modifiers=mods,
                total=net,
                sources=(cite("17.5 Bombardment Resolution"), CLUB_TRACK),
                details={"marker_results": [req.table_result], "read_at_table": True},
            )
        results = []
        below = False
        for d in dice:
            # "Any roll of '1', regardless of modifiers, is always an automatic 'Hit'"; a roll modified below 1
            # as the bombardment-below-one erratum reads it, above 6 on the last row.
            below = below or (d != 1 and d + net < 1)
            if d == 1:
                results.append("hit")
            elif d + net < 1:
                results.append(str(ctx.value("bombardment-below-one")))
            else:
                results.append(BOMBARDMENT_TABLE[min(d + net, 6)])
        hit = "hit" in results  # 17.2 note: "A unit can only ever suffer one hit from a bombardment"
        return Evaluation(
            key="hit" if hit else "no effect",
            outcome="hit: the unit loses one step (depleted, or eliminated if already depleted)"
            if hit
            else "no effect",
            modifiers=mods,
            total=net,
            sources=(
                BOMBARD_SOURCE,
                cite("17.5 Bombardment Resolution"),
                *((ctx.citation("bombardment-below-one"),) if below else ()),
            ),
            details={"marker_results": results, **_observed(req)},
        )


def _observed(req: BombardmentRequest) -> dict[str, str]:
    """The players' call that the target is observed, recorded as theirs beside the rule (17.3)."""
    if req.observed != "observed":
        return {}
    return {
        "observed": "the players' call, from their own map (17.3 Observation: adjacent, or a line of sight)"
    }


class TurnRequest(VimyRequest):
    turn: int = TurnNumber


@VimyRidge.resolver
class TurnInfo(Resolver[TurnRequest]):
    id = "turn"
    summary = "What a game turn brings: night, bombardment allotments, replacements, aircraft, gas"
    Request = TurnRequest
    examples = ({"turn": 2}, {"turn": 3})

    def dice(self, req: TurnRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def evaluate(self, req: TurnRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        t = TURNS[req.turn - 1]
        night = is_night(ctx, req.turn)
        info: TurnOutcome = {
            "turn": t.number,
            "date": t.date,
            "part": t.part,
            "night": night,
            "bombardment_markers": allotment(ctx, req.turn),
            "allied_gas_allowed": t.number == 1 and bool(ctx.value("zero-hour")),
            "movement_and_attacks_allowed": not night,
            "replacements_per_side": REPLACEMENTS_PER_NIGHT if night else 0,
            "allied_aircraft_markers_lost": 1 if night else 0,
            "line_of_sight": "adjacent hexes only" if night else "1 to 10 hexes",
        }
        notes = ["Allied combat phase begins the game (15.2 Zero Hour)."] if t.number == 1 else []
        return Evaluation(
            key="night" if night else "day",
            outcome=info,
            sources=(
                ctx.citation("turn-track"),
                ctx.citation("artillery-track"),
                cite("13.1 Night; 11.3 and 11.6 Replacements; 18.1 The Red Baron; 17.3 Observation"),
            ),
            details={"notes": notes},
        )


class VictoryRequest(VimyRequest):
    game_over: bool = Field(default=False, description=f"The last turn ({LAST_TURN}) is complete.")
    canadians_last_in_all_peaks: bool = Field(
        default=False, description=f"Canadians last occupied all {PEAK_HEXES} peak hexes."
    )
    canadians_last_in_petit_vimy_supply: bool = Field(
        default=False,
        description=f"A Canadian unit last occupied the German supply hex {PETIT_VIMY_SUPPLY_HEX}.",
    )
    most_units_of_one_division_on_east_edge: int = Field(
        default=0,
        ge=0,
        le=100,
        description="Most Canadian units of one division that moved to easternmost hexes.",
    )
    allied_unit_entered_vimy: bool = Field(
        default=False, description=f"An Allied unit entered one of the {VIMY_TOWN_HEXES} Vimy town hexes."
    )
    german_units_in_petit_vimy_town: int = Field(
        default=0, ge=0, le=2, description="German units in Petit Vimy's two town hexes."
    )
    german_units_left: int = Field(default=1, ge=0, le=200, description="German units still on the map.")


@VimyRidge.resolver
class Victory(Resolver[VictoryRequest]):
    id = "victory"
    summary = "Victory points and the instant-win conditions"
    Request = VictoryRequest
    examples = (
        {"game_over": True, "canadians_last_in_all_peaks": True, "canadians_last_in_petit_vimy_supply": True},
        {"allied_unit_entered_vimy": True, "german_units_in_petit_vimy_town": 0},
    )

    def dice(self, req: VictoryRequest, ctx: Context) -> tuple[int, ...]:
        return ()

    def evaluate(self, req: VictoryRequest, ctx: Context, dice: tuple[int, ...]) -> Evaluation:
        vp = [
            ("every peak hex", req.canadians_last_in_all_peaks),
            (f"Petit Vimy supply hex {PETIT_VIMY_SUPPLY_HEX}", req.canadians_last_in_petit_vimy_supply),
            (
                f"{EAST_EDGE_UNITS} units of one division on the east edge",
                req.most_units_of_one_division_on_east_edge >= EAST_EDGE_UNITS,
            ),
        ]
        points = sum(1 for _, ok in vp if ok)
        src = (cite("12.1 Victory Points"), cite("12.2 German Victory"))
        need_german = ctx.value("petit-vimy-proviso")
        proviso = (
            (req.german_units_in_petit_vimy_town == 2)
            if need_german
            else (req.german_units_in_petit_vimy_town == 0)
        )
        details = {"victory_points": points, "scored": [name for name, ok in vp if ok], "needed": VP_TO_WIN}
        if req.german_units_left == 0:
            return Evaluation(
                "allied instant win", "Allied win: all German units eliminated", (), points, src, details
            )
        if req.allied_unit_entered_vimy and proviso:
            return Evaluation(
                "allied instant win",
                "Allied win: an Allied unit entered Vimy",
                (),
                points,
                (*src, ctx.citation("petit-vimy-proviso")),
                details,
            )
        if points >= VP_TO_WIN:
            return Evaluation("allied win", f"Canadian win with {points} VP", (), points, src, details)
        if req.game_over:
            return Evaluation(
                "german win", f"German win: the Canadians hold only {points} VP", (), points, src, details
            )
        return Evaluation("undecided", f"Play on: {points} VP of {VP_TO_WIN}", (), points, src, details)


# -- datasets ------------------------------------------------------------------------------------------
@VimyRidge.dataset("combat-results-table", "The integrated combat results table by terrain line")
def _crt(_period: str | None) -> CombatResultsTable:
    lines: list[CrtLine] = []
    for line, members in CRT_LINES.items():
        cols = line_columns(line)
        lines.append(
            {
                "line": line,
                "terrains": list(members),
                "columns": [crt_column(members[0], lo)[1] for lo, _ in cols],
                "results": {str(d): list(CRT_RESULTS[d][: len(cols)]) for d in range(1, 7)},
            }
        )
    return {
        "source": CRT_SOURCE,
        "lines": lines,
        "results_by_die_all_columns": {str(k): list(v) for k, v in CRT_RESULTS.items()},
    }


@VimyRidge.dataset("bombardment-table", "The bombardment results table and its modifiers")
def _bombardment(_period: str | None) -> BombardmentTable:
    return {
        "source": BOMBARD_SOURCE,
        "results": {str(k): v for k, v in BOMBARDMENT_TABLE.items()},
        "automatic_hit_on": 1,
        "terrain_modifiers_highest_applies": {f: TERRAIN_MODIFIERS[f] for f in HEX_FEATURES},
        "gas": GAS_MODIFIER,
        "allied_aircraft": AIRCRAFT_MODIFIER,
        "allied_unit_targeted": ALLIED_TARGET_MODIFIER,
        "night": NIGHT_MODIFIER,
        "max_markers_per_unit": MAX_MARKERS_PER_UNIT,
    }


@VimyRidge.dataset(
    "turn-track", "The turn track with night turns and artillery allotments (default readings)"
)
def _turns(_period: str | None) -> TurnTrack:
    ctx = VimyRidge().context(None)
    return {
        "total_bombardment_markers": TOTAL_MARKERS,
        "turns": [
            {
                "turn": t.number,
                "date": t.date,
                "part": t.part,
                "night": is_night(ctx, t.number),
                "bombardment_markers": allotment(ctx, t.number),
            }
            for t in TURNS
        ],
        "errata": ["turn-track", "artillery-track"],
    }
