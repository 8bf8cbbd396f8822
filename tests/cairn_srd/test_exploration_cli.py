"""``companion cairn clock``: the exact odds as JSON with the issue's key names, the text
form, and one-line refusals (exit 2) of absurd input."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.cli import main
from companion.rulesets.cairn_srd.exploration import encounter_odds
from tests.cairn_srd.test_exploration_odds import brute_within


@pytest.mark.parametrize(("clock", "die", "turns"), [(20, 6, 4), (3, 6, 2), (7, 12, 3),
                                                     (1, 8, 1)])
def test_clock_json_is_the_exact_odds(capsys: pytest.CaptureFixture[str], clock: int,
                                      die: int, turns: int) -> None:
    argv = ["cairn", "clock", "--clock", str(clock), "--die", str(die), "--turns", str(turns),
            "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"next", "within", "expected_turns"} <= set(data)
    assert Fraction(data["within"]) == brute_within(clock, die, turns)
    assert Fraction(data["next"]) == brute_within(clock, die, 1)
    assert Fraction(data["expected_turns"]) == encounter_odds(clock, die).expected_turns
    assert data["within"] == str(brute_within(clock, die, turns))  # the "p/q" form


def test_clock_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cairn", "clock", "--clock", "4", "--die", "8", "--turns", "3"]) == 0
    out = capsys.readouterr().out
    assert "encounter on the next turn: 50.00% (1/2)" in out
    assert "within 3 turn(s)" in out and "{" not in out


@pytest.mark.parametrize(("argv", "why"), [
    (["--die", "7"], "d6, d8, d10, d12"),
    (["--die", "-6"], "d6, d8, d10, d12"),
    (["--clock", "0"], "clock runs from 1"),
    (["--clock", "99999999999999999999"], "clock runs from 1"),
    (["--turns", "0"], "turns ahead"),
    (["--turns", "100000"], "turns ahead"),
    (["--turns", "many"], "invalid int"),
])
def test_clock_refuses_absurd_input(capsys: pytest.CaptureFixture[str], argv: list[str],
                                    why: str) -> None:
    assert main(["cairn", "clock", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and why in lines[0]
