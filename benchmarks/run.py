"""Benchmarks of the dice engine, side by side with icepool and d20 in one run.

    .venv/bin/python benchmarks/run.py              # print and write benchmarks/RESULTS.md
    .venv/bin/python benchmarks/run.py --no-write   # print only
    .venv/bin/python benchmarks/run.py --quick      # fewer repetitions; print only

Measured:

1. Exact odds against icepool (first call in a fresh subprocess, import excluded and
   reported apart; repeated calls in one process, each library with its own caches; and our
   engine with its caches cleared before every call). Each pair of results is checked equal.
2. Single detailed rolls against d20 (rolls per second).
3. ``roll_many`` totals (dice per second).
4. The cost bounds: how long the worst inputs of issue 11 take to be refused (or answered).
   ``--refusals`` runs only this part and appends it, dated, to RESULTS.md.

Timings are CPU time of the measuring process (``time.process_time``), medians or best of
three: the machine is shared with other work, and wall-clock time would mostly measure the
neighbours. Ratios within one run are comparable.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

EXPLODE_DEPTH = 9  # icepool's explode(depth=9): 9 extra rolls per die at most

#: Our expression -> the same distribution in icepool's API.
ICEPOOL = {
    "2d20kh1": "icepool.d20.highest(2, 1)",
    "4d6kh3": "icepool.d6.highest(4, 3)",
    "10d6": "10 @ icepool.d6",
    "100d6": "100 @ icepool.d6",
    "20d6kh10": "icepool.d6.highest(20, 10)",
    "10d10kh3": "icepool.d10.highest(10, 3)",
    "2d20kh1+1d6+5": "icepool.d20.highest(2, 1) + icepool.d6 + 5",
    "5d10>=8": "5 @ (icepool.d10 >= 8)",
    "8d6!": f"8 @ icepool.d6.explode(depth={EXPLODE_DEPTH})",
}

OURS = "odds({expr!r}, explode_depth=" + str(EXPLODE_DEPTH) + ")"

FRESH = """
import json, sys, time
sys.path.insert(0, {root!r})
t0 = time.process_time()
{imports}
t1 = time.process_time()
x = {call}
len(x)
t2 = time.process_time()
print(json.dumps({{"import_ms": (t1 - t0) * 1e3, "first_ms": (t2 - t1) * 1e3}}))
"""


def fresh(imports: str, call: str) -> dict[str, float]:
    code = FRESH.format(root=str(ROOT), imports=imports, call=call)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    result: dict[str, float] = json.loads(done.stdout)
    return result


def median_ms(
    f: Callable[[], object], repeat: int, setup: Callable[[], None] | None = None
) -> float:
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        t = time.process_time()
        f()
        times.append(time.process_time() - t)
    return statistics.median(times) * 1e3


def rate(f: Callable[[], object], seconds: float) -> float:
    """Calls per second of ``f``: best of three timed batches."""
    best = 0.0
    for _ in range(3):
        n = 0
        start = time.process_time()
        while True:
            for _ in range(200):
                f()
            n += 200
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                break
        best = max(best, n / elapsed)
    return best


def clear_caches() -> None:
    """Empty every cache between a dice expression's text and its distribution."""
    from companion.dice.odds import clear_caches as clear_odds_caches

    clear_odds_caches()


def same_distribution(ours: object, theirs: object) -> bool:
    import icepool  # type: ignore[import-untyped]

    from companion.dice import Distribution

    assert isinstance(theirs, icepool.Die) and isinstance(ours, Distribution)
    denom = theirs.denominator()
    expected = {int(k): Fraction(v, denom) for k, v in theirs.items() if v}
    return dict(ours) == expected


#: One line per goal, filled in as the sections run.
VERDICTS: list[str] = []


def verdict(goal: str, met: bool, detail: str) -> None:
    VERDICTS.append(f"- {'met' if met else '**missed**'}: {goal} ({detail})")


