"""Issue 28: the widgets are views over a table session, checked on their source with ast.

A module in ``companion/widgets/`` may not

- import ``companion.store.db`` or ``sqlite3`` (it would store around the session),
  ``random`` (it would roll: the session draws every seed) or
  ``companion.store.permissions`` (it would decide who may act: the seam does);
- assign ``who``, ``role`` or ``seat_key`` on another object (a campaign's seat is fixed
  by its session; a widget's own ``self.who`` is its own business);
- call ``.undo()`` or ``.load(...)`` on a tracker itself, or hand a tracker's ``.undo`` or
  ``.load`` to a button: an undo and a load go through the tracker's session
  ([companion.widgets.seat_controls][]'s ``undo`` and ``load``), as a move goes through
  ``act`` (a widget's own ``self.undo()`` is its own business), nor call a tracker's
  ``undo_as(role)`` (the role would be the widget's claim);
- make a tracker's [move][companion.state.move] itself: call ``tracker.move(...)``, call
  ``getattr(tracker, name)(...)``, or hand ``tracker.move`` to a button. An ordinary move
  goes through the session (``act(tracker, "move", ...)``, ``mover(tracker, "move")``).
  A rolled move stays where it is when it runs inside a rule roll: a call that passes the
  roll's dice (``rng=``, ``seed=`` or ``**kw``) from inside a function that takes them
  (``lambda rng: ...``, ``lambda **kw: ...``), or a move handed to ``.roll``/``.run``
  (the roll calls it with its dice; [Session.act][companion.table.session.Session.act]
  refuses dice, [Session.rule_roll][companion.table.session.Session.rule_roll] takes
  them). The move names are read from every ruleset's trackers; a name that is also a
  field of some tracker (``die``, ``step``) is checked only where it is called;
- call a function of the rules that makes a tracker's moves itself (a *moving helper*:
  ``wilderness.apply_to_sheets`` marks every sheet), or hand one on, outside a rule
  roll: a move that reaches several trackers is a declared table move, asked for by
  name ([companion.table_moves][]). The helpers are read from the rulesets' source: a
  module-level function with a parameter annotated with a tracker class that calls one
  of that class's moves on anything but ``self``, or that calls such a helper;
- call its own function that makes a rolled move with a rule roll's dice (``def
  upkeep(**kw): return self.downtime.upkeep(..., **kw)``) other than through the roll:
  called bare, the move is made around the session (issue 43).

And it may not read a tracker around the seat's view (what the seat may read, issue 28):

- call ``.tracker(...)`` on a campaign (``campaign.tracker``, ``self.campaign.tracker``)
  or read or iterate its ``.trackers``: that is the live tracker, another seat's hidden
  values in it; a face reads
  [Session.tracker][companion.table.session.Session.tracker] or
  [Session.view][companion.table.session.Session.view];
- hand a tracker ``ensure(...)`` made or found to a page without passing it through
  ``.view(...)`` when its class holds hidden values
  ([holds_secrets][companion.table.views.holds_secrets], read from the rulesets).

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

#: What is left, by (module path, problem), with the reason it is still there. Empty since
#: the record draft, the live watcher and the strength estimate went through the session
#: and the store's port: a new entry needs its reason.
LEFT: dict[tuple[str, str], str] = {}

#: Receivers whose ``load`` is no tracker's (``json.load``), nor any attribute a move's.
NOT_TRACKERS = ("self", "json", "html")

#: Receivers that are a widget's table session (issue 43: a widget is handed the session,
#: named ``session``): their ``add``, ``remove``, ``reveal`` are the session's own, which
#: the seam judges. (``self.session`` is a Plot Points app's tracker: not listed.)
SESSIONS = ("session",)

#: Calls whose name is some tracker's move but whose receiver is no tracker (a set, an
#: error line, a thread, the M&M Party or its table), by source text.
NOT_MOVES = frozenset({
    "self._watched.add", "self._followed.add", "form['rules'].add", "rules.remove",
    "self._value_observers.remove", "self._downloads.withdraw", "history.clear",
    "self.refusal.clear", "self._echoes.clear", "error.clear", "line.clear",
    "self.error.clear", "self.own_error.clear", "self.modifiers_error.clear",
    "self.field.clear", "cls._instance.thread.start", "party.add", "self.party.add",
    "table.add", "self.checks.check", "mine.contest",
    # The roll log panel's table session (issue 43): a reveal the seam judges.
    "self.session.reveal",
})

#: Calls that hand a move to a rule roll, which calls it with the roll's dice.
ROLLERS = ("roll", "run", "rule_roll")


def _tracker_names() -> tuple[frozenset[str], frozenset[str]]:
    """Every tracker move's name, and every other attribute or field name of a tracker."""
    import dataclasses

    from companion.rulesets import all_rulesets
    from companion.state import is_move
    from companion.store.registry import tracker_kinds

    moves: set[str] = set()
    other: set[str] = set()
    for ruleset in all_rulesets():
        for cls in tracker_kinds(ruleset.name).values():
            for name in dir(cls):
                (moves if is_move(getattr(cls, name, None)) else other).add(name)
            if dataclasses.is_dataclass(cls):
                other.update(f.name for f in dataclasses.fields(cls))
    return frozenset(moves), frozenset(other)


