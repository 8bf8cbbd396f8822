"""Loading refuses, quickly and with a TableError naming the table, what could never roll.

Each case was a hostile or careless table that loaded before: a dead row, a range that
ran out of memory, a chain or nesting that recursed, a nested roll that failed half the
time, a chain too deep to roll, digits of other scripts.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.errors import TableError
from companion.tables import load_directory, parse_table
from companion.tables.model import MAX_NESTING

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parent.parent.parent


def d6(rows: list[dict[str, Any]], **changes: Any) -> dict[str, Any]:
    return {"id": "size", "title": "Size", "section": "T", "die": "1d6", "rows": rows,
            **changes}


def refused(data: dict[str, Any], message: str) -> None:
    start = time.process_time()  # CPU time: bounded work, whatever else the machine runs
    with pytest.raises(TableError, match=message) as caught:
        parse_table(data)
    assert time.process_time() - start < 1
    assert str(caught.value).startswith(f"table {data['id']}: ")
    assert "\n" not in str(caught.value)


def write(folder: Path, table_id: str, result: str, die: str = "1d1") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{table_id}.toml").write_text(
        f'id = "{table_id}"\ntitle = "T"\nsection = "S"\ndie = "{die}"\n'
        f'[[rows]]\nrange = "1"\nResult = "{result}"\n', encoding="utf-8")


def test_an_open_range_past_the_top_is_a_dead_row_and_refused() -> None:
    ok = [{"range": "1-6", "Result": "a"}]
    refused(d6([*ok, {"range": "9+", "Result": "never"}]),
            r"row 2 \('9\+'\): '9\+' starts above the highest roll, 6")
    refused(d6([{"range": "1-5", "Result": "a"}, {"range": "6+", "Result": "b"},
                {"range": "7, 8", "Result": "c"}]), "roll 7 cannot come up")


@pytest.mark.parametrize("key", ["1-999999999", "1-6, 999999999", "0-6"])
def test_a_range_past_the_die_is_refused_before_it_is_built(key: str) -> None:
    refused(d6([{"range": key, "Result": "a"}]), "cannot come up")


def test_a_huge_range_costs_no_memory() -> None:
    # In a process limited to 300 MB: building the set would run out of memory.
    code = (
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (300 << 20, 300 << 20))\n"
        "from companion.tables import parse_table\n"
        "from companion.errors import TableError\n"
        "try:\n"
        "    parse_table({'id': 't', 'title': 'T', 'section': 'S', 'die': '1d6',\n"
        "                 'rows': [{'range': '1-999999999', 'Result': 'x'}]})\n"
        "except TableError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "roll 999999999 cannot come up" in done.stdout


@pytest.mark.parametrize("key", ["9999999999", "1-00000000000001", "9" * 5000 + "+"])
def test_numbers_of_many_digits_are_refused(key: str) -> None:
    refused(d6([{"range": key, "Result": "a"}]), "more than 9 digits")


@pytest.mark.parametrize(
    "key", ["\u0661-6", "1-\uff16", "\u0967+", "1-\u0666", "\U0001d7d9-6", "²-6"])
def test_digits_of_other_scripts_are_refused(key: str) -> None:
    # Arabic-Indic, fullwidth, Devanagari, mathematical digits and a superscript two: int()
    # reads most of them, a die shows none of them.
    refused(d6([{"range": key, "Result": "a"}]), "is not a roll")


def test_digits_of_other_scripts_are_refused_in_pairs() -> None:
    rows = [{"range": "1, \uff12", "Result": "a"}]
    data = {"id": "pairs", "title": "P", "section": "S", "die": "2d2", "read": "unordered",
            "rows": rows}
    refused(data, "must be a pair 'a, b' or one face")
    refused({**data, "die": "2d\uff12"}, "needs die '2dN'")


def test_ascii_keys_still_load() -> None:
    table = parse_table(d6([{"range": "01-02", "Result": "a"}, {"range": "3, 4", "Result": "b"},
                            {"range": "5+", "Result": "c"}]))
    assert [sorted(r.covers) for r in table.rows] == [[1, 2], [3, 4], [5, 6]]


def test_a_nested_roll_that_can_fail_is_refused_at_load() -> None:
    refused(d6([{"range": "1-6", "Result": "{1d(1d2-1)} goblins"}]),
            r"nested roll \{1d\(1d2-1\)\}: a die could get 0 sides")
    # The same shape that always works loads, and every roll of it works.
    table = parse_table(d6([{"range": "1-6", "Result": "{1d(1d2)} goblins"}]))
    texts = {table.roll(seed=seed).text for seed in range(200)}
    assert texts == {"1 goblins", "2 goblins"}


def test_a_nested_roll_whose_odds_are_too_costly_is_refused() -> None:
    refused(d6([{"range": "1-6", "Result": "{1d1000000r1}"}]), r"nested roll \{1d1000000r1\}")


def test_a_chain_of_1200_tables_is_refused_without_recursing(tmp_path: Path) -> None:
    folder = tmp_path / "r" / "tables"
    for n in range(1200):
        write(folder, f"t{n:04d}", f"{{table:t{n + 1:04d}}}" if n < 1199 else "end")
    start = time.process_time()
    with pytest.raises(TableError, match=f"t0000 .*: nested table rolls go 1200 tables deep, "
                                         f"over the limit of {MAX_NESTING}"):
        load_directory(tmp_path)
    assert time.process_time() - start < 5


def test_a_long_cycle_is_found_without_recursing(tmp_path: Path) -> None:
    folder = tmp_path / "r" / "tables"
    for n in range(1500):
        write(folder, f"t{n:04d}", f"{{table:t{(n + 1) % 1500:04d}}}")
    with pytest.raises(TableError) as caught:
        load_directory(tmp_path)
    assert str(caught.value) == ("table t1499: nested rolls form a cycle: t0000 → t0001 → "
                                 "t0002 → … (1500 tables) … → t1499 → t0000")


def test_a_chain_as_deep_as_the_roll_limit_loads_and_rolls_one_deeper_does_not(
    tmp_path: Path,
) -> None:
    def chain(folder: Path, length: int) -> None:
        for n in range(length):
            write(folder / "r" / "tables", f"c{n:02d}",
                  f"{{table:c{n + 1:02d}}}" if n < length - 1 else "bottom")

    chain(tmp_path / "ok", MAX_NESTING)
    found = load_directory(tmp_path / "ok")
    result = found["c00"].roll(seed=1)
    assert result.text == "bottom"
    chain(tmp_path / "deep", MAX_NESTING + 1)
    with pytest.raises(TableError, match=f"go {MAX_NESTING + 1} tables deep"):
        load_directory(tmp_path / "deep")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x = " + "[" * 5000 + "]" * 5000, "arrays or tables nested too deeply"),
        ("x = " + "{a = " * 5000 + "1" + "}" * 5000, "arrays or tables nested too deeply"),
        ("x = " + "9" * 5000, "a value too large to read"),
        ("id = \n", "not valid TOML"),
    ],
)
def test_hostile_toml_is_a_table_error(tmp_path: Path, text: str, message: str) -> None:
    folder = tmp_path / "r" / "tables"
    folder.mkdir(parents=True)
    (folder / "bad.toml").write_text(text, encoding="utf-8")
    with pytest.raises(TableError, match=f"table file r/tables/bad.toml: {message}"):
        load_directory(tmp_path)


def test_an_oversized_file_is_refused_unread(tmp_path: Path) -> None:
    folder = tmp_path / "r" / "tables"
    folder.mkdir(parents=True)
    (folder / "big.toml").write_text("# " + "x" * 2_000_000 + "\n", encoding="utf-8")
    with pytest.raises(TableError, match="2,000,003 bytes, over the limit of 1,000,000"):
        load_directory(tmp_path)


def test_a_long_key_is_quoted_short() -> None:
    with pytest.raises(TableError) as caught:
        parse_table(d6([{"range": "x" * 100_000, "Result": "a"}]))
    assert len(str(caught.value)) < 300
