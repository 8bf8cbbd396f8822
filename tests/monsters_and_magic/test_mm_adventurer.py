"""The Adventurer and GameMaster trackers, move by move, illegal moves included."""

from __future__ import annotations

import contextlib
import functools
import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RuleError, StateError
from companion.rulesets.monsters_and_magic import AbilityCheck, Adventurer, GameMaster, Tier
from companion.rulesets.monsters_and_magic.death_and_dying import (
    death_roll_check,
    stabilize_chance,
)
from companion.rulesets.monsters_and_magic.fatigue_and_exhaustion import exhaustion_penalty


def hero(**kw: int) -> Adventurer:
    return Adventurer.new("Ash", **{"luck": 2, "focus": 1, "max_hp": 12, **kw})


def seed_for(check: AbilityCheck, tier: Tier) -> int:
    """A seed whose roll of ``check`` lands on ``tier`` (found, not assumed)."""
    for seed in range(10_000):
        if check.roll(seed=seed).tier == tier:
            return seed
    raise AssertionError("no seed found")


def test_new_character_is_full() -> None:
    a = hero()
    assert (a.threads, a.max_threads, a.hp, a.ap, a.fatigue) == (2, 2, 12, 0, 0)
    assert Adventurer.new("Low", luck=-1).max_threads == 1  # Interpretation: at least 1
    with pytest.raises(RuleError, match="name"):
        Adventurer.new("   ")


def test_roll_check_uses_forward_and_gives_xp() -> None:
    a = hero()
    a.take_forward(2)
    a.add_ongoing("blessing", 1)
    check = a.build_check("focus")
    assert check.modifier == 1 + 2 + 1
    seed = seed_for(check, Tier.MISS)
    result = a.roll_check("focus", seed=seed)
    assert result.tier == Tier.MISS and a.xp == 1 and a.forward == 0
    assert a.build_check("focus").modifier == 2  # forward used up, ongoing stays
    seed = seed_for(a.build_check("focus"), Tier.CRITICAL_MISS)
    a.roll_check("focus", seed=seed)
    assert a.xp == 3
    seed = seed_for(a.build_check("focus"), Tier.CRITICAL_HIT)
    a.roll_check("focus", seed=seed)
    assert "Inspired" in a.statuses  # Interpretation of the cut-off "Gain"
    with pytest.raises(RuleError, match="not an ability"):
        a.roll_check("charm")
    a.end_ongoing("blessing")
    with pytest.raises(RuleError, match="no ongoing"):
        a.end_ongoing("blessing")


def test_conditions_change_checks() -> None:
    a = hero()
    a.inflict("weakened")
    assert a.build_check("focus").modifier == -1
    a.bestow("Empowered")
    assert a.build_check("power", attack=True).modifier == 0
    a.inflict("Prone")
    assert a.build_check("power", attack=True).dice == "2d20kl1"
    a.bestow("Invisible")
    assert a.build_check("power", attack=True).dice == "1d20"  # both cancel
    with pytest.raises(RuleError, match="already Weakened; extend it or detonate"):
        a.inflict("Weakened")
    with pytest.raises(RuleError, match="no condition called"):
        a.inflict("Sleepy")


def test_bend_luck_and_feeling_lucky() -> None:
    a = hero()
    with pytest.raises(RuleError, match="no check of yours"):
        a.bend_luck()
    seed = seed_for(a.build_check("focus"), Tier.MISS)
    first = a.roll_check("focus", seed=seed)
    bent, tier = a.bend_luck()
    assert bent == first.total + 2 and a.threads == 1
    assert a.last_check is not None and a.last_check.total == bent
    with pytest.raises(RuleError, match="already been bent"):
        a.bend_luck()
    bent, tier = a.bend_luck(against_you=True, natural=15, total=19)
    assert (bent, tier) == (17, Tier.WEAK_HIT) and a.threads == 0
    with pytest.raises(RuleError, match="has 0 threads"):
        a.feeling_lucky(seed=1)
    a.bestow("Inspired")
    result = a.feeling_lucky(inspired=True, seed=4)
    assert "Inspired" not in a.statuses and a.threads == 0
    assert result.total == result.natural + 2
    with pytest.raises(RuleError, match="not Inspired"):
        a.lucky_find(inspired=True)


def test_lucky_find_and_bonds_cost_threads_and_long_rest_restores() -> None:
    a = hero(luck=3)
    a.lucky_find("a key", cost=2)
    assert a.threads == 1
    with pytest.raises(RuleError, match="Lucky Find needs 2"):
        a.lucky_find("a cipher", cost=2)
    a.bonds_of_fate("Briar")
    assert a.threads == 0
    a.long_rest([])
    assert a.threads == 3  # Interpretation: all threads back


