"""RollHistory: newest first, the cap, clear, observers, CSV/JSON export and strict loading."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import StateError
from companion.history import CSV_COLUMNS, DEFAULT_LIMIT, RollHistory, RollRecord

T0 = datetime(2026, 11, 22, 18, 0, 0, tzinfo=UTC)


def ticking_clock() -> Any:
    ticks = iter(range(10_000))
    return lambda: T0 + timedelta(seconds=next(ticks))


def add(h: RollHistory, total: int, expr: str = "1d20", seed: int = 7) -> RollRecord:
    return h.add(expr=expr, total=total, text=f"{expr} = [{total}] = {total}", seed=seed)


def test_newest_first_numbered_and_timed() -> None:
    h = RollHistory(clock=ticking_clock())
    add(h, 3)
    add(h, 17, seed=99)
    assert [r.total for r in h] == [17, 3]
    assert [r.n for r in h] == [2, 1]
    assert h.latest is not None and h.latest.seed == 99
    assert [r.time for r in h] == ["2026-11-22T18:00:01Z", "2026-11-22T18:00:00Z"]
    assert h.count == 2 and len(h) == 2


def test_default_keeps_at_least_100() -> None:
    assert DEFAULT_LIMIT >= 100
    h = RollHistory()
    for i in range(DEFAULT_LIMIT + 25):
        add(h, i % 20 + 1)
    assert len(h) == DEFAULT_LIMIT
    assert h.records[0].n == DEFAULT_LIMIT + 25
    assert h.records[-1].n == 26  # the 25 oldest fell off


def test_cap_drops_oldest_only() -> None:
    h = RollHistory(limit=100)
    for i in range(1, 151):
        add(h, i)
    assert len(h) == 100
    assert [r.total for r in h][:3] == [150, 149, 148]
    assert h.records[-1].total == 51


@pytest.mark.parametrize("bad", [0, -1, True, 2.5, "100"])
def test_limit_must_be_positive_integer(bad: Any) -> None:
    with pytest.raises(ValueError, match="limit"):
        RollHistory(limit=bad)


def test_clear_empties_but_numbering_continues_and_observers_hear() -> None:
    h = RollHistory()
    seen: list[int] = []
    h.on_change(lambda model: seen.append(len(model)))
    add(h, 4)
    add(h, 5)
    h.clear()
    assert len(h) == 0 and h.latest is None
    assert seen == [1, 2, 0]
    assert add(h, 6).n == 3


def test_csv_export() -> None:
    h = RollHistory(clock=ticking_clock())
    h.add(
        expr="4d6kh3",
        total=14,
        text="4d6kh3 = [6, 5, 3, ~~1~~] = 14",
        seed=42,
        labels={"fire": 9, "cold": 5},
    )
    h.add(expr='1d20+"x", y', total=2, text="odd, text", seed=1)
    rows = list(csv.reader(io.StringIO(h.to_csv(), newline="")))
    assert tuple(rows[0]) == CSV_COLUMNS
    newest, oldest = (dict(zip(rows[0], r, strict=True)) for r in rows[1:])
    assert newest == {
        "n": "2",
        "time": "2026-11-22T18:00:01Z",
        "expr": '1d20+"x", y',
        "total": "2",
        "dice": "odd, text",
        "labels": "",
        "seed": "1",
    }
    assert oldest["dice"] == "[6, 5, 3, ~~1~~]"
    assert newest["dice"] == "odd, text"  # not the engine's shape: kept whole
    assert oldest["labels"] == "fire=9; cold=5"
    assert oldest["seed"] == "42"
    assert len(rows) == 3


def test_json_round_trip_is_lossless_and_continues() -> None:
    h = RollHistory(limit=5, clock=ticking_clock())
    for i in range(8):
        h.add(
            expr="2d6[hit]",
            total=i,
            text=f"t{i}",
            seed=10**12 + i,
            dice=[{"sides": 6, "value": 1, "state": ["kept"]}],
            labels={"hit": i},
        )
    h.clear()
    add(h, 20)
    back = RollHistory.from_json(h.to_json())
    assert back.records == h.records
    assert (back.limit, back.count) == (5, 9)
    assert back.to_json() == h.to_json()
    assert add(back, 1).n == 10


records = st.builds(
    dict,
    expr=st.text(max_size=30),
    total=st.integers(-(10**9), 10**9),
    text=st.text(max_size=40),
    seed=st.integers(0, 2**64),
    labels=st.dictionaries(st.text(max_size=5), st.integers(-100, 100), max_size=3),
)


@given(st.lists(records, max_size=12), st.integers(1, 6))
def test_json_round_trip_property(items: list[dict[str, Any]], limit: int) -> None:
    h = RollHistory(limit=limit)
    for item in items:
        h.add(**item)
    back = RollHistory.from_json(h.to_json())
    assert back.records == h.records
    assert back.count == len(items)
    # CSV has one line per kept roll whatever the text holds (commas, quotes, newlines).
    assert len(list(csv.reader(io.StringIO(h.to_csv(), newline="")))) == len(h) + 1


def _saved() -> dict[str, Any]:
    h = RollHistory(clock=ticking_clock())
    add(h, 3)
    add(h, 4)
    data: dict[str, Any] = json.loads(h.to_json())
    return data


@pytest.mark.parametrize(
    ("corrupt", "field"),
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.update(limit="lots"), "limit"),
        (lambda d: d.update(limit=1), "rolls"),
        (lambda d: d.update(count=1), "count"),
        (lambda d: d.update(rolls={}), "rolls"),
        (lambda d: d["rolls"][0].update(total="4"), "rolls[0].total"),
        (lambda d: d["rolls"][1].update(seed=True), "rolls[1].seed"),
        (lambda d: d["rolls"][0].pop("expr"), "rolls[0].expr"),
        (lambda d: d["rolls"][0].update(colour="red"), "rolls[0].colour"),
        (lambda d: d["rolls"][0].update(time="yesterday"), "rolls[0].time"),
        (lambda d: d["rolls"][0].update(dice=[1, 2]), "rolls[0].dice"),
        (lambda d: d["rolls"][0].update(labels={"a": "x"}), "rolls[0].labels.a"),
        (lambda d: d["rolls"][1].update(n=5), "rolls[1].n"),
        (lambda d: d["rolls"][1].update(n=0), "rolls[1].n"),
        (lambda d: d["rolls"].__setitem__(0, []), "rolls[0]"),
    ],
)
def test_corrupt_json_names_the_field(corrupt: Any, field: str) -> None:
    data = _saved()
    corrupt(data)
    with pytest.raises(StateError) as info:
        RollHistory.from_json(json.dumps(data))
    message = str(info.value)
    assert message.startswith(field), message
    assert "\n" not in message


@pytest.mark.parametrize("text", ["", "{", "[]", "null"])
def test_not_a_history_at_all(text: str) -> None:
    with pytest.raises(StateError, match="roll history"):
        RollHistory.from_json(text)


class FakeRoll:
    expr = "2d20kh1+3"
    total = 18
    labels: ClassVar[dict[str, int]] = {"atk": 18}

    def to_dict(self) -> dict[str, Any]:
        return {"total": 18, "dice": [{"sides": 20, "value": 15}, {"sides": 20, "value": 2}]}

    def __str__(self) -> str:
        return "2d20kh1+3 = [15, ~~2~~] + 3 = 18"


def test_add_roll_takes_what_the_engine_gives() -> None:
    h = RollHistory()
    record = h.add_roll(FakeRoll(), seed=123, when=T0)
    assert record.text == "2d20kh1+3 = [15, ~~2~~] + 3 = 18"
    assert record.dice[1]["value"] == 2
    assert record.labels == {"atk": 18}
    assert record.time == "2026-11-22T18:00:00Z"
    assert (record.expr, record.total, record.seed) == ("2d20kh1+3", 18, 123)


def test_csv_dice_column_from_a_real_labelled_roll() -> None:
    from companion import dice

    h = RollHistory()
    roll = dice.roll("4d6kh3+1d20[atk]", seed=1)
    h.add_roll(roll, seed=1)
    row = next(csv.DictReader(io.StringIO(h.to_csv(), newline="")))
    head, _, rest = str(roll).partition(" = ")
    assert head == "4d6kh3+1d20[atk]"
    assert rest.startswith(row["dice"]) and row["dice"].startswith("[")
    assert not row["dice"].endswith(f"= {roll.total}")
    assert row["labels"] == "; ".join(f"{k}={v}" for k, v in roll.labels.items())
    assert row["total"] == str(roll.total)


# -- bounded records and player-readable refusals (issue 11) ------------------------------


def test_a_huge_roll_is_kept_bounded_and_still_round_trips() -> None:
    from companion.history import MAX_RECORD_DICE, MAX_RECORD_TEXT

    h = RollHistory(clock=ticking_clock())
    text = "1000d6 = [" + ", ".join(["6"] * 1000) + "] = 6000"
    record = h.add(expr="1000d6", total=6000, text=text, seed=3,
                   dice=[{"sides": 6, "value": 6}] * 1000)
    assert len(record.dice) == MAX_RECORD_DICE and len(record.text) <= MAX_RECORD_TEXT
    assert record.text.endswith(" … = 6000") and record.text.startswith("1000d6 = [6, 6")
    assert len(h.to_json()) < 20_000
    again = RollHistory.from_json(h.to_json())
    assert again.records == h.records
    # the CSV still splits the cut text into its dice part
    rows = list(csv.reader(io.StringIO(h.to_csv())))
    assert rows[1][3] == "6000" and rows[1][4].startswith("[6, 6")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (None, "roll history: the file is empty"),
        ("   ", "roll history: the file is empty"),
        (b"\xff{", "roll history: the file is not UTF-8 text"),
        ("[" * 100_000, "roll history: nested too deeply"),
        ('{"a": ' + "9" * 5000 + "}", "roll history: not valid JSON: it holds a number too long"),
        ("{\n oops", "roll history: not valid JSON: unreadable at line 2 column 2"),
    ],
)
def test_unreadable_history_files_are_one_readable_line(text: Any, expected: str) -> None:
    with pytest.raises(StateError) as info:
        RollHistory.from_json(text)
    message = str(info.value)
    assert message.startswith(expected)
    assert "Expecting" not in message and "\n" not in message


def test_loaded_records_and_limits_are_bounded_and_echoes_clipped() -> None:
    from companion.history import MAX_LIMIT, MAX_RECORD_DICE

    data = _saved()
    data["limit"] = MAX_LIMIT + 1
    with pytest.raises(StateError, match=f"limit: must be from 1 to {MAX_LIMIT}"):
        RollHistory.from_json(json.dumps(data))
    data = _saved()
    data["rolls"][0]["dice"] = [{"sides": 6, "value": 1}] * (MAX_RECORD_DICE + 1)
    with pytest.raises(StateError, match=r"rolls\[0\]\.dice: 201 dice"):
        RollHistory.from_json(json.dumps(data))
    data = _saved()
    data["rolls"][0]["text"] = "x" * 100_000
    with pytest.raises(StateError, match=r"rolls\[0\]\.text: longer than"):
        RollHistory.from_json(json.dumps(data))
    data = _saved()
    data["rolls"][0]["total"] = "y" * 100_000
    with pytest.raises(StateError) as info:
        RollHistory.from_json(json.dumps(data))
    assert len(str(info.value)) < 120 and "100,002 characters" in str(info.value)
