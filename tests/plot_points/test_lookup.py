"""The lookup tables are data, checked on load."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from companion.errors import TableError
from companion.rulesets.plot_points.lookup import (
    ADVANTAGE_DICE,
    LOOKUP_FILE,
    WOUND_TIERS,
    parse_lookup_tables,
)


def data() -> dict[str, Any]:
    return tomllib.loads(LOOKUP_FILE.read_text(encoding="utf-8"))


def test_shipped_tables() -> None:
    assert ADVANTAGE_DICE == {1: 4, 2: 6, 3: 8, 4: 10, 5: 12}
    assert [(t.low, t.high, t.name) for t in WOUND_TIERS] == [
        (1, 4, "Exhausted"), (5, 8, "Injured"), (9, 12, "Severely Injured"),
        (13, 15, "Dying"), (16, 16, "Near-Death Experience")]


def test_gap_in_wound_tiers_is_refused() -> None:
    d = data()
    d["wound_tiers"]["rows"][1]["wounds"] = "6-8"
    with pytest.raises(TableError, match="wound_tiers row 2: wounds 6-8 leave a gap"):
        parse_lookup_tables(d)


def test_advantage_rows_must_count_up_and_end_open() -> None:
    d = data()
    d["advantage_dice"]["rows"][2]["net"] = "4"
    with pytest.raises(TableError, match="advantage_dice row 3: expected net 3"):
        parse_lookup_tables(d)
    d = data()
    d["advantage_dice"]["rows"][-1]["net"] = "5"
    with pytest.raises(TableError, match="only the last row is open-ended"):
        parse_lookup_tables(d)
    d = data()
    d["ability_dice"] = {"title": "t", "section": "s"}
    with pytest.raises(TableError, match="ability_dice must name each ability"):
        parse_lookup_tables(d)
