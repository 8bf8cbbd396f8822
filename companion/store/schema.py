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

A database is migrated step by step, in one transaction, when a newer program opens it;
one written by a newer program (a higher version) is refused and left as it is.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

__all__ = ["APPLICATION", "MIGRATIONS", "SCHEMA_VERSION", "metadata", "tables_of_version"]

#: The value of ``companion_meta.application``: how a database says it is ours.
APPLICATION = "table-companion"

#: The schema version this program writes.
SCHEMA_VERSION = 3

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

_TABLES_V1 = (meta, campaigns, events)
_TABLES_V2 = (*_TABLES_V1, snapshots)


def tables_of_version(version: int) -> tuple[sa.Table, ...]:
    """The tables a database of ``version`` has (older ones are kept to test migrations)."""
    if version == 1:
        return _TABLES_V1
    if version == 2:
        return _TABLES_V2
    if version == SCHEMA_VERSION:
        return tuple(metadata.sorted_tables)
    raise ValueError(f"no schema version {version}")


def _v1_to_v2(conn: sa.Connection) -> None:
    snapshots.create(conn, checkfirst=True)


def _v2_to_v3(conn: sa.Connection) -> None:
    # A campaign made before seats has none: its GM takes one with ``campaign seat``.
    seats.create(conn, checkfirst=True)


#: ``MIGRATIONS[n]`` turns a version-n database into version n+1 (inside a transaction).
MIGRATIONS: dict[int, Callable[[sa.Connection], None]] = {1: _v1_to_v2, 2: _v2_to_v3}
