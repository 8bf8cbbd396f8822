"""The Dice Monarchs app's flows, in-process, on the page its notebook builds (the demo).

These were Chromium tests in tests/browser/test_dice_monarchs_app.py: a hot-seat hand from
the deal to the showdown, a refusal that says the rule, the public and GM saves and a load
that resumes the table, the banker's flop from real dice. The browser keeps one phone
journey (layout, the card uncovered on tap, the file picker); every rule assertion is made
here on the same widgets. The table is seeded (the seed box), as in the browser.
"""

from __future__ import annotations

import base64
import re

from tests.widgets.app_page import AppPage, tag, text_of, walk


def log_count(page: AppPage) -> int:
    # The table talk list carries the number of moves made; it changes on every move.
    found = re.search(tag("tc-log") + r'[^>]*data-count="(\d+)"', page.html())
    assert found
    return int(found.group(1))


def revealed_community(page: AppPage) -> int:
    """How many community dice are shown face up."""
    classes = re.findall(r'class="([^"]*)"', page.one("tc-monarchs-community").value)
    return sum(1 for c in classes if "tc-die" in c.split() and "tc-die-hidden" not in c.split())


def pot(page: AppPage) -> str:
    return page.inner("tc-pot")


def private_cards(page: AppPage) -> list[str]:
    return re.findall(tag("tc-card") + r'[^>]*data-player="([^"]*)"',
                      page.one("tc-monarchs-private").value)


def take_turn(page: AppPage, player: str, move: str, moves_so_far: int) -> None:
    assert page.has("tc-cover", data_player=player)
    page.tap("reveal")
    assert private_cards(page) == [player]  # only theirs
    card = page.one("tc-monarchs-private").value
    assert len(re.findall(tag("tc-die"), card)) == 5
    assert "Chance to win the showdown" in text_of(card)
    page.tap(move)
    assert log_count(page) == moves_so_far + 1
    assert private_cards(page) == []  # covered again


def start_table(page: AppPage, players: str, seed: str) -> None:
    page.box("players").text = players
    page.box("chips").text = "20"
    page.box("seed").text = seed
    page.tap("new-table")
    assert log_count(page) == 2  # the new table and the first deal are two moves


def test_deal_to_showdown() -> None:
    page = AppPage("dice_monarchs")
    start_table(page, "Ann, Bo", "11")
    assert revealed_community(page) == 0 and pot(page) == "0"
    # Opening bets: Bo (left of the banker Ann) must bet; a check is refused with the rule.
    assert page.has("tc-cover", data_player="Bo")
    page.tap("reveal")
    assert private_cards(page) == ["Bo"]
    assert page.button("check").disabled
    page.box("amount").text = "3"
    page.tap("bet")
    assert log_count(page) == 3 and pot(page) == "3"
    take_turn(page, "Ann", "call", 3)
    assert revealed_community(page) == 3 and pot(page) == "6"  # the flop
    take_turn(page, "Bo", "check", 4)
    take_turn(page, "Ann", "check", 5)
    assert revealed_community(page) == 4  # the turn
    take_turn(page, "Bo", "check", 6)
    take_turn(page, "Ann", "check", 7)
    assert revealed_community(page) == 5  # the river
    take_turn(page, "Bo", "check", 8)
    take_turn(page, "Ann", "check", 9)
    outcome = text_of(page.one("tc-monarchs-outcome").value)
    assert "Ann reveals hole dice d4 " in outcome and "Bo reveals hole dice d4 " in outcome
    assert re.search(r"(Ann|Bo) wins the pot of 6 \(|Ann and Bo split the pot of 6", outcome)
    assert "[" not in outcome  # read as dice, not as a Python list
    assert page.visible(page.button("deal"))
    page.tap("deal")
    assert log_count(page) == 11 and revealed_community(page) == 0
    assert page.alerts() == []


