"""Issue 32: ``verify`` recomputes a random table's roll whole (the table rolled again with
the entry's seed, its result compared), and says which rolls were recomputed whole and
which rule rolls had only their seed checked."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion import fairplay, tables
from companion.store import open_store
from companion.store.campaign import create
from companion.table import Session
from tests.conftest import session_of
from tests.fairplay.cli import run
from tests.fairplay.cli import verify_doc as _verify

pytestmark = pytest.mark.timeout(120)


def _log(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    status, out, _ = run(capsys, "log", "T", "--json", *extra)
    assert status == 0
    doc: dict[str, Any] = json.loads(out)
    return doc


def _table_evening(path: str) -> dict[str, int]:
    """One sitting: a public roll on the NPC want table, a GM-only roll on the earthmote
    size table (revealed), a rule roll of no table, a dice roll; then the close."""
    with open_store(path) as store:
        gm = session_of(create(store, "T", ["cairn_srd", "miasma"], who="Mira", role="gm"))
        ash = Session.open(store, "T", who="Ash", role="player")
        npc = ash.roll_table("cairn_npc_want")
        size = gm.roll_table("earthmote_size", mode="gm")
        save = ash._rule_roll("Ash: STR save", lambda rng: rng.randint(1, 20))
        ash.roll("2d6")
        gm.reveal(int(size.entry or 0))
        gm.close_sitting()
        # What the entry logs is the table rolled with the roll's own seed.
        assert npc.seed is not None and npc.text == fairplay.table_text(
            tables.get("cairn_npc_want").roll(seed=npc.seed))
        assert npc.text is not None and npc.text.startswith("1d10 → ")
        return {"npc": int(npc.entry or 0), "size": int(size.entry or 0),
                "save": int(save.entry or 0)}


def test_a_table_roll_is_recomputed_whole_and_the_answer_says_which_were(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entries = _table_evening(env_db)
    doc = _log(capsys)
    (npc,) = [r for r in doc["events"] if r["seq"] == entries["npc"]]
    assert npc["roll"]["table"] == "cairn_npc_want"
    status, out, err = _verify(capsys, tmp_path, doc)
    assert (status, err) == (0, ""), err
    # The NPC table, the revealed earthmote table and the dice roll rolled again whole;
    # the STR save (the app's code) only by its seed, named by its entry.
    assert "3 rolls recomputed whole from their seeds (dice rolls and table rolls" in out
    assert (f"1 rule roll with only its seed checked (entry {entries['save']}: the rule's "
            "result is as the app logged it") in out
    # The GM's view too (the GM-only roll's secret and its reveal: one roll, counted once).
    status, out, _ = _verify(capsys, tmp_path, _log(capsys, "--gm"))
    assert status == 0 and "3 rolls recomputed whole" in out, out


def test_a_changed_table_result_with_the_right_seed_is_caught(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entries = _table_evening(env_db)
    doc = _log(capsys)
    forged = copy.deepcopy(doc)
    (row,) = [r for r in forged["events"] if r["seq"] == entries["npc"]]
    want = tables.get("cairn_npc_want")
    seed = row["seed"]
    # Another row of the same table, in the same form: a result the seed does not give.
    other = next(r for r in want.rows if r.text != want.roll(seed=seed).row.text)
    row["roll"]["text"] = f"1d10 → {min(other.covers)}: {other.text}"
    status, out, err = _verify(capsys, tmp_path, forged)
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert f"entry {entries['npc']}: its result is not what seed {seed} gives on table " \
        "cairn_npc_want" in err
    # A table id changed to another table: rolled again, the result no longer holds.
    swapped = copy.deepcopy(doc)
    (row,) = [r for r in swapped["events"] if r["seq"] == entries["npc"]]
    row["roll"]["table"] = "cairn_npc_disposition"
    status, _, err = _verify(capsys, tmp_path, swapped)
    assert status == 2 and f"entry {entries['npc']}: its result is not what" in err, err
    # A table this version does not have: said, not a traceback.
    row["roll"]["table"] = "no_such_table"
    status, _, err = _verify(capsys, tmp_path, swapped)
    assert status == 2 and "which this version does not have" in err, err


def test_a_roller_that_logs_a_wrong_table_result_under_a_commitment_is_caught(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A changed copy of the server: the seed is the sitting's (derived, right), but the
    # hidden roll commits to a result the seed does not give. The commitment holds; the
    # table rolled again at the check does not.
    table = tables.get("earthmote_size")
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["miasma"], who="Mira", role="gm"))

        def lie(result: Any) -> str:
            wrong = next(r for r in table.rows if r is not result.row)
            return f"1d6 → {min(wrong.covers)}: {wrong.text}"

        made = gm._rule_roll(table.title, lambda rng: table.roll(rng=rng), lie, mode="gm",
                            table=table.id)
        assert made.entry is not None
        gm.reveal(made.entry)
        gm.close_sitting()
    status, _, err = _verify(capsys, tmp_path, _log(capsys))
    assert status == 2 and err.count("\n") == 1, err
    assert f"entry {made.entry} (revealed in entry {made.entry + 1}): its result is not " \
        "what seed" in err and "on table earthmote_size" in err


def test_a_table_roll_with_real_dice_is_counted_as_own_dice_not_recomputed(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["miasma"], who="Mira", role="gm"))
        made = gm.roll_table("earthmote_size", own_dice=[3])
        assert made.physical and made.text == "1d6 → 3: " + \
            tables.get("earthmote_size").row_for(3).text
    status, out, _ = _verify(capsys, tmp_path, _log(capsys))
    assert status == 0 and "recomputed whole" not in out and "own dice" in out, out


def test_the_command_line_rolls_a_table_for_the_roll_log_and_verify_rolls_it_again(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "campaign", "new", "T", "--ruleset", "cairn_srd")[0] == 0
    status, out, err = run(capsys, "table", "cairn_npc_want", "--campaign", "T",
                           "--who", "Ash")
    assert (status, err) == (0, "") and out.startswith("entry 1: NPC want: 1d10 → "), out
    status, out, _ = run(capsys, "table", "cairn_npc_disposition", "--campaign", "T",
                         "--mode", "blind", "--who", "Ash", "--json")
    said = json.loads(out)
    assert status == 0 and said["table"] == "cairn_npc_disposition"
    assert "result" not in said and said["commitment"]  # blind: not even its roller sees it
    status, _, err = run(capsys, "table", "cairn_npc_want", "--mode", "gm")
    assert status == 2 and err == ("error: --mode and --who need --campaign NAME (the roll "
                                   "is kept in that campaign's roll log)\n")
    assert run(capsys, "reveal", "T", "2")[0] == 0
    assert run(capsys, "session", "close", "T")[0] == 0
    status, out, err = _verify(capsys, tmp_path, _log(capsys))
    assert (status, err) == (0, "") and "2 rolls recomputed whole from their seeds" in out


def test_a_tracker_move_that_rolled_is_named_as_checked_by_its_seed_only(
        env_db: str) -> None:
    from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame

    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["miasma"], who="Mira", role="gm"))
        gm.add("Dice Monarchs", DiceMonarchsGame(), role="minigame")
        gm.tracker("Dice Monarchs", DiceMonarchsGame).new_table(["Ash", "Mira"], 100)
        gm.roll("1d6")
        gm.close_sitting()
        events = [e.to_dict() for e in gm.log()]  # the GM's view: the table seed in it
    (move,) = [e["seq"] for e in events if e["kind"] == "move" and e["seed"] is not None]
    notes: list[str] = []
    assert fairplay.verify({"events": events}, notes=notes) == 1
    assert "1 roll recomputed whole from its seed (dice rolls and table rolls" in notes[1]
    assert notes[2].startswith(f"1 tracker move with only its seed checked (entry {move}: ")


def test_many_rule_rolls_checked_by_their_seed_are_named_ten_at_most(env_db: str) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["miasma"], who="Mira", role="gm"))
        entries = [gm._rule_roll(f"save {i}", lambda rng: rng.randint(1, 20)).entry
                   for i in range(12)]
        gm.close_sitting()
        events = [e.to_dict() for e in gm.log()]
    notes: list[str] = []
    assert fairplay.verify({"events": events}, notes=notes) == 12
    named = ", ".join(str(e) for e in entries[:10])
    assert f"12 rule rolls with only their seeds checked (entries {named} and 2 more: " \
        in notes[1], notes
