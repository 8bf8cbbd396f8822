"""The Dice Monarchs Voila app in Chromium: a hot-seat hand from the deal to the showdown."""

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
    assert page.locator(".tc-monarchs-private .tc-card").count() == 1  # only this player's
    assert card.locator(".tc-die").count() == 5
    expect(card).to_contain_text("Chance to win the showdown")
    page.locator(f".tc-btn-{move}").click()
    wait_log(page, moves_so_far + 1)
    assert page.locator(".tc-monarchs-private .tc-card").count() == 0  # covered again


def start_table(page: Any, players: str, seed: str) -> None:
    page.locator(".tc-name-players input").fill(players)
    page.locator(".tc-int-chips input").fill("20")
    page.locator(".tc-int-seed input").fill(seed)
    page.locator(".tc-btn-new-table").click()
    wait_log(page, 2)  # the new table and the first deal are two moves


def revealed_community(page: Any) -> int:
    return page.locator(".tc-monarchs-community .tc-die:not(.tc-die-hidden)").count()


def test_deal_to_showdown(voila_app: Any, screenshot: Any) -> None:
    page = voila_app("dice_monarchs")
    start_table(page, "Ann, Bo", "11")
    assert revealed_community(page) == 0
    assert page.locator(".tc-monarchs-status .tc-pot").inner_text() == "0"

    # Opening bets: Bo (left of the banker Ann) must bet; a check is refused with the rule.
    page.wait_for_selector('.tc-cover[data-player="Bo"]')
    page.locator(".tc-btn-reveal").click()
    page.locator(".tc-monarchs-private .tc-card").wait_for()
    expect(page.locator(".tc-btn-check")).to_be_disabled()
    page.locator(".tc-int-amount input").fill("3")
    page.locator(".tc-btn-bet").click()
    wait_log(page, 3)
    assert page.locator(".tc-monarchs-status .tc-pot").inner_text() == "3"
    take_turn(page, "Ann", "call", 3)
    assert revealed_community(page) == 3  # the flop
    assert page.locator(".tc-monarchs-status .tc-pot").inner_text() == "6"
    screenshot(page, "dice_monarchs-flop")

    take_turn(page, "Bo", "check", 4)
    take_turn(page, "Ann", "check", 5)
    assert revealed_community(page) == 4  # the turn
    take_turn(page, "Bo", "check", 6)
    take_turn(page, "Ann", "check", 7)
    assert revealed_community(page) == 5  # the river
    take_turn(page, "Bo", "check", 8)
    take_turn(page, "Ann", "check", 9)

    outcome = page.locator(".tc-monarchs-outcome").inner_text()
    assert "Ann reveals hole dice d4 " in outcome and "Bo reveals hole dice d4 " in outcome
    assert "[" not in outcome  # read as dice, not as a Python list
    assert re.search(r"(Ann|Bo) wins the pot of 6 \(|Ann and Bo split the pot of 6", outcome)
    assert page.locator(".tc-btn-deal").is_visible()
    screenshot(page, "dice_monarchs-showdown")
    page.locator(".tc-btn-deal").click()
    wait_log(page, 11)
    assert revealed_community(page) == 0
    assert page.locator(".tc-error [role=alert]").count() == 0


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
    assert page.locator(".tc-monarchs-private .tc-card").count() == 1  # still uncovered
    # A typed amount that is not a number is refused under its box; nothing is bet.
    page.locator(".tc-int-amount input").fill("-5")
    page.locator(".tc-btn-bet").click()
    refusal = page.locator(".tc-refusal-amount [role=alert]")
    refusal.wait_for()
    expect(refusal).to_contain_text("-5 is too low")
    assert page.locator(".tc-monarchs-status .tc-pot").inner_text() == "0"
    page.locator(".tc-int-amount input").fill("2")
    page.locator(".tc-btn-bet").click()
    wait_log(page, 3)
    assert page.locator(".tc-refusal-amount [role=alert]").count() == 0


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
    assert not page.locator(".tc-name-players input").is_visible()  # setup folded away
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
    page.locator(".tc-load textarea").fill(saved)
    page.locator(".tc-btn-load").click()
    wait_log(page, 3)
    assert page.locator(".tc-monarchs-status .tc-pot").inner_text() == "3"
    assert revealed_community(page) == 0
    page.wait_for_selector('.tc-cover[data-player="Ann"]')  # resumed covered
    assert not page.locator(".tc-load textarea").is_visible()
    assert page.locator(".tc-error [role=alert]").count() == 0
