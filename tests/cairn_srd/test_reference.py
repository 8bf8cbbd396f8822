"""The generated reference pages show exact odds beside the seed's figures."""

from __future__ import annotations

from companion.rulesets.cairn_srd.reference import reference_pages


def test_pages() -> None:
    pages = reference_pages()
    assert set(pages) == {"magic-dice.md", "save-odds.md", "attack-matrix.md",
                          "duel-exchanges.md", "fixed-tables.md", "site-clock-odds.md",
                          "exploration-lists.md", "travel-duration.md", "downtime-odds.md"}
    magic = pages["magic-dice.md"]
    assert "| 5 | 90.74% (49/54) | 96% ⚠ differs |" in magic
    assert "| 4 | 72.22% (13/18) | 72% | 9.72% (7/72) | 10% | 2 |" in magic
    assert "| **Fleet** | Critical damage | Direct damage | Enhanced | — |" in pages[
        "attack-matrix.md"]
    assert "| 12 | 60.00% (3/5) | 55.00% (11/20) |" in pages["save-odds.md"]
    assert "Lose the ability to cast spells permanently." in pages["fixed-tables.md"]
