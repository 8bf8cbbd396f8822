"""The built site in Chromium at 390 px: one visit per page does every page-level check
(issue 27; before, one sweep per check loaded the site three times over).

Each visit checks that the page does not scroll sideways, throws no error (the ``in_browser``
fixture) and, on the pages sampled below, that axe-core finds no serious or critical WCAG 2.1
A/AA violation in the light theme; one page of each kind is checked again with the device
asking for dark (the site follows it: Material's slate scheme with our fixes in
``docs/stylesheets/access.css``). axe-core comes from its npm package (``tests/browser/axe.py``).

What is sampled, and why it still guards what it did:

- **Width**: every page outside the API reference, and every 6th API page (one mkdocstrings
  template whose code blocks scroll inside themselves). Content decides width, so every rules
  page is visited.
- **axe**: every page outside ``rules/`` and ``api/``; per ruleset its index, its
  Interpretations page, one table page (all table pages come from one generator) and every 4th
  of its other pages; every 20th API page (one mkdocstrings layout). The site's frame
  (header, navigation, footer) is checked whole on the first page of each section and left
  out on its later pages, where it is the same template. What axe checks that HTML alone
  shows (names, ids, labels) is checked on *every* page without a browser by
  ``test_site_html.py``; contrast and layout come from the templates and stylesheets, which
  the sample covers.
- **The engine**: the pages are read as a visitor first sees them, with the roller cells
  waiting for the dice engine (Pyodide's module is answered with a loader that never
  finishes), because booting Pyodide on each of 200 pages cost most of the old sweeps' time.
  The page with a live engine is checked by axe in ``test_site_browser.py`` after a roll.
- **The search**: its index (``search/search_index.json``, 2.9 MB) is answered empty (the
  ``in_browser`` fixture's default). Each page's search worker read and indexed the whole
  of it while the page was checked: 44% of a section's CPU time (rules/miasma: 19.1 s,
  10.7 s with the empty index), for nothing these checks read: until a visitor types, the
  search shows the same (the header's markup is the same with either index, compared
  once) and nothing of it scrolls sideways. The search itself is tested with its real
  index in ``test_site_browser.py`` and ``test_issue45_browser.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.axe import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]

RULESETS = sorted(p.name for p in (Path(__file__).resolve().parents[2] / "companion" /
                                   "rulesets").iterdir() if (p / "__init__.py").exists())
SECTIONS = ["intro", *(f"rules/{name}" for name in RULESETS), "api"]

#: One page of each kind, checked again in the dark: home, notation, a rules page, a table
#: page, an API page.
DARK_SAMPLE = {"index.html", "dice-notation/index.html", "rules/cairn_srd/magic-dice/index.html",
               "rules/miasma/tables/earthmote_biome/index.html",
               "api/companion/rulesets/monsters_and_magic/index.html"}
API_WIDTH_STRIDE = 6
API_AXE_STRIDE = 20
#: The site's frame, the same on every page of the template (header, navigation, footer):
#: checked whole on the first page a section visits, left out on its later pages, where it
#: was 60% of axe's time on a rules page.
FRAME = (".md-header", ".md-sidebar--primary", ".md-footer")
RULES_AXE_STRIDE = 4

#: The engine never arrives: the roller cells stay as a reader first sees them.
NEVER_LOADING_PYODIDE = "export function loadPyodide() { return new Promise(() => {}); }"


def section_pages(site: Path, section: str) -> list[tuple[str, bool]]:
    """``(page, check with axe)`` for every page the section's visit covers."""
    if section == "intro":
        rels = sorted(str(p.relative_to(site)) for p in site.rglob("*.html")
                      if p.relative_to(site).parts[0] not in ("rules", "api", "apps", "assets"))
        return [(rel, True) for rel in [*rels, "rules/index.html"]]
    found = sorted(str(p.relative_to(site)) for p in (site / section).rglob("*.html"))
    if section == "api":
        return [(rel, i % API_AXE_STRIDE == 0) for i, rel in enumerate(found)
                if i % API_WIDTH_STRIDE == 0 or rel in DARK_SAMPLE]
    tables = [rel for rel in found if "/tables/" in rel]
    others = [rel for rel in found if rel not in tables]
    axe = {f"{section}/index.html", f"{section}/interpretations/index.html", *tables[:1],
           *others[::RULES_AXE_STRIDE]}
    return [(rel, rel in axe or rel in DARK_SAMPLE) for rel in found]


