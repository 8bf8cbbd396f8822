"""Source-reading helpers of the site generator (``docs/gen_pages.py``).

Pure functions over the package's files, kept apart from the generator (which only runs
inside mkdocs-gen-files) so they can be tested directly. They read source with ``ast``
and never import the package.
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Callable
from pathlib import Path

#: Parts of a ruleset package that are plumbing (CLI and app glue, data readers), not rules
#: text: documented in the API reference only.
NOT_RULES = frozenset({"cli", "reference", "tables", "fixed_tables", "lookup", "maneuvers"})


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


def module_source(package_dir: Path, dotted: str) -> Path:
    """The file of a module (or package) under ``package_dir`` (named by ``dotted``'s
    first part)."""
    path = package_dir.parent.joinpath(*dotted.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def module_docstring(path: Path) -> str:
    """A module's docstring, cleaned (indentation removed), read without importing it."""
    return ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=True) or ""


def without_examples(doc: str) -> str:
    """The docstring without its ``>>>`` examples (each with its output, up to a blank
    line): rule text for a reader, the examples being for the API reference and doctest."""
    kept: list[str] = []
    in_example = False
    for line in doc.splitlines():
        if line.lstrip().startswith(">>>"):
            in_example = True
        elif not line.strip():
            in_example = False
        if not in_example:
            kept.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


_AUTOREF = re.compile(r"\[([^\[\]]+)\]\[([\w.]*)\]")


def local_links(markdown: str, here: str, pages: dict[str, str]) -> str:
    """Turn cross-references to objects that have a page of their own (``pages``: dotted
    name -> site path) into relative links from the page ``here``; the others stay
    cross-references (to the API reference)."""

    def link(match: re.Match[str]) -> str:
        label, target = match.group(1), match.group(2) or match.group(1).strip("`")
        page = pages.get(target)
        if page is None:
            return match.group(0)
        return f"[{label}]({posixpath.relpath(page, posixpath.dirname(here))})"

    return _AUTOREF.sub(link, markdown)


def defined_names(path: Path) -> list[str]:
    """Public classes and functions defined (not imported) at the top of a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return [n.name for n in tree.body if isinstance(n, kinds) and is_public(n.name)]


#: ``Interpretation:`` or ``Interpretation (a note):``; the reading follows.
MARKER = re.compile(r"Interpretation(?:\s*\(([^()]*)\))?:")
_ITEM = re.compile(r"^(\s*)[-*] ")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _closing_paren(text: str) -> int | None:
    """Index of the ``)`` closing a parenthesis opened before ``text`` begins."""
    depth = 1
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return i
    return None


def _flat(text: str) -> str:
    return " ".join(text.split())


def readings(doc: str) -> list[str]:
    """Every reading marked in one docstring, as Markdown.

    A reading runs from its marker to the end of its paragraph, its list item, the
    parenthesis it sits in, or the next marker. A marker ending its line
    (``Interpretation (the seed stops mid-way):``) introduces a list of readings, kept as
    one reading with its items as a nested list.
    """
    lines = doc.splitlines()
    found: list[str] = []
    for number, line in enumerate(lines):
        for match in MARKER.finditer(line):
            found.append(_reading(lines, number, match))
    return found


def _reading(lines: list[str], number: int, match: re.Match[str]) -> str:
    line = lines[number]
    rest = line[match.end():]
    item = _ITEM.match(line)
    if not rest.strip():  # a heading marker: the list below is the reading
        note = match.group(1)
        items: list[str] = []
        depth: int | None = None  # the indent of the list's own items
        for following in lines[number + 1:]:
            bullet = _ITEM.match(following)
            if bullet and depth is not None and len(bullet.group(1)) < depth:
                break  # an item of an outer list (the note sat inside one): the end
            if bullet:
                depth = len(bullet.group(1)) if depth is None else depth
                items.append(following[bullet.end():].strip())
            elif following.strip() and items and _indent(following) > 0:
                items[-1] += " " + following.strip()
            elif following.strip() or items:
                if not following.strip() and items:
                    continue
                break
        head = f"{note[0].upper()}{note[1:]}." if note else ""
        body = "\n".join(f"- {_flat(i)}" for i in items)
        return f"{head}\n{body}".strip()
    # The block the marker sits in: its list item, or its paragraph.
    block = [rest]
    for following in lines[number + 1:]:
        if not following.strip() or _ITEM.match(following):
            break
        if item and _indent(following) <= _indent(line):
            break
        block.append(following)
    text = "\n".join(block)
    cut = len(text)
    before = line[: match.start()].rstrip()
    if before.endswith("("):
        closing = _closing_paren(text)
        cut = closing if closing is not None else cut
    following_marker = MARKER.search(text)
    if following_marker:
        cut = min(cut, following_marker.start())
    reading = _flat(text[:cut])
    if match.group(1):
        reading = f"{reading} ({match.group(1)})"
    if reading and reading[-1] not in ".!?":
        reading += "."
    return reading[:1].upper() + reading[1:] if reading else reading


def as_list_item(prefix: str, reading: str) -> str:
    """``- prefix reading`` with a reading's own items nested under it."""
    first, *items = reading.split("\n")
    return "\n".join([f"- {prefix}{first}", *(f"    {i}" for i in items)])


DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def interpretations(path: Path, dotted: str) -> list[tuple[str, str]]:
    """``(object, reading)`` for every ``Interpretation:`` in the module's docstrings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, str]] = []

    def visit(node: ast.AST, qualname: str) -> None:
        doc = ast.get_docstring(node, clean=True) if isinstance(node, DOCUMENTED) else None
        found.extend((qualname, reading) for reading in readings(doc or ""))
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, f"{qualname}.{child.name}")

    visit(tree, dotted)
    return found


# --- rules text for readers (issue 45) ----------------------------------------------------

#: A name only a programmer writes: dotted (``game.DiceMonarchsGame``), snake_case,
#: CamelCase, a CONSTANT, a call or keyword argument, a file (``data/rules.toml``).
_CODE_NAME = re.compile(
    r"[\w.]*[a-z0-9]_[\w.]*|\w+\.\w[\w.]*|[A-Z][a-z]+[A-Z]\w*|[A-Z0-9]+_[A-Z0-9_]+"
    r"|\w[\w.]*(?:\(.*\)|=.*)|[\w/]+\.(?:toml|txt|json|py)"
)
_CODE_SPAN = r"``?[^`]+``?"
_REF = r"\[[^\[\]]+\]\[[\w.]*\]"
#: A parenthesis that only names code: ``(`Game.deal`)``, ``(see [X][c.X], `f`)``.
_NAMED = rf"(?:{_CODE_SPAN}|{_REF})"
_CODE_ASIDE = re.compile(
    rf"\s?\((?:see\s+|data:\s+|with\s+)?({_NAMED}(?:(?:,| and| or|;)\s+{_NAMED})*)\)"
)


def _is_code(span: str) -> bool:
    inner = span.strip("`").strip()
    return bool(_CODE_NAME.fullmatch(inner))


def _all_code(aside: str) -> bool:
    names = re.findall(rf"{_CODE_SPAN}|{_REF}", aside)
    return all(_is_code(n) if n.startswith("`") else _is_code(n[1:].split("]")[0].strip("`"))
               or n.split("][")[1].rstrip("]").count(".") > 2 for n in names)


def _without_dev_sections(markdown: str) -> str:
    """Without its sections for programmers (``## In code``, ``## For developers``), each
    up to the next heading of its level or higher."""
    out = markdown
    for level in range(1, 7):
        pattern = re.compile(
            rf"^{'#' * level} +(?:In code|For developers)\b.*?(?=^#{{1,{level}}} |\Z)",
            re.M | re.S)
        out = pattern.sub("", out)
    return out


def _words(name: str) -> str:
    """A code name in words: ``Character.suffer_scar`` -> ``suffer scar``, ``LockBook``
    -> ``lock book``, ``WOUND_TIERS`` -> ``wound tiers`` (the move or thing it names)."""
    last = name.strip("`").split(".")[-1]
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", last).replace("_", " ").lower()


def reader_text(markdown: str, here: str, pages: dict[str, str],
                titles: dict[str, str],
                tables: dict[str, tuple[str, str]] | None = None,
                value_of: Callable[[str], str | None] | None = None) -> str:
    """A rules module's docstring as rule text for players and referees (issue 45): its
    sections for programmers (``## In code``) and the asides that only name code
    (``(`DiceMonarchsGame.deal`)``) left out (they are the API reference's); a
    cross-reference to a module with a rules page becomes a link titled by that page
    (``[`ability_checks`][…]`` -> ``[Ability checks](…)``); one to an object of such a
    module links to its module's page, under its own name; any other (an engine class) is
    left as its words, unlinked; a table named by its id (```cairn_mishap```) is linked
    under its title. ``pages``/``titles``: dotted name -> site path / title; ``tables``:
    table id -> (title, site path); ``value_of``: a constant's value by its dotted name
    (a rule naming ``MAX_MODIFIER`` reads its number). Any other code name left is put in
    words, in italics (``sheet_due`` -> *sheet due*)."""
    text = _without_dev_sections(markdown)

    def table(match: re.Match[str]) -> str:
        found = (tables or {}).get(match.group(1))
        if found is None:
            return match.group(0)
        return f"[{found[0]}]({posixpath.relpath(found[1], posixpath.dirname(here))})"

    text = re.sub(r"``?(\w+)``?", table, text)

    def aside(match: re.Match[str]) -> str:
        return "" if _all_code(match.group(1)) else match.group(0)

    text = _CODE_ASIDE.sub(aside, text)

    def link(match: re.Match[str]) -> str:
        label, target = match.group(1), match.group(2) or match.group(1).strip("`")
        owner = target
        while owner and owner not in pages:
            owner = owner.rpartition(".")[0]
        words = label.strip("`")
        if re.fullmatch(r"[A-Z0-9]+_[A-Z0-9_]+", words.split(".")[-1]) and value_of:
            value = value_of(target)
            if value is not None:
                return value
        if not owner:
            return f"*{_words(words)}*" if _is_code(words) else words
        if owner == target and (label.startswith("`") or _is_code(words)):
            words = titles.get(target, words)
        elif _is_code(words):
            words = f"*{_words(words)}*"
        href = posixpath.relpath(pages[owner], posixpath.dirname(here))
        return f"[{words}]({href})"

    text = _AUTOREF.sub(link, text)

    def span(match: re.Match[str]) -> str:
        inner = match.group(1)
        if re.search(r"[=/()\s]", inner) or not _is_code(inner):
            return match.group(0)
        return f"*{_words(inner)}*"

    text = re.sub(r"``?([^`]+?)``?", span, text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()
