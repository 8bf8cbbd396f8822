"""Another database's ``-wal`` beside a campaign file (issue 49): SQLite would apply it
to the file the moment it opened it, corrupting it for good. It is judged first, on a
scratch copy of the pair: refused in one line, the file and the WAL byte for byte as they
were (no ``-shm`` made either); the file's own WAL (a copy taken while a roll waited in
it) is still read, its newest roll included."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from companion.store import open_campaign, open_store
from tests.store.test_hostile_store import _play, one_line, run
from tests.store.test_read_only_wal import _left_with_a_wal

pytestmark = pytest.mark.timeout(120)


def _files(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


def _waiting_wal_of(db: Path, into: Path) -> None:
    """``db``'s WAL copied to ``into`` while its newest roll still waits in it."""
    with open_store(db) as store:
        open_campaign(store, "Tuesday").roll("1d20", seed=7)  # stays in the WAL
        shutil.copy(f"{db}-wal", into)


def test_another_database_s_wal_beside_the_file_is_refused_untouched(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ours = tmp_path / "ours" / "c.db"
    ours.parent.mkdir()
    _play(str(ours))
    assert not Path(f"{ours}-wal").exists()  # closed cleanly: all in the file
    other = tmp_path / "other" / "c.db"
    other.parent.mkdir()
    _play(str(other))
    _waiting_wal_of(other, Path(f"{ours}-wal"))
    before = _files(ours.parent)
    assert set(before) == {"c.db", "c.db-wal"}
    monkeypatch.setenv("COMPANION_DB", str(ours))
    for argv in (["campaign", "list"], ["log", "Tuesday"],
                 ["roll", "1d6", "--campaign", "Tuesday"]):
        err = one_line(*run(*argv))
        assert "the changes waiting in c.db-wal beside it do not hold with it" in err, err
        assert "Both files were left untouched: move c.db-wal away" in err, err
        assert _files(ours.parent) == before, argv
    # The WAL moved away: the file opens as it was, its log whole.
    Path(f"{ours}-wal").rename(tmp_path / "foreign-wal")
    status, out, err = run("log", "Tuesday")
    assert status == 0 and "2d6" in out, err


def test_the_file_s_own_waiting_wal_is_read(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _left_with_a_wal(tmp_path)  # its own WAL, no -shm: judged, and read
    monkeypatch.setenv("COMPANION_DB", str(copy))
    status, out, err = run("log", "Tuesday")
    assert status == 0 and "1d20" in out, err
