"""A store names its database and schema version, and never a password (issue 18)."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from companion.store import schema
from companion.store.db import Store, open_store


def test_an_sqlite_store_names_its_file_and_schema(tmp_path: Path) -> None:
    path = tmp_path / "campaigns.db"
    with open_store(str(path)) as store:
        assert repr(store) == f"<Store sqlite {path}, schema {schema.SCHEMA_VERSION}>"
        assert store.schema_version() == schema.SCHEMA_VERSION  # what the repr claims


def test_a_postgresql_store_shows_no_user_password_or_options() -> None:
    # Built without connecting: the repr reads only the URL (no PostgreSQL server needed).
    store = Store.__new__(Store)
    store.url = sa.make_url("postgresql+psycopg://ann:s3cret@db.example:5433/table"
                            "?sslpassword=hunter2&application_name=x")
    store.path, store.read_only = None, False
    shown = repr(store)
    assert shown == f"<Store postgresql://db.example:5433/table, schema {schema.SCHEMA_VERSION}>"
    assert all(secret not in shown for secret in ("ann", "s3cret", "hunter2", "sslpassword"))
