"""Every table of the Cairn SRD part 1: valid, and its odds equal brute-force enumeration."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from companion import tables
from companion.rulesets.cairn_srd import _data

IDS = sorted(p.stem for p in _data.TABLES_DIR.glob("*.toml"))


def test_all_tables_registered() -> None:
    listed = {t.id for t in tables.all_tables() if t.ruleset == "cairn_srd"}
    assert listed == set(IDS)
    assert {"cairn_scars", "cairn_mishap", "cairn_lock_type", "cairn_lock_sequence",
            "cairn_lock_complication", "cairn_npc_want", "cairn_npc_disposition",
            "cairn_die_of_fate"} <= listed


@pytest.mark.parametrize("table_id", IDS)
def test_odds_match_brute_force(table_id: str) -> None:
    count, sides = _data.die_of(table_id)
    rows = _data.table(table_id)["rows"]
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
    seqs = [row["Sequence"] for row in _data.table("cairn_lock_sequence")["rows"]]
    assert len(set(seqs)) == 12
    for s in seqs:
        assert all(a != b for a, b in itertools.pairwise(s)), s


def test_scar_rows_by_damage() -> None:
    assert _data.lookup("cairn_scars", 5)["Scar"] == "Rattled"
    assert [_data.lookup("cairn_scars", d)["Scar"] for d in (1, 3, 7, 10, 11, 12)] == [
        "Distressed", "Distressed", "Disfigured", "Walloped", "Out of action", "Doomed"]


def test_fixed_tables_are_validated() -> None:
    import copy

    from companion.errors import TableError

    good = _data.rules_data()
    _data.check_rules_data(good)
    broken = copy.deepcopy(good)
    broken["magic_dice_chances"]["printed"][4] = [5, 96]
    with pytest.raises(TableError, match=r"printed\[4\]"):
        _data.check_rules_data(broken)
    broken = copy.deepcopy(good)
    broken["attack_matrix"]["Ship"] = ["Enhanced"]
    with pytest.raises(TableError, match=r"attack_matrix\.Ship"):
        _data.check_rules_data(broken)
    broken = copy.deepcopy(good)
    del broken["dooms"]
    with pytest.raises(TableError, match="dooms"):
        _data.check_rules_data(broken)
