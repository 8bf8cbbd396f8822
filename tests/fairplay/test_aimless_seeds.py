"""Issue 49: fair dice for real. The close commits how many rolls its sitting numbered, so
a roll deleted from the end of a sitting (and the log rechained) is refused by ``verify``
and by ``campaign import``; client seeds are fixed when a sitting opens, fresh for each
sitting, so a GM who reads the server seed finds no client seed that changes a roll."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.store import open_store
from companion.store.campaign import create
from companion.table import Session
from tests.fairplay.cli import run, verify_doc
from tests.store.forge import rechain

pytestmark = pytest.mark.timeout(180)


def _export(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    status, out, _ = run(capsys, "campaign", "export", "T")
    assert status == 0
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_a_roll_dropped_from_the_end_of_a_sitting_is_refused(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = Session.of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        for _ in range(3):
            gm.roll("1d20")
        gm.close_sitting()
    doc = _export(capsys)
    assert verify_doc(capsys, tmp_path, doc)[0] == 0
    # The sitting's last roll deleted, the log renumbered and rechained.
    dropped = copy.deepcopy(doc)
    rolls = [e for e in dropped["events"] if e["kind"] == "roll"]
    assert [r["data"]["fair"]["n"] for r in rolls] == [1, 2, 3]
    dropped["events"].remove(rolls[-1])
    for seq, event in enumerate(dropped["events"], start=1):
        event["seq"] = seq
    rechain(dropped)
    status, out, err = verify_doc(capsys, tmp_path, dropped)
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert "sitting 1 closes after 3 rolls, but the log holds its rolls up to number 2: " \
        "a roll was dropped" in err, err
    path = tmp_path / "dropped.json"
    path.write_text(json.dumps(dropped))
    status, out, err = run(capsys, "campaign", "import", str(path), "--name", "D")
    assert status == 2 and "a roll was dropped" in err, err
    # A log view (no chain) says the same.
    status, out, _ = run(capsys, "log", "T", "--json")
    view = json.loads(out)
    view["events"] = [e for e in view["events"] if e.get("seq") != rolls[-1]["seq"]]
    status, _, err = verify_doc(capsys, tmp_path, view)
    assert status == 2 and "a roll was dropped" in err, err