MOVES, NOT_ONLY_MOVES = _tracker_names()


def _takes_dice(fn: ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    args = fn.args
    names = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    return bool(names & {"rng", "seed", "kw"}) or args.kwarg is not None


def _rolled(call: ast.Call, parents: dict[int, ast.AST]) -> bool:
    """Whether ``call`` passes a rule roll's dice from inside the function the roll hands
    them to (a rolled move where it belongs: Session.act refuses dice)."""
    if not any(k.arg in (None, "rng", "seed") for k in call.keywords):
        return False
    node = parents.get(id(call))
    while node is not None:
        if isinstance(node, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef):
            return _takes_dice(node)
        node = parents.get(id(node))
    return False


def _receiver_is_no_tracker(receiver: ast.expr) -> bool:
    if isinstance(receiver, ast.Constant):  # ", ".join
        return True
    if isinstance(receiver, ast.Name) and receiver.id in (*NOT_TRACKERS, *SESSIONS):
        return True
    # Thread(...).start is a thread's.
    return isinstance(receiver, ast.Call) and ast.unparse(receiver.func) == "threading.Thread"


def move_problems(tree: ast.Module) -> list[str]:
    """The moves a widget's source makes on a tracker itself, not through its session."""
    parents = {id(child): node for node in ast.walk(tree)
               for child in ast.iter_child_nodes(node)}
    found: list[str] = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Call)
                and isinstance(node.func.func, ast.Name) and node.func.func.id == "getattr"
                and len(node.func.args) >= 2
                and not isinstance(node.func.args[1], ast.Constant)
                and not _receiver_is_no_tracker(node.func.args[0])
                and not _rolled(node, parents)):
            found.append(f"calls a move by getattr on {ast.unparse(node.func.args[0])}")
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
            continue
        if _receiver_is_no_tracker(node.value):
            continue
        where = ast.unparse(node.value)
        parent = parents.get(id(node))
        called = isinstance(parent, ast.Call) and parent.func is node
        if node.attr in ("undo", "load"):
            if not called:
                found.append(f"hands on .{node.attr} of {where}")
            continue
        if node.attr == "undo_as":  # an undo whose role the widget claims
            found.append(f"calls .undo_as() on {where} directly")
            continue
        if node.attr not in MOVES or ast.unparse(node) in NOT_MOVES:
            continue
        if called:
            assert isinstance(parent, ast.Call)
            if not _rolled(parent, parents):
                found.append(f"calls .{node.attr} on {where} directly")
        elif node.attr not in NOT_ONLY_MOVES and not (
                isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute)
                and parent.func.attr in ROLLERS):
            found.append(f"hands on .{node.attr} of {where}")
    return found


