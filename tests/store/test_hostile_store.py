"""The database around the campaigns, as a hostile user or a busy table treats it (issue 20):
SQLite judges its own file, concurrent writers never make a healthy file read as damaged,
a damaged file is never written to, damaged rows are one line naming the campaign and
the event, odd ``COMPANION_DB`` values and names are one line, commands that only read
create nothing. Rows are damaged on SQLite and on PostgreSQL alike.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import create_campaign, open_campaign, open_store
from companion.store.db import Store, StoreError, database_url, name_problem
from companion.store.document import check_member_name

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(180)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def one_line(status: int, out: str, err: str) -> str:
    assert status == 2 and out == "", (status, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err



def _play(db: str, name: str = "Tuesday") -> None:
    with open_store(db) as store:
        campaign = create_campaign(store, name, ["plot_points"], who="Mira", role="gm")
        table = campaign.add("Table", PlotPointSession(), role="minigame")
        assert isinstance(table, PlotPointSession)
        table.add_player("Ash")
        table.roll_check("Ash", rng=random.Random(4))
        campaign.roll("2d6", seed=99)


# -- SQLite judges its own file ----------------------------------------------------------


_WRITER = """
import random, sqlite3, sys, time
from companion.store import open_campaign, open_store
path, seconds = sys.argv[1], float(sys.argv[2])
with open_store(path) as store:
    campaign = open_campaign(store, "Busy", who="Mira", role="gm")
    n = 0
    until = time.time() + seconds  # from when this writer is ready (imports take a while)
    while time.time() < until or n < 20:
        campaign.roll("1d6", seed=n)
        n += 1
        if n % 10 == 0:  # what another process closing its last connection does
            raw = sqlite3.connect(path)
            raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            raw.close()
