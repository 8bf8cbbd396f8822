"""The Dice Monarchs Voila app in Chromium: a hot-seat hand from the deal to the showdown,
and the banker's community dice from real dice on a phone. Every text is awaited with
``expect`` (each widget's text arrives in its own message)."""

from __future__ import annotations

import re
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


def test_deal_to_showdown(voila_app: Any, screenshot: Any) -> None:
    page = voila_app("dice_monarchs")
    start_table(page, "Ann, Bo", "11")
    expect(revealed_community(page)).to_have_count(0)
    expect(pot(page)).to_have_text("0")

    # Opening bets: Bo (left of the banker Ann) must bet; a check is refused with the rule.
    page.wait_for_selector('.tc-cover[data-player="Bo"]')
    page.locator(".tc-btn-reveal").click()
    page.locator(".tc-monarchs-private .tc-card").wait_for()
    expect(page.locator(".tc-btn-check")).to_be_disabled()
    page.locator(".tc-int-amount input").fill("3")
    page.locator(".tc-btn-bet").click()
    wait_log(page, 3)
    expect(pot(page)).to_have_text("3")
    take_turn(page, "Ann", "call", 3)
    expect(revealed_community(page)).to_have_count(3)  # the flop
    expect(pot(page)).to_have_text("6")
    screenshot(page, "dice_monarchs-flop")

    take_turn(page, "Bo", "check", 4)
    take_turn(page, "Ann", "check", 5)
    expect(revealed_community(page)).to_have_count(4)  # the turn
    take_turn(page, "Bo", "check", 6)
    take_turn(page, "Ann", "check", 7)
    expect(revealed_community(page)).to_have_count(5)  # the river
    take_turn(page, "Bo", "check", 8)
    take_turn(page, "Ann", "check", 9)

    outcome = page.locator(".tc-monarchs-outcome")
    expect(outcome).to_contain_text("Ann reveals hole dice d4 ")
    expect(outcome).to_contain_text("Bo reveals hole dice d4 ")
    expect(outcome).to_contain_text(
        re.compile(r"(Ann|Bo) wins the pot of 6 \(|Ann and Bo split the pot of 6"))
    expect(outcome).not_to_contain_text("[")  # read as dice, not as a Python list
    expect(page.locator(".tc-btn-deal")).to_be_visible()
    screenshot(page, "dice_monarchs-showdown")
    page.locator(".tc-btn-deal").click()
    wait_log(page, 11)
    expect(revealed_community(page)).to_have_count(0)
    expect(page.locator(".tc-error [role=alert]")).to_have_count(0)


def test_refusal_shows_the_rule(voila_app: Any) -> None:
    page = voila_app("dice_monarchs")
    start_table(page, "Ann, Bo, Cy", "2")
    page.locator(".tc-btn-reveal").click()
    page.locator(".tc-monarchs-private .tc-card").wait_for()
    page.locator(".tc-int-amount input").fill("50")
    page.locator(".tc-btn-bet").click()
    error = page.locator(".tc-error [role=alert]")
    error.wait_for()
    expect(error).to_contain_text("can bet at most 20 in all this round, not 50")  # all-in
    expect(page.locator(".tc-monarchs-private .tc-card")).to_have_count(1)  # still uncovered
    # A typed amount that is not a number is refused under its box; nothing is bet.
    page.locator(".tc-int-amount input").fill("-5")
    page.locator(".tc-btn-bet").click()
    refusal = page.locator(".tc-refusal-amount [role=alert]")
    refusal.wait_for()
    expect(refusal).to_contain_text("-5 is too low")
    expect(pot(page)).to_have_text("0")
    page.locator(".tc-int-amount input").fill("2")
    page.locator(".tc-btn-bet").click()
    wait_log(page, 3)
    expect(page.locator(".tc-refusal-amount [role=alert]")).to_have_count(0)


def test_phone_width(voila_app: Any, phone_page: Any, scroll_width: Any, screenshot: Any) -> None:
    page = voila_app("dice_monarchs", page=phone_page)
    start_table(page, "Ann, Bo, Cy, Di", "4")
    page.locator(".tc-btn-reveal").click()
    page.locator(".tc-monarchs-private .tc-card").wait_for(timeout=60_000)
    screenshot(page, "dice_monarchs-phone")
    assert scroll_width(page) <= PHONE_WIDTH + SCROLL_TOLERANCE
    buttons = page.locator(".tc-app button:visible")
    assert buttons.count() >= 6
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box is not None and box["height"] >= 40, buttons.nth(i).inner_text()
        assert box["x"] + box["width"] <= PHONE_WIDTH + SCROLL_TOLERANCE


