"""The core (``companion`` minus ``companion.widgets``, the store, the table, the app, the
server and the table's command lines under ``companion.cli``; the command line's root,
``companion.cli`` itself, is core) imports the standard library only.

It has to: the reference site runs it in Pyodide, which has nothing else. The check runs in
a fresh interpreter, imports every core module found on disk (so a ruleset added later is
covered with no edit here) and lists every newly imported module that is neither standard
library nor part of the core.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs in the child interpreter; argv[1:] are extra modules to import (for the self-check).
PROBE = r"""
import importlib, importlib.util, json, pkgutil, sys
from pathlib import Path

before = set(sys.modules)
root = Path(sys.argv[1]) / "companion"
wanted = ["companion", "companion.dice", "companion.tables", "companion.state",
          "companion.checks", "companion.rulesets"]

def core_modules(path, prefix):
    for info in pkgutil.iter_modules([str(path)]):
        name = prefix + info.name
        if name in ("companion.widgets", "companion.store", "companion.app", "companion.table",
                    "companion.server", "companion.__main__"):
            continue
        if name.startswith("companion.cli."):  # the table's command lines: above the table
            continue
        yield name
        if info.ispkg:
            yield from core_modules(path / info.name, name + ".")

wanted += list(core_modules(root, "companion."))
wanted += sys.argv[2:]
imported = []
for name in dict.fromkeys(wanted):
    if importlib.util.find_spec(name) is None:   # not written yet: nothing to check
        continue
    importlib.import_module(name)
    imported.append(name)

def allowed(mod):
    top = mod.split(".")[0]
    if top == "companion":
        return not mod.startswith("companion.cli.") and not any(
            mod == p or mod.startswith(p + ".")
            for p in ("companion.widgets", "companion.store", "companion.app",
                      "companion.table", "companion.server"))
    return top in sys.stdlib_module_names

new = sorted(set(sys.modules) - before)
print(json.dumps({"imported": imported, "foreign": [m for m in new if not allowed(m)]}))
"""


def probe(*extra: str) -> dict[str, list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(ROOT), *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_core_imports_only_the_standard_library() -> None:
    result = probe()
    assert "companion" in result["imported"]
    assert "companion.rulesets" in result["imported"]
    assert result["foreign"] == [], f"core modules pulled in non-stdlib modules: {result}"


def test_every_ruleset_on_disk_is_checked() -> None:
    on_disk = {
        f"companion.rulesets.{p.name}"
        for p in (ROOT / "companion" / "rulesets").iterdir()
        if (p / "__init__.py").exists()
    }
    assert on_disk <= set(probe()["imported"])


def test_probe_notices_a_foreign_import() -> None:
    # The check itself must be able to fail: a third-party module (and the widgets layer)
    # imported alongside the core is reported.
    foreign = probe("pytest", "companion.widgets")["foreign"]
    assert "pytest" in foreign
    assert "companion.widgets" in foreign
