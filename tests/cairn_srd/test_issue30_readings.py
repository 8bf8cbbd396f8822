"""Issue 30 (Cairn): the readings a referee disputed, move by move, with exact odds checked
against brute-force enumeration where the odds change."""

from __future__ import annotations

import itertools
import random
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


class GridRng(random.Random):
    """Draws the given uniform values in turn. ``(k + 0.5) / n`` for k in 0..n-1 lands on
    each face of a die of ``n`` sides once, so a grid of them per die weighs each face of
    the dice the move rolls exactly; a die of another size comes out otherwise, and the
    distribution then differs."""

    def __init__(self, *values: float) -> None:
        super().__init__(0)
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


def guard_lost_over_the_grid(grids: tuple[int, int], detachment: bool,
                             panicking: bool = False) -> dict[int, Fraction]:
    """Ash's d8 and d10 attack made by the move itself for every pair of draws from
    ``grids`` (one grid per die): the chance of each Guard loss of a target with 1 Armor
    and Guard to take any hit."""
    seen: Counter[int] = Counter()
    e = Encounter()
    e.add("Ash", "PCs", guard=3, strength=10, dexterity=10, pc=True, weapon=8)
    e.add("Spears", "Enemies", guard=18, strength=10, armor=1, detachment=detachment)
    e.roll_initiative(rng=FixedRng(1))
    if panicking:
        e.sync_sheet("Ash", guard_max=3, dexterity=10, control=10, armor=0,
                     panicking=True, no_guard="panic")
    first, second = grids
    for i, j in itertools.product(range(first), range(second)):
        e.attack(Attack("Ash", "Spears", second_weapon=10),
                 rng=GridRng((i + 0.5) / first, (j + 0.5) / second))
        seen[18 - e.find("Spears").guard] += 1
        e.undo()
    return {lost: Fraction(n, first * second) for lost, n in sorted(seen.items())}


def brute_guard_lost(sides: list[int], armor: int) -> dict[int, Fraction]:
    """Every face of every die counted: the highest kept, less Armor."""
    counts = Counter(max(0, max(faces) - armor) for faces in itertools.product(
        *(range(1, d + 1) for d in sides)))
    total = sum(counts.values())
    return {v: Fraction(n, total) for v, n in sorted(counts.items())}


def test_the_attack_move_deals_the_enumerated_damage_of_dual_weapons() -> None:
    """End to end: the damage the attack move deals over every draw, against the dice the
    seed names counted face by face (d4 and d4 against a detachment or in panic)."""
    impaired = brute_guard_lost([4, 4], armor=1)
    assert impaired == {0: Fraction(1, 16), 1: Fraction(3, 16), 2: Fraction(5, 16),
                        3: Fraction(7, 16)}
    # grids of 4 weigh two d4s (a d10 rolled by mistake would show a 7 or a 9)
    assert guard_lost_over_the_grid((4, 4), detachment=True) == impaired
    assert guard_lost_over_the_grid((4, 4), detachment=False, panicking=True) == impaired
    # against one foe, calm: the d8 and the d10 as they are
    assert guard_lost_over_the_grid((8, 10), detachment=False) == brute_guard_lost(
        [8, 10], armor=1)
    # and the odds the app shows are the same, less Armor
    shown = combat.damage_odds([4, 4])
    assert {max(0, v - 1): shown.p(v) for v in range(2, 5)} | {0: shown.p(1)} == impaired


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


# -- wrong 6: a turn of rest only out of danger ------------------------------------------


def party_fight() -> tuple[Encounter, object]:
    from companion.rulesets.cairn_srd.character import Character

    ash = Character(name="Ash", guard_max=5, guard=1)
    e = Encounter()
    combat.join_character(e, ash, weapon=8)
    e.add("Goblin", "Enemies", guard=2, strength=6)
    table = {"ash": ash, "fight": e}  # no campaign: a plain dict of trackers by id
    e.link(table)
    ash.link(table)
    return e, ash


def test_rest_a_turn_is_refused_in_the_middle_of_a_fight() -> None:
    from companion.rulesets.cairn_srd.character import Character

    e, ash = party_fight()
    assert isinstance(ash, Character)
    assert e.danger("Ash") == ""  # still setting up: no danger yet
    e.roll_initiative(rng=FixedRng(20))
    assert e.danger("Ash") == "in the fight (round 1)"
    for rest in (ash.rest_turn, ash.rest_night, ash.rest_day):
        with pytest.raises(RuleError, match="out of danger; Ash is in the fight"):
            rest()
    assert ash.guard == 1 and len(ash.log) == 0  # nothing changed, nothing logged
    # once out of the fight (fled, or the fight over), the turn of rest refills Guard
    e.set_status("Ash", "fled")
    assert e.danger("Ash") == ""
    ash.rest_turn()
    assert ash.guard == 5


