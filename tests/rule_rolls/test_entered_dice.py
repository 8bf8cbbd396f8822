"""Your own dice for any rule roll: EnteredDice through the engine, a table, randint, and
its refusals (issue 13)."""

from __future__ import annotations

import random

import pytest

from companion import dice, tables
from companion.checks import Check
from companion.dice.physical import OWN_DICE, EnteredDice, OwnDiceError, enter, parse_faces
from companion.rulesets.plot_points import PlotCheck

pytestmark = pytest.mark.timeout(60)


def test_rolls_take_the_faces_they_need_in_order_and_score_them_like_enter() -> None:
    rng = EnteredDice([6, 1, 5, 3, 4, 2, 2])
    first = dice.roll("4d6kh3", rng=rng)
    assert (first.total, rng.used) == (14, 4)
    assert str(first) == str(enter("4d6kh3", dice=[6, 1, 5, 3]))
    second = dice.roll("1d6r<=2+1", rng=rng)  # 4 kept
    assert (second.total, rng.used) == (5, 5)
    third = dice.roll("1d6!", rng=rng)
    assert third.total == 2 and OWN_DICE in third.notes
    assert rng.taken == (6, 1, 5, 3, 4, 2)
    with pytest.raises(OwnDiceError, match=r"^7 dice entered, the roll used 6$"):
        rng.finish()
    dice.roll("1d2", rng=rng)
    rng.finish()


def test_rerolls_and_explosions_take_one_more_face_each() -> None:
    rng = EnteredDice([1, 1, 4, 6, 6, 3])
    assert dice.roll("1d6r1", rng=rng).total == 4
    assert [d.value for d in dice.roll("1d6!", rng=rng).dice] == [6, 6, 3]
    rng.finish()
    with pytest.raises(OwnDiceError, match=r"^this roll needs another d6 \(1d6! die 1 shows "
                                           r"6, which explodes\): enter it$"):
        dice.roll("1d6!", rng=EnteredDice([6]))


@pytest.mark.parametrize(("expr", "faces", "message"), [
    ("2d6", [3, 7], "die 2: a d6 shows 1 to 6, not 7"),
    ("1d20", [21], "die 1: a d20 shows 1 to 20, not 21"),
    ("1d20", [0], "die 1: a d20 shows 1 to 20, not 0"),
    ("4dF", [1, 0, -1, 2], "die 4: a dF shows -1, 0 or 1, not 2"),
    ("2d20kh1+1d6", [20, 3], "this roll needs another d6: enter it"),
    ("1d20", [], "this roll needs another d20: enter it"),
])
def test_impossible_or_missing_faces_are_refused_naming_the_die(
        expr: str, faces: list[int], message: str) -> None:
    rng = EnteredDice(faces)
    with pytest.raises(OwnDiceError) as err:
        dice.roll(expr, rng=rng)
    assert str(err.value) == message
    assert rng.used == 0  # nothing taken by a refused roll


def test_faces_are_numbered_across_the_whole_entry() -> None:
    rng = EnteredDice([4, 5, 9])
    dice.roll("2d6", rng=rng)
    with pytest.raises(OwnDiceError, match=r"^die 3: a d8 shows 1 to 8, not 9$"):
        dice.roll("1d8", rng=rng)


def test_a_table_rolls_from_entered_dice() -> None:
    table = tables.get("earthmote_size")
    assert table.die == "1d6"
    for face in range(1, 7):
        got = table.roll(rng=EnteredDice([face]))
        assert got.roll == face
        assert got.row.range == table.roll(rng=_seed_giving(face)).row.range
    with pytest.raises(OwnDiceError, match="die 1: a d6 shows 1 to 6, not 7"):
        table.roll(rng=EnteredDice([7]))


def _seed_giving(face: int) -> random.Random:
    """A seeded rng whose first d6 shows ``face`` (to compare rows with the seeded path)."""
    for seed in range(1000):
        if dice.roll("1d6", seed=seed).total == face:
            return random.Random(seed)
    raise AssertionError(face)


def test_checks_score_entered_dice_with_their_own_rules() -> None:
    strong = PlotCheck("strong", 2, 1, 15)  # 2d20kh1 + 2 + 1d4
    result = strong.roll(rng=EnteredDice([3, 17, 2]))
    assert (result.total, result.natural, result.success) == (21, 17, True)
    weak = Check("2d20kl1", 1, target=10).roll(rng=EnteredDice([3, 17]))
    assert (weak.total, weak.success) == (4, False)


def test_randint_takes_the_next_face_within_its_bounds() -> None:
    rng = EnteredDice([4, 6, 3])
    assert rng.randint(1, 6) == 4
    assert rng.randrange(1, 7) == 6
    with pytest.raises(OwnDiceError, match=r"^die 3: it must show 4 to 6, not 3$"):
        rng.randint(4, 6)
    assert rng.randint(1, 3) == 3
    with pytest.raises(OwnDiceError, match=r"^this roll needs another d6: enter it$"):
        rng.randint(1, 6)
    with pytest.raises(OwnDiceError, match=r"^die 1: a d6 shows 1 to 6, not 9$"):
        EnteredDice([9]).randint(1, 6)


@pytest.mark.parametrize("draw", [
    lambda r: r.random(), lambda r: r.choice([1, 2, 3]), lambda r: r.shuffle([1, 2]),
    lambda r: r.uniform(0, 1), lambda r: r.getrandbits(8), lambda r: r.sample([1, 2, 3], 2),
    lambda r: r.randrange(0, 10, 2),
])
def test_draws_that_are_not_a_die_are_refused(draw: object) -> None:
    with pytest.raises(OwnDiceError, match="cannot be made with real dice: roll it in the app"):
        draw(EnteredDice([1, 2]))  # type: ignore[operator]


def test_bad_entries_and_the_faces_box_parser() -> None:
    with pytest.raises(OwnDiceError, match="each die entered is a whole number"):
        EnteredDice([1, 2.5])  # type: ignore[list-item]
    with pytest.raises(OwnDiceError, match="dice entered; at most"):
        EnteredDice([1] * 100_001)
    assert parse_faces(" 14 ") == [14]
    assert parse_faces("3, 5 2") == [3, 5, 2]
    assert parse_faces("-1 0 +1") == [-1, 0, 1]
    for bad, message in [("", "type the faces"), ("3 x", "die 2: 'x' is not a face"),
                         ("1e3", "die 1: '1e3' is not a face"), ("٣", "is not a face")]:
        with pytest.raises(OwnDiceError, match=message):
            parse_faces(bad)


def test_many_rolls_from_entered_dice() -> None:
    assert dice.roll_many("1d6+1", 3, rng=EnteredDice([2, 5, 6])) == [3, 6, 7]
    with pytest.raises(OwnDiceError, match="needs another d6"):
        dice.roll_many("1d6", 3, rng=EnteredDice([2, 5]))


def test_a_copy_starts_where_the_queue_is() -> None:
    rng = EnteredDice([2, 3, 4])
    rng.randint(1, 6)
    again = rng.copy()
    assert again.randint(1, 6) == 3 and rng.used == 1 and again.used == 2
