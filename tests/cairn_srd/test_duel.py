"""The duel: all nine choice pairs, secrecy, ending, undo and JSON."""

from __future__ import annotations

import itertools

import pytest

from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd.duel import TACTICS, Duel, exchange_dice
from tests.cairn_srd.test_character import FixedRng

EXPECTED = {
    ("attack", "attack"): (6, 6), ("defend", "defend"): (6, 6),
    ("flourish", "flourish"): (6, 6),
    ("defend", "attack"): (8, 4), ("attack", "defend"): (4, 8),
    ("attack", "flourish"): (8, 4), ("flourish", "attack"): (4, 8),
    ("flourish", "defend"): (8, 4), ("defend", "flourish"): (4, 8),
}


def started(hp: int = 18) -> Duel:
    d = Duel()
    d.start("Vera", "Osk", hp, hp, "the loser leaves town")
    return d


@pytest.mark.parametrize(("a", "b"), list(itertools.product(TACTICS, TACTICS)))
def test_all_nine_pairs(a: str, b: str) -> None:
    assert exchange_dice(a, b) == EXPECTED[(a, b)]
    d = started()
    d.choose("Vera", a)
    sides = EXPECTED[(a, b)]
    ex = d.choose(1, b, rng=FixedRng(sides[0], 1))  # each rolls its own die: max, then 1
    assert ex is not None and ex.dice == list(sides)
    assert d.hit_points == [18 - 1, 18 - sides[0]]
    assert d.choices == ["", ""] and d.rounds == 1


def test_choices_are_secret_and_single() -> None:
    d = started()
    d.choose("Vera", "attack")
    assert "attack" not in d.log[-1].summary
    with pytest.raises(RuleError, match="already chosen"):
        d.choose("Vera", "defend")
    assert d.waiting() == ["Osk"] and d.can_choose("Osk") and not d.can_choose("Vera")
    with pytest.raises(RuleError, match="attack, defend or flourish"):
        d.choose("Osk", "dance")
    with pytest.raises(RuleError, match="no duelist"):
        d.choose("Nobody", "attack")


def test_duel_ends_at_zero_and_draw() -> None:
    d = started(hp=3)
    d.choose(0, "defend")
    d.choose(1, "attack", rng=FixedRng(5, 1))
    assert d.winner == "Vera" and d.hit_points == [2, 0]
    with pytest.raises(RuleError, match="over"):
        d.choose(0, "attack")
    d = started(hp=2)
    d.choose(0, "attack")
    d.choose(1, "attack", rng=FixedRng(4, 6))
    assert d.winner == "draw"


def test_stakes_required_and_round_trip() -> None:
    with pytest.raises(RuleError, match="stakes"):
        Duel().start("a", "b", 5, 5, "  ")
    with pytest.raises(RuleError, match="step 1: start the duel"):
        Duel().choose(0, "attack")
    assert not Duel().can_choose(0)
    d = started()
    d.choose(0, "flourish")
    d.choose(1, "defend", seed=4)
    e = Duel.from_json(d.to_json())
    assert e == d and e.stakes == "the loser leaves town"
    e.undo()
    assert e.hit_points == [18, 18] and e.choices == ["flourish", ""]
    with pytest.raises(StateError, match="rounds"):
        Duel.from_json(d.to_json().replace('"rounds": 1', '"rounds": -1'))