def _aliases(tree: ast.Module) -> dict[str, str]:
    """What each name a module imports stands for, dotted (``wd`` ->
    ``companion.rulesets.cairn_srd.wilderness``); absolute imports only (the package's
    own style)."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
    return names


def _dotted_name(node: ast.expr, aliases: dict[str, str]) -> str | None:
    """``node`` (a name or an attribute chain on one) as the dotted name it resolves to
    through the module's imports; ``None`` when it starts with no imported name."""
    if isinstance(node, ast.Name):
        return aliases.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _dotted_name(node.value, aliases)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _moving_helpers() -> frozenset[str]:
    """The rulesets' moving helpers by dotted name (see the module's docstring)."""
    from companion.rulesets import all_rulesets
    from companion.state import is_move
    from companion.store.registry import tracker_kinds

    moves_of: dict[str, set[str]] = {}
    for ruleset in all_rulesets():
        for cls in tracker_kinds(ruleset.name).values():
            moves_of[cls.__name__] = {n for n in dir(cls) if is_move(getattr(cls, n, None))}
    calls: dict[str, set[str]] = {}
    found: set[str] = set()
    for path in sorted((ROOT / "companion" / "rulesets").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        aliases = _aliases(tree)
        for fn in tree.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            name = f"{module}.{fn.name}"
            aliases.setdefault(fn.name, name)
            params = (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)
            kinds = {word for a in params if a.annotation is not None
                     for word in ast.unparse(a.annotation).replace("[", " ").replace(
                         "]", " ").replace("|", " ").replace(",", " ").split()
                     if word in moves_of}
            moves = set().union(*(moves_of[k] for k in kinds))
            called: set[str] = set()
            for node in ast.walk(fn):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                if (isinstance(func, ast.Attribute) and func.attr in moves
                        and not (isinstance(func.value, ast.Name) and func.value.id == "self")):
                    found.add(name)
                dotted_call = _dotted_name(func, aliases)
                if dotted_call is not None:
                    called.add(dotted_call)
            calls[name] = called
    grew = True
    while grew:  # a helper that calls a moving helper moves too
        grew = False
        for name, called in calls.items():
            if name not in found and called & found:
                found.add(name)
                grew = True
    return frozenset(found)


MOVING_HELPERS = _moving_helpers()


def helper_problems(tree: ast.Module) -> list[str]:
    """The moving helpers a widget's source calls or hands on outside a rule roll, and
    the calls of its own rolled-move functions made bare (see the module's docstring)."""
    parents = {id(child): node for node in ast.walk(tree)
               for child in ast.iter_child_nodes(node)}
    aliases = _aliases(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Load)):
            continue
        name = _dotted_name(node, aliases)
        if name not in MOVING_HELPERS:
            continue
        short = ".".join(name.split(".")[-2:])  # wilderness.apply_to_sheets
        parent = parents.get(id(node))
        if isinstance(parent, ast.Call) and parent.func is node:
            if not _rolled(parent, parents):
                found.append(f"calls {short}, which moves trackers itself: ask for a "
                             "table move")
        elif not (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute)
                  and parent.func.attr in ROLLERS):
            found.append(f"hands on {short}, which moves trackers itself")
    # Its own functions that make a rolled move with the dice they are given.
    rolled_fns = {fn.name for fn in ast.walk(tree)
                  if isinstance(fn, ast.FunctionDef) and _takes_dice(fn) and any(
                      isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                      and call.func.attr in MOVES and _rolled(call, parents)
                      for call in ast.walk(fn))}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in rolled_fns and not _rolled(node, parents)):
            found.append(f"calls {node.func.id}(), a rolled move, bare: not through a roll")
    return found


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


def _secret_kinds() -> frozenset[str]:
    """The names of the tracker classes holding hidden values (read from the rulesets)."""
    from companion.rulesets import all_rulesets
    from companion.store.registry import tracker_kinds
    from companion.table.views import holds_secrets

    return frozenset(cls.__name__ for ruleset in all_rulesets()
                     for cls in tracker_kinds(ruleset.name).values() if holds_secrets(cls))


SECRET_KINDS = _secret_kinds()


