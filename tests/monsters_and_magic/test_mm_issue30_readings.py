"""Issue 30: the readings chosen for the Monsters & Magic, 5e variant and Miasma items are
marked ``Interpretation:`` where the site's Interpretations pages collect them (the
collector the site uses, ``tools.source_info.interpretations``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.source_info import interpretations

RULESETS = Path(__file__).resolve().parents[2] / "companion" / "rulesets"


def _readings(module: str) -> dict[str, str]:
    """Each documented object's readings in ``module`` (``ruleset/file`` without .py),
    whitespace folded and lowercased."""
    out: dict[str, str] = {}
    for where, text in interpretations(RULESETS / f"{module}.py",
                                       "companion.rulesets." + module.replace("/", ".")):
        out[where] = (out.get(where, "") + " " + " ".join(text.split()).lower()).strip()
    return out


@pytest.mark.parametrize(("module", "where", "text"), [
    # Wrong 3: which checks rely on sight, and an automatic failure is a Miss, no roll.
    ("monsters_and_magic/adventurer", "Adventurer.build_check",
     "a check relies on sight when it is made against something seen"),
    ("monsters_and_magic/adventurer", "Adventurer.roll_check", "rolls nothing and is a miss"),
    # Wrong 4: Take Watch against a hidden DC; rests leave no check open.
    ("monsters_and_magic/adventurer", "Adventurer.long_rest",
     "take watch's focus roll is read on the results table"),
    ("monsters_and_magic/adventurer", "", "a rest leaves no check for bend luck"),
    # Missing 4: whose turn, extend by 1 turn, the restrainer's mark, underwater.
    ("monsters_and_magic/adventurer", "", "the creature is the one that has the state"),
    ("monsters_and_magic/adventurer", "Adventurer.extend",
     "one turn is one more of the creature's turn ends"),
    ("monsters_and_magic/adventurer", "Adventurer.break_free",
     "the restrainer's \"mark the same\" is 3 fatigue"),
    ("monsters_and_magic/harm_and_healing", "",
     "underwater fire resistance does not stack"),
    # Missing 5: falling damage less AC, and why.
    ("monsters_and_magic/harm_and_healing", "", "falling damage is damage like any other, "
                                                "so the faller's ac reduces it"),
    # Missing 3: "one or more dice" and the size table for a new region.
    ("miasma/earthmotes", "", "\"re-roll one or more dice\" for a new region"),
    ("miasma/earthmotes", "", "a new region's size is rolled on it too"),
    # Wrong 5's neighbour: a readied spell never released.
    ("variant5e/actions", "", "a readied spell not released by the start of your next turn"),
])
def test_the_issue_30_readings_reach_the_interpretations_page(module: str, where: str,
                                                             text: str) -> None:
    readings = _readings(module)
    key = "companion.rulesets." + module.replace("/", ".") + (f".{where}" if where else "")
    assert key in readings, sorted(readings)
    assert text in readings[key]
