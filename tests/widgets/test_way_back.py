"""A way back from every app (issue 31): the dice tray, the start app and the Campaigns
page linked nowhere, the other apps only to the start app. Now each app links to the apps
list and to its ruleset's rules: on a Voila server (no site beside it) the server's own
``rules.ipynb``, drawn from the same docstrings as the site; in the serverless apps the
site's pages (``../play/``, ``../rules/<ruleset>/``), written into each page at build time.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from companion.widgets.table import campaign_page
from companion.widgets.table.apps import APPS
from companion.widgets.table.binding import PageContext
from companion.widgets.table.site import rules_html, rules_page, way_back

ROOT = Path(__file__).resolve().parents[2]


def way_back_of(page: widgets.Widget) -> widgets.HTML:
    found = [w for w in page.children if "tc-way-back" in w._dom_classes]
    assert len(found) == 1
    return found[0]


def hrefs(text: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', text)


@pytest.mark.parametrize("key", ["cairn_character", "dice_monarchs", "spell_points"])
def test_every_app_page_links_the_apps_list_and_its_rules(key: str) -> None:
    app = next(a for a in APPS if a.key == key)
    links = way_back_of(campaign_page(key, PageContext())).value
    assert hrefs(links) == ["rules.ipynb", f"rules.ipynb?ruleset={app.ruleset}"]
    title = {"cairn_srd": "Cairn-derived SRD", "miasma": "Miasma: Earthmotes, Psychosis, "
             "Dice Monarchs", "variant5e": "5e Optional Rules"}[app.ruleset]
    assert f"Rules: {title}" in links and app.ruleset not in re.sub(r'href="[^"]*"', "", links)


def test_the_notebooks_without_campaign_page_show_the_way_back_first() -> None:
    for key in ("dice_tray", "table"):
        nb = json.loads((ROOT / "widgets" / f"{key}.ipynb").read_text())
        code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
        assert code[0].rstrip().endswith("way_back()"), key
    assert hrefs(way_back().value) == ["rules.ipynb", "rules.ipynb#rules"]


def test_in_the_serverless_apps_the_page_carries_the_links(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")
    box = way_back("cairn_srd")
    assert box.value == "" and box.layout.display == "none"


def test_the_voila_rules_page_is_the_sites_rules_text_with_the_apps() -> None:
    from companion.rulesets import cairn_srd

    text = rules_html("cairn_srd")
    assert "<h2>Cairn-derived SRD</h2>" in text
    first = cairn_srd.__doc__.split("\n\n")[1].split("\n")[0]  # a line of its rules text
    assert first.split("**")[0].strip() in text
    # Its apps, and its topics as links to their own rules here; no dotted names left.
    assert 'href="cairn_character.ipynb"' in text and 'href="duel.ipynb"' in text
    assert 'href="rules.ipynb?ruleset=cairn_srd&amp;topic=saves"' in text
    assert "][companion." not in text and "companion.rulesets" not in text
    topic = rules_html("cairn_srd", "saves")
    assert "saving throw" in topic.lower() and 'href="rules.ipynb?ruleset=cairn_srd"' in topic
    # Every ruleset listed by its name, with its apps: the server's apps list.
    index = rules_html()
    for title in ("Cairn-derived SRD", "Monsters &amp; Magic", "5e Optional Rules"):
        assert f"Rules: {title}" in index
    assert 'href="dice_tray.ipynb"' in index and 'href="table.ipynb"' in index


@pytest.mark.parametrize("ruleset,topic,said", [
    ("nope", "", "No ruleset called &#x27;nope&#x27; here"),  # the builder escapes quotes
    ("cairn_srd", "../os", "has no rules page called"),
    ("cairn_srd", "os", "has no rules page called"),
])
def test_unknown_rules_are_said_in_one_line(ruleset: str, topic: str, said: str) -> None:
    text = rules_html(ruleset, topic)
    assert said in text and "Traceback" not in text and "Rulesets and their apps" in text


def test_the_rules_notebook_reads_its_url() -> None:
    page = rules_page("ruleset=miasma&topic=dice_monarchs")
    body = [w for w in page.children if "tc-rules-page" in w._dom_classes]
    assert "Dice Monarchs" in body[0].value and "tc-error" not in body[0].value


def _build_tool() -> Any:
    spec = importlib.util.spec_from_file_location("build_static_apps",
                                                  ROOT / "tools" / "build_static_apps.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_serverless_page_links_back_into_the_site() -> None:
    tool = _build_tool()
    nav = tool.way_back("cairn_combat")
    assert hrefs(nav) == ["../play/", "../rules/cairn_srd/", "table.html"]
    assert "Rules: Cairn-derived SRD" in nav
    assert hrefs(tool.way_back("dice_tray")) == ["../play/", "../rules/", "table.html"]
    assert hrefs(tool.way_back("table")) == ["../play/", "../rules/", "campaigns.html"]
    assert hrefs(tool.way_back("campaigns")) == ["../play/", "../rules/"]
    page = tool.app_page("lockpicking", {"cells": []}, "Cairn lockpicking", "x")
    assert tool.way_back("lockpicking") in page  # above the app, there before it loads
    assert "rules" in tool.NOT_APPS  # the Voila server's page: the site has its own
