"""The combat app's moves panel, headless: maneuver, escape, and what an unlinked fight
owes a player's sheet (marked written); a linked fight's board reads the sheets."""

from __future__ import annotations

import pytest

from companion import dice
from companion.dice.physical import EnteredDice
from companion.rulesets.cairn_srd import combat
from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.combat import Attack, Encounter
from companion.widgets.cairn_srd.combat import CombatApp
from tests.cairn_srd.widget_find import find_button, fixed_seeds


def setup(seed: int = 3, linked: bool = False) -> tuple[CombatApp, Encounter, list[Character]]:
    ash = new_character("Ash", 12, 12, 10, 5)
    e = Encounter()
    if linked:
        e.link({"ash": ash})  # the fight's table: its trackers by id
    combat.join_character(e, ash, weapon=8, weapon_name="Longsword")
    e.add("Ogre", "Enemies", guard=3, strength=6, control=8)
    party = [ash]
    app = CombatApp(e, seed_source=fixed_seeds(seed))
    return app, e, party


def test_moves_disabled_until_the_fight_starts_and_on_the_wrong_turn() -> None:
    app, e, _ = setup()
    for name in ("maneuver", "escape-fight"):
        assert find_button(app, name).disabled, name
    assert find_button(app, "maneuver").tooltip == "the fight has not started or is over"
    e.roll_initiative(rng=EnteredDice([20]))  # Ash fails: the enemy's turn
    app.moves.who.value = "Ash"
    assert find_button(app, "maneuver").tooltip == "it is the Enemies' turn"
    app.moves.who.value = "Ogre"
    assert not find_button(app, "maneuver").disabled and app.moves.foe.value == "Ash"


@pytest.mark.parametrize("linked", [False, True])
def test_maneuver_fatigue(linked: bool) -> None:
    def trial(seed: int) -> combat.ManeuverResult:
        _, twin, _ = setup(linked=linked)
        twin.roll_initiative(rng=EnteredDice([1]))
        return twin.maneuver("Ash", "Ogre", "STR", "DEX", seed=seed)

    fail = next(s for s in range(200) if not trial(s).attacker_save.success)
    app, e, party = setup(fail, linked=linked)
    e.roll_initiative(rng=EnteredDice([1]))
    app.moves.who.value = "Ash"
    find_button(app, "maneuver").click()
    assert str(trial(fail)) in app.outcome.value and f'data-seed="{fail}"' in app.outcome.value
    if linked:  # the sheet's own Fatigue, at once: nothing due
        assert party[0].fatigue == 1 and app.moves.due.value == ""
        assert not app.moves.due_row.children
        return
    assert "Due on sheets" in app.moves.due.value and "Fatigue" in app.moves.due.value
    find_button(app, "due-written-0").click()
    assert "sheet: a Fatigue (failed maneuver save) written" in app.outcome.value
    assert e.sheet_due == [] and party[0].fatigue == 0 and not app.moves.due_row.children


def test_linked_board_follows_the_sheet() -> None:
    app, e, party = setup(linked=True)
    e.roll_initiative(rng=EnteredDice([20]))
    e.attack(Attack("Ogre", "Ash"), rng=EnteredDice([5]))  # 5 on Guard 5: Rattled, on the sheet
    assert party[0].scars == ["Rattled"] and e.sheet_due == []
    assert "<td>1/6</td>" in app.board.value
    party[0].rest_turn()
    app.render()  # (the table's fight panel re-renders on the sheet's change)
    assert "<td>6/6</td>" in app.board.value


def test_escape_button() -> None:
    app, e, _ = setup(seed=next(s for s in range(50) if dice.roll("1d20", seed=s).total <= 12))
    e.roll_initiative(rng=EnteredDice([1]))
    app.moves.who.value = "Ash"
    app.moves.safe_place.value = False
    find_button(app, "escape-fight").click()
    assert "somewhere safe" in app.error.value and e.find("Ash").active
    app.moves.safe_place.value = True
    find_button(app, "escape-fight").click()
    assert e.find("Ash").status == "fled" and e.phase == "over"
