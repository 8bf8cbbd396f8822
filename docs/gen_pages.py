"""Generate the reference site's pages from the package itself (run by mkdocs-gen-files).

Everything but the hand-written intro is written here at build time, so a ruleset, table
or module added later gets its pages with no hand-written copy:

- ``dice-notation.md``: every construct of the dice notation with an example whose exact
  odds the ``roller`` fence computes during the build;
- ``rules/<name>/``: per ruleset, its rules text (package docstring via mkdocstrings), one
  page per submodule, one page per random table (``Table.to_markdown()``, exact odds) and
  every page of its ``reference_pages()``;
- ``api/``: the API reference, mirroring the package tree;
- ``SUMMARY.md``: the navigation, read by mkdocs-literate-nav.

Rulesets and tables that do not exist yet are simply absent; a ruleset or table that exists
but is broken fails the build.
"""

from __future__ import annotations

import html
import importlib.util
import json
import logging
import re
import sys
from pathlib import Path
from typing import Any

import mkdocs_gen_files

from companion.rulesets import Ruleset

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))
from notation import (  # noqa: E402  (tools/ is not a package on sys.path)
    NOTATION,
    REFUSED,
    limits_markdown,
)
from source_info import (  # noqa: E402
    NOT_RULES,
    as_list_item,
    defined_names,
    first_heading,
    interpretations,
    submodules,
    title_of,
)

PACKAGE = ROOT / "companion"

log = logging.getLogger("mkdocs.plugins.gen_pages")
nav = mkdocs_gen_files.Nav()


def write(path: str, text: str) -> None:
    with mkdocs_gen_files.open(path, "w") as f:
        f.write(text if text.endswith("\n") else text + "\n")


# --- dice notation ------------------------------------------------------------------------

def dice_notation_page() -> str:
    lines = [
        "# Dice notation",
        "",
        "Every place that takes dice (the command line, the apps, the random tables and the",
        "roller cells on this site) reads the same notation, parsed by `companion.dice`.",
        "Each construct below has an example; its odds are exact fractions computed by the",
        "engine while this page was built, and the **Roll** button rolls it in your browser",
        "with the same engine (running in Pyodide, loaded from this site).",
        "",
        "| Construct | Written | Example |",
        "|---|---|---|",
    ]
    for name, syntax, example, _ in NOTATION:
        anchor = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        lines.append(f"| [{name}](#{anchor}) | {syntax} | `{example}` |")
    for name, syntax, example, explanation in NOTATION:
        lines += ["", f"## {name}", "", f"{syntax}: {explanation}", "", "```roller", example, "```"]
    lines += [
        "",
        "## Mistakes and limits",
        "",
        "A mistake gets a one-line message saying what is wrong and at which column; an",
        "expression that would hang a game (too many dice or faces, too deep nesting, an",
        "explosion or reroll that could never stop) is refused the same way. The ceilings live",
        "in `companion.dice.limits`. The messages below are the engine's own, produced while",
        "this page was built.",
        "",
        "| Input | Why | The engine says |",
        "|---|---|---|",
    ]
    lines += [f"| `{expr}` | {why} | {refusal(expr)} |" for expr, why in REFUSED]
    lines += limits_markdown()
    readings = [
        as_list_item("", text)
        for source in sorted((PACKAGE / "dice").glob("*.py"))
        for _, text in interpretations(source, f"companion.dice.{source.stem}")
    ]
    if readings:
        lines += [
            "",
            "## How the engine reads the notation",
            "",
            "Where dice rollers disagree, `companion.dice` reads the notation this way (from",
            "its documentation, marked `Interpretation:` there):",
            "",
            *readings,
        ]
    return "\n".join(lines)


def refusal(expr: str) -> str:
    """The engine's message for an expression it must refuse (a build warning if it rolls)."""
    from companion import dice
    from companion.errors import CompanionError

    try:
        dice.roll(expr, seed=0)
    except CompanionError as exc:
        return html.escape(str(exc)).replace("|", "\\|")
    log.warning("gen_pages: %r was listed as refused but the engine rolls it", expr)
    return "(rolled without complaint)"


# --- rulesets -----------------------------------------------------------------------------


def table_page(table: Any) -> str:
    body: str = table.to_markdown()
    facts = [f"Roll `{table.die}`", f"table id `{table.id}`"]
    if getattr(table, "section", None):
        facts.insert(0, f"Seed section: {table.section}")
    live = f"```table-roll\n{table.id}\n```\n"
    return f"# {table.title or table.id}\n\n" + " · ".join(facts) + "\n\n" + body + "\n\n" + live


def interpretations_page(ruleset: Ruleset, pages: dict[str, str]) -> str | None:
    """Every reading the code chose where the seed is unclear, with where it lives.
    ``pages`` maps a module's dotted name to its page, relative to ``rules/<name>/``."""
    items = []
    for dotted, page in pages.items():
        parts = dotted.split(".")[3:]
        base = ruleset.path.joinpath(*parts)
        source = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        for qualname, text in interpretations(source, dotted):
            short = qualname.removeprefix(ruleset.module_name + ".") or ruleset.name
            items.append(as_list_item(f"[`{short}`]({page}): ", text))
    if not items:
        return None
    head = [
        "# Interpretations",
        "",
        f"Where *{ruleset.title}* is cut off or ambiguous, the code reads it as below; each",
        "reading is marked `Interpretation:` in the documentation of the code that follows it.",
        "",
    ]
    return "\n".join(head + items)


