"""A move reported as stored is in the database for every process, even when one process
opens the same SQLite file through two Stores (a Voila kernel does: its page's store and its
shared campaign's store, with the live-sync thread watching).

The bug this guards against: opening a second Store read the file's header with a plain
``open()``/``close()``. POSIX locks belong to a process and a file, so that ``close()``
dropped the SQLite locks of the first Store's connections; another process closing its last
connection then took itself for the last one, checkpointed and deleted the WAL, and the first
Store went on committing into the deleted WAL: the roll said "committed", no other process
(no other screen) saw it, and it was gone once the process ended.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.store.campaign import Campaign, create
from companion.store.db import Store, StoreError, database_url

pytestmark = pytest.mark.timeout(120)


def _other_process(path: Path, sql: str) -> str:
    """Run ``sql`` in a fresh process with a plain sqlite3 connection, then close it."""
    code = ("import sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1])\n"
            "print(c.execute(sys.argv[2]).fetchone()[0])\n"
            "c.close()\n")
    done = subprocess.run([sys.executable, "-c", code, str(path), sql], capture_output=True,
                          text=True, timeout=60, check=True)
    return done.stdout.strip()


def test_a_second_store_on_the_file_keeps_the_first_ones_commits_visible(
        tmp_path: Path) -> None:
    path = tmp_path / "campaigns.db"
    url = database_url(str(path))
    first = create(Store(url), "table", ["plot_points"], who="Gail", role="gm")
    first.store.close()  # type: ignore[union-attr]
    ash = Campaign.open(Store(url), "table", who="Ash", role="player")
    assert ash.log() == []  # its connection is open and holds the file
    page = Store(url)  # the second Store of this process on the same file
    # Another process reads and closes its only connection (a screen that went away).
    assert _other_process(path, "select count(*) from companion_events") == "0"
    ash.roll("3d6+2", seed=7)
    ash.roll("1d20", seed=8)
    assert ash.head == 2
    # A third connection, in yet another process, sees both rolls...
    assert _other_process(path, "select count(*) from companion_events") == "2"
    assert _other_process(path, "select head from companion_campaigns") == "2"
    # ... and so does the page's store of this process, and a raw reader here.
    assert [e.seq for e in page.events_since(ash.info.id)] == [1, 2]
    raw = sqlite3.connect(path)
    try:
        assert raw.execute("select count(*) from companion_events").fetchone()[0] == 2
    finally:
        raw.close()
    page.close()
    ash.store.close()  # type: ignore[union-attr]
    # Nothing committed is lost when every connection is gone.
    assert _other_process(path, "select group_concat(seq) from companion_events") == "1,2"


def test_a_damaged_file_is_still_refused_after_a_store_on_another_file_closed(
        tmp_path: Path) -> None:
    url = database_url(str(tmp_path / "good.db"))
    Store(url).close()
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not a database at all" * 10)
    with pytest.raises(StoreError, match="not an SQLite file"):
        Store(database_url(str(bad)))
    assert bad.read_bytes() == b"not a database at all" * 10
