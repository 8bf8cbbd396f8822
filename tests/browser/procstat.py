"""Process figures read from ``/proc`` (Linux), shared by the browser tests and the
benchmarks (``benchmarks/table_bench.py``): CPU time and resident memory of a process."""

from __future__ import annotations

import os
import time
from pathlib import Path

__all__ = ["cpu_seconds", "cpu_share", "rss_mb"]


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """CPU seconds (user + system) so far of each process still running (a process
    that has ended is left out, so compare only the ids present in both readings)."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / tick
    return out


def cpu_share(pids: list[int], seconds: float) -> tuple[float, int]:
    """The share of one core ``pids`` used together over the next ``seconds``, and how
    many of them ran throughout (one that ends meanwhile is left out)."""
    before, t0 = cpu_seconds(pids), time.monotonic()
    time.sleep(seconds)
    after = cpu_seconds(pids)
    alive = [pid for pid in before if pid in after]
    return sum(after[p] - before[p] for p in alive) / (time.monotonic() - t0), len(alive)


def rss_mb(pid: int) -> int:
    """Resident memory of ``pid`` in MB (0 when it has ended)."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0
    for line in lines:
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024
    return 0
