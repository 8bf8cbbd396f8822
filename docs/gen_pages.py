"""Generate the reference site's pages from the package itself (run by mkdocs-gen-files).

Everything but the hand-written intro is written here at build time, so a ruleset, table
or module added later gets its pages with no hand-written copy:

- ``dice-notation.md``: every construct of the dice notation with an example whose exact
  odds the ``roller`` fence computes during the build;
- ``rules/<name>/``: per ruleset, a rules reference for players and referees: one page per
  rules module with its docstring as prose (no signatures, labels or code; its ``>>>``
  examples are left to the API reference), one page per random table
  (``Table.to_markdown()``, exact odds, a roll button), every page of its
  ``reference_pages()`` and its Interpretations page;
- ``api/``: the API reference, mirroring the package tree (every public module, the rules
  modules included; each links to its rules page and back);
- ``SUMMARY.md``: the navigation, read by mkdocs-literate-nav.

Rulesets and tables that do not exist yet are simply absent; a ruleset or table that exists
but is broken fails the build.
"""

from __future__ import annotations

import html
import importlib
import importlib.util
import logging
import posixpath
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
    first_heading,
    interpretations,
    module_docstring,
    module_source,
    reader_text,
    submodules,
    title_of,
    without_examples,
)
from source_info import readings as marked_readings  # noqa: E402

PACKAGE = ROOT / "companion"

log = logging.getLogger("mkdocs.plugins.gen_pages")
nav = mkdocs_gen_files.Nav()


#: The search's weight of a page by where it is (issue 45): a rules term ("morale",
#: "initiative") should find the rule that defines it before the signatures of the code
#: that applies it (Material's search reads ``search.boost`` from a page's front matter).
#: lunr folds the boost into the term frequency, which BM25 saturates: a mild ratio (3 to
#: 0.3) left a signature-heavy API page first, so the API weight is small enough to stay
#: in the linear part of the curve.
SEARCH_BOOST = {"rules/": 10, "api/": 0.05}


def write(path: str, text: str) -> None:
    boost = next((b for prefix, b in SEARCH_BOOST.items() if path.startswith(prefix)), None)
    if boost is not None and path.endswith(".md"):
        text = f"---\nsearch:\n  boost: {boost}\n---\n\n{text}"
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


def table_page(table: Any, page: str) -> str:
    body: str = table.to_markdown()

    def nested(match: re.Match[str]) -> str:
        # A roll on another table, by that table's title (``{table:id}`` is the program's
        # notation; Markdown would also read it as an attribute list and drop it).
        found = TABLE_PAGES.get(match.group(1))
        if found is None:
            return match.group(0)
        return f"(roll on [{found[0]}]({posixpath.relpath(found[1], posixpath.dirname(page))}))"

    body = re.sub(r"\{table:(\w+)\}", nested, body)
    # The reader's facts: the die and where in the source the table is (its id is the
    # program's word: it names the page's address and the roll button, not the text).
    facts = [f"Roll `{table.die}`"]
    if getattr(table, "section", None):
        facts.insert(0, f"Source section: {table.section}")
    live = f"```table-roll\n{table.id}\n```\n"
    return f"# {table.title or table.id}\n\n" + " · ".join(facts) + "\n\n" + body + "\n\n" + live


def documented(qualname: str, module: str) -> bool:
    """Whether the API reference has an entry for ``qualname`` (defined in ``module``):
    public names, reachable by attribute from the module (not a nested function)."""
    rest = qualname.removeprefix(module + ".").split(".")
    if any(part.startswith("_") for part in rest):
        return False
    obj: Any = importlib.import_module(module)
    for part in rest:
        obj = getattr(obj, part, None)
        if obj is None:
            return False
    return True


def table_readings(tables: list[Any]) -> list[str]:
    """The readings marked ``Interpretation:`` in the tables' notes (a die the seed does
    not name, say), each linked to its table's page (relative to ``rules/<name>/``)."""
    items = []
    for table in sorted(tables, key=lambda t: str(t.id)):
        for text in marked_readings(str(getattr(table, "notes", "") or "")):
            title = table.title or table.id
            items.append(as_list_item(f"[{title}](tables/{table.id}.md): ", text))
    return items


