"""Issue 28: the widgets are views over a table session, checked on their source with ast.

A module in ``companion/widgets/`` may not

- import ``companion.store.db`` or ``sqlite3`` (it would store around the session),
  ``random`` (it would roll: the session draws every seed) or
  ``companion.store.permissions`` (it would decide who may act: the seam does);
- assign ``who``, ``role`` or ``seat_key`` on another object (a campaign's seat is fixed
  by its session; a widget's own ``self.who`` is its own business);
- call ``.undo()`` or ``.load(...)`` on a tracker itself: an undo and a load go through the
  tracker's session ([companion.widgets.seat_controls][]'s ``undo`` and ``load``), as a
  move goes through ``act`` (a widget's own ``self.undo()`` is its own business).

Imports under ``if TYPE_CHECKING:`` are type hints and store, roll or decide nothing.

``LEFT`` lists what is still there, each with why: the check fails on anything new, and on
an entry that is gone (so the list only shrinks). Each check is also run on a planted bad
source, so a check that could never fail is caught.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WIDGETS = ROOT / "companion" / "widgets"

#: Modules a widget may not import (or import from).
FORBIDDEN = ("companion.store.db", "sqlite3", "random", "companion.store.permissions")

#: Attributes that name a seat: never assigned on another object.
SEAT_ATTRS = ("who", "role", "seat_key")

#: What is left, by (module path, problem), with the reason it is still there.
LEFT: dict[tuple[str, str], str] = {
    # The live watcher reads SQLite's data_version on a connection of its own and opens
    # the page's store; it moves behind the Store port (branch "port", issue 28).
    ("companion/widgets/table/binding.py", "imports sqlite3"): "the live watcher",
    ("companion/widgets/table/binding.py", "imports companion.store.db"): "page_store",
    # The hand-strength estimate beside a Monarchs hand deals sample hands with a fixed
    # seed (an estimate shown, never a roll of the game); it belongs in the ruleset.
    ("companion/widgets/miasma/dice_monarchs.py", "imports random"): "the strength estimate",
    # The draft of a member's record is itself a recorder (the second one the issue
    # names): it forwards an undo and a load to the stored record, and shows the record
    # by loading it with no recorder attached.
    ("companion/widgets/table/members.py", "calls .undo() directly"): "the record draft",
    ("companion/widgets/table/members.py", "calls .load() directly"): "the record draft",
}

#: Receivers whose ``load`` is no tracker's (``json.load``).
NOT_TRACKERS = ("self", "json")


def _type_checking_lines(tree: ast.Module) -> set[int]:
    """Lines inside ``if TYPE_CHECKING:`` blocks."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
                (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
                or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def _forbidden(module: str) -> str | None:
    return next((f for f in FORBIDDEN if module == f or module.startswith(f + ".")), None)


def problems(text: str) -> list[str]:
    """What a widget module's source does that a view over a session may not."""
    tree = ast.parse(text)
    hints = _type_checking_lines(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom) and node.lineno not in hints:
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            for name in names:
                bad = _forbidden(name)
                if bad is not None:
                    found.append(f"imports {bad}")
                    break
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            for target in node.targets:
                targets.extend(target.elts if isinstance(target, ast.Tuple) else [target])
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets.append(node.target)
        for target in targets:
            if (isinstance(target, ast.Attribute) and target.attr in SEAT_ATTRS
                    and not (isinstance(target.value, ast.Name) and target.value.id == "self")):
                found.append(f"assigns .{target.attr} on {ast.unparse(target.value)}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not (
                isinstance(node.func.value, ast.Name) and node.func.value.id in NOT_TRACKERS):
            if node.func.attr == "undo" and not node.args and not node.keywords:
                found.append("calls .undo() directly")
            elif node.func.attr == "load" and len(node.args) == 1:
                found.append("calls .load() directly")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "setattr" and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant) and node.args[1].value in SEAT_ATTRS):
            found.append(f"assigns .{node.args[1].value} with setattr")
    return sorted(set(found))


#: The helpers every widget undoes and loads through (a tracker kept in no session, e.g.
#: one a test drives alone, undoes and loads itself there).
THE_WAY = "companion/widgets/seat_controls.py"


def _all() -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for path in sorted(WIDGETS.rglob("*.py")):
        where = str(path.relative_to(ROOT))
        for problem in problems(path.read_text(encoding="utf-8")):
            if where == THE_WAY and problem.startswith("calls ."):
                continue
            out[(where, problem)] = 1
    return out


def test_no_widget_stores_rolls_decides_a_permission_or_rewrites_a_seat() -> None:
    found = _all()
    assert len(list(WIDGETS.rglob("*.py"))) > 20
    new = sorted(f"{where}: {problem}" for where, problem in found if (where, problem)
                 not in LEFT)
    assert new == [], "widgets must act through companion.table.Session:\n" + "\n".join(new)
    gone = sorted(f"{where}: {problem}" for where, problem in LEFT
                  if (where, problem) not in found)
    assert gone == [], "fixed: take these out of LEFT:\n" + "\n".join(gone)


@pytest.mark.parametrize(("text", "problem"), [
    ("import sqlite3\n", "imports sqlite3"),
    ("from companion.store.db import Store\n", "imports companion.store.db"),
    ("from companion.store import db\n", "imports companion.store.db"),
    ("def f():\n    import random\n    return random.random()\n", "imports random"),
    ("from random import choice\n", "imports random"),
    ("from companion.store.permissions import move_refusal\n",
     "imports companion.store.permissions"),
    ("def f(campaign):\n    campaign.who = 'Mira'\n", "assigns .who on campaign"),
    ("def f(self):\n    self.campaign.role = 'gm'\n", "assigns .role on self.campaign"),
    ("def f(c):\n    c.who, c.role = 'Mira', 'gm'\n", "assigns .role on c"),
    ("def f(c):\n    c.seat_key = None\n", "assigns .seat_key on c"),
    ("def f(c):\n    setattr(c, 'role', 'gm')\n", "assigns .role with setattr"),
    ("def f(self):\n    return self.sheet.undo().summary\n", "calls .undo() directly"),
    ("def f(app):\n    app.character.load(text)\n", "calls .load() directly"),
])
def test_the_check_catches_a_planted_widget(text: str, problem: str) -> None:
    assert problem in problems(text)


@pytest.mark.parametrize("text", [
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import random\n"
    "    from companion.store.db import Store\n",
    "class View:\n    def __init__(self, who):\n        self.who = who\n        self.role = ''\n",
    "from companion.table import Session\ndef f(c):\n    return Session.of(c).act('Ash', 'x')\n",
    "from companion.store.dbx import thing\n",
    "from companion.widgets.seat_controls import load, undo\n"
    "def f(self, text):\n    undo(self.sheet)\n    load(self.sheet, text)\n    self.undo()\n",
    "import json\ndef f(handle):\n    return json.load(handle)\n",
])
def test_the_check_leaves_a_view_alone(text: str) -> None:
    assert problems(text) == []
