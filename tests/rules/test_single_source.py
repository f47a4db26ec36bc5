"""Each rule number and each citation helper is defined once: the geometry, the playsheets and the service
take them from the rule set instead of copying them (a copy could drift from the book)."""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules.flanders_fields.book import tables as T
from rules.flanders_fields.book.reference import BLOCK_HOUSE_RULES, weapon_ranges
from rules.flanders_fields.play.table_rules import MG_SIZES
from rules.flanders_fields.resolvers import artillery, barrage

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("rules", "app", "playsheets")


def _number(node: ast.expr) -> float | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    return None


def _numbers(node: ast.expr) -> list[float]:
    """A number bound directly, or the numbers of a literal dict, tuple or list of numbers."""
    direct = _number(node)
    if direct is not None:
        return [direct]
    if isinstance(node, ast.Dict):
        return [n for v in node.values for n in _numbers(v)]
    if isinstance(node, ast.Tuple | ast.List):
        return [n for v in node.elts for n in _numbers(v)]
    return []


@dataclass(frozen=True)
class _Index:
    """What the checks read of the sources, gathered in one walk of every file's tree: each check walked them
    all again (some 15 walks of rules/, app/ and playsheets/, about a second each on CI)."""

    bindings: tuple[tuple[str, str, tuple[float, ...]], ...]  # (file, name, its numbers), numbers only
    calls: tuple[tuple[str, str, tuple[float, ...]], ...]  # (file, callee, the numbers passed to it)
    functions: tuple[tuple[str, str], ...]  # (file, a function or method it defines)
    assigned: tuple[tuple[str, str], ...]  # (file, a name it assigns a value to)
    number_dicts: tuple[tuple[str, frozenset[object], tuple[float, ...]], ...]  # (file, keys, numbers)


def _pairs(node: ast.AST) -> list[tuple[str, ast.expr]]:
    """The names, keywords and dict keys a node writes a value against, with the value."""
    if isinstance(node, ast.Assign):
        return [(t.id, node.value) for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
        return [(node.target.id, node.value)]
    if isinstance(node, ast.keyword) and node.arg:
        return [(node.arg, node.value)]
    if isinstance(node, ast.Dict):
        return [
            (k.value, v)
            for k, v in zip(node.keys, node.values, strict=True)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)
        ]
    return []


@functools.cache
def _index(root: Path) -> _Index:
    bindings: list[tuple[str, str, tuple[float, ...]]] = []
    calls: list[tuple[str, str, tuple[float, ...]]] = []
    defined: list[tuple[str, str]] = []
    assigned: list[tuple[str, str]] = []
    number_dicts: list[tuple[str, frozenset[object], tuple[float, ...]]] = []
    for d in SOURCE_DIRS:
        for p in sorted((root / d).rglob("*.py")):
            path = str(p.relative_to(root))
            for node in ast.walk(ast.parse(p.read_text(), str(p))):
                bindings += [
                    (path, name, tuple(ns)) for name, value in _pairs(node) if (ns := _numbers(value))
                ]
                if isinstance(node, ast.Call) and isinstance(callee := getattr(node.func, "id", None), str):
                    args = [*node.args, *(k.value for k in node.keywords)]
                    calls.append((path, callee, tuple(n for a in args if (n := _number(a)) is not None)))
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    defined.append((path, node.name))
                if isinstance(node, ast.Assign):
                    assigned += [(path, t.id) for t in node.targets if isinstance(t, ast.Name)]
                if isinstance(node, ast.Dict) and (numbers := _numbers(node)):
                    keys = frozenset(k.value for k in node.keys if isinstance(k, ast.Constant))
                    number_dicts.append((path, keys, tuple(numbers)))
    return _Index(tuple(bindings), tuple(calls), tuple(defined), tuple(assigned), tuple(number_dicts))


def number_bindings(root: Path, pattern: str) -> set[tuple[str, float]]:
    """(file, number) for every number written against a name, keyword or dict key matching `pattern`."""
    rx = re.compile(pattern, re.IGNORECASE)
    return {(path, n) for path, name, numbers in _index(root).bindings if rx.search(name) for n in numbers}


