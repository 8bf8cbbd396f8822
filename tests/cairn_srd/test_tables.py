"""Every table of the Cairn SRD part 1: valid, and its odds equal brute-force enumeration."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from companion import tables
from companion.rulesets.cairn_srd import fixed_tables

TABLES_DIR = fixed_tables.DATA_FILE.parent.parent / "tables"
IDS = sorted(p.stem for p in TABLES_DIR.glob("*.toml"))


def test_all_tables_registered() -> None:
    listed = {t.id for t in tables.all_tables() if t.ruleset == "cairn_srd"}
    assert listed == set(IDS)
    assert {"cairn_scars", "cairn_mishap", "cairn_lock_type", "cairn_lock_sequence",
            "cairn_lock_complication", "cairn_npc_want", "cairn_npc_disposition",
            "cairn_die_of_fate"} <= listed


@pytest.mark.parametrize("table_id", IDS)
def test_odds_match_brute_force(table_id: str) -> None:
    import tomllib

    raw = tomllib.loads((TABLES_DIR / f"{table_id}.toml").read_text(encoding="utf-8"))
    count, sides = (int(n) for n in raw["die"].split("d"))
    rows = raw["rows"]
    ways: Counter[str] = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        total = sum(faces)
        hits = [r["range"] for r in rows
                if int(r["range"].split("-")[0]) <= total <= int(r["range"].split("-")[-1])]
        assert len(hits) == 1, (table_id, total, hits)
        ways[hits[0]] += 1
    brute = {k: Fraction(v, sides**count) for k, v in ways.items()}
    engine = {row.range: p for row, p in tables.get(table_id).odds()}
    assert engine == brute


def test_disposition_exact_odds() -> None:
    odds = {row.range: p for row, p in tables.get("cairn_npc_disposition").odds()}
    assert odds == {"2": Fraction(1, 36), "3-5": Fraction(9, 36), "6-8": Fraction(16, 36),
                    "9-11": Fraction(9, 36), "12": Fraction(1, 36)}


def test_lock_sequences_never_repeat_an_action() -> None:
    seqs = fixed_tables.rows("cairn_lock_sequence", "Sequence")
    assert len(set(seqs)) == 12
    for s in seqs:
        assert all(a != b for a, b in itertools.pairwise(s)), s


def test_no_second_table_reader() -> None:
    """The rules read random tables only through companion.tables (one engine)."""
    source = "".join(p.read_text(encoding="utf-8")
                     for p in TABLES_DIR.parent.glob("*.py"))
    for gone in ("def roll_on", "def roll_die", "def resolve_rng", "def die_of(", "randint"):
        assert gone not in source


def test_scar_rows_by_damage() -> None:
    assert fixed_tables.read_row("cairn_scars", 5)["Scar"] == "Rattled"
    assert [fixed_tables.read_row("cairn_scars", d)["Scar"] for d in (1, 3, 7, 10, 11, 12)] == [
        "Distressed", "Distressed", "Disfigured", "Walloped", "Out of action", "Doomed"]


def test_fixed_tables_are_validated() -> None:
    import copy

    from companion.errors import TableError

    good = fixed_tables.rules_data()
    fixed_tables.check_rules_data(good)
    broken = copy.deepcopy(good)
    broken["magic_dice_chances"]["printed"][4] = [5, 96]
    with pytest.raises(TableError, match=r"printed\[4\]"):
        fixed_tables.check_rules_data(broken)
    broken = copy.deepcopy(good)
    broken["attack_matrix"]["Ship"] = ["Enhanced"]
    with pytest.raises(TableError, match=r"attack_matrix\.Ship"):
        fixed_tables.check_rules_data(broken)
    broken = copy.deepcopy(good)
    del broken["dooms"]
    with pytest.raises(TableError, match="dooms"):
        fixed_tables.check_rules_data(broken)
