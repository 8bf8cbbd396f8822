"""The generated site-clock odds page and the exploration lists come from the engine."""

from __future__ import annotations

from fractions import Fraction

from companion import tables
from companion.dice.render import chance_text
from companion.rulesets.cairn_srd.reference import reference_pages
from tests.cairn_srd.test_exploration_odds import brute_within


def test_site_clock_page_rows_are_the_brute_force_odds() -> None:
    page = reference_pages()["site-clock-odds.md"]
    assert "| Clock | d6 | d8 | d10 | d12 |" in page
    for clock in (1, 3, 5, 9):
        cells = [chance_text(brute_within(clock, die, 1)) for die in (6, 8, 10, 12)]
        assert f"| {clock} | " + " | ".join(cells) + " |" in page
    assert "| 3 | 50.00% (1/2) | 62.50% (5/8) | 70.00% (7/10) | 75.00% (3/4) |" in page
    assert "```roller\n1d6\n```" in page


def test_exploration_lists_page() -> None:
    page = reference_pages()["exploration-lists.md"]
    assert "| You are in a small complex | -2 |" in page
    assert "| You discard an item from your inventory | -1 / item |" in page
    assert "| Lantern | 24 |" in page and "| Torch | 6 |" in page
    # Save 12 over DV 0, 2, 4, 6, 8: 12, 10, 8, 6, 4 faces of the d20.
    cells = " | ".join(chance_text(Fraction(12 - dv, 20)) for dv in range(0, 9, 2))
    assert f"| 12 | {cells} |" in page
    assert "| Rest | the site die grows one size |" in page


def test_new_tables_render_with_exact_row_odds() -> None:
    md = tables.get("cairn_darkness_fate").to_markdown()
    assert "| 1-4 | Dead | You are dead. | 2/5 | 40.00% |" in md
    md = tables.get("cairn_failed_escape").to_markdown()
    assert "| 7 | Betrayal |" in md and "1/8" in md
