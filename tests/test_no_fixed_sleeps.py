"""No test depends on the machine's speed (issue 65): outside the timed tier (`@pytest.mark.timed`, run alone
after the parallel run), no test sleeps for a fixed time (`time.sleep(...)`, `asyncio.sleep(<a constant>)`,
Playwright's `wait_for_timeout(...)`) nor holds a wall-clock threshold (an assert on a time taken, measured
with the clock). A test that waits waits for a state the page or the server states, under one generous
deadline; a pause between two looks at that state, inside the `while` that waits for it, is a poll and not a
fixed sleep. What cannot wait for a state is listed once, here, with why."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).parent
CLOCKS = {("time", "monotonic"), ("time", "perf_counter"), ("time", "time"), ("time", "monotonic_ns")}
# Every call a finding is made of (a sleep, a wait, a clock), as a module's text writes it: a module that writes
# none has none, and is not parsed (parsing and walking every module took 4 s; about one in thirteen writes one).
CALLS = re.compile(r"\b(?:sleep|wait_for_timeout|monotonic|monotonic_ns|perf_counter|time)\s*\(")

# (file under tests/, function): why it waits a fixed time. Each must still be found (no stale excuse).
JUSTIFIED: dict[tuple[str, str], str] = {
    (
        "app/games/test_live_workers.py",
        "test_one_read_of_the_log_per_wake_up_serves_every_stream_of_the_process",
    ): (
        "the streams live in other processes: nothing they say tells that their listener's first wake-up "
        "(which reads) is over, and its reads would be counted as the event's"
    ),
    ("app/games/test_live_workers.py", "test_a_worker_held_up_past_uvicorns_five_seconds_is_kept"): (
        "the hold-up is the fact under test: a worker silent longer than uvicorn's 5 s, then let go; no state says"
        " the supervisor has given up on it"
    ),
    ("app/test_server.py", "answered"): "a helper of the timed test alone (run after the parallel run)",
    ("app/test_server.py", "test_a_half_sent_request_is_closed_after_the_request_timeout"): (
        "the request timeout is the server's wall clock (1 s): closed no sooner, and within five times it"
    ),
    ("frontend/test_referee.py", "test_third_suppression_kills_and_long_press_removes"): (
        "a long press is a press held for a time: the gesture itself"
    ),
    ("frontend/test_map.py", "pinch_zooms_about_the_fingers_and_labels_appear"): (
        "a pinch is touch moves spread over frames (16 ms apart): the gesture itself"
    ),
    ("frontend/test_map.py", "drag_by_touch"): "a drag is touch moves spread over frames: the gesture itself",
    ("frontend/test_screens.py", "readme_picture"): (
        "only under `make screenshots` (FIRESTEP_DOCS_SCREENSHOTS), never in the suite: fonts and tiles settle"
    ),
    ("frontend/test_map_live.py", "test_template_move_marker_and_turn_reach_every_map_live"): (
        "proves that nothing is fetched after a frame is applied: an absence has no state to wait for"
    ),
    (
        "frontend/test_referee_live.py",
        "test_three_devices_see_every_change_live_and_a_device_back_from_offline_catches_up",
    ): "proves that nothing is fetched, nor applied twice, after a frame: an absence has no state to wait for",
}


def _is_timed(node: ast.AST) -> bool:
    return any("timed" in ast.unparse(d) for d in getattr(node, "decorator_list", ()))


def _module_timed(tree: ast.Module) -> bool:
    return any(
        isinstance(s, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in s.targets)
        and "timed" in ast.unparse(s.value)
        for s in tree.body
    )


def _call_name(call: ast.Call) -> tuple[str, str] | None:
    f = call.func
    if isinstance(f, ast.Attribute):
        owner = f.value.id if isinstance(f.value, ast.Name) else ""
        return owner, f.attr
    return None


def _fixed_sleep(call: ast.Call) -> bool:
    name = _call_name(call)
    if name is None:
        return False
    if name[1] == "wait_for_timeout" or name == ("time", "sleep"):
        return True
    return name == ("asyncio", "sleep") and bool(call.args) and isinstance(call.args[0], ast.Constant)


def _is_clock(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _call_name(node) in CLOCKS


class _Finder(ast.NodeVisitor):
    """The fixed sleeps and clock thresholds of one module, by function (the innermost named one)."""

    def __init__(self) -> None:
        self.found: list[tuple[str, int, str]] = []  # function, line, what
        self.function = "<module>"
        self.in_while = False
        self.clocked: set[str] = set()  # names holding a clock reading or a time taken

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if _is_timed(node):
            return
        outer = (self.function, self.in_while, self.clocked)
        self.function, self.in_while, self.clocked = node.name, False, set()
        self.generic_visit(node)
        self.function, self.in_while, self.clocked = outer

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_While(self, node: ast.While | ast.For) -> None:
        polls = isinstance(node, ast.While) or any(isinstance(n, ast.Break) for n in ast.walk(node))
        outer, self.in_while = self.in_while, self.in_while or polls
        self.generic_visit(node)
        self.in_while = outer

    visit_For = visit_While

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(
            _is_clock(n) or (isinstance(n, ast.Name) and n.id in self.clocked) for n in ast.walk(node.value)
        ):
            self.clocked |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if _fixed_sleep(node) and not self.in_while:
            self.found.append((self.function, node.lineno, ast.unparse(node)))
        self.generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        def timed(n: ast.AST) -> bool:
            return _is_clock(n) or (isinstance(n, ast.Name) and n.id in self.clocked)

        def taken(n: ast.AST) -> bool:
            return any(
                isinstance(s, ast.BinOp) and isinstance(s.op, ast.Sub) and (timed(s.left) or timed(s.right))
                for s in ast.walk(n)
            )

        # A time taken (a clock reading less another) held under a limit: a busy machine breaks it. Held
        # above one (not sooner than a timeout), or a reading against a deadline, it is not.
        for n in ast.walk(node.test):
            if isinstance(n, ast.Compare):
                sides = [n.left, *n.comparators]
                for op, left, right in zip(n.ops, sides[:-1], sides[1:], strict=True):
                    under = (isinstance(op, (ast.Lt, ast.LtE)) and taken(left)) or (
                        isinstance(op, (ast.Gt, ast.GtE)) and taken(right)
                    )
                    if under:
                        self.found.append((self.function, node.lineno, ast.unparse(node.test)))
        self.generic_visit(node)


def findings() -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        text = path.read_text()
        if not CALLS.search(text):
            continue
        tree = ast.parse(text, str(path))
        if _module_timed(tree):
            continue
        finder = _Finder()
        finder.visit(tree)
        for function, line, what in finder.found:
            out.setdefault((path.relative_to(TESTS).as_posix(), function), []).append(f"line {line}: {what}")
    return out


def test_no_test_sleeps_a_fixed_time_or_holds_a_wall_clock_threshold() -> None:
    found = findings()
    unexcused = {k: v for k, v in found.items() if k not in JUSTIFIED}
    assert not unexcused, (
        f"wait for a state the page or server states (or justify it in JUSTIFIED): {unexcused}"
    )
    stale = sorted(set(JUSTIFIED) - set(found))
    assert not stale, f"these no longer wait a fixed time: take them out of JUSTIFIED: {stale}"


def test_the_check_finds_what_it_looks_for() -> None:
    """Not blind: each kind it forbids is found, a poll and a deadline are not."""
    source = """
import asyncio, time
def fixed(page):
    time.sleep(0.5)
    page.wait_for_timeout(100)
async def waits():
    await asyncio.sleep(1)
def threshold():
    start = time.monotonic()
    assert time.monotonic() - start < 1.0
    assert time.monotonic() - start >= 0.5
def polls(ready):
    deadline = time.monotonic() + 30
    while not ready():
        assert time.monotonic() < deadline
        time.sleep(0.05)
"""
    finder = _Finder()
    finder.visit(ast.parse(source))
    assert sorted({f for f, _, _ in finder.found}) == ["fixed", "threshold", "waits"]
    assert len(finder.found) == 4
    # Each line found is one the modules' pre-reading keeps (CALLS), so no module with a finding is skipped.
    lines = source.splitlines()
    assert all(CALLS.search(lines[line - 1]) for _, line, _ in finder.found)
