"""The plot-points table's flow, in-process, on the page its notebook builds (the demo).

It was the desktop Chromium test ``test_check_spend_and_strain`` of
tests/browser/test_plot_points_app.py, and the number box's refusals of
tests/browser/test_base_widgets.py (on this app); the browser keeps one phone journey
(layout, a refusal drawn under its box, the roll's round trip). Every rule assertion is made
here on the same widgets. Unseeded, as there: DC 30 is a sure failure whatever the die.
"""

from __future__ import annotations

import re

from tests.widgets.app_page import AppPage, tag


def test_check_spend_and_strain() -> None:
    page = AppPage("plot_points")
    assert "55.00%" in page.find_text("tc-chance")  # 1d20 vs 10, shown before any roll
    page.fill("difficulty", "30")
    chance = page.find_text("tc-chance")
    assert "vs 30" in chance and "0.00%" in chance  # nobody reaches 30: a sure failure
    page.tap("roll")
    assert page.has("tc-result", data_n="1") and "failure" in page.find_text("tc-result")
    assert page.has("tc-log", data_count="1")
    page.tap("retry")
    assert page.has("tc-result", data_n="2")
    assert "spends a lucky point to retry" in page.find_text("tc-result")
    assert page.has("tc-log", data_count="2")
    first = re.search(r"<li[^>]*>(.*?)</li>", page.find("tc-log"), flags=re.S)
    assert first and "spends a lucky point" in first.group(1)
    lucky, unlucky = int(page.inner("tc-lucky-count")), int(page.inner("tc-unlucky-count"))
    assert lucky + unlucky == 4  # three players and the GM
    assert len(re.findall(tag("tc-token"), page.html())) == 4

    sheet = page.within("tc-character-ash")
    for strain in (1, 2, 3):
        sheet.tap("strain")
        assert sheet.has("tc-sheet", data_strain=str(strain))
    assert sheet.inner("tc-wounds") == "0"
    sheet.tap("strain")
    assert sheet.has("tc-sheet", data_wounds="1")
    assert sheet.inner("tc-strain") == "0" and sheet.inner("tc-condition") == "Exhausted"
    sheet.tap("heal")
    assert sheet.has("tc-sheet", data_wounds="0")
    assert sheet.button("heal").disabled  # no wound left: the button cannot work

    # A difficulty that is not a number is refused under its box; nothing is rolled.
    page.fill("difficulty", "ten")
    assert "is not a whole number" in page.refusal("difficulty")
    page.button("roll").click()
    assert not page.has("tc-result", data_n="3") and page.has("tc-result", data_n="2")
    page.fill("difficulty", "12")
    assert "vs 12" in page.find_text("tc-chance") and page.refusal("difficulty") == ""


def test_the_difficulty_box_refuses_until_fixed() -> None:
    page = AppPage("plot_points")
    assert page.refusal("difficulty") == ""
    for typed, said in (("abc", "is not a whole number"), ("", "the box is empty"),
                        ("999999", "is too high")):
        page.fill("difficulty", typed)
        refusal = page.refusal("difficulty")
        assert said in refusal and refusal.startswith("Difficulty: "), refusal
    page.fill("difficulty", "12")
    assert page.refusal("difficulty") == "" and "vs 12" in page.find_text("tc-chance")
