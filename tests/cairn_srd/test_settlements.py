"""Settlements: hazard die, upheavals, conditions, shifts and rumours."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from companion import tables
from companion.errors import StateError
from companion.rulesets.cairn_srd import settlements as s
from companion.state import Tracker

pytestmark = pytest.mark.timeout(60)

TABLES = {"cairn_settlement_hazard": 6, "cairn_settlement_upheaval": 6,
          "cairn_settlement_shift": 6, "cairn_rumour_kind": 4}


@pytest.mark.parametrize("table_id,sides", TABLES.items())
def test_each_row_one_face(table_id: str, sides: int) -> None:
    table = tables.get(table_id)
    assert len(table.rows) == sides
    assert [p for _, p in table.odds()] == [Fraction(1, sides)] * sides
    for face in range(1, sides + 1):
        assert table.row_for(face) is table.rows[face - 1]


def test_seed_text() -> None:
    assert s.conditions()["Drought"] == "Widespread water shortages."
    assert len(s.conditions()) == 6
    assert s.upheaval_conditions(3) == ["Disease", "Food shortage", "Drought", "Famine"]
    assert s.upheaval_conditions(5) == [] and s.upheaval_conditions(6) == []
    assert tables.get("cairn_rumour_kind").rows[3].values["Kind"] == "Mysteries"


def test_condition_odds_by_enumeration() -> None:
    counts: Counter[str] = Counter()
    outcomes = 0
    for hazard in range(1, 7):
        for upheaval in range(1, 7):
            possible = s.upheaval_conditions(upheaval)
            for draw in range(12):  # 12 is a multiple of 1, 3 and 4 possible conditions
                outcomes += 1
                if hazard == 4 and possible:
                    counts[possible[draw % len(possible)]] += 1
    odds = s.condition_odds()
    assert odds == {c: Fraction(counts[c], outcomes) for c in s.conditions()}
    # Food shortage: (1/3 from upheaval 2) + (1/4 from upheaval 3), times 1/36
    assert odds["Food shortage"] == Fraction(1, 36) * (Fraction(1, 3) + Fraction(1, 4))
    assert sum(odds.values()) == Fraction(4, 36)  # upheavals 1-4 always inflict one


def test_hazard_roll_applies_conditions() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(300):
        town = s.SettlementState("Luden", ["Insecurity"])
        res = s.roll_hazard(town, seed=seed)
        assert res.roll == tables.get("cairn_settlement_hazard").roll(seed=seed).roll
        kinds[res.kind] += 1
        if res.kind == "condition" and res.added:
            assert town.conditions == ["Insecurity", res.added]
        elif res.kind == "depletion":
            assert res.ended == "Insecurity" and town.conditions == []
        else:
            assert town.conditions == ["Insecurity"]
        if res.kind == "signs":
            assert len(res.details) == 2
    assert set(kinds) == set(s.HAZARD_KINDS)


def test_price_rise_and_rumours() -> None:
    assert [s.price_rise_dice(n) for n in (0, 1, 3)] == ["0", "1d10", "3d10"]
    assert s.roll_rumour_kind(seed=2) == s.roll_rumour_kind(seed=2)
    kinds = set()
    for seed in range(20):  # the rumour table's row for that seed; other seeds, other kinds
        row = tables.get("cairn_rumour_kind").roll(seed=seed).values
        assert s.roll_rumour_kind(seed=seed) == f"{row['Kind']}: {row['Meaning']}", seed
        kinds.add(row["Kind"])
    assert len(kinds) > 1
    assert kinds <= {"Local color", "Opportunities", "Challenges", "Mysteries"}


def test_corrupt_settlement_refused() -> None:
    from dataclasses import dataclass, field

    @dataclass
    class Holder(Tracker):
        town: s.SettlementState = field(default_factory=s.SettlementState)

    good = Holder(s.SettlementState("X", ["Famine"]))
    assert Holder.from_json(good.to_json()) == good
    with pytest.raises(StateError, match="not a settlement condition"):
        Holder.from_json(good.to_json().replace("Famine", "Gloom"))


def test_price_rise_is_one_d10_percent_per_condition_exactly() -> None:
    # Interpretation: +Nd10 % with N conditions in force; brute force over every die face.
    from itertools import product

    from companion.rulesets.cairn_srd.settlements import price_rise_odds

    for active in range(4):
        counts: dict[int, int] = {}
        for faces in product(range(1, 11), repeat=active):
            counts[sum(faces)] = counts.get(sum(faces), 0) + 1
        total = 10 ** active
        assert {v: p for v, p in price_rise_odds(active)} == {
            v: Fraction(n, total) for v, n in counts.items()}
