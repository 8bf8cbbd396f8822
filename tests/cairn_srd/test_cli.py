"""The CLI contract: ``companion magic table --json`` and the cairn subcommands."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.cli import main
from companion.rulesets.cairn_srd.spellcasting import magic_dice_odds


def test_magic_table_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["magic", "table", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["dice"] for r in rows] == list(range(1, 14))
    assert rows[2] == {"dice": 3, "mishap": "4/9", "doom": "1/36", "fatigue_mean": "3/2"}
    for r in rows:
        odds = magic_dice_odds(r["dice"])
        assert Fraction(r["mishap"]) == odds.mishap and Fraction(r["doom"]) == odds.doom
        assert Fraction(r["fatigue_mean"]) == Fraction(r["dice"], 2)


def test_magic_table_text_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["magic", "table"]) == 0
    out = capsys.readouterr().out
    assert "90.74%" in out and "96%!" in out


def test_cairn_commands(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.rulesets.cairn_srd import lockpicking, saves, social

    assert main(["cairn", "save", "12", "--floor", "2", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["chance"] == "1/2"
    expected = saves.save(12, floor=2, seed=1)
    assert (data["roll"], data["success"]) == (expected.roll, expected.success)
    assert main(["magic", "cast", "3", "--seed", "2", "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["magic", "cast", "3", "--seed", "2", "--json"]) == 0
    assert capsys.readouterr().out == first
    assert main(["cairn", "matrix", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["Fleet"]["Individual"] == "Critical damage"
    assert main(["cairn", "lock", "--seed", "1", "--json"]) == 0
    lock = lockpicking.LockBook().new_lock(seed=1)
    assert json.loads(capsys.readouterr().out)["lock"] == {
        "type": lock.lock_type, "dv": lock.dv, "sequence": lock.sequence,
        "complication": lock.complication}
    # Each seed prints the library's NPC and die of fate; other seeds, other results.
    for command, make in (("npc", social.roll_npc), ("fate", saves.die_of_fate)):
        shown = set()
        for seed in range(10):
            assert main(["cairn", command, "--seed", str(seed)]) == 0
            out = capsys.readouterr().out
            assert out == f"{make(seed=seed)}\n", (command, seed)
            shown.add(out)
        assert len(shown) > 1, command


def test_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cairn", "save", "25"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: Ability Scores") and err.count("\n") == 1
    assert main(["magic", "cast", "0"]) == 2


@pytest.mark.parametrize("count", ["61", "10000000", "1000000000"])
def test_magic_cast_is_bounded_before_rolling(count: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["magic", "cast", count]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "invest 1-60 magic dice" in captured.err


def test_same_seed_same_cast_other_seed_other_cast(capsys: pytest.CaptureFixture[str]) -> None:
    outs = set()
    for seed in range(6):
        assert main(["magic", "cast", "4", "--seed", str(seed), "--json"]) == 0
        outs.add(capsys.readouterr().out)
    assert len(outs) > 3
