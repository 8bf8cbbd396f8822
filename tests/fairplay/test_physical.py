"""Your own dice: impossible entries refused in one line naming why, possible ones accepted
and scored by the engine's own rules; the log marks them physical."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import dice
from companion.cli import main
from companion.dice.physical import OwnDiceError, dice_slots, enter, is_own, takes_dice
from companion.errors import DiceSyntaxError
from companion.store import create_campaign, open_campaign, open_store

pytestmark = pytest.mark.timeout(120)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("expr", "kwargs", "message"), [
    ("2d6", {"total": 13}, "2d6 cannot total 13: its totals run from 2 to 12"),
    ("2d6", {"total": 1}, "2d6 cannot total 1: its totals run from 2 to 12"),
    ("2d6*2", {"total": 5}, "2d6*2 cannot total 5: no roll of it gives that total"),
    ("3d6", {"dice": [3, 5]}, "3d6 takes 3 dice; 2 entered"),
    ("3d6", {"dice": [3, 5, 1, 2]}, "3d6 takes 3 dice; 4 entered"),
    ("1d20", {"dice": [0]}, "die 1 entered (0): a d20 of 1d20 shows 1 to 20"),
    ("1d20", {"dice": [21]}, "die 1 entered (21): a d20 of 1d20 shows 1 to 20"),
    ("2d6+1d8", {"dice": [3, 4, 9]}, "die 3 entered (9): a d8 of 1d8 shows 1 to 8"),
    ("4dF", {"dice": [1, 0, 2, -1]}, "die 3 entered (2): a dF of 4dF shows -1, 0 or 1"),
    ("3d6!", {"dice": [6, 2]},
     "3d6! takes 3 dice (and one more for each reroll or explosion); 2 entered"),
    ("1d6!", {"dice": [6]}, "die 1 of 1d6! shows 6, which explodes: enter that die too"),
    ("1d6r<=2", {"dice": [2]},
     "die 1 of 1d6r<=2 shows 2, which is rerolled: enter that die too"),
    ("2d6", {"dice": [3, 4], "total": 8}, "the dice entered for 2d6 make 7, not 8"),
    ("(1d4)d6", {"dice": [2, 3, 4]}, "(1d4)d6 rolls a number of dice or of sides that is "
     "itself rolled: enter its total instead of each die"),
    ("1d1!", {"dice": [1]}, "every face of 1d1! explodes, so no roll of it ever ends"),
    ("1d6r<=6", {"dice": [3]}, "1d6r<=6 rerolls every face, so no roll of it ever ends"),
    ("1d6!", {"total": 200}, "1d6! cannot total 200: its totals run from 1 to 126 (as far "
     "as the odds follow its explosions, 20 per die)"),
    ("2000d6", {"total": 7000}, "the exact odds of 2000d6 are too costly to check a total "
     "against: enter each die instead"),
    ("2d6", {}, "enter the total of 2d6 or each of its dice"),
])
def test_impossible_entries_are_refused_naming_why(expr: str, kwargs: dict[str, object],
                                                  message: str) -> None:
    with pytest.raises(OwnDiceError) as caught:
        enter(expr, **kwargs)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_a_bad_expression_is_the_engine_own_error() -> None:
    with pytest.raises(DiceSyntaxError):
        enter("2d", total=3)


@pytest.mark.parametrize(("expr", "entered", "text", "total"), [
    ("2d6", [3, 5], "2d6 = [3, 5] = 8 — own dice", 8),
    ("4d6kh3", [2, 6, 1, 5], "4d6kh3 = [2, 6, ~~1~~, 5] = 13 — own dice", 13),
    ("2d20kl1+3", [17, 4], "2d20kl1+3 = [~~17~~, 4] + 3 = 7 — own dice", 7),
    ("3d6!", [6, 6, 2, 1, 3], "3d6! = [6!, 6!, 2, 1, 3] = 18 — own dice", 18),
    ("1d6r<=2", [1, 2, 5], "1d6r<=2 = [~~1~~↻, ~~2~~↻, 5] = 5 — own dice", 5),
    ("1d6ro1", [1, 1], "1d6ro1 = [~~1~~↻, 1] = 1 — own dice", 1),
    ("5d10>=8", [8, 9, 1, 2, 10], "5d10>=8 = [8✓, 9✓, 1, 2, 10✓] = 3 — own dice", 3),
    ("4d6min3", [1, 2, 5, 6], "4d6min3 = [3, 3, 5, 6] = 17 — own dice", 17),
    ("4dF", [-1, 0, 1, 1], "4dF = [-1, 0, 1, 1] = 1 — own dice", 1),
    ("1d%", [100], "1d% = [100] = 100 — own dice", 100),
    ("1d20", [1], "1d20 = [1] = 1 — own dice", 1),
    ("1d20", [20], "1d20 = [20] = 20 — own dice", 20),
])
def test_possible_entries_are_scored_by_the_rules(expr: str, entered: list[int], text: str,
                                                  total: int) -> None:
    result = enter(expr, dice=entered)
    assert (str(result), result.total, is_own(result)) == (text, total, True)
    assert enter(expr, dice=entered, total=total).total == total
    assert enter(expr, total=total).total == total and is_own(enter(expr, total=total))


def test_what_can_take_each_die() -> None:
    assert takes_dice("2d6+1d8[fire]-3") and takes_dice("4d6kh3!r1")
    assert not takes_dice("(1d4)d6") and not takes_dice("1d(1d6+2)")
    assert dice_slots("3d6!kh2+1d%-2dF") == [6, 6, 6, "%", "F", "F"]
    with pytest.raises(OwnDiceError, match="enter its total instead"):
        dice_slots("(1d4)d6")


# -- properties -----------------------------------------------------------------------------

SIDES = st.sampled_from(["2", "3", "4", "6", "8", "10", "12", "20", "F"])


@st.composite
def expressions(draw: st.DrawFn) -> str:
    """Small pools with any of the modifiers an entry handles, plus a constant or a die."""
    count = draw(st.integers(1, 4))
    sides = draw(SIDES)
    mods = ""
    if sides != "F" and draw(st.booleans()):
        mods += draw(st.sampled_from(["r1", "ro1", "r<=2"] if int(sides) >= 4 else ["r1"]))
    if draw(st.booleans()):
        mods += draw(st.sampled_from(["kh", "kl", "dh", "dl"])) + str(draw(st.integers(1, 3)))
    if sides != "F" and draw(st.booleans()):
        mods += draw(st.sampled_from([">=3", "<2", "min2", "max4"]))
    if sides not in ("F", "2") and draw(st.booleans()):
        mods += "!"  # last: a comparison right after '!' would belong to the explosion
    tail = draw(st.sampled_from(["", "+1", "-2", "*2", "+1d4", "+1d6[x]"]))
    return f"{count}d{sides}{mods}{tail}"


PROPERTY = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(expressions())
def test_a_total_is_accepted_exactly_when_the_odds_allow_it(expr: str) -> None:
    dist = dice.odds(expr)
    for value in range(dist.min - 3, dist.max + 4):
        if dist.p(value) > 0:
            assert enter(expr, total=value).total == value
        else:
            with pytest.raises(OwnDiceError, match=f"^{__import__('re').escape(expr)} cannot "
                               f"total {value}: "):
                enter(expr, total=value)


@PROPERTY
@given(expressions(), st.integers(0, 2**32))
def test_entering_the_dice_of_a_virtual_roll_gives_that_roll(expr: str, seed: int) -> None:
    """The engine's own roll, its dice typed in one by one: the same dice, states and total
    (clamps show the clamped face, so those are entered as the faces they came from)."""
    rolled = dice.roll(expr, seed=seed)
    if "min" in expr or "max" in expr:
        return
    entered = enter(expr, dice=[d.value for d in rolled.dice])
    assert entered.total == rolled.total
    assert [(d.value, d.state) for d in entered.dice] == [(d.value, d.state)
                                                           for d in rolled.dice]
    assert entered.labels == rolled.labels


@PROPERTY
@given(expressions(), st.integers(0, 2**32), st.data())
def test_a_changed_die_count_or_face_is_refused(expr: str, seed: int,
                                                data: st.DataObject) -> None:
    rolled = dice.roll(expr, seed=seed)
    if "min" in expr or "max" in expr:
        return  # a clamped die shows another face than the one rolled
    faces = [d.value for d in rolled.dice]
    with pytest.raises(OwnDiceError):
        enter(expr, dice=faces[:-1])
    with pytest.raises(OwnDiceError):
        enter(expr, dice=[*faces, 1])
    i = data.draw(st.integers(0, len(faces) - 1))
    bad = list(faces)
    top = 1 if rolled.dice[i].sides == "F" else int(rolled.dice[i].sides)
    bad[i] = data.draw(st.sampled_from([top + 1, -2 if top == 1 else 0]))
    with pytest.raises(OwnDiceError, match=f"^die {i + 1} entered "):
        enter(expr, dice=bad)


# -- the log and the command line -------------------------------------------------------------


def test_the_log_marks_real_dice_and_keeps_them(env_db: str) -> None:
    with open_store(env_db) as store:
        campaign = create_campaign(store, "Tuesday", ["plot_points"], who="Ash",
                                   role="player")
        by_dice = campaign.roll_entry("4d6kh3", dice=[2, 6, 1, 5])
        by_total = campaign.roll_entry("1d20+3", total=17)
        with pytest.raises(OwnDiceError):
            campaign.roll("2d6", total=13)
        again = open_campaign(store, "Tuesday")
        first, second = again.log(["roll"])
    assert (by_dice.entry, by_dice.roll.total, by_total.roll.total) == (1, 13, 17)
    assert first.seed is None and first.data == {
        "mode": "public", "physical": True, "expr": "4d6kh3", "total": 13,
        "dice": [2, 6, 1, 5], "text": "4d6kh3 = [2, 6, ~~1~~, 5] = 13 — own dice"}
    assert second.data["dice"] == [] and second.data["text"] == "1d20+3 = 17 — own dice"
    assert len(again.log()) == 2  # the refused entry logged nothing


def test_own_dice_on_the_command_line(env_db: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "roll", "2d6", "--dice", "3,5") == (
        0, "2d6 = [3, 5] = 8 — own dice\n", "")
    assert run(capsys, "roll", "4dF", "--dice=-1,0,1,1")[1] == (
        "4dF = [-1, 0, 1, 1] = 1 — own dice\n")
    assert run(capsys, "roll", "2d6", "--physical", "13") == (
        2, "", "error: 2d6 cannot total 13: its totals run from 2 to 12\n")
    assert run(capsys, "roll", "3d6", "--dice", "3 5") == (
        2, "", "error: 3d6 takes 3 dice; 2 entered\n")
    assert run(capsys, "roll", "1d20", "--dice", "x") == (
        2, "", "error: --dice: die 1 ('x') is not a whole number; give each face, e.g. 3,5\n")
    assert run(capsys, "roll", "2d6", "--physical", "7", "--seed", "3")[2] == (
        "error: a roll made with your own dice has no --seed\n")
    status, out, _ = run(capsys, "roll", "2d6", "--physical", "7", "--json")
    assert status == 0 and json.loads(out)["total"] == 7 and json.loads(out)["physical"]
    run(capsys, "campaign", "new", "Tuesday", "--ruleset", "plot_points")
    assert run(capsys, "roll", "2d6", "--campaign", "Tuesday", "--dice", "6,6", "--who",
               "Ash") == (0, "entry 1: 2d6 = [6, 6] = 12 — own dice\n", "")
    status, out, _ = run(capsys, "roll", "1d20", "--campaign", "Tuesday", "--mode", "gm",
                         "--physical", "18")
    assert status == 0 and out.startswith("entry 2 (GM only): 1d20 = 18 — own dice — "
                                          "commitment ")
    _, out, _ = run(capsys, "log", "Tuesday")
    assert "Ash (player)  rolled 2d6 = [6, 6] = 12 — own dice" in out
    assert out.splitlines()[1].strip().split("  ", 3)[-1].startswith(
        "rolled in secret (GM only) — commitment ")  # what players see: no total
    status, out, _ = run(capsys, "reveal", "Tuesday", "2")
    assert out == "entry 3: revealed entry 2 (GM only): 1d20 = 18 — own dice\n"


def test_the_engine_caps_on_rerolls_and_explosions_bound_an_entry() -> None:
    assert enter("1d6r1", dice=[1] * 99 + [4]).total == 4
    with pytest.raises(OwnDiceError, match=r"^die 1 of 1d6r1 is rerolled 100 times; at most "
                       r"99 rerolls of one die can be entered$"):
        enter("1d6r1", dice=[1] * 100 + [4])
    assert enter("1d6!", dice=[6] * 100 + [1]).total == 601
    with pytest.raises(OwnDiceError, match=r"^die 1 of 1d6! explodes more than 100 times"):
        enter("1d6!", dice=[6] * 101 + [1])
    with pytest.raises(OwnDiceError, match=r"^100,001 dice entered; at most 100,000 can be$"):
        enter("1d6", dice=[1] * 100_001)