def interpretations_page(ruleset: Ruleset, pages: dict[str, str],
                         tables: list[Any] | None = None) -> str | None:
    """Every reading the code chose where the seed is unclear, under the title of the rule
    it reads (its rules page), the tables' readings under *Tables* (each item names its
    table). ``pages`` maps a module's dotted name to its page, relative to
    ``rules/<name>/``; ``tables``: the ruleset's tables, whose notes' readings are listed
    too. A reading of a class or function is listed with its module's: the reader looks
    for the rule, not the code that applies it."""
    sections: list[str] = []
    for dotted, page in pages.items():
        parts = dotted.split(".")[3:]
        base = ruleset.path.joinpath(*parts)
        source = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        here = f"rules/{ruleset.name}/interpretations.md"
        found = [reader_text(text, here, RULES_PAGES, RULES_TITLES, TABLE_PAGES, value_of)
                 for _, text in interpretations(source, dotted)]
        if found:
            title = ruleset.title if dotted == ruleset.module_name else title_of(parts[-1])
            sections += ["", f"## [{title}]({page})", "", *(as_list_item("", t) for t in found)]
    items = table_readings(tables or [])
    if items:
        sections += ["", "## Tables", "", *items]
    if not sections:
        return None
    head = [
        "# Interpretations",
        "",
        f"Where *{ruleset.title}* is cut off or ambiguous, the companion reads it as below,",
        "rule by rule; each rule's page says the same in its place.",
    ]
    return "\n".join(head + sections)


def ruleset_tables(ruleset: Ruleset) -> list[Any]:
    """The ruleset's tables; none while ``companion.tables`` does not exist yet."""
    if importlib.util.find_spec("companion.tables") is None:
        return []
    from companion import tables

    if not hasattr(tables, "all_tables"):  # half-written package: say so, don't crash
        log.warning("gen_pages: companion.tables has no all_tables(); tables left out")
        return []
    return ruleset.tables()


def add_nav(key: tuple[str, ...], page: str) -> None:
    """A navigation entry; two pages under one title would hide one of them."""
    if key in NAV_KEYS and NAV_KEYS[key] != page:
        log.warning("gen_pages: %s and %s both want the title %r", NAV_KEYS[key], page, key)
    NAV_KEYS[key] = page
    nav[key] = page


NAV_KEYS: dict[tuple[str, ...], str] = {}
#: Every rules page's title by its module's dotted name (links between rules pages are
#: titled by the page they lead to).
RULES_TITLES: dict[str, str] = {}
#: Every rules page by its module's dotted name.
RULES_PAGES: dict[str, str] = {}
#: Every random table's title and page by its id (a rule naming a table by its id links
#: to it under its title).
TABLE_PAGES: dict[str, tuple[str, str]] = {}


def ruleset_layout(ruleset: Ruleset) -> dict[str, str]:
    """The rules pages of a ruleset's modules: dotted name -> site path of the page."""
    base = f"rules/{ruleset.name}"
    pages = {ruleset.module_name: f"{base}/index.md"}
    for dotted in submodules(ruleset.path, ruleset.module_name):
        rel = dotted.split(".")[3:]
        if rel[0] not in NOT_RULES:
            pages[dotted] = f"{base}/{'/'.join(rel)}.md"
    return pages


def value_of(dotted: str) -> str | None:
    """A constant's value as a rule states it (a number or a word), when it is one."""
    module, _, name = dotted.rpartition(".")
    try:
        value = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError):
        return None
    return str(value) if isinstance(value, int | str) and len(str(value)) < 20 else None


def api_page_of(dotted: str) -> str:
    parts = dotted.split(".")
    is_package = PACKAGE.parent.joinpath(*parts).is_dir()
    return f"api/{'/'.join(parts)}{'/index' if is_package else ''}.md"


def rules_page(title: str, dotted: str, page: str, rules_pages: dict[str, str],
               intro: str = "", outro: str = "") -> str:
    """A rules page: the module's docstring as rule text (no signatures, no code, no
    names of code: ``source_info.reader_text``), its links to other rules pages made local
    and titled by them. The API reference links here; the rules page does not send a
    reader into the code (issue 45)."""
    doc = without_examples(module_docstring(module_source(PACKAGE, dotted)))
    text = reader_text(doc, page, rules_pages, RULES_TITLES, TABLE_PAGES, value_of)
    lines = [f"# {title}", ""]
    if intro:
        lines += [intro, ""]
    lines += [text, ""]
    if outro:
        lines += [outro, ""]
    return "\n".join(lines)


