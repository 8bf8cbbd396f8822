"""Issue 45: the reference reads like a published rules document on a phone (checked on
the built site's HTML; the browser checks are in ``test_issue45_browser.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from mkdocs_hooks import STACK_FROM_COLUMNS, labelled_tables
from source_info import reader_text


def reader_pages(site: Path) -> list[Path]:
    """Every page a reader reads (not the API reference, not the apps)."""
    return sorted(p for p in site.rglob("index.html")
                  if p.relative_to(site).parts[0] not in ("api", "assets", "apps"))


def article(html: str) -> str:
    return html.split("<article", 1)[1].split("</article>", 1)[0]


# --- 1. tables that fit a phone -----------------------------------------------------------


def test_a_wide_table_is_marked_to_stack_with_its_headings_on_its_cells() -> None:
    html = ("<table><thead><tr><th>Rank</th><th>Hand <em>name</em></th><th>Count</th>"
            '<th align="right">Chance</th></tr></thead><tbody><tr><td>1</td><td>Five</td>'
            '<td>1</td><td align="right">1%</td></tr></tbody></table>'
            "<table><thead><tr><th>d6</th><th>Result</th></tr></thead>"
            "<tbody><tr><td>1</td><td>A rat</td></tr></tbody></table>")
    out = labelled_tables(html)
    wide, narrow = out.split("</table>")[:2]
    assert wide.startswith('<table data-tc-stack="">')
    assert re.findall(r'data-label="([^"]*)"', wide) == ["Rank", "Hand name", "Count", "Chance"]
    assert '<td data-label="Chance" align="right">1%</td>' in wide
    # A narrow table fits as it is: labelled (harmless), not stacked.
    assert "data-tc-stack" not in narrow and 'data-label="Result"' in narrow


def test_every_wide_table_of_the_readers_pages_stacks(built_site: Path) -> None:
    """Each Markdown table of 4 columns or more on a reader's page is marked to be read row by
    row at phone width, each cell carrying its column's heading; the widest the issue
    names are among them."""
    stacked = 0
    for file in reader_pages(built_site):
        body = article(file.read_text(encoding="utf-8"))
        for table in re.findall(r"<table\b[^>]*>.*?</table>", body, re.S):
            if 'class="roller-odds"' in table or "<thead>" not in table:
                continue
            heads = re.findall(r"<th\b", table.split("</thead>")[0])
            if len(heads) < STACK_FROM_COLUMNS:
                continue
            name = file.relative_to(built_site)
            assert table.startswith("<table data-tc-stack"), name
            cells = re.findall(r"<td\b([^>]*)>", table)
            assert cells and all("data-label=" in c for c in cells), name
            stacked += 1
    assert stacked >= 30
    for path, heading in [("rules/miasma/dice-monarchs-hands", "Seed %"),
                          ("rules/monsters_and_magic/check-odds", "Critical Hit"),
                          ("rules/cairn_srd/magic-dice", "Doom (seed)")]:
        html = (built_site / path / "index.html").read_text(encoding="utf-8")
        assert "<table data-tc-stack" in html and f'data-label="{heading}' in html, path


# --- 2. rules pages in the table's words --------------------------------------------------

#: What only a programmer writes: a call, a keyword argument, a data or seed file, a dotted
#: or snake_case name, a CamelCase class, a CONSTANT_NAME (the issue's patterns and their
#: kin). Command lines a player types (``mm travel --reading literal``) are not among them.
IDENTIFIER = re.compile(
    r"\w+\.\w+\("                     # a call: Game.deal(
    r"|\b\w*_\w+="                    # a keyword argument: dmg_limits=
    r"|\w\.toml\b|\b\d{3}_[0-9a-f]{16}(?:\.txt)?\b"  # a data file, a seed file
    r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"          # snake_case: step_die
    r"|\b[A-Z][a-z]+(?:[A-Z][a-z0-9]+)+\b"         # CamelCase: FacingTracker
    r"|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b"          # CONSTANTS: WOUND_TIERS
    r"|\bcompanion\.\w|\b[a-z]+\.[A-Za-z_]+\.\w"   # module paths: adventurer.Adventurer.x
    r"|\b(?:rng|seed)=|\btable id\b"
)


def rules_words(html: str) -> str:
    """A rules page's article as a reader reads it: its text, code blocks (``<pre>``) and
    scripts left out; inline code kept (a name in backticks is still a name)."""
    body = article(html)
    body = re.sub(r"<(pre|script|style)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    import html as html_lib

    return " ".join(html_lib.unescape(body).split())


def identifiers_in(text: str) -> list[str]:
    return [text[max(0, m.start() - 30):m.end() + 20] for m in IDENTIFIER.finditer(text)]


def test_the_identifier_check_finds_what_the_issue_found() -> None:
    for found in ["hidden (DiceMonarchsGame.deal).", "the default, dmg_limits=True",
                  "mentality_tables.toml beside this module", "Seed document: "
                  "003_16f7e9f242662ce6.txt", "table id cairn_npc_disposition",
                  "adventurer.Adventurer.build_check: the seed",
                  "with rng an EnteredDice", "companion.dice.physical", "WOUND_TIERS"]:
        assert identifiers_in(found), found
    for fine in ["Roll 1d6 · 2d6+1 · d%", "mm travel --reading literal", "a PC's STR, DEX",
                 "e.g. a d20.", "Monsters & Magic, chapter 1", "Interpretation: the seed"]:
        assert not identifiers_in(fine), fine


def test_the_generator_puts_code_names_in_the_tables_words() -> None:
    pages = {"c.r": "rules/r/index.md", "c.r.ability_checks": "rules/r/ability_checks.md"}
    titles = {"c.r": "R", "c.r.ability_checks": "Ability checks"}
    doc = ("Dice are hidden (`Game.deal`). See [`ability_checks`][c.r.ability_checks]; a "
           "scar is [Sheet.suffer_scar][c.r.ability_checks.Sheet.suffer_scar], at most "
           "[MAX_MODIFIER][c.r.skills.MAX_MODIFIER], in ``sheet_due`` (see\n"
           "[EnteredDice][c.dice.EnteredDice]); table ``r_scars``.\n\n## In code\n\n"
           "`Game.deal` rolls.\n\n## Next\n\nMore.")
    out = reader_text(doc, "rules/r/sub/page.md", pages, titles,
                      {"r_scars": ("Scars", "rules/r/tables/r_scars.md")},
                      lambda name: "3" if name.endswith("MAX_MODIFIER") else None)
    assert out == ("Dice are hidden. See [Ability checks](../ability_checks.md); a scar is "
                   "[*suffer scar*](../ability_checks.md), at most 3, in *sheet due*; "
                   "table [Scars](../tables/r_scars.md).\n\n## Next\n\nMore.")
    assert not identifiers_in(re.sub(r"\]\([^)]*\)", "]", out))  # the words, not the links


def test_no_rules_page_names_code(built_site: Path) -> None:
    """Every page under Rules reads in the table's words: no call, keyword argument, data
    or seed file, code name or table id in its text outside code blocks, and no line
    sending the reader to the API reference."""
    pages = sorted((built_site / "rules").rglob("index.html"))
    assert len(pages) > 100
    found = {str(p.relative_to(built_site)): identifiers_in(rules_words(p.read_text("utf-8")))
             for p in pages}
    assert {page: hits for page, hits in found.items() if hits} == {}
    for p in pages:
        assert "For developers" not in rules_words(p.read_text("utf-8")), p


def test_readings_are_headed_by_the_rule_they_read(built_site: Path) -> None:
    """The Interpretations pages head their readings with the rules' titles (linked to
    their pages), never a module path: Monsters & Magic's sheet readings sit under
    *Adventurer*, a table's under *Tables*, named by the table's title."""
    html = (built_site / "rules/monsters_and_magic/interpretations/index.html").read_text("utf-8")
    heads = re.findall(r"<h2[^>]*>(.*?)</h2>", article(html), re.S)
    titles = [re.sub(r"<[^>]+>|&para;", "", h).strip() for h in heads]
    assert "Adventurer" in titles, titles
    assert all(not IDENTIFIER.search(t) for t in titles), titles
    assert 'href="../adventurer/"' in html
    cairn = (built_site / "rules/cairn_srd/interpretations/index.html").read_text("utf-8")
    assert "<h2" in cairn and ">Tables<" in cairn
    assert re.search(r'<a href="../tables/cairn_resource_threat/">[^<]+</a>: ', cairn)


# --- 3. search that finds rules first -----------------------------------------------------


@pytest.mark.parametrize(("term", "defined_on"), [
    ("morale", "rules/cairn_srd/combat/"), ("initiative", "rules/cairn_srd/combat/"),
    ("deprived", "rules/cairn_srd/character/")])
def test_search_ranks_the_rules_above_the_code(built_site: Path, term: str,
                                               defined_on: str) -> None:
    """The site's search index weighs every rules page above the API reference, and the
    term is found on the rules page that defines it (its heading or its rule text): lunr
    multiplies a document's score by its boost, so the rules page comes first."""
    docs = json.loads((built_site / "search/search_index.json").read_text("utf-8"))["docs"]
    hits = [d for d in docs if term in (d["title"] + " " + d["text"]).lower()]
    rules = [d for d in hits if d["location"].startswith("rules/")]
    api = [d for d in hits if d["location"].startswith("api/")]
    assert rules and api, term  # the term is in both: the ranking matters
    assert min(d.get("boost", 1) for d in rules) > 1 > max(d.get("boost", 1) for d in api)
    assert any(d["location"].startswith(defined_on) for d in rules), [d["location"] for d in rules]
    assert all(d.get("boost", 1) <= 1 for d in docs if not d["location"].startswith("rules/"))


