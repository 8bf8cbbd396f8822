"""Contests and the maneuvers built on them: exact odds against brute-force enumeration."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RuleError
from companion.rulesets.variant5e.climbing import climb_onto, dislodge
from companion.rulesets.variant5e.contests import (
    Combatant,
    Contest,
    Edge,
    Side,
    Size,
    combine_edges,
    d20_expression,
)
from companion.rulesets.variant5e.disarm import disarm
from companion.rulesets.variant5e.grapple import (
    escape_grapple,
    grapple,
    speed_while_moving_grappled,
)
from companion.rulesets.variant5e.overrun import overrun
from companion.rulesets.variant5e.shove import shove, shove_aside
from companion.rulesets.variant5e.tumble import tumble
from companion.rulesets.variant5e.two_weapon_fighting import (
    Weapon,
    bonus_attack_damage_modifier,
    check_two_weapon_fighting,
)

KEEP: dict[Edge, Callable[[tuple[int, ...]], int]] = {
    Edge.NORMAL: lambda dice: dice[0],
    Edge.ADVANTAGE: max,
    Edge.DISADVANTAGE: min,
}


def faces(edge: Edge) -> list[tuple[int, ...]]:
    count = 1 if edge is Edge.NORMAL else 2
    return list(itertools.product(range(1, 21), repeat=count))


def brute_force(contest: Contest) -> tuple[Fraction, Fraction]:
    """(P initiator wins, P tie) by walking every combination of dice."""
    a, b = contest.initiator, contest.resister
    wins = ties = total = 0
    for mine in faces(a.edge):
        for theirs in faces(b.edge):
            x = KEEP[a.edge](mine) + a.modifier
            y = KEEP[b.edge](theirs) + b.modifier
            wins += x > y
            ties += x == y
            total += 1
    return Fraction(wins, total), Fraction(ties, total)


EDGES = st.sampled_from(list(Edge))


@settings(max_examples=25, deadline=None)
@given(st.integers(-5, 12), st.integers(-5, 12), EDGES, EDGES)
def test_contest_odds_match_brute_force(m1: int, m2: int, e1: Edge, e2: Edge) -> None:
    contest = Contest("Test", Side("a", "x", m1, e1), Side("b", "y", m2, e2))
    odds = contest.odds()
    assert (odds.initiator, odds.tie) == brute_force(contest)
    assert odds.resister == 1 - odds.initiator  # ties go to the resister


def test_equal_plain_rolls_favour_the_resister() -> None:
    odds = Contest("Test", Side("a", "x", 0), Side("b", "y", 0)).odds()
    assert odds.initiator == Fraction(190, 400) and odds.tie == Fraction(20, 400)
    assert odds.resister == Fraction(210, 400)


def test_edges_combine_and_expressions() -> None:
    assert combine_edges(Edge.ADVANTAGE, Edge.DISADVANTAGE, Edge.ADVANTAGE) is Edge.NORMAL
    assert combine_edges(Edge.ADVANTAGE, Edge.NORMAL) is Edge.ADVANTAGE
    assert d20_expression(3, Edge.ADVANTAGE) == "2d20kh1+3"
    assert d20_expression(-2, Edge.DISADVANTAGE) == "2d20kl1-2"
    assert d20_expression(0) == "1d20"
    with pytest.raises(RuleError, match=r"outside -30\.\.30"):
        d20_expression(99)


FIGHTER = Combatant("fighter", Size.MEDIUM, athletics=5, acrobatics=1, attack_bonus=6)
GOBLIN = Combatant("goblin", Size.SMALL, athletics=-1, acrobatics=6, attack_bonus=4)
OGRE = Combatant("ogre", Size.LARGE, athletics=6, acrobatics=-2, attack_bonus=6)
GIANT = Combatant("giant", Size.HUGE, athletics=8, acrobatics=0)


def test_disarm_edges() -> None:
    c = disarm(FIGHTER, OGRE, two_handed=True)
    assert c.initiator.edge is Edge.DISADVANTAGE and c.initiator.modifier == 6
    assert c.resister.edge is Edge.ADVANTAGE  # larger target
    assert c.resister.check == "Strength (Athletics)"
    small = disarm(FIGHTER, GOBLIN)
    assert small.resister.edge is Edge.DISADVANTAGE
    assert small.resister.check == "Dexterity (Acrobatics)" and small.resister.modifier == 6
    assert small.odds().initiator == brute_force(small)[0]


def test_grapple_rules() -> None:
    c = grapple(FIGHTER, GOBLIN)
    assert (c.initiator.modifier, c.resister.modifier) == (5, 6)
    with pytest.raises(RuleError, match="Grapple: the target \\(huge\\) must be no more than one"):
        grapple(FIGHTER, GIANT)
    with pytest.raises(RuleError, match="free hand"):
        grapple(FIGHTER, GOBLIN, free_hand=False)
    with pytest.raises(RuleError, match="within the grappler's reach"):
        grapple(FIGHTER, GOBLIN, within_reach=False)
    auto = grapple(FIGHTER, Combatant("sleeper", incapacitated=True))
    assert auto.odds().initiator == 1 and auto.roll(seed=1).initiator_wins
    escape = escape_grapple(GOBLIN, FIGHTER)
    assert escape.initiator.modifier == 6 and escape.resister.check == "Strength (Athletics)"


def test_moving_a_grappled_target() -> None:
    assert speed_while_moving_grappled(30, Size.MEDIUM, Size.SMALL) == 15
    assert speed_while_moving_grappled(30, Size.LARGE, Size.SMALL) == 30
    assert speed_while_moving_grappled(25, Size.MEDIUM, Size.MEDIUM) == 12
    with pytest.raises(RuleError, match="Moving a Grappled Target"):
        speed_while_moving_grappled(-5, Size.MEDIUM, Size.SMALL)


def test_overrun_tumble_shove() -> None:
    assert overrun(OGRE, FIGHTER).initiator.edge is Edge.ADVANTAGE
    assert overrun(GOBLIN, FIGHTER).initiator.edge is Edge.DISADVANTAGE
    assert overrun(FIGHTER, GOBLIN).resister.check == "Strength (Athletics)"
    t = tumble(GOBLIN, OGRE)
    assert (t.initiator.modifier, t.resister.modifier) == (6, -2)
    assert shove(FIGHTER, OGRE).initiator.edge is Edge.NORMAL
    aside = shove_aside(FIGHTER, OGRE)
    assert aside.initiator.edge is Edge.DISADVANTAGE
    helped = aside.with_edges(initiator=Edge.ADVANTAGE)
    assert helped.initiator.edge is Edge.NORMAL
    with pytest.raises(RuleError, match="Shove Aside"):
        shove_aside(GOBLIN, OGRE)


def test_climbing_onto_a_bigger_creature() -> None:
    c = climb_onto(FIGHTER, GIANT)
    assert c.initiator.check == "Strength (Athletics)" and c.resister.modifier == 0
    with pytest.raises(RuleError, match="must be larger than"):
        climb_onto(FIGHTER, Combatant("twin"))
    d = dislodge(GIANT, GOBLIN)
    assert d.resister.check == "Dexterity (Acrobatics)"
    assert d.odds().initiator == brute_force(d)[0]


def test_rolls_are_seeded_and_follow_the_tie_rule() -> None:
    contest = overrun(FIGHTER, OGRE)
    first = [contest.roll(seed=s) for s in range(30)]
    again = [contest.roll(seed=s) for s in range(30)]
    assert [str(r) for r in first] == [str(r) for r in again]
    import random

    from companion import dice

    for seed, result in enumerate(first):  # one generator: the initiator's dice, then theirs
        rng = random.Random(seed)
        mine = dice.roll(contest.initiator.as_check().expression, rng=rng).total
        theirs = dice.roll(contest.resister.as_check().expression, rng=rng).total
        assert (result.initiator_total, result.resister_total) == (mine, theirs), seed
    assert len({(r.initiator_total, r.resister_total) for r in first}) > 10
    for result in first:
        assert result.initiator_wins == (result.initiator_total > result.resister_total)  # type: ignore[operator]


def test_two_weapon_fighting() -> None:
    dagger, shortsword = Weapon("dagger", thrown=True), Weapon("shortsword")
    check_two_weapon_fighting(dagger, shortsword)
    with pytest.raises(RuleError, match="longsword is not a light melee weapon"):
        check_two_weapon_fighting(dagger, Weapon("longsword", light=False))
    with pytest.raises(RuleError, match="follows the Attack action"):
        check_two_weapon_fighting(dagger, shortsword, took_attack_action=False)
    assert bonus_attack_damage_modifier(3) == 0
    assert bonus_attack_damage_modifier(-1) == -1


def test_maneuver_registry() -> None:
    from companion.errors import UnknownNameError
    from companion.rulesets.variant5e.maneuvers import MANEUVERS, maneuver

    assert maneuver("Shove-Aside").name == "shove aside"
    contest = maneuver("disarm").build(FIGHTER, OGRE, True)
    assert contest.initiator.edge is Edge.DISADVANTAGE
    for m in MANEUVERS.values():
        pair = {"climb onto a bigger creature": (GOBLIN, GIANT),
                "dislodge a climber": (GIANT, GOBLIN)}.get(m.name, (FIGHTER, GOBLIN))
        built = m.build(*pair, False)
        assert built.odds().initiator + built.odds().resister == 1
    with pytest.raises(UnknownNameError, match="no combat option 'fly'"):
        maneuver("fly")


def test_shove_aside_on_an_incapacitated_target_succeeds_automatically() -> None:
    sleeper = Combatant("sleeper", incapacitated=True)
    contest = shove_aside(FIGHTER, sleeper)
    assert contest.automatic and contest.odds().initiator == 1
    assert str(contest.roll(seed=2)).endswith("succeeds automatically (the target is "
                                              "incapacitated)")