def test_save_then_load_resumes_the_table(voila_app: Any) -> None:
    import base64

    page = voila_app("dice_monarchs")
    start_table(page, "Ann, Bo", "11")
    expect(page.locator(".tc-name-players input")).to_be_hidden()  # setup folded away
    page.locator(".tc-btn-reveal").click()
    page.locator(".tc-monarchs-private .tc-card").wait_for(timeout=60_000)
    page.locator(".tc-int-amount input").fill("3")
    page.locator(".tc-btn-bet").click()
    wait_log(page, 3)
    link = page.locator(".tc-save-load a[download]")
    assert link.get_attribute("download") == "dice-monarchs.json"  # the public save
    public = base64.b64decode(link.get_attribute("href").split("base64,", 1)[1]).decode()
    assert '"commitments"' in public and '"seed"' not in public
    page.locator(".tc-btn-setup").click()
    page.locator(".tc-btn-gm-save").click()  # the GM's file, made only when asked
    gm_link = page.locator('.tc-gm-save a[download="dice-monarchs-gm.json"]')
    gm_link.wait_for(timeout=60_000)
    saved = base64.b64decode(gm_link.get_attribute("href").split("base64,", 1)[1]).decode()
    page.locator(".tc-btn-setup").click()

    take_turn(page, "Ann", "call", 3)  # play on past the save, then go back to it
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


def test_the_banker_enters_the_flop_from_real_dice_on_a_phone(
        voila_app: Any, phone_page: Any, scroll_width: Any, screenshot: Any) -> None:
    """Issue 13: a table where the banker rolls the community dice by hand waits for them
    when the opening bets are settled; an impossible die is refused under the faces box and
    nothing is revealed; the dice typed are the flop."""
    page = voila_app("dice_monarchs", page=phone_page)
    page.locator(".tc-banker-toggle input[type=checkbox]").check()
    # The switch is a move of the table (its talk is folded away until the first deal).
    page.wait_for_selector('.tc-monarchs .tc-log[data-count="1"]', state="attached")
    page.locator(".tc-name-players input").fill("Ann, Bo")
    page.locator(".tc-int-chips input").fill("20")
    page.locator(".tc-int-seed input").fill("11")
    page.locator(".tc-btn-new-table").click()
    wait_log(page, 3)  # the new table and the first deal
    page.wait_for_selector('.tc-cover[data-player="Bo"]')
    page.locator(".tc-btn-reveal").click()
    page.locator(".tc-monarchs-private .tc-card").wait_for(timeout=60_000)
    page.locator(".tc-int-amount input").fill("3")
    page.locator(".tc-btn-bet").click()
    wait_log(page, 4)  # the switch, the new table, the deal, the bet
    take_turn(page, "Ann", "call", 4)
    awaiting = page.locator('.tc-awaiting[data-stage="flop"]')
    expect(awaiting).to_contain_text("The banker rolls the flop (d4 d6 d8)")
    expect(revealed_community(page)).to_have_count(0)
    page.locator(".tc-roll-controls-community .tc-rule-own input[type=checkbox]").check()
    faces = page.locator(".tc-faces-community-faces input")
    faces.wait_for()
    faces.fill("4 6 9")
    faces.press("Enter")
    page.locator(".tc-btn-roll-community").click()
    expect(page.locator(".tc-refusal-community-faces")).to_contain_text(
        "a d8 shows 1 to 8, not 9")
    expect(revealed_community(page)).to_have_count(0)  # nothing was revealed
    faces.fill("4 6 8")
    faces.press("Enter")
    page.locator(".tc-btn-roll-community").click()
    wait_log(page, 6)
    expect(revealed_community(page)).to_have_count(3)
    expect(page.locator(".tc-monarchs-outcome")).to_contain_text(
        "The banker reveals the flop: 4, 6, 8")
    expect(page.locator(".tc-community-roll")).to_be_hidden()
    assert scroll_width(page) <= PHONE_WIDTH + SCROLL_TOLERANCE
    screenshot(page, "dice_monarchs-banker-own-dice-phone")
