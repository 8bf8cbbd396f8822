"""A Hit Dice record is built by the ruleset (``HitDice.new``): full hit points, one Hit Die
per level, the fixed hit points when none are given, illegal numbers refused."""

from __future__ import annotations

import pytest

from companion.errors import RuleError
from companion.rulesets.variant5e.healing import HitDice, fixed_hit_points


def test_defaults_and_fixed_hit_points() -> None:
    hd = HitDice.new()
    assert (hd.level, hd.die, hd.con_modifier, hd.max_hp, hd.hp, hd.hit_dice) == \
        (1, 8, 0, 8, 8, 1)
    five = HitDice.new(5, 10, 1)
    assert five.max_hp == five.hp == fixed_hit_points(5, 10, 1) and five.hit_dice == 5
    typed = HitDice.new(3, 6, -1, max_hp=20)
    assert (typed.max_hp, typed.hp) == (20, 20)
    for record in (hd, five, typed):
        record.validate()
        assert HitDice.from_json(record.to_json()) == record


@pytest.mark.parametrize(("args", "message"), [
    ((0,), "level must be 1 to 20"),
    ((21,), "level must be 1 to 20"),
    ((3, 7), "d6, d8, d10 or d12, not d7"),
    ((3, 8, 11), "Constitution modifier is -5 to 10"),
    ((3, 8, 0, 0), "max HP is 1 to 999, not 0"),
    ((3, 8, 0, 1000), "max HP is 1 to 999, not 1000"),
    ((3, 8, 0, True), "max HP is 1 to 999, not True"),
])
def test_illegal_numbers_are_refused(args: tuple[int, ...], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        HitDice.new(*args)