def read_problems(tree: ast.Module) -> list[str]:
    """The reads of a live tracker around the seat's view (see the module's docstring)."""
    parents = {id(child): node for node in ast.walk(tree)
               for child in ast.iter_child_nodes(node)}
    found: list[str] = []
    for node in ast.walk(tree):
        # The campaign's table of live trackers, read or iterated (``campaign.trackers``,
        # ``self.campaign.trackers.values()``): every seat's hidden values at once.
        if (isinstance(node, ast.Attribute) and node.attr == "trackers"
                and ast.unparse(node.value).split(".")[-1].endswith("campaign")):
            found.append(f"reads the live trackers with {ast.unparse(node)}")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (isinstance(func, ast.Attribute) and func.attr == "tracker"
                and ast.unparse(func.value).split(".")[-1].endswith("campaign")):
            found.append(f"reads a live tracker with {ast.unparse(func)}")
        if (isinstance(func, ast.Name) and func.id == "ensure" and len(node.args) >= 3
                and isinstance(node.args[2], ast.Name) and node.args[2].id in SECRET_KINDS):
            parent = parents.get(id(node))
            viewed = (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Attribute)
                      and parent.func.attr == "view")
            if not viewed:
                found.append(f"hands on a live {node.args[2].id} from ensure(), not its view")
    return found


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
    found.extend(move_problems(tree))
    found.extend(helper_problems(tree))
    found.extend(read_problems(tree))
    return sorted(set(found))


#: The helpers every widget undoes and loads through (a tracker kept in no session, e.g.
#: one a test drives alone, undoes and loads itself there).
THE_WAY = "companion/widgets/seat_controls.py"


def _all() -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for path in sorted(WIDGETS.rglob("*.py")):
        where = str(path.relative_to(ROOT))
        for problem in problems(path.read_text(encoding="utf-8")):
            if where == THE_WAY and problem.startswith(("calls .", "calls a move")):
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
    # A move made on the tracker itself, in each of the ways a widget could.
    ("def f(self):\n    self.character.add_fatigue()\n",
     "calls .add_fatigue on self.character directly"),
    ("def f(self, c):\n    return self.btn('Rest', lambda: c.rest_night(), 'rest')\n",
     "calls .rest_night on c directly"),
    ("def f(c, button):\n    return button('Rest', c.rest_night)\n",
     "hands on .rest_night of c"),
    ("def f(self, name):\n    getattr(self.delve, name)(1)\n",
     "calls a move by getattr on self.delve"),
    ("def f(self, button):\n    return button('Undo', self.model.undo)\n",
     "hands on .undo of self.model"),
    ("def f(self):\n    self.game.undo_as('gm')\n", "calls .undo_as() on self.game directly"),
    # Dice passed outside a rule roll are no rolled move: the session draws every seed.
    ("def f(self):\n    self.game.new_table(['Ash'], 10, seed=3)\n",
     "calls .new_table on self.game directly"),
    ("def f(self, kw):\n    return lambda: self.sheet.take_damage(2, **kw)\n",
     "calls .take_damage on self.sheet directly"),
    # Reads around the seat's view: the live tracker, another seat's hidden values in it.
    ("def f(campaign):\n    return campaign.tracker('Dice Monarchs').hole\n",
     "reads a live tracker with campaign.tracker"),
    ("def f(self):\n    return self.campaign.tracker('Duel').choices\n",
     "reads a live tracker with self.campaign.tracker"),
    ("def f(self):\n    return [t.name for t in self.campaign.trackers.values()]\n",
     "reads the live trackers with self.campaign.trackers"),
    ("def f(session):\n    return session.campaign.trackers['Dice Monarchs']\n",
     "reads the live trackers with session.campaign.trackers"),
    ("def f(campaign):\n    return App(ensure(campaign, 'M', DiceMonarchsGame, make))\n",
     "hands on a live DiceMonarchsGame from ensure(), not its view"),
    # A function of the rules that moves the trackers it is handed, and a widget's own
    # rolled move called bare (issue 43): both around the session.
    ("from companion.rulesets.cairn_srd import wilderness as wd\n"
     "def f(self):\n    wd.apply_to_sheets(self.journey, self.party)\n",
     "calls wilderness.apply_to_sheets, which moves trackers itself: ask for a table move"),
    ("from companion.rulesets.cairn_srd.combat import join_character\n"
     "def f(e, c):\n    return join_character(e, c)\n",
     "calls combat.join_character, which moves trackers itself: ask for a table move"),
    ("from companion.rulesets.cairn_srd import exploration as ex\n"
     "def f(self, c):\n    return self._to_sheet(ex.apply_fate, c)\n",
     "hands on exploration.apply_fate, which moves trackers itself"),
    ("def f(self, who):\n    def upkeep(**kw):\n"
     "        return self.downtime.upkeep(who, 'pay', **kw)\n    self.show(upkeep())\n",
     "calls upkeep(), a rolled move, bare: not through a roll"),
])
def test_the_check_catches_a_planted_widget(text: str, problem: str) -> None:
    assert problem in problems(text)


