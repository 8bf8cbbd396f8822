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
- read ``.tracker`` of a member a session listed (``session.party()``, ``members()``,
  ``records(...)``, ``member(...)``: issue 43): a face is handed
  [Seen][companion.table.session.Seen] members, picks them by ``kind``, reads ``.seen``
  (a read-only view) and asks ``session.view(...)`` where it acts.

Nor may it judge a seat's role itself (issue 43): a comparison of a role (``role``,
``seat_role``, ``seat``) with a role's name (``"gm"``, ``"player"``, ``"spectator"``,
``SPECTATOR``) is the session's question (``is_gm``, ``sees_all``, ``watching``,
``may_roll()``, ``may_choose_seed()``, ``may_close_sitting()``, ``may_reveal(...)``,
``may_manage_seats()``). ``ROLES_LEFT`` lists the comparisons still there, each with why
(a role shown as words, another person's seat, the page's seat before it has a session, a
screen in no campaign); it only shrinks.

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


#: What a session lists of its members (issue 43): each a ``Seen``, no live tracker.
MEMBER_LISTS = ("party", "members", "records", "member")


def _lists_members(node: ast.expr) -> bool:
    """Whether ``node`` calls a session's member listing (``session.party()``,
    ``self.session.records(name)``, ``c.member(key)``; not a widget's own
    ``self.party()``)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    receiver = node.func.value
    return node.func.attr in MEMBER_LISTS and not (
        isinstance(receiver, ast.Name) and receiver.id == "self")


def _bound(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [n for t in target.elts for n in _bound(t)]
    return []


def member_problems(tree: ast.Module) -> list[str]:
    """Where a widget reads ``.tracker`` of a member its session listed: of a name bound
    from a listing (a loop, a comprehension, an assignment, in the same function), or of
    the listing's call itself (``session.member(key).tracker``)."""
    found: dict[tuple[int, int], str] = {}
    for scope in ast.walk(tree):
        if not isinstance(scope, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef
                          | ast.Lambda):
            continue
        members: set[str] = set()
        for node in ast.walk(scope):
            if isinstance(node, ast.For | ast.comprehension):
                source = node.iter
                if (isinstance(source, ast.Call) and isinstance(source.func, ast.Name)
                        and source.func.id in ("list", "sorted", "reversed", "enumerate")
                        and source.args):
                    source = source.args[0]
                if _lists_members(source):
                    members.update(_bound(node.target))
            elif isinstance(node, ast.Assign) and _lists_members(node.value):
                for target in node.targets:
                    members.update(_bound(target))
        for node in ast.walk(scope):
            if (isinstance(node, ast.Attribute) and node.attr == "tracker"
                    and isinstance(node.ctx, ast.Load)
                    and ((isinstance(node.value, ast.Name) and node.value.id in members)
                         or _lists_members(node.value))):
                found[(node.lineno, node.col_offset)] = (
                    f"reads the live tracker of a member: {ast.unparse(node)}")
    return list(found.values())


#: A seat's role as a widget might spell it.
ROLE_WORDS = frozenset({"gm", "player", "spectator"})
ROLE_NAMES = frozenset({"SPECTATOR"})


def _names_a_role(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in ROLE_WORDS
    if isinstance(node, ast.Name):
        return node.id in ROLE_NAMES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_role(e) for e in node.elts)
    return False


def role_problems(text: str) -> list[str]:
    """The comparisons of a seat's role with a role's name in a widget's source (one
    entry each: two alike are listed twice). A roll's mode ``"gm"`` (``m == "gm"``) and a
    member's role (``"party"``) are no seat's role."""
    found: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if not (isinstance(node, ast.Compare) and all(
                isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops)):
            continue
        sides = [node.left, *node.comparators]
        if any(_names_a_role(side) for side in sides) and any(
                word in ast.unparse(side) for side in sides for word in ("role", "seat")):
            found.append(f"judges a role itself: {ast.unparse(node)}")
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
    found.extend(member_problems(tree))
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
    # A member a session listed, its live tracker read (issue 43): in each way a loop could.
    ("def f(session):\n    return [m.tracker for m in session.party()]\n",
     "reads the live tracker of a member: m.tracker"),
    ("def f(self):\n    for member in self.session.members():\n"
     "        member.tracker.on_change(print)\n",
     "reads the live tracker of a member: member.tracker"),
    ("def f(session, ident):\n    return App(session.member(ident).tracker)\n",
     "reads the live tracker of a member: session.member(ident).tracker"),
    ("def f(c, name):\n    m = c.member(name)\n    return m.tracker.class_level\n",
     "reads the live tracker of a member: m.tracker"),
    ("def f(session, n):\n    return next(m.tracker for m in list(session.records(n)))\n",
     "reads the live tracker of a member: m.tracker"),
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
    # Members picked by kind, read through .seen, acted on through the seat's view; a
    # widget's own .tracker and its own party.
    "def f(session):\n    return [session.view(m.id, X) for m in session.party()\n"
    "            if issubclass(m.kind, X)]\n",
    "def f(session, ident):\n    return session.member(ident).seen.class_level\n",
    "def f(self):\n    return [c.tracker for c in self.party()] + [self.tracker]\n",
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


