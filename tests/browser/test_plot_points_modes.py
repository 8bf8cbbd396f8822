"""Roll modes on the plot-points app in Chromium (issue 13): a GM and a player, each in their
own browser context on one campaign. The player's blind check shows only its commitment on
the player's phone (no frame the page receives holds its result, seed or nonce) and reaches
the GM's roll log through the live sync; a d20 entered by hand as 21 is refused under the
faces box and nothing is logged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion import fairplay
from tests.browser.test_secrets import Screen, wait_for

pytestmark = pytest.mark.timeout(600)

CAMPAIGN = "fairplay"  # Screen opens this campaign


@pytest.fixture(scope="module")
def plot_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from companion.rulesets.plot_points import PlotPointSession
    from companion.store.campaign import create
    from companion.store.db import Store, database_url
    from companion.widgets.table.apps import PLOT_TABLE

    path = tmp_path_factory.mktemp("plot_modes") / "campaigns.db"
    gm = create(Store(database_url(str(path))), CAMPAIGN, ["plot_points"], who="Gail",
                role="gm")
    gm.add(PLOT_TABLE, PlotPointSession.new(["Ash"], "Gail"), role="minigame")
    gm.set_trust(own_dice=True)  # players may enter their own dice (off unless the GM says)
    return path


@pytest.fixture(scope="module")
def plot_server(plot_db: Path) -> Iterator[Any]:
    from tests.browser.conftest import _running_voila

    with _running_voila(env={"COMPANION_DB": str(plot_db)}) as server:
        yield server


def test_a_blind_check_shows_its_commitment_to_the_player_and_its_result_to_the_gm(
        browser: Any, plot_server: Any, plot_db: Path, scroll_width: Any,
        screenshot: Any) -> None:
    from companion.store.campaign import Campaign
    from companion.store.db import Store, database_url

    ready = ".tc-roll-controls-check"
    gm = Screen(browser, plot_server, "plot_points", "Gail", "gm", ready)
    ash = Screen(browser, plot_server, "plot_points", "Ash", "player", ready)
    try:
        page = ash.page
        controls = page.locator(".tc-roll-controls-check")
        # Compact on a phone: the mode list and the own-dice switch share one row (the
        # list's label may sit above it, so that the list shows its value whole).
        box = controls.bounding_box()
        assert box is not None and box["height"] <= 130, box
        mode = controls.locator("select").bounding_box()
        own = controls.locator(".tc-rule-own input").bounding_box()
        assert mode is not None and own is not None
        assert abs((mode["y"] + mode["height"] / 2) - (own["y"] + own["height"] / 2)) < 30
        controls.locator("select").select_option(label="Blind")
        expect(controls).to_contain_text("the GM sees the roll, you do not")
        expect(page.locator(".tc-btn-retry")).to_be_disabled()
        page.locator(".tc-btn-roll").click()
        expect(page.locator(".tc-result")).to_contain_text("Hidden roll committed")

        store = Campaign.open(Store(database_url(str(plot_db))), CAMPAIGN, who="Gail",
                              role="gm")
        wait_for(lambda: len(store.log(["roll"])) == 1, "the roll in the database", 30)
        (event,) = store.log(["roll"])
        secret = event.data["secret"]
        assert event.who == "Ash" and event.data["mode"] == "blind"
        assert type(secret["seed"]) is int and secret["text"].startswith("Ash: 1d20")
        # The GM's screen gets it through the live sync, with the result.
        # (The log names Ash once: "Ash: check: 1d20 = ...", fairplay.rule_line.)
        shown = fairplay.rule_line(secret["label"], secret["text"])
        expect(gm.page.locator(".tc-roll-log")).to_contain_text(shown, timeout=60_000)
        assert shown in gm.received()  # the search finds a secret where it is
        expect(page.locator(".tc-roll-log")).to_contain_text("rolled blind")
        seen = ash.received()
        for piece in (secret["nonce"], secret["text"], str(secret["seed"]), secret["label"]):
            assert piece not in seen, piece
        assert event.data["commitment"][:12] in seen

        # Own dice: a d20 entered as 21 is refused under the box; nothing is logged.
        controls.locator("select").select_option(label="Public")
        controls.locator(".tc-rule-own input").check()
        faces = page.locator(".tc-faces-check-faces input")
        faces.fill("21")
        faces.press("Tab")
        page.locator(".tc-btn-roll").click()
        expect(page.locator(".tc-refusal-check-faces")).to_contain_text(
            "die 1: a d20 shows 1 to 20, not 21")
        faces.fill("17")
        faces.press("Tab")
        page.locator(".tc-btn-roll").click()
        expect(page.locator(".tc-result")).to_contain_text("own dice")
        expect(page.locator(".tc-result .tc-total")).to_contain_text("17")
        store.refresh()
        rolls = store.log(["roll"])
        assert len(rolls) == 2 and rolls[1].data["faces"] == [17]
        assert rolls[1].data["physical"] is True
        assert scroll_width(page) <= 390
        screenshot(page, "plot_points_modes-player-phone")
    finally:
        gm.close()
        ash.close()
