"""A darkness fate lands on the sheet once, however many moves follow (issue 28).

The check used to scan the sheet's undo log, which a campaign trims to its last 25 moves:
after 30 moves the Doomed scar could be applied a second time. The sheet now keeps the
sources of the fates it took in its state (``Character.fates_taken``), and the delve
numbers its fates (``Delve.fate_numbers``), so neither trimmed log is read."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd import exploration as ex
from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.exploration import Delve
from companion.store.campaign import UNDO_LIMIT, Campaign, create
from companion.store.db import Store

#: A seed whose darkness fate is "Scarred" with the scar d12 on Doomed.
DOOMED_SEED = 2


def _hero() -> Character:
    c = new_character("Ash", 12, 10, 9, 5)
    c.add_item("Rope")
    return c


def test_the_doomed_scar_is_applied_once_after_100_later_moves(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    campaign = create(store, "Deep", ["cairn_srd"])
    ash = campaign.add("Ash", _hero())
    delve = campaign.add("Delve", Delve(), role="encounter")
    assert "Doomed" in delve.darkness_fate("Ash", seed=DOOMED_SEED)
    line = ex.apply_fate(delve, ash)
    assert "Doomed" in line and ash.scars == ["Doomed"] and ash.doomed_scar
    for i in range(100):  # far more than the campaign's undo log keeps
        ash.add_fatigue() if i % 2 == 0 else ash.rest_night()
    assert len(ash.log) <= UNDO_LIMIT and not any(e.move == "suffer_scar" for e in ash.log)
    with pytest.raises(RuleError, match="already applied"):
        ex.apply_fate(delve, ash)
    assert ash.scars == ["Doomed"]
    # The fact is kept in the stored state: a reopened campaign refuses it as well.
    again = Campaign.open(store, "Deep")
    sheet = again.tracker("Ash", Character)
    with pytest.raises(RuleError, match="already applied"):
        ex.apply_fate(again.tracker("Delve", Delve), sheet)
    assert sheet.scars == ["Doomed"]
    store.close()


def test_the_fate_keeps_its_name_while_the_delve_moves_on() -> None:
    """The fate's source is its number in the delve, not its place in the delve's log (a
    trimmed log renumbered it); a later site's fate is another one."""
    d = Delve()
    d.darkness_fate("Ash", seed=DOOMED_SEED)
    c = _hero()
    ex.apply_fate(d, c)
    d.trim_log(0)  # what a campaign does to a long log
    with pytest.raises(RuleError, match="fate 1 of the delve: already applied"):
        ex.apply_fate(d, c)
    d.new_site()
    d.darkness_fate("Ash", seed=DOOMED_SEED)
    assert d.fate_numbers == {"Ash": 2}
    ex.apply_fate(d, c)  # a new fate in a new site: taken
    assert c.scars == ["Doomed", "Doomed"]
    assert c.fates_taken == ["the darkness, fate 1 of the delve",
                             "the darkness, fate 2 of the delve"]


def test_the_sheet_refuses_a_fate_from_the_same_source_twice() -> None:
    c = _hero()
    c.lose_gear([1], source="a trap, room 3")
    with pytest.raises(RuleError, match="already applied"):
        c.suffer_scar(12, source="a trap, room 3")
    c.suffer_scar(12)  # a scar with no source (the referee's call) is not counted
    c.suffer_scar(12)
    assert c.fates_taken == ["a trap, room 3"]
