"""Facts all the way (issue 28): a stored state is restored as it was stored, and each
tracker's schema version is upgraded by upcasters, one per version step.

- Replaying add and set events (and reading a snapshot) runs no invariant of today's
  version: a stricter ``check_state`` or ``__post_init__`` does not keep an old campaign
  from opening; a player's own file is still judged when loaded.
- Data that cannot be restored at all (a value of the wrong type) is one line, never a
  traceback.
- Stored states and facts record their schema version; an older one is upgraded by the
  registered upcasters, its facts applied in their own form; a newer one is refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.errors import StateError
from companion.rulesets.cairn_srd.burden import SLOTS
from companion.rulesets.cairn_srd.character import Character
from companion.state import (
    Tracker,
    move,
    state_change,
    upcast_state,
    upcaster,
    upcasters_of,
)
from companion.store.campaign import Campaign, create
from companion.store.db import Store, StoreError
from companion.store.records import NewEvent
from companion.store.upcast import OlderStates
from tests.store.conftest import run_cli
from tests.store.forge import rechain


def _states(campaign: Campaign) -> dict[str, Any]:
    return {m.name: {"state": m.tracker.snapshot(), "log": [e.summary for e in m.tracker.log]}
            for m in campaign}


def _store_raw(store: Store, doc: dict[str, Any], name: str) -> None:
    """Store an exported (and tampered) log as it is: what an older program, or damage,
    left in the database (no check of today's, as the import's would be)."""
    store.import_campaign(name, doc["rulesets"], doc["created"],
                          [NewEvent(e["kind"], e["who"], e["role"], e["tracker"], e["move"],
                                    e["seed"], e["data"], e["at"]) for e in doc["events"]],
                          doc["campaign"])


# -- 1. no invariant of today's version judges history ---------------------------------------


@pytest.mark.parametrize("moves", [6, 130])  # 130: a snapshot is read, then the events after
def test_an_old_campaign_opens_when_check_state_is_made_stricter(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moves: int) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    campaign = create(store, "Old", ["cairn_srd"])
    ash = campaign.add("Ash", Character("Ash", guard_max=5, guard=5))
    for i in range(moves):
        if i % 2 == 0:
            ash.add_fatigue()
        else:
            ash.rest_night()
    campaign.replace("Ash", Character("Ash", guard_max=6, guard=6))  # a set event
    ash = campaign.tracker("Ash", Character)
    ash.add_item("Rope")
    ash.take_damage(2)
    expected = _states(campaign)
    assert (store.latest_snapshot(campaign.info.id) is not None) == (moves > 100)

    def stricter(self: Character) -> None:  # a later version: Guard at most 4
        if self.guard_max > 4:
            raise StateError("field 'guard_max': a new rule, at most 4")

    monkeypatch.setattr(Character, "check_state", stricter)
    with pytest.raises(StateError, match="a new rule"):
        Character.from_json(ash.to_json())  # a player's own file is still judged
    again = Campaign.open(store, "Old")
    assert _states(again) == expected
    sheet = again.tracker("Ash", Character)
    sheet.undo()  # the history's own undo snapshots are restored as stored too
    assert sheet.guard == 6 and sheet.guard_max == 6
    store.close()


STRICT = [False]


@dataclass
class Note:
    text: str = ""

    def __post_init__(self) -> None:
        if STRICT[0]:
            raise ValueError("a new rule: no notes")


@dataclass
class Board(Tracker):
    notes: list[Note] = field(default_factory=list)

    @move
    def pin(self, text: str) -> None:
        self.notes.append(Note(text))


def test_a_stricter_post_init_does_not_judge_a_restored_record() -> None:
    board = Board()
    board.pin("a map")
    saved = board.to_dict()
    change = state_change(Board().snapshot(), board.snapshot())
    STRICT[0] = True
    try:
        with pytest.raises(StateError, match="no notes"):
            Board.from_dict(saved)  # a file is judged by today's rules
        restored = Board.from_dict(saved, checked=False)  # history is not
        assert [n.text for n in restored.notes] == ["a map"] and len(restored.log) == 1
        fresh = Board()
        fresh.apply_fact("pin", {"text": "a map"}, "pinned", change)
        assert fresh.notes[0].text == "a map"
    finally:
        STRICT[0] = False


def test_data_that_cannot_be_restored_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    store = Store(url)
    campaign = create(store, "Good", ["cairn_srd"])
    campaign.add("Ash", Character("Ash"))
    doc = campaign.export()
    doc["events"][0]["data"]["state"]["strength"] = "ten"  # not a number at all
    _store_raw(store, rechain(doc), "Bad")
    with pytest.raises(StoreError) as caught:
        Campaign.open(store, "Bad")
    text = str(caught.value)
    assert "\n" not in text and "event 1" in text and "strength" in text
    store.close()
    monkeypatch.setenv("COMPANION_DB", url)
    monkeypatch.delenv("COMPANION_URL", raising=False)
    status, _out, err = run_cli(capsys, "campaign", "show", "Bad")
    assert status != 0 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "strength" in err


# -- 2. schema versions and upcasters ---------------------------------------------------------


def _old_character_state(*, purses: int) -> dict[str, Any]:
    """A Cairn character's state as schema 1 stored it: nine items and ``purses`` purses
    of 500 coins (each petty under the per-purse reading of that time)."""
    c = Character("Ash", guard_max=5, guard=5)
    for i in range(9):
        c.add_item(f"gear {i}")
    state = c.snapshot()
    del state["per_purse_coins"], state["fates_taken"]
    purse = {**state["items"][0], "name": "silver", "tag": "coins", "quantity": 500}
    state["items"] += [dict(purse) for _ in range(purses)]
    return state


def test_character_upcaster_from_schema_1() -> None:
    assert set(upcasters_of(Character)) == {1} and Character.schema == 2
    full = upcast_state(Character, _old_character_state(purses=3), 1)
    assert full["per_purse_coins"] is True and full["fates_taken"] == []
    fits = upcast_state(Character, _old_character_state(purses=1), 1)
    assert fits["per_purse_coins"] is False
    old = Character.from_state(_old_character_state(purses=3), schema=1)
    assert old.slots_used == SLOTS + 1 and old.free_slots == 0
    # The same burden at schema 2 without the mark is not a state the rules allow.
    with pytest.raises(StateError, match="more than 10 slots"):
        Character.from_state({**full, "per_purse_coins": False}, schema=2)
    # A schema 1 save: its state and every undo snapshot in its log are upgraded.
    save = {"tracker": "Character", "format": 1, "state": _old_character_state(purses=3),
            "log": [{"move": "take_damage", "args": {}, "summary": "hit",
                     "before": _old_character_state(purses=3)}]}
    loaded = Character.from_dict(save)
    assert loaded.per_purse_coins and loaded.log[0].before["per_purse_coins"] is True


def test_a_campaign_stored_at_schema_1_opens_upgraded(tmp_path: Path) -> None:
    """Facts stored at schema 1 are applied to the state in schema 1's form, then
    upgraded; a live move after them is of schema 2, and all of it opens again."""
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    s0 = _old_character_state(purses=3)
    s1 = {**s0, "guard": 2}
    s2 = {**s1, "inspiration": 1}
    events = [
        NewEvent("add", tracker="ash", data={"kind": "cairn_srd/Character", "name": "Ash",
                                             "role": "party", "state": s0}),
        NewEvent("move", tracker="ash", move="take_damage",
                 data={"v": 2, "args": {"amount": 3}, "summary": "Ash takes 3",
                       "change": state_change(s0, s1)}),
        NewEvent("move", tracker="ash", move="earn_inspiration",
                 data={"v": 2, "args": {}, "summary": "Ash is inspired",
                       "change": state_change(s1, s2)}),
    ]
    store.import_campaign("Old", ["cairn_srd"], "2026-01-01T00:00:00+00:00", events)
    campaign = Campaign.open(store, "Old")
    ash = campaign.tracker("Ash", Character)
    assert ash.guard == 2 and ash.inspiration == 1 and ash.per_purse_coins
    assert ash.slots_used == SLOTS + 1  # nine items and 1,500 coins: kept as stored
    assert [e.summary for e in ash.log] == ["Ash takes 3", "Ash is inspired"]
    ash.rest_turn()  # a live move: stored at schema 2
    assert campaign.log()[-1].data["schema"] == 2
    reopened = Campaign.open(store, "Old")
    assert _states(reopened) == _states(campaign)
    sheet = reopened.tracker("Ash", Character)
    sheet.undo()
    sheet.undo()  # back across a schema 1 fact: its snapshot was upgraded
    assert sheet.inspiration == 0 and sheet.guard == 2 and sheet.per_purse_coins
    sheet.undo()
    assert sheet.guard == 5
    assert _states(Campaign.open(store, "Old")) == _states(reopened)
    store.close()


@dataclass
class Lamp(Tracker):
    """A test tracker whose schema 2 renamed and rescaled a field: a stored change of
    schema 1 does not fit a schema 2 state."""

    schema = 2
    oil: int = 0

    @move
    def fill(self, uses: int) -> None:
        self.oil += uses


@upcaster(Lamp, from_version=1)
def _pints_to_uses(state: dict[str, Any]) -> dict[str, Any]:
    state["oil"] = state.pop("pints") * 2
    return state


def test_older_facts_are_applied_in_their_own_form() -> None:
    older = OlderStates()
    lamp = Lamp.from_state({"pints": 1}, schema=1, checked=False)
    older.restored("lamp", Lamp, 1, {"pints": 1})
    assert lamp.oil == 2
    older.fact("lamp", lamp, "move", "fill", {}, "a pint more", [[["pints"], 2]], 1)
    assert lamp.oil == 4 and lamp.log[-1].before == {"oil": 2}
    older.fact("lamp", lamp, "undo", "", {}, "", [[["pints"], 1]], 1)
    assert lamp.oil == 2 and not lamp.log
    older.fact("lamp", lamp, "move", "fill", {}, "3 uses", [[["oil"], 5]], 2)
    assert lamp.oil == 5 and older.current("lamp")
    # A schema 1 fact after a schema 2 one cannot be placed: said in one line.
    with pytest.raises(StateError, match="schema version 1 follows"):
        older.fact("lamp", lamp, "move", "fill", {}, "", [[["pints"], 9]], 1)


def test_an_unknown_future_schema_is_refused_in_one_line(tmp_path: Path) -> None:
    save = json.loads(Character("Ash").to_json())
    save["schema"] = 3
    with pytest.raises(StateError) as caught:
        Character.from_json(json.dumps(save))
    assert "\n" not in str(caught.value)
    assert "schema version 3, newer than this program reads (up to 2)" in str(caught.value)
    for bad in (0, "2", None):
        with pytest.raises(StateError, match="field 'schema' must be a version"):
            Character.from_json(json.dumps({**save, "schema": bad}))
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    state = Character("Ash").snapshot()
    store.import_campaign("Future", ["cairn_srd"], "2027-01-01T00:00:00+00:00", [
        NewEvent("add", tracker="ash", data={"kind": "cairn_srd/Character", "name": "Ash",
                                             "role": "party", "state": state, "schema": 3})])
    with pytest.raises(StoreError) as opened:
        Campaign.open(store, "Future")
    assert "\n" not in str(opened.value) and "schema version 3" in str(opened.value)
    store.close()


def test_upcasters_are_registered_one_per_step() -> None:
    with pytest.raises(ValueError, match="already has an upcaster from version 1"):
        upcaster(Lamp, from_version=1)(_pints_to_uses)
    with pytest.raises(ValueError, match="reads a version from 1 to 1"):
        upcaster(Lamp, from_version=2)

    @dataclass
    class Gap(Tracker):
        schema = 3

    @upcaster(Gap, from_version=2)
    def _two_to_three(state: dict[str, Any]) -> dict[str, Any]:
        return state

    with pytest.raises(StateError, match="no way to read schema version 1"):
        Gap.from_state({}, schema=1)
    assert Gap.from_state({}, schema=2) == Gap()


# -- the campaign's own member records --------------------------------------------------------


def test_member_records_have_a_format_and_its_upcasters(tmp_path: Path) -> None:
    """Records named after their owner ("Hit Dice: Ash") were party trackers in member
    format 1: the upcaster from 1 reads them as records (tests/store/test_records.py has
    the whole case); a record written today says its format; a newer one is refused."""
    from companion.store.upcast import MEMBER_FORMAT, member_upcaster, upcast_member

    old = {"kind": "variant5e/Turn", "name": "Turn: Ash", "role": "party", "state": {}}
    assert upcast_member(old, ["Ash"]) == {**old, "role": "record", "owner": "Ash",
                                           "member_format": MEMBER_FORMAT}
    assert old["role"] == "party"  # the stored record itself is not changed
    with pytest.raises(ValueError, match="one each"):
        member_upcaster(from_version=1)
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    campaign = create(store, "New", ["cairn_srd"])
    campaign.add("Ash", Character("Ash"))
    assert campaign.log()[-1].data["member_format"] == MEMBER_FORMAT
    assert all(m["member_format"] == MEMBER_FORMAT for m in campaign.state()["members"])
    store.import_campaign("Future", ["cairn_srd"], "2027-01-01T00:00:00+00:00", [
        NewEvent("add", tracker="ash", data={"kind": "cairn_srd/Character", "name": "Ash",
                                             "role": "party", "member_format": 3,
                                             "state": Character("Ash").snapshot()})])
    with pytest.raises(StoreError) as caught:
        Campaign.open(store, "Future")
    assert "\n" not in str(caught.value) and "member record of format 3" in str(caught.value)
    store.close()
