"""Links between trackers are declared by the rulesets and resolved against the table by id
(issue 28): a campaign seats each tracker at its table of members as it opens or adds
it; without a campaign, a plain dict of trackers does the same. No function is stored
on a tracker, and no widget wires anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd import exploration as ex
from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.combat import Encounter, join_character
from companion.rulesets.cairn_srd.exploration import Delve
from companion.state import Tracker
from companion.store.campaign import Campaign, create
from companion.store.db import Store


def _no_functions_kept(tracker: Tracker) -> None:
    """Nothing outside the saved fields is a function, but the observers' list (the views
    that re-render) and the recorder (the campaign: an object, not a function)."""
    for key, value in vars(tracker).items():
        if key != "_observers":
            assert not callable(value), f"{type(tracker).__name__}.{key} keeps a function"


def test_a_campaign_links_its_fight_and_sheets_when_it_opens(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    table = create(store, "Links", ["cairn_srd"])
    ash = table.add("Ash", new_character("Ash", 12, 12, 10, 5))
    fight = table.add("Fight", Encounter(), role="encounter")
    join_character(fight, ash)
    fight.add("Goblin", "Enemies", guard=3, strength=6)
    fight.begin("Enemies")
    reopened = Campaign.open(store, "Links")  # nothing linked by hand here
    sheet = reopened.tracker("Ash", Character)
    encounter = reopened.tracker("Fight", Encounter)
    assert encounter.sheet("Ash") is sheet
    assert sheet.danger == "in the fight (round 1)"
    with pytest.raises(RuleError, match="out of danger; Ash is in the fight"):
        sheet.rest_turn()
    for member in reopened:
        _no_functions_kept(member.tracker)
    # The combatant keeps its sheet's id at the table: the link holds through a rename.
    assert encounter.find("Ash").sheet == "ash"
    reopened.replace("Ash", new_character("Ash the Bold", 12, 12, 10, 5))
    renamed = reopened.tracker("ash", Character)
    assert encounter.sheet("Ash") is renamed and renamed.name == "Ash the Bold"
    assert renamed.danger == "in the fight (round 1)"
    # A sheet added later is found: the table is read when the link is needed.
    bryn = reopened.add("Bryn", new_character("Bryn", 10, 10, 10, 4))
    join_character(encounter, bryn)
    assert encounter.sheet("Bryn") is bryn and bryn.danger == "in the fight (round 1)"
    store.close()


def test_a_plain_dict_of_trackers_is_a_table_too() -> None:
    ash = new_character("Ash", 12, 12, 10, 5)
    fight, delve = Encounter(), Delve()
    trackers: dict[str, Tracker] = {"ash": ash, "fight": fight, "delve": delve}
    for tracker in trackers.values():
        tracker.link(trackers)
    join_character(fight, ash)
    fight.add("Goblin", "Enemies", guard=3, strength=6)
    assert fight.sheet("Ash") is ash and ash.danger == ""
    fight.begin("PCs")
    assert ash.danger == "in the fight (round 1)"
    assert delve.sheet(" Ash ") is ash  # the dungeon's characters: the same table
    with pytest.raises(RuleError, match="no sheet of Bryn at the table"):
        delve.sheet("Bryn")
    with pytest.raises(TypeError, match="not a function"):
        fight.link(trackers.get)  # type: ignore[arg-type]  # a function is not a table
    with pytest.raises(TypeError, match="declares no link to Delve"):
        fight.linked(Delve)
    ash.link(None)
    assert ash.danger == ""  # alone: no fight to ask


def test_the_dungeon_reaches_a_sheet_by_name_in_a_campaign(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    table = create(store, "Deep", ["cairn_srd"])
    ash = table.add("Ash", new_character("Ash", 12, 10, 9, 5))
    delve = table.add("Delve", Delve(), role="encounter")
    delve.darkness_fate("Ash", seed=2)  # Scarred: Doomed
    ex.apply_fate(delve, "Ash")
    assert ash.scars == ["Doomed"]
    with pytest.raises(RuleError, match="already applied"):
        ex.apply_fate(Campaign.open(store, "Deep").tracker("Delve", Delve), "Ash")
    store.close()
