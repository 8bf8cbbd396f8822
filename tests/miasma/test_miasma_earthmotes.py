"""Earthmotes: both tables validated, the 11/12 re-roll rule, the seeded generator."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest

from companion.errors import RuleError, StateError
from companion.rulesets.miasma import earthmotes as E

TERRAINS = ["Arctic", "Coastal", "Desert", "Forest", "Grassland", "Hill", "Mountain", "Swamp",
            "Underdark", "Underwater"]


def test_size_table_is_a_d6_with_even_odds() -> None:
    table = E.size_table()
    assert table.die == "1d6" and table.ruleset == "miasma"
    assert [p for _, p in table.odds()] == [Fraction(1, 6)] * 6
    assert table.row_for(1).values["Size"] == "Tiny (≤ 1,759 sq. ft.)"
    assert table.row_for(6).values["Size"] == "Gargantuan (≥ 5,280 sq. ft.)"


def test_biome_table_covers_every_unordered_pair_once() -> None:
    table = E.biome_table()
    assert table.die == "2d12" and table.read == "unordered"
    pairs = [row.covers for row in table.rows if not row.reroll]
    assert sorted(pairs) == sorted(itertools.combinations_with_replacement(range(1, 11), 2))
    assert [row.range for row in table.rows if row.reroll] == ["11", "12"]
    # Each pair's encounters are its two terrains, in the order of the dice.
    for row in table.rows:
        if not row.reroll:
            a, b = row.covers
            want = TERRAINS[a - 1] if a == b else f"{TERRAINS[a - 1]}, {TERRAINS[b - 1]}"
            assert row.values["Encounters"] == want, row.range


def test_biome_odds_after_rerolls_against_enumeration() -> None:
    # After re-rolling 11s and 12s each die is uniform on 1-10: enumerate the 100 pairs.
    counts: dict[tuple[int, int], int] = {}
    for a, b in itertools.product(range(1, 11), repeat=2):
        key = (min(a, b), max(a, b))
        counts[key] = counts.get(key, 0) + 1
    odds = {row.covers: p for row, p in E.biome_table().odds() if not row.reroll}
    assert odds == {k: Fraction(v, 100) for k, v in counts.items()}


def test_feature_odds_count_rerolls() -> None:
    # Series written out: per die, never meeting an 11 before settling on 1-10 means n
    # earlier 12s then a settling face; the run of non-settling rolls has length n with
    # chance (2/12)^n (10/12), and half of those rolls are 11s on average.
    never = sum(Fraction(1, 12) ** n * Fraction(10, 12) for n in range(80))
    per_die = sum(Fraction(2, 12) ** n * Fraction(10, 12) * Fraction(n, 2) for n in range(80))
    odds = E.feature_odds()
    assert [row.range for row, _, _ in odds] == ["11", "12"]
    for _row, at_least_one, expected in odds:
        assert abs(at_least_one - (1 - never**2)) < Fraction(1, 10**60)
        assert abs(expected - 2 * per_die) < Fraction(1, 10**50)
    assert odds[0][1] == Fraction(21, 121)


def test_generator_is_seeded_and_reads_the_tables() -> None:
    a, b = E.generate_earthmote(seed=42), E.generate_earthmote(seed=42)
    assert a == b and a.seed == 42
    assert E.generate_earthmote(rng=random.Random(1)) == E.generate_earthmote(rng=random.Random(1))
    drawn = E.generate_earthmote()
    assert drawn.seed is not None
    assert E.generate_earthmote(seed=drawn.seed) == drawn  # the kept seed makes it again
    rolls = set()
    for seed in range(200):
        mote = E.generate_earthmote(seed=seed)
        rolls.add((mote.size_roll, tuple(mote.biome_roll)))
        row = E.biome_table().row_for(tuple(mote.biome_roll))
        assert mote.biome == row.values["Biome"] and min(mote.biome_roll) >= 1
        assert max(mote.biome_roll) <= 10
        assert mote.size == E.size_table().row_for(mote.size_roll).values["Size"]
        assert all(f.face in (11, 12) for f in mote.features)
        assert mote.describe().count(" + ") == len(mote.features)
    assert len(rolls) > 50  # other seeds, other earthmotes: the seed is not ignored


def faces_for(seed: int) -> list[int]:
    """The raw d12 faces the generator's rng yields after the d6 (how the table rolls)."""
    gen = random.Random(seed)
    gen.randint(1, 6)
    return [gen.randint(1, 12) for _ in range(6)]


