"""The store's tables (SQLAlchemy Core, one definition for SQLite and PostgreSQL) and
the migrations between schema versions.

Version history:

1. ``companion_meta`` (application marker and schema version), ``companion_campaigns``
   (name, rulesets, head: the last event's number) and ``companion_events`` (one row per
   move, undo, roll...: the truth).
2. Adds ``companion_snapshots``: the whole campaign's state every
   [SNAPSHOT_EVERY][companion.store.campaign.SNAPSHOT_EVERY] events, so opening replays
   only the events after the newest one.
3. Adds ``companion_seats``: who sits at a campaign's table (a name, ``gm`` or ``player``)
   and the SHA-256 of their seat's secret (never the secret itself), when it was made and,
   once revoked, when ([companion.store.seats][]).
4. The chained log ([companion.store.chain][]): ``companion_campaigns.uid`` (the
   campaign's random identity) and ``.chain`` (the hash of its newest event),
   ``companion_events.prev`` (the hash of the event before). The migration chains every
   campaign's existing events ([chain_events][companion.store.upcast.chain_events]) and,
   in the same transaction, makes any write without a chain fail
   ([guard_older_writers][companion.store.schema.guard_older_writers]): a process of an
   older version still running cannot add an unchained event or campaign afterwards.
5. Adds ``companion_sitting_secrets`` (issue 49): the server seed of each sitting not
   closed yet, by the campaign and the hash the sitting's opening publishes, kept apart
   from the events so that no export, log or view holds it before the close (the
   opening's event and its record are written in one transaction; the close deletes
   the record). It has no foreign key, so that creating it locks nothing an older
   writer still running holds (its rows go with their campaign by
   ``delete_campaign``); sittings opened by an older version keep their seed in their
   opening's data until they close.

A database is migrated step by step, in one transaction, when a newer program opens it;
one written by a newer program (a higher version) is refused and left as it is. The
migration locks the schema version's row first, so processes opening the database at once
upgrade it once, and waits (up to the store's ``lock_wait``, then one line) for a writer
of an older version that holds a transaction.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

__all__ = ["APPLICATION", "MIGRATIONS", "OLDER_WRITER", "SCHEMA_VERSION", "guard_older_writers",
           "metadata", "tables_of_version"]

#: The value of ``companion_meta.application``: how a database says it is ours.
APPLICATION = "table-companion"

#: The schema version this program writes.
SCHEMA_VERSION = 5

metadata = sa.MetaData()

meta = sa.Table(
    "companion_meta",
    metadata,
    sa.Column("key", sa.String(40), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

campaigns = sa.Table(
    "companion_campaigns",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(80), nullable=False, unique=True),
    sa.Column("rulesets", sa.Text, nullable=False),  # JSON list of ruleset names
    sa.Column("created_at", sa.String(32), nullable=False),
    sa.Column("head", sa.Integer, nullable=False),  # seq of the last event (0: none)
    # Nullable only so that a migration can add them; every write sets them (see
    # guard_older_writers, which refuses a row without them).
    sa.Column("uid", sa.String(32), nullable=True),  # the campaign's random identity
    sa.Column("chain", sa.String(64), nullable=True),  # hash of the newest event ("": none)
)

events = sa.Table(
    "companion_events",
    metadata,
    sa.Column("campaign_id", sa.Integer,
              sa.ForeignKey("companion_campaigns.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("at", sa.String(32), nullable=False),  # ISO 8601 UTC, milliseconds
    sa.Column("who", sa.String(80), nullable=False),
    sa.Column("role", sa.String(10), nullable=False),
    sa.Column("kind", sa.String(10), nullable=False),  # add, move, undo, set, remove, roll
    sa.Column("tracker", sa.String(80), nullable=True),
    sa.Column("move", sa.String(80), nullable=True),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("data", sa.Text, nullable=False),  # JSON object
    sa.Column("prev", sa.String(64), nullable=True),  # hash of the event before ("": none)
    sqlite_with_rowid=False,
)

snapshots = sa.Table(
    "companion_snapshots",
    metadata,
    sa.Column("campaign_id", sa.Integer,
              sa.ForeignKey("companion_campaigns.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("data", sa.LargeBinary, nullable=False),  # zlib-compressed JSON
    sqlite_with_rowid=False,
)

seats = sa.Table(
    "companion_seats",
    metadata,
    sa.Column("campaign_id", sa.Integer,
              sa.ForeignKey("companion_campaigns.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("who", sa.String(80), primary_key=True),
    sa.Column("role", sa.String(10), nullable=False),  # gm | player
    sa.Column("secret_hash", sa.String(64), nullable=False),  # hex SHA-256 of the secret
    sa.Column("created_at", sa.String(32), nullable=False),
    sa.Column("revoked_at", sa.String(32), nullable=True),  # set: the secret opens nothing
    sqlite_with_rowid=False,
)

sitting_secrets = sa.Table(
    "companion_sitting_secrets",
    metadata,
    # No foreign key (see the module docs): the campaign's row id, as in the events.
    sa.Column("campaign_id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("server_hash", sa.String(64), primary_key=True),  # the opening's hash
    sa.Column("server_seed", sa.String(64), nullable=False),  # secret until the close
    sqlite_with_rowid=False,
)

_TABLES_V1 = (meta, campaigns, events)
_TABLES_V2 = (*_TABLES_V1, snapshots)
_TABLES_V3 = (*_TABLES_V2, seats)  # (schema 4 adds columns, no table)


def tables_of_version(version: int) -> tuple[sa.Table, ...]:
    """The tables a database of ``version`` has (older ones are kept to test migrations)."""
    if version == 1:
        return _TABLES_V1
    if version == 2:
        return _TABLES_V2
    if version in (3, 4):
        return _TABLES_V3
    if version == SCHEMA_VERSION:
        return tuple(metadata.sorted_tables)
    raise ValueError(f"no schema version {version}")


def _v1_to_v2(conn: sa.Connection) -> None:
    snapshots.create(conn, checkfirst=True)


def _v2_to_v3(conn: sa.Connection) -> None:
    # A campaign made before seats has none: its GM takes one with ``campaign seat``.
    seats.create(conn, checkfirst=True)


#: What an older writer's refused write says (SQLite's trigger; PostgreSQL names the column).
OLDER_WRITER = ("this campaign database was upgraded by a newer Table Companion: restart "
                "this program with the new version")


def guard_older_writers(conn: sa.Connection) -> None:
    """Make every write without the chain fail: an event without ``prev``, a campaign
    without ``uid`` or ``chain``. Run in the transaction that chains the log, so that a
    process of an older version (which writes neither) cannot add to a converted database
    one event the chain would not hold."""
    if conn.dialect.name == "postgresql":
        for table, column in (("companion_events", "prev"), ("companion_campaigns", "uid"),
                              ("companion_campaigns", "chain")):
            conn.exec_driver_sql(f"ALTER TABLE {table} ALTER COLUMN {column} SET NOT NULL")
        return
    for table, when in (("companion_events", "NEW.prev IS NULL"),
                        ("companion_campaigns", "NEW.uid IS NULL OR NEW.chain IS NULL")):
        for action in ("INSERT", "UPDATE"):
            conn.exec_driver_sql(
                f"CREATE TRIGGER IF NOT EXISTS {table}_chained_{action.lower()} BEFORE "
                f"{action} ON {table} FOR EACH ROW WHEN {when} BEGIN SELECT "
                f"RAISE(ABORT, '{OLDER_WRITER}'); END")


def _add_column(conn: sa.Connection, table: sa.Table, column: str) -> None:
    present = {c["name"] for c in sa.inspect(conn).get_columns(table.name)}
    if column not in present:  # a test's old database may be made from today's tables
        kind = table.c[column].type.compile(conn.dialect)
        conn.exec_driver_sql(f"ALTER TABLE {table.name} ADD COLUMN {column} {kind}")


def _v3_to_v4(conn: sa.Connection) -> None:
    from companion.store.upcast import chain_store

    for table, column in ((campaigns, "uid"), (campaigns, "chain"), (events, "prev")):
        _add_column(conn, table, column)
    chain_store(conn)
    guard_older_writers(conn)


def _v4_to_v5(conn: sa.Connection) -> None:
    sitting_secrets.create(conn, checkfirst=True)


#: ``MIGRATIONS[n]`` turns a version-n database into version n+1 (inside a transaction).
MIGRATIONS: dict[int, Callable[[sa.Connection], None]] = {1: _v1_to_v2, 2: _v2_to_v3,
                                                          3: _v3_to_v4, 4: _v4_to_v5}
