"""Table format, coverage validation, exact odds (against brute force), rolling, registry."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion import tables
from companion.errors import TableError, UnknownNameError
from companion.tables import Row, load_directory, parse_printed, parse_table
from companion.tables.model import parse_key


def d6_table(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": "size", "title": "Size", "section": "Test › Size", "die": "1d6",
        "columns": ["Size"],
        "rows": [{"range": "1-2", "Size": "small"}, {"range": "3", "Size": "medium"},
                 {"range": "4-6", "Size": "large"}],
    }
    data.update(changes)
    return data


def pair_table(sides: int = 4, again: tuple[int, ...] = (4,)) -> dict[str, Any]:
    kept = [f for f in range(1, sides + 1) if f not in again]
    rows: list[dict[str, Any]] = [
        {"range": f"{a}, {b}", "Result": f"r{a}{b}"}
        for i, a in enumerate(kept) for b in kept[i:]
    ]
    rows += [{"range": str(f), "Result": f"extra{f}", "reroll": True} for f in again]
    return {"id": "pairs", "title": "Pairs", "section": "T", "die": f"2d{sides}",
            "read": "unordered", "rows": rows}


# -- keys ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "low", "high", "covers"),
    [
        ("13", 1, 20, {13}),
        ("1-2", 1, 6, {1, 2}),
        ("1–3", 1, 6, {1, 2, 3}),
        ("01-50", 1, 100, set(range(1, 51))),
        ("00", 1, 100, {100}),
        ("0", 1, 10, {10}),
        ("96-00", 1, 100, set(range(96, 101))),
        ("11+", 2, 12, {11, 12}),
        ("2, 12", 2, 12, {2, 12}),
    ],
)
def test_total_keys(key: str, low: int, high: int, covers: set[int]) -> None:
    assert parse_key(key, "total", low, high) == frozenset(covers)


def test_unordered_keys() -> None:
    assert parse_key("3, 1", "unordered", 1, 12) == (1, 3)
    assert parse_key("11", "unordered", 1, 12) == frozenset({11})


@pytest.mark.parametrize("key", ["a", "5-2", "1-", "1, 2, 3x"])
def test_bad_keys(key: str) -> None:
    with pytest.raises(ValueError):
        parse_key(key, "total", 1, 6)


def test_printed_rounding_agrees_within_half_a_digit() -> None:
    table = parse_table(d6_table())
    row = table.rows[0]
    for printed, differs in (("33%", False), ("33.3%", False), ("33.4%", True), ("34%", True),
                             ("1 in 3", False), ("1 in 4", True), ("about a third", False)):
        changed = Row(row.range, row.covers, row.values, printed=printed)
        assert table.printed_difference(changed, Fraction(1, 3)) is differs, printed


def test_printed_figures() -> None:
    assert parse_printed("5%") == Fraction(1, 20)
    assert parse_printed("12 in 23,040") == Fraction(12, 23040)
    assert parse_printed("about half") is None


# -- validation ---------------------------------------------------------------------------


def test_valid_table_and_odds() -> None:
    table = parse_table(d6_table(), ruleset="test")
    assert [(r.range, p) for r, p in table.odds()] == [
        ("1-2", Fraction(1, 3)), ("3", Fraction(1, 6)), ("4-6", Fraction(1, 2))]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([{"range": "1-2", "Size": "a"}, {"range": "4-6", "Size": "b"}], "roll 3 has no row"),
        ([{"range": "1-3", "Size": "a"}, {"range": "3-6", "Size": "b"}],
         "roll 3 is on two rows: '1-3' and '3-6'"),
        ([{"range": "1-7", "Size": "a"}], "roll 7 cannot come up \\(the die gives 1 to 6\\)"),
        ([{"range": "1-6", "Size": "a", "Other": "x"}], "unknown column 'Other'"),
        ([{"range": "1-6"}], "column 'Size' must be text"),
        ([{"range": "x", "Size": "a"}], "row 1 \\('x'\\)"),
        ([{"range": "1-6", "Size": "a", "reroll": True}], "needs read = 'unordered'"),
    ],
)
def test_bad_rows_name_table_and_roll(rows: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(TableError, match="table size: .*" + message):
        parse_table(d6_table(rows=rows))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"die": "1d"}, "die '1d'"),
        ({"read": "sideways"}, "read must be"),
        ({"columns": []}, "columns must be"),
        ({"rows": []}, "rows must be"),
        ({"extra": 1}, "unknown field 'extra'"),
        ({"id": "Bad Id"}, "id must be"),
    ],
)
def test_bad_tables(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(TableError, match=message):
        parse_table(d6_table(**changes))


def test_missing_top_level_field() -> None:
    data = d6_table()
    del data["die"]
    with pytest.raises(TableError, match="missing 'die'"):
        parse_table(data)


def test_unordered_validation() -> None:
    parse_table(pair_table())
    data = pair_table()
    data["rows"] = [r for r in data["rows"] if r["range"] != "2, 3"]
    with pytest.raises(TableError, match="roll 2, 3 has no row"):
        parse_table(data)
    data = pair_table()
    data["rows"].append({"range": "3, 2", "Result": "dup"})
    with pytest.raises(TableError, match="roll 2, 3 is on two rows"):
        parse_table(data)
    data = pair_table()
    data["rows"].append({"range": "1, 4", "Result": "bad"})
    with pytest.raises(TableError, match="holds a reroll face"):
        parse_table(data)
    data = pair_table()
    data["rows"][-1]["reroll"] = False
    with pytest.raises(TableError, match="single face needs reroll"):
        parse_table(data)
    with pytest.raises(TableError, match="needs die '2dN'"):
        parse_table({**pair_table(), "die": "3d4"})


# -- odds against brute force -------------------------------------------------------------


SIMPLE = re.compile(r"^\s*(\d*)d(\d+)\s*$")


def brute_total(die: str) -> Counter[int] | None:
    match = SIMPLE.match(die)
    if not match:
        return None
    count, sides = int(match.group(1) or 1), int(match.group(2))
    if sides**count > 200_000:
        return None
    return Counter(sum(f) for f in itertools.product(range(1, sides + 1), repeat=count))


def brute_unordered(sides: int, again: set[int]) -> dict[tuple[int, int], Fraction]:
    # Rerolled dice end uniformly on the kept faces: enumerate first rolls and, for each
    # rerolled die, every kept face it ends on (weighted equally).
    kept = [f for f in range(1, sides + 1) if f not in again]
    out: Counter[tuple[int, int]] = Counter()
    weight = Fraction(1, sides * sides)
    for a, b in itertools.product(range(1, sides + 1), repeat=2):
        ends_a = kept if a in again else [a]
        ends_b = kept if b in again else [b]
        for x, y in itertools.product(ends_a, ends_b):
            out[(min(x, y), max(x, y))] += weight / (len(ends_a) * len(ends_b))  # type: ignore[assignment]
    return dict(out)


@pytest.mark.parametrize(("sides", "again"), [(4, (4,)), (6, (5, 6)), (3, ())])
def test_unordered_odds_match_brute_force(sides: int, again: tuple[int, ...]) -> None:
    table = parse_table(pair_table(sides, again))
    expected = brute_unordered(sides, set(again))
    for row, p in table.odds():
        if row.reroll:
            (face,) = row.covers
            first = sum(Fraction(1, sides * sides)
                        for a, b in itertools.product(range(1, sides + 1), repeat=2)
                        if face in (a, b))
            assert p == first
        else:
            assert p == expected[row.covers]  # type: ignore[index]
    assert sum(p for row, p in table.odds() if not row.reroll) == 1


def test_total_odds_match_brute_force_2d6() -> None:
    rows = [{"range": "2-6", "Result": "low"}, {"range": "7", "Result": "seven"},
            {"range": "8+", "Result": "high"}]
    table = parse_table({"id": "t", "title": "T", "section": "S", "die": "2d6", "rows": rows})
    counts = brute_total("2d6")
    assert counts is not None
    for row, p in table.odds():
        assert p == Fraction(sum(counts[v] for v in row.covers), 36)


# -- rolling ------------------------------------------------------------------------------


def test_roll_is_seeded_and_lands_on_its_row() -> None:
    table = parse_table(d6_table())
    first = [table.roll(seed=s) for s in range(30)]
    again = [table.roll(seed=s) for s in range(30)]
    assert [r.to_dict() for r in first] == [r.to_dict() for r in again]
    assert {r.roll for r in first} == set(range(1, 7))
    for result in first:
        assert result.roll in result.row.covers
        assert result.text == result.row.text
        assert str(result).startswith(f"Size [1d6 → {result.roll}]: ")


@settings(max_examples=60)
@given(seed=st.integers(0, 10**9))
def test_unordered_roll_never_ends_on_reroll_face(seed: int) -> None:
    table = parse_table(pair_table(6, (5, 6)))
    result = table.roll(seed=seed)
    assert isinstance(result.roll, tuple)
    assert not set(result.roll) & {5, 6}
    assert result.row.covers == result.roll
    for face, row in result.noted:
        assert face in (5, 6) and row.reroll
        assert row.text in result.text


def test_unordered_reroll_is_noted() -> None:
    table = parse_table(pair_table(4, (4,)))
    noted = [r for r in (table.roll(seed=s) for s in range(200)) if r.noted]
    assert noted
    assert all("extra4" in r.text for r in noted)


def write(root: Path, ruleset: str, data: dict[str, Any]) -> None:
    folder = root / ruleset / "tables"
    folder.mkdir(parents=True, exist_ok=True)

    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'

    lines = [f"{k} = {value(v)}" for k, v in data.items() if k != "rows"]
    for row in data["rows"]:
        lines.append("[[rows]]")
        lines += [f"{json_key(k)} = {value(v)}" for k, v in row.items()]
    (folder / f"{data['id']}.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def json_key(key: str) -> str:
    return key if re.match(r"^[A-Za-z0-9_-]+$", key) else f'"{key}"'


def test_nested_rolls_and_tables(tmp_path: Path) -> None:
    write(tmp_path, "one", {"id": "inner", "title": "Inner", "section": "S", "die": "1d2",
                            "rows": [{"range": "1", "Result": "wolf"},
                                     {"range": "2", "Result": "bear"}]})
    write(tmp_path, "two", {"id": "outer", "title": "Outer", "section": "S", "die": "1d1",
                            "rows": [{"range": "1", "Result": "{2d6} of {table:inner}"}]})
    found = load_directory(tmp_path)
    assert list(found) == ["inner", "outer"]
    assert found["outer"].ruleset == "two"
    seen = set()
    for seed in range(40):
        result = found["outer"].roll(seed=seed)
        match = re.fullmatch(r"(\d+) of (wolf|bear)", result.text)
        assert match, result.text
        assert 2 <= int(match.group(1)) <= 12
        assert [expr for expr, _ in result.nested] == ["2d6", "table:inner"]
        seen.add(match.group(2))
    assert seen == {"wolf", "bear"}


def test_reroll_rows_nested_rolls_are_filled_in(tmp_path: Path) -> None:
    data = pair_table(3, (3,))
    data["rows"][-1]["Result"] = "{1d1} settlement"
    write(tmp_path, "r", data)
    table = load_directory(tmp_path)["pairs"]
    noted = [r for r in (table.roll(seed=s) for s in range(100)) if r.noted]
    assert noted
    for result in noted:
        assert result.noted_text == ["1 settlement"] * len(result.noted)
        assert result.text.endswith(" + 1 settlement")
        assert result.to_dict()["noted"][0]["result"] == "1 settlement"


def test_table_cycle_is_refused(tmp_path: Path) -> None:
    for a, b in (("a", "b"), ("b", "c"), ("c", "a")):
        write(tmp_path, "r", {"id": a, "title": a, "section": "S", "die": "1d1",
                              "rows": [{"range": "1", "Result": f"{{table:{b}}}"}]})
    with pytest.raises(TableError, match="cycle: a → b → c → a"):
        load_directory(tmp_path)


def test_unknown_nested_table_and_bad_nested_dice(tmp_path: Path) -> None:
    write(tmp_path, "r", {"id": "a", "title": "a", "section": "S", "die": "1d1",
                          "rows": [{"range": "1", "Result": "{table:nope}"}]})
    with pytest.raises(TableError, match="names no table"):
        load_directory(tmp_path)
    with pytest.raises(TableError, match="nested roll \\{2d\\}"):
        parse_table({"id": "a", "title": "a", "section": "S", "die": "1d1",
                     "rows": [{"range": "1", "Result": "{2d} goblins"}]})


def test_duplicate_id_and_file_name(tmp_path: Path) -> None:
    write(tmp_path, "one", d6_table())
    write(tmp_path, "two", d6_table())
    with pytest.raises(TableError, match="used twice"):
        load_directory(tmp_path)
    other = tmp_path / "x"
    write(other, "r", d6_table())
    (other / "r" / "tables" / "size.toml").rename(other / "r" / "tables" / "big.toml")
    with pytest.raises(TableError, match="file name 'big'"):
        load_directory(other)
    broken = tmp_path / "y" / "r" / "tables"
    broken.mkdir(parents=True)
    (broken / "z.toml").write_text("id = \n", encoding="utf-8")
    with pytest.raises(TableError, match=re.escape("r/tables/z.toml")):
        load_directory(tmp_path / "y")


def test_multi_column_and_markdown() -> None:
    data = d6_table(columns=["Size", "Note"], rows=[
        {"range": "1-3", "Size": "small", "Note": "a | b", "printed": "50%"},
        {"range": "4-6", "Size": "large", "Note": "c", "printed": "40%"},
    ])
    table = parse_table(data)
    assert table.rows[0].text == "Size: small; Note: a | b"
    md = table.to_markdown()
    assert "| 1d6 | Size | Note | Chance | % | Printed |" in md
    assert "a \\| b" in md
    assert "| 1/2 |" in md
    lines = md.splitlines()
    assert "differs" not in lines[2] and "40% ⚠ differs" in lines[3]
    result = table.roll(seed=3)
    assert set(result.values) == {"Size", "Note"}


# -- the registry and every real table ----------------------------------------------------


def test_unknown_table_name() -> None:
    with pytest.raises(UnknownNameError, match="no table named 'no_such_table'"):
        tables.get("no_such_table")


ALL = tables.all_tables()


def test_registry_lists_tables_by_id() -> None:
    # Against the files themselves (read here with tomllib, not by the registry): every
    # ``rulesets/<name>/tables/*.toml`` is one table, under its own id, of its ruleset.
    import tomllib

    root = Path(tables.__file__).resolve().parents[1] / "rulesets"
    on_disk: dict[str, tuple[str, str, str, int]] = {}
    for path in sorted(root.glob("*/tables/*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert data["id"] not in on_disk, path
        on_disk[data["id"]] = (path.parent.parent.name, data["title"], data["die"],
                               len(data["rows"]))
    assert len(on_disk) >= 10
    assert {t.id: (t.ruleset, t.title, t.die, len(t.rows)) for t in ALL} == on_disk
    for table_id, (ruleset, title, _, _) in on_disk.items():
        got = tables.get(table_id)
        assert (got.id, got.ruleset, got.title) == (table_id, ruleset, title)


@pytest.mark.parametrize("table", ALL, ids=[t.id for t in ALL])
def test_every_table_of_every_ruleset(table: tables.Table) -> None:
    """Loaded and validated; exact odds sum to 1 and match brute force; rolls land."""
    odds = table.odds()
    assert sum(p for row, p in odds if not row.reroll) == 1
    if table.read == "total":
        counts = brute_total(table.die)
        if counts is not None:
            whole = sum(counts.values())
            for row, p in odds:
                assert p == Fraction(sum(counts[v] for v in row.covers), whole), row.range
    md = table.to_markdown()
    for row in table.rows:
        assert row.range.replace("|", "\\|") in md
    rng = random.Random(7)
    for _ in range(20):
        result = table.roll(rng=rng)
        assert result.row in table.rows
        assert result.text
