"""No forwarding in rules/ (issue 54): a method whose body only returns a call of a module function of rules/
(or only makes one, of a function answering nothing) with the method's own parameters (in any order, with or
without the object's own attributes beside them) writes one signature twice; the function becomes the method,
or the method the function. A method that only returns another object's method called with its own parameters
(`return self.turn.steps(period)`, `return TABLE.terrain(features)`) is the same, one object deep. A class
attribute that only binds a module function (`stand_acts = staticmethod(stand_acts)`) is the same thing
renamed."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def _defined(path: Path) -> dict[str, bool]:
    """The functions a module of rules/ defines at its top level, each with whether it answers nothing
    (`-> None`: a check that only refuses)."""
    tree = ast.parse(path.read_text(), str(path))
    return {
        n.name: isinstance(n.returns, ast.Constant) and n.returns.value is None
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def _source_file(root: Path, dotted: str) -> Path | None:
    path = root.joinpath(*dotted.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def _imported_modules(tree: ast.Module) -> set[str]:
    """The names a module binds to modules by `import x` (`import x as y`): a call of one of their functions is
    no object's method."""
    return {a.asname or a.name.split(".")[0] for n in tree.body if isinstance(n, ast.Import) for a in n.names}


def _object_method(node: ast.expr, modules: set[str]) -> str | None:
    """`obj.method` or `self.part.method` that `node` names (another object's method), else None: not the
    object's own (`self.m`, `cls.m`, `super().m`) nor a function of an imported module."""
    if not isinstance(node, ast.Attribute):
        return None
    owner = node.value
    if isinstance(owner, ast.Name) and owner.id not in ("self", "cls") and owner.id not in modules:
        return f"{owner.id}.{node.attr}"
    if isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) and owner.value.id == "self":
        return f"self.{owner.attr}.{node.attr}"
    return None


def _rules_functions(root: Path, path: Path, tree: ast.Module) -> tuple[dict[str, Path], dict[str, Path]]:
    """(each name this module binds to a function of rules/, each name it binds to a module of rules/), with
    the file that defines it."""
    functions = {n: path for n in _defined(path)}
    modules: dict[str, Path] = {}
    package = path.relative_to(root).parent.parts
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            parts = (
                [*package[: len(package) - node.level + 1], node.module or ""]
                if node.level
                else [node.module or ""]
            )
            source = ".".join(parts).strip(".")
            if not source.startswith("rules"):
                continue
            for alias in node.names:
                name = alias.asname or alias.name
                if (module := _source_file(root, f"{source}.{alias.name}")) is not None:
                    modules[name] = module
                elif (module := _source_file(root, source)) is not None and alias.name in _defined(module):
                    functions[name] = module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("rules") and (module := _source_file(root, alias.name)) is not None:
                    modules[alias.asname or alias.name] = module
    return functions, modules


def _callee(node: ast.expr, functions: dict[str, Path], modules: dict[str, Path]) -> tuple[str, bool] | None:
    """The module function of rules/ `node` names, with whether it answers nothing; None for anything else."""
    if isinstance(node, ast.Name) and node.id in functions:
        return node.id, _defined(functions[node.id])[node.id]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
        defined = _defined(modules[node.value.id])
        if node.attr in defined:
            return f"{node.value.id}.{node.attr}", defined[node.attr]
    return None


def _passes_only_its_own(fn: ast.FunctionDef, call: ast.Call, alone: bool = False) -> bool:
    """The call's arguments are the method's own parameters, each once (self among them or not), beside
    nothing but the object's own attributes, and it has a parameter of its own or passes itself."""
    a = fn.args
    params = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    params += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
    own = params[1:] if params and params[0] in ("self", "cls") else params
    passed: list[str] = []
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        if isinstance(arg, ast.Starred):
            arg = arg.value
        if isinstance(arg, ast.Name):
            passed.append(arg.id)
        elif isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == "self":
            continue
        else:
            return False
    if any(
        k.arg is not None and not (isinstance(k.value, ast.Name) and k.value.id == k.arg)
        for k in call.keywords
    ):
        return False
    itself = any(p in ("self", "cls") for p in passed)
    passed = [p for p in passed if p not in ("self", "cls")]
    # A method of no parameters of its own that reads the object's attributes (a property) writes no
    # signature twice.
    # A hook's forwarder may drop parameters the function does not need (`return cards(snapshot)` from
    # `arrival_cards(self, snapshot, names)`, issue 66): the method still restates the function's signature.
    # A check made alone with fewer (a resolver's `check(self, req, ctx)` calling `check_battle_areas(req)`,
    # shared by two resolvers) is a check the function's callers share, not a second signature of it.
    if len(set(passed)) != len(passed) or not set(passed) <= set(own):
        return False
    return bool(passed or itself) and (sorted(passed) == sorted(own) or not alone)


