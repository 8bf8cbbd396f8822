"""Roll modes in Chromium: the dice tray on a real Voila and campaign, one browser context
per person. A player's blind roll shows only its commitment on the player's phone (no
frame the page receives holds its dice, seed or nonce) and reaches the GM's screen through
the live sync; the GM reveals it and the player's screen checks it against the commitment.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_secrets import Screen, wait_for

# Once flaky: a kernel's second Store dropped its SQLite locks, the WAL was deleted under it,
# and a committed roll reached neither the database nor the GM's screen
# (tests/store/test_shared_file_locks.py holds that at the store level).
pytestmark = pytest.mark.timeout(600)

CAMPAIGN = "fairplay"  # Screen opens this campaign


@pytest.fixture(scope="module")
def rolls_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from companion.store.campaign import create
    from companion.store.db import Store, database_url

    path = tmp_path_factory.mktemp("rolls") / "campaigns.db"
    create(Store(database_url(str(path))), CAMPAIGN, ["plot_points"], who="Gail", role="gm")
    return path


@pytest.fixture(scope="module")
def rolls_server(rolls_db: Path) -> Iterator[Any]:
    from tests.browser.conftest import _running_voila

    with _running_voila(env={"COMPANION_DB": str(rolls_db)}) as server:
        yield server


def test_blind_roll_reaches_the_gm_only_and_checks_after_the_reveal(
        browser: Any, rolls_server: Any, rolls_db: Path, scroll_width: Any,
        screenshot: Any) -> None:
    from companion.store.campaign import Campaign
    from companion.store.db import Store, database_url

    gm = Screen(browser, rolls_server, "dice_tray", "Gail", "gm", ".tc-roll-log-panel")
    ash = Screen(browser, rolls_server, "dice_tray", "Ash", "player", ".tc-roll-log-panel")
    try:
        page = ash.page
        # Whose seat and what it may do, before any tap (issue 31).
        expect(page.locator(".tc-seat-line .tc-where")).to_contain_text(
            f"Campaign {CAMPAIGN} · Ash (player)")
        expect(page.locator(".tc-seat-line .tc-may")).to_contain_text("blind")
        page.locator(".tc-roll-mode button", has_text="Blind").click()
        page.locator(".tc-text-expr input").fill("3d6+2")
        expect(page.locator(".tc-roll-panel")).to_contain_text("the GM sees the roll, you do not")
        page.locator(".tc-btn-roll").click()
        page.locator(".tc-hidden-roll").wait_for(timeout=30_000)
        expect(page.locator(".tc-result")).to_contain_text("Hidden roll committed")

        store = Campaign.open(Store(database_url(str(rolls_db))), CAMPAIGN, who="Gail",
                              role="gm")
        wait_for(lambda: len(store.log(["roll"])) == 1, "the roll in the database", 10)
        (event,) = store.log(["roll"])
        secret = event.data["secret"]
        seed = secret["seed"]
        assert type(seed) is int and event.who == "Ash" and event.data["mode"] == "blind"
        # The GM's screen gets it through the live sync, with the dice.
        wait_for(lambda: secret["text"] in gm.page.locator(".tc-roll-log").inner_text(),
                 "the blind roll on the GM's screen")
        assert secret["text"] in gm.received()  # the search finds a secret where it is
        seen = ash.received()
        for piece in (secret["nonce"], secret["text"], f"seed {seed}"):
            assert piece not in seen, piece
        assert event.data["commitment"][:12] in seen
        # The commitment (a hash) is for the curious: in the log, folded under "details".
        fold = page.locator(".tc-roll-log details.tc-details-commitment").first
        expect(fold).to_have_js_property("open", False)
        expect(fold).not_to_contain_text("commitment", use_inner_text=True)
        fold.locator("summary").click()
        expect(fold).to_have_js_property("open", True)
        expect(fold).to_contain_text(f"commitment {event.data['commitment'][:12]}",
                                     use_inner_text=True)

        gm.page.locator(".tc-btn-reveal").click()
        wait_for(lambda: f"seed {seed}" in page.locator(".tc-roll-log").text_content(),
                 "the reveal on the player's screen")
        page.locator(".tc-btn-check").click()
        wait_for(lambda: "holds" in page.locator(".tc-check-result").inner_text(),
                 "the check on the player's screen")
        expect(page.locator(".tc-check-result")).to_contain_text("Entry 1 holds")
        # The modes, own-dice boxes and log fit a phone's width.
        page.locator(".tc-own-dice input").check()
        page.locator(".tc-int-own-die-3").wait_for()
        assert scroll_width(page) <= 390
        screenshot(page, "roll_modes-player-phone")
    finally:
        gm.close()
        ash.close()
