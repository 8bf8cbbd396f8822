"""The Dice Monarchs Voila app in Chromium on a phone (390 px): one journey through a
hot-seat table, for what only a browser shows: the page fits the phone, the dice are
uncovered on a tap and covered again, every button is a 40 px tap target, the GM's file is a
download and is opened again with the browser's file picker. Every text is awaited with
``expect`` (each widget's text arrives in its own message).

The rule flows (a hand from the deal to the showdown, refusals that say the rule, what the
public save leaves out, the banker's flop from real dice) are asserted in-process on the
same page in tests/widgets/test_dice_monarchs_page.py."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

PHONE_WIDTH = 390
SCROLL_TOLERANCE = 2


def wait_log(page: Any, n: int) -> None:
    # The table talk list carries the number of moves made; it changes on every move.
    page.wait_for_selector(f'.tc-monarchs .tc-log[data-count="{n}"]', timeout=60_000)


def take_turn(page: Any, player: str, move: str, moves_so_far: int) -> None:
    page.wait_for_selector(f'.tc-cover[data-player="{player}"]')
    page.locator(".tc-btn-reveal").click()
    card = page.locator(f'.tc-monarchs-private .tc-card[data-player="{player}"]')
    card.wait_for(timeout=60_000)
    expect(page.locator(".tc-monarchs-private .tc-card")).to_have_count(1)  # only theirs
    expect(card.locator(".tc-die")).to_have_count(5)
    expect(card).to_contain_text("Chance to win the showdown")
    page.locator(f".tc-btn-{move}").click()
    wait_log(page, moves_so_far + 1)
    expect(page.locator(".tc-monarchs-private .tc-card")).to_have_count(0)  # covered again


def start_table(page: Any, players: str, seed: str) -> None:
    page.locator(".tc-name-players input").fill(players)
    page.locator(".tc-int-chips input").fill("20")
    page.locator(".tc-int-seed input").fill(seed)
    page.locator(".tc-btn-new-table").click()
    wait_log(page, 2)  # the new table and the first deal are two moves


def revealed_community(page: Any) -> Any:
    """The community dice shown face up (a locator: await its count with expect)."""
    return page.locator(".tc-monarchs-community .tc-die:not(.tc-die-hidden)")


def pot(page: Any) -> Any:
    return page.locator(".tc-monarchs-status .tc-pot")


def test_a_table_on_a_phone_saved_and_opened_again(
        voila_app: Any, phone_page: Any, scroll_width: Any, screenshot: Any) -> None:
    import base64

    page = voila_app("dice_monarchs", page=phone_page)
    start_table(page, "Ann, Bo", "11")
    expect(page.locator(".tc-name-players input")).to_be_hidden()  # setup folded away
    expect(revealed_community(page)).to_have_count(0)
    # Opening bets: Bo (left of the banker Ann) must bet; a check is refused with the rule.
    page.wait_for_selector('.tc-cover[data-player="Bo"]')
    page.locator(".tc-btn-reveal").click()
    page.locator(".tc-monarchs-private .tc-card").wait_for(timeout=60_000)
    expect(page.locator(".tc-btn-check")).to_be_disabled()
    screenshot(page, "dice_monarchs-phone")
    assert scroll_width(page) <= PHONE_WIDTH + SCROLL_TOLERANCE
    buttons = page.locator(".tc-app button:visible")
    assert buttons.count() >= 6
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box is not None and box["height"] >= 40, buttons.nth(i).inner_text()
        assert box["x"] + box["width"] <= PHONE_WIDTH + SCROLL_TOLERANCE
    page.locator(".tc-int-amount input").fill("3")
    page.locator(".tc-btn-bet").click()
    wait_log(page, 3)
    expect(pot(page)).to_have_text("3")
    link = page.locator(".tc-save-load a[download]")
    assert link.get_attribute("download") == "dice-monarchs.json"  # the public save
    page.locator(".tc-btn-setup").click()
    page.locator(".tc-btn-gm-save").click()  # the GM's file, made only when asked
    gm_link = page.locator('.tc-gm-save a[download="dice-monarchs-gm.json"]')
    gm_link.wait_for(timeout=60_000)
    saved = base64.b64decode(gm_link.get_attribute("href").split("base64,", 1)[1]).decode()
    page.locator(".tc-btn-setup").click()

    take_turn(page, "Ann", "call", 3)  # play on past the save, then go back to it
    expect(revealed_community(page)).to_have_count(3)  # the flop
    screenshot(page, "dice_monarchs-flop")
    page.locator(".tc-btn-setup").click()
    # Issue 22: the saved file is opened with the file picker; the paste box is folded away.
    expect(page.locator(".tc-load textarea")).to_be_hidden()
    picker = page.locator(".tc-load-file")
    expect(picker).to_contain_text("Open a saved Dice Monarchs table")
    expect(picker).to_be_visible()
    page.wait_for_function(  # the setup panel has unfolded: the picker at its full height
        "() => document.querySelector('.tc-load-file').getBoundingClientRect().height >= 43.5")
    with page.expect_file_chooser() as chosen:
        picker.click()
    chosen.value.set_files(files=[{"name": "dice-monarchs-gm.json",
                                   "mimeType": "application/json",
                                   "buffer": saved.encode("utf-8")}])
    wait_log(page, 3)
    expect(pot(page)).to_have_text("3")
    expect(revealed_community(page)).to_have_count(0)
    page.wait_for_selector('.tc-cover[data-player="Ann"]')  # resumed covered
    expect(page.locator(".tc-load textarea")).to_be_hidden()
    expect(page.locator(".tc-error [role=alert]")).to_have_count(0)
    assert scroll_width(page) <= PHONE_WIDTH + SCROLL_TOLERANCE
