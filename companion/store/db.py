"""The store: campaigns and their events in SQLite or PostgreSQL, through SQLAlchemy Core.

One code path serves both databases; the only differences are set up in
[SqlStore.__init__][companion.store.db.SqlStore] (SQLite: WAL journal, ``BEGIN IMMEDIATE``
for writes, a busy timeout; PostgreSQL: psycopg 3, a lock timeout and ``NOTIFY`` on every
append).

A writer that lost a race takes the campaign's writer lock for its retry
([SqlStore.writer_lock][companion.store.db.SqlStore.writer_lock], issue 47): PostgreSQL
locks the campaign's row ``FOR UPDATE`` (every append updates that row, so an optimistic
append waits behind it and then finds the head moved), SQLite takes the file's write lock
with ``BEGIN IMMEDIATE``. The retry reads the fresh events and appends in that one
transaction, so it cannot lose again: every retry stores its move or meets a rule.
[SqlStore][companion.store.db.SqlStore] is one backend of the
[Store][companion.store.port.Store] port; ``Store`` here is its older name, kept.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import selectors
import sqlite3
import threading
import time
import urllib.parse
import zlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from companion.errors import clipped
from companion.store import schema
from companion.store.chain import ChainError, check_chain, event_hash, new_campaign_id, row_hash
from companion.store.port import StoreBase, canonical_json, chain_new, conflict, keep_apart
from companion.store.records import (
    LOCK_WAIT,
    MAX_DEPTH,
    MAX_NAME,
    CampaignInfo,
    ConflictError,
    LockWaitError,
    NewEvent,
    NoDatabaseError,
    StoredEvent,
    StoreError,
    check_seed,
    json_depth,
    json_too_deep,
    lock_wait_error,
    name_problem,
    name_taken,
    now_text,
)
from companion.store.schema import campaigns, events, meta, snapshots

if TYPE_CHECKING:
    from companion.store.permissions import SeatKey

__all__ = [
    "MAX_DEPTH",
    "MAX_NAME",
    "CampaignInfo",
    "ConflictError",
    "NewEvent",
    "NoDatabaseError",
    "SqlStore",
    "Store",
    "StoreError",
    "StoredEvent",
    "database_url",
    "default_path",
    "json_depth",
    "name_problem",
    "now_text",
    "open_store",
]

#: PostgreSQL channel on which every append is announced (payload: the campaign's id).
CHANNEL = "companion_events"

#: How many snapshots a campaign keeps (older ones are deleted; events are the truth).
SNAPSHOTS_KEPT = 2

#: Largest snapshot read (its JSON, uncompressed); a larger one is ignored (replayed).
MAX_SNAPSHOT_BYTES = 64_000_000

def default_path() -> Path:
    """``$XDG_DATA_HOME/table-companion/campaigns.db`` (``~/.local/share`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "table-companion" / "campaigns.db"


def database_url(db: str | os.PathLike[str] | None = None) -> str:
    """The SQLAlchemy URL for ``db``, else ``COMPANION_DB``, else the default file.

    ``postgresql://`` (or ``postgres://``) URLs get the psycopg 3 driver; anything else is
    an SQLite file path.
    """
    value = os.fspath(db) if db is not None else os.environ.get("COMPANION_DB", "")
    value = value.strip()
    if not value:
        return f"sqlite+pysqlite:///{default_path()}"
    if "\x00" in value:
        raise StoreError("COMPANION_DB holds a NUL character: not a file path or URL")
    for scheme in ("postgresql://", "postgres://", "postgresql+psycopg://"):
        if value.startswith(scheme):
            url = "postgresql+psycopg://" + value[len(scheme):]
            try:
                sa.make_url(url)
            except (ValueError, sa.exc.ArgumentError):
                raise StoreError("COMPANION_DB is not a usable postgresql:// URL (check its "
                                 "host, port and brackets)") from None
            return url
    for scheme in ("sqlite:///", "sqlite+pysqlite:///"):
        if value.startswith(scheme):  # an SQLAlchemy SQLite URL: its path, as a path
            value = value[len(scheme):]
            break
    else:
        if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", value) and "://" in value:
            raise StoreError("COMPANION_DB must be a file path or a postgresql:// URL, not "
                             f"{value.split(':')[0][:20]}:")
    try:
        path = Path(value).expanduser().resolve()
    except (OSError, RuntimeError, ValueError):
        raise StoreError("COMPANION_DB is not a usable file path") from None
    return f"sqlite+pysqlite:///{path}"


#: The kinds of event a log holds (as companion.store.campaign.EVENT_KINDS, which reads
#: rows through this module).
_EVENT_KINDS = ("add", "move", "undo", "set", "remove", "roll", "reveal", "sitting")

def _loads(text: Any) -> Any:
    """A stored JSON column, or ``None`` when it is not JSON text (a damaged row)."""
    if isinstance(text, bytes | bytearray | memoryview):
        return None  # a blob where text belongs
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if json_depth(value) <= MAX_DEPTH else None


_dumps = canonical_json


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()
    return text[0] if text else type(orig).__name__


def _millis(seconds: float) -> int:
    """A wait bound in whole milliseconds (at least one: 0 would mean no bound at all)."""
    return max(1, int(seconds * 1000))


def _waited_for_lock(exc: BaseException) -> bool:
    """Whether a database error is a wait for another writer's lock that ran out
    (PostgreSQL's ``lock_timeout``, SQLite's busy timeout)."""
    orig = getattr(exc, "orig", None)
    if getattr(orig, "sqlstate", None) == "55P03":  # lock_not_available
        return True
    return isinstance(orig, sqlite3.OperationalError) and (
        getattr(orig, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY
        or "database is locked" in str(orig))


#: How often a wait for another screen's move looks at SQLite's ``data_version``.
SQLITE_WATCH_SECONDS = 0.2


def _histories(copy: Path, *, strict: bool = False,
               through: dict[str, tuple[str, int, str]] | None = None
               ) -> dict[str, tuple[str, int, str]] | None:
    """A scratch copy's campaigns, each chain checked whole: uid -> (name, head, chain).
    ``strict=False``: ``None`` when the copy does not open or hold (a main file whose
    newest pages wait in its WAL, mid-checkpoint). ``through``: the file alone's
    campaigns; one that has grown since is given as (name, its old head, the hash its
    chain has there), so [_follows][companion.store.db._follows] compares like with
    like."""
    try:
        scratch = SqlStore(str(sa.URL.create("sqlite+pysqlite", database=str(copy))),
                           create=False, judge_wal=False)
    except StoreError:
        if strict:
            raise
        return None
    try:
        out = {}
        for info in scratch.list_campaigns():
            scratch.check_log(info)
            out[info.uid] = (info.name, info.head, info.chain)
            old = (through or {}).get(info.uid)
            if old is not None and 0 < old[1] < info.head:
                (first,) = scratch.events_since(info.id, old[1], limit=1)
                out[info.uid] = (info.name, old[1], first.prev)
        return out
    except StoreError:
        if strict:
            raise
        return None
    finally:
        scratch.close()


def _follows(before: dict[str, tuple[str, int, str]] | None,
             after: dict[str, tuple[str, int, str]]) -> None:
    """A WAL only adds to a log: every campaign of the file alone that is still there
    after it kept its history (its chain passes through its old head), and no name now
    holds another campaign (another database's WAL put in the file's place)."""
    if before is None:
        return
    names = {name: uid for uid, (name, _, _) in after.items()}
    for uid, (name, head, chain) in before.items():
        if uid not in after:
            if names.get(name, uid) != uid:
                raise StoreError(f"campaign {clipped(name)!r} would become another campaign "
                                 "(another identity)")
            continue
        if after[uid][1] < head:
            raise StoreError(f"campaign {clipped(name)!r} would lose its events after "
                             f"event {after[uid][1]}")
        if after[uid][2] != chain:
            raise StoreError(f"campaign {clipped(name)!r} would have another history")


class SqlStore(StoreBase):
    """Campaigns and their append-only event logs in one database: the SQL backend of the
    [Store][companion.store.port.Store] port.

    Open one with [open_store][companion.store.db.open_store]. Every method raises
    [StoreError][companion.store.db.StoreError] (one line) on a database problem.
    """

    def __init__(self, url: str, *, create: bool = True, judge_wal: bool = True) -> None:
        """Open the store at ``url``; with ``create=False`` (a command that only reads) an
        SQLite file that does not exist is refused, and nothing is created.
        ``judge_wal=False``: a scratch copy's own check
        ([_judge_waiting_wal][companion.store.db.SqlStore._judge_waiting_wal])."""
        try:
            self.url = sa.make_url(url)
        except (ValueError, sa.exc.ArgumentError):
            raise StoreError("the campaign database is not a usable file path or URL") from None
        self.read_only = False
        self.create = create
        #: Whether opening a campaign may store a snapshot (a cache); a command that only
        #: reads (show, export) sets it False and leaves the file as it was.
        self.keep_snapshots = True
        #: Whether SQLite's full integrity check passed (run before this store's first write).
        self._whole = False
        self.kind = "postgresql" if self.url.get_backend_name() == "postgresql" else "sqlite"
        self.path: Path | None = None
        #: The longest a write waits for another writer's lock (seconds).
        self.lock_wait = LOCK_WAIT
        # The transaction holding a campaign's writer lock, per thread (writer_lock).
        self._held = threading.local()
        # SQLite's change watchers: one connection per waiting thread (wait_for_change).
        self._watchers = threading.local()
        self._watcher_lock = threading.Lock()
        # Each with the thread it watches for (only that thread may close it while alive).
        self._watcher_conns: list[tuple[threading.Thread, Any]] = []
        # Bumped by close(): a watcher thread whose connection close() shut opens a new one.
        self._watcher_generation = 0
        #: A scratch copy in a folder of our own (judged for a waiting WAL): writable.
        self._scratch = not judge_wal
        if self.kind == "sqlite":
            if not self.url.database or self.url.database == ":memory:":
                raise StoreError("the SQLite store needs a file path")
            self.path = Path(self.url.database)
            self.where = str(self.path)
            if judge_wal:
                self._judge_waiting_wal()
        else:
            self.where = self.url.render_as_string(hide_password=True).replace(
                "postgresql+psycopg://", "postgresql://")
        try:
            self.engine = self._make_engine(create)
        except OSError as exc:  # a name too long, a path through a file...
            raise StoreError(f"cannot open {self.where}: {exc.strerror or exc}") from None
        try:
            with self._errors():
                self._check_and_prepare()
        except BaseException:
            self.engine.dispose()
            raise

    # -- engine and guards --------------------------------------------------------------

    def _judge_waiting_wal(self) -> None:
        """A ``-wal`` file waiting beside the database with no ``-shm`` index (no process
        has the database open: a copy, a crash, or another database's WAL put there) is
        applied by SQLite to the file the moment it opens it, whoever's it is: another
        database's WAL corrupts the file for good (issue 49). So it is judged first on a
        scratch copy of the pair: SQLite's check, the Table Companion's marker, and every
        campaign's whole chain. A pair that does not hold is refused in one line, and the
        database and its WAL are left byte for byte as they were."""
        import shutil
        import tempfile

        assert self.path is not None
        wal = Path(f"{self.path}-wal")
        try:
            waiting = self.path.is_file() and wal.is_file() and wal.stat().st_size > 0 \
                and not Path(f"{self.path}-shm").exists()
        except OSError:
            return  # the opening itself says what is wrong with the path
        if not waiting:
            return
        with tempfile.TemporaryDirectory(prefix="companion-wal-") as folder:
            alone, paired = Path(folder) / "alone" / "c.db", Path(folder) / "paired" / "c.db"
            try:
                for path in (alone, paired):
                    path.parent.mkdir()
                    shutil.copyfile(self.path, path)
                shutil.copyfile(wal, f"{paired}-wal")
            except OSError:
                return  # not readable here: SQLite's own opening says so
            before = _histories(alone)  # the file without its WAL: None if it needs it
            try:
                after = _histories(paired, strict=True, through=before)
                assert after is not None
                _follows(before, after)
            except StoreError as exc:
                why = str(exc).replace(str(paired), self.path.name)
                raise StoreError(
                    f"{self.where}: the changes waiting in {wal.name} beside it do not "
                    f"hold with it ({why[:200]}): it may be another database's WAL. Both "
                    f"files were left untouched: move {wal.name} away to open the "
                    "database as it is, or restore the pair from a backup") from None

    def _make_engine(self, create: bool) -> sa.Engine:
        if self.kind == "postgresql":
            pg = sa.create_engine(self.url, pool_pre_ping=True,
                                  connect_args={"connect_timeout": 10})

            # A write waits for another writer's lock at most lock_wait (PostgreSQL's own
            # default is for ever): set once per connection, and again for a write when
            # lock_wait changed since (no round trip more on the hot path).
            @sa.event.listens_for(pg, "connect")
            def _bound_waits(dbapi_connection: Any, record: Any) -> None:
                dbapi_connection.execute(f"SET lock_timeout = {_millis(self.lock_wait)}")
                dbapi_connection.commit()
                record.info["lock_wait"] = self.lock_wait

            @sa.event.listens_for(pg, "begin")
            def _changed_bound(conn: sa.Connection) -> None:
                if conn.get_execution_options().get("companion_write", False) and \
                        conn.connection.info.get("lock_wait") != self.lock_wait:
                    conn.exec_driver_sql(f"SET LOCAL lock_timeout = {_millis(self.lock_wait)}")

            return pg
        assert self.path is not None
        if self.path.exists() and self.path.is_dir():
            raise StoreError(f"{self.path} is a folder, not a campaign database")
        if self.path.exists() and not self.path.is_file():
            raise StoreError(f"{self.path} is not a campaign database (not a regular file); "
                             "it was left untouched")
        if not self.path.exists() and not create:
            raise NoDatabaseError(f"no campaign database at {self.path} yet ('campaign new "
                                  "NAME --ruleset RULESET' creates it)", str(self.path))
        if not self.path.exists():
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder for {self.path}: "
                                 f"{exc.strerror}") from None
        url = sa.URL.create("sqlite+pysqlite", database=str(self.path))
        if not self._scratch and self.path.exists() and not (
                os.access(self.path.parent, os.W_OK) and os.access(self.path, os.W_OK)):
            # A read-only file in a read-only folder: SQLite cannot make its WAL index
            # there, so read it as it is (immutable, when no WAL is waiting to be applied).
            self.read_only = True
            wal = Path(f"{self.path}-wal")
            waiting = wal.exists() and wal.stat().st_size > 0
            if waiting and not Path(f"{self.path}-shm").exists() \
                    and not os.access(self.path.parent, os.W_OK):
                # SQLite reads a waiting WAL only through its index (-shm), which it
                # cannot make in a read-only folder ("unable to open database file").
                raise StoreError(
                    f"{self.path.name} (in {self.path.parent}) cannot be read in this "
                    "read-only folder: its newest "
                    f"changes wait in {wal.name}, which SQLite reads only with a "
                    f"{self.path.name}-shm file it cannot make here; open it once where "
                    "the folder can be written (or copy both files there); it was left "
                    "untouched")
            flags = {"mode": "ro"} if waiting else {"immutable": "1"}
            url = sa.URL.create("sqlite+pysqlite",
                                database=f"file:{urllib.parse.quote(str(self.path))}",
                                query={**flags, "uri": "true"})
        engine = sa.create_engine(url, connect_args={"timeout": 30})

        @sa.event.listens_for(engine, "connect")
        def _connect(dbapi_connection: Any, record: Any) -> None:
            # Let SQLAlchemy's "begin" event, not the driver, start transactions.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA busy_timeout = 30000")
            cursor.execute("PRAGMA foreign_keys = ON")
            # WAL + NORMAL: a committed move survives a killed process (kill -9); only a
            # power cut can lose the last moments.
            cursor.execute("PRAGMA synchronous = NORMAL")
            if not self.read_only:
                cursor.execute("PRAGMA journal_size_limit = 1048576")
            cursor.close()

        @sa.event.listens_for(engine, "begin")
        def _begin(conn: sa.Connection) -> None:
            write = conn.get_execution_options().get("companion_write", False)
            if write:  # how long BEGIN IMMEDIATE waits for another writer (in-process)
                conn.exec_driver_sql(f"PRAGMA busy_timeout = {_millis(self.lock_wait)}")
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine

    @contextlib.contextmanager
    def _errors(self, campaign_id: int | None = None) -> Iterator[None]:
        try:
            yield
        except sa.exc.DatabaseError as exc:
            if _waited_for_lock(exc):
                raise self._lock_wait_error(campaign_id) from None
            text = _first_line(exc)
            if self.kind == "sqlite" and "file is not a database" in text:
                raise StoreError(f"{self.where} is not a campaign database (not an SQLite "
                                 "file); it was left untouched") from None
            if self.kind == "sqlite" and ("malformed" in text or "not a database" in text):
                raise StoreError(f"{self.where} is damaged ({text}); it was left untouched"
                                 ) from None
            if self.read_only and "readonly" in text.replace("-", "").replace(" ", ""):
                raise StoreError(f"{self.where} is read-only: it can be read, not changed"
                                 ) from None
            raise StoreError(f"database {self.where}: {text}") from None
        except sa.exc.SQLAlchemyError as exc:
            raise StoreError(f"database {self.where}: {_first_line(exc)}") from None

    def _lock_wait_error(self, campaign_id: int | None) -> LockWaitError:
        """The one line of a wait for another writer that ran out, naming the campaign."""
        name: str | None = None
        if campaign_id is not None:
            with contextlib.suppress(StoreError, sa.exc.SQLAlchemyError):
                with self._read() as conn:  # a read waits for no writer
                    found = conn.execute(sa.select(campaigns.c.name).where(
                        campaigns.c.id == campaign_id)).scalar()
                name = clipped(found) if isinstance(found, str) else None
        return lock_wait_error(self.where, name, self.lock_wait)

    @contextlib.contextmanager
    def writer_lock(self, campaign_id: int) -> Iterator[None]:
        """Make this thread the campaign's only writer until its next write (see the
        [Store][companion.store.port.Store] port): one transaction that holds the
        campaign's writer lock (PostgreSQL: its row ``FOR UPDATE``, waited for in turn;
        SQLite: ``BEGIN IMMEDIATE``), in which this thread's reads and its first write
        run; that write commits it. Left without a write, it writes nothing. Already
        held by this thread: the block runs in the held transaction."""
        if getattr(self._held, "now", None) is not None:
            yield
            return
        with self._errors(campaign_id), self.engine.connect() as conn:
            conn.execution_options(companion_write=True)
            trans = conn.begin()
            try:
                if self.kind == "sqlite" and not self._whole:
                    self._check_whole(conn)
                if self.kind == "postgresql" and conn.execute(
                        _LOCK_CAMPAIGN, {"cid": campaign_id}).first() is None:
                    raise StoreError("this campaign was deleted")
                self._held.now = (conn, trans)
                yield
            finally:
                self._held.now = None
                if trans.is_active:
                    trans.rollback()

    @contextlib.contextmanager
    def _write(self, campaign_id: int | None = None) -> Iterator[sa.Connection]:
        """A write transaction (``BEGIN IMMEDIATE`` on SQLite), committed on success. The
        first one of this store runs SQLite's full integrity check first (in the write
        transaction: nothing changes the file between the check and the write). Inside
        [writer_lock][companion.store.db.SqlStore.writer_lock] it is the held
        transaction, which it commits (and so hands the lock on)."""
        held = getattr(self._held, "now", None)
        if held is not None:
            conn, trans = held
            self._held.now = None  # this write ends the hold, committed or not
            with self._errors(campaign_id):
                try:
                    yield conn
                except BaseException:
                    with contextlib.suppress(sa.exc.SQLAlchemyError):
                        trans.rollback()
                    raise
                trans.commit()
            return
        with self._errors(campaign_id), self.engine.connect() as conn:
            conn.execution_options(companion_write=True)
            with conn.begin():
                if self.kind == "sqlite" and not self._whole:
                    self._check_whole(conn)
                yield conn

    def _check_whole(self, conn: sa.Connection) -> None:
        """SQLite's full integrity check (the quick check on open misses damage inside
        indexes and records): a file that fails it is never written to. About 8 ms for
        10,000 events; run once per store, before its first write."""
        rows = conn.exec_driver_sql("PRAGMA integrity_check(3)").all()
        problems = [str(r[0]) for r in rows if str(r[0]) != "ok"]
        if problems:
            first = " ".join(problems[0].replace("*** in database main ***", "").split())
            raise StoreError(f"{self.where} is damaged (SQLite's full check: {first[:120]}); "
                             "nothing was written to it")
        self._whole = True

    @contextlib.contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        held = getattr(self._held, "now", None)
        if held is not None:  # inside writer_lock: what the held transaction sees
            with self._errors():
                yield held[0]
            return
        with self._errors(), self.engine.connect() as conn, conn.begin():
            yield conn

    def close(self) -> None:
        """Release every connection (the database stays as it is). The store stays usable:
        a later read or write, or a watcher still waiting, opens a connection again."""
        self.engine.dispose()
        with self._watcher_lock:
            self._watcher_generation += 1
            # A connection another live thread may be using this instant is left to that
            # thread, which closes it at its next look (closing it from here crashed the
            # process: SQLite's connection is not safe to close under another thread's use).
            kept = []
            for thread, conn in self._watcher_conns:
                if thread is threading.current_thread() or not thread.is_alive():
                    conn.close()
                else:
                    kept.append((thread, conn))
            self._watcher_conns = kept

    def __repr__(self) -> str:
        """The database and its schema version, e.g. ``<Store sqlite /srv/c.db, schema
        3>``. A PostgreSQL URL shows only host, port and database: a repr lands in logs
        and tracebacks, so no user, password or options. Reads nothing: an open store's
        schema is this version (an older one was migrated, a newer one refused)."""
        if self.path is not None:
            name = f"sqlite {self.path}"
        else:
            port = f":{self.url.port}" if self.url.port else ""
            name = f"postgresql://{self.url.host or ''}{port}/{self.url.database or ''}"
        mode = ", read-only" if self.read_only else ""
        return f"<Store {name}, schema {schema.SCHEMA_VERSION}{mode}>"

    # -- schema: create, check, migrate ---------------------------------------------------

    def _check_and_prepare(self) -> None:
        self._judge_file()
        with self.engine.connect() as conn:
            names = set(sa.inspect(conn).get_table_names())
            conn.rollback()
        if meta.name not in names:
            ours = {t.name for t in schema.metadata.sorted_tables} & names
            if (self.kind == "sqlite" and names) or ours:
                what = "an SQLite database of another program" if self.kind == "sqlite" \
                    else "a database whose campaign tables are incomplete"
                raise StoreError(f"{self.where} is {what} (no Table Companion marker); "
                                 "it was left untouched: set COMPANION_DB to another database")
            if self.read_only:
                raise StoreError(f"{self.where} is not a campaign database (empty, and "
                                 "read-only: one cannot be made there)")
            marks = self._foreign_marks()
            if marks:
                raise StoreError(f"{self.where} is an SQLite database of another program "
                                 f"({marks}); it was left untouched: set COMPANION_DB to "
                                 "another database")
            if not self.create:
                # A command that only reads never makes a database: not in an empty file,
                # not in an empty PostgreSQL database.
                raise NoDatabaseError(f"no campaign database at {self.where} yet (it is "
                                      "empty; 'campaign new NAME --ruleset RULESET' makes "
                                      "one there)", self.where)
            self._create(schema.SCHEMA_VERSION)
            return
        version = self._version()
        if version > schema.SCHEMA_VERSION:
            raise StoreError(
                f"{self.where} was written by a newer Table Companion (schema version "
                f"{version}; this one reads up to {schema.SCHEMA_VERSION}): upgrade it; "
                "the database was left untouched")
        missing = [t.name for t in schema.tables_of_version(version) if t.name not in names]
        if missing:  # a dropped table: no count or list may pretend the log is there
            raise StoreError(f"{self.where} is damaged: its table {missing[0]} is missing; "
                             "it was left untouched")
        self._wal()
        if version < schema.SCHEMA_VERSION:
            self._migrate(version)

    def _judge_file(self) -> None:
        """Let SQLite judge its own file before anything is read or written: its quick check
        (in a read transaction: a consistent view, whatever other processes are writing).
        A file SQLite calls damaged is refused and never written to."""
        if self.kind != "sqlite":
            return
        with self.engine.connect() as conn:
            rows = conn.exec_driver_sql("PRAGMA quick_check(3)").all()
            conn.rollback()
        problems = [str(r[0]) for r in rows if str(r[0]) != "ok"]
        if problems:
            first = " ".join(problems[0].replace("*** in database main ***", "").split())
            raise StoreError(f"{self.where} is damaged (SQLite's check: {first[:120]}); it "
                             "was left untouched")

    def _foreign_marks(self) -> str:
        """What marks an empty SQLite file as another program's: a ``user_version`` or
        ``application_id`` set (ours sets neither), else ``""``."""
        if self.kind != "sqlite":
            return ""
        with self.engine.connect() as conn:
            marks = [(name, conn.exec_driver_sql(f"PRAGMA {name}").scalar())
                     for name in ("user_version", "application_id")]
            conn.rollback()
        return ", ".join(f"its {name} is {value}" for name, value in marks if value)

    def _version(self) -> int:
        with self._read() as conn:
            rows = {k: v for k, v in conn.execute(sa.select(meta.c.key, meta.c.value))}
        if rows.get("application") != schema.APPLICATION:
            raise StoreError(f"{self.where} belongs to another program (its marker says "
                             f"{rows.get('application')!r}); it was left untouched")
        text = rows.get("schema_version", "")
        # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
        if not isinstance(text, str) or not re.fullmatch(r"[0-9]{1,9}", text) \
                or int(text) < 1:
            raise StoreError(f"{self.where} is damaged (schema version {text!r}); "
                             "it was left untouched")
        return int(text)

    def _wal(self) -> None:
        if self.kind == "sqlite" and not self.read_only:
            with self.engine.connect() as conn:
                # Outside any transaction (SQLite refuses the switch inside one).
                cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
                mode = cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                cursor.close()
            if str(mode).lower() != "wal":
                raise StoreError(f"{self.where}: SQLite could not switch to WAL mode ({mode})")

    def _create(self, version: int) -> None:
        """Create an empty store of schema ``version`` (``1`` only in migration tests)."""
        self._wal()
        try:
            with self._write() as conn:
                for table in schema.tables_of_version(version):
                    table.create(conn, checkfirst=True)
                conn.execute(sa.insert(meta), [
                    {"key": "application", "value": schema.APPLICATION},
                    {"key": "schema_version", "value": str(version)},
                ])
                if version == schema.SCHEMA_VERSION:
                    schema.guard_older_writers(conn)
                    # A new database holds only facts: nothing for convert_store to look
                    # for (without the marker, it read every campaign's whole log on the
                    # first open: 400 MB for an import of 200,000 events).
                    from companion.store.upcast import FACTS_MARKER

                    conn.execute(sa.insert(meta).values(key=FACTS_MARKER[0],
                                                        value=FACTS_MARKER[1]))
        except StoreError as failed:
            # Another process may have created it at the same moment: accept theirs. Else
            # the creation's own error says why (a file that cannot hold a database).
            try:
                theirs = self._version()
            except StoreError:
                raise failed from None
            if theirs != version:
                raise

    def _migrate(self, version: int) -> None:
        """Upgrade the database from ``version``, in one transaction. The schema version's
        row is locked first (PostgreSQL: ``FOR UPDATE``; SQLite: the write lock), so two
        processes of this version opening it at once upgrade it once: the second waits
        for the first, then finds it done (issue 49: both used to alter the tables, and
        the second failed with 'column already exists'). A writer of an older version
        holding a transaction is waited for, up to ``lock_wait``, then one line."""
        try:
            self._migrate_locked()
        except LockWaitError:
            raise LockWaitError(
                f"{self.where}: its upgrade to schema version {schema.SCHEMA_VERSION} "
                f"waited over {self.lock_wait:g} s for another writer (a program of an "
                "older version still running?): nothing was changed; stop that program, "
                "or let it finish, and try again") from None

    def _migrate_locked(self) -> None:
        with self._write() as conn:
            text = str(conn.execute(
                sa.select(meta.c.value).where(meta.c.key == "schema_version")
                .with_for_update()).scalar_one())
            if not re.fullmatch(r"[0-9]{1,9}", text):
                raise StoreError(f"{self.where} is damaged (schema version {text[:20]!r}); "
                                 "it was left untouched")
            current = int(text)
            while current < schema.SCHEMA_VERSION:
                schema.MIGRATIONS[current](conn)
                current += 1
            conn.execute(sa.update(meta).where(meta.c.key == "schema_version")
                         .values(value=str(current)))

    def schema_version(self) -> int:
        """The schema version of the open database."""
        with self._errors():
            return self._version()

    # -- campaigns --------------------------------------------------------------------------

    def _info(self, row: Any) -> CampaignInfo:
        """A campaign row, checked: a damaged one is one line naming the campaign."""
        name = row.name if isinstance(row.name, str) else f"number {row.id}"
        rulesets = _loads(row.rulesets)
        if not isinstance(row.name, str) or name_problem(row.name) is not None:
            problem = "its name is not text"
        elif not (isinstance(rulesets, list) and rulesets
                  and all(isinstance(r, str) for r in rulesets)):
            problem = "its rulesets are not a list of names"
        elif not isinstance(row.created_at, str):
            problem = "its creation time is not text"
        elif type(row.head) is not int or row.head < 0:
            problem = "its event count is not a whole number"
        elif not isinstance(row.uid, str) or not isinstance(row.chain, str):
            problem = "its identity or chain head is missing"
        else:
            return CampaignInfo(row.id, row.name, tuple(rulesets), row.created_at, row.head,
                                row.uid, row.chain)
        raise StoreError(f"{self.where} is damaged: campaign {name!r}: {problem}")

    def create_campaign(self, name: str, rulesets: Sequence[str],
                        created: str | None = None) -> CampaignInfo:
        """Create an empty campaign (with a new random identity); refuses a name taken."""
        name = self.check_name(name)
        self.check_rulesets(rulesets)
        try:
            with self._write() as conn:
                self._insert_campaign(conn, name, rulesets, created or now_text(), 0,
                                      new_campaign_id(), "")
        except StoreError:
            if self.find_campaign(name) is not None:  # a race: the row came meanwhile
                raise name_taken("campaign", name, name) from None
            raise
        return self.get_campaign(name)

    def _insert_campaign(self, conn: sa.Connection, name: str, rulesets: Sequence[str],
                         created: str, head: int, uid: str, chain: str) -> int:
        from companion.names import lookalike_in  # the one rule for names (issue 33)

        # Every name is read (a campaign list is short): "TUESDAY" or a Cyrillic "Tuesdаy"
        # next to "Tuesday" would be a second table people take for the first.
        taken = lookalike_in(name, conn.execute(sa.select(campaigns.c.name)).scalars())
        if taken is not None:
            raise name_taken("campaign", name, taken)
        result = conn.execute(sa.insert(campaigns).values(
            name=name, rulesets=_dumps(list(rulesets)), created_at=created, head=head,
            uid=uid, chain=chain))
        key = result.inserted_primary_key
        assert key is not None
        return int(key[0])

    def list_campaigns(self) -> list[CampaignInfo]:
        """Every campaign, by name."""
        with self._read() as conn:
            rows = conn.execute(sa.select(campaigns).order_by(campaigns.c.name)).all()
        return [self._info(r) for r in rows]

    def find_campaign(self, name: str) -> CampaignInfo | None:
        with self._read() as conn:
            row = conn.execute(sa.select(campaigns).where(
                campaigns.c.name == " ".join(name.split()))).first()
        return self._info(row) if row is not None else None

    def delete_campaign(self, name: str) -> None:
        """Delete a campaign with all its events and snapshots."""
        info = self.get_campaign(name)
        with self._write() as conn:
            for table in (snapshots, events, schema.sitting_secrets):
                conn.execute(sa.delete(table).where(table.c.campaign_id == info.id))
            conn.execute(sa.delete(campaigns).where(campaigns.c.id == info.id))

    def check_count(self, info: CampaignInfo) -> None:
        """Refuse (one line naming the first missing event) a campaign whose stored events
        are not exactly 1..head: a deleted row, a head that disagrees. Two aggregates on the
        primary key; the numbers are read only when something is wrong."""
        def of_events(what: Any) -> Any:
            return (sa.select(what).where(events.c.campaign_id == info.id)
                    .scalar_subquery())

        # One statement: the head and the rows seen at one moment (other writers may be
        # appending; PostgreSQL gives each statement its own snapshot).
        query = sa.select(campaigns.c.head, of_events(sa.func.count()),
                          of_events(sa.func.min(events.c.seq)),
                          of_events(sa.func.max(events.c.seq))).where(
                              campaigns.c.id == info.id)
        with self._read() as conn:
            row = conn.execute(query).first()
            if row is None:
                raise StoreError("this campaign was deleted")
            head, count, low, high = row
            if count == head and (count == 0 or (low == 1 and high == head)):
                return
            seqs = conn.execute(sa.select(events.c.seq).where(events.c.campaign_id == info.id)
                                .order_by(events.c.seq)).scalars().all()
        if type(head) is not int:
            raise StoreError(f"{self.where} is damaged: campaign {clipped(info.name)!r}: its "
                             "event count is not a whole number")
        raise StoreError(f"{self.where} is damaged: campaign {clipped(info.name)!r}: "
                         + _count_problem([s for s in seqs if s <= max(head, count)], head))

    def check_log(self, info: CampaignInfo) -> None:
        """Refuse a campaign whose log is not whole, before anything is read from it or
        written to it: [check_count][companion.store.db.SqlStore.check_count], then the
        whole chain, event 1 to ``info.head``, against the head the campaign records (a
        changed event anywhere, before the newest snapshot too, is named).

        The walk reads the rows' columns as stored and hashes them without decoding their
        data ([row_hash][companion.store.chain.row_hash]): about 7 ms per 1,000 events
        (see benchmarks/RESULTS.md). Events 1..head never change once committed, so other
        writers appending meanwhile do not disturb it (``info`` was read in one row)."""
        self.check_count(info)
        query = (sa.select(*_CHAIN_COLUMNS)
                 .where(events.c.campaign_id == info.id, events.c.seq <= info.head)
                 .order_by(events.c.seq))
        try:
            with self._read() as conn:
                # In batches (a server-side cursor on PostgreSQL): a long log is never held
                # in memory at once.
                result = conn.execute(query.execution_options(yield_per=2000))
                self._walk(info, result)
        except ChainError as exc:
            raise ChainError(f"{self.where} is damaged: campaign {clipped(info.name)!r}: "
                             f"{exc}") from None

    def _walk(self, info: CampaignInfo, rows: Iterable[Any]) -> None:
        uid, prev, before = info.uid, "", None
        expected = 1
        for row in rows:
            seq, at, who, role, kind, tracker, move, seed, data, stored_prev = row
            if seq != expected or stored_prev != prev:
                # Perhaps only the quick hash differs (a row spelled otherwise): the exact
                # check of the two events names the first bad one, or passes them.
                prev = self._exact(info, [row], prev, expected) if before is None else \
                    self._exact(info, [before, row], before.prev, expected - 1)
            else:
                try:
                    prev = row_hash(uid, seq, at, who, role, kind, tracker, move, seed, data,
                                    stored_prev)
                except (TypeError, ValueError):
                    prev = self._exact(info, [row], prev, expected)  # a damaged row: named
            before, expected = row, expected + 1
        if prev != info.chain and before is not None:
            prev = self._exact(info, [before], before.prev, expected - 1, head=True)
        check_chain(uid, [], prev=prev, first=expected, head=(info.head, info.chain))

    def _exact(self, info: CampaignInfo, rows: list[Any], prev: str, first: int, *,
               head: bool = False) -> str:
        """The exact check of ``rows`` (decoded), numbered from ``first`` and following
        ``prev``: the last one's hash, else the one-line problem."""
        stored = []
        for row in rows:
            try:
                stored.append(self._stored(row))
            except ValueError as exc:
                raise self._damaged_event(info.id, row, str(exc)) from None
        return check_chain(info.uid, stored, prev=prev, first=first,
                           head=(info.head, info.chain) if head else None)

    def head(self, campaign_id: int) -> int:
        """The campaign's last event number: a cheap change token to poll."""
        with self._read() as conn:
            value = conn.execute(_HEAD, {"cid": campaign_id}).scalar()
        if value is None:
            raise StoreError("this campaign was deleted")
        if type(value) is not int:
            raise StoreError(f"{self.where} is damaged: campaign number {campaign_id}: its "
                             "event count is not a whole number")
        return value

    # -- events ----------------------------------------------------------------------------

    @staticmethod
    def _rows(campaign_id: int, stored: Sequence[StoredEvent]) -> list[dict[str, Any]]:
        """The table rows of events numbered and chained by
        [chain_new][companion.store.port.chain_new] (as every backend numbers them)."""
        return [{"campaign_id": campaign_id, "seq": e.seq, "at": e.at, "who": e.who,
                 "role": e.role, "kind": e.kind, "tracker": e.tracker, "move": e.move,
                 "seed": e.seed, "data": _dumps(e.data), "prev": e.prev} for e in stored]

    @staticmethod
    def _stored(row: Any) -> StoredEvent:
        """An event row as an event; ``ValueError`` saying what is wrong with a damaged one."""
        data = _loads(row.data)
        if type(row.seq) is not int:
            raise ValueError("its number is not a whole number")
        if not isinstance(data, dict):
            raise ValueError("its data is not a JSON object")
        for key in ("at", "who", "role", "kind"):
            if not isinstance(getattr(row, key), str):
                raise ValueError(f"its {key!r} is not text")
        if row.kind not in _EVENT_KINDS:
            raise ValueError(f"its kind {clipped(row.kind, 20)!r} is not a kind of event")
        for key in ("tracker", "move"):
            if getattr(row, key) is not None and not isinstance(getattr(row, key), str):
                raise ValueError(f"its {key!r} is not text")
        if row.seed is not None and type(row.seed) is not int:
            raise ValueError("its seed is not a whole number")
        if not isinstance(row.prev, str):
            raise ValueError("it carries no chain (the hash of the event before it)")
        return StoredEvent(row.seq, row.at, row.who, row.role, row.kind, row.tracker, row.move,
                           row.seed, data, row.prev)

    def _damaged_event(self, campaign_id: int, row: Any, problem: str) -> StoreError:
        """One line naming the campaign and the event a damaged row is."""
        try:
            with self._read() as conn:
                name = conn.execute(sa.select(campaigns.c.name).where(
                    campaigns.c.id == campaign_id)).scalar()
        except StoreError:
            name = None
        shown = name if isinstance(name, str) else f"number {campaign_id}"
        return StoreError(f"{self.where} is damaged: campaign {clipped(shown)!r}, event "
                          f"{getattr(row, 'seq', '?')}: {problem}")

    def append(self, campaign_id: int, new: Sequence[NewEvent],
               expected_seq: int, *, seat: SeatKey | None = None) -> list[StoredEvent]:
        """Append events in one transaction, numbered from ``expected_seq + 1``.

        Raises [ConflictError][companion.store.db.ConflictError] (nothing written) if the
        campaign's head is no longer ``expected_seq``: someone else appended first; with
        ``seat``, [SeatError][companion.store.permissions.SeatError] if that seat no
        longer holds (read in the same transaction).
        """
        for e in new:
            check_seed(e.seed)  # refused before anything is written (even on a conflict)
        new, kept, closed = keep_apart(new)  # a sitting's seed: beside the log (issue 49)
        with self._write(campaign_id) as conn:
            if seat is not None:
                self._check_seat(conn, campaign_id, seat)
            done = conn.execute(_MOVE_HEAD, {"cid": campaign_id, "expected": expected_seq,
                                             "new_head": expected_seq + len(new)})
            if done.rowcount != 1:
                # A head no events reach is damage, not a conflict: retrying would only
                # meet it again ("keeps changing" was the answer before).
                self._check_head(conn, campaign_id)
                head = conn.execute(_HEAD, {"cid": campaign_id}).scalar()
                if head is None:
                    raise StoreError("this campaign was deleted")
                raise conflict(head, expected_seq)
            # The row is ours now (SQLite: the write lock; PostgreSQL: the row lock the
            # update took): its chain head is the one the new events follow.
            uid, prev = conn.execute(_CHAIN, {"cid": campaign_id}).one()
            if expected_seq:  # the newest event is there and is the one recorded
                self._check_newest(conn, campaign_id, expected_seq, uid, prev)
            stored = chain_new(uid, prev, expected_seq + 1, new)
            if stored:
                conn.execute(_INSERT_EVENTS, self._rows(campaign_id, stored))
                conn.execute(_SET_CHAIN, {"cid": campaign_id,
                                          "chain": event_hash(uid, stored[-1])})
                self._keep_secrets(conn, campaign_id, kept, closed)
            if self.kind == "postgresql":
                conn.execute(_NOTIFY, {"payload": str(campaign_id)})
        return stored

    @staticmethod
    def _keep_secrets(conn: sa.Connection, campaign_id: int, kept: dict[str, str],
                      closed: set[str]) -> None:
        """The sitting records of an append, in its transaction: the seeds of the sittings
        it opens kept, those of the sittings it closes deleted."""
        table = schema.sitting_secrets
        if closed:
            conn.execute(sa.delete(table).where(table.c.campaign_id == campaign_id,
                                                table.c.server_hash.in_(sorted(closed))))
        if kept:
            conn.execute(sa.delete(table).where(table.c.campaign_id == campaign_id,
                                                table.c.server_hash.in_(sorted(kept))))
            conn.execute(sa.insert(table), [
                {"campaign_id": campaign_id, "server_hash": digest, "server_seed": seed}
                for digest, seed in kept.items()])

    def sitting_secret(self, campaign_id: int, server_hash: str) -> str | None:
        """The server seed of the campaign's sitting that published ``server_hash``, while
        it is open (``None``: not kept here)."""
        table = schema.sitting_secrets
        with self._read() as conn:
            found = conn.execute(sa.select(table.c.server_seed).where(
                table.c.campaign_id == campaign_id,
                table.c.server_hash == server_hash)).scalar()
        return found if isinstance(found, str) else None

    def _check_head(self, conn: sa.Connection, campaign_id: int) -> None:
        """Refuse, naming the damage, a campaign whose recorded count its events do not
        reach (read in the caller's transaction, in one statement: on PostgreSQL each
        statement sees the commits made before it, and other writers are appending)."""
        def of_events(what: Any) -> Any:
            return (sa.select(what).where(events.c.campaign_id == campaign_id)
                    .scalar_subquery())

        row = conn.execute(sa.select(campaigns.c.head, of_events(sa.func.count()),
                                     of_events(sa.func.max(events.c.seq))).where(
                                         campaigns.c.id == campaign_id)).first()
        if row is None:
            raise StoreError("this campaign was deleted")
        head, count, high = row
        if type(head) is int and count == head and (high or 0) == head:
            return
        raise self._damaged_count(conn, campaign_id, head, count)

    def _damaged_count(self, conn: sa.Connection, campaign_id: int, head: Any,
                       count: int) -> StoreError:
        name = conn.execute(sa.select(campaigns.c.name).where(
            campaigns.c.id == campaign_id)).scalar()
        shown = clipped(name if isinstance(name, str) else f"number {campaign_id}")
        if type(head) is not int:
            return StoreError(f"{self.where} is damaged: campaign {shown!r}: its event count "
                              "is not a whole number")
        seqs = conn.execute(sa.select(events.c.seq).where(events.c.campaign_id == campaign_id)
                            .order_by(events.c.seq)).scalars().all()
        return StoreError(f"{self.where} is damaged: campaign {shown!r}: "
                          + _count_problem([q for q in seqs if q <= max(head, count)], head)
                          + "; nothing was written")

    def _check_newest(self, conn: sa.Connection, campaign_id: int, seq: int, uid: str,
                      chain: str) -> None:
        """Before an append: event ``seq`` (the newest) is stored and its hash is the head
        the campaign records. One lookup by primary key: a deleted or changed newest event
        is found before anything follows it (older ones are walked on every open)."""
        row = conn.execute(_NEWEST, {"cid": campaign_id, "seq": seq}).first()
        if row is None:
            count = conn.execute(sa.select(sa.func.count()).where(
                events.c.campaign_id == campaign_id)).scalar_one()
            raise self._damaged_count(conn, campaign_id, seq, count)
        try:
            seq_, at, who, role, kind, tracker, move, seed, data, prev = row
            same = row_hash(uid, seq_, at, who, role, kind, tracker, move, seed, data,
                            prev) == chain
        except (TypeError, ValueError):
            same = False
        if not same:  # perhaps only spelled otherwise: the exact check decides
            try:
                stored = self._stored(_Obj(dict(zip(_CHAIN_NAMES, row, strict=True))))
            except ValueError as exc:
                raise self._damaged_event(campaign_id, row, str(exc)) from None
            if event_hash(uid, stored) != chain:
                name = conn.execute(sa.select(campaigns.c.name).where(
                    campaigns.c.id == campaign_id)).scalar()
                raise ChainError(f"{self.where} is damaged: campaign "
                                 f"{clipped(str(name))!r}: event {seq} is not the one the "
                                 "campaign recorded as its newest (changed or replaced); "
                                 "nothing was written")

    def events_since(self, campaign_id: int, seq: int = 0, limit: int | None = None,
                     kinds: Sequence[str] = ()) -> list[StoredEvent]:
        """The campaign's events after number ``seq``, oldest first (only ``kinds`` if given)."""
        query = (sa.select(events).where(events.c.campaign_id == campaign_id,
                                         events.c.seq > seq).order_by(events.c.seq))
        if kinds:
            query = query.where(events.c.kind.in_(list(kinds)))
        if limit is not None:
            query = query.limit(limit)
        with self._read() as conn:
            rows = conn.execute(query).all()
        out = []
        for row in rows:  # every row is checked: a damaged one is one line, never a crash
            try:
                out.append(self._stored(row))
            except ValueError as exc:
                raise self._damaged_event(campaign_id, row, str(exc)) from None
        return out

    def latest_snapshot(self, campaign_id: int) -> tuple[int, dict[str, Any]] | None:
        """The newest readable snapshot as ``(seq, state)``, or None."""
        with self._read() as conn:
            rows = conn.execute(sa.select(snapshots.c.seq, snapshots.c.data)
                                .where(snapshots.c.campaign_id == campaign_id)
                                .order_by(snapshots.c.seq.desc())).all()
        for seq, blob in rows:
            try:
                # Bounded before decoding (a blob may inflate a thousandfold; the state of
                # a real campaign is far smaller) and by depth, never a RecursionError.
                text = zlib.decompressobj().decompress(blob, MAX_SNAPSHOT_BYTES + 1)
                if len(text) > MAX_SNAPSHOT_BYTES or json_too_deep(text, MAX_DEPTH):
                    continue
                data = json.loads(text)
            except (zlib.error, ValueError, RecursionError, TypeError):
                continue  # a damaged cache: an older snapshot or the events will do
            if isinstance(data, dict):
                return int(seq), data
        return None

    def put_snapshot(self, campaign_id: int, seq: int, state: dict[str, Any]) -> None:
        """Keep ``state`` as the campaign's state after event ``seq`` (older ones pruned)."""
        blob = zlib.compress(_dumps(state).encode(), 6)
        with self._write() as conn:
            if conn.execute(sa.select(snapshots.c.seq).where(
                    snapshots.c.campaign_id == campaign_id, snapshots.c.seq == seq)).first():
                return
            conn.execute(sa.insert(snapshots).values(campaign_id=campaign_id, seq=seq,
                                                     data=blob))
            kept = conn.execute(sa.select(snapshots.c.seq)
                                .where(snapshots.c.campaign_id == campaign_id)
                                .order_by(snapshots.c.seq.desc())
                                .limit(SNAPSHOTS_KEPT)).scalars().all()
            conn.execute(sa.delete(snapshots).where(snapshots.c.campaign_id == campaign_id,
                                                    snapshots.c.seq < min(kept)))

    def import_campaign(self, name: str, rulesets: Sequence[str], created: str,
                        new: Iterable[NewEvent], uid: str | None = None) -> CampaignInfo:
        """Create a campaign holding ``new`` (already checked), in one transaction, chained
        under the identity ``uid`` (the exported campaign's: the same chain and head).
        ``new`` may be a stream (an import read from a file): its events are written a
        thousand at a time as they come, and an error raised by it writes nothing."""
        name = self.check_name(name)
        uid = uid or new_campaign_id()
        with self._write() as conn:
            cid = self._insert_campaign(conn, name, rulesets, created, 0, uid, "")
            head, last = 0, ""
            batch: list[NewEvent] = []
            for event in itertools.chain(new, [None]):  # streamed: 1,000 rows at a time
                if event is not None:
                    batch.append(event)
                if len(batch) == 1000 or (event is None and batch):
                    stored = chain_new(uid, last, head + 1, batch)
                    conn.execute(sa.insert(events), self._rows(cid, stored))
                    last = event_hash(uid, stored[-1])
                    head += len(batch)
                    batch = []
            conn.execute(sa.update(campaigns).where(campaigns.c.id == cid)
                         .values(head=head, chain=last))
        return self.get_campaign(name)

    # -- waiting for changes ----------------------------------------------------------------

    def wait_for_change(self, campaign_id: int, seq: int, timeout: float) -> int:
        """Block until the campaign's head passes ``seq`` or ``timeout`` seconds pass.

        Returns the head. PostgreSQL: ``LISTEN``/``NOTIFY`` (no polling); SQLite: a look
        at ``PRAGMA data_version`` every 0.2 s on a connection of the waiting thread's own
        (it changes when any other connection commits: a few microseconds, no read of the
        tables), and a read of the head only then.
        """
        deadline = time.monotonic() + max(0.0, timeout)
        if self.path is not None:
            return self._wait_on_data_version(campaign_id, seq, deadline)
        if self.kind == "postgresql":
            with self._errors(), self.engine.connect() as conn:
                conn.execution_options(isolation_level="AUTOCOMMIT")
                conn.exec_driver_sql(f"LISTEN {CHANNEL}")
                raw: Any = conn.connection.dbapi_connection
                # A selector, not select.select: a busy server holds more than 1,024 open
                # files, and select() refuses any descriptor past that.
                with selectors.DefaultSelector() as watch:
                    watch.register(raw.fileno(), selectors.EVENT_READ)
                    while True:
                        head = self.head(campaign_id)
                        left = deadline - time.monotonic()
                        if head > seq or left <= 0:
                            conn.exec_driver_sql(f"UNLISTEN {CHANNEL}")
                            return head
                        watch.select(left)
                        for _ in raw.notifies(timeout=0):
                            pass
        return self.poll_for_change(campaign_id, seq, max(0.0, deadline - time.monotonic()))

    def _wait_on_data_version(self, campaign_id: int, seq: int, deadline: float) -> int:
        version = self._data_version()
        head = self.head(campaign_id)  # whatever landed before this wait began
        while head <= seq:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(SQLITE_WATCH_SECONDS, left))
            now = self._data_version()
            if now != version:
                version = now
                head = self.head(campaign_id)
        return head

    def _data_version(self) -> int:
        """SQLite's count of other connections' commits, as this thread's watcher
        connection sees it (one per waiting thread, kept open: the count is per
        connection, so a pooled one would look changed every time)."""
        import sqlite3  # the SQL store's own driver; loaded with it, never in the browser

        conn = getattr(self._watchers, "conn", None)
        try:
            if conn is None or self._watchers.generation != self._watcher_generation:
                assert self.path is not None
                me = threading.current_thread()
                with self._watcher_lock:
                    if conn is not None:  # this thread's own, from before a close()
                        self._watcher_conns = [(t, c) for t, c in self._watcher_conns
                                               if c is not conn]
                        conn.close()
                    conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro",
                                           uri=True, check_same_thread=False)
                    self._watchers.conn = conn
                    self._watchers.generation = self._watcher_generation
                    self._watcher_conns.append((me, conn))
            return int(conn.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error as exc:
            raise StoreError(f"cannot watch {self.path} for changes: {exc}") from None

    # -- size -----------------------------------------------------------------------------

    def size_on_disk(self) -> int:
        """Bytes the campaigns take: SQLite, the file and its WAL; PostgreSQL, the store's
        tables with their indexes."""
        if self.path is not None:
            return sum(p.stat().st_size for p in (self.path, Path(f"{self.path}-wal"))
                       if p.exists())
        total = 0
        with self._read() as conn:
            for table in schema.metadata.sorted_tables:  # our tables, indexes and TOAST
                total += int(conn.execute(sa.select(sa.func.pg_total_relation_size(
                    sa.literal_column(f"'{table.name}'::regclass")))).scalar_one())
        return total

    # -- events as facts: the one-time conversion of older logs ---------------------------

    def meta_value(self, key: str) -> str | None:
        """A value of the store's marker table (``None`` when unset)."""
        with self._read() as conn:
            value = conn.execute(sa.select(meta.c.value).where(meta.c.key == key)).scalar()
        return None if value is None else str(value)

    def rewrite_events(self, changed: dict[int, Sequence[StoredEvent]],
                       marker: tuple[str, str]) -> None:
        """Replace the data of the given events (by campaign id) and set ``marker`` in one
        transaction; the campaigns' snapshots go (a cache, rebuilt on open). Used once
        per database by the conversion of command events to facts."""
        with self._write() as conn:
            key, value = marker
            if conn.execute(sa.select(meta.c.value).where(meta.c.key == key)).scalar() == value:
                return  # another process converted it first
            for campaign_id, stored in changed.items():
                for event in stored:
                    conn.execute(sa.update(events).where(
                        events.c.campaign_id == campaign_id, events.c.seq == event.seq)
                        .values(data=_dumps(event.data), seed=event.seed))
                conn.execute(sa.delete(snapshots).where(snapshots.c.campaign_id == campaign_id))
                self._rechain(conn, campaign_id)
            conn.execute(sa.delete(meta).where(meta.c.key == key))
            conn.execute(sa.insert(meta).values(key=key, value=value))

    def _rechain(self, conn: sa.Connection, campaign_id: int) -> None:
        """Chain a campaign's events again after a conversion rewrote them (the chain
        proves what happened since the conversion; the copy kept beside the file, what
        was there before)."""
        from companion.store.upcast import chain_events

        uid = conn.execute(_CHAIN, {"cid": campaign_id}).one()[0]
        rows = conn.execute(sa.select(events).where(events.c.campaign_id == campaign_id)
                            .order_by(events.c.seq)).all()
        try:
            stored = [self._stored(r) for r in rows]
        except ValueError as exc:
            raise StoreError(f"{self.where} is damaged: campaign number {campaign_id}: "
                             f"{exc}") from None
        chained = chain_events(uid, stored)
        if chained:
            conn.execute(sa.update(events).where(
                events.c.campaign_id == sa.bindparam("cid"), events.c.seq == sa.bindparam("s"))
                .values(prev=sa.bindparam("p")),
                [{"cid": campaign_id, "s": e.seq, "p": e.prev} for e in chained])
            conn.execute(_SET_CHAIN, {"cid": campaign_id,
                                      "chain": event_hash(uid, chained[-1])})

    def backup_copy(self, suffix: str) -> Path | None:
        """A consistent copy of the SQLite file beside it (``<file><suffix>``, SQLite's own
        backup, safe while others write); ``None`` for PostgreSQL (the conversion's one
        transaction is its safety there). An existing copy is kept, not overwritten."""
        if self.path is None:
            return None
        target = self.path.with_name(self.path.name + suffix)
        if target.exists():
            return target
        import sqlite3

        partial = target.with_name(target.name + ".partial")
        try:
            source = sqlite3.connect(str(self.path), timeout=30)
            try:
                copy = sqlite3.connect(str(partial))
                try:
                    source.backup(copy)
                finally:
                    copy.close()
            finally:
                source.close()
            os.replace(partial, target)
        except (OSError, sqlite3.Error) as exc:
            partial.unlink(missing_ok=True)
            raise StoreError(f"cannot keep a copy of {self.path} before converting it "
                             f"({exc}); it was left untouched") from None
        return target

    # -- seats (issue 19; the rules and secrets are in companion.store.seats) -------------

    def seat_rows(self, campaign_id: int) -> list[tuple[str, str, str, str, str | None]]:
        """The campaign's seats as ``(who, role, secret_hash, created, revoked)``, by name."""
        from companion.store.schema import seats

        with self._read() as conn:
            rows = conn.execute(sa.select(seats.c.who, seats.c.role, seats.c.secret_hash,
                                          seats.c.created_at, seats.c.revoked_at)
                                .where(seats.c.campaign_id == campaign_id)
                                .order_by(seats.c.who)).all()
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def put_seat(self, campaign_id: int, who: str, role: str, secret_hash: str, *,
                 by: SeatKey | None = None) -> None:
        """Make or renew the seat ``who`` (a name differing only in case is the same seat).
        ``by``: the seat doing it, checked in this same transaction (issue 28)."""
        from companion.store.permissions import same_name  # the one name rule
        from companion.store.schema import seats

        with self._write() as conn:
            if by is not None:
                self._check_manager(conn, campaign_id, by)
            names = conn.execute(sa.select(seats.c.who)
                                 .where(seats.c.campaign_id == campaign_id)).scalars().all()
            conn.execute(sa.delete(seats).where(
                seats.c.campaign_id == campaign_id,
                seats.c.who.in_([n for n in names if same_name(n, who)])))
            conn.execute(sa.insert(seats).values(
                campaign_id=campaign_id, who=who, role=role, secret_hash=secret_hash,
                created_at=now_text(), revoked_at=None))

    def _check_seat(self, conn: sa.Connection, campaign_id: int, seat: SeatKey) -> None:
        """Refuse the write of a seat revoked or renewed meanwhile (issue 28). On
        PostgreSQL the rows are read ``FOR SHARE``: a revocation waits for this write to
        commit, so none slips between the check and the commit (SQLite's write lock,
        taken at ``BEGIN IMMEDIATE``, already orders them)."""
        from companion.store.permissions import SeatError, seat_gone

        query = _SEATS_SHARED if self.kind == "postgresql" else _SEATS
        refusal = seat_gone(conn.execute(query, {"cid": campaign_id}).all(), seat)
        if refusal is not None:
            raise SeatError(refusal)

    def _check_manager(self, conn: sa.Connection, campaign_id: int, by: SeatKey) -> None:
        """Refuse a change of the seats by a seat revoked or renewed meanwhile, read in
        the change's own transaction (issue 28: no check-then-act). On PostgreSQL the
        campaign's seat rows are locked ``FOR UPDATE``: two GMs managing seats at once
        take turns, and the second sees what the first did (SQLite's write lock, taken at
        ``BEGIN IMMEDIATE``, already orders them)."""
        from companion.store.permissions import SeatError, seat_gone

        query = _SEATS_LOCKED if self.kind == "postgresql" else _SEATS
        refusal = seat_gone(conn.execute(query, {"cid": campaign_id}).all(), by)
        if refusal is not None:
            raise SeatError(refusal)
        if by.role != "gm":
            raise SeatError("only the campaign's GM manages its seats")

    def revoke_seat_row(self, campaign_id: int, who: str, *,
                        by: SeatKey | None = None) -> bool:
        """Revoke the seat ``who`` (any case); False when there is no such seat. ``by``:
        the seat doing it, checked in this same transaction (issue 28)."""
        from companion.store.permissions import same_name  # the one name rule
        from companion.store.schema import seats

        with self._write() as conn:
            if by is not None:
                self._check_manager(conn, campaign_id, by)
            names = conn.execute(sa.select(seats.c.who).where(
                seats.c.campaign_id == campaign_id, seats.c.revoked_at.is_(None))
            ).scalars().all()
            chosen = [n for n in names if same_name(n, who)]
            if not chosen:
                return False
            conn.execute(sa.update(seats).where(seats.c.campaign_id == campaign_id,
                                                seats.c.who.in_(chosen))
                         .values(revoked_at=now_text()))
        return True


# Statements of the hot paths, built once (SQLAlchemy caches their compiled form).
_MOVE_HEAD = (sa.update(campaigns)
              .where(campaigns.c.id == sa.bindparam("cid"),
                     campaigns.c.head == sa.bindparam("expected"))
              .values(head=sa.bindparam("new_head")))
_HEAD = sa.select(campaigns.c.head).where(campaigns.c.id == sa.bindparam("cid"))
_CHAIN_COLUMNS = (events.c.seq, events.c.at, events.c.who, events.c.role, events.c.kind,
                  events.c.tracker, events.c.move, events.c.seed, events.c.data, events.c.prev)
_CHAIN_NAMES = tuple(c.name for c in _CHAIN_COLUMNS)
_NEWEST = sa.select(*_CHAIN_COLUMNS).where(events.c.campaign_id == sa.bindparam("cid"),
                                           events.c.seq == sa.bindparam("seq"))
_CHAIN = sa.select(campaigns.c.uid, campaigns.c.chain).where(
    campaigns.c.id == sa.bindparam("cid"))
_SET_CHAIN = (sa.update(campaigns).where(campaigns.c.id == sa.bindparam("cid"))
              .values(chain=sa.bindparam("chain")))
_INSERT_EVENTS = sa.insert(events)
_NOTIFY = sa.select(sa.func.pg_notify(CHANNEL, sa.bindparam("payload", type_=sa.Text)))
# A seated write's check of its seat (issue 28); PostgreSQL's holds the rows until commit.
_SEATS = sa.select(schema.seats.c.who, schema.seats.c.role, schema.seats.c.secret_hash,
                   schema.seats.c.created_at, schema.seats.c.revoked_at).where(
    schema.seats.c.campaign_id == sa.bindparam("cid"))
_SEATS_SHARED = _SEATS.with_for_update(read=True)
_SEATS_LOCKED = _SEATS.with_for_update()
# The campaign's writer lock on PostgreSQL (issue 47): its row, which every append updates.
_LOCK_CAMPAIGN = (sa.select(campaigns.c.id).where(campaigns.c.id == sa.bindparam("cid"))
                  .with_for_update())


def _count_problem(seqs: list[int], head: int) -> str:
    """What is wrong with a campaign's event numbers ``seqs`` (sorted) for ``head``."""
    for expected, seq in enumerate(seqs, start=1):
        if seq != expected:
            return (f"event {expected} is missing (deleted; the log goes from event "
                    f"{expected - 1} to {seq})")
    if len(seqs) < head:
        return (f"events {len(seqs) + 1} to {head} are missing (it counts {head} events, "
                f"{len(seqs)} are stored)")
    return (f"it counts {head} events but {len(seqs)} are stored (its count was changed or "
            "events were added behind its back)")


#: The SQL store's older name (code and tests written before the port use it).
Store = SqlStore


class _Obj:
    """Attribute access over an event row dict (what ``_stored`` reads)."""

    def __init__(self, row: dict[str, Any]) -> None:
        self.__dict__.update(row)


def open_store(db: str | os.PathLike[str] | None = None, *, create: bool = True
               ) -> SqlStore:
    """Open (creating if needed, unless ``create=False``) the store named by ``db``, else
    by ``COMPANION_DB``."""
    return SqlStore(database_url(db), create=create)