def test_action_points_and_reactions() -> None:
    a = hero()
    with pytest.raises(RuleError, match="own turn"):
        a.spend_ap("Strike")
    a.inflict("Impaired")
    a.bestow("Quickened", until_ended=True)  # (a plain one runs out as the turn ends)
    assert a.start_turn() == 3
    a.end_condition("Impaired")
    a.end_turn()
    assert a.start_turn() == 4
    with pytest.raises(RuleError, match="already started"):
        a.start_turn()
    a.spend_ap("Regroup")
    with pytest.raises(RuleError, match="has 1 AP, Dodge needs 2"):
        a.spend_ap("dodge")
    with pytest.raises(RuleError, match="is a reaction"):
        a.spend_ap("Retaliate")
    a.spend_ap(amount=1)
    assert a.ap == 0
    a.take_reaction("Opportunity Attack")
    with pytest.raises(RuleError, match="already reacted"):
        a.take_reaction("Retaliate")
    with pytest.raises(RuleError, match="costs AP"):
        a.take_reaction("Strike")
    a.end_turn()
    a.inflict("Stunned")
    a.start_turn()
    with pytest.raises(RuleError, match="Stunned"):
        a.spend_ap("Move")


def test_restrained_breaks_free_with_three_fatigue() -> None:
    a = hero()
    a.inflict("Restrained")
    with pytest.raises(RuleError, match="own turn"):
        a.break_free()
    a.start_turn()
    with pytest.raises(RuleError, match="Restrained"):
        a.spend_ap("Move")
    a.break_free()
    assert a.fatigue == 3 and "Restrained" not in a.conditions
    a.spend_ap("Move")


def test_doomed_and_invigorated_at_turn_start() -> None:
    a = hero()
    a.inflict("Doomed", until_ended=True)  # (a plain one runs out as the turn ends)
    a.start_turn()
    assert a.fatigue == 1
    a.end_turn()
    a.bestow("Invigorated")
    a.start_turn()
    assert a.fatigue == 1  # marked one, recovered one


def test_fatigue_spills_into_exhaustion_then_unconscious() -> None:
    a = hero()
    a.mark_fatigue(7)
    assert (a.fatigue, a.exhaustion) == (5, 2)
    assert a.exhaustion_penalty == 1
    assert a.build_check("luck").modifier == 2 - 1
    a.mark_exhaustion(4)
    assert a.exhaustion == 6 and a.exhaustion_penalty == 5
    a.mark_exhaustion()
    assert a.out_until_long_rest and "Unconscious" in a.conditions
    with pytest.raises(RuleError, match="stays unconscious"):
        a.end_condition("Unconscious")
    a.long_rest(["Clear Fatigue"], exhaustion_supplies=0)
    assert not a.out_until_long_rest and "Unconscious" not in a.conditions
    assert a.fatigue == 0 and a.exhaustion == 6
    with pytest.raises(RuleError, match="only 6 exhaustion"):
        a.recover_exhaustion(7)
    with pytest.raises(RuleError, match="only 0 fatigue"):
        a.clear_fatigue()


def test_exhaustion_penalty_is_fibonacci() -> None:
    assert [exhaustion_penalty(n) for n in range(9)] == [0, 0, 1, 1, 2, 3, 5, 8, 13]


def test_damage_dying_and_death() -> None:
    a = hero(ac=2)
    assert a.take_damage(5) == 3 and a.hp == 9
    assert a.take_damage(9, "resistant") == 3
    a.take_damage(20, "vulnerable")
    assert a.hp == 0 and a.dying and "Prone" in a.active_conditions
    a.take_damage(4)
    assert a.exhaustion == 1  # damage while dying marks exhaustion
    a.mark_exhaustion(5)
    assert a.exhaustion == 6 and not a.dead
    a.take_damage(3)
    assert a.dead and not a.dying
    with pytest.raises(RuleError, match="dead"):
        a.heal(5)
    a.accept_deaths_bargain("walk the grey road")
    assert a.stable and not a.dead
    a.heal(1)
    assert not a.stable and "Unconscious" not in a.conditions and a.hp == 1


def test_refusing_the_bargain_is_final() -> None:
    a = hero()
    a.take_damage(12)
    a.mark_exhaustion(6)
    a.take_damage(1)
    assert a.dead
    a.refuse_deaths_bargain()
    with pytest.raises(RuleError, match="passed on"):
        a.start_turn()
    with pytest.raises(RuleError, match="no bargain"):
        a.accept_deaths_bargain()


