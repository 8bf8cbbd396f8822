"""The notation's grammar, its errors (with columns) and the ceilings that prevent hangs."""

from __future__ import annotations

import pytest

from companion.dice import limits, odds, parse, roll
from companion.dice.nodes import BinOp, Condition, Const, Dice, Group, Keep, Labeled, Neg
from companion.errors import DiceError, DiceLimitError, DiceSyntaxError, OddsTooCostlyError


def test_tree_shape_and_precedence() -> None:
    tree = parse("2d6+3*-1d4")
    assert isinstance(tree, BinOp) and tree.op == "+"
    assert isinstance(tree.left, Dice) and tree.left.count == Const(2)
    assert isinstance(tree.right, BinOp) and tree.right.op == "*"
    assert isinstance(tree.right.right, Neg)


def test_defaults_and_spellings() -> None:
    assert parse("d20") == parse("1d20") == parse("1D20") == parse(" 1 d 20 ")
    assert parse("4d6k3") == parse("4d6kh3")
    kh = parse("2d20kh")
    assert isinstance(kh, Dice) and kh.mods.keep == Keep(True, True, 1)
    kl = parse("2d20kl")
    assert isinstance(kl, Dice) and kl.mods.keep == Keep(True, False, 1)
    assert parse("dF") == parse("1df")
    assert isinstance(parse("(1d4)d6"), Dice)
    assert isinstance(parse("2d(1d4*2)"), Dice)
    labeled = parse("2d6[fire]")
    assert isinstance(labeled, Labeled) and labeled.label == "fire"
    assert isinstance(parse("(2)"), Group)


def test_modifier_order_does_not_matter() -> None:
    assert odds("4d6r1kh3min2") == odds("4d6min2kh3r1")


