"""Property test: any sequence of delve moves, legal or refused, keeps the saved state
valid, round-trips through JSON, and undoes back to the start."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RuleError
from companion.rulesets.cairn_srd.exploration import ACTIONS, Delve

NAMES = ("Ash", "Bryn", "Cor")
MOVES: list[Callable[[Delve, random.Random], Any]] = [
    lambda d, r: d.declare(r.choice([*ACTIONS, "dig"]), fast=r.random() < 0.2),
    lambda d, r: d.describe_turn("a room"),
    lambda d, r: d.roll_site_die(rng=r),
    lambda d, r: d.mark_lights(),
    lambda d, r: d.roll_distance(rng=r),
    lambda d, r: d.roll_activity(rng=r),
    lambda d, r: d.roll_complication(rng=r),
    lambda d, r: d.add_light(r.choice(["torch", "candle", "lantern"]), r.choice(NAMES),
                             lit=r.random() < 0.5),
    lambda d, r: d.light(r.randrange(4)),
    lambda d, r: d.put_out(r.randrange(4)),
    lambda d, r: d.move_fast(r.randrange(4)),
    lambda d, r: d.carry_in_lantern(r.randrange(4), r.random() < 0.7),
    lambda d, r: d.add_oil(1),
    lambda d, r: d.refill(r.randrange(4)),
    lambda d, r: d.remove_light(r.randrange(4)),
    lambda d, r: d.set_darkvision(r.choice(NAMES), r.random() < 0.7),
    lambda d, r: d.darkness_panic_save(r.choice(NAMES), r.randint(0, 18), rng=r),
    lambda d, r: d.darkness_fate(r.choice(NAMES), rng=r),
    lambda d, r: d.escape_check(r.choice(NAMES), r.choice(["STR", "DEX", "CTRL"]),
                                r.randint(0, 18), r.sample(["lost", "hindered", "lair"], 2),
                                r.randint(0, 3), rng=r),
    lambda d, r: d.failed_escape(r.choice(NAMES), rng=r),
    lambda d, r: d.reroll_escape(r.choice(NAMES)),
    lambda d, r: d.betray(r.choice(NAMES), r.choice(NAMES), rng=r),
    lambda d, r: d.body_check(r.choice(NAMES), rng=r),
    lambda d, r: d.new_site(),
]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, len(MOVES) - 1), max_size=40))
def test_delve_random_moves_stay_valid_round_trip_and_undo(seed: int,
                                                          moves: list[int]) -> None:
    r = random.Random(seed)
    d = Delve()
    start = d.to_json()
    made = 0
    for m in moves:
        before = d.to_json()
        try:
            MOVES[m](d, r)
        except RuleError:
            assert d.to_json() == before  # a refused move changes nothing
            continue
        made += 1
        d.validate()
        assert Delve.from_json(d.to_json()) == d
    assert len(d.log) == made
    for _ in range(made):
        d.undo()
    assert d.to_json() == start