def test_refusal_shows_the_rule() -> None:
    page = AppPage("dice_monarchs")
    start_table(page, "Ann, Bo, Cy", "2")
    page.tap("reveal")
    page.box("amount").text = "50"
    page.tap("bet")
    assert any("can bet at most 20 in all this round, not 50" in a for a in page.alerts())
    assert len(private_cards(page)) == 1  # still uncovered
    # A typed amount that is not a number is refused under its box; nothing is bet.
    page.box("amount").text = "-5"
    page.button("bet").click()
    assert "-5 is too low" in page.refusal("amount")
    assert pot(page) == "0"
    page.box("amount").text = "2"
    page.tap("bet")
    assert log_count(page) == 3 and page.refusal("amount") == ""


def saved_text(markup: str) -> str:
    return base64.b64decode(re.search(r'href="[^"]*base64,([^"]+)"', markup)
                            .group(1)).decode()  # type: ignore[union-attr]


def test_save_then_load_resumes_the_table() -> None:
    page = AppPage("dice_monarchs")
    start_table(page, "Ann, Bo", "11")
    assert not page.visible(page.box("players"))  # setup folded away
    page.tap("reveal")
    page.box("amount").text = "3"
    page.tap("bet")
    assert log_count(page) == 3
    link = page.one("tc-save").value
    assert 'download="dice-monarchs.json"' in link  # the public save
    public = saved_text(link)
    assert '"commitments"' in public and '"seed"' not in public
    page.tap("setup")
    page.tap("gm-save")  # the GM's file, made only when asked
    gm_link = page.one("tc-gm-save").value
    assert 'download="dice-monarchs-gm.json"' in gm_link
    saved = saved_text(gm_link)
    page.tap("setup")
    take_turn(page, "Ann", "call", 3)  # play on past the save, then go back to it
    page.tap("setup")
    # Issue 22: the saved file is opened with the file picker; the paste box is folded away.
    assert not page.visible(page.one("tc-load"))
    assert page.visible(page.one("tc-load-file"))
    assert "Open a saved Dice Monarchs table" in page.one("tc-load-file").description
    page.upload("dice-monarchs-gm.json", saved.encode("utf-8"))
    assert log_count(page) == 3 and pot(page) == "3" and revealed_community(page) == 0
    assert page.has("tc-cover", data_player="Ann")  # resumed covered
    assert not page.visible(page.one("tc-load"))
    assert page.alerts() == []


def test_the_banker_enters_the_flop_from_real_dice() -> None:
    """Issue 13: a table where the banker rolls the community dice by hand waits for them
    when the opening bets are settled; an impossible die is refused under the faces box and
    nothing is revealed; the dice typed are the flop."""
    page = AppPage("dice_monarchs")
    page.one("tc-banker-toggle").value = True
    assert log_count(page) == 1  # the switch is a move of the table
    page.box("players").text = "Ann, Bo"
    page.box("chips").text = "20"
    page.box("seed").text = "11"
    page.tap("new-table")
    assert log_count(page) == 3  # the new table and the first deal
    assert page.has("tc-cover", data_player="Bo")
    page.tap("reveal")
    page.box("amount").text = "3"
    page.tap("bet")
    assert log_count(page) == 4  # the switch, the new table, the deal, the bet
    take_turn(page, "Ann", "call", 4)
    assert "The banker rolls the flop (d4 d6 d8)" in page.inner("tc-awaiting", data_stage="flop")
    assert revealed_community(page) == 0
    (own,) = [w for w in walk(page.one("tc-roll-controls-community"))
              if "tc-rule-own" in w._dom_classes]
    own.value = True
    faces = page.box("community-faces")
    faces.text = "4 6 9"
    page.button("roll-community").click()
    assert "a d8 shows 1 to 8, not 9" in page.refusal("community-faces")
    assert revealed_community(page) == 0  # nothing was revealed
    faces.text = "4 6 8"
    page.tap("roll-community")
    assert log_count(page) == 6 and revealed_community(page) == 3
    assert "The banker reveals the flop: 4, 6, 8" in text_of(
        page.one("tc-monarchs-outcome").value)
    assert not page.visible(page.one("tc-community-roll"))
