"""The built site at 390 px, checked by axe-core (issue 22): every rules and intro page,
and every 6th page of the API reference (one template).

Zero serious or critical WCAG 2.1 A/AA violations on every page in the light theme, and on
one page of each kind with the device asking for dark (the site follows it: Material's
slate scheme with our contrast fixes in ``docs/stylesheets/access.css``). axe-core comes
from its npm package (``tests/browser/axe.py``), injected into each page: no CDN.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.axe import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.timeout(3600)]

# One page of each kind: home, notation, a rules page, a table page, an API page.
DARK_SAMPLE = ("index.html", "dice-notation/index.html", "rules/cairn_srd/magic-dice/index.html",
               "rules/miasma/tables/earthmote_biome/index.html",
               "api/companion/rulesets/monsters_and_magic/index.html")


def _pages(site: Path, under: str) -> list[str]:
    """The reference pages under ``under``; ``""`` is every page outside ``rules/`` and
    ``api/``. Not ``apps/``: the static apps are the same apps the Voila axe test checks
    (``tests/browser/test_axe_apps.py``); their pages are checked, with the apps running, by
    ``tests/static_apps/test_static_app_pages.py``."""
    rels = (p.relative_to(site) for p in (site / under).rglob("*.html"))
    return sorted(str(r) for r in rels
                  if r.parts[0] != "apps" and (under or r.parts[0] not in ("rules", "api")))


#: Pages checked in one browser context: the site's assets (Pyodide preloaded while a
#: page is read) come from the context's cache after the first page.
BATCH = 20


def _check(in_browser: Any, site_url: str, pages: list[str], scheme: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for start in range(0, len(pages), BATCH):
        def body(page: Any, batch: list[str] = pages[start:start + BATCH]) -> dict[str, list[str]]:
            out: dict[str, list[str]] = {}
            for rel in batch:
                page.goto(site_url + rel, wait_until="load")
                problems = serious_violations(page)
                if problems:
                    out[rel] = problems
            return out

        found.update(in_browser(body, color_scheme=scheme))
    return found


#: The API reference's ~170 pages come from one mkdocstrings template: every 6th page is
#: checked (a CI run has 90 minutes; all of them took ~15 of those). Rules and the other
#: pages are checked whole.
API_STRIDE = 6


@pytest.mark.parametrize("under", ["", "rules", "api"])
def test_every_site_page_passes_axe(under: str, built_site: Path, in_browser: Any,
                                    site_url: str) -> None:
    pages = _pages(built_site, under)
    assert pages, under
    if under == "api":
        pages = pages[::API_STRIDE]
    assert _check(in_browser, site_url, pages, "light") == {}


def test_site_pages_pass_axe_in_the_dark(built_site: Path, in_browser: Any,
                                         site_url: str) -> None:
    assert all((built_site / rel).exists() for rel in DARK_SAMPLE)
    assert _check(in_browser, site_url, list(DARK_SAMPLE), "dark") == {}