def test_death_rolls() -> None:
    a = hero()
    with pytest.raises(RuleError, match="not dying"):
        a.death_roll(seed=1)
    a.take_damage(12)
    check = death_roll_check(a.luck, a.exhaustion)
    a.death_roll(seed=seed_for(check, Tier.WEAK_HIT))
    a.death_roll(seed=seed_for(check, Tier.WEAK_HIT))
    assert a.deathsaves == 2 and a.dying
    a.death_roll(seed=seed_for(check, Tier.CRITICAL_MISS))
    assert a.exhaustion == 2
    check = death_roll_check(a.luck, a.exhaustion)
    a.death_roll(seed=seed_for(check, Tier.WEAK_HIT))
    assert a.stable and not a.dying and a.hp == 0


@functools.cache
def brute_stabilize(luck: int, exhaustion: int, top: int, saves: int) -> Fraction:
    """Walk every d20 face of every death roll (no tier odds reused)."""
    mod = luck - exhaustion_penalty(exhaustion)
    total = Fraction(0)
    for face in range(1, 21):
        if face == 20 or (face != 1 and face + mod >= 18):
            total += Fraction(1, 20)
        elif face != 1 and face + mod >= 10:
            total += Fraction(1, 20) * (1 if saves == 2 else
                                        brute_stabilize(luck, exhaustion, top, saves + 1))
        else:
            n = 2 if face == 1 else 1
            if exhaustion + n <= top:
                total += Fraction(1, 20) * brute_stabilize(luck, exhaustion + n, top, saves)
    return total


@pytest.mark.parametrize(("luck", "exhaustion", "top"), [(0, 0, 6), (3, 2, 6), (-2, 5, 6),
                                                         (1, 0, 2)])
def test_stabilize_chance_vs_brute_force(luck: int, exhaustion: int, top: int) -> None:
    assert stabilize_chance(luck=luck, exhaustion=exhaustion, max_exhaustion=top) == \
        brute_stabilize(luck, exhaustion, top, 0)


def test_rests() -> None:
    a = hero(supplies=3)
    a.take_damage(9)
    a.mark_fatigue(3)
    a.short_rest(["Tend to Wounds", "Clear Fatigue"], supplies=2)
    assert a.hp == 9 and a.fatigue == 1 and a.supplies == 1
    with pytest.raises(RuleError, match="0-2 supply"):
        a.short_rest(["Tend to Wounds"], supplies=3)
    with pytest.raises(RuleError, match="allows 2 activities"):
        a.short_rest(["Tend to Wounds", "Clear Fatigue", "Prepare"])
    with pytest.raises(RuleError, match="not a short rest activity"):
        a.short_rest(["Take Watch"])
    a.short_rest(["Prepare"])
    assert "Prepared" in a.statuses
    a.short_rest(["Prepare"], prepare_with_party=True)
    assert a.holds == {"prepared": 2}
    with pytest.raises(RuleError, match="3 short rests in a row"):
        a.short_rest(["Clear Fatigue"])
    a.gain_hold("arrows", 5)
    a.mark_exhaustion(3)
    a.long_rest(["Clear Fatigue", "Prepare"], exhaustion_supplies=1, prepare_with_party=True)
    assert a.holds == {"prepared": 2}  # old hold ended, new prepared hold kept
    assert a.exhaustion == 2 and a.supplies == 0 and a.short_rests_in_a_row == 0
    with pytest.raises(RuleError, match="only with Tend to Wounds"):
        a.long_rest(["Clear Fatigue"], heal_supplies=1)
    a.take_damage(5)
    a.extended_rest("Recuperate")
    assert (a.hp, a.fatigue, a.exhaustion) == (12, 0, 0)
    a.start_turn()
    with pytest.raises(RuleError, match="end the turn"):
        a.extended_rest("Level Up")


def test_gather_supplies_is_seeded() -> None:
    a, b = hero(), hero()
    a.short_rest(["Gather Supplies"], seed=7)
    b.short_rest(["Gather Supplies"], seed=7)
    assert a.supplies == b.supplies
    found = set()
    for seed in range(20):  # the focus check rolled with that seed decides what is found
        c = hero()
        before = c.supplies
        c.short_rest(["Gather Supplies"], seed=seed)
        tier = AbilityCheck(c.check_modifier("focus")).roll(seed=seed).tier
        expected = 2 if tier >= Tier.STRONG_HIT else 1 if tier.is_hit else 0
        assert c.supplies - before == expected, seed
        found.add(expected)
    assert len(found) > 1  # other seeds, other finds


