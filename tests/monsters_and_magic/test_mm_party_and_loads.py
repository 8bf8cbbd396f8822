"""The table (Party) and what a saved sheet may hold: every invariant refuses a corrupt load."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from companion.errors import RuleError, StateError
from companion.rulesets.monsters_and_magic import AbilityCheck, Adventurer, GameMaster, Tier
from companion.rulesets.monsters_and_magic.party import MAX_CHARACTERS, Party


def test_party_refuses_a_name_already_at_the_table_in_any_case_or_spacing() -> None:
    party = Party()
    party.new_character("Ash Vale")
    for twin in ("Ash Vale", "ash vale", "  ASH   vale "):
        with pytest.raises(RuleError, match="Characters: Ash Vale is already at the table"):
            party.new_character(twin)
    party.new_character("Briar")
    assert party.names == ("Ash Vale", "Briar")
    assert party.get("ash vale") is party.characters[0]


def test_party_is_bounded() -> None:
    party = Party()
    for i in range(MAX_CHARACTERS):
        party.new_character(f"PC {i}")
    with pytest.raises(RuleError, match=f"at most {MAX_CHARACTERS}"):
        party.new_character("One too many")


def test_party_roll_feeds_the_gm_only_on_a_critical_miss() -> None:
    party = Party()
    ash = party.new_character("Ash")
    ones = [s for s in range(400) if AbilityCheck(0).roll(seed=s).natural == 1][:2]
    other = next(s for s in range(400) if AbilityCheck(0).roll(seed=s).natural == 12)
    assert party.roll_check(ash, seed=other).tier != Tier.CRITICAL_MISS
    assert party.gm.threads == 0
    for seed in ones:
        assert party.roll_check(ash, seed=seed).tier == Tier.CRITICAL_MISS
    assert party.gm.threads == 2


def test_party_loads_a_sheet_only_under_a_free_name() -> None:
    party = Party()
    ash, briar = party.new_character("Ash"), party.new_character("Briar")
    with pytest.raises(RuleError, match="Ash is already at the table"):
        party.load_character(briar, ash.to_json())
    assert briar.name == "Briar"
    ash.mark_fatigue(1)
    saved = ash.to_json()
    ash.clear_fatigue(1)
    party.load_character(ash, saved)
    assert ash.fatigue == 1
    with pytest.raises(RuleError, match="not at the table"):
        party.load_character(Adventurer.new("Stranger"), saved)


def test_state_moves_pick_condition_or_status() -> None:
    a = Adventurer.new("Ash")
    a.add_state("weakened")
    a.add_state("Inspired")
    assert a.conditions == ["Weakened"] and a.statuses == ["Inspired"]
    a.remove_state("Weakened")
    a.remove_state("inspired")
    assert a.conditions == [] and a.statuses == []
    with pytest.raises(RuleError):
        a.add_state("Sleepy")


def test_why_not_tries_the_move_without_changing_anything() -> None:
    a = Adventurer.new("Ash")
    before = a.to_json()
    assert a.why_not("take_damage", 5) is None
    assert a.why_not("clear_fatigue", 1) == "Fatigue & Exhaustion: Ash has only 0 fatigue to clear"
    assert a.to_json() == before and a.log == ()
    with pytest.raises(RuleError, match="not a move"):
        a.why_not("to_json")


# -- loads: one test per invariant, a real save corrupted in one place ------------------------

def saved(sheet: Adventurer) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(sheet.to_json())
    return data


def dying_sheet() -> Adventurer:
    a = Adventurer.new("Ash", max_hp=5)
    a.take_damage(9)
    assert a.dying and a.hp == 0
    return a


CORRUPTIONS: list[tuple[str, Callable[[], Adventurer], Callable[[dict[str, Any]], None], str]] = [
    ("dead, dying and at 10 HP", Adventurer,
     lambda s: s.update(dead=True, dying=True, hp=10), "'dead' and 'dying'"),
    ("dying at 10 HP", Adventurer, lambda s: s.update(dying=True, conditions=["Unconscious"]),
     "field 'hp' is 10 but a dying creature is at 0 HP"),
    ("alive at 0 HP", Adventurer, lambda s: s.update(hp=0),
     "field 'hp' is 0 but the creature is not dying"),
    ("dead at 3 HP", Adventurer, lambda s: s.update(dead=True, hp=3),
     "a dead creature is at 0 HP"),
    ("dying and awake", dying_sheet, lambda s: s.update(conditions=[]),
     "must hold Unconscious while dying"),
    ("deathsaves while alive", Adventurer, lambda s: s.update(deathsaves=1),
     "'deathsaves' counts only while dying"),
    ("passed on but alive", Adventurer, lambda s: s.update(passed_on=True),
     "'passed_on' is true but the creature is not dead"),
    ("out until a long rest but awake", Adventurer,
     lambda s: s.update(out_until_long_rest=True), "'out_until_long_rest'"),
    ("AP outside a turn", Adventurer, lambda s: s.update(ap=2), "field 'ap' is 2 outside"),
    ("hp above max", Adventurer, lambda s: s.update(hp=11), "'hp' is above 'max_hp'"),
    ("threads above max", Adventurer, lambda s: s.update(threads=5),
     "'threads' is above 'max_threads'"),
    ("unknown condition", Adventurer, lambda s: s.update(conditions=["Sleepy"]),
     "conditions[0]"),
    ("a condition twice", Adventurer, lambda s: s.update(conditions=["Prone", "Prone"]),
     "the same one twice"),
    ("hold of zero", Adventurer, lambda s: s.update(holds={"arrows": 0}), "holds.arrows"),
    ("huge hold", Adventurer, lambda s: s.update(holds={"arrows": 10**7}), "holds.arrows"),
    ("ongoing past the limit", Adventurer, lambda s: s.update(ongoing={"bless": 5000}),
     "ongoing.bless"),
    ("ongoing from a nameless source", Adventurer, lambda s: s.update(ongoing={"": 1}),
     "'ongoing'"),
    ("a 5,000-character name", Adventurer, lambda s: s.update(name="x" * 5000),
     "field 'name' must be 1-60 characters"),
    ("an empty name", Adventurer, lambda s: s.update(name=""), "field 'name'"),
    ("negative xp", Adventurer, lambda s: s.update(xp=-1), "'xp'"),
    ("last check with a d20 of 25", Adventurer,
     lambda s: s.update(last_check={"expression": "1d20", "natural": 25, "total": 25,
                                    "dc": 10, "tier": "Strong Hit", "bent": False}),
     "last_check.natural"),
    ("last check with a 5,000-character expression", Adventurer,
     lambda s: s.update(last_check={"expression": "1" * 5000, "natural": 5, "total": 5,
                                    "dc": 10, "tier": "Miss", "bent": False}),
     "last_check.expression"),
    ("a thousand kinds of hold", Adventurer,
     lambda s: s.update(holds={f"kind {i}": 1 for i in range(1000)}), "holds"),
    ("last check with a huge total", Adventurer,
     lambda s: s.update(last_check={"expression": "1d20", "natural": 5, "total": 10**9,
                                    "dc": 10, "tier": "Strong Hit", "bent": False}),
     "last_check.total"),
]


@pytest.mark.parametrize(("what", "make", "corrupt", "says"), CORRUPTIONS,
                         ids=[c[0] for c in CORRUPTIONS])
def test_a_corrupt_sheet_is_refused_naming_the_field(
        what: str, make: Callable[[], Adventurer], corrupt: Callable[[dict[str, Any]], None],
        says: str) -> None:
    sheet = make() if make is not Adventurer else Adventurer.new("Ash")
    good = saved(sheet)
    assert Adventurer.from_json(json.dumps(good)) == sheet  # the save itself round-trips
    corrupt(good["state"])
    with pytest.raises(StateError) as info:
        Adventurer.from_json(json.dumps(good))
    assert says in str(info.value)


def test_a_corrupt_undo_snapshot_is_refused_too() -> None:
    a = Adventurer.new("Ash")
    a.take_damage(3)
    data = saved(a)
    data["log"][0]["before"].update(dead=True, dying=True)
    with pytest.raises(StateError, match=r"log\[0\]\.before"):
        Adventurer.from_json(json.dumps(data))


def test_every_state_a_long_game_reaches_round_trips() -> None:
    a = Adventurer.new("Ash", luck=1, max_hp=6)
    a.start_turn()
    a.spend_ap("Strike")
    a.add_ongoing("bless", 1)
    a.gain_hold("arrows", 3)
    a.roll_check("power", seed=4)
    a.end_turn()
    a.take_damage(10)  # dying
    # Seeds 1, 5, 0: a marked exhaustion, a deathsave, then stable; each state round-trips.
    reached = []
    for seed in (1, 5, 0):
        a.death_roll(seed=seed)
        reached.append((a.dying, a.deathsaves, a.exhaustion, a.stable))
        back = Adventurer.from_json(a.to_json())
        assert back == a and back.to_json() == a.to_json()
    assert reached == [(True, 0, 1, False), (True, 1, 1, False), (False, 0, 1, True)]
    back = Adventurer.from_json(a.to_json())
    assert back == a and back.to_json() == a.to_json()
    a.heal(2)
    back = Adventurer.from_json(a.to_json())
    assert back == a and back.hp == 2 and not back.stable


def test_death_bargain_leaves_a_loadable_stable_sheet() -> None:
    a = Adventurer.new("Ash", max_hp=1, max_exhaustion=0)
    a.take_damage(5)
    a.mark_exhaustion(1)  # none left while dying: dies
    assert a.dead
    a.end_condition("Unconscious")  # allowed while dead
    a.accept_deaths_bargain()
    assert a.stable and "Unconscious" in a.conditions
    assert Adventurer.from_json(a.to_json()) == a


def test_gm_threads_bounded_on_load() -> None:
    gm = GameMaster()
    gm.gain_thread(2)
    data = json.loads(gm.to_json())
    data["state"]["threads"] = -1
    with pytest.raises(StateError, match="threads"):
        GameMaster.from_json(json.dumps(data))
    assert GameMaster.from_json(gm.to_json()) == gm


@pytest.mark.parametrize(("text", "says"), [
    ("2, x", "'x' is not one"), ("1, ٣", "'٣' is not one"), ("5000", "within ±1000"),
    (", ,", "at least one"), ("1," * 31, "at most 30"), ("9" * 5000, "is not one")])
def test_group_modifiers_refused_in_the_model(text: str, says: str) -> None:
    from companion.rulesets.monsters_and_magic.group_checks import parse_modifiers

    with pytest.raises(RuleError, match=says) as info:
        parse_modifiers(text)
    assert len(str(info.value)) < 120


def test_group_modifiers_read_signs_and_the_minus_sign() -> None:
    from companion.rulesets.monsters_and_magic.group_checks import parse_modifiers

    assert parse_modifiers(" 2, +1, -3, \u22124 ") == [2, 1, -3, -4]


def test_moves_stop_before_the_saved_limits() -> None:
    from companion.rulesets.monsters_and_magic.adventurer import MAX_ENTRIES

    a = Adventurer.new("Ash")
    for i in range(MAX_ENTRIES):
        a.gain_hold(f"kind {i}")
        a.add_ongoing(f"source {i}", 1)
    with pytest.raises(RuleError, match="at most"):
        a.gain_hold("one more")
    with pytest.raises(RuleError, match="at most"):
        a.add_ongoing("one more", 1)
    a.gain_hold("kind 0", 5)  # a kind already held still stacks
    assert Adventurer.from_json(a.to_json()) == a
