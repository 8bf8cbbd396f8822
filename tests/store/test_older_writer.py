"""An upgrade that older writers cannot race (issue 29): converting a database to the
chained log makes, in the same transaction, every later write without a chain fail. A real
process of the previous schema, connected before the conversion, tries to append after
it: refused with a line asking to restart with the new version; the campaign opens with
every event and an unbroken chain. On SQLite (triggers) and PostgreSQL (NOT NULL).

Issue 49: an older writer *holding* a write transaction when new processes open the
database is waited for (two of them upgrade it once: on PostgreSQL the second used to fail
with 'column "uid" ... already exists'), and a wait past the lock's bound is one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import create_campaign, open_campaign, open_store
from companion.store.chain import check_chain
from companion.store.db import database_url

pytestmark = pytest.mark.timeout(120)

HERE = Path(__file__).resolve().parent


def _as_schema_3(db: str) -> int:
    """A campaign in a database as the previous version left it (no chain columns, no
    guard, schema version 3); returns the campaign's id."""
    with open_store(db) as store:
        gm = create_campaign(store, "T", ["plot_points"], who="Mira", role="gm")
        table = gm.add("Table", PlotPointSession(), role="minigame")
        assert isinstance(table, PlotPointSession)
        table.add_player("Ash")
        gm.roll("1d6", seed=1)
        cid = gm.info.id
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        if conn.dialect.name == "sqlite":
            for name in conn.execute(sa.text("SELECT name FROM sqlite_master WHERE type = "
                                             "'trigger'")).scalars().all():
                conn.execute(sa.text(f"DROP TRIGGER {name}"))
        for table_name, column in (("companion_events", "prev"),
                                   ("companion_campaigns", "uid"),
                                   ("companion_campaigns", "chain")):
            conn.execute(sa.text(f"ALTER TABLE {table_name} DROP COLUMN {column}"))
        conn.execute(sa.text("UPDATE companion_meta SET value = '3' "
                             "WHERE key = 'schema_version'"))
    engine.dispose()
    return cid


def test_an_older_writer_cannot_append_after_the_conversion(db: str, tmp_path: Path) -> None:
    cid = _as_schema_3(db)
    go = tmp_path / "go"
    older = subprocess.Popen([sys.executable, str(HERE / "older_writer.py"), database_url(db),
                              str(cid), str(go)], stdout=subprocess.PIPE, text=True)
    try:
        assert older.stdout is not None and older.stdout.readline().strip() == "ready"
        with open_store(db) as store:  # the new version converts (chains) the database
            assert store.schema_version() == 5
            campaign = open_campaign(store, "T")
            assert campaign.head == 3
        go.touch()
        said, _ = older.communicate(timeout=60)
    finally:
        if older.poll() is None:
            older.kill()
    assert said.startswith("refused:"), said
    if "sqlite" in database_url(db):
        assert "upgraded by a newer Table Companion: restart this program" in said
    else:
        assert "prev" in said and "null" in said.lower()
    with open_store(db) as store:
        campaign = open_campaign(store, "T")  # nothing half-written, nothing lost
        assert campaign.head == 3
        assert check_chain(campaign.info.uid, campaign.log()) == campaign.chain
        campaign.roll("1d6", seed=2)  # the new version writes on
        assert open_campaign(store, "T").head == 4


def test_an_older_writer_before_the_conversion_is_chained_with_the_rest(
        db: str, tmp_path: Path) -> None:
    """The same writer appending *before* the conversion: its event is kept and chained."""
    cid = _as_schema_3(db)
    go = tmp_path / "go"
    go.touch()
    done = subprocess.run([sys.executable, str(HERE / "older_writer.py"), database_url(db),
                           str(cid), str(go)], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.stdout.splitlines()[-1] == "wrote", done
    with open_store(db) as store:
        campaign = open_campaign(store, "T")
        assert campaign.head == 4 and campaign.log()[-1].who == "Old"
        assert check_chain(campaign.info.uid, campaign.log()) == campaign.chain


_OPEN = """
import sys
from companion.store import db, open_store
db.LOCK_WAIT = float(sys.argv[2])
from companion.store.records import StoreError
try:
    with open_store(sys.argv[1]) as store:
        print("opened", store.schema_version(), flush=True)
except StoreError as exc:
    print("refused:", exc, flush=True)
"""


def _opening(url: str, lock_wait: float = 30.0) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", _OPEN, url, str(lock_wait)],
                            stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=HERE.parents[1],
                            env={"PYTHONPATH": str(HERE.parents[1]), "PATH": "/usr/bin:/bin"})


def test_new_processes_wait_for_an_older_writers_transaction_then_upgrade_once(
        db: str) -> None:
    """Issue 49: an older writer holding a write transaction when two processes of the
    new version open the database: both wait for it (no 'column already exists' when
    both try the upgrade), one upgrades, the other finds it done; the older writer's
    move is kept and chained."""
    cid = _as_schema_3(db)
    url = database_url(db)
    older = subprocess.Popen([sys.executable, str(HERE / "older_holder.py"), url, str(cid),
                              "3"], stdout=subprocess.PIPE, text=True)
    try:
        assert older.stdout is not None and older.stdout.readline().strip() == "holding"
        openers = [_opening(url) for _ in range(2)]
        said = [p.communicate(timeout=90) for p in openers]
        rest, _ = older.communicate(timeout=60)
    finally:
        for process in (older, *locals().get("openers", [])):
            if process.poll() is None:
                process.kill()
    assert rest.strip() == "committed", rest
    for out, err in said:
        assert out.strip() == "opened 5" and err == "", (out, err)
    with open_store(db) as store:
        campaign = open_campaign(store, "T")
        assert campaign.head == 4 and campaign.log()[-1].who == "Old"
        assert check_chain(campaign.info.uid, campaign.log()) == campaign.chain


def test_an_upgrade_that_waits_too_long_for_an_older_writer_says_so_in_one_line(
        db: str) -> None:
    cid = _as_schema_3(db)
    url = database_url(db)
    older = subprocess.Popen([sys.executable, str(HERE / "older_holder.py"), url, str(cid),
                              "8"], stdout=subprocess.PIPE, text=True)
    try:
        assert older.stdout is not None and older.stdout.readline().strip() == "holding"
        out, err = _opening(url, lock_wait=1.5).communicate(timeout=60)
        rest, _ = older.communicate(timeout=60)
    finally:
        if older.poll() is None:
            older.kill()
    assert err == "" and out.count("\n") == 1, (out, err)
    assert out.startswith("refused: ") and "its upgrade to schema version 5 waited over " \
        "1.5 s for another writer (a program of an older version still running?): nothing " \
        "was changed" in out, out
    assert rest.strip() == "committed", rest
    engine = sa.create_engine(url)  # nothing changed: still the older version's database
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT value FROM companion_meta WHERE key = "
                                    "'schema_version'")).scalar_one() == "3"
    engine.dispose()
    with open_store(db) as store:  # the writer gone, the upgrade goes through
        assert store.schema_version() == 5 and open_campaign(store, "T").head == 4