def test_a_rest_after_the_fight_is_over_and_on_an_unlinked_sheet() -> None:
    from companion.rulesets.cairn_srd.character import Character

    e, ash = party_fight()
    assert isinstance(ash, Character)
    e.begin("PCs")
    e.set_status("Goblin", "fled")  # the foe flees: the fight is over
    assert e.phase == "over" and e.danger("Ash") == ""
    ash.rest_turn()
    assert ash.guard == 5
    ash.link(None)
    assert ash.danger == ""
    free = Character(name="Bryn", guard_max=4, guard=0)
    free.rest_turn()  # no fight linked: nothing to refuse
    assert free.guard == 4


def test_a_foe_is_stabilised_after_critical_damage_or_surrenders() -> None:
    from companion.rulesets.cairn_srd.character import Character

    e, ash = party_fight()
    assert isinstance(ash, Character)
    e.add("Ogre", "Enemies", guard=3, strength=12)
    e.begin("PCs")
    with pytest.raises(RuleError, match="only a combatant with Critical Damage is "
                                        "stabilised; Goblin is active"):
        e.set_status("Goblin", "stable")
    e.set_status("Goblin", "critical")  # a failed save, told by the fiction
    e.set_status("Goblin", "stable")  # given aid: no longer dying, still out of the action
    assert e.find("Goblin").status == "stable" and e.log[-1].summary == "Goblin is now stable"
    with pytest.raises(RuleError, match="Goblin is already stable"):
        e.attack(Attack("Ash", "Goblin"))
    assert e.danger("Ash") == "in the fight (round 1)" and e.phase == "Enemies"
    e.set_status("Ogre", "surrendered")  # the last foe yields: the fight is over
    assert e.phase == "over" and e.danger("Ash") == ""
    with pytest.raises(RuleError, match="status is active, critical, stable, surrendered, "
                                        "dead or fled, not “asleep”"):
        e.set_status("Ogre", "asleep")
    # a party member surrenders in the fight: out of it (and so out of its danger)
    again, sheet = party_fight()
    assert isinstance(sheet, Character)
    again.begin("Enemies")
    again.set_status("Ash", "surrendered")
    assert again.fighter("Ash").status == "surrendered" and sheet.danger == ""
    # Critical Damage on a sheet is stabilised by the sheet's rest, not a mark
    sheet.critical = True  # (set directly: a failed save, as the sheet keeps it)
    with pytest.raises(RuleError, match="sheet decides it"):
        again.set_status("Ash", "stable")


def test_a_camp_carried_onto_the_sheets_rests_none_still_in_the_fight() -> None:
    from companion.rulesets.cairn_srd import wilderness
    from companion.rulesets.cairn_srd.character import Character

    e, ash = party_fight()
    assert isinstance(ash, Character)
    bo = Character(name="Bo")
    for sheet in (ash, bo):
        sheet.add_fatigue()
    journey = wilderness.Journey()
    for name in ("Ash", "Bo"):
        journey.add_traveller(name)  # the camp left both travellers without Fatigue
    e.roll_initiative(rng=FixedRng(20))
    notes = wilderness.apply_to_sheets(journey, [ash, bo])
    # Ash is still fighting: the night's rest is refused and said; Bo sleeps all the same
    assert notes == ["Ash: Rest: a night's rest needs the character out of danger; Ash is "
                     "in the fight (round 1)", "Bo: all Fatigue removed"]
    assert (ash.fatigue, bo.fatigue) == (1, 0)
    e.set_status("Ash", "fled")
    assert wilderness.apply_to_sheets(journey, [ash, bo]) == ["Ash: all Fatigue removed"]
    assert ash.fatigue == 0


# -- missing 2: who acts first by the fiction --------------------------------------------


def three_side_fight() -> Encounter:
    e = Encounter()
    e.add("Ash", "PCs", guard=4, strength=12, dexterity=12, armor=2, weapon=8, pc=True)
    e.add("Bryn", "PCs", guard=3, strength=10, dexterity=10, weapon=6, pc=True)
    e.add("Hound", "PCs", guard=2, strength=8, weapon=6)  # an allied NPC
    e.add("Goblin", "Enemies", guard=2, strength=6, control=7, weapon=6)
    return e


