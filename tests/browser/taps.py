"""A tap that waits for its answer, as a player's next tap would.

A button's tap is answered by its answer class flipping (``ANSWER_CLASSES`` in
[companion.widgets.controls][]); the page drops a tap on a button whose last tap is still
unanswered. The move's own output (a square's letter, the feet moved) can reach the page a
moment before that flip, so a test that waits only for the output and taps again at once
may have its second tap dropped, which no player's thumb is quick enough to do.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from companion.widgets.controls import ANSWER_CLASSES


def tap(button: Any) -> None:
    """Click ``button`` (a Playwright locator of a TapButton) and wait until its answer
    class has flipped: the tap is handled, and the next tap on it counts."""
    classes = (button.get_attribute("class") or "").split()
    now = ANSWER_CLASSES[1] if ANSWER_CLASSES[1] in classes else ANSWER_CLASSES[0]
    flipped = ANSWER_CLASSES[1] if now == ANSWER_CLASSES[0] else ANSWER_CLASSES[0]
    button.click()
    expect(button).to_have_class(re.compile(rf"(^|\s){flipped}(\s|$)"))