def test_the_sample_covers_each_kind_of_page(built_site: Path) -> None:
    visited = {rel: axe for section in SECTIONS for rel, axe in section_pages(built_site, section)}
    every = [str(p.relative_to(built_site)) for p in built_site.rglob("*.html")
             if p.relative_to(built_site).parts[0] not in ("apps", "assets")]
    rules = [rel for rel in every if rel.startswith("rules/")]
    assert set(rules) <= set(visited), "every rules page is visited"
    for name in RULESETS:
        checked = [rel for rel, axe in visited.items() if axe and rel.startswith(f"rules/{name}/")]
        assert any("/tables/" in rel for rel in checked) or name == "plot_points", name
        assert f"rules/{name}/interpretations/index.html" in checked, name
    api = [rel for rel in every if rel.startswith("api/")]
    assert len([rel for rel in visited if rel.startswith("api/")]) >= len(api) // API_WIDTH_STRIDE
    assert set(every) - set(api) <= set(visited), "every page outside the API is visited"


@pytest.mark.parametrize("section", SECTIONS)
def test_each_page_fits_a_phone_and_passes_axe(section: str, built_site: Path, in_browser: Any,
                                               site_url: str) -> None:
    pages = section_pages(built_site, section)
    assert pages, section

    def body(page: Any) -> dict[str, list[str]]:
        page.route("**/assets/pyodide/pyodide.mjs", lambda route: route.fulfill(
            status=200, content_type="text/javascript", body=NEVER_LOADING_PYODIDE))
        problems: dict[str, list[str]] = {}
        frame_checked = False
        for rel, with_axe in pages:
            page.goto(site_url + rel, wait_until="load")
            found = []
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 391:
                found.append(f"scrolls sideways: {width} px wide at 390")
            if with_axe:
                found += serious_violations(page, () if not frame_checked else FRAME)
                frame_checked = True
            if found:
                problems[rel] = found
        return problems

    assert in_browser(body) == {}


def test_one_page_of_each_kind_passes_axe_in_the_dark(built_site: Path, in_browser: Any,
                                                      site_url: str) -> None:
    assert all((built_site / rel).exists() for rel in DARK_SAMPLE)

    def body(page: Any) -> dict[str, list[str]]:
        page.route("**/assets/pyodide/pyodide.mjs", lambda route: route.fulfill(
            status=200, content_type="text/javascript", body=NEVER_LOADING_PYODIDE))
        problems = {}
        for rel in sorted(DARK_SAMPLE):
            page.goto(site_url + rel, wait_until="load")
            scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
            found = [] if scheme == "slate" else [f"shown in {scheme!r}, not the dark scheme"]
            found += serious_violations(page)
            if found:
                problems[rel] = found
        return problems

    assert in_browser(body, color_scheme="dark") == {}


def test_the_theme_follows_the_device_as_it_changes(in_browser: Any, site_url: str) -> None:
    """Issue 31: the site kept the theme of the first visit when the phone switched (the
    palette stored it); in the automatic palette it follows the device, then and later."""
    from playwright.sync_api import expect

    def body(page: Any) -> None:
        scheme = page.locator("body")
        page.goto(site_url, wait_until="load")
        expect(scheme).to_have_attribute("data-md-color-scheme", "default")
        page.emulate_media(color_scheme="dark")  # the phone switches, the page stays open
        expect(scheme).to_have_attribute("data-md-color-scheme", "slate")
        page.goto(site_url + "dice-notation/", wait_until="load")  # and the next page
        expect(scheme).to_have_attribute("data-md-color-scheme", "slate")
        page.emulate_media(color_scheme="light")
        page.reload(wait_until="load")
        expect(scheme).to_have_attribute("data-md-color-scheme", "default")

    in_browser(body, color_scheme="light")
