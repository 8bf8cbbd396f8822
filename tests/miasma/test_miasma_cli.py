"""The Miasma CLI: monarchs table/best/strength, earthmote, psychosis; errors on one line."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.cli import main
from companion.rulesets.miasma.dice_monarchs import hands


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_monarchs_table_json_lists_every_hand_with_computed_counts(capsys) -> None:
    status, out, _ = run(capsys, "monarchs", "table", "--json")
    assert status == 0
    rows = json.loads(out)
    assert len(rows) == 54
    assert [r["name"] for r in rows][:3] == ["Perfect Even River", "Perfect Odd River",
                                             "5 of a Kind"]
    for row, (hand, count) in zip(rows, hands.hand_counts(), strict=True):
        assert row["of"] == 23040 and isinstance(row["count"], int)
        assert row["count"] == count and row["pattern"] == list(hand.pattern)
    assert sum(r["best_count"] for r in rows) < 23040  # some rolls hold no hand


def test_monarchs_table_text(capsys) -> None:
    status, out, _ = run(capsys, "monarchs", "table")
    assert status == 0 and "High Even Turn (4,6,8,10)" in out and "23,040" in out


def test_best_hand(capsys) -> None:
    status, out, _ = run(capsys, "monarchs", "best", "1,2,3,4,5", "4,6,8,10,12", "--json")
    data = json.loads(out)
    assert status == 0 and data["hand"] == "Perfect Even River"
    assert data["sources"] == ["community"] * 5


def test_strength_exact_and_simulated(capsys) -> None:
    status, out, _ = run(capsys, "monarchs", "strength", "1,2,3,4,5", "--community",
                         "4,6,8,10,12", "--json")
    data = json.loads(out)
    assert status == 0 and data["exact"] and Fraction(data["win"]) < 1
    status, out, _ = run(capsys, "monarchs", "strength", "1,2,3,4,5", "--seed", "3",
                         "--samples", "200", "--json")
    data = json.loads(out)
    assert not data["exact"] and data["samples"] == 200 and data["stderr"] > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["monarchs", "best", "1,2,x", "1,1,1,1,1"], "hole dice: expected numbers"),
     (["monarchs", "best", "5,1,1,1,1", "1,1,1,1,1"], "a d4 cannot show 5"),
     (["monarchs", "strength", "1,1,1,1,1", "--opponents", "9"], "opponents must be 1-7"),
     (["monarchs", "strength", "1,1,1,1,1", "--community", "1,1"], "flop"),
     (["earthmote", "--count", "0"], "--count must be 1-100")],
)
def test_bad_input_is_one_error_line(capsys, argv, message) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_earthmote_is_seeded(capsys) -> None:
    _, first, _ = run(capsys, "earthmote", "--count", "3", "--seed", "8", "--json")
    _, again, _ = run(capsys, "earthmote", "--count", "3", "--seed", "8", "--json")
    assert first == again and len(json.loads(first)) == 3
    from companion.rulesets.miasma.earthmotes import EarthmoteLog

    # The library's log with that seed makes the same three; another seed, other ones.
    log = EarthmoteLog.start(seed=8)
    made = [log.generate() for _ in range(3)]
    assert [(m["seed"], m["size_roll"], m["biome_roll"]) for m in json.loads(first)] == [
        (m.seed, m.size_roll, m.biome_roll) for m in made]
    _, other, _ = run(capsys, "earthmote", "--count", "3", "--seed", "9", "--json")
    assert [m["seed"] for m in json.loads(other)] != [m.seed for m in made]
    assert [(m["size_roll"], m["biome_roll"]) for m in json.loads(other)] != [
        (m.size_roll, m.biome_roll) for m in made]


def test_psychosis_levels(capsys) -> None:
    _, out, _ = run(capsys, "psychosis", "--json")
    assert [row["level"] for row in json.loads(out)] == [1, 2, 3, 4, 5, 6]
