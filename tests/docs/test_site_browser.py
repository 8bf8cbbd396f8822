"""A real browser, no internet: the site's roller cells roll with the engine in Pyodide."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PYODIDE_TIMEOUT_MS = 90_000  # first load compiles a 9.6 MB wasm on a shared 2-core box


def test_roll_button_rolls_in_pyodide(site_page: Any, site_url: str) -> None:
    site_page.goto(site_url + "dice-notation/")
    cell = site_page.locator('.roller[data-expr="3d6"]')
    button = cell.locator(".roller-roll")
    button.wait_for(state="visible", timeout=30_000)  # the script revealed it
    output = cell.locator(".roller-result")

    button.click()
    site_page.wait_for_selector(
        '.roller[data-expr="3d6"] .roller-result[data-n="1"]', timeout=PYODIDE_TIMEOUT_MS
    )
    text = output.get_attribute("data-text") or output.inner_text()
    assert "roller-failed" not in (output.get_attribute("class") or ""), text
    assert text.startswith("3d6 = [")
    assert output.locator(".die").count() == 3  # the engine's HTML, one box per die
    match = re.search(r"= (-?\d+)$", text.strip())
    assert match, text
    assert 3 <= int(match.group(1)) <= 18
    assert output.get_attribute("data-total") == match.group(1)

    button.click()  # the engine is loaded: the second roll is quick
    site_page.wait_for_selector(
        '.roller[data-expr="3d6"] .roller-result[data-n="2"]', timeout=10_000
    )
    assert site_page.page_errors == []


def test_button_is_tall_enough_at_phone_width(site_page: Any, site_url: str) -> None:
    site_page.goto(site_url)
    button = site_page.locator(".roller-roll").first
    button.wait_for(state="visible", timeout=30_000)
    box = button.bounding_box()
    assert box is not None and box["height"] >= 40
    width = site_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1


def test_table_page_rolls_on_its_table_in_pyodide(site_page: Any, site_url: str) -> None:
    from companion import tables

    # A table without nested rolls, so its result text is exactly one row's text.
    plain = [t for t in tables.all_tables() if not any("{" in r.text for r in t.rows)]
    assert plain, "no random table to try"
    table = plain[0]
    site_page.goto(f"{site_url}rules/{table.ruleset}/tables/{table.id}/")
    button = site_page.locator(f'.roller[data-table="{table.id}"] .roller-roll')
    button.click(timeout=30_000)
    done = f'.roller[data-table="{table.id}"] .roller-result[data-n="1"]'
    site_page.wait_for_selector(done, timeout=PYODIDE_TIMEOUT_MS)
    text = site_page.locator(done).inner_text()
    assert "roller-failed" not in (site_page.locator(done).get_attribute("class") or ""), text
    # The result is one of the table's rows, as the engine reports it.
    assert text.startswith(table.title), text
    assert any(row.text in text for row in table.rows), text
    assert site_page.page_errors == []


def test_odds_are_readable_with_javascript_off(site_browser: Any, site_url: str) -> None:
    context = site_browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site_url + "dice-notation/")
        cell = page.locator('.roller[data-expr="2d20kh1"]')
        assert cell.locator("svg").is_visible()
        assert "mean 13.825" in cell.inner_text()
        assert not cell.locator(".roller-roll").is_visible()  # no button that cannot work
        cell.locator("summary").click()  # <details> opens without JavaScript
        assert cell.locator("table tr", has_text="39/400").first.is_visible()
    finally:
        context.close()
