"""Text size checks shared by browser tests: base-styled text is at least 16 px (phone
browsers zoom into smaller boxes, and it is read at arm's length)."""

from __future__ import annotations

from typing import Any

_SIZES_JS = """(selector) => Array.from(document.querySelectorAll(selector))
  .filter(e => e.offsetParent !== null && e.innerText && e.innerText.trim())
  .map(e => [e.className.toString().slice(0, 40), parseFloat(getComputedStyle(e).fontSize)])"""


def assert_16px(page: Any, *selectors: str) -> None:
    for selector in selectors:
        sizes = page.evaluate(_SIZES_JS, selector)
        assert sizes, selector
        small = [s for s in sizes if s[1] < 16]
        assert not small, (selector, small)
