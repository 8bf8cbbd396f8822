"""One character, one state (issue 18), in Chromium: the GM hits Ash in the campaign's
fight, Ash's player rests on the sheet, the GM hits again. The fight (the GM's laptop) and
the sheet (the player's phone, its own page and kernel) agree after every move, and after
a reload of both. An "Out of action" scar put on the sheet from another screen makes Ash
critical in the fight, which no longer offers Ash as an attacker (issue 21)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _guarded_page

pytestmark = pytest.mark.timeout(600)

CAMPAIGN = "Fightday"
SEATS: dict[str, str] = {}  # who -> the secret of their seat's link


@pytest.fixture(scope="module")
def table_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from companion.rulesets.cairn_srd.character import new_character
    from companion.rulesets.cairn_srd.combat import Encounter, join_character
    from companion.store import create_campaign, open_store
    from companion.store.seats import make_seat

    path = tmp_path_factory.mktemp("one_character") / "campaigns.db"
    with open_store(path) as store:
        campaign = create_campaign(store, CAMPAIGN, ["cairn_srd"], who="Mira", role="gm")
        ash = campaign.add("Ash", new_character("Ash", 12, 12, 10, 10))
        fight = campaign.add("Fight", Encounter(), role="encounter")
        join_character(fight, ash)
        # A d4 on Guard 10: each hit lands on Guard alone, so the numbers are plain.
        fight.add("Goblin", "Enemies", guard=3, strength=6, weapon=4)
        fight.roll_initiative(seed=1)  # round 1: the enemy acts
        SEATS["Mira"] = make_seat(store, CAMPAIGN, "Mira", "gm")
        SEATS["Ash"] = make_seat(store, CAMPAIGN, "Ash", "player")
    return path


@pytest.fixture(scope="module")
def table_server(table_db: Path) -> Iterator[Any]:
    from tests.browser.conftest import _running_voila

    with _running_voila(env={"COMPANION_DB": str(table_db)}) as server:
        yield server


@pytest.fixture
def laptop(browser: Any) -> Iterator[Any]:
    yield from _guarded_page(browser, viewport={"width": 1280, "height": 900})


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield from _guarded_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                             has_touch=True)


def _open(page: Any, server: Any, notebook: str, query: str, ready: str) -> None:
    page.goto(f"{server.base_url}/voila/render/{notebook}.ipynb?{query}",
              wait_until="domcontentloaded")
    page.wait_for_selector(ready, state="visible", timeout=60_000)


def _hit(laptop: Any) -> str:
    """The goblin hits Ash in the fight; Ash's Guard as the fight then shows it."""
    laptop.locator(".tc-attacker select").select_option("Goblin")
    laptop.locator(".tc-target-select select").select_option("Ash")
    row = laptop.locator(".tc-combat tr:has-text('Ash')").first
    before = row.text_content() or ""
    laptop.locator(".tc-btn-attack").click()
    # The row reads "AshPC9/10..." as text: Guard is the number right after "PC" (any
    # Guard: the goblin's damage is unseeded; a hit always takes some while Guard is left).
    expect(row).not_to_have_text(before)  # the hit has landed on this screen
    found = re.search(r"PC(\d+)/10", row.text_content() or "")
    assert found is not None
    return found.group(1)


def test_hit_rest_hit_fight_and_sheet_agree(table_server: Any, laptop: Any,
                                            phone: Any) -> None:
    server = table_server
    _open(laptop, server, "cairn_combat", f"campaign={CAMPAIGN}&seat={SEATS['Mira']}",
          ".tc-combat")
    _open(phone, server, "cairn_character", f"campaign={CAMPAIGN}&seat={SEATS['Ash']}",
          ".tc-stats")
    sheet = phone.locator(".tc-stats").first
    ash_row = laptop.locator(".tc-combat tr:has-text('Ash')").first
    expect(sheet).to_have_attribute("data-guard", "10")
    expect(ash_row).to_contain_text("10/10")
    # The GM hits Ash: the sheet shows the fight's Guard.
    guard = _hit(laptop)
    expect(sheet).to_have_attribute("data-guard", guard)
    # Ash tries to rest on the sheet: the sheet knows the fight she is in (no copy left
    # behind) and refuses, saying why; Guard stays as the fight has it on both screens.
    phone.locator(".tc-btn-rest-turn").click()
    expect(phone.locator(".tc-error [role=alert]").first).to_contain_text("out of danger")
    expect(sheet).to_have_attribute("data-guard", guard)
    # The GM hits again: counted from the first hit's Guard, the same on both screens.
    guard = _hit(laptop)
    expect(sheet).to_have_attribute("data-guard", guard)
    # A reload (fresh kernels) reads the same state on both.
    laptop.reload(wait_until="domcontentloaded")
    phone.reload(wait_until="domcontentloaded")
    expect(laptop.locator(".tc-combat tr:has-text('Ash')").first).to_contain_text(
        f"PC{guard}/10", timeout=60_000)
    expect(phone.locator(".tc-stats").first).to_have_attribute("data-guard", guard,
                                                               timeout=60_000)


def test_an_out_of_action_scar_on_the_sheet_holds_in_the_fight(table_server: Any,
                                                               table_db: Path,
                                                               laptop: Any) -> None:
    from companion.rulesets.cairn_srd.character import Character
    from companion.store import open_campaign, open_store

    _open(laptop, table_server, "cairn_combat", f"campaign={CAMPAIGN}&seat={SEATS['Mira']}",
          ".tc-combat")
    attackers = laptop.locator(".tc-attacker select option")
    expect(attackers).to_have_text(["Ash", "Goblin"])
    # Another screen (the GM's notebook) puts the scar on Ash's sheet: Out of action.
    with open_store(table_db) as store:
        sheet = open_campaign(store, CAMPAIGN, who="Mira", role="gm").tracker("Ash", Character)
        sheet.suffer_scar(11, source="a trap")
    # The fight reads the sheet: Ash is critical there too, and no longer offered to act.
    ash_row = laptop.locator(".tc-combat tr:has-text('Ash')").first
    expect(ash_row).to_contain_text("critical")
    expect(attackers).to_have_text(["Goblin"])
