"""Run many ``companion`` command lines in one process, each bounded in time and memory.

Used by ``test_sweep.py``: reads a JSON list of argument lists on stdin, runs each with
``companion.cli.main(argv)`` (stdout and stderr captured, ``SystemExit`` caught) and writes
one JSON object per run on stdout: the exit status, the error text, the size of the output,
the seconds taken and, if the run crashed, the traceback. The process limits its own
address space, and each run is cut off after ``--timeout`` seconds of its own CPU time, so
one runaway input is reported instead of taking the machine down. CPU time, not the clock:
on a loaded machine (CI's two cores shared with browsers) an ordinary command waited
over 4 s of wall time for a core and was reported as a runaway; a loop that never ends
burns CPU and is still cut off.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import resource
import signal
import sys
import time
import traceback
from typing import Any


class Overtime(BaseException):
    """Raised by the CPU-time alarm when one run takes longer than its budget."""


def _alarm(_signum: int, _frame: Any) -> None:
    raise Overtime


def run_one(argv: list[str], timeout: float) -> dict[str, Any]:
    from companion.cli import main

    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    crash = None
    signal.setitimer(signal.ITIMER_PROF, timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status: int | str | None = main(argv)
            except SystemExit as exc:  # argparse's --help exits 0
                status = exc.code
    except Overtime:
        status, crash = None, f"over {timeout} s of CPU"
    except BaseException:  # the point is to report anything
        status, crash = None, traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    return {
        "argv": argv, "status": status, "err": err.getvalue()[:2000],
        "out_chars": len(out.getvalue()), "seconds": round(time.perf_counter() - start, 3),
        "crash": crash,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--memory-mb", type=int, default=1500)
    parser.add_argument("--serve", action="store_true",
                        help="answer one JSON list of command lines per line of input")
    options = parser.parse_args()
    limit = options.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGPROF, _alarm)
    if not options.serve:
        cases = json.load(sys.stdin)
        sys.stdout.write(json.dumps([run_one(argv, options.timeout) for argv in cases]))
        return
    # Serving: one JSON list of command lines per input line, one JSON list of results per
    # output line, until stdin closes. Each test process keeps one such worker and asks for
    # the commands its tests need, so the two test processes sweep side by side.
    for line in sys.stdin:
        cases = json.loads(line)
        sys.stdout.write(json.dumps([run_one(argv, options.timeout) for argv in cases]) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
