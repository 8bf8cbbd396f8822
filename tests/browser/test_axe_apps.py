"""Every app at 390 px, light and dark, checked by axe-core (issue 22).

For each app (``widgets/*.ipynb``): a way back on screen (the server's apps list and the
app's rules, issue 31); zero serious or critical WCAG 2.1 A/AA violations in
the light theme and again with the device asking for dark (the page template then loads
JupyterLab's dark variables); every control a thumb can reach at least 44 px tall; a
screenshot of each theme kept in ``test-artifacts/`` (``axe-<app>-light.png``,
``axe-<app>-dark.png``) for a person to look at.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import serious_violations

pytestmark = pytest.mark.timeout(300)

ROOT = Path(__file__).resolve().parents[2]
APPS = sorted(p.stem for p in (ROOT / "widgets").glob("*.ipynb"))

# Controls a thumb can reach: a checkbox's or radio's tap target is its whole label.
_SHORT_CONTROLS_JS = """() => {
  const picked = document.querySelectorAll(
    '.tc-app button, .tc-app select:not([multiple]):not([size]), .tc-app textarea, ' +
    '.tc-app input:not([type=checkbox]):not([type=radio]), .tc-app a.tc-link, ' +
    '.tc-app .widget-checkbox label, .tc-app .widget-radio-box label');
  return [...picked].filter(e => e.getClientRects().length > 0)
    .map(e => [e.tagName + '.' + String(e.className).slice(0, 50) + ' ' +
               (e.innerText || e.value || '').slice(0, 30),
               e.getBoundingClientRect().height])
    .filter(([_what, h]) => h < 43.5);
}"""


def test_the_list_covers_every_app() -> None:
    assert len(APPS) >= 20 and "dice_tray" in APPS and "table" in APPS


@pytest.mark.parametrize("app", APPS)
def test_app_passes_axe_light_and_dark_with_tall_controls(
        app: str, voila_app: Any, phone_page: Any, screenshot: Any) -> None:
    page = voila_app(app, page=phone_page)
    if app != "rules":  # the rules page is the apps list the others lead back to
        # A way back (issue 31): the server's apps list and the app's rules, on screen.
        apps_link = page.locator(".tc-way-back a.tc-way-apps")
        expect(apps_link).to_have_attribute("href", "rules.ipynb")
        expect(apps_link).to_be_in_viewport()
        expect(page.locator(".tc-way-back a.tc-way-rules")).to_have_attribute(
            "href", re.compile(r"^rules\.ipynb(\?ruleset=\w+|#rules)$"))
    assert serious_violations(page) == [], f"{app} (light)"
    assert page.evaluate(_SHORT_CONTROLS_JS) == [], f"{app}: controls under 44 px"
    screenshot(page, f"axe-{app}-light")

    page.emulate_media(color_scheme="dark")
    # The dark variables are in force once the page's background has turned dark.
    expect(page.locator("body")).not_to_have_css("background-color", "rgb(255, 255, 255)")
    assert serious_violations(page) == [], f"{app} (dark)"
    screenshot(page, f"axe-{app}-dark")


def test_keyboard_focus_is_visible(voila_app: Any, phone_page: Any) -> None:
    page = voila_app("dice_tray", page=phone_page)
    roll = page.locator(".tc-btn-roll").first
    roll.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    expect(roll).to_be_focused()
    outline = roll.evaluate("e => [getComputedStyle(e).outlineStyle, "
                            "parseFloat(getComputedStyle(e).outlineWidth)]")
    assert outline[0] != "none" and outline[1] >= 2, outline
