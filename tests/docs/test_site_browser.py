"""A real browser, no internet: the site's roller cells roll with the engine in Pyodide."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.axe import serious_violations

pytestmark = pytest.mark.browser

PYODIDE_TIMEOUT_MS = 90_000  # first load compiles a 9.6 MB wasm on a shared 2-core box


def test_roll_button_rolls_in_pyodide(in_browser: Any, site_url: str) -> None:
    from companion import dice

    def body(page: Any) -> None:
        page.goto(site_url + "dice-notation/")
        cell = page.locator('.roller[data-expr="3d6"]')
        button = cell.locator(".roller-roll")
        button.wait_for(state="visible", timeout=30_000)  # the script revealed it
        output = cell.locator(".roller-result")

        button.click()
        page.wait_for_selector(
            '.roller[data-expr="3d6"] .roller-result[data-n="1"]', timeout=PYODIDE_TIMEOUT_MS
        )
        assert "roller-failed" not in (output.get_attribute("class") or ""), output.inner_text()
        text = output.get_attribute("data-text")
        seed = int(output.get_attribute("data-seed"))
        # Pyodide's roll is CPython's roll: same engine, same random.Random, same seed.
        assert text == str(dice.roll("3d6", seed=seed))
        assert f"companion roll '3d6' --seed {seed}" in output.inner_text()
        assert output.locator(".die").count() == 3  # the engine's HTML, one box per die
        match = re.search(r"= (-?\d+)$", text.strip())
        assert match, text
        assert 3 <= int(match.group(1)) <= 18
        assert output.get_attribute("data-total") == match.group(1)

        button.click()  # the engine is loaded: the second roll is quick
        page.wait_for_selector(
            '.roller[data-expr="3d6"] .roller-result[data-n="2"]', timeout=10_000
        )
        # The page with a live engine and a result shown (the sweep in test_site_pages.py
        # reads pages before the engine arrives).
        assert serious_violations(page) == []

    in_browser(body)


def test_button_is_tall_enough_at_phone_width(in_browser: Any, site_url: str) -> None:
    def body(page: Any) -> None:
        page.goto(site_url)
        button = page.locator(".roller-roll").first
        button.wait_for(state="visible", timeout=30_000)
        box = button.bounding_box()
        assert box is not None and box["height"] >= 40
        assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1

    in_browser(body)


def test_table_page_rolls_on_its_table_in_pyodide(in_browser: Any, site_url: str) -> None:
    from companion import tables

    # A table without nested rolls, so its result holds one row's text as written.
    plain = [t for t in tables.all_tables() if not any("{" in r.text for r in t.rows)]
    assert plain, "no random table to try"
    table = plain[0]

    def body(page: Any) -> tuple[str, int]:
        page.goto(f"{site_url}rules/{table.ruleset}/tables/{table.id}/")
        page.locator(f'.roller[data-table="{table.id}"] .roller-roll').click(timeout=30_000)
        done = page.locator(f'.roller[data-table="{table.id}"] .roller-result[data-n="1"]')
        done.wait_for(timeout=PYODIDE_TIMEOUT_MS)
        assert "roller-failed" not in (done.get_attribute("class") or ""), done.inner_text()
        return done.get_attribute("data-text"), int(done.get_attribute("data-seed"))

    text, seed = in_browser(body)
    # One of the table's rows, exactly as CPython rolls it with the same seed.
    assert any(row.text in text for row in table.rows), text
    assert text == str(table.roll(seed=seed))


def test_odds_are_readable_with_javascript_off(in_browser: Any, site_url: str) -> None:
    def body(page: Any) -> None:
        page.goto(site_url + "dice-notation/")
        cell = page.locator('.roller[data-expr="2d20kh1"]')
        assert cell.locator("svg").is_visible()
        assert "mean 13.825" in cell.inner_text()
        assert not cell.locator(".roller-roll").is_visible()  # no button that cannot work
        cell.locator("summary").click()  # <details> opens without JavaScript
        assert cell.locator("table tr", has_text="39/400").first.is_visible()

    in_browser(body, java_script_enabled=False, viewport={"width": 1280, "height": 900})


def test_guard_reports_requests_to_other_hosts(in_browser: Any, site_url: str) -> None:
    # The offline check itself must be able to fail.
    def body(page: Any) -> None:
        page.goto(site_url)
        page.evaluate("fetch('http://203.0.113.9/beacon').catch(() => null)")
        page.wait_for_timeout(1_000)

    with pytest.raises(AssertionError, match=re.escape("203.0.113.9")):
        in_browser(body)


def test_search_works_offline(in_browser: Any, site_url: str) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    def body(page: Any) -> str:
        page.goto(site_url)
        page.wait_for_load_state("networkidle")
        box = page.locator(".md-search__input")
        # A result for the whole word: typed letter by letter, the list first shows the
        # results of "e", "ex"... and reading it at once read one of those (seen in CI).
        hit = page.locator(".md-search-result__item",
                           has_text=re.compile("xplod", re.IGNORECASE)).first
        # The search worker builds its index after the page loads; a query typed before it
        # is ready (likely on a loaded machine) is not re-run, so type it again.
        for _attempt in range(5):
            box.click()  # focused, the search overlay opens (its results are shown)
            box.fill("")
            box.type("explode")
            try:
                hit.wait_for(state="visible", timeout=10_000)
                break
            except PlaywrightTimeout:
                continue
        text: str = hit.inner_text()
        return text

    assert "xplod" in in_browser(body, search=True, viewport={"width": 1280, "height": 900})


def test_a_later_page_resumes_the_engine_from_its_snapshot(in_browser: Any, site_url: str) -> None:
    """After one page has loaded the engine, the browser keeps a snapshot of it; the next
    page resumes from it and its first roll, clicked at once, is the engine's true roll."""
    from companion import dice

    def body(page: Any) -> dict[str, Any]:
        # As a visitor's browser: automated ones make no snapshot (a fresh profile per page).
        page.context.add_init_script(
            "Object.defineProperty(Navigator.prototype, 'webdriver', {get: () => false})")
        page.goto(site_url + "dice-notation/")
        page.locator('.roller[data-expr="3d6"] .roller-roll').click()
        page.wait_for_selector('.roller[data-expr="3d6"] .roller-result[data-n="1"]',
                               timeout=PYODIDE_TIMEOUT_MS)
        first = page.evaluate("document.documentElement.dataset.rollerEngine")
        page.wait_for_function("document.documentElement.dataset.rollerSnapshot === 'kept'",
                               timeout=PYODIDE_TIMEOUT_MS)
        later = page.context.new_page()
        later.goto(site_url + "dice-notation/")
        cell = later.locator('.roller[data-expr="3d6"]')
        cell.locator(".roller-roll").click()
        later.wait_for_selector('.roller[data-expr="3d6"] .roller-result[data-n="1"]',
                                timeout=PYODIDE_TIMEOUT_MS)
        output = cell.locator(".roller-result")
        return {"first": first,
                "later": later.evaluate("document.documentElement.dataset.rollerEngine"),
                "text": output.get_attribute("data-text"),
                "seed": int(output.get_attribute("data-seed") or -1)}

    seen = in_browser(body, service_workers="block")
    assert seen["first"] == "booted"
    assert seen["later"] == "resumed"
    assert seen["text"] == str(dice.roll("3d6", seed=seen["seed"]))


