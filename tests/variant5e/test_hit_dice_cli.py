"""Issue 15: the Hit Dice and healing variants reach the command line (exact odds, roll)."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from fractions import Fraction

import pytest

from companion.errors import RuleError
from companion.rulesets.variant5e.healing import HitDice, hit_dice_healing, rest_recovery


@pytest.mark.parametrize(("count", "die", "con"), [(2, 6, -2), (3, 8, 1), (1, 12, -5)])
def test_hit_dice_healing_matches_brute_force(count: int, die: int, con: int) -> None:
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, die + 1), repeat=count):
        total = sum(max(0, f + con) for f in faces)
        counts[total] = counts.get(total, 0) + 1
    n = die ** count
    assert hit_dice_healing(count, die, con) == {k: Fraction(v, n)
                                                 for k, v in sorted(counts.items())}


def test_rest_recovery_by_variant() -> None:
    assert rest_recovery(5) == {"short_rest_hit_dice": 0, "long_rest_hit_dice": 2,
                                "long_rest_restores_hp": True, "surge_dice": 0}
    assert rest_recovery(9, healing_surges=True, slow_natural_healing=True) == {
        "short_rest_hit_dice": 2, "long_rest_hit_dice": 9, "long_rest_restores_hp": False,
        "surge_dice": 4}
    with pytest.raises(RuleError, match="level must be 1 to 20"):
        rest_recovery(0)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "5e", "hit-dice", *args],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("seed", [1, 9])
def test_cli_hit_dice_roll_follows_the_tracker(seed: int) -> None:
    data = json.loads(run("6", "--die", "10", "--con", "1", "--spend", "3", "--kit",
                          "--roll", "--seed", str(seed), "--json").stdout)
    tracker = HitDice(level=6, die=10, con_modifier=1, max_hp=66, hp=0, hit_dice=6,
                      healers_kit_dependency=True)
    tracker.short_rest()
    tracker.treat_with_healers_kit()
    rng = random.Random(seed)
    faces = [tracker.roll_hit_die(rng=rng) for _ in range(3)]
    assert data["roll"] == {"faces": faces, "healed": tracker.hp}
    assert Fraction(data["mean"]) == Fraction(3 * 13, 2)  # 3 × (5.5 + 1)


def test_cli_hit_dice_refuses_bad_input_in_one_line() -> None:
    for args, text in ((("3", "--spend", "4"), "has 3 Hit Dice, not 4"),
                       (("3", "--die", "7"), "d6, d8, d10 or d12"),
                       (("30",), "level must be 1 to 20")):
        out = run(*args)
        assert out.returncode != 0 and text in out.stderr
        assert out.stderr.strip().count("\n") == 0


def run5e(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "5e", *args],
                          capture_output=True, text=True, timeout=60)


def test_cli_class_placement_identify_timing_and_grapple_speed() -> None:
    placed = json.loads(run5e("spell-points", "9", "--class", "Fighter (Eldritch Knight)",
                              "--json").stdout)
    assert (placed["caster"], placed["points"], placed["max_spell_level"]) == ("third", 14, 2)
    assert "no caster kind for 'monk'" in run5e("spell-points", "9", "--class", "monk").stderr
    ident = json.loads(run5e("identify", "3", "--arcana", "4", "--being-cast",
                             "--json").stdout)
    assert ident["takes"] == "reaction"
    assert json.loads(run5e("identify", "3", "--arcana", "4", "--json").stdout)["takes"] == (
        "action")
    drag = json.loads(run5e("grapple-speed", "30", "--grappler", "huge", "--json").stdout)
    assert drag["moving_speed"] == 30
    assert json.loads(run5e("grapple-speed", "30", "--json").stdout)["moving_speed"] == 15
    assert "unknown size 'gigantic'" in run5e("grapple-speed", "30", "--grappled",
                                               "gigantic").stderr
