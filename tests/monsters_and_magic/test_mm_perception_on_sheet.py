"""Light, concealment and cover applied on the sheet (issue 21): cover in the effective AC,
concealment and cover on the checks they change, with exact odds against a brute-force
count of the d20 faces, move by move, refusals included."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic import Adventurer
from companion.rulesets.monsters_and_magic.ability_checks import Tier


def hits_by_hand(modifier: int, *, disadvantage: bool = False) -> Fraction:
    """Weak hit or better (total 10+, or a natural 20; a natural 1 misses) counted on the
    d20 faces (both dice for disadvantage, keeping the lower)."""
    def hit(face: int) -> bool:
        return face == 20 or (face != 1 and face + modifier >= 10)
    if not disadvantage:
        return Fraction(sum(hit(f) for f in range(1, 21)), 20)
    return Fraction(sum(hit(min(a, b)) for a in range(1, 21) for b in range(1, 21)), 400)


def tiers_hit(check: object) -> Fraction:
    odds = check.tier_odds()  # type: ignore[attr-defined]
    return sum((p for t, p in odds.items() if t not in (Tier.MISS, Tier.CRITICAL_MISS)),
               Fraction(0))


def test_cover_move_by_move() -> None:
    a = Adventurer.new("Ash", ac=3)
    assert a.effective_ac == 3
    a.take_cover("Partial Cover")
    assert a.cover == "Partial Cover" and a.effective_ac == 5
    assert "takes partial cover (AC 5)" in a.log[-1].summary
    with pytest.raises(RuleError, match="already in partial cover"):
        a.take_cover("Partial Cover")
    with pytest.raises(RuleError, match="no cover called 'Half'"):
        a.take_cover("Half")
    a.take_cover("Total Cover")
    assert a.effective_ac == 3
    a.take_cover()
    assert a.cover == "" and "leaves cover" in a.log[-1].summary
    with pytest.raises(RuleError, match="already out of cover"):
        a.take_cover("")
    a.undo()
    assert a.cover == "Total Cover"
    assert Adventurer.from_json(a.to_json()) == a


def test_cover_lowers_the_damage_taken() -> None:
    a = Adventurer.new("Ash", ac=1, max_hp=20)
    a.take_cover("Partial Cover")
    assert a.take_damage(5) == 2  # AC 1 + 2


def test_a_save_from_before_cover_still_loads() -> None:
    import json

    saved = json.loads(Adventurer.new("Ash").to_json())
    del saved["state"]["cover"]
    assert Adventurer.from_json(json.dumps(saved)).cover == ""


@pytest.mark.parametrize("power", [-2, 0, 3])
def test_concealment_and_light_on_a_sight_check_exactly(power: int) -> None:
    a = Adventurer.new("Ash", power=power)
    plain = a.build_check("power")
    concealed = a.build_check("power", against="Concealed")
    dim = a.build_check("power", against="Dim Light")
    bright = a.build_check("power", against="Bright Light")
    assert concealed.modifier == plain.modifier - 2 and dim == concealed and bright == plain
    assert tiers_hit(concealed) == hits_by_hand(power - 2)
    assert tiers_hit(plain) == hits_by_hand(power)


def test_hidden_fails_a_sight_check_and_hampers_an_attack() -> None:
    a = Adventurer.new("Ash", power=2)
    for state in ("Hidden", "Undetected", "Darkness", "Magical Darkness"):
        # Issue 30: an automatic failure is a result that says so, not a refusal.
        sight = a.build_check("focus", against=state)
        assert "count as blinded" in sight.fails and sight.hit_chance() == 0
        attack = a.build_check("power", attack=True, against=state)
        assert attack.disadvantage and not attack.fails
        assert tiers_hit(attack) == hits_by_hand(2, disadvantage=True)
    result = a.roll_check("focus", against="Hidden", seed=1)
    assert result.automatic and result.tier.label == "Miss" and result.total is None
    assert "automatic failure, no roll" in str(result) and a.xp == 1
    with pytest.raises(RuleError, match="a sight-based check is against one of"):
        a.build_check("focus", against="Fog")


def test_an_attack_against_a_target_in_cover() -> None:
    a = Adventurer.new("Ash", power=1)
    partial = a.build_check("power", attack=True, target_cover="Partial Cover")
    assert partial.modifier == a.build_check("power", attack=True).modifier - 2
    assert tiers_hit(partial) == hits_by_hand(-1)
    with pytest.raises(RuleError, match="total cover cannot be targeted"):
        a.roll_check("power", attack=True, target_cover="Total Cover", seed=1)
    with pytest.raises(RuleError, match="changes attacks"):
        a.build_check("power", target_cover="Partial Cover")
    result = a.roll_check("power", attack=True, target_cover="Partial Cover", seed=3)
    assert a.log[-1].args["target_cover"] == "Partial Cover"
    assert result.check.modifier == partial.modifier
