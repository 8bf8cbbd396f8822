"""The built site has every generated page and loads nothing from other hosts."""

from __future__ import annotations

import html as html_lib
import importlib
import itertools
import re
from collections import Counter
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from notation import NOTATION, REFUSED
from source_info import NOT_RULES, reader_text, submodules

from companion import rulesets

PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
]


def page(site: Path, path: str) -> str:
    file = site / path / "index.html"
    assert file.exists(), f"missing page {path}/"
    return file.read_text(encoding="utf-8")


def test_generated_pages_exist(built_site: Path) -> None:
    for path in ("", "dice-notation", "rules", "api/companion", "api/companion/errors"):
        page(built_site, path)
    for ruleset in rulesets.all_rulesets():
        html = page(built_site, f"rules/{ruleset.name}")
        assert ruleset.title.split(":")[0] in html
        for table in ruleset.tables():
            page(built_site, f"rules/{ruleset.name}/tables/{table.id}")  # type: ignore[attr-defined]
        reference = ruleset.reference_module()
        for rel in reference.reference_pages() if reference else {}:
            page(built_site, f"rules/{ruleset.name}/{rel.removesuffix('.md')}")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[str] = []

    def handle_data(self, data: str) -> None:
        self.chunks.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.chunks).split())


def test_ruleset_page_shows_its_rules_text(built_site: Path) -> None:
    for ruleset in rulesets.all_rulesets():
        doc = ruleset.module().__doc__ or ""
        assert doc.strip(), f"{ruleset.name} has no rules text"
        # The docstring's plain words (Markdown marks removed) appear on the page, in order.
        first = " ".join(re.sub(r"[*`_]", "", doc.strip().splitlines()[0]).split())
        assert first in visible_text(page(built_site, f"rules/{ruleset.name}")).replace("`", "")


MARKER = re.compile(r"Interpretation(?:\s*\([^()]*\))?:")


def runtime_docstrings(module: Any) -> list[str]:
    """The docstrings of a module and of the classes, functions, methods and properties it
    defines, found at run time (not the way the generator finds them)."""
    docs = [module.__doc__]

    def members(owner: type) -> None:
        for member in vars(owner).values():
            function = getattr(member, "__func__", getattr(member, "fget", member))
            if isinstance(member, type) and member.__module__ == module.__name__:
                docs.append(member.__doc__)
                members(member)
            elif callable(function) and getattr(function, "__module__", None) == module.__name__:
                docs.append(function.__doc__)

    for obj in vars(module).values():
        if getattr(obj, "__module__", None) != module.__name__ or not callable(obj):
            continue
        docs.append(obj.__doc__)
        if isinstance(obj, type):
            members(obj)
    return [doc for doc in docs if doc]


