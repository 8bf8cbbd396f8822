"""Issue 22: a saved file is opened with a file picker, not pasted into a box of JSON.

Uploads are simulated the way ipywidgets 8 delivers them: ``FileUpload.value`` becomes a
tuple of one dict (name, type, size, content as a memoryview, last_modified).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import ipywidgets as widgets

from companion.rulesets.cairn_srd.character import Character
from companion.store.campaign import Campaign, create
from companion.store.db import Store
from companion.widgets.cairn_srd import CairnCharacterApp, CombatApp, demo_encounter
from companion.widgets.saving import MAX_LOAD_BYTES, SaveLoad
from tests.cairn_srd.widget_find import find_button, fixed_seeds, walk

BOM = b"\xef\xbb\xbf"


def upload(part: SaveLoad, name: str, data: bytes) -> None:
    """Pick file ``name`` holding ``data`` in the part's picker, as the browser does."""
    part.open_file.value = ({
        "name": name, "type": "application/json", "size": len(data),
        "content": memoryview(data),
        "last_modified": dt.datetime(2024, 5, 1, tzinfo=dt.UTC),
    },)


def shown(part: SaveLoad) -> list[widgets.Widget]:
    return list(walk(part))


def test_a_character_sheet_saved_then_opened_from_its_file_is_the_same_sheet() -> None:
    sheet = CairnCharacterApp(seed_source=fixed_seeds(5))
    sheet.item_name.value = "Rope"
    find_button(sheet, "add-item").click()
    saved = sheet.character.to_json()
    other = CairnCharacterApp()
    assert other.character.to_json() != saved
    upload(other.file, "ash.json", saved.encode("utf-8"))
    assert other.error.message == "" and other.file.model.to_json() == saved
    assert "Loaded ash.json" in other.file.loaded.value
    assert other.file.loaded.layout.display is None
    assert other.file.open_file.value == ()  # emptied: the same file can be picked again
    upload(other.file, "ash.json", saved.encode("utf-8"))
    assert other.error.message == "" and other.file.model.to_json() == saved


def test_an_encounter_saved_then_opened_from_its_file_is_the_same_fight() -> None:
    fight = CombatApp(demo_encounter())
    saved = fight.encounter.to_json()
    other = CombatApp()
    upload(other.file, "cairn-encounter.json", saved.encode("utf-8"))
    assert other.error.message == "" and other.encounter.to_json() == saved
    assert "Loaded cairn-encounter.json" in other.file.loaded.value


def test_a_file_starting_with_a_byte_order_mark_loads() -> None:
    saved = Character("Ash").to_json()
    part = SaveLoad(Character("Bryn"), "ash.json", what="character")
    upload(part, "ash.json", BOM + saved.encode("utf-8"))
    assert part.error.message == "" and part.model.to_json() == saved


def test_bad_files_are_one_line_naming_the_file_and_change_nothing() -> None:
    model = Character("Bryn")
    part = SaveLoad(model, "ash.json", what="character")
    before = model.to_json()
    saved = Character("Ash").to_json()
    cases = {
        "latin1.json": (saved.encode("utf-8")[:-2] + b"\xff}",
                        "latin1.json is not a saved character (not UTF-8 text: byte"),
        "broken.json": (b'{"tracker": ', "broken.json: "),
        "huge.json": (b"\xff" * (MAX_LOAD_BYTES + 1),
                      f"huge.json is larger than {MAX_LOAD_BYTES:,} bytes"),
    }
    for name, (data, start) in cases.items():
        upload(part, name, data)
        message = part.error.message
        assert message.startswith(start), message
        assert "\n" not in message and name in message
        assert model.to_json() == before and part.open_file.value == ()
        assert part.loaded.value == ""
    upload(part, "broken.json", b"{")
    assert "not valid JSON" in part.error.message
    upload(part, "wrong.json", saved.replace('"Ash"', "12").encode())
    assert part.error.message.startswith("wrong.json: ") and model.to_json() == before
    upload(part, "ash.json", saved.encode())  # a good file clears the error line
    assert part.error.message == "" and model.to_json() == saved


def test_the_confirmation_lasts_until_the_next_move() -> None:
    sheet = CairnCharacterApp()
    upload(sheet.file, "ash.json", Character("Ash").to_json().encode())
    assert "Loaded ash.json" in sheet.file.loaded.value
    sheet.item_name.value = "Rope"
    find_button(sheet, "add-item").click()
    assert sheet.file.loaded.value == "" and sheet.file.loaded.layout.display == "none"


def test_the_paste_box_is_folded_away_behind_a_toggle() -> None:
    model = Character("Bryn")
    part = SaveLoad(model, "ash.json", what="character")
    assert part.open_file in shown(part) and part.paste_toggle in shown(part)
    assert part.open_file.accept == ".json,application/json" and not part.open_file.multiple
    assert "tc-load-file" in part.open_file._dom_classes
    assert part.open_file.layout.min_height == "44px" and part.open_file.icon == ""
    assert part.open_file.description == "Open a saved character"
    assert part.paste.layout.display == "none"
    part.paste_toggle.click()
    assert part.paste.layout.display is None and part.load_box in shown(part)
    part.load_box.value = Character("Ash").to_json()
    part.load_button.click()
    assert model.name == "Ash" and part.load_box.value == "" and part.error.message == ""
    part.paste_toggle.click()
    assert part.paste.layout.display == "none"


def test_a_players_seat_has_no_picker_the_gms_has_one(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    gm = create(store, "T", ["cairn_srd"], who="Mira", role="gm")
    gm.add("Ash", Character("Ash"))
    for role in ("player", "spectator"):
        seat = Campaign.open(store, "T", who="Ash", role=role)
        part = SaveLoad(seat.tracker("Ash", Character), "ash.json", what="character")
        there = shown(part)
        assert part.open_file not in there and part.load_box not in there
        assert part.paste_toggle not in there and part.save in there
    sheet = gm.tracker("Ash", Character)
    gm_part = SaveLoad(sheet, "ash.json", what="character")
    assert gm_part.open_file in shown(gm_part) and gm_part.paste.layout.display == "none"
    other = Character("Ash")
    other.add_item("Lantern")
    upload(gm_part, "ash.json", other.to_json().encode())
    assert gm_part.error.message == "" and [i.name for i in sheet.items] == ["Lantern"]
