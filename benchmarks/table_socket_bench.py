"""The table socket (issue 44): server memory per connected phone, an act's round trip and
the time until another phone has it, on loopback.

    .venv/bin/python benchmarks/table_socket_bench.py            # print and record
    .venv/bin/python benchmarks/table_socket_bench.py --no-write

The real server: ``companion app`` (Voila with the settings of ``make app``) on a free
port, its campaigns in a temporary SQLite file, no page open (so no kernel). Its memory is
its resident set (``/proc/PID/status``, VmRSS) before any phone, after the first phone
(the table modules load then) and with 100 phones connected, each a seat of its own (one
Session each). Then one phone (the GM's) makes 200 public rolls one after another; for
each, the time until its answer arrives, and until another phone is pushed the event,
while every other phone is connected and reading its pushes. The server's CPU time over
those acts (``/proc/PID/stat``: user and system), per act, is the figure other processes
on the machine change least (the times above wait for the CPU they share).

The section between the markers in ``benchmarks/RESULTS.md`` is replaced (or appended).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
START = "<!-- table socket benchmarks -->"
END = "<!-- end of the table socket benchmarks -->"
PHONES = 100
ACTS = 200
GOALS = {"per phone (MB)": 1.0, "above idle (MB)": 150.0, "round trip p95 (ms)": 50.0,
         "another phone p95 (ms)": 100.0}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def _cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user and system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _campaign(db: str) -> tuple[str, list[str]]:
    """Campaign T with a GM and PHONES - 1 players: the GM's secret and the players'."""
    from companion.rulesets.cairn_srd.character import Character
    from companion.store import open_store
    from companion.store.campaign import create
    from companion.store.seats import make_seat
    from companion.table import Session

    store = open_store(db)
    gm = Session(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
    for name in ("Ash", "Bryn", "Cato", "Dara"):
        gm.add(name, Character(name))
    mira = make_seat(store, "T", "Mira", "gm")
    return mira, [make_seat(store, "T", f"Player {n}", "player") for n in range(1, PHONES)]


class _Phone:
    def __init__(self, conn: Any) -> None:
        self.conn = conn
        #: Whether this phone reads its pushes: the bystanders, all in this one process,
        #: only take theirs off the wire (a real phone parses its own on its own CPU, not
        #: on the one the measured phones share here).
        self.parse = True
        self.heads: dict[int, float] = {}  # event seq -> when this phone had it
        self.answers: asyncio.Queue[tuple[dict[str, Any], float]] = asyncio.Queue()
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            text = await self.conn.read_message()
            if text is None:
                return
            now = time.perf_counter()
            if not self.parse and '"type": "events"' in text[:20]:
                continue
            frame = json.loads(text)
            for event in frame.get("events", ()):
                self.heads.setdefault(event["seq"], now)
            if frame["type"] in ("welcome", "accepted", "refused"):
                await self.answers.put((frame, now))

    async def ask(self, frame: dict[str, Any]) -> tuple[dict[str, Any], float]:
        await self.conn.write_message(json.dumps(frame))
        return await asyncio.wait_for(self.answers.get(), 60)


async def _connect(url: str, secret: str) -> _Phone:
    from tornado import websocket

    phone = _Phone(await websocket.websocket_connect(url))
    welcome, _ = await phone.ask({"type": "hello", "v": 1, "campaign": "T",
                                  "secret": secret, "last_seen": 0})
    if welcome["type"] != "welcome":
        raise RuntimeError(welcome.get("reason", welcome))
    return phone


async def _measure(url: str, pid: int, mira: str, players: list[str]) -> dict[str, Any]:
    r: dict[str, Any] = {"idle (MB)": _rss_mb(pid)}
    gm = await _connect(url, mira)
    r["one phone (MB)"] = _rss_mb(pid)
    phones = [gm]
    for secret in players:
        phones.append(await _connect(url, secret))
    await asyncio.sleep(2)  # let the server settle before reading its memory
    r["100 phones (MB)"] = _rss_mb(pid)
    r["above one phone (MB)"] = r["100 phones (MB)"] - r["one phone (MB)"]
    r["per phone (MB)"] = r["above one phone (MB)"] / (PHONES - 1)
    r["above idle (MB)"] = r["100 phones (MB)"] - r["idle (MB)"]
    observer = phones[-1]
    for bystander in phones[1:-1]:
        bystander.parse = False
    trips, seen = [], []
    cpu = _cpu_seconds(pid)
    for n in range(1, ACTS + 1):
        sent = time.perf_counter()
        answer, at = await gm.ask({"type": "act", "act": {
            "tracker": "", "move": "roll", "args": {"expr": "1d20"}, "client": "bench",
            "seq": n}})
        if answer["type"] != "accepted":
            raise RuntimeError(answer.get("reason", answer))
        trips.append((at - sent) * 1000)
        seq = answer["events"][0]["seq"]
        while seq not in observer.heads:
            await asyncio.sleep(0.001)
        seen.append((observer.heads[seq] - sent) * 1000)
    cpu = _cpu_seconds(pid) - cpu
    for phones_ in phones:
        phones_.conn.close()

    def p95(xs: list[float]) -> float:
        return statistics.quantiles(xs, n=20)[-1]

    r["round trip median (ms)"] = statistics.median(trips)
    r["round trip p95 (ms)"] = p95(trips)
    r["another phone median (ms)"] = statistics.median(seen)
    r["another phone p95 (ms)"] = p95(seen)
    r["server CPU per act (ms)"] = cpu / ACTS * 1000
    return r


def run() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="tc-socket-bench-") as folder:
        db = str(Path(folder) / "campaigns.db")
        mira, players = _campaign(db)
        port = _free_port()
        env = {**os.environ, "COMPANION_DB": db}
        app = subprocess.Popen([sys.executable, "-m", "companion", "app", "--port", str(port),
                                "--db", db], cwd=folder, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:  # until it listens
                try:
                    socket.create_connection(("127.0.0.1", port), 1).close()
                    break
                except OSError:
                    if app.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError("companion app did not start") from None
                    time.sleep(0.1)
            time.sleep(1)  # its start-up allocations done
            load = os.getloadavg()
            r = asyncio.run(_measure(f"ws://127.0.0.1:{port}/table/ws", app.pid, mira,
                                     players))
            r["load_before"] = load[0]
            r["load_after"] = os.getloadavg()[0]
            return r
        finally:
            app.terminate()
            app.wait(30)


def _section(r: dict[str, Any], note: str = "") -> str:
    met = {k: r[k] <= goal for k, goal in GOALS.items()}
    rows = [f"| {k} | {v:.2f} |" for k, v in r.items() if not k.startswith("load_")]
    goals = [f"- {'met' if ok else '**missed**'}: {k} ≤ {GOALS[k]:g} ({r[k]:.2f})"
             + (f" with {PHONES} phones" if k == "above idle (MB)" else "")
             for k, ok in met.items()]
    return "\n".join([
        START,
        f"# The table socket (issue 44), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        "",
        f"Run on {platform.processor() or platform.machine()}, {os.cpu_count()} cores "
        f"(shared), Linux {platform.release()}, Python {platform.python_version()}; load "
        f"average {r['load_before']:.2f} at the start, {r['load_after']:.2f} at the end"
        f"{'; ' + note if note else ''}. Produced by `make bench` "
        "(`.venv/bin/python benchmarks/table_socket_bench.py`): `companion app` on loopback, "
        f"SQLite, no page open (no kernel); {PHONES} phones (tornado websocket clients, "
        f"each its own seat and so its own Session on the server); {ACTS} public rolls by "
        "the GM's phone, one after another, every other phone connected and reading.",
        "",
        f"## Goals (issue 44): {sum(met.values())} of {len(met)} met",
        "",
        *goals,
        "",
        "| measure | value |",
        "|---|---|",
        *rows,
        "",
        "Memory is the server process's resident set: *idle* before any phone, *one phone* "
        "after the first (the table modules load then), *per phone* the growth from one to "
        f"{PHONES} phones over {PHONES - 1}. A Voila page of an app costs a kernel instead "
        "(66–130 MB each, issue 44). *Another phone*: from the act sent until the last "
        "connected phone had the event pushed. *Server CPU per act*: the server process's "
        "CPU time over the acts (judging, storing, pushing to every phone) over their "
        "number; the times wait for the CPU the machine's other processes share, this "
        "does much less.",
        END,
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--note", default="", help="said after the load (what else ran)")
    args = parser.parse_args(argv)
    r = run()
    section = _section(r, args.note)
    print(section)
    if not args.no_write:
        text = RESULTS.read_text(encoding="utf-8")
        if START in text and END in text:
            head, rest = text.split(START, 1)
            text = head + section + rest.split(END, 1)[1]
        else:
            text = text.rstrip("\n") + "\n\n" + section + "\n"
        RESULTS.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
