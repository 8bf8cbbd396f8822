"""Vessel moves: boarding only after Critical Damage, repairs of damaged parts only, rest
at port only when Guard is down (Interpretation in mass_combat)."""

from __future__ import annotations

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd import combat
from companion.rulesets.cairn_srd.character import new_character
from companion.rulesets.cairn_srd.combat import Attack, Encounter
from companion.rulesets.cairn_srd.mass_combat import Vessel
from tests.cairn_srd.test_character import FixedRng


def test_boarding_repair_and_port() -> None:
    v = Vessel(name="Gull", guard=1, guard_max=3)
    with pytest.raises(RuleError, match="only after Critical"):
        v.board("Pirates")
    v.take_damage(3, "CTRL", rng=FixedRng(20))  # 1 Guard, 2 crew; save 20 fails
    assert v.boardable and v.damaged == ["CTRL"]
    assert v.board(" Pirates ") == "Pirates board Gull"
    with pytest.raises(RuleError, match="1-40"):
        v.board("")
    with pytest.raises(RuleError, match="not damaged"):
        v.repair("STR")
    v.repair("CTRL")
    assert not v.boardable and v.crew == 9
    with pytest.raises(RuleError, match="only after Critical"):
        v.board("Pirates")
    v.rest_at_port()
    assert v.guard == 3
    with pytest.raises(RuleError, match="already full"):
        v.rest_at_port()


def test_second_weapon_die_counts_for_no_named_weapon() -> None:
    ash = new_character("Ash", 12, 12, 10, 5)
    e = Encounter()
    combat.join_character(e, ash, weapon=4, weapon_name="Dagger")
    e.add("Rat", "Enemies", guard=0, strength=3)
    e.roll_initiative(rng=FixedRng(1))
    text = e.attack(Attack("Ash", "Rat", second_weapon=8), rng=FixedRng(1, 8))
    assert "dead" in text and e.sheet_due == []  # the d8 (second weapon) was kept
