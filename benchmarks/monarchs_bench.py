"""Dice Monarchs: how long the table's chance-to-win readout takes, per stage and table size.

Run: ``.venv/bin/python benchmarks/monarchs_bench.py`` (prints a Markdown section to append
to benchmarks/RESULTS.md). Each row: 2 to 8 players, 20 seeded deals per stage; *first* is
the first player asking after a reveal (nothing cached for those community dice), *next*
the other players at the same table (the shared per-die passes are cached). Times are
CPU time of the process (the machine is shared by other work; wall time under that load
is noisier). The hands table (`rank_table`) is built once when the app opens, as the app
does.
"""

from __future__ import annotations

import contextlib
import io
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from companion.rulesets.miasma.dice_monarchs import strength
from companion.rulesets.miasma.dice_monarchs.hands import DICE, rank_table

STAGES = (("before the flop", 0), ("after the flop", 3), ("after the turn", 4),
          ("after the river", 5))
DEALS = 20


def main() -> None:
    rank_table()
    rows = []
    worst = 0.0
    for label, shown in STAGES:
        for players in range(2, 9):
            first, later, exact = [], [], True
            for deal in range(DEALS):
                rng = random.Random(f"{players}:{shown}:{deal}")
                community = [rng.randint(1, s) for s in DICE[:shown]]
                holes = [[rng.randint(1, s) for s in DICE] for _ in range(players)]
                strength.best_ranks.cache_clear()
                strength._exact.cache_clear()
                for i, hole in enumerate(holes):
                    t = time.process_time()
                    result = strength.quick_strength(hole, community, players - 1, seed=deal)
                    took = time.process_time() - t
                    (first if i == 0 else later).append(took)
                    exact = exact and result.exact
            worst = max(worst, max(first), max(later))
            rows.append(f"| {label} | {players} | {max(first) * 1000:.0f} ms | "
                        f"{statistics.median(later) * 1000:.0f} ms | "
                        f"{'exact' if exact else 'estimate'} |")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"## Dice Monarchs win-chance readout, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())}"
          " UTC\n")
    print(f"Machine: {os.cpu_count()} cores, {platform.platform()}, Python "
          f"{platform.python_version()}; load average at start {load}. Produced by "
          "`.venv/bin/python benchmarks/monarchs_bench.py`. Before: 1.4 s after the flop, "
          f"2.2 s with 7 opponents. Slowest readout now: {worst * 1000:.0f} ms "
          f"({'met' if worst < 0.2 else 'NOT met'}: within 200 ms).\n")
    print("| stage | players | first player (worst of 20, CPU) | each next player (median, CPU) "
          "| answer |")
    print("|---|---:|---:|---:|---|")
    print("\n".join(rows))
    print("\nExact after the turn and the river; after the flop the exact chance against "
          f"the opponents averaged over {strength.QUICK_COMPLETIONS} of the 120 turn/river "
          f"completions; before the flop a seeded simulation of {strength.QUICK_PREFLOP} "
          "showdown hands (both shown with their standard error). "
          "<!-- end of the Dice Monarchs benchmark -->")


END_MARKER = "<!-- end of the Dice Monarchs benchmark -->"
HEADING = "## Dice Monarchs win-chance readout"


def record(section: str) -> None:
    """Replace this benchmark's section of RESULTS.md (or append it); keep the others."""
    results = Path(__file__).resolve().parent / "RESULTS.md"
    text = results.read_text(encoding="utf-8") if results.exists() else ""
    start = text.find(HEADING)
    if start >= 0 and END_MARKER in text[start:]:
        end = text.index(END_MARKER, start) + len(END_MARKER)
        text = text[:start] + section.strip() + text[end:]
    else:
        text = text.rstrip("\n") + "\n\n" + section.strip() + "\n"
    results.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        main()
    sys.stdout.write(captured.getvalue())
    if "--no-write" not in sys.argv[1:]:
        record(captured.getvalue())