def test_eleven_and_twelve_add_features_and_roll_again() -> None:
    # Find seeds whose first two d12s are (11, 11) and (11, 12) and check the reading.
    found = {}
    for seed in range(20000):
        mote = E.generate_earthmote(seed=seed)
        kinds = sorted(f.face for f in mote.features)
        if kinds == [11, 11] and "11,11" not in found:
            found["11,11"] = mote
        if kinds == [11, 12] and "11,12" not in found:
            found["11,12"] = mote
        if len(found) == 2:
            break
    assert set(found) == {"11,11", "11,12"}
    double = found["11,11"]
    assert [f.kind for f in double.features] == ["Settlement/stronghold/ruin"] * 2
    both = found["11,12"]
    assert {f.encounters for f in both.features} == {"Urban", "Planar portal"}
    assert max(both.biome_roll) <= 10


def test_change_region_keeps_one_die() -> None:
    mote = E.generate_earthmote(seed=3)
    new = E.change_region(mote, 0, new_size=False, seed=9)
    assert mote.biome_roll[0] in new.biome_roll and new.size == mote.size
    # The region keeps the seed of its own dice, not the earthmote's (which rolls the
    # earthmote): that seed, with the earthmote and the choices, replays the region.
    assert new.seed == 9 != mote.seed
    assert new == E.change_region(mote, 0, new_size=False, seed=9)
    assert E.change_region(mote, 0, new_size=False, rng=random.Random(9)).seed is None
    others = {tuple(E.change_region(mote, 0, seed=s).biome_roll) for s in range(20)}
    assert len(others) > 2  # other seeds re-roll the other die differently
    for bad in (2, -1, True):
        with pytest.raises(RuleError, match="keep die 0 or 1 of the biome pair, or none"):
            E.change_region(mote, bad)


def test_a_new_region_rolls_its_size_on_the_size_table() -> None:
    """Issue 30: "the size of an earthmote or region" comes from the Size table."""
    mote = E.generate_earthmote(seed=3)
    sizes = {E.change_region(mote, 0, seed=s).size_roll for s in range(60)}
    assert sizes == set(range(1, 7))
    region = E.change_region(mote, 1, seed=21)
    assert region.size == E.size_table().row_for(region.size_roll).values["Size"]
    assert region.seed == 21 and mote.biome_roll[1] in region.biome_roll
    # The d6 comes first, then the re-rolled die: the same dice as by hand.
    rng = random.Random(21)
    size = E.size_table().roll(rng=rng).roll
    assert region.size_roll == size


def test_a_new_region_can_reroll_both_biome_dice() -> None:
    """Issue 30: "re-roll one or more dice" — both dice, as a new earthmote's."""
    mote = E.generate_earthmote(seed=3)
    for seed in range(40):
        both = E.change_region(mote, None, seed=seed)
        assert both == E.generate_earthmote(seed=seed)  # the same dice in the same order
    kept = {tuple(E.change_region(mote, None, new_size=False, seed=s).biome_roll)
            for s in range(40)}
    assert not all(mote.biome_roll[0] in pair or mote.biome_roll[1] in pair for pair in kept)


def _one_die_enumerated(depth: int) -> tuple[dict[int, Fraction], Fraction]:
    """Brute force: every sequence of d12 faces up to ``depth`` rolls; the mass that
    settles on each face 1-10, and the mass still re-rolling after ``depth`` rolls."""
    settled: dict[int, Fraction] = {}
    open_mass = Fraction(0)
    for faces in itertools.product(range(1, 13), repeat=depth):
        p = Fraction(1, 12 ** depth)
        for face in faces:
            if face <= 10:
                settled[face] = settled.get(face, Fraction(0)) + p
                break
        else:
            open_mass += p
    return settled, open_mass


@pytest.mark.parametrize("keep", [0, 1, None])
def test_region_odds_against_enumeration(keep: int | None) -> None:
    mote = E.generate_earthmote(seed=5)
    exact = E.region_odds(mote, keep)
    assert sum(exact.values()) == 1
    one, open_one = _one_die_enumerated(4)
    table = E.biome_table()
    low: dict[str, Fraction] = {}
    firsts = {mote.biome_roll[keep]: Fraction(1)} if keep is not None else one
    for a, pa in firsts.items():
        for b, pb in one.items():
            name = table.row_for((min(a, b), max(a, b))).values["Biome"]
            low[name] = low.get(name, Fraction(0)) + pa * pb
    # What did not settle within 4 rolls per die bounds the difference.
    unsettled = 1 - sum(low.values())
    assert unsettled <= (2 * open_one if keep is None else open_one)
    for name, p in exact.items():
        assert low.get(name, Fraction(0)) <= p <= low.get(name, Fraction(0)) + unsettled
    # The limit as depth grows: every settled face is exactly 1 in 10.
    assert all(v * (1 - open_one) ** -1 == Fraction(1, 10) for v in one.values())
    if keep is None:
        pure = table.row_for((1, 1)).values["Biome"]
        assert exact[pure] == Fraction(1, 100)


