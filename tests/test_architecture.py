"""The dependency rules of the package, checked on its source (issue 10).

- Nothing uses a private name (``_x``) of another module: no ``from companion.m import _x``,
  no ``m._x`` on an imported module, and no ``obj._x`` on an object when ``_x`` is not
  defined in the module doing it (a module may reach into its own classes' internals;
  another module uses their public API). A private *module* (``_data.py``) is for its own
  package only.
- ``companion.tables`` does not import ``companion.rulesets`` (the registry hands it its
  folders).
- The core does not import ``companion.widgets``, ``companion.store``, ``companion.app``,
  ``companion.table``, ``companion.server`` (the table socket: tornado) or the table's
  command lines (``companion.cli.*``; the root ``companion.cli`` is core).
- The faces (``companion.widgets``, the notebooks in ``widgets/``, the serverless pages in
  ``tools/static_apps`` but their runtime) hold a session and nothing under it (issue 43):
  they import nothing from ``companion.store`` (type hints included), never call
  ``Session.of`` and never read ``.campaign`` on a session.
- No widget builds markup by string: no ``escape()`` called by hand and no f-string holding
  an HTML tag outside the element builder (``companion.widgets.markup``); the files not yet
  converted are listed, and the lists only shrink.

Each check is also run on a small bad source, so a check that could never fail is caught.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "companion"

#: Private names of other libraries that our code uses on purpose, with the reason.
FOREIGN_PRIVATE = {
    # argparse keeps its option table private; the CLI reads it to tell "--opt=--" apart.
    "_option_string_actions": "argparse",
    # ipywidgets' own handler of the frontend's Enter message (press_enter, for tests).
    "_handle_string_msg": "ipywidgets",
}

#: Packages outside the core (they may use the core; the core never imports them).
OUTER = ("companion.widgets", "companion.store", "companion.app", "companion.table",
         "companion.server")

#: The command line's package: its root (the parser, the error contract, ``print_json``)
#: is core, and the rulesets' command lines build on it; the modules below it are the
#: table's command lines, faces above ``companion.table`` like the apps.
CLI = "companion.cli"


def outer(found: list[Source]) -> tuple[str, ...]:
    """Every area outside the core: ``OUTER`` and each command line below ``CLI``."""
    return OUTER + tuple(s.module for s in found if s.module.startswith(CLI + "."))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@dataclass(frozen=True)
class Source:
    module: str
    path: Path
    tree: ast.Module

    @property
    def package(self) -> str:
        return package_of(self.module, self.path)


def sources() -> list[Source]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found.append(Source(module_name(path), path, tree))
    return found


def absolute(source: Source, node: ast.ImportFrom) -> str:
    """The module an ``import from`` names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = source.package.split(".")
    if node.level > 1:
        base = base[: -(node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def imports(source: Source) -> list[tuple[int, str, str | None]]:
    """(line, module, imported name or None) for every import in the module."""
    out: list[tuple[int, str, str | None]] = []
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = absolute(source, node)
            out.extend((node.lineno, module, alias.name) for alias in node.names)
    return out


def defined_names(tree: ast.Module) -> set[str]:
    """Every name the module defines: functions, classes, assigned names and attributes."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and is_private(node.value) and node.value.isidentifier()):
            # self.__dict__["_log"] = ...; getattr(self, "_x"): a name used as a string
            names.add(node.value)
    return names


def private_uses(source: Source, modules: set[str]) -> list[str]:
    """Where ``source`` uses a private name of another module (``path:line: what``)."""
    where = f"{source.path.relative_to(ROOT)}"
    problems = []
    module_aliases: dict[str, str] = {}
    for line, module, name in imports(source):
        if name is None:
            continue
        target = f"{module}.{name}"
        if target in modules:
            module_aliases[name] = target
        if module == source.module or not module.startswith("companion"):
            continue
        if is_private(name) and target not in modules:
            problems.append(f"{where}:{line}: imports {name} from {module}")
        private_module = next((p for p in (target if target in modules else module).split(".")
                               if is_private(p)), None)
        if private_module is not None:
            owner = (target if target in modules else module).split(f".{private_module}")[0]
            if not (source.module == owner or source.module.startswith(owner + ".")):
                problems.append(f"{where}:{line}: imports the private module "
                                f"{owner}.{private_module} from outside {owner}")
    own = defined_names(source.tree)
    for node in ast.walk(source.tree):
        if not (isinstance(node, ast.Attribute) and is_private(node.attr)):
            continue
        value = node.value
        if _own_object(value):
            continue  # self._x, cls._x, super()._x: a class and its subclasses' own parts
        if isinstance(value, ast.Name) and value.id in module_aliases:
            problems.append(f"{where}:{node.lineno}: uses {value.id}.{node.attr} of "
                            f"{module_aliases[value.id]}")
        elif node.attr not in own and node.attr not in FOREIGN_PRIVATE:
            problems.append(f"{where}:{node.lineno}: uses .{node.attr}, private to another "
                            "module")
    return problems


def _own_object(value: ast.expr) -> bool:
    if isinstance(value, ast.Name):
        return value.id in ("self", "cls")
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id == "super")


def test_nothing_uses_a_private_name_of_another_module() -> None:
    found = sources()
    modules = {s.module for s in found}
    assert len(found) > 50  # the whole package was read
    problems = [p for s in found for p in private_uses(s, modules)]
    assert problems == [], "\n".join(problems)


def _fake(text: str, module: str = "companion.fake.mod") -> Source:
    path = ROOT / (module.replace(".", "/") + ".py")
    return Source(module, path, ast.parse(text))


@pytest.mark.parametrize("text", [
    "from companion.state import _decode\n",
    "from companion import state\nstate._decode(1)\n",
    "from companion.rulesets.monsters_and_magic._data import section\n",
    "def f(t):\n    return t._event_log()\n",
])
def test_the_private_name_check_catches_each_kind_of_use(text: str) -> None:
    modules = {"companion.state", "companion.rulesets.monsters_and_magic._data"}
    assert len(private_uses(_fake(text), modules)) == 1


@pytest.mark.parametrize("text", [
    "from companion.state import decode_value\n",
    "class A:\n    def _x(self):\n        return 1\n    def y(self, other):\n"
    "        return other._x()\n",
    "def f(parser):\n    return parser._option_string_actions\n",
    "class B(Base):\n    def f(self):\n        self._changed()\n",
])
def test_the_private_name_check_allows_own_and_public_names(text: str) -> None:
    assert private_uses(_fake(text), {"companion.state"}) == []


def test_a_private_module_is_used_inside_its_own_package() -> None:
    source = _fake("from companion.rulesets.monsters_and_magic._data import section\n",
                   "companion.rulesets.monsters_and_magic.travel")
    assert private_uses(source, {"companion.rulesets.monsters_and_magic._data"}) == []


def imported_companion_modules(source: Source) -> list[tuple[int, str]]:
    out = []
    for line, module, name in imports(source):
        if module.startswith("companion"):
            out.append((line, module))
            if name is not None:
                out.append((line, f"{module}.{name}"))
    return out


def arrows(found: list[Source], *, inside: str, forbidden: tuple[str, ...]) -> list[str]:
    problems = []
    for s in found:
        if not (s.module == inside or s.module.startswith(inside + ".")):
            continue
        for line, target in imported_companion_modules(s):
            if any(target == f or target.startswith(f + ".") for f in forbidden):
                problems.append(f"{s.path.relative_to(ROOT)}:{line}: imports {target}")
    return problems


def test_tables_do_not_import_rulesets() -> None:
    found = sources()
    assert any(s.module.startswith("companion.tables") for s in found)
    assert arrows(found, inside="companion.tables", forbidden=("companion.rulesets",)) == []
    bad = _fake("from companion.rulesets import registry\n", "companion.tables.fake")
    assert arrows([bad], inside="companion.tables", forbidden=("companion.rulesets",))


def test_the_core_does_not_import_widgets_or_the_store() -> None:
    found = sources()
    areas = outer(found)
    assert "companion.cli.campaigns" in areas and CLI not in areas
    core = [s for s in found if not any(
        s.module == o or s.module.startswith(o + ".") for o in areas)]
    assert len(core) > 40
    assert CLI in {s.module for s in core}  # the root every ruleset's commands build on
    problems = [p for s in core for p in arrows([s], inside=s.module, forbidden=areas)]
    assert problems == [], "\n".join(problems)
    bad = _fake("import companion.widgets.base\n", "companion.dice.fake")
    assert arrows([bad], inside="companion.dice.fake", forbidden=areas)
    bad = _fake("from companion import store\n", "companion.cli_fake")
    assert arrows([bad], inside="companion.cli_fake", forbidden=areas)
    # A ruleset's command line builds on the root, never on the table's command lines.
    good = _fake("from companion.cli import print_json\n", "companion.rulesets.x.cli")
    assert arrows([good], inside="companion.rulesets.x.cli", forbidden=areas) == []
    bad = _fake("from companion.cli import campaigns\n", "companion.rulesets.x.cli")
    assert arrows([bad], inside="companion.rulesets.x.cli", forbidden=areas)


#: Names inside companion.state that only its public API reads (is_move, in_move, ...).
STATE_INTERNALS = ("is_move", "_move_depth", "_log", "_summary", "_observers")


def test_only_the_state_module_reads_tracker_internals_by_name() -> None:
    problems = []
    for s in sources():
        if s.module == "companion.state":
            continue
        for node in ast.walk(s.tree):
            if isinstance(node, ast.Constant) and node.value in STATE_INTERNALS:
                problems.append(f"{s.path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    assert problems == [], "\n".join(problems)


# -- rules only in the rulesets (issue 18) ---------------------------------------------------

#: Functions that draw from a generator (random's module functions and generator methods).
DRAWS = frozenset({"random", "randint", "randrange", "choice", "choices", "shuffle",
                   "sample", "uniform", "gauss", "getrandbits", "randbytes", "triangular",
                   "normalvariate", "expovariate", "betavariate", "randbelow", "token_bytes",
                   "token_hex", "token_urlsafe"})
#: Draw methods whose name says it all, on whatever object (``rng.randint``).
UNMISTAKABLE_DRAWS = frozenset({"randint", "randrange", "getrandbits", "randbytes",
                                "randbelow", "shuffle"})
#: What rolls dice in the engine (a rule's roll is the ruleset's move or function).
ENGINE_ROLLS = frozenset({"companion.dice.roll", "companion.dice.roll_many",
                          "companion.dice.simulate", "companion.dice.roller.roll",
                          "companion.dice.physical.enter"})
#: Widget modules that roll dice themselves, with the reason (no rule is decided there).
ROLLING_WIDGETS = {
    # The dice tray rolls whatever expression the player types: dice, not a rule.
    "companion.widgets.dice_tray": "the player's own expression",
    # The roll machinery every app's rule roll goes through (modes, own dice, the log):
    # it rolls the expression the caller's rule names.
    "companion.widgets.rolls": "the roll modes and entered dice of any rule's roll",
}


def resolved_names(source: Source) -> dict[str, str]:
    """What each imported name stands for: ``roll`` -> ``companion.dice.roll``,
    ``dice`` -> ``companion.dice``, ``random`` -> ``random``."""
    names: dict[str, str] = {}
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.partition(".")[0]] = (
                    alias.name if alias.asname else alias.name.partition(".")[0])
        elif isinstance(node, ast.ImportFrom):
            module = absolute(source, node)
            for alias in node.names:
                names[alias.asname or alias.name] = f"{module}.{alias.name}"
    return names


def dotted(node: ast.expr, names: dict[str, str]) -> str:
    """``a.b.c`` of an expression, its first name resolved through the imports ("" when
    it is no plain dotted name)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([names.get(node.id, node.id), *reversed(parts)])


def rule_decisions(source: Source) -> list[str]:
    """Where a widget module decides a rule itself (``path:line: what``):

    - it draws from a random generator (``random.randint``, ``rng.randrange``...): a rule
      roll is a ruleset's move or function, called with ``rng``/``seed``;
    - it rolls dice through the engine (``companion.dice.roll``...) outside the modules
      whose purpose that is (``ROLLING_WIDGETS``);
    - it compares a value with a ruleset's constant (``if face >= GAMBIT_MIN``): the
      threshold is the rules' to judge, through their functions.
    """
    where = f"{source.path.relative_to(ROOT)}"
    names = resolved_names(source)
    problems = []
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Call):
            called = dotted(node.func, names)
            head, _, last = called.rpartition(".")
            if head in ("random", "secrets") and last in DRAWS:
                problems.append(f"{where}:{node.lineno}: draws {called}()")
            elif (isinstance(node.func, ast.Attribute) and node.func.attr in UNMISTAKABLE_DRAWS
                  and head not in ("random", "secrets")):
                problems.append(f"{where}:{node.lineno}: draws .{node.func.attr}()")
            elif called in ENGINE_ROLLS and source.module not in ROLLING_WIDGETS:
                problems.append(f"{where}:{node.lineno}: rolls dice with {called}()")
        elif isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                constant = dotted(operand, names)
                last = constant.rpartition(".")[2]
                if (constant.startswith("companion.rulesets.") and last.isupper()
                        and not isinstance(node.ops[0], ast.In | ast.NotIn)):
                    problems.append(f"{where}:{node.lineno}: compares with the rule "
                                    f"constant {last}")
    return problems


def test_widgets_decide_no_rule() -> None:
    widgets = [s for s in sources() if s.module.startswith("companion.widgets")]
    assert len(widgets) > 20
    problems = [p for s in widgets for p in rule_decisions(s)]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("text", [
    "import random\ndef damage():\n    return random.randint(1, 6)\n",
    "from random import choice\ndef pick(rows):\n    return choice(rows)\n",
    "def face(rng):\n    return rng.randrange(6) + 1\n",
    "from companion.dice import roll\ndef hit():\n    return roll('1d6').total\n",
    "from companion import dice\ndef hit(rng):\n    return dice.roll('2d6', rng=rng).total\n",
    "from companion.rulesets.cairn_srd.combat import GAMBIT_MIN\n"
    "def can_gambit(face):\n    return face >= GAMBIT_MIN\n",
    "from companion.rulesets.cairn_srd import combat\n"
    "def can_gambit(face):\n    return combat.GAMBIT_AUTO <= face\n",
])
def test_the_rule_decision_check_catches_a_planted_rule(text: str) -> None:
    assert len(rule_decisions(_fake(text, "companion.widgets.planted"))) == 1


@pytest.mark.parametrize("text", [
    # Calling the ruleset's API with a generator, typing it, making one from a seed.
    "import random\nfrom companion.rulesets.cairn_srd.combat import gambit\n"
    "def f(face: int, rng: random.Random) -> str:\n"
    "    return gambit(face) + str(random.Random(3))\n",
    # A rule constant as a widget's bound (a box's limits) or a choice list.
    "from companion.rulesets.cairn_srd.saves import MAX_SCORE\n"
    "def box(make):\n    return make('STR', 0, MAX_SCORE)\n",
    "from companion.rulesets.cairn_srd.combat import GAMBITS\n"
    "def known(g):\n    return g in GAMBITS\n",
    # A widget's own numbers compared: not a rule's.
    "MAX_ROWS = 5\ndef rows(n):\n    return min(n, MAX_ROWS) if n > MAX_ROWS else n\n",
])
def test_the_rule_decision_check_leaves_plain_widget_code_alone(text: str) -> None:
    assert rule_decisions(_fake(text, "companion.widgets.plain")) == []


def test_the_rolling_widgets_are_the_named_ones() -> None:
    text = "from companion import dice\ndef tray(expr):\n    return dice.roll(expr)\n"
    assert rule_decisions(_fake(text, "companion.widgets.dice_tray")) == []
    modules = {s.module for s in sources()}
    assert set(ROLLING_WIDGETS) <= modules  # an allowance for a module that is gone fails


# -- the store knows nothing of the faces above it (issue 43) --------------------------------


def test_the_store_imports_neither_the_table_nor_the_command_lines() -> None:
    """``companion.store`` sits below the table session and every face: nothing in it
    imports ``companion.table`` or ``companion.cli`` (the command lines once lived in the
    store and reached up to ``Session``)."""
    found = sources()
    assert sum(s.module.startswith("companion.store.") for s in found) > 10
    above = ("companion.table", CLI)
    problems = arrows(found, inside="companion.store", forbidden=above)
    assert problems == [], "\n".join(problems)
    for text in ("from companion.table.session import Session\n",
                 "from companion.cli import print_json\n",
                 "def f():\n    from companion.cli.campaigns import store_of\n"):
        planted = _fake(text, "companion.store.planted")
        assert arrows([planted], inside="companion.store", forbidden=above), text


#: The store's backends and the port they implement.
BACKENDS = ("companion.store.port", "companion.store.db", "companion.store.memory",
            "companion.store.browser")
#: What opens campaigns: above the backends (``companion.store.opening``); the campaign's
#: parts (``companion.store._campaign``) too.
CAMPAIGN_SIDE = ("companion.store.campaign", "companion.store._campaign",
                 "companion.store.opening")


def test_the_backends_know_nothing_of_the_campaign() -> None:
    """A backend keeps events; opening a campaign on it lives above it
    (``companion.store.opening``): no backend, nor the port, imports the campaign."""
    found = sources()
    assert set(BACKENDS) | set(CAMPAIGN_SIDE) <= {s.module for s in found}
    problems = [p for b in BACKENDS for p in arrows(found, inside=b, forbidden=CAMPAIGN_SIDE)]
    assert problems == [], "\n".join(problems)
    for text in ("from companion.store.campaign import create\n",
                 "def f():\n    from companion.store.opening import unsaved_store\n",
                 "if TYPE_CHECKING:\n    from companion.store.campaign import Campaign\n",
                 "from companion.store._campaign.core import Member\n"):
        planted = _fake(text, "companion.store.memory")
        assert arrows([planted], inside="companion.store.memory", forbidden=CAMPAIGN_SIDE)


# -- the campaign is split by what changes together (issue 43) -----------------------------

#: ``companion/store/campaign.py`` composes the campaign's parts (``companion/store/_campaign/``,
#: one responsibility each); neither it nor a part grows back into the one class of 2,100
#: lines it was. Line bounds:
CAMPAIGN_LINES = 900
PART_LINES = 600
CAMPAIGN_FILE = PACKAGE / "store" / "campaign.py"
CAMPAIGN_PARTS = PACKAGE / "store" / "_campaign"


def oversized(files: dict[Path, str]) -> list[str]:
    """The campaign's files over their bound (``path: N lines, at most M``)."""
    found = []
    for path, text in files.items():
        bound = CAMPAIGN_LINES if path == CAMPAIGN_FILE else PART_LINES
        lines = len(text.splitlines())
        if lines > bound:
            found.append(f"{path.relative_to(ROOT)}: {lines} lines, at most {bound}")
    return found


def test_the_campaign_stays_split_into_its_parts() -> None:
    parts = sorted(p for p in CAMPAIGN_PARTS.glob("*.py") if p.name != "__init__.py")
    assert len(parts) >= 6  # core, replay, permission checks, unit of work, seam, roll log
    files = {p: p.read_text(encoding="utf-8") for p in [CAMPAIGN_FILE, *parts]}
    assert oversized(files) == [], "\n".join(oversized(files))
    from companion.store.campaign import Campaign

    for path in parts:
        tree = ast.parse(files[path])
        # Each part says what it is responsible for.
        assert len(ast.get_docstring(tree) or "") > 80, f"{path.name} names no responsibility"
        # ...and is part of the campaign: every class it defines is in Campaign's bases.
        module = module_name(path)
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name[0].isupper() and \
                    any(isinstance(n, ast.FunctionDef) for n in node.body) and \
                    node.name not in ("Mark", "Member", "RollScope"):
                assert any(c.__module__ == module and c.__name__ == node.name
                           for c in Campaign.__mro__), f"{module}.{node.name}"


def test_the_campaign_size_check_catches_a_grown_file() -> None:
    long = "x = 1\n" * (CAMPAIGN_LINES + 1)
    assert len(oversized({CAMPAIGN_FILE: long})) == 1
    assert len(oversized({CAMPAIGN_PARTS / "seam.py": "x = 1\n" * (PART_LINES + 1)})) == 1
    assert oversized({CAMPAIGN_FILE: "x = 1\n" * CAMPAIGN_LINES}) == []


# -- the session is the only thing a face holds (issue 43) ----------------------------------

#: The faces: the apps' package, the notebooks that show them and the serverless pages.
FACES = "companion.widgets"
NOTEBOOKS = ROOT / "widgets"
STATIC_PAGES = ROOT / "tools" / "static_apps"
#: Serverless pages that plug the browser's store in (the page's runtime, not a face):
#: they may import the store's port and its browser backend, nothing that opens a campaign.
STATIC_RUNTIME = ("kernel.py", "phone.py")


def notebook_sources() -> list[Source]:
    """Every notebook's code cells as one module (``widgets/NAME.ipynb``)."""
    import json

    found = []
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        # A notebook's shell escapes (``%``, ``!``) are not Python: left out.
        text = "\n".join(line for line in code.splitlines()
                         if not line.lstrip().startswith(("%", "!")))
        found.append(Source(f"widgets.{path.stem}", path, ast.parse(text, filename=str(path))))
    return found


def static_sources() -> list[Source]:
    return [Source(f"tools.static_apps.{p.stem}", p,
                   ast.parse(p.read_text(encoding="utf-8"), filename=str(p)))
            for p in sorted(STATIC_PAGES.glob("*.py"))]


def store_imports(source: Source) -> list[str]:
    """Where ``source`` imports ``companion.store`` (type hints included: a face names no
    store type either)."""
    found: dict[int, str] = {}  # one line per import (its module, not each name)
    for line, target in imported_companion_modules(source):
        if target == "companion.store" or target.startswith("companion.store."):
            found.setdefault(line, target)
    return [f"{source.path.relative_to(ROOT)}:{line}: imports {target}"
            for line, target in found.items()]


def _held_by_a_session(node: ast.expr) -> bool:
    """Whether ``node`` reads as a table session: a name or attribute ending in
    ``session`` (``session``, ``self.session``, ``self.table_session``) or a call of a
    function ending so (``page_session(...)``, ``shared_session(...)``)."""
    if isinstance(node, ast.Call):
        node = node.func
    text = ast.unparse(node)
    return text.rsplit(".", 1)[-1].endswith("session")


def campaign_reaches(source: Source) -> list[str]:
    """Where ``source`` reaches under a session for its campaign: ``Session.of(...)``, or
    ``.campaign`` read on a session (a page's ``context.campaign`` is the name: allowed)."""
    where = source.path.relative_to(ROOT)
    found = []
    for node in ast.walk(source.tree):
        if not isinstance(node, ast.Attribute):
            continue
        if node.attr == "of" and ast.unparse(node.value) in ("Session", "RemoteSession"):
            found.append(f"{where}:{node.lineno}: calls Session.of")
        elif node.attr == "campaign" and _held_by_a_session(node.value):
            found.append(f"{where}:{node.lineno}: reads .campaign on "
                         f"{ast.unparse(node.value)}")
    return found


def test_faces_import_nothing_from_the_store() -> None:
    """A face holds a session: no module of ``companion/widgets``, no notebook and no
    serverless page (its runtime aside) imports ``companion.store``; what it needs before
    it has a session is in ``companion.table.opening``."""
    faces = [s for s in sources() if s.module == FACES or s.module.startswith(FACES + ".")]
    notebooks = notebook_sources()
    pages = [s for s in static_sources() if s.path.name not in STATIC_RUNTIME]
    assert len(faces) > 30 and len(notebooks) > 20 and pages
    problems = [p for s in (*faces, *notebooks, *pages) for p in store_imports(s)]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("text", [
    "from companion.store.campaign import Campaign\n",
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
    "    from companion.store.campaign import Campaign\n",
    "def f():\n    from companion.store.records import StoreError\n",
    "import companion.store.seats\n",
    "from companion.store import open_campaign\n",
])
def test_the_store_import_check_catches_a_planted_face(text: str) -> None:
    assert len(store_imports(_fake(text, "companion.widgets.planted"))) == 1


def test_the_store_import_check_leaves_the_table_door_alone() -> None:
    text = ("from companion.table.opening import StoreError, seat_named\n"
            "from companion.table import Session\n")
    assert store_imports(_fake(text, "companion.widgets.planted")) == []


def test_no_face_reaches_under_its_session() -> None:
    """``Session.of`` and ``Session.campaign`` are gone (issue 43); no face reaches for
    the campaign under a session, in the apps, the notebooks or the serverless pages."""
    faces = [s for s in sources() if s.module == FACES or s.module.startswith(FACES + ".")]
    everything = (*faces, *notebook_sources(), *static_sources())
    problems = [p for s in everything for p in campaign_reaches(s)]
    assert problems == [], "\n".join(problems)
    from companion.table import Session

    assert not hasattr(Session, "of") and not hasattr(Session, "campaign")


@pytest.mark.parametrize("text", [
    "from companion.table import Session\ndef f(c):\n    return Session.of(c)\n",
    "def f(session):\n    return session.campaign.party\n",
    "def f(self):\n    return self.session.campaign\n",
    "def f(self):\n    return self.table_session.campaign.rulesets\n",
    "def f(context):\n    return page_session(context).campaign\n",
    "def f(name):\n    return shared_session(name).campaign\n",
])
def test_the_session_check_catches_a_planted_face(text: str) -> None:
    assert len(campaign_reaches(_fake(text, "companion.widgets.planted"))) == 1


@pytest.mark.parametrize("text", [
    "def f(context):\n    return context.campaign\n",
    "def f(self):\n    return self.context.with_(campaign=self.session.name)\n",
    "def f(session):\n    return session.party()\n",
])
def test_the_session_check_leaves_a_page_name_alone(text: str) -> None:
    assert campaign_reaches(_fake(text, "companion.widgets.planted")) == []
# -- pages are built by the element builder, not by string (issue 43) -----------------------

#: The element builder: the one widget module that escapes and writes tags itself.
BUILDER = "companion.widgets.markup"

#: An HTML tag opening or closing (``<b>``, ``</div>``, ``<span class=``): not ``a < b``.
_TAG_IN_TEXT = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(?=[\s>/])|</?[a-zA-Z][a-zA-Z0-9-]*$")


def escapes_by_hand(source: Source) -> list[str]:
    """Where a module calls ``escape`` itself (``escape(x)``, ``html.escape(x)``,
    ``markup.escape(x)``): the builder escapes text and attributes for it."""
    where = f"{source.path.relative_to(ROOT)}"
    return [f"{where}:{node.lineno}: calls escape() by hand"
            for node in ast.walk(source.tree)
            if isinstance(node, ast.Call)
            and ((isinstance(node.func, ast.Name) and node.func.id == "escape")
                 or (isinstance(node.func, ast.Attribute) and node.func.attr == "escape"))]


def tags_in_fstrings(source: Source) -> list[str]:
    """Where an f-string holds an HTML tag in its literal text (markup built by string,
    with its values put in unescaped unless escaped by hand)."""
    where = f"{source.path.relative_to(ROOT)}"
    problems = []
    for node in ast.walk(source.tree):
        if isinstance(node, ast.JoinedStr):
            literal = "".join(part.value for part in node.values
                              if isinstance(part, ast.Constant) and isinstance(part.value, str))
            if _TAG_IN_TEXT.search(literal):
                problems.append(f"{where}:{node.lineno}: builds an HTML tag in an f-string")
    return problems


def _widget_sources() -> list[Source]:
    widgets = [s for s in sources() if s.module.startswith("companion.widgets")]
    assert len(widgets) > 20
    return widgets


@pytest.mark.parametrize("check", [escapes_by_hand, tags_in_fstrings])
def test_widgets_build_markup_with_the_builder(check: Callable[[Source], list[str]]) -> None:
    # Every widget module builds its pages with the builder (the last 22 converted in
    # issue 43): none escapes by hand or writes a tag into an f-string.
    problems = [p for s in _widget_sources() if s.module != BUILDER for p in check(s)]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize(("check", "text"), [
    (escapes_by_hand, "from companion.widgets.markup import escape\n"
                      "def f(name):\n    return '<b>' + escape(name) + '</b>'\n"),
    (escapes_by_hand, "import html\ndef f(name):\n    return html.escape(name)\n"),
    (escapes_by_hand, "from companion.widgets import markup\n"
                      "def f(name):\n    return markup.escape(name)\n"),
    (tags_in_fstrings, "def f(name):\n    return f'<b>{name}</b>'\n"),
    (tags_in_fstrings, "def f(n):\n    return f'<div class=\"x\" data-n=\"{n}\">'\n"),
    (tags_in_fstrings, "def f(x):\n    return f'{x}</td>'\n"),
    (tags_in_fstrings, "def f(x):\n    return f'{x}<br>'\n"),
])
def test_the_markup_check_catches_a_planted_string(
        check: Callable[[Source], list[str]], text: str) -> None:
    assert len(check(_fake(text, "companion.widgets.planted"))) == 1


@pytest.mark.parametrize("text", [
    "from companion.widgets.markup import el\ndef f(name):\n    return el('b', name)\n",
    "def f(a, b):\n    return f'{a} < {b} and {b}<3'\n",  # comparisons, not tags
    "def f(n):\n    return f'd{n} <= 6' + '<b>plain</b>'\n",
])
def test_the_markup_check_leaves_builder_code_alone(text: str) -> None:
    planted = _fake(text, "companion.widgets.plain")
    assert escapes_by_hand(planted) == [] and tags_in_fstrings(planted) == []
# -- a roll is a named act, never a closure (issue 43) ---------------------------------------


def rolled_closures(source: Source) -> list[str]:
    """Where a widget hands a roll a closure (``path:line: what``): a closure cannot cross a
    wire, be queued or be written down, so a roll is a named act
    (``controls.run_act``/``run_rule``/``run_table``, or ``(tracker, "move", {args})``).

    - ``session.rule_roll(...)`` or ``_rule_roll`` called at all (the session's closure
      path, and its public door for declared rules: a widget rolls through the controls);
    - ``controls.run(label, action, ...)``: the roll controls' closure path;
    - ``self.roll(label, fn)`` where ``fn`` is a lambda or a function defined in the
      module (a ruleset's own function or a bound move is named, and passes).
    """
    where = f"{source.path.relative_to(ROOT)}"
    local = {n.name for n in ast.walk(source.tree)
             if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    problems = []
    for node in ast.walk(source.tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        attr, owner = node.func.attr, dotted(node.func.value, {})
        if attr in ("rule_roll", "_rule_roll"):
            problems.append(f"{where}:{node.lineno}: calls rule_roll with a closure")
        elif attr == "run" and owner.rpartition(".")[2].endswith("controls"):
            problems.append(f"{where}:{node.lineno}: hands a closure to {owner}.run")
        elif attr == "roll" and len(node.args) >= 2 and (
                isinstance(node.args[1], ast.Lambda)
                or (isinstance(node.args[1], ast.Name) and node.args[1].id in local)):
            problems.append(f"{where}:{node.lineno}: hands a closure to .roll")
    return problems


def test_no_widget_hands_a_roll_a_closure() -> None:
    # Every roll an app makes is a named act (issue 43): none is left on a list.
    widgets = [s for s in sources() if s.module.startswith("companion.widgets")]
    assert len(widgets) > 20
    problems = [p for s in widgets for p in rolled_closures(s)]
    assert problems == [], "\n".join(problems)


def test_only_the_session_runs_a_rule_roll_of_a_function() -> None:
    # The session's own closure path (behind every rolled named act) is called nowhere
    # but in the session; the roll controls have no closure path at all, and the
    # session's public rule roll refuses a function.
    from companion.table.acts import ActError
    from companion.table.session import Session
    from companion.widgets.rolls import RollControls

    outside = [f"{s.path.relative_to(ROOT)}:{n.lineno}" for s in sources()
               if s.module != "companion.table.session" for n in ast.walk(s.tree)
               if isinstance(n, ast.Attribute) and n.attr == "_rule_roll"]
    assert outside == []
    assert not hasattr(RollControls, "run")
    with pytest.raises(ActError, match="names a declared rule"):
        Session.unsaved().rule_roll("x", lambda rng: rng.random())  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [
    "def f(session):\n    return session.rule_roll('x', lambda rng: rng.random())\n",
    "def f(session):\n    return session._rule_roll('x', lambda rng: rng.random())\n",
    "def f(self, m):\n    return self.controls.run('Hit Die', lambda rng: m.roll(rng=rng))\n",
    "def f(controls, m):\n    return controls.run('Hit Die', m.roll)\n",
    "def f(self, j):\n    self.roll('travel', lambda **kw: j.travel(True, **kw))\n",
    "def f(self, j):\n    def go(**kw):\n        return j.travel(**kw)\n"
    "    self.roll('travel', go)\n",
])
def test_the_closure_roll_check_catches_a_planted_closure(text: str) -> None:
    assert len(rolled_closures(_fake(text, "companion.widgets.planted"))) == 1


@pytest.mark.parametrize("text", [
    "def f(self, m):\n    return self.controls.run_act('Hit Die', m, 'roll_hit_die')\n",
    "def f(self, call):\n    return self.controls.run_rule('check', call)\n",
    "def f(self, c):\n    self.roll('Panic', c.panic_save)\n",
    "def f(self, j):\n    self.roll('travel', (j, 'travel', {'navigate': True}))\n",
    "def f(self, expr):\n    return self.tray.roll(expr)\n",
    "def f(move):\n    return move.run()\n",
])
def test_the_closure_roll_check_leaves_named_acts_alone(text: str) -> None:
    assert rolled_closures(_fake(text, "companion.widgets.plain")) == []
