"""The dice tray's flow, in-process, on the page its notebook builds.

It was the desktop Chromium test ``test_roll_twice_then_error_then_roll_again`` of
tests/browser/test_dice_tray_app.py; the browser keeps one phone journey (layout, the page's
double-tap guard, the page's size after big rolls, blocked hosts). Unseeded, as there: each
assertion is one every roll shares. tests/widgets/test_dice_tray.py drives the tray's parts.
"""

from __future__ import annotations

import re

from companion.widgets.base import press_enter
from tests.widgets.app_page import AppPage, tag, text_of


def history(page: AppPage) -> list[tuple[str, str, str, str]]:
    """Each history entry, newest first: (data-n, total, text, meta)."""
    view = page.one("tc-history").value if page.all("tc-history") else page.html()
    return re.findall(
        r'<li data-n="(\d+)".*?' + tag("tc-h-total") + r"[^>]*>(.*?)</.*?"
        + tag("tc-h-text") + r"[^>]*>(.*?)</.*?" + tag("tc-h-meta") + r"[^>]*>(.*?)</li>",
        view, flags=re.S)


def test_roll_twice_then_error_then_roll_again() -> None:
    page = AppPage("dice_tray")
    page.fill("expr", "3d6+2")
    page.tap("roll")
    assert page.has("tc-result", data_n="1") and page.has("tc-history", data_count="1")
    page.tap("roll")
    assert page.has("tc-result", data_n="2") and page.has("tc-history", data_count="2")
    entries = history(page)
    assert [e[0] for e in entries] == ["2", "1"]
    for _n, total, text, _meta in entries:
        text = text_of(text)
        dice = [int(v) for v in re.findall(r"\d+", text.split("=")[1])]
        assert text.startswith("3d6+2 = ")
        assert len(dice) == 4  # three d6 and the +2
        assert all(1 <= d <= 6 for d in dice[:3]) and dice[3] == 2
        assert int(text_of(total)) == sum(dice) and 5 <= sum(dice) <= 20
    assert entries[0][3] != entries[1][3]  # two different rolls, each with its own seed
    assert page.inner("tc-total") == text_of(entries[0][1])
    result = page.one("tc-result").value if page.all("tc-result") else page.find("tc-result")
    assert len(re.findall(tag("die"), result)) == 3

    page.fill("expr", "2d")
    page.tap("roll")
    (error,) = page.alerts()
    assert "2d" in error and "write dice like 2d6+1" in error
    assert len(history(page)) == 2

    page.fill("expr", "1d20+1")
    press_enter(page.box("expr"))  # Enter rolls, as in a chat box
    assert page.has("tc-history", data_count="3") and page.alerts() == []
    assert text_of(history(page)[0][2]).startswith("1d20+1 = ")
    page.fill("target", "12")
    assert "Chance of 12 or more: 50.00%" in page.text()
    assert "<svg" in page.html()