SAVE_DATA = """Object.defineProperty(Navigator.prototype, 'connection',
  {get: () => ({saveData: true, effectiveType: '4g', addEventListener() {}})})"""


@pytest.mark.parametrize("saving", [False, True])
def test_the_engine_waits_for_a_tap_when_the_reader_saves_data(
        in_browser: Any, site_url: str, saving: bool) -> None:
    # The rollers' engine (about 7 MB) is fetched as soon as the browser is idle, so the
    # first roll answers at once; a reader whose browser saves data gets it on the tap.
    def body(page: Any) -> list[str]:
        engine: list[str] = []
        page.on("request", lambda r: engine.append(r.url) if "/pyodide/" in r.url else None)
        if saving:
            page.add_init_script(SAVE_DATA)
        page.goto(site_url + "dice-notation/")
        cell = page.locator('.roller[data-expr="3d6"]')
        cell.locator(".roller-roll").wait_for(state="visible", timeout=30_000)
        engine_asked = ("() => performance.getEntriesByType('resource')"
                        ".some(e => e.name.includes('/pyodide/'))")
        if saving:
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(1500)  # past the idle-time warm-up a reader not saving gets
            assert engine == [], engine
            cell.locator(".roller-roll").click()  # the tap asks for it (its boot is tested above)
        page.wait_for_function(engine_asked, timeout=PYODIDE_TIMEOUT_MS)
        return engine

    assert in_browser(body), "the engine never came"
