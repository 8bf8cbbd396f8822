"""Every Miasma tracker names itself in words when a save is refused (no class names, no
JSON parser text), and says where the problem is."""

from __future__ import annotations

import pytest

from companion.errors import StateError
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.rulesets.miasma.earthmotes import EarthmoteLog
from companion.rulesets.miasma.psychosis import MiasmaTracker


@pytest.mark.parametrize(
    ("tracker", "words"),
    [(DiceMonarchsGame, "this Dice Monarchs table save"),
     (MiasmaTracker, "this Miasma record save"),
     (EarthmoteLog, "this earthmote list save")],
)
@pytest.mark.parametrize("text", ["{", "", "[1, 2]", '{"tracker": 1}', "x" * 100_000])
def test_a_refused_save_reads_for_a_player(tracker, words, text) -> None:
    with pytest.raises(StateError) as refused:
        tracker.from_json(text)
    message = str(refused.value)
    assert message.startswith(words), message
    assert tracker.__name__ not in message and "Expecting" not in message
    assert "\n" not in message and len(message) < 200