def bench_odds(quick: bool) -> list[str]:
    import icepool

    from companion.dice import odds

    fresh_runs = 1 if quick else 3
    repeat = 5 if quick else 25
    rows = [
        "| expression | first call: ours | first call: icepool | ratio | repeated: ours "
        "| repeated: icepool | ratio | ours, caches cleared | ratio | same result |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    imports_ours: list[float] = []
    imports_ice: list[float] = []
    for expr, ice in ICEPOOL.items():
        ours_call = OURS.format(expr=expr)
        f_ours = [
            fresh("from companion.dice import odds", ours_call) for _ in range(fresh_runs)
        ]
        f_ice = [fresh("import icepool", ice) for _ in range(fresh_runs)]
        imports_ours += [r["import_ms"] for r in f_ours]
        imports_ice += [r["import_ms"] for r in f_ice]
        first_ours = statistics.median(r["first_ms"] for r in f_ours)
        first_ice = statistics.median(r["first_ms"] for r in f_ice)

        def ours_fn(e: str = expr) -> object:
            return odds(e, explode_depth=EXPLODE_DEPTH)

        def ice_fn(code: str = ice) -> object:
            return eval(code, {"icepool": icepool})

        same = same_distribution(ours_fn(), ice_fn())
        rep_ours = median_ms(ours_fn, repeat)
        rep_ice = median_ms(ice_fn, repeat)
        cold_ours = median_ms(ours_fn, repeat, setup=clear_caches)
        verdict(
            f"exact `{expr}` first call at most icepool's", first_ours <= first_ice,
            f"{first_ice / first_ours:.1f}×",
        )
        verdict(
            f"exact `{expr}` repeated call at most icepool's", rep_ours <= rep_ice,
            f"{rep_ice / rep_ours:.0f}×",
        )
        verdict(
            f"stricter: exact `{expr}` recomputed with our caches cleared, at most icepool's "
            "repeated call", cold_ours <= rep_ice, f"{rep_ice / cold_ours:.2f}×",
        )
        rows.append(
            f"| `{expr}` | {first_ours:.3f} ms | {first_ice:.3f} ms | "
            f"{first_ice / first_ours:.1f}× | {rep_ours * 1e3:.1f} µs | {rep_ice * 1e3:.1f} µs "
            f"| {rep_ice / rep_ours:.0f}× | {cold_ours:.3f} ms | {rep_ice / cold_ours:.2f}× "
            f"| {'yes' if same else '**NO**'} |"
        )
    rows.append("")
    rows.append(
        f"Import time (median, fresh process): ours {statistics.median(imports_ours):.1f} ms, "
        f"icepool {statistics.median(imports_ice):.1f} ms. Ratios are icepool's time divided "
        "by ours (above 1: ours is faster). \"Caches cleared\" recomputes from the text every "
        "call (parse and distribution caches emptied) and is compared with icepool's repeated "
        "call."
    )
    return rows


def _text(roller: Callable[[str], object], expr: str) -> str:
    return str(roller(expr))


def bench_rolls(quick: bool) -> list[str]:
    import d20  # type: ignore[import-untyped]

    from companion.dice import roll

    seconds = 0.2 if quick else 1.0
    rows = [
        "| expression | ours `roll()` | d20 `d20.roll()` | ratio (goal ≥ 3×) "
        "| ours + `str()` | d20 + `str()` | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for expr in ("1d20+5", "4d6kh3"):
        ours = rate(functools.partial(roll, expr), seconds)
        theirs = rate(functools.partial(d20.roll, expr), seconds)
        ours_str = rate(functools.partial(_text, roll, expr), seconds)
        theirs_str = rate(functools.partial(_text, d20.roll, expr), seconds)
        verdict(
            f"`{expr}` single rolls at least 3× d20's", ours >= 3 * theirs,
            f"{ours / theirs:.1f}×; with text {ours_str / theirs_str:.1f}×",
        )
        rows.append(
            f"| `{expr}` | {ours:,.0f}/s | {theirs:,.0f}/s | {ours / theirs:.1f}× | "
            f"{ours_str:,.0f}/s | {theirs_str:,.0f}/s | {ours_str / theirs_str:.1f}× |"
        )
    rows.append("")
    rows.append(
        "Both libraries build the text of a roll lazily, so the first pair compares rolling "
        "with full per-die detail and the second adds the one-line text."
    )
    return rows


def bench_many(quick: bool) -> list[str]:
    from companion.dice import roll_many

    n = 100_000 if quick else 1_000_000
    rows = [
        "| expression | rolls | totals per second | dice per second (goal ≥ 1,000,000) |",
        "|---|---:|---:|---:|",
    ]
    for expr, dice in (("1d20+5", 1), ("4d6kh3", 4)):
        ms = median_ms(functools.partial(roll_many, expr, n), 3)
        per_s = n / (ms / 1e3)
        verdict(
            f"`roll_many('{expr}')` at least 1,000,000 dice/s", per_s * dice >= 1_000_000,
            f"{per_s * dice:,.0f} dice/s",
        )
        rows.append(f"| `{expr}` | {n:,} | {per_s:,.0f} | {per_s * dice:,.0f} |")
    return rows


#: (call, expression, what it cost before issue 11) for the refusal table.
REFUSALS: list[tuple[str, str, str]] = [
    ("odds", "100d1000000kh1", "20 s, 1 GB"),
    ("odds", "1000d1000000kh1", "out of memory"),
    ("odds", "10000d100000kh1", "did not finish"),
    ("odds", "1d1000000r1", "7-12 s, > 500 MB, then the 5 s net"),
    ("odds", "D1000000!", "7-12 s, > 500 MB, then the 5 s net"),
    ("odds", "10000d1000000!>=2", "7-12 s, > 500 MB, then the 5 s net"),
    ("odds", "1d1000000!=5ro<=600000", "7-12 s, > 500 MB, then the 5 s net"),
    ("odds", "(1d50)d(1d50)", "5.5 s"),
    ("odds", "10d10000", "over 5 s, then the net"),
    ("roll", "10000d1000000r<=999999", "8 s, 876 MB, 90 MB of JSON"),
    ("roll_many", "1000d20!>=2", "4 s for 50 rolls"),
    ("odds", "50d6!kh3", "3.3 s"),
    ("odds", "3500d20kh1", "crashed the renderers"),
    ("simulate", "1d1000000r1", "10 s for 20 rolls"),
]


def bench_refusals(quick: bool) -> list[str]:
    """Time to refuse (or answer) the worst cases of issue 11, caches cleared each time."""
    import json as json_module

    from companion.dice import odds, roll, roll_many, simulate
    from companion.dice.render import distribution_text
    from companion.errors import CompanionError

    def run_case(call: str, expr: str) -> str:
        try:
            if call == "odds":
                d = odds(expr)
                distribution_text(d)
                json_module.dumps(d.to_dict())
                d.to_svg()
                return f"answered, {len(d):,} totals, rendered 4 ways"
            if call == "roll":
                json_module.dumps(roll(expr, seed=1).to_dict())
                return "answered"
            if call == "roll_many":
                roll_many(expr, 20, seed=1)
                return "answered"
            simulate(expr, 20, seed=1)
            return "answered"
        except CompanionError as exc:
            return f"refused: {type(exc).__name__}"

    repeat = 3 if quick else 7
    rows = [
        "| call | expression | before | now (CPU, median) | outcome |",
        "|---|---|---|---:|---|",
    ]
    worst = 0.0
    for call, expr, before in REFUSALS:
        outcome = run_case(call, expr)
        ms = median_ms(functools.partial(run_case, call, expr), repeat, setup=clear_caches)
        if outcome.startswith("refused"):
            worst = max(worst, ms)
        shown = f"`{call}('{expr}'{', 20' if call in ('roll_many', 'simulate') else ''})`"
        rows.append(f"| {call} | {shown} | {before} | {ms:.2f} ms | {outcome} |")
    verdict("every issue-11 refusal well under a second (≤ 100 ms)", worst <= 100,
            f"slowest refusal {worst:.2f} ms")
    rows.append("")
    rows.append(
        "Each case recomputed from its text (parse and odds caches emptied before every call);"
        " answered odds include the text, JSON and SVG renderings. The budgets are in "
        "`companion/dice/limits.py` and on the site's Dice notation page."
    )
    return rows


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "n/a"
    from importlib.metadata import version

    import icepool

    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}; icepool {icepool.__version__}, "
        f"d20 {version('d20')}; load average at start {load}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--no-write", action="store_true", help="do not write benchmarks/RESULTS.md"
    )
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument(
        "--refusals", action="store_true",
        help="only time the cost refusals, and append them to RESULTS.md as a dated section",
    )
    args = parser.parse_args(argv)
    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    head = machine()
    if args.refusals:
        return append_refusals(started, head, args.no_write)
    odds_rows = bench_odds(args.quick)
    roll_rows = bench_rolls(args.quick)
    many_rows = bench_many(args.quick)
    refusal_rows = bench_refusals(args.quick)
    missed = sum("**missed**" in v for v in VERDICTS)
    sections = [
        "# Dice engine benchmarks",
        "",
        f"Run {started} on {head}. Produced by `make bench` "
        f"(`.venv/bin/python benchmarks/run.py{' --quick' if args.quick else ''}`); "
        "all three sections in one run on the same machine.",
        "",
        f"## Goals: {len(VERDICTS) - missed} of {len(VERDICTS)} met",
        "",
        *VERDICTS,
        "",
        f"## Exact odds against icepool (explosions to depth {EXPLODE_DEPTH})",
        "",
        *odds_rows,
        "",
        "## Single detailed rolls against d20",
        "",
        *roll_rows,
        "",
        "## `roll_many` (totals only)",
        "",
        *many_rows,
        "",
        "## Cost bounds: the worst inputs of issue 11",
        "",
        *refusal_rows,
        "",
    ]
    report = "\n".join(sections)
    sys.stdout.write(report)
    if not args.no_write and not args.quick:
        _replace_own_section(report + NOTES)
    return 0


