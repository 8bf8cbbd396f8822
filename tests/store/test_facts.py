"""Events are facts: an old campaign opens as it was, replay runs no rule code, and the
conversion of a format 1 database happens once, in a transaction, after a copy is kept."""

from __future__ import annotations

import functools
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.plot_points import PlotPointSession
from companion.state import is_move, move
from companion.store.campaign import Campaign, create
from companion.store.db import Store, StoreError
from companion.store.registry import tracker_class, tracker_kinds
from companion.store.upcast import BACKUP_SUFFIX

COMPAT = Path(__file__).parent / "compat"


def _states(campaign: Campaign) -> dict[str, Any]:
    return {m.name: {"kind": m.key, "role": m.role, "state": m.tracker.snapshot(),
                     "log": [e.summary for e in m.tracker.log]} for m in campaign}


def _recorded() -> dict[str, Any]:
    """The states the old version read; a field added since (the Monarchs' nonce, M&M
    cover...) reads as its default, as in any old save: the recorded state is read
    through today's class, which adds defaults and changes nothing else."""
    recorded = dict(json.loads((COMPAT / "states.json").read_text()))
    for item in recorded.values():
        item["state"] = tracker_class(item["kind"]).from_state(item["state"]).snapshot()
    return recorded


def _copy_db(tmp_path: Path) -> Path:
    target = tmp_path / "campaigns.db"
    shutil.copy(COMPAT / "campaigns.db", target)
    return target


def test_the_fixture_covers_every_tracker_kind_the_apps_store() -> None:
    kinds = {v["kind"] for v in _recorded().values()}
    every = {k for r in ("plot_points", "cairn_srd", "miasma", "variant5e",
                         "monsters_and_magic") for k in tracker_kinds(r)}
    assert kinds <= every  # each still a kind today
    assert len(kinds) == 23  # every kind of its day (a kind added later: a newer fixture)


def test_an_old_database_opens_with_the_states_it_had(tmp_path: Path) -> None:
    path = _copy_db(tmp_path)
    store = Store(f"sqlite:///{path}")
    campaign = Campaign.open(store, "Compat")
    assert _states(campaign) == _recorded()
    # Converted once, in place, with a copy of the old file beside it.
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    assert backup.exists()
    assert backup.read_bytes()[:16] == b"SQLite format 3\x00"
    moves = [e for e in campaign.log() if e.kind in ("move", "undo")]
    assert moves and all(e.data.get("v") == 2 and "change" in e.data for e in moves)
    old = sqlite3.connect(str(backup))
    try:
        (old_moves,) = old.execute("select count(*) from companion_events where kind = 'move' "
                                   "and data like '%\"change\"%'").fetchone()
    finally:
        old.close()
    assert old_moves == 0  # the copy is the database as it was
    store.close()
    again = Store(f"sqlite:///{path}")
    assert _states(Campaign.open(again, "Compat")) == _recorded()
    again.close()


def test_an_old_export_imports_with_the_states_it_had(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'new.db'}")
    doc = json.loads((COMPAT / "export.json").read_text())
    assert doc["version"] == 1
    # No chain: refused unless asked for by name (issue 49), then imported as it was.
    with pytest.raises(StoreError, match="with no chain"):
        Campaign.import_document(store, doc, "Imported")
    campaign = Campaign.import_document(store, doc, "Imported", unchained=True)
    assert _states(campaign) == _recorded()
    exported = campaign.export()
    assert exported["version"] == 3  # chained as it was imported, under a new identity
    assert exported["chain"] == campaign.chain and len(exported["campaign"]) == 32
    copy = Campaign.import_document(store, exported, "Copy")
    assert _states(copy) == _recorded()
    assert copy.chain == campaign.chain  # the same history: the same chain


def test_an_old_database_is_chained_as_it_is_migrated(tmp_path: Path) -> None:
    """The previous release's database (schema 3 or older, no chain) opens with every
    event kept, each now carrying the hash of the one before it."""
    path = _copy_db(tmp_path)
    old = sqlite3.connect(str(path))
    try:
        (rows,) = old.execute("select count(*) from companion_events").fetchone()
    finally:
        old.close()
    store = Store(f"sqlite:///{path}")
    campaign = Campaign.open(store, "Compat")
    events = campaign.log()
    assert len(events) == rows == campaign.head
    from companion.store.chain import check_chain

    assert check_chain(campaign.info.uid, events) == campaign.chain != ""
    assert campaign.export()["chain"] == campaign.chain
    store.close()


def _forbid_rule_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every move of every tracker class raises: replay must not call one."""
    for ruleset in ("plot_points", "cairn_srd", "miasma", "variant5e", "monsters_and_magic"):
        for cls in tracker_kinds(ruleset).values():
            for name in dir(cls):
                original = getattr(cls, name, None)
                if is_move(original):
                    def refuse(*_a: Any, _name: str = name, **_k: Any) -> Any:
                        raise AssertionError(f"rule code ran: {_name}")
                    # Still marked a move (the log names moves), but raising if called.
                    monkeypatch.setattr(cls, name, functools.wraps(original)(refuse))


def test_replay_calls_no_rule_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    campaign = create(store, "T", ["cairn_srd", "plot_points"])
    ash = campaign.add("Ash", Character("Ash"))
    ash.take_damage(2)
    ash.add_fatigue()
    ash.undo()
    table = campaign.add("Table", PlotPointSession(), role="minigame")
    table.add_player("Ash")
    table.roll_check("Ash", seed=3)
    expected = _states(campaign)
    doc = campaign.export()
    # An import is judged as verify judges it (issue 49): its rolled moves are made again
    # beside the log to compare; the states it keeps are the log's facts all the same.
    assert _states(Campaign.import_document(store, doc, "Copy")) == expected
    _forbid_rule_code(monkeypatch)
    assert _states(Campaign.open(store, "T")) == expected
    assert _states(Campaign.open(store, "Copy")) == expected


def test_a_changed_rule_does_not_change_the_past(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    campaign = create(store, "T", ["cairn_srd"])
    ash = campaign.add("Ash", Character("Ash"))
    ash.take_damage(3)
    ash.add_fatigue()
    before = _states(campaign)

    def stricter(self: Character, amount: int) -> None:
        raise RuleError("a new rule: no damage today")

    monkeypatch.setattr(Character, "take_damage", move(stricter))
    monkeypatch.delattr(Character, "add_fatigue")  # a move a later version dropped
    assert _states(Campaign.open(store, "T")) == before


def test_an_old_event_that_cannot_be_converted_leaves_the_database_as_it_was(
        tmp_path: Path) -> None:
    path = _copy_db(tmp_path)
    conn = sqlite3.connect(str(path))
    with conn:
        row = conn.execute("select seq, data from companion_events where kind = 'move' "
                           "and data not like '%after%' order by seq limit 1").fetchone()
        data = json.loads(row[1])
        data["args"] = {"nonsense": 1}
        conn.execute("update companion_events set data = ? where seq = ?",
                     (json.dumps(data), row[0]))
    conn.close()
    store = Store(f"sqlite:///{path}")
    with pytest.raises(StoreError, match=rf"event {row[0]} .*cannot be converted"):
        Campaign.open(store, "Compat")
    store.close()
    assert not path.with_name(path.name + BACKUP_SUFFIX).exists()
    conn = sqlite3.connect(str(path))
    try:
        (converted,) = conn.execute("select count(*) from companion_events "
                                    "where data like '%\"change\"%'").fetchone()
    finally:
        conn.close()
    assert converted == 0  # (the schema's own migration, seats, may have run: not events)
