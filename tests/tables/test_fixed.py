"""One reader for every TOML file of the package, each fixed-data file checked against its
schema on load (issue 18: "One loader for fixed data")."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from companion.errors import TableError
from companion.rulesets.cairn_srd import exploration, fixed_tables
from companion.rulesets.miasma import psychosis
from companion.rulesets.miasma.dice_monarchs import hands
from companion.rulesets.monsters_and_magic import _data as mm_data
from companion.rulesets.plot_points import lookup
from companion.rulesets.variant5e import spell_points
from companion.tables.fixed import MAX_FILE_BYTES, Schema, check_fixed, load_fixed

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
CAIRN_DATA = PACKAGE / "rulesets" / "cairn_srd" / "data"

# Every fixed-data file of the package and the schema its module declares.
FILES: list[tuple[Path, dict[str, Schema]]] = [
    (fixed_tables.DATA_FILE, fixed_tables.RULES_SCHEMA),
    (CAIRN_DATA / "downtime.toml", fixed_tables.DATA_SCHEMAS["downtime"]),
    (CAIRN_DATA / "wilderness.toml", fixed_tables.DATA_SCHEMAS["wilderness"]),
    (exploration.DATA_FILE, exploration.EXPLORATION_SCHEMA),
    (mm_data.DATA_FILE, mm_data.RULES_SCHEMA),
    (PACKAGE / "rulesets" / "variant5e" / spell_points.DATA_FILE, spell_points.TABLES_SCHEMA),
    (lookup.LOOKUP_FILE, lookup.LOOKUP_SCHEMA),
    (psychosis.DATA_FILE, psychosis._SCHEMA),
    (hands.DATA_FILE, hands._SCHEMA),
]


def test_every_fixed_data_file_has_a_schema() -> None:
    on_disk = {p for p in PACKAGE.rglob("*.toml") if p.parent.name != "tables"}
    assert on_disk == {path for path, _ in FILES}


def test_tomllib_is_imported_by_the_one_reader_only() -> None:
    readers = [p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
               if re.search(r"^\s*(import tomllib|from tomllib)", p.read_text(), re.MULTILINE)]
    assert readers == ["tables/fixed.py"]


@pytest.mark.parametrize(("path", "schema"), FILES, ids=lambda v: getattr(v, "name", ""))
def test_each_file_matches_its_schema_and_a_missing_key_is_refused(
        path: Path, schema: dict[str, Schema], tmp_path: Path) -> None:
    data = load_fixed(path, schema)
    first = next(iter(schema))
    assert first in data
    # The same file without its first required block is refused, naming the file and key.
    broken = tmp_path / path.name
    text = path.read_text(encoding="utf-8")
    renamed = re.sub(rf"^(\[*){first}\b", rf"\1renamed_{first}", text, flags=re.MULTILINE)
    broken.write_text(renamed, encoding="utf-8")
    with pytest.raises(TableError, match=rf"^{re.escape(path.name)}: missing {first}$"):
        load_fixed(broken, schema)


def test_the_loaders_refuse_what_their_schema_refuses() -> None:
    # The public loaders all load (and the public names keep working).
    assert len(psychosis.levels()) == 6 and len(hands.all_hands()) == 54
    assert fixed_tables.rules_data()["gambits"]["min"] == 4
    assert fixed_tables.data_file("wilderness")["watches"]["per_day"] == 3
    assert exploration.exploration_data()["oil"]["uses"] == 10
    assert mm_data.section("action_points")["per_turn"] == 3
    assert spell_points.mentality_tables()["casters"]["half"]["divisor"] == 2
    assert lookup.load_lookup_tables().advantage_dice[5] == 12
    with pytest.raises(TableError, match=r"no fixed-data file data/rules_x\.toml"):
        fixed_tables.data_file("rules_x")


def test_monsters_and_magic_data_is_checked_beyond_types() -> None:
    good = mm_data.rules_data()
    mm_data.check_rules_data(good)
    broken = copy.deepcopy(good)
    broken["falling"]["damage_per_10_feet"] = "1d"
    with pytest.raises(TableError, match=r"^monsters_and_magic data/rules.toml: "
                                         r"falling.damage_per_10_feet '1d' is not a dice"):
        mm_data.check_rules_data(broken)
    broken = copy.deepcopy(good)
    broken["overland_travel"]["last_cell"].reverse()
    with pytest.raises(TableError, match=r"overland_travel\.last_cell must list the speeds "
                                         r"Fast, Normal, Slow in order"):
        mm_data.check_rules_data(broken)
    broken = copy.deepcopy(good)
    broken["cover"]["Total Cover"]["ac_bonus"] = "2"
    with pytest.raises(TableError, match=r"cover.'Total Cover'.ac_bonus must be a whole "
                                         r"number, not text"):
        check_fixed(broken, mm_data.RULES_SCHEMA, "m")


SCHEMA: dict[str, Schema] = {
    "n": int, "x": float, "flag?": bool, "rows": [(int, str)],
    "named": {"section": str, "*": int},
}
GOOD: dict[str, Any] = {"n": 1, "x": 2, "rows": [[1, "a"]], "named": {"section": "s", "a": 1}}


@pytest.mark.parametrize(("change", "message"), [
    ({"n": True}, "n must be a whole number, not true or false"),
    ({"n": 1.5}, "n must be a whole number, not a number"),
    ({"x": "2"}, "x must be a number, not text"),
    ({"flag": 1}, "flag must be true or false, not a whole number"),
    ({"rows": []}, "rows must not be empty"),
    ({"rows": [[1, "a"], [2]]}, r"rows\[1\] must hold 2 items, not 1"),
    ({"rows": [[1, 2]]}, r"rows\[0\]\[1\] must be text, not a whole number"),
    ({"rows": {"a": 1}}, "rows must be an array, not a table"),
    ({"named": {"a": 1}}, "missing named.section"),
    ({"named": {"section": "s", "a": 1, "b c": "x"}}, "named.'b c' must be a whole number"),
    ({"n": None}, "missing n"),
])
def test_schema_refusals_name_the_key(change: dict[str, Any], message: str) -> None:
    data = {**GOOD, **change}
    data = {k: v for k, v in data.items() if v is not None}
    check_fixed(GOOD, SCHEMA, "f.toml")  # a float may be written as a whole number
    with pytest.raises(TableError, match=f"^f.toml: {message}") as caught:
        check_fixed(data, SCHEMA, "f.toml")
    assert "\n" not in str(caught.value)


def test_extra_keys_are_allowed_and_optional_keys_may_be_missing() -> None:
    check_fixed({**GOOD, "printed": "kept beside the data", "flag": False}, SCHEMA, "f")


@pytest.mark.parametrize(("text", "message"), [
    ("levels = [", "not valid TOML"),
    ("x = " + "[" * 5000 + "]" * 5000, "arrays or tables nested too deeply"),
    ("x = " + "9" * 5000, "a value too large to read"),
])
def test_a_broken_file_is_one_line_naming_it(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "psychosis.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(TableError, match=f"^psychosis.toml: {message}") as caught:
        psychosis.load_levels(path)
    assert "\n" not in str(caught.value)


def test_a_huge_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "hands.toml"
    path.write_bytes(b"#" * (MAX_FILE_BYTES + 1))
    with pytest.raises(TableError, match=r"^hands.toml: 1,000,001 bytes, over the limit"):
        hands._load(path)
    (tmp_path / "missing.toml").unlink(missing_ok=True)
    with pytest.raises(TableError, match=r"^missing.toml: cannot be read"):
        load_fixed(tmp_path / "missing.toml", {})
