"""Rest & Recovery: each character chooses two activities of a short or long rest, and
tending an ally's wounds is the tender's Tend to Wounds, one of those two (move by move,
illegal moves included)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from companion.errors import RuleError, StateError
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.rulesets.monsters_and_magic.party import Party


def table(bo_supplies: int = 4) -> tuple[Party, Adventurer, Adventurer]:
    party = Party()
    bo = party.new_character("Bo", supplies=bo_supplies, max_hp=12)
    ash = party.new_character("Ash", supplies=2, max_hp=16)
    ash.take_damage(12)
    return party, bo, ash


def test_tending_an_ally_is_the_tenders_activity_not_the_patients() -> None:
    party, bo, ash = table()
    assert party.tend_ally(bo, ash, 2) == 8  # 2 supply × a quarter of 16
    assert (bo.resting, bo.rest_done, bo.tended, bo.supplies) == (
        "short", ["Tend to Wounds"], "Ash", 2)
    assert (ash.hp, ash.resting, ash.rest_done) == (12, "", [])
    # The patient still chooses two activities, Tend to Wounds among them if they like.
    notes = ash.short_rest(["Tend to Wounds", "Clear Fatigue"], supplies=1)
    assert notes == ["tends wounds with 1 supply (+4 HP)", "clears 0 fatigue"]
    assert ash.hp == 16


def test_a_third_activity_is_refused_saying_why_and_changes_nothing() -> None:
    party, bo, ash = table()
    party.tend_ally(bo, ash, 1)
    before = bo.to_json()
    with pytest.raises(RuleError) as refused:
        bo.short_rest(["Clear Fatigue", "Prepare"])
    assert str(refused.value) == ("Rest & Recovery: a short rest allows 2 activities, not 3: "
                                  "Bo tended Ash's wounds in this rest")
    assert bo.to_json() == before
    # The one activity left goes through and ends the rest.
    assert bo.short_rest(["Prepare"]) == ["tended Ash's wounds", "is Prepared"]
    assert (bo.resting, bo.rest_done, bo.tended, bo.short_rests_in_a_row) == ("", [], "", 1)
    assert bo.log[-1].summary == "Bo: short rest — tended Ash's wounds; is Prepared"


def test_tend_to_wounds_once_a_rest() -> None:
    party, bo, ash = table()
    cole = party.new_character("Cole", max_hp=8)
    cole.take_damage(4)
    party.tend_ally(bo, ash, 1)
    with pytest.raises(RuleError, match=r"each short rest activity can be chosen once, and Bo "
                                        r"tended Ash's wounds in this rest \(its Tend to "
                                        r"Wounds\)"):
        bo.short_rest(["Tend to Wounds"], supplies=1)
    for patient in (cole, ash):  # another ally, or the same one again
        with pytest.raises(RuleError, match="Tend to Wounds: it is one activity, chosen once "
                                            "a rest, and Bo tended Ash's wounds"):
            party.tend_ally(bo, patient, 1)
    assert (bo.supplies, cole.hp, ash.hp) == (3, 4, 8)
    # The next rest is a new one: Bo may tend again.
    bo.short_rest([])
    assert party.tend_ally(bo, cole, 1) == 2


def test_no_rest_of_another_kind_while_one_is_begun() -> None:
    party, bo, ash = table()
    party.tend_ally(bo, ash, 1)
    with pytest.raises(RuleError, match="Long Rest: Bo tended Ash's wounds in this rest, as "
                                        "part of a short rest: take that rest before a long"):
        bo.long_rest(["Clear Fatigue"])
    with pytest.raises(RuleError, match="Extended Rest: Bo tended Ash's wounds"):
        bo.extended_rest("Recuperate")
    with pytest.raises(RuleError, match="Tend to Wounds: Bo tended Ash's wounds"):
        party.tend_ally(bo, ash, 1, rest="long")


def test_long_rest_tending_spends_any_supply_and_leaves_one_activity() -> None:
    party, bo, ash = table(bo_supplies=5)
    bo.lucky_find()
    assert party.tend_ally(bo, ash, 3, rest="long") == 12  # 3 × a quarter of 16
    assert (bo.resting, bo.supplies, ash.hp) == ("long", 2, 16)
    with pytest.raises(RuleError, match="a long rest allows 2 activities, not 3"):
        bo.long_rest(["Clear Fatigue", "Take Watch"], seed=1)
    with pytest.raises(RuleError, match="supply heals only with Tend to Wounds"):
        bo.long_rest(["Clear Fatigue"], heal_supplies=1)
    notes = bo.long_rest(["Clear Fatigue"], exhaustion_supplies=0)
    assert notes[0] == "tended Ash's wounds" and bo.threads == bo.max_threads
    assert bo.resting == ""


@pytest.mark.parametrize(("setup", "rest", "supplies", "message"), [
    (lambda a: a.start_turn(), "short", 1, "Tend to Wounds: end the turn before resting"),
    (lambda a: [a.short_rest([]) for _ in range(3)], "short", 1,
     "Short Rest: no more than 3 short rests in a row before a long rest"),
    (lambda a: None, "extended", 1, "Tend to Wounds: it is a short or long rest activity"),
    (lambda a: None, "short", 3, "Tend to Wounds: spend 0-2 supply on a short rest"),
    (lambda a: None, "long", -1, "Tend to Wounds: spend a whole number of supply, 0 or more"),
    (lambda a: None, "long", 9, "Supplies: Bo has only 4 supply"),
    (lambda a: (a.take_damage(40), a.mark_exhaustion(9)), "short", 1,
     "Tend to Wounds: Bo is dead"),
])
def test_illegal_tending_is_refused_and_spends_nothing(setup: Callable[[Adventurer], object],
                                                       rest: str, supplies: int,
                                                       message: str) -> None:
    party, bo, ash = table()
    setup(bo)
    before, hp = bo.to_json(), ash.hp
    with pytest.raises(RuleError) as refused:
        party.tend_ally(bo, ash, supplies, rest)
    assert str(refused.value).startswith(message)
    assert bo.to_json() == before and ash.hp == hp


def test_a_patient_who_cannot_heal_costs_the_tender_nothing() -> None:
    party, bo, ash = table()
    ash.take_damage(40)
    ash.mark_exhaustion(9)  # dies while dying
    assert ash.dead
    with pytest.raises(RuleError, match="Ash is dead"):
        party.tend_ally(bo, ash, 1)
    assert (bo.supplies, bo.resting, bo.rest_done) == (4, "", [])


def test_undo_the_tending_and_save_a_begun_rest() -> None:
    party, bo, ash = table()
    party.tend_ally(bo, ash, 2)
    loaded = Adventurer.from_json(bo.to_json())
    assert loaded == bo and loaded.tended == "Ash"
    bo.undo()
    assert (bo.supplies, bo.resting, bo.rest_done, bo.tended) == (4, "", [], "")
    assert bo.short_rest(["Clear Fatigue", "Prepare"]) == ["clears 0 fatigue", "is Prepared"]


def test_an_old_save_without_the_rest_fields_loads() -> None:
    raw = json.loads(Adventurer.new("Bo").to_json())
    state = raw["state"]
    for key in ("resting", "rest_done", "tended"):
        state.pop(key)
    loaded = Adventurer.from_json(json.dumps(raw))
    assert (loaded.resting, loaded.rest_done, loaded.tended) == ("", [], "")


@pytest.mark.parametrize(("change", "field"), [
    ({"rest_done": ["Tend to Wounds"], "tended": "Ash"}, "rest_done"),
    ({"resting": "short", "rest_done": ["Take Watch"]}, "rest_done[0]"),
    ({"resting": "short", "rest_done": ["Prepare", "Prepare"]}, "rest_done"),
    ({"resting": "short", "rest_done": ["Tend to Wounds"], "tended": ""}, "tended"),
    ({"resting": "short", "rest_done": ["Prepare"], "tended": "Ash"}, "tended"),
    ({"resting": "odd"}, "resting"),
])
def test_a_corrupt_rest_is_refused_naming_the_field(change: dict[str, object],
                                                    field: str) -> None:
    raw = json.loads(Adventurer.new("Bo").to_json())
    state = raw["state"]
    state.update(change)
    with pytest.raises(StateError, match=re.escape(f"field '{field}'")):
        Adventurer.from_json(json.dumps(raw))
