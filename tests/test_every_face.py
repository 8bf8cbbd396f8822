"""Every face: each public rule function and tracker move of the rulesets of all five seeds
(000-004) is reached by an app or a CLI command, or is marked library-only with a reason.

Method (static, no app is run):

1. *Rules.* For each ruleset package (Miasma, 5e variant, Monsters & Magic, Cairn, plot
   points)
   every module except private ones (``_*.py``), ``cli`` modules and ``reference.py`` (the
   site's pages) is imported. Its public rules are the module-level functions defined in it
   whose names do not start with ``_``, and the moves (``@move``) of each
   [Tracker][companion.state.Tracker] class defined in it.
2. *Faces.* The apps are every module under ``companion/widgets/``; the commands are
   ``companion/cli/``, ``companion/__main__.py`` and every ``cli`` module of the
   rulesets. Their source is parsed (``ast``); a name counts as used when it appears as a
   name being read, an attribute, an import, or an identifier-like string (moves named
   in strings, as ``why_not("spend_ap")`` and ``getattr(sheet, move)`` tables do), and
   the function a declared table move runs when a face names the move
   ([companion.table_moves][]: ``"cairn_srd.wilderness.apply_to_sheets"``).
3. *Closure.* A used name also uses every name read in the body of a ruleset function or
   class of that name, and in the value of a ruleset module-level assignment of that name
   (``__all__`` aside): a helper that a reached move calls is reached through it.
4. A public rule whose name is not reached fails the test, unless its module lists it in
   ``LIBRARY_ONLY = {"name": "reason"}``. A ``LIBRARY_ONLY`` entry fails too if it names
   nothing public in its module, gives no reason, or names a rule that is reached after
   all (a stale mark).

The match is by name, so it over-approximates: a rule sharing its name with something an
app uses counts as reached. It never misses a real use.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from companion.state import Tracker, is_move

PACKAGE = Path(__file__).resolve().parent.parent / "companion"
RULESETS = ("miasma", "variant5e", "monsters_and_magic", "plot_points", "cairn_srd")


def _names(node: ast.AST) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier():
            out.add(n.value)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.update(_table_move(n.value))
        elif isinstance(n, ast.alias):
            out.add(n.name.rsplit(".", 1)[-1])
            if n.asname:
                out.add(n.asname)
    return out


def _table_move(text: str) -> set[str]:
    """The function a declared table move's name (``"cairn_srd.wilderness.join_party"``)
    runs, by its name: a face that asks for the move reaches it; nothing for other text."""
    from companion import table_moves
    from companion.errors import CompanionError

    parts = text.split(".")
    if len(parts) < 3 or not all(part.isidentifier() for part in parts):
        return set()
    try:
        return {table_moves.get(text).run.__name__}
    except CompanionError:
        return set()


def face_files() -> list[Path]:
    """The apps' and the commands' source files."""
    files = sorted((PACKAGE / "widgets").rglob("*.py"))
    files += [*sorted((PACKAGE / "cli").rglob("*.py")), PACKAGE / "__main__.py"]
    files += sorted(p for p in (PACKAGE / "rulesets").rglob("*.py") if "cli" in p.stem)
    return [p for p in files if p.exists()]


@cache
def reached() -> frozenset[str]:
    """Every name the faces use, closed over the rulesets' own bodies (see the module doc)."""
    uses: dict[str, set[str]] = {}
    for path in (PACKAGE / "rulesets").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                uses.setdefault(node.name, set()).update(_names(node))
        for stmt in tree.body:
            targets = (stmt.targets if isinstance(stmt, ast.Assign)
                       else [stmt.target] if isinstance(stmt, ast.AnnAssign) else [])
            value = getattr(stmt, "value", None)
            for target in targets:
                if isinstance(target, ast.Name) and target.id != "__all__" and value:
                    uses.setdefault(target.id, set()).update(_names(value))
    todo: list[str] = []
    for path in face_files():
        todo += _names(ast.parse(path.read_text(encoding="utf-8")))
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += uses.get(name, ())
    return frozenset(seen)


def rule_modules() -> list[ModuleType]:
    modules = []
    for ruleset in RULESETS:
        for path in sorted((PACKAGE / "rulesets" / ruleset).rglob("*.py")):
            if path.stem.startswith("_") or "cli" in path.stem or path.stem == "reference":
                continue
            dotted = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
            modules.append(importlib.import_module(dotted))
    return modules


def public_rules(module: ModuleType) -> list[str]:
    """``function`` and ``Tracker.move`` names a player could want a face for."""
    out = []
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(obj):
            out.append(name)
        elif inspect.isclass(obj) and issubclass(obj, Tracker):
            out += [f"{name}.{m}" for m, f in vars(obj).items() if is_move(f)]
    return out


MODULES = rule_modules()


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.split("rulesets.")[1])
def test_every_public_rule_has_a_face(module: ModuleType) -> None:
    library_only: dict[str, str] = getattr(module, "LIBRARY_ONLY", {})
    faceless = [rule for rule in public_rules(module)
                if rule.rsplit(".", 1)[-1] not in reached() and rule not in library_only]
    assert faceless == [], (
        f"{module.__name__}: no app or CLI command reaches {', '.join(faceless)}; give "
        "them a face or list them in the module's LIBRARY_ONLY with a reason")


@pytest.mark.parametrize("module", [m for m in MODULES if hasattr(m, "LIBRARY_ONLY")],
                         ids=lambda m: m.__name__.split("rulesets.")[1])
def test_library_only_marks_are_real_and_needed(module: ModuleType) -> None:
    rules = public_rules(module)
    for name, reason in module.LIBRARY_ONLY.items():
        assert name in rules, f"{module.__name__}.LIBRARY_ONLY names unknown {name!r}"
        assert isinstance(reason, str) and reason.strip(), f"{name}: give a reason"
        assert name.rsplit(".", 1)[-1] not in reached(), (
            f"{module.__name__}.{name} is reached by an app or command: drop its "
            "LIBRARY_ONLY mark")


def test_the_method_sees_uses_and_closure() -> None:
    every = reached()
    # A move named only in a widget's string table is reached.
    assert "spend_ap" in every and "raised_from_dead" in every
    # A helper reached only through a move the apps call (Adventurer.short_rest -> _tend).
    assert "_tend" in every
    # The modules list covers every ruleset, and each has public rules.
    covered = {m.__name__.split(".")[2] for m in MODULES}
    assert covered == set(RULESETS)
    from companion import rulesets

    assert {r.name for r in rulesets.all_rulesets()} <= set(RULESETS)
    # Cairn's moves issue 30 found no app for are reached now (by their apps' buttons).
    for move in ("set_status", "apply_damage", "load_cargo", "unload_cargo", "begin",
                 "leave_settlement", "roll_distance", "vessel_scale"):
        assert move in every, move
    assert all(public_rules(m) for m in MODULES if m.__name__.endswith(".adventurer"))
    assert "never_defined_anywhere_xyz" not in every


def test_a_face_naming_a_table_move_reaches_what_it_runs() -> None:
    # The wilderness app asks for these by name only; an unknown dotted name reaches nothing.
    assert _table_move("cairn_srd.wilderness.apply_to_sheets") == {"_apply_to_sheets_move"}
    assert {"_apply_to_sheets_move", "apply_to_sheets"} <= reached()
    assert _table_move("cairn_srd.nowhere.fly") == set() and _table_move("a.b") == set()
