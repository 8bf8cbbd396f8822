"""The lockpicking minigame: creating locks and every move, legal and illegal."""

from __future__ import annotations

import pytest

from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd.lockpicking import LockPicking, complications
from tests.cairn_srd.test_character import FixedRng


def lock(seq: str = "TPR", comp: str = "None") -> LockPicking:
    return LockPicking(lock_type="Pin", dv=1, sequence=seq, complication=comp)


def test_new_lock_rolls_three_d12() -> None:
    lp = LockPicking()
    lp.new_lock(rng=FixedRng(4, 12, 5))
    assert (lp.lock_type, lp.dv, lp.sequence, lp.complication) == ("Screw", 3, "RPR", "Cracked")
    lp.new_lock(rng=FixedRng(4, 1, 1))  # an assigned type keeps its sequence, unsolved
    assert (lp.sequence, lp.complication, lp.revealed) == ("RPR", "None", 0)
    for action in "RPR":
        lp.pick(action)
    lp.new_lock(rng=FixedRng(4, 2, 1))  # a solved type is known at once
    assert (lp.sequence, lp.revealed) == ("RPR", 3)


def test_correct_sequence_opens_and_is_remembered() -> None:
    lp = lock()
    lp.pick("T")
    lp.pick("probe")
    assert lp.progress == 2 and not lp.opened
    lp.pick("rake")
    assert lp.opened and lp.known == {"Pin": "TPR"} and lp.turns == 1
    with pytest.raises(RuleError, match="already open"):
        lp.pick("T")


def test_mistakes_stiffen_then_jam() -> None:
    lp = lock()
    lp.pick("P")
    assert lp.stiff and not lp.jammed and lp.progress == 0 and lp.turns == 1
    lp.pick("T")
    lp.pick("T")
    assert lp.jammed
    with pytest.raises(RuleError, match="rule 3"):
        lp.pick("T")
    with pytest.raises(RuleError, match="rule 3"):
        lp.study()
    lp.break_off()
    assert lp.broken


def test_complications() -> None:
    lp = lock(comp="Cracked")
    lp.pick("R")  # any action works on the first tumbler
    assert lp.progress == 1
    lp = lock(comp="Worn")
    lp.pick("P")
    lp.pick("P")
    assert lp.stiff and not lp.jammed and lp.jam_ignored
    lp.pick("P")
    assert lp.jammed
    lp = lock(comp="Delicate")
    lp.pick("R")
    assert lp.jammed
    lp = lock(comp="Trapped")
    lp.pick("R")
    lp.pick("R")
    assert lp.traps_sprung == 2
    lp = lock(comp="Alarmed")
    lp.pick("R")
    assert lp.alarm
    lp = lock(comp="Reinforced")
    lp.break_off()
    assert not lp.broken
    lp.break_off()
    assert lp.broken
    with pytest.raises(RuleError, match="already open or broken"):
        lp.break_off()
    assert set(complications()) == {"None", "Alarmed", "Cracked", "Worn", "Reinforced",
                                    "Delicate", "Trapped"}


def test_study_reveals_next_action() -> None:
    lp = lock()
    lp.study(have=3)
    assert lp.hint == "T??" and lp.turns == 1
    lp.study(have=2, rng=FixedRng(2))
    assert lp.hint == "T??" and lp.turns == 2
    lp.study(have=2, rng=FixedRng(5))
    lp.study(have=3)
    assert lp.hint == "TPR"
    with pytest.raises(RuleError, match="already known"):
        lp.study(have=3)


def test_bad_action_and_state() -> None:
    lp = lock()
    with pytest.raises(RuleError, match="tap"):
        lp.pick("kick")
    with pytest.raises(RuleError, match="tap"):
        lp.pick("Tickle")
    text = lp.to_json().replace('"TPR"', '"TTR"')
    with pytest.raises(StateError, match="sequence"):
        LockPicking.from_json(text)
    lp.pick("T")
    back = LockPicking.from_json(lp.to_json())
    assert back == lp
    back.undo()
    assert back.progress == 0
