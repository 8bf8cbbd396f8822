"""A writer of the previous schema (3: no chain) that holds a write transaction open, as a
separate process, for the upgrade race of issue 49: it moves the campaign's head and
inserts an event the way schema 3 did, prints ``holding``, keeps the transaction open for
HOLD seconds, then commits and prints ``committed`` (or ``refused: <first line>``).

Usage: python older_holder.py URL CAMPAIGN_ID HOLD
"""

from __future__ import annotations

import sys
import time

import sqlalchemy as sa

# Run as a script: its folder is on the path, and the older writer beside it too.
from older_writer import append_as_schema_3


def main(argv: list[str]) -> int:
    url, campaign_id, hold = argv[0], int(argv[1]), float(argv[2])
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            if conn.dialect.name == "sqlite":
                conn.exec_driver_sql("BEGIN IMMEDIATE")  # as the older version wrote
            else:
                conn.begin()
            append_as_schema_3(conn, campaign_id)
            print("holding", flush=True)
            time.sleep(hold)
            if conn.dialect.name == "sqlite":
                conn.exec_driver_sql("COMMIT")
            else:
                conn.commit()
    except sa.exc.DBAPIError as exc:
        print("refused:", str(exc.orig).strip().splitlines()[0], flush=True)
        return 0
    print("committed", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