def ruleset_tables(ruleset: Ruleset) -> list[Any]:
    """The ruleset's tables; none while ``companion.tables`` does not exist yet."""
    if importlib.util.find_spec("companion.tables") is None:
        return []
    from companion import tables

    if not hasattr(tables, "all_tables"):  # half-written package: say so, don't crash
        log.warning("gen_pages: companion.tables has no all_tables(); tables left out")
        return []
    return ruleset.tables()


def ruleset_pages(ruleset: Ruleset) -> dict[str, str]:
    """Write the ruleset's pages; returns its modules' pages (dotted name -> page path)."""
    base = f"rules/{ruleset.name}"
    section = ("Rules", ruleset.title)
    modules = [
        m
        for m in submodules(ruleset.path, ruleset.module_name)
        if m.split(".")[3] not in NOT_RULES
    ]
    tables = ruleset_tables(ruleset)
    reference = ruleset.reference_module()
    extra: dict[str, str] = reference.reference_pages() if reference is not None else {}

    # The package docstring is the rules text; what it re-exports from its submodules is
    # shown on their pages, so here only what the package itself defines.
    own = defined_names(ruleset.path / "__init__.py")
    index = [
        f"# {ruleset.title}",
        "",
        f"Seed document: `{ruleset.seed}`.",
        "",
        f"::: {ruleset.module_name}",
        "    options:",
        "      show_root_heading: false",
        "      show_submodules: false",
        f"      members: {json.dumps(own) if own else 'false'}",
    ]
    write(f"{base}/index.md", "\n".join(index))
    nav[section] = f"{base}/index.md"

    module_pages = {ruleset.module_name: "index.md"}
    for dotted in modules:
        rel = dotted.split(".")[3:]
        module_pages[dotted] = f"{'/'.join(rel)}.md"
        write(f"{base}/{module_pages[dotted]}", f"# {title_of(rel[-1])}\n\n::: {dotted}\n")
        nav[(*section, *(title_of(p) for p in rel))] = f"{base}/{module_pages[dotted]}"

    if tables:
        listing = ["# Tables", "", f"The random tables of *{ruleset.title}*, with exact odds.", ""]
        titles: set[str] = set()
        for table in sorted(tables, key=lambda t: str(t.id)):
            page = f"{base}/tables/{table.id}.md"
            write(page, table_page(table))
            listing.append(f"- [{table.title}]({table.id}.md) (`{table.die}`)")
            title = table.title if table.title not in titles else f"{table.title} ({table.id})"
            titles.add(title)
            nav[(*section, "Tables", title)] = page
        write(f"{base}/tables/index.md", "\n".join(listing))
        nav[(*section, "Tables")] = f"{base}/tables/index.md"

    readings = interpretations_page(ruleset, module_pages)
    if readings is not None:
        write(f"{base}/interpretations.md", readings)
        nav[(*section, "Interpretations")] = f"{base}/interpretations.md"

    for rel_path, markdown in sorted(extra.items()):
        page = f"{base}/{rel_path if rel_path.endswith('.md') else rel_path + '.md'}"
        write(page, markdown)
        nav[(*section, first_heading(markdown) or title_of(Path(page).stem))] = page
    return {dotted: f"{base}/{page}" for dotted, page in module_pages.items()}


def rules_index(rulesets: list[Ruleset]) -> str:
    lines = ["# Rules", "", "The rule documents implemented by the package, in its own words.", ""]
    for r in rulesets:
        lines.append(f"- [{r.title}]({r.name}/index.md) — `{r.module_name}`")
    if not rulesets:
        lines.append("No ruleset is implemented yet.")
    return "\n".join(lines)


# --- API reference ------------------------------------------------------------------------


def api_pages(ruleset_modules: dict[str, str]) -> None:
    """One page per public module, mirroring the package tree. The rulesets' rules modules
    are documented under Rules (documenting them twice would give every object two homes);
    the ``companion.rulesets`` page links to each of them. Their plumbing (``cli``,
    ``reference``) is documented here."""
    modules = ["companion", *submodules(PACKAGE, "companion")]
    for dotted in modules:
        parts = dotted.split(".")
        if dotted in ruleset_modules:
            continue
        path = PACKAGE.parent.joinpath(*parts)
        is_package = path.is_dir()
        page = f"api/{'/'.join(parts)}{'/index' if is_package else ''}.md"
        text = f"# `{dotted}`\n\n::: {dotted}\n    options:\n      show_root_heading: false\n"
        if dotted == "companion.rulesets":
            text += "\n## The rulesets' modules\n\nDocumented with the rules they implement:\n\n"
            text += "".join(
                f"- [`{name}`](../../../{page})\n" for name, page in sorted(ruleset_modules.items())
            )
        write(page, text)
        nav[("API reference", *parts)] = page


# --- the whole site -----------------------------------------------------------------------


def main() -> None:
    from companion import rulesets

    nav["Home"] = "index.md"
    write("dice-notation.md", dice_notation_page())
    nav["Dice notation"] = "dice-notation.md"

    available = rulesets.all_rulesets()
    write("rules/index.md", rules_index(available))
    nav["Rules"] = "rules/index.md"
    ruleset_modules: dict[str, str] = {}
    for ruleset in available:
        ruleset_modules.update(ruleset_pages(ruleset))

    api_pages(ruleset_modules)
    write("SUMMARY.md", "".join(nav.build_literate_nav()))


main()