def test_the_fiction_gives_the_pcs_the_first_move_without_a_roll() -> None:
    e = three_side_fight()
    text = e.begin("PCs", surprised=["Bryn"])
    assert "PCs act first: Ash, Hound" in text and "surprised: Bryn" in text
    assert (e.round, e.phase) == (1, "Enemies")
    assert [c.acted_first for c in e.combatants] == [True, False, True, False]
    e.attack(Attack("Ash", "Goblin"), rng=FixedRng(1))  # acts ahead of the enemy
    with pytest.raises(RuleError, match="Enemies' turn"):
        e.attack(Attack("Bryn", "Goblin"))  # surprised: waits for the PCs' turn
    with pytest.raises(RuleError, match="already begun"):
        e.begin("Enemies")
    with pytest.raises(RuleError, match="before round 1"):
        e.roll_initiative()
    e.undo()
    e.undo()
    assert e.phase == "setup" and not any(c.acted_first for c in e.combatants)


def test_the_fiction_gives_the_enemy_the_first_move() -> None:
    e = three_side_fight()
    assert e.begin("Enemies") == "by the fiction, the enemy acts first"
    assert (e.round, e.phase) == (1, "Enemies") and not any(c.acted_first
                                                             for c in e.combatants)
    with pytest.raises(RuleError, match="Enemies' turn"):
        e.attack(Attack("Ash", "Goblin"))
    e.attack(Attack("Goblin", "Ash"), rng=FixedRng(1))
    assert e.end_turn() == "PCs"


def test_begin_refusals() -> None:
    e = three_side_fight()
    with pytest.raises(RuleError, match="PCs or Enemies"):
        e.begin("Monsters")
    with pytest.raises(RuleError, match="no PC acts before it"):
        e.begin("Enemies", surprised=["Ash"])
    with pytest.raises(RuleError, match="“Hound” is no player character"):
        e.begin("PCs", surprised=["Hound"])
    with pytest.raises(RuleError, match="“Nobody” is no player character"):
        e.roll_initiative(surprised=["Nobody"])
    lonely = Encounter()
    lonely.add("Ash", "PCs", guard=4, strength=12, pc=True)
    with pytest.raises(RuleError, match="both sides"):
        lonely.begin("PCs")
    assert e.phase == "setup" and e.log[-1].summary.startswith("Goblin joins")


def test_surprised_pcs_make_no_initiative_save() -> None:
    e = three_side_fight()
    results = e.roll_initiative(surprised=["Ash"], rng=FixedRng(5))
    assert list(results) == ["Bryn"] and results["Bryn"].success
    assert [c.acted_first for c in e.combatants] == [False, True, False, False]


# -- missing 1: a failed study of a stiff lock jams it -----------------------------------


def pin_lock(comp: str = "None") -> object:
    from companion.rulesets.cairn_srd.lockpicking import LockPicking

    return LockPicking(lock_type="Pin", dv=1, sequence="TPR", complication=comp)


def test_a_failed_study_of_a_stiff_lock_jams_it() -> None:
    from companion.rulesets.cairn_srd.lockpicking import LockPicking

    lp = pin_lock()
    assert isinstance(lp, LockPicking)
    lp.study(have=2, rng=FixedRng(2))  # failed, the lock is not stiff: only the turn
    assert (lp.jammed, lp.stiff, lp.turns) == (False, False, 1)
    lp.pick("P")  # a wrong action: stiff
    assert lp.stiff and not lp.jammed
    lp.study(have=2, rng=FixedRng(5))  # a success teaches, jams nothing
    assert lp.hint == "T??" and not lp.jammed
    lp.study(have=2, rng=FixedRng(4))  # a failure on the stiff lock: jammed
    assert lp.jammed and lp.state == "jammed" and lp.mistakes == 1
    assert lp.log[-1].summary.endswith("the stiff lock jams")
    with pytest.raises(RuleError, match="jammed lock cannot be unlocked"):
        lp.study(have=3)
    with pytest.raises(RuleError, match="jammed lock cannot be unlocked"):
        lp.pick("T")
    lp.undo()
    assert lp.stiff and not lp.jammed


def test_a_worn_lock_ignores_the_first_jam_from_a_study_and_a_fail_is_no_mistake() -> None:
    from companion.rulesets.cairn_srd.lockpicking import LockPicking

    worn = pin_lock("Worn")
    assert isinstance(worn, LockPicking)
    worn.pick("R")
    worn.study(have=1)  # one of three: fails outright
    assert worn.jam_ignored and not worn.jammed
    worn.study(have=0)
    assert worn.jammed
    trapped = pin_lock("Trapped")
    assert isinstance(trapped, LockPicking)
    trapped.pick("R")
    trapped.study(have=0)
    assert trapped.jammed and trapped.traps_sprung == 1  # the study sprang no trap
    delicate = pin_lock("Delicate")
    assert isinstance(delicate, LockPicking)
    delicate.study(have=0)  # not stiff, no mistake: the delicate lock holds
    assert not delicate.jammed and delicate.mistakes == 0


# -- missing 5: readings that change play, marked -----------------------------------------