print(n)
"""


def test_concurrent_writers_never_make_a_healthy_file_read_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    with open_store(path) as store:
        create_campaign(store, "Busy", ["plot_points"]).add("Table", PlotPointSession(),
                                                            role="minigame")
    writers = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), "4"],
                                cwd=ROOT, stdout=subprocess.PIPE, text=True)
               for _ in range(2)]
    opens = exports = 0
    try:
        # Open and export for as long as the writers write (however long they take to
        # start on a loaded machine).
        while any(w.poll() is None for w in writers) or opens <= 20:
            with open_store(path) as store:  # a damaged verdict would raise here
                opens += 1
                if opens % 5 == 0:
                    open_campaign(store, "Busy").export()
                    exports += 1
    finally:
        written = [int((w.communicate(timeout=60)[0] or "0").strip() or 0) for w in writers]
    assert all(w.returncode == 0 for w in writers)
    assert opens > 20 and exports > 3 and min(written) > 10
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()


def test_a_zero_filled_header_is_one_line_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    _play(str(path))
    data = bytearray(path.read_bytes())
    data[:100] = bytes(100)
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=r"c\.db is not a campaign database \(not an SQLite"):
        open_store(path)
    assert path.read_bytes() == bytes(data)


def test_a_scrambled_page_is_never_written_to(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.db"
    _play(str(path))
    with open_store(path) as store:  # a few pages of events
        campaign = open_campaign(store, "Tuesday")
        for i in range(300):
            campaign.roll("1d6", seed=i)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    page = 4096 * (len(data) // 4096 - 2)  # a b-tree page of the events
    data[page:page + 4096] = bytes([0xA5]) * 4096
    path.write_bytes(bytes(data))
    export = tmp_path / "doc.json"
    export.write_text('{"format": "table-companion/campaign", "version": 1, "name": "X", '
                      '"rulesets": ["plot_points"], "created": "2026-01-01", "events": []}')
    monkeypatch.setenv("COMPANION_DB", str(path))
    for argv in (["campaign", "new", "New", "--ruleset", "plot_points"],
                 ["campaign", "import", str(export)], ["campaign", "list"]):
        assert "is damaged (" in one_line(*run(*argv))
        assert path.read_bytes() == bytes(data)


# -- COMPANION_DB and names ---------------------------------------------------------------


@pytest.mark.parametrize("value", ["postgresql://[::1", "postgres://u@[::1:5432/x",
                                   "/tmp/" + "n" * 300 + ".db", "/proc/self/status",
                                   "/dev/null", "mysql://x/y"])
def test_odd_companion_db_values_are_one_line(value: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DB", value)
    for argv in (["campaign", "list"], ["campaign", "new", "T", "--ruleset", "plot_points"]):
        err = one_line(*run(*argv))
        assert len(err) < 320


def test_a_relative_name_starting_with_sqlite_is_a_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COMPANION_DB", "sqlite_campaigns.db")
    assert run("campaign", "new", "T", "--ruleset", "plot_points")[0] == 0
    assert (tmp_path / "sqlite_campaigns.db").is_file()
    assert database_url("sqlite:///x.db").endswith(str(tmp_path / "x.db"))


@pytest.mark.parametrize("argv", [
    ["campaign", "show", "T"], ["campaign", "export", "T"], ["log", "T"],
    ["campaign", "delete", "T", "--yes"], ["reveal", "T", "1"],
    ["roll", "1d6", "--campaign", "T"], ["campaign", "show", "T", "--json"],
])
def test_refused_read_commands_create_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              argv: list[str]) -> None:
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "deep" / "folder" / "c.db"))
    assert "no campaign named 'T'" in one_line(*run(*argv))
    assert not (tmp_path / "deep").exists()
    assert run("campaign", "list") == (0, f"no campaigns yet in {tmp_path}/deep/folder/c.db\n",
                                       "")
    assert not (tmp_path / "deep").exists()


def test_an_empty_mode_is_refused_not_public(env_db: str) -> None:
    run("campaign", "new", "T", "--ruleset", "plot_points")
    assert "mode is public, gm, blind or self, not ''" in one_line(
        *run("roll", "1d6", "--campaign", "T", "--mode", ""))
    with open_store(env_db) as store:
        assert open_campaign(store, "T").log() == []


def test_a_read_only_database_in_a_read_only_folder_is_listed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.db"
    _play(str(path))
    before = path.read_bytes()
    real_access = os.access
    # Root may write anywhere: the test says what a player's read-only folder says.
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if mode == os.W_OK
                        else real_access(p, mode, **kw))
    monkeypatch.setenv("COMPANION_DB", str(path))
    status, out, err = run("campaign", "list")
    assert status == 0 and out.startswith("Tuesday  (plot_points; 4 events") and not err
    status, out, _ = run("log", "Tuesday")
    assert status == 0 and "2d6" in out
    assert "read-only" in one_line(*run("roll", "1d6", "--campaign", "Tuesday"))
    assert path.read_bytes() == before
    assert not Path(f"{path}-shm").exists()


def test_names_accept_an_emoji_joiner_and_refuse_bidi_overrides(env_db: str) -> None:
    name = "🧙‍♀️ Mira's table"
    assert name_problem(name) is None
    status, out, _ = run("campaign", "new", name, "--ruleset", "plot_points")
    assert status == 0 and name in out
    for bad in ("Ash\u202e", "\u2066Ash", "A\x00sh", "Ash\udcff"):
        assert name_problem(bad) is not None
        with pytest.raises(StoreError):
            Store.check_name(bad)
        with pytest.raises(StoreError):
            check_member_name(bad, "party")
    assert check_member_name("  Ash   the  Bold ", "party") == "Ash the Bold"
    for bad_name in ("", " ", "x" * 81):
        with pytest.raises(StoreError, match="1 to 80 characters"):
            check_member_name(bad_name, "party")
    assert "override" in one_line(*run("campaign", "new", "Evil\u202etable", "--ruleset",
                                       "plot_points"))


# -- damaged rows -------------------------------------------------------------------------


def _damage(db: str, sql: str, params: dict[str, object]) -> None:
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        conn.execute(sa.text(sql), params)
    engine.dispose()


COMMANDS = (["campaign", "show", "Tuesday"], ["campaign", "show", "Tuesday", "--json"],
            ["log", "Tuesday"], ["log", "Tuesday", "--json"], ["campaign", "export", "Tuesday"],
            ["roll", "1d6", "--campaign", "Tuesday"])


@pytest.mark.parametrize(("sql", "value", "says"), [
    ("UPDATE companion_events SET data = :v WHERE seq = 2", "[1, 2]",
     "event 2: its data is not a JSON object"),
    ("UPDATE companion_events SET data = :v WHERE seq = 3", "{not json",
     "event 3: its data is not a JSON object"),
    ("UPDATE companion_events SET kind = :v WHERE seq = 1", "7",
     "event 1: its kind '7' is not a kind of event"),
    ("UPDATE companion_events SET data = :v WHERE seq = 4", "[" * 500 + "]" * 500,
     "event 4: its data is not a JSON object"),
])
def test_a_damaged_event_row_is_one_line_naming_campaign_and_event(
        env_db: str, sql: str, value: str, says: str) -> None:
    _play(env_db)
    _damage(env_db, sql, {"v": value})
    for argv in COMMANDS:
        err = one_line(*run(*argv))
        assert "is damaged: campaign 'Tuesday', event" in err and says in err, (argv, err)


def test_a_damaged_rulesets_column_is_one_line(env_db: str) -> None:
    _play(env_db)
    _damage(env_db, "UPDATE companion_campaigns SET rulesets = :v", {"v": "plot_points"})
    for argv in (*COMMANDS, ["campaign", "list"]):
        err = one_line(*run(*argv))
        assert "is damaged: campaign 'Tuesday': its rulesets are not a list of names" in err


def test_sqlite_values_of_the_wrong_type_are_one_line(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite keeps any type in any column: an integer kind, a blob name, a text seq."""
    path = tmp_path / "c.db"
    _play(str(path))
    monkeypatch.setenv("COMPANION_DB", str(path))
    name_blob = "UPDATE companion_campaigns SET name = x'4142'"
    for sql, says in (
            ("UPDATE companion_events SET kind = 7 WHERE seq = 2", "event 2: its kind"),
            ("UPDATE companion_events SET who = x'ff00' WHERE seq = 2", "event 2: its 'who'"),
            ("UPDATE companion_events SET seed = 'x' WHERE seq = 2", "event 2: its seed"),
            (name_blob, "campaign 'number 1': its name is not text"),
    ):
        kept = path.read_bytes()
        conn = sqlite3.connect(path)
        conn.execute(sql)
        conn.commit()
        conn.close()
        # A campaign whose name is a blob cannot be named any more: the list says it.
        for argv in [["campaign", "list"]] if sql == name_blob else COMMANDS:
            status, out, err = run(*argv)
            assert says in one_line(status, out, err), (sql, argv, err)
        path.write_bytes(kept)


