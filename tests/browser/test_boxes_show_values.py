"""Every box shows its value at 390 px (issue 31): number boxes were 18 px wide, the
wilderness "Awake all night" list 2 px, beside labels that took the rest of the box."""

from __future__ import annotations

from typing import Any

import pytest

#: Shown inputs and lists narrower than a few digits, or past the screen's right edge.
SQUEEZED = """() => [...document.querySelectorAll(
    '.tc-app input:not([type=checkbox]):not([type=radio]), .tc-app select')]
  .filter((e) => e.offsetParent !== null)
  .map((e) => [e.parentElement.className, e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 60 || r.right > window.innerWidth + 1)
  .map(([name, r]) => `${name}: ${Math.round(r.width)} px wide at ${Math.round(r.left)}`)"""


@pytest.mark.parametrize("app", ["plot_points", "casters", "magic_items", "wilderness"])
def test_every_box_is_wide_enough_for_its_value(voila_app: Any, phone_page: Any,
                                                app: str) -> None:
    page = voila_app(app, page=phone_page)
    page.wait_for_selector(".tc-app input")
    try:  # the app's CSS arrives with it: wait for the state, not for time
        page.wait_for_function(f"({SQUEEZED})().length === 0", timeout=60_000)
    except Exception:
        pytest.fail(f"{app}: {page.evaluate(SQUEEZED)}")
