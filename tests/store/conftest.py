"""Fixtures of the store suite: every test that takes ``db`` runs on SQLite AND on a real
PostgreSQL server.

``postgres_server`` (session) starts a throwaway cluster in a temporary folder with Debian's
``initdb``/``pg_ctl`` (``/usr/lib/postgresql/*/bin``) on a free TCP port of 127.0.0.1,
trust authentication, and stops it at the end. PostgreSQL refuses to run as root, so as
root the cluster runs as the ``postgres`` user (``runuser``) with the folder handed to it.
If PostgreSQL is missing it is installed with ``apt-get install -y postgresql``; a failed
install fails the tests (in CI and out), nothing is skipped.

``db`` (per test) is a fresh database URL: a new SQLite file, or a new PostgreSQL database.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

PG_GLOB = "/usr/lib/postgresql/*/bin/pg_ctl"


def _pg_bin() -> Path:
    found = sorted(glob.glob(PG_GLOB))
    if not found:
        apt = ["apt-get"] if os.geteuid() == 0 else ["sudo", "-n", "apt-get"]
        for args in (["update"], ["install", "-y", "postgresql"]):
            done = subprocess.run([*apt, *args], capture_output=True, text=True, timeout=900,
                                  check=False, env={**os.environ,
                                                    "DEBIAN_FRONTEND": "noninteractive"})
            if done.returncode != 0:
                pytest.fail(f"could not install postgresql ({' '.join(apt + args)} exited "
                            f"{done.returncode}): {done.stderr.strip()[-500:]}")
        found = sorted(glob.glob(PG_GLOB))
        if not found:
            pytest.fail("postgresql installed but no pg_ctl under /usr/lib/postgresql")
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PostgresServer:
    """A running throwaway cluster; ``url(name)`` is a database on it."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        self.root = Path(tempfile.mkdtemp(prefix="companion-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            self.root.chmod(0o700)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c max_connections=60")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.root / "log"), "-w", "-t", "60", "start")
        self._names = itertools.count(1)

    def _run(self, tool: str, *args: str) -> None:
        done = subprocess.run([*self.as_user, str(self.bin / tool), *args],
                              capture_output=True, text=True, timeout=120, check=False,
                              cwd=self.root)
        if done.returncode != 0:
            log = self.root / "log"
            tail = log.read_text()[-800:] if log.exists() else ""
            raise RuntimeError(f"{tool} failed: {done.stderr.strip()[-800:]} {tail}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        name = f"t{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: an SQLite file path or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "campaigns.db")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A SQLAlchemy deprecation warning fails a store test: what SQLAlchemy deprecates now it
    removes in its next major version, and the store should hear of it first."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(
                pytest.mark.filterwarnings("error::sqlalchemy.exc.SADeprecationWarning"))


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``companion`` run in this process with ``argv``: (exit status, stdout, stderr)."""
    from companion.cli import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def env_db(db: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """``db`` as the command line's database (``COMPANION_DB``, no ``COMPANION_URL``)."""
    monkeypatch.setenv("COMPANION_DB", db)
    monkeypatch.delenv("COMPANION_URL", raising=False)
    return db
