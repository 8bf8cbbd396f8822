"""Source-reading helpers of the site generator (``docs/gen_pages.py``).

Pure functions over the package's files, kept apart from the generator (which only runs
inside mkdocs-gen-files) so they can be tested directly. They read source with ``ast``
and never import the package.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

#: Parts of a ruleset package that are plumbing or data, not rules text: documented in the
#: API reference only.
NOT_RULES = frozenset({"cli", "reference", "tables", "fixed_tables"})


def is_public(name: str) -> bool:
    return not name.startswith("_")


def title_of(name: str) -> str:
    """``spell_points`` -> ``Spell points``."""
    return name.replace("_", " ").capitalize()


def first_heading(markdown: str) -> str | None:
    match = re.search(r"^#\s+(.+?)\s*#*\s*$", markdown, re.MULTILINE)
    return match.group(1) if match else None


def submodules(package_dir: Path, dotted: str) -> list[str]:
    """Public submodules (and subpackages) of a package, by dotted name, recursively."""
    found = []
    for path in sorted(package_dir.iterdir()):
        if path.name == "__pycache__" or not is_public(path.stem):
            continue
        if path.suffix == ".py" and path.stem != "__init__":
            found.append(f"{dotted}.{path.stem}")
        elif path.is_dir() and (path / "__init__.py").exists():
            found.append(f"{dotted}.{path.name}")
            found.extend(submodules(path, f"{dotted}.{path.name}"))
    return found


def defined_names(path: Path) -> list[str]:
    """Public classes and functions defined (not imported) at the top of a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return [n.name for n in tree.body if isinstance(n, kinds) and is_public(n.name)]


_INTERPRETATION = re.compile(
    r"Interpretation:\s*(.+?)(?=\n\s*\n|\n\s*[-*] |Interpretation:|\Z)", re.DOTALL
)


DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def interpretations(path: Path, dotted: str) -> list[tuple[str, str]]:
    """``(object, reading)`` for every ``Interpretation:`` in the module's docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, str]] = []

    def visit(node: ast.AST, qualname: str) -> None:
        doc = ast.get_docstring(node, clean=True) if isinstance(node, DOCUMENTED) else None
        for match in _INTERPRETATION.finditer(doc or ""):
            found.append((qualname, " ".join(match.group(1).split())))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, f"{qualname}.{child.name}")

    visit(tree, dotted)
    return found
