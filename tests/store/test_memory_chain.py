"""The browser's store (MemoryStore, files in a folder) keeps the same chain (issue 29):
its campaigns' files from before the chain are chained as they are read, never refused;
a line changed in a file is named on open; its exports verify and import elsewhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import Campaign, create_campaign, open_campaign
from companion.store.chain import check_chain
from companion.store.db import StoreError
from companion.store.memory import MemoryStore


def _table(folder: Path) -> Campaign:
    store = MemoryStore(folder)
    gm = create_campaign(store, "T", ["plot_points"], who="Mira", role="gm")
    table = gm.add("Table", PlotPointSession(), role="minigame")
    assert isinstance(table, PlotPointSession)
    table.add_player("Ash")
    gm.roll("1d6", seed=4)
    return gm


def test_a_memory_store_chains_its_events_and_keeps_the_chain_in_its_files(
        tmp_path: Path) -> None:
    gm = _table(tmp_path)
    again = open_campaign(MemoryStore(tmp_path), "T")  # read back from the files
    assert again.chain == gm.chain and again.info.uid == gm.info.uid
    assert check_chain(again.info.uid, again.log()) == again.chain
    doc = again.export()
    assert Campaign.import_document(MemoryStore(), doc, "Copy").chain == doc["chain"]


def test_files_from_before_the_chain_are_chained_as_they_are_read(tmp_path: Path) -> None:
    gm = _table(tmp_path)
    states = {m.name: m.tracker.snapshot() for m in gm}
    index = json.loads((tmp_path / "campaigns.json").read_text())
    for row in index["campaigns"]:
        del row["uid"], row["chain"]
    (tmp_path / "campaigns.json").write_text(json.dumps(index))
    events = tmp_path / "c1.events.jsonl"
    lines = [json.loads(line) for line in events.read_text().splitlines()]
    events.write_text("".join(json.dumps({k: v for k, v in e.items() if k != "prev"}) + "\n"
                              for e in lines))
    old = open_campaign(MemoryStore(tmp_path), "T")
    assert {m.name: m.tracker.snapshot() for m in old} == states
    assert check_chain(old.info.uid, old.log()) == old.chain != ""
    old.roll("1d4", seed=1)  # and it writes on, chained
    assert check_chain(old.info.uid, old.log()) == open_campaign(
        MemoryStore(tmp_path), "T").chain


def test_a_changed_line_in_a_file_is_named_on_open(tmp_path: Path) -> None:
    _table(tmp_path)
    events = tmp_path / "c1.events.jsonl"
    lines = events.read_text().splitlines()
    changed = json.loads(lines[1])
    changed["who"] = "Ash"
    lines[1] = json.dumps(changed)
    events.write_text("\n".join(lines) + "\n")
    with pytest.raises(StoreError, match=r"event 3 does not follow .*event 2 was changed"):
        open_campaign(MemoryStore(tmp_path), "T")