def _body(fn: ast.FunctionDef) -> list[ast.stmt]:
    body = fn.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return body


def forwarding(root: Path = ROOT) -> Iterator[str]:
    """`file:line Class.method -> function` for every forwarding method of rules/ and every class attribute
    that only binds a module function."""
    for path in sorted((root / "rules").rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        functions, modules = _rules_functions(root, path, tree)
        imported = _imported_modules(tree) | set(modules)
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for node in cls.body:
                where = f"{path.relative_to(root)}:{node.lineno} {cls.name}."
                if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                    value = node.value
                    if (
                        isinstance(value, ast.Call)
                        and isinstance(value.func, ast.Name)
                        and value.func.id in ("staticmethod", "classmethod")
                        and len(value.args) == 1
                    ):
                        value = value.args[0]
                    if (bound := _callee(value, functions, modules)) is not None:
                        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
                        yield f"{where}{ast.unparse(target)} = {bound[0]}"
                    continue
                if not isinstance(node, ast.FunctionDef):
                    continue
                body = _body(node)
                # `return f(...)`, or `f(...)` alone in a method that answers nothing.
                if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr):
                    continue
                call = body[0].value
                if not isinstance(call, ast.Call):
                    continue
                # `return tuple(f(...))` converts what it forwards, and forwards it all the same.
                if (
                    isinstance(call.func, ast.Name)
                    and call.func.id in ("tuple", "list")
                    and len(call.args) == 1
                    and isinstance(call.args[0], ast.Call)
                ):
                    call = call.args[0]
                callee = _callee(call.func, functions, modules)
                method = _object_method(call.func, imported) if callee is None else None
                if method is not None and isinstance(body[0], ast.Return):
                    callee = (method, False)
                # A call made alone forwards to a check (a function answering nothing); one whose answer is
                # dropped uses the function for its refusals.
                if callee is None or (isinstance(body[0], ast.Expr) and not callee[1]):
                    continue
                if _passes_only_its_own(node, call, alone=isinstance(body[0], ast.Expr)):
                    yield f"{where}{node.name} -> {callee[0]}"


def test_no_method_of_rules_only_forwards_to_a_module_function() -> None:
    assert list(forwarding()) == []


def test_the_finder_sees_each_shape_of_forwarding(tmp_path: Path) -> None:
    """The finder itself: each shape found, and a method that does anything of its own left alone."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "helpers.py").write_text("def g(a):\n    return a\n")
    (tmp_path / "rules" / "toy.py").write_text(
        "import json\n"
        "from rules import helpers\n"
        "from rules.helpers import g\n\n"
        "def f(a, b):\n    return a + b\n\n"
        "def check(a, b) -> None:\n    f(a, b)\n\n"
        "class Toy:\n"
        "    bound = staticmethod(f)\n"
        "    def plain(self, a, b):\n        '''Doc.'''\n        return f(a, b)\n"
        "    def swapped(self, b, a):\n        return f(a, b)\n"
        "    def module(self, a):\n        return helpers.g(a)\n"
        "    def imported(self, a):\n        return tuple(g(a))\n"
        "    def attribute(self, a):\n        return f(a, self.b)\n"
        "    def more(self, a):\n        return f(a, 1)\n"
        "    def guarded(self, a, b):\n        if a:\n            return ()\n        return f(a, b)\n"
        "    def builtin(self, a):\n        return int(a)\n"
        "    def itself(self):\n        return f(self, self.b)\n"
        "    def checks(self, a, b):\n        check(a, b)\n"
        "    def refuses(self, a, b):\n        f(a, b)\n"
        "    def accessor(self):\n        return f(self.a, self.b)\n"
        "    def dropped(self, a, b):\n        return f(a, a)\n"
        "    def part(self, a):\n        return self.turn.steps(a)\n"
        "    def other(self, a, b):\n        return TABLE.terrain(b, a)\n"
        "    def own(self, a):\n        return self.steps(a)\n"
        "    def parent(self, a):\n        return super().steps(a)\n"
        "    def library(self, a):\n        return json.dumps(a)\n"
        "    def more_of_its_own(self, a):\n        return TABLE.terrain(a, 1)\n"
        "    def fewer(self, a, b):\n        return f(a)\n"
        "    def shares(self, a, b):\n        check(a)\n"
    )
    found = [line.split(" ", 1)[1] for line in forwarding(tmp_path)]
    assert found == [
        "Toy.bound = f",
        "Toy.plain -> f",
        "Toy.swapped -> f",
        "Toy.module -> helpers.g",
        "Toy.imported -> g",
        "Toy.attribute -> f",
        "Toy.itself -> f",
        "Toy.checks -> check",
        "Toy.part -> self.turn.steps",
        "Toy.other -> TABLE.terrain",
        "Toy.fewer -> f",
    ]
