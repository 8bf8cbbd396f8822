"""An Undo button names the move it takes back and is off where the seat may not undo."""

from __future__ import annotations

from pathlib import Path

import ipywidgets as widgets

from companion.rulesets.cairn_srd.character import Character
from companion.store.campaign import Campaign, create
from companion.store.db import Store
from companion.widgets.seat_controls import follow_undo
from tests.conftest import session_of


def test_the_undo_button_follows_the_seat_rules(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    gm = create(store, "T", ["cairn_srd"], who="Mira", role="gm")
    gm.add("Ash", Character("Ash"))
    ash_seat = Campaign.open(store, "T", who="Ash", role="player")
    sheet = ash_seat.tracker("Ash", Character)
    button = widgets.Button(description="Undo")
    follow_undo(button, sheet)
    assert button.disabled and button.tooltip == "nothing to undo yet"
    sheet.add_item("Rope")
    assert not button.disabled and button.tooltip.startswith("Undo: ")
    assert "Rope" in button.tooltip
    gm.refresh()
    gm.tracker("Ash", Character).take_damage(1)  # the GM moves Ash since
    ash_seat.refresh()  # what the page's live sync does
    assert button.disabled and "the GM moved Ash since" in button.tooltip
    sheet.ability_save("DEX")  # Ash's own roll: still no free reroll
    assert button.disabled and "a roll cannot be unmade" in button.tooltip


def test_a_players_fight_offers_only_their_own_character_as_attacker(tmp_path: Path) -> None:
    from companion.rulesets.cairn_srd.combat import Encounter
    from companion.widgets.cairn_srd import CombatApp

    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    gm = create(store, "T", ["cairn_srd"], who="Mira", role="gm")
    fight = gm.add("Fight", Encounter(), role="encounter")
    fight.add("Ash", "PCs", 4, 10, pc=True)
    fight.add("Bryn", "PCs", 4, 10, pc=True)
    fight.add("Ghoul", "Enemies", 3, 8)
    ash_seat = Campaign.open(store, "T", who="Ash", role="player")
    app = CombatApp(ash_seat.tracker("Fight", Encounter), session=session_of(ash_seat))
    assert list(app.attacker.options) == ["Ash"]
    assert set(app.target.options) == {"Ash", "Bryn", "Ghoul"}
    gm_app = CombatApp(gm.tracker("Fight", Encounter), session=session_of(gm))
    assert set(gm_app.attacker.options) == {"Ash", "Bryn", "Ghoul"}


def test_a_players_page_has_no_box_of_saved_text_the_gms_has(tmp_path: Path) -> None:
    from companion.widgets.saving import SaveLoad

    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    gm = create(store, "T", ["cairn_srd"], who="Mira", role="gm")
    gm.add("Ash", Character("Ash"))
    ash_seat = Campaign.open(store, "T", who="Ash", role="player")
    player_box = SaveLoad(ash_seat.tracker("Ash", Character), "ash.json", what="character")
    gm_box = SaveLoad(gm.tracker("Ash", Character), "ash.json", what="character")
    assert player_box.load_box not in _all(player_box)
    assert gm_box.load_box in _all(gm_box)
    plain = SaveLoad(Character("Ash"), "ash.json", what="character")  # no campaign
    assert plain.load_box in _all(plain)


def _all(widget: widgets.Widget) -> list[widgets.Widget]:
    out = [widget]
    for child in getattr(widget, "children", ()):
        out.extend(_all(child))
    return out
