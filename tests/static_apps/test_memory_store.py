"""The browser's campaign store (companion.store.memory.MemoryStore): the same campaigns,
events and export documents as the SQLite store, kept in its folder across reopening."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign
from companion.store.db import ConflictError, NewEvent, StoreError
from companion.store.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[2]


def _play(store: MemoryStore) -> Campaign:
    table = create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")  # type: ignore[arg-type]
    session = table.add("Table", PlotPointSession(), role="minigame")
    session.add_player("Ash")
    session.add_player("Briar")
    return table


def test_kept_in_its_folder_across_reopening(tmp_path: Path) -> None:
    writes: list[int] = []
    store = MemoryStore(tmp_path, on_write=lambda: writes.append(1))
    table = _play(store)
    assert writes, "every change calls on_write (the browser flushes to IndexedDB there)"
    again = MemoryStore(tmp_path)
    reopened = open_campaign(again, "Tuesday")  # type: ignore[arg-type]
    assert reopened.head == table.head == 3
    assert reopened.tracker("Table").players == ["Ash", "Briar"]  # type: ignore[attr-defined]
    assert [c.name for c in again.list_campaigns()] == ["Tuesday"]
    # A move made after reopening is appended after the others.
    reopened.tracker("Table").add_player("Cato")  # type: ignore[attr-defined]
    assert open_campaign(MemoryStore(tmp_path), "Tuesday").head == 4  # type: ignore[arg-type]


def test_conflicts_and_refusals_as_the_database_store(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    info = store.create_campaign("Tuesday", ["plot_points"])
    store.append(info.id, [NewEvent("note", data={"x": 1})], 0)
    with pytest.raises(ConflictError):
        store.append(info.id, [NewEvent("note")], 0)
    assert store.head(info.id) == 1
    with pytest.raises(StoreError, match="already exists"):
        store.create_campaign("  Tuesday ", ["plot_points"])
    with pytest.raises(StoreError, match="no campaign named 'Nope'"):
        store.get_campaign("Nope")
    assert [e.data for e in store.events_since(info.id)] == [{"x": 1}]
    store.delete_campaign("Tuesday")
    assert MemoryStore(tmp_path).list_campaigns() == []


def test_lines_after_the_head_are_ignored_and_overwritten(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    info = store.create_campaign("Tuesday", ["plot_points"])
    store.append(info.id, [NewEvent("note", data={"n": 1})], 0)
    events = tmp_path / f"c{info.id}.events.jsonl"
    with events.open("a") as f:  # a write cut short before the campaign list was updated
        f.write('{"seq": 2, "half')
    again = MemoryStore(tmp_path)
    assert again.head(info.id) == 1
    again.append(info.id, [NewEvent("note", data={"n": 2})], 1)
    assert [e.data["n"] for e in MemoryStore(tmp_path).events_since(info.id)] == [1, 2]


def test_a_damaged_campaign_list_is_refused(tmp_path: Path) -> None:
    (tmp_path / "campaigns.json").write_text("{not json")
    with pytest.raises(StoreError, match="damaged"):
        MemoryStore(tmp_path)


def _cli(*args: str, db: Path, stdin: str | None = None) -> str:
    env = {**os.environ, "COMPANION_DB": str(db)}
    done = subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_export_imports_with_the_cli_and_back(tmp_path: Path) -> None:
    from companion.store.document import document_text

    store = MemoryStore(tmp_path / "browser")
    table = _play(store)
    text = document_text(table.export())
    exported = tmp_path / "tuesday.json"
    exported.write_text(text)
    db = tmp_path / "server.db"
    _cli("campaign", "import", str(exported), db=db)
    server_text = _cli("campaign", "export", "Tuesday", db=db)
    assert json.loads(server_text) == json.loads(text)
    with open_store(db) as server:
        assert open_campaign(server, "Tuesday").tracker("Table").players == ["Ash", "Briar"]  # type: ignore[attr-defined]
    # ...and back into another browser under a new name.
    other = MemoryStore(tmp_path / "other")
    back = Campaign.import_document(other, json.loads(server_text), "Tuesday again")  # type: ignore[arg-type]
    assert back.tracker("Table").players == ["Ash", "Briar"]  # type: ignore[attr-defined]
    assert [e.to_dict() for e in other.events_since(back.info.id)] == \
        [e.to_dict() for e in store.events_since(table.info.id)]
