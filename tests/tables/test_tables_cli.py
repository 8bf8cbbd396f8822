"""`companion tables` and `companion table ID` (text, JSON, rolls, errors)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion import tables
from companion.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_tables_json_lists_every_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tables", "--json")
    assert status == 0
    listed = json.loads(out)
    assert [t["id"] for t in listed] == [t.id for t in tables.all_tables()]
    assert all(set(t) == {"id", "ruleset", "title", "die"} for t in listed)


@pytest.mark.parametrize("table", tables.all_tables(), ids=lambda t: t.id)
def test_table_json_rows_with_exact_odds(
    capsys: pytest.CaptureFixture[str], table: tables.Table
) -> None:
    status, out, _ = run(capsys, "table", table.id, "--json")
    data = json.loads(out)
    assert status == 0 and data["id"] == table.id
    # Ordinary rows partition the outcomes; roll-again rows are features noted on the way.
    total = sum(Fraction(r["p"]) for r in data["rows"] if not r["reroll"])
    assert total == 1
    assert ("note" in data) == any(r["reroll"] for r in data["rows"])
    assert [r["range"] for r in data["rows"]] == [r.range for r in table.rows]


def test_table_roll_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    table = tables.all_tables()[0]
    _, first, _ = run(capsys, "table", table.id, "--roll", "--seed", "5", "--json")
    _, again, _ = run(capsys, "table", table.id, "--roll", "--seed", "5", "--json")
    assert first == again
    data = json.loads(first)
    assert data["result"] == table.roll(seed=5).text
    assert data["roll"] == table.roll(seed=5).to_dict()["roll"]
    status, text, _ = run(capsys, "table", table.id, "--roll", "--seed", "5")
    assert status == 0 and data["result"] in text
    rolls = set()
    for seed in range(20):  # every seed the library's row; other seeds, other rolls
        _, out, _ = run(capsys, "table", table.id, "--roll", "--seed", str(seed), "--json")
        assert json.loads(out)["roll"] == table.roll(seed=seed).to_dict()["roll"], seed
        rolls.add(json.dumps(json.loads(out)["roll"]))
    assert len(rolls) > 1


def test_unknown_table_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "table", "no_such_table")
    assert status == 2 and out == ""
    assert err.startswith("error: no table named 'no_such_table'") and err.count("\n") == 1