def test_hold() -> None:
    a = hero()
    a.gain_hold("arrows", 3)
    a.gain_hold("arrows", 2)
    a.spend_hold("arrows", 4)
    assert a.holds == {"arrows": 1}
    with pytest.raises(RuleError, match="holds 1 arrows, cannot spend 2"):
        a.spend_hold("arrows", 2)
    a.spend_hold("arrows")
    assert a.holds == {}


def test_detonate() -> None:
    a = hero()
    with pytest.raises(RuleError, match="nothing to detonate"):
        a.detonate("Weakened", seed=1)
    a.inflict("Weakened")
    taken = a.detonate("Weakened", seed=1)
    assert 1 <= taken <= 10 and a.hp == 12 - taken and "Weakened" not in a.conditions


def test_refused_move_changes_nothing_and_undo() -> None:
    a = hero()
    a.mark_fatigue(2)
    before = a.to_json()
    with pytest.raises(RuleError):
        a.clear_fatigue(3)
    assert a.to_json() == before
    a.undo()
    assert a.fatigue == 0
    with pytest.raises(RuleError, match="nothing to undo"):
        a.undo()


def test_corrupt_state_names_the_field() -> None:
    a = hero()
    a.inflict("Prone")
    data = json.loads(a.to_json())
    data["state"]["threads"] = 99
    with pytest.raises(StateError, match="threads"):
        Adventurer.from_json(json.dumps(data))
    data = json.loads(a.to_json())
    data["state"]["conditions"] = ["Prone", "Prone"]
    with pytest.raises(StateError, match="conditions"):
        Adventurer.from_json(json.dumps(data))
    data = json.loads(a.to_json())
    data["state"]["conditions"] = ["Sleepy"]
    with pytest.raises(StateError, match=r"conditions\[0\]"):
        Adventurer.from_json(json.dumps(data))
    with pytest.raises(StateError, match="JSON"):
        Adventurer.from_json("{nope")


MOVES = st.sampled_from([
    ("roll_check", {"ability": "cunning", "seed": 3}), ("start_turn", {}),
    ("end_turn", {}), ("spend_ap", {"technique": "Strike"}), ("mark_fatigue", {"amount": 2}),
    ("take_damage", {"amount": 5}), ("heal", {"amount": 3}), ("inflict", {"condition": "Prone"}),
    ("bestow", {"status": "Inspired"}), ("bend_luck", {}), ("lucky_find", {}),
    ("gain_hold", {"kind": "arrows"}), ("death_roll", {"seed": 2}),
    ("short_rest", {"activities": ["Clear Fatigue"]}), ("long_rest", {"activities": []}),
])


@settings(max_examples=40, deadline=None)
@given(st.lists(MOVES, max_size=25))
def test_any_sequence_round_trips(moves: list[tuple[str, dict[str, object]]]) -> None:
    a = hero()
    for name, args in moves:
        with contextlib.suppress(RuleError):
            getattr(a, name)(**args)
        a.validate()
    b = Adventurer.from_json(a.to_json())
    assert b == a and b.to_json() == a.to_json()
    while a.can_undo:
        a.undo()
    assert a == hero()


def test_game_master_threads() -> None:
    gm = GameMaster()
    with pytest.raises(RuleError, match="no thread"):
        gm.spend_thread("Make an unexpected change to a scene")
    gm.gain_thread(2, "critical miss")
    with pytest.raises(RuleError, match="the GM's threads are for"):
        gm.spend_thread("heal everyone")
    result = gm.reroll_check(AbilityCheck(3), rng=random.Random(1))
    assert gm.threads == 1 and result.total == result.natural + 3
    assert GameMaster.from_json(gm.to_json()) == gm


def test_critical_miss_gives_the_gm_a_thread() -> None:
    gm = GameMaster()
    assert not gm.note_result(Tier.MISS) and gm.threads == 0 and not gm.log
    assert gm.note_result(Tier.CRITICAL_MISS) and gm.threads == 1
    assert "critical miss" in gm.log[-1].summary


def test_damage_to_a_stable_creature_starts_dying_again() -> None:
    a = hero()
    a.take_damage(12)
    check = death_roll_check(a.luck, a.exhaustion)
    a.death_roll(seed=seed_for(check, Tier.STRONG_HIT))
    assert a.stable
    a.take_damage(1)
    assert a.dying and not a.stable and a.exhaustion == 0


def test_frightened_counts_as_weakened_once() -> None:
    a = hero()
    a.inflict("Frightened")
    assert a.build_check("focus").modifier == 1 - 2
    a.inflict("Weakened")
    assert a.build_check("focus").modifier == 1 - 2  # not -4: the same state twice
