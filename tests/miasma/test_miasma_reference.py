"""Generated Miasma reference pages: computed and printed counts side by side, flagged."""

from __future__ import annotations

import dataclasses
import html

from companion.rulesets.miasma import reference
from companion.rulesets.miasma.dice_monarchs import hands


def test_pages_cover_every_hand_with_both_counts() -> None:
    pages = reference.reference_pages()
    assert set(pages) == {"dice-monarchs-hands.md", "earthmote-features.md",
                          "psychosis-levels.md"}
    page = pages["dice-monarchs-hands.md"]
    rows = [line for line in page.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) == 1 + 54
    assert "| 27 | High Even Turn | 4,6,8,10 | 79 | 79 | 0.34% (79/23040) | 0.34% | 60 |" in page
    assert "⚠" not in "\n".join(rows)
    assert "Every printed count matches" in page


def test_a_wrong_printed_count_is_flagged(monkeypatch) -> None:
    real = hands.hand_counts()
    wrong = [(dataclasses.replace(h, printed_count=h.printed_count + 1) if h.rank == 26 else h, n)
             for h, n in real]
    monkeypatch.setattr(hands, "hand_counts", lambda: wrong)
    page = reference.hands_page()
    assert "| 27 | High Even Turn | 4,6,8,10 | 79 | 80 ⚠ differs |" in page
    assert "1 printed figures differ" in page


def test_earthmote_and_psychosis_pages() -> None:
    pages = reference.reference_pages()
    assert "17.36% (21/121)" in pages["earthmote-features.md"]
    assert "```roller\n1d6\n```" in pages["earthmote-features.md"]
    psy = pages["psychosis-levels.md"]
    assert "| 6 | The creature becomes an aberration" in psy
    assert "| 4+ | 2 |" in psy


def test_community_dice_text_is_one_piece_of_data_for_app_site_and_rules() -> None:
    from companion.rulesets.miasma import dice_monarchs
    from companion.rulesets.miasma.dice_monarchs import game
    from companion.widgets.miasma import DiceMonarchsApp

    text = game.community_dice_text()
    assert text == "flop d4 d6 d8 · turn d10 · river d12"
    # The stages are the five dice, in order, each once.
    assert tuple(d for stage in game.COMMUNITY_STAGES for d in stage.dice) == hands.DICE
    assert text in reference.hands_page()
    app = DiceMonarchsApp(players="Ann, Bo", seed=1, samples=20)
    app.new_button.click()
    assert f"({text})" in app.community.value
    # The rules text (the package docstring the site shows) names the same stages and dice.
    doc = " ".join((dice_monarchs.__doc__ or "").split())
    for stage in game.COMMUNITY_STAGES:
        sizes = ", ".join(f"d{s}" for s in stage.dice)
        assert f"*{stage.name}* ({sizes})" in doc


def test_earthmote_dice_text_is_one_piece_of_data_for_app_and_site() -> None:
    from companion.rulesets.miasma import earthmotes
    from companion.widgets.miasma import EarthmotesApp

    text = earthmotes.dice_text()
    table = earthmotes.biome_table()
    assert text.startswith(f"size {earthmotes.size_table().die}, biome {table.die} (")
    for row in table.rows:
        if row.reroll:
            assert f"{row.range}: " in text
    assert text in reference.earthmotes_page()
    assert html.escape(text) in EarthmotesApp(seed=1).heading.value
