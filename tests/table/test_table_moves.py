"""Issue 43: a move that reaches several sheets is one named table move, judged whole.

- A travel period marks every traveller's exhaustion in one unit of work: all stored
  together, in one transaction's events.
- A player's travel period that would mark another player's sheet is refused in one line
  and stores nothing, not even their own sheet's mark (the multi-sheet move refused
  halfway).
- A loaded sheet that takes another character's name is refused and stores nothing.
- A shared tracker's move that acts for the seat's own character (a duelist's pick) is
  judged with its arguments: the duelist's own pick is taken, the other's refused.
- A table move that is not declared is refused by name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.rulesets.cairn_srd.duel import Duel
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.store.campaign import create
from companion.store.db import Store
from companion.store.seats import make_seat
from companion.table import Session
from companion.table.acts import Accepted, Act, Refused
from tests.conftest import campaign_of, session_of

TRAVEL = "monsters_and_magic.party.travel_period"
LOAD = "monsters_and_magic.party.load_character"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'c.db'}")


def _party(store: Store) -> Session:
    gm = session_of(create(store, "T", ["monsters_and_magic", "cairn_srd"], who="Mira",
                           role="gm"))
    gm.add("Ash", Adventurer.new("Ash"))
    gm.add("Bryn", Adventurer.new("Bryn"))
    return gm


def _travel(hexes: int = 3, speed: str = "Fast") -> Act:
    return Act("", "table", {"name": TRAVEL, "args": {"hexes": hexes, "speed": speed}})


def test_a_travel_period_marks_every_sheet_in_one_unit(store: Store) -> None:
    gm = _party(store)
    head = campaign_of(gm).head
    outcome = gm.perform(_travel())
    assert isinstance(outcome, Accepted), outcome
    assert outcome.result["marked"] == ["Ash", "Bryn"]  # type: ignore[index]
    assert [(e["tracker"], e["move"]) for e in outcome.events] == [
        ("ash", "mark_exhaustion"), ("bryn", "mark_exhaustion")]
    assert [e["seq"] for e in outcome.events] == [head + 1, head + 2]
    for name in ("Ash", "Bryn"):
        sheet = gm.read(name)
        assert isinstance(sheet, Adventurer) and sheet.exhaustion == 2


def test_a_multi_sheet_move_refused_halfway_stores_nothing(store: Store) -> None:
    gm = _party(store)
    ash = Session.by_secret(store, "T", make_seat(store, "T", "Ash", "player"))
    head = store.head(campaign_of(gm).info.id)
    outcome = ash.perform(_travel())
    assert isinstance(outcome, Refused), outcome
    assert "Bryn" in outcome.reason and "\n" not in outcome.reason
    assert store.head(campaign_of(gm).info.id) == head
    # Ash's own sheet, marked first on the way, was taken back with the rest.
    for session in (ash, gm):
        session.refresh()
        for name in ("Ash", "Bryn"):
            sheet = session.read(name)
            assert isinstance(sheet, Adventurer) and sheet.exhaustion == 0, name


def test_a_loaded_sheet_may_not_take_another_character_s_name(store: Store) -> None:
    gm = _party(store)
    bryn_save = gm.read("Bryn").to_json()
    head = campaign_of(gm).head
    refused = gm.perform(Act("", "table", {"name": LOAD, "args": {
        "character": "Ash", "text": bryn_save}}))
    assert isinstance(refused, Refused) and "Bryn is already at the table" in refused.reason
    assert store.head(campaign_of(gm).info.id) == head
    renamed = Adventurer.new("Cato", power=2).to_json()
    taken = gm.perform(Act("", "table", {"name": LOAD, "args": {
        "character": "Ash", "text": renamed}}))
    assert isinstance(taken, Accepted) and taken.result == "Cato"
    sheet = gm.read("Ash")
    assert isinstance(sheet, Adventurer) and (sheet.name, sheet.power) == ("Cato", 2)


def test_a_duelist_picks_for_their_own_side_only(store: Store) -> None:
    gm = _party(store)
    gm.add("Duel", Duel(), role="minigame")
    gm.perform(Act("Duel", "start", {"first": "Ash", "second": "Bryn", "first_hp": 8,
                                     "second_hp": 8, "stakes": "the toll"}))
    ash = Session.by_secret(store, "T", make_seat(store, "T", "Ash", "player"))
    head = store.head(campaign_of(gm).info.id)
    other = ash.perform(Act("Duel", "choose", {"who": 1, "tactic": "attack"}))
    assert isinstance(other, Refused) and "Bryn's to make" in other.reason
    bad = ash.perform(Act("Duel", "choose", {"who": 0, "tactic": 5}))
    assert isinstance(bad, Refused) and "\n" not in bad.reason
    assert store.head(campaign_of(gm).info.id) == head
    mine = ash.perform(Act("Duel", "choose", {"who": 0, "tactic": "attack"}))
    assert isinstance(mine, Accepted), mine


def test_an_undeclared_table_move_is_refused_by_name(store: Store) -> None:
    gm = _party(store)
    outcome = gm.perform(Act("", "table", {"name": "cairn_srd.nowhere.fly"}))
    assert isinstance(outcome, Refused) and "cairn_srd.nowhere.fly" in outcome.reason
