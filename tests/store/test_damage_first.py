"""Damage found before anything is written (issue 29): a schema version read strictly,
read-only commands that never create or change a file, a dropped table named, and SQLite's
full integrity check before a store's first write. (Gaps in the events, counts that
disagree and snapshots rebuilt from the events: tests/store/test_chain.py.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import create_campaign, open_campaign, open_store
from companion.store.db import StoreError, database_url
from tests.store.conftest import run_cli as _run

pytestmark = pytest.mark.timeout(120)

READ_ONLY = (["campaign", "show", "T"], ["campaign", "export", "T"], ["log", "T"],
             ["campaign", "list"], ["campaign", "list", "--json"])



def _made(db: str) -> None:
    with open_store(db) as store:
        gm = create_campaign(store, "T", ["plot_points"], who="Mira", role="gm")
        gm.add("Table", PlotPointSession(), role="minigame")
        gm.roll("1d6", seed=3)


def _sql(db: str, statement: str) -> None:
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        conn.execute(sa.text(statement))
    engine.dispose()


@pytest.mark.parametrize("version", ["²", "3.0", " 4", "", "٣"])
def test_a_schema_version_is_read_strictly(db: str, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str],
                                           version: str) -> None:
    _made(db)
    _sql(db, f"UPDATE companion_meta SET value = '{version}' WHERE key = 'schema_version'")
    with pytest.raises(StoreError, match=r"is damaged \(schema version ") as caught:
        open_store(db)
    assert "\n" not in str(caught.value)
    monkeypatch.setenv("COMPANION_DB", db)
    status, out, err = _run(capsys, "campaign", "list")
    assert (status, out) == (2, "") and "schema version" in err and err.count("\n") == 1


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("content", [b"", b"x"])
def test_read_only_commands_never_write_into_a_tiny_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        content: bytes) -> None:
    path = tmp_path / "c.db"
    path.write_bytes(content)
    monkeypatch.setenv("COMPANION_DB", str(path))
    before = _files(tmp_path)
    for argv in READ_ONLY:
        status, _, err = _run(capsys, *argv)
        assert err.count("\n") <= 1
        if argv[:2] == ["campaign", "list"]:
            assert status in (0, 2)
        else:
            assert status == 2 and err.startswith("error: ")
        assert _files(tmp_path) == before, argv


def test_read_only_commands_leave_another_programs_empty_database_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "other.db"
    other = sqlite3.connect(str(path))
    other.execute("PRAGMA user_version = 7")
    other.close()
    monkeypatch.setenv("COMPANION_DB", str(path))
    before = _files(tmp_path)
    for argv in (*READ_ONLY, ["campaign", "new", "X", "--ruleset", "plot_points"]):
        status, _, err = _run(capsys, *argv)
        assert status == 2 and err.count("\n") == 1, (argv, err)
        assert _files(tmp_path) == before, argv
    assert "another program (its user_version is 7)" in err


def test_read_only_commands_make_no_tables_in_an_empty_postgresql_database(
        postgres_server: object, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    url = postgres_server.new_database()  # type: ignore[attr-defined]
    monkeypatch.setenv("COMPANION_DB", url)
    for argv in READ_ONLY:
        _run(capsys, *argv)
    engine = sa.create_engine(database_url(url))
    with engine.connect() as conn:
        assert sa.inspect(conn).get_table_names() == []
    engine.dispose()
    status, out, _ = _run(capsys, "campaign", "list")
    assert status == 0 and out.startswith("no campaigns yet")


def test_a_dropped_events_table_is_damage_and_nothing_is_committed(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _made(db)
    _sql(db, "DROP TABLE companion_events")
    monkeypatch.setenv("COMPANION_DB", db)
    for argv in (["campaign", "list"], ["campaign", "show", "T"],
                 ["campaign", "new", "X", "--ruleset", "plot_points"]):
        status, out, err = _run(capsys, *argv)
        assert (status, out) == (2, "") and err.count("\n") == 1, (argv, err)
        assert "table companion_events is missing" in err
    engine = sa.create_engine(database_url(db))
    with engine.connect() as conn:
        names = conn.execute(sa.text("SELECT name FROM companion_campaigns")).scalars().all()
    engine.dispose()
    assert names == ["T"]  # 'campaign new X' committed nothing


def test_a_file_that_fails_the_full_check_is_never_written_to(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An index whose entries no longer match its table: SQLite's quick check passes it,
    its full check does not. Reading still works; the first write is refused."""
    path = tmp_path / "c.db"
    _made(str(path))
    con = sqlite3.connect(str(path))
    con.execute("CREATE INDEX t_damage ON companion_campaigns(head)")
    con.execute("PRAGMA writable_schema = ON")
    con.execute("UPDATE sqlite_master SET sql = 'CREATE INDEX t_damage ON "
                "companion_campaigns(created_at)' WHERE name = 't_damage'")
    con.commit()
    con.close()
    con = sqlite3.connect(str(path))
    assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert con.execute("PRAGMA integrity_check").fetchone()[0] != "ok"
    con.close()
    before = path.read_bytes()
    with open_store(path) as store:
        assert open_campaign(store, "T").head == 2  # read: fine
        with pytest.raises(StoreError, match=r"is damaged \(SQLite's full check: .*nothing "
                                             r"was written"):
            open_campaign(store, "T").roll("1d6")
    monkeypatch.setenv("COMPANION_DB", str(path))
    status, _, err = _run(capsys, "roll", "1d6", "--campaign", "T")
    assert status == 2 and "full check" in err and err.count("\n") == 1
    assert path.read_bytes() == before


def test_show_export_log_and_list_leave_a_campaign_database_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Even a campaign whose log runs far past its newest snapshot (which opening for a
    move would snapshot now) is read by these commands without a byte changed."""
    path = tmp_path / "c.db"
    with open_store(path) as store:
        gm = create_campaign(store, "T", ["plot_points"], who="Mira", role="gm")
        table = gm.add("Table", PlotPointSession(), role="minigame")
        assert isinstance(table, PlotPointSession)
        for i in range(120):
            table.add_player(f"P{i}") if i % 2 == 0 else table.undo()
    _sql(str(path), "DELETE FROM companion_snapshots")
    monkeypatch.setenv("COMPANION_DB", str(path))
    before = _files(tmp_path)
    for argv in READ_ONLY:
        status, _, err = _run(capsys, *argv)
        assert status == 0 and err == "", (argv, err)
        assert _files(tmp_path) == before, argv