def ruleset_pages(ruleset: Ruleset, rules_pages: dict[str, str]) -> None:
    """Write the ruleset's pages (``rules_pages``: every rules module's page)."""
    base = f"rules/{ruleset.name}"
    section = ("Rules", ruleset.title)
    tables = ruleset_tables(ruleset)
    reference = ruleset.reference_module()
    extra: dict[str, str] = reference.reference_pages() if reference is not None else {}
    layout = ruleset_layout(ruleset)

    add_nav(section, layout[ruleset.module_name])
    contents: dict[str, list[str]] = {"Rules": [], "Tables and odds": [], "Readings": []}
    for dotted, page in layout.items():
        if dotted == ruleset.module_name:
            continue
        rel = dotted.split(".")[3:]
        write(page, rules_page(title_of(rel[-1]), dotted, page, rules_pages))
        add_nav((*section, *(title_of(p) for p in rel)), page)
        contents["Rules"].append(f"[{title_of(rel[-1])}]({'/'.join(rel)}.md)")

    if tables:
        listing = ["# Tables", "", f"The random tables of *{ruleset.title}*, with exact odds.", ""]
        titles: set[str] = set()
        for table in sorted(tables, key=lambda t: str(t.id)):
            page = f"{base}/tables/{table.id}.md"
            write(page, table_page(table, page))
            listing.append(f"- [{table.title}]({table.id}.md) (`{table.die}`)")
            title = table.title if table.title not in titles else f"{table.title} ({table.id})"
            titles.add(title)
            add_nav((*section, "Tables", title), page)
        write(f"{base}/tables/index.md", "\n".join(listing))
        add_nav((*section, "Tables"), f"{base}/tables/index.md")
        contents["Tables and odds"].append(f"[Random tables](tables/index.md) ({len(tables)})")

    relative = {dotted: page.removeprefix(base + "/") for dotted, page in layout.items()}
    readings = interpretations_page(ruleset, relative, tables)
    if readings is not None:
        write(f"{base}/interpretations.md", readings)
        add_nav((*section, "Interpretations"), f"{base}/interpretations.md")
        contents["Readings"].append("[Interpretations](interpretations.md)")

    for rel_path, markdown in sorted(extra.items()):
        name = rel_path if rel_path.endswith(".md") else rel_path + ".md"
        title = first_heading(markdown) or title_of(Path(name).stem)
        write(f"{base}/{name}", markdown)
        add_nav((*section, title), f"{base}/{name}")
        contents["Tables and odds"].append(f"[{title}]({name})")

    listing = ["## In this section", ""]
    for heading, links in contents.items():
        if links:
            listing.append(f"- **{heading}**: " + " · ".join(links))
    # The seed document's file name is the program's; the page's title names the rules.
    intro = ""
    if apps := static_app_links(ruleset.name, "../../"):
        # Near the top (they were at the very bottom, under the whole rules text).
        intro = (f'<p class="tc-ruleset-apps"><b>Apps</b> (in this browser, offline after '
                 f"one visit): {apps}</p>")
    index = layout[ruleset.module_name]
    write(index, rules_page(ruleset.title, ruleset.module_name, index, rules_pages,
                            intro=intro, outro="\n".join(listing)))


def rules_index(rulesets: list[Ruleset]) -> str:
    lines = [
        "# Rules",
        "",
        "The rule documents implemented by the package, in its own words: the rules, their",
        "random tables with exact odds, and where the source is cut off or unclear, the",
        "reading chosen (each ruleset's *Interpretations* page).",
        "",
    ]
    for r in rulesets:
        lines.append(f"- [{r.title}]({r.name}/index.md)")
    if not rulesets:
        lines.append("No ruleset is implemented yet.")
    return "\n".join(lines)


# --- API reference ------------------------------------------------------------------------


#: Modules whose class is composed of parts kept in a private package (not documented on
#: their own): its page shows the parts' members as the class's own, so a reference to
#: ``companion.store.campaign.Campaign.rolling`` finds it where a reader looks for it.
COMPOSED = ("companion.store.campaign",)


def api_pages(rules_pages: dict[str, str]) -> None:
    """One page per public module, mirroring the package tree; a module whose docstring is
    rule text also has a rules page (under Rules), and the two link to each other."""
    modules = ["companion", *submodules(PACKAGE, "companion")]
    for dotted in modules:
        parts = dotted.split(".")
        page = api_page_of(dotted)
        text = f"# `{dotted}`\n\n"
        if dotted in rules_pages:
            rules = posixpath.relpath(rules_pages[dotted], posixpath.dirname(page))
            text += f"Rule text for players and referees: [the rules page]({rules}).\n\n"
        text += f"::: {dotted}\n    options:\n      show_root_heading: false\n"
        if dotted in COMPOSED:
            text += "      inherited_members: true\n"
        if dotted == "companion.rulesets":
            text += "\n## The rulesets\n\nEach ruleset's rule text, tables and readings:\n\n"
            for ruleset_page in sorted(p for p in rules_pages.values() if p.count("/") == 2):
                target = posixpath.relpath(ruleset_page, posixpath.dirname(page))
                text += f"- [{ruleset_page.split('/')[1]}]({target})\n"
        write(page, text)
        add_nav(("API reference", *parts), page)


