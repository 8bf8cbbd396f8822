"""Issue 11, "Bound every cost": each input that once took seconds, gigabytes or a crash is
refused quickly with the project's one-line error, or answered within limits.

Every case runs in a child process with a hard memory and CPU limit (see ``sandbox.py``),
so a regression fails here instead of hanging CI.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from sandbox import ROOT, run_limited

from companion.dice import limits

REFUSE_WITHIN = 0.5
"""Seconds a refusal may take (measured in the child, imports excluded)."""

ANSWER_WITHIN = 1.5
"""Seconds an answer plus its four renderings may take on a shared 2-core machine."""

PEAK_MB = 300
"""Peak memory of the child, in MB (the old runs took 500 MB to over 1 GB)."""


def _odds_work(expr: str) -> str:
    return f"""
def work():
    import json
    from companion.dice import odds
    from companion.dice.render import distribution_text
    d = odds({expr!r})
    text = distribution_text(d)
    js = json.dumps(d.to_dict())
    svg = d.to_svg(target=d.min + 1)
    return [len(d), len(text), len(js), len(svg), repr(d)]
"""


@pytest.mark.parametrize(
    "expr",
    [
        "100d1000000kh1",
        "1000d1000000kh1",
        "10000d100000kh1",  # the keep-one branch once skipped every cost check
        "1d1000000r1",
        "D1000000!",
        "10000d1000000!>=2",
        "1d1000000!=5ro<=600000",
        "D50000!",
        "1d100000!>=2",
        "1000d20",  # 19,001 totals of 4,328 bits: more weight than the engine holds
        "10000d6",  # 50,001 totals of 25,850 bits (160 MB)
        "200d10kh100",  # the keep DP's estimate is twice its budget
        "1d100000*1d100000",
        "3500d1000kh2ro20<=2",  # found by the fuzz suite: 12 s in the keep DP's powers
        "(1d50)d(1d50)",
    ],
)
def test_costly_odds_are_refused_quickly(expr: str) -> None:
    out = run_limited(_odds_work(expr))
    assert not out.ok, f"{expr} was answered: {out.value}"
    assert out.error == "OddsTooCostlyError" and out.companion
    assert "\n" not in out.message and "simulate" in out.message
    assert out.seconds < REFUSE_WITHIN, f"{expr}: refused after {out.seconds:.2f} s"
    assert out.peak_mb < PEAK_MB


@pytest.mark.parametrize(
    ("expr", "outcomes"),
    [
        ("50d6!kh3", 16),  # 3.3 s before the pool DP went from n^3 to n^2
        ("3500d20kh1", 20),  # 4,554-digit denominators: the renderers once crashed
        ("5600d6kh1", 6),
        ("10000dFk5", 11),
        ("D2000!", 41_980),
        ("1d100000r1", 99_999),
        ("1000d1000kh2>=900", 3),
    ],
)
def test_answers_within_limits_render_everywhere(expr: str, outcomes: int) -> None:
    out = run_limited(_odds_work(expr))
    assert out.ok, f"{expr}: {out.error}: {out.message}"
    assert isinstance(out.value, list)
    n, text_len, json_len, svg_len, shown = out.value
    assert n == outcomes
    assert json_len < 5_000_000 and svg_len < 200_000 and 0 < text_len < 20_000
    assert len(shown) < 100 and shown.startswith("<Distribution")
    assert out.seconds < ANSWER_WITHIN, f"{expr}: {out.seconds:.2f} s"
    assert out.peak_mb < PEAK_MB


def test_huge_fractions_render_as_decimals_that_fraction_reads() -> None:
    out = run_limited(
        """
def work():
    import json
    from fractions import Fraction
    from companion.dice import odds
    d = odds("5600d6kh1")
    p = json.loads(json.dumps(d.to_dict()))["outcomes"][0][1]
    return [p, float(Fraction(p) / d[1])]
"""
    )
    assert out.ok, out.message
    text, ratio = out.value  # type: ignore[misc]
    assert "/" not in text and "e-" in text  # P(6d... best is 1) = 6**-5600: a decimal
    assert abs(ratio - 1) < 1e-15


def test_a_roll_that_would_record_a_million_dice_is_refused_before_rolling() -> None:
    out = run_limited(
        "def work():\n    return str(companion.dice.roll('10000d1000000r<=999999', seed=1))"
    )
    assert not out.ok and out.error == "DiceLimitError" and out.companion
    assert f"{limits.MAX_ROLLED_DICE:,}" in out.message and "\n" not in out.message
    assert out.seconds < REFUSE_WITHIN
    assert out.peak_mb < PEAK_MB


def test_the_cli_refuses_the_huge_roll_in_one_line_and_bounds_big_output() -> None:
    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "companion", *args],
            capture_output=True, text=True, timeout=30, cwd=ROOT,
        )

    refused = cli("roll", "--json", "10000d1000000r<=999999")
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and refused.stderr.startswith("error: ")
    big = cli("roll", "--json", "--seed", "3", "10000d6r1")
    assert big.returncode == 0
    data = json.loads(big.stdout)
    assert len(big.stdout) < 2_000_000 and len(data["dice"]) >= 10_000


def test_simulate_builds_the_allowed_faces_once() -> None:
    out = run_limited(
        """
def work():
    from companion.dice import simulate
    est = simulate("1d1000000r1", 20, seed=4)
    return [est.n, est.min]
"""
    )
    assert out.ok and out.value == [20, out.value[1]] and out.value[1] >= 2  # type: ignore[index]
    assert out.seconds < REFUSE_WITHIN
    assert out.peak_mb < PEAK_MB


def test_the_odds_budget_is_charged_before_the_work() -> None:
    out = run_limited(
        """
def work():
    import time
    from companion.dice import limits, odds
    limits.ODDS_TIME_LIMIT = 600.0  # no net: only the budget may stop these
    times = []
    for expr in ("D10000!", "100d6!kh3", "1d100000*1d100", "(1d50)d(1d50)"):
        start = time.process_time()
        try:
            odds(expr)
            times.append(None)
        except companion.errors.OddsTooCostlyError:
            times.append(time.process_time() - start)
    return times
"""
    )
    assert out.ok, out.message
    assert all(t is not None and t < REFUSE_WITHIN for t in out.value), out.value  # type: ignore[union-attr]


def test_limits_have_one_home_and_the_notation_page_lists_them() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from notation import LIMITS
    finally:
        sys.path.remove(str(ROOT / "tools"))
    names = {name for name, _ in LIMITS}
    public = {n for n in vars(limits) if n.isupper()}
    assert names == public
