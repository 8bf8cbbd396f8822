"""The party's group check on the road, foraging and a travel period, decided in the
ruleset (``Party.road_check``, ``Party.travel_period``) and made on each character's own
sheet; the group's size is checked by the group-check rules before a die is rolled."""

from __future__ import annotations

import pytest

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheck, Tier
from companion.rulesets.monsters_and_magic.group_checks import (
    MAX_GROUP,
    check_group_size,
    read_group,
    roll_group,
)
from companion.rulesets.monsters_and_magic.party import Party
from companion.rulesets.monsters_and_magic.travel import forage_supplies, plan_journey

SLOW = plan_journey(6, speed="Slow")
FAST = plan_journey(6, speed="Fast")


def table(*names: str) -> Party:
    party = Party()
    for name in names:
        party.new_character(name)
    return party


def test_each_check_is_the_sheets_own_and_the_group_reads_them() -> None:
    party = table("Ash", "Bo")
    ash, bo = party.characters
    done = party.road_check(FAST, "luck", seed=3)
    assert done.names == ("Ash", "Bo") and not done.forage and done.found == 0
    assert [e.move for e in ash.log] == [e.move for e in bo.log] == ["roll_check"]
    assert [m.total for m in done.group.members] == [ash.last_check.total,
                                                     bo.last_check.total]
    assert done.group == read_group(list(done.group.members))
    assert str(done).startswith(f"Ash {ash.last_check.total} ")
    assert str(done).endswith(done.tier.label)


@pytest.mark.parametrize("seed", range(12))
def test_foraging_gives_each_taker_what_the_result_earns(seed: int) -> None:
    party = table("Ash", "Bo")
    done = party.road_check(SLOW, "luck", forage=True, seed=seed)
    assert done.found == forage_supplies(done.tier)
    assert [a.supplies for a in party.characters] == [done.found] * 2
    assert ": " + f"{done.found} suppl" in str(done)


def test_refusals_come_before_any_die() -> None:
    party = table("Ash", "Bo")
    with pytest.raises(RuleError, match="only a party on foot at the slow pace"):
        party.road_check(FAST, "luck", forage=True, seed=1)
    with pytest.raises(RuleError, match="nobody in the party"):
        Party().road_check(SLOW, "luck", seed=1)
    assert all(not a.log for a in party.characters)


def test_who_cannot_check_is_left_out_with_the_reason() -> None:
    party = table("Ash", "Bo")
    party.characters[1].dead = True  # (set up: Bo has died)
    done = party.road_check(SLOW, "luck", seed=2)
    assert done.names == ("Ash",) and len(done.left_out) == 1
    assert done.left_out[0].startswith("Bo: ")
    party.characters[0].dead = True
    with pytest.raises(RuleError, match=r"Ash: .*; Bo: "):
        party.road_check(SLOW, "luck", seed=2)


def test_group_size_is_the_group_check_rules_own() -> None:
    check_group_size(1)
    check_group_size(MAX_GROUP)
    for size in (0, MAX_GROUP + 1):
        with pytest.raises(RuleError, match="Group Checks"):
            check_group_size(size)
    with pytest.raises(RuleError, match=f"at most {MAX_GROUP}"):
        read_group([AbilityCheck().roll(seed=1)] * (MAX_GROUP + 1))
    # roll_group reads its rolls the same way as before.
    checks = [AbilityCheck(), AbilityCheck(modifier=2)]
    rolled = roll_group(checks, seed=5)
    assert rolled == read_group(list(rolled.members))
    assert rolled.tier in (Tier.MISS, Tier.WEAK_HIT, Tier.STRONG_HIT)


def test_a_travel_period_marks_the_paces_exhaustion() -> None:
    party = table("Ash", "Bo")
    assert party.travel_period(SLOW) == ([], [])  # no exhaustion at the slow pace
    able, notes = party.travel_period(FAST)
    assert [a.name for a in able] == ["Ash", "Bo"] and notes == []
    assert [a.exhaustion for a in party.characters] == [FAST.exhaustion] * 2
    assert [e.move for e in party.characters[0].log] == ["mark_exhaustion"]


def test_a_fall_is_rolled_and_taken_on_the_sheet_of_whoever_fell() -> None:
    party = table("Ash", "Bo")
    ash = party.characters[0]
    assert str(party.fall(5, ash, seed=1)) == "no damage" and not ash.log  # under 10 feet
    fall = party.fall(30, ash, seed=4)
    assert fall.dice == "3d6" and fall.rolled is not None and fall.who == "Ash"
    assert ash.hp == max(0, ash.max_hp - fall.total) == fall.hp
    assert [e.move for e in ash.log] == ["take_damage"]
    alone = Party().fall(30, seed=4)  # nobody's sheet: just the roll, the same dice
    assert alone.total == fall.total and alone.who == "" and "takes it" not in str(alone)
    with pytest.raises(RuleError, match="Falling: a fall must be"):
        party.fall(-10, ash, seed=1)
    stranger = Party().new_character("Cy")
    with pytest.raises(RuleError, match="not at the table"):
        party.fall(30, stranger, seed=1)
    assert not stranger.log