def test_direct_damage_skips_armor_and_guard_as_marked() -> None:
    from companion.rulesets.cairn_srd import damage
    from companion.rulesets.cairn_srd.character import Character

    assert "Interpretation: direct damage skips Armor" in (damage.__doc__ or "")
    hit = damage.resolve_hit(5, guard=4, strength=10, armor=2, direct=True)
    assert (hit.absorbed, hit.to_guard, hit.to_str, hit.str_after) == (0, 0, 5, 5)
    plain = damage.resolve_hit(5, guard=4, strength=10, armor=2)
    assert (plain.absorbed, plain.to_guard, plain.to_str) == (2, 3, 0)
    ash = Character(name="Ash", armor=2, guard_max=4, guard=4)
    report = ash.take_damage(3, direct=True, rng=FixedRng(1))
    assert (ash.armor, ash.guard, ash.strength) == (2, 4, 7) and report.critical_save
    e = Encounter()
    e.add("Ogre", "Enemies", guard=6, strength=12, armor=3)
    text = e.apply_damage("Ogre", 4, direct=True, rng=FixedRng(1))
    assert "armor 0, Guard 0, STR 4" in text and e.find("Ogre").guard == 6


def test_deprivation_fatigue_comes_one_a_day_from_the_second_day_as_marked() -> None:
    from companion.rulesets.cairn_srd import character
    from companion.rulesets.cairn_srd.character import Character

    assert "Deprivation's Fatigue" in (character.__doc__ or "")
    c = Character(name="Ash")
    with pytest.raises(RuleError, match="not deprived"):
        c.deprived_day()
    c.set_deprived()
    fatigue = []
    for _ in range(4):
        c.deprived_day()
        fatigue.append(c.fatigue)
    assert fatigue == [0, 1, 2, 3]
    c.set_deprived(False)  # fed and rested: the count starts again
    c.set_deprived()
    c.deprived_day()
    assert c.fatigue == 3 and c.deprived_days == 1


def test_the_new_readings_reach_the_interpretations_page() -> None:
    from pathlib import Path

    from tools.source_info import interpretations

    root = Path(__file__).resolve().parents[2] / "companion" / "rulesets" / "cairn_srd"
    wanted = {"damage": "direct damage skips Armor",
              "character": "Deprivation's Fatigue",
              "lockpicking": "a failure on a stiff lock",
              "combat": "A second\nweapon strikes",
              "burden": "per 500 *or part*"}
    for module, text in wanted.items():
        readings = " ".join(r for _, r in interpretations(
            root / f"{module}.py", f"companion.rulesets.cairn_srd.{module}"))
        assert " ".join(text.split()).lower() in " ".join(readings.split()).lower(), module
    rest = " ".join(r for _, r in interpretations(
        root / "character.py", "companion.rulesets.cairn_srd.character"))
    fight = " ".join(" ".join(r.split()) for _, r in interpretations(
        root / "combat.py", "companion.rulesets.cairn_srd.combat")).lower()
    assert "out of danger" in rest and "fiction says the pcs act first" in fight
    assert 'a foe stabilised by aid is marked "stable"' in fight


def test_a_burden_kept_under_the_old_coin_reading_still_loads_with_no_free_slot() -> None:
    """Before issue 30 each purse's first 500 coins were free: nine items and three purses of
    500 fitted. Counted together those purses fill 2 slots (11 in all); the stored character
    must still open (nothing in a campaign is lost), full, until coins are dropped."""
    import json

    from companion.errors import StateError
    from companion.rulesets.cairn_srd.character import Character

    c = Character(name="Ash", guard_max=5, guard=5)
    for i in range(9):
        c.add_item(f"gear {i}")
    saved = json.loads(c.to_json())
    saved["log"] = []
    # A save of that time: schema 1, without the fields schema 2 added.
    del saved["schema"], saved["state"]["per_purse_coins"], saved["state"]["fates_taken"]
    items = saved["state"]["items"]
    purse = {**items[0], "name": "silver", "tag": "coins", "quantity": 500}
    items += [purse, purse, purse]
    old = Character.from_json(json.dumps(saved))
    assert old.slots_used == 11 and old.free_slots == 0 and old.effective_guard == 0
    assert old.per_purse_coins  # the upcaster from schema 1 marked it
    with pytest.raises(RuleError, match="needs 1 slot"):
        old.add_item("rope")
    old.drop_item(len(old.items) - 1)  # one purse goes: 1,000 coins, 10 slots, still full
    assert old.slots_used == 10 and old.free_slots == 0
    old.drop_item(len(old.items) - 1)  # 500 coins: petty, a slot frees
    assert old.free_slots == 1
    # A burden over 10 slots under both readings was never possible: still refused.
    items += [{**items[0], "name": "anvil"}, {**items[0], "name": "bell"}]
    with pytest.raises(StateError, match="items"):
        Character.from_json(json.dumps(saved))
