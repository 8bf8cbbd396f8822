"""The roller fence renders exact odds at build time (checked against brute force)."""

from __future__ import annotations

import itertools
import logging
import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest
import roller_fence

ROW = re.compile(r"<tr><td>(-?\d+)</td><td>(\d+(?:/\d+)?)</td>")


def brute_force(
    faces: int, count: int, read: Callable[[tuple[int, ...]], int] = sum
) -> dict[int, Fraction]:
    outcomes = Counter(read(r) for r in itertools.product(range(1, faces + 1), repeat=count))
    total = faces**count
    return {v: Fraction(n, total) for v, n in outcomes.items()}


def table_of(html: str) -> dict[int, Fraction]:
    return {int(v): Fraction(p) for v, p in ROW.findall(html)}


def test_cell_shows_exact_odds_of_3d6() -> None:
    html = roller_fence.render_expression("3d6")
    assert 'data-expr="3d6"' in html
    assert "<svg" in html
    assert table_of(html) == brute_force(6, 3)


def test_target_reports_chance_to_reach_it() -> None:
    html = roller_fence.render_expression("2d20kh1", target=15)
    odds = brute_force(20, 2, read=max)
    reach = sum(p for v, p in odds.items() if v >= 15)
    assert reach == Fraction(51, 100)
    assert f"(exactly {reach.numerator}/{reach.denominator})" in html
    assert table_of(html) == odds


def test_live_part_is_hidden_until_the_script_reveals_it() -> None:
    html = roller_fence.render_expression("1d6")
    assert re.search(r'<div class="roller-live" hidden>', html)
    assert "roller-roll md-button" in html


def test_expression_is_escaped() -> None:
    html = roller_fence.render_expression("1d8[<b>fire</b>]")
    assert "<b>fire</b>" not in html


def test_bad_expression_is_a_build_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.roller_fence"):
        html = roller_fence.render_expression("2d")
    assert "roller-error" in html
    assert any("'2d'" in r.getMessage() for r in caplog.records)


def test_each_line_of_a_fence_is_a_cell() -> None:
    html = roller_fence.format_roller("1d4\n\n1d6\n", "roller", "roller", {}, None)
    assert html.count('class="roller" id=') == 2
    assert 'data-expr="1d4"' in html and 'data-expr="1d6"' in html


def test_empty_fence_is_a_build_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.roller_fence"):
        assert roller_fence.format_roller("  \n", "roller", "roller", {}, None) == ""
    assert caplog.records


@pytest.mark.parametrize(
    ("inputs", "ok", "target"),
    [
        ({"target": "15"}, True, 15),
        ({"target": "x"}, False, None),
        ({"colour": "red"}, False, None),
    ],
)
def test_validator(inputs: dict[str, str], ok: bool, target: int | None) -> None:
    options: dict[str, object] = {}
    assert roller_fence.validate("roller", inputs, options, {}, None) is ok
    assert options.get("target") == target


def test_cut_short_explosions_are_flagged() -> None:
    from companion import dice

    truncated = dice.odds("1d6!").truncated
    assert truncated > 0
    html = roller_fence.render_expression("1d6!")
    assert f"{truncated.numerator}/{truncated.denominator}" in html
    assert "roller-note" not in roller_fence.render_expression("1d6")


def test_table_roll_cell_names_the_table() -> None:
    from companion import tables

    table = tables.all_tables()[0]
    html = roller_fence.format_table_roller(f"{table.id}\n", "table-roll", "roller", {}, None)
    assert f'data-table="{table.id}"' in html
    assert '<div class="roller-live" hidden>' in html


def test_unknown_table_is_a_build_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.roller_fence"):
        html = roller_fence.format_table_roller("no_such_table", "table-roll", "roller", {}, None)
    assert "roller-error" in html
    assert any("no_such_table" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(
    ("value", "text"),
    [(Fraction(553, 40), "13.825"), (Fraction(7), "7"), (Fraction(7, 2), "3.5"),
     (Fraction(1, 3), "≈0.33"), (2.9580398915498, "≈2.96")],
)
def test_numbers_are_exact_when_short(value: Fraction | float, text: str) -> None:
    assert roller_fence._number(value) == text


def test_this_or_more_column_is_the_engines_at_least() -> None:
    from companion import dice
    from companion.dice.render import percent

    html = roller_fence.render_expression("4d6dl1")
    dist = dice.odds("4d6dl1")
    shown = re.findall(r"<tr><td>(-?\d+)</td><td>[^<]*</td><td>[^<]*</td><td>([^<]*)</td>", html)
    assert shown == [(str(v), percent(dist.at_least(v))) for v, _ in dist]


def test_too_costly_odds_are_a_note_not_a_failure(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.roller_fence"):
        html = roller_fence.render_expression("1000d1000")
    assert "roller-note" in html and "would take too long to work out" in html
    # In the reader's words: not the engine's budget nor its Python API (issue 45).
    assert "simulate" not in html and "bit" not in html and "(" not in html.split(
        'class="roller-note">')[1].split("</p>")[0]
    assert "<svg" not in html
    assert '<div class="roller-live" hidden>' in html  # it can still be rolled live
    assert not caplog.records