def call_numbers(root: Path, callee: str) -> set[tuple[str, float]]:
    """(file, number) for every number passed to a call of `callee`."""
    return {(path, n) for path, name, numbers in _index(root).calls if name == callee for n in numbers}


def functions(root: Path, name: str) -> list[str]:
    """Files defining a function or method `name`."""
    return sorted(path for path, defined in _index(root).functions if defined == name)


def assignments(root: Path, name: str) -> list[str]:
    """Files assigning a value to `name`."""
    return sorted(path for path, assigned in _index(root).assigned if assigned == name)


TABLES = "rules/flanders_fields/book/tables.py"
REFERENCE = "rules/flanders_fields/book/reference.py"
FRAME = "rules/table/frame.py"
# Each rule number, and the one place that writes it down.
DEFINED_ONCE = {
    # "Machine Guns 70cm (Beaten Zone 15cm)", "Block Houses 50cm (Beaten Zone 10cm)" (WEAPON RANGES)
    "beaten zone": (r"beaten_zone(_cm)?$", {(TABLES, 15.0), (TABLES, 10.0)}),
    # "There is a danger area 6cm behind the RB"
    "barrage danger zone": (r"danger_(zone|area|cm)", {("rules/flanders_fields/resolvers/barrage.py", 6.0)}),
    # "a "standard" belt of barbed wire is considered to be 2cm wide"
    "wire belt": (r"wire_belt|belt_cm", {(TABLES, 2.0)}),
    # "fire zone is 2cm wide" (ARCS OF FIRE, MACHINE GUNS)
    "MG lane width": (r"lane_width|fire_zone_width", {(TABLES, 2.0)}),
    # "up to 3 targets in beaten zone may be hit"
    "beaten zone targets": (r"beaten_targets|beaten_zone_targets|max_targets", {(TABLES, 3.0)}),
    # "Short Range MGs (Under 10cm first target only)"
    "MG short range": (r"short_range(_mg)?_cm$", {(TABLES, 10.0)}),
    # "Straight ahead the width of the unit plus 10cm on each side" (and 10, 5) (ARCS OF FIRE)
    "arc extra width": (r"side_extra|extra_each_side", {(REFERENCE, 10.0), (REFERENCE, 5.0)}),
    # "Any enemy in arc within 15cm.", "Enemy straight ahead within 30cm." (TARGET PRIORITY)
    "target priority distances": (r"within_cm|priority_(near|ahead)", {(REFERENCE, 15.0), (REFERENCE, 30.0)}),
    # "on a "standard" war-game table of approximately 1.8 by 1.2 meters"
    "table size": (r"^(width|length|table_width_cm|table_length_cm)$", {(FRAME, 120.0), (FRAME, 180.0)}),
    # Weapon ranges are written only as WEAPON RANGES lines, not as fields elsewhere.
    "weapon range fields": (r"^(max_cm|mg_range_cm|max_range_cm)$", set()),
}


@pytest.mark.parametrize("what", sorted(DEFINED_ONCE))
def test_each_rule_number_is_written_once(what: str) -> None:
    pattern, expected = DEFINED_ONCE[what]
    assert number_bindings(ROOT, pattern) == expected


def test_weapon_ranges_are_written_only_in_the_weapon_ranges_table() -> None:
    assert call_numbers(ROOT, "FirerSpec") == set()
    ranges = call_numbers(ROOT, "WeaponRange")
    assert {path for path, _ in ranges} == {TABLES}
    # The ranges, the mortars' minimum and the two beaten zones.
    assert {n for _, n in ranges} == {70.0, 50.0, 45.0, 30.0, 100.0, 200.0, 5.0, 10.0, 15.0}


def test_the_artillery_action_table_is_the_order_tables_row() -> None:
    # The action thresholds are read from the Regiment/Brigade artillery bands, not written again: the one
    # dict of thresholds in the tree is the main text's mid-war reading of its erratum.
    found = [(path, numbers) for path, keys, numbers in _index(ROOT).number_dicts if keys == {"one", "two"}]
    assert found == [("rules/flanders_fields/errata/artillery.py", (4.0, 7.0))]
    assert {p: {"one": 3, "two": 6} for p in ("early", "late")} == artillery.ACTION_THRESHOLDS


