"""Every docstring example of the core runs as a doctest.

Collects every module under ``companion/`` (the ipywidgets components in
``companion/widgets/`` excepted: they need a notebook front end) and runs its ``>>>``
examples; a module that fails to import fails its test. No example is skipped: a stale
example must be corrected, not hidden behind ``+SKIP``.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"


def core_modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        if "widgets" in rel.parts[:2] or "__pycache__" in rel.parts:
            continue
        parts = rel.parts[:-1] if rel.parts[-1] == "__init__" else rel.parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts))
    return names


MODULES = core_modules()
#: Modules whose docstrings carry examples (read from the source, not from the import).
WITH_EXAMPLES = [
    m
    for m in MODULES
    if ">>>" in (ROOT.joinpath(*m.split(".")) / "__init__.py"
                 if (ROOT.joinpath(*m.split("."))).is_dir()
                 else ROOT.joinpath(*m.split(".")).with_suffix(".py")).read_text(encoding="utf-8")
]


def test_the_collection_covers_the_core() -> None:
    assert {"companion.dice", "companion.tables", "companion.state", "companion.errors"} <= set(
        MODULES
    )
    assert not any(m.startswith("companion.widgets") for m in MODULES)
    assert len(WITH_EXAMPLES) >= 25


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    tests = finder.find(module, name)
    # Only the module's own objects (an import re-exported from elsewhere is tested there).
    examples = sum(len(t.examples) for t in tests)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
    if name in WITH_EXAMPLES:
        assert examples > 0, f"{name} has examples the doctest finder does not see"


def test_no_example_is_skipped() -> None:
    skipped = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "widgets" in path.relative_to(PACKAGE).parts[:1]:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"doctest:\s*\+SKIP", line):
                skipped.append(f"{path.relative_to(ROOT)}:{number}")
    assert skipped == []
