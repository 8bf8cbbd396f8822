"""A player's page in a process of its own (run by test_session.py): a table session opened
by its seat's secret, then one act per line read from stdin.

``python session_worker.py DB CAMPAIGN SECRET``; each stdin line ``move`` acts on the seat's
own character (its Fatigue), answered ``ok`` or ``refused: <the one-line reason>``.
"""

from __future__ import annotations

import sys

from companion.errors import CompanionError
from companion.store import open_store
from companion.table import Session


def main(argv: list[str]) -> int:
    db, name, secret = argv[:3]
    with open_store(db) as store:
        session = Session.by_secret(store, name, secret)
        assert session.role == "player", "the seat's secret opens nothing"
        print("ready", flush=True)
        for line in sys.stdin:
            if line.strip() != "move":
                continue
            try:
                session.act(session.who, "add_fatigue")
            except CompanionError as exc:
                print(f"refused: {exc}", flush=True)
            else:
                print("ok", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
