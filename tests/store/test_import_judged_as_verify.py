"""Issue 49: ``campaign import`` accepts nothing ``verify`` refuses.

Both run one judgement (``companion.store.judge.judge_export``): every rechained rewrite
of a move (its arguments, summary, facts, name or tracker) that ``verify`` refuses, the
import refuses too, on one line naming the entry, with nothing written; a document
downgraded to version 2 (no chain) with an event deleted is refused unless asked for by
name (``--unchained``); the file is opened once, so a file swapped by rename mid-import
cannot get in; and a move renamed to one that does not exist, to ``status`` or to
``__class__`` is one line naming the entry, never a traceback.
"""

from __future__ import annotations

import copy
import io
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion import fairplay
from companion.rulesets.cairn_srd.character import Character
from companion.store import open_store
from companion.store.campaign import Campaign, create
from companion.store.records import StoreError
from companion.table import Session
from tests.conftest import session_of
from tests.fairplay.cli import run
from tests.store.forge import rechain

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def env_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    path = str(tmp_path / "campaigns.db")
    monkeypatch.setenv("COMPANION_DB", path)
    return path


def _honest(env_db: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """Campaign T's export: a move that rolled (Ash takes 2), a rule roll whose move
    rolled (Ash's agony, its roll entry after it), the sitting closed."""
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        gm.add("Ash", Character("Ash"))
        gm.add("Bryn", Character("Bryn"))
        gm.act("Ash", "take_damage", 2)
        sheet = gm.tracker("Ash", Character)
        gm._rule_roll("Ash: agony", lambda rng: sheet.agony(seed=rng.seed_value))
        gm.close_sitting()
    status, out, _ = run(capsys, "campaign", "export", "T")
    assert status == 0
    doc: dict[str, Any] = json.loads(out)
    assert [(e["kind"], e["move"]) for e in doc["events"]] == [
        ("add", None), ("add", None), ("move", "take_damage"), ("move", "agony"),
        ("roll", None), ("sitting", None)]
    return doc


def _bump_args(event: dict[str, Any]) -> None:
    args = event["data"]["args"]
    key = next(k for k, v in args.items() if type(v) is int and k != "seed") \
        if any(type(v) is int and k != "seed" for k, v in args.items()) else "seed"
    args[key] += 1


def _change_facts(event: dict[str, Any]) -> None:
    step = event["data"]["change"][0]
    step[1] = step[1] + 1 if type(step[1]) is int else 0


REWRITES: dict[str, Callable[[dict[str, Any]], None]] = {
    "args": _bump_args,
    "summary": lambda e: e["data"].__setitem__("summary", "Ash shrugs it off"),
    "facts": _change_facts,
    "name": lambda e: e.__setitem__("move", "rest_turn"),
    "tracker": lambda e: e.__setitem__("tracker", "bryn"),
}


def _rewritten(doc: dict[str, Any], seq: int, how: str) -> dict[str, Any]:
    forged = copy.deepcopy(doc)
    REWRITES[how](forged["events"][seq - 1])
    return rechain(forged)


def _write(path: Path, doc: dict[str, Any]) -> str:
    path.write_text(json.dumps(doc))
    return str(path)


@pytest.mark.parametrize("how", sorted(REWRITES))
@pytest.mark.parametrize("seq", [3, 4], ids=["move", "rule-roll-move"])
def test_every_rechained_rewrite_verify_refuses_import_refuses(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, how: str, seq: int) -> None:
    doc = _honest(env_db, capsys)
    forged = _write(tmp_path / "forged.json", _rewritten(doc, seq, how))
    status, out, verify_err = run(capsys, "verify", forged)
    assert status == 2 and out == "" and verify_err.count("\n") == 1, verify_err
    status, out, err = run(capsys, "campaign", "import", forged, "--name", "Forged")
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert "its rolls do not verify" in err and "entry" in err
    # The same reason, word for word, after the file's own name.
    assert err.split("its rolls do not verify: ")[1] == \
        verify_err.split("its rolls do not verify: ")[1]
    # Nothing was written; the same from standard input and through the API.
    status, out, _ = run(capsys, "campaign", "show", "Forged")
    assert status == 2
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
        Path(forged).read_bytes())))
    status, _, err = run(capsys, "campaign", "import", "-", "--name", "Forged")
    assert status == 2 and "its rolls do not verify" in err, err
    with open_store(env_db) as store, pytest.raises(StoreError, match="do not verify"):
        Campaign.import_document(store, json.loads(Path(forged).read_text()), "Forged")


