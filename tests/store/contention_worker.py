"""Writers at full speed on one campaign, each in a process of its own (issue 47), used by
test_contention.py and benchmarks/contention_bench.py.

[run][tests.store.contention_worker.run] starts ``writers`` processes (forked, so none
pays for the imports again) that wait at one barrier, then make ``moves`` acts each as
fast as they can through a table session: in turn a player joins, a 1d20 roll for the
log, a rule roll (one unit of work with its entry), the player leaves. Each writer reports
the event number of every act it was answered for, how long each act took (the wait a
player's tap would see), and any refusal, word for word. Meanwhile this process follows
the campaign live (``Session.wait``) until every act is in.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.synchronize
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError
from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import create_campaign, open_store
from companion.table import Session

#: The four acts a writer makes in turn.
CYCLE = ("join", "roll", "rule roll", "leave")


@dataclass
class Report:
    """What one writer was answered: the event number of each act, how long each took,
    and each refusal (``None`` when the writer ran to its end)."""

    who: str
    seqs: list[int] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    crashed: str | None = None


def setup(db: str, name: str = "Busy") -> None:
    """A campaign with one Plot Points table."""
    with open_store(db) as store:
        create_campaign(store, name, ["plot_points"]).add(
            "Table", PlotPointSession(), role="minigame")


def _act(session: Session, who: str, i: int) -> int:
    """Act number ``i`` of writer ``who``; returns the number of the event it stored."""
    kind = CYCLE[i % len(CYCLE)]
    if kind == "join":
        session.act("Table", "add_player", f"{who}-{i}")
        return session.campaign.head
    if kind == "roll":
        return session.roll("1d20").entry
    if kind == "rule roll":
        return session.rule_roll(f"{who} check {i}", lambda rng: rng.randint(1, 20)).entry
    session.act("Table", "remove_player", f"{who}-{i - 3}")
    return session.campaign.head


def _writer(db: str, name: str, who: str, moves: int,
            start: multiprocessing.synchronize.Barrier, out: Any) -> None:
    report = Report(who)
    try:
        with open_store(db) as store:
            session = Session.open(store, name, who=who)
            start.wait(60)
            for i in range(moves):
                began = time.perf_counter()
                try:
                    report.seqs.append(_act(session, who, i))
                except CompanionError as exc:
                    report.refused.append(f"act {i} ({CYCLE[i % len(CYCLE)]}): {exc}")
                    continue
                report.waits.append(time.perf_counter() - began)
    except BaseException:  # a writer's crash is the test's failure, said in full
        report.crashed = traceback.format_exc()
    out.put(report)


@dataclass
class Run:
    """A finished run: each writer's report, and the follower's campaign session."""

    reports: list[Report]
    follower: Session
    seconds: float
    follower_wakes: int


def run(db: str, writers: int, moves: int, name: str = "Busy", *,
        timeout: float = 300.0) -> Run:
    """``writers`` processes making ``moves`` acts each on campaign ``name`` of ``db`` (made
    by [setup][tests.store.contention_worker.setup]), followed live from here."""
    context = multiprocessing.get_context("fork")
    start = context.Barrier(writers + 1)
    out = context.Queue()
    procs = [context.Process(target=_writer, args=(db, name, f"w{n}", moves, start, out),
                             daemon=True) for n in range(writers)]
    for proc in procs:  # forked before this process opens any store: nothing shared
        proc.start()
    store = open_store(db)
    follower = Session.open(store, name, who="follower", role="spectator")
    want = follower.campaign.head + writers * moves
    start.wait(60)
    began = time.perf_counter()
    wakes = 0
    reports: list[Report] = []
    deadline = time.monotonic() + timeout
    while len(reports) < writers and time.monotonic() < deadline:
        if follower.wait(0.2):
            wakes += 1
        while not out.empty():
            reports.append(out.get())
    while follower.campaign.head < want and time.monotonic() < deadline \
            and not any(r.crashed or r.refused for r in reports):
        follower.wait(0.2)
    seconds = time.perf_counter() - began
    for proc in procs:
        proc.join(10)
    return Run(reports, follower, seconds, wakes)


def pick(seq: list[float], share: float) -> float:
    """The value ``share`` of the way up ``seq`` (sorted), e.g. 0.95 for the p95."""
    ordered = sorted(seq)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


__all__ = ["CYCLE", "Report", "Run", "pick", "run", "setup"]
