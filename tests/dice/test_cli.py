"""The CLI contract of ``companion roll`` / ``companion odds``."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion import cli
from companion.dice import odds, roll


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    # Only this area's commands, so the test does not depend on other areas' progress.
    monkeypatch.setattr(cli, "COMMAND_MODULES", ("companion.dice.cli",))

    def go(*argv: str) -> tuple[int, str, str]:
        status = cli.main(list(argv))
        out, err = capsys.readouterr()
        return status, out, err

    return go


def test_roll_text_and_json(run) -> None:
    status, out, err = run("roll", "4d6kh3", "--seed", "2026")
    assert (status, err) == (0, "")
    assert out == str(roll("4d6kh3", seed=2026)) + "\n"
    assert run("roll", "4d6kh3", "--seed", "2027")[1] == str(roll("4d6kh3", seed=2027)) + "\n"
    assert run("roll", "4d6kh3", "--seed", "2027")[1] != out  # the seed is used
    status, out, _ = run("roll", "2d6[fire]+3", "--seed", "5", "--json")
    data = json.loads(out)
    assert data["total"] == roll("2d6[fire]+3", seed=5).total
    assert len(data["dice"]) == 2 and data["labels"]["fire"] == data["total"] - 3


def test_expression_with_spaces_and_leading_minus(run) -> None:
    assert run("roll", "2d6", "+", "3", "--seed", "1")[1] == str(roll("2d6 + 3", seed=1)) + "\n"
    status, out, err = run("roll", "-1d4", "--seed", "3")
    assert status == 0 and out.startswith("-1d4 = -[") and err == ""
    status, out, _ = run("odds", "-1d4", "--json")
    assert json.loads(out)["max"] == -1
    assert run("roll", "--seed", "3", "--", "-2")[1] == "-2 = -2\n"


def test_negative_option_values_are_values_not_expression(run) -> None:
    # A '-1' right after an option that takes a value belongs to that option.
    assert run("roll", "1d6", "--seed", "-1") == (0, str(roll("1d6", seed=-1)) + "\n", "")
    assert run("roll", "-1d4", "--seed", "-1")[1] == str(roll("-1d4", seed=-1)) + "\n"
    status, out, err = run("odds", "2d6", "--at-least", "-1")
    assert status == 0 and err == "" and "P(total >= -1) = 1" in out
    status, out, err = run("roll", "1d6", "--seed")
    assert status == 2 and out == "" and err.startswith("error:") and "\x00" not in err


def test_odds_json_contract(run) -> None:
    status, out, err = run("odds", "2d20kh1+1d6+5", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    dist = odds("2d20kh1+1d6+5")
    assert data["min"] == dist.min and data["max"] == dist.max
    assert Fraction(data["mean"]) == dist.mean
    assert [[v, Fraction(p)] for v, p in data["outcomes"]] == [[v, p] for v, p in dist]
    assert sum(Fraction(p) for _, p in data["outcomes"]) == 1
    data = json.loads(run("odds", "1d1+1", "--json")[1])
    assert data["outcomes"] == [[2, "1"]] and data["mean"] == "2"


def test_odds_table(run) -> None:
    status, out, _ = run("odds", "2d6", "--at-least", "10")
    assert status == 0 and "1/6" in out and "P(total >= 10) = 1/6 (16.67%)" in out
    status, out, _ = run("odds", "1d1000")
    assert status == 0 and "percentiles" in out and "50% of rolls are at most 500" in out
    assert len(out.splitlines()) < 20


@pytest.mark.parametrize(
    "argv",
    [
        ["roll", "2d6+(3))"],
        ["roll"],
        ["odds", "1d1!"],
        ["odds", "1d6r<=6"],
        ["roll", "10001d6"],
        ["roll", "1d6/0"],
        ["roll", "2d6", "--seed", "x"],
        ["odds", "8d6!=3kh3"],
        ["roll", "-x"],
        ["odds", "1d6", "--bogus"],
    ],
)
def test_bad_input_contract(run, argv: list[str]) -> None:
    status, out, err = run(*argv)
    assert status == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1


def test_error_message_names_the_column(run) -> None:
    err = run("roll", "2d6+(3))")[2]
    assert err == "error: unexpected ')' at column 7 in '2d6+(3))'\n"
    assert "simulate" in run("odds", "8d6!=3kh3")[2]


def test_subprocess_entry_point() -> None:
    code = (
        "import sys; import companion.cli as c; c.COMMAND_MODULES = ('companion.dice.cli',);"
        "sys.exit(c.main(sys.argv[1:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "roll", "2d6+(3))"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(["roll", "odds"]),
    st.text(alphabet="0123456789dF%!+-*/()[]khlr<>= x", min_size=1, max_size=16),
    st.booleans(),
)
def test_cli_contract_for_any_expression(command: str, expr: str, as_json: bool) -> None:
    assume(expr != "-h")  # that is the help option, as with any command
    argv = [command, expr, *(["--json"] if as_json else [])]
    out, err = io.StringIO(), io.StringIO()
    original = cli.COMMAND_MODULES
    cli.COMMAND_MODULES = ("companion.dice.cli",)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli.main(argv)
    finally:
        cli.COMMAND_MODULES = original
    if status == 0:
        assert err.getvalue() == "" and out.getvalue()
        if as_json:
            data = json.loads(out.getvalue())
            assert isinstance(data["min" if command == "odds" else "total"], int)
    else:
        assert status == 2 and out.getvalue() == ""
        assert err.getvalue().startswith("error: ") and err.getvalue().count("\n") == 1
