"""Benchmark of a busy table (issue 47): writers at full speed on one campaign.

    .venv/bin/python benchmarks/contention_bench.py              # print and record in RESULTS.md
    .venv/bin/python benchmarks/contention_bench.py --no-write   # print only
    .venv/bin/python benchmarks/contention_bench.py --writers 5 --acts 30 --no-write

On SQLite and on a throwaway PostgreSQL cluster (started as the store's tests start one),
``--writers`` processes make ``--acts`` acts each through a table session (a player joins,
a 1d20 roll, a rule roll, the player leaves), all starting at once, while this process
follows the campaign live (tests/store/contention_worker.py). Measured: acts stored per
second (wall clock, all writers together), each act's wait as its writer saw it (median,
p95, worst), and whether any act was refused (none may be). One writer alone is measured
too, for the cost of the same act with no one to wait for.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.store_bench import machine  # noqa: E402
from tests.conftest import campaign_of  # noqa: E402
from tests.store import contention_worker as worker  # noqa: E402
from tests.store.conftest import PostgresServer  # noqa: E402

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
HEADING = "# A busy table (issue 47)"


def measure(db: str, writers: int, acts: int) -> dict[str, float]:
    worker.setup(db)
    run = worker.run(db, writers, acts)
    try:
        refused = sum(len(r.refused) for r in run.reports)
        crashed = [r.crashed for r in run.reports if r.crashed]
        if crashed:
            raise SystemExit(crashed[0])
        waits = [w for r in run.reports for w in r.waits]
        stored = sum(len(r.seqs) for r in run.reports)
        return {"acts/s": stored / run.seconds, "median": statistics.median(waits),
                "p95": worker.pick(waits, 0.95), "max": max(waits), "refused": refused,
                "stored": stored}
    finally:
        store = campaign_of(run.follower).store
        if store is not None:
            store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=20)
    parser.add_argument("--acts", type=int, default=100)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    rows = []
    server = PostgresServer()
    try:
        with tempfile.TemporaryDirectory() as folder:
            for kind in ("sqlite", "postgresql"):
                for writers, acts in ((1, args.acts), (args.writers, args.acts)):
                    db = (str(Path(folder) / f"{kind}-{writers}.db") if kind == "sqlite"
                          else server.new_database())
                    figures = measure(db, writers, acts)
                    rows.append((kind, writers, acts, figures))
                    print(f"{kind:10} {writers:2} x {acts}: {figures['acts/s']:7.1f} acts/s, "
                          f"wait median {figures['median'] * 1000:.0f} ms, p95 "
                          f"{figures['p95'] * 1000:.0f} ms, worst "
                          f"{figures['max'] * 1000:.0f} ms, refused {figures['refused']:.0f}",
                          flush=True)
    finally:
        server.stop()
    if args.no_write:
        return
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"{HEADING}, {when}", "", f"Machine: {machine()}", "",
             "Writers in processes of their own, all at once at full speed on one campaign, "
             "each act through a table session (join, 1d20 roll, rule roll, leave), a live "
             "follower in the measuring process (`benchmarks/contention_bench.py`). A writer that "
             "loses a race retries with the campaign's writer lock held, and takes it from "
             "the first try for 2 s after (`CONTENDED_SECONDS`).", "",
             "| database | writers x acts | acts stored/s | wait median | wait p95 | "
             "worst wait | refused |", "|---|---|---|---|---|---|---|"]
    for kind, writers, acts, f in rows:
        lines.append(f"| {kind} | {writers} x {acts} | {f['acts/s']:.1f} | "
                     f"{f['median'] * 1000:.0f} ms | {f['p95'] * 1000:.0f} ms | "
                     f"{f['max'] * 1000:.0f} ms | {f['refused']:.0f} |")
    text = RESULTS.read_text()
    start = text.find(HEADING)
    if start >= 0:
        end = text.find("\n# ", start + 1)
        text = text[:start] + text[end + 1:] if end >= 0 else text[:start]
    RESULTS.write_text(text.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
