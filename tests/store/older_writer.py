"""A writer of the previous schema (3: no chain), as a separate process, for the upgrade
race of issue 29: it connects before the new version converts the database, waits for
``go`` to appear, then appends one move the way schema 3 did (the head moved, the event
inserted without ``prev``) and prints ``wrote`` or ``refused: <first line>``.

Usage: python older_writer.py URL CAMPAIGN_ID GO_FILE
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import sqlalchemy as sa


def append_as_schema_3(conn: sa.Connection, campaign_id: int) -> None:
    """One move appended the way schema 3 did: the head moved, the event inserted
    without ``prev`` (in the caller's transaction)."""
    head = conn.execute(sa.text("SELECT head FROM companion_campaigns WHERE id = :c"),
                        {"c": campaign_id}).scalar_one()
    conn.execute(sa.text("UPDATE companion_campaigns SET head = :n WHERE id = :c "
                         "AND head = :h"), {"n": head + 1, "c": campaign_id, "h": head})
    conn.execute(sa.text(
        "INSERT INTO companion_events (campaign_id, seq, at, who, role, kind, tracker, "
        "move, seed, data) VALUES (:c, :s, '2026-11-27T10:00:00.000Z', 'Old', 'gm', "
        "'roll', NULL, NULL, 3, '{\"expr\":\"1d6\"}')"), {"c": campaign_id, "s": head + 1})


def main(argv: list[str]) -> int:
    url, campaign_id, go = argv[0], int(argv[1]), Path(argv[2])
    engine = sa.create_engine(url)
    conn = engine.connect()  # opened before the conversion, as a running app's would be
    conn.execute(sa.text("SELECT head FROM companion_campaigns")).all()
    conn.rollback()
    print("ready", flush=True)
    while not go.exists():
        time.sleep(0.05)
    try:
        with conn.begin():
            append_as_schema_3(conn, campaign_id)
    except sa.exc.DBAPIError as exc:
        print("refused:", str(exc.orig).strip().splitlines()[0], flush=True)
        return 0
    print("wrote", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
