"""Property tests: damage arithmetic, and random move sequences on the trackers."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RuleError
from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.damage import resolve_hit
from companion.rulesets.cairn_srd.duel import Duel
from companion.rulesets.cairn_srd.lockpicking import LockPicking


@given(st.integers(0, 40), st.integers(0, 18), st.integers(0, 18), st.integers(0, 18),
       st.booleans())
def test_hit_accounts_for_every_point(amount: int, guard: int, strength: int, armor: int,
                                      direct: bool) -> None:
    hit = resolve_hit(amount, guard=guard, strength=strength, armor=armor, direct=direct)
    assert hit.absorbed + hit.to_guard + hit.to_str == amount
    assert hit.guard_after == guard - hit.to_guard >= 0
    assert hit.str_after == max(0, strength - hit.to_str)
    if direct:
        assert hit.absorbed == hit.to_guard == 0
    elif hit.to_str:
        assert hit.guard_after == 0 and hit.absorbed == min(armor, amount)
    scarred = hit.scar_damage is not None
    assert scarred == (hit.to_guard > 0 and hit.guard_after == 0 and hit.to_str == 0)


CHARACTER_MOVES = [
    lambda c, r: c.add_item(r.choice(["rope", "arrows"]), r.choice(["normal", "stack"]), 1),
    lambda c, r: c.drop_item(r.randrange(12)),
    lambda c, r: c.add_fatigue(),
    lambda c, r: c.add_wound(),
    lambda c, r: c.take_damage(r.randint(0, 12), rng=r),
    lambda c, r: c.cast(r.randint(1, 4), rng=r),
    lambda c, r: c.rest_turn(),
    lambda c, r: c.rest_night(),
    lambda c, r: c.rest_day(),
    lambda c, r: c.panic_save(rng=r),
    lambda c, r: c.make_boast("glory", "DEX"),
    lambda c, r: c.end_casting_ban(),
    lambda c, r: c.recover_scar(rng=r),
]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, len(CHARACTER_MOVES) - 1), max_size=25))
def test_character_random_moves_round_trip_and_undo(seed: int, moves: list[int]) -> None:
    r = random.Random(seed)
    c = new_character("P", 10, 10, 10, 4, armor=1)
    start = c.to_json()
    made = 0
    for m in moves:
        before = c.to_json()
        try:
            CHARACTER_MOVES[m](c, r)
            made += 1
        except RuleError:
            assert c.to_json() == before  # a refused move changes nothing
        c.validate()
        assert 0 <= c.slots_used <= 10
    assert Character.from_json(c.to_json()) == c
    for _ in range(made):
        c.undo()
    assert c.to_json() == start


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.sampled_from("TPRSB"), max_size=15))
def test_lock_random_moves(seed: int, moves: list[str]) -> None:
    r = random.Random(seed)
    lock = LockPicking.create(rng=r)
    for m in moves:
        before = lock.to_json()
        try:
            if m == "S":
                lock.study(2, rng=r)
            elif m == "B":
                lock.break_off()
            else:
                lock.pick(m)
        except RuleError:
            assert lock.to_json() == before
        assert not (lock.opened and lock.jammed)
        assert lock.progress <= 3
    assert LockPicking.from_json(lock.to_json()) == lock


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 12), st.integers(1, 12))
def test_duel_always_ends(seed: int, hp_a: int, hp_b: int) -> None:
    r = random.Random(seed)
    d = Duel()
    d.start("A", "B", hp_a, hp_b, "pride")
    while not d.over:
        d.choose(0, r.choice(["attack", "defend", "flourish"]))
        d.choose(1, r.choice(["attack", "defend", "flourish"]), rng=r)
        assert d.rounds <= hp_a + hp_b  # each exchange deals at least 1 to each side
    assert d.winner in ("A", "B", "draw")
    assert (d.winner == "draw") == (d.hit_points == [0, 0])
