"""The lock book: a type's sequence is permanent once assigned, also when that lock was
jammed or broken off; the CLI takes a book file and prints it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd.lockpicking import LockBook, LockPicking, check_sequence
from tests.cairn_srd.test_character import FixedRng


def jam(lp: LockPicking) -> None:
    wrong = next(a for a in "TPR" if a != lp.sequence[0])
    lp.pick(wrong)
    lp.pick(wrong)
    assert lp.jammed


def test_jammed_lock_still_fixes_the_sequence() -> None:
    lp = LockPicking()
    lp.new_lock(rng=FixedRng(4, 12, 1))  # Screw, sequence die 12: RPR
    jam(lp)
    lp.new_lock(rng=FixedRng(4, 3, 1))  # Screw again, sequence die 3 (TRT): still RPR
    assert (lp.lock_type, lp.sequence, lp.revealed) == ("Screw", "RPR", 0)
    assert "already fixed" in lp.log[-1].summary
    lp.new_lock(rng=FixedRng(1, 3, 1))  # Crude: a new type takes its die, TRT
    assert lp.assigned == {"Screw": "RPR", "Crude": "TRT"}
    lp.validate()
    assert LockPicking.from_json(lp.to_json()).to_json() == lp.to_json()


def test_broken_off_lock_still_fixes_the_sequence_in_the_book() -> None:
    book = LockBook()
    first = book.new_lock(rng=FixedRng(8, 9, 8))  # Holy, RTP, Reinforced
    assert (first.lock_type, first.sequence, first.complication) == ("Holy", "RTP",
                                                                     "Reinforced")
    first.break_off()
    first.break_off()
    assert first.broken and book.sequences == {"Holy": "RTP"} and book.solved == []
    again = book.new_lock(rng=FixedRng(8, 1, 1))
    assert again.sequence == "RTP" and again.revealed == 0
    for a in "RTP":
        again.pick(a)
    book.learn(again)
    assert book.solved == ["Holy"]
    third = book.new_lock(rng=FixedRng(8, 5, 1))
    assert (third.sequence, third.revealed) == ("RTP", 3)
    assert book.lines() == ["Holy (DV 7): RTP, solved by the party"]


def test_book_refuses_a_changed_sequence_and_bad_input() -> None:
    book = LockBook()
    book.record("screw", "rpr")
    with pytest.raises(RuleError, match="Screw locks are RPR for good, not TPT"):
        book.record("Screw", "TPT")
    with pytest.raises(RuleError, match="no “Glass” lock type"):
        book.record("Glass", "TPT")
    with pytest.raises(RuleError, match="rule 1"):
        book.record("Pin", "TTP")
    with pytest.raises(RuleError, match="three of T, P, R"):
        book.record("Pin", "TPX")
    assert book.sequences == {"Screw": "RPR"} and len(book.log) == 1
    lp = LockPicking(known={}, assigned={"Screw": "TPT"})
    with pytest.raises(RuleError, match="for good"):
        book.learn(lp)
    assert check_sequence(" ptp ") == "PTP"


def test_book_state_checks() -> None:
    good = LockBook(sequences={"Pin": "TPR"}, solved=["Pin"])
    assert LockBook.from_json(good.to_json()).sequences == {"Pin": "TPR"}
    bad = good.to_json().replace('"solved": ["Pin"]', '"solved": ["Bolt"]')
    with pytest.raises(StateError, match="solved"):
        LockBook.from_json(bad)
    bad = good.to_json().replace('"TPR"', '"TTR"')
    with pytest.raises(StateError, match="sequences"):
        LockBook.from_json(bad)
    lp = LockPicking(lock_type="Pin", dv=1, sequence="TPR", assigned={"Pin": "TPR"})
    wrong = lp.to_json().replace('"sequence": "TPR"', '"sequence": "PTP"')
    with pytest.raises(StateError, match="for good"):
        LockPicking.from_json(wrong)


def test_cli_takes_and_prints_a_book(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "book.json"
    assert main(["cairn", "lock", "--seed", "3", "--book", str(path), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    kind, seq = first["lock"]["type"], first["lock"]["sequence"]
    assert first["book"] == {kind: seq}
    assert LockBook.from_json(path.read_text()).sequences == {kind: seq}
    for s in range(4, 30):  # every later lock of that type keeps the sequence
        assert main(["cairn", "lock", "--seed", str(s), "--book", str(path), "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["book"][kind] == seq
        if data["lock"]["type"] == kind:
            assert data["lock"]["sequence"] == seq
    book = LockBook.from_json(path.read_text())
    assert main(["cairn", "lock", "--book", str(path), "--show"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == "lock book: " + "; ".join(book.lines())
    path.write_text("{")
    assert main(["cairn", "lock", "--book", str(path)]) == 2
    assert "lock book" in capsys.readouterr().err
    assert main(["cairn", "lock", "--show"]) == 2
    assert "needs --book" in capsys.readouterr().err
    path.write_text(" " * 1_000_001)
    assert main(["cairn", "lock", "--book", str(path)]) == 2
    assert "larger than 1,000,000 bytes" in capsys.readouterr().err