END_MARKER = "<!-- end of the dice engine benchmarks -->"


def _replace_own_section(section: str) -> None:
    """Rewrite the dice section at the top of RESULTS.md; keep every other benchmark's."""
    results = ROOT / "benchmarks" / "RESULTS.md"
    text = results.read_text(encoding="utf-8") if results.exists() else ""
    rest = text.split(END_MARKER, 1)[1].lstrip("\n") if END_MARKER in text else ""
    results.write_text(section.rstrip("\n") + "\n" + END_MARKER + "\n\n" + rest,
                       encoding="utf-8")


def append_refusals(started: str, head: str, no_write: bool) -> int:
    """Time the refusals and append them, dated, to RESULTS.md (the rest is left as is)."""
    rows = bench_refusals(False)
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
    model = next(
        (line.split(":", 1)[1].strip() for line in lscpu.splitlines()
         if line.startswith("Model name")), "unknown"
    )
    section = "\n".join([
        "",
        f"## Cost bounds, {started}",
        "",
        f"Machine: `nproc` {os.cpu_count()}, `lscpu` Model name: {model}; {head}.",
        f"Produced by `.venv/bin/python benchmarks/run.py --refusals`. {VERDICTS[-1][2:]}",
        "",
        *rows,
        "",
    ])
    sys.stdout.write(section)
    if not no_write:
        with (ROOT / "benchmarks" / "RESULTS.md").open("a", encoding="utf-8") as f:
            f.write(section)
    return 0


NOTES = """
## How to read this

- *First call* is the engine's first exact distribution in a fresh interpreter (a new
  subprocess per measurement, median of several), with the import timed separately.
- *Repeated* calls use each library as a user would: we cache parsed trees and
  distributions by expression text (`functools.lru_cache`), icepool keeps its own caches.
  Because a cache hit is nearly free, the *caches cleared* column is the honest figure for
  our arithmetic itself; where it is above icepool's repeated time, the goal is missed for
  that case without our cache.
- Exact odds use integer weights over a common denominator, Kronecker-packed big-integer
  multiplication for convolution, and an order-statistics DP over faces for keep/drop.
- Single rolls return the full detail (every die with its state, label subtotals); the
  text form is built lazily, so `roll()` + `str()` is also shown.
- All times are CPU time of the measuring process (`time.process_time`), so other load on
  the shared machine does not count against either side; rerun for fresh figures.
"""


if __name__ == "__main__":
    raise SystemExit(main())
