"""Several processes at once, a process killed mid-write, schema migration, and damaged,
foreign or newer databases (which are refused with one line and never overwritten)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import (
    SNAPSHOT_EVERY,
    StoreError,
    create_campaign,
    open_campaign,
    open_store,
)
from companion.store.db import database_url

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("store_worker.py")

pytestmark = pytest.mark.timeout(180)


def _setup(db: str) -> None:
    with open_store(db) as store:
        create_campaign(store, "T", ["plot_points"]).add(
            "Table", PlotPointSession(), role="minigame")


def _worker(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(WORKER), *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_several_processes_append_to_one_campaign_and_nothing_is_lost(db: str) -> None:
    _setup(db)
    writers, rounds = 4, 10
    procs = [_worker("append", db, "T", f"w{n}", str(rounds)) for n in range(writers)]
    for proc in procs:
        _, err = proc.communicate(timeout=150)
        assert proc.returncode == 0, err
    with open_store(db) as store:
        campaign = open_campaign(store, "T")
        events = campaign.log()
        assert campaign.head == len(events) == 1 + 2 * writers * rounds
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        assert len([e for e in events if e.kind == "roll"]) == writers * rounds
        table = campaign.tracker("Table")
        assert isinstance(table, PlotPointSession)
        expected = {f"w{n}-{i}" for n in range(writers) for i in range(rounds)}
        assert sorted(table.players) == sorted(expected)
        assert table.lucky == len(expected) + 1  # the GM's point and one per join, once


def test_a_process_killed_mid_write_loses_nothing_committed(db: str) -> None:
    _setup(db)
    proc = _worker("forever", db, "T")
    assert proc.stdout is not None
    acked = 0
    deadline = time.monotonic() + 60
    while acked < 120 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        assert line, proc.stderr.read() if proc.stderr else ""
        acked = int(line)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert acked >= 120
    with open_store(db) as store:
        campaign = open_campaign(store, "T")
        events = campaign.log()
        assert campaign.head >= acked
        assert [e.seq for e in events] == list(range(1, campaign.head + 1))
        table = campaign.tracker("Table")
        assert isinstance(table, PlotPointSession)
        joins = sum(1 for e in events if e.move == "add_player")
        leaves = sum(1 for e in events if e.move == "remove_player")
        assert table.players == (["Runner"] if joins > leaves else [])
        # Still writable after the crash.
        table.add_player("After")
        assert open_campaign(store, "T").tracker("Table", PlotPointSession).players[-1] == "After"


def test_a_version_1_database_is_migrated_with_its_campaigns(db: str) -> None:
    with open_store(db) as store:
        table = create_campaign(store, "T", ["plot_points"]).add(
            "Table", PlotPointSession(), role="minigame")
        assert isinstance(table, PlotPointSession)
        for i in range(SNAPSHOT_EVERY + 5):
            table.add_player(f"Player {i % 40}") if i % 2 == 0 else table.undo()
        players = list(table.players)
    # Turn it into what version 1 wrote: no snapshots table, version "1".
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE companion_snapshots"))
        conn.execute(sa.text("DROP TABLE companion_seats"))
        conn.execute(sa.text("UPDATE companion_meta SET value = '1' "
                             "WHERE key = 'schema_version'"))
        assert "companion_snapshots" not in sa.inspect(conn).get_table_names()
    engine.dispose()
    with open_store(db) as store:
        assert store.schema_version() == 5
        assert store.latest_snapshot(store.get_campaign("T").id) is None
        campaign = open_campaign(store, "T")  # replays the whole log, then snapshots it
        assert campaign.tracker("Table", PlotPointSession).players == players
        snap = store.latest_snapshot(campaign.info.id)
        assert snap is not None and snap[0] == campaign.head == SNAPSHOT_EVERY + 6


def _set_meta(db: str, key: str, value: str) -> None:
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE companion_meta SET value = :v WHERE key = :k"),
                     {"v": value, "k": key})
    engine.dispose()


def _bytes(db: str) -> bytes | None:
    path = Path(db)
    return path.read_bytes() if path.exists() else None


@pytest.mark.parametrize(("key", "value", "message"), [
    ("schema_version", "6", "written by a newer Table Companion .*schema version 6"),
    ("application", "someone-else", "belongs to another program"),
])
def test_a_newer_or_foreign_marked_database_is_refused_untouched(
        db: str, key: str, value: str, message: str) -> None:
    _setup(db)
    _set_meta(db, key, value)
    before = _bytes(db)
    with pytest.raises(StoreError, match=message) as caught:
        open_store(db)
    assert "\n" not in str(caught.value)
    assert _bytes(db) == before
    _set_meta(db, key, "5" if key == "schema_version" else "table-companion")
    with open_store(db) as store:  # nothing was lost
        assert open_campaign(store, "T").tracker("Table") is not None


def _sqlite_with_events(path: Path) -> None:
    with open_store(path) as store:
        table = create_campaign(store, "T", ["plot_points"]).add(
            "Table", PlotPointSession(), role="minigame")
        for i in range(40):
            table.add_player(f"Player {i}")


def test_a_truncated_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    _sqlite_with_events(path)
    data = path.read_bytes()
    assert len(data) >= 4 * 4096
    path.write_bytes(data[: len(data) // 2])
    before = path.read_bytes()
    with pytest.raises(StoreError, match=r"c\.db is damaged \((database disk image|SQLite)"):
        open_store(path)
    assert path.read_bytes() == before


def test_a_foreign_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO notes (text) VALUES ('buy milk')")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="an SQLite database of another program"):
        open_store(path)
    assert path.read_bytes() == before
    assert not Path(f"{path}-wal").exists()


@pytest.mark.parametrize("content", [b"hello, this is my shopping list\n" * 200, b"\x00" * 50])
def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "c.db"
    path.write_bytes(content)
    with pytest.raises(StoreError, match=r"c\.db is not a campaign database \(not an SQLite"):
        open_store(path)
    assert path.read_bytes() == content


def test_a_damaged_page_is_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    _sqlite_with_events(path)
    data = bytearray(path.read_bytes())
    for page in range(1, len(data) // 4096):
        data[page * 4096: page * 4096 + 4096] = bytes([0xA5]) * 4096
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=r"c\.db is damaged \(") as caught, \
            open_store(path) as store:
        open_campaign(store, "T")
    assert "\n" not in str(caught.value)


def test_the_default_file_is_in_the_users_data_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with open_store() as store:
        assert store.path == tmp_path / "data" / "table-companion" / "campaigns.db"
        store.create_campaign("T", ["plot_points"])
    with sqlite3.connect(tmp_path / "data" / "table-companion" / "campaigns.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()
    monkeypatch.setenv("COMPANION_DB", "postgresql://someone@127.0.0.1:1/x")
    assert database_url() == "postgresql+psycopg://someone@127.0.0.1:1/x"
    monkeypatch.setenv("COMPANION_DB", "mysql://x/y")
    with pytest.raises(StoreError, match="a file path or a postgresql:// URL"):
        database_url()
