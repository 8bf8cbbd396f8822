"""The table socket's tests run on SQLite and PostgreSQL with the store suite's fixtures,
and each against a real table server on its own store."""

from collections.abc import Iterator

import pytest

from companion.store import open_store
from companion.store.port import Store
from tests.server.wire import Server
from tests.store.conftest import db, postgres_server

__all__ = ["db", "postgres_server", "server", "store"]


@pytest.fixture
def store(db: str) -> Iterator[Store]:
    opened = open_store(db)
    try:
        yield opened
    finally:
        opened.close()  # its connections back: PostgreSQL's cap is the suite's to share


@pytest.fixture
def server(store: Store) -> Iterator[Server]:
    running = Server(store)
    try:
        yield running
    finally:
        running.stop()