_FUZZ_NAMES = itertools.count()

# A kind is at most 10 characters: PostgreSQL enforces the column's width (schema.py), so a
# longer one is damage that store cannot even hold.
ROW_COLUMNS = {"kind": st.one_of(st.text(max_size=10), st.sampled_from(["add", "move", ""])),
               "data": st.one_of(st.text(max_size=40), st.sampled_from(
                   ["[]", "null", "{}", '{"kind": 1}', '"x"', "1e999", "[" * 200])),
               "tracker": st.one_of(st.none(), st.text(max_size=10)),
               "move": st.one_of(st.none(), st.text(max_size=10)),
               "who": st.text(max_size=10)}


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seq=st.integers(1, 4), column=st.sampled_from(sorted(ROW_COLUMNS)), data=st.data())
def test_fuzz_damaged_rows(db: str, monkeypatch: pytest.MonkeyPatch, seq: int, column: str,
                           data: st.DataObject) -> None:
    """Any value in any column of any event: every command serves or says one line."""
    value = data.draw(ROW_COLUMNS[column])
    if isinstance(value, str):
        value = value.replace("\x00", "")  # PostgreSQL text holds no NUL
    name = f"F{next(_FUZZ_NAMES)}"  # hypothesis seeds random: a counter never repeats
    monkeypatch.setenv("COMPANION_DB", db)
    _play(db, name)
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        cid = conn.execute(sa.text("SELECT id FROM companion_campaigns WHERE name = :n"),
                           {"n": name}).scalar_one()
        conn.execute(sa.text(f"UPDATE companion_events SET {column} = :v "
                             "WHERE campaign_id = :c AND seq = :s"),
                     {"v": value, "c": cid, "s": seq})
    engine.dispose()
    for argv in (["campaign", "show", name], ["log", name, "--json"],
                 ["campaign", "export", name], ["log", name, "--gm"]):
        status, out, err = run(*argv)
        assert status in (0, 2), (argv, err)
        if status == 2:
            one_line(status, out, err)


@pytest.mark.parametrize("kind", [0, None, ["cairn_srd/Character"], {"a": 1}])
def test_an_add_event_whose_kind_is_not_text_is_one_line(kind: object) -> None:
    """Found by the fuzz above: ``{"kind": 0}`` in an add event was an AttributeError."""
    from companion.errors import CompanionError
    from companion.store.registry import tracker_class

    with pytest.raises(CompanionError, match="is not a tracker kind"):
        tracker_class(kind)  # type: ignore[arg-type]
