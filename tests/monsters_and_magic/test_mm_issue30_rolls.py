"""Issue 30 (Monsters & Magic): the rests' focus rolls and Feeling Lucky use up forward
("a modifier that ends after it is used") and follow the results table like any check."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheck, Tier
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.rulesets.monsters_and_magic.party import Party

XP = {Tier.MISS: 1, Tier.CRITICAL_MISS: 2}


def _seed_for(modifier: int, wanted: Tier, dc: int | None = None) -> int:
    """A seed whose first check with ``modifier`` (the rest's first roll) is ``wanted``."""
    for seed in range(2000):
        if AbilityCheck(modifier, dc).roll(rng=random.Random(seed)).tier == wanted:
            return seed
    raise AssertionError(f"no seed below 2000 rolls {wanted}")


@pytest.mark.parametrize("seed", range(8))
def test_gather_supplies_uses_forward_once(seed: int) -> None:
    ash = Adventurer.new("Ash", focus=1)
    ash.take_forward(2)
    expected = AbilityCheck(3).roll(rng=random.Random(seed))
    notes = ash.short_rest(["Gather Supplies"], seed=seed)
    assert str(expected) in notes[0]  # the roll had focus +1 and forward +2
    assert ash.forward == 0
    assert ash.build_check("focus").modifier == 1  # the next check has no forward left


@pytest.mark.parametrize("tier", list(Tier))
def test_gather_supplies_reads_the_results_table(tier: Tier) -> None:
    party = Party()
    ash = party.new_character("Ash")
    seed = _seed_for(0, tier)
    party.rest(ash, "short", ["Gather Supplies"], seed=seed)
    assert ash.xp == XP.get(tier, 0)
    assert ("Inspired" in ash.statuses) == (tier == Tier.CRITICAL_HIT)
    assert ash.supplies == {Tier.WEAK_HIT: 1, Tier.STRONG_HIT: 2, Tier.CRITICAL_HIT: 2}.get(
        tier, 0)
    assert party.gm.threads == (1 if tier == Tier.CRITICAL_MISS else 0)
    assert ash.rest_results is not None and ash.rest_results.tiers == [tier.label]


def test_take_watch_with_the_gms_dc_reads_the_table() -> None:
    party = Party()
    ash = party.new_character("Ash", focus=2)
    ash.take_forward(1)
    seed = _seed_for(3, Tier.MISS, dc=15)
    notes = party.rest(ash, "long", ["Take Watch"], seed=seed, watch_dc=15)
    assert ash.xp == 1 and ash.forward == 0 and "vs DC 15: Miss" in notes[0]


def test_take_watch_without_the_dc_applies_only_criticals() -> None:
    party = Party()
    ash = party.new_character("Ash")
    miss = _seed_for(0, Tier.MISS)
    notes = party.rest(ash, "long", ["Take Watch"], seed=miss)
    assert ash.xp == 0 and "compares it with the hidden DC" in notes[0]
    assert ash.rest_results is None
    critical = _seed_for(0, Tier.CRITICAL_MISS)
    party.rest(ash, "long", ["Take Watch"], seed=critical)
    assert ash.xp == 2 and party.gm.threads == 1  # a natural 1 whatever the DC
    with pytest.raises(RuleError, match="a watch DC is for Take Watch"):
        ash.long_rest(["Clear Fatigue"], watch_dc=12)
    with pytest.raises(RuleError, match="hidden DC is a whole number"):
        ash.long_rest(["Take Watch"], watch_dc=10**6)


def test_two_rest_rolls_share_one_forward_and_both_count() -> None:
    party = Party()
    ash = party.new_character("Ash")
    ash.take_forward(5)
    rng_seed = next(s for s in range(3000)
                    if [AbilityCheck(m).roll(rng=r).tier for r in [random.Random(s)]
                        for m in (5, 0)] == [Tier.CRITICAL_MISS, Tier.CRITICAL_MISS])
    party.rest(ash, "long", ["Gather Supplies", "Take Watch"], seed=rng_seed)
    assert ash.forward == 0 and ash.xp == 4 and party.gm.threads == 2
    assert ash.rest_results is not None
    assert ash.rest_results.tiers == ["Critical Miss", "Critical Miss"]


def test_feeling_lucky_uses_forward() -> None:
    ash = Adventurer.new("Ash", luck=1, max_threads=2)
    ash.roll_check("power", seed=3)
    ash.take_forward(2)
    expected = AbilityCheck(3).roll(seed=11)
    result = ash.feeling_lucky(seed=11)
    assert result.total == expected.total and ash.forward == 0
    ash.take_forward(2)
    ash.feeling_lucky(against_you=True, seed=11)  # the luck roll used it here too
    assert ash.forward == 0


def test_rest_results_round_trip_and_old_saves_load() -> None:
    party = Party()
    ash = party.new_character("Ash")
    party.rest(ash, "short", ["Gather Supplies"], seed=_seed_for(0, Tier.MISS))
    again = Adventurer.from_json(ash.to_json())
    assert again == ash
    data = json.loads(ash.to_json())
    del data["state"]["rest_results"]  # a sheet saved before the field
    assert Adventurer.from_json(json.dumps(data)).rest_results is None
    data["state"]["rest_results"] = {"tiers": ["Big Hit"], "hidden": ""}
    with pytest.raises(Exception, match="tiers"):
        Adventurer.from_json(json.dumps(data))
    with pytest.raises(RuleError, match="no 'nap' rest"):
        party.rest(ash, "nap")


def test_gather_supplies_odds_with_forward_against_enumeration() -> None:
    """The supplies a Gather Supplies roll finds with focus +1 and +2 forward: exact odds
    from the check against counting the twenty faces."""
    odds = AbilityCheck(3).tier_odds()
    found = {n: Fraction(0) for n in (0, 1, 2)}
    for tier, p in odds.items():
        found[2 if tier >= Tier.STRONG_HIT else 1 if tier.is_hit else 0] += p
    counted = {n: Fraction(0) for n in (0, 1, 2)}
    for face in range(1, 21):
        total = face + 3
        n = 2 if face == 20 or (face != 1 and total >= 18) else (
            1 if face != 1 and total >= 10 else 0)
        counted[n] += Fraction(1, 20)
    assert found == counted == {0: Fraction(3, 10), 1: Fraction(2, 5), 2: Fraction(3, 10)}


@pytest.mark.parametrize("kind", ["short", "long", "extended"])
def test_a_rest_leaves_no_check_to_bend_or_replace(kind: str) -> None:
    """A check made before a rest is long resolved when it ends, and the rest's own rolls
    are settled inside it: Bend Luck and Feeling Lucky are refused until the next check
    (the pre-rest check used to stay open to both, and Feeling Lucky replaced it rather
    than the rest's roll). Nothing is spent by the refusal."""
    party = Party()
    ash = party.new_character("Ash", luck=1, max_threads=2)
    party.roll_check(ash, "power", seed=3)
    assert ash.last_check is not None
    activities = {"short": ["Gather Supplies"], "long": ["Gather Supplies", "Take Watch"],
                  "extended": ["Recuperate"]}[kind]
    party.rest(ash, kind, activities, **({} if kind == "extended" else {"seed": 4}))
    assert ash.last_check is None
    threads = ash.threads
    with pytest.raises(RuleError, match="Bend Luck: there is no check of yours to bend"):
        party.spend_thread(ash, "bend_luck")
    with pytest.raises(RuleError, match="Feeling Lucky: there is no check of yours"):
        party.spend_thread(ash, "feeling_lucky", seed=1)
    assert ash.threads == threads and party.gm.threads == 0
    # A roll against the character is still answered, and the next check is open again.
    party.spend_thread(ash, "feeling_lucky", True, seed=1)
    party.roll_check(ash, "power", seed=5)
    bent, _ = party.spend_thread(ash, "bend_luck")
    assert bent == ash.last_check.total and ash.last_check.bent


def test_tending_an_ally_leaves_the_check_open_until_the_rest_ends() -> None:
    """Tending an ally begins the tender's rest; the rest ends with its own move."""
    party = Party()
    bo = party.new_character("Bo", supplies=2, max_threads=1)
    ash = party.new_character("Ash", max_hp=12)
    party.roll_check(bo, "focus", seed=2)
    party.tend_ally(bo, ash, 1)
    assert bo.last_check is not None  # the rest is begun, not over
    party.rest(bo, "short", ["Clear Fatigue"])
    assert bo.last_check is None
