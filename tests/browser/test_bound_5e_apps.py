"""The 5e Hit Dice app bound to a campaign, in Chromium at phone size: a Hit Die spent for
a party member is stored, so a reload (a fresh kernel) shows it still spent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _WIDEST_JS, _guarded_page
from tests.conftest import session_of

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def table_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from companion.store import create_campaign, open_store
    from companion.widgets.table.party import RULES

    path = tmp_path_factory.mktemp("bound5e") / "campaigns.db"
    with open_store(path) as store:
        campaign = create_campaign(store, "Thursday", ["variant5e"], who="Mira", role="gm")
        # The start app's party editor adds a 5e member this way (with its Hit Dice).
        RULES["variant5e"].add(session_of(campaign), "Ash", "full caster",
                               {"level": 5, "hp": 38, "die": 8, "con": 2})
        RULES["variant5e"].add(session_of(campaign), "Briar", "creature",
                               {"level": 3, "hp": 27, "die": 10, "con": 1})
    return path


@pytest.fixture(scope="module")
def table_server(table_db: Path) -> Iterator[Any]:
    from tests.browser.conftest import _running_voila

    with _running_voila(env={"COMPANION_DB": str(table_db)}) as server:
        yield server


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield from _guarded_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                             has_touch=True)


def _fill(page: Any, selector: str, text: str) -> None:
    box = page.locator(f"{selector} input").first
    box.fill(text)
    box.press("Tab")  # the boxes send their value when they lose focus


def test_a_hit_die_spent_for_a_party_member_stays_spent_after_a_reload(
        table_server: Any, table_db: Path, phone: Any, screenshot: Any) -> None:
    from companion.rulesets.variant5e.healing import HitDice
    from companion.store import open_campaign, open_store
    from tests.browser.seats import seat_query

    query = seat_query(table_server, "Thursday", "Briar", "player")  # Briar's own phone
    phone.goto(f"{table_server.base_url}/voila/render/hit_dice.ipynb?{query}",
               wait_until="domcontentloaded")
    status = phone.locator(".tc-hit-dice-app .tc-hp").first
    status.wait_for(state="visible", timeout=60_000)
    assert phone.title() == "5e Hit Dice and healing"
    # The campaign's party, not demo names; Briar picked.
    picker = phone.locator(".tc-pick-hit-dice select")
    expect(picker.locator("option")).to_have_text(["Ash", "Briar"])
    picker.select_option(label="Briar")
    expect(phone.locator(".tc-hit-dice-app .tc-who")).to_have_text("Briar")
    expect(status).to_have_attribute("data-hp", "27")
    _fill(phone, ".tc-hit-dice-app .tc-int-damage", "12")
    phone.locator(".tc-hit-dice-app .tc-btn-damage").click()
    expect(status).to_have_attribute("data-hp", "15")
    phone.locator(".tc-hit-dice-app .tc-btn-short").click()
    expect(phone.locator(".tc-hit-dice-app").first).to_contain_text("spend Hit Dice now")
    _fill(phone, ".tc-hit-dice-app .tc-int-face", "7")
    phone.locator(".tc-hit-dice-app .tc-btn-enter").click()  # a d10 showing 7, +1 CON
    expect(status).to_have_attribute("data-hit-dice", "2")
    expect(status).to_have_attribute("data-hp", "23")
    assert phone.evaluate(_WIDEST_JS) <= 390  # no sideways scrolling on the phone
    screenshot(phone, "hit_dice-phone")
    # A reload is a fresh kernel: the spent die comes back from the campaign.
    phone.reload(wait_until="domcontentloaded")
    picker = phone.locator(".tc-pick-hit-dice select")
    picker.wait_for(state="visible", timeout=60_000)
    picker.select_option(label="Briar")
    status = phone.locator(".tc-hit-dice-app .tc-hp").first
    expect(status).to_have_attribute("data-hit-dice", "2")
    expect(status).to_have_attribute("data-hp", "23")
    kept = open_campaign(open_store(table_db), "Thursday").tracker("Hit Dice: Briar", HitDice)
    assert (kept.hp, kept.hit_dice) == (23, 2)
