"""Seats for browser tests (issue 19): a page is who its seat says, so a test that opens a
page as someone gives it that person's seat (``seat=SECRET`` in the address)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

_SECRETS: dict[tuple[str, str, str], str] = {}


def server_db(server: Any) -> str:
    """The ``COMPANION_DB`` a running Voila test server was started with."""
    environ = Path(f"/proc/{server.process.pid}/environ").read_bytes().split(b"\0")
    for item in environ:
        if item.startswith(b"COMPANION_DB="):
            return item.split(b"=", 1)[1].decode()
    raise AssertionError("the test server has no COMPANION_DB")


def seat_secret(db: str | Path, campaign: str, who: str, role: str) -> str:
    """The secret of ``who``'s seat at ``campaign`` (made once per test process)."""
    from companion.store.db import open_store
    from companion.store.seats import make_seat

    key = (str(db), campaign, who)
    if key not in _SECRETS:
        with open_store(db) as store:
            _SECRETS[key] = make_seat(store, campaign, who, role)
    return _SECRETS[key]


def seat_query(server: Any, campaign: str, who: str, role: str) -> str:
    """``campaign=..&seat=..`` opening ``campaign`` on ``server`` as ``who`` (``role``)."""
    from urllib.parse import urlencode

    secret = seat_secret(server_db(server), campaign, who, role)
    return urlencode({"campaign": campaign, "seat": secret})
