"""Issue 30 (Monsters & Magic): "Blinded — ability checks that rely on sight automatically
fail": a result that says so, with no roll; attack rolls keep their disadvantage."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic import AbilityCheck, Adventurer, Tier
from companion.rulesets.monsters_and_magic.adventurer import SIGHT
from companion.rulesets.monsters_and_magic.party import Party
from companion.widgets.monsters_and_magic import MonstersAndMagicApp
from tests.conftest import widgets_by_name


def blinded(**stats: int) -> Adventurer:
    ash = Adventurer.new("Ash", focus=2, **stats)
    ash.inflict("Blinded")
    return ash


@pytest.mark.parametrize("against", [s for s in SIGHT if s])
def test_every_check_against_something_seen_fails_automatically(against: str) -> None:
    check = blinded().build_check("focus", against=against)
    assert check.fails.startswith("Blinded: Ash cannot see")
    assert check.tier_odds() == {t: Fraction(int(t == Tier.MISS)) for t in Tier}
    assert check.hit_chance() == 0


def test_the_bright_light_check_of_the_issue_fails_without_a_roll() -> None:
    ash = blinded()
    ash.take_forward(2)
    rng = random.Random(4)
    state = rng.getstate()
    result = ash.roll_check("focus", against="Bright Light", rng=rng)
    assert rng.getstate() == state  # not a die was rolled
    assert result.automatic and (result.roll, result.natural, result.total) == (None,) * 3
    assert result.tier == Tier.MISS and str(result).startswith("automatic failure, no roll")
    assert ash.xp == 1  # the Miss row's XP
    assert ash.forward == 2  # no roll used it: it waits for the next check
    assert ash.last_check is None
    assert "automatic failure" in ash.log[-1].summary
    with pytest.raises(RuleError, match="no check of yours to replace"):
        ash.feeling_lucky(seed=1)
    with pytest.raises(RuleError, match="no check of yours to bend"):
        ash.bend_luck()
    assert Adventurer.from_json(ash.to_json()) == ash
    assert result.to_dict()["roll"] is None and "Blinded" in result.to_dict()["fails"]


def test_checks_that_do_not_rely_on_sight_roll_as_usual() -> None:
    ash = blinded()
    check = ash.build_check("focus")
    assert not check.fails and check.expression == "1d20 + 2"
    assert ash.roll_check("focus", seed=3).total == AbilityCheck(2).roll(seed=3).total


def test_a_blinded_attack_is_made_with_disadvantage_not_failed() -> None:
    ash = blinded()
    attack = ash.build_check("power", attack=True, against="Bright Light")
    assert not attack.fails and attack.disadvantage
    # Exact odds of any hit against counting both d20s (keep the lower).
    by_hand = Fraction(sum(1 for a in range(1, 21) for b in range(1, 21)
                           if min(a, b) == 20 or (min(a, b) != 1 and min(a, b) >= 10)), 400)
    assert attack.hit_chance() == by_hand


def test_blinded_lifts_and_the_check_rolls_again() -> None:
    ash = blinded()
    ash.end_condition("Blinded")
    assert not ash.build_check("focus", against="Bright Light").fails


def test_the_table_gains_nothing_from_an_automatic_failure() -> None:
    party = Party()
    ash = party.new_character("Ash")
    ash.inflict("Blinded")
    party.roll_check(ash, "focus", against="Dim Light", seed=2)
    assert party.gm.threads == 0 and ash.xp == 1


def test_the_app_says_the_check_fails_and_rolls_nothing() -> None:
    app = MonstersAndMagicApp(["Ash"])
    sheet = app.sheets["Ash"]
    sheet.adventurer.inflict("Blinded")
    checks = sheet.checks
    checks.ability.value = "focus"
    checks.against.value = "Bright Light"
    assert 'data-automatic="1"' in checks.odds.value and "Blinded" in checks.odds.value
    widgets_by_name(checks, kind="btn")["roll"].click()
    assert checks.error.message == ""
    assert 'data-tier="miss"' in checks.result.value and "no roll" in checks.result.value
    assert sheet.adventurer.xp == 1
