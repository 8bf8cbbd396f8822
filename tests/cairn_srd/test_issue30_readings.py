"""Issue 30 (Cairn): the readings a referee disputed, move by move, with exact odds checked
against brute-force enumeration where the odds change."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd import combat
from companion.rulesets.cairn_srd.combat import Attack, Encounter
from tests.cairn_srd.test_character import FixedRng


def brute_max(sides: list[int]) -> dict[int, Fraction]:
    """Every face of every die, counted: the chance of each highest value."""
    counts = Counter(max(faces) for faces in itertools.product(*(range(1, d + 1)
                                                                 for d in sides)))
    total = sum(counts.values())
    return {v: Fraction(n, total) for v, n in sorted(counts.items())}


def dual_fight(detachment: bool) -> Encounter:
    e = Encounter()
    e.add("Ash", "PCs", guard=3, strength=10, dexterity=10, pc=True, weapon=8)
    e.add("Spears", "Enemies", guard=5, strength=10, detachment=detachment)
    e.roll_initiative(rng=FixedRng(1))  # Ash passes: may attack in round 1
    return e


# -- wrong 1: dual weapons impaired -----------------------------------------------------


def test_dual_weapons_against_a_detachment_roll_two_impaired_dice() -> None:
    e = dual_fight(detachment=True)
    dual = Attack("Ash", "Spears", second_weapon=10)
    assert e.attack_dice(dual) == [4, 4]  # the d8 and the d10 both impaired
    e.attack(dual, hold_for_gambits=True, rng=FixedRng(4, 3))
    assert e.pending is not None and e.pending.dice == [4, 4]
    assert e.pending.rolls == [4, 3]
    e.resolve_attack()
    # the case: a d10 can no longer show 8 against a detachment
    for seed in range(40):
        trial = dual_fight(detachment=True)
        trial.attack(dual, hold_for_gambits=True, seed=seed)
        assert trial.pending is not None and max(trial.pending.rolls) <= 4


def test_dual_weapons_damage_odds_match_enumeration() -> None:
    e = dual_fight(detachment=True)
    impaired = e.attack_dice(Attack("Ash", "Spears", second_weapon=10))
    odds = combat.damage_odds(impaired)
    assert dict(odds) == brute_max([4, 4])
    assert odds.p(4) == Fraction(7, 16) and odds.p(1) == Fraction(1, 16)
    # against an individual the two weapons keep their own dice
    plain = dual_fight(detachment=False)
    both = plain.attack_dice(Attack("Ash", "Spears", second_weapon=10))
    assert both == [8, 10]
    assert dict(combat.damage_odds(both)) == brute_max([8, 10])
    # a blast is not impaired against a detachment (the seed's exception)
    assert e.attack_dice(Attack("Ash", "Spears", blast=True)) == [8]
    with pytest.raises(RuleError, match="at least one die"):
        combat.damage_odds([])
    with pytest.raises(RuleError, match="d4-d12"):
        combat.damage_odds([7])


def test_a_panicking_attacker_impairs_both_weapons() -> None:
    e = dual_fight(detachment=False)
    e.sync_sheet("Ash", guard_max=3, dexterity=10, control=10, armor=0, panicking=True,
                 no_guard="panic")
    dual = Attack("Ash", "Spears", second_weapon=12)
    assert e.attack_dice(dual) == [4, 4]
    assert dict(combat.damage_odds(e.attack_dice(dual))) == brute_max([4, 4])
    text = e.attack(dual, rng=FixedRng(2, 4, 20))
    assert "d4=2, d4=4, keep 4" in text
    # enhanced and impaired together: the weapon's own die, for both weapons
    assert e.attack_dice(Attack("Ash", "Spears", second_weapon=12, enhanced=True)) == [8, 12]


def test_attack_dice_changes_nothing_and_refuses_as_the_attack_does() -> None:
    e = dual_fight(detachment=True)
    before = e.to_json()
    with pytest.raises(RuleError, match="Dual Weapons"):
        e.attack_dice(Attack("Ash", "Spears", second_weapon=6, unarmed=True))
    e.attack_dice(Attack("Ash", "Spears", second_weapon=6))
    assert e.to_json() == before and len(e.log) == 2 + 1



# -- wrong 2: coins counted across the whole burden ---------------------------------------


def brute_coin_slots(purses: list[int]) -> int:
    """The seed's rule counted coin by coin: the first 500 are petty, then every started
    500 fills a slot."""
    slots, in_slot = 0, 0
    for n, _ in enumerate(range(sum(purses)), start=1):
        if n <= 500:
            continue
        if in_slot == 0:
            slots += 1
        in_slot = (in_slot + 1) % 500
    return slots


def test_three_purses_of_500_fill_two_slots_like_one_purse_of_1500() -> None:
    from companion.rulesets.cairn_srd.character import Character

    split, whole = Character(name="Split"), Character(name="Whole")
    for _ in range(3):
        split.add_item("silver", "coins", 500)
    whole.add_item("silver", "coins", 1500)
    assert split.slots_used == whole.slots_used == 2
    assert split.slot_shares == [0, 1, 1] and whole.slot_shares == [2]
    assert "1 slot(s), 8 free" not in split.log[-1].summary


@pytest.mark.parametrize("purses", [[500], [501], [250, 251], [400, 200, 300],
                                    [499, 1, 1], [1000, 1], [100] * 12, [1500, 500, 1]])
def test_coin_slots_match_counting_coin_by_coin(purses: list[int]) -> None:
    from companion.rulesets.cairn_srd.burden import make_item, slot_shares, slots_used

    items = [make_item("coins", "coins", n) for n in purses]
    assert slots_used(items) == brute_coin_slots(purses)
    assert sum(slot_shares(items)) == slots_used(items)


def test_coins_change_guard_with_a_full_burden_and_the_magic_dice() -> None:
    from companion.rulesets.cairn_srd.character import Character

    c = Character(name="Ash", guard_max=5, guard=5)
    for i in range(7):
        c.add_item(f"gear {i}")
    c.add_item("purse", "coins", 500)  # petty: still 3 free slots
    assert c.free_slots == 3 and c.max_magic_dice() == 3 and c.effective_guard == 5
    c.add_item("purse", "coins", 500)  # 1,000 coins: 1 slot
    c.add_item("purse", "coins", 500)  # 1,500: 2
    assert c.free_slots == 1 and c.max_magic_dice() == 1 and c.effective_guard == 5
    c.add_item("purse", "coins", 1)  # 1,501: 3 slots, the burden is full
    assert c.free_slots == 0 and c.max_magic_dice() == 0 and c.effective_guard == 0
    with pytest.raises(RuleError, match="needs 1 slot"):
        c.add_item("purse", "coins", 500)  # would be 2,001 coins: a 4th slot
    c.drop_item(len(c.items) - 1)  # the single coin goes: a slot frees, Guard is back
    assert c.free_slots == 1 and c.effective_guard == 5


def test_a_forced_fatigue_drops_an_item_that_really_frees_a_slot() -> None:
    from companion.rulesets.cairn_srd.character import Character

    c = Character(name="Ash")
    for i in range(9):
        c.add_item(f"gear {i}")
    c.add_item("purse", "coins", 400)
    c.add_item("purse", "coins", 200)  # 600 coins: the 10th slot
    c.add_item("purse", "coins", 300)  # 900: still 1 slot (this purse adds none)
    assert c.free_slots == 0
    text = c.take_fatigue("a spell")
    # the newest purse whose going frees a slot: without the 300 or the 200, 600 or 700
    # coins still fill one; without the 400, 500 are left, all petty
    assert "dropped purse (400 coins)" in text and c.free_slots == 0 and c.fatigue == 1
    assert [i.quantity for i in c.items if i.tag == "coins"] == [200, 300]