@pytest.mark.parametrize("text", [
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import random\n"
    "    from companion.store.db import Store\n",
    "class View:\n    def __init__(self, who):\n        self.who = who\n        self.role = ''\n",
    "def f(session, sheet):\n    session.add('Ash', sheet)\n    return session.act('Ash', 'x')\n",
    "from companion.store.dbx import thing\n",
    "from companion.widgets.seat_controls import load, undo\n"
    "def f(self, text):\n    undo(self.sheet)\n    load(self.sheet, text)\n    self.undo()\n",
    "import json\ndef f(handle):\n    return json.load(handle)\n",
    # Moves through the session, rolled moves inside a rule roll, and look-alikes.
    "from companion.widgets.seat_controls import act, mover\n"
    "def f(self, c, button):\n    act(c, 'add_fatigue')\n"
    "    return button('Rest', mover(c, 'rest_night'))\n",
    "def f(self, c):\n    self.roll('Panic', c.panic_save)\n"
    "    self.roll('Hit', lambda **kw: c.take_damage(2, **kw))\n",
    "def f(controls, s):\n"
    "    controls.run('Check', lambda rng: s.roll_check('Ash', **controls.move_args(rng)))\n",
    "def f(self, d, name):\n    self.roll('x', lambda **kw: getattr(d, name)('Ash', **kw))\n",
    "import html\ndef f(self, names):\n    self.add_fatigue()\n"
    "    return ', '.join(html.escape(n) for n in names)\n",
    "def f(m):\n    return f'd{m.die}'\n",
    # The seat's view, and a tracker with nothing hidden.
    "def f(session):\n    return session.tracker('Ash').fatigue\n",
    "def f(s, campaign):\n"
    "    return App(s.view(ensure(campaign, 'M', DiceMonarchsGame, make), DiceMonarchsGame))\n",
    "def f(campaign):\n    return App(ensure(campaign, 'J', Journey, Journey))\n",
    # A moving helper inside a rule roll, a rolled move handed to the roll, a table move
    # by name and a function of the rules that moves nothing.
    "from companion.rulesets.cairn_srd import exploration as ex\n"
    "def f(self, d, c):\n    self.roll('Panic', lambda **kw: ex.darkness_panic(d, c, **kw))\n",
    "def f(self, who):\n    def upkeep(**kw):\n"
    "        return self.downtime.upkeep(who, **kw)\n    self.roll('crime', upkeep)\n",
    "from companion.widgets.seat_controls import table_move\n"
    "def f(j, cs):\n    return table_move([j, *cs], 'cairn_srd.wilderness.apply_to_sheets', {})\n",
    "from companion.rulesets.cairn_srd import wilderness as wd\n"
    "def f(j):\n    return wd.plan_leg(j.legs[0])\n",
])
def test_the_check_leaves_a_view_alone(text: str) -> None:
    assert problems(text) == []


def test_the_kinds_holding_hidden_values_are_read_from_the_rulesets() -> None:
    # A check with no such kind would pass every widget.
    assert {"DiceMonarchsGame", "Duel", "Adventurer"} <= SECRET_KINDS
    assert "Journey" not in SECRET_KINDS


def test_the_move_names_are_read_from_the_rulesets() -> None:
    # A check with no move names would pass every widget.
    assert len(MOVES) > 150
    assert {"add_fatigue", "rest_night", "deal", "gain_thread", "spend_hit_die"} <= MOVES
    assert "die" in MOVES and "die" in NOT_ONLY_MOVES  # HitDice.die is a field


def test_the_moving_helpers_are_read_from_the_rulesets() -> None:
    # A check with no helpers would pass every widget; apply_fate moves through _apply.
    cairn = "companion.rulesets.cairn_srd"
    assert {f"{cairn}.wilderness.apply_to_sheets", f"{cairn}.wilderness.join_party",
            f"{cairn}.combat.join_character", f"{cairn}.exploration.apply_fate",
            f"{cairn}.exploration.apply_escape"} <= MOVING_HELPERS
    assert f"{cairn}.wilderness.plan_leg" not in MOVING_HELPERS
    assert f"{cairn}.exploration.join_party" not in MOVING_HELPERS  # makes a new sheet
