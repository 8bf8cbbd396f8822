"""Run a piece of engine work in a child process with hard limits on time and memory.

A regression in a cost bound then fails the test (the child runs out of its address space
or its clock) instead of hanging CI or exhausting the machine. The child reports how long
the work took (CPU seconds, import time excluded), its peak memory and what it raised.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MEMORY_LIMIT = 1_000_000_000
"""Address space of the child (bytes): far below what the old costly cases took."""

_CHILD = r"""
import json, resource, sys, time
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
cpu = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
sys.path.insert(0, sys.argv[3])
import companion.dice, companion.errors, companion.dice.render  # imported before the clock
namespace = {"companion": companion}
exec(sys.argv[4], namespace)  # defines work() -> object
start = time.process_time()  # CPU time: a busy shared machine must not fail the test
try:
    value = namespace["work"]()
    outcome = {"ok": True, "value": value}
except Exception as exc:
    outcome = {"ok": False, "error": type(exc).__name__, "message": str(exc),
               "companion": isinstance(exc, companion.errors.CompanionError)}
outcome["seconds"] = time.process_time() - start
def peak_mb():
    # ru_maxrss survives exec on Linux: it would report the (large) pytest parent's size.
    # VmHWM is this process image's own high-water mark.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
outcome["peak_mb"] = peak_mb()
print(json.dumps(outcome))
"""


@dataclass
class Outcome:
    ok: bool
    seconds: float
    peak_mb: float
    value: object = None
    error: str = ""
    message: str = ""
    companion: bool = False


def run_limited(code: str, *, seconds: float = 10.0, memory: int = MEMORY_LIMIT) -> Outcome:
    """Run ``code`` (which must define ``work()`` returning something JSON-able) in a child
    process limited to ``memory`` bytes and about ``seconds`` of CPU and wall time."""
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, str(memory), str(int(seconds) + 1), str(ROOT), code],
            capture_output=True,
            text=True,
            timeout=seconds + 10,  # import and start-up time on a busy machine
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the work did not finish within {seconds} s") from exc
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        tail = proc.stderr.strip().splitlines()[-3:]
        raise AssertionError(f"the child died (exit {proc.returncode}): {' | '.join(tail)}")
    return Outcome(**json.loads(lines[-1]))
