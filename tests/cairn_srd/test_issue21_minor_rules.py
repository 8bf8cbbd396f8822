"""Issue 21's minor Cairn readings, move by move: agony without armor, Walloped raising
Guard too, major Wounds on the panic, Critical Damage and escape saves, dooms stopping at the
3rd, and navigation's -2 out of reach."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd import skills
from companion.rulesets.cairn_srd import wilderness as w
from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.exploration import Delve, darkness_panic
from tests.cairn_srd.test_character import FixedRng


def pc(**kw: int) -> Character:
    args = {"strength": 12, "dexterity": 10, "control": 9, "guard": 5, "armor": 2} | kw
    return new_character("Ash", **args)


def test_agony_goes_past_armor() -> None:
    c = pc(armor=3)
    report = c.agony(rng=FixedRng(4))
    assert report.hit.absorbed == 0 and report.hit.to_guard == 4 and c.guard == 1
    assert c.log[-1].move == "agony" and len(c.log) == 1
    hit = c.take_damage(3)  # a hit still meets the armor
    assert hit.hit.absorbed == 3 and c.guard == 1


def test_walloped_recovery_raises_guard_and_max_guard() -> None:
    c = pc(guard=10, armor=0)
    c.take_damage(10)
    assert c.scar_recovery == "Walloped" and c.guard == 0
    c.recover_scar(rng=FixedRng(3))
    assert (c.guard, c.guard_max) == (3, 13) and not c.deprived
    with pytest.raises(RuleError, match="no Walloped"):
        c.recover_scar(rng=FixedRng(3))


def wounded() -> Character:
    c = pc(armor=0)
    c.add_wound("Blight", major=True)  # entry 1
    c.add_wound("Scratch")  # entry 2: not major
    return c


def test_major_wounds_lower_the_panic_save() -> None:
    c = wounded()
    # CTRL 9, -1 for the named major Wound: a d20 of 9 now fails.
    result = c.panic_save(rng=FixedRng(9), wounds=[1])
    assert not result.success and c.panicking and "-1 for major Wounds" in c.log[-1].summary
    c.calm_down()
    assert c.panic_save(rng=FixedRng(9)).success  # unnamed, no penalty
    with pytest.raises(RuleError, match="is not a major Wound"):
        c.panic_save(rng=FixedRng(1), wounds=[2])
    with pytest.raises(RuleError, match="no burden entry #5"):
        c.panic_save(rng=FixedRng(1), wounds=[5])


def test_major_wounds_lower_the_critical_damage_save() -> None:
    c = wounded()
    before = c.to_json()
    with pytest.raises(RuleError, match="is not a major Wound"):
        c.take_damage(8, rng=FixedRng(12), wounds=[2])
    assert c.to_json() == before  # refused before anything changed
    report = c.take_damage(8, rng=FixedRng(9), wounds=[1])  # 3 to STR: 9, less 1 = 8
    assert report.critical_save is not None and not report.critical_save.success
    assert c.critical
    c2 = wounded()
    assert c2.take_damage(8, rng=FixedRng(9)).critical_save.success  # type: ignore[union-attr]


def test_save_score_for_an_escape() -> None:
    c = wounded()
    assert c.save_score("DEX") == 10 and c.save_score("DEX", [1]) == 9
    d = Delve()
    d.escape_check("Ash", "DEX", c.save_score("DEX", [1]), rng=FixedRng(10))
    assert d.escapes[0].score == 9 and d.escapes[0].stage == "failed"


def test_darkness_panic_on_the_sheet_refuses_before_the_sheet_rolls() -> None:
    d = Delve()
    d.add_light("torch")
    c = pc()
    with pytest.raises(RuleError, match="still has light"):
        darkness_panic(d, c, seed=1)
    assert not c.log


def test_dooms_stop_at_the_third() -> None:
    c = pc(strength=12)
    c.dooms = 2
    # Four dice all showing 2: one triple -> the 3rd doom (and a mishap 2).
    report = c.cast(4, extra_dice=2, rng=FixedRng(2, 2, 2, 2, 2, 2, 1))
    assert c.dooms == 3
    assert any(n.startswith("doom 3") for n in report.notes)
    assert Character.from_json(c.to_json()).dooms == 3
    with pytest.raises(RuleError, match="3rd doom"):
        c.cast(1, rng=FixedRng(1))


def test_six_of_a_kind_with_two_dooms_left_counts_only_to_three() -> None:
    c = new_character("Vel", 12, 10, 12, 6)
    c.dooms = 2
    c.casting_barred = ""
    report = c.cast(6, extra_dice=2, rng=FixedRng(*[5] * 6, 1))  # two triples
    assert c.dooms == 3
    assert any("already lost for good" in n for n in report.notes)
    Character.from_json(c.to_json())  # saves and loads
    c.lift_doom()
    assert c.dooms == 2
    Character.from_json(c.to_json())


def test_extra_magic_dice_bounds() -> None:
    c = pc()
    for bad in (-1, 57):
        with pytest.raises(RuleError, match="magic items add 0-56"):
            c.cast(1, extra_dice=bad, rng=FixedRng(1))
    assert not c.log


# -- navigation ---------------------------------------------------------------------------


def test_navigation_odds_by_brute_force() -> None:
    # Interpretation: the path's penalty moves the 5+ target and may push it past 6.
    for path, (_, nav) in w.path_types().items():
        for modifier in range(-skills.MAX_MODIFIER, skills.MAX_MODIFIER + 1):
            target = max(2, 5 - (nav + modifier))
            wins = sum(1 for face in range(1, 7) if face >= target)
            assert w.navigation_chance(path, 2, modifier) == Fraction(wins, 6), (path, modifier)
            assert w.navigation_chance(path, 3, modifier) == 1
            assert w.navigation_chance(path, 1, modifier) == 0
    assert w.navigation_chance("Wilderness") == 0
    assert w.navigation_chance("Trails") == Fraction(1, 6)
    assert w.navigation_chance("Wilderness", modifier=1) == Fraction(1, 6)
    # Other skill tests keep the natural 6.
    assert skills.skill_chance(2, -2) == Fraction(1, 6)


def test_wilderness_navigation_without_help_gets_lost_every_time() -> None:
    for seed in range(30):
        j = w.Journey()
        j.add_traveller("Ash", rations=3)
        j.add_leg("Wilderness", "Short", "Plains", to="Fen")
        j.set_weather("clear")
        j.choose("travel")
        text = j.travel(have=2, seed=seed)
        assert "lost, +1 watch" in text
        assert "vs 7+" in text  # the target shown is out of reach
        w.Journey.from_json(j.to_json())


def test_wilderness_navigation_with_a_map_can_succeed() -> None:
    outcomes = set()
    for seed in range(40):
        j = w.Journey()
        j.add_traveller("Ash", rations=3)
        j.add_leg("Wilderness", "Short", "Plains", to="Fen")
        j.set_weather("clear")
        j.choose("travel")
        text = j.travel(have=2, modifier=1, seed=seed)
        rolled = random.Random(seed).randint(1, 6)
        outcomes.add("lost" in text)
        assert ("lost" in text) == (rolled < 6) or "vs 6+" in text
    assert outcomes == {True, False}
    j = w.Journey()
    j.add_leg("Wilderness", "Short", "Plains")
    with pytest.raises(RuleError, match="situational modifier runs -6 to \\+6"):
        j.travel(modifier=7)