class _TopLevelItems(HTMLParser):
    """The text of each top-level ``<li>`` of the page's article (nested lists included)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.items: list[str] = []
        self.in_article = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self.in_article = True
        if self.in_article and tag == "li":
            self.depth += 1
            if self.depth == 1:
                self.items.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.in_article = False
        if self.in_article and tag == "li":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.items[-1] += data


def listed_readings(html: str) -> list[str]:
    parser = _TopLevelItems()
    parser.feed(html)
    return [" ".join(item.split()) for item in parser.items]


def test_every_interpretation_is_listed_once(built_site: Path) -> None:
    """Each ruleset's Interpretations page lists one item per ``Interpretation:`` or
    ``Interpretation (note):`` block of its rules modules' docstrings and its tables'
    notes, and each item reads
    as a whole: balanced brackets and quotes, ending like a sentence, one reading only."""
    pages = 0
    for ruleset in rulesets.all_rulesets():
        rules_modules = [ruleset.module_name] + [
            m for m in submodules(ruleset.path, ruleset.module_name)
            if m.split(".")[3] not in NOT_RULES
        ]
        docs = [d for m in rules_modules for d in runtime_docstrings(importlib.import_module(m))]
        expected = sum(len(MARKER.findall(doc)) for doc in docs)
        # A table's notes may mark a reading too (a die the seed does not name); the page
        # lists those after the code's.
        expected += sum(len(MARKER.findall(str(getattr(table, "notes", "") or "")))
                        for table in ruleset.tables())
        path = built_site / "rules" / ruleset.name / "interpretations" / "index.html"
        if expected == 0:
            assert not path.exists(), ruleset.name
            continue
        pages += 1
        items = listed_readings(path.read_text(encoding="utf-8"))
        assert len(items) == expected, ruleset.name
        for item in items:
            # Listed under its rule's title (issue 45); a table's reading names its table.
            reading = item
            assert reading, f"{ruleset.name}: no reading in {item!r}"
            assert reading.count("(") == reading.count(")"), item
            assert reading.count("[") == reading.count("]"), item
            assert reading.count('"') % 2 == 0, item
            assert reading.rstrip()[-1] in ".!?", item
            assert "Interpretation" not in reading, f"two readings run together: {item!r}"
    assert pages >= 4


def test_seed_cut_off_blocks_are_listed_with_their_items(built_site: Path) -> None:
    """The Monsters & Magic ``Interpretation (the seed's sentences stop mid-way):`` blocks
    are on the page, each cut-off sentence with its reading."""
    html = page(built_site, "rules/monsters_and_magic/interpretations")
    text = "".join(visible_text(html).split())
    from companion.rulesets.monsters_and_magic import death_and_dying, threads_of_fate

    for module in (death_and_dying, threads_of_fate):
        block = (module.__doc__ or "").split("stop mid-way):", 1)[1].split("\n\n")[1]
        for item in block.split("\n- "):
            # In the table's words, as the generator puts them (issue 45: code names in
            # words, asides that only name code left to the API reference).
            item = reader_text(item, "rules/x/interpretations.md", {}, {})
            words = " ".join(re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", item).split())
            words = words.removeprefix("- ").replace("*", "")
            assert "".join(words.split()) in text, words


def rules_modules_of(ruleset: Any) -> list[str]:
    return [ruleset.module_name] + [
        m for m in submodules(ruleset.path, ruleset.module_name)
        if m.split(".")[3] not in NOT_RULES
    ]


def rules_page_path(ruleset: Any, dotted: str) -> str:
    rel = dotted.split(".")[3:]
    return "/".join(["rules", ruleset.name, *rel])


def test_api_reference_mirrors_the_package(built_site: Path) -> None:
    """Every public module has an API page, the rulesets' rules modules included; those
    link to their rules page."""
    root = built_site.parent / "companion"
    checked = []
    for module in root.rglob("*.py"):
        parts = module.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        dotted = ".".join(parts)
        if any(p.startswith("_") for p in parts):
            continue
        if not all((d / "__init__.py").exists() for d in module.parents if root in (d, *d.parents)):
            continue  # a folder that is not (yet) a package
        page(built_site, "api/" + "/".join(parts))
        checked.append(dotted)
    assert {"companion", "companion.rulesets", "companion.dice", "companion.errors"} <= set(checked)
    for ruleset in rulesets.all_rulesets():
        for dotted in rules_modules_of(ruleset):
            assert dotted in checked
            api = page(built_site, "api/" + dotted.replace(".", "/"))
            target = rules_page_path(ruleset, dotted)
            assert re.search(rf'href="(\.\./)+{re.escape(target)}/"', api), dotted


#: What mkdocstrings prints for code objects: signatures, labels (``module-attribute``,
#: ``dataclass``, ``property``...), object headings; and code listings (the docstrings'
#: ``>>>`` examples are for the API reference).
API_MARKUP = re.compile(
    r'class="[^"]*\b(doc-signature|doc-label|doc-heading|doc-object|doc-symbol'
    r"|language-python|language-py|language-pycon)\b"
)


def plain(markdown: str) -> str:
    """Text with links, emphasis marks and all whitespace removed, for comparisons."""
    text = re.sub(r"\[([^\]]*)\](\[[^\]]*\]|\([^)]*\))", r"\1", markdown)
    return "".join(re.sub(r"[*`]", "", html_lib.unescape(text)).split())


def test_rules_pages_read_as_a_rules_reference(built_site: Path) -> None:
    """No page under Rules shows a signature, an API label or a code listing, nor sends
    its reader into the API reference (issue 45: the API pages link to the rules, not
    the other way round); each rules module's page shows its rule text."""
    pages = sorted((built_site / "rules").rglob("index.html"))
    assert len(pages) > 40
    for html_file in pages:
        html = html_file.read_text(encoding="utf-8")
        article = html.split("<article", 1)[1].split("</article>", 1)[0]
        found = API_MARKUP.search(article)
        name = html_file.relative_to(built_site)
        assert found is None, f"{name}: {found.group(0) if found else ''}"
        text = visible_text(article)
        assert ">>>" not in text, f"{name}: a Python example"
        for label in ("module-attribute", "instance-attribute", "class-attribute", "dataclass"):
            assert label not in text, f"{name}: {label}"
        assert not re.search(r"\w\([^()]*\)\s*->\s*\w", text), f"{name}: a signature"
    for ruleset in rulesets.all_rulesets():
        for dotted in rules_modules_of(ruleset):
            html = page(built_site, rules_page_path(ruleset, dotted))
            body = html.split("<article", 1)[1].split("</article>", 1)[0]
            assert not re.search(r'href="(\.\./)+api/', body), dotted
            first = (importlib.import_module(dotted).__doc__ or "").strip().splitlines()[0]
            assert plain(first) in plain(visible_text(html)), dotted


def test_cairn_combat_page_shows_rules_not_code(built_site: Path) -> None:
    text = visible_text(page(built_site, "rules/cairn_srd/combat"))
    assert "Gambits" in text
    assert "can_gambit" not in text and "GAMBITS" not in text


ROLE = re.compile(r":(mod|class|meth|func|data|attr|exc|obj):`?")


def test_no_page_shows_a_raw_rest_role(built_site: Path) -> None:
    """Cross-references render as links: no ``:class:`X``` left as text on any page, and
    no autorefs link left unresolved (``[X][companion.x.X]`` as text)."""
    pages = sorted(built_site.rglob("*.html"))
    assert len(pages) > 40
    raw: list[str] = []
    for html_file in pages:
        text = visible_text(html_file.read_text(encoding="utf-8"))
        name = str(html_file.relative_to(built_site))
        raw += [f"{name}: {m.group(0)}" for m in ROLE.finditer(text)]
        raw += [f"{name}: {m}" for m in re.findall(r"\]\[companion\.[\w.]*\]", text)]
    assert raw == []


def test_no_docstring_uses_a_rest_role() -> None:
    """Cross-references in the package are written for mkdocstrings
    (``[Name][companion.x.Name]``), also in modules the site does not render."""
    root = Path(__file__).resolve().parents[2] / "companion"
    found = [
        f"{path.relative_to(root.parent)}:{number}: {match.group(0)}"
        for path in sorted(root.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in re.finditer(r":(mod|class|meth|func|data|attr|exc|obj):`[^`]*`", line)
    ]
    assert found == []


def test_cross_references_are_links(built_site: Path) -> None:
    """A role converted in the docstrings is a link to the object's API entry."""
    html = page(built_site, "api/companion/checks")
    link = r'<a class="autorefs[^"]*"[^>]*href="#companion\.checks\.Check\.contest"'
    assert re.search(link, html)
    rules = page(built_site, "api/companion/dice")
    link = r'<a class="autorefs[^"]*"[^>]*href="roller/#companion\.dice\.roller\.roll"'
    assert re.search(link, rules), (
        "companion.dice's overview links roll() to its entry"
    )


def test_every_notation_construct_has_a_cell_with_odds(built_site: Path) -> None:
    html = page(built_site, "dice-notation")
    assert "roller-error" not in html
    for name, _, example, _ in NOTATION:
        cell = re.search(
            rf'<div class="roller" id="[^"]+" data-expr="{re.escape(example)}">(.*?)roller-live',
            html_lib.unescape(html),
            re.DOTALL,
        )
        assert cell, f"no roller cell for {name} ({example})"
        # What the cell shows follows from the engine: a chart when the exact odds can be
        # computed (and a note exactly when explosions were cut short), else the note why not.
        from companion import dice
        from companion.errors import OddsTooCostlyError

        try:
            dist = dice.odds(example)
        except OddsTooCostlyError:
            assert "too costly" in cell.group(1) and "<svg" not in cell.group(1), name
            continue
        assert "<svg" in cell.group(1), name
        assert ("roller-note" in cell.group(1)) == bool(dist.truncated), name


def test_refused_inputs_show_the_engines_message(built_site: Path) -> None:
    from companion import dice
    from companion.errors import CompanionError

    text = visible_text(page(built_site, "dice-notation"))
    for expr, _ in REFUSED:
        try:
            dice.roll(expr, seed=0)
        except CompanionError as exc:
            assert " ".join(str(exc).split()) in text, expr
        else:
            raise AssertionError(f"{expr!r} is listed as refused but rolls")


def test_printed_odds_of_3d6_match_brute_force(built_site: Path) -> None:
    html = page(built_site, "dice-notation")
    cell = html.split('data-expr="3d6"', 1)[1].split("</table>", 1)[0]
    # The cells may carry their column's heading (a phone reads a wide table as cards).
    rows = re.findall(r"<tr><td[^>]*>(-?\d+)</td><td[^>]*>([\d/]+)</td>", cell)
    shown = {int(v): Fraction(p) for v, p in rows}
    counts = Counter(sum(r) for r in itertools.product(range(1, 7), repeat=3))
    assert shown == {v: Fraction(n, 216) for v, n in counts.items()}


class _Refs(HTMLParser):
    """Collects what script, link, img and iframe tags would load."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        wanted = {"script": "src", "link": "href", "img": "src", "iframe": "src", "source": "src"}
        if tag in wanted:
            self.refs += [v for k, v in attrs if k == wanted[tag] and v]


def test_no_page_loads_anything_from_another_host(built_site: Path) -> None:
    pages = list(built_site.rglob("*.html"))
    assert len(pages) > 5
    offending = []
    for html_file in pages:
        parser = _Refs()
        parser.feed(html_file.read_text(encoding="utf-8"))
        offending += [
            f"{html_file.relative_to(built_site)}: {ref}"
            for ref in parser.refs
            if re.match(r"(https?:)?//", ref)
        ]
    assert offending == []


def test_stylesheets_import_nothing_remote(built_site: Path) -> None:
    for css in built_site.rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        assert not re.search(r"(@import|url\()\s*['\"]?(https?:)?//", text), css


def test_offline_assets_are_in_the_site(built_site: Path) -> None:
    for name in PYODIDE_FILES:
        assert (built_site / "assets" / "pyodide" / name).stat().st_size > 0, name
    assert (built_site / "assets" / "wheels" / "companion-core.zip").stat().st_size > 0
    assert (built_site / "javascripts" / "roller.mjs").exists()


def test_roller_cells_read_without_javascript(built_site: Path) -> None:
    html = page(built_site, "")
    assert '<div class="roller-live" hidden>' in html
    assert "<svg" in html and "Exact odds of" in html
