"""Writers at full speed on one campaign, each in a process of its own (issue 47), used by
test_contention.py and benchmarks/contention_bench.py.

[run][tests.store.contention_worker.run] starts ``writers`` processes (forked, so none
pays for the imports again) that wait at one barrier, then make ``moves`` acts each as
fast as they can through a table session: in turn a player joins, a 1d20 roll for the
log, a rule roll (one unit of work with its entry), the player leaves. Each writer reports
the event number of every act it was answered for, how long each act took (the wait a
player's tap would see), and any refusal, word for word; with ``acks``, each writer also
writes the number of every act it was answered for to a file there as it goes (what a
writer killed mid-run was told). Meanwhile this process follows the campaign live
(``Session.wait``) until every act is in; ``kill_after`` kills writer ``w0`` with SIGKILL
once it has been answered that many times.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.synchronize
import os
import signal
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import create_campaign, open_store
from companion.table import Session
from tests.conftest import campaign_of

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
        return campaign_of(session).head
    if kind == "roll":
        return session.roll("1d20").entry
    if kind == "rule roll":
        return session._rule_roll(f"{who} check {i}", lambda rng: rng.randint(1, 20)).entry
    session.act("Table", "remove_player", f"{who}-{i - 3}")
    return campaign_of(session).head


def acked(acks: Path, who: str) -> list[int]:
    """The event numbers writer ``who`` was answered for, as it wrote them down."""
    path = acks / who
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def _writer(db: str, name: str, who: str, moves: int,
            start: multiprocessing.synchronize.Barrier, out: Any, acks: Path | None,
            doomed: bool = False) -> None:
    report = Report(who)
    try:
        with open_store(db) as store, \
                (open(acks / who, "a") if acks is not None else open(os.devnull, "a")) as ack:
            session = Session.open(store, name, who=who)
            start.wait(60)
            for i in range(moves):
                if doomed and i == moves - 1:
                    # A writer to be killed mid-run never finishes first, however slow
                    # the killer is on a loaded machine: it waits here for its SIGKILL.
                    time.sleep(600)
                began = time.perf_counter()
                try:
                    seq = _act(session, who, i)
                except CompanionError as exc:
                    report.refused.append(f"act {i} ({CYCLE[i % len(CYCLE)]}): {exc}")
                    continue
                report.waits.append(time.perf_counter() - began)
                report.seqs.append(seq)
                ack.write(f"{seq}\n")
                ack.flush()  # in the page cache: a killed process's lines stay
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
    #: The number of acts the writers were answered for (a killed one's included).
    answered: int = 0


def run(db: str, writers: int, moves: int, name: str = "Busy", *,
        acks: Path | None = None, kill_after: int | None = None,
        timeout: float = 300.0) -> Run:
    """``writers`` processes making ``moves`` acts each on campaign ``name`` of ``db`` (made
    by [setup][tests.store.contention_worker.setup]), followed live from here."""
    assert kill_after is None or acks is not None, "a kill is timed by the acks"
    context = multiprocessing.get_context("fork")
    start = context.Barrier(writers + 1)
    out = context.Queue()
    procs = [context.Process(target=_writer, daemon=True,
                             args=(db, name, f"w{n}", moves, start, out, acks,
                                   n == 0 and kill_after is not None))
             for n in range(writers)]
    for proc in procs:  # forked before this process opens any store: nothing shared
        proc.start()
    store = open_store(db)
    follower = Session.open(store, name, who="follower", role="spectator")
    base = campaign_of(follower).head
    start.wait(60)
    began = time.perf_counter()
    wakes = 0
    reports: list[Report] = []
    killed = kill_after is None
    deadline = time.monotonic() + timeout
    # Until the others have reported and the doomed one is killed (it may start last, after
    # the others are done: it is killed all the same, then, mid-run of its own).
    while (len(reports) < writers - (0 if kill_after is None else 1) or not killed) \
            and time.monotonic() < deadline:
        if follower.wait(0.05 if not killed else 0.2):
            wakes += 1
        if not killed and acks is not None and kill_after is not None \
                and len(acked(acks, "w0")) >= kill_after:
            os.kill(procs[0].pid or 0, signal.SIGKILL)  # mid-run, perhaps holding the lock
            procs[0].join(10)
            killed = True
        while not out.empty():
            reports.append(out.get())
    answered = sum(len(r.seqs) for r in reports)
    if acks is not None and not any(r.who == "w0" for r in reports):
        answered += len(acked(acks, "w0"))  # killed: what it was told before
    while campaign_of(follower).head < base + answered and time.monotonic() < deadline \
            and not any(r.crashed or r.refused for r in reports):
        follower.wait(0.2)
    seconds = time.perf_counter() - began
    for proc in procs:
        proc.join(10)
    return Run(reports, follower, seconds, wakes, answered)


def pick(seq: list[float], share: float) -> float:
    """The value ``share`` of the way up ``seq`` (sorted), e.g. 0.95 for the p95."""
    ordered = sorted(seq)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


__all__ = ["CYCLE", "Report", "Run", "acked", "pick", "run", "setup"]