def test_the_list_moves_into_a_region_with_both_dice() -> None:
    log = E.EarthmoteLog.start(seed=5)
    log.generate()
    log.new_region(0, None, new_size=False)
    assert log.earthmotes[1].size == log.earthmotes[0].size
    with pytest.raises(RuleError, match="keep die 0 or 1"):
        log.new_region(0, 3)
    assert E.EarthmoteLog.from_json(log.to_json()) == log


def test_earthmote_log_moves_round_trip() -> None:
    log = E.EarthmoteLog.start(seed=5)
    log.generate()
    log.generate()
    again = E.EarthmoteLog.start(seed=5)
    again.generate()
    again.generate()
    assert log.earthmotes == again.earthmotes
    log.new_region(0, 1)
    assert len(log.earthmotes) == 3 and "new region from #1" in log.log[-1].summary
    log.remove(1)
    assert len(log.earthmotes) == 2
    with pytest.raises(RuleError, match="no earthmote #9"):
        log.remove(8)
    copy = E.EarthmoteLog.from_json(log.to_json())
    assert copy == log
    log.undo()
    assert len(log.earthmotes) == 3
    log.clear()
    with pytest.raises(RuleError, match="already empty"):
        log.clear()
    data = json.loads(copy.to_json())
    data["state"]["earthmotes"][0]["biome_roll"] = "3,4"
    with pytest.raises(StateError, match=r"earthmotes\[0\]\.biome_roll"):
        E.EarthmoteLog.from_json(json.dumps(data))


def _saved_log() -> dict:  # type: ignore[type-arg]
    log = E.EarthmoteLog.start(seed=5)
    log.generate()
    log.generate()
    return json.loads(log.to_json())


@pytest.mark.parametrize(
    ("change", "message"),
    [(lambda m: m.update(size_roll=7), "earthmotes\\[0\\].*'size_roll' must be a roll of 1d6"),
     (lambda m: m.update(size="Enormous"), "earthmotes\\[0\\].*'size' must be the Size row"),
     (lambda m: m.update(biome_roll=[11, 3]), "'biome_roll' must be two settled biome dice"),
     (lambda m: m.update(biome_roll=[5, 2]), "'biome_roll' must be two settled biome dice"),
     (lambda m: m.update(biome_roll=[1]), "'biome_roll' must be two settled biome dice"),
     (lambda m: m.update(biome="Lava sea"), "'biome' and 'encounters' must be the Biomes row"),
     (lambda m: m.update(features=[{"face": 3, "kind": "x", "encounters": "y"}]),
      "features\\[0\\].*'face' must be a face that rolls again"),
     (lambda m: m.update(features=[{"face": 11, "kind": "Castle", "encounters": "Urban"}]),
      "features\\[0\\].*'kind' and 'encounters' must read as the table's row"),
     (lambda m: m.update(seed=-1), "earthmotes\\[0\\].seed' must be from 0")],
)
def test_corrupt_earthmote_names_the_field(change, message) -> None:
    data = _saved_log()
    change(data["state"]["earthmotes"][0])
    with pytest.raises(StateError, match=message):
        E.EarthmoteLog.from_json(json.dumps(data))
    data = _saved_log()  # the same fault in an undo snapshot
    change(data["log"][1]["before"]["earthmotes"][0])
    with pytest.raises(StateError, match=r"log\[1\]\.before\.earthmotes\[0\]"):
        E.EarthmoteLog.from_json(json.dumps(data))


def test_corrupt_list_invariants() -> None:
    data = _saved_log()
    data["state"]["made"] = 1
    with pytest.raises(StateError, match="'made' counts 1 earthmotes made, but the list holds 2"):
        E.EarthmoteLog.from_json(json.dumps(data))
    data = _saved_log()
    data["state"]["earthmotes"] *= 300
    data["state"]["made"] = 600
    with pytest.raises(StateError, match="'earthmotes' holds 600 items"):
        E.EarthmoteLog.from_json(json.dumps(data))
    full = E.EarthmoteLog.start(seed=1)
    full.earthmotes = [E.generate_earthmote(seed=2)] * E.MAX_EARTHMOTES
    full.made = E.MAX_EARTHMOTES
    with pytest.raises(RuleError, match="at most 500"):
        full.generate()
