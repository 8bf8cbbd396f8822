"""Every reading marked ``Interpretation:`` in the rules code is in a docstring, where the
site's Interpretations pages collect it (``tools/source_info.interpretations``): a marker
in a comment would never reach a reader."""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

from tools.source_info import MARKER, interpretations

RULESETS = Path(__file__).resolve().parents[2] / "companion" / "rulesets"


def test_no_interpretation_marker_sits_in_a_comment() -> None:
    stray = []
    for path in sorted(RULESETS.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and MARKER.search(token.string):
                stray.append(f"{path.relative_to(RULESETS)}:{token.start[0]}")
    assert not stray, f"Interpretation markers outside docstrings: {stray}"


def test_the_readings_moved_out_of_comments_are_collected() -> None:
    mm = RULESETS / "monsters_and_magic"
    fatigue = " ".join(r for _, r in interpretations(
        mm / "fatigue_and_exhaustion.py",
        "companion.rulesets.monsters_and_magic.fatigue_and_exhaustion"))
    assert "is 5" in fatigue and "is 6" in fatigue
    sheet = dict(interpretations(mm / "adventurer.py",
                                 "companion.rulesets.monsters_and_magic.adventurer"))
    assert "stabilized creature starts the dying again" in sheet[
        "companion.rulesets.monsters_and_magic.adventurer.Adventurer.take_damage"]


def test_a_note_inside_a_list_item_ends_at_the_next_outer_item() -> None:
    """A heading marker's list nested in an outer list item ends where the outer list
    goes on (the next rule's bullet is not part of the reading)."""
    from tools.source_info import readings

    doc = ("- **Conditions** — they run out.\n\n  Interpretation (a note):\n\n"
           "  - First reading,\n    on two lines.\n  - Second reading.\n"
           "- **Rest** — short and long rests.\n")
    assert readings(doc) == ["A note.\n- First reading, on two lines.\n- Second reading."]