#: The role comparisons still in the widgets, by (module, comparison), with how many and
#: why they stay; each is no "may this seat do it" the session answers.
ROLES_LEFT: dict[tuple[str, str], tuple[int, str]] = {
    ("companion/widgets/seat_controls.py", "role == 'gm'"):
        (1, "a game's screen in no campaign (the duel or Dice Monarchs app alone, a test's "
            "twin screens) is the role it is given; in a campaign the session answers "
            "(gm_screen)"),
    ("companion/widgets/monsters_and_magic.py", "self.role == 'gm'"):
        (1, "the sheet's Save: whose download is whole, from the role the app was built "
            "with (the seat view of a player's sheet holds no hidden roll anyway)"),
    ("companion/widgets/rolls.py", "role == 'gm'"):
        (2, "modes_for and seat_html: the modes shown and the words saying them, for the "
            "role given (the seam refuses a mode the seat may not roll)"),
    ("companion/widgets/rolls.py", "role in ('gm', 'player')"):
        (1, "seat_html: what the seat line says"),
    ("companion/widgets/rolls.py", "event.get('role') == 'gm'"):
        (1, "a log line's '(GM)' mark: who made another seat's roll, shown as words"),
    ("companion/widgets/table/apps.py", "session.seat_role_of(name) != 'player'"):
        (1, "another person's seat (does Ann play on the GM's screen): not this seat's"),
    ("companion/widgets/table/binding.py", "seated(context).role == SPECTATOR"):
        (1, "the page's seat as the store proves it now, before it demotes its session"),
    ("companion/widgets/table/binding.py", "s.role == 'gm'"):
        (1, "finding the GM among the campaign's seats (a serverless device's holder)"),
    ("companion/widgets/table/seats_panel.py", "role == 'player'"):
        (2, "the link made for another person's new seat: a phone link for a player"),
    ("companion/widgets/table/seats_panel.py", "role == 'gm'"):
        (2, "another person's new seat, its role said in words"),
    ("companion/widgets/table/seats_panel.py", "s.role == 'gm'"):
        (2, "the seat list: each seat's role said in words"),
    ("companion/widgets/table/start.py", "c.role == SPECTATOR"):
        (1, "the start page's identity line, from the page's seat (shown before a "
            "campaign is open, when there is no session)"),
    ("companion/widgets/table/start.py", "c.role == 'gm'"):
        (1, "the identity line's words: 'You are Mira (GM)'"),
    ("companion/widgets/table/start.py", "c.role in ('player', SPECTATOR)"):
        (2, "the start page's layout for the page's seat, before a session"),
    ("companion/widgets/table/start.py", "self.context.role == 'gm'"):
        (1, "who may create a campaign: the page's seat on a closed table, before any "
            "campaign (and session) exists"),
}


def _role_comparisons() -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for path in sorted(WIDGETS.rglob("*.py")):
        where = str(path.relative_to(ROOT))
        for problem in role_problems(path.read_text(encoding="utf-8")):
            key = (where, problem.removeprefix("judges a role itself: "))
            out[key] = out.get(key, 0) + 1
    return out


def test_widgets_ask_the_session_what_a_seat_may_do() -> None:
    found = _role_comparisons()
    new = sorted(f"{where}: {text} ({n}, listed {ROLES_LEFT.get((where, text), (0, ''))[0]})"
                 for (where, text), n in found.items()
                 if n > ROLES_LEFT.get((where, text), (0, ""))[0])
    assert new == [], ("ask the session (is_gm, sees_all, watching, may_...) instead of "
                       "comparing roles:\n" + "\n".join(new))
    gone = sorted(f"{where}: {text}" for (where, text), (n, _why) in ROLES_LEFT.items()
                  if found.get((where, text), 0) < n)
    assert gone == [], "fixed: take these out of ROLES_LEFT:\n" + "\n".join(gone)


@pytest.mark.parametrize(("text", "problem"), [
    ("def f(session):\n    return session.seat_role == 'gm'\n",
     "judges a role itself: session.seat_role == 'gm'"),
    ("def f(self):\n    return self.role in ('gm', '')\n",
     "judges a role itself: self.role in ('gm', '')"),
    ("def f(c):\n    return c.role != SPECTATOR\n", "judges a role itself: c.role != SPECTATOR"),
    ("def f(model):\n    seat = model.recorder.seat_role\n    return seat not in ('player',)\n",
     "judges a role itself: seat not in ('player',)"),
])
def test_the_role_check_catches_a_planted_comparison(text: str, problem: str) -> None:
    assert problem in role_problems(text)


@pytest.mark.parametrize("text", [
    "def f(session):\n    return session.is_gm or session.may_roll() is None\n",
    "def f(m):\n    return m == 'gm'\n",  # a roll's mode
    "def f(m):\n    return m.role == 'party'\n",  # a member's role
])
def test_the_role_check_leaves_a_session_answer_alone(text: str) -> None:
    assert role_problems(text) == []
