"""Issue 28 (the LEFT list), in-process: a Monsters & Magic player's sheet buttons that
move more than their own sheet (a thread spent feeds the GM, a tending heals an ally) go
through the table session as one unit of work, stored by the player's seat; driven as the
player's developer tools can (messages to the widgets), another seat's sheet is refused
and nothing is stored."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("sqlalchemy")

from companion.rulesets.monsters_and_magic.adventurer import Adventurer, GameMaster
from companion.rulesets.monsters_and_magic.party import Party
from companion.store import create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign
from companion.store.seats import make_seat
from companion.widgets.monsters_and_magic_sheet import SheetMovesPanel
from tests.widgets.app_page import Scope

pytestmark = pytest.mark.timeout(300)

GM_THREADS = "Game master"


def _seat(db: Path, who: str) -> Campaign:
    with open_store(db) as store:
        if store.find_campaign("Solo") is None:
            gm = create_campaign(store, "Solo", ["monsters_and_magic"], who="Mira",
                                 role="gm")
            gm.add("Ash", Adventurer.new("Ash", luck=2, supplies=2))
            gm.add("Bo", Adventurer.new("Bo", max_hp=12))
            gm.add(GM_THREADS, GameMaster(), role="minigame")
            gm.tracker("Bo", Adventurer).take_damage(6)
        make_seat(store, "Solo", who, "player")
    return open_campaign(open_store(db), "Solo", who=who, role="player")


def _panel(campaign: Campaign, who: str) -> tuple[Scope, SheetMovesPanel, Party]:
    party = Party(campaign.tracker(GM_THREADS, GameMaster))
    for name in ("Ash", "Bo"):
        party.add(campaign.tracker(name, Adventurer))
    panel = SheetMovesPanel(party.get(who), party)
    return Scope(panel), panel, party


def _stored(db: Path) -> list[tuple[str, str, Any]]:
    campaign = open_campaign(open_store(db), "Solo")
    names = {m.id: m.name for m in campaign}
    return [(e.who, names.get(str(e.tracker), ""), e.move) for e in campaign.log()
            if e.kind == "move"]


def test_a_player_s_lucky_find_and_tending_store_both_sheets_as_one_move(tmp_path: Path) -> None:
    db = tmp_path / "party.db"
    page, panel, party = _panel(_seat(db, "Ash"), "Ash")
    before = len(_stored(db))
    page.fill("other", "a rope")
    panel.buttons["lucky-find-cost"].click()
    assert page.alerts() == [] and party.gm.threads == 1
    assert _stored(db)[before:] == [("Ash", "Ash", "lucky_find"),
                                    ("Ash", GM_THREADS, "player_spent")]
    panel._allies()
    panel.ally_pick.value = "Bo"
    page.fill("supplies", "1")
    panel.buttons["tend-ally"].click()
    assert page.alerts() == []
    assert _stored(db)[before + 2:] == [("Ash", "Ash", "tend_ally"), ("Ash", "Bo", "heal")]
    assert open_campaign(open_store(db), "Solo").tracker("Bo", Adventurer).hp == 9


def test_a_crafted_tending_of_another_s_supplies_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "party.db"
    _seat(db, "Ash")
    bo = _seat(db, "Bo")
    _, _, party = _panel(bo, "Bo")
    # Bo's page with Ash's sheet behind its buttons (a crafted panel over her sheet).
    crafted = SheetMovesPanel(party.get("Ash"), party)
    crafted._allies()
    crafted.ally_pick.value = "Bo"
    crafted.supplies.text = "1"
    crafted.buttons["tend-ally"].click()
    crafted.other.value = "gold"
    crafted.buttons["lucky-find-cost"].click()
    lines = Scope(crafted).alerts()
    assert any("only Ash and the GM may move Ash" in line for line in lines), lines
    assert party.gm.threads == 0 and party.get("Ash").supplies == 2
    assert [m for m in _stored(db) if m[0] != "Mira"] == []