def test_the_honest_export_imports_and_verifies(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _honest(env_db, capsys)
    path = _write(tmp_path / "honest.json", doc)
    status, out, err = run(capsys, "verify", path)
    assert status == 0, err
    status, out, err = run(capsys, "campaign", "import", path, "--name", "Copy")
    assert status == 0, err
    assert out.startswith("imported campaign Copy (6 events)")


@pytest.mark.parametrize("name", ["no_such_move", "status", "__class__", "validate"])
def test_a_move_renamed_to_no_move_is_one_line_naming_the_entry(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    doc = _honest(env_db, capsys)
    for seq in (3, 4):
        forged = copy.deepcopy(doc)
        forged["events"][seq - 1]["move"] = name
        path = _write(tmp_path / "renamed.json", rechain(forged))
        for argv in (("verify", path), ("campaign", "import", path, "--name", "R")):
            status, out, err = run(capsys, *argv)
            assert status == 2 and out == "" and err.count("\n") == 1, err
            assert err.startswith("error: ") and "Traceback" not in err
            assert f"entry {seq}: Ash has no move {name!r}" in err, err
        # Standard input (the document held whole) says the same.
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
            Path(path).read_bytes())))
        status, out, err = run(capsys, "verify", "-")
        assert status == 2 and f"entry {seq}: Ash has no move {name!r}" in err, err


def test_a_downgrade_that_drops_the_chain_is_refused_unless_asked_by_name(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _honest(env_db, capsys)
    older = copy.deepcopy(doc)
    older["version"] = 2
    del older["campaign"], older["chain"]
    for event in older["events"]:
        del event["prev"]
    # Bryn's arrival deleted: no chain says it is missing. (A roll deleted is still named:
    # the sitting's close counts its rolls, tested in tests/fairplay/test_aimless_seeds.py.)
    del older["events"][1]
    for i, event in enumerate(older["events"], 1):
        event["seq"] = i
    path = _write(tmp_path / "older.json", older)
    status, out, err = run(capsys, "campaign", "import", path, "--name", "Old")
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert "an export of an older version, with no chain" in err
    assert "--unchained" in err
    status, _, _ = run(capsys, "campaign", "show", "Old")
    assert status == 2  # nothing written
    status, _, err = run(capsys, "verify", path)
    assert status == 2 and "with no chain" in err
    with open_store(env_db) as store, pytest.raises(StoreError, match="with no chain"):
        Campaign.import_document(store, older, "Old")
    # Asked for by name, it imports (under a new identity, chained from then on).
    status, out, err = run(capsys, "campaign", "import", path, "--name", "Old",
                           "--unchained")
    assert status == 0, err
    assert out.startswith("imported campaign Old (5 events)")


def test_a_file_swapped_mid_import_cannot_get_in(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _honest(env_db, capsys)
    with open_store(env_db) as store:  # a public d20 in a second sitting, closed
        gm = Session.open(store, "T", who="Mira", role="gm")
        gm.roll("1d20")
        gm.close_sitting()
    status, out, _ = run(capsys, "campaign", "export", "T")
    doc = json.loads(out)
    path = tmp_path / "campaign.json"
    _write(path, doc)
    # The forged file: the d20 shows another face than it made (a 20, or a 1 when the
    # honest die was already a 20, so the forgery never depends on how the die fell). Its
    # dice no longer match its seed, so it would not verify: it is swapped in by rename
    # once the rolls have been checked.
    forged = copy.deepcopy(doc)
    (roll,) = [e for e in forged["events"] if e["kind"] == "roll"
               and e["data"].get("expr") == "1d20"]
    face = 1 if roll["data"]["dice"] == [20] else 20
    roll["data"]["dice"] = [face]
    roll["data"]["total"] = face
    roll["data"]["text"] = f"1d20 = [{face}] = {face}"
    swap = tmp_path / "swap.json"
    _write(swap, rechain(forged))
    assert run(capsys, "verify", str(swap))[0] == 2
    original = fairplay.LogVerifier.finish
    swapped: list[bool] = []

    def finish_then_swap(self: fairplay.LogVerifier) -> int:
        checked = original(self)
        if not swapped:
            os.replace(swap, path)
            swapped.append(True)
        return checked

    monkeypatch.setattr(fairplay.LogVerifier, "finish", finish_then_swap)
    status, out, err = run(capsys, "campaign", "import", str(path), "--name", "Copy")
    assert swapped and json.loads(path.read_text()) == forged  # the swap did happen
    assert status == 0, err
    monkeypatch.setattr(fairplay.LogVerifier, "finish", original)
    # What was imported is the file as it was read, byte for byte the honest log.
    with open_store(env_db) as store:
        copied = Campaign.open(store, "Copy").export()
    assert [e["data"] for e in copied["events"]] == [e["data"] for e in doc["events"]]
    assert copied["chain"] == doc["chain"]
