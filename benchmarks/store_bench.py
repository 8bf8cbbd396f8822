"""Benchmark of the campaign store on SQLite: a campaign of 10,000 moves.

    .venv/bin/python benchmarks/store_bench.py              # print and record in RESULTS.md
    .venv/bin/python benchmarks/store_bench.py --no-write   # print only
    .venv/bin/python benchmarks/store_bench.py --moves 2000 # a smaller campaign (print only)
    .venv/bin/python benchmarks/store_bench.py --db postgresql://... --no-write  # PostgreSQL

The campaign plays three rulesets: two Cairn characters and two Monsters & Magic adventurers
in the party and a plot-points table, played with a seeded mix of their moves (random ones
included), undos and dice rolls, every one through the live trackers, so each is one
committed transaction. Measured:

1. Live moves per second: rules, event, commit (what a player's tap costs).
2. Raw appends per second: ``Store.append`` of one event per transaction.
3. Size on disk of the database once closed (file plus any WAL).
4. Opening: a new ``Store`` and ``Campaign.open`` (newest snapshot + the events after it),
   median of 7; and the worst case, replaying all events with no snapshot.
5. ``python -m companion campaign show`` from a cold interpreter (imports included).

The rebuilt state is checked equal to the live one. Goals (issue 12): under 5 MB, opens in
under 200 ms, appends at least 1,000 events/s.

Each timing is taken both as CPU time of the measuring process (``time.process_time``,
user + system, so SQLite's writes into the page cache count) and as wall-clock time. The
goals are judged on CPU time, as the dice benchmarks are: the machine is shared, and
wall-clock time mostly measures the neighbours' load (reported with the figures). With
``synchronous=NORMAL`` in WAL mode a commit does not wait for the disk.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.errors import RuleError  # noqa: E402
from companion.rulesets.cairn_srd.character import Character  # noqa: E402
from companion.rulesets.monsters_and_magic.adventurer import Adventurer  # noqa: E402
from companion.rulesets.plot_points.session import PlotPointSession  # noqa: E402
from companion.store import (  # noqa: E402
    SNAPSHOT_EVERY,
    Campaign,
    NewEvent,
    create_campaign,
    open_campaign,
    open_store,
)

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
HEADING = "# Campaign store benchmarks"

GOAL_BYTES = 5_000_000
GOAL_OPEN_S = 0.200
GOAL_APPENDS = 1_000


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    import sqlalchemy

    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
            f"Python {platform.python_version()}, SQLite "
            f"{__import__('sqlite3').sqlite_version}, SQLAlchemy {sqlalchemy.__version__}; "
            f"load average at start {load}")


class Clock:
    """Wall-clock and CPU seconds of a block."""

    def __enter__(self) -> Clock:
        self.wall0, self.cpu0 = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self.wall0
        self.cpu = time.process_time() - self.cpu0


def play(campaign: Campaign, moves: int, seed: int) -> tuple[float, float, int]:
    """Make ``moves`` events through the live trackers: (wall s, CPU s, refused tries)."""
    rng = random.Random(seed)
    ash = campaign.tracker("Ash", Character)
    briar = campaign.tracker("Briar", Character)
    cole = campaign.tracker("Cole", Adventurer)
    dara = campaign.tracker("Dara", Adventurer)
    table = campaign.tracker("Table", PlotPointSession)
    cairn = [ash, briar]
    mm = [cole, dara]
    def new_life() -> None:
        # A fallen character is replaced by a fresh one (one "set" event), as at a table.
        for sheet in cairn:
            if sheet.dead:
                campaign.replace(sheet.name, Character(sheet.name))
                return
        for adventurer in mm:
            if adventurer.dead:
                campaign.replace(adventurer.name, Adventurer.new(adventurer.name))
                return
        raise RuleError("nobody to replace")

    choices: list[Callable[[], Any]] = [
        new_life,
        lambda: rng.choice(cairn).take_damage(rng.randrange(1, 3), rng=rng),
        lambda: rng.choice(cairn).rest_turn(),
        lambda: rng.choice(cairn).rest_night(),
        lambda: rng.choice(cairn).add_fatigue(1),
        lambda: rng.choice(cairn).rest_day(),
        lambda: rng.choice(cairn).panic_save(rng=rng),
        lambda: rng.choice(mm).roll_check(rng.choice(["luck", "might", "focus"]), rng=rng),
        lambda: rng.choice(mm).take_damage(rng.randrange(1, 6)),
        lambda: rng.choice(mm).heal(rng.randrange(1, 6)),
        lambda: rng.choice(mm).start_turn(),
        lambda: rng.choice(mm).end_turn(),
        lambda: table.roll_check(rng.choice(["Ash", "Briar", "Cole", "Dara"]), rng=rng),
        lambda: table.end_check(),
        lambda: rng.choice([ash, briar, cole, dara, table]).undo(),
        lambda: campaign.roll(rng.choice(["1d20+3", "2d6", "4d6kh3"])),
    ]
    target = campaign.head + moves
    refused = 0
    with Clock() as clock:
        while campaign.head < target:
            try:
                rng.choice(choices)()
            except RuleError:
                refused += 1
    return clock.wall, clock.cpu, refused


def states(campaign: Campaign) -> dict[str, Any]:
    return {m.id: (m.tracker.snapshot(), [e.to_dict() for e in m.tracker.log])
            for m in campaign}


def run(moves: int, db: str | None = None) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="store-bench-"))
    path: str | Path = db or folder / "campaigns.db"
    out: dict[str, Any] = {"moves": moves}
    with open_store(path) as store:
        if store.find_campaign("Bench") is not None:
            store.delete_campaign("Bench")
        campaign = create_campaign(store, "Bench", ["cairn_srd", "monsters_and_magic",
                                                    "plot_points"], who="Mira", role="gm")
        campaign.add("Ash", Character("Ash"))
        campaign.add("Briar", Character("Briar"))
        campaign.add("Cole", Adventurer.new("Cole"))
        campaign.add("Dara", Adventurer.new("Dara"))
        table = campaign.add("Table", PlotPointSession(), role="minigame")
        for name in ("Ash", "Briar", "Cole", "Dara"):
            table.add_player(name)
        played = moves - campaign.head
        wall, cpu, out["refused"] = play(campaign, played, 12)
        out["live_rate"], out["live_rate_wall"] = played / cpu, played / wall
        live = states(campaign)
        out["head"] = campaign.head
        out["kinds"] = {k: len(campaign.log(kinds=[k])) for k in ("move", "undo", "roll", "set")}

        raw = store.create_campaign("Raw appends", ["plot_points"])
        count, head = 3000, 0
        with Clock() as clock:
            for i in range(count):
                store.append(raw.id, [NewEvent("roll", who="Mira", seed=i,
                                               data={"expr": "1d20", "total": 11,
                                                     "text": "1d20 = [11] = 11"})], head)
                head += 1
        out["append_rate"], out["append_rate_wall"] = count / clock.cpu, count / clock.wall
        store.delete_campaign("Raw appends")
        if db:
            out["bytes"] = store.size_on_disk()
    if not db:
        out["bytes"] = sum(p.stat().st_size for p in folder.iterdir())

    opens: list[Clock] = []
    for _ in range(7):
        with open_store(path) as store:
            pass  # the first connection is part of opening too: close it again
        with Clock() as clock, open_store(path) as store:
            reopened = open_campaign(store, "Bench")
        opens.append(clock)
        assert states(reopened) == live, "reopened state differs from the live one"
    out["open_s"] = statistics.median(c.cpu for c in opens)
    out["open_wall_s"] = statistics.median(c.wall for c in opens)
    out["open_wall_max_s"] = max(c.wall for c in opens)

    with open_store(path) as store, Clock() as clock:
        events = store.events_since(store.get_campaign("Bench").id, 0)
        scratch = Campaign(None, store.get_campaign("Bench"))
        scratch._apply_all(events)
    out["replay_all_s"], out["replay_all_wall_s"] = clock.cpu, clock.wall
    assert states(scratch) == live, "a full replay differs from the live state"

    cold = []
    env = {**os.environ, "COMPANION_DB": str(path)}
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "companion", "campaign", "show", "Bench"],
                       cwd=ROOT, env=env, check=True, capture_output=True, timeout=120)
        cold.append(time.perf_counter() - start)
    out["cold_show_s"] = statistics.median(cold)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import companion.store.campaign"], cwd=ROOT,
                   check=True, capture_output=True, timeout=120)
    out["cold_import_s"] = time.perf_counter() - start
    for p in folder.iterdir():
        p.unlink()
    folder.rmdir()
    return out


def report_other(r: dict[str, Any], db: str) -> str:
    """A short form for another database (not recorded)."""
    return "\n".join([
        f"{db.split('://')[0]}: {r['head']:,} events; live moves {r['live_rate']:,.0f}/s CPU "
        f"({r['live_rate_wall']:,.0f}/s wall); raw appends {r['append_rate']:,.0f}/s CPU "
        f"({r['append_rate_wall']:,.0f}/s wall); open {r['open_s'] * 1000:.0f} ms CPU "
        f"({r['open_wall_s'] * 1000:.0f} ms wall); tables {r['bytes'] / 1e6:.2f} MB; "
        f"cold `campaign show` {r['cold_show_s'] * 1000:.0f} ms"])


def report(r: dict[str, Any], where: str) -> str:
    goals = [
        (r["bytes"] < GOAL_BYTES,
         f"size on disk under 5 MB ({r['bytes'] / 1e6:.2f} MB)"),
        (r["open_s"] < GOAL_OPEN_S,
         f"open and rebuild under 200 ms ({r['open_s'] * 1000:.0f} ms CPU median; "
         f"{r['open_wall_s'] * 1000:.0f} ms wall-clock)"),
        (r["append_rate"] >= GOAL_APPENDS,
         f"appends at least 1,000 events/s on SQLite ({r['append_rate']:,.0f}/s raw, "
         f"{r['live_rate']:,.0f}/s as live moves, CPU time; wall-clock "
         f"{r['append_rate_wall']:,.0f}/s and {r['live_rate_wall']:,.0f}/s)"),
    ]
    met = sum(ok for ok, _ in goals)
    lines = [
        HEADING, "",
        f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {where}. Produced by `make bench` "
        "(`.venv/bin/python benchmarks/store_bench.py`). Goals judged on CPU time of the "
        "measuring process (user + system); wall-clock time beside it depends on the "
        "machine's load.", "",
        f"## Goals: {met} of {len(goals)} met", "",
        *[f"- {'met' if ok else '**missed**'}: {text}" for ok, text in goals], "",
        f"## A campaign of {r['head']:,} events on SQLite", "",
        "Two Cairn characters, two Monsters & Magic adventurers and a plot-points table, "
        f"played with a seeded mix: {r['kinds']['move']:,} moves, {r['kinds']['undo']:,} "
        f"undos, {r['kinds']['roll']:,} dice rolls, {r['kinds']['set']:,} fallen characters "
        f"replaced (plus the setup; {r['refused']:,} tries the rules refused cost time but "
        "stored nothing). A snapshot every "
        f"{SNAPSHOT_EVERY} events (the newest two kept).", "",
        "| measure | CPU time | wall-clock |",
        "| --- | --- | --- |",
        f"| live moves (rules + event + commit) | {r['live_rate']:,.0f} events/s | "
        f"{r['live_rate_wall']:,.0f} events/s |",
        f"| raw `Store.append`, one event per transaction | {r['append_rate']:,.0f} events/s"
        f" | {r['append_rate_wall']:,.0f} events/s |",
        f"| open: new `Store` + `Campaign.open` (snapshot + later events), median of 7 | "
        f"{r['open_s'] * 1000:.0f} ms | {r['open_wall_s'] * 1000:.0f} ms (slowest "
        f"{r['open_wall_max_s'] * 1000:.0f} ms) |",
        f"| worst case: replay all {r['head']:,} events, no snapshot | "
        f"{r['replay_all_s'] * 1000:.0f} ms | {r['replay_all_wall_s'] * 1000:.0f} ms |",
        f"| `python -m companion campaign show` from a cold interpreter | | "
        f"{r['cold_show_s'] * 1000:.0f} ms |",
        f"| of which importing the store (SQLAlchemy, rulesets) | | "
        f"{r['cold_import_s'] * 1000:.0f} ms |",
        "", f"Size on disk, closed: {r['bytes'] / 1e6:.2f} MB ({r['bytes'] / r['head']:.0f} "
        "bytes per event).",
        "",
        "The reopened state and the full replay were checked equal to the live state.",
        "SQLite runs in WAL mode with `synchronous=NORMAL`: a committed move survives a "
        "killed process (tested with SIGKILL); only a power cut can lose the last moments.",
        "",
    ]
    return "\n".join(lines)


#: Closes our section, so a section another benchmark appends after it is never touched.
END_MARKER = "<!-- end of the campaign store benchmarks -->"

#: The last line of our section before the marker existed (older runs).
OLD_LAST_LINE = "only a power cut can lose the last moments.\n"


def record(section: str) -> None:
    """Replace our section of RESULTS.md (between HEADING and END_MARKER) or append it.

    Everything outside our section, before or after it, is kept byte for byte.
    """
    text = RESULTS.read_text() if RESULTS.exists() else ""
    block = section.rstrip("\n") + "\n" + END_MARKER + "\n"
    if HEADING in text:
        start = text.index(HEADING)
        if END_MARKER in text[start:]:
            end = text.index(END_MARKER, start) + len(END_MARKER) + 1
        elif OLD_LAST_LINE in text[start:]:
            end = text.index(OLD_LAST_LINE, start) + len(OLD_LAST_LINE)
        else:
            raise SystemExit(f"{RESULTS}: our section has no end marker; not rewriting it")
        text = text[:start] + block + text[end:]
    else:
        text = text.rstrip("\n") + ("\n\n" if text.strip() else "") + block
    RESULTS.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=10_000)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--db", help="another database (a postgresql:// URL); print only")
    args = parser.parse_args()
    where = machine()
    if args.db:
        print(report_other(run(args.moves, args.db), args.db))
        return 0
    result = run(args.moves)
    section = report(result, where)
    print(section)
    if not args.no_write and args.moves == 10_000:
        record(section)
        print(f"recorded in {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