@pytest.mark.parametrize(
    ("expr", "column", "reason"),
    [
        ("2d6+(3))", 7, "unexpected ')'"),
        ("2d", 2, "expected the number of sides after 'd'"),
        ("2d6+", 4, "expression ends too early"),
        ("", 0, "empty dice expression"),
        ("   ", 0, "empty dice expression"),
        ("2x6", 1, "unexpected 'x'"),
        ("(2d6", 4, "expected ')'"),
        ("2d6[fire", 3, "unclosed label '['"),
        ("2d6[]", 3, "empty label '[]'"),
        ("4d6d1", 3, "expected 'dh' or 'dl'"),
        ("4d6kh3kl1", 6, "'keep/drop' given twice"),
        ("4d6r1ro2", 5, "cannot mix 'r' and 'ro'"),
        ("2d0", 2, "a die needs at least 1 side"),
        ("3d6>=", 5, "expected a target number"),
        ("1d6+£", 4, "unexpected '£'"),
        ("1d6[a\x00b]", 3, "a label cannot hold control characters"),
    ],
)
def test_syntax_errors_name_the_column(expr: str, column: int, reason: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(expr)
    assert info.value.position == column
    message = str(info.value)
    assert message.startswith(reason)
    assert message.endswith(f" at column {column} in {expr!r}")
    assert "\n" not in message


@pytest.mark.parametrize(
    ("expr", "needle"),
    [
        ("10001d6", "10,000 dice"),
        ("5000d6+5001d6", "10,000 dice"),
        ("1d1000001", "1,000,000 sides"),
        ("1+" * 500 + "1", "1,000"),
        ("(" * 101 + "1" + ")" * 101, "deeper than 100"),
        ("-" * 101 + "1", "deeper than 100"),
        ("1d99999999999", "too large"),
    ],
)
def test_limits_refuse_at_parse_time(expr: str, needle: str) -> None:
    parse.cache_clear()
    with pytest.raises(DiceLimitError, match=needle):
        parse(expr)


def test_limits_are_inclusive() -> None:
    assert roll("10000d1").total == 10000
    assert 1 <= roll("1d1000000", seed=1).total <= 1_000_000
    assert parse("(" * 100 + "1" + ")" * 100) is not None


@pytest.mark.parametrize(
    ("expr", "needle"),
    [
        ("1d1!", "explodes"),
        ("1d6!>=1", "explodes"),
        ("dF!>=-1", "explodes"),
        ("1d6r<=6", "reroll forever"),
        ("1d6r1r2r3r4r5r6", "reroll forever"),
        ("(1d2-1)d1!", "explodes"),
        ("1d2r1!", "explodes"),  # the reroll leaves only the exploding face
    ],
)
def test_endless_dice_are_refused_by_roll_and_odds(expr: str, needle: str) -> None:
    with pytest.raises(DiceLimitError, match=needle):
        odds(expr)
    with pytest.raises(DiceLimitError, match=needle):
        for seed in range(20):  # the dynamic case refuses once it meets a 1-sided die
            roll(expr, seed=seed)


def test_division_by_zero() -> None:
    with pytest.raises(DiceError, match="division by zero"):
        roll("1d6/0")
    with pytest.raises(DiceError, match="division by zero"):
        odds("1d6/(1d2-1)")
    with pytest.raises(DiceError, match="division by zero"):
        odds("1d6/0")


def test_dynamic_limits() -> None:
    with pytest.raises(DiceLimitError, match="10,000"):
        odds("(1d2*10000)d6")
    with pytest.raises(DiceLimitError):
        roll("(5000*3)d6")
    with pytest.raises(DiceError, match="sides"):
        roll("1d(1-1)")
    with pytest.raises(DiceError, match="negative"):
        odds("(1d2-2)d6")
    with pytest.raises(DiceError, match="-1 dice"):
        roll("(0-1)d6")


@pytest.mark.parametrize(
    "expr",
    [
        "2d1000000",
        "10000d6",
        "100d100kh50",
        "1d100000*1d100000",
        "(1d100)d(1d100)",
        "10000d1000000",
    ],
)
def test_costly_odds_suggest_simulate(expr: str) -> None:
    with pytest.raises(OddsTooCostlyError, match=r"use simulate\(expr, n\)"):
        odds(expr)


def test_keep_on_dice_exploding_on_middle_faces_suggests_simulate() -> None:
    with pytest.raises(OddsTooCostlyError, match="simulate"):
        odds("4d6!=3kh3")


def test_time_limit_is_a_safety_net(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "ODDS_TIME_LIMIT", -1.0)
    with pytest.raises(OddsTooCostlyError, match="longer than"):
        odds("3d7+1d3")
    monkeypatch.undo()
    assert odds("3d7+1d3").min == 4  # nothing half-computed was cached


@pytest.mark.parametrize(
    "expr",
    [
        "1" + "*1" * 499,
        "1d2" + "+1d2" * 249,
        "100" + "-1" * 449,
        "1000000" + "/1" * 496,
        "2*(" + "1d4-" * 200 + "1)",
    ],
)
def test_long_flat_chains_do_not_hit_the_recursion_limit(expr: str) -> None:
    assert len(expr) <= limits.MAX_EXPR_CHARS
    r = roll(expr, seed=1)
    assert str(r).endswith(f"= {r.total}") and r._repr_html_()
    dist = odds(expr)
    assert dist.min <= r.total <= dist.max
    from companion.dice import roll_many

    assert all(dist.min <= t <= dist.max for t in roll_many(expr, 5, seed=2))


@pytest.mark.parametrize("depth", [-1, 101, 2.5])
def test_explode_depth_is_checked(depth: object) -> None:
    with pytest.raises(DiceError, match="explode_depth"):
        odds("1d6!", explode_depth=depth)  # type: ignore[arg-type]


def test_a_comparison_right_after_the_bang_belongs_to_the_explosion() -> None:
    only_explode = parse("4d6!>=5")
    assert isinstance(only_explode, Dice)
    assert only_explode.mods.explode == Condition(">=", 5) and only_explode.mods.count is None
    both = parse("4d6!>=6>=5")
    assert isinstance(both, Dice)
    assert both.mods.explode == Condition(">=", 6) and both.mods.count == Condition(">=", 5)
    bare = parse("4d6!kh4>=5")  # a bare "!", then another modifier: the comparison counts
    assert isinstance(bare, Dice) and bare.mods.explode_max
    assert bare.mods.count == Condition(">=", 5)