# --- the whole site -----------------------------------------------------------------------


def static_apps() -> list[tuple[str, str, str]]:
    """``(key, title, ruleset)`` of every app of ``widgets/`` (built into ``apps/<key>.html``
    by ``tools/build_static_apps.py``); none when the widgets are not installed."""
    try:
        from companion.widgets.table.apps import APPS
    except ImportError:
        return []
    return [(a.key, a.title, a.ruleset) for a in APPS]


def static_app_links(ruleset: str, root: str) -> str:
    """Links to a ruleset's static apps (raw HTML: the pages are not part of MkDocs)."""
    return " · ".join(f'<a class="tc-app-link" href="{root}apps/{key}.html">{title}</a>'
                      for key, title, of in static_apps() if of == ruleset)


def apps_page() -> str:
    from companion import rulesets

    lines = ["# Apps", "",
             "Every table app runs here, in this browser: no server, no account. After one "
             "visit the site and its apps keep working with no network (airplane mode "
             "included). Campaigns started here are kept in this browser; "
             '<a href="../apps/campaigns.html">Campaigns in this browser</a> exports one '
             "(the same file as `companion campaign export`) or imports one.", "",
             "Here a campaign is played on **one device**: whoever holds it is the GM and "
             "players take turns with it (hot seat). Seats for each player's phone, invite "
             "links and QR codes need the table server: the GM runs `companion app` "
             "([Seats](seats.md)).", "",
             '- <a class="tc-app-link" href="../apps/table.html">Table Companion</a>: who '
             "you are, which campaign, its party, and every app of its ruleset",
             '- <a class="tc-app-link" href="../apps/dice_tray.html">Dice tray</a>']
    by_ruleset: dict[str, list[str]] = {}
    for key, title, ruleset in static_apps():
        if not ruleset:
            continue  # the dice tray, above
        by_ruleset.setdefault(ruleset, []).append(
            f'<a class="tc-app-link" href="../apps/{key}.html">{title}</a>')
    for ruleset, links in sorted(by_ruleset.items()):
        # The ruleset by its name, linked to its rules (the id is the program's word).
        title = rulesets.get(ruleset).title
        lines.append(f"- **[{title}](rules/{ruleset}/index.md)**: " + " · ".join(links))
    return "\n".join(lines) + "\n"


def main() -> None:
    from companion import rulesets

    add_nav(("Home",), "index.md")
    write("dice-notation.md", dice_notation_page())
    add_nav(("Dice notation",), "dice-notation.md")
    add_nav(("Seats",), "seats.md")  # hand-written: who you are at a campaign's table
    add_nav(("Club server",), "club.md")  # hand-written: the table as a JupyterHub service
    add_nav(("Fair dice",), "fair-dice.md")  # hand-written: provably fair seeds, the verifier
    add_nav(("Table protocol",), "protocol.md")  # hand-written: the phones' websocket
    if static_apps():
        write("play.md", apps_page())
        add_nav(("Apps",), "play.md")

    available = rulesets.all_rulesets()
    write("rules/index.md", rules_index(available))
    add_nav(("Rules",), "rules/index.md")
    rules_pages: dict[str, str] = {}
    for ruleset in available:
        layout = ruleset_layout(ruleset)
        rules_pages.update(layout)
        RULES_PAGES.update(layout)
        for table in ruleset_tables(ruleset):
            TABLE_PAGES[str(table.id)] = (str(table.title or table.id),
                                          f"rules/{ruleset.name}/tables/{table.id}.md")
        for dotted in layout:
            RULES_TITLES[dotted] = (ruleset.title if dotted == ruleset.module_name
                                    else title_of(dotted.rsplit(".", 1)[1]))
    for ruleset in available:
        ruleset_pages(ruleset, rules_pages)

    api_pages(rules_pages)
    write("SUMMARY.md", "".join(nav.build_literate_nav()))


main()