def test_cite_is_defined_once() -> None:
    assert functions(ROOT, "cite") == ["rules/core/citation.py"]
    assert assignments(ROOT, "SRC_NATURAL_ONE") == ["rules/flanders_fields/errata/firing.py"]


def test_the_checks_catch_a_copy(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "app").mkdir()
    (tmp_path / "playsheets").mkdir()
    (tmp_path / "rules" / "a.py").write_text("def cite(s):\n    return s\nDANGER_ZONE_CM = 6.0\n")
    (tmp_path / "app" / "b.py").write_text(
        'def cite(s):\n    return s\nX = {"beaten_zone_cm": 15}\nBEATEN_ZONE_CM = {"mg": 15.0}\n'
        'F = FirerSpec("mg", "mg", 70)\n'
    )
    assert functions(tmp_path, "cite") == ["app/b.py", "rules/a.py"]
    assert number_bindings(tmp_path, r"danger_zone") == {("rules/a.py", 6.0)}
    assert number_bindings(tmp_path, r"beaten_zone") == {("app/b.py", 15.0)}
    assert call_numbers(tmp_path, "FirerSpec") == {("app/b.py", 70.0)}


# -- each number against the line the book prints -----------------------------------------------------------


def _cm(line: str) -> list[int]:
    return [int(n) for n in re.findall(r"(\d+)\s*(?:cm|\(Min\))", line)]


def test_weapon_ranges_match_their_printed_lines() -> None:
    for key, r in T.WEAPON_RANGES.items():
        printed = _cm(r.text)
        values = [v for v in (r.min_cm, r.max_cm, r.beaten_zone_cm) if v is not None]
        assert printed == values, key
    served = weapon_ranges()
    assert served["machine-gun"] == {
        "max_cm": 70,
        "beaten_zone_cm": 15,
        "text": "Machine Guns 70cm (Beaten Zone 15cm)",
        "source": T.SRC_RANGES,
    }
    assert served["mortar"]["min_cm"] == 10 and served["mortar"]["max_cm"] == 100


@pytest.mark.parametrize(
    ("value", "line"),
    [
        (barrage.DANGER_ZONE_CM, "There is a danger area 6cm behind the RB"),
        (T.WIRE_BELT_CM, "a 'standard' belt of barbed wire is considered to be 2cm wide"),
        (T.MG_LANE_WIDTH_CM, "MACHINE GUNS 45° Arc, fire zone is 2cm wide"),
        (T.SHORT_RANGE_MG_CM, "Short Range MGs (Under 10cm first target only) +2"),
        (T.BLOCK_HOUSES_RANGE_CM, "Block Houses fire as machineguns but with a reduced range of 45cm"),
        (T.BEATEN_ZONE_CM["mg"], "Machine Gun Beaten Zone = 15cm beyond First target"),
        (T.BEATEN_ZONE_CM["blockhouse"], "Block House Beaten Zone = 10cm beyond First target"),
    ],
)
def test_number_matches_the_printed_line(value: int, line: str) -> None:
    assert _cm(line)[-1] == value


def test_the_geometry_measures_with_the_rule_sets_numbers() -> None:
    assert MG_SIZES.beaten_zone_cm == {"mg": 15.0, "blockhouse": 10.0}
    assert MG_SIZES.lane_width_cm == 2.0 and MG_SIZES.beaten_zone_targets == 3
    assert MG_SIZES.short_range_cm == 10.0
    assert MG_SIZES.blockhouse_half_arc_deg == BLOCK_HOUSE_RULES["arc_deg_per_face"] == 45
    # "up to 3 targets in beaten zone may be hit"; "1-2 = No Action 3-5 = 1 Action 6+ = 2 Actions"
    assert T.BEATEN_ZONE_TARGETS == 3
    assert [(b.lo, b.hi, b.actions) for b in T.ARTILLERY_EARLY_LATE] == [(1, 2, 0), (3, 5, 1), (6, 6, 2)]
