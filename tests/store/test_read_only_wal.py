"""A database whose newest changes still wait in its WAL, left without its ``-shm`` index
in a read-only folder (issue 29): one line saying so and what to do, not SQLite's "unable
to open database file"; with the index there, or the folder writable, it is read."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from companion.store import open_campaign, open_store
from tests.store.test_hostile_store import _play, one_line, run

pytestmark = pytest.mark.timeout(120)


def _left_with_a_wal(tmp_path: Path) -> Path:
    """A copy of a database taken while its newest roll was still in the WAL (as a
    backup or a crash leaves it): the main file and the WAL, no ``-shm``."""
    source = tmp_path / "live" / "c.db"
    source.parent.mkdir()
    _play(str(source))
    copy = tmp_path / "copy" / "c.db"
    copy.parent.mkdir()
    with open_store(source) as store:
        open_campaign(store, "Tuesday").roll("1d20", seed=7)  # stays in the WAL
        shutil.copy(source, copy)
        shutil.copy(f"{source}-wal", f"{copy}-wal")
    assert Path(f"{copy}-wal").stat().st_size > 0 and not Path(f"{copy}-shm").exists()
    return copy


def _read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # Root may write anywhere: the test says what a player's read-only folder says.
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if mode == os.W_OK
                        else real_access(p, mode, **kw))


def test_a_waiting_wal_without_its_index_in_a_read_only_folder_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _left_with_a_wal(tmp_path)
    before = {p.name: p.read_bytes() for p in copy.parent.iterdir()}
    _read_only(monkeypatch)
    monkeypatch.setenv("COMPANION_DB", str(copy))
    for argv in (["campaign", "list"], ["log", "Tuesday"], ["campaign", "show", "Tuesday"]):
        err = one_line(*run(*argv))
        assert "unable to open" not in err
        # The store's path is shortened in a long message (a pytest worker's temporary
        # folder is long): its file name is what must show.
        assert err.startswith("error: c.db (in ")
        # A long message is shortened in its middle (a pytest worker's folder is long).
        assert "cannot be read in this" in err
        assert "open it once where the folder can be written" in err
    assert {p.name: p.read_bytes() for p in copy.parent.iterdir()} == before


def test_the_same_copy_is_read_whole_where_it_can_be_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _left_with_a_wal(tmp_path)
    monkeypatch.setenv("COMPANION_DB", str(copy))
    status, out, err = run("log", "Tuesday")
    assert status == 0 and not err and "1d20" in out  # the roll the WAL held
