"""Feeling Lucky's luck roll is an ability check in place of the character's own: its miss
gives what a check's miss gives (1 XP; a critical miss 2 XP and a thread for the GM), on top
of the thread spent going to the GM. Checked move by move on the sheet's and GM's logs."""

from __future__ import annotations

import random

import pytest

from companion.rulesets.monsters_and_magic.ability_checks import Tier
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.rulesets.monsters_and_magic.party import Party

pytestmark = pytest.mark.timeout(60)


def _natural(seed: int) -> int:
    """The natural d20 of an unmodified luck roll with ``seed`` (the engine's own roll)."""
    return Adventurer.new("Probe").build_check("luck").roll(seed=seed).natural


def _seed_for(wanted: Tier, dc: int = 10) -> int:
    for seed in range(1000):
        if Adventurer.new("Probe").build_check("luck", dc=dc).roll(seed=seed).tier == wanted:
            return seed
    raise AssertionError(f"no seed below 1000 rolls {wanted}")


def _table() -> tuple[Party, Adventurer]:
    party = Party()
    ash = party.new_character("Ash")  # LUCK +0: the luck roll is the bare d20
    party.roll_check(ash, "power", seed=_seed_for(Tier.WEAK_HIT))
    return party, ash


def test_a_critical_miss_on_the_luck_roll_gives_2_xp_and_the_gm_a_thread() -> None:
    party, ash = _table()
    seed = _seed_for(Tier.CRITICAL_MISS)
    assert _natural(seed) == 1
    xp, threads, gm_moves = ash.xp, ash.threads, len(party.gm.log)
    result = party.spend_thread(ash, "feeling_lucky", seed=seed)
    assert result.tier == Tier.CRITICAL_MISS and result.natural == 1
    assert ash.xp == xp + 2 and ash.threads == threads - 1
    assert ash.last_check is not None and ash.last_check.tier == "Critical Miss"
    assert ash.log[-1].summary.startswith("Ash: Feeling Lucky (spends 1 thread) — luck roll")
    # The GM: one thread for the thread spent, one for the critical miss, in that order.
    gm_log = party.gm.log[gm_moves:]
    assert [e.summary for e in gm_log] == [
        "GM gains 1 thread (a player spent a thread): 1",
        "GM gains 1 thread (a player's critical miss): 2"]
    assert party.gm.threads == 2


def test_a_miss_on_the_luck_roll_gives_1_xp_and_the_gm_only_the_thread_spent() -> None:
    party, ash = _table()
    seed = _seed_for(Tier.MISS)
    xp = ash.xp
    result = party.spend_thread(ash, "feeling_lucky", seed=seed)
    assert result.tier == Tier.MISS and result.natural > 1
    assert ash.xp == xp + 1 and party.gm.threads == 1
    assert len(party.gm.log) == 1


def test_a_critical_hit_on_the_luck_roll_inspires_and_a_hit_gives_no_xp() -> None:
    party, ash = _table()
    xp = ash.xp
    party.spend_thread(ash, "feeling_lucky", seed=_seed_for(Tier.CRITICAL_HIT))
    assert "Inspired" in ash.statuses and ash.xp == xp
    party.spend_thread(ash, "feeling_lucky", inspired=True, seed=_seed_for(Tier.WEAK_HIT))
    assert "Inspired" not in ash.statuses and ash.xp == xp and party.gm.threads == 2


def test_a_luck_roll_against_you_gives_no_xp_and_no_gm_thread_for_its_critical_miss() -> None:
    party, ash = _table()
    xp = ash.xp
    result = party.spend_thread(ash, "feeling_lucky", True, dc=14,
                                rng=random.Random(_seed_for(Tier.CRITICAL_MISS)))
    assert result.tier == Tier.CRITICAL_MISS
    assert ash.xp == xp and party.gm.threads == 1  # the thread spent only
    assert ash.last_check is not None and ash.last_check.tier == "Weak Hit"  # untouched


def test_undo_takes_the_xp_back_with_the_luck_roll() -> None:
    party, ash = _table()
    xp = ash.xp
    party.spend_thread(ash, "feeling_lucky", seed=_seed_for(Tier.CRITICAL_MISS))
    ash.undo()
    assert ash.xp == xp and ash.threads == 1
