"""A roll knows the seed it was rolled with; drawn seeds stay below SEED_BOUND (issue 18)."""

from __future__ import annotations

import random

from companion import dice
from companion.dice import SEED_BOUND, draw_seed, roll


def test_a_seeded_roll_keeps_its_seed_and_rolls_again_the_same() -> None:
    first = roll("4d6kh3", seed=12345)
    assert first.seed == 12345
    again = roll(first.expr, seed=first.seed)
    assert str(again) == str(first)
    assert repr(first).endswith(", seed 12345>")


def test_a_roll_from_a_generator_claims_no_seed() -> None:
    # The generator wins over a seed given beside it, so the seed would be a lie.
    assert roll("1d6", rng=random.Random(1)).seed is None
    assert roll("1d6", seed=2, rng=random.Random(1)).seed is None
    assert roll("1d6").seed is None


def test_the_seed_stays_out_of_the_json_form() -> None:
    # A hidden roll's dict is shown before the reveal: it must not carry the seed.
    assert roll("2d6", seed=9).to_dict() == roll("2d6", rng=random.Random(9)).to_dict()


def test_drawn_seeds_stay_below_the_bound() -> None:
    rng = random.Random(0)
    seeds = [draw_seed(rng) for _ in range(2000)]
    assert all(0 <= s < SEED_BOUND == 2**53 for s in seeds)
    assert max(seeds) > 2**50  # the whole range is used, not a narrow corner of it
    assert draw_seed(random.Random(4)) == draw_seed(random.Random(4))
    assert 0 <= draw_seed() < SEED_BOUND
    assert dice.SEED_BOUND is SEED_BOUND
