"""The table socket's tests run on SQLite and PostgreSQL with the store suite's fixtures."""

from tests.store.conftest import db, postgres_server

__all__ = ["db", "postgres_server"]
