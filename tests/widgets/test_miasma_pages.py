"""The earthmotes and Miasma tracker apps' flows, in-process, on the pages their notebooks
build (the demos).

These were Chromium tests in tests/browser/test_miasma_apps.py: earthmotes generated with
their seeds, a region's, a refused removal and undo; a character's day in the Miasma (stress,
a day inside, restoration, leaving, resting without food and drink). The browser keeps one
phone journey per app (layout, tap targets, the round trip); every rule assertion is made
here on the same widgets. Unseeded, as there: each assertion is one every roll shares.
"""

from __future__ import annotations

import re

from tests.widgets.app_page import AppPage, tag, text_of


def test_earthmotes_generate_keep_and_undo() -> None:
    page = AppPage("earthmotes")
    listing = page.within("tc-earthmote-list")
    page.tap("generate")
    assert listing.has("tc-seats", data_count="1")
    page.tap("generate")
    assert listing.has("tc-seats", data_count="2")
    items = re.findall(r"<li\b.*?</li>", listing.html(), flags=re.S)
    assert len(items) == 2
    for part in ("earthmote", "2d12", "d6", "seed "):
        assert part in text_of(items[0])
    assert "seed " in page.within("tc-earthmote-roll").find_text("tc-outcome", data_n="2")
    page.tap("region-1")
    assert listing.has("tc-seats", data_count="3")
    page.fill("index", "7")
    page.button("remove").click()
    assert "7 is too high: enter a whole number from 1 to 3" in page.refusal("index")
    assert listing.html().count("<li") == 3  # nothing removed
    page.tap("undo")
    assert listing.has("tc-seats", data_count="2")


def test_miasma_tracker_over_a_day() -> None:
    page = AppPage("miasma_tracker")
    sheet = page.within("tc-miasma-sheet")
    page.fill("name", "Vel")
    page.tap("add")
    assert sheet.has("", data_name="Vel", data_level="0")
    page.fill("stress", "4")
    page.tap("stress")
    page.tap("enter")
    assert "inside the Miasma" in sheet.text()
    page.tap("time-24")
    card = re.search(tag("", data_name="Vel", data_level="2") + r"[^>]*>.*", sheet.html(),
                     flags=re.S)
    assert card and "speed is halved" in text_of(card.group(0))
    assert "poisoned" in text_of(card.group(0))
    page.tap("restoration")
    assert sheet.has("", data_name="Vel", data_level="1")
    assert page.button("enter").disabled  # already inside the Miasma
    page.tap("leave")
    assert page.button("leave").disabled
    page.tap("rest")
    assert any("without food and drink" in text_of(li)
               for li in re.findall(r"<li\b.*?</li>", page.find("tc-log"), flags=re.S))