# --- 4. what the site does alone ----------------------------------------------------------


def test_the_seats_and_apps_pages_say_what_needs_companion_app() -> None:
    """The Seats page says before its invites that seats need ``companion app`` and what
    the site's apps do alone; the Apps page says the same (issue 45: both promised invite
    links and QR codes the site cannot make)."""
    from tests.docs.test_issue46_interpretations import _generator_function

    root = Path(__file__).resolve().parents[2]
    seats = (root / "docs" / "seats.md").read_text(encoding="utf-8")
    first_invite = seats.index("**Inviting a player**")
    assert "`companion app`" in seats[:first_invite]
    alone = seats.split("## On the site alone", 1)[1].split("\n## ", 1)[0]
    for said in ("`companion app`", "hot seat", "export", "another phone"):
        assert said in alone, said
    apps_page = _generator_function("apps_page", {"static_apps": lambda: []})
    page = " ".join(apps_page().split())
    for said in ("one device", "hot seat", "`companion app`", "invite links"):
        assert said in page, said


def test_the_search_dialog_is_named() -> None:
    """Material's search dialog, as its installed template writes it, gets a name on
    every page (axe's aria-dialog-name); a page without it is left as it is."""
    import material
    from mkdocs_hooks import SEARCH_DIALOG_NAMED, named_search_dialog

    partial = (Path(material.__file__).parent / "templates" / "partials" /
               "search.html").read_text(encoding="utf-8")
    out = named_search_dialog(partial)
    assert SEARCH_DIALOG_NAMED in out and out.count('role="dialog"') == 1
    assert named_search_dialog("<p>no search</p>") == "<p>no search</p>"
