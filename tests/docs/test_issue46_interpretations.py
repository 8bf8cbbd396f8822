"""Issue 46: the readings chosen silently before are marked ``Interpretation:`` where the
site's Interpretations pages collect them (the collector the site uses,
``tools.source_info``), the new rules' readings too, and the tables' notes that read a
die the seed does not name reach the Interpretations page (checked on the generator's own
function, without building the site)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from companion import tables
from tools.source_info import as_list_item, interpretations, readings

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "companion" / "rulesets"


def _readings(module: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for where, text in interpretations(RULESETS / f"{module}.py",
                                       "companion.rulesets." + module.replace("/", ".")):
        out[where] = (out.get(where, "") + " " + " ".join(text.split()).lower()).strip()
    return out


@pytest.mark.parametrize(("module", "where", "text"), [
    ("cairn_srd/lockpicking", "LockPicking.study", "the lock's dv (from its type) is shown but "
                                            "does not enter the study"),
    ("cairn_srd/spellcasting", "available_magic_dice",
     "extra magic dice from items raise the cap of 4 but are still capped by the free "
     "burden slots"),
    ("cairn_srd/combat", "", "a foe killed outright (its str taken to 0"),
    ("cairn_srd/exploration", "", "a lantern brought into the site arrives filled"),
    ("cairn_srd/character", "Character.take_up_boast",
     "the refused boast is made as any boast is"),
    ("cairn_srd/wilderness", "", "lets a vehicle take a road through any terrain"),
    ("cairn_srd/wilderness", "", "each carries 10 slots"),
    ("monsters_and_magic/adventurer", "defender_edge", "read as \"have a speed\""),
    ("monsters_and_magic/adventurer", "defender_edge", "a blinded defender sees no attacker"),
    ("monsters_and_magic/adventurer", "Adventurer.spend_ap",
     "standing up takes the move technique itself"),
    ("monsters_and_magic/adventurer", "Adventurer.six_seconds_pass",
     "a dodge still held when the fight is over ends here too"),
])
def test_the_issue_46_readings_reach_the_interpretations_page(module: str, where: str,
                                                             text: str) -> None:
    found = _readings(module)
    key = "companion.rulesets." + module.replace("/", ".") + (f".{where}" if where else "")
    if key not in found:  # the class of a method: look for it under any owner
        key = next((k for k in found if k.endswith("." + where)), key)
    assert key in found, sorted(found)
    assert text in found[key]


def _generator_function(name: str, namespace: dict[str, Any]) -> Any:
    """One function of docs/gen_pages.py, compiled alone (importing the file would run
    the whole site's generation)."""
    tree = ast.parse((ROOT / "docs" / "gen_pages.py").read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    module = ast.Module(body=[ast.ImportFrom(module="__future__",
                                             names=[ast.alias("annotations")], level=0),
                              node], type_ignores=[])
    exec(compile(ast.fix_missing_locations(module), "gen_pages.py", "exec"), namespace)
    return namespace[name]


@pytest.mark.parametrize(("table_id", "die"), [
    ("cairn_resource_threat", "d19"), ("cairn_rumour_kind", "d4"),
    ("cairn_foraged_component", "d12")])
def test_a_tables_read_die_is_an_interpretation_on_the_site(table_id: str, die: str) -> None:
    table = tables.get(table_id)
    marked = readings(table.notes)
    assert len(marked) == 1 and die in marked[0] and "no die" in marked[0]
    table_readings = _generator_function("table_readings", {
        "Any": Any, "marked_readings": readings, "as_list_item": as_list_item})
    items = table_readings(tables.all_tables())
    line = next(i for i in items if f"(tables/{table_id}.md)" in i)
    # Named by the table's title, as a reader knows it (issue 45), linked to its page.
    assert line.startswith(f"- [{table.title}](tables/{table_id}.md): ")
    assert die in line
    # The table's own page shows its notes, marker and all.
    assert "Interpretation:" in table.to_markdown()


def test_the_interpretations_page_is_given_the_tables() -> None:
    source = (ROOT / "docs" / "gen_pages.py").read_text(encoding="utf-8")
    assert "interpretations_page(ruleset, relative, tables)" in source
    assert "items = table_readings(tables or [])" in source


def _interpretations_markdown(name: str) -> str:
    """A ruleset's Interpretations page as the generator writes it (its own functions,
    compiled alone, given the collector and the reader text the site uses)."""
    from companion import rulesets
    from companion.rulesets import Ruleset
    from tools import source_info as si

    namespace: dict[str, Any] = {
        "Any": Any, "Ruleset": Ruleset, "marked_readings": si.readings,
        "as_list_item": si.as_list_item, "interpretations": si.interpretations,
        "reader_text": si.reader_text, "title_of": si.title_of, "submodules": si.submodules,
        "NOT_RULES": si.NOT_RULES, "RULES_PAGES": {}, "RULES_TITLES": {},
        "TABLE_PAGES": {}, "value_of": lambda dotted: None}
    _generator_function("table_readings", namespace)
    layout = _generator_function("ruleset_layout", namespace)
    page = _generator_function("interpretations_page", namespace)
    ruleset = next(r for r in rulesets.all_rulesets() if r.name == name)
    base = f"rules/{ruleset.name}/"
    relative = {dotted: p.removeprefix(base) for dotted, p in layout(ruleset).items()}
    markdown = page(ruleset, relative, ruleset.tables())
    assert markdown is not None
    return str(markdown)


def _sections(markdown: str) -> dict[str, str]:
    """The page's ``## `` sections by heading (its link text), each flattened, lower case."""
    out: dict[str, str] = {}
    for part in markdown.split("\n## ")[1:]:
        head, _, body = part.partition("\n")
        title = head.strip().removeprefix("[").partition("]")[0]
        out[title] = " ".join(body.split()).lower()
    return out


@pytest.mark.parametrize(("name", "heading", "text"), [
    ("cairn_srd", "Lockpicking", "the lock's dv (from its type) is shown but does not enter"),
    ("cairn_srd", "Spellcasting", "extra magic dice from items raise the cap of 4 but are "
                                  "still capped by the free burden slots"),
    ("cairn_srd", "Combat", "a foe killed outright (its str taken to 0"),
    ("cairn_srd", "Exploration", "a lantern brought into the site arrives filled"),
    ("cairn_srd", "Character", "the refused boast is made as any boast is"),
    ("cairn_srd", "Wilderness", "lets a vehicle take a road through any terrain"),
    ("cairn_srd", "Wilderness", "each carries 10 slots"),
    ("cairn_srd", "Tables", "threats to resources](tables/cairn_resource_threat.md): the "
                           "seed gives no die; read as a d19"),
    ("cairn_srd", "Tables", "read as a d4 to pick a kind"),
    ("cairn_srd", "Tables", "the twelve with no die; read as a d12"),
    ("monsters_and_magic", "Adventurer", "read as \"have a speed\""),
    ("monsters_and_magic", "Adventurer", "a blinded defender sees no attacker"),
    ("monsters_and_magic", "Adventurer", "standing up takes the move technique itself"),
    ("monsters_and_magic", "Adventurer", "a dodge still held when the fight is over ends"),
])
def test_the_generated_interpretations_page_lists_each_under_its_rule(
        name: str, heading: str, text: str) -> None:
    """Each issue 46 reading is on the page the site builds, under the title of the rule
    it reads (a table's under *Tables*), in the words a reader gets (no code names)."""
    sections = _sections(_interpretations_markdown(name))
    assert heading in sections, sorted(sections)
    assert text in sections[heading]
